"""ETO air units out of supply (ETO-33.7) and pilot recovery (ETO-34.3).

The Channel front of August 1940 (eto_kit ``west``): Dover 03148, Calais 03248, Frankfurt
04351, Harwich 03246, London 02948; Malta 05582 is a British base with no overland line to a
British source.
"""

from __future__ import annotations

import pytest
from eto_kit import events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import air_interception
from workbench.rulesets.eto.air_missions import path_to

DOVER, CALAIS, FRANKFURT, HARWICH, LONDON, MALTA = "03148", "03248", "04351", "03246", "02948", "05582"
SEA_OFF_ANTWERP = "03447"


def west(tmp_path, units, **kw):  # noqa: ANN001, ANN201
    return new_state(tmp_path, units, first="1940-08", last="1940-09", west=True, options={"air": True}, **kw)


def allied_air_movement(s):  # noqa: ANN001, ANN201
    step_to(s, "naval-air/sides/air-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/air-movement")
    assert s.decision.side == "allies"
    return s


def to_air_offensive(s):  # noqa: ANN001, ANN201
    from eto_kit import begin_offensive

    step_to(s, "offensive")
    begin_offensive(s, "axis")
    s.apply({"kind": "air_offensive", "nations": ["GE"]})
    step_to(s, "air-moves")
    return s


# == 33.7 ========================================================================================
def test_eto_33_7_air_units_are_marked_out_of_supply_but_never_depleted(tmp_path):
    """33.3: "Any land or air unit that cannot trace a supply line during the Supply step ... is
    placed under an out of supply marker"; 33.7: "Unlike land units, air units are never depleted
    from lack of supply".  At Malta (no overland line to a British source) the fighter and the
    infantry are both marked at the first Supply step; at the second the infantry loses a step
    (33.5), the fighter does not.  The fighter at Dover is never marked."""
    s = west(tmp_path, [unit("UK-fm", "UK", "fighter", MALTA), unit("UK-im", "UK", "infantry", MALTA),
                        unit("UK-fd", "UK", "fighter", DOVER)])
    supply_step = s.game.ruleset.procedures["end/supply"]
    supply_step(s, None)
    marked = {e["data"]["unit"]: e["rule"] for e in events(s, "out_of_supply")}
    assert marked == {"UK-fm": "ETO-33.3", "UK-im": "ETO-33.3"}
    supply_step(s, None)
    fm, im = s.unit("UK-fm"), s.unit("UK-im")
    assert im.reduced and fm.props.get("oos") and not fm.reduced and fm.location == MALTA
    supply_step(s, None)
    assert im.location != MALTA and not fm.reduced and fm.location == MALTA
    assert not s.unit("UK-fd").props.get("oos")


def test_eto_33_7_marked_air_flies_missions_only_over_its_own_or_an_adjacent_hex_in_an_offensive(tmp_path):
    """33.7: "If marked, an air unit can only fly missions in its base hex, or any adjacent hex,
    during an Offensive phase".  In an Axis air offensive the marked bomber at Frankfurt may not
    bomb Harwich (in range, 12); the marked fighter at Calais may still attack the British air at
    Dover next door; unmarked, the bomber flies to Harwich."""
    s = west(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("GE-f1", "GE", "fighter", CALAIS),
                        unit("UK-f1", "UK", "fighter", DOVER)])
    to_air_offensive(s)
    b1, f1 = s.unit("GE-b1"), s.unit("GE-f1")
    b1.props["oos"] = f1.props["oos"] = True
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "bomb", "to": HARWICH})
    assert exc.value.rule == "ETO-33.7" and "adjacent" in exc.value.why
    assert s.check({"kind": "fly", "units": ["GE-f1"], "mission": "attack_air", "to": DOVER}) is None
    legal = [o for o in s.legal_orders() if o["kind"] == "fly" and o["units"] == ["GE-b1"]]
    assert all(s.map.distance(FRANKFURT, o["to"]) <= 1 for o in legal)
    b1.props.pop("oos")
    assert s.check({"kind": "fly", "units": ["GE-b1"], "mission": "bomb", "to": HARWICH}) is None


def test_eto_33_7_marked_air_changes_base_one_hop_within_twice_its_range_in_naval_and_air(tmp_path):
    """33.7: "During a Naval and Air phase, it can ... change base to any friendly airbase within
    twice the unit's range.  It cannot change base three times ...; it is allowed only one hop."
    The marked 3-range fighter at Dover may not hop via Birmingham to Manchester (12.3 allows an
    unmarked unit that), nor reach Manchester (8 hexes) in one hop; Birmingham (6) it may."""
    s = allied_air_movement(west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER)]))
    f1 = s.unit("UK-f1")
    manchester, birmingham = s.map.hex_of("Manchester"), s.map.hex_of("Birmingham")
    order = {"kind": "fly", "units": ["UK-f1"], "mission": "change_base", "to": manchester, "via": [birmingham]}
    assert s.check(order) is None
    f1.props["oos"] = True
    why = s.check(order)
    assert why is not None and why.rule == "ETO-33.7" and "one hop" in why.why
    why = s.check({"kind": "fly", "units": ["UK-f1"], "mission": "change_base", "to": manchester})
    assert why is not None and why.rule == "ETO-13.0"
    s.apply({"kind": "fly", "units": ["UK-f1"], "mission": "change_base", "to": birmingham})
    assert f1.location == birmingham


def test_eto_33_7_a_marked_fighter_intercepts_only_over_its_own_or_an_adjacent_hex(tmp_path):
    """33.7 applies to interception missions too: the 14.2 example's British fighter at Dover may
    intercept the German bomber 3 hexes away off Antwerp, but not while marked out of supply."""
    s = west(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT), unit("UK-f1", "UK", "fighter", DOVER)])
    to_air_offensive(s)
    s.apply({"kind": "fly", "units": ["GE-b1"], "mission": "bomb", "to": HARWICH})
    assert (s.decision.kind, s.decision.side) == ("air_intercept", "allies")
    assert s.unit("GE-b1").location == SEA_OFF_ANTWERP
    fl = next(iter(air_interception.air_flights.flights(s).values()))
    f1 = s.unit("UK-f1")
    assert air_interception.interceptor_why_not(s, f1, fl) is None
    f1.props["oos"] = True
    why = air_interception.interceptor_why_not(s, f1, fl)
    assert why is not None and why.rule == "ETO-33.7"
    with pytest.raises(IllegalOrder, match="ETO-33.7"):
        s.apply({"kind": "intercept", "units": ["UK-f1"], "path": path_to(s, DOVER, SEA_OFF_ANTWERP)})


# == 34.3 ========================================================================================
def _lose(s, uid, over):  # noqa: ANN001, ANN202
    """``uid`` loses a step over ``over`` (an air combat there), then is back on its base."""
    from workbench.rulesets.eto import air_combat

    u = s.unit(uid)
    base = u.location
    u.location = over
    result = air_combat.lose_step(s, u, "ETO-15.6", " (test)")
    if result == "depleted":
        u.location = base
    return result


def _at_replenishment(s):  # noqa: ANN001, ANN202
    step_to(s, "end/replenishment", limit=150)
    while s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    return s


def test_eto_34_3_a_step_lost_over_home_is_rebuilt_for_5_eps_at_the_turns_end(tmp_path):
    """34.3: "An air unit that suffers step loss over a home country hex (including a coastal hex)
    can be rebuilt to full strength at the end of the turn it suffers damage ... The cost of this
    rebuild is 5 EPs".  The British fighter hit over Dover (a coastal English hex) is rebuilt in
    the Replenishment step: 7 EPs on the track become 2.  The one hit over Calais (France) is
    not eligible."""
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER), unit("UK-f2", "UK", "fighter", LONDON)],
             tracks={"UK.eps": 7, "UK.reserve": 0})
    assert _lose(s, "UK-f1", DOVER) == "depleted" and _lose(s, "UK-f2", CALAIS) == "depleted"
    _at_replenishment(s)
    legal = [o for o in s.legal_orders() if o["kind"] == "recover_pilots"]
    assert legal == [{"kind": "recover_pilots", "unit": "UK-f1"}]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "recover_pilots", "unit": "UK-f2"})
    assert exc.value.rule == "ETO-34.3" and "home country" in exc.value.why
    s.apply({"kind": "recover_pilots", "unit": "UK-f1"})
    assert not s.unit("UK-f1").reduced and s.unit("UK-f1").location == DOVER
    assert s.tracks["UK.eps"] == 2 and events(s, "pilots_recovered")[-1]["rule"] == "ETO-34.3"
    with pytest.raises(IllegalOrder, match="ETO-34.3"):
        s.apply({"kind": "recover_pilots", "unit": "UK-f1"})  # once rebuilt, no more


def test_eto_34_3_only_the_turn_of_the_loss_and_paid_from_track_or_reserve(tmp_path):
    """34.3: "at the end of the turn it suffers damage" (a step lost last turn is not recovered)
    and "paid from economic reserve or the EP track" (4 EPs + 0 reserve: refused; 4 + 1: paid,
    the track first)."""
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER), unit("UK-f2", "UK", "fighter", LONDON)],
             tracks={"UK.eps": 4, "UK.reserve": 1})
    _lose(s, "UK-f1", DOVER)
    _lose(s, "UK-f2", LONDON)
    s.unit("UK-f2").props["pilot_recovery"] = "1940-07"  # as if hit a month earlier
    _at_replenishment(s)
    why = s.check({"kind": "recover_pilots", "unit": "UK-f2"})
    assert why is not None and why.rule == "ETO-34.3" and "this turn" in why.why
    s.tracks["UK.reserve"] = 0
    why = s.check({"kind": "recover_pilots", "unit": "UK-f1"})
    assert why is not None and why.rule == "ETO-34.3" and "5 EPs" in why.why
    s.tracks["UK.reserve"] = 1
    s.apply({"kind": "recover_pilots", "unit": "UK-f1"})
    assert (s.tracks["UK.eps"], s.tracks["UK.reserve"]) == (0, 0)


def test_eto_34_3_an_eliminated_unit_waits_in_the_replenishment_box(tmp_path):
    """34.3 and the sequence of play (End phase Step 3: "Rebuild air units eligible for pilot
    recovery ... move any infantry and air units still in the replenishment box to their
    respective force pools").  Two depleted British fighters are shot down over London: both go
    to the Replenishment box; one is rebuilt at full strength on a friendly English base
    (not on a French one), the other goes to the force pool when the step ends.  A fighter shot
    down over Calais goes straight to the force pool."""
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", LONDON, reduced=True),
                        unit("UK-f2", "UK", "fighter", LONDON, reduced=True),
                        unit("UK-f3", "UK", "fighter", DOVER, reduced=True)],
             tracks={"UK.eps": 20, "UK.reserve": 0})
    assert _lose(s, "UK-f1", LONDON) == "eliminated" and _lose(s, "UK-f2", LONDON) == "eliminated"
    assert _lose(s, "UK-f3", CALAIS) == "eliminated"
    f1, f2, f3 = s.unit("UK-f1"), s.unit("UK-f2"), s.unit("UK-f3")
    assert f1.location == f2.location == "Replenishment" and f3.location == "Force pool"
    _at_replenishment(s)
    legal = [o for o in s.legal_orders() if o["kind"] == "recover_pilots"]
    assert legal and {o["unit"] for o in legal} == {"UK-f1", "UK-f2"} and all("at" in o for o in legal)
    with pytest.raises(IllegalOrder, match="ETO-34.3"):
        s.apply({"kind": "recover_pilots", "unit": "UK-f1", "at": CALAIS})
    s.apply({"kind": "recover_pilots", "unit": "UK-f1", "at": DOVER})
    assert f1.location == DOVER and not f1.reduced and s.tracks["UK.eps"] == 15
    while s.step.key == "end/replenishment":
        s.apply({"kind": "end_step"})
    assert f2.location == "Force pool" and not f2.props.get("pilot_recovery")


def test_eto_34_3_defenders_of_the_home_country_in_the_strategic_warfare_box(tmp_path):
    """34.3: "Air units defending their home country in the strategic warfare box are eligible";
    an escort over the enemy's country is not."""
    s = west(tmp_path, [unit("UK-f1", "UK", "fighter", DOVER), unit("GE-f1", "GE", "fighter", CALAIS)],
             tracks={"UK.eps": 20, "GE.eps": 20})
    from workbench.rulesets.eto import pilot_recovery

    uk, ge = s.unit("UK-f1"), s.unit("GE-f1")
    box = "Strategic warfare box"
    uk.props.update(sb_mission="defend", sb_target="UK")
    ge.props.update(sb_mission="escort", sb_target="UK")
    assert _lose(s, "UK-f1", box) == "depleted" and _lose(s, "GE-f1", box) == "depleted"
    assert pilot_recovery.eligible(s, uk) and not pilot_recovery.eligible(s, ge)
