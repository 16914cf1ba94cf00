"""SS Amerika game components (SSA-1.0, 2.0, 3.1-3.3): the scenarios, the sides, the map and its holding
areas, the charts, and the counters (values, brackets and parentheses, sizes, nationality, backs, markers).

Rules tests run on the small test map of tests/ssa_kit.py (sea in columns 01-02, Port City 0306 and Mill
Town 0806 industrial, Border Town 1306 non-industrial); map tests read the committed north-america map."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from kit import FixedDice
from test_ssa_air import refused
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.engine.units import Unit
from workbench.map import load_map
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.casualties import damage, lose, naval_strength
from workbench.rulesets.ssa.combat import assess
from workbench.rulesets.ssa.losses import reduce
from workbench.rulesets.ssa.mobilization import accrue, income

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "workbench/rulesets/ssa/tables"
SCENARIOS = ROOT / "scenarios/ssa"

US = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0505"}
CONVOY = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
ALLIES = ("US", "BC", "ALP")


def ge(uid="GE-inf", at="0404", utype="infantry_division", nation="GE"):
    return {"id": uid, "nation": nation, "type": utype, "at": at}


@pytest.fixture(scope="module")
def na():
    return load_map("north-america")


@pytest.fixture(scope="module")
def scenarios():
    return {p.stem: load_scenario(p) for p in sorted(SCENARIOS.glob("*.toml"))}


@pytest.fixture
def combat(ssa_game):
    def make(units, *faces):
        s = to_step(ssa_game(units, allied_nations=ALLIES).new_state(seed=1), "player/combat/land", "axis")
        s.dice = FixedDice(*(faces or (1,)))
        return s

    return make


def types_of(state):
    return state.ruleset.tables["units"]["types"]


# ------------------------------------------------------------------ SSA-1.0
def test_ssa_1_0_six_scenarios_1941_1944_and_late_1940s(scenarios):
    titles = {g.scenario.title for g in scenarios.values()}
    assert titles == {"Introductory Scenario: The Valor of Ignorance", "Scenario 1: 1941",
                      "Scenario 2: D-Day North America 1944", "Scenario 3: Resistance",
                      "Scenario 4: Alternative Future 1946", "Scenario 5: World War III, 1949"}
    years = {g.scenario.title: int(g.calendar[0][:4]) for g in scenarios.values()}
    assert years["Scenario 1: 1941"] == 1941  # "an Axis invasion of an unprepared United States in 1941"
    assert years["Scenario 2: D-Day North America 1944"] == 1944  # "a fullscale conflict ... in 1944"
    assert years["Scenario 4: Alternative Future 1946"] >= 1946 and years["Scenario 5: World War III, 1949"] >= 1949
    assert all(g.scenario.map == "north-america" for g in scenarios.values())


def test_ssa_1_0_basic_rules_are_a_full_game_optional_rules_one_by_one(scenarios):
    """The scenario switches on the optional rules its text names that are built; the Basic
    rules alone stay a full game (options given to load_scenario), and each rule has its switch."""
    from workbench.engine import load_scenario

    assert scenarios["1941"].options["optional_rules"] == ["SSA-21", "SSA-22", "SSA-23", "SSA-24", "SSA-25", "SSA-26",
                                                          "SSA-30"]
    g = load_scenario("ssa/1941", options={"optional_rules": []})
    assert g.options.get("optional_rules", []) == []  # the Basic rules alone
    s = g.new_state(seed=1)
    rs = s.ruleset
    assert not rs.condition(s, "optional:SSA-26") and not rs.condition(s, "optional:SSA-25")
    g.options["optional_rules"] = ["SSA-26"]  # weather alone, without war events
    try:
        assert rs.condition(s, "optional:SSA-26") and not rs.condition(s, "optional:SSA-25")
    finally:
        g.options["optional_rules"] = []
    gated = {st["when"].split(":")[1] for st in rs.tables["sequence"]["step"]
             if st.get("when", "").startswith("optional:")}
    assert gated <= {f"SSA-{n}" for n in range(21, 31)}  # only rules 21-30 are optional


# ------------------------------------------------------------------ SSA-2.0
def test_ssa_2_0_two_players_and_their_nationalities(ssa_game):
    s = ssa_game([]).new_state(seed=1)
    nations = s.ruleset.tables["units"]["nations"]
    assert set(s.game.scenario.sides) == {"axis", "allies"}  # a two player game
    for code in ("GE", "SS", "JA", "IT", "AV", "EV"):  # German, Japanese, Italian, Axis volunteers
        assert nations[code]["side"] == "axis", code
    for code in ("US", "BC", "EX"):  # United States, British Commonwealth, European Exile
        assert nations[code]["side"] == "allies", code
    # Latin American forces serve either side: the minors are Allied, the others depend on the scenario
    la = s.ruleset.tables["units"]["nation_groups"]["LA"]
    assert {nations[c]["side"] for c in la} == {"allies", "scenario"}


def test_ssa_2_0_turn_is_mobilize_move_fight_with_land_air_naval_units(ssa_game):
    s = ssa_game([]).new_state(seed=1)
    paths = [st["path"] for st in s.ruleset.tables["sequence"]["step"]]
    order = [paths.index(p) for p in ("turn/mobilization", "turn/player/initial-movement", "turn/player/combat")]
    assert order == sorted(order)
    domains = {t["domain"] for t in types_of(s).values()}
    assert {"land", "air", "naval"} <= domains and domains - {"land", "air", "naval"} == {"special"}  # 3.3d


# ------------------------------------------------------------------ SSA-3.1a
def test_ssa_3_1a_four_sections_merged_into_one_grid_without_duplicates(na):
    ids = na.hexes["id"].to_list()
    assert len(ids) == len(set(ids)) == na.grid.cols * na.grid.rows  # overlap hexes appear once
    mid_c, mid_r = na.grid.cols / 2, na.grid.rows / 2

    def quadrant(name):
        h = na.places.filter(pl.col("name") == name)["hex"].to_list()[0]
        row = na.hexes.row(na.index(h), named=True)
        return ("N" if row["row"] < mid_r else "S") + ("W" if row["col"] < mid_c else "E")

    # "NW", "NE", "SE" and "SW" together depict North America and the surrounding waters
    assert quadrant("Anchorage") == "NW" and quadrant("Reykjavik") == "NE"
    assert quadrant("Mexico City") == "SW" and quadrant("Caracas") == "SE"
    assert na.meta["hex_flat_to_flat_km"] == 75.0  # one grid at one scale (SSA-3.4)


# ------------------------------------------------------------------ SSA-3.1b
def test_ssa_3_1b_every_terrain_and_feature_is_on_the_map_and_in_the_tec(na, ssa_game):
    tec = ssa_game([]).ruleset.tables["terrain"]
    h = na.hexes
    terrains = set(h["terrain"].unique().to_list())
    for t in ("clear", "forestation", "rough", "mountains", "desert", "tundra", "icecap", "sea", "lake"):
        assert t in terrains and t in tec["terrain"], t
    sides = set(na.sides["feature"].unique().to_list())
    assert {"river", "transport", "border"} <= sides  # rivers, transportation lines, international borders
    for f in ("river", "transport", "border", "weather_boundary"):
        assert f in tec["hexsides"], f
    for f in ("coastal", "port", "industrial_city", "non_industrial_city", "transportation_line"):
        assert f in tec["features"], f
    assert set(h["city_kind"].drop_nulls().unique().to_list()) == {"industrial", "non-industrial"}
    assert {"I", "II", "III", "IV"} <= set(h["weather_zone"].drop_nulls().to_list())  # weather zone boundaries
    # COASTAL HEXES: any hex containing both land and sea/lake
    land = (h["terrain"] != "sea") & (h["terrain"] != "lake")
    assert not (h["coastal"] & ~land).any()
    assert ((h["land_pct"] < 100) & land == h["coastal"]).mean() > 0.9


def test_ssa_3_1b_ports_are_coastal_city_hexes_on_the_sea(na):
    h = na.hexes
    terrain = h["terrain"].to_list()
    for i, row in enumerate(h.iter_rows(named=True)):
        if row["port"]:
            assert row["coastal"] and row["city_kind"] in ("industrial", "non-industrial"), row["id"]
        if row["city_kind"] and row["coastal"]:
            on_sea = any(terrain[j] == "sea" for j in na.neighbors[i] if j >= 0)
            assert row["port"] == on_sea, row["id"]  # lake-shore cities are coastal, not ports (rulings)
    assert h.filter(pl.col("city") == "Chicago")["port"].to_list() == [False]
    assert h.filter(pl.col("city") == "Havana")["port"].to_list() == [True]


# ------------------------------------------------------------------ SSA-3.1c
HOLDING = {"Europe": "Europe and Axis occupied West Africa",
           "Latin America": "Latin American regions to the south of the map",
           "Pacific": "Central Pacific Islands", "Far East": "Japan and occupied Asia"}


def test_ssa_3_1c_four_holding_areas_as_printed(na, ssa_game):
    boxes = ssa_game([]).ruleset.tables["holding_areas"]["boxes"]
    assert set(boxes) == set(HOLDING) == set(na.boxes)
    for name, words in HOLDING.items():
        assert boxes[name]["description"].replace("-", " ").lower() == words.lower()
        assert na.boxes[name].kind == "holding_area"
    assert "South America" in boxes["Latin America"]["aliases"]  # rule 15.0's name for the same box
    # the map's box links and the table agree (the Holding Area Chart, SSA-7.6)
    ocean = {"atlantic": "Atlantic Ocean", "pacific": "Pacific Ocean"}
    for name, spec in boxes.items():
        want = {ocean[o] for o in spec["adjacent_oceans"]} | set(spec["adjacent_boxes"])
        assert {x for x in na.boxes[name].links if not x.isdigit()} == want, name
        for other_box in spec["adjacent_boxes"]:
            assert name in boxes[other_box]["adjacent_boxes"]  # adjacency is mutual


def test_ssa_3_1c_units_start_in_every_holding_area(ssa_game):
    units = [{"id": f"GE-{i}", "nation": "GE", "type": "infantry_division", "at": box}
             for i, box in enumerate(HOLDING)]
    s = ssa_game(units).new_state(seed=1)
    assert sorted(u.location for u in s.units_by_id.values()) == sorted(HOLDING)


# ------------------------------------------------------------------ SSA-3.2
def test_ssa_3_2_charts_and_tables_exist_as_data(ssa_game):
    t = ssa_game([]).ruleset.tables
    assert {"clear", "forestation", "rough", "mountains", "desert"} <= set(t["terrain"]["terrain"])  # TEC
    # one CRT resolves land, air and naval combat; the results differ by combat type
    assert len(t["crt"]["rows"]) == 6 and all(len(r) == 13 for r in t["crt"]["rows"].values())
    assert {"land", "naval", "interdiction_ground", "strategic_bombing"} <= set(t["crt"]["results"])
    assert t["crt"]["results"]["land"] != t["crt"]["results"]["naval"]
    assert "infantry_division" in t["mobilization"]["costs"]  # Mobilization Costs Table
    assert set(t["holding_areas"]["boxes"]) == set(HOLDING)  # Holding Area Chart
    assert len(t["weather"]["rows"]) >= 8  # Weather Table (optional), rolls 0-7
    assert t["morale"]["cap"] == 100  # Point Table, scale 1 to 100


# ------------------------------------------------------------------ SSA-3.3.G
def test_ssa_3_3_G_units_and_markers_many_units_backprinted(ssa_game):
    s = ssa_game([]).new_state(seed=1)
    types = types_of(s)
    backed = [k for k, t in types.items() if "cf_reduced" in t or "strength_reduced" in t or "underground" in t]
    land_naval = [k for k, t in types.items() if t["domain"] in ("land", "naval")]
    assert len(backed) > len(land_naval) / 2  # "many of the units are backprinted"
    assert all(types[k]["domain"] in ("land", "naval") for k in backed)  # air backs are other types (3.3b)
    assert not any("marker" in k for k in types)  # markers are game state, never units (3.3e)


# ------------------------------------------------------------------ SSA-3.3 partisans
def test_ssa_3_3_partisan_back_is_underground_not_reduced(ssa_game):
    s = ssa_game([{"id": "ALP-a", "nation": "ALP", "type": "partisan", "at": "0505"},
                  {"id": "ALP-u", "nation": "ALP", "type": "partisan", "at": "0506", "underground": True}],
                 allied_nations=ALLIES).new_state(seed=1)
    active, under = s.unit("ALP-a"), s.unit("ALP-u")
    assert not values.has_reduced_side(s, active)
    assert (values.cf(s, active), values.mf(s, active)) == (2, 4)
    assert (values.cf(s, under), values.mf(s, under)) == (1, 2)  # the underground side's own values
    assert values.value(s, under, "security_only") and not values.value(s, active, "security_only", False)
    reduce(s, active, "SSA-11.9b")
    assert active.location == "Eliminated"  # a loss never flips a partisan to its underground side


# ------------------------------------------------------------------ SSA-3.3 brackets
def test_ssa_3_3_bracket_only_security_combat_attacks(combat):
    spec = {"id": "US-oss", "nation": "US", "type": "special_operations", "at": "0505"}
    s = combat([ge(), ge("GE-sec", "0405", "security_division", "SS"), CONVOY, spec])
    with pytest.raises(IllegalOrder, match="security combat"):
        s.apply({"kind": "attack", "attackers": ["GE-inf"], "targets": ["0505"]})
    assert assess(s, "axis", ["GE-sec"], ["0505"]).defenders == ["US-oss"]
    s.apply({"kind": "attack", "attackers": ["GE-inf", "GE-sec"], "targets": ["0505"]})
    assert s.unit("US-oss").location == "Eliminated"  # [1] at 13-1: DZ


def test_ssa_3_3_bracket_underground_partisans_need_security_combat(combat):
    alp = {"id": "ALP-u", "nation": "ALP", "type": "partisan", "at": "0505", "underground": True}
    s = combat([ge(), ge("GE-sec", "0405", "security_division"), CONVOY, alp])
    e = refused(s, {"kind": "attack", "attackers": ["GE-inf"], "targets": ["0505"]}, "SSA-3.3")
    assert "security combat" in str(e)
    a = assess(s, "axis", ["GE-sec"], ["0505"])
    assert a.defenders == ["ALP-u"] and values.cf(s, s.unit("ALP-u")) == 1  # [1] (halved when unsupplied)


def test_ssa_3_3_bracket_in_a_mixed_hex_only_security_combat_touches_them(combat):
    oss = {"id": "US-oss", "nation": "US", "type": "special_operations", "at": "0505"}
    s = combat([ge(), ge("GE-sec", "0405", "security_division"), CONVOY, US, oss])
    plain = assess(s, "axis", ["GE-inf"], ["0505"])
    assert plain.defenders == ["US-inf"] and plain.land_defense == 7
    both = assess(s, "axis", ["GE-inf", "GE-sec"], ["0505"])
    assert sorted(both.defenders) == ["US-inf", "US-oss"] and both.land_defense == 8
    s.dice = FixedDice(1)
    s.apply({"kind": "attack", "attackers": ["GE-inf"], "targets": ["0505"]})  # 8-7 = 1-1, row 1: DR
    assert all(o.get("unit") != "US-oss" for o in s.legal_orders())  # only US-inf must retreat
    s.apply(s.legal_orders()[0])
    assert s.unit("US-inf").location != "0505" and s.unit("US-oss").location == "0505"


def test_ssa_3_3_bracket_overrun_of_a_hex_with_a_bracketed_unit_needs_security(ssa_game):
    pz = [ge(f"GE-pz{i}", "0404", "armor_division") for i in (1, 2, 3)]
    red = {**US, "reduced": True}
    oss = {"id": "US-oss", "nation": "US", "type": "special_operations", "at": "0505"}
    order = {"kind": "overrun", "units": ["GE-pz1", "GE-pz2", "GE-pz3"], "target": "0505"}
    s = to_step(ssa_game([*pz, CONVOY, red, oss]).new_state(seed=1), "player/initial-movement", "axis")
    refused(s, order, "SSA-3.3")  # an overrun would eliminate the [1] unit too
    s = to_step(ssa_game([*pz, CONVOY, red]).new_state(seed=1), "player/initial-movement", "axis")
    s.apply(order)
    assert s.unit("US-inf").location == "Eliminated"


# ------------------------------------------------------------------ SSA-3.3 parentheses
def test_ssa_3_3_paren_defend_only_never_attacks_but_defends(combat):
    log = {"id": "GE-log", "nation": "GE", "type": "motorized_logistic_corps", "at": "0404"}
    us_log = {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "0505"}
    s = combat([log, ge("GE-inf", "0405"), CONVOY, us_log])
    refused(s, {"kind": "attack", "attackers": ["GE-log"], "targets": ["0505"]}, "SSA-11.2")
    assert all("GE-log" not in o["attackers"] for o in s.legal_orders_of("attack"))
    assert assess(s, "axis", ["GE-inf"], ["0505"]).land_defense == 2  # (2) still defends
    types = types_of(s)
    assert all(t.get("defend_only") for k, t in types.items() if "logistic" in k or k == "military_government")


# ------------------------------------------------------------------ SSA-3.3 sizes
def test_ssa_3_3_size_corps_division_brigade_regiment(ssa_game):
    from workbench.ui.symbols import size_mark

    s = ssa_game([ge("GE-c", "0404", "motorized_logistic_corps"), ge("GE-d", "0405"),
                  ge("GE-b", "0406", "commando_group"), ge("GE-r", "0407", "special_operations")]).new_state(seed=1)
    sizes = {t.get("size") for t in types_of(s).values() if t["domain"] == "land"}
    assert sizes == {"corps", "division", "brigade", "regiment", None}  # None: leaders
    assert {size_mark(z) for z in ("corps", "division", "brigade", "regiment")} == {"XXX", "XX", "X", "III"}
    de = {u: values.division_equivalents(s, s.unit(u)) for u in ("GE-c", "GE-d", "GE-b", "GE-r")}
    assert de == {"GE-c": 1, "GE-d": 1, "GE-b": Fraction(1, 3), "GE-r": Fraction(1, 3)}
    # "X: Brigade or Battlegroup": a battlegroup counts as a brigade
    land = s.ruleset.tables["stacking"]["land"]["value"]
    assert land["battlegroup"] == land["brigade"] == "1/3"


# ------------------------------------------------------------------ SSA-3.3 nationality
PRINTED_COLOURS = {"GE": "gray, black, & blue", "JA": "yellow", "IT": "blue-green",
                   "AV": "blue & red on pale olive", "US": "olive green", "BC": "red",
                   "ALP": "olive green", "EX": "blue on white", "LA": "various"}
LATIN_CODES = {"AR", "BR", "CH", "CO", "CU", "DR", "ES", "GU", "HA", "HO", "ME", "NI", "PA", "VE"}


def test_ssa_3_3_nat_colours_and_latin_american_designations(ssa_game):
    from workbench.ui.counters import nation_colours, stacks

    s = ssa_game([ge(), {**US, "at": "0806"}, {"id": "BC-inf", "nation": "BC", "type": "infantry_division",
                                                "at": "1306"}]).new_state(seed=1)
    units = s.ruleset.tables["units"]
    table = units["nation_colours"]
    for code, words in PRINTED_COLOURS.items():
        assert table[code]["printed"] == words and table[code]["source"] in ("rulebook", "authored"), code
    assert set(units["nation_groups"]["LA"]) - {"CR"} == LATIN_CODES  # Costa Rica: no printed code
    assert table["US"]["fill"] == table["ALP"]["fill"]  # both olive green
    fills = {c: table[c]["fill"] for c in ("GE", "JA", "IT", "AV", "US", "BC", "EX")}
    assert len(set(fills.values())) == len(fills)  # every printed colour is told apart
    r, g, b = (int(table["BC"]["fill"][i:i + 2], 16) for i in (1, 3, 5))
    assert r > 150 and g < 80 and b < 80  # British Commonwealth red
    drawn = {c.top: c.fill for c in stacks(s, None)}
    assert drawn == {"GE-inf": fills["GE"], "US-inf": fills["US"], "BC-inf": fills["BC"]}
    mex = Unit("ME-inf", "allies", "ME", "infantry_division", "division", "0806")
    assert nation_colours(s, mex)[0] == table["LA"]["fill"]  # Latin American: the group's colour


# ------------------------------------------------------------------ SSA-3.3a
LAND_TYPES = {  # rulebook 3.3a type -> (mechanized?, the units.toml types that print it)
    "Armor/Panzer": (True, ["armor_division"]),
    "Armored Infantry/Panzergrenadier": (True, ["panzergrenadier_division"]),
    "Heavy Armor": (True, ["heavy_armored_brigade"]),
    "Armored Cavalry": (True, ["armored_cavalry_regiment"]),
    "Airborne Panzer": (True, ["airborne_panzer_division"]),
    "Airborne Panzergrenadier": (True, ["airborne_panzergrenadier_division"]),
    "Motorized Infantry": (True, ["motorized_infantry_division"]),
    "Motorized Logistic": (True, ["motorized_logistic_corps"]),
    "Leader": (True, ["leader", "leader_royal_family", "leader_degaulle"]),
    "Infantry": (False, ["infantry_division", "european_volunteer_division", "american_volunteer_division"]),
    "Mountain Infantry": (False, ["mountain_division"]),
    "Airborne Infantry": (False, ["airborne_infantry_division"]),
    "Marine Infantry": (False, ["marine_division"]),
    "Ranger/Commando": (False, ["commando_brigade", "commando_group", "airborne_commando_group",
                                "airborne_commando_regiment", "ranger_regiment", "airborne_ranger_brigade",
                                "jagdkommando", "airborne_jagdkommando"]),
    "Cavalry": (False, ["cavalry_division"]),
    "Non-mechanized Logistics": (False, ["nonmotorized_logistic_corps", "airborne_logistic_corps"]),
    "Coast Defense": (False, ["coast_artillery"]),
    "Military Police/Security": (False, ["security_division", "military_police"]),
    "Militia": (False, ["militia_division"]),
    "Military Government": (False, ["military_government"]),
    "Special Operations": (False, ["special_operations"]),
    "Partisan Group": (False, ["partisan"]),
    "Partisan Underground": (False, ["partisan"]),
    "Railroad Gun": (False, ["railroad_gun"]),
}


def test_ssa_3_3a_every_land_type_is_mechanized_or_not_as_printed(ssa_game):
    types = types_of(ssa_game([]).new_state(seed=1))
    listed = set()
    for name, (mech, keys) in LAND_TYPES.items():
        for k in keys:
            assert types[k]["domain"] == "land" and bool(types[k]["mech"]) is mech, (name, k)
            listed.add(k)
    land = {k for k, t in types.items() if t["domain"] == "land"}
    assert land - listed == {"airbase"}  # SC5's airbases are not in the 3.3a list (G-28)
    assert "underground" in types["partisan"]


def test_ssa_3_3a_back_shows_reduced_values_some_units_have_none(ssa_game):
    s = ssa_game([US, {**US, "id": "US-red", "at": "0506", "reduced": True},
                  {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "0807"}]
                 ).new_state(seed=1)
    full, red, log = s.unit("US-inf"), s.unit("US-red"), s.unit("US-log")
    assert (values.cf(s, full), values.mf(s, full)) == (7, 5)
    assert (values.cf(s, red), values.mf(s, red)) == (4, 5)  # same fields, reduced values
    for t in types_of(s).values():
        if t["domain"] == "land" and "cf_reduced" in t:
            assert t["cf_reduced"] <= t["cf"] and t["mf_reduced"] <= t["mf"]
    reduce(s, full, "SSA-11.9b")
    assert full.reduced and full.location == "0505"
    reduce(s, log, "SSA-11.9b")
    assert log.location == "Eliminated"  # no reduced side: one loss eliminates it


# ------------------------------------------------------------------ SSA-3.3b
FIGHTERS = ("standard_fighter", "advanced_fighter", "bomber_destroyer", "jet_fighter")
BOMBERS = ("tactical_bomber", "strategic_bomber", "jet_bomber", "air_cargo", "helicopter")


def test_ssa_3_3b_air_types_values_and_no_reduced_side(ssa_game):
    s = ssa_game([{"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0806"}]).new_state(seed=1)
    types = types_of(s)
    assert {k for k, t in types.items() if t["domain"] == "air"} == set(FIGHTERS + BOMBERS)
    for k in FIGHTERS + BOMBERS:
        assert {"air_to_air", "bombardment", "range"} <= set(types[k]), k
        assert not any(key.endswith("_reduced") for key in types[k]), k
    assert all(types[k]["can_intercept"] for k in FIGHTERS)
    assert not any(types[k]["can_intercept"] for k in BOMBERS)  # printed (n): may not intercept
    assert types["air_cargo"]["cargo"] and types["helicopter"]["cargo"]
    f = s.unit("US-f")
    lose(s, f, "reduce", "SSA-12.2")
    assert f.location == "Eliminated" and not f.reduced  # never flipped: the whole counter goes


def test_ssa_3_3b_parenthesized_air_to_air_may_not_intercept(ssa_game):
    units = [CONVOY, {"id": "GE-tb", "nation": "GE", "type": "tactical_bomber", "at": "0404"}, {**US, "at": "0605"},
             {"id": "US-tb", "nation": "US", "type": "tactical_bomber", "at": "0806"},
             {"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0806"}]
    s = to_step(ssa_game(units).new_state(seed=1), "player/initial-movement", "axis")
    s.apply({"kind": "fly", "unit": "GE-tb", "to": "0605", "mission": "interdict_ground"})
    s = to_step(s, "player/interception", "allies")
    e = refused(s, {"kind": "intercept", "units": ["US-tb"], "target": "0605"}, "SSA-6.5")
    assert "parenthesized" in str(e)
    assert {"kind": "intercept", "units": ["US-f"], "target": "0605"} in s.legal_orders()


# ------------------------------------------------------------------ SSA-3.3c
def test_ssa_3_3c_four_naval_types_all_with_a_reduced_back(ssa_game):
    s = ssa_game([{"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "0205"}]).new_state(seed=1)
    types = types_of(s)
    assert {k for k, t in types.items() if t["domain"] == "naval"} == {
        "battle_fleet", "carrier_fleet", "submarine", "transport"}
    for k in ("battle_fleet", "carrier_fleet", "submarine", "transport"):
        t = types[k]
        assert t["strength_reduced"] <= t["strength"] and t["aa_reduced"] <= t["aa"], k
    bb = s.unit("US-bb")
    full = naval_strength(s, bb)
    damage(s, bb, "SSA-13.9")
    assert bb.reduced and bb.location == "0205" and naval_strength(s, bb) == types["battle_fleet"]["strength_reduced"]
    assert naval_strength(s, bb) < full
    damage(s, bb, "SSA-13.9")
    assert bb.location == "Eliminated"


# ------------------------------------------------------------------ SSA-3.3d
def test_ssa_3_3d_strategic_missiles_and_atomic_weapons(ssa_game):
    types = types_of(ssa_game([]).new_state(seed=1))
    assert types["strategic_missile"]["domain"] == types["atomic_weapon"]["domain"] == "special"
    assert types["strategic_missile"]["bombardment"] == 10  # SSA-22.13d
    assert "strategic_missile" in types["atomic_weapon"]["delivered_by"]


# ------------------------------------------------------------------ SSA-3.3e
def test_ssa_3_3e_turn_marker_is_year_and_month(scenarios):
    cal = scenarios["1941"].calendar
    assert cal[0] == "1941-09" and len(cal) == 12
    months = [int(c[:4]) * 12 + int(c[5:]) for c in cal]
    assert np.all(np.diff(months) == 1)  # one month a turn


def test_ssa_3_3e_mobilization_points_pass_100_on_the_markers_back(ssa_game):
    s = ssa_game([], first="1943-01", last="1943-01",
                 extra='[tracks]\n"GE.mp.industrial" = 95\n"allies.morale" = 50\n').new_state(seed=1)
    accrue(s)
    assert s.tracks["GE.mp.industrial"] == 95 + 15  # 110: the marker's reverse (value + 100)


def test_ssa_3_3e_atrocity_and_bombed_city_markers_act_on_the_map(ssa_game):
    s = ssa_game([], first="1942-01", last="1942-01").new_state(seed=1)
    assert income(s)["US"]["industrial"] == 2
    s.arrays["bombed"] = np.zeros(s.map.size, dtype=bool)
    s.arrays["bombed"][s.map.index("0806")] = True  # strategically bombed city marker
    assert income(s)["US"]["industrial"] == 1
    s.markers["atrocity"] = ["0806"]
    assert s.markers["atrocity"] == ["0806"] and "atrocity" in s.to_dict()["markers"]
