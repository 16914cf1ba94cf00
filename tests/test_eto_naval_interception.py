"""ETO naval interception (8.0-8.3, 8.7): offers as a voyage enters a space, the attempt, evasion,
battles, and the Naval Attacks step's searches."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import naval_units

HARWICH, SCAPA = "03246", "02830"


def _state(tmp_path, *units):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [unit("UK-DD1", "UK", "dd", HARWICH, props={"in_port": True}),
                             unit("UK-DD2", "UK", "dd", HARWICH, props={"in_port": True}), *units],
                  west=True, options={"naval": True})
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    return s


def _sail(s):  # noqa: ANN001, ANN202
    s.apply({"kind": "sail", "units": ["UK-DD1", "UK-DD2"], "path": ["North Sea", SCAPA], "port": True})


def _pass_all(s):  # noqa: ANN001, ANN202
    """8.2: the mover may be offered again in each space it enters within range (Scapa Flow is a
    coastal hex of the North Sea): decline every offer."""
    while s.decision and s.decision.kind == "naval_intercept":
        s.apply({"kind": "pass"})


def test_eto_8_2_entering_a_space_in_range_offers_an_interception_then_goes_on(tmp_path):
    """8.2: the mover stops in the first space within the enemy's range (the North Sea, where the
    German CA stands) and the Axis may declare an interception; if it passes the voyage goes on."""
    s = _state(tmp_path, unit("GE-CA", "GE", "ca", "North Sea", name="Admiral Hipper"))
    _sail(s)
    d = s.decision
    assert d.side == "axis" and d.kind == "naval_intercept" and d.rule == "ETO-8.2"
    assert s.units_by_id["UK-DD1"].location == "North Sea"
    assert {"kind": "intercept_naval", "units": ["GE-CA"]} in s.legal_orders()
    _pass_all(s)
    assert s.units_by_id["UK-DD1"].location == SCAPA and naval_units.in_port(s.units_by_id["UK-DD1"])


def test_eto_8_7_a_faster_stack_evades_a_slower_finder(tmp_path):
    """8.4/8.7: the CA (speed 12) finds the DDs on a natural 6, but the DDs (14) are faster and
    outgunned (3 against 2): they evade and sail on; no battle."""
    s = _state(tmp_path, unit("GE-CA", "GE", "ca", "North Sea", name="Admiral Hipper"))
    _sail(s)
    s.dice = FixedDice(6)
    s.apply({"kind": "intercept_naval", "units": ["GE-CA"]})
    assert events(s, "evaded") and not events(s, "naval_battle")
    _pass_all(s)
    assert s.units_by_id["UK-DD2"].location == SCAPA


def test_eto_8_4_a_finding_group_fights_at_once(tmp_path):
    """8.4/9.0: two German DDs (as fast as the British: no evasion) find on 6; the battle follows at
    once: round 1 (gunnery-1 sub-round), British first in their own... each side fires twice."""
    s = _state(tmp_path, unit("GE-DD1", "GE", "dd", "North Sea"), unit("GE-DD2", "GE", "dd", "North Sea"))
    _sail(s)
    s.dice = FixedDice(6, *([1, 2] * 8))
    s.apply({"kind": "intercept_naval", "units": ["GE-DD1", "GE-DD2"]})
    assert events(s, "naval_battle") and len([e for e in events(s, "roll") if e["rule"] == "ETO-9.2"]) == 8
    assert s.units_by_id["GE-DD1"].location == "North Sea"


def test_eto_8_4_a_failed_search_leaves_the_mover_alone(tmp_path):
    """8.4: 1d6 + 1 (one group) needs 7: a 5 misses; the voyage goes on after the pass."""
    s = _state(tmp_path, unit("GE-DD1", "GE", "dd", "North Sea"), unit("GE-DD2", "GE", "dd", "North Sea"))
    _sail(s)
    s.dice = FixedDice(5)
    s.apply({"kind": "intercept_naval", "units": ["GE-DD1", "GE-DD2"]})
    assert [e["data"]["found"] for e in events(s, "naval_search")] == [False]
    assert {"kind": "intercept_naval", "units": ["GE-DD1", "GE-DD2"]} not in s.legal_orders()   # 8.5
    _pass_all(s)
    assert s.units_by_id["UK-DD1"].location == SCAPA


def test_eto_8_3_searching_enemy_ships_at_rest_in_the_naval_attacks_step(tmp_path):
    """8.3: in its Naval Attacks step a side attacks enemy stacks at rest within its range."""
    s = _state(tmp_path, unit("GE-DD1", "GE", "dd", "North Sea"))
    s.apply({"kind": "end_step"})
    step_to(s, "naval-air/sides/naval-attacks")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/naval-attacks")
    order = {"kind": "naval_search", "units": ["UK-DD1", "UK-DD2"], "target": "North Sea"}
    assert order in s.legal_orders()
    s.dice = FixedDice(6, *([1, 2] * 8))
    s.apply(order)
    assert s.units_by_id["UK-DD1"].location == "North Sea" and events(s, "naval_battle")


def test_eto_9_6_battle_plans_ride_with_the_orders_secret_and_simultaneous(tmp_path):
    """9.6 (GAP-24): the mover's plan is given with its sail order (withdraw all after round 1),
    the interceptor's with its intercept_naval order (no pursuit): neither sees the other's.  Round
    1 (four misses), both plans revealed: the British withdraw, the Germans do not pursue: over."""
    s = _state(tmp_path, unit("GE-DD1", "GE", "dd", "North Sea"), unit("GE-DD2", "GE", "dd", "North Sea"))
    s.apply({"kind": "sail", "units": ["UK-DD1", "UK-DD2"], "path": ["North Sea", SCAPA], "port": True,
             "withdraw_all": True})
    s.dice = FixedDice(6, *([1, 2] * 4))
    s.apply({"kind": "intercept_naval", "units": ["GE-DD1", "GE-DD2"], "pursue": False, "targets": ["UK-DD2"]})
    shots = [e for e in events(s, "roll") if e["rule"] == "ETO-9.2"]
    assert len(shots) == 4 and [e["data"]["round"] for e in events(s, "naval_round")] == [1]
    assert s.units_by_id["UK-DD1"].props.get("withdrew") and s.units_by_id["UK-DD2"].props.get("withdrew")
    assert [e["purpose"].split(" fires at ")[1][:6] for e in shots if e["purpose"].startswith("GE")] == ["UK-DD2", "UK-DD1"]


def test_eto_9_6_plans_name_only_the_stacks_own_units(tmp_path):
    s = _state(tmp_path, unit("GE-DD1", "GE", "dd", "North Sea"), unit("GE-DD2", "GE", "dd", "North Sea"))
    with pytest.raises(IllegalOrder, match="ETO-9.6"):
        s.apply({"kind": "sail", "units": ["UK-DD1"], "path": ["North Sea"], "withdraw": ["GE-DD1"]})


def test_eto_11_3_an_intercepting_submarine_attacks_by_its_own_procedure(tmp_path):
    """11.3 through intercept_naval: a German SS finds the two British DDs (6); the British roll 1
    (<= 2 DD/DE): both DDs fire first (miss), the sub attacks once (miss) and, as its order says,
    withdraws: three shots in all, no second round."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", "North Sea"))
    _sail(s)
    s.dice = FixedDice(6, 1, 1, 2, 1, 2, 1, 2)
    s.apply({"kind": "intercept_naval", "units": ["GE-SS"], "withdraw_all": True})
    assert [e["data"]["detected"] for e in events(s, "sub_detection")] == [True]
    assert len([e for e in events(s, "roll") if e["rule"] == "ETO-9.2"]) == 3
    assert s.units_by_id["GE-SS"].props.get("withdrew")


def test_eto_8_8_8_9_escort_box_ships_and_uboats_never_intercept(tmp_path):
    """8.8: Allied ships in a convoy escort box cannot intercept Axis units; 8.9: U-boats never
    intercept.  Only the German destroyers in the North Sea are offered the British voyage."""
    from workbench.rulesets.eto import naval_interception

    s = _state(tmp_path, unit("GE-DD1", "GE", "dd", "North Sea"), unit("GE-UB", "GE", "uboat", "North Sea"),
               unit("UK-DE", "UK", "de", "North Atlantic convoy escort box"))
    u = s.units_by_id
    assert naval_interception.interceptor_why_not(s, u["GE-UB"], "North Sea", "axis").rule == "ETO-8.9"
    assert naval_interception.interceptor_why_not(s, u["UK-DE"], "North Atlantic", "allies").rule == "ETO-8.8"
    assert naval_interception.interceptor_why_not(s, u["GE-DD1"], "North Sea", "axis") is None
    _sail(s)
    assert [o["units"] for o in s.legal_orders() if o["kind"] == "intercept_naval"] == [["GE-DD1"]]


def _axis_sub_at_sea(tmp_path, *british):  # noqa: ANN001, ANN202
    """A German SS at Wilhelmshaven in the Axis first naval movement step, British ships at Harwich."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [unit("GE-SS", "GE", "ss", "Wilhelmshaven", props={"in_port": True}), *british],
                  west=True, options={"naval": True})
    wilhelmshaven = s.map.hex_of("Wilhelmshaven")
    s.units_by_id["GE-SS"].location = wilhelmshaven
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "axis":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    s.apply({"kind": "sail", "units": ["GE-SS"], "path": ["North Sea"]})
    return s


def test_eto_11_2_a_moving_submarine_is_intercepted_only_by_dd_de_with_a_cve(tmp_path):
    """11.2: "SS units can't be intercepted while they are moving (exception: ... DD/DE stacked with
    a CVE)": two DDs at Harwich let the sub through; with a CVE among them they may go after it,
    and a BB in the stack stays behind."""
    dds = [unit(f"UK-DD{k}", "UK", "dd", HARWICH, props={"in_port": True}) for k in (1, 2)]
    s = _axis_sub_at_sea(tmp_path / "a", *dds)
    assert s.decision.kind != "naval_intercept" and s.units_by_id["GE-SS"].location == "North Sea"
    cve = unit("UK-CVE", "UK", "cve", HARWICH, props={"in_port": True})
    bb = unit("UK-BB", "UK", "bb", HARWICH, props={"in_port": True}, name="Nelson")
    s = _axis_sub_at_sea(tmp_path / "b", *dds, cve, bb)
    assert s.decision.kind == "naval_intercept" and s.decision.side == "allies"
    offers = [sorted(o["units"]) for o in s.legal_orders() if o["kind"] == "intercept_naval"]
    assert offers == [["UK-CVE", "UK-DD1", "UK-DD2"]]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "intercept_naval", "units": ["UK-BB", "UK-CVE", "UK-DD1"]})
    assert exc.value.rule == "ETO-11.2" and "BB cannot take part" in exc.value.why


def test_eto_11_1_11_3_a_sub_sharing_an_area_is_a_stack_of_its_own(tmp_path):
    """11.1/11.3: a German SS in the North Sea with a German DD is not stacked with it: "an SS unit
    always intercepts by itself", so the Axis is offered the DD and the SS as two stacks and may
    not send them together.  The sub's search has its +1 and no bonus from the DD (1d6 + 1 group
    + 1 SS: a 5 finds on 7)."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", "North Sea"), unit("GE-DD1", "GE", "dd", "North Sea"))
    _sail(s)
    offers = sorted(o["units"] for o in s.legal_orders() if o["kind"] == "intercept_naval")
    assert offers == [["GE-DD1"], ["GE-SS"]]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "intercept_naval", "units": ["GE-SS", "GE-DD1"]})
    assert exc.value.rule == "ETO-11.3" and "by itself" in exc.value.why
    s.dice = FixedDice(5, 6, 1, 1, 1, 1)
    s.apply({"kind": "intercept_naval", "units": ["GE-SS"], "withdraw_all": True})
    assert [e["data"]["found"] for e in events(s, "naval_search")] == [True]
    assert events(s, "naval_search")[0]["data"]["group"] == ["GE-SS"]
    search = [e for e in events(s, "roll") if e["rule"] == "ETO-8.4"][0]["purpose"]
    assert search.endswith("(+1 1 searching group(s), +1 the searcher is a submarine)")


def test_eto_11_1_8_3_an_enemy_sub_at_rest_in_an_area_is_searched_as_its_own_stack(tmp_path):
    """11.1/8.3: in the British Naval Attacks step a German SS and DD at rest in the North Sea are
    two stacks: one naval_search goes after the DD, another (naming the sub) after the SS; the
    DD, not in the target stack, may counter-intercept the searchers as they move in (8.2)."""
    s = _state(tmp_path, unit("GE-SS", "GE", "ss", "North Sea"), unit("GE-DD1", "GE", "dd", "North Sea"))
    s.apply({"kind": "end_step"})
    step_to(s, "naval-air/sides/naval-attacks")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/naval-attacks")
    legal = [o for o in s.legal_orders() if o["kind"] == "naval_search"]
    assert {"kind": "naval_search", "units": ["UK-DD1", "UK-DD2"], "target": "North Sea"} in legal
    assert {"kind": "naval_search", "units": ["UK-DD1", "UK-DD2"], "target": "North Sea", "sub": "GE-SS"} in legal
    s.dice = FixedDice(1)   # a natural 1 never finds
    s.apply({"kind": "naval_search", "units": ["UK-DD1", "UK-DD2"], "target": "North Sea", "sub": "GE-SS"})
    assert s.decision.kind == "naval_intercept" and s.decision.side == "axis"   # 8.2: the DD may counter
    s.apply({"kind": "pass"})
    search = events(s, "naval_search")[-1]["data"]
    assert search["target"] == ["GE-SS"] and not search["found"]


@pytest.mark.parametrize("mission", ["assault", "transport"])
def test_eto_8_6_an_amphibious_assault_is_intercepted_automatically_in_its_hex(tmp_path, mission):
    """8.6: "Enemy naval units performing an amphibious assault can be automatically intercepted in
    the coastal hex where the assault will take place": the STPs carrying an assault force from
    Dover to Calais are found there by the German DDs of the English Channel with no search roll
    (and cannot evade them, 8.7); the same STPs carrying a transport need the 8.4 roll (a 6)."""
    from workbench.rulesets.eto import sea_transport

    dover, calais = "03148", "03248"
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [unit("UK-stp1", "UK", "stp", dover, props={"points": 4, "in_port": True}),
                             unit("UK-inf", "UK", "infantry", dover),
                             unit("GE-DD1", "GE", "dd", "English Channel"), unit("GE-DD2", "GE", "dd", "English Channel")],
                  west=True, options={"naval": True})
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    sea_transport.embark(s, [s.units_by_id["UK-stp1"]], [s.units_by_id["UK-inf"]], mission)
    s.apply({"kind": "sail", "units": ["UK-stp1"], "path": [calais]})
    assert s.decision.kind == "naval_intercept" and s.units_by_id["UK-stp1"].location == calais
    s.dice = FixedDice(*([6] if mission == "transport" else []), *([1, 2] * 8))
    s.apply({"kind": "intercept_naval", "units": ["GE-DD1", "GE-DD2"]})
    searches = [e for e in events(s, "roll") if e["rule"] == "ETO-8.4"]
    assert len(searches) == (1 if mission == "transport" else 0)
    assert events(s, "naval_battle") and not events(s, "evaded")
    assert s.units_by_id["GE-DD1"].location == calais


@pytest.mark.parametrize("space", ["North Atlantic", "North Sea"])
def test_eto_8_7_evaded_carrier_air_still_attacks_in_an_ungridded_area(tmp_path, space):
    """8.7: "If the interception is taking place in a sea space without a hex grid and the evaded
    group contains any naval air units, those air units can still attack the evading stack."  The
    German DDs (speed 14) evade HMS Norfolk and Illustrious (slower, more gunnery) found on a 6;
    in the North Atlantic (no grid) the carrier's naval air (strength 2) still makes its two
    attacks on them (16.2), in the gridded North Sea nothing follows the evasion; either way the DDs sail on."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [unit("GE-DD1", "GE", "dd", "02630"), unit("GE-DD2", "GE", "dd", "02630"),
                             unit("UK-CA", "UK", "ca", space, name="Norfolk"),
                             unit("UK-CV", "UK", "cv", space, name="Illustrious"),
                             unit("UK-air", "UK", "naval_air", space, props={"carrier": "UK-CV"})],
                  west=True, options={"naval": True, "air": True})
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "axis":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    s.apply({"kind": "sail", "units": ["GE-DD1", "GE-DD2"], "path": [space]})
    if space == "North Sea":  # 8.5/16.5: in a gridded area the carrier air may intercept by 14.0 first
        assert s.decision.kind == "air_intercept_ships" and s.decision.side == "allies"
        s.apply({"kind": "pass"})
    assert s.decision.kind == "naval_intercept" and s.decision.side == "allies"
    s.dice = FixedDice(6, *([1, 2] * 10))
    s.apply({"kind": "intercept_naval", "units": ["UK-CA", "UK-CV"]})
    assert events(s, "evaded") and not events(s, "naval_battle")
    bombs = [e for e in events(s, "roll") if e["rule"] == "ETO-16.2"]
    assert len(bombs) == (2 if space == "North Atlantic" else 0)   # strength 2: two attacks (16.2)
    assert all("UK-air" in e["purpose"] for e in bombs)
    _pass_all(s)
    assert s.units_by_id["GE-DD1"].location == space


def test_eto_8_0_8_2_8_3_counter_interception_chains_resolve_innermost_first(tmp_path):
    """8.0/8.2: "Naval units intercepting an enemy stack can be counter-intercepted themselves (by
    enemy naval units not in the target stack) as they move to intercept.  These counter-
    interceptors are also subject to interception, and so on."  The British DDs sail into the North
    Sea; Admiral Hipper moves to intercept them; Nelson (in Scapa Flow, in range) counter-intercepts
    Hipper; the German DD in the North Sea may counter-intercept Nelson.  The DDs, the target, may
    not counter (8.2: not "until all subsequent interceptions ... are resolved").  The chain
    resolves innermost first: the German DD passes, Nelson searches for Hipper (a natural 1 fails),
    then Hipper, still afloat, goes on to search for the DDs (1 again).  8.3: Nelson counter-
    intercepted in its own side's naval movement step and may not sail afterwards."""
    s = _state(tmp_path, unit("GE-CA", "GE", "ca", "North Sea", name="Admiral Hipper"),
               unit("GE-DD9", "GE", "dd", "North Sea"),
               unit("UK-BB", "UK", "bb", SCAPA, name="Nelson", props={"in_port": True}))
    _sail(s)
    assert s.decision.side == "axis"
    s.apply({"kind": "intercept_naval", "units": ["GE-CA"]})
    d = s.decision
    assert d.kind == "naval_intercept" and d.side == "allies" and d.rule == "ETO-8.0"
    assert [o["units"] for o in s.legal_orders() if o["kind"] == "intercept_naval"] == [["UK-BB"]]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "intercept_naval", "units": ["UK-DD1"]})
    assert exc.value.rule == "ETO-8.0"
    s.apply({"kind": "intercept_naval", "units": ["UK-BB"]})
    d = s.decision
    assert d.side == "axis" and d.rule == "ETO-8.0"
    assert [o["units"] for o in s.legal_orders() if o["kind"] == "intercept_naval"] == [["GE-DD9"]]
    s.dice = FixedDice(1, 1)
    s.apply({"kind": "pass"})                      # no counter-counter-interception
    assert [(e["data"]["group"], e["data"]["found"]) for e in events(s, "naval_search")] == [(["UK-BB"], False)]
    assert s.decision.side == "allies"
    s.apply({"kind": "pass"})                      # no more counters: Hipper goes on
    searches = [(e["data"]["group"], e["data"]["target"], e["data"]["found"]) for e in events(s, "naval_search")]
    assert searches == [(["UK-BB"], ["GE-CA"], False), (["GE-CA"], ["UK-DD1", "UK-DD2"], False)]
    assert s.decision.side == "axis"
    _pass_all(s)
    assert s.units_by_id["UK-DD1"].location == SCAPA
    from workbench.rulesets.eto import naval_movement

    why = naval_movement.sail_why_not(s, "allies", [s.units_by_id["UK-BB"]], [SCAPA], True)
    assert why is not None and why.rule == "ETO-7.1"


def test_eto_8_2_a_counter_intercepted_stack_that_withdraws_breaks_off(tmp_path):
    """8.2: "If the target of a counter-interception survives the attack on itself, it can either
    continue to its original target or break off."  HMS Norfolk (a CA, as fast as Hipper: no evasion) finds
    Admiral Hipper (a 6) as it moves
    on the British DDs; Hipper's order said withdraw_all (9.6): after the battle it breaks off
    (ruling: a stack that withdrew goes no further) and the DDs are never searched for."""
    s = _state(tmp_path, unit("GE-CA", "GE", "ca", "North Sea", name="Admiral Hipper"),
               unit("UK-CA", "UK", "ca", SCAPA, name="Norfolk", props={"in_port": True}))
    _sail(s)
    s.apply({"kind": "intercept_naval", "units": ["GE-CA"], "withdraw_all": True})
    s.dice = FixedDice(6, *([1, 2] * 10))
    s.apply({"kind": "intercept_naval", "units": ["UK-CA"]})
    assert events(s, "naval_battle") and not events(s, "evaded") and s.units_by_id["GE-CA"].props.get("withdrew")
    s.apply({"kind": "pass"})
    assert events(s, "break_off")
    assert [e["data"]["group"] for e in events(s, "naval_search")] == [["UK-CA"]]
    _pass_all(s)
    assert s.units_by_id["UK-DD1"].location == SCAPA and not s.units_by_id["UK-DD1"].reduced


def test_eto_7_1_interception_moves_in_the_enemy_phase_cost_no_mp(tmp_path):
    """7.1: "Naval units can perform limited movement during the enemy Naval and Air phase to
    attempt the interception of moving enemy naval units ... Interception movement never costs
    movement points."  Hipper, at Wilhelmshaven, moves into the North Sea to intercept the British
    DDs (a 1: no find) and stays there; in the German phase it still sails its full allowance
    (12): North Sea -> Norwegian Sea -> Barents Sea is 10 MP, allowed."""
    from workbench.rulesets.eto import naval_movement

    s = _state(tmp_path, unit("GE-CA", "GE", "ca", "Wilhelmshaven", name="Admiral Hipper", props={"in_port": True}))
    ca = s.units_by_id["GE-CA"]
    ca.location = s.map.hex_of("Wilhelmshaven")
    _sail(s)
    assert {"kind": "intercept_naval", "units": ["GE-CA"]} in s.legal_orders()
    real, s.dice = s.dice, FixedDice(1)
    s.apply({"kind": "intercept_naval", "units": ["GE-CA"]})
    s.dice = real
    assert ca.location == "North Sea"
    _pass_all(s)
    s.apply({"kind": "end_step"})
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "axis":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    assert s.decision.side == "axis"
    assert naval_movement.allowance(s, [ca]) == 12
    assert naval_movement.sail_why_not(s, "axis", [ca], ["Norwegian Sea", "Barents Sea"], False) is None
