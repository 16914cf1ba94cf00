"""ETO submarines' own procedures (11.2 hunting a sub, 11.3 a sub's attack, 11.4 its gunnery)."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, events, new_state, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import naval_units, submarines, values
from workbench.rulesets.eto.naval_combat import Plan

SEA = "Central Mediterranean"
NORTH = "Barents Sea"  # every hex in the severe weather zone
NORTH_HEX = "05401"
SEA_HEX = "04678"  # a hex of the Central Mediterranean


def _state(tmp_path, *units, faces=(), weather="F"):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, list(units), west=True, options={"naval": True, "air": True})
    s.tracks["weather"] = weather
    if faces:
        s.dice = FixedDice(*faces)
    return s


def _rolls(s, rule=None):  # noqa: ANN001, ANN202
    return [e for e in events(s, "roll") if rule is None or e["rule"] == rule]


def _ids(s, *ids):  # noqa: ANN001, ANN202
    return [s.units_by_id[i] for i in ids]


# --- 11.3: a submarine's attack ----------------------------------------------------------------

def test_eto_11_3_11_4_without_escorts_the_sub_attacks_twice_and_combat_is_over(tmp_path):
    """11.3: a stack with no DD or DE: the SS attacks twice and the combat is over; nobody fires
    back.  11.4: the German SS (gunnery 2) needs 10 against the BB (armor 12): 6+4 hits (damaged);
    against the STP marker its gunnery is 0: 4+4 = 8 misses armor 9 (it would hit with 2)."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", SEA), unit("UK-BB", "UK", "bb", SEA, name="Warspite"),
               unit("UK-STP", "UK", "stp", SEA, points=2), faces=(6, 4, 4, 4))
    out = submarines.attack(s, SEA, s.units_by_id["GE-SS"], _ids(s, "UK-BB", "UK-STP"),
                            plan=Plan(targets=["UK-BB", "UK-STP"]))
    shots = [x for r in out["rounds"] for x in r]
    assert [(x["target"], x["gunnery"], x["hit"]) for x in shots] == [("UK-BB", 2, True), ("UK-STP", 0, False)]
    assert naval_units.damaged(s.units_by_id["UK-BB"]) and s.units_by_id["UK-STP"].props["points"] == 2
    assert len(_rolls(s)) == 2 and out["detected"] is None  # no detection die, no return fire


def test_eto_11_3_detected_the_escorts_fire_first_and_sink_the_sub(tmp_path):
    """11.3: two DDs in the stack; the intercepted player rolls 2 (<= 2): both DDs fire at the sub
    before it attacks.  A DD (gunnery 1) needs 7 against the SS (armor 8): 2+3 misses, 6+1 hits:
    the sub is sunk (11.0: no damaged side) to the force pool and never fires."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", SEA), unit("UK-BB", "UK", "bb", SEA, name="Warspite"),
               unit("UK-DD1", "UK", "dd", SEA), unit("UK-DD2", "UK", "dd", SEA), faces=(2, 2, 3, 6, 1))
    out = submarines.attack(s, SEA, s.units_by_id["GE-SS"], _ids(s, "UK-BB", "UK-DD1", "UK-DD2"))
    assert out["detected"] is True
    assert s.units_by_id["GE-SS"].location == values.FORCE_POOL
    rolls = _rolls(s)
    assert rolls[0]["rule"] == "ETO-11.3" and rolls[0]["side"] == "allies"
    assert [r["purpose"].split(" fires")[0] for r in rolls[1:]] == ["UK-DD1", "UK-DD2"]
    assert not naval_units.damaged(s.units_by_id["UK-BB"])


def test_eto_11_3_detection_roll_above_the_escorts_sub_fires_first_then_withdraws(tmp_path):
    """11.3: a roll of 3 against two DD/DE: the sub is not detected until after its first attack;
    it attacks once (6+4 hits Warspite), then withdraws with no pursuit: no DD fires at all."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", SEA), unit("UK-BB", "UK", "bb", SEA, name="Warspite"),
               unit("UK-DD1", "UK", "dd", SEA), unit("UK-DE1", "UK", "de", SEA), faces=(3, 6, 4))
    out = submarines.attack(s, SEA, s.units_by_id["GE-SS"], _ids(s, "UK-BB", "UK-DD1", "UK-DE1"),
                            plan=Plan(targets=["UK-BB"], withdraw="all"))
    assert out["detected"] is False and out["withdrew"]["axis"] == ["GE-SS"]
    assert naval_units.damaged(s.units_by_id["UK-BB"]) and s.units_by_id["GE-SS"].location == SEA
    assert len(_rolls(s)) == 2  # the detection die and the sub's one attack


def test_eto_11_3_second_round_is_simultaneous(tmp_path):
    """11.3: undetected (5 against one DD), the sub misses Warspite (1+2); in round 2 it makes one
    more attack while the DD fires at it, all at once: the DD's 4+3 sinks the sub, and the sub's
    own 6+4 still damages Warspite."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", SEA), unit("UK-BB", "UK", "bb", SEA, name="Warspite"),
               unit("UK-DD1", "UK", "dd", SEA), faces=(5, 1, 2, 6, 4, 4, 3))
    out = submarines.attack(s, SEA, s.units_by_id["GE-SS"], _ids(s, "UK-BB", "UK-DD1"),
                            plan=Plan(targets=["UK-BB"]))
    assert len(out["rounds"]) == 2 and len(out["rounds"][1]) == 2  # undetected: no escort fire first
    assert s.units_by_id["GE-SS"].location == values.FORCE_POOL
    assert naval_units.damaged(s.units_by_id["UK-BB"])
    assert [e["data"]["round"] for e in events(s, "naval_round")] == [1, 2]


# --- 11.2: hunting a submarine -----------------------------------------------------------------

@pytest.mark.parametrize(("space", "at", "weather", "die", "found"), [
    (SEA, SEA_HEX, "F", 5, True),                      # 5 + 2 bombers = 7
    (SEA, SEA_HEX, "F", 4, False),                     # 6
    (SEA, SEA_HEX, "W", 5, True),                      # W is mud outside the severe zone: 7
    (NORTH, NORTH_HEX, "W", 6, False),                 # 6 + 2 - 2 (severe zone in winter) = 6
    (NORTH, NORTH_HEX, "F", 5, True),                  # no winter: 7
])
def test_eto_11_2_air_search_one_die_plus_bombers_minus_two_severe_winter(tmp_path, space, at, weather, die, found):
    """11.2: "Roll one die and add the number of bomber / fighter-bomber units in the space.
    Subtract 2 ... in the severe weather zone during winter weather.  If the result is 7 or more,
    the submarine has been intercepted."  Two German bombers hunt a British SS."""
    s = _state(tmp_path, unit("UK-SS", "UK", "ss", space), unit("GE-b1", "GE", "bomber", at),
               unit("GE-b2", "GE", "bomber", at), faces=(die,), weather=weather)
    assert submarines.air_search(s, "axis", s.units_by_id["UK-SS"]) is found
    (roll,) = _rolls(s)
    assert roll["rule"] == "ETO-11.2" and "+2 bomber/fighter-bomber units" in roll["purpose"]
    assert ("severe zone in winter" in roll["purpose"]) is (weather == "W" and space == NORTH)


def test_eto_11_2_a_found_sub_is_attacked_once_by_one_air_unit(tmp_path):
    """11.2: "An intercepted submarine can be attacked once by only one air unit, regardless of
    how many were involved in the search": one attack (1+2 misses armor 8; 3+5 would have sunk
    it), and a second air unit is refused.  A second air search in the same step is refused too."""
    s = _state(tmp_path, unit("UK-SS", "UK", "ss", SEA), unit("GE-b1", "GE", "bomber", SEA_HEX),
               unit("GE-b2", "GE", "bomber", SEA_HEX), faces=(6, 1, 2, 3, 5))
    sub = s.units_by_id["UK-SS"]
    assert submarines.air_search(s, "axis", sub)
    with pytest.raises(IllegalOrder, match="already searched"):
        submarines.air_search(s, "axis", sub)
    res = submarines.air_attack(s, s.units_by_id["GE-b1"], sub)
    assert len(res["attacks"]) == 1 and sub.location == SEA
    with pytest.raises(IllegalOrder, match="only one may attack"):
        submarines.air_attack(s, s.units_by_id["GE-b2"], sub)


def test_eto_11_2_an_air_hit_sinks_the_sub(tmp_path):
    """11.0/16.2: a bomber's 3+5 = 8 against the SS's armor 8 hits: a sub has no damaged side."""
    s = _state(tmp_path, unit("UK-SS", "UK", "ss", SEA), unit("GE-b1", "GE", "bomber", SEA_HEX), faces=(6, 3, 5))
    sub = s.units_by_id["UK-SS"]
    assert submarines.air_search(s, "axis", sub)
    submarines.air_attack(s, s.units_by_id["GE-b1"], sub)
    assert sub.location == values.FORCE_POOL


def test_eto_11_2_air_attack_needs_an_interception_first(tmp_path):
    s = _state(tmp_path, unit("UK-SS", "UK", "ss", SEA), unit("GE-b1", "GE", "bomber", SEA_HEX), faces=(1,))
    sub = s.units_by_id["UK-SS"]
    with pytest.raises(IllegalOrder, match="not intercepted by air"):
        submarines.air_attack(s, s.units_by_id["GE-b1"], sub)
    assert not submarines.air_search(s, "axis", sub)  # 1 + 1 bomber = 2
    with pytest.raises(IllegalOrder, match="not intercepted by air"):
        submarines.air_attack(s, s.units_by_id["GE-b1"], sub)


def test_eto_11_2_hunting_dds_cannot_pursue_a_withdrawing_sub(tmp_path):
    """11.2: two British DDs found the German SS: an ordinary battle (9.3: the sub, gunnery 2,
    fires in sub-round 2 at gunnery 0 against the DD, 11.4; the DDs in sub-round 1), all miss; the
    sub withdraws after round 1 and "the enemy cannot pursue": no round 2."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", SEA), unit("UK-DD1", "UK", "dd", SEA),
               unit("UK-DD2", "UK", "dd", SEA), faces=(3, 3, 1, 2, 2, 1))
    out = submarines.hunt(s, SEA, _ids(s, "UK-DD1", "UK-DD2"), s.units_by_id["GE-SS"],
                          plans={"axis": Plan(withdraw="all")})
    assert len(out["rounds"]) == 1 and out["withdrew"]["axis"] == ["GE-SS"]
    shots = out["rounds"][0]
    assert shots[0]["shooter"] == "GE-SS" and shots[0]["gunnery"] == 0 and not shots[0]["sink"]
    assert len(_rolls(s)) == 3 and s.units_by_id["GE-SS"].location == SEA


def test_eto_11_2_only_dd_and_de_fight_a_found_submarine(tmp_path):
    """11.2/11.3: a BB and a DD find a lone sub: only the DD fights it (the BB never fires)."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", SEA), unit("UK-BB", "UK", "bb", SEA, name="Warspite"),
               unit("UK-DD1", "UK", "dd", SEA), faces=(1, 2, 2, 1, 1, 3, 3, 1))
    out = submarines.battle(s, SEA, "allies", _ids(s, "UK-BB", "UK-DD1"), _ids(s, "GE-SS"))
    assert {x["shooter"] for r in out["rounds"] for x in r} == {"GE-SS", "UK-DD1"}
    with pytest.raises(IllegalOrder, match="only DD and DE"):
        submarines.hunt(s, SEA, _ids(s, "UK-BB"), s.units_by_id["GE-SS"])
    s2 = _state(tmp_path / "b", unit("GE-SS", "GE", "ss", SEA), unit("UK-BB", "UK", "bb", SEA, name="Warspite"))
    out = submarines.battle(s2, SEA, "allies", _ids(s2, "UK-BB"), _ids(s2, "GE-SS"))
    assert out["rounds"] == [] and not _rolls(s2)


def test_eto_11_3_a_lone_sub_finding_a_stack_makes_the_submarine_attack(tmp_path):
    """11.3 through the interception's dispatcher: a lone SS that found a stack without escorts
    makes its two attacks, and no ship of the stack fires (naval_combat would let the BB shoot)."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", SEA), unit("UK-BB", "UK", "bb", SEA, name="Warspite"),
               faces=(1, 2, 1, 3))
    out = submarines.battle(s, SEA, "axis", _ids(s, "GE-SS"), _ids(s, "UK-BB"))
    assert [x["shooter"] for r in out["rounds"] for x in r] == ["GE-SS", "GE-SS"]


def test_eto_11_3_several_subs_in_an_area_but_one_per_stack_in_a_hex(tmp_path):
    """11.3: "More than one SS unit can try to intercept an enemy stack in the same area, but not
    in the same hex.  Each SS unit must intercept individually" (ruling: a stack in a hex is tried
    for by one sub a step).  The British DDs in the North Sea area: the first sub rolls 1 (a natural
    1 always fails), the second may still try.  The same DDs at Scapa Flow (a hex): after the first
    sub's miss the second is refused with 11.3.  Each roll is the lone sub's own search, with the
    SS's +1 (1d6 + 1 group + 1 SS, +2 coastal hex)."""
    from workbench.rulesets.eto import naval_search

    scapa = "02830"
    for space, second_ok in (("North Sea", True), (scapa, False)):
        s = _state(tmp_path / space.replace(" ", "_"), unit("UK-DD1", "UK", "dd", space),
                   unit("UK-DD2", "UK", "dd", space), unit("GE-SS1", "GE", "ss", "North Sea"),
                   unit("GE-SS2", "GE", "ss", "North Sea"), faces=(1,))
        dds, ss1, ss2 = _ids(s, "UK-DD1", "UK-DD2"), _ids(s, "GE-SS1"), _ids(s, "GE-SS2")
        assert naval_search.may_search_why_not(s, ss1, dds) is None
        assert naval_search.search(s, "axis", ss1, dds, space) is False
        roll = _rolls(s, "ETO-8.4")[-1]
        assert "+1" in roll["purpose"] and "submarine" in roll["purpose"].lower()
        why = naval_search.may_search_why_not(s, ss2, dds)
        if second_ok:
            assert why is None
        else:
            assert why.rule == "ETO-11.3" and "same hex" in why.why
        assert naval_search.may_search_why_not(s, ss1, dds).rule == "ETO-8.5"   # the same sub: 8.5
