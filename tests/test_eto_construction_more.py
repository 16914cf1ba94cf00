"""ETO construction, income and partisans with the rulebook's numbers: force-pool additions and
partnership costs (37.0), installation repair (37.5), placement (37.6), Siberian transfers
(43.1), partisans (45.0-45.3) and an end-to-end Barbarossa income (36.1, 36.3)."""

from __future__ import annotations

import numpy as np
import pytest
from eto_kit import FixedDice, events, new_state, step_to, unit

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.eto import construction, income, values
from workbench.rulesets.eto.construction import (
    SIBERIA,
    TURN_TRACK,
    BuildOrder,
    partisan_build_why_not,
    partisan_limit,
    partisan_ok,
    placement_ok,
)
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.losses import FORCE_POOL
from workbench.rulesets.eto.terrain import hex_lonlat, terrain_arrays

WAR = {"war.SU-GE": "1941-06"}


def _as(s, side: str) -> None:
    """Give ``side`` the decision (orders checked outside the sequence of play)."""
    s.frames.append({"interrupt": "test", "side": side, "rule": "", "prompt": "", "orders": [], "data": {}})


def _build_step(tmp_path, units, **kw):
    """The allies' turn in Step 3 of the autumn 1941 Construction phase."""
    s = new_state(tmp_path, units, first="1941-09", last="1941-10", **kw)
    step_to(s, "construction/build", limit=100)
    assert s.turn_label == "1941-autumn" and s.decision.side == "axis"
    s.apply({"kind": "end_step"})
    assert s.decision.side == "allies" and s.decision.kind == "construction/build"
    return s


def _pool(s, nation: str, utype: str) -> int:
    return sum(1 for u in s.units_by_id.values() if u.location == FORCE_POOL and u.nation == nation and u.type == utype)


# -- 37.0 ----------------------------------------------------------------------------------------------
def test_eto_37_0_winter_additions_majors_pay_partnership_costs(tmp_path):
    """37.0: "Every winter seasonal turn, countries add new units to their force pools"; "Only
    major countries can build units. Major countries can rebuild minor partner units ... Minor
    partner units cost the same as equivalent units of the major partner"; "some costs are
    different for different countries".  Chart: infantry 8 (Axis) / 5 (Russia), armor 12 / 8.
    Winter 1942 additions (force_pools.toml, authored): USSR +15 infantry, +6 armor; Germany +4
    infantry, +2 armor; Rumania +2 infantry."""
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("RO-i", "RO", "infantry", FORCE_POOL),
             unit("GE-i", "GE", "infantry", FORCE_POOL), unit("GE-t", "GE", "armor", FORCE_POOL),
             unit("SU-i", "SU", "infantry", FORCE_POOL), unit("SU-t", "SU", "armor", FORCE_POOL)]
    s = new_state(tmp_path, units, first="1941-12", last="1942-02", tracks={"GE.eps": 20, "SU.eps": 20})
    before = {(n, t): _pool(s, n, t) for n, t in (("SU", "infantry"), ("SU", "armor"), ("GE", "infantry"),
                                                  ("GE", "armor"), ("RO", "infantry"))}
    construction.additions(s, None)  # 1941-12 is a monthly turn: nothing
    assert {k: _pool(s, *k) for k in before} == before
    s.turn = s.calendar.index("1942-winter")
    construction.additions(s, None)
    got = {k: _pool(s, *k) - v for k, v in before.items()}
    assert got == {("SU", "infantry"): 15, ("SU", "armor"): 6, ("GE", "infantry"): 4, ("GE", "armor"): 2,
                   ("RO", "infantry"): 2}
    assert {e["data"]["nation"] for e in events(s, "force_pool")} >= {"GE", "IT", "RO", "HU", "SU"}
    assert all(e["rule"] == "ETO-37.0" for e in events(s, "force_pool"))
    cost = construction.build_cost
    assert [cost(s, s.unit(u)) for u in ("RO-i", "GE-i", "GE-t", "SU-i", "SU-t")] == [8, 8, 12, 5, 8]
    # Rumania has no EP track: its infantry is built by Germany, from Germany's EPs.
    _as(s, "axis")
    b = BuildOrder()
    assert b._why_not(s, s.unit("RO-i"), {"at": "07561"}) is None
    b.execute(s, {"kind": "build", "unit": "RO-i", "at": "07561"})
    assert s.tracks["GE.eps"] == 12 and "RO.eps" not in s.tracks
    assert s.unit("RO-i").location == "07561"
    s.tracks["GE.eps"] = 7
    assert b._why_not(s, s.unit("GE-i"), {"at": "07561"}).rule == "ETO-37.1"  # 8 > 7


# -- 37.5 ----------------------------------------------------------------------------------------------
def test_eto_37_5_destroyed_installation_repaired_for_two_eps(tmp_path):
    """37.5: "A destroyed installation marker can be removed from any friendly hex, even one marked
    out of supply, for a cost of 2 EPs. This repair is automatically successful during a seasonal
    turn"; 37.8: reserve EPs may pay for it; 37.1: no deficit spending."""
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-a", "SU", "infantry", "08842")]
    s = _build_step(tmp_path, units)
    s.markers["destroyed"] = {"08842": {"kind": "fortification", "side": "axis"},
                              "08640": {"kind": "fortification", "side": "allies"}}
    s.unit("SU-a").props["oos"] = True  # the hex is marked out of supply: still repairable
    eps = s.tracks["SU.eps"]
    assert {"kind": "build", "repair": "08842", "nation": "SU"} in s.legal_orders()
    assert not [o for o in s.legal_orders() if o.get("repair") == "08640"]
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "build", "repair": "08640", "nation": "SU"})
    assert e.value.rule == "ETO-37.5" and "not a friendly hex" in e.value.why
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "build", "repair": "08841", "nation": "SU"})
    assert e.value.rule == "ETO-37.5" and "no destroyed installation" in e.value.why
    s.apply({"kind": "build", "repair": "08842", "nation": "SU"})
    assert s.tracks["SU.eps"] == eps - 2
    assert "08842" not in s.markers["destroyed"]
    assert s.markers["forts"]["08842"] == {"side": "allies", "kind": "fortification"}
    ev = events(s, "installation_repaired")[-1]
    assert (ev["rule"], ev["data"]["eps"]) == ("ETO-37.5", 2)
    assert not events(s, "roll") or all(r["rule"] != "ETO-37.5" for r in events(s, "roll"))  # no die
    # the economic reserve pays when the track is empty; one EP is not enough
    s.markers["destroyed"]["08841"] = {"kind": "fortification"}
    control(s)[s.map.index("08841")] = SIDE_CODE["allies"]
    s.tracks["SU.eps"], s.tracks["SU.reserve"] = 0, 1
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "build", "repair": "08841", "nation": "SU"})
    assert e.value.rule == "ETO-37.1"
    s.tracks["SU.reserve"] = 5
    s.apply({"kind": "build", "repair": "08841", "nation": "SU"})
    assert (s.tracks["SU.eps"], s.tracks["SU.reserve"]) == (0, 3)


# -- 37.6 ----------------------------------------------------------------------------------------------
def test_eto_37_6_infantry_and_turn_track_placement(tmp_path):
    """37.6: "Infantry can be placed in any home country hex that is in supply and not in enemy
    ZOC"; "All units that enter play from the turn track must be placed in resource hexes of their
    home country that are in supply and not in enemy ZOC"; "If a unit is due to arrive on the map
    and there is no eligible hex for it to enter, it is returned to the force pool"."""
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-i", "SU", "infantry", FORCE_POOL),
             unit("SU-t", "SU", "armor", TURN_TRACK), unit("SU-u", "SU", "armor", TURN_TRACK)]
    s = new_state(tmp_path, units, first="1941-09", last="1941-10")
    i = s.unit("SU-i")
    assert placement_ok(s, i, "08842") is None
    assert "enemy ZOC" in placement_ok(s, i, "08740").why
    assert "home country" in placement_ok(s, i, "06046").why  # Poland
    assert "not friendly" in placement_ok(s, i, "08745").why  # Soviet home hex held by the Axis
    assert "resource" in placement_ok(s, i, "08842", resource_only=True).why
    s.turn = s.calendar.index("1941-autumn")
    s.unit("SU-t").props["arrives"] = "1941-autumn"
    construction.delayed(s, None)
    ta = terrain_arrays(s)
    at = s.map.index(s.unit("SU-t").location)
    assert (ta.resource[at] or ta.city_resource[at]) and home_mask(s, "SU")[at]
    assert control(s)[at] == SIDE_CODE["allies"]
    # no eligible hex: back to the force pool
    ctrl = control(s)
    ctrl[home_mask(s, "SU")] = SIDE_CODE["axis"]
    s.forget()
    s.unit("SU-u").props["arrives"] = "1941-autumn"
    construction.delayed(s, None)
    assert s.unit("SU-u").location == FORCE_POOL
    assert events(s, "arrive")[-1]["rule"] == "ETO-37.6"


def test_eto_37_6_45_3_partisan_placement(tmp_path):
    """37.6 / 45.3: partisans "must be placed within their home country, but need not be placed in
    a friendly hex ... must be adjacent to a home country resource hex (not in the resource hex).
    Neither the partisan hex nor the resource hex can be in enemy ZOC"; 45.6: not with a unit.
    08748 is a Soviet resource hex held by the Axis; 08647 and 08847 are next to it."""
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-p", "SU", "partisan", FORCE_POOL),
             unit("SU-i", "SU", "infantry", "08749")]
    s = new_state(tmp_path, units, tracks=WAR)
    p = s.unit("SU-p")
    ctrl = control(s)
    assert ctrl[s.map.index("08647")] == SIDE_CODE["axis"]
    assert partisan_ok(s, p, "08647") is None                          # an Axis-held hex is fine
    assert "not in one" in partisan_ok(s, p, "08748").why                  # the resource hex itself
    assert "not adjacent" in partisan_ok(s, p, "08746").why
    assert "outside" in partisan_ok(s, p, "06046").why                     # Poland
    assert partisan_ok(s, p, "08749").rule == "ETO-45.6"           # a Soviet unit is there
    s2 = new_state(tmp_path, [*units, unit("GE-b", "GE", "infantry", "08848")], tracks=WAR)
    p2 = s2.unit("SU-p")
    assert "enemy ZOC" in partisan_ok(s2, p2, "08847").why                 # next to GE-b
    assert "every home resource hex" in partisan_ok(s2, p2, "08647").why  # 08748 is in GE-b's ZOC


# -- 45.0 - 45.2 ---------------------------------------------------------------------------------------
def test_eto_45_1_partisan_maxima_from_the_table(tmp_path):
    """45.1: "Poland 1, France 1, Greece 1, Ireland 1, Finland 1, Norway 1, Turkey 8, Yugoslavia 3,
    Sweden 3, Soviet Union 6" (inventory §3.46); a seventh Soviet partisan cannot be built."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], tracks=WAR)
    row = s.ruleset.tables["force_pools"]["partisan_max"]
    assert row["source"] == "rulebook"
    assert {k: row[k] for k in ("PL", "FR", "GR", "IE", "FI", "NO", "TR", "YU", "SE", "SU")} == \
        {"PL": 1, "FR": 1, "GR": 1, "IE": 1, "FI": 1, "NO": 1, "TR": 8, "YU": 3, "SE": 3, "SU": 6}
    far = ["09925", "10242", "10316", "10429", "12054"]
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-p", "SU", "partisan", FORCE_POOL)]
    units += [unit(f"SU-m{k}", "SU", "partisan", h) for k, h in enumerate(far)]
    s = new_state(tmp_path, units, tracks=WAR)
    assert partisan_build_why_not(s, s.unit("SU-p")) is None            # five on the map
    s.unit("SU-p").location = "08647"
    s.units_by_id["SU-p2"] = type(s.unit("SU-p"))("SU-p2", "allies", "SU", "partisan", None, FORCE_POOL, False, {})
    why = partisan_build_why_not(s, s.unit("SU-p2"))
    assert why.rule == "ETO-45.1" and "maximum of 6" in why.why


def test_eto_45_2_partisans_per_season_and_soviet_war(tmp_path):
    """45.2: "pre-1942, 1 partisan per season; 1942, 2 partisans per season; after 1942, 3"; "The
    Soviet Union cannot purchase partisan units until after it goes to war with Germany".  The
    chart's partisan cost is 2 EPs."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], first="1941-12", last="1943-02")
    got = []
    for label in ("1941-12", "1942-winter", "1942-12", "1943-winter"):
        s.turn = s.calendar.index(label)
        got.append(partisan_limit(s))
    assert got == [1, 2, 2, 3]
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-p", "SU", "partisan", FORCE_POOL),
             unit("SU-q", "SU", "partisan", FORCE_POOL)]
    for war in ({}, {"war.SU-GE": "1941-10"}):  # no war yet, or one that begins after this seasonal turn
        s = _build_step(tmp_path, units, tracks=war)
        with pytest.raises(IllegalOrder) as e:
            s.apply({"kind": "build", "unit": "SU-p", "at": "08647"})
        assert e.value.rule == "ETO-45.2" and "war with Germany" in e.value.why
    s = _build_step(tmp_path, units, tracks=WAR)
    eps = s.tracks["SU.eps"]
    assert {"kind": "build", "unit": "SU-p", "depleted": False, "at": "08647"} in s.legal_orders()
    s.apply({"kind": "build", "unit": "SU-p", "depleted": False, "at": "08647"})
    assert s.unit("SU-p").location == "08647" and s.tracks["SU.eps"] == eps - 2
    assert not [o for o in s.legal_orders() if o.get("unit") == "SU-q"]
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "build", "unit": "SU-q", "at": "08847"})
    assert e.value.rule == "ETO-45.2" and "limit of 1 partisan(s)" in e.value.why


def test_eto_45_0_partisans_only_once_the_country_is_occupied(tmp_path):
    """45.0: "Certain nations are subject to partisan activity after they have been conquered, or
    when they are partially occupied by the units of an invader" (ruling: at least one hex of the
    home country held by the enemy)."""
    units = [unit("GE-a", "GE", "infantry", "08640"), unit("SU-p", "SU", "partisan", FORCE_POOL)]
    s = new_state(tmp_path, units, tracks=WAR)
    assert partisan_build_why_not(s, s.unit("SU-p")) is None            # the west of the USSR is held
    ctrl = control(s)
    su = home_mask(s, "SU", original=True)
    ctrl[su] = SIDE_CODE["allies"]
    why = partisan_build_why_not(s, s.unit("SU-p"))
    assert why.rule == "ETO-45.0" and "neither conquered nor partly occupied" in why.why
    ctrl[int(np.flatnonzero(su)[0])] = SIDE_CODE["axis"]
    assert partisan_build_why_not(s, s.unit("SU-p")) is None


# -- 43.1 ----------------------------------------------------------------------------------------------
def test_eto_43_1_siberian_transfers_die_plus_captured_cities(tmp_path):
    """43.1: "During Step 3 of the Construction phase of each subsequent seasonal turn, the Soviet
    player rolls a die and adds the number of Soviet home country (including Riga, in Latvia) city
    resource hexes captured by the Axis. The result is the number of units that can be
    transferred"; they "cost no EPs"; "discontinued when the last of the 10 units is moved".
    Six Soviet city resource hexes are Axis-held on the test front; die 3: 9 units."""
    units = [unit("GE-a", "GE", "infantry", "08640")]
    units += [unit(f"SU-s{k}", "SU", "infantry", SIBERIA) for k in range(10)]
    s = _build_step(tmp_path, units, tracks=WAR, specials=("siberian_transfers",))
    ta = terrain_arrays(s)
    held = home_mask(s, "SU", original=True) & ta.city_resource & (control(s) == SIDE_CODE["axis"])
    assert int(held.sum()) == 6
    s.dice = FixedDice(3)
    construction.begin_build(s, None)
    roll = [e for e in events(s, "roll") if e["rule"] == "ETO-43.1"][-1]
    assert roll["dice"] == [3] and "6 captured" in roll["text"]
    assert s.tracks["SU.siberian_allowed"] == 9
    # Riga captured too: die 2 + 7
    control(s)[s.map.index(s.map.hex_of("Riga"))] = SIDE_CODE["axis"]
    s.dice = FixedDice(2)
    construction.begin_build(s, None)
    assert s.tracks["SU.siberian_allowed"] == 9
    eps = s.tracks["SU.eps"]
    for _ in range(9):
        o = next(o for o in s.legal_orders() if o["kind"] == "build" and s.unit(o["unit"]).location == SIBERIA)
        s.apply(o)
    assert s.tracks["SU.eps"] == eps  # free
    assert sum(1 for u in s.units_by_id.values() if u.location == SIBERIA) == 1
    left = next(u for u in s.units_by_id.values() if u.location == SIBERIA)
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "build", "unit": left.id, "at": "08842"})
    assert e.value.rule == "ETO-43.1"
    assert all(values.on_map(s.unit(f"SU-s{k}")) or s.unit(f"SU-s{k}") is left for k in range(10))
    # the box empties: no more rolls
    left.location = "08942"
    n = len(events(s, "roll"))
    construction.begin_build(s, None)
    assert len(events(s, "roll")) == n


# -- 36.1 / 36.3 end to end ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def barbarossa():
    return load_scenario("eto/barbarossa-1941")


def _occupy_west(s, lon_max: float = 31.5) -> None:
    """The Axis holds every Soviet-held hex west of ``lon_max`` (Leningrad, Minsk, Kiev, Odessa, the
    Baltic States and eastern Poland); the Soviet units there are gone."""
    lon, _ = hex_lonlat(s)
    ctrl = control(s)
    west = (lon < lon_max) & (ctrl == SIDE_CODE["allies"])
    ctrl[west] = SIDE_CODE["axis"]
    for u in s.units_by_id.values():
        if values.on_map(u) and u.side == "allies" and west[s.map.index(u.location)]:
            u.location = FORCE_POOL
    s.forget()


def test_eto_36_1_36_3_barbarossa_seasonal_income(barbarossa):
    """36.1/36.3 on the Barbarossa map.  Summer 1941, as deployed: Germany 90 + 16 partner and
    captured resource hexes x 2 = 122; Italy 30 + Albania 2 x 2 = 34; the USSR 80 ("jumps to 80
    EPs on the following seasonal turn") + Riga and two eastern Polish hexes x 2 = 86.
    With Leningrad, Minsk, Kiev and Odessa taken: Germany +1 for each (Soviet original border)
    and +2 for Riga and the two Polish hexes = 132; the USSR loses 1 per home resource hex (36.2).
    A German track at -20 is marked 112 ("132 ... -20 ... 112").  Kiev in Soviet ZOC pays nothing.
    Winter 1942: the USSR's base is 100 (+20), once."""
    s = barbarossa.new_state(0)
    s.turn = s.calendar.index("1941-summer")
    eps = {n: s.tracks[f"{n}.eps"] for n in ("GE", "IT", "SU")}
    income.collection(s, None)
    income.losses(s, None)
    got = {n: s.tracks[f"{n}.eps"] - eps[n] for n in eps}
    assert got == {"GE": 122, "IT": 34, "SU": 86}
    s = barbarossa.new_state(0)
    s.turn = s.calendar.index("1941-summer")
    _occupy_west(s)
    s.tracks["GE.eps"] = -20
    su = s.tracks["SU.eps"]
    income.collection(s, None)
    ge_notes = events(s, "income")[-3]["data"]["notes"]
    assert sorted(n for n in ge_notes if n.endswith("+1")) == ["07026 +1", "07239 +1", "07946 +1", "08254 +1"]
    income.losses(s, None)
    assert s.tracks["GE.eps"] == 112
    assert s.tracks["SU.eps"] - su == 80 - 4
    # a Soviet unit next to Kiev: Kiev is in enemy ZOC and pays nothing
    kiev = s.map.index("07946")
    east = max((int(j) for j in s.map.neighbors[kiev] if j >= 0), key=lambda j: hex_lonlat(s)[0][j])
    s.units_by_id["SU-x"] = type(s.unit("SU-KievFR"))("SU-x", "allies", "SU", "infantry", None,
                                                       s.map.label(east), False, {})
    s.forget()
    total, notes = income.resource_income(s, "GE", "axis")
    assert total == 132 - 90 - 1 and "07946 +1" not in notes
    # winter 1942: 80 + 20, however often the base is asked for
    s.turn = s.calendar.index("1942-winter")
    assert income.base_income(s, "SU") == 100
    assert income.base_income(s, "SU") == 100


#: The Production and EP Costs chart as printed (ETO-CHART-1): item -> (Allies, Russia, Axis, delay);
#: None where the chart prints "-".
PRINTED_CHART = {
    "armor": (16, 8, 12, 1), "paratroop": (8, 6, 8, 1), "fighter": (16, 10, 20, 1), "bomber": (12, 8, 16, 1),
    "submarine": (5, 8, 5, 2), "uboat": (None, None, 8, 2), "dd": (10, 10, 10, 2), "cl": (12, 10, 10, 2),
    "bb_cv": (14, None, 15, 4), "de": (8, None, None, 1), "cve": (12, None, None, 2), "stp": (4, 4, 4, None),
    "atp": (6, 6, 6, None), "airfield": (3, 3, 3, 1), "fortification": (5, 5, 5, 1), "coastal_fort": (3, 3, 3, 1),
    "offensive": (3, 2, 2, None), "impromptu": (6, 4, 4, None), "pilot_recovery": (5, 5, 5, None),
    "install_repair": (2, 2, 2, None), "partisan": (2, 2, 2, None),
}


def test_eto_chart_1_the_production_and_ep_costs_chart_is_transcribed_as_printed(barbarossa):
    """ETO-CHART-1: every cost of the printed chart, per column, with its delay in seasons; infantry
    "8 | 5/3 | 8/4" (E13: full / half); a German armor corps costs the Axis column's 12, a Soviet
    one the Russia column's 8."""
    chart = barbarossa.ruleset.tables["costs"]["chart"]
    for item, (allies, russia, axis, delay) in PRINTED_CHART.items():
        row = chart[item]
        assert (row.get("allies"), row.get("russia"), row.get("axis")) == (allies, russia, axis), item
        if delay is not None:
            assert row["delay"] == delay, item
    split = barbarossa.ruleset.tables["costs"]["infantry_split"]
    assert (split["full"], split["half"]) == ({"allies": 8, "russia": 5, "axis": 8}, {"allies": 4, "russia": 3, "axis": 4})
    s = barbarossa.new_state(0)
    ge = next(u for u in s.units_by_id.values() if u.nation == "GE" and u.type == "armor")
    su = next(u for u in s.units_by_id.values() if u.nation == "SU" and u.type == "armor")
    assert (construction.build_cost(s, ge), construction.build_cost(s, su)) == (12, 8)
