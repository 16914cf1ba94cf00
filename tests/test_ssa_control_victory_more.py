"""SS Amerika control changes and coups (SSA-17.2, 17.4c), victory (SSA-20.G, 20.3), the free
Argentine/Brazilian/Chilean step (SSA-16.12b) and grounded air overrun by rail and retreat (SSA-6.3c).

Maps: tests/ssa_kit.py; the minor-country map puts Border Town (1306) in Honduras (HN).
"""

from __future__ import annotations

import pytest
from ssa_kit import NO_SUPPLY_MOVEMENT_PENALTY, build_ssa_minor_map, built_map_dir, scenario_text
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.ssa.air import destroy_grounded_air
from workbench.rulesets.ssa.occupation import city_owner, coup, end_of_player_turn
from workbench.rulesets.ssa.retreat import start_retreats
from workbench.rulesets.ssa.victory import final_result, victory_points

MORALE = '[options]\noptional_rules = {opt}\n[tracks]\n"axis.morale" = {axis}\n"allies.morale" = {allies}\n'


@pytest.fixture(scope="module")
def minor_map_dir(tmp_path_factory) -> str:
    return built_map_dir(tmp_path_factory, "ssa-minorland", build_ssa_minor_map)


@pytest.fixture
def honduras(tmp_path, minor_map_dir):
    """A state on the minor-country map; ``hn`` is Honduras's side, ``occupation`` its [occupation]."""
    def make(units, hn="allies", occupation=""):
        path = tmp_path / "hn.toml"
        extra = f'GT = "allies"\nHN = "{hn}"\n' + (f'[occupation]\nHN = "{occupation}"\n' if occupation else "")
        path.write_text(scenario_text(minor_map_dir, units, extra=extra))
        return load_scenario(path).new_state(seed=1)

    return make


def us(uid, at, utype="infantry_division"):
    return {"id": uid, "nation": "US", "type": utype, "at": at}


# ------------------------------------------------------------------ SSA-17.2
def test_ssa_17_2_a_coup_changes_control_of_every_city_of_the_country(honduras):
    s = honduras([])
    assert city_owner(s, s.map.index("1306")) == "allies"
    assert coup(s, "HN", "axis") == ["1306"]
    assert city_owner(s, s.map.index("1306")) == "axis" and s.markers["policy"]["1306"] == "coup"
    assert city_owner(s, s.map.index("0806")) == "allies"  # a US city: untouched
    assert s.events().filter(kind="coup")["rule"].to_list() == ["SSA-17.2"]
    assert coup(s, "HN", "allies") == ["1306"]  # a counter-coup returns it
    assert city_owner(s, s.map.index("1306")) == "allies" and s.markers["coup_origin"] == []


def test_ssa_17_2_capture_changes_control_at_the_end_of_the_player_turn(honduras):
    s = honduras([{"id": "GE-mg", "nation": "GE", "type": "military_government", "at": "0806"}])
    assert city_owner(s, s.map.index("0806")) == "allies"
    end_of_player_turn(s, "axis")
    assert city_owner(s, s.map.index("0806")) == "axis"


# ------------------------------------------------------------------ SSA-17.4c
def test_ssa_17_4c_coup_city_is_retaken_and_held_only_with_an_allied_mg(honduras):
    s = honduras([us("US-inf", "1306"), us("US-mg", "1206", "military_government")], hn="axis",
                 occupation="coup")
    assert city_owner(s, s.map.index("1306")) == "axis" and s.markers["coup_origin"] == ["1306"]
    end_of_player_turn(s, "allies")
    assert city_owner(s, s.map.index("1306")) == "axis"  # a plain land unit is not enough (17.4a would be)
    s.unit("US-mg").location = "1306"
    end_of_player_turn(s, "allies")
    assert city_owner(s, s.map.index("1306")) == "allies"
    assert s.events().filter(kind="city_control")["rule"].to_list() == ["SSA-17.4c"]
    s.unit("US-mg").location = "1206"  # the infantry stays, the MG leaves
    end_of_player_turn(s, "allies")
    assert city_owner(s, s.map.index("1306")) == "axis" and s.markers["policy"]["1306"] == "coup"


def test_ssa_17_4c_an_ordinary_occupied_city_needs_no_mg(honduras):
    s = honduras([us("US-inf", "1306")], hn="axis", occupation="collaboration")
    assert s.markers.get("coup_origin", []) == [] and s.markers["policy"]["1306"] == "collaboration"
    end_of_player_turn(s, "allies")
    assert city_owner(s, s.map.index("1306")) == "allies"  # SSA-17.4a


def test_ssa_17_4c_sc2_colombia_and_venezuela_start_pro_axis_by_coup():
    s = load_scenario("ssa/d-day-1944").new_state(seed=1)
    names = dict(zip(s.map.places["hex"].to_list(), s.map.places["name"].to_list(), strict=True))
    coup_cities = s.markers.get("coup_origin", [])
    assert coup_cities and all(s.markers["policy"][c] == "coup" for c in coup_cities)
    geo_co = s.map.hexes["country"].to_list()
    assert {geo_co[s.map.index(c)] for c in coup_cities} <= {"Colombia", "Venezuela"}, \
        [names.get(c) for c in coup_cities]
    cuba = [lab for lab, who in s.markers["city_control"].items() if geo_co[s.map.index(lab)] == "Cuba"]
    assert cuba and all(s.markers["policy"].get(c) == "collaboration" for c in cuba)


# ------------------------------------------------------------------ SSA-20.3, 20.G
def test_ssa_20_3_higher_morale_adds_the_difference_with_optional_rule_21(ssa_game):
    on = ssa_game([], extra=MORALE.format(opt='["SSA-21"]', axis=60, allies=45)).new_state(seed=1)
    assert victory_points(on) == {"allies": 5, "axis": 15}  # 60 - 45 to the Axis
    on.tracks["allies.morale"] = 70
    assert victory_points(on) == {"allies": 5 + 10, "axis": 0}
    off = ssa_game([], extra=MORALE.format(opt="[]", axis=60, allies=45)).new_state(seed=1)
    assert victory_points(off) == {"allies": 5, "axis": 0}  # the optional rule is off: no bonus


def test_ssa_20_g_at_the_end_the_side_with_more_vp_wins(ssa_game):
    extra = MORALE.format(opt='["SSA-21"]', axis=60, allies=45)
    s = ssa_game([], first="1942-06", last="1942-06", extra=extra).new_state(seed=1)
    for _ in range(300):
        if s.result is not None:
            break
        s.advance()
    assert s.result is not None and s.result["vp"] == {"allies": 5, "axis": 15}
    assert s.result["winner"] == "axis" and s.result["level"] == "total"  # 15 : 5 = 3
    s2 = ssa_game([], extra=MORALE.format(opt='["SSA-21"]', axis=50, allies=45)).new_state(seed=1)
    assert final_result(s2)["winner"] is None and final_result(s2)["level"] == "draw"  # 5 : 5


# ------------------------------------------------------------------ SSA-16.12b
def test_ssa_16_12b_brazil_takes_one_free_step_a_turn_in_the_latin_america_box(ssa_game):
    units = [{"id": "BR-a", "nation": "BR", "type": "infantry_division", "at": "Latin America", "reduced": True},
             {"id": "BR-b", "nation": "BR", "type": "infantry_division", "at": "Eliminated"},
             {"id": "BR-c", "nation": "BR", "type": "infantry_division", "at": "0806", "reduced": True},
             {"id": "AR-a", "nation": "AR", "type": "infantry_division", "at": "Latin America", "reduced": True}]
    state = ssa_game(units, allied_nations=("US", "BC", "BR"), axis_nations=("GE", "JA", "SS", "AR"))
    s = to_step(state.new_state(seed=1), "mobilization/spend", "allies")
    before = dict(s.tracks)
    legal = s.legal_orders_of("latin_america_step")
    assert sorted(o["unit"] for o in legal) == ["BR-a", "BR-b"]  # not on the map, not the Axis's Argentines
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "latin_america_step", "unit": "BR-c"})
    assert exc.value.rule == "SSA-16.12b"
    s.apply({"kind": "latin_america_step", "unit": "BR-b"})
    assert s.unit("BR-b").location == "Latin America" and s.unit("BR-b").reduced  # rebuilt reduced
    assert s.tracks == before  # free
    assert s.legal_orders_of("latin_america_step") == []  # one step a turn for Brazil
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "latin_america_step", "unit": "BR-a"})
    assert "already" in exc.value.why
    s.turn += 1  # next turn: a reduced unit back to full
    s.apply({"kind": "latin_america_step", "unit": "BR-a"})
    assert not s.unit("BR-a").reduced


# ------------------------------------------------------------------ SSA-6.3c
def ftr(uid, at):
    return {"id": uid, "nation": "US", "type": "standard_fighter", "at": at}


def test_ssa_6_3c_rail_move_through_grounded_air_destroys_it(ssa_game):
    s = to_step(ssa_game([{"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0306"},
                          ftr("US-f", "0406")], extra=NO_SUPPLY_MOVEMENT_PENALTY).new_state(seed=1),
                "player/initial-movement", "axis")
    s.apply({"kind": "rail", "unit": "GE-inf", "path": ["0406"]})
    assert s.unit("US-f").location == "Eliminated"
    assert s.events().filter(kind="eliminated")["rule"].to_list() == ["SSA-6.3c"]


def test_ssa_6_3c_retreat_into_grounded_air_destroys_it(ssa_game):
    s = to_step(ssa_game([{"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0505"},
                          ftr("US-f", "0506")]).new_state(seed=1), "player/initial-movement", "axis")
    start_retreats(s, "axis", ["GE-inf"], "SSA-11.9")
    assert {"kind": "retreat", "unit": "GE-inf", "to": "0506"} in s.legal_orders_of("retreat")
    s.apply({"kind": "retreat", "unit": "GE-inf", "to": "0506"})
    assert s.unit("US-f").location == "Eliminated"


def test_ssa_6_3c_air_aboard_a_convoy_is_cargo_not_on_the_ground(ssa_game):
    s = ssa_game([{"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0405"},
                  ftr("US-f", "0306"), ftr("US-g", "0306")]).new_state(seed=1)
    s.unit("US-f").flag("carried", "US-convoy")
    destroy_grounded_air(s, s.unit("GE-inf"), ["0306"])
    assert s.unit("US-f").location == "0306" and s.unit("US-g").location == "Eliminated"
