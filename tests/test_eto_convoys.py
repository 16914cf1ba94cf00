"""ETO strategic war at sea: escorts, U-boats, surface raiders and who pays (4.0-4.4, 5.0-5.9)."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, new_state, unit

from workbench.rulesets.eto import convoys, naval_units, surface_raiders, uboats, values

NA, SA, ARC, USC = ("North Atlantic convoy escort box", "South Atlantic convoy escort box",
                    "Arctic convoy escort box", "US coast convoy escort box")


def _state(tmp_path, *units, tracks=None, weather="F", first="1941-07"):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, list(units), west=True, options={"naval": True, "air": True},
                  tracks={"UK.eps": 50, "US.eps": 50, **(tracks or {})}, first=first,
                  last=first[:5] + f"{int(first[5:]) % 12 + 1:02d}" if first[5:] != "12" else first)
    s.tracks["weather"] = weather
    return s


def _escorts(box, n_dd, n_cv=0, prefix="NA"):  # noqa: ANN001, ANN202
    out = [unit(f"UK-{prefix}-DD{i}", "UK", "dd", box) for i in range(n_dd)]
    for i in range(n_cv):
        out.append(unit(f"UK-{prefix}-CV{i}", "UK", "cve", box))
        out.append(unit(f"UK-{prefix}-air{i}", "UK", "naval_air_light", box, props={"carrier": f"UK-{prefix}-CV{i}"}))
    return out


def test_eto_5_7_the_north_atlantic_example(tmp_path):
    """5.7: 24 DD + 2 carriers in the North Atlantic box = 32 units = 4 stacks; 4 DD + 1 carrier
    in the South Atlantic box = 1 stack, +2 projected = 3.  U-boats then need 2d6 >= 5 in the North
    Atlantic (4 stacks: 2d6 - 4 >= 1) and >= 4 in the South.  A (5,5) success in the North Atlantic
    damages a DD after all attacks: 31.5 units = 3 stacks, and the South Atlantic falls to 2."""
    s = _state(tmp_path, *_escorts(NA, 24, 2), *_escorts(SA, 4, 1, "SA"),
               unit("GE-U1", "GE", "uboat", "North Atlantic"), unit("GE-U2", "GE", "uboat", "South Atlantic"))
    assert convoys.stacks(s, "north_atlantic") == 4 and convoys.stacks(s, "south_atlantic") == 3
    assert convoys.stacks(s, "us_coast") == 2 and convoys.stacks(s, "arctic") == 1
    s.dice = FixedDice(5, 5, 4, 2, 1)   # NA: (5,5) succeeds, loss die 4; SA: (2,1) = 3 - 3 = 0 fails
    out = uboats.uboat_step(s)
    na = next(r for r in out if r["route"] == "north_atlantic")
    assert na["attacks"][0]["success"] and na["attacks"][0]["doubles"] and na["eps"] == 4
    sa = next(r for r in out if r["route"] == "south_atlantic")
    assert not sa["attacks"][0]["success"] and naval_units.damaged(s.units_by_id["GE-U2"])
    hit = [u for u in convoys.escorts(s, "north_atlantic") if naval_units.damaged(u)]
    assert len(hit) == 1 and naval_units.kind(s, hit[0]) == "DD"
    assert convoys.stacks(s, "north_atlantic") == 3 and convoys.stacks(s, "south_atlantic") == 2
    assert s.tracks["UK.eps"] == 50 - 4


def test_eto_5_2_a_failed_attack_damages_then_sinks_the_uboat_for_good(tmp_path):
    """5.2: modified 0 or less: damaged if undamaged, sunk if damaged; a sunk U-boat is
    permanently removed.  Two escort stacks: (1,1) = 2 - 2 = 0 fails."""
    s = _state(tmp_path, *_escorts(NA, 16), unit("GE-U1", "GE", "uboat", "North Atlantic"))
    u = s.units_by_id["GE-U1"]
    s.dice = FixedDice(1, 1)
    uboats.uboat_step(s)
    assert naval_units.damaged(u)
    s.dice = FixedDice(1, 1)
    uboats.uboat_step(s)
    assert u.location == values.PERMANENT


@pytest.mark.parametrize(("route_area", "weather", "schnorkel", "damaged", "loss"), [
    ("North Atlantic", "F", False, False, 3),      # the die alone
    ("South Atlantic", "F", False, False, 2),      # -1 per success in the South Atlantic
    ("US coastal box", "F", False, False, 4),      # +1 on the US coast route
    ("North Atlantic", "W", False, False, 4),      # +1 in the severe zone in W weather
    ("North Atlantic", "F", True, False, 5),       # schnorkel: +2 EPs
    ("North Atlantic", "F", False, True, 2),       # -1 for a damaged U-boat
])
def test_eto_5_3_ep_loss_modifiers(tmp_path, route_area, weather, schnorkel, damaged, loss):
    """5.3/5.9: a die per success (3 here), -1 per damaged successful U-boat, -1 South Atlantic,
    +1 US coast, +1 severe zone in W, +2 EPs per schnorkel U-boat.  No escorts: (4,3) succeeds."""
    props = {"schnorkel": True} if schnorkel else {}
    s = _state(tmp_path, unit("GE-U1", "GE", "uboat", route_area, props=props, reduced=damaged),
               tracks={"US.at_war": 1}, weather=weather,
               first="1942-02" if route_area == "US coastal box" else "1941-07")  # 36.4: US coast from 1942
    s.dice = FixedDice(4, 3, 3)
    out = uboats.uboat_step(s)
    assert out[0]["eps"] == loss


def test_eto_5_9_schnorkel_adds_two_to_the_attack(tmp_path):
    """5.9: +2 to the attack roll: against 5 stacks, (2,2) = 4 - 5 + 2 = 1 still succeeds."""
    s = _state(tmp_path, *_escorts(NA, 40), unit("GE-U1", "GE", "uboat", "North Atlantic", props={"schnorkel": True}))
    s.dice = FixedDice(2, 2, 1)
    out = uboats.uboat_step(s)
    assert out[0]["attacks"][0]["success"] and out[0]["attacks"][0]["modified"] == 1


def test_eto_5_5_a_twelve_may_strike_a_carrier_other_doubles_a_dd_or_de(tmp_path):
    """5.5: a 12 hits any escort, CV/CVE included (the German takes the carrier: 4 units off);
    other doubles hit a DD or DE."""
    s = _state(tmp_path, *_escorts(NA, 8, 1), unit("GE-U1", "GE", "uboat", "North Atlantic"))
    s.dice = FixedDice(6, 6, 2)
    uboats.uboat_step(s)
    assert naval_units.damaged(s.units_by_id["UK-NA-CV0"])
    s2 = _state(tmp_path / "b", *_escorts(NA, 8, 1), unit("GE-U1", "GE", "uboat", "North Atlantic"))
    s2.dice = FixedDice(3, 3, 2)
    uboats.uboat_step(s2)
    assert not naval_units.damaged(s2.units_by_id["UK-NA-CV0"])
    assert sum(naval_units.damaged(u) for u in convoys.escorts(s2, "north_atlantic")) == 1


def test_eto_5_5_an_unescorted_route_takes_its_hit_from_the_north_atlantic_uk_choice(tmp_path):
    """5.5: with no escorts in the attacked box, a North Atlantic escort takes the hit and the
    UK picks it: a damaging, not a sinking (the damaged DD is spared)."""
    s = _state(tmp_path, *_escorts(NA, 8), unit("GE-U1", "GE", "uboat", "South Atlantic"))
    s.units_by_id["UK-NA-DD0"].reduced = True
    s.dice = FixedDice(2, 2, 1)
    uboats.uboat_step(s)
    damaged = [u.id for u in convoys.escorts(s, "north_atlantic") if naval_units.damaged(u)]
    assert "UK-NA-DD0" in damaged and len(damaged) == 2


def test_eto_5_8_deployment_limits(tmp_path):
    """5.8: at most half the U-boats in play on the Arctic or US coast route; at most two on the
    South Atlantic."""
    s = _state(tmp_path, *[unit(f"GE-U{i}", "GE", "uboat", "North Atlantic") for i in range(4)],
               unit("GE-A1", "GE", "uboat", "Barents Sea"), unit("GE-A2", "GE", "uboat", "Barents Sea"),
               unit("GE-S1", "GE", "uboat", "South Atlantic"), unit("GE-S2", "GE", "uboat", "South Atlantic"))
    u = s.units_by_id["GE-U0"]
    assert uboats.deployment_why_not(s, u, "arctic") is None                # 3 of 8
    s.units_by_id["GE-U1"].location = "Barents Sea"
    s.units_by_id["GE-U2"].location = "Barents Sea"
    assert uboats.deployment_why_not(s, u, "arctic").rule == "ETO-5.8"      # 5 of 8
    assert "no more than 2" in uboats.deployment_why_not(s, u, "south_atlantic").why


def test_eto_4_2_raider_loss_gunnery_carrier_and_south_atlantic(tmp_path):
    """4.2: 1d6 + the raiders' gunnery, +4 with a CV carrying naval air, -1 per raider in the South
    Atlantic.  Bismarck (5) and Hipper (3) in the North Atlantic, die 2: 10.  The same pair in the
    South Atlantic: 8.  Graf Zeppelin with air adds 4."""
    s = _state(tmp_path, unit("GE-BB", "GE", "bb", "North Atlantic", name="Bismarck"),
               unit("GE-CA", "GE", "ca", "North Atlantic", name="Admiral Hipper"),
               unit("GE-CV", "GE", "cv", "South Atlantic", name="Graf Zeppelin"),
               unit("GE-air", "GE", "naval_air", "South Atlantic", props={"carrier": "GE-CV"}))
    s.dice = FixedDice(2, 2)
    out = surface_raiders.raider_step(s)
    assert [(r["route"], r["eps"]) for r in out] == [("north_atlantic", 10), ("south_atlantic", 2 + 4 - 1)]
    assert s.tracks["UK.eps"] == 50 - 10 - 5


def test_eto_4_1_closed_routes_are_not_raided(tmp_path):
    """4.1/5.1: a closed route (36.4) cannot be raided nor attacked by U-boats."""
    s = _state(tmp_path, unit("GE-BB", "GE", "bb", "North Atlantic", name="Bismarck"),
               unit("GE-U1", "GE", "uboat", "North Atlantic"), tracks={"convoy.north_atlantic.closed_until": "1941-09"})
    assert surface_raiders.raider_step(s) == [] and uboats.uboat_step(s) == []
    assert s.tracks["UK.eps"] == 50


def test_eto_4_4_division_of_losses(tmp_path):
    """4.4: Atlantic losses fall on the UK, shared with the US from 1942 while the US sends it
    lend lease (odd EP to Britain); Arctic losses are shared with the USSR, the Western Allies
    taking the larger half, split US/UK when both send the Soviets lend lease."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", NA))
    assert convoys.division(s, "north_atlantic", 7) == {"UK": 7}           # 1941
    s.tracks["lend_lease.US.UK"] = 1
    assert convoys.division(s, "north_atlantic", 7) == {"UK": 7}           # still 1941
    s2 = _state(tmp_path / "b", unit("UK-DD", "UK", "dd", NA), tracks={"lend_lease.US.UK": 1})
    assert convoys.division(s2, "arctic", 7) == {"UK": 4, "SU": 3}
    s2.tracks["lend_lease.US.SU"] = s2.tracks["lend_lease.UK.SU"] = 1
    assert convoys.division(s2, "arctic", 7) == {"UK": 2, "US": 2, "SU": 3}


def test_eto_5_6_fewer_than_two_north_atlantic_stacks_close_the_atlantic(tmp_path):
    """5.6: fewer than 2 stacks (16 units) in the North Atlantic box in a seasonal turn close the
    North and South Atlantic routes for the next three months; 16 DDs keep them open.  A CVE with
    air counts 4, without air 0."""
    s = _state(tmp_path, *_escorts(NA, 12, 1))
    s.game.options["strategic-warfare"] = True
    convoys.seasonal_check(s)
    assert not convoys.closed(s, "north_atlantic")
    s.units_by_id["UK-NA-air0"].props.pop("carrier")
    convoys.seasonal_check(s)
    assert convoys.closed(s, "north_atlantic") and convoys.closed(s, "south_atlantic")
    assert s.tracks["convoy.north_atlantic.closed_until"] == "1941-10"
    assert convoys.closed(s, "arctic")  # 36.4: closed anyway until the Western Allies open it
    s.tracks["convoy.arctic.open"] = 1
    assert not convoys.closed(s, "arctic")  # 5.6's closure leaves the Arctic route alone


def test_eto_5_6_closure_in_a_seasonal_turn_runs_three_months_from_the_season(tmp_path):
    """5.6/36.4: the check is made in a seasonal turn; the autumn turn comes before October, so
    the routes are closed October to December ("1941-autumn" once crashed the month parser)."""
    s = new_state(tmp_path, _escorts(NA, 8), west=True, options={"naval": True, "strategic-warfare": True}, first="1941-09", last="1941-10")
    s.turn = s.calendar.index("1941-autumn")
    convoys.seasonal_check(s)
    assert s.tracks["convoy.north_atlantic.closed_until"] == "1942-01"


def test_eto_4_4_from_1942_the_us_shares_atlantic_losses_odd_ep_to_britain(tmp_path):
    """4.4: "1942-1945 and the US is sending lend lease to the UK": shared equally, Britain
    suffers the extra EP of an odd total (7 -> UK 4, US 3); without the lend lease, all UK."""
    s = new_state(tmp_path, [unit("UK-DD", "UK", "dd", NA)], west=True, first="1942-01", last="1942-02",
                  options={"naval": True})
    assert convoys.division(s, "north_atlantic", 7) == {"UK": 7}
    s.tracks["lend_lease.US.UK"] = 1
    assert convoys.division(s, "north_atlantic", 7) == {"UK": 4, "US": 3}


def test_eto_11_5_a_uboat_becomes_two_submarines_at_the_phase_start(tmp_path):
    """11.5: at the beginning of the Strategic Warfare phase an undamaged U-boat becomes two SS
    from the force pool in its place (a damaged one: one SS); the U-boat goes to the pool."""
    from eto_kit import step_to

    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [unit("GE-U1", "GE", "uboat", "North Atlantic"),
                             unit("GE-U2", "GE", "uboat", "Bay of Biscay", reduced=True),
                             *[unit(f"GE-SS{i}", "GE", "ss", "Force pool") for i in range(3)]],
                  west=True, options={"naval": True, "strategic-warfare": True})
    step_to(s, "strategic/conversion")
    assert {"kind": "convert_uboat", "uboat": "GE-U1"} in s.legal_orders()
    s.apply({"kind": "convert_uboat", "uboat": "GE-U1"})
    assert [u.id for u in naval_units.naval_units(s, "axis", "North Atlantic")] == ["GE-SS0", "GE-SS1"]
    assert s.units_by_id["GE-U1"].location == values.FORCE_POOL
    s.apply({"kind": "convert_uboat", "uboat": "GE-U2"})
    assert [u.id for u in naval_units.naval_units(s, "axis", "Bay of Biscay")] == ["GE-SS2"]


def test_eto_11_5_two_submarines_in_one_port_trade_for_a_uboat(tmp_path):
    """11.5: two German SS in the same port hex may be traded for a U-boat; not one SS, not two
    SS in different hexes."""
    kiel, brest = "04641", "02153"
    s = _state(tmp_path, unit("GE-SS1", "GE", "ss", kiel), unit("GE-SS2", "GE", "ss", kiel),
               unit("GE-SS3", "GE", "ss", brest), unit("GE-U9", "GE", "uboat", "Force pool"))
    u = s.units_by_id
    assert uboats.merge_why_not(s, [u["GE-SS1"], u["GE-SS3"]]).rule == "ETO-11.5"
    assert uboats.merge_why_not(s, [u["GE-SS1"]]).rule == "ETO-11.5"
    assert uboats.merge_why_not(s, [u["GE-SS1"], u["GE-SS2"]]) is None
    uboats.MergeSubsOrder().execute(s, {"kind": "merge_subs", "subs": ["GE-SS1", "GE-SS2"]})
    assert u["GE-U9"].location == kiel and u["GE-SS1"].location == values.FORCE_POOL


def test_eto_5_8_a_uboat_cannot_sail_onto_a_route_past_its_limit(tmp_path):
    """5.8 through naval movement: "U-boats cannot be assigned to a route in violation of this
    restriction".  Seven U-boats in play, one already in the Barents Sea (the Arctic route): a
    second and a third may sail there (3 of 7, not more than one-half), a fourth may not; two in
    the South Atlantic bar a third.  Losses force no redeployment: when the two South Atlantic
    U-boats are sunk, three of five stand on the Arctic route and stay there."""
    from eto_kit import step_to

    from workbench.engine.errors import IllegalOrder
    from workbench.rulesets.eto import naval_movement

    s = _state(tmp_path, unit("GE-A1", "GE", "uboat", "Barents Sea"),
               unit("GE-U1", "GE", "uboat", "Norwegian Sea"), unit("GE-U2", "GE", "uboat", "Norwegian Sea"),
               unit("GE-U3", "GE", "uboat", "Norwegian Sea"), unit("GE-U4", "GE", "uboat", "North Atlantic"),
               unit("GE-S1", "GE", "uboat", "South Atlantic"), unit("GE-S2", "GE", "uboat", "South Atlantic"))
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "axis":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    u = s.units_by_id
    assert naval_movement.sail_why_not(s, "axis", [u["GE-U1"]], ["Barents Sea"], False) is None   # 2 of 7
    s.apply({"kind": "sail", "units": ["GE-U1"], "path": ["Barents Sea"]})
    assert u["GE-U1"].location == "Barents Sea"
    s.apply({"kind": "sail", "units": ["GE-U2"], "path": ["Barents Sea"]})                          # 3 of 7
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "units": ["GE-U3"], "path": ["Barents Sea"]})                      # 4 of 7
    assert exc.value.rule == "ETO-5.8" and "1/2" in exc.value.why
    assert u["GE-U3"].location == "Norwegian Sea"
    assert {"kind": "sail", "units": ["GE-U3"], "path": ["Barents Sea"]} not in s.legal_orders()
    why = naval_movement.sail_why_not(s, "axis", [u["GE-U4"]], ["South Atlantic"], False)
    assert why.rule == "ETO-5.8" and "no more than 2" in why.why
    u["GE-S1"].location = u["GE-S2"].location = values.PERMANENT   # sunk: 5 in play, 3 on the Arctic route
    assert [x.id for x in uboats.uboats_on(s, "arctic")] == ["GE-A1", "GE-U1", "GE-U2"]


def test_eto_5_9_a_converted_schnorkel_becomes_plain_subs_and_never_comes_back(tmp_path):
    """5.9: a schnorkel U-boat converted to tactical subs (11.5) gives "normal sub units" which
    "cannot be converted back into schnorkel U-boats": the two SS traded back in Kiel give a plain
    U-boat.  Against 5 escort stacks the schnorkel's (2,2) succeeded (4 - 5 + 2 = 1); the plain
    U-boat's (2,2) fails (4 - 5 = -1) and it is damaged."""
    kiel = "04641"
    s = _state(tmp_path, *_escorts(NA, 40), unit("GE-U1", "GE", "uboat", "North Atlantic", props={"schnorkel": True}),
               unit("GE-SS1", "GE", "ss", values.FORCE_POOL), unit("GE-SS2", "GE", "ss", values.FORCE_POOL))
    u = s.units_by_id
    uboats.ConvertUboatOrder().execute(s, {"kind": "convert_uboat", "uboat": "GE-U1"})
    assert u["GE-SS1"].location == u["GE-SS2"].location == "North Atlantic"
    assert not u["GE-SS1"].props.get("schnorkel") and not u["GE-SS2"].props.get("schnorkel")
    assert u["GE-U1"].location == values.FORCE_POOL
    u["GE-SS1"].location = u["GE-SS2"].location = kiel
    uboats.MergeSubsOrder().execute(s, {"kind": "merge_subs", "subs": ["GE-SS1", "GE-SS2"]})
    assert u["GE-U1"].location == kiel and not u["GE-U1"].props.get("schnorkel")
    u["GE-U1"].location = "North Atlantic"
    s.dice = FixedDice(2, 2)
    out = uboats.uboat_step(s)
    att = out[0]["attacks"][0]
    assert not att["schnorkel"] and att["modified"] == -1 and not att["success"]
    assert naval_units.damaged(u["GE-U1"])


def test_eto_4_3_raiders_are_intercepted_and_damaged_like_any_ships(tmp_path):
    """4.3: "All the usual rules for naval operations (Part 4) apply to raiders, as well as to
    Allied naval units in the same area."  Bismarck sailing into the North Atlantic is offered to
    the British stack at 02630 (8.2: the area is in its range, 8.1); at rest there it may be searched
    for in the British Naval Attacks step (8.3; a natural 1 misses).  Damaged (9.5: gunnery 5 -> 3)
    it raids for 1d6 + 3: a 2 costs 5 EPs, not 7."""
    from eto_kit import events, step_to

    def to(s, step, side):  # noqa: ANN001, ANN202
        step_to(s, step)
        if s.decision.side != side:
            s.apply({"kind": "end_step"})
            step_to(s, step)

    brits = [unit("UK-BB", "UK", "bb", "02630", name="Rodney"), unit("UK-DD1", "UK", "dd", "02630"),
             unit("UK-DD2", "UK", "dd", "02630")]
    s = _state(tmp_path / "a", *brits, unit("GE-BB", "GE", "bb", "Norwegian Sea", name="Bismarck"))
    to(s, "naval-air/sides/first-naval-movement", "axis")
    s.apply({"kind": "sail", "units": ["GE-BB"], "path": ["North Atlantic"]})
    assert s.decision.kind == "naval_intercept" and s.decision.side == "allies"
    assert {"kind": "intercept_naval", "units": ["UK-BB", "UK-DD1", "UK-DD2"]} in s.legal_orders()

    s = _state(tmp_path / "b", *brits, unit("GE-BB", "GE", "bb", "North Atlantic", name="Bismarck"))
    to(s, "naval-air/sides/naval-attacks", "allies")
    order = {"kind": "naval_search", "units": ["UK-BB", "UK-DD1", "UK-DD2"], "target": "North Atlantic"}
    assert order in s.legal_orders()
    s.dice = FixedDice(1)
    s.apply(order)
    assert [e["data"]["found"] for e in events(s, "naval_search")] == [False]
    bb = s.units_by_id["GE-BB"]
    assert naval_units.gunnery(s, bb) == 5
    naval_units.damage(s, bb, "ETO-9.5")
    assert naval_units.gunnery(s, bb) == 3
    s.dice = FixedDice(2)
    out = surface_raiders.raider_step(s)
    assert [(r["route"], r["eps"]) for r in out] == [("north_atlantic", 2 + 3)]


def test_the_charts_read_the_wars_running_totals_from_the_metrics(tmp_path):
    """Issue 23's charts: the economy metrics carry each nation's EPs lost to convoy attacks (4.4),
    to strategic bombing and the lend lease it sent, summed over the war -- an Arctic loss of 7 split
    4/3 (4.4) shows as UK 4 and SU 3, twice over after a second loss."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", NA), tracks={"lend_lease.US.UK": 1})
    for _ in range(2):
        convoys.lose_eps(s, "arctic", 7, "ETO-5.3", "test")
    eco = s.ruleset.metrics(s).economy
    assert eco["UK.convoy_losses"] == 8.0 and eco["SU.convoy_losses"] == 6.0
    convoys.tally(s, "bombing", "GE", 5)
    convoys.tally(s, "lend_lease", "US", 10)
    eco = s.ruleset.metrics(s).economy
    assert eco["GE.bombing"] == 5.0 and eco["US.lend_lease"] == 10.0 and "UK.eps" in eco
