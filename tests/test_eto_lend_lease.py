"""ETO-36.4-36.9: convoy routes opened and closed, lend lease and the Axis exchange."""

from __future__ import annotations

from pathlib import Path

import pytest
from eto_kit import events, scenario_text, unit

from workbench.engine import load_scenario
from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto import convoy_routes, convoys, income, lend_lease, politics

WAR = '''
[politics]
members = { GE = "axis", IT = "axis", UK = "western", FR = "western", PL = "western" }
fronts = [["axis", "western"]]
'''
BARBAROSSA = WAR.replace('PL = "western"', 'PL = "western", SU = "soviet"').replace(
    '[["axis", "western"]]', '[["axis", "western"], ["axis", "soviet"]]')


def new_state(tmp_path: Path, first: str, last: str, politics_text: str = WAR, **tracks: int):  # noqa: ANN201
    t = {"UK.eps": 90, "US.eps": 100, "SU.eps": 10, "GE.eps": 40, "IT.eps": 5, "UK.income_base": 70,
         **{k.replace("_", ".", 1): v for k, v in tracks.items()}}
    text = scenario_text([unit("GE-1", "GE", "infantry", "03946")], first=first, last=last, west=True,
                         options={"politics": True, "naval": True, "strategic-warfare": True}, extra=politics_text,
                         tracks=t, allies=("UK", "FR", "SU", "US"))
    path = tmp_path / "eto-ll.toml"
    path.write_text(text)
    return load_scenario(path).new_state(seed=1)


def advance(state, until, limit: int = 600):  # noqa: ANN001, ANN201
    """End steps and pass until ``until(state)`` holds at a decision."""
    for _ in range(limit):
        if state.decision is not None and until(state):
            return state
        d = state.decision
        state.apply({"kind": "end_step"} if "end_step" in d.kinds else {"kind": "pass"} if "pass" in d.kinds
                    else {"kind": "choose_first", "side": d.side})
    raise AssertionError("never got there")


def at(key: str, turn: str):  # noqa: ANN201
    return lambda s: s.turn_label == turn and s.step is not None and s.step.key == key


def income_debit(state, nation: str, turn: str) -> int:  # noqa: ANN001
    return next(e["data"]["debit"] for e in events(state, "income")
                if e["rule"] == "ETO-36.2" and e["data"]["nation"] == nation and e["turn"] == turn)


def test_eto_36_4_closing_both_atlantic_routes_costs_45_next_season(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1940-12", "1941-04")
    advance(s, at("income/convoy-routes", "1941-winter"))
    s.apply({"kind": "close_route", "route": "north_atlantic"})
    s.apply({"kind": "close_route", "route": "south_atlantic"})
    assert convoys.closed(s, "north_atlantic") and convoys.closed(s, "south_atlantic")
    with pytest.raises(IllegalOrder, match="ETO-36.4: the north atlantic route is already closed"):
        s.apply({"kind": "close_route", "route": "north_atlantic"})
    assert income_debit(s, "UK", "1941-winter") == 0  # "He receives his full income ... during this winter turn"
    s.apply({"kind": "end_step"})
    assert s.tracks["UK.closure_pending"] == 45
    advance(s, at("income/convoy-routes", "1941-spring"))
    assert income_debit(s, "UK", "1941-spring") == -45  # "his base income is modified downward by 45 EPs"
    assert {"kind": "open_route", "route": "north_atlantic"} in s.legal_orders()
    s.apply({"kind": "open_route", "route": "north_atlantic"})
    assert not convoys.closed(s, "north_atlantic") and convoys.closed(s, "south_atlantic")


def test_eto_36_4_us_coast_from_january_1942_and_the_arctic_by_choice(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1941-12", "1942-01")
    assert convoy_routes.closed_now(s, "us_coast") == "it opens in 1942-01"
    assert convoy_routes.closed_now(s, "arctic") == "the Western Allies have not opened it"
    assert convoy_routes.closed_now(s, "north_atlantic") is None
    advance(s, at("income/convoy-routes", "1942-winter"))
    assert convoy_routes.closed_now(s, "us_coast") is None
    s.apply({"kind": "close_route", "route": "us_coast"})
    s.apply({"kind": "open_route", "route": "arctic"})
    assert convoy_routes.closed_now(s, "arctic") is None
    s.apply({"kind": "end_step"})
    assert s.tracks["US.closure_pending"] == 30  # "at a cost of 30 EPs per seasonal turn"
    assert "UK.closure_pending" not in s.tracks  # the Arctic costs nothing


def test_eto_36_4_the_arctic_closes_with_murmansk_in_winter(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1941-12", "1942-01")
    s.tracks["convoy.arctic.open"] = 1
    hm = s.map
    ctl.control(s)[hm.index(hm.hex_of("Murmansk"))] = ctl.AXIS
    advance(s, at("income/convoy-routes", "1942-winter"))
    assert convoy_routes.closed_now(s, "arctic") is not None
    assert any("Murmansk" in e["text"] for e in events(s, "convoy_closed"))
    assert "the Axis controls Murmansk" in convoy_routes.close_why_not(s, "allies", "arctic", opening=True).why


def test_eto_36_5_lend_lease_to_the_ussr(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1941-09", "1941-10", BARBAROSSA)
    advance(s, at("income/exchanges", "1941-autumn"))
    while s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    most = lend_lease.limit(s, "UK", "SU")[0]
    assert most == s.tracks["UK.eps"] // 3  # a third of the total after income, before construction
    uk0, su0 = s.tracks["UK.eps"], s.tracks["SU.eps"]
    s.apply({"kind": "lend_lease", "from": "UK", "to": "SU", "eps": 6})
    assert (s.tracks["UK.eps"], s.tracks["SU.eps"]) == (uk0 - 6, su0 + 6)  # at once
    assert s.ruleset.metrics(s).economy["UK.lend_lease"] == 6.0            # the charts' running total
    assert convoy_routes.closed_now(s, "arctic") is None  # more than 5: the Arctic route opens
    assert convoys.division(s, "arctic", 6) == {"UK": 3, "SU": 3}
    with pytest.raises(IllegalOrder, match="ETO-36.5: UK sends up to 1/3 of its total"):
        s.apply({"kind": "lend_lease", "from": "UK", "to": "SU", "eps": most - 5})
    s.apply({"kind": "lend_lease", "from": "UK", "to": "SU", "eps": most - 6})
    with pytest.raises(IllegalOrder, match="ETO-36.5: the US sends lend lease from the winter 1942"):
        s.apply({"kind": "lend_lease", "from": "US", "to": "SU", "eps": 1})
    assert convoy_routes.close_why_not(s, "allies", "arctic").rule == "ETO-36.5"  # must stay open this season


def test_eto_36_5_no_lend_lease_before_an_axis_invasion_or_after_a_soviet_one(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1941-05", "1941-06", WAR)
    assert "has not invaded the Soviet Union" in lend_lease.why_not(s, "allies", "UK", "SU", 5).why
    s2 = new_state(tmp_path, "1941-09", "1941-10", BARBAROSSA)
    politics.writable(s2)["axis_soviet_war_by"] = "soviet"
    assert "no lend lease, ever" in lend_lease.why_not(s2, "allies", "UK", "SU", 5).why


def test_eto_36_6_uk_receipts_in_1941(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1940-12", "1941-01")
    advance(s, at("income/convoy-routes", "1941-winter"))
    inc = next(e for e in events(s, "income") if e["rule"] == "ETO-36.1" and e["data"]["nation"] == "UK")
    assert inc["data"]["lend_lease"] == 15 and "+ 15 US lend lease (36.6)" in inc["text"]
    s.apply({"kind": "close_route", "route": "north_atlantic"})
    assert income.uk_receipts(s) == 0  # only with the North Atlantic open


def test_eto_36_6_raised_in_summer_and_autumn_without_a_soviet_german_war(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1941-06", "1941-07", WAR)
    advance(s, at("income/convoy-routes", "1941-summer"))
    assert income.uk_receipts(s) == 20
    s3 = new_state(tmp_path, "1941-09", "1941-10", WAR)
    advance(s3, at("income/convoy-routes", "1941-autumn"))
    assert income.uk_receipts(s3) == 25
    s2 = new_state(tmp_path, "1941-06", "1941-07", BARBAROSSA)
    advance(s2, at("income/convoy-routes", "1941-summer"))
    assert income.uk_receipts(s2) == 15


def test_eto_36_7_36_8_us_lend_lease_to_the_uk(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1942-03", "1942-04", BARBAROSSA, US_eps=100)
    advance(s, at("income/exchanges", "1942-spring"))
    while s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    us = s.tracks["US.eps"]
    assert income.us_base_income(s) == 60  # the 1942 year track
    assert lend_lease.limit(s, "US", "UK")[0] == us // 2
    with pytest.raises(IllegalOrder, match="ETO-36.8: the US may spend at most two thirds of its income"):
        s.apply({"kind": "lend_lease", "from": "US", "to": "UK", "eps": 41})
    s.apply({"kind": "lend_lease", "from": "US", "to": "UK", "eps": 40})
    assert lend_lease.sent(s, "US", "UK") == 40 and convoys.division(s, "north_atlantic", 9) == {"UK": 5, "US": 4}
    with pytest.raises(IllegalOrder, match="ETO-36.8"):
        s.apply({"kind": "lend_lease", "from": "US", "to": "SU", "eps": 1})


def test_eto_36_9_germany_sends_italy_up_to_15(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1940-12", "1941-01")
    advance(s, at("income/exchanges", "1941-winter"))
    while s.decision.side != "axis":
        s.apply({"kind": "end_step"})
    with pytest.raises(IllegalOrder, match="ETO-36.9: Germany sends Italy up to 15 EPs a season"):
        s.apply({"kind": "lend_lease", "from": "GE", "to": "IT", "eps": 16})
    s.apply({"kind": "lend_lease", "from": "GE", "to": "IT", "eps": 10})
    with pytest.raises(IllegalOrder, match="ETO-36.9"):
        s.apply({"kind": "lend_lease", "from": "GE", "to": "IT", "eps": 6})
    with pytest.raises(IllegalOrder, match="ETO-36.0: EPs pass only"):
        s.apply({"kind": "lend_lease", "from": "IT", "to": "GE", "eps": 1})


def test_eto_36_4_atlantic_closed_with_the_uk_conquered_until_us_lend_lease_reopens_it(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1942-03", "1942-04", BARBAROSSA)
    politics.writable(s)["conquered"] = {"UK": "GE"}
    assert convoy_routes.closed_now(s, "north_atlantic") == "the United Kingdom is conquered"
    assert convoys.closed(s, "south_atlantic")
    advance(s, at("income/exchanges", "1942-spring"))
    while s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    s.apply({"kind": "lend_lease", "from": "US", "to": "SU", "eps": 6})
    assert convoy_routes.closed_now(s, "north_atlantic") is None  # "the US player must reopen the North Atlantic"
    assert convoy_routes.closed_now(s, "arctic") is None and convoys.closed(s, "south_atlantic")


def test_eto_36_1_the_us_draws_its_year_track_from_winter_1942(tmp_path: Path) -> None:
    s = new_state(tmp_path, "1941-12", "1942-01", BARBAROSSA)
    assert income.us_base_income(s) == 0  # "the US gains no EPs until the winter 1942 seasonal turn"
    advance(s, at("income/convoy-routes", "1942-winter"))
    inc = next(e for e in events(s, "income") if e["rule"] == "ETO-36.1" and e["data"]["nation"] == "US")
    assert inc["data"]["base"] == 60  # "for example, 60 during 1942"
    s2 = new_state(tmp_path, "1941-06", "1941-07", WAR)
    politics.writable(s2)["conquered"] = {"UK": "GE"}
    assert income.us_base_income(s2) == 0  # neutral
    politics.join(s2, "US", "western")
    assert income.us_base_income(s2) == 50  # 40.7: "50 EPs per season prior to 1942, if it is in the war"


def test_eto_36_3_soviet_income_follows_the_war_state(tmp_path: Path) -> None:
    from workbench.rulesets.eto import invasion

    s = new_state(tmp_path, "1941-06", "1941-07", WAR)
    s.tracks.pop("SU.income_base", None)
    invasion.invade(s, "GE", "SU")
    assert s.tracks["war.SU-GE"] == "1941-06" and politics.war_state(s)["axis_soviet_war_by"] == "axis"
    advance(s, at("income/convoy-routes", "1941-summer"))
    inc = next(e for e in events(s, "income") if e["rule"] == "ETO-36.1" and e["data"]["nation"] == "SU")
    assert inc["data"]["base"] == 80  # "its income jumps to 80 EPs on the following seasonal turn"
    s2 = new_state(tmp_path, "1941-12", "1942-01", WAR)
    advance(s2, at("income/convoy-routes", "1942-winter"))
    inc = next(e for e in events(s2, "income") if e["rule"] == "ETO-36.1" and e["data"]["nation"] == "SU")
    assert inc["data"]["base"] == 100  # "If the Soviet Union is still neutral during the winter 1942"


def test_eto_36_6_usll_destroyers_arrive_straight_in_a_convoy_escort_box(tmp_path: Path) -> None:
    """36.6: "the British order of battle lists several 'USLL Destroyer' units. These are destroyers
    which, upon arrival, can be placed directly in a convoy escort box" -- a scenario's arrival in the
    North Atlantic escort box escorts that route at once; any other unit is refused there at load."""
    from eto_kit import scenario_text

    from workbench.engine import load_scenario
    from workbench.engine.errors import ScenarioError
    from workbench.rulesets.eto import convoys

    arrival = ('[[reinforcements]]\nturn = "1941-05"\nnation = "UK"\nwhere = "North Atlantic convoy escort box"\n'
               'units = [{ id = "UK-USLL1", type = "dd", usll = true }]\n')
    text = scenario_text([unit("GE-1", "GE", "infantry", "03946")], first="1941-04", last="1941-06", west=True,
                         options={"naval": True}, extra=arrival)
    path = tmp_path / "usll.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    assert "UK-USLL1" not in s.units_by_id
    for _ in range(400):
        if s.turn_label == "1941-05":
            break
        d = s.decision
        s.apply({"kind": "end_step"} if "end_step" in d.kinds else {"kind": "pass"} if "pass" in d.kinds
                else {"kind": "choose_first", "side": d.side} if "choose_first" in d.kinds else s.legal_orders()[0])
    u = s.unit("UK-USLL1")
    assert u.location == "North Atlantic convoy escort box" and u in convoys.escorts(s, "north_atlantic")
    path.write_text(text.replace("usll = true", "usll = false"))
    with pytest.raises(ScenarioError, match="36.6"):
        load_scenario(path)
