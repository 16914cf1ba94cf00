"""SS Amerika air interdiction and strategic bombing (SSA-12.2, 12.3), casualties (SSA-14.X),
air supply (SSA-10.1h), with scripted dice.  The Allies fly; US tactical bombers have
bombardment 4 and range 7; German infantry out of supply defends with 8 / 2 = 4."""

from __future__ import annotations

import json

import pytest
from test_ssa_air import refused, tb
from test_ssa_combat import FixedDice
from test_ssa_movement import to_step

from workbench.rulesets.ssa.supply import supply_status


def ge(uid, at, utype="infantry_division", **kw):
    return {"id": uid, "nation": "GE", "type": utype, "at": at, **kw}


def fly_to_aerial_step(state, flights, *faces):
    """Fly the listed US air units on ``mission`` to ``target``, then stop at the aerial step with
    the dice scripted (shared by the air and chemical tests)."""
    state = to_step(state, "player/initial-movement", "allies")
    for uid, target, mission in flights:
        state.apply({"kind": "fly", "unit": uid, "to": target, "mission": mission})
    state = to_step(state, "player/combat/air", "allies")
    state.dice = FixedDice(*faces)
    return state


@pytest.fixture
def strike(ssa_game):
    """Fly the listed US air units on ``mission`` to ``target``, then stop at the aerial step."""
    def make(units, flights, *faces, prepare=None):
        state = ssa_game(units).new_state(seed=1)
        if prepare:
            prepare(state)
        return fly_to_aerial_step(state, flights, *faces)

    return make


def last(state, kind):
    return json.loads(state.events().filter(kind=kind)["data"].to_list()[-1])


def bombers(n, at="0806"):
    return [tb(f"US-t{i}", at) for i in range(1, n + 1)]


def test_ssa_12_2a_DZ_reduces_all_land_units_not_eliminates(strike):
    s = strike([*bombers(4), ge("GE-a", "0505")], [(f"US-t{i}", "0505", "interdict_ground") for i in range(1, 5)], 1)
    s.apply({"kind": "interdict", "units": ["US-t1", "US-t2", "US-t3", "US-t4"], "target": "0505"})
    c = last(s, "air_combat")
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (16, 4, "4-1", "DZ")
    assert s.unit("GE-a").reduced and s.unit("GE-a").location == "0505"
    assert s.events().filter(kind="roll")["rule"].to_list()[-1] == "SSA-12.2a"


def test_ssa_14_X_DE_attacker_chooses_the_defender_loss(strike):
    s = strike([*bombers(4), ge("GE-a", "0505"), ge("GE-b", "0505")],
               [(f"US-t{i}", "0505", "interdict_ground") for i in range(1, 5)], 1)
    s.apply({"kind": "interdict", "units": ["US-t1", "US-t2", "US-t3", "US-t4"], "target": "0505"})
    assert last(s, "air_combat")["column"] == "2-1"  # 16 vs 8: DE on a 1
    d = s.decision
    assert (d.side, d.kind, d.rule) == ("allies", "choose_losses", "SSA-12.2a")
    assert sorted(o["units"] for o in s.legal_orders()) == [["GE-a"], ["GE-b"]]
    s.apply({"kind": "choose_losses", "units": ["GE-b"]})
    assert s.unit("GE-b").reduced and not s.unit("GE-a").reduced


def test_ssa_12_2a_terrain_shift_and_EX_costs_an_air_unit(strike):
    # rough 0904: 8 vs 8 = 1-1, two columns left = 1-3; a 1 there is EX
    s = strike([*bombers(2), ge("GE-a", "0904"), ge("GE-b", "0904")],
               [("US-t1", "0904", "interdict_ground"), ("US-t2", "0904", "interdict_ground")], 1)
    s.apply({"kind": "interdict", "units": ["US-t1", "US-t2"], "target": "0904"})
    c = last(s, "air_combat")
    assert (c["base_column"], c["column"], c["result"]) == ("1-1", "1-3", "EX")
    assert s.decision.side == "allies" and s.frames[-1]["data"]["candidates"] == ["US-t1", "US-t2"]
    s.apply({"kind": "choose_losses", "units": ["US-t2"]})
    assert s.unit("US-t2").location == "Eliminated"
    assert s.decision.side == "allies" and s.frames[-1]["data"]["candidates"] == ["GE-a", "GE-b"]
    s.apply({"kind": "choose_losses", "units": ["GE-a"]})
    assert s.unit("GE-a").reduced
    refused(s, {"kind": "interdict", "units": ["US-t1"], "target": "0904"}, "SSA-12.2")  # attacks once


def test_ssa_12_2b_naval_interdiction_vs_aa_damaged_carrier_loses_an_air_unit(strike):
    units = [*bombers(4, at="0306"), ge("GE-cv", "0205", "carrier_fleet"), ge("GE-bb", "0205", "battle_fleet"),
             ge("GE-f", "0405", "standard_fighter")]

    def aboard(state):
        state.unit("GE-f").location = "0205"
        state.unit("GE-f").flag("carrier", "GE-cv")

    flights = [(f"US-t{i}", "0205", "interdict_naval") for i in range(1, 5)]
    s = strike(units, flights, 3, prepare=aboard)
    s.apply({"kind": "interdict", "units": ["US-t1", "US-t2", "US-t3", "US-t4"], "target": "0205"})
    c = last(s, "air_combat")
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (16, 10, "1-1", "EX")  # AA 6 + 4
    assert s.decision.side == "allies"  # own air loss first (last pushed), then the defender's (SSA-14.X)
    s.apply({"kind": "choose_losses", "units": ["US-t4"]})
    assert s.decision.side == "allies" and set(s.frames[-1]["data"]["candidates"]) == {"GE-cv", "GE-bb"}
    s.apply({"kind": "choose_losses", "units": ["GE-cv"]})
    assert s.unit("GE-cv").reduced and s.unit("GE-f").location == "Eliminated"


def test_ssa_12_2b_only_carrier_or_coastal_aircraft_attack_submarines(strike):
    units = [tb("US-in", "0806"), tb("US-co", "0306"), ge("GE-ss", "0205", "submarine")]
    s = strike(units, [("US-in", "0205", "interdict_naval"), ("US-co", "0205", "interdict_naval")], 1)
    refused(s, {"kind": "interdict", "units": ["US-in", "US-co"], "target": "0205"}, "SSA-13.6")
    s.apply({"kind": "interdict", "units": ["US-co"], "target": "0205"})  # based in the coastal city
    assert last(s, "air_combat")["defenders"] == ["GE-ss"]


def _axis_base(state):
    state.markers["city_control"]["0806"] = "axis"


def test_ssa_12_2c_airbase_hex_aa_no_terrain_DE_half_rounded_up(strike):
    units = [*bombers(4, at="0306"), *(ge(f"GE-f{i}", "0806", "standard_fighter") for i in range(3))]
    s = strike(units, [(f"US-t{i}", "0806", "interdict_airbase") for i in range(1, 5)], 1, prepare=_axis_base)
    s.apply({"kind": "interdict", "units": ["US-t1", "US-t2", "US-t3", "US-t4"], "target": "0806"})
    c = last(s, "air_combat")
    # 16 vs the industrial city's AA 5 = 3-1, no shift for the city (no terrain modifications)
    assert (c["defense"], c["column"], c["result"], c["shifts"]) == (5, "3-1", "DE", [])
    assert s.decision.side == "allies" and s.frames[-1]["data"]["count"] == 2  # half of 3, rounded up (A1)
    s.apply({"kind": "choose_losses", "units": ["GE-f0", "GE-f2"]})
    assert [s.unit(f"GE-f{i}").location for i in range(3)] == ["Eliminated", "0806", "Eliminated"]


def test_ssa_12_3_strategic_bombing_places_the_marker(strike):
    units = [{"id": "US-sb", "nation": "US", "type": "strategic_bomber", "at": "0306"}, ge("GE-x", "1206")]

    def axis_town(state):
        state.markers["city_control"]["1306"] = "axis"

    s = strike(units, [("US-sb", "1306", "bomb")], 1, prepare=axis_town)
    before = s.arrays.get("bombed")
    s.apply({"kind": "bomb", "units": ["US-sb"], "target": "1306"})
    c = last(s, "air_combat")
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (6, 3, "2-1", "DE")  # non-industrial AA 3
    assert s.arrays["bombed"][s.map.index("1306")] and s.arrays["bombed"] is not before
    assert s.events().filter(kind="bombed")["rule"].to_list() == ["SSA-12.3a"]


def test_ssa_12_3a_EX_succeeds_and_loses_the_bomber(strike):
    units = [{"id": "US-sb", "nation": "US", "type": "strategic_bomber", "at": "0306"}, ge("GE-x", "1206")]
    s = strike(units, [("US-sb", "1306", "bomb")], 4,
               prepare=lambda st: st.markers["city_control"].__setitem__("1306", "axis"))
    s.apply({"kind": "bomb", "units": ["US-sb"], "target": "1306"})
    assert last(s, "air_combat")["result"] == "EX"
    assert s.arrays["bombed"][s.map.index("1306")] and s.unit("US-sb").location == "Eliminated"


def test_ssa_10_1h_air_supply_for_a_game_turn(strike):
    cargo = {"id": "US-c", "nation": "US", "type": "air_cargo", "at": "0806"}
    us = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "1002"}
    blockers = [ge("GE-1", "0903"), ge("GE-2", "1103"), ge("GE-3", "1001"), ge("GE-4", "1004"),
                ge("GE-5", "0902"), ge("GE-6", "1102")]
    s = strike([cargo, us, *blockers], [("US-c", "1002", "air_supply")])
    assert s.markers["air_supplied"]["1002"]["side"] == "allies"
    assert supply_status(s, "allies")["US-inf"]
    assert s.events().filter(kind="air_supply")["rule"].to_list() == ["SSA-10.1h"]


def test_ssa_10_1h_air_supply_serves_the_side_that_flew_it(ssa_game):
    """SSA-10.1h: an air supply mission supplies "any unit in that hex" -- of the side that flew it:
    a German unit in a hex the Allies air-supplied stays out of supply."""
    from workbench.rulesets.ssa.supply import supply_status

    s = ssa_game([{"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0908"}]).new_state(seed=1)
    assert not supply_status(s, "axis")["GE-inf"]
    s.markers["air_supplied"] = {"0908": {"side": "allies", "turn": s.turn}}
    assert not supply_status(s, "axis")["GE-inf"]
    s.markers["air_supplied"] = {"0908": {"side": "axis", "turn": s.turn}}
    assert supply_status(s, "axis")["GE-inf"]


def test_ssa_10_1h_only_air_cargo_flies_air_supply(ssa_game):
    us = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0905"}
    s = to_step(ssa_game([tb("US-t", "0806"), us]).new_state(seed=1), "player/initial-movement", "allies")
    refused(s, {"kind": "fly", "unit": "US-t", "to": "0905", "mission": "air_supply"}, "SSA-10.1h")
