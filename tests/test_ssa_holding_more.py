"""SS Amerika holding areas, more (SSA-15.5e, 15.6b) and naval gunfire (SSA-13.7).

Test map: tests/ssa_kit.py with columns 13-14 made Colombia (CO, Allied), so Border Town (1306,
non-industrial) is Colombian, and 1101, 1102, 1201, 1202 made Iceland (IS).  The east map edge is
column 14.  The only Allied supply sources are the industrial cities Port City
(0306) and Mill Town (0806); the transportation line runs along row 06, ½ MF a hex (SSA-5.8).
US infantry division: MF 5 (half, rounded up: 3); US armor division: MF 8 (half: 4).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from ssa_kit import build_ssa_testmap, built_map_dir, scenario_text
from test_ssa_air import refused
from test_ssa_movement import to_step

from workbench.engine import load_scenario
from workbench.map import HexMap
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.supply import supply_status

LA = "Latin America"


def build_colombia_map(path):  # noqa: ANN001, ANN201
    hm = build_ssa_testmap(path)
    col = np.array([int(h[:2]) for h in hm.hexes["id"].to_list()])
    row = np.array([int(h[2:]) for h in hm.hexes["id"].to_list()])
    country = np.where(col >= 13, "CO", np.array(hm.hexes["country"].to_list(), dtype=object))
    country = np.where((col >= 11) & (col <= 12) & (row <= 2), "IS", country)
    hexes = hm.hexes.with_columns(pl.Series("country", country.tolist(), dtype=pl.String))
    out = HexMap("ssa-colombialand", hm.grid, hexes, hm.sides, hm.places, hm.meta)
    out.save(path)
    return out


@pytest.fixture(scope="module")
def co_map_dir(tmp_path_factory):
    return built_map_dir(tmp_path_factory, "ssa-colombialand", build_colombia_map)


@pytest.fixture
def co_game(tmp_path, co_map_dir):
    def make(units, side="allies", key="player/initial-movement"):
        path = tmp_path / "ssa.toml"
        path.write_text(scenario_text(co_map_dir, units, extra='CO = "allies"'))
        return to_step(load_scenario(path).new_state(seed=1), key, side)

    return make


def us(uid, utype, at):
    return {"id": uid, "nation": "US", "type": utype, "at": at}


def marches(s):
    return s.legal_orders_of("box_march")


# ------------------------------------------------------------------ SSA-15.5e: Colombia/Venezuela <-> Latin America
def test_ssa_15_5e_land_unit_marches_from_colombia_into_latin_america_for_half_its_mf(co_game):
    s = co_game([us("US-inf", "infantry_division", "1305"), us("US-far", "infantry_division", "0505")])
    assert values.mf(s, s.unit("US-inf")) == 5
    assert {"kind": "box_march", "unit": "US-inf", "to": LA} in marches(s)
    assert not [o for o in marches(s) if o["unit"] == "US-far"]  # 0505 is in the US, not Colombia
    refused(s, {"kind": "box_march", "unit": "US-far", "to": LA}, "SSA-15.5e")
    refused(s, {"kind": "box_march", "unit": "US-inf", "to": "Europe"}, "SSA-15.5a")
    s.apply({"kind": "box_march", "unit": "US-inf", "to": LA})
    u = s.unit("US-inf")
    assert u.location == LA and u.props["mf_spent"] == 3  # half of 5, rounded up (authored)
    # it entered the box: it stays there this turn (SSA-7.2, docs/rulings-ssa.md)
    refused(s, {"kind": "box_march", "unit": "US-inf", "to": "1305"}, "SSA-7.2")
    assert not [o for o in marches(s) if o["unit"] == "US-inf"]


def test_ssa_15_5e_needs_half_the_mf_left(co_game):
    s = co_game([us("US-inf", "infantry_division", "1405")])
    s.apply({"kind": "move", "unit": "US-inf", "path": ["1305", "1304"]})  # 2 clear hexes: 3 MF left
    assert {"kind": "box_march", "unit": "US-inf", "to": LA} in marches(s)
    s.apply({"kind": "move", "unit": "US-inf", "path": ["1303"]})  # 2 MF left, the march costs 3
    assert not marches(s)
    refused(s, {"kind": "box_march", "unit": "US-inf", "to": LA}, "SSA-15.5e")


def test_ssa_15_5e_from_the_box_onto_colombia_for_half_its_mf_then_on(co_game):
    s = co_game([us("US-inf", "infantry_division", LA)])
    legal = {o["to"] for o in marches(s)}
    colombia = {f"{c}{r:02d}" for c in (13, 14) for r in range(1, 13)}
    assert legal == colombia  # every Colombian land hex, nothing else
    for bad in ("1206", "0505"):
        refused(s, {"kind": "box_march", "unit": "US-inf", "to": bad}, "SSA-15.5e")
    s.apply({"kind": "box_march", "unit": "US-inf", "to": "1305"})
    assert s.unit("US-inf").location == "1305" and s.unit("US-inf").props["mf_spent"] == 3
    s.apply({"kind": "move", "unit": "US-inf", "path": ["1304", "1303"]})  # the other 2 MF
    assert s.unit("US-inf").props["mf_spent"] == 5


def test_ssa_15_5e_not_into_enemy_units_and_only_mechanized_in_the_mechanized_phase(co_game):
    s = co_game([us("US-inf", "infantry_division", LA), us("US-arm", "armor_division", LA),
                 {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "1410"}])
    assert "1410" not in {o["to"] for o in marches(s)}
    refused(s, {"kind": "box_march", "unit": "US-inf", "to": "1410"}, "SSA-5.1")
    # into the enemy ZOC: half the MF + 1 (SSA-5.5): 4 for the infantry, which has 5
    assert {"kind": "box_march", "unit": "US-inf", "to": "1409"} in marches(s)
    s.apply({"kind": "box_march", "unit": "US-inf", "to": "1409"})
    assert s.unit("US-inf").props["mf_spent"] == 4
    s = co_game([us("US-inf", "infantry_division", LA), us("US-arm", "armor_division", LA)],
                key="player/mechanized-movement")
    assert {o["unit"] for o in marches(s)} == {"US-arm"}
    refused(s, {"kind": "box_march", "unit": "US-inf", "to": "1305"}, "SSA-4.2e")


# ------------------------------------------------------------------ SSA-15.6b: a land line out of Latin America
def test_ssa_15_6b_latin_america_units_traced_by_land_onto_the_map(co_game):
    # No logistic unit or transport in the box (SSA-15.6), so only the land line can supply.
    # Nearest source Mill Town (0806): from Colombia at 1306 along the line 1206-1106-1006-0906-0806,
    # 5 hexes at 1/2 = 2.5 MF.  Infantry: 5 - 3 (entering the map) = 2 < 2.5; armor: 8 - 4 = 4 >= 2.5.
    s = co_game([us("US-inf", "infantry_division", LA), us("US-arm", "armor_division", LA)])
    ok = supply_status(s, "allies")
    assert ok["US-arm"] is True
    assert ok["US-inf"] is False


def test_ssa_15_6b_the_line_is_cut_by_enemy_units_in_colombia(co_game):
    ge = [{"id": f"GE-{c}{r:02d}", "nation": "GE", "type": "infantry_division", "at": f"{c}{r:02d}"}
          for c in (13, 14) for r in range(1, 13)]
    s = co_game([us("US-arm", "armor_division", LA), *ge])
    assert supply_status(s, "allies")["US-arm"] is False


# ------------------------------------------------------------------ SSA-13.7: gunfire, never bombardment
def test_ssa_13_7_battle_and_carrier_fleets_give_gunfire_other_naval_units_do_not(ssa_game):
    from kit import FixedDice

    from workbench.rulesets.ssa.combat import assess

    units = [{"id": "GE-a", "nation": "GE", "type": "infantry_division", "at": "0304"},
             {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0305"},
             *({"id": f"GE-{t}", "nation": "GE", "type": t, "at": "0305"}
               for t in ("battle_fleet", "carrier_fleet", "submarine", "transport"))]
    s = to_step(ssa_game(units).new_state(seed=1), "player/combat/land", "axis")
    s.dice = FixedDice(6)
    bb, cv = (float(values.value(s, s.unit(f"GE-{t}"), "strength")) for t in ("battle_fleet", "carrier_fleet"))
    assert bb > 0 and cv > 0
    plain = assess(s, "axis", ["GE-a"], ["0305"])
    guns = assess(s, "axis", ["GE-a"], ["0305"], gunfire=["GE-battle_fleet", "GE-carrier_fleet"])
    assert guns.attack == plain.attack + bb + cv
    for t in ("submarine", "transport"):
        refused(s, {"kind": "attack", "attackers": ["GE-a"], "targets": ["0305"], "gunfire": [f"GE-{t}"]},
                "SSA-11.7")
    # naval units never bombard land units on their own: not as land attackers ...
    refused(s, {"kind": "attack", "attackers": ["GE-battle_fleet"], "targets": ["0305"]}, "SSA-11.2")
    # ... nor by a naval attack on a hex with no enemy naval units
    s = to_step(ssa_game([*units[:2], {"id": "GE-bb", "nation": "GE", "type": "battle_fleet", "at": "0205"}])
                .new_state(seed=1), "player/combat/naval", "axis")
    refused(s, {"kind": "naval_attack", "attackers": ["GE-bb"], "target": "0305"}, "SSA-13.G")
    assert not s.legal_orders_of("naval_attack")


# ------------------------------------------------------------------ SSA-15.5b-d, f, 15.6c: air links
def flights(s, uid=None):
    return [o for o in s.legal_orders_of("box_flight") if uid is None or o["unit"] == uid]


def ge(uid, utype, at):
    return {"id": uid, "nation": "GE", "type": utype, "at": at}


def test_ssa_15_5b_axis_strategic_bombers_from_europe_across_the_east_edge_for_15(co_game):
    # strategic bomber range 24: 15 to cross the east edge (column 14) leaves 9 hexes onto the map
    s = co_game([ge("GE-sb", "strategic_bomber", "Europe"), ge("GE-tb", "tactical_bomber", "Europe")], side="axis")
    assert int(values.value(s, s.unit("GE-sb"), "range")) == 24
    bombs = {o["to"] for o in flights(s, "GE-sb") if o["mission"] == "bomb"}
    assert "0506" in bombs and "0406" not in bombs  # 15 + 9 = 24 in range; 15 + 10 = 25 not
    refused(s, {"kind": "box_flight", "unit": "GE-sb", "to": "0406", "mission": "bomb"}, "SSA-15.5b")
    assert not [o for o in flights(s, "GE-tb") if o["to"].isdigit()]  # no link for other types
    refused(s, {"kind": "box_flight", "unit": "GE-tb", "to": "0806", "mission": "bomb"}, "SSA-15.5a")
    s.apply({"kind": "box_flight", "unit": "GE-sb", "to": "0806", "mission": "bomb"})
    u = s.unit("GE-sb")
    assert u.location == "0806" and u.props["flying"] and u.props["base"] == "Europe"


def test_ssa_15_5b_bombers_back_to_europe_within_range_in_the_mechanized_phase(co_game):
    s = co_game([ge("GE-a", "strategic_bomber", "Europe"), ge("GE-b", "strategic_bomber", "Europe"),
                 ge("GE-c", "strategic_bomber", "Europe")], side="axis", key="player/mechanized-movement")
    for uid, at in (("GE-a", "0806"), ("GE-b", "0806"), ("GE-c", "0406")):
        s.unit(uid).location = at
        s.unit(uid).props.update({"flying": True, "base": "Europe", "mission": "bomb", "target": at, "flown": True})
    assert {"kind": "box_flight", "unit": "GE-a", "to": "Europe", "mission": "return"} in flights(s, "GE-a")
    # 0406 is 15 + 10 = 25 from Europe; Latin America (12 + 9 hexes to Colombia = 21, 15.5f) is in range
    assert {o["to"] for o in flights(s, "GE-c")} == {LA}
    refused(s, {"kind": "box_flight", "unit": "GE-c", "to": "Europe", "mission": "return"}, "SSA-15.5a")
    s.apply({"kind": "box_flight", "unit": "GE-a", "to": "Europe", "mission": "return"})
    assert s.unit("GE-a").location == "Europe" and not s.unit("GE-a").props.get("flying")
    to_step(s, "player/initial-movement", "allies")  # the phase ends: GE-b flies home, GE-c (base Europe) is lost
    assert s.unit("GE-b").location == "Europe"
    assert s.unit("GE-c").location == "Eliminated"


def test_ssa_15_5c_axis_air_cargo_between_iceland_and_europe(co_game):
    s = co_game([ge("GE-ac", "air_cargo", "1101"), ge("GE-f", "standard_fighter", "1102"),
                 ge("GE-ac2", "air_cargo", "0505")], side="axis")
    assert {"kind": "box_flight", "unit": "GE-ac", "to": "Europe", "mission": "transfer"} in flights(s)
    refused(s, {"kind": "box_flight", "unit": "GE-f", "to": "Europe", "mission": "transfer"}, "SSA-15.5a")
    refused(s, {"kind": "box_flight", "unit": "GE-ac2", "to": "Europe", "mission": "transfer"}, "SSA-15.5a")
    s.apply({"kind": "box_flight", "unit": "GE-ac", "to": "Europe", "mission": "transfer"})
    assert s.unit("GE-ac").location == "Europe"
    # back to Iceland only onto an airbase (SSA-6.3a): 1101 is not one for the Axis here
    refused(s, {"kind": "box_flight", "unit": "GE-ac", "to": "1101", "mission": "transfer"}, "SSA-6.3a")


def test_ssa_15_5d_axis_cargo_and_bombers_between_europe_and_latin_america(co_game):
    s = co_game([ge("GE-ac", "air_cargo", "Europe"), ge("GE-sb", "strategic_bomber", "Europe"),
                 ge("GE-tb", "tactical_bomber", "Europe"), ge("GE-inf", "infantry_division", LA)], side="axis")
    for uid in ("GE-ac", "GE-sb"):
        assert {"kind": "box_flight", "unit": uid, "to": LA, "mission": "transfer"} in flights(s, uid)
    refused(s, {"kind": "box_flight", "unit": "GE-tb", "to": LA, "mission": "transfer"}, "SSA-15.5a")
    refused(s, {"kind": "box_flight", "unit": "GE-ac", "to": "Pacific", "mission": "transfer"}, "SSA-15.5a")
    # SSA-15.6c: Axis air cargo may fly the Latin America air supply from Europe
    assert not supply_status(s, "axis")["GE-inf"]
    s.apply({"kind": "box_flight", "unit": "GE-ac", "to": LA, "mission": "air_supply", "units": ["GE-inf"]})
    assert supply_status(s, "axis")["GE-inf"] and s.unit("GE-ac").location == LA


def test_ssa_15_5f_air_units_into_and_out_of_latin_america_for_half_their_range(co_game):
    # standard fighter range 6: half is 3, plus the hexes to Colombia (column 13); a transfer leg <= 12
    s = co_game([us("US-f", "standard_fighter", "0806"), us("US-g", "standard_fighter", "0306"),
                 us("US-h", "standard_fighter", LA)])
    assert int(values.value(s, s.unit("US-f"), "range")) == 6
    assert {"kind": "box_flight", "unit": "US-f", "to": LA, "mission": "transfer"} in flights(s)  # 3 + 5 = 8
    refused(s, {"kind": "box_flight", "unit": "US-g", "to": LA, "mission": "transfer"}, "SSA-15.5a")  # 3 + 10
    out = {o["to"] for o in flights(s, "US-h")}
    assert "0806" in out and "0306" not in out
    refused(s, {"kind": "box_flight", "unit": "US-h", "to": "0306", "mission": "transfer"}, "SSA-15.5a")
    s.apply({"kind": "box_flight", "unit": "US-h", "to": "0806", "mission": "transfer"})
    s.apply({"kind": "box_flight", "unit": "US-f", "to": LA, "mission": "transfer"})
    assert s.unit("US-h").location == "0806" and s.unit("US-f").location == LA


def test_ssa_15_6c_one_air_cargo_supplies_three_units_in_latin_america(co_game):
    # air cargo range 16: from Mill Town 8 + 5 = 13; from Port City 8 + 10 = 18, too far.
    # The infantry cannot trace by land (see 15.6b above) and the box has no logistic unit.
    inf = [us(f"US-i{k}", "infantry_division", LA) for k in range(1, 5)]
    s = co_game([us("US-ac", "air_cargo", "0806"), us("US-far", "air_cargo", "0306"), *inf])
    ids = [u["id"] for u in inf]
    assert not any(supply_status(s, "allies")[i] for i in ids)
    offers = [o for o in flights(s, "US-ac") if o["mission"] == "air_supply"]
    assert len(offers) == 4 and all(len(o["units"]) == 3 for o in offers)  # any three of the four
    refused(s, {"kind": "box_flight", "unit": "US-ac", "to": LA, "mission": "air_supply", "units": ids},
            "SSA-15.6c")
    refused(s, {"kind": "box_flight", "unit": "US-far", "to": LA, "mission": "air_supply", "units": ids[:3]},
            "SSA-15.6c")
    s.apply({"kind": "box_flight", "unit": "US-ac", "to": LA, "mission": "air_supply", "units": ids[1:]})
    ok = supply_status(s, "allies")
    assert [ok[i] for i in ids] == [False, True, True, True]
    assert s.unit("US-ac").location == LA
    to_step(s, "player/mechanized-movement", "allies")
    assert supply_status(s, "allies")["US-i2"]  # still this turn
    s.advance()
    to_step(s, "player/initial-movement", "allies", limit=80)  # a complete game turn later (SSA-10.1h)
    assert not supply_status(s, "allies")["US-i2"]
