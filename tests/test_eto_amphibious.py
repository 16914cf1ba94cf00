"""ETO amphibious assault and naval bombardment (10.6, 26.2, 26.4) through attack sequence 4A."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import amphibious, combat, naval_units, sea_transport, supply, values
from workbench.rulesets.eto.control import SIDE_CODE, control

SOUTHAMPTON, DOVER, CALAIS = "02748", "03148", "03248"


def _assault_state(tmp_path, *extra, target=CALAIS, ships=("UK-BB",), before=None):  # noqa: ANN001, ANN202
    """A UK assault force (3-2 infantry, 4-4 armor) aboard 8 STPs off ``target`` with Warspite,
    an HQ at Dover, the Allies' offensive begun with the HQ activated and its units activated
    (``before(state)`` runs once the force is embarked, before it sails)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [
        unit("UK-inf", "UK", "infantry", SOUTHAMPTON), unit("UK-arm", "UK", "armor", SOUTHAMPTON),
        unit("UK-stp1", "UK", "stp", SOUTHAMPTON, props={"points": 4}),
        unit("UK-stp2", "UK", "stp", SOUTHAMPTON, props={"points": 4}),
        unit("UK-BB", "UK", "bb", SOUTHAMPTON, name="Warspite"), unit("UK-hq", "UK", "hq", DOVER),
        unit("GE-far", "GE", "infantry", "04641"), *extra,
    ], west=True, options={"naval": True, "air": True})
    stps = [s.units_by_id["UK-stp1"], s.units_by_id["UK-stp2"]]
    sea_transport.embark(s, stps, [s.units_by_id["UK-inf"], s.units_by_id["UK-arm"]], "assault")
    if before is not None:
        before(s)
    for c in [*stps, *(s.units_by_id[i] for i in ships)]:
        c.location = target
    step_to(s, "offensive")
    if s.decision.side != "allies":
        s.apply({"kind": "pass"})
    s.apply({"kind": "begin"})
    s.apply({"kind": "activate_hq", "hqs": ["UK-hq"]})
    s.apply({"kind": "activate", "all": True})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    return s


def _resolve(s, target=CALAIS, attackers=("UK-arm", "UK-inf"), die=6):  # noqa: ANN001, ANN202
    s.apply({"kind": "designate", "target": target, "attackers": list(attackers)})
    step_to(s, "resolve")
    s.dice = FixedDice(die)
    s.apply({"kind": "resolve", "target": target})
    return events(s, "combat")[-1]["data"]


def test_eto_10_6_assault_on_an_empty_coastal_hex_lands_the_force(tmp_path):
    """10.6/26.2: empty Calais, in no German ZOC, defends with its intrinsic 1; the force (3 + 4)
    with Warspite's bombardment (gunnery 5 // 4 = 1) attacks with 8: 6:1.  26.4: -3 (all the
    attacking land SP are amphibious).  Die 6 - 3 = 3: (D2), a result against the defender, so
    the assault succeeds; both survivors debark into Calais (their advance) and hold it; one STP
    is sunk per assaulting unit (2 of the 8), whatever the result."""
    s = _assault_state(tmp_path)
    assert {"kind": "designate", "target": CALAIS, "attackers": ["UK-arm", "UK-inf"]} in s.legal_orders()
    c = _resolve(s)
    assert (c["land_defense"], c["attack"], c["defense"], c["column"]) == (1, 8, 1, "6:1")
    assert [-3, "amphibious assault", "ETO-26.4"] in c["drms"] and c["result"] == "(D2)"
    assert any("naval bombardment" in w and v == 1 for w, v, _ in c["contributions"])
    assert s.units_by_id["UK-inf"].location == CALAIS and s.units_by_id["UK-arm"].location == CALAIS
    assert control(s)[s.map.index(CALAIS)] == SIDE_CODE["allies"]
    left = [u for u in naval_units.naval_units(s, "allies", CALAIS) if naval_units.is_stp(s, u)]
    assert sum(naval_units.stp_points(u) for u in left) == 6


def test_eto_10_6_failed_assault_survivors_stay_aboard_and_stps_are_lost(tmp_path):
    """10.6: on a failure the attacker takes his step losses, "still loses one STP for each land
    unit that participated", and the survivors stay aboard.  Die 1 - 3 = -2 at 6:1: x."""
    s = _assault_state(tmp_path)
    c = _resolve(s, die=1)
    assert c["result"] == "x"
    if s.decision and s.decision.kind == "attacker_losses":
        s.apply({"kind": "take_losses", "units": ["UK-inf"]})
    inf, arm = s.units_by_id["UK-inf"], s.units_by_id["UK-arm"]
    assert inf.reduced and sea_transport.is_aboard(inf) and sea_transport.is_aboard(arm)
    assert control(s)[s.map.index(CALAIS)] == SIDE_CODE["axis"]
    left = [u for u in naval_units.naval_units(s, "allies", CALAIS) if naval_units.is_stp(s, u)]
    assert sum(naval_units.stp_points(u) for u in left) == 6
    r = amphibious.assault_why_not(s, "allies", CALAIS, [inf, arm])
    assert r and "already the target" in r.why   # one amphibious assault per hex per turn


def test_eto_26_2_intrinsic_strength_half_the_adjacent_enemy_sp_rounded_up(tmp_path):
    """26.2: an empty coastal hex in the ZOC of enemy land units defends with half their total
    SP, rounded up: one German 4-2 next to Calais -> 2; a fortification marker adds 2."""
    s = _assault_state(tmp_path, unit("GE-inf", "GE", "infantry", "03349"))
    assert s.map.distance("03349", CALAIS) == 1
    assert amphibious.intrinsic_strength(s, "allies", CALAIS) == 2
    s.markers.setdefault("forts", {})[CALAIS] = {"side": "axis", "kind": "fortification"}
    assert amphibious.intrinsic_strength(s, "allies", CALAIS) == 4


def test_eto_26_2_naval_bombardment_both_sides_one_sp_per_four_gunnery(tmp_path):
    """26.2: "Both friendly and enemy units in the same hex can contribute": a German CA (3) and
    two DDs (1 + 1) in Calais give the defence 5 // 4 = 1; Warspite gives the attack 1."""
    s = _assault_state(tmp_path, unit("GE-CA", "GE", "ca", CALAIS, name="Admiral Hipper"),
                       unit("GE-DD1", "GE", "dd", CALAIS), unit("GE-DD2", "GE", "dd", CALAIS))
    a = combat.assess(s, "allies", ["UK-arm", "UK-inf"], CALAIS)
    terms = {w.split(" (")[0] + (" GE" if "GE-" in w else " UK"): v for w, v, _ in a.contributions if "naval" in w}
    assert terms == {"naval bombardment UK": 1, "naval bombardment GE": 1}
    assert a.defense == 2 and a.attack == 8


def test_eto_10_6_all_assaulting_units_attack_together(tmp_path):
    """10.6: "All units attacking the same hex via amphibious assault must attack as one group"."""
    s = _assault_state(tmp_path)
    with pytest.raises(IllegalOrder, match="ETO-10.6.*one group"):
        s.apply({"kind": "designate", "target": CALAIS, "attackers": ["UK-inf"]})


def test_eto_10_6_no_assault_into_rough_forest_or_swamp(tmp_path):
    """10.6: "Amphibious assaults cannot be made into coastal hexes with rough, forest, or swamp
    terrain" (the terrain table's amphibious_assault flag)."""
    s = _assault_state(tmp_path)
    rough = next(s.map.label(i) for i in range(s.map.size)
                 if bool(s.map.hexes["coastal"][i]) and str(s.map.hexes["terrain"][i]) == "rough")
    for u in naval_units.naval_units(s, "allies", CALAIS):
        u.location = rough
    control(s)[s.map.index(rough)] = SIDE_CODE["axis"]
    r = amphibious.assault_why_not(s, "allies", rough, [s.units_by_id["UK-inf"], s.units_by_id["UK-arm"]])
    assert r and r.rule == "ETO-10.6" and "rough, forest or swamp" in r.why


def test_eto_10_6_only_activated_units_assault(tmp_path):
    """10.6: "Assaulting units must be activated for that offensive in order to debark"."""
    s = _assault_state(tmp_path)
    inf = s.units_by_id["UK-inf"]
    inf.props.pop("in_offensive")
    r = amphibious.assault_why_not(s, "allies", CALAIS, [inf])
    assert r and "not activated" in r.why
    assert values.on_map(s.units_by_id["UK-hq"])


def test_eto_10_6_standby_units_land_on_the_beachhead_later(tmp_path):
    """10.6: "units aboard ships can be kept in standby; if the assault gets ashore, the standby
    units can be activated in a subsequent offensive": once Calais is taken, a third unit still
    aboard (not activated) may debark there; before, it could only assault."""
    s = _assault_state(tmp_path / "a")
    reserve = s.units_by_id["UK-inf"]
    reserve.props.pop("in_offensive")
    r = sea_transport.debark_why_not(s, reserve, "movement")
    assert r and r.rule == "ETO-10.6" and "lands by attacking" in r.why
    control(s)[s.map.index(CALAIS)] = SIDE_CODE["allies"]
    assert sea_transport.debark_why_not(s, reserve, "movement") is None


def test_eto_26_4_32_7_assaulting_units_take_no_attacker_oos_drm(tmp_path):
    """26.4/32.7: the -2 for attackers that cannot trace supply does not apply to units
    performing an amphibious assault this turn: the force aboard traces nothing, yet no -2."""
    s = _assault_state(tmp_path)
    a = combat.assess(s, "allies", ["UK-arm", "UK-inf"], CALAIS)
    assert not [t for t in a.drms if t[2] == "ETO-33.2"] and sum(v for v, _, _ in a.drms) == -3


def test_eto_19_2_an_assault_force_in_the_hex_counts_as_adjacent_for_a_paradrop(tmp_path):
    """19.2: "Land units occupying the hex in preparation for an amphibious assault qualify as
    adjacent": a British para dropping on Calais takes no -2 while the assault force stands off
    Calais; with the force back at Southampton (and the Dover HQ gone) the -2 applies."""
    from workbench.rulesets.eto import paradrop

    s = _assault_state(tmp_path, unit("UK-p", "UK", "paratroop", DOVER))
    s.unit("UK-hq").location = SOUTHAMPTON
    assert paradrop.drop_drm_terms(s, "allies", CALAIS, "UK-p") == []
    for c in ("UK-stp1", "UK-stp2", "UK-BB"):
        s.unit(c).location = SOUTHAMPTON
    assert paradrop.drop_drm_terms(s, "allies", CALAIS, "UK-p") == \
        [(-2, "hex not adjacent to a friendly land unit", "ETO-19.2")]


def test_eto_32_7_assaulting_units_are_in_supply_that_turn_not_the_next(tmp_path):
    """32.7: "Units making an amphibious assault are automatically in supply for the remainder of
    that turn.  They are not marked out of supply at the end of the turn.  They must trace a line
    to a supply source or supply marker on all subsequent turns."  The force that took Calais
    (die 6 at 6:1, (D2)) traces no line to a British source, yet the End phase's Supply step
    leaves it unmarked; a turn later the same step marks it."""
    s = _assault_state(tmp_path)
    _resolve(s)
    inf = s.units_by_id["UK-inf"]
    assert inf.location == CALAIS and not supply.traces(s, inf)
    s.dice = FixedDice(*[3] * 40)   # 32.8's rolls for isolated sources elsewhere on the map
    supply.supply_step(s, None)
    assert not inf.props.get("oos") and not s.units_by_id["UK-arm"].props.get("oos")
    inf.props["assaulted"] = "an earlier turn"
    supply.supply_step(s, None)
    assert inf.props.get("oos")


def test_eto_10_6_air_units_aboard_stay_aboard_and_enemy_air_does_not_prevent(tmp_path):
    """10.6: "The presence of enemy land, air, or naval units in a hex does not prevent an amphibious
    assault" -- a German fighter based at Calais does not stop it, and leaves its captured base (13.2);
    a British fighter carried by the assault force is no assaulting unit: it stays aboard, to debark
    in a port (10.5; ruling of 10.6)."""
    def carry_the_fighter(s):  # noqa: ANN001, ANN202
        stp3 = s.units_by_id["UK-stp3"]
        sea_transport.embark(s, [stp3], [s.units_by_id["UK-f"]], "transport")
        stp3.location = CALAIS

    s = _assault_state(tmp_path, unit("UK-f", "UK", "fighter", SOUTHAMPTON),
                       unit("UK-stp3", "UK", "stp", SOUTHAMPTON, props={"points": 4}),
                       unit("GE-f", "GE", "fighter", CALAIS), before=carry_the_fighter)
    assert {"kind": "designate", "target": CALAIS, "attackers": ["UK-arm", "UK-inf"]} in s.legal_orders()
    c = _resolve(s)
    assert c["result"] == "(D2)" and s.units_by_id["UK-inf"].location == CALAIS
    assert sea_transport.is_aboard(s.units_by_id["UK-f"])                     # stays aboard
    assert s.units_by_id["GE-f"].location != CALAIS                           # 13.2: the base is lost


def test_eto_24_1_a_coastal_fort_is_removed_when_its_hex_falls_to_an_amphibious_assault(tmp_path):
    """24.1: "If an enemy unit enters the hex by land movement (or the hex is captured in an amphibious
    assault), the fortification marker is removed"."""
    s = _assault_state(tmp_path)
    from workbench.rulesets.eto.control import removable_marker_kinds

    kind = sorted(removable_marker_kinds(s))[0]
    s.markers.setdefault("forts", {})[CALAIS] = {"kind": kind, "side": "axis"}
    c = _resolve(s)
    if s.decision and s.decision.kind == "attacker_losses":
        s.apply({"kind": "take_losses", "units": ["UK-inf"]})
    assert c["result"] == "D1x" and s.units_by_id["UK-arm"].location == CALAIS   # a step lost, the hex taken
    assert CALAIS not in s.markers.get("forts", {})
