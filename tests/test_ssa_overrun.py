"""SS Amerika overrun (SSA-11.10a-g; threshold 7-1 after shifts authored in overrun.toml, G-11).
German panzer divisions are 13-8; a reduced US infantry division defends with 4, in supply
from the industrial cities."""

from __future__ import annotations

import json

import pytest
from test_ssa_air import refused
from test_ssa_movement import to_step

CONVOY = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}


def pz(n, at="0404"):
    return [{"id": f"GE-pz{i}", "nation": "GE", "type": "armor_division", "at": at} for i in range(1, n + 1)]


def us_red(uid="US-inf", at="0505"):
    return {"id": uid, "nation": "US", "type": "infantry_division", "at": at, "reduced": True}


IDS3 = ["GE-pz1", "GE-pz2", "GE-pz3"]


@pytest.fixture
def move(ssa_game):
    def make(units, step="player/initial-movement"):
        return to_step(ssa_game(units).new_state(seed=1), step, "axis")

    return make


def test_ssa_11_10d_overrun_eliminates_pays_4_mf_no_die(move):
    s = move([*pz(3), CONVOY, us_red()])
    s.apply({"kind": "overrun", "units": IDS3, "target": "0505"})
    assert s.unit("US-inf").location == "Eliminated"
    assert all(s.unit(u).props["mf_spent"] == 4 and s.unit(u).location == "0404" for u in IDS3)
    ev = json.loads(s.events().filter(kind="overrun")["data"].to_list()[-1])
    assert (ev["attack"], ev["defense"], ev["column"]) == (39, 4, "9-1")
    assert s.events().filter(kind="roll").height == 0


def test_ssa_11_10g_threshold_after_terrain_shifts(move):
    s = move([*pz(2), CONVOY, us_red()])
    e = refused(s, {"kind": "overrun", "units": ["GE-pz1", "GE-pz2"], "target": "0505"}, "SSA-11.10g")
    assert "6-1" in e.why and "7-1" in e.why  # 26 vs 4
    s = move([*pz(3, at="0804"), CONVOY, us_red(at="0904")])  # rough: 9-1 shifted two left = 7-1
    s.apply({"kind": "overrun", "units": IDS3, "target": "0904"})
    ev = json.loads(s.events().filter(kind="overrun")["data"].to_list()[-1])
    assert (ev["base_column"], ev["column"]) == ("9-1", "7-1")


def test_ssa_11_10f_supply_judged_at_the_instant(move):
    s = move([*pz(3), us_red()])  # no convoy: the Germans are out of supply, 39 halved to 19.5
    e = refused(s, {"kind": "overrun", "units": IDS3, "target": "0505"}, "SSA-11.10g")
    assert "19.5 vs 4" in e.why


def test_ssa_11_10e_may_overrun_again_and_continue_moving(move):
    s = move([*pz(3), CONVOY, us_red(), us_red("US-2", "0504")])
    s.apply({"kind": "overrun", "units": IDS3, "target": "0505"})
    s.apply({"kind": "overrun", "units": IDS3, "target": "0504"})  # 8 MF spent: both gone
    assert s.unit("US-2").location == "Eliminated" and s.unit("GE-pz1").props["mf_spent"] == 8
    s = move([*pz(3), CONVOY, us_red(), us_red("US-3", "0506")])
    s.apply({"kind": "overrun", "units": IDS3, "target": "0505"})
    s.apply({"kind": "move", "unit": "GE-pz1", "path": ["0505"]})  # the stack moves on as one (11.10c)
    assert all(s.unit(u).location == "0505" for u in IDS3)
    e = refused(s, {"kind": "overrun", "units": IDS3, "target": "0506"}, "SSA-11.10d")
    assert "2 MF left" in e.why  # 4 + (1 + 1 into the ZOC of US-3)


def test_ssa_11_10d_needs_four_mf_left(move):
    s = move([*pz(3, at="0302"), CONVOY, us_red()])
    for u in IDS3:  # 1 + 1 + (1 + 1 entering the US ZOC) = 4 spent, 4 left
        s.apply({"kind": "move", "unit": u, "path": ["0303", "0304", "0404"]})
    s.apply({"kind": "overrun", "units": IDS3, "target": "0505"})
    s2 = move([*pz(3, at="0301"), CONVOY, us_red()])
    for u in IDS3:  # 5 spent, 3 left
        s2.apply({"kind": "move", "unit": u, "path": ["0302", "0303", "0304", "0404"]})
    e = refused(s2, {"kind": "overrun", "units": IDS3, "target": "0505"}, "SSA-11.10d")
    assert "3 MF left; an overrun costs 4" in e.why


def test_ssa_11_10c_units_must_move_together_as_a_stack(move):
    s = move([*pz(3), CONVOY, us_red()])
    s.apply({"kind": "move", "unit": "GE-pz1", "path": ["0403", "0404"]})
    refused(s, {"kind": "overrun", "units": IDS3, "target": "0505"}, "SSA-11.10c")


def test_ssa_11_10c_the_overrun_stack_moves_as_one_for_the_rest_of_the_phase(move):
    inf = {"id": "GE-i1", "nation": "GE", "type": "infantry_division", "at": "0404"}  # 8-5: 1 MF after 4
    stack = ["GE-pz1", "GE-pz2", "GE-i1"]
    s = move([*pz(2), inf, CONVOY, us_red()])
    s.apply({"kind": "overrun", "units": stack, "target": "0505"})  # 34 vs 4: 8-1
    # two clear hexes cost the panzers 2 of their 4 MF left, but the infantry has 1: it cannot follow
    refused(s, {"kind": "move", "unit": "GE-pz1", "path": ["0505", "0605"]}, "SSA-11.10c")
    assert all(s.unit(u).location == "0404" for u in stack)  # nothing moved
    s.apply({"kind": "move", "unit": "GE-pz1", "path": ["0505"]})
    assert [s.unit(u).location for u in stack] == ["0505"] * 3
    assert [s.unit(u).props["mf_spent"] for u in stack] == [5, 5, 5]


def test_ssa_11_10a_land_units_only(move):
    f = {"id": "GE-f", "nation": "GE", "type": "standard_fighter", "at": "0404"}
    s = move([*pz(3), f, CONVOY, us_red()])
    refused(s, {"kind": "overrun", "units": [*IDS3, "GE-f"], "target": "0505"}, "SSA-11.10a")


def test_ssa_11_10b_both_movement_phases_mech_only_in_the_second(move):
    inf = [{"id": f"GE-i{i}", "nation": "GE", "type": "infantry_division", "at": "0404"} for i in (1, 2, 3)]
    s = move([*inf, CONVOY, us_red()], step="player/mechanized-movement")
    refused(s, {"kind": "overrun", "units": ["GE-i1", "GE-i2", "GE-i3"], "target": "0505"}, "SSA-11.10b")
    s = move([*pz(3), CONVOY, us_red()], step="player/mechanized-movement")
    assert {"kind": "overrun", "units": IDS3, "target": "0505"} in s.legal_orders_of("overrun")
    s.apply({"kind": "overrun", "units": IDS3, "target": "0505"})
    assert s.unit("US-inf").location == "Eliminated"
