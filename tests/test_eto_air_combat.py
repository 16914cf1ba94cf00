"""ETO air-to-air combat (15.0-15.7), with 13.4's attacks on overstacked units and 18.1's ATP
protection.  The counters are the 14.2 example's: a British 4-3/3 fighter, a German 4-4/3 fighter
and a German 6-12 bomber (units.toml)."""

from __future__ import annotations

from typing import Any

import pytest
from eto_kit import events, flying_state, unit

from workbench.engine import IllegalOrder
from workbench.rulesets.eto import air_combat as ac
from workbench.rulesets.eto import air_units
from workbench.rulesets.eto.values import FORCE_POOL

HEX = "08740"


def air_state(tmp_path, units: list[dict[str, Any]], *faces: int, props: dict[str, dict[str, Any]] | None = None):
    """British and French counters on the Allied side; see ``eto_kit.flying_state``."""
    return flying_state(tmp_path, units, *faces, allies=("SU", "UK", "FR"), props=props)


def sides(s, hex_: str = HEX) -> dict[str, list]:
    out: dict[str, list] = {"axis": [], "allies": []}
    for u in sorted(s.units_by_id.values(), key=lambda u: u.id):
        if u.location == hex_ and not ac.overstacked(u):
            out[u.side].append(u)
    return out


def attacks(s) -> list[tuple[str, str, int, int, str, int]]:
    return [(e["data"]["attacker"], e["data"]["target"], e["data"]["target_number"], e["data"]["die"],
             e["data"]["result"], e["data"]["round"]) for e in events(s, "air_combat")]


UK_F = unit("UK-f", "UK", "fighter", HEX)
GE_F = unit("GE-f", "GE", "fighter", HEX)
GE_B = unit("GE-b", "GE", "bomber", HEX)


def test_eto_15_3_target_number_is_quality_plus_strength_minus_target_quality(tmp_path):
    """15.3 with the 14.2 example's counters: the British 4-3/3 fighter against the German 6-12
    bomber (quality 0) has 3 + 4 - 0 = 7; against the German 4-4/3 fighter 3 + 4 - 3 = 4; depleted
    (2-3/2) against the bomber 2 + 2 - 0 = 4."""
    s = air_state(tmp_path, [UK_F, GE_F, GE_B])
    t = s.ruleset.tables
    uk, ge, bomber = s.unit("UK-f"), s.unit("GE-f"), s.unit("GE-b")
    assert (air_units.strength(s, uk), air_units.quality(s, uk), air_units.quality(s, bomber)) == (4, 3, 0)
    assert ac.target_number(4, 3, air_units.quality(s, bomber), tables=t) == 7
    assert ac.target_number(4, 3, air_units.quality(s, ge), tables=t) == 4
    uk.reduced = True
    assert ac.target_number(air_units.strength(s, uk), air_units.quality(s, uk), 0, tables=t) == 4


def test_eto_15_3_roll_below_equal_above_the_target_number(tmp_path):
    """15.3: below the target number a step loss, equal an abort, higher no effect (target
    number 4, British fighter against the German fighter)."""
    t = air_state(tmp_path, [UK_F]).ruleset.tables
    assert [ac.outcome(d, 4, t) for d in (2, 3, 4)] == ["deplete", "deplete", "abort"]
    assert ac.outcome(4, 3, t) == "none"


def test_eto_15_7_roll_of_six_never_affects_the_target(tmp_path):
    """15.7: the British fighter needs 7 against the 6-12 bomber; a 6 is still a miss."""
    t = air_state(tmp_path, [UK_F]).ruleset.tables
    assert ac.outcome(6, 7, t) == "none"
    assert ac.outcome(6, 9, t) == "none"


def test_eto_15_7_roll_of_five_never_depletes(tmp_path):
    """15.7: a 5 never depletes; it aborts if the target number is 5 or more (7 against the
    bomber, 5 over the German fighter's own base), and does nothing against 4."""
    t = air_state(tmp_path, [UK_F]).ruleset.tables
    assert ac.outcome(5, 7, t) == "abort"
    assert ac.outcome(5, 5, t) == "abort"
    assert ac.outcome(5, 4, t) == "none"


def test_eto_15_7_roll_of_one_always_aborts_and_depletes(tmp_path):
    """15.7: a depleted Soviet 1-3/0 fighter against the German 4-4/3 has 0 + 1 - 3 = -2, yet a 1
    still depletes; so does a 1 against a target number of exactly 1 (not just an abort)."""
    t = air_state(tmp_path, [UK_F]).ruleset.tables
    assert ac.target_number(1, 0, 3, tables=t) == -2
    assert ac.outcome(1, -2, t) == "deplete"
    assert ac.outcome(1, 1, t) == "deplete"


def test_eto_15_3_each_attack_is_rolled_and_logged_with_its_target_number(tmp_path):
    """15.3: one die per attack, through state.roll, naming attacker, target and target number
    (British fighter vs the German bomber: 7); the 14.2 example's miss: a 6."""
    s = air_state(tmp_path, [UK_F, GE_B], 6, 6)
    res = ac.fight(s, HEX, sides(s), first="allies")
    rolls = [e for e in s.log if e["kind"] == "roll"]
    assert [r["purpose"] for r in rolls] == ["UK-f attacks GE-b (target number 7)"] * 2
    assert {r["rule"] for r in rolls} == {"ETO-15.3"}
    assert attacks(s) == [("UK-f", "GE-b", 7, 6, "none", 1), ("UK-f", "GE-b", 7, 6, "none", 2)]
    assert res["survivors"] == {"axis": ["GE-b"], "allies": ["UK-f"]}
    assert res["units"]["GE-b"] == {"side": "axis", "aborted": False, "steps_lost": 0, "points_lost": 0,
                                    "eliminated": False}


def test_eto_14_2_example_fighter_duel_then_the_bomber_survives_two_misses(tmp_path):
    """The 14.2 example as two combats: over Calais the British 4-3/3 aborts the German 4-4/3
    (target number 3 + 4 - 3 = 4, die 4 = abort) while the German's 5 misses (15.7: against 4 a 5
    does nothing); round 2 has no unaborted enemy.  Then the British fighter attacks the 6-12
    bomber (7) and misses twice (6, 6); the bomber flies on."""
    calais, between = "03248", "03348"  # 03348: the sea between Calais and Antwerp
    s = air_state(tmp_path, [unit("UK-f", "UK", "fighter", calais), unit("GE-f", "GE", "fighter", calais),
                             unit("GE-b", "GE", "bomber", "04351")], 4, 5, 6, 6,
                  props={"UK-f": {"base": "03148"}, "GE-f": {"base": "03649"}, "GE-b": {"base": "04351"}})
    s.unit("GE-b").location = between  # flying from Frankfurt (the loader places units on land only)
    duel = ac.fight(s, calais, sides(s, calais), first="allies")
    assert attacks(s) == [("UK-f", "GE-f", 4, 4, "abort", 1), ("GE-f", "UK-f", 4, 5, "none", 1)]
    assert duel["survivors"] == {"axis": [], "allies": ["UK-f"]} and s.unit("GE-f").props["aborted"]
    s.unit("UK-f").location = between
    raid = ac.fight(s, between, sides(s, between), first="allies")
    assert [a[2:5] for a in attacks(s)[2:]] == [(7, 6, "none"), (7, 6, "none")]
    assert raid["survivors"]["axis"] == ["GE-b"] and not s.unit("GE-b").reduced


def test_eto_15_0_no_combat_without_a_fighter(tmp_path):
    """15.0: air-to-air combat needs at least one fighter; two bombers in a hex do not fight."""
    s = air_state(tmp_path, [GE_B, unit("UK-b", "UK", "bomber", HEX)])
    res = ac.fight(s, HEX, sides(s), first="axis")
    assert res["fought"] is False and not [e for e in s.log if e["kind"] == "roll"]


def test_eto_15_1_bombers_and_fighter_bombers_flying_as_bombers_do_not_attack(tmp_path):
    """15.1: the German 3-4/2 fighter-bomber flying as a bomber cannot attack and is attacked at
    quality 0 (3 + 4 - 0 = 7 for the British fighter), as is the bomber."""
    s = air_state(tmp_path, [UK_F, unit("UK-g", "UK", "fighter", HEX), unit("GE-fb", "GE", "fighter_bomber", HEX),
                             GE_B], 6, 6, 6, 6, props={"GE-fb": {"role": "bomber"}})
    ac.fight(s, HEX, sides(s), first="axis")
    got = attacks(s)
    assert {a[0] for a in got} == {"UK-f", "UK-g"} and len(got) == 4
    assert {(a[1], a[2]) for a in got} == {("GE-b", 7), ("GE-fb", 7)}
    s.unit("GE-fb").props["role"] = "fighter"  # as a fighter it attacks, quality 2: 2 + 3 - 3 = 2
    assert ac.can_attack(s, s.unit("GE-fb")) and air_units.quality(s, s.unit("GE-fb")) == 2


def test_eto_15_4_own_base_adds_one_to_strength(tmp_path):
    """15.4: the German 4-4/3 over its own base attacks the British fighter at 3 + (4 + 1) - 3 = 5;
    the British fighter, far from Dover, needs 4."""
    s = air_state(tmp_path, [UK_F, GE_F], 6, 6, 6, 6, props={"GE-f": {"base": HEX}})
    ac.fight(s, HEX, sides(s), first="allies")
    assert attacks(s)[:2] == [("UK-f", "GE-f", 4, 6, "none", 1), ("GE-f", "UK-f", 5, 6, "none", 1)]
    ev = [e for e in events(s, "air_combat") if e["data"]["attacker"] == "GE-f"][0]
    assert ev["data"]["bonuses"] == ["own base"]


def test_eto_15_4_naval_air_over_its_carrier_gets_no_own_base_bonus(tmp_path):
    """15.4 exception: a naval air unit flying above its CV base; a unit changing base gets the
    bonus at an intermediate base."""
    s = air_state(tmp_path, [unit("UK-n", "UK", "naval_air", HEX), UK_F],
                  props={"UK-n": {"base": HEX, "carrier": "UK-CV1"}})
    assert not ac.own_base(s, s.unit("UK-n"), HEX)
    assert ac.own_base(s, s.unit("UK-f"), HEX, bases_on_route=[HEX, "03148"])
    assert not ac.own_base(s, s.unit("UK-f"), HEX)


def test_eto_15_4_escort_bonus_spitfire_me109_ju52_example(tmp_path):
    """15.4's example: a Spitfire intercepts an Me109 and a Ju52 (here the German 6-12 bomber)
    and attacks the bomber; the Me109, not itself attacked, attacks the Spitfire at
    3 + (4 + 1) - 3 = 5.  With a second Spitfire one of them must attack the Me109 (15.5), so the
    Me109 gets no bonus whichever unit it attacks: 4."""
    s = air_state(tmp_path, [UK_F, GE_F, GE_B], 6, 6, 6, 6)
    ac.fight(s, HEX, sides(s), first="allies", preferences={"UK-f": ["GE-b"]})
    assert attacks(s)[:2] == [("UK-f", "GE-b", 7, 6, "none", 1), ("GE-f", "UK-f", 5, 6, "none", 1)]
    assert ac.escort_bonus_applies(s, "GE-f", "UK-f", [("UK-f", "GE-b"), ("GE-f", "UK-f")])

    s2 = air_state(tmp_path, [UK_F, unit("UK-g", "UK", "fighter", HEX), GE_F, GE_B], 6, 6, 6, 6, 6, 6)
    ac.fight(s2, HEX, sides(s2), first="allies", preferences={"UK-f": ["GE-b"], "UK-g": ["GE-b"]})
    r1 = [a for a in attacks(s2) if a[5] == 1]
    assert sorted(a[1] for a in r1 if a[0] != "GE-f") == ["GE-b", "GE-f"]
    assert [a[2] for a in r1 if a[0] == "GE-f"] == [4]


def test_eto_15_5_every_enemy_attacked_once_before_any_twice(tmp_path):
    """15.5: three British fighters all wanting the same German bomber: one is sent to the second
    bomber, and the kernel says so in the log; the third may double up."""
    s = air_state(tmp_path, [UK_F, unit("UK-g", "UK", "fighter", HEX), unit("UK-h", "UK", "fighter", HEX),
                             GE_B, unit("GE-c", "GE", "bomber", HEX)])
    pairs = ac.assign_targets(s, sides(s)["allies"], sides(s)["axis"],
                              {"UK-f": ["GE-b"], "UK-g": ["GE-b"], "UK-h": ["GE-b"]})
    assert pairs == [("UK-f", "GE-b"), ("UK-g", "GE-c"), ("UK-h", "GE-b")]
    log = events(s, "air_target")
    assert [(e["data"]["attacker"], e["data"]["target"], e["data"]["chosen_by"]) for e in log] == [("UK-g", "GE-c", "kernel")]
    assert "ETO-15.5" in log[0]["text"]


def test_eto_15_5_second_choices_are_honoured_before_the_kernel_picks(tmp_path):
    """15.5: an attacker's second declared choice is used when its first is closed."""
    s = air_state(tmp_path, [UK_F, unit("UK-g", "UK", "fighter", HEX), GE_B, unit("GE-c", "GE", "bomber", HEX), GE_F])
    pairs = ac.assign_targets(s, sides(s)["allies"], sides(s)["axis"],
                              {"UK-f": ["GE-b", "GE-f"], "UK-g": ["GE-b", "GE-f"]})
    assert pairs == [("UK-f", "GE-b"), ("UK-g", "GE-f")]
    assert events(s, "air_target")[0]["data"]["chosen_by"] == "owner"


def test_eto_18_1_atp_cannot_be_attacked_while_an_escort_is_not(tmp_path):
    """18.1: one British fighter wanting the Ju 52 ATP must attack its escorting 4-4/3 instead;
    with two, one attacks the escort and the other the ATP, whichever order they declared in."""
    units = [UK_F, unit("UK-g", "UK", "fighter", HEX), GE_F, unit("GE-t", "GE", "atp", HEX)]
    s = air_state(tmp_path, units)
    alone = ac.assign_targets(s, [s.unit("UK-f")], sides(s)["axis"], {"UK-f": ["GE-t"]})
    assert alone == [("UK-f", "GE-f")]
    assert "ETO-18.1" in events(s, "air_target")[0]["data"]["why"]
    both = ac.assign_targets(s, sides(s)["allies"], sides(s)["axis"], {"UK-f": ["GE-t"], "UK-g": ["GE-f"]})
    assert both == [("UK-f", "GE-t"), ("UK-g", "GE-f")]


def test_eto_18_1_atp_hit_loses_one_point_and_the_rest_aborts(tmp_path):
    """18.1: the ATP is attacked as a bomber (3 + 4 - 0 = 7); hit (die 2), the two-point marker
    loses one ATP and aborts; a one-point marker hit (die 1) is destroyed."""
    s = air_state(tmp_path, [UK_F, unit("GE-t", "GE", "atp", HEX), unit("GE-u", "GE", "atp", HEX)], 2, 1, 6, 6,
                  props={"GE-t": {"points": 2}, "GE-u": {"points": 1}})
    res = ac.fight(s, HEX, sides(s), first="allies", preferences={"UK-f": ["GE-t"]})
    assert attacks(s)[0] == ("UK-f", "GE-t", 7, 2, "deplete", 1)
    assert attacks(s)[1] == ("UK-f", "GE-u", 7, 1, "deplete", 2)
    t, u = s.unit("GE-t"), s.unit("GE-u")
    assert (t.props["points"], t.props["aborted"], t.location) == (1, True, HEX)
    assert res["units"]["GE-t"]["points_lost"] == 1
    assert u.location == FORCE_POOL and res["units"]["GE-u"]["eliminated"]


def test_eto_13_4_extra_fighters_attack_overstacked_units_at_quality_zero(tmp_path):
    """13.4: two German 4-4/3s over a British base with one flying defender and one overstacked
    fighter on the ground.  Both want the grounded one: the first must take the flying defender;
    the extra one attacks the grounded fighter at 3 + 4 - 0 = 7.  Its 5 aborts, which an
    overstacked unit ignores, so round 2 attacks it again (4: depleted, and still there)."""
    units = [unit("GE-f", "GE", "fighter", HEX), unit("GE-g", "GE", "fighter", HEX),
             unit("UK-f", "UK", "fighter", HEX), unit("UK-o", "UK", "fighter", HEX)]
    s = air_state(tmp_path, units, 6, 5, 6, 6, 4, 6,
                  props={"UK-f": {"base": HEX}, "UK-o": {"base": HEX, "overstacked": True, "flight": None}})
    prefs = {"GE-f": ["UK-o"], "GE-g": ["UK-o"]}
    res = ac.fight(s, HEX, sides(s), first="axis", preferences=prefs)
    assert attacks(s) == [("GE-f", "UK-f", 4, 6, "none", 1), ("GE-g", "UK-o", 7, 5, "abort", 1),
                          ("UK-f", "GE-f", 5, 6, "none", 1),
                          ("GE-f", "UK-f", 4, 6, "none", 2), ("GE-g", "UK-o", 7, 4, "deplete", 2),
                          ("UK-f", "GE-f", 5, 6, "none", 2)]
    o = s.unit("UK-o")
    assert o.reduced and not o.props.get("aborted") and o.location == HEX
    assert res["survivors"]["allies"] == ["UK-f"]  # the grounded unit never fought
    assert "ETO-13.4" in events(s, "air_target")[0]["data"]["why"]


def test_eto_15_2_results_take_effect_at_the_end_of_the_round(tmp_path):
    """15.2 C/D: the German fighter depleted by the British 1 still makes its own round-1 attack at
    full strength (3 + 4 - 3 = 4, not the depleted 2 + 2 - 3 = 1); both end flipped and aborted,
    so round 2 has no attacks."""
    s = air_state(tmp_path, [UK_F, GE_F], 1, 3)
    res = ac.fight(s, HEX, sides(s), first="allies")
    assert attacks(s) == [("UK-f", "GE-f", 4, 1, "deplete", 1), ("GE-f", "UK-f", 4, 3, "deplete", 1)]
    for uid in ("UK-f", "GE-f"):
        assert s.unit(uid).reduced and s.unit(uid).props["aborted"] and res["units"][uid]["steps_lost"] == 1
    assert res["survivors"] == {"axis": [], "allies": []}


def test_eto_15_2_round_two_only_fighters_of_strength_three_or_more(tmp_path):
    """15.2 E: a depleted German 2-4/2 attacks in round 1 but not in round 2 (strength 2 < 3);
    the full 4-4/3 attacks in both.  Both must attack the lone British bomber (15.5 allows the
    second attack once it has been attacked)."""
    s = air_state(tmp_path, [GE_F, unit("GE-d", "GE", "fighter", HEX, reduced=True),
                             unit("UK-b", "UK", "bomber", HEX)], 6, 6, 6)
    ac.fight(s, HEX, sides(s), first="axis")
    assert [(a[0], a[2], a[5]) for a in attacks(s)] == [("GE-d", 4, 1), ("GE-f", 7, 1), ("GE-f", 7, 2)]
    assert s.dice.faces == []


def test_eto_15_6_depleted_or_blank_backed_unit_is_eliminated_to_the_force_pool(tmp_path):
    """15.6: the depleted British 2-3/2 hit again, and the French 3-8 bomber (blank back) hit
    once, are eliminated to their nations' force pools."""
    s = air_state(tmp_path, [GE_F, unit("GE-g", "GE", "fighter", HEX),
                             unit("UK-f", "UK", "fighter", HEX, reduced=True), unit("FR-b", "FR", "bomber", HEX)],
                  2, 2, 6)
    res = ac.fight(s, HEX, sides(s), first="axis", preferences={"GE-f": ["FR-b"], "GE-g": ["UK-f"]})
    assert attacks(s) == [("GE-f", "FR-b", 7, 2, "deplete", 1), ("GE-g", "UK-f", 5, 2, "deplete", 1),
                          ("UK-f", "GE-f", 1, 6, "none", 1)]
    for uid, nation in (("UK-f", "UK"), ("FR-b", "FR")):
        u = s.unit(uid)
        assert (u.location, u.reduced, u.props) == (FORCE_POOL, False, {"pool_of": nation})
        assert res["units"][uid]["eliminated"]
    assert {e["data"]["unit"] for e in events(s, "eliminated")} == {"UK-f", "FR-b"}
    assert res["rounds"][1] == []  # round 2: no enemy air unit left to attack


def test_eto_15_2_voluntary_abort_after_round_one(tmp_path):
    """15.2 D and the 14.2 example: after the British fighter's first miss the German player may
    abort the bomber voluntarily; it then is not attacked in round 2."""
    s = air_state(tmp_path, [UK_F, GE_B], 6)
    res = ac.fight(s, HEX, sides(s), first="allies", voluntary_aborts={"axis": ["GE-b"]})
    assert len(attacks(s)) == 1 and res["rounds"][1] == []
    assert s.unit("GE-b").props["aborted"] and res["survivors"]["axis"] == []
    s2 = air_state(tmp_path, [UK_F, GE_B], 6)
    with pytest.raises(IllegalOrder) as e:  # refused before any die is rolled
        ac.fight(s2, HEX, sides(s2), first="allies", voluntary_aborts={"allies": ["GE-b"]})
    assert e.value.rule == "ETO-15.2" and not [x for x in s2.log if x["kind"] == "roll"]


def test_eto_15_6_aborted_units_neither_attack_nor_are_attacked(tmp_path):
    """15.6: a German fighter aborted in an earlier combat in this hex takes no part."""
    s = air_state(tmp_path, [UK_F, GE_F, GE_B], 6, 6, props={"GE-f": {"aborted": True}})
    ac.fight(s, HEX, sides(s), first="allies")
    assert [(a[0], a[1]) for a in attacks(s)] == [("UK-f", "GE-b"), ("UK-f", "GE-b")]


def test_eto_15_0_units_must_be_in_the_combat_hex(tmp_path):
    s = air_state(tmp_path, [UK_F, unit("GE-f", "GE", "fighter", "08640")])
    with pytest.raises(IllegalOrder) as e:
        ac.fight(s, HEX, {"allies": [s.unit("UK-f")], "axis": [s.unit("GE-f")]}, first="allies")
    assert e.value.rule == "ETO-15.0"
