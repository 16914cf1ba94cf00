"""SS Amerika subversion of Latin America (optional rule SSA-27) and the Special Action Phase
(SSA-4.2a), with scripted dice on the minor-country test map.

Map (tests/ssa_kit.py ``build_ssa_minor_map``): columns 11-12 Guatemala (GT, no city), 13-14
Honduras (HN) with Border Town (1306), a non-industrial city.  Honduran units are nation ``HO``.
Subversion Table (tables/subversion.toml, authored, gap G-16): 1 unit P on 6+, 2 units on 5+,
3 or more on 4+; High morale +1, Poor -1.
"""

from __future__ import annotations

import json

import pytest
from kit import FixedDice
from ssa_kit import build_ssa_minor_map, built_map_dir, scenario_text
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.ssa.control import control_array
from workbench.rulesets.ssa.subversion import country_side

AXIS, ALLIES = 1, 2
CITY = "1306"          # Border Town, Honduras
HN_FIELD = "1405"      # Honduras, not a city
GT_FIELD = "1105"      # Guatemala (no city on the map)


@pytest.fixture(scope="module")
def minor_map(tmp_path_factory):
    return built_map_dir(tmp_path_factory, "minor", build_ssa_minor_map)


@pytest.fixture
def game(minor_map, tmp_path):
    def make(units, *, rules=("SSA-27",), control="", axis_morale=50, allied_morale=50):  # noqa: ANN001, ANN202
        extra = (f"{control}\n[options]\noptional_rules = {list(rules)!r}\n".replace("'", '"')
                 + f'[tracks]\n"axis.morale" = {axis_morale}\n"allies.morale" = {allied_morale}\n')
        path = tmp_path / "scenario.toml"
        path.write_text(scenario_text(minor_map, units, extra=extra, allied_nations=("US", "BC", "HO", "GU")))
        return load_scenario(path)

    return make


def so(uid: str, at: str, nation: str = "GE") -> dict:
    return {"id": uid, "nation": nation, "type": "special_operations", "at": at}


def inf(uid: str, nation: str, at: str) -> dict:
    return {"id": uid, "nation": nation, "type": "infantry_division", "at": at}


def special_action(g, side: str = "axis", dice=()):  # noqa: ANN001, ANN202
    s = g.new_state(seed=1)
    s = to_step(s, "player/special-action", side)
    s.dice = FixedDice(*dice)
    return s


def rolls(s) -> list[dict]:  # noqa: ANN001
    return [e for e in s.log if e["kind"] == "roll"]


# ------------------------------------------------------------------ SSA-4.2a, 27.G, 27.1
def test_ssa_4_2a_special_action_phase_offers_subvert_when_rule_27_is_used(game):
    s = special_action(game([so("GE-so", CITY), inf("HO-1", "HO", HN_FIELD)]))
    assert {"kind": "subvert", "country": "HN"} in s.legal_orders_of("subvert")
    assert s.decision.kind == "player/special-action" and "subvert" in s.decision.kinds


def test_ssa_4_2a_no_special_action_phase_without_the_optional_rule(game):
    s = game([so("GE-so", CITY)], rules=()).new_state(seed=1)
    for _ in range(40):
        assert s.decision.kind != "player/special-action"
        if s.decision.kind == "player/initial-movement":
            break
        s.advance()
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "subvert", "country": "HN"})


def test_ssa_27_2_only_the_listed_countries_can_be_subverted(game):
    s = special_action(game([so("GE-so", "0806")]))
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "subvert", "country": "US"})
    assert e.value.rule == "SSA-27.2" and "cannot be subverted" in str(e.value)


def test_ssa_27_1_axis_may_not_subvert_a_country_it_already_controls(game):
    s = special_action(game([so("GE-so", CITY)], control='HN = "axis"'))
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "subvert", "country": "HN"})
    assert e.value.rule == "SSA-27.1"


def test_ssa_27_1_axis_may_subvert_a_neutral_country(game):
    s = special_action(game([so("GE-so", CITY), inf("HO-1", "HO", HN_FIELD)], control='HN = "neutral"'),
                       dice=(6,))
    s.apply({"kind": "subvert", "country": "HN"})
    assert country_side(s, "HN") == "axis"
    assert not s.arrays["neutral"][s.map.index(HN_FIELD)]  # no longer neutral ground


# ------------------------------------------------------------------ SSA-27.3
def test_ssa_27_3_special_operations_must_be_in_a_city_of_the_country(game):
    s = special_action(game([so("GE-so", HN_FIELD)]))
    assert s.legal_orders_of("subvert") == []
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "subvert", "country": "HN"})
    assert e.value.rule == "SSA-27.3" and "in a city of HN" in str(e.value)


def test_ssa_27_3_anywhere_in_a_country_without_a_city(game):
    s = special_action(game([so("GE-so", GT_FIELD)]), dice=(6,))
    s.apply({"kind": "subvert", "country": "GT"})
    assert country_side(s, "GT") == "axis"


def test_ssa_27_3_one_unit_succeeds_on_a_six_only(game):
    s = special_action(game([so("GE-so", CITY)]), dice=(5,))
    s.apply({"kind": "subvert", "country": "HN"})
    assert country_side(s, "HN") == "allies"
    (r,) = rolls(s)[-1:]
    assert r["rule"] == "SSA-27.3" and r["dice"] == [5] and "subversion of HN" in r["purpose"]


@pytest.mark.parametrize(("count", "die", "subverted"), [(2, 5, True), (2, 4, False), (3, 4, True), (4, 3, False)])
def test_ssa_27_3_more_special_operations_units_subvert_more_easily(game, count, die, subverted):
    units = [so(f"GE-so{k}", CITY) for k in range(count)]
    s = special_action(game(units), dice=(die,))
    s.apply({"kind": "subvert", "country": "HN"})
    assert (country_side(s, "HN") == "axis") is subverted


@pytest.mark.parametrize(("morale", "die", "subverted"), [(80, 5, True), (50, 5, False), (20, 6, False)])
def test_ssa_27_3_national_morale_high_plus_one_poor_minus_one(game, morale, die, subverted):
    s = special_action(game([so("GE-so", CITY)], axis_morale=morale), dice=(die,))
    s.apply({"kind": "subvert", "country": "HN"})
    assert (country_side(s, "HN") == "axis") is subverted
    ev = [e for e in s.log if e["kind"] == "subversion"][-1]
    assert json.loads(ev["data"])["modifier"] == {80: 1, 50: 0, 20: -1}[morale]


def test_ssa_27_3a_27_4_p_makes_the_country_pro_axis_with_its_armed_forces(game):
    s = special_action(game([so("GE-so", CITY), inf("HO-1", "HO", HN_FIELD), inf("GU-1", "GU", GT_FIELD)]),
                       dice=(6,))
    s.apply({"kind": "subvert", "country": "HN"})
    assert s.unit("HO-1").side == "axis" and s.unit("GU-1").side == "allies"
    assert s.markers["city_control"][CITY] == "axis"
    assert int(control_array(s)[s.map.index(HN_FIELD)]) == AXIS
    assert int(control_array(s)[s.map.index(GT_FIELD)]) == ALLIES
    assert "HO" in s.markers["entered_war"]


def test_ssa_27_3b_no_effect_eliminates_attempting_units_among_enemy_units(game):
    s = special_action(game([so("GE-so", CITY), inf("HO-1", "HO", CITY)]), dice=(1,))
    s.apply({"kind": "subvert", "country": "HN"})
    assert s.unit("GE-so").location == "Eliminated"
    assert country_side(s, "HN") == "allies"


def test_ssa_27_3b_no_effect_spares_units_alone_in_their_hex(game):
    s = special_action(game([so("GE-so", CITY), inf("HO-1", "HO", HN_FIELD)]), dice=(1,))
    s.apply({"kind": "subvert", "country": "HN"})
    assert s.unit("GE-so").location == CITY


# ------------------------------------------------------------------ SSA-27.5, 27.6
def test_ssa_27_6_one_attempt_per_country_per_turn(game):
    s = special_action(game([so("GE-so1", CITY), so("GE-so2", CITY)]), dice=(1,))
    s.apply({"kind": "subvert", "country": "HN", "units": ["GE-so1"]})
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "subvert", "country": "HN", "units": ["GE-so2"]})
    assert e.value.rule == "SSA-27.6"


def test_ssa_27_5_allies_resubvert_an_axis_subverted_country(game):
    g = game([so("GE-so", CITY), so("US-so", CITY, nation="US"), inf("HO-1", "HO", HN_FIELD)])
    s = special_action(g, "axis", dice=(6, 6))
    with pytest.raises(IllegalOrder) as e:  # the Allies' own country: nothing to re-subvert
        to_step(s, "player/special-action", "allies").apply({"kind": "subvert", "country": "HN"})
    assert e.value.rule == "SSA-27.5"
    s = special_action(g, "axis", dice=(6, 6))
    s.apply({"kind": "subvert", "country": "HN"})
    assert s.unit("HO-1").side == "axis" and s.unit("US-so").location == CITY  # P: nobody eliminated
    to_step(s, "player/special-action", "allies")
    s.apply({"kind": "subvert", "country": "HN"})
    assert country_side(s, "HN") == "allies" and s.unit("HO-1").side == "allies"
    assert int(control_array(s)[s.map.index(HN_FIELD)]) == ALLIES


def test_ssa_27_5_allies_may_resubvert_a_country_pro_axis_by_a_coup():
    """SSA-27.1/27.5: the Allies "may only subvert countries which are neutral or are controlled by
    the enemy player" -- in D-Day North America 1944 Colombia and Venezuela start pro-Axis by coup
    ([occupation] "coup"), so the Allies may target them."""
    from workbench.engine import load_scenario
    from workbench.rulesets.ssa.subversion import may_target

    s = load_scenario("ssa/d-day-1944").new_state(seed=1)
    assert may_target(s, "allies", "CO") is None and may_target(s, "allies", "VE") is None
    assert may_target(s, "allies", "GT").rule == "SSA-27.5"  # Allied Guatemala: not a target


def test_ssa_27_heuristic_bot_subverts_where_most_special_operations_stand(game):
    """#24 item 11: the bot uses what rule 27 offers."""
    from workbench.bots.heuristic import make_policy

    units = [so("GE-so1", CITY), so("GE-so2", CITY), so("GE-so3", GT_FIELD), inf("HO-1", "HO", HN_FIELD)]
    s = special_action(game(units))
    pol = make_policy("heuristic", s.ruleset, "axis", 1)
    assert pol.choose(s, s.legal_orders()) == {"kind": "subvert", "country": "HN"}  # two units in Honduras, one in Guatemala
