"""ETO carrier air at sea (13.1, 13.3, 13.4, 16.5): carrier air against carrier air, changes of
base to and from carriers, a carrier lost under its airborne air."""

from __future__ import annotations

from eto_kit import FixedDice, events, new_state, unit

from workbench.rulesets.eto import naval_combat
from workbench.rulesets.eto.naval_combat import Plan

SEA = "North Sea"


def _fleet(tmp_path, *extra, faces=()):  # noqa: ANN001, ANN202
    s = new_state(tmp_path, [
        unit("UK-CV", "UK", "cv", SEA, name="Ark Royal"),
        unit("UK-air", "UK", "naval_air", SEA, props={"carrier": "UK-CV"}),
        unit("GE-CV", "GE", "cv", SEA, name="Graf Zeppelin"),
        unit("GE-air", "GE", "naval_air", SEA, props={"carrier": "GE-CV"}), *extra,
    ], west=True, options={"naval": True, "air": True})
    if faces:
        s.dice = FixedDice(*faces)
    return s


def _sides(s):  # noqa: ANN001, ANN202
    return {"axis": [s.unit("GE-CV")], "allies": [s.unit("UK-CV")]}


def test_eto_16_5_carrier_air_flying_as_fighters_meets_the_enemy_strike_first(tmp_path):
    """16.5: "Carrier-based naval air units can attack enemy naval (or naval air) units ... The
    air-naval combat (or air-to-air combat) is resolved ... before any naval combat."  The British
    plan flies Ark Royal's air as a fighter: it attacks the German strike (a bomber, quality 0)
    before it reaches Ark Royal -- target number 2 + 1 - 0 = 3, die 1: aborted and depleted
    (15.7) -- so the German air makes no air-naval attack; the British air, flying as a fighter,
    attacks no ship either (12.1)."""
    s = _fleet(tmp_path, faces=(1,) + (6,) * 40)
    out = naval_combat.resolve(s, SEA, _sides(s), plans={"allies": Plan(air_roles={"UK-air": "fighter"})})
    fights = [e["data"] for e in events(s, "air_combat")]
    assert fights[0]["attacker"] == "UK-air" and fights[0]["target"] == "GE-air"
    assert (fights[0]["target_number"], fights[0]["die"]) == (3, 1)
    ge = s.unit("GE-air")
    assert ge.reduced and out["air"] == []
    assert not [e for e in events(s, "roll") if e["rule"] == "ETO-16.2"]
    assert ge.location == SEA and not ge.props.get("aborted")  # back on its carrier afterwards


def test_eto_16_5_by_default_both_carriers_air_strike_the_enemy_ships(tmp_path):
    """9.0/16.5 without an air-to-air plan: each side's carrier air flies as a bomber and attacks
    the enemy ships (two attacks each, 2 SP, +3 against a named ship); no air-to-air combat."""
    s = _fleet(tmp_path, faces=(1, 2) * 40)
    out = naval_combat.resolve(s, SEA, _sides(s))
    assert not events(s, "air_combat")
    assert sorted(r["bomber"] for r in out["air"]) == ["GE-air", "UK-air"]
    assert len([e for e in events(s, "roll") if e["rule"] == "ETO-16.2"]) == 4


def test_eto_16_5_an_air_role_must_be_fighter_or_bomber(tmp_path):
    from workbench.rulesets.eto.naval_combat import plan_why_not

    why = plan_why_not({"air_roles": {"UK-air": "escort"}}, ["UK-CV"])
    assert why is not None and why.rule == "ETO-16.5"
    assert plan_why_not({"air_roles": {"UK-air": "fighter"}}, ["UK-CV"]) is None


# == changes of base with carriers (13.1, 13.3, 13.4) =============================================
DOVER, HARWICH = "03148", "03246"


def _air_movement(tmp_path, *units):  # noqa: ANN001, ANN202
    from eto_kit import step_to

    s = new_state(tmp_path, list(units), west=True, options={"naval": True, "air": True})
    step_to(s, "naval-air/sides/air-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/air-movement")
    assert s.decision.side == "allies"
    return s


def test_eto_13_3_naval_air_changes_base_onto_a_carrier_at_sea(tmp_path):
    """13.3: "CV units as well as land bases serve as bases for them.  A CV can serve as the start
    or end of a naval air unit's change of base".  The 2-5 naval air at Dover flies to Ark Royal in
    the North Sea (a gridded area: to its hex nearest Dover) and is based on her; Dover's base is
    free again.  A CVE takes only 1-SP naval air."""
    from workbench.rulesets.eto import airbases

    s = _air_movement(tmp_path, unit("UK-CV", "UK", "cv", "North Sea", name="Ark Royal"),
                      unit("UK-CVE", "UK", "cve", "North Sea"), unit("UK-air", "UK", "naval_air", DOVER))
    air = s.unit("UK-air")
    why = s.check({"kind": "fly", "units": ["UK-air"], "mission": "change_base", "to": "North Sea", "carrier": "UK-CVE"})
    assert why is not None and why.rule == "ETO-13.3" and "1 SP" in why.why
    s.apply({"kind": "fly", "units": ["UK-air"], "mission": "change_base", "to": "North Sea", "carrier": "UK-CV"})
    assert air.props["carrier"] == "UK-CV" and air.location == "North Sea" and not air.props.get("flight")
    assert airbases.based_at(s, DOVER, "allies") == []
    assert events(s, "air_on_carrier")[-1]["rule"] == "ETO-13.3"


def test_eto_13_3_a_carrier_is_never_an_intermediate_base(tmp_path):
    """13.3: "a CV cannot serve as in intermediate base"."""
    s = _air_movement(tmp_path, unit("UK-CV", "UK", "cv", DOVER, name="Ark Royal"),
                      unit("UK-air", "UK", "naval_air", HARWICH))
    why = s.check({"kind": "fly", "units": ["UK-air"], "mission": "change_base", "to": "02948", "via": ["UK-CV"]})
    assert why is not None and why.rule == "ETO-13.3" and "intermediate" in why.why


def test_eto_13_3_from_a_carrier_at_sea_to_a_land_base(tmp_path):
    """13.3: the carrier as the start of a change of base: Ark Royal's air in the North Sea takes
    off from the area's hex nearest Harwich (03247, one hex out) and lands at Harwich; it is
    land-based from then on."""
    s = _air_movement(tmp_path, unit("UK-CV", "UK", "cv", "North Sea", name="Ark Royal"),
                      unit("UK-air", "UK", "naval_air", "North Sea", props={"carrier": "UK-CV"}))
    air = s.unit("UK-air")
    s.apply({"kind": "fly", "units": ["UK-air"], "mission": "change_base", "to": HARWICH})
    assert air.location == HARWICH and not air.props.get("carrier")
    takeoff = [e for e in s.log if e["kind"] == "air_takeoff"][-1]
    assert "03247" in takeoff["text"]


def test_eto_13_1_carrier_air_in_an_area_without_a_hex_grid(tmp_path):
    """13.1: "Land-based aircraft cannot enter these areas.  A naval air unit can perform missions
    only within the area occupied by its CV base."  Ark Royal's air in the North Atlantic flies no
    mission over the map and cannot change base to Dover; it may move to another carrier in the
    North Atlantic (no flight over the map).  The naval air at Dover cannot fly out to that carrier."""
    from workbench.rulesets.eto import air_missions

    s = _air_movement(tmp_path, unit("UK-CV", "UK", "cv", "North Atlantic", name="Ark Royal"),
                      unit("UK-CV2", "UK", "cv", "North Atlantic", name="Illustrious"),
                      unit("UK-CV3", "UK", "cv", "North Atlantic", name="Victorious"),
                      unit("UK-air", "UK", "naval_air", "North Atlantic", props={"carrier": "UK-CV"}),
                      unit("UK-air2", "UK", "naval_air", DOVER))
    air = s.unit("UK-air")
    why = air_missions.unit_why_not(s, "allies", air, "attack_air", DOVER)
    assert why is not None and why.rule == "ETO-13.1"
    why = s.check({"kind": "fly", "units": ["UK-air"], "mission": "change_base", "to": DOVER})
    assert why is not None and why.rule == "ETO-13.1"
    why = s.check({"kind": "fly", "units": ["UK-air2"], "mission": "change_base", "to": "North Atlantic",
                   "carrier": "UK-CV3"})
    assert why is not None and why.rule == "ETO-13.1"
    s.apply({"kind": "fly", "units": ["UK-air"], "mission": "change_base", "to": "North Atlantic", "carrier": "UK-CV2"})
    assert air.props["carrier"] == "UK-CV2" and air.location == "North Atlantic"


def test_eto_13_4_air_up_when_its_carrier_sinks_lands_ashore_within_twice_its_range(tmp_path):
    """13.3/13.4: a carrier sunk with its naval air aboard takes it to the force pool; one sunk
    "while its naval air unit is airborne" lets it "rebase to a land base within twice the unit's
    range" (2 x 5 = 10 hexes): Illustrious's air, aboard, is lost; Ark Royal's, flying at 03149
    when she sinks, lands on a British base within 10 hexes when the flights return."""
    from workbench.rulesets.eto import air_flights, naval_units, values

    s = new_state(tmp_path, [unit("UK-CV", "UK", "cv", "English Channel", name="Ark Royal"),
                             unit("UK-CV2", "UK", "cv", "English Channel", name="Illustrious"),
                             unit("UK-air", "UK", "naval_air", "English Channel", props={"carrier": "UK-CV"}),
                             unit("UK-air2", "UK", "naval_air", "English Channel", props={"carrier": "UK-CV2"})],
                  west=True, options={"naval": True, "air": True})
    up, aboard = s.unit("UK-air"), s.unit("UK-air2")
    up.location, up.props["flight"] = "03149", "F9"
    naval_units.sink(s, s.unit("UK-CV"), "ETO-9.5")
    naval_units.sink(s, s.unit("UK-CV2"), "ETO-9.5")
    assert aboard.location == values.FORCE_POOL and up.location == "03149"
    air_flights.return_all(s)
    assert s.map.has_hex(up.location) and s.map.distance("03149", up.location) <= 10
    assert not up.props.get("carrier") and events(s, "air_evacuated")[-1]["rule"] == "ETO-13.4"


def test_eto_8_5_16_5_carrier_air_intercepts_ships_moving_in_its_gridded_area(tmp_path):
    """8.5: "the CV's naval air unit can intercept enemy ships automatically even if the CV's group
    fails to find the enemy; it uses the air interception procedure (14.0)"; 16.5: "All air units
    can intercept enemy naval units in ports, coastal hexes, and sea spaces with hex grids".  A CL
    and a DD sail from Harwich into the North Sea, where the Graf Zeppelin's air waits: it is
    offered the interception, flies from its carrier's area to the ships and makes two attacks
    (2 SP): 6+6 sinks the CL, 1+1 misses the DD; it is back aboard after the step.  A second carrier's air
    with its carrier in the North Atlantic (no hex grid) is not offered it (16.5: only naval interception there)."""
    from eto_kit import step_to

    from workbench.rulesets.eto import air_ship_interception as asi

    step = "naval-air/sides/first-naval-movement"
    s = new_state(tmp_path, [unit("GE-CV", "GE", "cv", "North Sea", name="Graf Zeppelin"),
                             unit("GE-air", "GE", "naval_air", "North Sea", props={"carrier": "GE-CV"}),
                             unit("GE-CV2", "GE", "cv", "North Atlantic", name="Peter Strasser"),
                             unit("GE-air2", "GE", "naval_air", "North Atlantic", props={"carrier": "GE-CV2"}),
                             unit("UK-CL", "UK", "cl", HARWICH, props={"in_port": True}),
                             unit("UK-DD", "UK", "dd", HARWICH, props={"in_port": True})],
                  first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    step_to(s, step)
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, step)
    s.apply({"kind": "sail", "units": ["UK-CL", "UK-DD"], "path": ["North Sea"]})
    assert (s.decision.kind, s.decision.side) == (asi.INTERRUPT, "axis")
    assert [o for o in s.legal_orders() if o["kind"] == "intercept_ships"] == [
        {"kind": "intercept_ships", "units": ["GE-air"]}]
    s.dice = FixedDice(6, 6, 1, 1)
    s.apply({"kind": "intercept_ships", "units": ["GE-air"]})
    s.apply({"kind": "pass"})
    attacks = [(e["data"]["ship"], e["dice"], e["data"]["result"]) for e in events(s, "air_naval")]
    assert attacks == [("UK-CL", [6, 6], "sunk"), ("UK-DD", [1, 1], "miss")]
    s.apply({"kind": "end_step"})
    air = s.unit("GE-air")
    assert air.location == "North Sea" and air.props["carrier"] == "GE-CV" and not air.props.get("flight")
    why = asi.interceptor_why_not(s, s.unit("GE-air2"), "axis", "North Sea")
    assert why is not None and why.rule == "ETO-16.5" and "without a hex grid" in why.why


def test_eto_13_4_air_up_when_its_carrier_is_damaged_far_from_land_returns_to_another_carrier(tmp_path):
    """13.4: a damaged CV, too, sends its airborne air elsewhere ("destroyed or damaged while its
    naval air unit is airborne"); with no British base within 2 x 5 = 10 hexes of 04432 (the North
    Sea, 15 hexes from the nearest) it "could return to a different CV ... as long as it was the
    only air unit on the CV": Illustrious, empty, in the North Sea."""
    from workbench.rulesets.eto import air_flights, naval_units

    s = new_state(tmp_path, [unit("UK-CV", "UK", "cv", "North Sea", name="Ark Royal"),
                             unit("UK-CV2", "UK", "cv", "North Sea", name="Illustrious"),
                             unit("UK-air", "UK", "naval_air", "North Sea", props={"carrier": "UK-CV"})],
                  west=True, options={"naval": True, "air": True})
    up = s.unit("UK-air")
    up.location, up.props["flight"] = "04432", "F9"
    naval_units.damage(s, s.unit("UK-CV"), "ETO-9.5")
    air_flights.return_all(s)
    assert up.props.get("carrier") == "UK-CV2" and up.location == "North Sea"


def test_eto_16_5_carrier_air_attacks_ships_in_port_from_its_gridded_area_in_step_2(tmp_path):
    """16.5/12.3: "All air units can intercept enemy naval units in ports, coastal hexes, and sea
    spaces with hex grids ... during Step 2 (air-naval attacks)": the Graf Zeppelin's air (range 4)
    in the North Sea flies from the area's hex nearest Harwich (03247) to the CL in port there; a
    carrier in the North Atlantic could not (13.1)."""
    from eto_kit import step_to

    from workbench.rulesets.eto import air_missions

    step = "naval-air/sides/air-naval"
    s = new_state(tmp_path, [unit("GE-CV", "GE", "cv", "North Sea", name="Graf Zeppelin"),
                             unit("GE-air", "GE", "naval_air", "North Sea", props={"carrier": "GE-CV"}),
                             unit("GE-CV2", "GE", "cv", "North Atlantic", name="Peter Strasser"),
                             unit("GE-air2", "GE", "naval_air", "North Atlantic", props={"carrier": "GE-CV2"}),
                             unit("UK-CL", "UK", "cl", HARWICH, props={"in_port": True})],
                  first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    step_to(s, step)
    if s.decision.side != "axis":
        s.apply({"kind": "end_step"})
        step_to(s, step)
    assert (s.step.key, s.decision.side) == (step, "axis")
    order = {"kind": "fly", "units": ["GE-air"], "mission": "attack_naval", "to": HARWICH}
    assert order in s.legal_orders()
    s.apply(order)
    takeoff = [e for e in s.log if e["kind"] == "air_takeoff"][-1]
    assert "03247" in takeoff["text"] and s.unit("GE-air").location == HARWICH
    why = air_missions.unit_why_not(s, "axis", s.unit("GE-air2"), "attack_naval", HARWICH)
    assert why is not None and why.rule == "ETO-13.1"


def test_eto_13_3_naval_air_aboard_sails_with_its_carrier(tmp_path):
    """13.3: a carrier is its naval air's base wherever it goes: Ark Royal sails from Harwich into
    the North Sea and her air is there with her, taking no base at Harwich meanwhile."""
    from eto_kit import step_to

    from workbench.rulesets.eto import airbases

    step = "naval-air/sides/first-naval-movement"
    s = new_state(tmp_path, [unit("UK-CV", "UK", "cv", HARWICH, name="Ark Royal", props={"in_port": True}),
                             unit("UK-air", "UK", "naval_air", HARWICH, props={"carrier": "UK-CV"})],
                  first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    assert airbases.based_at(s, HARWICH, "allies") == []
    step_to(s, step)
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, step)
    s.apply({"kind": "sail", "units": ["UK-CV"], "path": ["North Sea"]})
    assert s.unit("UK-CV").location == s.unit("UK-air").location == "North Sea"
