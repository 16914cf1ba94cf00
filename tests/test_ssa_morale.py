"""SS Amerika national morale (optional rule SSA-21) on the test map, with scripted dice.

Land combat as in test_ssa_combat: three German 8-5 infantry attack a US 7-5 at 0505 at 24:7 = 3-1
(3-1 column: 1 DE, 2 DE, 3 DR, 4 DR, 5 EX, 6 AR).
"""

from __future__ import annotations

import pytest
from test_ssa_combat import ALL_IN, CONVOY, GE, US, FixedDice, last_combat
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa import morale
from workbench.rulesets.ssa.air_combat import place_bombed


def opts(axis: int, allies: int, rules: str = '"SSA-21"') -> str:
    return f'[options]\noptional_rules = [{rules}]\n[tracks]\n"axis.morale" = {axis}\n"allies.morale" = {allies}\n'


@pytest.fixture
def fight(ssa_game):
    def make(axis: int, allies: int, *faces, units=None, rules='"SSA-21"'):
        state = ssa_game(units or [*GE, CONVOY, US], extra=opts(axis, allies, rules)).new_state(seed=1)
        state = to_step(state, "player/combat/land", "axis")
        state.dice = FixedDice(*faces)
        return state

    return make


def test_ssa_21_2_four_levels(fight):
    s = fight(50, 50)
    for value, want in ((100, "high"), (67, "high"), (66, "average"), (34, "average"), (33, "poor"), (1, "poor"),
                        (0, "capitulation"), (-5, "capitulation")):
        s.tracks["axis.morale"] = value
        assert morale.level(s, "axis") == want, value


def test_ssa_21_1_morale_kept_on_the_track_set_by_the_scenario(fight):
    s = fight(72, 41)
    assert (s.tracks["axis.morale"], s.tracks["allies.morale"]) == (72, 41)


def test_ssa_21_3_morale_never_goes_above_100(fight):
    s = fight(90, 50)
    assert morale.change(s, "axis", 30, "SSA-21", "test") == 100
    assert s.tracks["axis.morale"] == 100 and "capped at 100" in s.events().filter(kind="morale")["text"][-1]


def test_ssa_21_5d_fanatic_attacker_turns_AR_into_EX(fight):
    s = fight(80, 50, 6)  # 3-1, die 6: AR
    s.apply({**ALL_IN, "fanatic": True})
    c = last_combat(s)
    assert (c["printed_result"], c["result"], c["fanatic"]) == ("AR", "EX", ["attacker"])
    assert s.unit("US-inf").reduced  # EX: the lower side (7) reduces all


def test_ssa_21_5_fanaticism_needs_high_morale(fight):
    s = fight(66, 50, 6)
    with pytest.raises(IllegalOrder, match="SSA-21.5: fanaticism needs High national morale"):
        s.apply({**ALL_IN, "fanatic": True})


def test_ssa_21_5_fanaticism_needs_the_morale_rule(fight):
    s = fight(90, 50, 6, rules="")
    with pytest.raises(IllegalOrder, match="optional rule 21"):
        s.apply({**ALL_IN, "fanatic": True})


def test_ssa_21_5c_e_defender_declares_before_the_die_and_DR_becomes_EX(fight):
    s = fight(50, 80, 4)  # 3-1, die 4: DR
    s.apply(ALL_IN)
    d = s.decision
    assert (d.side, d.kind, d.rule) == ("allies", "fanaticism", "SSA-21.5")
    assert s.events().filter(kind="roll", rule="SSA-11.G").height == 0  # nothing rolled yet
    assert s.legal_orders() == [{"kind": "declare_fanaticism", "declare": True},
                                {"kind": "declare_fanaticism", "declare": False}]
    s.apply({"kind": "declare_fanaticism", "declare": True})
    c = last_combat(s)
    assert (c["printed_result"], c["result"], c["fanatic"]) == ("DR", "EX", ["defender"])


def test_ssa_21_5b_defender_may_decline_for_a_combat(fight):
    s = fight(50, 80, 4)
    s.apply(ALL_IN)
    s.apply({"kind": "declare_fanaticism", "declare": False})
    assert last_combat(s)["result"] == "DR" and s.decision.kind == "retreat"


def test_ssa_21_5f_both_may_declare_when_both_are_high(fight):
    s = fight(80, 80, 6)
    s.apply({**ALL_IN, "fanatic": True})
    s.apply({"kind": "declare_fanaticism", "declare": True})
    c = last_combat(s)
    assert c["fanatic"] == ["attacker", "defender"] and c["result"] == "EX"


def test_ssa_21_5a_defender_not_asked_when_no_DR_is_possible(fight):
    ge = [{"id": "GE-1", "nation": "GE", "type": "infantry_division", "at": "0404", "reduced": True}]  # 5
    us = [{"id": f"US-{i}", "nation": "US", "type": "infantry_division", "at": "0505"} for i in range(3)]  # 21
    s = fight(50, 80, 1, units=[*ge, CONVOY, *us])  # 1-4: AR AE AE AZ AZ AZ, no DR
    s.apply({"kind": "attack", "attackers": ["GE-1"], "targets": ["0505"]})
    assert last_combat(s)["column"] == "1-4" and last_combat(s)["result"] == "AR"


def test_ssa_21_4b_average_morale_no_fanaticism_no_surrender(fight):
    s = fight(50, 50, 4)
    s.apply(ALL_IN)
    assert s.decision.kind == "retreat"


def _cut_off(state) -> None:
    """The Allies lose both industrial cities, their supply sources (SSA-10.1d)."""
    state.markers["city_control"].update({"0306": "axis", "0806": "axis"})


def test_ssa_21_6_poor_morale_out_of_supply_defender_surrenders(fight):
    s = fight(50, 20, 4)  # DR
    _cut_off(s)
    s.apply(ALL_IN)
    assert s.unit("US-inf").location == "Eliminated"
    assert s.events().filter(kind="eliminated")["rule"].to_list() == ["SSA-21.6"]


def test_ssa_21_6_poor_morale_supplied_defender_retreats(fight):
    s = fight(50, 20, 4)
    s.apply(ALL_IN)
    assert s.decision.kind == "retreat" and s.unit("US-inf").location == "0505"


def test_ssa_21_4c_poor_morale_effects(fight):
    """Poor (1-33): surrender (21.6), -30% MP (SSA-16.15, tested in test_ssa_mobilization_more),
    -1 subversion (test_ssa_subversion); no fanaticism."""
    s = fight(20, 50, 6)
    assert morale.level(s, "axis") == "poor"
    with pytest.raises(IllegalOrder, match="SSA-21.5"):
        s.apply({**ALL_IN, "fanatic": True})


def test_ssa_21_G_each_division_eliminated_costs_one_morale_when_the_step_ends(fight):
    us = {**US, "reduced": True}
    s = fight(50, 60, 1, units=[*GE, CONVOY, us])  # DZ
    s.apply(ALL_IN)
    assert s.tracks["allies.morale"] == 60
    s.advance()  # the land combat step ends
    assert s.tracks["allies.morale"] == 59
    assert s.events().filter(kind="morale")["rule"].to_list() == ["SSA-21"]


def test_ssa_21_4d_capitulation_by_play_ends_the_game(fight):
    us = {**US, "reduced": True}
    s = fight(50, 1, 1, units=[*GE, CONVOY, us])  # DZ: the last point of Allied morale
    s.apply(ALL_IN)
    s.advance()
    assert s.is_over and s.result["winner"] == "axis" and s.result["level"] == "automatic"
    assert s.result["rule"] == "SSA-20.4"


def test_ssa_21_G_industrial_city_lost_minus_two_regained_plus_one(fight):
    s = fight(50, 50)
    before = morale.snapshot(s)
    s.markers["city_control"]["0806"] = "axis"
    morale.city_changes(s, before)
    assert s.tracks["allies.morale"] == 48
    before = morale.snapshot(s)
    s.markers["city_control"]["0806"] = "allies"
    morale.city_changes(s, before)
    assert s.tracks["allies.morale"] == 49


def test_ssa_21_G_atrocity_raises_allied_morale_and_bombing_lowers_it(fight):
    s = fight(50, 50)
    before = morale.snapshot(s)
    s.markers["atrocity"] = ["1306"]
    morale.city_changes(s, before)
    assert s.tracks["allies.morale"] == 51
    place_bombed(s, "0806", "axis")
    assert s.tracks["allies.morale"] == 50


def test_ssa_21_G_no_authored_changes_without_the_rule(fight):
    us = {**US, "reduced": True}
    s = fight(50, 60, 1, units=[*GE, CONVOY, us], rules="")
    s.apply(ALL_IN)
    s.advance()
    assert s.tracks["allies.morale"] == 60
