"""ETO land core, issue 5 gaps: armor reaction (26.5), the forced repeat attack (28.4), HQ location
limits (23.5), supply markers and isolated sources (32.4, 32.8), the Soviet special rules (43.8, 43.9),
partisans destroyed by movement (45.5) and the remaining partial rules, with the rulebook's numbers."""

from __future__ import annotations

import pytest
from eto_kit import begin_offensive, events, new_state, step_to, unit

from workbench.engine import IllegalOrder


def _move_phase_of_offensive(tmp_path, units, *faces, hex_="08640", **kw):
    s = new_state(tmp_path, units, *faces, **kw)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": hex_})
    step_to(s, "offensive/movement")
    return s


# -- 26.5 armor reaction attacks ---------------------------------------------------------------------
def test_eto_26_5_armor_reaction_attacks_a_unit_leaving_its_zoc(tmp_path):
    """26.5: "Any time during an enemy Offensive phase that an enemy unit or stack vacates a hex in
    the ZOC of a friendly armor unit, that armor unit can attack the enemy unit(s) before it moves."
    "If the defending unit retreats, it can move no farther"; "the armor can advance after combat
    into the vacated hex".  Soviet 3-4 armor vs a depleted German 2-2 infantry: 3:2 is 1:1; die 6: D2x
    (the armor loses a step, the infantry retreats two hexes)."""
    units = [unit("GE-a", "GE", "infantry", "08640", reduced=True), unit("SU-t", "SU", "armor", "08740")]
    s = _move_phase_of_offensive(tmp_path, units, 6)
    s.apply({"kind": "move", "unit": "GE-a", "path": ["08540"]})
    d = s.decision
    assert (d.side, d.kind, d.rule) == ("allies", "armor_reaction", "ETO-26.5")
    assert s.unit("GE-a").location == "08640"  # attacked before it moves
    assert {"kind": "react", "units": ["SU-t"]} in s.legal_orders() and {"kind": "pass"} in s.legal_orders()
    s.apply({"kind": "react", "units": ["SU-t"]})
    c = events(s, "combat")[-1]["data"]
    assert (c["mode"], c["attack"], c["defense"], c["column"], c["die"], c["result"]) == \
        ("reaction", 3, 2, "1:1", 6, "D2x")
    assert s.unit("SU-t").reduced
    assert (s.decision.side, s.decision.kind) == ("axis", "defender_losses")
    s.apply({"kind": "take_losses", "units": []})
    assert s.decision.kind == "retreat" and s.decision.side == "axis"
    s.apply(s.legal_orders()[0])
    retreated_to = s.unit("GE-a").location
    assert s.map.distance("08640", retreated_to) == 2
    assert s.decision.kind == "advance" and s.decision.side == "allies"
    s.apply({"kind": "advance", "units": ["SU-t"], "to": "08640"})
    assert s.unit("SU-t").location == "08640"
    assert s.decision.side == "axis" and s.step.key == "offensive/movement"
    assert s.unit("GE-a").location == retreated_to and s.unit("GE-a").props.get("moved")  # no farther
    assert not [o for o in s.legal_orders() if o["kind"] == "move" and o["unit"] == "GE-a"]


def test_eto_26_5_move_goes_on_after_a_declined_or_absorbed_reaction(tmp_path):
    """26.5: the reaction is optional ("can attack"); a unit that is not forced back moves on.
    3 SP armor vs a full 4-2: 1:2; die 6: D1, taken as a step loss, so the move continues."""
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-t", "SU", "armor", "08740")]
    s = _move_phase_of_offensive(tmp_path, units)
    s.apply({"kind": "move", "unit": "GE-a", "path": ["08540"]})
    s.apply({"kind": "pass"})
    assert s.unit("GE-a").location == "08540"
    s = _move_phase_of_offensive(tmp_path, units, 6)
    s.apply({"kind": "move", "unit": "GE-a", "path": ["08540"]})
    s.apply({"kind": "react", "units": ["SU-t"]})
    c = events(s, "combat")[-1]["data"]
    assert (c["column"], c["result"]) == ("1:2", "D1")
    s.apply({"kind": "take_losses", "units": ["GE-a"]})
    assert s.unit("GE-a").reduced and s.unit("GE-a").location == "08540"


def test_eto_26_5_no_reaction_when_only_part_of_the_stack_leaves(tmp_path):
    """26.5: "If only part of an enemy stack leaves the hex, no armor reaction attack is allowed";
    the last unit to leave vacates the hex (ruling: one order moves one unit)."""
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
             unit("SU-t", "SU", "armor", "08740"), unit("SU-i", "SU", "infantry", "08742")]
    s = _move_phase_of_offensive(tmp_path, units)
    s.apply({"kind": "move", "unit": "GE-a", "path": ["08540"]})
    assert s.decision.side == "axis" and s.unit("GE-a").location == "08540"
    s.apply({"kind": "move", "unit": "GE-b", "path": ["08541"]})
    assert s.decision.kind == "armor_reaction"
    assert s.legal_orders()[0] == {"kind": "react", "units": ["SU-t"]}  # infantry never reacts


def test_eto_26_5_no_reaction_in_the_movement_phase(tmp_path):
    """26.5 applies "during an enemy Offensive phase" only."""
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-t", "SU", "armor", "08740")]
    s = new_state(tmp_path, units)
    step_to(s, "movement/move")
    s.apply({"kind": "move", "unit": "GE-a", "path": ["08540"]})
    assert s.unit("GE-a").location == "08540"


# -- 28.4 the forced repeat attack -----------------------------------------------------------------------
def test_eto_28_4_breakthrough_that_fails_must_be_repeated_in_combat(tmp_path):
    """28.4: "If the defender's hex is not vacated as a result of the breakthrough attack ...
    surviving attacking armor units must repeat the attack ... during the Combat step of this
    offensive."  6-4 armor + Guderian 2 = 8 vs two 2-2 (4): 2:1; die 1: x (the hex holds)."""
    units = [unit("GE-pz", "GE", "armor", "08641"), unit("GE-G", "GE", "general", "08641", name="Guderian"),
             unit("SU-a", "SU", "infantry", "08741"), unit("SU-b", "SU", "infantry", "08741")]
    s = new_state(tmp_path, units, 1, 5)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
    step_to(s, "offensive/breakthrough")
    s.apply({"kind": "breakthrough", "units": ["GE-pz"], "path": [], "target": "08741", "general": "GE-G"})
    s.apply({"kind": "resolve", "target": "08741"})
    c = events(s, "combat")[-1]["data"]
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (8, 4, "2:1", "x")
    assert s.unit("GE-pz").reduced and s.unit("GE-pz").props["must_attack"] == "08741"
    s.apply({"kind": "end_step"})   # 4A-F of the breakthrough attack
    s.apply({"kind": "end_step"})   # Breakthrough step (the armor may not move in Step 3, 28.4)
    assert s.step.key == "offensive/combat"
    assert {"kind": "end_step"} not in s.legal_orders()
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "end_step"})
    assert exc.value.rule == "ETO-28.4"
    s.apply({"kind": "attack"})
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "end_step"})
    assert exc.value.rule == "ETO-28.4"
    s.apply({"kind": "designate", "target": "08741", "attackers": ["GE-pz"]})
    s.apply({"kind": "end_step"})  # 4A-C done
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "end_step"})  # may not cancel the repeat attack
    assert exc.value.rule == "ETO-28.4"
    s.apply({"kind": "resolve", "target": "08741"})  # 3 + 2 = 5 vs 4: 1:1; die 5: D1
    assert [events(s, "combat")[-1]["data"][k] for k in ("column", "result")] == ["1:1", "D1"]
    assert "must_attack" not in s.unit("GE-pz").props


# -- 23.5 HQ location restrictions -------------------------------------------------------------------
def test_eto_23_5_africa_hq_stays_in_africa_and_the_middle_east(tmp_path):
    """23.5: "Headquarters units designated "Africa" ... are restricted in placement to ... French
    Morocco eastward to ... Lebanon-Syria, Iraq, and Persia"; an ordinary HQ is not."""
    from workbench.rulesets.eto.control import SIDE_CODE, control
    from workbench.rulesets.eto.hq import PlaceHQOrder
    from workbench.rulesets.eto.movement import Walker

    units = [unit("GE-AK", "GE", "hq_africa", "Force pool"), unit("GE-a", "GE", "infantry", "08640"),
             unit("GE-HQ", "GE", "hq", "11362"), unit("GE-AK2", "GE", "hq_africa", "11362")]
    s = new_state(tmp_path, units)
    ctrl = control(s)
    hm = s.map
    for h in ("05288", "11362", "11361", "11261"):  # Tripoli; Persian and Soviet border hexes for the test
        ctrl[hm.index(h)] = SIDE_CODE["axis"]
    why = PlaceHQOrder()._why_not(s, s.unit("GE-AK"), "08640")
    assert why is not None and why.rule == "ETO-23.5"
    assert PlaceHQOrder()._why_not(s, s.unit("GE-AK"), "05288") is None  # Tripoli, Libya
    ussr = hm.index("11361")
    assert ussr in Walker(s, s.unit("GE-HQ"), "movement").reach()
    assert ussr not in Walker(s, s.unit("GE-AK2"), "movement").reach()
    assert Walker(s, s.unit("GE-AK2"), "movement").why_not([ussr]).rule == "ETO-23.5"


# -- 32.4 / 32.8 supply markers and isolated sources -----------------------------------------------------
def _isolate_source(tmp_path, units, *faces):
    from workbench.rulesets.eto.control import SIDE_CODE, control

    s = new_state(tmp_path, units, *faces)
    hm = s.map
    kiev = hm.index("09648")  # a Soviet city resource hex east of the test front
    pocket = {kiev, int(hm.neighbors[kiev][0])}
    ctrl = control(s)
    for i in pocket:
        for j in hm.neighbors[i]:
            if j >= 0 and int(j) not in pocket:
                ctrl[int(j)] = SIDE_CODE["axis"]
    s.forget()
    return s, hm.label(kiev), hm.label(int(hm.neighbors[kiev][0]))


def test_eto_32_8_isolated_source_gets_one_die_of_markers(tmp_path):
    """32.8: "A supply source in a major country ... must be able to trace a supply line to another
    supply source in the same country ... If it is, the owning player rolls a die. That is the
    number of supply markers placed in the hex"; "The isolated supply source cannot be used as a
    supply source"; reconnected, "any supply markers remaining in it are removed"."""
    from workbench.rulesets.eto import supply
    from workbench.rulesets.eto.control import SIDE_CODE, control

    s, kiev, _ = _isolate_source(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], 3)
    supply.isolated_sources(s)
    roll = [e for e in events(s, "roll") if e["rule"] == "ETO-32.8"]
    assert len(roll) == 1 and roll[0]["dice"] == [3]
    assert s.markers["supply_markers"][kiev]["markers"] == 3
    assert s.map.index(kiev) not in supply.sources(s, "SU", "allies")
    supply.isolated_sources(s)  # still isolated: no new markers (ruling)
    assert len([e for e in events(s, "roll") if e["rule"] == "ETO-32.8"]) == 1
    from workbench.rulesets.eto.control import control as ctl
    ctrl = control(s)
    for j in s.map.neighbors[s.map.index(kiev)]:
        if j >= 0:
            ctrl[int(j)] = SIDE_CODE["allies"]
    s.forget()
    assert ctl(s) is ctrl
    supply.isolated_sources(s)
    assert kiev not in s.markers["supply_markers"] and events(s, "reconnected")


def test_eto_32_8_enemy_zoc_on_the_source_hex_alone_does_not_isolate_it(tmp_path):
    """32.8: the source must trace "to another supply source in the same country (as if the
    original source was a unit)" -- and a friendly unit negates enemy ZOC in its hex (32.3).  One
    German unit next to an empty Moscow, the rest of the USSR open: Moscow is not isolated and stays
    a source."""
    from workbench.rulesets.eto import supply
    from workbench.rulesets.eto.zoc import zoc

    probe = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")])
    hm = probe.map
    moscow = hm.index(hm.hex_of("Moscow"))
    beside = hm.label(int(hm.neighbors[moscow][0]))
    s = new_state(tmp_path, [unit("GE-z", "GE", "infantry", beside), unit("SU-a", "SU", "infantry", "08740")], 3)
    assert zoc(s, "axis")[moscow]
    supply.isolated_sources(s)
    assert s.markers["isolated_sources"] == {} and not events(s, "isolated")
    assert moscow in supply.sources(s, "SU", "allies")


def test_eto_33_5_a_starved_stack_sends_its_general_and_hq_to_the_force_pool(tmp_path):
    """33.5: "If a stack of units is eliminated for lack of supply, any generals and HQs on those
    units are returned to the force pool" -- no 27.5 roll for the general (a die of 1 would have
    killed him), no 23.3 withdrawal for the HQ."""
    from workbench.rulesets.eto import supply
    from workbench.rulesets.eto.losses import FORCE_POOL

    s = new_state(tmp_path, [unit("GE-x", "GE", "infantry", "08840"), unit("GE-G", "GE", "general", "08840",
                                                                          name="Hoth"),
                             unit("GE-H", "GE", "hq", "08840"), unit("GE-far", "GE", "infantry", "06139")],
                  1, 1, 1, 1)
    x = s.unit("GE-x")
    x.reduced = True
    x.props["oos"] = True
    assert not supply.traces(s, x)
    supply.supply_step(s, None)
    assert [s.unit(u).location for u in ("GE-x", "GE-G", "GE-H")] == [FORCE_POOL] * 3
    assert [e["rule"] for e in events(s, "to_force_pool")] == ["ETO-33.5", "ETO-33.5"]
    assert not events(s, "general_fate") and not events(s, "hq_moved")


def test_eto_32_4_a_marker_supplies_four_units_and_is_consumed(tmp_path):
    """32.4: "A supply marker can provide supply for up to four units during a turn"; "Any marker
    that provides supply to any unit that turn must be removed from the map."  One marker (die 1),
    six cut-off Soviet units: four are supplied, two are marked out of supply (33.3)."""
    from workbench.rulesets.eto import supply

    s, kiev, nb = _isolate_source(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], 1)
    for k in range(4):
        s.units_by_id[f"SU-k{k}"] = _u(s, f"SU-k{k}", kiev)
    for k in range(2):
        s.units_by_id[f"SU-n{k}"] = _u(s, f"SU-n{k}", nb)
    supply.isolated_sources(s)
    assert s.markers["supply_markers"][kiev]["markers"] == 1
    assert supply.traces(s, s.unit("SU-n0"))  # a line to the marker hex (32.3)
    supply.supply_step(s, None)
    assert s.markers["supply_markers"][kiev]["markers"] == 0
    assert [s.unit(f"SU-k{k}").props.get("oos") for k in range(4)] == [None] * 4
    assert all(s.unit(f"SU-n{k}").props.get("oos") for k in range(2))
    used = events(s, "supply_markers_used")[-1]["data"]
    assert (used["units"], used["markers"]) == (4, 1)


def _u(s, uid, at):
    from workbench.engine.units import Unit

    return Unit(uid, "allies", "SU", "infantry", None, at, False, {})


# -- 43.8 / 43.9 Soviet special rules ------------------------------------------------------------------
def test_eto_43_8_soviet_1939_40_offensives_capped_by_die_plus_three(tmp_path):
    """43.8: "Up to nine offensives can be purchased ... the Soviet player rolls a die and adds three
    to the result. The total is the maximum number of offensives he can mark on the track; if he
    has paid for more, those EPs and offensives are lost."  Nine bought, die 2: five marked."""
    from workbench.rulesets.eto import initiative

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], 2, first="1940-06", last="1940-07",
                  tracks={"SU.eps": 40, "GE.eps": 0})
    step_to(s, "initiative/buy", limit=80)
    if s.decision.side == "axis":
        s.apply({"kind": "buy_offensives", "nation": "GE", "count": 0})
        s.apply({"kind": "end_step"})
    assert s.decision.side == "allies"
    buys = [o["count"] for o in initiative.BuyOffensivesOrder().legal(s) if o["nation"] == "SU"]
    assert max(buys) == 9  # 20 affordable, nine allowed
    s.apply({"kind": "buy_offensives", "nation": "SU", "count": 9})
    while s.step and s.step.key == "initiative/buy":
        s.advance()
    assert s.tracks["SU.offensives"] == 5
    lost = events(s, "offensives_lost")[-1]["data"]
    assert (lost["bought"], lost["marked"]) == (9, 5)
    assert [e["rule"] for e in events(s, "roll")][-1] == "ETO-43.8"


def test_eto_43_9_improved_hqs_drawn_from_winter_1941(tmp_path):
    """43.9: "If the USSR and Germany go to war before January 1941, the Soviet player starts
    receiving the army group HQs from his 1942 order of battle in the 1941 winter seasonal turn.
    The Soviet player rolls one die and randomly draws that many HQs ... If any remain out of play
    in the winter 1942 seasonal turn, they are placed in the force pool."  Die 2: two of six."""
    from workbench.rulesets.eto import construction
    from workbench.rulesets.eto.losses import FORCE_POOL

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], 2, 6, 1, first="1940-12",
                  last="1942-02", tracks={"war.SU-GE": "1940-10"})
    s.turn = s.calendar.index("1941-winter")
    construction.additions(s, None)
    drawn = [u for u in s.units_by_id.values() if u.type == "hq_improved"]
    assert sorted(u.props["name"] for u in drawn) == ["Kalinin Front", "Voronezh Front"]
    assert all(u.location == FORCE_POOL for u in drawn)
    assert [e["dice"] for e in events(s, "roll") if e["rule"] == "ETO-43.9"] == [[2], [6], [1]]
    s.turn = s.calendar.index("1942-winter")
    construction.additions(s, None)
    assert len([u for u in s.units_by_id.values() if u.type == "hq_improved"]) == 6  # not twelve
    s2 = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], first="1941-12", last="1942-02",
                   tracks={"war.SU-GE": "1941-06"})
    s2.turn = s2.calendar.index("1942-winter")
    construction.additions(s2, None)
    assert len([u for u in s2.units_by_id.values() if u.type == "hq_improved"]) == 6  # the 1942 additions


# -- 45.5 partisans destroyed by movement -------------------------------------------------------------
def test_eto_45_5_infantry_spends_two_mp_to_destroy_a_partisan(tmp_path):
    """45.5: "A partisan unit is also destroyed if an enemy infantry unit spends 2 movement points to
    enter the hex containing the partisan (exception – a partisan unit in rough or forest terrain
    requires 3 movement points ...)".  A 4-2 infantry may do it in clear terrain, not in forest;
    armor may not; the hunter stops there (ruling)."""
    from workbench.rulesets.eto.losses import FORCE_POOL
    from workbench.rulesets.eto.movement import Walker

    units = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-pz", "GE", "armor", "08640"),
             unit("SU-p", "SU", "partisan", "08740"), unit("GE-f", "GE", "infantry", "08006"),
             unit("SU-q", "SU", "partisan", "08007")]
    s = new_state(tmp_path, units)
    step_to(s, "movement/move")
    hm = s.map
    assert hm.hexes["terrain"][hm.index("08007")] == "forest" and hm.hexes["terrain"][hm.index("08740")] == "clear"
    assert Walker(s, s.unit("GE-pz"), "movement").why_not([hm.index("08740")]).rule == "ETO-24.0"
    why = Walker(s, s.unit("GE-f"), "movement").why_not([hm.index("08007")])
    assert why is not None and "45.5" in why.why  # 3 MPs in forest: more than a 4-2 has
    assert Walker(s, s.unit("GE-a"), "movement").why_not([hm.index("08740"), hm.index("08840")]).rule == "ETO-45.5"
    assert {"kind": "move", "unit": "GE-a", "path": ["08740"]} in s.legal_orders()
    s.apply({"kind": "move", "unit": "GE-a", "path": ["08740"]})
    assert s.unit("SU-p").location == FORCE_POOL and s.unit("GE-a").location == "08740"
    assert events(s, "eliminated")[-1]["rule"] == "ETO-45.5"


# -- partial rows turned into tested rules ---------------------------------------------------------------
def test_eto_23_1_hq_placed_on_a_friendly_hex_in_zoc_only_on_a_unit(tmp_path):
    """23.1: "It can be placed on any friendly hex, regardless of supply. It can be placed in enemy
    ZOC only if it is placed on a friendly unit"; 23.4 still applies (German radius 4)."""
    from workbench.rulesets.eto.hq import PlaceHQOrder

    units = [unit("GE-H", "GE", "hq", "Force pool"), unit("GE-H2", "GE", "hq", "08040"), *[
        unit("GE-a", "GE", "infantry", "08640")], unit("SU-a", "SU", "infantry", "08740")]
    s = new_state(tmp_path, units)
    why = PlaceHQOrder()._why_not
    h = s.unit("GE-H")
    assert why(s, h, "08640") is None                                # in SU ZOC, on a German unit
    assert why(s, h, "08639").rule == "ETO-23.1"                 # in SU ZOC, empty
    assert why(s, h, "08840").rule == "ETO-23.1"                 # a Soviet hex
    assert why(s, h, "08340").rule == "ETO-23.4"                 # 3 hexes from GE-H2 (radius 4)
    assert why(s, h, "08440") is None                                # 4 hexes: allowed


def test_eto_23_3_lone_hq_withdraws_or_goes_to_the_pool(tmp_path):
    """23.3: "If an HQ unit that is not stacked with a friendly land unit comes into the ZOC of a
    moving enemy unit, the player ... must move it one hex in any direction that will remove it
    from enemy ZOC"; "If the stack containing an HQ is eliminated, the owning player can move that
    HQ to the nearest friendly stack that is eligible to hold it."""
    from workbench.rulesets.eto.losses import eliminate
    from workbench.rulesets.eto.movement import lone_commanders_in_zoc
    from workbench.rulesets.eto.zoc import zoc

    units = [unit("GE-H", "GE", "hq", "08640"), unit("SU-a", "SU", "infantry", "08740"),
             unit("GE-H2", "GE", "hq", "08245"), unit("GE-x", "GE", "infantry", "08245"),
             unit("GE-y", "GE", "infantry", "08145")]
    s = new_state(tmp_path, units)
    lone_commanders_in_zoc(s, "allies")
    loc = s.unit("GE-H").location
    assert loc != "08640" and s.map.distance(loc, "08640") == 1 and not zoc(s, "allies")[s.map.index(loc)]
    assert events(s, "withdraw")[-1]["rule"] == "ETO-23.3"
    eliminate(s, s.unit("GE-x"), "test")
    assert s.unit("GE-H2").location == "08145"  # the nearest friendly stack


def test_eto_26_3_one_attack_per_hex_per_step_and_infantry_in_hq_radius(tmp_path):
    """26.3: "The same defending hex can be attacked only once per step"; "Infantry units activated
    by HQs must be within the command radius of the HQ when they attack"."""
    units = [unit("GE-H", "GE", "hq", "08340"), unit("GE-a", "GE", "infantry", "08640"),
             unit("GE-b", "GE", "infantry", "08641"), unit("SU-a", "SU", "infantry", "08741")]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    s.apply({"kind": "activate", "all": True})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "designate", "target": "08741", "attackers": ["GE-b"]})
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "designate", "target": "08741", "attackers": ["GE-a"]})
    assert exc.value.rule == "ETO-26.3" and "already attacked" in exc.value.why
    s2 = new_state(tmp_path, units)
    begin_offensive(s2)
    s2.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    s2.apply({"kind": "activate", "all": True})
    step_to(s2, "offensive/combat")
    s2.apply({"kind": "attack"})
    s2.unit("GE-H").location = "08140"  # as if it had moved away at 3-C: GE-b is now 5 hexes off
    with pytest.raises(IllegalOrder) as exc:
        s2.apply({"kind": "designate", "target": "08741", "attackers": ["GE-b"]})
    assert exc.value.rule == "ETO-26.3" and "command radius" in exc.value.why


def test_eto_27_6_fortification_marker_destroyed_when_the_defenders_leave(tmp_path):
    """27.6: "Installation markers in the defender's hex are destroyed if all defending units
    retreat or are eliminated."""
    from workbench.rulesets.eto.losses import eliminate
    from workbench.rulesets.eto.results import destroy_installations as installations

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("SU-a", "SU", "infantry", "08740")])
    s.markers["forts"] = {"08740": {"side": "allies", "kind": "fortification"}}
    installations(s, {"target": "08740", "side": "axis"})
    assert "08740" in s.markers["forts"]  # still defended
    eliminate(s, s.unit("SU-a"), "test")
    installations(s, {"target": "08740", "side": "axis"})
    assert "08740" not in s.markers["forts"]
    assert events(s, "installation_destroyed")[-1]["rule"] == "ETO-27.6"


def test_eto_29_3_exploitation_attacks_hq_rating_or_one(tmp_path):
    """29.3: "The number of attacks that can be made during an Exploitation step equals the attack
    rating of the activated HQ (if any), or one."  German HQ attack rating 3."""
    from workbench.rulesets.eto import command

    units = [unit("GE-H", "GE", "hq", "08340"), unit("GE-a", "GE", "infantry", "08640"),
             unit("GE-G", "GE", "general", "08640", name="Hoth"), unit("SU-a", "SU", "infantry", "08740")]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    assert command.attack_limit(s, "exploitation") == 3
    s2 = new_state(tmp_path, units)
    begin_offensive(s2)
    s2.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
    assert command.attack_limit(s2, "exploitation") == 1


def test_eto_30_1_hqs_and_generals_move_five_ignoring_weather(tmp_path):
    """30.1: "Generals and HQs have movement allowances of five hexes and are not affected by
    terrain or weather"; armor in mud moves half (4 → 2)."""
    from workbench.rulesets.eto.movement import Walker

    units = [unit("GE-H", "GE", "hq", "08440"), unit("GE-G", "GE", "general", "08443", name="Hoth"),
             unit("GE-pz", "GE", "armor", "08446")]
    s = new_state(tmp_path, units, first="1941-04", last="1941-05")
    assert s.tracks["weather"] == "M"
    for uid, n in (("GE-H", 5), ("GE-G", 5), ("GE-pz", 2)):
        assert max(len(p) for p in Walker(s, s.unit(uid), "movement").reach().values()) == n, uid


def test_eto_30_1_hqs_and_generals_stop_on_entering_enemy_zoc(tmp_path):
    """30.1: generals and HQs "can only enter a hex in enemy ZOC if that hex is occupied by a
    friendly unit; they must cease movement immediately upon entering enemy ZOC".  08640 and 08641
    both hold a German unit and lie in the Soviet ZOC: an HQ or general entering 08640 stops there;
    in an offensive (23.2) the activated HQ may go on from one such hex to the next."""
    from workbench.rulesets.eto.movement import Walker
    from workbench.rulesets.eto.zoc import zoc

    units = [unit("GE-H", "GE", "hq", "08540"), unit("GE-G", "GE", "general", "08540", name="Hoth"),
             unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08641"),
             unit("SU-a", "SU", "infantry", "08740"), unit("SU-b", "SU", "infantry", "08741")]
    s = new_state(tmp_path, units)
    hm = s.map
    ez = zoc(s, "allies")
    assert ez[hm.index("08640")] and ez[hm.index("08641")]
    path = [hm.index("08640"), hm.index("08641")]
    for uid in ("GE-H", "GE-G"):
        w = Walker(s, s.unit(uid), "movement")
        assert w.why_not(path[:1]) is None
        why = w.why_not(path)
        assert why is not None and why.rule == "ETO-30.1", (uid, why)
        assert all(not ez[i] for p in w.reach().values() for i in p[:-1]), "no path goes on through enemy ZOC"
    assert Walker(s, s.unit("GE-H"), "hq").why_not(path) is None


def test_eto_30_1_no_riding_past_enemy_zoc_in_the_movement_phase(tmp_path):
    """30.1: generals "must cease movement immediately upon entering enemy ZOC" -- so in the
    Movement phase a general moves on his own: a panzer may go on from a ZOC hex (25.3), but may
    not carry Hoth with it."""
    s = new_state(tmp_path, [unit("SU-a", "SU", "infantry", "08740"), unit("GE-pz", "GE", "armor", "08540"),
                             unit("GE-G", "GE", "general", "08540", name="Hoth")])
    step_to(s, "movement/move")
    while s.decision.side != "axis":
        s.apply({"kind": "end_step"})
    ride = {"kind": "move", "unit": "GE-pz", "path": ["08640", "08641"], "general": "GE-G"}
    assert ride not in s.legal_orders()
    with pytest.raises(IllegalOrder) as exc:
        s.apply(ride)
    assert exc.value.rule == "ETO-30.1"
    s.apply({"kind": "move", "unit": "GE-pz", "path": ["08640", "08641"]})
    assert s.unit("GE-G").location == "08540"


def test_eto_30_2_no_neutral_border_in_the_movement_phase(tmp_path):
    """30.2 / 24.1: "during a Movement phase units cannot cross a neutral border" (Slovakia is
    neutral in the test scenario)."""
    from workbench.rulesets.eto.movement import Walker

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "06151")])
    step_to(s, "movement/move")
    why = Walker(s, s.unit("GE-a"), "movement").why_not([s.map.index("06152")])
    assert why is not None and why.rule == "ETO-24.1" and "neutral" in why.why
    assert not [o for o in s.legal_orders() if o["kind"] == "move" and o["path"][-1] == "06152"]


def test_eto_31_1_general_rides_the_rail_free_on_the_shortest_route(tmp_path):
    """31.1: "a general or HQ stacked with a unit that moves by rail can ride along without
    requiring a rail point"; 31.2: the unit "must take the shortest route"."""
    from workbench.rulesets.eto import rail

    units = [unit("GE-a", "GE", "infantry", "06139"), unit("GE-G", "GE", "general", "06139", name="Hoth")]
    s = new_state(tmp_path, units)
    step_to(s, "movement/move")
    o = next(o for o in s.legal_orders() if o["kind"] == "rail" and o["unit"] == "GE-a")
    path = rail.route(s, s.unit("GE-a"), o["to"])
    assert path and path[-1] == s.map.index(o["to"]) and len(path) >= s.map.distance("06139", o["to"])
    s.apply({**o, "general": "GE-G"})
    assert s.unit("GE-G").location == o["to"] == s.unit("GE-a").location
    assert rail.used(s, "GE") == 1


def test_eto_31_1_an_hq_rides_the_rail_free(tmp_path):
    """31.1: "a general or HQ stacked with a unit that moves by rail can ride along without
    requiring a rail point" -- the HQ goes with the infantry for the infantry's one point."""
    from workbench.rulesets.eto import rail

    units = [unit("GE-a", "GE", "infantry", "06139"), unit("GE-H", "GE", "hq", "06139")]
    s = new_state(tmp_path, units)
    step_to(s, "movement/move")
    o = next(o for o in s.legal_orders() if o["kind"] == "rail" and o["unit"] == "GE-a")
    s.apply({**o, "hq": "GE-H"})
    assert s.unit("GE-H").location == o["to"] == s.unit("GE-a").location
    assert rail.used(s, "GE") == 1
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "rail", "unit": "GE-H", "to": "06139"})
    assert exc.value.rule == "ETO-31.3"


def test_eto_31_0_a_unit_may_use_a_partner_majors_rail_point(tmp_path):
    """31.0: rail capacity units "can belong to the major country contributing the rail point or to
    any of its partners": with Germany's 8 points spent, a German unit in Italy rails on one of
    Italy's 2 points (the route touches Italy, 31.2)."""
    from workbench.rulesets.eto import rail
    from workbench.rulesets.eto.control import SIDE_CODE, control
    from workbench.rulesets.eto.terrain import terrain_arrays

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "04162"), unit("SU-a", "SU", "infantry", "08740")])
    ctrl = control(s)
    ctrl[terrain_arrays(s).country == "Italy"] = SIDE_CODE["axis"]
    s.forget()
    step_to(s, "movement/move")
    s.tracks["GE.rail_used"] = rail.capacity(s, "GE")
    assert rail.partners(s, "GE") == ["IT"] and rail.capacity(s, "IT") == 2
    assert any(o["kind"] == "rail" and o["unit"] == "GE-a" for o in s.legal_orders())
    s.apply({"kind": "rail", "unit": "GE-a", "to": "04364"})
    assert s.unit("GE-a").location == "04364" and rail.used(s, "IT") == 1


def test_eto_34_2_soviet_and_minor_free_rebuilds(tmp_path):
    """34.2: "If the USSR has less than 15 EPs on the EP track ... it can still rebuild three
    infantry units"; "at least 15 EPs ... no free rebuilds"; each minor country one per home city
    resource hex not captured (Rumania: one on the map)."""
    from workbench.rulesets.eto import replenishment

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], tracks={"SU.eps": 14})
    replenishment.begin(s, None)
    assert (s.tracks["SU.free_rebuilds"], s.tracks["RO.free_rebuilds"], s.tracks["GE.free_rebuilds"]) == (3, 1, 2)
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], tracks={"SU.eps": 15})
    replenishment.begin(s, None)
    assert s.tracks["SU.free_rebuilds"] == 0


def test_eto_43_7_zhukov_with_an_hq_adds_one_per_stack(tmp_path):
    """43.7: "When Zhukov is stacked with an HQ, he adds +1 strength point to each friendly stack
    within the HQ's command radius ... During Axis offensives, every Soviet stack within the HQ's
    command radius receives the benefit."  Two 4-2 (8) vs a 2-2 + 1 = 3: 2:1."""
    from workbench.rulesets.eto.combat import assess

    units = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
             unit("SU-a", "SU", "infantry", "08740"), unit("SU-H", "SU", "hq", "08842"),
             unit("SU-Z", "SU", "general", "08842", name="Zhukov")]
    s = new_state(tmp_path, units)
    a = assess(s, "axis", ["GE-a", "GE-b"], "08740")
    assert (a.attack, a.defense, a.column) == (8, 3, "2:1")
    assert ["Zhukov with HQ", 1, "ETO-43.7"] in [list(c) for c in a.contributions]


def test_eto_45_4_partisans_move_one_hex_ignoring_zoc_inside_their_country(tmp_path):
    """45.4: "Partisans can only move one hex per turn. They can ignore enemy ZOC when they move";
    "A partisan unit cannot move out of its home country"."""
    from workbench.rulesets.eto.control import home_mask
    from workbench.rulesets.eto.movement import Walker

    units = [unit("SU-p", "SU", "partisan", "08540"), unit("GE-a", "GE", "infantry", "08640")]
    s = new_state(tmp_path, units)
    reach = Walker(s, s.unit("SU-p"), "movement").reach()
    assert reach and max(len(p) for p in reach.values()) == 1
    assert s.map.index("08639") in reach  # in German ZOC, entered and left freely
    assert all(home_mask(s, "SU")[b] for b in reach)


def test_eto_45_6_partisan_absorbed_and_negates_zoc_for_supply(tmp_path):
    """45.6: "If a partisan unit ever stacks with a friendly land unit, the partisan unit is
    eliminated"; "Partisan units negate enemy ZOC as if they were friendly infantry for purposes of
    tracing supply lines"."""
    from workbench.rulesets.eto import supply
    from workbench.rulesets.eto.zoc import zoc

    units = [unit("SU-p", "SU", "partisan", "08740"), unit("GE-a", "GE", "infantry", "08640"),
             unit("SU-q", "SU", "partisan", "08841"), unit("SU-a", "SU", "infantry", "08841")]
    s = new_state(tmp_path, units)
    i = s.map.index("08740")
    assert zoc(s, "axis")[i] and supply.passable(s, "allies")[i]
    assert not supply.passable(s, "allies")[s.map.index("08741")]  # German ZOC, no partisan
    from workbench.rulesets.eto import losses

    losses.enforce_stacking(s)
    assert not values_on_map(s, "SU-q") and values_on_map(s, "SU-p")
    assert events(s, "eliminated")[-1]["rule"] == "ETO-45.6"


def values_on_map(s, uid):
    return s.unit(uid).location.isdigit()


def test_eto_37_1_37_2_building_costs_delays_and_no_deficit(tmp_path):
    """37.1: "A country must have a positive number of EPs to construct anything ... no deficit
    spending"; 37.2: infantry "is immediately placed on the map", other units wait ("one ... season
    delay": armor), and may be built "at half (depleted) strength".  Chart (Russia): infantry 5
    (depleted 3), armor 8 (depleted 4)."""
    from workbench.rulesets.eto.construction import BuildOrder, build_cost
    from workbench.rulesets.eto.losses import FORCE_POOL

    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-i", "SU", "infantry", FORCE_POOL),
             unit("SU-t", "SU", "armor", FORCE_POOL)]
    s = new_state(tmp_path, units, tracks={"SU.eps": 7})
    b = BuildOrder()
    i, t = s.unit("SU-i"), s.unit("SU-t")
    assert (build_cost(s, i), build_cost(s, i, True), build_cost(s, t), build_cost(s, t, True)) == (5, 3, 8, 4)
    assert b._why_not(s, i, {"at": "08842"}) is None
    assert b._why_not(s, i, {"at": "08741"}).rule == "ETO-37.6"      # in German ZOC
    assert b._why_not(s, t, {}).rule == "ETO-37.1"                   # 8 > 7: no deficit spending
    assert b._why_not(s, t, {"depleted": True}) is None                  # 4 EPs, enters next season
    assert b._why_not(s, t, {"depleted": True, "at": "08842"}).rule == "ETO-37.2"
    s.tracks["SU.eps"] = 0
    assert b._why_not(s, i, {"at": "08842", "depleted": True}).rule == "ETO-37.1"  # no positive EPs


def test_eto_37_8_economic_reserve_at_most_twenty(tmp_path):
    """37.8: "Any major country can place up to 20 EPs in economic reserve"."""
    from workbench.rulesets.eto.construction import ReserveOrder

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")],
                  tracks={"SU.eps": 30, "SU.reserve": 12, "GE.eps": 0})
    s.frames.append({"interrupt": "test", "side": "allies", "rule": "", "prompt": "", "orders": [], "data": {}})
    assert max(o["eps"] for o in ReserveOrder().legal(s) if o["nation"] == "SU") == 8


def test_eto_34_1_home_rebuild_cost_and_placement(tmp_path):
    """34.1: "The cost is normal for infantry" (Russia 5); "placed within the home country, on a hex
    that is in supply and is not in enemy ZOC"; "Major nation EPs cannot be used to rebuild minor
    country partner units"."""
    from workbench.rulesets.eto.losses import REPLENISHMENT
    from workbench.rulesets.eto.replenishment import ReplenishOrder, cost_of

    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-r", "SU", "infantry", REPLENISHMENT),
             unit("RO-r", "RO", "infantry", REPLENISHMENT)]
    s = new_state(tmp_path, units, tracks={"SU.eps": 20, "GE.eps": 20, "RO.free_rebuilds": 0})
    assert cost_of(s, s.unit("SU-r")) == (5, False)
    assert cost_of(s, s.unit("RO-r"))[0] < 0
    r = ReplenishOrder()
    assert r._why_not(s, s.unit("SU-r"), "08842") is None
    assert "ZOC" in r._why_not(s, s.unit("SU-r"), "08741").why
    assert r._why_not(s, s.unit("RO-r"), "07561").rule == "ETO-34.1"


def test_eto_34_1_all_home_in_zoc_still_needs_supply_and_room(tmp_path, monkeypatch):
    """34.1: "if all home country hexes are in enemy ZOC, the unit can be placed in a ZOC hex as long
    as it is in supply" -- the ZOC bar goes, the others stay: with every hex in Axis ZOC, 08842 is
    allowed, a full all-Soviet stack (three units, 24.2) is not."""
    import numpy as np

    from workbench.rulesets.eto import construction
    from workbench.rulesets.eto import zoc as zoc_module
    from workbench.rulesets.eto.losses import REPLENISHMENT
    from workbench.rulesets.eto.replenishment import ReplenishOrder

    full = [unit(f"SU-f{k}", "SU", "infantry", "08843") for k in range(3)]
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-r", "SU", "infantry", REPLENISHMENT), *full]
    s = new_state(tmp_path, units, tracks={"SU.eps": 20})
    everywhere = np.ones(s.map.size, dtype=bool)
    monkeypatch.setattr(zoc_module, "zoc", lambda *_a, **_k: everywhere)
    monkeypatch.setattr(construction, "zoc", lambda *_a, **_k: everywhere)
    r = ReplenishOrder()
    assert r._why_not(s, s.unit("SU-r"), "08842") is None
    assert r._why_not(s, s.unit("SU-r"), "08843").rule == "ETO-24.2"


def test_eto_37_2_built_depleted_waits_three_monthly_turns(tmp_path):
    """37.2: a unit built depleted "must then enter play at depleted strength. After three monthly
    turns on the map, it can be built to full strength during a seasonal turn"."""
    from workbench.rulesets.eto.construction import RebuildDepletedOrder, months_since_built

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("SU-i", "SU", "infantry", "08842",
                                                                             reduced=True)],
                  first="1941-06", last="1941-10", tracks={"SU.eps": 20})
    s.turn = s.calendar.index("1941-summer")
    s.unit("SU-i").props["built_depleted"] = s.turn
    s.frames.append({"interrupt": "test", "side": "allies", "rule": "", "prompt": "", "orders": [], "data": {}})
    assert months_since_built(s, s.unit("SU-i")) == 0
    assert not RebuildDepletedOrder().legal(s)  # built this seasonal turn
    s.turn = s.calendar.index("1941-autumn")
    assert months_since_built(s, s.unit("SU-i")) == 3
    assert RebuildDepletedOrder().legal(s) == [{"kind": "rebuild", "unit": "SU-i"}]


def test_eto_22_2_general_activates_the_units_the_player_names(tmp_path):
    """22.2: "Generals can activate all units stacked with or adjacent to the general"; 22.0: "A
    player must specify the units he activates"; a partner's units only "if at least half the units
    activated are of the same nationality as the general"."""
    units = [unit("GE-pz", "GE", "armor", "08641"), unit("GE-G", "GE", "general", "08641", name="Hoth"),
             unit("GE-a", "GE", "infantry", "08640"), unit("RO-1", "RO", "infantry", "08642"),
             unit("RO-2", "RO", "infantry", "08541"), unit("SU-a", "SU", "infantry", "08741")]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "activate", "mode": "general", "general": "GE-G", "units": ["GE-pz", "RO-1", "RO-2"]})
    assert exc.value.rule == "ETO-22.2" and "half" in exc.value.why
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "activate", "mode": "general", "general": "GE-G", "units": ["SU-a"]})
    assert exc.value.rule == "ETO-22.2"
    s.apply({"kind": "activate", "mode": "general", "general": "GE-G", "units": ["GE-pz", "RO-1"]})
    assert [u for u in ("GE-pz", "GE-a", "RO-1", "RO-2") if s.unit(u).props.get("activated")] == ["GE-pz", "RO-1"]
    assert s.tracks["GE.offensives"] == 2
