"""SS Amerika air movement and basing (SSA-6.0-6.6), ground support (SSA-12.1), on the test map.

The Allies are the phasing player: their cities are Port City 0306 (industrial,
port, coastal), Mill Town 0806 (industrial) and Border Town 1306 (non-industrial);
the US standard fighter has range 6, the tactical bomber range 7 and bombardment 4.
"""

from __future__ import annotations

import pytest
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa.air import land_base_capacity
from workbench.rulesets.ssa.combat import assess


def ftr(uid, at, nation="US", **kw):
    return {"id": uid, "nation": nation, "type": "standard_fighter", "at": at, **kw}


def tb(uid, at, nation="US", **kw):
    return {"id": uid, "nation": nation, "type": "tactical_bomber", "at": at, **kw}


GE_INF = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0604"}


@pytest.fixture
def allied(ssa_game):
    def make(units, step="player/initial-movement", side="allies", extra=""):
        state = ssa_game(units, extra=extra).new_state(seed=1)
        return to_step(state, step, side)

    return make


def refused(state, order, rule):
    before = state.digest()
    with pytest.raises(IllegalOrder) as exc:
        state.apply(order)
    assert exc.value.rule == rule, exc.value
    assert state.digest() == before
    return exc.value


def test_ssa_6_3a_airbase_capacities(allied):
    s = allied([ftr("US-f", "0806"), GE_INF])
    cap = land_base_capacity(s, "allies")
    at = {h: int(cap[s.map.index(h)]) for h in ("0306", "0806", "1306", "0405", "0402", "0401", "1002")}
    # industrial city 4, non-industrial city 2, supplied clear hex 1 (0402 is 4 clear MP from the line),
    # 0401 is 5 MP away (not supplied), mountains never
    assert at == {"0306": 4, "0806": 4, "1306": 2, "0405": 1, "0402": 1, "0401": 0, "1002": 0}


def test_ssa_6_2_mission_up_to_range_each_hex_one(allied):
    s = allied([ftr("US-f", "0806"), {**GE_INF, "at": "0311"}, {**GE_INF, "id": "GE-2", "at": "0904"}])
    # 0806 -> 0311 is 7 hexes: beyond the fighter's range 6
    e = refused(s, {"kind": "fly", "unit": "US-f", "to": "0311", "mission": "interdict_ground"}, "SSA-6.2")
    assert "range is 6" in e.why
    s.apply({"kind": "fly", "unit": "US-f", "to": "0904", "mission": "interdict_ground"})
    u = s.unit("US-f")
    assert (u.location, u.props["flying"], u.props["base"], u.props["mission"]) == ("0904", True, "0806",
                                                                                   "interdict_ground")
    legal = [o for o in s.legal_orders_of("fly")]
    assert all(o["unit"] != "US-f" for o in legal)  # flies once


def test_ssa_12_G_mission_needs_a_target(allied):
    s = allied([ftr("US-f", "0806"), GE_INF])
    refused(s, {"kind": "fly", "unit": "US-f", "to": "0905", "mission": "interdict_ground"}, "SSA-12.G")
    # legal() offers only hexes where the mission has a target
    targets = {(o["to"], o["mission"]) for o in s.legal_orders_of("fly") if o["mission"] != "transfer"}
    assert ("0604", "interdict_ground") in targets and all(t == "0604" for t, _ in targets)


def test_ssa_6_6_transfer_legs_up_to_twice_range_not_after_a_mission(allied):
    s = allied([ftr("US-f", "0306"), ftr("US-g", "0306"), GE_INF])
    s.apply({"kind": "fly", "unit": "US-f", "to": "1306", "mission": "transfer"})  # 10 hexes <= 2 x 6
    assert s.unit("US-f").location == "1306" and not s.unit("US-f").props.get("flying")
    s.apply({"kind": "fly", "unit": "US-f", "to": "0806", "mission": "transfer"})  # any number of legs
    s.apply({"kind": "fly", "unit": "US-g", "to": "0604", "mission": "interdict_ground"})
    refused(s, {"kind": "fly", "unit": "US-g", "to": "0806", "mission": "transfer"}, "SSA-6.0")
    s2 = allied([ftr("US-f", "0306"), GE_INF])
    e = refused(s2, {"kind": "fly", "unit": "US-f", "to": "1002", "mission": "transfer"}, "SSA-6.3a")
    assert "not a friendly airbase" in e.why  # mountains are no base


def test_ssa_6_6_transfer_leg_limit(allied):
    s = allied([ftr("US-f", "0306"), ftr("GE-f", "0405", nation="GE"), GE_INF], side="axis")
    s.markers["city_control"]["1306"] = "axis"
    s.unit("GE-f").location = "0101"  # test set-up: 12 hexes from Border Town; the German fighter's range is 5
    e = refused(s, {"kind": "fly", "unit": "GE-f", "to": "1306", "mission": "transfer"}, "SSA-6.6")
    assert "2 x range = 10" in e.why


def test_ssa_6_3b_out_of_supply_base_transfers_only(allied):
    # the Axis has no supply source on the map: its fighter at 0405 is on an unsupplied base
    s = allied([ftr("GE-f", "0405", nation="GE"), {"id": "US-inf", "nation": "US", "type": "infantry_division",
                                                   "at": "0505"}], side="axis")
    s.markers["city_control"]["1306"] = "axis"
    refused(s, {"kind": "fly", "unit": "GE-f", "to": "0505", "mission": "interdict_ground"}, "SSA-6.3b")
    s.apply({"kind": "fly", "unit": "GE-f", "to": "1306", "mission": "transfer"})  # a city is always a base
    assert s.unit("GE-f").location == "1306"


def test_ssa_6_4_land_in_mechanized_phase_or_be_eliminated(allied):
    ge = {**GE_INF, "at": "1005"}
    s = allied([ftr("US-a", "1306"), ftr("US-b", "1306"), ftr("US-c", "0806"), tb("US-t", "0806"), ge])
    s.apply({"kind": "fly", "unit": "US-a", "to": "1005", "mission": "interdict_ground"})
    s.apply({"kind": "fly", "unit": "US-t", "to": "1005", "mission": "interdict_ground"})
    refused(s, {"kind": "land", "unit": "US-t", "to": "0806"}, "SSA-4.2b")  # not open in this phase
    s = to_step(s, "player/mechanized-movement", "allies")
    refused(s, {"kind": "land", "unit": "US-a", "to": "0306"}, "SSA-6.2")  # 7 hexes: the fighter's range is 6
    s.apply({"kind": "land", "unit": "US-t", "to": "0306"})  # 7 = the bomber's range; not its old base
    assert s.unit("US-t").location == "0306" and not s.unit("US-t").props.get("flying")
    # US-c fills Border Town (2 bases): US-a cannot come home and is lost at the end of the phase
    s.apply({"kind": "fly", "unit": "US-c", "to": "1306", "mission": "transfer"})
    s.advance()
    assert s.unit("US-a").location == "Eliminated"
    ev = s.events().filter(kind="eliminated").row(-1, named=True)
    assert ev["rule"] == "SSA-6.4"


def test_ssa_6_4_unlanded_aircraft_return_to_their_base_if_they_can(allied):
    s = allied([tb("US-t", "0806"), GE_INF])
    s.apply({"kind": "fly", "unit": "US-t", "to": "0604", "mission": "interdict_ground"})
    s = to_step(s, "player/mechanized-movement", "allies")
    assert {"kind": "land", "unit": "US-t", "to": "0806"} in s.legal_orders_of("land")
    s.advance()
    u = s.unit("US-t")
    assert u.location == "0806" and not u.props.get("flying") and not u.props.get("flown")


def test_ssa_6_3c_enemy_land_units_entering_destroy_grounded_air(allied):
    s = allied([ftr("US-f", "0405"), {"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0404"}],
               side="axis")
    s.apply({"kind": "move", "unit": "GE-pz", "path": ["0405", "0406"]})
    assert s.unit("US-f").location == "Eliminated"
    assert s.events().filter(kind="eliminated")["rule"].to_list() == ["SSA-6.3c"]


def test_ssa_6_3d_carrier_bases_two_qualified_one_when_reduced(allied):
    cv = {"id": "US-cv", "nation": "US", "type": "carrier_fleet", "at": "0205"}
    units = [cv, ftr("US-a", "0306", carrier_qualified=True), tb("US-b", "0306", carrier_qualified=True),
             ftr("US-c", "0306", carrier_qualified=True), ftr("US-n", "0306"), GE_INF]
    s = allied(units)
    e = refused(s, {"kind": "fly", "unit": "US-n", "to": "0205", "mission": "transfer", "carrier": "US-cv"},
                "SSA-6.3d")
    assert "carrier-qualified" in e.why
    s.apply({"kind": "fly", "unit": "US-a", "to": "0205", "mission": "transfer", "carrier": "US-cv"})
    s.apply({"kind": "fly", "unit": "US-b", "to": "0205", "mission": "transfer", "carrier": "US-cv"})
    e = refused(s, {"kind": "fly", "unit": "US-c", "to": "0205", "mission": "transfer", "carrier": "US-cv"},
                "SSA-6.3d")
    assert "two air units" in e.why
    s.apply({"kind": "sail", "unit": "US-cv", "to": "0210"})  # its air units sail with it
    assert s.unit("US-a").location == s.unit("US-b").location == "0210"
    s2 = allied([{**cv, "reduced": True}, *units[1:]])
    s2.apply({"kind": "fly", "unit": "US-a", "to": "0205", "mission": "transfer", "carrier": "US-cv"})
    e = refused(s2, {"kind": "fly", "unit": "US-b", "to": "0205", "mission": "transfer", "carrier": "US-cv"},
                "SSA-6.3d")
    assert "one air unit" in e.why


def test_ssa_12_1_ground_support_capped_at_land_strength(allied):
    us = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0605"}  # 7 CF, supplied
    s = allied([us, GE_INF, tb("US-t1", "0806"), tb("US-t2", "0806")])
    for t in ("US-t1", "US-t2"):
        s.apply({"kind": "fly", "unit": t, "to": "0604", "mission": "ground_support"})
    s = to_step(s, "player/combat/land", "allies")
    a = assess(s, "allies", ["US-inf"], ["0604"], ["US-t1", "US-t2"])
    # 2 x 4 bombardment = 8, capped at the 7 land CF: 14 vs the unsupplied German 8-5 halved to 4
    assert (a.land_attack, a.attack, a.defense, a.base_column) == (7, 14, 4, "3-1")
    s.apply({"kind": "attack", "attackers": ["US-inf"], "targets": ["0604"], "support": ["US-t1", "US-t2"]})
    assert s.unit("US-t1").props.get("supported")


def test_ssa_12_1_a_supporting_air_unit_counts_once(allied):
    """SSA-12.1: each aircraft adds its bombardment strength once -- listing US-t1 twice is refused
    (it had raised 11 vs 4, 2-1, to 14 vs 4, 3-1)."""
    us = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0605"}
    s = allied([us, GE_INF, tb("US-t1", "0806")])
    s.apply({"kind": "fly", "unit": "US-t1", "to": "0604", "mission": "ground_support"})
    s = to_step(s, "player/combat/land", "allies")
    refused(s, {"kind": "attack", "attackers": ["US-inf"], "targets": ["0604"], "support": ["US-t1", "US-t1"]},
            "SSA-12.1")
    s.apply({"kind": "attack", "attackers": ["US-inf"], "targets": ["0604"], "support": ["US-t1"]})
    assert s.unit("US-t1").props.get("supported")


def test_ssa_7_7f_an_air_unit_aboard_a_convoy_does_not_fly_off(allied):
    """SSA-7.7f: "Air units must be debarked on hexes containing friendly airbases" -- a fighter
    carried by a convoy at sea (0111) may not take off from it (6.6: from a base to a base)."""
    s = allied([{"id": "US-tp", "nation": "US", "type": "transport", "at": "0306"},
                {"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0306"}])
    s.apply({"kind": "embark", "convoy": "US-tp", "units": ["US-f"]})
    s.apply({"kind": "sail", "unit": "US-tp", "to": "0111"})
    assert not [o for o in s.legal_orders() if o["kind"] == "fly" and o["unit"] == "US-f"]
    refused(s, {"kind": "fly", "unit": "US-f", "to": "0806", "mission": "transfer"}, "SSA-6.0")
    assert s.unit("US-f").props.get("carried") == "US-tp"


def test_ssa_12_1_ground_support_over_an_amphibious_assault(allied):
    """SSA-12.1: "The attacker moves his aircraft to the target hex and adds the bombardment strength
    of his aircraft to his land units' combat strength" -- also for units that landed by assault in
    the defenders' own hex (G-09), with no friendly unit next to it."""
    s = allied([{"id": "US-tp", "nation": "US", "type": "transport", "at": "0306"},
                {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0306"},
                tb("US-t1", "0806"), {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0302"}])
    s.apply({"kind": "embark", "convoy": "US-tp", "units": ["US-inf"]})
    s.apply({"kind": "sail", "unit": "US-tp", "to": "0302"})
    s.apply({"kind": "amphibious_assault", "convoy": "US-tp", "units": ["US-inf"]})
    fly = {"kind": "fly", "unit": "US-t1", "to": "0302", "mission": "ground_support"}
    assert fly in s.legal_orders()
    s.apply(fly)
    assert s.unit("US-t1").props.get("mission") == "ground_support"


def test_ssa_12_1_only_ground_support_missions_support(allied):
    us = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0605"}
    s = allied([us, GE_INF, tb("US-t1", "0806")])
    s.apply({"kind": "fly", "unit": "US-t1", "to": "0604", "mission": "interdict_ground"})
    s = to_step(s, "player/combat/land", "allies")
    refused(s, {"kind": "attack", "attackers": ["US-inf"], "targets": ["0604"], "support": ["US-t1"]}, "SSA-12.1")
