"""SS Amerika minor countries, continued (SSA-18.G, 18.1, 18.2b, 18.3, 18.5-18.7, 18.11a-c).

Maps: the tests/ssa_kit.py test map with its eastern columns given to other countries.  ``two(a, b)``
puts columns 11-12 in country ``a`` and 13-14 in ``b`` (Border Town, 1306, a non-industrial city, is
then in ``b``); the transportation line runs along row 06, Mill Town (0806) is a US industrial city.
With ``b`` neutral, column 13 is its border (next to column 12) and column 14 its interior.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from ssa_kit import build_ssa_testmap, scenario_text
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.map import HexMap
from workbench.rulesets.ssa.control import control_array
from workbench.rulesets.ssa.mobilization import income

NOBODY, AXIS, ALLIES = 0, 1, 2


def _two(a: str, b: str, north: str | None = None):  # noqa: ANN202
    def build(path):  # noqa: ANN001, ANN202
        hm = build_ssa_testmap(path)
        labels = hm.hexes["id"].to_list()
        col = np.array([int(h[:2]) for h in labels])
        row = np.array([int(h[2:]) for h in labels])
        country = np.array(hm.hexes["country"].to_list(), dtype=object)
        country = np.where(col >= 13, b, np.where(col >= 11, a, country))
        if north:  # the coast's northern end (columns 03-05, rows 01-04) in another country
            country = np.where((col >= 3) & (col <= 5) & (row <= 4), north, country)
        hexes = hm.hexes.with_columns(pl.Series("country", country.tolist(), dtype=pl.String))
        out = HexMap(f"ssa-{a}{b}{north or ''}".lower(), hm.grid, hexes, hm.sides, hm.places, hm.meta)
        out.save(path)
        return out

    return build


@pytest.fixture
def game(tmp_path):
    """``game(a, b, units, control="...", north=None, axis=..., allies=...)``: a loaded scenario."""
    def make(a, b, units, control="", north=None, axis=("GE", "JA", "SS"), allies=("US", "BC")):  # noqa: ANN001, ANN202
        map_dir = tmp_path / f"map-{a}{b}{north}"
        if not map_dir.exists():
            _two(a, b, north)(map_dir)
        path = tmp_path / "scenario.toml"
        path.write_text(scenario_text(str(map_dir), units, extra=control, axis_nations=axis, allied_nations=allies))
        return load_scenario(path)

    return make


def unit(uid: str, nation: str, at: str, utype: str = "infantry_division") -> dict:
    return {"id": uid, "nation": nation, "type": utype, "at": at}


def side_of_hex(state, label: str) -> int:
    return int(control_array(state)[state.map.index(label)])


def moves(state, uid: str) -> set[str]:
    return {o["to"] for o in state.legal_orders_of("move") if o["unit"] == uid}


# ------------------------------------------------------------------ SSA-18.G, 18.2b, 18.7
def test_ssa_18_2b_central_america_is_allied_unless_the_scenario_says_otherwise(game):
    s = game("GT", "HN", []).new_state(seed=1)  # the scenario names neither country
    assert side_of_hex(s, "1105") == ALLIES and side_of_hex(s, "1405") == ALLIES
    assert s.markers["city_control"]["1306"] == "allies"  # Border Town, Honduran
    s = game("GT", "HN", [], control='HN = "axis"').new_state(seed=1)
    assert side_of_hex(s, "1105") == ALLIES and side_of_hex(s, "1405") == AXIS


def test_ssa_18_7_iceland_and_greenland_are_allied_unless_the_scenario_says_otherwise(game):
    s = game("IS", "GL", []).new_state(seed=1)
    assert side_of_hex(s, "1105") == ALLIES and side_of_hex(s, "1305") == ALLIES
    s = game("IS", "GL", [], control='IS = "axis"').new_state(seed=1)  # SC1 sets Iceland up as Axis
    assert side_of_hex(s, "1105") == AXIS and side_of_hex(s, "1305") == ALLIES


def test_ssa_18_g_a_country_may_be_axis_allied_or_neutral(game):
    for val, code in (("axis", AXIS), ("allies", ALLIES), ("neutral", NOBODY)):
        s = game("CO", "VE", [], control=f'CO = "{val}"\nVE = "{val}"').new_state(seed=1)
        assert side_of_hex(s, "1405") == code
        neutral = s.arrays.get("neutral")
        assert (neutral is not None and bool(neutral[s.map.index("1405")])) == (val == "neutral")


# ------------------------------------------------------------------ SSA-18.1
def test_ssa_18_1_mexican_forces_operate_normally(game):
    me = unit("ME-inf", "ME", "1105")
    s = game("MX", "MX", [me], allies=("US", "BC", "ME")).new_state(seed=1)
    assert side_of_hex(s, "1105") == ALLIES  # Allied without a [control] entry
    assert income(s)["ME"] == {"industrial": 0, "non_industrial": 1}  # Border Town is Mexican
    s = to_step(s, "player/initial-movement", "allies")
    assert "1005" in moves(s, "ME-inf")  # not bound to Mexico, unlike SSA-18.2a-18.4
    s.apply({"kind": "move", "unit": "ME-inf", "path": ["1005", "0905"]})
    assert s.unit("ME-inf").location == "0905"


# ------------------------------------------------------------------ SSA-18.3
@pytest.mark.parametrize("side", ["allies", "axis"])
def test_ssa_18_3_colombia_joins_the_side_the_scenario_gives_it_and_stays_home(game, side):
    co = unit("CO-inf", "CO", "1205")
    axis, allies = ("GE", "JA", "SS"), ("US", "BC")
    if side == "axis":
        axis = (*axis, "CO", "VE")
    else:
        allies = (*allies, "CO", "VE")
    s = game("CO", "VE", [co], control=f'CO = "{side}"\nVE = "{side}"', axis=axis, allies=allies).new_state(seed=1)
    assert s.unit("CO-inf").side == side
    s = to_step(s, "player/initial-movement", side)
    dests = moves(s, "CO-inf")
    assert dests and all(11 <= int(h[:2]) <= 12 for h in dests)  # Colombia only
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "CO-inf", "to": "1305"})  # Venezuela, though friendly
    assert exc.value.rule == "SSA-18.3" and "may never leave its home country" in exc.value.why


def test_ssa_18_3_they_attack_across_the_border(game):
    co, ge = unit("CO-inf", "CO", "1205"), unit("GE-inf", "GE", "1305")
    s = game("CO", "VE", [co, ge], control='CO = "allies"\nVE = "axis"', allies=("US", "BC", "CO")).new_state(seed=1)
    s = to_step(s, "player/combat/land", "allies")
    assert {"kind": "attack", "attackers": ["CO-inf"], "targets": ["1305"]} in s.legal_orders_of("attack")


# ------------------------------------------------------------------ SSA-18.5, 18.6
def test_ssa_18_5_british_honduras_is_commonwealth_territory(game):
    s = game("GT", "BZ", []).new_state(seed=1)
    assert side_of_hex(s, "1306") == ALLIES
    assert income(s)["BC"] == {"industrial": 0, "non_industrial": 1}  # unlike a Central American city
    s = game("GT", "JM", []).new_state(seed=1)
    assert income(s)["BC"] == {"industrial": 0, "non_industrial": 1}


def test_ssa_18_6_puerto_rico_is_us_territory(game):
    s = game("GT", "PR", []).new_state(seed=1)
    assert side_of_hex(s, "1306") == ALLIES
    # Port City and Mill Town (US industrial), and Border Town, now Puerto Rican, on the US track
    assert income(s)["US"] == {"industrial": 2, "non_industrial": 1}


# ------------------------------------------------------------------ SSA-18.11
NEUTRAL_VE = 'CO = "allies"\nVE = "neutral"'


def test_ssa_18_11b_units_may_enter_neutral_border_hexes_only(game):
    s = game("CO", "VE", [unit("US-inf", "US", "1205")], control=NEUTRAL_VE).new_state(seed=1)
    s = to_step(s, "player/initial-movement", "allies")
    dests = moves(s, "US-inf")
    assert "1305" in dests and not any(h.startswith("14") for h in dests)
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "US-inf", "path": ["1305", "1405"]})
    assert exc.value.rule == "SSA-18.11b" and "neutral country" in exc.value.why
    s.apply({"kind": "move", "unit": "US-inf", "path": ["1305"]})
    assert s.unit("US-inf").location == "1305"


def test_ssa_18_11b_rail_runs_into_the_border_hex_but_no_further(game):
    s = game("CO", "VE", [unit("US-inf", "US", "1206")], control=NEUTRAL_VE).new_state(seed=1)
    s = to_step(s, "player/initial-movement", "allies")
    rails = {o["to"] for o in s.legal_orders_of("rail") if o["unit"] == "US-inf"}
    assert "1306" in rails and "1406" not in rails
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "rail", "unit": "US-inf", "path": ["1306", "1406"]})
    assert exc.value.rule == "SSA-18.11b"


def test_ssa_18_11b_a_scenario_may_close_the_border_hexes_too(game):
    # SC0 "Neither player may move into their territory": valor-of-ignorance.toml overrides the table
    closed = NEUTRAL_VE + '\n[overrides]\n"movement.neutrality.border_hexes_open" = false\n'
    s = game("CO", "VE", [unit("US-inf", "US", "1205")], control=closed).new_state(seed=1)
    s = to_step(s, "player/initial-movement", "allies")
    assert not any(h.startswith("13") or h.startswith("14") for h in moves(s, "US-inf"))
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "US-inf", "path": ["1305"]})
    assert exc.value.rule == "SSA-18.11b"


def test_ssa_18_11c_special_operations_units_enter_neutral_countries(game):
    oss = unit("US-oss", "US", "1205", "special_operations")
    s = game("CO", "VE", [oss, unit("US-inf", "US", "1204")], control=NEUTRAL_VE).new_state(seed=1)
    s = to_step(s, "player/initial-movement", "allies")
    assert "1405" in moves(s, "US-oss") and "1404" not in moves(s, "US-inf")
    s.apply({"kind": "move", "unit": "US-oss", "path": ["1305", "1405"]})
    assert s.unit("US-oss").location == "1405"


def test_ssa_18_11a_fleets_sail_through_neutral_coastal_hexes(game):
    fleet = unit("US-bf", "US", "0205", "battle_fleet")
    s = game("CO", "VE", [fleet, unit("US-inf", "US", "0305")], control='MX = "neutral"', north="MX")
    s = to_step(s.new_state(seed=1), "player/initial-movement", "allies")
    neutral = s.arrays["neutral"]
    assert neutral[s.map.index("0302")]  # a Mexican coastal hex away from the border: closed to land units
    assert "0302" not in moves(s, "US-inf")
    s.apply({"kind": "sail", "unit": "US-bf", "to": "0302"})
    assert s.unit("US-bf").location == "0302"


# ------------------------------------------------------------------ SSA-18.8, 18.9, 18.10 (scenario data)
LATIN = {"AR": ("axis",), "BR": ("allies",), "CH": ("axis", "allies")}  # who may control each (18.8-18.10)


def _scenarios():  # noqa: ANN202
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "scenarios" / "ssa"
    return [(p.stem, tomllib.loads(p.read_text())) for p in sorted(root.glob("*.toml"))]


@pytest.mark.parametrize("nation", sorted(LATIN))
def test_ssa_18_8_to_18_10_forces_join_only_their_permitted_side_in_the_latin_america_box(nation):
    for name, sc in _scenarios():
        sides = {n: s for s, spec in sc["sides"].items() for n in spec["nations"]}
        groups = {g["name"]: g for g in sc.get("deployment", [])}
        placed = [u for u in sc.get("units", []) if u["nation"] == nation]
        if nation in sides:  # controlled at the start: that player receives all its units
            assert sides[nation] in LATIN[nation], name
            for u in placed:  # in the Latin America box, unless a scenario deployment says otherwise (SC3)
                assert u["at"] == "Latin America" or groups[u["deploy"]]["side"] == sides[nation], (name, u["id"])
        else:  # neutral: its forces are not used until it enters the war, then arrive in the box
            assert not placed, name
            for r in sc.get("reinforcements", []):
                if any(u["nation"] == nation for u in r["units"]):
                    assert r["at"] == "Latin America" and r["trigger"]["event"] == "country_enters_war", name
                    assert r["side"] in (*LATIN[nation], "event"), name


def _neutral_band(path):  # noqa: ANN001, ANN202
    """Columns 09-11, rows 03-12 are Mexico: its inner hexes are column 10, rows 04-12."""
    hm = build_ssa_testmap(path)
    labels = hm.hexes["id"].to_list()
    col = np.array([int(h[:2]) for h in labels])
    row = np.array([int(h[2:]) for h in labels])
    country = np.array(hm.hexes["country"].to_list(), dtype=object)
    country = np.where((col >= 9) & (col <= 11) & (row >= 3), "MX", country)
    hexes = hm.hexes.with_columns(pl.Series("country", country.tolist(), dtype=pl.String))
    out = HexMap("ssa-mx-band", hm.grid, hexes, hm.sides, hm.places, hm.meta)
    out.save(path)
    return out


def test_ssa_18_11a_air_units_fly_round_a_neutral_countrys_inner_hexes(tmp_path):
    import networkx as nx

    from workbench.rulesets.ssa.air import flight_distances

    _neutral_band(tmp_path / "map")
    fighter = unit("US-f", "US", "0806", "standard_fighter")  # range 6, at Mill Town (an airbase)
    path = tmp_path / "scenario.toml"
    path.write_text(scenario_text(str(tmp_path / "map"), [fighter, unit("GE-i", "GE", "1206")],
                                  extra='MX = "neutral"'))
    s = to_step(load_scenario(path).new_state(seed=1), "player/initial-movement", "allies")
    hm = s.map
    inner = {h for h in hm.labels_list if h[:2] == "10" and int(h[2:]) >= 4}
    assert {hm.label(i) for i in np.flatnonzero(s.arrays["neutral"])} >= inner  # border columns 09, 11 are open
    # an independent count: breadth-first search round the inner hexes
    g = nx.Graph((hm.label(a), hm.label(int(b))) for a in range(hm.size) for b in hm.neighbors[a]
                 if b >= 0 and hm.label(a) not in inner and hm.label(int(b)) not in inner)
    around = nx.shortest_path_length(g, "0806", "1206")
    straight = int(hm.grid.distance(np.array([hm.index("0806")]), np.array([hm.index("1206")]))[0])
    assert (straight, around) == (4, 8)
    assert int(flight_distances(s, hm.index("0806"))[hm.index("1206")]) == around
    with pytest.raises(IllegalOrder) as exc:  # 4 hexes as the crow flies, 8 round Mexico: beyond range 6
        s.apply({"kind": "fly", "unit": "US-f", "to": "1206", "mission": "interdict_ground"})
    assert exc.value.rule == "SSA-18.11a" and "the way round is 8 hexes" in exc.value.why
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fly", "unit": "US-f", "to": "1006", "mission": "transfer"})
    assert exc.value.rule == "SSA-18.11a" and "no way round" in exc.value.why
