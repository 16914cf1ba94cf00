"""SS Amerika naval combat (SSA-13.0-13.9) with scripted dice.  German battle fleets (strength 7)
attack from sea hex 0204 the US stack in the adjacent sea hex 0205.  US values: battle fleet 8
(reduced 4), carrier fleet 3, submarine 4, transport convoy 1."""

from __future__ import annotations

import json

import pytest
from test_ssa_air import refused
from test_ssa_combat import FixedDice
from test_ssa_movement import to_step


def ge_bb(n):
    return [{"id": f"GE-bb{i}", "nation": "GE", "type": "battle_fleet", "at": "0204"} for i in range(1, n + 1)]


def us(uid, utype, at="0205", **kw):
    return {"id": uid, "nation": "US", "type": utype, "at": at, **kw}


@pytest.fixture
def sea(ssa_game):
    def make(units, *faces, prepare=None):
        s = ssa_game(units).new_state(seed=1)
        if prepare:
            prepare(s)
        s = to_step(s, "player/combat/naval", "axis")
        s.dice = FixedDice(*faces)
        return s

    return make


def attack(s, n, target="0205"):
    s.apply({"kind": "naval_attack", "attackers": [f"GE-bb{i}" for i in range(1, n + 1)], "target": target})


def last(s):
    return json.loads(s.events().filter(kind="naval_combat")["data"].to_list()[-1])


def test_ssa_13_8_DE_all_defenders_damaged(sea):
    s = sea([*ge_bb(3), us("US-bb", "battle_fleet")], 1)
    attack(s, 3)
    c = last(s)
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (21, 8, "2-1", "DE")
    assert s.unit("US-bb").reduced
    assert s.events().filter(kind="roll")["rule"].to_list()[-1] == "SSA-13.8"


def test_ssa_13_9_damaged_reduced_unit_is_eliminated_and_convoy_loses_2_tp(sea):
    units = [*ge_bb(3), us("US-bb", "battle_fleet", reduced=True), us("US-tp", "transport"),
             us("US-arm", "armor_division", at="0306"), us("US-inf", "infantry_division", at="0306")]

    def load(state):
        for uid in ("US-arm", "US-inf"):
            state.unit(uid).location = "0205"
            state.unit(uid).flag("carried", "US-tp")

    s = sea(units, 2, prepare=load)
    attack(s, 3)
    assert (last(s)["defense"], last(s)["column"], last(s)["result"]) == (5, "4-1", "DE")  # 4 + 1
    assert s.unit("US-bb").location == "Eliminated" and s.unit("US-tp").reduced
    # 2 TP of cargo: the mechanized division (2) is the only minimal choice
    assert s.decision.side == "allies" and s.legal_orders() == [{"kind": "choose_losses", "units": ["US-arm"]}]
    s.apply({"kind": "choose_losses", "units": ["US-arm"]})
    assert s.unit("US-arm").location == "Eliminated" and s.unit("US-inf").location == "0205"


def test_ssa_13_8_DZ_owner_chooses_the_unit_eliminated_rest_damaged(sea):
    s = sea([*ge_bb(3), us("US-bb", "battle_fleet", reduced=True), us("US-tp", "transport")], 1)
    attack(s, 3)
    assert (last(s)["column"], last(s)["result"]) == ("4-1", "DZ")
    assert s.decision.side == "allies" and s.decision.rule == "SSA-13.8"
    s.apply({"kind": "choose_losses", "units": ["US-tp"]})
    assert s.unit("US-tp").location == "Eliminated" and s.unit("US-bb").location == "Eliminated"


def test_ssa_13_8_EX_smaller_side_all_damaged_other_side_at_least_as_many_factors(sea):
    s = sea([*ge_bb(3), us("US-bb", "battle_fleet"), us("US-cv", "carrier_fleet")], 3)
    attack(s, 3)
    s.apply({"kind": "pass"})  # the carrier stack stays to fight (SSA-13.2)
    c = last(s)
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (21, 11, "1-1", "EX")
    assert s.unit("US-bb").reduced and s.unit("US-cv").reduced  # 11 < 21: all US units damaged
    assert s.decision.side == "axis" and s.frames[-1]["data"]["at_least"] == 11
    refused(s, {"kind": "choose_losses", "units": ["GE-bb1"]}, "SSA-13.8")  # 7 < 11
    s.apply({"kind": "choose_losses", "units": ["GE-bb1", "GE-bb3"]})
    assert [s.unit(f"GE-bb{i}").reduced for i in (1, 2, 3)] == [True, False, True]


def test_ssa_13_2_carrier_stack_may_retreat_before_combat(sea):
    cv, f = us("US-cv", "carrier_fleet"), us("US-f", "standard_fighter", at="0306", carrier_qualified=True)

    def aboard(state):
        state.unit("US-f").location = "0205"
        state.unit("US-f").flag("carrier", "US-cv")

    s = sea([*ge_bb(1), cv, f], 1, prepare=aboard)
    attack(s, 1)
    d = s.decision
    assert (d.side, d.kind, d.rule) == ("allies", "naval_retreat", "SSA-13.2")
    options = {o["to"] for o in s.legal_orders() if o["kind"] == "naval_retreat"}
    assert "0204" not in options and "0206" in options  # never into the enemy fleet
    s.apply({"kind": "naval_retreat", "to": "0206"})
    assert s.unit("US-cv").location == s.unit("US-f").location == "0206"
    assert s.events().filter(kind="naval_combat").height == 0
    refused(s, {"kind": "naval_attack", "attackers": ["GE-bb1"], "target": "0206"}, "SSA-13.4")  # used up


def test_ssa_13_2_defender_may_decline_and_fight(sea):
    s = sea([*ge_bb(1), us("US-cv", "carrier_fleet")], 1)
    attack(s, 1)
    s.apply({"kind": "pass"})
    assert last(s)["defense"] == 3 and last(s)["column"] == "2-1"


def test_ssa_13_6_submarines_cannot_be_attacked_and_add_no_defence(sea):
    s = sea([*ge_bb(1), us("US-ss", "submarine")], 1)
    e = refused(s, {"kind": "naval_attack", "attackers": ["GE-bb1"], "target": "0205"}, "SSA-13.6")
    assert "submarines" in e.why
    s = sea([*ge_bb(1), us("US-ss", "submarine"), us("US-bb", "battle_fleet")], 4)
    attack(s, 1)
    assert last(s)["defenders"] == ["US-bb"] and last(s)["defense"] == 8


def test_ssa_13_5_convoys_never_attack_and_13_G_adjacent_only(sea):
    s = sea([*ge_bb(1), {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0204"},
             us("US-bb", "battle_fleet"), us("US-bb2", "battle_fleet", at="0208")], 1)
    refused(s, {"kind": "naval_attack", "attackers": ["GE-tp"], "target": "0205"}, "SSA-13.5")
    refused(s, {"kind": "naval_attack", "attackers": ["GE-bb1"], "target": "0208"}, "SSA-13.G")
    assert {"kind": "naval_attack", "attackers": ["GE-bb1"], "target": "0205"} in s.legal_orders()
    assert {"kind": "end_step"} in s.legal_orders()  # voluntary (13.1)


def test_ssa_12_2b_carrier_eliminated_takes_its_air_units(sea):
    cv, f = us("US-cv", "carrier_fleet", reduced=True), us("US-f", "standard_fighter", at="0306",
                                                           carrier_qualified=True)

    def aboard(state):
        state.unit("US-f").location = "0205"
        state.unit("US-f").flag("carrier", "US-cv")

    s = sea([*ge_bb(1), cv, f], 1, prepare=aboard)
    attack(s, 1)
    s.apply({"kind": "pass"})
    assert (last(s)["column"], last(s)["result"]) == ("3-1", "DE")  # 7 vs 2: the reduced carrier is eliminated
    assert s.unit("US-cv").location == "Eliminated" and s.unit("US-f").location == "Eliminated"
