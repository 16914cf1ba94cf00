"""More SS Amerika mobilization (SSA-16.7-16.12, 16.PS) on the test map: Port City (0306) and
Mill Town (0806) are US industrial cities, Border Town (1306) a Canadian non-industrial city;
maps with columns 11-14 in another country make Border Town a city of that country."""

from __future__ import annotations

import pytest
from ssa_kit import build_ssa_testmap, built_map_dir, scenario_text
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.ssa.mobilization import income
from workbench.rulesets.ssa.occupation import end_of_player_turn

AXIS = ("GE", "JA", "SS", "AV")


def game(ssa_game, units=(), tracks=""):
    extra = "[tracks]\n" + tracks if tracks else ""
    return ssa_game(list(units), first="1943-01", last="1943-01", extra=extra, axis_nations=AXIS)


def spend(ssa_game, side, units=(), tracks=""):
    return to_step(game(ssa_game, units, tracks).new_state(seed=1), "mobilization/spend", side)


def collaborate(s, *labels, occupier=None):
    for label in labels:
        s.markers["city_control"][label] = "axis"
        s.markers.setdefault("policy", {})[label] = "collaboration"
        if occupier:
            s.markers.setdefault("occupier", {})[label] = occupier


def _recountry(code):
    def build(path):
        import numpy as np
        import polars as pl

        from workbench.map import HexMap

        hm = build_ssa_testmap(path)
        col = np.array([int(h[:2]) for h in hm.hexes["id"].to_list()])
        country = np.where(col >= 11, code, np.array(hm.hexes["country"].to_list(), dtype=object))
        hexes = hm.hexes.with_columns(pl.Series("country", country.tolist(), dtype=pl.String))
        out = HexMap(f"ssa-{code.lower()}land", hm.grid, hexes, hm.sides, hm.places, hm.meta)
        out.save(path)
        return out
    return build


@pytest.fixture(scope="module")
def country_map(tmp_path_factory):
    made = {}

    def make(code):
        if code not in made:
            made[code] = built_map_dir(tmp_path_factory, f"ssa-{code}", _recountry(code))
        return made[code]
    return make


@pytest.fixture
def border_town_in(tmp_path, country_map):
    """A state whose Border Town (1306) lies in country ``code``, controlled by ``owner``."""
    def make(code, owner, units=(), allied=("US", "BC"), step=None):
        path = tmp_path / f"{code}.toml"
        path.write_text(scenario_text(country_map(code), list(units), first="1943-01", last="1943-01",
                                      allied_nations=allied, extra=f'{code} = "allies"\n'))
        s = load_scenario(path).new_state(seed=1)
        if step:
            s = to_step(s, step, "allies")
        s.markers["city_control"]["1306"] = owner
        return s
    return make


# ---------------------------------------------------------------- 16.7-16.9 (missing: authored)

def test_ssa_16_7_to_16_9_allied_units_appear_in_a_city_of_the_paying_country(ssa_game):
    s = spend(ssa_game, "allies", tracks='"US.mp.industrial" = 30\n"BC.mp.industrial" = 30\n')
    at = {(o["nation"], o["type"], o["at"]) for o in s.legal_orders_of("mobilize")}
    assert ("US", "infantry_division", "0806") in at and ("US", "infantry_division", "1306") not in at
    assert ("BC", "infantry_division", "1306") in at and ("BC", "infantry_division", "0806") not in at
    assert ("BC", "armor_division", "1306") not in at  # mechanized: an industrial city only
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "mobilize", "nation": "US", "type": "infantry_division", "at": "1306"})
    assert exc.value.rule == "SSA-16.G"
    s.apply({"kind": "mobilize", "nation": "US", "type": "infantry_division", "at": "0806"})
    with pytest.raises(IllegalOrder):  # one new unit a city a turn
        s.apply({"kind": "mobilize", "nation": "US", "type": "infantry_division", "at": "0806"})
    assert all(o["at"] != "0806" for o in s.legal_orders_of("mobilize"))


# ---------------------------------------------------------------- 16.10 volunteers

def test_ssa_16_10b_only_german_controlled_cities_give_volunteer_points(ssa_game):
    for nation, expected in (("JA", 0), ("GE", 1)):
        mg = {"id": "mg", "nation": nation, "type": "military_government", "at": "1306"}
        s = game(ssa_game, [mg]).new_state(seed=1)
        end_of_player_turn(s, "axis")  # SSA-17.3a: the MG sets up a collaboration government
        assert s.markers["policy"]["1306"] == "collaboration"
        assert income(s)["GE"]["volunteer"] == expected
        assert "volunteer" not in income(s)["JA"]  # Japan never receives volunteer points


def test_ssa_16_10c_volunteer_points_buy_only_volunteer_units(ssa_game):
    s = spend(ssa_game, "axis", tracks='"GE.mp.industrial" = -15\n"GE.mp.non_industrial" = -15\n'
              '"GE.volunteer" = 10\n')
    collaborate(s, "1306")
    assert s.tracks["GE.mp.industrial"] == 0 and s.tracks["GE.mp.non_industrial"] == 0
    assert not [o for o in s.legal_orders_of("mobilize") if o["nation"] == "GE"]
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "mobilize", "nation": "GE", "type": "infantry_division", "at": "Europe"})
    assert s.tracks["GE.volunteer"] == 10
    s.apply({"kind": "mobilize", "nation": "AV", "type": "american_volunteer_division", "at": "1306"})
    assert s.tracks["GE.volunteer"] == 6  # an AV division costs 4 volunteer points

    rich = spend(ssa_game, "axis")  # 15 I + 15 NI, no volunteer points
    collaborate(rich, "1306")
    assert not [o for o in rich.legal_orders_of("mobilize") if o["nation"] == "AV"]
    with pytest.raises(IllegalOrder) as exc:
        rich.apply({"kind": "mobilize", "nation": "AV", "type": "american_volunteer_division", "at": "1306"})
    assert exc.value.rule == "SSA-16.10c" and "only with volunteer points" in exc.value.why


def test_ssa_16_10d_american_volunteers_on_collaboration_cities_one_per_city(ssa_game):
    s = spend(ssa_game, "axis", tracks='"GE.volunteer" = 20\n')
    collaborate(s, "1306")
    s.markers["city_control"]["0806"] = "axis"
    s.markers["policy"]["0806"] = "atrocity"  # Axis-held, but no collaboration government
    av = [o for o in s.legal_orders_of("mobilize") if o["nation"] == "AV"]
    assert {o["at"] for o in av} == {"1306"}
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "mobilize", "nation": "AV", "type": "american_volunteer_division", "at": "0806"})
    assert exc.value.rule == "SSA-16.10d"
    s.apply({"kind": "mobilize", "nation": "AV", "type": "american_volunteer_division", "at": "1306"})
    assert s.units().filter(nation="AV", location="1306").height == 1
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "mobilize", "nation": "AV", "type": "american_volunteer_division", "at": "1306"})
    assert exc.value.rule == "SSA-16.10d" and "one a city a turn" in exc.value.why
    assert not [o for o in s.legal_orders_of("mobilize") if o["nation"] == "AV"]


def test_ssa_16_10d_not_on_a_city_the_japanese_made_collaborationist(ssa_game):
    s = spend(ssa_game, "axis", tracks='"GE.volunteer" = 20\n')
    collaborate(s, "1306", occupier="JA")
    assert not [o for o in s.legal_orders_of("mobilize") if o["nation"] == "AV"]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "mobilize", "nation": "AV", "type": "american_volunteer_division", "at": "1306"})
    assert exc.value.rule == "SSA-16.10d"


def test_ssa_16_10e_volunteer_replacements_only_with_volunteer_points(ssa_game):
    av = {"id": "AV-1", "nation": "AV", "type": "american_volunteer_division", "at": "Europe", "reduced": True}
    s = spend(ssa_game, "axis", [av])  # 15 I + 15 NI of German points, no volunteer points
    assert not [o for o in s.legal_orders_of("replace") if o["unit"] == "AV-1"]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "replace", "unit": "AV-1", "track": "GE"})
    assert exc.value.rule == "SSA-16.10e" and "only with volunteer points" in exc.value.why
    s = spend(ssa_game, "axis", [av], tracks='"GE.volunteer" = 3\n')
    assert {"kind": "replace", "unit": "AV-1", "track": "GE.volunteer"} in s.legal_orders_of("replace")
    ge = (s.tracks["GE.mp.industrial"], s.tracks["GE.mp.non_industrial"])
    s.apply({"kind": "replace", "unit": "AV-1", "track": "GE.volunteer"})
    assert not s.unit("AV-1").reduced and s.tracks["GE.volunteer"] == 1  # replacement costs 2
    assert (s.tracks["GE.mp.industrial"], s.tracks["GE.mp.non_industrial"]) == ge


def test_ssa_16_10f_american_volunteers_raised_in_any_country(ssa_game):
    s = spend(ssa_game, "axis", tracks='"GE.volunteer" = 20\n')
    collaborate(s, "0806", "1306")  # a US and a Canadian city
    assert {o["at"] for o in s.legal_orders_of("mobilize") if o["nation"] == "AV"} == {"0806", "1306"}
    s.apply({"kind": "mobilize", "nation": "AV", "type": "american_volunteer_division", "at": "1306"})
    s.apply({"kind": "mobilize", "nation": "AV", "type": "american_volunteer_division", "at": "0806"})
    assert s.units().filter(nation="AV").height == 2


# ---------------------------------------------------------------- 16.12c-e

def test_ssa_16_12c_british_honduras_and_jamaica_pay_the_commonwealth(border_town_in):
    for code in ("BZ", "JM"):
        s = border_town_in(code, "allies")
        assert income(s)["BC"] == {"industrial": 0, "non_industrial": 1}
        assert income(s)["US"] == {"industrial": 2, "non_industrial": 0}


def test_ssa_16_12d_puerto_rico_pays_the_united_states(border_town_in):
    s = border_town_in("PR", "allies")
    assert income(s)["US"] == {"industrial": 2, "non_industrial": 1}
    assert "BC" not in income(s)


def test_ssa_16_12e_iceland_and_greenland_pay_whoever_controls_them(border_town_in):
    for code in ("IS", "GL"):
        assert income(border_town_in(code, "allies"))["US"] == {"industrial": 2, "non_industrial": 1}
        axis = income(border_town_in(code, "axis"))
        assert axis["GE"]["non_industrial"] == 15 + 1 and axis["US"] == {"industrial": 2, "non_industrial": 0}


# ---------------------------------------------------------------- 16.PS

def test_ssa_16_ps_income_follows_the_current_count_of_controlled_cities(ssa_game):
    s = game(ssa_game).new_state(seed=1)
    assert income(s)["BC"] == {"industrial": 0, "non_industrial": 1}
    s.markers["city_control"]["1306"] = "axis"
    assert "BC" not in income(s) or income(s)["BC"] == {"industrial": 0, "non_industrial": 0}
    s.markers["city_control"]["0806"] = None
    assert income(s)["US"]["industrial"] == 1
    s.markers["city_control"].update({"1306": "allies", "0806": "allies"})
    assert income(s)["BC"]["non_industrial"] == 1 and income(s)["US"]["industrial"] == 2


# ---------------------------------------------------------------- 16.12a(1)-(2): Honduras on columns 13-14

HO = {"id": "HO-inf", "nation": "HO", "type": "infantry_division", "at": "1306", "reduced": True}


def test_ssa_16_12a1_minor_replacement_needs_a_friendly_home_city_and_a_trace(border_town_in):
    s = border_town_in("HN", "allies", [HO], ("US", "BC", "HO"), "mobilization/spend")
    s.tracks["BC.mp.non_industrial"] = 5  # Border Town is Honduran: no Commonwealth income here
    orders = [o for o in s.legal_orders_of("replace") if o["unit"] == "HO-inf"]
    assert {o["track"] for o in orders} == {"US", "BC"}  # any friendly track pays (no Honduran MP)
    s.markers["city_control"]["1306"] = "axis"  # no Honduran city is friendly any more
    assert not [o for o in s.legal_orders_of("replace") if o["unit"] == "HO-inf"]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "replace", "unit": "HO-inf", "track": "US"})
    assert exc.value.rule == "SSA-16.12a(1)" and "friendly city of its own country" in exc.value.why
    s.markers["city_control"].update({"1306": "allies", "0306": "axis", "0806": "axis"})
    assert not [o for o in s.legal_orders_of("replace") if o["unit"] == "HO-inf"]  # no US/CA/MX city to trace to
    s.markers["city_control"].update({"0806": "allies"})
    s.apply({"kind": "replace", "unit": "HO-inf", "track": "BC"})
    assert not s.unit("HO-inf").reduced and s.tracks["BC.mp.non_industrial"] == 5 - 2  # infantry replacement


def test_ssa_16_12a2_eliminated_minor_unit_rebuilt_for_its_full_cost(border_town_in):
    dead = {**HO, "at": "Eliminated", "reduced": False}
    s = border_town_in("HN", "allies", [dead], ("US", "BC", "HO"), "mobilization/spend")
    s.tracks["US.mp.industrial"] = 10
    assert {"kind": "rebuild", "unit": "HO-inf", "track": "US", "at": "1306"} in s.legal_orders_of("rebuild")
    assert all(o["at"] == "1306" for o in s.legal_orders_of("rebuild"))  # a Honduran city only
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "rebuild", "unit": "HO-inf", "track": "US", "at": "0806"})
    assert exc.value.rule == "SSA-16.12a(2)"
    s.markers["city_control"]["0806"] = s.markers["city_control"]["0306"] = "axis"
    assert s.legal_orders_of("rebuild") == []  # the conditions of (1): no trace
    s.markers["city_control"]["0806"] = "allies"
    s.apply({"kind": "rebuild", "unit": "HO-inf", "track": "US", "at": "1306"})
    u = s.unit("HO-inf")
    assert u.location == "1306" and not u.reduced and s.tracks["US.mp.industrial"] == 10 - 4  # full build cost
    assert s.legal_orders_of("rebuild") == []


# ---------------------------------------------------------------- 16.15 (optional rule 21)

@pytest.mark.parametrize(("morale", "ge", "us"), [(80, (20, 20), (3, 0)), (50, (15, 15), (2, 0)), (20, (11, 11), (2, 0))])
def test_ssa_16_15_morale_changes_mobilization_income(ssa_game, morale, ge, us):
    extra = (f'[options]\noptional_rules = ["SSA-21"]\n[tracks]\n"axis.morale" = {morale}\n'
             f'"allies.morale" = {morale}\n')
    inc = income(ssa_game([], first="1943-01", last="1943-01", extra=extra).new_state(seed=1))
    assert (inc["GE"]["industrial"], inc["GE"]["non_industrial"]) == ge  # 15 x 1.3 = 19.5 -> 20; x 0.7 = 10.5 -> 11
    assert (inc["US"]["industrial"], inc["US"]["non_industrial"]) == us  # 2 x 1.3 = 2.6 -> 3; 2 x 0.7 = 1.4 -> 2
    plain = income(ssa_game([], first="1943-01", last="1943-01",
                            extra=f'[tracks]\n"axis.morale" = {morale}\n').new_state(seed=1))
    assert plain["GE"]["industrial"] == 15  # without optional rule 21 morale changes nothing


def test_ssa_16_15_morale_applies_after_war_mobilization_halving(ssa_game):
    extra = '[options]\noptional_rules = ["SSA-21"]\n[tracks]\n"axis.morale" = 90\n'
    inc = income(ssa_game([], first="1942-06", last="1942-06", extra=extra).new_state(seed=1))
    assert inc["GE"]["industrial"] == 11  # 15 / 2 -> 8 (SSA-16.13b), x 1.3 = 10.4 -> 11 (not 15 x 1.3 / 2 -> 10)
