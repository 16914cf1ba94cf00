"""ETO ground support (17.0-17.3): the air over a hex under land attack adds bomber SP and the
air superiority DRM to the land combat, and the 19.2 +/-2 to a paradrop roll, with the
rulebook's numbers.  Air units are placed as flying over the combat hex (``props["flight"]``)."""

from __future__ import annotations

import copy

from eto_kit import begin_offensive, events, new_state, stack_attack, step_to, unit

from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import combat, ground_support, paradrop
from workbench.rulesets.eto.combat import assess

GE2 = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640")]  # 4-2 each
SU1 = unit("SU-a", "SU", "infantry", "08740")  # 2-2
TARGET = "08740"


def fly(state, uid: str, nation: str, utype: str, over: str = TARGET, **props):  # noqa: ANN001, ANN201
    """An air unit flying over ``over`` (flight f1), based at 08538."""
    side = "axis" if nation in ("GE", "IT") else "allies"
    u = Unit(uid, side, nation, utype, None, over, False, {"base": "08538", "flight": "f1", **props})
    state.units_by_id[uid] = u
    return u


def _drm_terms(a) -> list[tuple[int, str, str]]:  # noqa: ANN001
    return [t for t in a.drms if t[2] == "ETO-17.2"]


def test_eto_17_3_defending_bombers_add_one_each_at_most_two(tmp_path):
    """17.3: "Each unaborted bomber unit friendly to the defending player adds 1 point to the
    defense, to a maximum of 2 additional strength points": 6 SP + 1, 2, 3 bombers = 7, 8, 8
    (26.2's doubling cap on top: 1 SP + 3 bombers = 2)."""
    assert [adj.defense_strength(6, defending_bombers=n) for n in range(4)] == [6, 7, 8, 8]
    assert adj.defending_bomber_sp(3) == 2
    assert adj.defense_strength(1, defending_bombers=3) == 2  # 26.2: never more than double
    t = copy.deepcopy({"air": adj._shipped("air")})
    t["air"]["ground_support"]["defending_bomber_max"] = 3  # the numbers are read from air.toml
    assert adj.defense_strength(6, defending_bombers=3, tables=t) == 9
    # in play: two Soviet 2-2s (4 SP) under three Soviet bombers defend with 4 + 2 = 6
    s = new_state(tmp_path, [*GE2, SU1, unit("SU-b", "SU", "infantry", TARGET)])
    for k in (1, 2, 3):
        fly(s, f"SU-bmb-{k}", "SU", "bomber")
    a = assess(s, "axis", ["GE-a", "GE-b"], TARGET)
    assert (a.land_defense, a.defense) == (4, 6)
    assert ("defending bombers SU-bmb-1, SU-bmb-2, SU-bmb-3", 2, "ETO-17.3") in a.contributions


def test_eto_17_2_attacker_air_superiority_plus_one(tmp_path):
    """17.2: an unaborted attacking fighter over the hex gives +1; a fighter adds no SP (12.5:
    "Only bombers contribute strength points"): 8 vs 2 stays 4:1."""
    s = new_state(tmp_path, [*GE2, SU1])
    fly(s, "GE-ftr-1", "GE", "fighter")
    assert ground_support.superiority(s, TARGET, "axis") == "attacker"
    a = assess(s, "axis", ["GE-a", "GE-b"], TARGET)
    assert _drm_terms(a) == [(1, "attacker air superiority", "ETO-17.2")]
    assert (a.attack, a.defense, a.column, a.drm) == (8, 2, "4:1", 1)


def test_eto_17_2_defender_air_superiority_minus_one(tmp_path):
    """17.2: an unaborted defending air unit alone over the hex gives -1 (for the defender)."""
    s = new_state(tmp_path, [*GE2, SU1])
    fly(s, "SU-ftr-1", "SU", "fighter")
    assert ground_support.superiority(s, TARGET, "axis") == "defender"
    a = assess(s, "axis", ["GE-a", "GE-b"], TARGET)
    assert _drm_terms(a) == [(-1, "defender air superiority", "ETO-17.2")] and a.drm == -1
    assert a.defense == 2  # a defending fighter adds no SP (17.3: bombers only)


def test_eto_17_2_air_superiority_contested_cancels(tmp_path):
    """17.2: "If both sides have an unaborted air unit in the hex, air superiority is contested
    and the modifiers cancel each other out"; the bombers still add SP (17.3)."""
    s = new_state(tmp_path, [*GE2, SU1])
    fly(s, "GE-ftr-1", "GE", "fighter")
    fly(s, "SU-bmb-1", "SU", "bomber")
    assert ground_support.superiority(s, TARGET, "axis") == "contested"
    a = assess(s, "axis", ["GE-a", "GE-b"], TARGET)
    assert _drm_terms(a) == [] and a.drm == 0
    assert a.defense == 3  # 2 + 1 defending bomber


def test_eto_17_2_atps_aborted_and_grounded_units_give_no_superiority(tmp_path):
    """17.2: "ATPs cannot establish air superiority, even if no enemy air units are present";
    17.0: only unaborted air units flying over the hex count (not one standing on a base)."""
    s = new_state(tmp_path, [*GE2, SU1])
    fly(s, "GE-atp-1", "GE", "atp", points=1)
    fly(s, "GE-ftr-1", "GE", "fighter", aborted=True)
    fly(s, "GE-bmb-1", "GE", "bomber", aborted=True)
    s.units_by_id["SU-ftr-1"] = Unit("SU-ftr-1", "allies", "SU", "fighter", None, TARGET, False, {"base": TARGET})
    assert ground_support.air_over(s, TARGET, "axis") == [] and ground_support.air_over(s, TARGET, "allies") == []
    assert ground_support.superiority(s, TARGET, "axis") is None
    a = assess(s, "axis", ["GE-a", "GE-b"], TARGET)
    assert (a.attack, a.drm) == (8, 0)
    s.unit("GE-ftr-1").props.pop("aborted")  # the same fighter unaborted does count
    assert ground_support.superiority(s, TARGET, "axis") == "attacker"


def test_eto_17_3_attacking_bombers_add_strength_capped_at_land_sp(tmp_path):
    """17.3: attacking bombers add their strength "to a maximum equal to the land units'
    strength": one 4-2 (4 SP) under a German 6-12 bomber attacks with 4 + 4 = 8, not 10; two
    4-2s (8) under it attack with 8 + 6 = 14; both with +1 air superiority."""
    s = new_state(tmp_path, [*GE2, SU1])
    fly(s, "GE-bmb-1", "GE", "bomber")
    assert ground_support.attacking_bomber_sp(s, TARGET, "axis") == 6
    assert ground_support.attacking_bomber_sp(s, TARGET, "axis", land_sp=4) == 4
    one = assess(s, "axis", ["GE-a"], TARGET)
    assert (one.land_attack, one.attack) == (4, 8)
    assert ("bombers GE-bmb-1", 4, "ETO-17.3") in one.contributions
    two = assess(s, "axis", ["GE-a", "GE-b"], TARGET)
    assert (two.land_attack, two.attack, two.column, two.drm) == (8, 14, "6:1", 1)


def test_eto_17_3_bombers_and_general_never_more_than_double(tmp_path):
    """17.3/26.2: bombers, a general and naval bombardment together never more than double the
    land SP: one 4-2 with Guderian (+2) under a 6-12 bomber attacks with 4 + 4 = 8."""
    s = new_state(tmp_path, [*GE2, SU1, unit("GE-G", "GE", "general", "08640", name="Guderian")])
    fly(s, "GE-bmb-1", "GE", "bomber")
    a = assess(s, "axis", ["GE-a"], TARGET)
    assert ("general GE-G", 2, "ETO-26.2") in a.contributions
    assert (a.land_attack, a.attack) == (4, 8)


def test_eto_17_3_fighter_bomber_adds_strength_only_in_the_bomber_role(tmp_path):
    """12.1/17.3: a German 3-4/2 fighter-bomber adds its 3 SP when flying as a bomber; as a
    fighter it gives only air superiority (12.5)."""
    s = new_state(tmp_path, [*GE2, SU1])
    fb = fly(s, "GE-fb-1", "GE", "fighter_bomber", role="bomber")
    assert assess(s, "axis", ["GE-a", "GE-b"], TARGET).attack == 11
    fb.props["role"] = "fighter"
    a = assess(s, "axis", ["GE-a", "GE-b"], TARGET)
    assert (a.attack, a.drm) == (8, 1)


def test_eto_17_1_ground_support_enters_the_rolled_land_attack(tmp_path):
    """17.1: ground support is part of the land attack: 8 + 6 (6-12 bomber) = 14 vs 2 + 1
    (a defending Soviet 4-8 bomber) = 3: 4:1; superiority contested (no DRM); the combat event
    carries the 17.3 contributions."""
    s = new_state(tmp_path, [*GE2, SU1], 4)
    fly(s, "GE-bmb-1", "GE", "bomber")
    fly(s, "SU-bmb-1", "SU", "bomber")
    c = stack_attack(s)
    assert (c["attack"], c["defense"], c["column"], c["drm"]) == (14, 3, "4:1", 0)
    assert ["bombers GE-bmb-1", 6, "ETO-17.3"] in c["contributions"]
    assert ["defending bombers SU-bmb-1", 1, "ETO-17.3"] in c["contributions"]


def test_eto_17_planner_shows_the_bombers_sp_and_the_superiority_drm(tmp_path):
    """17.2/17.3 in the planner (ETORuleset.assess_attack): a 6-12 bomber over the hex shows its
    6 SP under ETO-17.3 and the +1 DRM under ETO-17.2 (8 + 6 = 14 vs 2: 6:1)."""
    s = new_state(tmp_path, [*GE2, SU1])
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    fly(s, "GE-bmb-1", "GE", "bomber")
    p = s.ruleset.assess_attack(s, {"kind": "designate", "target": TARGET, "attackers": ["GE-a", "GE-b"]})
    assert ("bombers GE-bmb-1", 6, "ETO-17.3") in p.contributions
    assert ("+1 DRM", "attacker air superiority", "ETO-17.2") in p.shifts
    assert (p.attack, p.defense, p.column) == (14, 2, "6:1")


def test_eto_17_terms_hook_is_registered_once(tmp_path):
    """17.1: the ground-support terms enter the one combat pipeline (combat.EXTRA_TERMS) and the
    paradrop roll (paradrop.AIR_SUPERIORITY), each once."""
    assert combat.EXTRA_TERMS.count(ground_support.terms) == 1
    assert paradrop.AIR_SUPERIORITY.count(ground_support.paradrop_drm) == 1


def test_eto_24_2_air_units_do_not_count_for_land_stacking(tmp_path):
    """24.2 (stacking.toml: air units exempt): a bomber, a fighter and an ATP over a clear hex
    (limit 2) with one German 4-2 leave the stack at one unit; a second 4-2 still fits."""
    from workbench.rulesets.eto import stacking

    s = new_state(tmp_path, [GE2[0], SU1])
    for uid, utype in (("GE-bmb-1", "bomber"), ("GE-ftr-1", "fighter"), ("GE-atp-1", "atp")):
        fly(s, uid, "GE", utype, over="08640")
    assert [u.id for u in stacking.stack_of(s, "08640", "axis")] == ["GE-a"]
    second = Unit("GE-b", "axis", "GE", "infantry", None, "08641", False, {})
    assert stacking.fits(s, "08640", "axis", [second])


# -- 19.2: air superiority on the Paradrop Table ----------------------------------------------
PARA = unit("GE-p", "GE", "paratroop", "08538")  # an Axis-held resource hex, an airbase


def _drop(tmp_path, *faces: int, air: tuple[tuple[str, str, str], ...] = ()):  # noqa: ANN202
    s = new_state(tmp_path, [*GE2, SU1, PARA], *faces)
    for uid, nation, utype in air:
        fly(s, uid, nation, utype)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": TARGET})
    s.apply({"kind": "end_step"})
    s.apply({"kind": "designate", "target": TARGET, "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    return s, events(s, "paradrop")[-1]["data"]


def test_eto_19_2_friendly_air_superiority_plus_two(tmp_path):
    """19.2: "+2 for friendly air superiority in the combat hex": a German fighter over the hex
    turns die 3 (depleted) into 3 + 2 = 5 (undamaged)."""
    s, drop = _drop(tmp_path, 3, air=(("GE-ftr-1", "GE", "fighter"),))
    assert (drop["die"], drop["drm"], drop["modified"], drop["effect"]) == (3, 2, 5, "undamaged")
    assert drop["drms"] == [[2, "friendly air superiority", "ETO-19.2"]]
    assert not s.unit("GE-p").reduced


def test_eto_19_2_enemy_air_superiority_minus_two(tmp_path):
    """19.2: "-2 for enemy air superiority": a Soviet fighter over the hex turns die 5
    (undamaged) into 5 - 2 = 3 (depleted)."""
    s, drop = _drop(tmp_path, 5, air=(("SU-ftr-1", "SU", "fighter"),))
    assert (drop["die"], drop["drm"], drop["modified"], drop["effect"]) == (5, -2, 3, "depleted")
    assert s.unit("GE-p").reduced


def test_eto_19_2_contested_air_gives_no_paradrop_modifier(tmp_path):
    """17.2/19.2: fighters of both sides over the hex: contested, neither +2 nor -2 (die 3:
    depleted)."""
    _, drop = _drop(tmp_path, 3, air=(("GE-ftr-1", "GE", "fighter"), ("SU-ftr-1", "SU", "fighter")))
    assert (drop["die"], drop["drm"], drop["effect"]) == (3, 0, "depleted")
