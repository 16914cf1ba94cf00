"""SS Amerika leaders (SSA-24) on the test map.  Leaders are CF 0, MF 10, mechanized (24.1).

24.1-24.5 hold with or without optional rule 24 (five scenarios set leaders up: ruling A22/A28);
the letters of 24.7-24.8 act only with ``optional_rules = ["SSA-24"]``.
"""

from __future__ import annotations

import json

import pytest
from ssa_kit import NO_SUPPLY_MOVEMENT_PENALTY
from test_ssa_combat import ALL_IN, CONVOY, GE, US, FixedDice
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.ssa import leaders
from workbench.rulesets.ssa.combat import assess
from workbench.rulesets.ssa.losses import eliminate
from workbench.rulesets.ssa.supply import supply_status
from workbench.rulesets.ssa.zoc import land_zoc

RULE_24 = '[options]\noptional_rules = ["SSA-24"]\n'


def ldr(uid: str, nation: str, at: str, letter: str | None = None) -> dict:
    u = {"id": uid, "nation": nation, "type": "leader", "at": at}
    if letter:
        u["letter"] = letter
    return u


def eliminated_by(state, uid: str) -> str | None:
    for e in state.events().filter(kind="eliminated").iter_rows(named=True):
        if json.loads(e["data"])["unit"] == uid:
            return e["rule"]
    return None


@pytest.fixture
def at_step(ssa_game):
    def make(units, key, side, *faces, extra=""):
        state = ssa_game(units, extra=NO_SUPPLY_MOVEMENT_PENALTY + extra).new_state(seed=1)
        state = to_step(state, key, side)
        if faces:
            state.dice = FixedDice(*faces)
        return state

    return make


# -- 24.4: elimination, with no optional rule on (A22) ---------------------------------------------
def test_ssa_24_4_lone_leader_eliminated_when_enemy_enters(at_step):
    s = at_step([ldr("GE-ldr", "GE", "0505"), {**US, "at": "0507"}], "player/initial-movement", "allies")
    assert "SSA-24" not in s.game.options.get("optional_rules", [])
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0506", "0505"]})
    assert s.unit("GE-ldr").location == "Eliminated" and eliminated_by(s, "GE-ldr") == "SSA-24.4"


def test_ssa_24_4_lone_leader_eliminated_when_enemy_moves_through(at_step):
    s = at_step([ldr("GE-ldr", "GE", "0505"), {**US, "at": "0507"}], "player/initial-movement", "allies")
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0506", "0505", "0504"]})
    assert s.unit("US-inf").location == "0504" and s.unit("GE-ldr").location == "Eliminated"


def test_ssa_24_4_leader_eliminated_when_every_unit_stacked_with_it_is_eliminated_in_combat(ssa_game):
    us = {**US, "reduced": True}  # 24 vs 4: 6-1, die 1: DZ
    state = ssa_game([*GE, CONVOY, us, ldr("US-ldr", "US", "0505")]).new_state(seed=1)
    s = to_step(state, "player/combat/land", "axis")
    s.dice = FixedDice(1)
    s.apply(ALL_IN)
    assert s.unit("US-inf").location == "Eliminated"
    assert s.unit("US-ldr").location == "Eliminated" and eliminated_by(s, "US-ldr") == "SSA-24.4"


def test_ssa_24_4_leader_survives_while_a_unit_stacked_with_it_survives(ssa_game):
    """DR (3-1, die 4): the defender retreats; its leader goes with the last unit (ruling A28)."""
    state = ssa_game([*GE, CONVOY, US, ldr("US-ldr", "US", "0505")]).new_state(seed=1)
    s = to_step(state, "player/combat/land", "axis")
    s.dice = FixedDice(4)
    s.apply(ALL_IN)
    assert s.decision.kind == "retreat"
    s.apply(s.legal_orders()[0])
    assert s.unit("US-ldr").location == s.unit("US-inf").location != "0505"


def test_ssa_24_4_leaders_take_no_part_in_combat_strength(ssa_game):
    state = ssa_game([*GE, CONVOY, US, ldr("US-ldr", "US", "0505")]).new_state(seed=1)
    s = to_step(state, "player/combat/land", "axis")
    a = assess(s, "axis", ALL_IN["attackers"], ["0505"])
    assert (a.defense, a.defenders) == (7, ["US-inf"])


# -- 24.1-24.3 -----------------------------------------------------------------------------------
def test_ssa_24_1_leader_moves_ten_one_mf_a_hex_in_any_land_terrain(at_step):
    s = at_step([ldr("GE-ldr", "GE", "1001")], "player/initial-movement", "axis")
    s.apply({"kind": "move", "unit": "GE-ldr", "to": "1003"})  # into mountains, prohibited to mechanized units
    assert s.unit("GE-ldr").props["mf_spent"] == s.map.distance("1001", "1003") == 2
    s.apply({"kind": "move", "unit": "GE-ldr", "path": ["0904", "0804", "0705", "0605"]})  # rough, across the river
    assert s.unit("GE-ldr").props["mf_spent"] == 6
    s.apply({"kind": "move", "unit": "GE-ldr", "path": ["0604", "0504", "0404", "0304"]})  # forestation: 1 each
    assert s.unit("GE-ldr").props["mf_spent"] == 10
    with pytest.raises(IllegalOrder, match="may not move now"):  # all 10 MF spent
        s.apply({"kind": "move", "unit": "GE-ldr", "path": ["0404"]})


def test_ssa_24_1_leader_moves_in_the_mechanized_phase_too(at_step):
    s = at_step([ldr("GE-ldr", "GE", "0505")], "player/mechanized-movement", "axis")
    assert "GE-ldr" in {o.get("unit") for o in s.legal_orders() if o["kind"] == "move"}


def test_ssa_24_2_leaders_are_always_in_supply(at_step):
    s = at_step([ldr("GE-ldr", "GE", "1210"), {"id": "GE-inf", "nation": "GE", "type": "infantry_division",
                                                 "at": "1209"}], "player/initial-movement", "axis")
    status = supply_status(s, "axis")
    assert status["GE-ldr"] and not status["GE-inf"]


def test_ssa_24_3_leaders_have_no_zoc_and_enemy_units_pass_through(at_step):
    s = at_step([ldr("GE-ldr", "GE", "0505"), {**US, "at": "0507"}], "player/initial-movement", "allies")
    assert not land_zoc(s, "axis").any()
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0506", "0505", "0504"]})
    assert s.unit("US-inf").props["mf_spent"] == 3  # clear 1, clear 1, forestation 1 (foot): no ZOC costs


# -- 24.5 ------------------------------------------------------------------------------------------
def test_ssa_24_5_leader_aboard_is_eliminated_with_its_carrier(at_step):
    s = at_step([ldr("GE-ldr", "GE", "0306"), {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}],
                "player/initial-movement", "axis")
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-ldr"]})
    eliminate(s, s.unit("GE-tp"), "SSA-13.8")
    assert s.unit("GE-ldr").location == "Eliminated" and eliminated_by(s, "GE-ldr") == "SSA-24.5"


# -- 24.6-24.7 -----------------------------------------------------------------------------------
def test_ssa_24_6_leaders_drawn_at_random_royal_family_in_ottawa():
    g = load_scenario("ssa/1941")
    g.options["optional_rules"] = ["SSA-24"]
    s = g.new_state(seed=3)
    lead = [u for u in s.units_by_id.values() if u.type == "leader"]
    assert len([u for u in lead if u.nation == "GE"]) == 5 and len([u for u in lead if u.nation == "JA"]) == 2
    assert all(u.props.get("letter") in ("A", "G", "F", "B") for u in lead)
    rolls = s.events().filter(kind="roll", rule="SSA-24.6")
    assert len(rolls) == len(lead) and "which leader counter" in rolls["purpose"][0]
    royal = s.unit("BC-royal")
    ottawa = s.map.places.filter(s.map.places["name"] == "Ottawa")["hex"].to_list()
    assert "letter" not in royal.props and royal.location in ottawa


def test_ssa_24_7_the_letter_is_on_the_counter(at_step):
    s = at_step([ldr("GE-ldr", "GE", "0505", "A")], "player/initial-movement", "axis", extra=RULE_24)
    card = s.ruleset.unit_card(s, s.unit("GE-ldr"))
    assert card == {"strength": "0", "movement": "10", "note": 'leader "A": armored forces leader'}


# -- 24.8 ------------------------------------------------------------------------------------------
PZ = [{"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0404"}]


def test_ssa_24_8_A_leader_shifts_a_mechanized_attack_one_column_right(ssa_game):
    units = [*PZ, CONVOY, US, ldr("GE-ldr", "GE", "0404", "A")]
    s = to_step(ssa_game(units, extra=RULE_24).new_state(seed=1), "player/combat/land", "axis")
    a = assess(s, "axis", ["GE-pz"], ["0505"])
    assert (a.attack, a.defense, a.base_column, a.column) == (13, 7, "1-1", "2-1")
    assert [n for n, _, rule in a.shifts if rule == "SSA-24.8-A"] == [1]
    off = to_step(ssa_game(units).new_state(seed=1), "player/combat/land", "axis")  # rule 24 off: no shift
    assert assess(off, "axis", ["GE-pz"], ["0505"]).column == "1-1"


def test_ssa_24_8_A_leader_gives_no_shift_to_foot_units(ssa_game):
    units = [*GE, CONVOY, US, ldr("GE-ldr", "GE", "0404", "A")]
    s = to_step(ssa_game(units, extra=RULE_24).new_state(seed=1), "player/combat/land", "axis")
    assert assess(s, "axis", ALL_IN["attackers"], ["0505"]).column == "3-1"


COLUMN_04 = [f"04{r:02d}" for r in range(2, 12)]  # ten clear hexes south of 0401


def test_ssa_24_8_A_mechanized_units_with_the_leader_have_mf_ten(at_step):
    units = [{"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0401"}, ldr("GE-ldr", "GE", "0401", "A")]
    s = at_step(units, "player/mechanized-movement", "axis", extra=RULE_24)
    s.apply({"kind": "move", "unit": "GE-pz", "path": COLUMN_04})  # 10 MF for a panzer division of MF 8
    assert s.unit("GE-pz").props["mf_spent"] == 10
    assert s.unit("GE-ldr").location == "0411"  # the leader moved with it


def test_ssa_24_8_A_without_the_leader_mechanized_units_keep_their_mf(at_step):
    units = [{"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0401"}]
    s = at_step(units, "player/mechanized-movement", "axis", extra=RULE_24)
    with pytest.raises(IllegalOrder, match="SSA-5.2"):
        s.apply({"kind": "move", "unit": "GE-pz", "path": COLUMN_04})


def test_ssa_24_8_A_only_in_the_mechanized_phase(at_step):
    units = [{"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0401"}, ldr("GE-ldr", "GE", "0401", "A")]
    s = at_step(units, "player/initial-movement", "axis", extra=RULE_24)
    with pytest.raises(IllegalOrder, match="SSA-5.2"):
        s.apply({"kind": "move", "unit": "GE-pz", "path": COLUMN_04})


def test_ssa_24_8_G_leader_shifts_land_combat_its_way_attacking_or_defending(ssa_game):
    att = to_step(ssa_game([*GE, CONVOY, US, ldr("GE-ldr", "GE", "0404", "G")], extra=RULE_24).new_state(seed=1),
                  "player/combat/land", "axis")
    assert assess(att, "axis", ALL_IN["attackers"], ["0505"]).column == "4-1"
    dfn = to_step(ssa_game([*GE, CONVOY, US, ldr("US-ldr", "US", "0505", "G")], extra=RULE_24).new_state(seed=1),
                  "player/combat/land", "axis")
    a = assess(dfn, "axis", ALL_IN["attackers"], ["0505"])
    assert a.column == "2-1" and [r for _, _, r in a.shifts] == ["SSA-24.8-G"]


def test_ssa_24_8_B_bomber_leader_rides_the_bomber_and_shifts_strategic_bombing(ssa_game):
    units = [{"id": "US-sb", "nation": "US", "type": "strategic_bomber", "at": "0306"},
             ldr("US-ldr", "US", "0306", "B"), {"id": "GE-x", "nation": "GE", "type": "infantry_division",
                                                "at": "1206"}]
    s = ssa_game(units, extra=RULE_24).new_state(seed=1)
    s.markers["city_control"]["1306"] = "axis"
    s = to_step(s, "player/initial-movement", "allies")
    with pytest.raises(IllegalOrder, match="SSA-24.5"):
        s.apply({"kind": "fly", "unit": "US-sb", "to": "1306", "mission": "bomb", "leader": "GE-x"})
    s.apply({"kind": "fly", "unit": "US-sb", "to": "1306", "mission": "bomb", "leader": "US-ldr"})
    assert s.unit("US-ldr").location == "1306" and s.unit("US-ldr").props["riding"] == "US-sb"
    s = to_step(s, "player/combat/air", "allies")
    s.dice = FixedDice(5)
    s.apply({"kind": "bomb", "units": ["US-sb"], "target": "1306"})
    c = json.loads(s.events().filter(kind="air_combat")["data"].to_list()[-1])
    assert (c["base_column"], c["column"]) == ("2-1", "3-1")  # 6 vs AA 3, one column right
    assert c["result"] == "EX"  # the bomber is lost (12.3a), and the leader with it (24.8-B, 24.5)
    assert s.unit("US-sb").location == "Eliminated" and s.unit("US-ldr").location == "Eliminated"


def test_ssa_24_8_F_fighter_leader_helps_only_fighters_though_a_bomber_may_carry_it(ssa_game):
    units = [{"id": "US-sb", "nation": "US", "type": "strategic_bomber", "at": "0306"},
             ldr("US-ldr", "US", "0306", "F")]
    s = ssa_game(units, extra=RULE_24).new_state(seed=1)
    s.markers["city_control"]["1306"] = "axis"
    s = to_step(s, "player/initial-movement", "allies")
    s.apply({"kind": "fly", "unit": "US-sb", "to": "1306", "mission": "bomb", "leader": "US-ldr"})  # 24.5
    sb = s.unit("US-sb")
    assert s.unit("US-ldr").props["riding"] == "US-sb"
    assert leaders.air_shift(s, [sb], "F") == 0 and leaders.air_shift(s, [sb], "B") == 0


def test_ssa_24_5_any_air_unit_carries_a_leader_even_on_a_transfer(ssa_game):
    units = [{"id": "US-c47", "nation": "US", "type": "air_cargo", "at": "0306"}, ldr("US-ldr", "US", "0306", "G")]
    s = to_step(ssa_game(units).new_state(seed=1), "player/initial-movement", "allies")
    s.apply({"kind": "fly", "unit": "US-c47", "to": "0806", "mission": "transfer", "leader": "US-ldr"})
    assert s.unit("US-ldr").location == "0806" and "riding" not in s.unit("US-ldr").props


def test_ssa_24_5_a_leader_boards_any_naval_unit_and_sinks_with_it(at_step):
    bf = {"id": "GE-bf", "nation": "GE", "type": "battle_fleet", "at": "0306"}
    s = at_step([ldr("GE-ldr", "GE", "0306"), bf, {**GE[0], "at": "0306"}], "player/initial-movement", "axis")
    assert {"kind": "embark", "convoy": "GE-bf", "units": ["GE-ldr"]} in s.legal_orders_of("embark")
    with pytest.raises(IllegalOrder, match="only leaders may board other naval units"):
        s.apply({"kind": "embark", "convoy": "GE-bf", "units": [GE[0]["id"]]})
    s.apply({"kind": "embark", "convoy": "GE-bf", "units": ["GE-ldr"]})
    s.apply({"kind": "sail", "unit": "GE-bf", "to": "0302"})
    assert s.unit("GE-ldr").location == "0302"
    eliminate(s, s.unit("GE-bf"), "SSA-13.8")
    assert s.unit("GE-ldr").location == "Eliminated" and eliminated_by(s, "GE-ldr") == "SSA-24.5"


def test_ssa_24_8_F_fighter_leader_shifts_its_fighter_combat(ssa_game):
    units = [{"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0306"}, ldr("US-ldr", "US", "0306", "F")]
    s = to_step(ssa_game(units, extra=RULE_24).new_state(seed=1), "player/initial-movement", "allies")
    f = s.unit("US-f")
    leaders.board(s, f, "US-ldr")
    assert leaders.air_shift(s, [f], "F") == 1 and leaders.air_shift(s, [f], "B") == 0
    eliminate(s, f, "SSA-6.4")  # shot down: the leader with it
    assert s.unit("US-ldr").location == "Eliminated" and eliminated_by(s, "US-ldr") == "SSA-24.5"


def test_ssa_24_8_F_fighter_leader_goes_up_with_interceptors(ssa_game):
    """24.8-F: "if it begins the movement or interception phase in the same hex"."""
    units = [{"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0806"}, ldr("US-ldr", "US", "0806", "F"),
             {"id": "GE-tb", "nation": "GE", "type": "tactical_bomber", "at": "0306"},
             {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"},
             {"id": "US-x", "nation": "US", "type": "infantry_division", "at": "0506"}]
    s = ssa_game(units, extra=RULE_24).new_state(seed=1)
    s.markers["city_control"]["0306"] = "axis"
    s = to_step(s, "player/initial-movement", "axis")
    s.apply({"kind": "fly", "unit": "GE-tb", "to": "0506", "mission": "interdict_ground"})
    s = to_step(s, "player/interception", "allies")
    s.dice = FixedDice(3)
    s.apply({"kind": "intercept", "units": ["US-f"], "target": "0506", "leader": "US-ldr"})
    assert s.unit("US-ldr").location == "0506" and s.unit("US-ldr").props["riding"] == "US-f"
    icp = json.loads(s.events().filter(kind="intercept")["data"].to_list()[-1])
    assert [w for _, w in icp["shifts"]] == ['"F" fighter leader with the interceptors']
