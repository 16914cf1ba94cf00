"""SS Amerika minor countries (SSA-18.2a, 18.4), their supply (SSA-10.1i) and mobilization (SSA-16.12a).

Map: tests/ssa_kit.py build_ssa_minor_map: the usual test map with columns 11-12 in Guatemala (GT)
and 13-14 in Honduras (HN); Border Town (1306) is a Honduran non-industrial city, Mill Town (0806)
a US industrial city; the transportation line runs along row 06.
"""

from __future__ import annotations

import pytest
from ssa_kit import build_ssa_minor_map, built_map_dir, scenario_text
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.ssa.mobilization import income
from workbench.rulesets.ssa.supply import supply_status

ALLIED = ("US", "BC", "GU", "CU")


@pytest.fixture(scope="module")
def minor_map_dir(tmp_path_factory) -> str:
    return built_map_dir(tmp_path_factory, "ssa-minorland", build_ssa_minor_map)


@pytest.fixture
def minor_game(tmp_path, minor_map_dir):
    def make(units, **kw):
        path = tmp_path / "minor.toml"
        extra = 'GT = "allies"\nHN = "allies"\n' + kw.pop("extra", "")
        path.write_text(scenario_text(minor_map_dir, units, extra=extra, allied_nations=ALLIED, **kw))
        return load_scenario(path)

    return make


def gu(at: str, uid: str = "GU-inf") -> dict:
    return {"id": uid, "nation": "GU", "type": "infantry_division", "at": at}


# ------------------------------------------------------------------ SSA-18.2a
def test_ssa_18_2a_central_american_units_never_leave_home(minor_game):
    s = to_step(minor_game([gu("1105")]).new_state(seed=1), "player/initial-movement", "allies")
    dests = {o["to"] for o in s.legal_orders_of("move") if o["unit"] == "GU-inf"}
    assert dests and all(11 <= int(h[:2]) <= 12 for h in dests)  # Guatemala only
    for path in (["1005"], ["1205", "1305"]):  # the US to the west, Honduras to the east
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "move", "unit": "GU-inf", "path": path})
        assert exc.value.rule == "SSA-18.2a" and "may never leave its home country" in exc.value.why
    s.apply({"kind": "move", "unit": "GU-inf", "path": ["1205"]})  # a Guatemalan border hex
    assert s.unit("GU-inf").location == "1205"
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "GU-inf", "to": "1305"})
    assert exc.value.rule == "SSA-18.2a"


def test_ssa_18_2a_rail_stays_inside_the_home_country(minor_game):
    s = to_step(minor_game([gu("1106")]).new_state(seed=1), "player/initial-movement", "allies")
    assert {o["to"] for o in s.legal_orders_of("rail") if o["unit"] == "GU-inf"} == {"1206"}
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "rail", "unit": "GU-inf", "path": ["1206", "1306"]})
    assert exc.value.rule == "SSA-18.2a"


def test_ssa_18_2a_they_attack_across_the_border(minor_game):
    ge = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "1305"}  # in Honduras
    s = to_step(minor_game([gu("1205"), ge]).new_state(seed=1), "player/combat/land", "allies")
    assert {"kind": "attack", "attackers": ["GU-inf"], "targets": ["1305"]} in s.legal_orders_of("attack")


def test_ssa_18_4_caribbean_units_never_board_a_convoy(minor_game):
    cu = {"id": "CU-inf", "nation": "CU", "type": "infantry_division", "at": "0303"}
    tp = {"id": "US-tp", "nation": "US", "type": "transport", "at": "0303"}
    s = to_step(minor_game([cu, tp]).new_state(seed=1), "player/initial-movement", "allies")
    assert not s.legal_orders_of("embark")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "embark", "convoy": "US-tp", "units": ["CU-inf"]})
    assert exc.value.rule == "SSA-18.4"


# ------------------------------------------------------------------ SSA-10.1i
def test_ssa_10_1i_latin_american_units_are_not_supplied_just_by_being_at_home(minor_game):
    # 1106: three road hexes (1 1/2 MF) from Mill Town, an Allied industrial city; 1211: far from any source
    s = minor_game([gu("1106", "GU-near"), gu("1211", "GU-far")]).new_state(seed=1)
    assert supply_status(s, "allies") == {"GU-near": True, "GU-far": False}


# ------------------------------------------------------------------ SSA-16.12a
def test_ssa_16_12a_central_american_cities_give_no_mobilization_points(minor_game, ssa_game):
    # On the plain test map Border Town is Canadian: 1 NI to the Commonwealth (SSA-16.1, authored G-04).
    plain = ssa_game([]).new_state(seed=1)
    assert income(plain)["BC"] == {"industrial": 0, "non_industrial": 1}
    s = minor_game([]).new_state(seed=1)
    assert "BC" not in income(s)  # Honduran Border Town: nothing
    assert income(s)["US"] == {"industrial": 2, "non_industrial": 0}  # the two US industrial hexes


def test_ssa_16_12a_not_even_volunteer_points(minor_game, ssa_game):
    for make, expected in ((ssa_game, 1), (minor_game, 0)):
        s = make([]).new_state(seed=1)
        s.markers["city_control"]["1306"] = "axis"
        s.markers.setdefault("policy", {})["1306"] = "collaboration"
        assert income(s)["GE"]["volunteer"] == expected  # 1/2 rounded up (SSA-16.10a), or 0 in Honduras
