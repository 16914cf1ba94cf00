"""ETO air missions, bases and interception chains (ETO-12.3, 13.1-13.4, 14.1-14.6, 21.0-21.4).

The Channel front of August 1940 (eto_kit ``west``): Dover 03148, Calais 03248, Antwerp
03548, Brussels 03649, Frankfurt 04351, Harwich 03246, London 02948.
"""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, begin_offensive, events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import air_missions, airbases
from workbench.rulesets.eto.control import pass_through

DOVER, CALAIS, ANTWERP, BRUSSELS, FRANKFURT, HARWICH, LONDON = (
    "03148", "03248", "03548", "03649", "04351", "03246", "02948")
SEA_OFF_ANTWERP = "03447"   # between Calais (2) and Antwerp (1): the 14.2 example's 3515


def west(tmp_path, units, *faces, first="1940-08", **kw):  # noqa: ANN001, ANN201
    return new_state(tmp_path, units, *faces, first=first, last="1940-09", west=True,
                     options={"air": True}, **kw)


def to_air_offensive(state, nations=("GE",)):  # noqa: ANN001, ANN201
    """From the start of the month to 4B-B of an Axis air offensive."""
    step_to(state, "offensive")
    begin_offensive(state, "axis")
    state.apply({"kind": "air_offensive", "nations": list(nations)})
    step_to(state, "air-moves")
    assert state.step.key == "air-moves"
    return state


# == bases (13.2-13.4) ==========================================================================
def test_eto_13_2_bases_per_hex_city_resource_is_two_airfield_adds_one(tmp_path):
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER)])
    assert airbases.capacity(s, DOVER) == 1          # a port (city)
    assert airbases.capacity(s, LONDON) == 2         # a city resource hex: two bases
    assert airbases.capacity(s, SEA_OFF_ANTWERP) == 0
    s.markers.setdefault("forts", {})[LONDON] = {"kind": "airfield", "side": "allies"}
    assert airbases.capacity(s, LONDON) == 3         # 13.2: three with an airfield marker
    s.markers.setdefault("destroyed", {})[LONDON] = {"kind": "airfield", "side": "allies"}
    assert airbases.capacity(s, LONDON) == 0         # 21.5: no base until repaired
    assert airbases.max_units(s, BRUSSELS) == 4      # 13.4: two per base, a city resource hex four


def test_eto_13_4_units_beyond_capacity_are_overstacked_and_may_only_change_base(tmp_path):
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER), unit("UK-f2", "UK", "fighter", DOVER)])
    assert not s.unit("UK-f1").props.get("overstacked")
    assert s.unit("UK-f2").props.get("overstacked") is True
    why = air_missions.unit_why_not(s, "allies", s.unit("UK-f2"), "attack_air")
    assert why is not None and why.rule == "ETO-13.4"
    airbases.reorder(s, DOVER, "allies", ["UK-f2", "UK-f1"])   # the owner restacks (13.4)
    assert s.unit("UK-f1").props.get("overstacked") is True
    assert not s.unit("UK-f2").props.get("overstacked")


def test_eto_13_2_captured_base_evacuates_within_twice_range_or_is_lost(tmp_path):
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER), unit("UK-f2", "UK", "fighter", DOVER),
                        unit("GE-i", "GE", "infantry", CALAIS)])
    ge = s.unit("GE-i")
    ge.location = DOVER
    pass_through(s, ge, [s.map.index(DOVER)])
    f1, f2 = s.unit("UK-f1"), s.unit("UK-f2")
    # the functioning unit flies to a vacant friendly base within 2 x 3 hexes ...
    assert f1.location != DOVER and s.map.distance(DOVER, f1.location) <= 6
    assert airbases.is_friendly_base(s, "allies", f1.location)
    # ... the overstacked one has no chance to escape (13.4)
    assert f2.location == "Force pool"
    assert [e["data"]["unit"] for e in events(s, "eliminated")] == ["UK-f2"]


# == change of base (12.3) ======================================================================
def test_eto_12_3_change_base_hops_of_twice_range_through_friendly_bases(tmp_path):
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER)])
    step_to(s, "naval-air/sides/air-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/air-movement")
    assert s.decision.side == "allies"
    manchester = s.map.hex_of("Manchester")        # 8 hexes from Dover: too far for one hop of 2 x 3
    why = s.check({"kind": "fly", "units": ["UK-f1"], "mission": "change_base", "to": manchester})
    assert why is not None and why.rule == "ETO-13.0" and "allows 6" in why.why
    with pytest.raises(IllegalOrder, match="ETO-12.3"):
        s.apply({"kind": "fly", "units": ["UK-f1"], "mission": "change_base", "to": LONDON,
                 "via": [LONDON, LONDON, LONDON]})
    birmingham = s.map.hex_of("Birmingham")        # 6 from Dover: one full hop
    s.apply({"kind": "fly", "units": ["UK-f1"], "mission": "change_base", "to": manchester, "via": [birmingham]})
    f1 = s.unit("UK-f1")
    assert f1.location == manchester and f1.props["base"] == manchester and not f1.props.get("flight")


# == the 14.2 worked example ===================================================================
def test_eto_14_2_worked_example_interception_chain(tmp_path):
    """ETO-14.2's example on the europe map, with the bomber on an air offensive against Harwich
    (its STP target needs the naval units of the war at sea).  A German 6-12 bomber from
    Frankfurt flies towards Harwich; a British 4-3/3 fighter from Dover intercepts it between
    Calais and Antwerp; a German 4-4/3 fighter from Brussels intercepts the British fighter over
    Calais.  The fighters' battle over Calais is fought first; the British fighter aborts the
    German one (a roll equal to the target number 4+3-3 = 4), flies on, and misses the
    helpless bomber twice (rolls of 6, never a hit: 15.7); the bomber flies on to Harwich."""
    s = west(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-f1", "GE", "fighter", BRUSSELS),
                        unit("UK-f1", "UK", "fighter", DOVER)])
    to_air_offensive(s)
    s.dice = FixedDice(4, 5, 6, 6, 1, 1)
    s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "bomb", "to": HARWICH})
    # the bomber flew on until the British could reach it: the first hex within 3 of Dover
    d = s.decision
    assert (d.kind, d.side) == ("air_intercept", "allies")
    assert s.unit("GE-b1").location == SEA_OFF_ANTWERP
    via = next(h for h in s.map.labels_list if s.map.distance(h, CALAIS) == 1
               and s.map.distance(h, SEA_OFF_ANTWERP) == 1)
    s.apply({"kind": "intercept", "units": ["UK-f1"], "path": [CALAIS, via, SEA_OFF_ANTWERP]})
    # over Calais the Germans may counter-intercept the British fighter
    d = s.decision
    assert (d.kind, d.side) == ("air_intercept", "axis") and s.unit("UK-f1").location == CALAIS
    s.apply({"kind": "intercept", "units": ["GE-f1"]})
    assert s.unit("GE-f1").location == CALAIS
    s.apply({"kind": "pass"})            # no more German fighters: the battle over Calais
    rolls = [e for e in events(s, "air_combat")]
    assert [(r["data"]["attacker"], r["data"]["target"], r["data"]["target_number"], r["data"]["result"])
            for r in rolls[:2]] == [("UK-f1", "GE-f1", 4, "abort"), ("GE-f1", "UK-f1", 4, "none")]
    assert s.unit("GE-f1").props.get("aborted") and not s.unit("UK-f1").props.get("aborted")
    # the British fighter continued its mission and waits over the bomber's hex
    assert s.unit("UK-f1").location == SEA_OFF_ANTWERP
    d = s.decision
    assert (d.kind, d.side) == ("air_intercept", "allies")
    s.apply({"kind": "pass"})            # the battle with the bomber: 7 to hit, two 6s
    rolls = [e["data"] for e in events(s, "air_combat")][2:]
    assert [(r["attacker"], r["target"], r["target_number"], r["die"], r["result"]) for r in rolls] == [
        ("UK-f1", "GE-b1", 7, 6, "none"), ("UK-f1", "GE-b1", 7, 6, "none")]
    # the bomber continues to its target; the interceptors stay where they fought (14.1)
    assert s.unit("GE-b1").location == HARWICH and not s.unit("GE-b1").props.get("aborted")
    assert s.unit("UK-f1").location == SEA_OFF_ANTWERP and s.unit("GE-f1").location == CALAIS
    # 4B-C bombs Harwich, 4B-D brings everyone home
    s.apply({"kind": "end_step"})
    assert [e["data"].get("hex") for e in events(s, "installation_bombing")] == [HARWICH]
    for uid, home in (("GE-b1", FRANKFURT), ("GE-f1", BRUSSELS), ("UK-f1", DOVER)):
        assert s.unit(uid).location == home and not s.unit(uid).props.get("flight")


def test_eto_14_4_an_air_unit_intercepts_once_per_step(tmp_path):
    s = west(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-b2", "GE", "bomber", FRANKFURT),
                        unit("UK-f1", "UK", "fighter", DOVER)])
    to_air_offensive(s)
    s.dice = FixedDice(*([6] * 10), 1, 1, 1, 1)
    s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "bomb", "to": HARWICH})
    s.apply({"kind": "intercept", "units": ["UK-f1"], "path": air_missions.path_to(s, DOVER, SEA_OFF_ANTWERP)})
    s.apply({"kind": "pass"})
    assert s.decision.kind == "air-moves"
    s.apply({"kind": "fly", "units": ["GE-b2"], "mission": "bomb", "to": HARWICH})
    # UK-f1 already intercepted this step: the second bomber is never offered to it
    assert s.decision.kind == "air-moves" and s.unit("GE-b2").location == HARWICH


def test_eto_13_1_no_flight_over_neutral_land(tmp_path):
    s = west(tmp_path, [unit("GE-b1", "GE", "bomber", s_hex := "04357")])  # Zurich is Swiss: neutral
    why = air_missions.path_why_not(s, "axis", FRANKFURT, air_missions.path_to(s, FRANKFURT, s_hex), 12)
    assert why is not None and why.rule == "ETO-13.1"


def test_eto_1_4_grounded_zone_stops_flights(tmp_path):
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER)])
    s.tracks["grounded.moderate"] = True
    why = air_missions.unit_why_not(s, "allies", s.unit("UK-f1"), "attack_air")
    assert why is not None and why.rule == "ETO-1.4"


def test_eto_21_1_air_offensive_spends_an_offensive_and_refuses_minor_partners(tmp_path):
    s = west(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("UK-f1", "UK", "fighter", DOVER)])
    step_to(s, "offensive")
    begin_offensive(s, "axis")
    before = s.tracks["GE.offensives"]
    with pytest.raises(IllegalOrder, match="ETO-21.1"):
        s.apply({"kind": "air_offensive", "nations": ["RO"]})
    s.apply({"kind": "air_offensive", "nations": ["GE"]})
    assert s.tracks["GE.offensives"] == before - 1
    assert s.step.key == "air-moves"


# == ground support flown in attack sequence 4A (17.0) ===========================================
def test_eto_17_0_ground_support_flown_in_4a_b_counts_in_the_attack(tmp_path):
    """The attacker's bomber flies to the attacked hex in 4A-B; the rolled attack then counts its
    SP (17.3: capped at the 8 land SP) and the +1 air superiority DRM (17.2); 4A-G flies it home."""
    from eto_kit import begin_offensive as begin

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
                             unit("SU-a", "SU", "infantry", "08740"), unit("GE-bmb", "GE", "bomber", "08640")],
                  options={"air": True})
    base = min(airbases.friendly_bases(s, "axis"), key=lambda b: (s.map.distance(b, "08740"), b))
    assert s.map.distance(base, "08740") <= 12
    bomber = s.unit("GE-bmb")
    airbases.land(s, bomber, base)
    begin(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    step_to(s, "ground-support")
    s.apply({"kind": "fly", "units": ["GE-bmb"], "mission": "ground_support", "to": "08740"})
    assert bomber.location == "08740" and bomber.props["commit"] == "CC"      # 20.1: committed as it flies
    step_to(s, "designate")
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    ev = events(s, "combat")[-1]["data"]
    assert ev["attack"] == 8 + 6                      # 4-2 + 4-2 + the 6-12 bomber (under the 8 SP cap)
    assert any(t[2] == "ETO-17.2" and t[0] == 1 for t in ev["drms"])
    while any("node" in f and f["node"].startswith(("attack-4A", "combat-result")) for f in s.frames):
        d = s.decision
        if "end_step" in d.kinds or "pass" in d.kinds:
            s.apply({"kind": "end_step" if "end_step" in d.kinds else "pass"})
        else:
            s.apply(s.legal_orders_of(d.kinds[0])[0])
    assert bomber.location == base and not bomber.props.get("flight")     # 4A-G: back to base


# == attacks on airbases (14.5) and Malta (14.6) ===============================================
def _sweep(tmp_path, at: str, defender_at: str):  # noqa: ANN001, ANN202
    s = west(tmp_path, [unit("IT-f1", "IT", "fighter", "05679"), unit("IT-f2", "IT", "fighter", "05679"),
                        unit("UK-m", "UK", "fighter", defender_at)], 6, 6, 6, 6, 6, 6)
    step_to(s, "naval-air/sides/air-movement")
    assert s.decision.side == "axis"
    s.apply({"kind": "fly", "units": ["IT-f1"], "mission": "attack_air", "to": at})
    return s


def test_eto_14_5_fighters_attacking_an_airbase_fight_the_units_on_it(tmp_path):
    """A German fighter from Calais sweeps Dover; the British fighter on it cannot avoid combat
    (15.0) even though its owner declines to intercept: the battle is fought when the step ends
    (15.2 A), the defender declaring first.  Both miss (6s); round 2 as well (strength 4 >= 3)."""
    s = west(tmp_path, [unit("GE-f1", "GE", "fighter", CALAIS), unit("UK-f1", "UK", "fighter", DOVER)],
             6, 6, 6, 6)
    step_to(s, "naval-air/sides/air-movement")
    assert s.decision.side == "axis"
    s.apply({"kind": "fly", "units": ["GE-f1"], "mission": "attack_air", "to": DOVER})
    while s.decision.kind == "air_intercept":
        s.apply({"kind": "pass"})
    assert not events(s, "air_battle")
    s.apply({"kind": "end_step"})
    battles = events(s, "air_battle")
    assert [b["data"]["hex"] for b in battles] == [DOVER]
    rolls = [(e["data"]["attacker"], e["data"]["target_number"]) for e in events(s, "air_combat")][:2]
    assert rolls == [("UK-f1", 4 + 3 + 1 - 3), ("GE-f1", 4 + 3 - 3)]   # 15.4: +1 over its own base
    assert s.unit("GE-f1").location == CALAIS      # home again at the end of the step (13.0)


def test_eto_14_6_malta_fighters_fight_only_if_their_owner_intercepts(tmp_path):
    malta = "05582"
    s = _sweep(tmp_path, malta, malta)
    d = s.decision
    assert (d.kind, d.side) == ("air_intercept", "allies")   # Malta's fighter may take the fight ...
    while s.decision.kind == "air_intercept":
        s.apply({"kind": "pass"})                           # ... and declines it
    s.apply({"kind": "end_step"})
    assert not events(s, "air_battle")                      # 14.6: no combat over Malta


def test_eto_12_6_defender_intercepts_ground_support_without_committing_for_standby_units(tmp_path):
    """In the enemy's land offensive a Soviet 2-3/1 fighter from 09039 intercepts the German bomber
    flying ground support over 08740.  It defends standby (unactivated) land units, so it need not
    be committed (20.1); the bomber, flying in its own offensive, is CC (12.5).  The fighter's
    target number against the bomber is 2+1-0 = 3: a 3 aborts it, and the aborted bomber adds
    neither SP nor air superiority (17.2, 17.3)."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
                             unit("SU-a", "SU", "infantry", "08740"), unit("GE-bmb", "GE", "bomber", "08538"),
                             unit("SU-f", "SU", "fighter", "09039")], options={"air": True})
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    step_to(s, "ground-support")
    s.dice = FixedDice(3)
    s.apply({"kind": "fly", "units": ["GE-bmb"], "mission": "ground_support", "to": "08740"})
    while s.decision.kind == "air_intercept":
        if s.unit("GE-bmb").location == "08740" and not s.unit("SU-f").props.get("flight"):
            s.apply({"kind": "intercept", "units": ["SU-f"]})
        else:
            s.apply({"kind": "pass"})
    bomber, fighter = s.unit("GE-bmb"), s.unit("SU-f")
    assert fighter.location == "08740" and not fighter.props.get("commit")   # 20.1: standby defended
    assert bomber.props["commit"] == "CC" and bomber.props.get("aborted")
    from workbench.rulesets.eto import ground_support

    assert ground_support.superiority(s, "08740", "axis") == "defender"       # only the fighter counts


def test_eto_face_shows_air_counters_and_their_range(tmp_path):
    """The face gives the UI an air unit's strength/quality and range (12.1, 13.0), and its range
    for the air-range overlay."""
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER), unit("GE-b1", "GE", "bomber", FRANKFURT),
                        unit("GE-atp", "GE", "atp", FRANKFURT, points=2)])
    card = s.ruleset.unit_card(s, s.unit("UK-f1"))
    assert (card["strength"], card["movement"]) == ("4/3", "3")
    assert s.ruleset.unit_card(s, s.unit("GE-b1"))["strength"] == "6"
    assert s.ruleset.unit_card(s, s.unit("GE-atp"))["strength"] == "2 ATP"
    assert s.ruleset.air_range(s, s.unit("GE-b1")) == 12


def test_eto_13_2_air_units_neither_block_land_moves_nor_answer_to_hqs(tmp_path):
    """An enemy air unit alone in a hex does not stop land units entering it (they make it evacuate,
    13.2), and HQs never activate air units: they are committed, not activated (20.0, 22.0)."""
    from workbench.rulesets.eto import command
    from workbench.rulesets.eto.movement import occupied_by

    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER), unit("UK-i", "UK", "infantry", LONDON)])
    occ = occupied_by(s, "allies")
    assert not occ[s.map.index(DOVER)] and occ[s.map.index(LONDON)]
    assert not command.can_activate(s, s.unit("UK-f1"), "allies")
    assert command.can_activate(s, s.unit("UK-i"), "allies")


def test_eto_air_off_plays_the_land_game_without_air_counters(tmp_path):
    """``[options] air = false`` leaves a scenario's air units out of play."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("GE-bmb", "GE", "bomber", "08640")],
                  options={"air": False})
    assert "GE-bmb" not in s.units_by_id and "GE-a" in s.units_by_id


def test_eto_17_ground_support_by_clicking_in_the_workbench_shows_in_the_planner(tmp_path):
    """The workbench flies a ground-support mission by two clicks (the bomber's base, then the
    lit target hex: ETO-17.0) and the attack planner then shows the bomber's SP (17.3) and the
    +1 air superiority DRM (17.2)."""
    from workbench.ui import Workbench

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
                             unit("SU-a", "SU", "infantry", "08740"), unit("GE-bmb", "GE", "bomber", "08538")],
                  options={"air": True})
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    step_to(s, "ground-support")
    wb = Workbench(s)
    wb.click("08538")                                   # the bomber's base: it is selected
    assert wb.orders.selected == "GE-bmb" and "08740" in wb.orders.reach
    assert wb.orders.reach["08740"]["mission"] == "ground_support"
    wb.click("08740")                                   # the lit target: the mission flies
    assert wb.state.unit("GE-bmb").location == "08740"
    step_to(wb.state, "designate")
    wb.planner.set_target("08740")
    a = wb.planner.assess()
    assert a is not None
    assert any(rule == "ETO-17.3" for _who, _sp, rule in a.contributions)
    assert ("+1 DRM", "attacker air superiority", "ETO-17.2") in a.shifts
    assert "ETO-17.2" in wb.planner.result.value


def test_eto_21_4_air_offensive_bombs_installations_and_attacks_ships_in_4b_c(tmp_path):
    """21.4: "Three types of combat are possible during air offensives: air-to-air combat,
    air-naval combat, and bombing installations."  In one German air offensive a 6-12 bombs
    Dover (6 SP, column 6-8: 3+3 = 6) and another attacks the British DD in Harwich's port with
    16.2's three attacks: (4,4) = 8 against armor 8 with doubles sinks it, as in the Naval and Air
    phase; both are resolved in 4B-C, after the flights, and everyone is home in 4B-D."""
    from workbench.rulesets.eto import construction

    s = new_state(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-b2", "GE", "bomber", FRANKFURT),
                             unit("UK-DD", "UK", "dd", HARWICH, props={"in_port": True})],
                  first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    to_air_offensive(s)
    s.apply({"kind": "fly", "units": ["GE-b2"], "mission": "bomb", "to": DOVER})
    s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "attack_naval", "to": HARWICH})
    assert s.unit("GE-b1").location == HARWICH and s.unit("UK-DD").location == HARWICH
    s.dice = FixedDice(3, 3, 4, 4)
    s.apply({"kind": "end_step"})
    bombing = events(s, "installation_bombing")
    assert [(e["data"]["hex"], e["data"]["strength"], e["data"]["column"]) for e in bombing] == [(DOVER, 6, "6-8")]
    assert (DOVER in construction.destroyed_installations(s)) == bombing[0]["data"]["destroyed"]
    assert [(e["data"]["bomber"], e["data"]["ship"], e["data"]["result"]) for e in events(s, "air_naval")] == \
        [("GE-b1", "UK-DD", "sunk")]
    assert s.unit("UK-DD").location == "Force pool"
    assert s.unit("GE-b1").location == FRANKFURT and s.unit("GE-b2").location == FRANKFURT


def test_eto_14_5_bomber_attacks_stationary_ships_in_the_friendly_naval_and_air_phase(tmp_path):
    """14.5: "An air unit that does not change base or perform counter-interception can move to an
    enemy unit, intercepting and attacking that unit, during this phase.  Bombers can attack naval
    units."  In the German Naval and Air phase (Step 2, air-naval attacks) a 6-12 from Frankfurt
    flies to the British DD lying in Harwich's port and, at the step's end, sinks it with (4,4) = 8
    against armor 8; having attacked, it may not also change base in Step 4 (one mission, 12.3)."""
    s = new_state(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-f1", "GE", "fighter", BRUSSELS),
                             unit("UK-DD", "UK", "dd", HARWICH, props={"in_port": True})],
                  first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    step_to(s, "naval-air/sides/air-naval")
    if s.decision.side != "axis":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/air-naval")
    assert s.decision.side == "axis"
    s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "attack_naval", "to": HARWICH})
    while s.decision.kind == "air_intercept":
        s.apply({"kind": "pass"})
    s.dice = FixedDice(4, 4, *[3] * 40)
    s.apply({"kind": "end_step"})
    assert [(e["data"]["bomber"], e["data"]["ship"], e["data"]["result"]) for e in events(s, "air_naval")] == \
        [("GE-b1", "UK-DD", "sunk")]
    assert s.unit("UK-DD").location == "Force pool"
    step_to(s, "naval-air/sides/air-movement")
    assert (s.turn_label, s.decision.side, s.unit("GE-b1").location) == ("1940-08", "axis", FRANKFURT)
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "change_base", "to": BRUSSELS})
    assert e.value.rule == "ETO-12.3" and "one mission" in e.value.why
    s.apply({"kind": "fly", "units": ["GE-f1"], "mission": "change_base", "to": ANTWERP})  # it flew none


def test_eto_12_4_one_interception_mission_in_the_enemy_naval_and_air_phase(tmp_path):
    """12.4: "A friendly air unit can fly one interception mission during this phase": the British
    fighter at Dover intercepts the German bomber heading for Harwich's ships in Step 2 of the
    German Naval and Air phase; in Step 4 the German fighter rebasing from Calais is out of its
    reach for the rest of the phase (refused under ETO-12.4), though it is in range (Calais, 1)."""
    s = new_state(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-f1", "GE", "fighter", CALAIS),
                             unit("UK-f1", "UK", "fighter", DOVER),
                             unit("UK-DD", "UK", "dd", HARWICH, props={"in_port": True})],
                  first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    step_to(s, "naval-air/sides/air-naval")
    assert s.decision.side == "axis"
    s.dice = FixedDice(*[6] * 60)
    s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "attack_naval", "to": HARWICH})
    assert (s.decision.kind, s.decision.side) == ("air_intercept", "allies")
    s.apply({"kind": "intercept", "units": ["UK-f1"]})
    while s.decision.kind == "air_intercept":
        s.apply({"kind": "pass"})
    s.apply({"kind": "end_step"})
    step_to(s, "naval-air/sides/air-movement")
    assert (s.turn_label, s.decision.side, s.unit("UK-f1").location) == ("1940-08", "axis", DOVER)
    s.apply({"kind": "fly", "units": ["GE-f1"], "mission": "change_base", "to": BRUSSELS})
    assert s.decision.kind != "air_intercept"  # no British unit may intercept it: nothing is offered
    from workbench.rulesets.eto import air_interception

    fl = next(f for f in air_interception.air_flights.flights(s).values() if f["units"] == ["GE-f1"])
    r = air_interception.interceptor_why_not(s, s.unit("UK-f1"), fl)
    assert r and r.rule == "ETO-12.4" and "one interception mission" in r.why
    assert s.map.distance(DOVER, CALAIS) == 1


def test_eto_13_1_no_land_based_flight_into_an_ungridded_sea_or_across_neutral_land_hexsides(tmp_path):
    """13.1: "Sea Areas without Hex Grid.  Land-based aircraft cannot enter these areas"; "If it
    moves ... through an all-land hexside connecting two coastal hexes, it has invaded (39.0) the
    neutral country".  Iceland's coastal 01208 to 01309 crosses an all-land hexside (refused);
    Portugal's 00771 to 00772 is a coastal hop along the sea (allowed); 01207, in the North
    Atlantic, is out of bounds; Dover to the North Sea (gridded) is flown."""
    s = west(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT)])
    cases = {("01108", ("01208", "01309")): "ETO-13.1", ("01208", ("01207",)): "ETO-13.1",
             ("00870", ("00771", "00772")): None, (DOVER, ("03147", "03247")): None}
    for (start, path), rule in cases.items():
        why = air_missions.path_why_not(s, "axis", start, list(path), 12)
        assert (why.rule if why else None) == rule, (start, path, why)
    why = air_missions.path_why_not(s, "axis", "01108", ["01208", "01309"], 12)
    assert "all-land hexside" in why.why
    why = air_missions.path_why_not(s, "axis", "01208", ["01207"], 12)
    assert "North Atlantic" in why.why and "hex grid" in why.why
    assert s.map.hexes["sea_area"][s.map.index("03247")] == "North Sea"


def test_eto_13_6_the_first_plane_picks_up_the_second_on_its_base(tmp_path):
    """13.6: units from different bases "cannot all move to one hex individually and then continue
    on.  The first plane to take off must fly to the next base and 'pick up' the second unit ...
    Each air unit pays MPs only for the hexes it actually moves into."  The Frankfurt 6-12 flies
    to Calais, picks up the 4-4/3 fighter there, and both fly on to bomb Dover: the flight is 12
    hexes for the bomber (range 12), 1 for the fighter (range 4).  A fighter waiting in Brussels,
    5 hexes from Dover, cannot be picked up for it (ETO-13.0); and one order naming units of two
    bases without a pick-up is refused (ETO-13.6)."""
    s = west(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-f1", "GE", "fighter", CALAIS),
                        unit("GE-f2", "GE", "fighter", BRUSSELS)])
    to_air_offensive(s)
    b, f1 = s.unit("GE-b1"), s.unit("GE-f1")
    assert (air_missions.air_units.air_range(s, b), air_missions.air_units.air_range(s, f1)) == (12, 4)
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "fly", "units": ["GE-b1", "GE-f1"], "mission": "bomb", "to": DOVER})
    assert e.value.rule == "ETO-13.6"
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "bomb", "to": DOVER, "join": {BRUSSELS: ["GE-f2"]}})
    assert e.value.rule == "ETO-13.0" and s.map.distance(BRUSSELS, DOVER) == 5
    s.dice = FixedDice(*[1] * 10)
    s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "bomb", "to": DOVER, "join": {CALAIS: ["GE-f1"]}})
    pick = events(s, "air_pickup")
    assert [(p["data"]["hex"], p["data"]["units"]) for p in pick] == [(CALAIS, ["GE-f1"])]
    assert b.location == DOVER and f1.location == DOVER and b.props["flight"] == f1.props["flight"]
    assert s.map.distance(FRANKFURT, CALAIS) + s.map.distance(CALAIS, DOVER) == 12
    s.apply({"kind": "end_step"})
    assert events(s, "installation_bombing")[-1]["data"]["hex"] == DOVER
    assert (b.location, f1.location) == (FRANKFURT, CALAIS)   # each home to its own base


def test_eto_46_5_the_home_fighter_stays_over_britain_and_comes_first(tmp_path):
    """46.5 (optional): "the UK must keep one full-strength fighter unit in the United Kingdom ...
    quality of 3 ... can only fly missions over home country hexes ... If the fighter is depleted
    or eliminated, it must be rebuilt or replaced before any other British air steps can be
    constructed or rebuilt.\""""
    from eto_kit import scenario_text

    from workbench.engine import load_scenario
    from workbench.rulesets.eto import historical

    london, calais = "02948", "03049"
    path = tmp_path / "eto-46-5.toml"
    path.write_text(scenario_text([unit("UK-F1", "UK", "fighter", london), unit("UK-F2", "UK", "fighter", london),
                                   unit("UK-B", "UK", "bomber", "Force pool")],
                                  west=True, options={"air": True, "optional_rules": ["ETO-46.5"]}))
    s = load_scenario(path).new_state(seed=1)
    hf = historical.home_fighter(s)
    assert hf.id == "UK-F1"
    assert historical.fc_mission_why_not(s, [hf], [london, s.map.hex_of("Dover")]) is None
    why = historical.fc_mission_why_not(s, [hf], [london, calais])
    assert why.rule == "ETO-46.5" and "flies only over the United Kingdom" in why.why
    assert historical.fc_mission_why_not(s, [s.unit("UK-F2")], [calais]) is None  # any other fighter may go
    s.unit("UK-F2").props["home_fighter"] = True  # the player designates another
    assert historical.home_fighter(s).id == "UK-F2"
    for u in ("UK-F1", "UK-F2"):
        s.unit(u).reduced = True  # both depleted: no full-strength home fighter
    assert historical.home_fighter(s) is None
    assert historical.fc_build_why_not(s, s.unit("UK-B")).rule == "ETO-46.5"
    assert historical.fc_build_why_not(s, s.unit("UK-F1")) is None  # rebuilding it comes first


def test_eto_46_5_the_home_fighter_is_redesignated_by_order(tmp_path):
    """46.5: "The UK player can redesignate a different fighter as the home fighter at any time" -- the
    ``home_fighter`` order is offered in the air steps for each other qualifying fighter."""
    from eto_kit import scenario_text

    from workbench.engine import load_scenario
    from workbench.rulesets.eto import historical

    london = "02948"
    path = tmp_path / "eto-46-5b.toml"
    path.write_text(scenario_text([unit("UK-F1", "UK", "fighter", london), unit("UK-F2", "UK", "fighter", london),
                                   unit("UK-F3", "UK", "fighter", "03248")],
                                  first="1940-08", last="1940-09", west=True,
                                  options={"air": True, "optional_rules": ["ETO-46.5"]}))
    s = load_scenario(path).new_state(seed=1)
    step_to(s, "naval-air/sides/air-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    assert {"kind": "home_fighter", "unit": "UK-F2"} in s.legal_orders()
    assert {"kind": "home_fighter", "unit": "UK-F3"} not in s.legal_orders()   # Calais: not in the UK
    with pytest.raises(IllegalOrder, match="ETO-46.5"):
        s.apply({"kind": "home_fighter", "unit": "UK-F1"})                      # already the home fighter
    s.apply({"kind": "home_fighter", "unit": "UK-F2"})
    assert historical.home_fighter(s).id == "UK-F2"
