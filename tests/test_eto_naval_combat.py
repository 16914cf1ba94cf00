"""ETO naval combat (9.0-9.6, 10.9, 11.4): hits, sub-rounds, target spreading, withdrawal."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, events, new_state, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import naval_combat, naval_units, values
from workbench.rulesets.eto.naval_combat import Plan

SEA = "Central Mediterranean"


def _state(tmp_path, *units, faces=()):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, list(units), west=True, options={"naval": True, "air": True})
    if faces:
        s.dice = FixedDice(*faces)
    return s


def _sides(s, axis, allies):  # noqa: ANN001, ANN202
    return {"axis": [s.units_by_id[i] for i in axis], "allies": [s.units_by_id[i] for i in allies]}


def _shots(s):  # noqa: ANN001, ANN202
    return [e for e in events(s, "roll") if e["rule"] == "ETO-9.2"]


@pytest.mark.parametrize(("dice", "effect"), [((4, 4), "sunk"), ((5, 3), "damaged"), ((3, 4), "miss")])
def test_eto_9_2_9_5_gunnery_4_against_armor_12_needs_8(tmp_path, dice, effect):
    """9.2: 2d6 + gunnery >= armor hits: Littorio (gunnery 4) needs 8 against Warspite (armor 12);
    9.5: a hit with doubles sinks (4,4), without doubles damages (5,3); 7 misses.  Warspite does
    fires first (gunnery 5, sub-round 5) and misses with (1,2)."""
    s = _state(tmp_path, unit("IT-BB", "IT", "bb", SEA, name="Littorio"), unit("UK-BB", "UK", "bb", SEA, name="Warspite"),
               faces=(1, 2, *dice, 1, 2, 1, 2))
    out = naval_combat.resolve(s, SEA, _sides(s, ["IT-BB"], ["UK-BB"]), plans={"allies": Plan(withdraw="all"),
                                                                              "axis": Plan(withdraw="all")})
    wars = s.units_by_id["UK-BB"]
    assert out["rounds"][0][0]["shooter"] in ("UK-BB", "IT-BB")
    got = "sunk" if wars.location == values.PERMANENT else "damaged" if naval_units.damaged(wars) else "miss"
    assert got == effect


def test_eto_9_5_a_needed_twelve_is_a_plain_hit(tmp_path):
    """9.5: "a roll of 12 does not sink the target if the attacking unit actually needed a 12 or
    more": a DE (gunnery 0) against a BB (armor 12) rolls (6,6): damaged, not sunk.  A DD
    (gunnery 1, needs 11) rolling (6,6) sinks it."""
    s = _state(tmp_path / "a", unit("UK-DE", "UK", "de", SEA), unit("IT-BB", "IT", "bb", SEA, name="Cesare"),
               faces=(1, 1, 6, 6))
    naval_combat.resolve(s, SEA, _sides(s, ["IT-BB"], ["UK-DE"]), plans={"allies": Plan(withdraw="all"),
                                                                         "axis": Plan(withdraw="all")})
    assert naval_units.damaged(s.units_by_id["IT-BB"]) and s.units_by_id["IT-BB"].location == SEA
    s2 = _state(tmp_path / "b", unit("UK-DD", "UK", "dd", SEA), unit("IT-BB", "IT", "bb", SEA, name="Cesare"),
                faces=(1, 1, 6, 6))
    naval_combat.resolve(s2, SEA, _sides(s2, ["IT-BB"], ["UK-DD"]), plans={"allies": Plan(withdraw="all"),
                                                                           "axis": Plan(withdraw="all")})
    assert s2.units_by_id["IT-BB"].location == values.PERMANENT


def test_eto_9_3_a_ship_damaged_in_an_earlier_sub_round_fires_later(tmp_path):
    """9.3: "If a ship with gunnery rating 3 is damaged by a ship with gunnery rating 4, that damage
    takes effect before the smaller ship gets to fire" -- Littorio (4) damages HMS York (CA, 3 ->
    2 damaged), which then fires in the gunnery-2 sub-round."""
    s = _state(tmp_path, unit("IT-BB", "IT", "bb", SEA, name="Littorio"), unit("UK-CA", "UK", "ca", SEA, name="York"),
               faces=(5, 3, 1, 2, 1, 2, 1, 2))
    naval_combat.resolve(s, SEA, _sides(s, ["IT-BB"], ["UK-CA"]), plans={"allies": Plan(withdraw="all"),
                                                                         "axis": Plan(withdraw="all")})
    shots = _shots(s)
    assert "gunnery-4 sub-round" in shots[0]["purpose"] and shots[0]["purpose"].startswith("IT-BB")
    assert shots[1]["purpose"].startswith("UK-CA fires at IT-BB (gunnery 2") and "gunnery-2 sub-round" in shots[1]["purpose"]


def test_eto_9_3_sunk_before_it_fires(tmp_path):
    """9.3: a ship "could even by sunk by a second salvo ... before it gets to fire at all": a CL
    (2) damaged by Littorio (4) in sub-round 4 and hit again by Trento (3) in sub-round 3 never
    fires."""
    s = _state(tmp_path, unit("IT-BB", "IT", "bb", SEA, name="Littorio"), unit("IT-CA", "IT", "ca", SEA, name="Trento"),
               unit("UK-CL", "UK", "cl", SEA), faces=(5, 3, 5, 2))
    naval_combat.resolve(s, SEA, _sides(s, ["IT-BB", "IT-CA"], ["UK-CL"]), plans={"allies": Plan(withdraw="all")})
    assert s.units_by_id["UK-CL"].location == values.FORCE_POOL
    assert not [r for r in _shots(s) if r["purpose"].startswith("UK-CL")]


def test_eto_9_4_no_second_attack_on_a_unit_before_each_had_one(tmp_path):
    """9.4: three British DDs firing at two Italian ships: the first two shots go to different
    ships; only the third may repeat a target."""
    s = _state(tmp_path, *[unit(f"UK-DD{i}", "UK", "dd", SEA) for i in range(3)],
               unit("IT-CL", "IT", "cl", SEA), unit("IT-DD", "IT", "dd", SEA), faces=(1, 2) * 10)
    naval_combat.resolve(s, SEA, _sides(s, ["IT-CL", "IT-DD"], ["UK-DD0", "UK-DD1", "UK-DD2"]),
                         plans={"allies": Plan(withdraw="all"), "axis": Plan(withdraw="all")})
    uk = [r["purpose"].split(" fires at ")[1].split(" ")[0] for r in _shots(s) if r["purpose"].startswith("UK-")]
    assert sorted(uk[:2]) == ["IT-CL", "IT-DD"] and len(uk) == 3


def test_eto_9_1_the_smaller_side_commits_everything(tmp_path):
    """9.1: the side with fewer units commits its entire stack; the larger side commits at least
    one unit per enemy unit with a gunnery rating and may hold out the rest (a CV, an STP)."""
    s = _state(tmp_path, unit("UK-DD1", "UK", "dd", SEA), unit("UK-DD2", "UK", "dd", SEA),
               unit("UK-stp", "UK", "stp", SEA, props={"points": 2}), unit("IT-DD", "IT", "dd", SEA),
               faces=(1, 2) * 10)
    sides = _sides(s, ["IT-DD"], ["UK-DD1", "UK-DD2", "UK-stp"])
    with pytest.raises(IllegalOrder, match="ETO-9.1.*fewer"):
        naval_combat.resolve(s, SEA, sides, plans={"axis": Plan(hold_out={1: ["IT-DD"]})})
    with pytest.raises(IllegalOrder, match="ETO-9.1.*at least one unit"):
        naval_combat.resolve(s, SEA, sides, plans={"allies": Plan(hold_out={1: ["UK-DD1", "UK-DD2", "UK-stp"]})})
    out = naval_combat.resolve(s, SEA, sides, plans={"allies": Plan(hold_out={1: ["UK-stp", "UK-DD2"], 2: ["UK-stp"]})})
    assert not any(r["target"] == "UK-stp" for rnd in out["rounds"] for r in rnd)


def test_eto_9_6_withdraw_at_most_half_rounded_up_or_all(tmp_path):
    """9.6: "any number up to half (rounded up) of his units, or all of them": 2 of 3 is allowed,
    not 3 of 4 unless all 4."""
    s = _state(tmp_path, *[unit(f"UK-DD{i}", "UK", "dd", SEA) for i in range(4)], unit("IT-DD", "IT", "dd", SEA),
               faces=(1, 2) * 20)
    sides = _sides(s, ["IT-DD"], [f"UK-DD{i}" for i in range(4)])
    with pytest.raises(IllegalOrder, match="ETO-9.6"):
        naval_combat.resolve(s, SEA, sides, plans={"allies": Plan(withdraw=["UK-DD0", "UK-DD1", "UK-DD2"])})
    out = naval_combat.resolve(s, SEA, sides, plans={"allies": Plan(withdraw=["UK-DD0", "UK-DD1"])})
    assert out["withdrew"]["allies"] == ["UK-DD0", "UK-DD1"]
    assert s.units_by_id["UK-DD0"].props["withdrew"] == s.turn_label
    r2 = {r["shooter"] for r in out["rounds"][1]}
    assert r2 == {"UK-DD2", "UK-DD3", "IT-DD"}


def test_eto_9_6_both_withdraw_all_ends_it_one_withdraws_all_may_be_pursued(tmp_path):
    """9.6: both withdraw all -> over after round 1; one withdraws entirely and the other only
    partly -> the ships that stayed may fight round 2 against the whole withdrawing force, at
    their option."""
    s = _state(tmp_path, unit("UK-DD1", "UK", "dd", SEA), unit("UK-DD2", "UK", "dd", SEA),
               unit("IT-DD1", "IT", "dd", SEA), unit("IT-DD2", "IT", "dd", SEA), faces=(1, 2) * 20)
    sides = _sides(s, ["IT-DD1", "IT-DD2"], ["UK-DD1", "UK-DD2"])
    out = naval_combat.resolve(s, SEA, sides, plans={"allies": Plan(withdraw="all"), "axis": Plan(withdraw="all")})
    assert len(out["rounds"]) == 1
    out = naval_combat.resolve(s, SEA, sides, plans={"allies": Plan(withdraw=["UK-DD1"]), "axis": Plan(withdraw="all")})
    assert {r["shooter"] for r in out["rounds"][1]} == {"UK-DD2", "IT-DD1", "IT-DD2"}
    out = naval_combat.resolve(s, SEA, sides, plans={"allies": Plan(withdraw=["UK-DD1"], pursue=False),
                                                      "axis": Plan(withdraw="all")})
    assert len(out["rounds"]) == 1


def test_eto_7_7_no_withdrawal_in_a_port_battle(tmp_path):
    """7.7: entering a port with enemy ships is a battle with no withdrawal after round 1."""
    s = _state(tmp_path, unit("UK-DD1", "UK", "dd", SEA), unit("IT-DD1", "IT", "dd", SEA), faces=(1, 2) * 10)
    out = naval_combat.resolve(s, SEA, _sides(s, ["IT-DD1"], ["UK-DD1"]), port=True,
                               plans={"allies": Plan(withdraw="all"), "axis": Plan(withdraw="all")})
    assert len(out["rounds"]) == 2 and out["withdrew"] == {"axis": [], "allies": []}


def test_eto_10_9_a_hit_on_an_stp_costs_one_stp_doubles_no_more(tmp_path):
    """10.9: "Each time an STP marker is hit, 1 STP is lost. A hit rolled with doubles causes no
    additional effect"; an emptied marker goes to the force pool.  DD (1) against armor 9: (4,4)."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", SEA), unit("IT-stp", "IT", "stp", SEA, props={"points": 2}),
               faces=(4, 4, 4, 4))
    naval_combat.resolve(s, SEA, _sides(s, ["IT-stp"], ["UK-DD"]), port=True)
    assert s.units_by_id["IT-stp"].location == values.FORCE_POOL     # two hits, two STPs


def test_eto_11_4_a_submarine_fires_with_gunnery_0_at_a_squadron(tmp_path):
    """11.4: an SS uses its gunnery only against named ships: the Italian SS (1) needs 8 against
    a DD (armor 8) with gunnery 0 (against a named ship it adds its 1: naval_units tests)."""
    s = _state(tmp_path, unit("IT-SS", "IT", "ss", SEA), unit("UK-DD", "UK", "dd", SEA), faces=(1, 2) * 10)
    naval_combat.resolve(s, SEA, _sides(s, ["IT-SS"], ["UK-DD"]))
    ss = [r["purpose"] for r in _shots(s) if r["purpose"].startswith("IT-SS")]
    assert ss and all("(gunnery 0 against armor 8" in p for p in ss)


def test_eto_9_0_carrier_air_strikes_before_the_gunfire(tmp_path):
    """9.0: a CV's naval air attacks the enemy ships before any naval gunfire takes place."""
    s = _state(tmp_path, unit("UK-CV", "UK", "cv", SEA, name="Illustrious"),
               unit("UK-air", "UK", "naval_air", SEA, props={"carrier": "UK-CV"}),
               unit("UK-DD", "UK", "dd", SEA), unit("IT-CA", "IT", "ca", SEA, name="Zara"), faces=(1, 2) * 20)
    naval_combat.resolve(s, SEA, _sides(s, ["IT-CA"], ["UK-CV", "UK-DD"]))
    rules = [e["rule"] for e in events(s, "roll")]
    assert rules[0] == "ETO-16.2" and "ETO-9.2" in rules and rules.index("ETO-9.2") > rules.index("ETO-16.2")
