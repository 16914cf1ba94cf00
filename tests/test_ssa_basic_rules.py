"""SS Amerika basic rules with no dedicated test before: sea-borne supply (SSA-10.1c), supply in
the holding areas (SSA-15.6, 15.6d), Allied attrition in the Pacific (SSA-15.4), attacks on
several hexes (SSA-11.4), exile replacements (SSA-16.11) and automatic victory (SSA-20.4).
Test map: tests/ssa_kit.py (Port City 0306 and Mill Town 0806 are US industrial cities)."""

from __future__ import annotations

import json

import pytest
from kit import FixedDice
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa.combat import assess
from workbench.rulesets.ssa.holding import attrition
from workbench.rulesets.ssa.supply import supply_status
from workbench.rulesets.ssa.victory import automatic_victory


def state_of(ssa_game, units=(), **kw):
    return ssa_game(list(units), **kw).new_state(seed=1)


# ------------------------------------------------------------------ SSA-10.1c
def test_ssa_10_1c_units_carried_by_sea_are_in_supply(ssa_game):
    tp = {"id": "US-tp", "nation": "US", "type": "transport", "at": "0210"}  # at sea: no supply point (10.1f)
    inf = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0312"}
    s = state_of(ssa_game, [tp, inf])
    assert supply_status(s, "allies")["US-inf"] is False  # 0312 is six hexes from Port City (MF 5)
    s.unit("US-inf").flag("carried", "US-tp")
    s.unit("US-inf").location = s.unit("US-tp").location = "0210"  # at sea, aboard the convoy
    assert supply_status(s, "allies")["US-inf"] is True


# ------------------------------------------------------------------ SSA-15.6
def test_ssa_15_6_box_supply_needs_a_logistic_unit_and_a_transport(ssa_game):
    us = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "Pacific"}
    log = {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "Pacific"}
    tp = {"id": "US-tp", "nation": "US", "type": "transport", "at": "Pacific"}
    assert supply_status(state_of(ssa_game, [us, log]), "allies")["US-inf"] is False
    assert supply_status(state_of(ssa_game, [us, tp]), "allies")["US-inf"] is False
    assert supply_status(state_of(ssa_game, [us, log, tp]), "allies")["US-inf"] is True
    elsewhere = {**tp, "at": "Europe"}  # the transport must be in the same box
    assert supply_status(state_of(ssa_game, [us, log, elsewhere]), "allies")["US-inf"] is False


def test_ssa_15_6d_argentine_brazilian_chilean_units_always_supplied_in_latin_america(ssa_game):
    units = [{"id": f"{n}-inf", "nation": n, "type": "infantry_division", "at": "Latin America"}
             for n in ("AR", "BR", "CH")]
    units.append({"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "Latin America"})
    s = state_of(ssa_game, units, allied_nations=("US", "BC", "AR", "BR", "CH"))
    assert supply_status(s, "allies") == {"AR-inf": True, "BR-inf": True, "CH-inf": True, "US-inf": False}
    s.unit("BR-inf").location = "Pacific"  # only in the Latin America box
    assert supply_status(s, "allies")["BR-inf"] is False


# ------------------------------------------------------------------ SSA-15.4
def test_ssa_15_4_allied_held_pacific_attrition_on_a_one(ssa_game):
    units = [{"id": f"JA-{i}", "nation": "JA", "type": "infantry_division", "at": "Pacific"} for i in range(3)]
    units.append({"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "Pacific"})
    s = state_of(ssa_game, units, extra='"box.Pacific" = "allies"\n')
    s.frames[-1]["phasing"] = "allies"
    s._closing = {"phasing": "allies", "node": "turn"}
    s.dice = FixedDice(1, 2, 6)
    attrition(s)
    s._closing = None
    assert [s.unit(f"JA-{i}").location for i in range(3)] == ["Eliminated", "Pacific", "Pacific"]
    assert s.unit("US-inf").location == "Pacific"  # the Allies roll only for Axis units
    rolls = s.events().filter(kind="roll")
    assert rolls["rule"].to_list() == ["SSA-15.4"] * 3


def test_ssa_15_4_no_attrition_unless_the_allies_hold_the_pacific(ssa_game):
    units = [{"id": "JA-0", "nation": "JA", "type": "infantry_division", "at": "Pacific"}]
    s = state_of(ssa_game, units, extra='"box.Pacific" = "axis"\n')
    s._closing = {"phasing": "allies", "node": "turn"}
    s.dice = FixedDice(1)
    attrition(s)
    s._closing = None
    assert s.unit("JA-0").location == "Pacific" and s.events().filter(kind="roll").height == 0


# ------------------------------------------------------------------ SSA-11.4
GE_CONVOY = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}


def test_ssa_11_4_one_attack_on_two_hexes_when_adjacent_to_both(ssa_game):
    # GE-a and GE-c at 0505 touch both 0504 and 0604; GE-b at 0404 touches 0504 only
    units = [{"id": "GE-a", "nation": "GE", "type": "infantry_division", "at": "0505"},
             {"id": "GE-c", "nation": "GE", "type": "infantry_division", "at": "0505"},
             {"id": "GE-b", "nation": "GE", "type": "infantry_division", "at": "0404"},
             {"id": "US-1", "nation": "US", "type": "infantry_division", "at": "0504"},
             {"id": "US-2", "nation": "US", "type": "infantry_division", "at": "0604"}, GE_CONVOY]
    s = to_step(state_of(ssa_game, units), "player/combat/land", "axis")
    a = assess(s, "axis", ["GE-a", "GE-c"], ["0504", "0604"])
    assert (a.attack, a.defense, a.defenders) == (16, 14, ["US-1", "US-2"])  # 8 + 8 vs 7 + 7, combined
    # 0504 is forestation, 0604 clear: the terrain most favourable to the defence shifts (SSA-11.8)
    assert (a.base_column, a.column) == ("1-1", "1-2") and "forestation" in a.shifts[0][1]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "attack", "attackers": ["GE-a", "GE-b"], "targets": ["0504", "0604"]})
    assert exc.value.rule == "SSA-11.1" and "GE-b is not adjacent to 0604" in exc.value.why
    s.dice = FixedDice(4)
    s.apply({"kind": "attack", "attackers": ["GE-a", "GE-c"], "targets": ["0504", "0604"]})
    combat = json.loads(s.events().filter(kind="combat")["data"].to_list()[-1])
    assert combat["targets"] == ["0504", "0604"] and combat["defenders"] == ["US-1", "US-2"]
    assert (combat["attack"], combat["defense"], combat["column"]) == (16, 14, "1-2")


# ------------------------------------------------------------------ SSA-16.11
def test_ssa_16_11_exiles_never_built_but_any_allied_country_pays_replacements(ssa_game):
    ex = {"id": "EX-inf", "nation": "EX", "type": "infantry_division", "at": "0801", "reduced": True}
    tracks = '[tracks]\n"US.mp.industrial" = 10\n"BC.mp.industrial" = 10\n'
    s = state_of(ssa_game, [ex], first="1943-01", last="1943-01", extra=tracks,
                 allied_nations=("US", "BC", "EX"))
    s = to_step(s, "mobilization/spend", "allies", limit=80)
    assert not any(o["nation"] == "EX" for o in s.legal_orders_of("mobilize"))
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "mobilize", "nation": "EX", "type": "infantry_division", "at": "0806"})
    assert exc.value.rule == "SSA-16.11"
    payers = {o["track"] for o in s.legal_orders_of("replace") if o["unit"] == "EX-inf"}
    assert payers == {"US", "BC"}  # ME is not in this scenario
    before = s.tracks["BC.mp.industrial"]
    s.apply({"kind": "replace", "unit": "EX-inf", "track": "BC"})
    assert not s.unit("EX-inf").reduced and s.tracks["BC.mp.industrial"] < before


# ------------------------------------------------------------------ SSA-20.4
def morale_game(ssa_game, axis, allies, steps=0):
    extra = f'[options]\noptional_rules = ["SSA-21"]\n[tracks]\n"axis.morale" = {axis}\n"allies.morale" = {allies}\n'
    s = state_of(ssa_game, extra=extra)
    for _ in range(steps):  # close the set-up step(s)
        if s.result is None:
            s.advance()
    return s


def test_ssa_20_4_morale_zero_or_less_loses_at_once(ssa_game):
    s = morale_game(ssa_game, 0, 40, steps=3)
    assert s.result is not None and s.result["winner"] == "allies" and s.result["rule"] == "SSA-20.4"
    s = morale_game(ssa_game, 30, -5, steps=3)
    assert s.result["winner"] == "axis" and s.result["level"] == "automatic"
    assert morale_game(ssa_game, 1, 1, steps=3).result is None


def test_ssa_20_4_both_at_once_the_phasing_player_wins(ssa_game):
    s = morale_game(ssa_game, 50, 50)
    s = to_step(s, "player/initial-movement", "allies")
    s.tracks["axis.morale"] = 0
    s.tracks["allies.morale"] = -3
    s._closing = {"phasing": "allies", "node": "turn"}
    automatic_victory(s)
    s._closing = None
    assert s.result["winner"] == "allies"


def test_ssa_20_4_checked_as_soon_as_a_step_ends(ssa_game):
    s = to_step(morale_game(ssa_game, 50, 50), "player/initial-movement", "axis")
    s.tracks["axis.morale"] = -1  # e.g. a morale loss during the phase
    s.advance()  # end the Initial Movement phase: the game ends there, not at the end of the turn
    assert s.result["winner"] == "allies" and s.turn == 0


def test_ssa_20_4_needs_the_morale_rule(ssa_game):
    s = to_step(state_of(ssa_game, extra='[tracks]\n"axis.morale" = 0\n'), "player/initial-movement", "allies")
    assert s.result is None
