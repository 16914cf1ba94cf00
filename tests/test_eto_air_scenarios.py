"""The ETO air scenarios (issue 21): Battle of Britain 1940 and Barbarossa 1941 with air.

The set-up is checked against the basing rules (ETO-13.2, 13.4) and the ranges of units.toml;
play is only started (a few steps), since the air rules code is still being written.
"""

from __future__ import annotations

import pytest

from workbench.engine import load_scenario
from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import air_units, airbases, values
from workbench.rulesets.eto.control import SIDE_CODE, control

BOB = "eto/battle-of-britain-1940"
BARBAROSSA = "eto/barbarossa-1941"
SCENARIOS = [BOB, BARBAROSSA]


@pytest.fixture(scope="module", params=SCENARIOS)
def start(request):
    return load_scenario(request.param).new_state(seed=1)


@pytest.fixture(scope="module")
def bob():
    return load_scenario(BOB).new_state(seed=1)


def bases(state, label: str) -> int:
    """ETO-13.2 as the scenarios were authored: a city or port 1, a resource hex 1; a city resource
    hex 2 (its city and its resource)."""
    row = state.map.hexes.row(state.map.index(label), named=True)
    if row["city_resource"]:
        return 2
    return int(row["city"] is not None or row["port"] is not None) + int(bool(row["resource"]))


def air_on_map(state):
    return [u for u in air_units.air_units(state) if values.on_map(u)]


def step(state) -> None:
    """Move play on: end the step or pass; a decision with neither takes its first legal order."""
    try:
        state.advance()
    except IllegalOrder:
        legal = state.legal_orders()
        state.apply(next((o for o in legal if o["kind"] in ("end_step", "pass")), legal[0]))


def channel_coast(state) -> set[str]:
    """British land hexes beside the English Channel sea area."""
    hm = state.map
    rows = hm.hexes.select("id", "country", "sea_area").rows()
    out = set()
    for i, (label, country, _) in enumerate(rows):
        if country == "United Kingdom" and any(j >= 0 and rows[j][2] == "English Channel" for j in hm.neighbors[i]):
            out.add(label)
    return out


# -- set-up ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sid", SCENARIOS)
def test_air_scenario_loads_with_air_on(sid):
    game = load_scenario(sid)
    assert game.options.get("air") is True
    assert game.scenario.raw["options"]["air"] is True


def test_air_scenario_every_air_unit_has_its_nation_counter(start):
    """GAP-15: each air unit's nation has a counter for its type in units.toml (no nation without one
    is given air units: the Axis minors are folded into German counters)."""
    types = start.ruleset.tables["units"]["types"]
    air = air_on_map(start)
    assert air
    for u in air:
        assert u.nation in types[u.type].get("nations", {}), (u.id, u.type, u.nation)
        assert air_units.air_range(start, u) > 0, u.id
        assert start.game.scenario_units[u.id]["props"].get("note"), f"{u.id} has no note"


def test_air_scenario_every_air_unit_on_a_friendly_base(start):
    """ETO-13.2: every air unit stands on a base its side controls at the start."""
    ctrl = control(start)
    for u in air_on_map(start):
        i = start.map.index(u.location)
        assert bases(start, u.location) > 0, f"{u.id} at {u.location}: no city, port or resource hex"
        assert ctrl[i] == SIDE_CODE[u.side], f"{u.id} at {u.location}: not a hex of its side"
        assert airbases.is_friendly_base(start, u.side, u.location), u.id
        assert air_units.base_of(u) == u.location


def test_air_scenario_no_base_overstacked(start):
    """ETO-13.2/13.4: no hex holds more air units than its bases (city or port 1, resource 1, a
    city resource hex 2), so no unit starts overstacked and idle."""
    by_hex: dict[str, list[str]] = {}
    for u in air_on_map(start):
        by_hex.setdefault(u.location, []).append(u.id)
    for label, ids in by_hex.items():
        assert len(ids) <= bases(start, label), (label, ids, bases(start, label))
        assert len(ids) <= airbases.capacity(start, label), (label, ids)
        assert not any(start.unit(i).props.get("overstacked") for i in ids), ids


@pytest.mark.parametrize(("sid", "uid"), [(BOB, "IT-CAI"), (BARBAROSSA, "IT-CSIR-Air")])
def test_air_scenario_italian_arrival_finds_a_free_base(sid, uid):
    """The Italian air reinforcement's base has a vacant base for it at the start (37.6, 13.2)."""
    game = load_scenario(sid)
    state = game.new_state(seed=1)
    [entry] = [r for r in game.scenario.raw["reinforcements"] if any(x["id"] == uid for x in r["units"])]
    where = state.map.hex_of(entry["where"])
    here = [u for u in air_on_map(state) if u.location == where]
    assert len(here) < bases(state, where)
    assert airbases.is_friendly_base(state, "axis", where)


# -- Battle of Britain: ranges --------------------------------------------------------------------------------
def test_bob_order_of_battle():
    """The authored order of battle: Luftflotten 2, 3 and 5 against Fighter and Bomber Command."""
    s = load_scenario(BOB).new_state(seed=1)
    count: dict[tuple[str, str], int] = {}
    for u in air_on_map(s):
        count[u.nation, u.type] = count.get((u.nation, u.type), 0) + 1
    assert count == {("GE", "bomber"): 8, ("GE", "fighter"): 5, ("GE", "fighter_bomber"): 3,
                     ("UK", "fighter"): 7, ("UK", "bomber"): 3}
    land = [u for u in s.units_by_id.values() if values.on_map(u) and values.is_land_unit(s, u)]
    assert sorted(u.id for u in land) == ["GE-VIII-9A", "GE-XIII", "UK-London", "UK-XII"]


def test_bob_every_german_air_unit_reaches_a_british_base(bob):
    """ETO-13.0: every German bomber, fighter and fighter-bomber has London or another British base
    within its range from its base (a mission reaches its target and comes back)."""
    uk_bases = [lab for lab in bob.map.hexes["id"].to_list()
                if bob.map.hexes.row(bob.map.index(lab), named=True)["country"] == "United Kingdom"
                and bases(bob, lab) > 0]
    london = bob.map.hex_of("London")
    assert london in uk_bases
    for u in air_on_map(bob):
        if u.side != "axis":
            continue
        rng = air_units.air_range(bob, u)
        near = min(bob.map.distance(u.location, b) for b in uk_bases)
        assert near <= rng, f"{u.id} at {u.location}: nearest British base {near} hexes, range {rng}"
    # the Bf 109s of the Pas de Calais and Normandy reach London itself; the bombers all do but Luftflotte 5
    for uid in ("GE-JG26-JG51", "GE-JG2-JG27"):
        assert bob.map.distance(bob.unit(uid).location, london) <= air_units.air_range(bob, bob.unit(uid))
    for u in air_on_map(bob):
        if u.side == "axis" and u.type == "bomber" and u.id != "GE-KG26-KG30":
            assert bob.map.distance(u.location, london) <= air_units.air_range(bob, u), u.id


def test_bob_british_fighters_reach_the_channel_coast(bob):
    """ETO-13.0: every fighter of 10, 11 and 12 Group has the Channel coast within its range; 13 Group,
    in the north, has the British bases Luftflotte 5's bombers can reach."""
    coast = channel_coast(bob)
    assert bob.map.hex_of("Dover") in coast and bob.map.hex_of("Southampton") in coast
    lf5 = bob.unit("GE-KG26-KG30")
    lf5_targets = [lab for lab in bob.map.hexes["id"].to_list()
                   if bob.map.hexes.row(bob.map.index(lab), named=True)["country"] == "United Kingdom"
                   and bases(bob, lab) > 0 and bob.map.distance(lf5.location, lab) <= air_units.air_range(bob, lf5)]
    assert lf5_targets
    fighters = [u for u in air_on_map(bob) if u.side == "allies" and air_units.is_fighter(bob, u)]
    assert len(fighters) == 7
    for u in fighters:
        rng = air_units.air_range(bob, u)
        targets = lf5_targets if u.id.startswith("UK-13Gp") else coast
        assert min(bob.map.distance(u.location, c) for c in targets) <= rng, (u.id, u.location)


def test_bob_victory_counts_the_historical_result_until_air_vp_are_counted(bob):
    """GAP-16 (authored): the kernel counts objectives only (London, 10), so a start-of-game count is 0
    VP: the 'Allies marginal victory' band, the historical result."""
    from workbench.rulesets.eto import victory

    vp, detail = victory.axis_vp(bob)
    assert (vp, detail) == (0, {})
    result = victory.final(bob)
    assert result["winner"] == "allies" and result["level"].startswith("Allies marginal victory")
    assert victory.sudden_death(bob) is None


# -- play starts ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sid", SCENARIOS)
def test_air_scenario_play_moves_on(sid):
    """new_state(seed=1) and a few steps: the Naval and Air phase opens (air = true), and passing
    moves play into the Offensive and Movement phases without error."""
    s = load_scenario(sid).new_state(seed=1)
    seen = {s.clock[1]} if len(s.clock) > 1 else set()
    for _ in range(12):
        step(s)
        if len(s.clock) > 1:
            seen.add(s.clock[1])
    assert {"Naval and Air phase", "Offensive phase", "Movement phase"} <= seen
    assert s.turn_label != s.calendar[0]


def test_bob_passing_play_reaches_the_end():
    """Battle of Britain with every decision passed: August, September, the autumn seasonal turn,
    October (the Italian bomber arrives), and a result."""
    s = load_scenario(BOB).new_state(seed=1)
    assert "IT-CAI" not in s.units_by_id
    for _ in range(200):
        if s.is_over:
            break
        step(s)
    assert s.is_over and s.result["winner"] == "allies"
    assert s.unit("IT-CAI").location == s.map.hex_of("Brussels")
    assert s.calendar == ["1940-08", "1940-09", "1940-autumn", "1940-10"]


# -- Barbarossa: the land-only game -----------------------------------------------------------------------------
def test_barbarossa_air_off_plays_no_air_step():
    """options={"air": False} is merged over the scenario's [options]: no Naval and Air phase, no air
    order, and the air units never leave their bases."""
    game = load_scenario(BARBAROSSA, options={"air": False})
    assert game.options["air"] is False
    s = game.new_state(seed=1)
    where = {u.id: u.location for u in air_units.air_units(s)}
    for _ in range(12):
        assert s.clock[1:2] != ("Naval and Air phase",)
        assert not [o for o in s.legal_orders() if o["kind"] in ("fly", "intercept", "air_transport")]
        step(s)
    assert {uid: s.unit(uid).location for uid in where} == where


def test_barbarossa_air_off_is_the_land_game():
    """With air = false the game is the land core's Barbarossa: no air unit in the game at all."""
    s = load_scenario(BARBAROSSA, options={"air": False}).new_state(seed=1)
    assert air_units.air_units(s) == []
    assert not [o for o in s.legal_orders() if o["kind"] == "air_offensive"]


def test_barbarossa_order_of_battle():
    """The authored air order of battle of 22 June 1941 (FI, RO, HU folded into German counters)."""
    s = load_scenario(BARBAROSSA).new_state(seed=1)
    count: dict[tuple[str, str], int] = {}
    for u in air_on_map(s):
        count[u.nation, u.type] = count.get((u.nation, u.type), 0) + 1
    assert count == {("GE", "bomber"): 7, ("GE", "fighter"): 6, ("GE", "fighter_bomber"): 4,
                     ("SU", "bomber"): 8, ("SU", "fighter"): 12, ("SU", "fighter_bomber"): 3}
    folded = {u.id for u in air_on_map(s) if "folded" in s.game.scenario_units[u.id]["props"]["note"]}
    assert {"GE-FAF", "GE-FARR"} <= folded


def test_battle_of_britain_counts_the_air_war_and_its_sudden_death():
    """[victory.air_war]: +1 per British fighter step lost, -1 per 2 German air steps, +2 per
    destroyed base within 4 hexes of London; sudden death when no British fighter is based
    within 4 hexes of London (GAP-16, authored)."""
    from workbench.rulesets.eto import victory

    s = load_scenario(BOB).new_state(seed=1)
    assert victory.sudden_death(s) is None
    s.markers["air_losses"] = {"allies.fighter": 3, "axis.bomber": 4, "axis.fighter": 1}
    s.markers.setdefault("destroyed", {})[s.map.hex_of("Dover")] = {"kind": "installation", "side": "allies"}
    assert victory.air_war_vp(s) == {"British fighter steps lost": 3, "German air steps lost (per 2)": -2,
                                     "11 Group bases destroyed": 2}
    london = s.map.hex_of("London")
    for u in s.units_by_id.values():
        if u.side == "allies" and u.type == "fighter" and u.location.isdigit() \
                and s.map.distance(london, u.location) <= 4:
            u.location = "Force pool"
    res = victory.sudden_death(s)
    assert res is not None and res["winner"] == "axis" and res["level"] == "Axis decisive victory"
    assert res["axis_vp"] == 3


def air_perft_positions() -> dict[str, dict[str, int]]:
    """Legal-order counts by kind at fixed positions of Battle of Britain (seed 0)."""
    s = load_scenario(BOB).new_state(0)
    out: dict[str, dict[str, int]] = {}

    def record(tag: str) -> None:
        counts: dict[str, int] = {}
        for o in s.legal_orders():
            counts[o["kind"]] = counts.get(o["kind"], 0) + 1
        out[tag] = dict(sorted(counts.items()))

    record("start: the Allied strategic bombing raid")
    s.apply({"kind": "end_step"})
    record("the Axis strategic bombing raid")
    s.apply({"kind": "end_step"})
    record("naval and air phase")
    s.apply({"kind": "choose_first", "side": "axis"})
    record("axis air movement")
    s.apply({"kind": "end_step"})
    record("allies air movement")
    s.apply({"kind": "end_step"})
    s.apply({"kind": "begin"})
    record("axis command step")
    s.apply({"kind": "air_offensive", "nations": ["GE"]})
    record("4B-B air moves")
    bomber = next(o for o in s.legal_orders() if o["kind"] == "fly" and o["mission"] == "bomb")
    s.apply(bomber)
    record("after a bombing flight")
    return out


def test_eto_air_perft_corpus():
    """tests/data/eto_air_perft.json: raid, fly, intercept and air_offensive orders are counted from
    fixed positions; a change in the air rules' legal orders shows here."""
    import json
    from pathlib import Path

    want = json.loads((Path(__file__).parent / "data" / "eto_air_perft.json").read_text())
    assert air_perft_positions() == want
