"""ETO blitzkrieg restrictions (44.2-44.5), units that retreated into a hex this step (27.3) and
destroyed installations (27.6 -> 37.5), in play on small scenarios of the europe map (see eto_kit).

The Barbarossa scenario has no British or US counters: the 44.4/44.5 tests relabel Soviet counters
as UK or US units (their nation is what the blitzkrieg rules read; a relabelled infantry counter
takes that nation's authored values from units.toml)."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, begin_offensive, events, new_state, stack_attack, step_to, unit

from workbench.engine import IllegalOrder
from workbench.rulesets.eto.combat import _trigger_blitzkrieg, assess, blitzkrieg_applies
from workbench.rulesets.eto.construction import repair_why_not
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.losses import REPLENISHMENT, eliminate

GE2 = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640")]
SU2 = [unit("SU-a", "SU", "infantry", "08740"), unit("SU-b", "SU", "infantry", "08740")]
BLITZ = "blitzkrieg bonus"


def _drm_names(state, attackers, target="08740"):
    return [why for _, why, _ in assess(state, "axis", attackers, target).drms]


def _units(state, *ids):
    return [state.unit(i) for i in ids]


# -- 44 blitzkrieg -------------------------------------------------------------------------------
def test_eto_44_3_no_bonus_outside_land_combat(tmp_path):
    """44.3: "The bonus does not apply to air-naval combat, bombing installations, or any combat
    during the Strategic Warfare phase" - with the bonus active against the USSR, a German attack
    on a Soviet unit gets +1 only in land combat."""
    s = new_state(tmp_path, [*GE2, *SU2], tracks={"blitzkrieg.SU": "active:1941-07"})
    att, dfn = _units(s, "GE-a", "GE-b"), _units(s, "SU-a", "SU-b")
    assert blitzkrieg_applies(s, "land", att, dfn)
    for kind in ("air-naval", "installation-bombing", "strategic-warfare"):
        assert not blitzkrieg_applies(s, kind, att, dfn), kind
    assert _drm_names(s, ["GE-a", "GE-b"]) == [BLITZ]  # the land attack itself: +1 (44.2)


def test_eto_44_4_never_against_an_all_british_stack(tmp_path):
    """44.4: "The German player never receives the bonus against an all British stack of defending
    units"; a stack that is not all British still gives it (44.2: "against any unit of that
    country")."""
    s = new_state(tmp_path, [*GE2, *SU2], tracks={"blitzkrieg.UK": "active:1941-07"})
    att = _units(s, "GE-a", "GE-b")
    s.unit("SU-a").nation = "UK"
    s.unit("SU-b").nation = "UK"
    assert not blitzkrieg_applies(s, "land", att, _units(s, "SU-a", "SU-b"))
    assert BLITZ not in _drm_names(s, ["GE-a", "GE-b"])
    s.unit("SU-b").nation = "SU"  # UK + Soviet: not all British
    assert blitzkrieg_applies(s, "land", att, _units(s, "SU-a", "SU-b"))
    assert _drm_names(s, ["GE-a", "GE-b"]) == [BLITZ]
    # active against the USSR only: the British unit in the stack does not cancel it either
    s.tracks["blitzkrieg.UK"], s.tracks["blitzkrieg.SU"] = "used", "active:1941-07"
    assert _drm_names(s, ["GE-a", "GE-b"]) == [BLITZ]


def test_eto_44_5_us_units_bonus_anywhere_on_the_first_turn(tmp_path):
    """44.5: "The German player receives the blitzkrieg bonus against American land and air units
    on the first turn he attacks them, anywhere on the map" - here in the USSR, far from any US
    home hex, with no scenario switch; the Soviet unit in the stack alone gives no bonus (no
    blitzkrieg_available)."""
    s = new_state(tmp_path, [*GE2, *SU2], 4)
    s.unit("SU-a").nation = "US"
    assert "blitzkrieg.US" not in s.tracks and "blitzkrieg.SU" not in s.tracks
    stack_attack(s)
    ev = events(s, "blitzkrieg")
    assert [(e["rule"], e["data"]["nation"]) for e in ev] == [("ETO-44.5", "US")]
    assert s.tracks["blitzkrieg.US"] == "active:1941-07" and "blitzkrieg.SU" not in s.tracks
    c = events(s, "combat")[-1]["data"]
    # 8 vs 6 (US 4-2 infantry plus the Soviet 2): 1:1; die 4 +1 = 5
    assert (c["attack"], c["defense"], c["column"], c["die"], c["drm"]) == (8, 6, "1:1", 4, 1)
    assert [d[1] for d in c["drms"]] == [BLITZ]
    # only the first turn: next month the bonus is over and is not triggered again
    s2 = new_state(tmp_path, [*GE2, *SU2], first="1941-08", last="1941-09",
                   tracks={"blitzkrieg.US": "active:1941-07"})
    s2.unit("SU-a").nation = "US"
    _trigger_blitzkrieg(s2, "axis", _units(s2, "GE-a", "GE-b"), "08740")
    assert s2.tracks["blitzkrieg.US"] == "active:1941-07" and not events(s2, "blitzkrieg")
    assert not blitzkrieg_applies(s2, "land", _units(s2, "GE-a", "GE-b"), _units(s2, "SU-a", "SU-b"))


def test_eto_44_2_no_bonus_without_a_german_attacker(tmp_path):
    """44.2: "land attacks by German units (if any German units participate)": a Rumanian attack
    neither triggers the bonus (44.1: "when a German land or air unit first attacks") nor gets the
    +1 once it is active; one German unit among the attackers is enough."""
    units = [*GE2, unit("RO-1", "RO", "infantry", "08639"), unit("RO-2", "RO", "infantry", "08639"), *SU2]
    s = new_state(tmp_path, units, specials=("blitzkrieg_available",))
    assert s.tracks["blitzkrieg.SU"] == "unused"
    _trigger_blitzkrieg(s, "axis", _units(s, "RO-1", "RO-2"), "08740")
    assert s.tracks["blitzkrieg.SU"] == "unused" and not events(s, "blitzkrieg")
    _trigger_blitzkrieg(s, "axis", _units(s, "GE-a", "RO-1"), "08740")
    assert s.tracks["blitzkrieg.SU"] == "active:1941-07"
    assert events(s, "blitzkrieg")[-1]["rule"] == "ETO-44.1"
    assert BLITZ not in _drm_names(s, ["RO-1", "RO-2"])
    assert _drm_names(s, ["GE-a", "RO-1"]) == [BLITZ]


# -- 27.3 units that retreated into the hex this step --------------------------------------------
# SU-a (08740) is attacked from 08640 and must retreat one hex: German ZOC from 08640 and 08739
# closes every other neighbour, so it can only join SU-b in 08840, which two panzers (6 SP each)
# in 08741 attack later in the same Combat step.
RETREAT = [unit("GE-H", "GE", "hq", "08540"), *GE2, unit("GE-c", "GE", "armor", "08741"),
           unit("GE-d", "GE", "armor", "08741"), unit("GE-e", "GE", "infantry", "08739"),
           unit("SU-a", "SU", "infantry", "08740"), unit("SU-b", "SU", "infantry", "08840")]


def _retreat_into_08840(tmp_path, die2):
    """Both attacks designated; the first (8 vs 2, 4:1, die 4: D2) is resolved with one step and
    one hex of retreat, so SU-a (now 1 SP) joins SU-b in 08840; ``die2`` is for the second."""
    s = new_state(tmp_path, RETREAT, 4, die2)
    for h in ("08741", "08739"):  # the attackers' hexes are Axis-held (so they are in supply)
        control(s)[s.map.index(h)] = SIDE_CODE["axis"]
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    s.apply({"kind": "activate", "all": True})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    s.apply({"kind": "designate", "target": "08840", "attackers": ["GE-c", "GE-d"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    assert events(s, "combat")[-1]["data"]["result"] == "D2"
    s.apply({"kind": "take_losses", "units": ["SU-a"]})
    assert s.legal_orders() == [{"kind": "retreat", "unit": "SU-a", "path": ["08840"]}]
    s.apply({"kind": "retreat", "unit": "SU-a", "path": ["08840"]})
    s.apply({"kind": "advance", "units": [], "to": "08740"})
    assert s.unit("SU-a").location == "08840" and s.unit("SU-a").reduced
    assert s.decision.kind == "resolve"
    return s


def test_eto_27_3_unit_that_retreated_in_this_step_adds_no_defence(tmp_path):
    """27.3: "it cannot add its strength to the defense of that hex if that hex is attacked during
    the same step that the unit retreated ... unless all other defending units are eliminated":
    12 vs SU-b's 2 is 6:1 (with SU-a's 1 SP it would be 12:3, 4:1)."""
    s = _retreat_into_08840(tmp_path, 1)
    a = assess(s, "axis", ["GE-c", "GE-d"], "08840")
    assert (a.defenders, a.land_defense, a.defense, a.column) == (["SU-b"], 2, 2, "6:1")
    s.apply({"kind": "resolve", "target": "08840"})
    c = events(s, "combat")[-1]["data"]
    assert (c["defenders"], c["attack"], c["defense"], c["column"]) == (["SU-b"], 12, 2, "6:1")
    # the only unit left in the hex defends with its strength
    s2 = _retreat_into_08840(tmp_path, 1)
    eliminate(s2, s2.unit("SU-b"), "test")
    a = assess(s2, "axis", ["GE-c", "GE-d"], "08840")
    assert (a.defenders, a.land_defense, a.defense) == (["SU-a"], 1, 1)
    # a retreat made in another step (here the breakthrough step) no longer counts
    s3 = _retreat_into_08840(tmp_path, 1)
    s3.unit("SU-a").props["retreated_into"] = "breakthrough"
    a = assess(s3, "axis", ["GE-c", "GE-d"], "08840")
    assert (sorted(a.defenders), a.land_defense, a.column) == (["SU-a", "SU-b"], 3, "4:1")


def test_eto_27_3_retreated_unit_shares_the_stacks_fate(tmp_path):
    """27.3: "If the defending stack retreats or is eliminated (by a DE result ...), the previously
    retreated unit abides by that same result": 6:1, die 6: DE takes SU-a too; die 3: (D2)
    retreats both two hexes."""
    s = _retreat_into_08840(tmp_path, 6)
    s.apply({"kind": "resolve", "target": "08840"})
    assert events(s, "combat")[-1]["data"]["result"] == "DE"
    assert s.unit("SU-a").location == REPLENISHMENT and s.unit("SU-b").location == REPLENISHMENT
    elim = {e["text"].split()[0]: e["rule"] for e in s.log if e["kind"] == "eliminated"}
    assert elim == {"SU-b": "ETO-27.1", "SU-a": "ETO-27.3"}
    s = _retreat_into_08840(tmp_path, 3)
    s.apply({"kind": "resolve", "target": "08840"})
    assert events(s, "combat")[-1]["data"]["result"] == "(D2)"
    assert s.decision.kind == "retreat"
    assert s.frames[-1]["data"]["pending"] == {"SU-a": 2, "SU-b": 2}
    while s.decision.kind == "retreat":
        s.apply(s.legal_orders()[0])
    for uid in ("SU-a", "SU-b"):
        assert s.map.distance("08840", s.unit(uid).location) == 2, uid


def test_eto_27_3_retreated_unit_absorbs_losses_last(tmp_path):
    """27.3: the retreated unit cannot "be depleted to satisfy defender step losses in that hex,
    unless all other defending units are eliminated": D3 (6:1, die 5) may take SU-a's step only
    as the third, after both of SU-b's; hexes not lost in steps are retreated by both."""
    s = _retreat_into_08840(tmp_path, 5)
    s.apply({"kind": "resolve", "target": "08840"})
    assert events(s, "combat")[-1]["data"]["result"] == "D3"
    assert (s.decision.kind, s.decision.side) == ("defender_losses", "allies")
    opts = sorted(sorted(o["units"]) for o in s.legal_orders())
    assert opts == [[], ["SU-a", "SU-b", "SU-b"], ["SU-b"], ["SU-b", "SU-b"]]
    for bad in (["SU-a"], ["SU-a", "SU-b"]):
        with pytest.raises(IllegalOrder) as e:
            s.apply({"kind": "take_losses", "units": bad})
        assert e.value.rule == "ETO-27.2"
    s.apply({"kind": "take_losses", "units": ["SU-b"]})  # one step (SU-b), two hexes for both
    assert s.unit("SU-b").reduced and s.unit("SU-a").location == "08840"
    assert s.frames[-1]["data"]["pending"] == {"SU-a": 2, "SU-b": 2}


# -- 27.6 -> 37.5 destroyed installations --------------------------------------------------------
def test_eto_27_6_destroyed_fort_is_marked_and_can_be_repaired_for_two_eps(tmp_path):
    """27.6: "Installation markers in the defender's hex are destroyed if all defending units
    retreat ... These destroyed installations can be repaired by the capturing player" (37.5: for
    2 EPs in a seasonal turn).  8 vs 2 doubled by the fortification marker: 2:1, die 6: D2,
    taken as two hexes of retreat; the Germans advance and repair it in the autumn."""
    units = [*GE2, unit("SU-a", "SU", "infantry", "08740")]
    s = new_state(tmp_path, units, first="1941-09", last="1941-10")
    real = s.dice
    s.markers["forts"] = {"08740": {"side": "allies", "kind": "fortification"}}
    s.dice = FixedDice(6)
    stack_attack(s)
    c = events(s, "combat")[-1]["data"]
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (8, 4, "2:1", "D2")
    s.apply({"kind": "take_losses", "units": []})
    assert "08740" in s.markers["forts"]  # not yet: SU-a has not left
    s.apply(s.legal_orders()[0])
    assert "08740" not in s.markers["forts"]
    assert s.markers["destroyed"] == {"08740": {"kind": "fortification", "side": "allies", "turn": "1941-09"}}
    ev = events(s, "installation_destroyed")[-1]
    assert (ev["rule"], ev["data"]["hex"]) == ("ETO-27.6", "08740")
    s.apply({"kind": "advance", "units": ["GE-a"], "to": "08740"})
    while s.decision.kind == "advance":
        s.apply({"kind": "advance", "units": [], "to": "08740"})
    assert control(s)[s.map.index("08740")] == SIDE_CODE["axis"]
    assert repair_why_not(s, "allies", "08740", "SU").rule == "ETO-37.5"  # not a friendly hex
    s.dice = real
    step_to(s, "construction/build", limit=100)
    assert s.turn_label == "1941-autumn" and s.decision.side == "axis"
    assert {"kind": "build", "repair": "08740", "nation": "GE"} in s.legal_orders()
    eps = s.tracks["GE.eps"]
    s.apply({"kind": "build", "repair": "08740", "nation": "GE"})
    assert s.tracks["GE.eps"] == eps - 2
    assert "08740" not in s.markers["destroyed"]
    assert s.markers["forts"]["08740"] == {"side": "axis", "kind": "fortification"}


def test_eto_27_3_extra_hexes_only_to_avoid_overstacking(tmp_path, monkeypatch):
    """27.3: a unit that would end "overstacked ... retreats one (or more) additional hexes"; for
    any other failed requirement it is eliminated ("Units that cannot fulfill all retreat
    requirements are eliminated").  In a supply field where no hex one step away is closer to
    supply than the combat hex, but the hexes two steps away are, a one-hex retreat has no path.
    With three Soviet units (a full all-Soviet stack, 24.2) on every hex one step away, the unit
    must go on, and ends two hexes away."""
    import numpy as np

    from workbench.rulesets.eto import retreat

    probe = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")])
    hm = probe.map
    o = hm.index("08740")
    dist = np.array([hm.grid.distance(o, i) for i in range(hm.size)])
    field = np.where(dist <= 1, 5, 3)
    monkeypatch.setattr(retreat.supply, "reach", lambda *_a, **_k: field)
    base = [unit("SU-a", "SU", "infantry", "08740"), unit("GE-a", "GE", "infantry", "08640")]
    s = new_state(tmp_path, base)
    assert retreat.paths(s, s.unit("SU-a"), "08740", 1, True) == []
    ring = [hm.label(int(j)) for j in hm.neighbors[o] if j >= 0 and hm.label(int(j)) != "08640"]
    full = [unit(f"SU-{h}-{m}", "SU", "infantry", h) for h in ring for m in range(3)]
    s = new_state(tmp_path, base + full)
    got = retreat.paths(s, s.unit("SU-a"), "08740", 1, True)
    assert got and all(len(p) == 2 and p[0] in ring for p in got)


def test_eto_27_1_results_are_steps_of_the_sequence(tmp_path):
    """ETO-27.1-27.4 as flow data: a rolled attack opens the ``combat-result`` procedure, whose
    steps (attacker's losses, defender's result, retreats, installations, advance after combat,
    secondary advance, breakthrough movement) run in order.  Two German infantry against one Soviet
    at 4:1 roll 5: (D2), so the clock stands in "4A-F / Retreats" while the defender
    retreats, then in "Advance after combat"; declining the advance finishes the combat."""
    from eto_kit import begin_offensive, new_state, step_to, unit

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
                             unit("SU-a", "SU", "infantry", "08740")], 5)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    assert s.decision.kind == "retreat" and s.clock[-3:-1] == ("4A-F: Resolve ground attacks", "Retreats")
    assert s.decision.step == "combat-result/retreats"
    s.apply(s.legal_orders()[0])
    assert s.decision.kind == "advance" and "Advance after combat" in s.clock
    s.apply({"kind": "advance", "units": [], "to": "08740"})
    assert "combat" not in s.markers and s.clock[-1] == "4A-F: Resolve ground attacks"
    assert [e["kind"] for e in s.log if e["kind"] in ("combat", "retreat", "advance", "combat_done")] == [
        "combat", "retreat", "advance", "combat_done"]


def test_eto_44_2_air_units_attacking_that_nations_air_get_plus_one_strength(tmp_path):
    """44.2: "Air units attacking air units of that country receive a +1 modifier to their combat
    strength" -- over a Soviet hex, with the bonus active against the USSR, the German fighter's
    target number is one higher (15.3: strength + quality - target quality); the Soviet fighter's
    is not."""
    from eto_kit import flying_state

    from workbench.rulesets.eto import air_combat, air_units

    s = flying_state(tmp_path, [unit("GE-f1", "GE", "fighter", "08740"), unit("SU-f1", "SU", "fighter", "08740")],
                     *[6] * 8)
    ge, su = s.unit("GE-f1"), s.unit("SU-f1")
    plain = air_units.strength(s, ge) + air_units.quality(s, ge) - air_units.quality(s, su)
    s.tracks["blitzkrieg.SU"] = f"active:{s.turn_label}"
    air_combat.fight(s, "08740", {"axis": [ge], "allies": [su]}, first="axis")
    attacks = {e["data"]["attacker"]: e["data"] for e in events(s, "air_combat")}
    assert attacks["GE-f1"]["target_number"] == plain + 1 and "blitzkrieg" in attacks["GE-f1"]["bonuses"]
    assert "blitzkrieg" not in attacks["SU-f1"]["bonuses"]
