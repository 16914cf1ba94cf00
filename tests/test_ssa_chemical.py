"""SS Amerika chemical warfare (optional rule SSA-28) with scripted dice on the test map.

Land: three German infantry divisions (8-5) attack the US infantry division (7) in 0505, supplied
by the convoy in Port City: 24 vs 7 = 3-1 (test_ssa_combat).  Air: four US tactical bombers
interdict a German division in 0505: 16 vs 4 = 4-1 (test_ssa_air_combat).  Naval: three German
battle fleets (7) attack a US battle fleet (8): 21 vs 8 = 2-1 (test_ssa_naval_combat)."""

from __future__ import annotations

import json

import pytest
from test_ssa_air import refused
from test_ssa_air_combat import bombers, fly_to_aerial_step, ge
from test_ssa_combat import ALL_IN, CONVOY, GE, US, FixedDice
from test_ssa_movement import to_step
from test_ssa_naval_combat import ge_bb, us

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa import chemical

ON = '[options]\noptional_rules = ["SSA-28"]\n[tracks]\n"axis.morale" = 60\n"allies.morale" = 50\n'
CHEM = {**ALL_IN, "chemical": True}
EARLIER = {"turn": "1942-05", "side": "allies"}  # chemicals were first used in an earlier phase


def last(s, kind):
    return json.loads(s.events().filter(kind=kind)["data"].to_list()[-1])


@pytest.fixture
def land(ssa_game):
    def make(units, *faces, extra=ON):
        s = to_step(ssa_game(units, extra=extra).new_state(seed=1), "player/combat/land", "axis")
        s.dice = FixedDice(*faces)
        return s

    return make


def test_ssa_28_4a_first_chemical_phase_shifts_land_attacks_three_columns(land):
    s = land([*GE, CONVOY, US], 6)
    s.apply(CHEM)
    c = last(s, "combat")
    assert (c["base_column"], c["column"]) == ("3-1", "6-1")
    assert [3, "chemical attack in the first chemical combat phase", "SSA-28.4a"] in c["shifts"]
    assert s.markers["chemical_first"] == {"turn": "1942-06", "side": "axis"}


def test_ssa_28_4c_enemy_morale_plus_two_in_the_first_phase(land):
    s = land([*GE, CONVOY, US], 6)
    s.apply(CHEM)
    assert s.tracks["allies.morale"] == 52 and s.tracks["axis.morale"] == 60
    ev = s.events().filter(kind="morale").row(-1, named=True)
    assert ev["rule"] == "SSA-28.4c" and ev["side"] == "allies"


def test_ssa_28_3a_after_the_first_phase_one_column(land):
    s = land([*GE, CONVOY, US], 6)
    s.markers["chemical_first"] = EARLIER
    s.apply(CHEM)
    assert last(s, "combat")["column"] == "4-1"


def test_ssa_28_3b_enemy_morale_plus_one_per_later_chemical_attack(land):
    s = land([*GE, CONVOY, US], 6)
    s.markers["chemical_first"] = EARLIER
    s.apply(CHEM)
    assert s.tracks["allies.morale"] == 51
    assert s.events().filter(kind="morale").row(-1, named=True)["rule"] == "SSA-28.3b"


def test_ssa_28_4_every_chemical_attack_of_the_first_phase_gets_the_first_phase_effects(land):
    s = land([*GE, CONVOY, US], 6)
    s.markers["chemical_first"] = {"turn": "1942-06", "side": "axis"}  # first used earlier in this phase
    assert chemical.first_phase(s) and chemical.shift(s, "land")[0] == 3
    s.markers["chemical_first"] = EARLIER
    assert not chemical.first_phase(s) and chemical.shift(s, "land")[0] == 1
    assert chemical.shift(s, "naval") is None  # 28.3 gives no shift against naval units


def test_ssa_28_2_only_supplied_units_use_chemicals(land):
    s = land([*GE, US], 6)  # no convoy: the German divisions are out of supply
    refused(s, CHEM, "SSA-28.2")
    s.apply(ALL_IN)  # the same attack without chemicals is fine


def test_ssa_28_2_land_units_must_be_division_size(land):
    cdo = {"id": "GE-cdo", "nation": "GE", "type": "commando_brigade", "at": "0404"}
    s = land([cdo, CONVOY, US], 6)
    refused(s, {"kind": "attack", "attackers": ["GE-cdo"], "targets": ["0505"], "chemical": True}, "SSA-28.2")


def test_ssa_28_5_air_support_lets_a_smaller_unit_attack_with_chemicals(land):
    s = land([{"id": "GE-cdo", "nation": "GE", "type": "commando_brigade", "at": "0404"},
              {"id": "GE-tb", "nation": "GE", "type": "tactical_bomber", "at": "0306"}, CONVOY, US], 6)
    cdo, tb = s.unit("GE-cdo"), s.unit("GE-tb")
    assert chemical.refusal(s, "axis", [cdo]).rule == "SSA-28.2"
    assert chemical.refusal(s, "axis", [cdo, tb]) is None  # bombardment factor > 0


def test_ssa_28_not_without_the_optional_rule(land):
    s = land([*GE, CONVOY, US], 6, extra="")
    refused(s, CHEM, "SSA-28")


def test_ssa_28_1_attack_only_the_defender_orders_carry_no_chemicals(land):
    fields = land([*GE, CONVOY, US], 6).ruleset.tables["orders"]["kinds"]
    assert {k for k, f in fields.items() if "chemical" in f} == {"attack", "interdict", "naval_attack"}
    s = land([*GE, CONVOY, US], 6)
    s.tracks["allies.morale"] = 80  # High: the defender is asked about fanaticism (SSA-21.5)
    s.game.options["optional_rules"] = ["SSA-21", "SSA-28"]
    s.apply(CHEM)
    assert s.decision.kind == "fanaticism"
    with pytest.raises(IllegalOrder, match="has no field 'chemical'"):
        s.apply({"kind": "declare_fanaticism", "declare": True, "chemical": True})


@pytest.fixture
def strike(ssa_game):
    def make(units, flights, *faces):
        return fly_to_aerial_step(ssa_game(units, extra=ON).new_state(seed=1), flights, *faces)

    return make


def test_ssa_28_4a_air_attack_on_ground_units_three_columns_then_one(strike):
    flights = [(f"US-t{i}", "0505", "interdict_ground") for i in range(1, 5)]
    order = {"kind": "interdict", "units": ["US-t1", "US-t2", "US-t3", "US-t4"], "target": "0505", "chemical": True}
    s = strike([*bombers(4), ge("GE-a", "0505")], flights, 6)
    s.apply(order)
    c = last(s, "air_combat")
    assert (c["base_column"], c["column"]) == ("4-1", "7-1")
    assert s.tracks["axis.morale"] == 62  # 28.4c
    s = strike([*bombers(4), ge("GE-a", "0505")], flights, 6)
    s.markers["chemical_first"] = {"turn": "1942-05", "side": "axis"}
    s.apply(order)
    assert last(s, "air_combat")["column"] == "5-1" and s.tracks["axis.morale"] == 61  # 28.3a-b


@pytest.fixture
def sea(ssa_game):
    def make(units, *faces):
        s = to_step(ssa_game(units, extra=ON).new_state(seed=1), "player/combat/naval", "axis")
        s.dice = FixedDice(*faces)
        return s

    return make


def test_ssa_28_4b_attacks_on_naval_units_one_column_in_the_first_phase_only(sea):
    order = {"kind": "naval_attack", "attackers": ["GE-bb1", "GE-bb2", "GE-bb3"], "target": "0205", "chemical": True}
    s = sea([*ge_bb(3), us("US-bb", "battle_fleet")], 6)
    s.apply(order)
    assert last(s, "naval_combat")["column"] == "3-1" and s.tracks["allies.morale"] == 52
    s = sea([*ge_bb(3), us("US-bb", "battle_fleet")], 6)
    s.markers["chemical_first"] = EARLIER
    s.apply(order)
    assert last(s, "naval_combat")["column"] == "2-1" and s.tracks["allies.morale"] == 51


def test_ssa_28_2_naval_attacks_need_a_battle_fleet(sea):
    s = sea([{"id": "GE-cv", "nation": "GE", "type": "carrier_fleet", "at": "0204"}, us("US-bb", "battle_fleet")], 6)
    refused(s, {"kind": "naval_attack", "attackers": ["GE-cv"], "target": "0205", "chemical": True}, "SSA-28.2")
