"""ETO sea transport (10.0-10.5, 10.7-10.9): the Transport Table, embarking, debarking, lost STPs."""

from __future__ import annotations

import pytest
from eto_kit import new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import naval_units, sea_transport, values

SOUTHAMPTON, LE_HAVRE, DOVER, BEACH, SOUTH_BEACH = "02748", "02951", "03148", "03147", "02848"


def _state(tmp_path, *extra, seed=1):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    units = [
        unit("UK-inf1", "UK", "infantry", SOUTHAMPTON), unit("UK-inf2", "UK", "infantry", SOUTHAMPTON),
        unit("UK-arm", "UK", "armor", SOUTHAMPTON),
        unit("UK-stp4", "UK", "stp", SOUTHAMPTON, props={"points": 4, "in_port": True}),
        unit("UK-stp3", "UK", "stp", SOUTHAMPTON, props={"points": 3, "in_port": True}),
        unit("UK-stp1", "UK", "stp", SOUTHAMPTON, props={"points": 1, "in_port": True}),
        unit("GE-inf", "GE", "infantry", "04641"), *extra,
    ]
    return new_state(tmp_path, units, seed=seed, west=True, options={"naval": True, "air": True})


def _u(s, *ids):  # noqa: ANN001, ANN202
    return [s.units_by_id[i] for i in ids]


def test_eto_10_2_southampton_to_le_havre_assault_needs_eight_stps(tmp_path):
    """10.2: "two infantry units and an armor unit make an amphibious assault from Southampton to
    Le Havre ... the distance is 6 naval movement points.  This requires a minimum of 8 STPs";
    beyond 6 MP the requirement is tripled (12)."""
    s = _state(tmp_path)
    force = _u(s, "UK-inf1", "UK-inf2", "UK-arm")
    assert sea_transport.requirement(s, force, "assault", mp=6) == 8
    assert sea_transport.requirement(s, force, "assault", mp=7) == 12
    assert sea_transport.requirement(s, force, "transport") == 4
    assert sea_transport.requirement(s, force, "transport", port=False) == 8
    assert sea_transport.requirement(s, force, "evacuation") == 8


def test_eto_10_2_hq_and_general_ride_free_with_a_land_unit(tmp_path):
    """10.2: "Transporting an HQ or a general with a land unit requires no additional STPs"; alone
    each needs 1."""
    s = _state(tmp_path, unit("UK-hq", "UK", "hq", SOUTHAMPTON))
    inf, hq = _u(s, "UK-inf1", "UK-hq")
    assert sea_transport.requirement(s, [inf, hq], "transport") == 1
    assert sea_transport.requirement(s, [hq], "transport") == 1


def test_eto_10_1_air_units_of_range_8_or_less_only(tmp_path):
    """10.1: STPs carry "air units with ranges of 8 or less": a fighter (range 3) yes, the UK
    bomber (range 14, authored) no."""
    s = _state(tmp_path, unit("UK-f", "UK", "fighter", SOUTHAMPTON), unit("UK-b", "UK", "bomber", SOUTHAMPTON))
    assert sea_transport.may_carry_why_not(s, s.units_by_id["UK-f"], "transport") is None
    r = sea_transport.may_carry_why_not(s, s.units_by_id["UK-b"], "transport")
    assert r and r.rule == "ETO-10.1" and "8 or less" in r.why


def test_eto_10_8_dd_and_cl_make_one_stp_for_infantry_only(tmp_path):
    """10.8: a DD and a CL stacked together are 1 STP for infantry (not armor); two DDs and two
    CLs carry a unit for an amphibious assault."""
    s = _state(tmp_path, unit("UK-DD1", "UK", "dd", DOVER), unit("UK-CL1", "UK", "cl", DOVER),
               unit("UK-DD2", "UK", "dd", DOVER), unit("UK-CL2", "UK", "cl", DOVER),
               unit("UK-inf3", "UK", "infantry", DOVER), unit("UK-arm2", "UK", "armor", DOVER))
    ships = _u(s, "UK-DD1", "UK-CL1", "UK-DD2", "UK-CL2")
    assert sea_transport.lift(s, ships) == 2 and sea_transport.lift(s, ships[:3]) == 1
    inf, arm = _u(s, "UK-inf3", "UK-arm2")
    assert sea_transport.embark_why_not(s, "allies", ships[:2], [inf], "transport") is None
    assert sea_transport.embark_why_not(s, "allies", ships[:2], [arm], "transport").rule == "ETO-10.8"
    assert "two DDs and two CLs" in sea_transport.embark_why_not(s, "allies", ships[:2], [inf], "assault").why
    assert sea_transport.embark_why_not(s, "allies", ships, [inf], "assault") is None


def test_eto_10_4_embark_in_a_friendly_port_and_lift_is_counted(tmp_path):
    """10.4: units embark in a friendly port onto the STPs there: the 2 infantry + 1 armor assault
    force takes all 8 STPs at Southampton (10.2); aboard, they are no land units in the port, and
    the markers have done their task for the month (10.0)."""
    s = _state(tmp_path)
    stps = _u(s, "UK-stp4", "UK-stp3", "UK-stp1")
    force = _u(s, "UK-inf1", "UK-inf2", "UK-arm")
    assert sea_transport.embark_why_not(s, "allies", stps, force, "assault") is None
    sea_transport.embark(s, stps, force, "assault")
    assert all(u.location == "aboard:UK-stp4" and sea_transport.space_of(s, u) == SOUTHAMPTON for u in force)
    assert not values.units_at(s, SOUTHAMPTON, "allies") or all(
        not values.is_land_unit(s, u) for u in values.units_at(s, SOUTHAMPTON, "allies"))
    assert all(u.props["stp_task"] == s.turn_label for u in stps)
    r = sea_transport.embark_why_not(s, "allies", stps, force, "transport")
    assert r and "one task" in r.why


def test_eto_10_0_one_task_per_stp_per_monthly_turn(tmp_path):
    """10.0: "Each STP can be used for only one task per monthly turn"."""
    s = _state(tmp_path)
    stp1 = s.units_by_id["UK-stp1"]
    sea_transport.embark(s, [stp1], _u(s, "UK-inf1"), "transport")
    r = sea_transport.embark_why_not(s, "allies", [stp1], _u(s, "UK-inf2"), "transport")
    assert r and r.rule == "ETO-10.0" and "one task" in r.why


def test_eto_10_4_not_in_an_enemy_or_non_port_hex(tmp_path):
    """10.4: embarking is in a friendly port; 10.7: only an evacuation embarks elsewhere, from a
    clear coastal hex, and never armor."""
    s = _state(tmp_path, unit("UK-stpb", "UK", "stp", BEACH, props={"points": 4}),
               unit("UK-inf9", "UK", "infantry", BEACH), unit("UK-arm9", "UK", "armor", BEACH))
    stp, inf, arm = _u(s, "UK-stpb", "UK-inf9", "UK-arm9")
    assert sea_transport.embark_why_not(s, "allies", [stp], [inf], "transport").rule == "ETO-10.4"
    assert sea_transport.embark_why_not(s, "allies", [stp], [inf], "evacuation") is None
    assert sea_transport.embark_why_not(s, "allies", [stp], [arm], "evacuation").rule == "ETO-10.7"


def test_eto_10_7_evacuees_beyond_12_mp_or_not_in_port_are_eliminated(tmp_path):
    """10.7: evacuated units "can be moved no more than 12 naval movement points and must end
    that move at a friendly port"; else they are eliminated at the end of the Naval and Air phase."""
    s = _state(tmp_path, unit("UK-stpb", "UK", "stp", BEACH, props={"points": 4}),
               unit("UK-inf9", "UK", "infantry", BEACH), unit("UK-para", "UK", "infantry", BEACH))
    stp = s.units_by_id["UK-stpb"]
    inf, other = _u(s, "UK-inf9", "UK-para")
    sea_transport.embark(s, [stp], [inf, other], "evacuation")
    assert sea_transport.end_evacuations(s) == ["UK-inf9", "UK-para"]      # still off the beach
    s2 = _state(tmp_path / "b", unit("UK-stpb", "UK", "stp", BEACH, props={"points": 4}),
                unit("UK-inf9", "UK", "infantry", BEACH))
    stp2 = s2.units_by_id["UK-stpb"]
    sea_transport.embark(s2, [stp2], _u(s2, "UK-inf9"), "evacuation")
    stp2.location = DOVER
    sea_transport.note_voyage(s2, stp2, 12)
    assert sea_transport.end_evacuations(s2) == [] and s2.units_by_id["UK-inf9"].props["sea_mission"] == "transport"
    sea_transport.note_voyage(s2, stp2, 1)
    s2.units_by_id["UK-inf9"].props["sea_mission"] = "evacuation"
    assert sea_transport.end_evacuations(s2) == ["UK-inf9"]


def test_eto_10_9_lost_stps_downgrade_the_assault_then_eliminate_cargo(tmp_path):
    """10.9: with STPs too few for the assault, the mission may downgrade to a transport; below
    that, carried units are eliminated until the rest can be carried.  The 8-STP assault force
    loses its 4-marker: 4 left = the transport need (1+1+2), so it downgrades; losing 1 more
    eliminates the last-embarked unit (the armor: 2 needed, then 2 for the infantry)."""
    s = _state(tmp_path)
    stps = _u(s, "UK-stp4", "UK-stp3", "UK-stp1")
    force = _u(s, "UK-inf1", "UK-inf2", "UK-arm")
    sea_transport.embark(s, [stps[0], stps[1], stps[2]], force, "assault")
    naval_units.sink(s, stps[0], "ETO-10.9")
    assert sea_transport.check_lift(s, "allies", SOUTHAMPTON) == []
    assert all(u.props["sea_mission"] == "transport" for u in force)
    stps[1].props["points"] = 2
    assert sea_transport.check_lift(s, "allies", SOUTHAMPTON) == ["UK-arm"]
    assert s.units_by_id["UK-arm"].location == values.FORCE_POOL


def test_eto_10_5_debark_in_the_movement_phase_one_hex_from_a_port(tmp_path):
    """10.5: units debark into the STP's hex in the Movement phase; in a friendly port free of
    enemy ZOC they may then move one hex, at a non-port hex none."""
    s = _state(tmp_path)
    stps = _u(s, "UK-stp4", "UK-stp3", "UK-stp1")
    sea_transport.embark(s, stps, _u(s, "UK-inf1"), "transport")
    stps[1].location = stps[2].location = BEACH
    sea_transport.embark(s, [stps[1]], _u(s, "UK-inf2"), "transport")
    stps[0].location = DOVER
    step_to(s, "movement/move")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    legal = [o for o in s.legal_orders() if o["kind"] == "debark"]
    assert {"kind": "debark", "units": ["UK-inf1"]} in legal and {"kind": "debark", "units": ["UK-inf2"]} in legal
    s.apply({"kind": "debark", "units": ["UK-inf1"]})
    s.apply({"kind": "debark", "units": ["UK-inf2"]})
    assert s.units_by_id["UK-inf1"].location == DOVER and s.units_by_id["UK-inf2"].location == BEACH
    moves = [o for o in s.legal_orders() if o["kind"] == "move" and o["unit"] in ("UK-inf1", "UK-inf2")]
    assert moves and all(o["unit"] == "UK-inf1" and len(o["path"]) == 1 for o in moves)
    with pytest.raises(IllegalOrder, match="ETO-10.5"):
        s.apply({"kind": "move", "unit": "UK-inf2", "path": [DOVER]})


def test_eto_10_5_debark_only_into_a_friendly_hex(tmp_path):
    """10.5: "Transported units must debark into a friendly hex, never into a neutral or
    enemy-controlled hex" (Calais is German-held)."""
    s = _state(tmp_path)
    stp = s.units_by_id["UK-stp1"]
    sea_transport.embark(s, [stp], _u(s, "UK-inf1"), "transport")
    stp.location = "03248"
    r = sea_transport.debark_why_not(s, s.units_by_id["UK-inf1"], "movement")
    assert r and r.rule == "ETO-10.5" and "friendly hex" in r.why


def test_eto_10_9_cargo_stays_with_the_stack_when_its_marker_sinks(tmp_path):
    """10.1/10.9: markers are "like change": when the marker a unit is stacked under sinks, the
    unit stays aboard the stack's other STPs (here 3 + 1 = 4 for one infantry: enough); when
    every ship is sunk, everything aboard is lost."""
    s = _state(tmp_path)
    stps = _u(s, "UK-stp4", "UK-stp3", "UK-stp1")
    inf = s.units_by_id["UK-inf1"]
    sea_transport.embark(s, stps, [inf], "transport")
    naval_units.sink(s, stps[0], "ETO-9.5")
    assert inf.props["aboard"] == "UK-stp1" and sea_transport.space_of(s, inf) == SOUTHAMPTON
    naval_units.sink(s, stps[2], "ETO-9.5")
    assert inf.props["aboard"] == "UK-stp3"
    naval_units.sink(s, stps[1], "ETO-9.5")
    assert inf.location == values.FORCE_POOL


def test_eto_10_7_the_naval_and_air_phase_ends_an_evacuation_left_at_sea(tmp_path):
    """10.7 through the turn's sequence: evacuees still off a clear beach when the Naval and Air
    phase closes are eliminated by the phase's end (not by a test calling the procedure)."""
    s = _state(tmp_path, unit("UK-stpb", "UK", "stp", BEACH, props={"points": 4}),
               unit("UK-inf9", "UK", "infantry", BEACH))
    s = step_to(s, "naval-air/sides/first-naval-movement")
    sea_transport.embark(s, _u(s, "UK-stpb"), _u(s, "UK-inf9"), "evacuation")
    assert s.units_by_id["UK-inf9"].location.startswith("aboard:")
    s = step_to(s, "offensive")
    assert s.units_by_id["UK-inf9"].location == "Force pool"  # eliminated: back to the force pool
    assert [e["rule"] for e in s.log if "UK-inf9" in (e.get("text") or "") and "eliminated" in e["text"]] \
        == ["ETO-10.7"]


def test_eto_10_3_cargo_of_an_unpaid_stack_is_out_of_supply_and_wastes_away(tmp_path):
    """10.3: "If a stack containing an STP is marked out of supply (33.8), all embarked units in that
    stack are also out of supply.  Embarked units suffer the normal attrition effect for multiple
    turns spent out of supply (33.5)."  The UK cannot pay the 1 EP for its STP at sea in the
    English Channel (7.6): the STP and the infantry aboard are marked; at that turn's Supply step
    nothing more happens; a turn later, still marked, the infantry loses a step, then (depleted)
    is lost.  33.8: in a friendly port the marker comes off at the end of the phase (cargo too),
    and a marked ship cannot intercept."""
    from workbench.rulesets.eto import naval_interception

    s = _state(tmp_path)
    stp, inf1, inf2 = _u(s, "UK-stp4", "UK-inf1", "UK-inf2")
    sea_transport.embark(s, [stp], [inf1, inf2], "transport")
    stp.location = "English Channel"
    stp.props.pop("in_port", None)
    s.tracks["UK.eps"] = 0
    procs = s.game.ruleset.procedures
    procs["end/second-naval:exit"](s, None)       # 33.8 clearing (nothing in port), then the 7.6 bill
    assert stp.props.get("oos") and inf1.props.get("oos") and inf2.props.get("oos")
    assert naval_interception.interceptor_why_not(s, stp, "English Channel", "allies").rule == "ETO-33.8"
    procs["end/supply"](s, None)
    assert not inf1.reduced and sea_transport.is_aboard(inf1)
    for u in (inf1, inf2):
        u.props["oos_since"] = "an earlier turn"  # the next turn's Supply step, the stack still marked
    procs["end/supply"](s, None)
    assert inf1.reduced and inf2.reduced
    procs["end/supply"](s, None)
    assert inf1.location == values.FORCE_POOL and inf2.location == values.FORCE_POOL
    arm = s.units_by_id["UK-arm"]
    arm.location, arm.props["aboard"], arm.props["oos"] = sea_transport.ABOARD + stp.id, stp.id, True
    stp.location, stp.props["in_port"] = SOUTHAMPTON, True
    procs["naval-air:exit"](s, None)
    assert not stp.props.get("oos") and not arm.props.get("oos")


def test_eto_10_5_an_air_unit_debarks_at_the_end_of_an_offensive_marked_pc(tmp_path):
    """10.5: "An air unit can be debarked during an offensive if it is within range of the active HQ
    and it is at a port with sufficient basing capacity to hold the air unit.  The air unit debarks
    at the conclusion of the offensive and is marked PC."  A fighter (range 3) aboard an STP at
    Dover, the active HQ at Dover: its debark is declared in the offensive, it stays aboard until
    the offensive's unit-status step, then stands at Dover marked PC.  A fighter aboard at
    Liverpool, out of the HQ's range, is refused."""
    from workbench.rulesets.eto import hq

    liverpool = "02542"
    s = _state(tmp_path, unit("UK-hq", "UK", "hq", DOVER), unit("UK-f", "UK", "fighter", DOVER),
               unit("UK-f2", "UK", "fighter", liverpool),
               unit("UK-stpD", "UK", "stp", DOVER, props={"points": 2, "in_port": True}),
               unit("UK-stpL", "UK", "stp", liverpool, props={"points": 2, "in_port": True}))
    f, f2 = _u(s, "UK-f", "UK-f2")
    sea_transport.embark(s, _u(s, "UK-stpD"), [f], "transport")
    sea_transport.embark(s, _u(s, "UK-stpL"), [f2], "transport")
    step_to(s, "offensive")
    if s.decision.side != "allies":
        s.apply({"kind": "pass"})
    s.apply({"kind": "begin"})
    s.apply({"kind": "activate_hq", "hqs": ["UK-hq"]})
    step_to(s, "offensive/movement")
    assert not hq.in_radius(s, s.units_by_id["UK-hq"], liverpool)
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "debark", "units": ["UK-f2"]})
    assert exc.value.rule == "ETO-10.5" and "active HQ" in exc.value.why
    s.apply({"kind": "debark", "units": ["UK-f"]})
    assert sea_transport.is_aboard(f) and f.props.get("debark_at_end")
    s.game.ruleset.procedures["offensive/unit-status"](s, None)
    assert f.location == DOVER and f.props.get("commit") == "PC" and not sea_transport.is_aboard(f)
    assert sea_transport.is_aboard(f2)
    from workbench.rulesets.eto import (
        air_missions,  # "cannot move from that port for the duration of the turn"
    )

    assert air_missions.unit_why_not(s, "allies", f, "change_base").rule == "ETO-10.5"


def test_eto_10_0_an_stp_carries_a_partners_units(tmp_path):
    """10.0: "A player can use STPs to carry units belonging to a partner": the British 4-STP marker
    at Southampton lifts a French corps (1 STP, 10.2); a German one it never lifts."""
    s = _state(tmp_path, unit("FR-inf", "FR", "infantry", SOUTHAMPTON))
    stp, fr = _u(s, "UK-stp4", "FR-inf")
    assert sea_transport.embark_why_not(s, "allies", [stp], [fr], "transport") is None
    sea_transport.embark(s, [stp], [fr], "transport")
    assert fr.location == sea_transport.ABOARD + stp.id
    assert sea_transport.embark_why_not(s, "allies", [stp], _u(s, "GE-inf"), "transport") is not None


def test_eto_10_4_units_embark_in_the_port_they_held_as_the_phase_began(tmp_path):
    """10.4: "All units embarked by a single STP marker must occupy the same friendly port at the
    start of the Naval and Air phase.  When embarking for transport or supply, the STP marker can
    move to the port containing the units ... and pick them up."  The 4-STP marker sails from
    Dover to Southampton (the English Channel, 5, and the hex, 1: 6 MP) and picks up a fighter
    there; a second fighter that changed base from Dover to Southampton during the phase may not
    board the 3-STP marker waiting there."""
    s = _state(tmp_path, unit("UK-f1", "UK", "fighter", SOUTHAMPTON), unit("UK-f2", "UK", "fighter", DOVER),
               unit("UK-stpD", "UK", "stp", DOVER, props={"points": 4, "in_port": True}))
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    f1, f2, stp = _u(s, "UK-f1", "UK-f2", "UK-stpD")
    s.apply({"kind": "sail", "units": ["UK-stpD"], "path": ["English Channel", SOUTHAMPTON], "port": True})
    assert stp.location == SOUTHAMPTON and naval_units.in_port(stp)
    f2.location = SOUTHAMPTON   # rebased during the phase
    s.apply({"kind": "embark", "carriers": ["UK-stpD"], "units": ["UK-f1"], "mission": "transport"})
    assert f1.location == sea_transport.ABOARD + "UK-stpD"
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "embark", "carriers": ["UK-stp3"], "units": ["UK-f2"], "mission": "transport"})
    assert exc.value.rule == "ETO-10.4" and "start of the Naval and Air phase" in exc.value.why
