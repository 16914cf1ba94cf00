"""ETO-3.0-3.5: Axis air interdiction of the Arctic convoy route (Strategic Warfare Step 2), and
the 12.2 / 14.4 clauses that waited on it.

August 1941, the Channel front of eto_kit with the USSR Allied and Norway and Finland German:
Murmansk 06605 (Allied base), Petsamo 06405 (Finnish base, 2 hexes from the route), Narvik 05209
(German base, 5 hexes from the route).  The German 6-12 bomber reaches the route from both, the
4-4/3 fighter from Petsamo; the British 4-3/3 fighter at Murmansk reaches 3 hexes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from eto_kit import FixedDice, events, scenario_text, step_to, unit

from workbench.bots.heuristic import Brain, Context, HeuristicPolicy
from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.eto import air_flights, commitment, convoys, naval_units, uboats
from workbench.rulesets.eto import arctic_interdiction as ai
from workbench.rulesets.eto.bot import strategic as bot

MURMANSK, PETSAMO, NARVIK, ARCHANGEL = "06605", "06405", "05209", "07812"
BOX = "Arctic convoy escort box"
INTERDICT = "strategic/arctic/interdict"


def arctic(tmp_path: Path, units: list[dict[str, Any]], *faces: int, open_: bool = True, weather: str = "F",
           tracks: dict[str, Any] | None = None, overrides: dict[str, Any] | None = None, to_step: bool = True):
    """The game at Strategic Warfare Step 2's interdiction (the Allies keep the default route)."""
    text = scenario_text(units, west=True, first="1941-08", last="1941-09",
                         options={"air": True, "naval": True, "strategic-warfare": True},
                         tracks={"UK.eps": 50, "US.eps": 40, "convoy.arctic.open": 1 if open_ else 0, **(tracks or {})},
                         allies=("UK", "FR", "SU", "US"),
                         control={"USSR": "allies", "Norway": "axis", "Finland": "axis"})
    path = tmp_path / "eto-arctic.toml"
    path.write_text(text)
    s = load_scenario(path, overrides=overrides).new_state(seed=1)
    s.tracks["weather"] = weather
    s.tracks["SU.eps"] = 30
    if faces:
        s.dice = FixedDice(*faces)
    if to_step:
        step_to(s, INTERDICT)
    return s


def carrier(uid: str = "UK-cv", air: tuple[str, ...] = ("UK-na",)) -> list[dict[str, Any]]:
    return [unit(uid, "UK", "cv", BOX), *(unit(a, "UK", "naval_air_light", BOX, props={"carrier": uid}) for a in air)]


def rolls(s, rule: str) -> list[dict[str, Any]]:  # noqa: ANN001
    return [e for e in s.log if e["kind"] == "roll" and e["rule"] == rule]


def near(s, base: str, rng: int) -> str:  # noqa: ANN001
    """The route hex nearest ``base`` (within ``rng``)."""
    hm = s.map
    h = min(ai.route(s), key=lambda x: (hm.distance(base, x), x))
    assert hm.distance(base, h) <= rng
    return h


# == 3.1 =============================================================================================
def test_eto_3_1_a_closed_route_cannot_be_interdicted(tmp_path):
    """3.1: "Air units cannot interdict the convoy route if it is closed (36.4)": with the Arctic
    route never opened, Step 2 passes without a decision; closed under the Axis's feet, the order
    is refused naming 3.1."""
    units = [unit("GE-b1", "GE", "bomber", PETSAMO)]
    shut = arctic(tmp_path, units, open_=False, to_step=False)
    assert shut.step is None or not shut.step.key.startswith("strategic")
    assert not any(e["kind"] in ("arctic_route", "interdict_convoy") for e in shut.log)
    s = arctic(tmp_path, units)
    order = {"kind": "interdict_convoy", "units": ["GE-b1"], "to": near(s, PETSAMO, 12)}
    assert order in s.legal_orders()
    s.tracks["convoy.arctic.open"] = 0
    assert s.legal_orders() == [{"kind": "end_step"}]
    with pytest.raises(IllegalOrder, match="ETO-3.1"):
        s.apply(order)


def test_eto_3_1_only_axis_land_based_air_on_a_base_in_range_interdicts(tmp_path):
    """3.1/3.2: the bomber at Petsamo reaches the route; a fighter alone is no interdiction;
    a hex off the route is refused; beyond the 4-hex range of the fighter escort the path is too long."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO), unit("GE-f1", "GE", "fighter", PETSAMO),
                          unit("GE-f2", "GE", "fighter", NARVIK)])
    h = near(s, PETSAMO, 4)
    with pytest.raises(IllegalOrder, match="ETO-3.2.*needs a bomber"):
        s.apply({"kind": "interdict_convoy", "units": ["GE-f1"], "to": h})
    with pytest.raises(IllegalOrder, match="ETO-3.2.*not a hex of the Arctic convoy route"):
        s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": "06506"})
    far = max(ai.route(s), key=lambda x: (s.map.distance(PETSAMO, x) <= 12, s.map.distance(PETSAMO, x)))
    assert 4 < s.map.distance(PETSAMO, far) <= 12
    with pytest.raises(IllegalOrder, match="ETO-13.0"):
        s.apply({"kind": "interdict_convoy", "units": ["GE-b1", "GE-f1"], "to": far})
    both = [o for o in s.legal_orders() if o.get("units") == ["GE-b1", "GE-f1"]]
    assert both and s.map.distance(PETSAMO, both[0]["to"]) == s.map.distance(PETSAMO, h)


# == 3.3 =============================================================================================
def test_eto_3_3_route_runs_from_murmansk_to_the_north_atlantic_or_an_allied_uk_port(tmp_path):
    """3.3: the default route is contiguous all-sea/coastal hexes from Murmansk to the North
    Atlantic sea area; a traced route may end at an Allied-controlled UK port instead, and may not
    cross land, jump, or start elsewhere."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO)], to_step=False)
    assert (s.step.key, s.decision.side) == (ai.ROUTE_STEP, "allies")
    r = ai.route(s)
    assert {"kind": "trace_route", "path": r} in s.legal_orders()
    hm = s.map
    assert r[0] == MURMANSK and hm.hexes["sea_area"][hm.index(r[-1])] == "North Atlantic"
    assert ai.route_why_not(s, r) is None
    assert "ETO-3.3" in ai.route_why_not(s, r[1:]).rule
    assert "jumps" in ai.route_why_not(s, [r[0], *r[2:]]).why
    assert "land hex" in ai.route_why_not(s, [MURMANSK, "06606", *r[1:]]).why
    assert "North Atlantic" in ai.route_why_not(s, r[:-1]).why
    uk = load_scenario(tmp_path / "eto-arctic.toml",
                       overrides={"arctic_interdiction.route.end_area": "none"}).new_state(seed=1)
    to_port = ai.default_route(uk)
    assert hm.hexes["country"][hm.index(to_port[-1])] == "United Kingdom" and hm.hexes["port"][hm.index(to_port[-1])]
    assert ai.route_why_not(s, to_port) is None
    s.apply({"kind": "trace_route", "path": to_port})
    assert ai.route(s) == to_port
    assert events(s, "arctic_route")[-1]["side"] == "allies"


def test_eto_3_3_archangel_except_in_winter(tmp_path):
    """3.3: "between Murmansk (or Archangel, except in winter)": in F weather a route from
    Archangel is good; in W weather Archangel is ice-bound (1.5) and the same route is refused."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO)], to_step=False)
    assert ARCHANGEL in ai.starts(s)
    r = ai.default_route(s)
    s.tracks["weather"] = "W"
    assert ai.starts(s) == [MURMANSK]
    s.tracks["weather"] = "F"
    uk = load_scenario(tmp_path / "eto-arctic.toml",
                       overrides={"arctic_interdiction.route.starts": ["Archangel"]}).new_state(seed=1)
    from_arch = ai.default_route(uk)
    assert from_arch[0] == ARCHANGEL and from_arch != r
    assert ai.route_why_not(s, from_arch) is None
    s.tracks["weather"] = "W"
    assert "Murmansk (or Archangel, except in winter)" in ai.route_why_not(s, from_arch).why


def test_eto_3_3_several_interdiction_hexes_are_one_interdiction(tmp_path):
    """3.3: "A convoy route can be interdicted in more than one place ... still treated as one
    interdiction": two full-strength bombers over two hexes = one die, 1d6 + 2 (3.4): 3 + 2 = 5."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO), unit("GE-b2", "GE", "bomber", NARVIK)], 3)
    a, b = near(s, PETSAMO, 12), near(s, NARVIK, 12)
    assert a != b
    s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": a})
    s.apply({"kind": "interdict_convoy", "units": ["GE-b2"], "to": b})
    s.apply({"kind": "end_step"})
    assert len(rolls(s, "ETO-3.4")) == 1
    ev = events(s, "arctic_interdiction")[-1]["data"]
    assert ev["eps"] == 5 and ev["shares"] == {"UK": 3, "SU": 2}
    assert s.tracks["UK.eps"] == 47 and s.tracks["SU.eps"] == 28


# == 3.4 =============================================================================================
@pytest.mark.parametrize(("full", "depleted", "die", "eps"), [
    (1, 0, 4, 4),    # the first full-strength bomber: one die
    (3, 0, 1, 5),    # +2 per additional full-strength bomber
    (1, 1, 4, 5),    # a depleted additional bomber: half of 2
    (2, 2, 6, 10),   # 6 + 2 + 1 + 1
    (0, 1, 5, 3),    # a depleted first bomber: half the die, rounded up (E16)
    (0, 2, 1, 2),    # ceil(1/2) + 1
])
def test_eto_3_4_first_bomber_rolls_1d6_each_more_adds_2_depleted_half(tmp_path, full, depleted, die, eps):
    units = [unit(f"GE-b{i}", "GE", "bomber", NARVIK) for i in range(full + depleted)]
    s = arctic(tmp_path, units, die)
    for i in range(full, full + depleted):
        s.units_by_id[f"GE-b{i}"].reduced = True
    res = ai.ep_loss(s, [s.units_by_id[f"GE-b{i}"] for i in range(full + depleted)])
    assert res["eps"] == eps and res["die"] == die
    assert rolls(s, "ETO-3.4")[-1]["side"] == "axis"  # "The Axis player rolls the die"


def test_eto_3_4_losses_divide_as_4_4_on_the_arctic_route(tmp_path):
    """3.4 with 4.4/36.5: the Western Allies and the USSR share, the West the larger half; when both
    the UK and the US send lend lease to the USSR the Western half splits, the UK the odd EP.
    Three bombers, die 3: 7 EPs = UK 2, US 2, SU 3."""
    s = arctic(tmp_path, [unit("GE-b0", "GE", "bomber", PETSAMO), unit("GE-b1", "GE", "bomber", PETSAMO),
                          unit("GE-b2", "GE", "bomber", NARVIK)], 3,
               tracks={"lend_lease.UK.SU": 10, "lend_lease.US.SU": 5})
    s.apply({"kind": "interdict_convoy", "units": ["GE-b0", "GE-b1"], "to": near(s, PETSAMO, 12)})
    s.apply({"kind": "interdict_convoy", "units": ["GE-b2"], "to": near(s, NARVIK, 12)})
    s.apply({"kind": "end_step"})
    assert events(s, "arctic_interdiction")[-1]["data"]["shares"] == {"UK": 2, "US": 2, "SU": 3}
    assert (s.tracks["UK.eps"], s.tracks["US.eps"], s.tracks["SU.eps"]) == (48, 38, 27)


# == 3.2: interception ==============================================================================
def test_eto_3_2_allied_fighters_in_range_intercept_and_aborted_bombers_do_not_interdict(tmp_path):
    """3.2: the British fighter at Murmansk reaches the interdiction hex and intercepts "using the
    normal aircraft interception procedure"; die 3 against target number 7 depletes the bomber
    and aborts it (15.3): no unaborted bomber, no interdiction roll, no EP loss."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO), unit("UK-f1", "UK", "fighter", MURMANSK)], 3)
    h = next(x for x in ai.route(s) if s.map.distance(MURMANSK, x) == 2)
    s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": h})
    assert (s.decision.kind, s.decision.side) == ("air_intercept", "allies")
    while s.decision.kind == "air_intercept" and s.frames[-1]["data"]["hex"] != h:
        s.apply({"kind": "pass"})
    s.apply({"kind": "intercept", "units": ["UK-f1"]})
    while s.decision.kind == "air_intercept":
        s.apply({"kind": "pass"})
    assert s.units_by_id["GE-b1"].reduced
    s.apply({"kind": "end_step"})
    assert not rolls(s, "ETO-3.4") and s.tracks["UK.eps"] == 50
    assert "no unaborted Axis bomber" in events(s, "arctic_interdiction")[-1]["text"]
    assert s.units_by_id["GE-b1"].location == PETSAMO and s.units_by_id["UK-f1"].location == MURMANSK


def test_eto_3_2_axis_fighters_counter_intercept(tmp_path):
    """3.2: "Axis fighter units can counter-intercept Allied fighters": the British interceptor's
    flight is offered to the German fighter at Petsamo."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO), unit("GE-f1", "GE", "fighter", PETSAMO),
                          unit("UK-f1", "UK", "fighter", MURMANSK)], *([6] * 20))
    h = next(x for x in ai.route(s) if s.map.distance(MURMANSK, x) == 2)
    s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": h})
    while s.frames[-1]["data"].get("hex") != h:
        s.apply({"kind": "pass"})
    s.apply({"kind": "intercept", "units": ["UK-f1"]})
    assert (s.decision.kind, s.decision.side) == ("air_intercept", "axis")
    assert {"kind": "intercept", "units": ["GE-f1"]} in s.legal_orders()


# == 3.5 and 14.4 ===================================================================================
def test_eto_3_5_naval_air_in_the_escort_box_intercepts_one_interdictor_each(tmp_path):
    """3.5: with a CV in the Arctic escort box, each naval air unit can intercept one interdicting
    unit, straight from the box: one bomber -> at most one of the two naval air units.  It fights
    normally (die 2 = target number 2, the 1-4/1's quality + strength: abort, 15.3), goes back to its carrier, is committed (PC)
    for the turn, and the carrier still counts 4 as an escort (5.6)."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", NARVIK), *carrier(air=("UK-na1", "UK-na2"))], 2)
    s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": near(s, NARVIK, 12)})
    assert (s.decision.kind, s.decision.side) == (ai.ESCORT, "allies")
    assert {"kind": "escort_intercept", "units": ["UK-na1"]} in s.legal_orders()
    with pytest.raises(IllegalOrder, match="ETO-3.5.*one interdicting air unit"):
        s.apply({"kind": "escort_intercept", "units": ["UK-na1", "UK-na2"]})
    s.apply({"kind": "escort_intercept", "units": ["UK-na1"]})
    assert s.units_by_id["GE-b1"].props.get("aborted")
    s.apply({"kind": "end_step"})
    assert not rolls(s, "ETO-3.4")
    na = s.units_by_id["UK-na1"]
    assert na.location == BOX and not na.props.get("flight")
    assert commitment.status(s, na) == commitment.PC and commitment.status(s, s.units_by_id["UK-na2"]) is None
    assert convoys.escort_value(s, s.units_by_id["UK-cv"], "arctic") == 4


def test_eto_3_5_no_naval_air_interception_without_a_carrier_in_the_box(tmp_path):
    """3.5: "If there are CV units in the convoy escort box": naval air whose carrier is elsewhere
    is not asked."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", NARVIK), unit("UK-cv", "UK", "cv", "North Atlantic convoy escort box"),
                          unit("UK-na", "UK", "naval_air_light", "North Atlantic convoy escort box",
                               props={"carrier": "UK-cv"})], 4)
    s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": near(s, NARVIK, 12)})
    assert s.decision.kind == INTERDICT
    s.apply({"kind": "end_step"})
    assert events(s, "arctic_interdiction")[-1]["data"]["eps"] == 4


def test_eto_14_4_naval_air_moving_into_an_interdiction_hex_cannot_be_intercepted(tmp_path):
    """14.4: "Naval air units moving into a convoy route interdiction hex (3.0) cannot be
    intercepted": the German fighter at Petsamo, in range of the hex, is never offered the naval
    air's flight (it is offered the British land-based fighter's, above)."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO), unit("GE-f1", "GE", "fighter", PETSAMO),
                          *carrier()], *([6] * 20))
    h = next(x for x in ai.route(s) if s.map.distance(PETSAMO, x) <= 3)
    s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": h})
    assert s.decision.kind == ai.ESCORT
    s.apply({"kind": "escort_intercept", "units": ["UK-na"]})
    assert s.decision.kind == INTERDICT  # no counter-interception interrupt for the Axis
    naval = next(f for f in air_flights.flights(s).values() if "UK-na" in f["units"])
    assert naval["at"] == h and naval["offered"] == [h]
    assert not any(e["kind"] == "intercept" and e["side"] == "axis" for e in s.log)


def test_eto_3_5_escorts_are_never_attacked_by_interdicting_air(tmp_path):
    """3.5: "Escorting naval units are never subject to direct attack by interdicting German air
    units": the escort box is no interdiction target, and the interdiction leaves the escorts whole."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", NARVIK), unit("UK-dd", "UK", "dd", BOX)], 2)
    with pytest.raises(IllegalOrder, match="ETO-3.2"):
        s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": BOX})
    s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": near(s, NARVIK, 12)})
    s.apply({"kind": "end_step"})
    assert events(s, "arctic_interdiction")[-1]["data"]["eps"] == 2
    assert not naval_units.damaged(s.units_by_id["UK-dd"])


# == 12.2: committed for the turn ====================================================================
def test_eto_12_2_interdictors_and_interceptors_are_pc_for_the_turn(tmp_path):
    """12.2/3.2: every air unit that flew in Step 2 returns to base and is PC for the monthly turn
    -- the interdicting bomber and the British fighter that intercepted it -- and may not fly a
    second Strategic Warfare mission."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO), unit("UK-f1", "UK", "fighter", MURMANSK)],
               *([6] * 20))
    h = next(x for x in ai.route(s) if s.map.distance(MURMANSK, x) == 2)
    s.apply({"kind": "interdict_convoy", "units": ["GE-b1"], "to": h})
    while s.frames[-1]["data"].get("hex") != h:
        s.apply({"kind": "pass"})
    s.apply({"kind": "intercept", "units": ["UK-f1"]})
    while s.decision.kind == "air_intercept":
        s.apply({"kind": "pass"})
    assert commitment.may_fly(s, s.units_by_id["GE-b1"], phase="strategic").rule == "ETO-12.2"
    s.apply({"kind": "end_step"})
    while s.step.key.startswith("strategic"):
        s.advance()
    for uid, base in (("GE-b1", PETSAMO), ("UK-f1", MURMANSK)):
        u = s.units_by_id[uid]
        assert u.location == base and commitment.status(s, u) == commitment.PC


# == bots ==========================================================================================
def test_eto_3_2_heuristic_bot_interdicts_with_its_bombers(tmp_path):
    """The heuristic Axis sends the bombers (and their base's fighters) to the route while it is
    open; with the route closed it does nothing."""
    s = arctic(tmp_path, [unit("GE-b1", "GE", "bomber", PETSAMO), unit("GE-f1", "GE", "fighter", PETSAMO)])
    ctx = Context(HeuristicPolicy(Brain()), s, s.decision.side, None)
    order = bot.interdict(ctx)
    assert order is not None and order["units"] == ["GE-b1", "GE-f1"] and order["to"] in ai.route(s)
    s.tracks["convoy.arctic.open"] = 0
    assert bot.interdict(Context(HeuristicPolicy(Brain()), s, s.decision.side, None)) is None


def test_eto_12_2_naval_air_escorting_against_uboats_is_pc(tmp_path):
    """12.2: "Convoy escort against U-boats (Allied naval air only)" -- a U-boat attacks the
    Arctic route: the naval air of the CV in its box is PC for the turn; the naval air of a
    carrier in a box no U-boat attacks is not."""
    s = arctic(tmp_path, [*carrier(), unit("UK-cv2", "UK", "cv", "South Atlantic convoy escort box"),
                          unit("UK-na2", "UK", "naval_air_light", "South Atlantic convoy escort box",
                               props={"carrier": "UK-cv2"}),
                          unit("GE-U1", "GE", "uboat", "Barents Sea")], 6, 6, 3, to_step=False)
    out = uboats.uboat_step(s)
    assert [r["route"] for r in out] == ["arctic"]
    assert commitment.status(s, s.units_by_id["UK-na"]) == commitment.PC
    assert commitment.status(s, s.units_by_id["UK-na2"]) is None
    assert commitment.may_fly(s, s.units_by_id["UK-na"], phase="naval-air").rule == "ETO-20.0"


def channel(tmp_path, units):  # noqa: ANN001, ANN201
    """The Allied first naval movement step of August 1940, air and navies in play."""
    from eto_kit import new_state

    step = "naval-air/sides/first-naval-movement"
    s = new_state(tmp_path, units, first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    step_to(s, step)
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, step)
    assert (s.decision.kind, s.decision.side) == (step, "allies")
    return s


@pytest.mark.parametrize(("to", "offered"), [("North Sea", True), ("North Atlantic convoy escort box", False)])
def test_eto_14_4_naval_units_moving_to_a_convoy_escort_box_cannot_be_intercepted(tmp_path, to, offered):
    """14.4: "Naval units moving to a convoy escort box cannot be intercepted": the DD leaving
    Harwich for the North Sea is offered to the German bomber at Frankfurt; the same DD sailing
    straight to the North Atlantic escort box (7.5) is not."""
    s = channel(tmp_path, [unit("GE-b1", "GE", "bomber", "04351"),
                           unit("UK-DD", "UK", "dd", "03246", props={"in_port": True})])
    s.apply({"kind": "sail", "units": ["UK-DD"], "path": [to]})
    assert (s.decision.kind == "air_intercept_ships") is offered
    if not offered:
        assert s.units_by_id["UK-DD"].location == to
