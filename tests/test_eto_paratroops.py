"""ETO paradrops (19.0-19.4) in attack sequence 4A and paratroops aiding breakthroughs and
exploitation (28.7, 29.4), with the Paradrop Table's numbers (19.2, GAP-29)."""

from __future__ import annotations

import pytest
from eto_kit import begin_offensive, events, new_state, step_to, unit

from workbench.engine import IllegalOrder
from workbench.rulesets.eto import paradrop
from workbench.rulesets.eto.combat import assess
from workbench.rulesets.eto.losses import FORCE_POOL

PARA = unit("GE-p", "GE", "paratroop", "08538")  # 08538: an Axis-held resource hex, an airbase
GE2 = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640")]
SU1 = unit("SU-a", "SU", "infantry", "08740")


def _combat_with_drop(tmp_path, units, *faces, target="08740", **kw):
    s = new_state(tmp_path, units, *faces, **kw)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert s.step.key == "paratroops"  # 4A-A applies: a para could drop
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": target})
    s.apply({"kind": "end_step"})
    return s


def _breakthrough_with_drop(tmp_path, units, *faces):
    s = new_state(tmp_path, units, *faces)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
    step_to(s, "offensive/breakthrough")
    s.apply({"kind": "breakthrough", "units": ["GE-pz"], "path": [], "target": "08741", "general": "GE-G"})
    assert s.step.key == "paratroops"
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08741"})
    s.apply({"kind": "end_step"})
    s.apply({"kind": "resolve", "target": "08741"})
    return s


BT = [unit("GE-pz", "GE", "armor", "08641"), unit("GE-G", "GE", "general", "08641", name="Guderian"), PARA]


def test_eto_19_2_paradrop_table_rows_and_gap_29(tmp_path):
    """19.2: "1 or less: paratroops eliminated; 3 or 4: depleted; 5 or more: undamaged"; the
    modified 2 has no row (E7) and reads as the worst row (GAP-29, authored)."""
    s = new_state(tmp_path, [PARA])
    got = {m: paradrop.drop_result(s, m)["effect"] for m in range(-1, 8)}
    assert got == {-1: "eliminated", 0: "eliminated", 1: "eliminated", 2: "eliminated", 3: "depleted",
                   4: "depleted", 5: "undamaged", 6: "undamaged", 7: "undamaged"}
    assert paradrop.drop_result(s, 2)["source"] == "authored" and paradrop.drop_result(s, 2)["rule"] == "GAP-29"
    assert paradrop.flight_range(s) == 12


def test_eto_19_2_drop_in_the_attacked_hex_adds_its_sp_and_plus_one(tmp_path):
    """19.2/19.3: the drop (die 5, no modifier: 5 = undamaged) is made in the attacked hex; the
    para adds 1 SP (8 + 1 = 9 vs 2, 4:1) and +1 to the combat roll (die 4 + 1 = 5: (D2))."""
    s = _combat_with_drop(tmp_path, [*GE2, SU1, PARA], 5, 4)
    assert paradrop.atps_left(s, "GE") == 1  # 2 authored Ju 52 ATPs, one flew
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    drop = events(s, "paradrop")[-1]["data"]
    assert (drop["die"], drop["drm"], drop["effect"]) == (5, 0, "undamaged")
    roll = [e for e in s.log if e["kind"] == "roll"][-1]
    assert roll["rule"] == "ETO-19.2" and "paradrop of GE-p on 08740" in roll["purpose"]
    assert s.unit("GE-p").location == "08740"
    s.apply({"kind": "resolve", "target": "08740"})
    c = events(s, "combat")[-1]["data"]
    assert (c["attack"], c["defense"], c["column"], c["die"], c["drm"], c["result"]) == (9, 2, "4:1", 4, 1, "(D2)")
    assert [d[1] for d in c["drms"]] == ["paratroop dropped"]
    assert "GE-p" in c["attackers"]


def test_eto_19_2_not_adjacent_minus_two_and_depleted_para_gives_no_drm(tmp_path):
    """19.2: -2 when no friendly land unit is adjacent to the combat hex (die 5 - 2 = 3: depleted);
    19.3: the lone para must attack (1 SP vs 2: 1:2) and, depleted, adds no +1."""
    units = [unit("GE-H", "GE", "hq", "08640"), unit("GE-a", "GE", "infantry", "08640"),
             unit("SU-b", "SU", "infantry", "08740"), unit("SU-a", "SU", "infantry", "08742"), PARA]
    s = new_state(tmp_path, units, 5, 6)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    s.apply({"kind": "activate", "unit": "GE-a"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert paradrop.drop_drm_terms(s, "axis", "08742", "GE-p") == \
        [(-2, "hex not adjacent to a friendly land unit", "ETO-19.2")]
    assert paradrop.drop_drm_terms(s, "axis", "08740", "GE-p") == []
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08742"})
    s.apply({"kind": "end_step"})
    s.apply({"kind": "end_step"})  # 4A-C: no ground attack
    drop = events(s, "paradrop")[-1]["data"]
    assert (drop["die"], drop["drm"], drop["modified"], drop["effect"]) == (5, -2, 3, "depleted")
    assert s.unit("GE-p").reduced
    s.apply({"kind": "resolve", "target": "08742"})
    c = events(s, "combat")[-1]["data"]
    assert (c["attackers"], c["attack"], c["defense"], c["column"]) == (["GE-p"], 1, 2, "1:2")
    assert "paratroop dropped" not in [d[1] for d in c["drms"]]


def test_eto_19_1_refused_drops_name_the_rule(tmp_path):
    """19.1/19.2/19.4: depleted paras, paras off an airbase, targets beyond range 12 and a nation
    with no unused ATP are refused, each with its rule and reason."""
    units = [*GE2, SU1, PARA, unit("GE-q", "GE", "paratroop", "08538", reduced=True),
             unit("GE-r", "GE", "paratroop", "08639"), unit("GE-far", "GE", "paratroop", "06139"),
             unit("GE-s", "GE", "paratroop", "08538")]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    cases = {"GE-q": "ETO-19.4", "GE-r": "ETO-19.1", "GE-far": "ETO-19.2"}
    for uid, rule in cases.items():
        with pytest.raises(IllegalOrder) as e:
            s.apply({"kind": "paradrop_move", "unit": uid, "target": "08740"})
        assert e.value.rule == rule, (uid, str(e.value))
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08740"})
    s.apply({"kind": "paradrop_move", "unit": "GE-s", "target": "08740"})
    assert paradrop.atps_left(s, "GE") == 0
    s.unit("GE-q").reduced = False
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "paradrop_move", "unit": "GE-q", "target": "08740"})
    assert e.value.rule == "ETO-19.1" and "ATP" in str(e.value)


def test_eto_19_0_land_only_scenario_has_no_paradrops(tmp_path):
    """The land-only scenario rule says "no paradrops": 4A-A never opens."""
    s = new_state(tmp_path, [*GE2, SU1, PARA], specials=("land_only",))
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert s.step.key == "designate"


def test_eto_19_2_intercepted_atp_makes_no_drop(tmp_path, monkeypatch):
    """19.2: "The paradrop does not occur if the ATP has been aborted" (the air-issue hook)."""
    monkeypatch.setattr(paradrop, "INTERCEPTION", [lambda state, flight: True])
    s = _combat_with_drop(tmp_path, [*GE2, SU1, PARA], 5, 4)
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    assert events(s, "paradrop_aborted") and not events(s, "paradrop")
    assert s.unit("GE-p").location == "08538"


def test_eto_28_7_para_removal_is_the_step_loss_when_the_hex_stays_held(tmp_path):
    """28.7/19.4: Guderian's 6-4 + 2 + para 1 = 9 vs two 2-2 (4): 2:1; die 1 + 1 = 2: x.  The
    hex cannot be vacated, so the para is eliminated and that is the attacker's one step."""
    s = _breakthrough_with_drop(tmp_path, [*BT, unit("SU-a", "SU", "infantry", "08741"),
                                           unit("SU-b", "SU", "infantry", "08741")], 5, 1)
    c = events(s, "combat")[-1]["data"]
    assert (c["attack"], c["defense"], c["column"], c["modified"], c["result"]) == (9, 4, "2:1", 2, "x")
    assert s.unit("GE-p").location == FORCE_POOL
    elim = [e for e in events(s, "eliminated") if e["data"]["unit"] == "GE-p"][-1]
    assert elim["rule"] == "ETO-28.7"
    assert not s.unit("GE-pz").reduced


def test_eto_28_7_para_may_satisfy_one_attacker_step_loss(tmp_path):
    """28.7: "a participating paratroop unit can be eliminated to satisfy one step loss":
    9 vs 4 (2:1), die 2 + 1 = 3: D1x -- the attacker may give the para instead of an armor step."""
    s = _breakthrough_with_drop(tmp_path, [*BT, unit("SU-a", "SU", "infantry", "08741"),
                                           unit("SU-b", "SU", "infantry", "08741")], 5, 2)
    assert events(s, "combat")[-1]["data"]["result"] == "D1x"
    assert s.decision.kind == "attacker_losses"
    assert sorted(o["units"] for o in s.legal_orders()) == [["GE-p"], ["GE-pz"]]
    s.apply({"kind": "take_losses", "units": ["GE-p"]})
    assert s.unit("GE-p").location == FORCE_POOL and not s.unit("GE-pz").reduced


def test_eto_28_7_para_eliminated_if_the_breakthrough_does_not_vacate(tmp_path):
    """28.7: 9 vs 2 (4:1), die 1 + 1 = 2: D1; the defender takes the step and stays, so the para
    is eliminated."""
    s = _breakthrough_with_drop(tmp_path, [*BT, unit("SU-a", "SU", "infantry", "08741")], 5, 1)
    assert events(s, "combat")[-1]["data"]["result"] == "D1"
    s.apply({"kind": "take_losses", "units": ["SU-a"]})
    assert s.unit("SU-a").reduced and s.unit("SU-a").location == "08741"
    assert s.unit("GE-p").location == FORCE_POOL
    assert [e for e in events(s, "eliminated") if e["data"]["unit"] == "GE-p"][-1]["rule"] == "ETO-28.7"


def test_eto_28_7_survivor_stays_makes_no_attack_and_defends(tmp_path):
    """28.7: D1 taken as a one-hex retreat vacates the hex: the para survives, must stay in the
    hex for the rest of the turn, makes no further attack and defends normally (1 SP)."""
    s = _breakthrough_with_drop(tmp_path, [*BT, unit("SU-a", "SU", "infantry", "08741")], 5, 1)
    s.apply({"kind": "take_losses", "units": []})
    s.apply(s.legal_orders()[0])  # the retreat
    p = s.unit("GE-p")
    assert p.location == "08741" and paradrop.dropped_this_turn(s, p)
    from workbench.rulesets.eto.combat import eligible_attackers
    from workbench.rulesets.eto.movement import MoveOrder

    assert p not in eligible_attackers(s, "axis", "combat")
    with pytest.raises(IllegalOrder) as e:
        MoveOrder().check(s, {"kind": "move", "unit": "GE-p", "path": ["08641"]})
    assert e.value.rule == "ETO-28.7"
    retreated = s.unit("SU-a").location
    a = assess(s, "allies", ["SU-a"], "08741")
    assert retreated != "08741" and a.defenders == ["GE-p"] and a.land_defense == 1


def test_eto_29_4_paras_in_exploitation_follow_28_7(tmp_path):
    """29.4: "The provisions of 28.7 apply during the Exploitation step".  Combat: 8 vs 2 (4:1),
    die 4: D2 taken as two steps; Guderian's armor advances and exploits.  Exploitation: the
    para drops (5: undamaged), 6 + 2 + 1 = 9 vs two 2-2 (4): 2:1, die 1 + 1 para + 1 OOS = 3:
    D1x; the armor takes the x, the defender a step and stays: the para is eliminated (29.4)."""
    units = [*BT, unit("SU-a", "SU", "infantry", "08741"), unit("SU-b", "SU", "infantry", "08742"),
             unit("SU-c", "SU", "infantry", "08742")]
    s = new_state(tmp_path, units, 4, 5, 1)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "end_step"})  # 4A-A: no drop in the Combat step
    s.apply({"kind": "designate", "target": "08741", "attackers": ["GE-pz"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08741"})
    s.apply({"kind": "take_losses", "units": ["SU-a", "SU-a"]})
    s.apply({"kind": "advance", "units": ["GE-pz"], "to": "08741", "general": "GE-G"})
    step_to(s, "offensive/exploitation")
    s.apply({"kind": "attack"})
    assert s.legal_orders() == [{"kind": "paradrop_move", "unit": "GE-p", "target": "08742"}, {"kind": "end_step"}]
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08742"})
    s.apply({"kind": "end_step"})
    s.apply({"kind": "designate", "target": "08742", "attackers": ["GE-pz"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08742"})
    c = events(s, "combat")[-1]["data"]
    assert (c["attack"], c["defense"], c["column"], c["modified"], c["result"], c["mode"]) == \
        (9, 4, "2:1", 3, "D1x", "exploitation")
    s.apply({"kind": "take_losses", "units": ["GE-pz"]})
    s.apply({"kind": "take_losses", "units": ["SU-b"]})
    assert s.unit("GE-p").location == FORCE_POOL
    assert [e for e in events(s, "eliminated") if e["data"]["unit"] == "GE-p"][-1]["rule"] == "ETO-29.4"


def test_eto_19_0_paratroops_are_one_sp_exempt_from_stacking_and_have_no_zoc(tmp_path):
    """19.0: "Paratroops have 1 strength point ... regardless of whether they are at full or
    depleted strength.  They never count against land unit stacking limits (24.2).  They do not
    exert a zone of control (25.0)": two German infantry fill 08640 (limit 2), a para still fits;
    the lone para in 08538 puts no hex in a ZOC."""
    from workbench.rulesets.eto import stacking, values
    from workbench.rulesets.eto.zoc import zoc

    units = [*GE2, unit("GE-c", "GE", "infantry", "08641"), unit("GE-p", "GE", "paratroop", "08640"),
             unit("GE-q", "GE", "paratroop", "08538", reduced=True)]
    s = new_state(tmp_path, units)
    assert stacking.limit_for(s, "08640", ["GE"]) == 2
    assert stacking.fits(s, "08640", "axis", [])
    assert stacking.fits(s, "08640", "axis", [s.unit("GE-q")])
    assert not stacking.fits(s, "08640", "axis", [s.unit("GE-c")])
    assert [u.id for u in stacking.stack_of(s, "08640", "axis")] == ["GE-a", "GE-b"]
    assert values.strength(s, s.unit("GE-p")) == values.strength(s, s.unit("GE-q")) == 1
    z = zoc(s, "axis")
    hm = s.map
    near_q = [hm.label(int(j)) for j in hm.neighbors[hm.index("08538")] if j >= 0]
    away = [h for h in near_q if min(hm.distance(h, "08640"), hm.distance(h, "08641")) > 1]
    assert len(away) >= 4 and not any(z[hm.index(h)] for h in away)
    assert any(z[hm.index(h)] for h in ("08740", "08741"))  # the infantry's ZOC is there


def test_eto_19_1_out_of_supply_para_cannot_drop(tmp_path, monkeypatch):
    """19.1: "a paratroop unit must be in supply" -- the same para on the same airbase is refused
    when it traces no supply."""
    from workbench.rulesets.eto import supply

    s = new_state(tmp_path, [*GE2, SU1, PARA])
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert paradrop.unit_why_not(s, "axis", s.unit("GE-p")) is None
    real = supply.traces
    monkeypatch.setattr(supply, "traces", lambda st, u, *a, **k: u.id != "GE-p" and real(st, u, *a, **k))
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08740"})
    assert e.value.rule == "ETO-19.1" and "out of supply" in str(e.value)


def test_eto_19_1_target_in_the_activated_hqs_radius(tmp_path):
    """19.1: "the hex attacked must be in the radius of the activated HQ": from 08640 the HQ
    reaches 08744 (4 hexes) but not 08746 (6), though both are within the ATP's 12 of 08538."""
    units = [unit("GE-H", "GE", "hq", "08640"), unit("GE-a", "GE", "infantry", "08640"), SU1,
             unit("SU-e", "SU", "infantry", "08744"), unit("SU-f", "SU", "infantry", "08746"), PARA]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    s.apply({"kind": "activate", "unit": "GE-a"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert s.map.distance("08538", "08746") == 9
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08746"})
    assert e.value.rule == "ETO-19.1" and "command radius" in str(e.value)
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08744"})
    assert paradrop.pending(s)[-1]["target"] == "08744"


def test_eto_19_1_without_an_hq_the_drop_is_next_to_the_activated_stack(tmp_path):
    """19.1: "If no HQ is activated ... the paratroop must land adjacent to the stack or general
    activated": the stack in 08640 may have 08740 (1 hex) attacked by para, not 08742 (2)."""
    s = new_state(tmp_path, [*GE2, SU1, unit("SU-b", "SU", "infantry", "08742"), PARA])
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert s.map.distance("08640", "08742") == 2
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08742"})
    assert e.value.rule == "ETO-19.1" and "adjacent" in str(e.value)
    assert {"kind": "paradrop_move", "unit": "GE-p", "target": "08740"} in s.legal_orders()


def test_eto_19_1_para_activated_alone_drops_anywhere_in_range(tmp_path):
    """19.1: "the paratroop unit can be activated by itself for a one-unit offensive" (ruling:
    then only the ATP's range of 12 limits the target): the para alone in 08538 drops on 08746,
    9 hexes off, next to no friendly unit (die 6 - 2 = 4: depleted), and attacks alone at 1:2."""
    units = [SU1, unit("SU-f", "SU", "infantry", "08746"), PARA]
    s = new_state(tmp_path, units, 6, 3)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08538", "units": ["GE-p"]})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert {"kind": "paradrop_move", "unit": "GE-p", "target": "08746"} in s.legal_orders()
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08746"})
    s.apply({"kind": "end_step"})
    step_to(s, "resolve")
    drop = events(s, "paradrop")[-1]["data"]
    assert (drop["die"], drop["drm"], drop["effect"]) == (6, -2, "depleted")
    s.apply({"kind": "resolve", "target": "08746"})
    c = events(s, "combat")[-1]["data"]
    assert (c["attackers"], c["attack"], c["defense"], c["column"]) == (["GE-p"], 1, 2, "1:2")


def test_eto_19_2_a_para_dropped_earlier_counts_as_adjacent(tmp_path):
    """19.2: "so do paratroop units dropped any time previously": the first para drops on
    08742, next to no one (5 - 2 = 3: depleted, and in a drop of the same step the second para
    (5, no -2) is undamaged because the first stands in the hex."""
    units = [unit("GE-H", "GE", "hq", "08640"), unit("GE-a", "GE", "infantry", "08640"), SU1,
             unit("SU-b", "SU", "infantry", "08742"), PARA, unit("GE-s", "GE", "paratroop", "08538")]
    s = new_state(tmp_path, units, 5, 5)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    s.apply({"kind": "activate", "unit": "GE-a"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08742"})
    s.apply({"kind": "paradrop_move", "unit": "GE-s", "target": "08742"})
    s.apply({"kind": "end_step"})
    s.apply({"kind": "end_step"})
    drops = [e["data"] for e in events(s, "paradrop")]
    assert [(d["unit"], d["drm"], d["effect"]) for d in drops] == [("GE-p", -2, "depleted"), ("GE-s", 0, "undamaged")]


def test_eto_19_3_river_example_para_adds_one_but_does_not_negate_the_river(tmp_path):
    """19.3's example: two 4-2s attack 08843 across the river from 08743 (-2); an undamaged
    para dropping on the stack adds its 1 SP (9 vs 2: 4:1) and +1, and the -2 stands: DRM -1."""
    units = [unit("GE-a", "GE", "infantry", "08743"), unit("GE-b", "GE", "infantry", "08743"),
             unit("SU-a", "SU", "infantry", "08843"), PARA]
    s = new_state(tmp_path, units, 5, 4)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08743"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08843"})
    s.apply({"kind": "end_step"})
    s.apply({"kind": "designate", "target": "08843", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    assert events(s, "paradrop")[-1]["data"]["effect"] == "undamaged"
    s.apply({"kind": "resolve", "target": "08843"})
    c = events(s, "combat")[-1]["data"]
    assert (c["attack"], c["defense"], c["column"], c["die"], c["drm"]) == (9, 2, "4:1", 4, -1)
    assert sorted(d[0] for d in c["drms"]) == [-2, 1]


def test_eto_19_4_combat_step_para_eliminated_when_the_enemy_stays_is_the_attackers_step(tmp_path):
    """19.4: "If an enemy unit remains in the hex after the paratroop attacks it, the paratroop is
    automatically eliminated.  This counts as an attacker step-loss": 8 + 1 = 9 vs two 2-2s (4):
    2:1, die 1 + 1 = 2: x -- the para's removal is the x; the 4-2s keep their steps."""
    s = _combat_with_drop(tmp_path, [*GE2, SU1, unit("SU-b", "SU", "infantry", "08740"), PARA], 5, 1)
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    c = events(s, "combat")[-1]["data"]
    assert (c["attack"], c["defense"], c["column"], c["modified"], c["result"]) == (9, 4, "2:1", 2, "x")
    assert s.unit("GE-p").location == FORCE_POOL
    assert [e for e in events(s, "eliminated") if e["data"]["unit"] == "GE-p"][-1]["rule"] == "ETO-19.4"
    assert not s.unit("GE-a").reduced and not s.unit("GE-b").reduced


def test_eto_19_4_para_is_removed_not_depleted_for_a_step_loss(tmp_path):
    """19.4: "A paratroop cannot be depleted to satisfy a required land unit step loss.  Removal
    ... does count as a step loss": 9 vs 4 (2:1), die 2 + 1 = 3: D1x; offered whole, the para
    goes to the force pool."""
    s = _combat_with_drop(tmp_path, [*GE2, SU1, unit("SU-b", "SU", "infantry", "08740"), PARA], 5, 2)
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    assert events(s, "combat")[-1]["data"]["result"] == "D1x"
    assert s.decision.kind == "attacker_losses"
    assert ["GE-p"] in [o["units"] for o in s.legal_orders()]
    s.apply({"kind": "take_losses", "units": ["GE-p"]})
    assert s.unit("GE-p").location == FORCE_POOL and not s.unit("GE-p").reduced
