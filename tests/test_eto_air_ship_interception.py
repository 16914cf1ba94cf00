"""ETO air interception of moving naval units (12.4, 14.0, 14.1, 14.4, 16.5) on the Channel front
of August 1940 (eto_kit ``west``): Frankfurt 04351, Brussels 03649, Harwich 03246, Dover 03148."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import air_ship_interception as asi

FRANKFURT, BRUSSELS, HARWICH, DOVER, CALAIS = "04351", "03649", "03246", "03148", "03248"
STEP = "naval-air/sides/first-naval-movement"


def channel(tmp_path, units):  # noqa: ANN001, ANN201
    """The Allied first naval movement step of August 1940, air and navies in play."""
    s = new_state(tmp_path, units, first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    step_to(s, STEP)
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, STEP)
    assert (s.decision.kind, s.decision.side) == (STEP, "allies")
    return s


def test_eto_14_0_bomber_intercepts_ships_moving_into_a_gridded_sea(tmp_path):
    """14.0: "A bomber is eligible to intercept enemy naval units only" -- a CL and a DD sail from
    Harwich into the North Sea (gridded, 16.5); the German 6-12 in Frankfurt is offered the
    interception, the fighter in Brussels is not (ETO-14.0).  The bomber flies to the North Sea
    hex nearest its base and makes 16.2's three attacks (underlined 6: three): 1+2 misses the CL,
    6+6 sinks it (doubles), 1+1 misses the DD; two ships are no 10-stack, so no anti-aircraft
    (16.4).  The DD sails on; the bomber is home after the step."""
    s = channel(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-f1", "GE", "fighter", BRUSSELS),
                           unit("UK-CL", "UK", "cl", HARWICH, props={"in_port": True}),
                           unit("UK-DD", "UK", "dd", HARWICH, props={"in_port": True})])
    s.apply({"kind": "sail", "units": ["UK-CL", "UK-DD"], "path": ["North Sea"]})
    d = s.decision
    assert (d.kind, d.side) == (asi.INTERRUPT, "axis")
    assert s.legal_orders() == [{"kind": "intercept_ships", "units": ["GE-b1"]}, {"kind": "pass"}]
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "intercept_ships", "units": ["GE-f1"]})
    assert e.value.rule == "ETO-14.0" and "fighters intercept air units only" in e.value.why
    to = asi.target_hex(s, s.unit("GE-b1"), "North Sea")
    assert s.map.hexes["sea_area"][s.map.index(to)] == "North Sea"
    assert s.map.distance(FRANKFURT, to) == min(s.map.distance(FRANKFURT, h) for h in asi.reach_hexes(s, "North Sea"))
    s.dice = FixedDice(1, 2, 6, 6, 1, 1)
    s.apply({"kind": "intercept_ships", "units": ["GE-b1"]})
    assert s.unit("GE-b1").location == to and s.decision.kind == asi.INTERRUPT
    s.apply({"kind": "pass"})
    attacks = [(e["data"]["ship"], e["dice"], e["data"]["result"], e["data"]["aa_hit"])
               for e in events(s, "air_naval")]
    assert attacks == [("UK-CL", [1, 2], "miss", False), ("UK-CL", [6, 6], "sunk", False),
                       ("UK-DD", [1, 1], "miss", False)]
    assert s.unit("UK-CL").location == "Force pool" and s.unit("UK-DD").location == "North Sea"
    assert not events(s, "anti_aircraft")
    assert s.decision.kind == STEP and s.decision.side == "allies"   # the voyage is over; the step goes on
    s.apply({"kind": "end_step"})
    assert s.unit("GE-b1").location == FRANKFURT and not s.unit("GE-b1").props.get("flight")


def test_eto_16_5_no_land_based_interception_in_an_ungridded_sea_or_of_u_boats_and_subs(tmp_path):
    """16.5: "Only carrier-based naval air units can intercept enemy naval units in a sea space with
    no hex grid"; 14.4: "U-boats cannot be intercepted", submarines through 11.2 only."""
    s = channel(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT),
                           unit("UK-SS", "UK", "ss", HARWICH, props={"in_port": True})])
    r = asi.interceptor_why_not(s, s.unit("GE-b1"), "axis", "North Atlantic")
    assert r and r.rule == "ETO-16.5" and "no hex grid" in r.why
    assert asi.reach_hexes(s, "North Atlantic") == [] and asi.reach_hexes(s, HARWICH) == [HARWICH]
    assert asi.interceptor_why_not(s, s.unit("GE-b1"), "axis", "North Sea") is None
    s.apply({"kind": "sail", "units": ["UK-SS"], "path": ["North Sea"]})
    assert s.decision.kind == STEP and s.unit("UK-SS").location == "North Sea"  # no air interception offered


def test_eto_12_4_a_bomber_intercepts_once_in_the_enemy_naval_and_air_phase(tmp_path):
    """12.4/14.4: the German bomber that intercepted the DD leaving Harwich is not offered the CL
    sailing after it (one interception mission in the enemy Naval and Air phase)."""
    s = channel(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT),
                           unit("UK-CL", "UK", "cl", HARWICH, props={"in_port": True}),
                           unit("UK-DD", "UK", "dd", HARWICH, props={"in_port": True})])
    s.dice = FixedDice(*[3] * 20)
    s.apply({"kind": "sail", "units": ["UK-DD"], "path": ["North Sea"]})
    s.apply({"kind": "intercept_ships", "units": ["GE-b1"]})
    s.apply({"kind": "pass"})
    assert [e["data"]["result"] for e in events(s, "air_naval")] == ["miss"] * 3
    s.apply({"kind": "sail", "units": ["UK-CL"], "path": ["North Sea"]})
    assert s.decision.kind == STEP   # nobody left to intercept: the CL sails without a stop
    r = asi.interceptor_why_not(s, s.unit("GE-b1"), "axis", "North Sea")
    assert r and r.rule in ("ETO-12.4", "ETO-14.4")


def test_eto_14_2_worked_example_with_the_transport(tmp_path):
    """ETO-14.2's example with its naval target: "a lone British transport puts to sea from
    Harwich.  A German 6-12 bomber based in Frankfurt takes off to intercept the STP.  But a
    British 4-3/3 fighter from Dover takes off to intercept the bomber between Calais and Antwerp.
    A German 4-4/3 fighter based in Brussels intercepts the British fighter over Calais."  The
    fighters fight first: the British one aborts the German (4 against 4 + 3 - 3 = 4) and flies
    on, missing the helpless bomber twice (6s, 15.7).  "The bomber continues its move and attacks
    the transport, but it, too, misses its target with all three attacks.  The STP now continues
    its move.  All these air units return to their respective airbases." """
    s = channel(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-f1", "GE", "fighter", BRUSSELS),
                           unit("UK-f1", "UK", "fighter", DOVER),
                           unit("UK-STP", "UK", "stp", HARWICH, props={"in_port": True, "points": 1})])
    s.apply({"kind": "sail", "units": ["UK-STP"], "path": ["03147"]})
    assert (s.decision.kind, s.decision.side) == (asi.INTERRUPT, "axis")
    s.dice = FixedDice(4, 5, 6, 6, 1, 2, 2, 3, 1, 3)
    s.apply({"kind": "intercept_ships", "units": ["GE-b1"]})
    between = s.unit("GE-b1").location      # the first hex within the Dover fighter's range of 3
    assert (s.decision.kind, s.decision.side) == ("air_intercept", "allies")
    assert s.map.distance(between, "03548") == 1 and s.map.distance(between, DOVER) == 3
    via = next(h for h in s.map.labels_list if s.map.distance(h, CALAIS) == 1 and s.map.distance(h, between) == 1)
    s.apply({"kind": "intercept", "units": ["UK-f1"], "path": [CALAIS, via, between]})
    assert (s.decision.kind, s.decision.side) == ("air_intercept", "axis") and s.unit("UK-f1").location == CALAIS
    s.apply({"kind": "intercept", "units": ["GE-f1"]})
    s.apply({"kind": "pass"})                 # the battle over Calais
    s.apply({"kind": "pass"})                 # the British fighter's battle with the bomber
    duel = [(e["data"]["attacker"], e["data"]["target"], e["data"]["target_number"], e["data"]["result"])
            for e in events(s, "air_combat")]
    assert duel == [("UK-f1", "GE-f1", 4, "abort"), ("GE-f1", "UK-f1", 4, "none"),
                    ("UK-f1", "GE-b1", 7, "none"), ("UK-f1", "GE-b1", 7, "none")]
    assert s.unit("GE-b1").location == "03147" and not s.unit("GE-b1").props.get("aborted")
    while s.decision.kind == asi.INTERRUPT:
        s.apply({"kind": "pass"})
    assert [(e["data"]["ship"], e["data"]["result"]) for e in events(s, "air_naval")] == [("UK-STP", "miss")] * 3
    assert s.unit("UK-STP").location == "03147" and s.unit("UK-STP").props["points"] == 1
    s.apply({"kind": "end_step"})
    for uid, home in (("GE-b1", FRANKFURT), ("GE-f1", BRUSSELS), ("UK-f1", DOVER)):
        assert s.unit(uid).location == home


def test_eto_14_4_end_phase_only_ships_entering_range_are_intercepted(tmp_path):
    """14.4: "During the End phase, air units can only intercept naval units that enter
    interception range during that phase.  Naval units that begin the End phase within
    interception range cannot be intercepted."  The Frankfurt 6-12 (range 12): the DD at sea in
    03147 (12 hexes) sails to Dover's hex 03148 (12) unmolested; the CL in the Irish Sea (beyond
    12) sails into the English Channel, whose nearest hex 03149 is in range, and is intercepted."""
    s = new_state(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("UK-DD", "UK", "dd", "03147"),
                             unit("UK-CL", "UK", "cl", "Irish Sea")],
                  first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    step = "end/second-naval/sail"
    step_to(s, step)
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, step)
    b = s.unit("GE-b1")
    assert (s.map.distance(FRANKFURT, "03147"), s.map.distance(FRANKFURT, DOVER)) == (12, 12)
    assert asi.target_hex(s, b, "Irish Sea") is None and asi.target_hex(s, b, "English Channel") == "03149"
    s.apply({"kind": "sail", "units": ["UK-DD"], "path": [DOVER]})
    assert s.decision.kind == step and s.unit("UK-DD").location == DOVER
    s.dice = FixedDice(*[3] * 10)
    s.apply({"kind": "sail", "units": ["UK-CL"], "path": ["English Channel"]})
    assert (s.decision.kind, s.decision.side) == (asi.INTERRUPT, "axis")
    s.apply({"kind": "intercept_ships", "units": ["GE-b1"]})
    s.apply({"kind": "pass"})
    assert [(e["data"]["ship"], e["data"]["result"]) for e in events(s, "air_naval")] == [("UK-CL", "miss")] * 3
    s.apply({"kind": "end_step"})
    assert s.unit("GE-b1").location == FRANKFURT


def test_eto_14_3_air_then_naval_interception_in_the_same_space(tmp_path):
    """14.3 ("All air-to-air combat ... in a given hex is resolved before any other combat") read
    for moving ships: the DD sailing into the North Sea is offered first to the German bomber, then
    -- once the air side passes -- to the German DD in Antwerp's port (8.2); after both pass it
    sails on."""
    s = channel(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT),
                           unit("GE-DD", "GE", "dd", "03548", props={"in_port": True}),
                           unit("UK-DD", "UK", "dd", HARWICH, props={"in_port": True})])
    s.apply({"kind": "sail", "units": ["UK-DD"], "path": ["North Sea"]})
    assert (s.decision.kind, s.legal_orders()[0]) == (asi.INTERRUPT, {"kind": "intercept_ships", "units": ["GE-b1"]})
    s.apply({"kind": "pass"})
    assert (s.decision.kind, s.legal_orders()[0]) == ("naval_intercept", {"kind": "intercept_naval", "units": ["GE-DD"]})
    s.apply({"kind": "pass"})
    assert s.decision.kind == STEP and s.unit("UK-DD").location == "North Sea"
