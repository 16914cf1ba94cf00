"""ETO air commitment (12.5, 12.6, 20.0-20.3): who may fly in which phase, what flying
commits, the three missions of a land offensive and the one of an air offensive, CC turning PC
at the end of the offensive and every mark clearing with the next monthly turn."""

from __future__ import annotations

import pytest
from eto_kit import begin_offensive, events, new_state, step_to, unit

from workbench.engine import IllegalOrder
from workbench.engine.errors import Refusal
from workbench.engine.units import Unit
from workbench.rulesets.eto import commitment
from workbench.rulesets.eto.commitment import commit_for, may_fly, status

LAND = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
        unit("SU-a", "SU", "infantry", "08740")]


def air(state, uid: str, nation: str, utype: str, base: str = "08538", **props):  # noqa: ANN001, ANN201
    """An air unit standing on its base."""
    side = "axis" if nation in ("GE", "IT") else "allies"
    u = Unit(uid, side, nation, utype, None, base, False, {"base": base, **props})
    state.units_by_id[uid] = u
    return u


@pytest.fixture
def s(tmp_path):  # noqa: ANN201
    return new_state(tmp_path, LAND)


def test_eto_20_0_status_is_cc_pc_or_none_for_the_current_turn(s):
    """20.0: no marker = uncommitted, CC, PC; the markers show commitment "during the current
    turn", so a mark left from an earlier turn counts as none; a unit in a strategic bombing box
    is PC by being there (20.1)."""
    u = air(s, "GE-bmb-1", "GE", "bomber")
    assert status(s, u) is None
    u.props.update(commit="CC", commit_turn=s.turn_label)
    assert status(s, u) == "CC"
    u.props.update(commit="PC")
    assert status(s, u) == "PC"
    u.props["commit_turn"] = "1941-06"  # the turn before 1941-07
    assert status(s, u) is None
    box = air(s, "UK-bmb-1", "UK", "bomber", base="Allied strategic bombing box")
    assert status(s, box) == "PC"


def test_eto_12_5_friendly_offensive_marks_cc_when_the_unit_first_moves(s):
    """12.5/20.1: "Any air unit performing a mission during a friendly land or air offensive is
    marked CC when it first moves"; the commit event names the rule."""
    u = air(s, "GE-bmb-1", "GE", "bomber")
    assert may_fly(s, u, phase="own-land-offensive", step="breakthrough") is None
    assert commit_for(s, u, phase="own-land-offensive", step="breakthrough") == "CC"
    assert (u.props["commit"], u.props["commit_turn"], u.props["missions"]) == ("CC", "1941-07", ["breakthrough"])
    ev = events(s, "commit")[-1]
    assert ev["rule"] == "ETO-20.1" and ev["data"] == {"unit": "GE-bmb-1", "status": "CC"}
    assert commit_for(s, u, phase="own-land-offensive", step="combat") == "CC"  # flies on, once committed
    assert len(events(s, "commit")) == 1  # committed once


def test_eto_12_5_cc_unit_flies_three_missions_one_per_step(s):
    """12.5/20.1 (E5): "as many as three missions during a friendly land offensive, one each during
    the Breakthrough, Combat, and Exploitation steps": a second mission in the Combat step and a
    fourth mission are refused."""
    u = air(s, "GE-bmb-1", "GE", "bomber")
    commit_for(s, u, phase="own-land-offensive", step="breakthrough")
    commit_for(s, u, phase="own-land-offensive", step="combat")
    again = may_fly(s, u, phase="own-land-offensive", step="combat")
    assert again is not None and again.rule == "ETO-20.1" and "combat step" in again.why
    commit_for(s, u, phase="own-land-offensive", step="exploitation")
    assert commitment.missions(u) == ["breakthrough", "combat", "exploitation"]
    fourth = may_fly(s, u, phase="own-land-offensive", step="movement")
    assert fourth == Refusal("ETO-20.1", "GE-bmb-1 has flown 3 missions in this offensive, the most an air unit "
                                         "may fly in a land offensive (3)")
    with pytest.raises(IllegalOrder) as e:
        commit_for(s, u, phase="own-land-offensive", step="movement")
    assert e.value.rule == "ETO-20.1"


def test_eto_12_5_pc_unit_cannot_fly_in_a_friendly_offensive(s):
    """12.5: "Only air units that are uncommitted at the start of the phase can move or attack";
    20.1: a unit is committed only once per turn."""
    u = air(s, "GE-bmb-1", "GE", "bomber", commit="PC", commit_turn="1941-07")
    why = may_fly(s, u, phase="own-land-offensive", step="combat")
    assert why is not None and why.rule == "ETO-12.5" and "previously committed (PC)" in why.why
    assert may_fly(s, u, phase="own-air-offensive").rule == "ETO-21.1"


def test_eto_20_1_air_offensive_one_mission(s):
    """12.5/20.1: "only one mission when committed for an air offensive"."""
    u = air(s, "GE-ftr-1", "GE", "fighter")
    assert commit_for(s, u, phase="own-air-offensive") == "CC"
    why = may_fly(s, u, phase="own-air-offensive")
    assert why == Refusal("ETO-20.1", "GE-ftr-1 has flown its one mission in this air offensive")


def test_eto_20_1_end_of_offensive_flips_cc_to_pc_in_step_6(s):
    """Sequence Step 6 A / 20.1: "Flip all aircraft C markers to their PC sides" -- the German
    bomber committed for the offensive and the Soviet bomber committed to defend activated units
    are PC once the offensive's unit-status step has run; their mission lists are gone."""
    ge = air(s, "GE-bmb-1", "GE", "bomber")
    su = air(s, "SU-bmb-1", "SU", "bomber", base="08841")
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert commitment.step_key(s) == "combat"
    assert commit_for(s, ge, phase="own-land-offensive") == "CC"
    assert commit_for(s, su, phase="enemy-land-offensive", defending="activated") == "CC"
    assert ge.props["missions"] == ["combat"]
    step_to(s, "offensive")  # the offensive ends: the next offensive's decision
    assert (status(s, ge), status(s, su)) == ("PC", "PC")
    assert "missions" not in ge.props and "missions" not in su.props
    flip = events(s, "commit")[-1]
    assert flip["rule"] == "ETO-20.1" and flip["data"]["units"] == ["GE-bmb-1", "SU-bmb-1"]


def test_eto_20_1_defending_activated_units_commits_standby_does_not(s):
    """20.1: an air unit that "flies defensive ground support ... in defense of land units which
    were activated for a previous offensive ... must be committed"; defending standby units
    "need not be committed"; over a mixed hex uncommitted units "do not become committed"."""
    a = air(s, "SU-bmb-1", "SU", "bomber", base="08841")
    b = air(s, "SU-bmb-2", "SU", "bomber", base="08841")
    c = air(s, "SU-ftr-1", "SU", "fighter", base="08841")
    assert commit_for(s, a, phase="enemy-land-offensive", defending="activated", step="combat") == "CC"
    assert commit_for(s, b, phase="enemy-land-offensive", defending="standby", step="combat") is None
    assert commit_for(s, c, phase="enemy-land-offensive", defending="mixed", mission="intercept",
                      step="combat") is None
    assert [e["data"]["unit"] for e in events(s, "commit")] == ["SU-bmb-1"]


def test_eto_20_3_pc_unit_may_defend_activated_units_only(s):
    """20.3: "PC air units can fly ground support for friendly land units under attack, if those
    land units have already been activated"; 20.1: "Air units marked PC cannot fly in defense of
    friendly standby land units" (a mixed hex may be defended by committed units)."""
    u = air(s, "SU-bmb-1", "SU", "bomber", base="08841", commit="PC", commit_turn="1941-07")
    assert may_fly(s, u, phase="enemy-land-offensive", defending="activated", step="combat") is None
    assert may_fly(s, u, phase="enemy-land-offensive", defending="mixed", step="combat") is None
    assert may_fly(s, u, phase="enemy-land-offensive", defending="standby", step="combat") == Refusal(
        "ETO-20.3", "SU-bmb-1 is previously committed (PC) and may only defend activated land units, not standby ones")
    assert commit_for(s, u, phase="enemy-land-offensive", defending="activated", step="combat") == "PC"


def test_eto_20_2_unoccupied_fort_or_amphibious_target_anyone_flies_uncommitted(s):
    """20.2: against land attacks on unoccupied hexes, fortifications or amphibious assaults "any
    friendly air units can fly in defense", and "uncommitted units do not become committed"."""
    pc = air(s, "SU-bmb-1", "SU", "bomber", base="08841", commit="PC", commit_turn="1941-07")
    free = air(s, "SU-bmb-2", "SU", "bomber", base="08841")
    target = "unoccupied-fort-amphibious"
    assert may_fly(s, pc, phase="enemy-land-offensive", defending=target, step="combat") is None
    assert commit_for(s, free, phase="enemy-land-offensive", defending=target, step="combat") is None
    assert not events(s, "commit")


def test_eto_12_6_enemy_land_offensive_three_missions_one_per_step(s):
    """12.6: "units can fly up to three missions during the enemy offensive, one each during the
    Breakthrough, Combat, and Exploitation steps"; only ground support and interception."""
    u = air(s, "SU-ftr-1", "SU", "fighter", base="08841")
    for step in ("breakthrough", "combat", "exploitation"):
        commit_for(s, u, phase="enemy-land-offensive", defending="standby", step=step, mission="intercept")
    assert may_fly(s, u, phase="enemy-land-offensive", defending="standby", step="combat").rule == "ETO-12.6"
    v = air(s, "SU-ftr-2", "SU", "fighter", base="08841")
    assert may_fly(s, v, phase="enemy-land-offensive", defending="standby", step="combat",
                   mission="attack_air").rule == "ETO-12.6"


def test_eto_20_2_enemy_air_offensive_all_fighters_fly_uncommitted(s):
    """12.6/20.2: "All fighter units can fly against enemy air units committed to an air
    offensive", committed or not, and are never committed by it (21.1); bombers do not fly."""
    pc = air(s, "SU-ftr-1", "SU", "fighter", base="08841", commit="PC", commit_turn="1941-07")
    free = air(s, "SU-ftr-2", "SU", "fighter", base="08841")
    bomber = air(s, "SU-bmb-1", "SU", "bomber", base="08841")
    assert may_fly(s, pc, phase="enemy-air-offensive", mission="intercept") is None
    assert commit_for(s, free, phase="enemy-air-offensive", mission="intercept") is None
    assert status(s, free) is None and not events(s, "commit")
    why = may_fly(s, bomber, phase="enemy-air-offensive")
    assert why is not None and why.rule == "ETO-12.6" and "only fighters" in why.why
    assert may_fly(s, free, phase="enemy-air-offensive").rule == "ETO-12.6"  # flew once already


def test_eto_20_0_carrier_air_only_for_amphibious_assaults_never_committed(s):
    """20.0: carrier-based naval air flies in the Offensives phase "only in support of units
    making an amphibious assault" (or defending units that made one) and is "never marked as
    committed"; 21.0: air offensives are for land-based air only."""
    u = air(s, "UK-nav-1", "UK", "naval_air", base="08841", carrier="CV Ark Royal")
    why = may_fly(s, u, phase="own-land-offensive", step="combat")
    assert why is not None and why.rule == "ETO-20.0" and "amphibious" in why.why
    assert may_fly(s, u, phase="enemy-land-offensive", defending="activated", step="combat").rule == "ETO-20.0"
    assert may_fly(s, u, phase="own-air-offensive").rule == "ETO-21.0"
    assert commit_for(s, u, phase="own-land-offensive", amphibious=True, step="combat") is None
    assert commit_for(s, u, phase="enemy-land-offensive", defending="activated", amphibious=True,
                      step="exploitation") is None
    assert "commit" not in u.props and not events(s, "commit")
    land_based = air(s, "UK-nav-2", "UK", "naval_air", base="08841")  # naval air on a land base
    assert commit_for(s, land_based, phase="own-air-offensive") == "CC"


def test_eto_20_1_naval_air_phase_commits_no_one_and_pc_stays_grounded(s):
    """20.1: "No units become committed during the Naval and Air phase"; 20.0: a PC unit flies
    only within 20.2/20.3 (the enemy's offensives); 12.4: the enemy's phase is for interception."""
    u = air(s, "GE-bmb-1", "GE", "bomber")
    assert commit_for(s, u, phase="naval-air", mission="attack_naval") is None
    assert status(s, u) is None and not events(s, "commit")
    pc = air(s, "GE-bmb-2", "GE", "bomber", commit="PC", commit_turn="1941-07")
    assert may_fly(s, pc, phase="naval-air").rule == "ETO-20.0"
    assert may_fly(s, u, phase="enemy-naval-air", mission="attack_naval").rule == "ETO-12.4"


def test_eto_20_1_strategic_warfare_flyers_are_pc_at_the_end_of_the_phase(s):
    """20.1/12.2: "Any air units performing a mission during this phase are marked PC at the
    conclusion of the phase" -- not before; one Strategic Warfare mission each."""
    u = air(s, "GE-bmb-1", "GE", "bomber")
    idle = air(s, "GE-bmb-2", "GE", "bomber")
    assert commit_for(s, u, phase="strategic") is None
    assert may_fly(s, u, phase="strategic").rule == "ETO-12.2"
    assert commitment.end_strategic_warfare(s) == ["GE-bmb-1"]
    assert (status(s, u), status(s, idle)) == ("PC", None)
    assert may_fly(s, u, phase="naval-air") is not None


def test_eto_20_0_marks_clear_with_the_next_monthly_turn(s):
    """20.0 / End phase Step 4: commitment markers are for the current turn; the next monthly turn
    (1941-07 -> 1941-08) starts with none (ETORuleset.begin_turn calls commitment.new_turn)."""
    u = air(s, "GE-bmb-1", "GE", "bomber", commit="PC", commit_turn="1941-07", missions=["combat"])
    assert status(s, u) == "PC"
    for _ in range(60):
        if s.turn_label != "1941-07":
            break
        s.apply({"kind": "end_step"} if "end_step" in s.decision.kinds else {"kind": "pass"})
    assert s.turn_label == "1941-08"
    assert not {"commit", "commit_turn", "missions"} & set(u.props)
    assert events(s, "commit_cleared")[-1]["data"]["units"] == ["GE-bmb-1"]


def test_eto_20_0_atps_carry_no_commitment_and_land_units_do_not_fly(s):
    """20.0 applies to air units: an ATP marker is never marked (18.1/19.1 limit it); a land
    unit is refused as no air unit (12.1)."""
    atp = air(s, "GE-atp-1", "GE", "atp", points=1)
    assert commit_for(s, atp, phase="own-land-offensive", step="combat") is None and "commit" not in atp.props
    assert may_fly(s, s.unit("GE-a"), phase="own-land-offensive").rule == "ETO-12.1"
    with pytest.raises(ValueError):
        may_fly(s, atp, phase="offensive")
