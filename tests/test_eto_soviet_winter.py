"""ETO-43.4 Soviet winter proficiency, end to end on the Barbarossa scenario: the window opens at the
first November turn with Axis units inside the USSR, bites only on W-weather turns inside the USSR,
closes in April and never reopens (once per game)."""

from __future__ import annotations

import pytest
from eto_kit import new_state, unit

from workbench.engine import load_scenario
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto.combat import soviet_winter_term
from workbench.rulesets.eto.control import home_mask


@pytest.fixture(scope="module")
def game():
    return load_scenario("eto/barbarossa-1941")


def _at(state, label: str) -> None:  # noqa: ANN001
    state.turn = state.calendar.index(label)


def _units(state):  # noqa: ANN001, ANN202
    ge = next(u for u in state.units_by_id.values() if u.nation == "GE" and u.type == "infantry" and u.location.isdigit())
    su = next(u for u in state.units_by_id.values() if u.nation == "SU" and u.type == "infantry" and u.location.isdigit())
    return ge, su


def test_eto_43_4_window_opens_in_november_with_axis_units_in_the_ussr_and_closes_in_april(tmp_path):
    kiev = "07946"
    units = [unit("GE-1", "GE", "infantry", "06345"), unit("SU-1", "SU", "infantry", "08550")]
    state = new_state(tmp_path, units, first="1941-10", last="1942-12", specials=("soviet_winter_proficiency",),
                      tracks={"winter_war": "won"})
    assert state.tracks.get("soviet_winter") == "pending"  # the Winter War was won
    su_home = home_mask(state, "SU", original=True)
    ge = state.unit("GE-1")
    assert not su_home[state.map.index(ge.location)]
    state.ruleset._soviet_winter_window(state)
    assert state.turn_label == "1941-10" and state.tracks["soviet_winter"] == "pending"  # not before November
    _at(state, "1941-11")
    state.ruleset._soviet_winter_window(state)
    assert state.tracks["soviet_winter"] == "pending"  # November, but no Axis unit inside the USSR
    ge.location = kiev
    assert su_home[state.map.index(kiev)]
    state.ruleset._soviet_winter_window(state)
    assert state.tracks["soviet_winter"] == "active"
    _at(state, "1942-03")
    state.ruleset._soviet_winter_window(state)
    assert state.tracks["soviet_winter"] == "active"  # until April
    _at(state, "1942-04")
    state.ruleset._soviet_winter_window(state)
    assert state.tracks["soviet_winter"] == "over"
    _at(state, "1942-11")
    state.ruleset._soviet_winter_window(state)
    assert state.tracks["soviet_winter"] == "over"  # once per game


def test_eto_43_4_plus_one_soviet_minus_one_axis_on_w_turns_inside_the_ussr_only(game):
    state = game.new_state(seed=1)
    ge, su = _units(state)
    kiev, warsaw = state.map.hex_of("Kiev"), state.map.hex_of("Warsaw")
    state.tracks["soviet_winter"] = "active"
    state.tracks["weather"] = "W"
    assert soviet_winter_term(state, "allies", [su], [ge], kiev) == "soviet_attack"
    assert soviet_winter_term(state, "axis", [ge], [su], kiev) == "axis_attack"
    assert sum(v for v, _, _ in adj.combat_drm_terms(soviet_winter="soviet_attack")) == 1
    assert sum(v for v, _, _ in adj.combat_drm_terms(soviet_winter="axis_attack")) == -1
    assert soviet_winter_term(state, "allies", [su], [ge], warsaw) is None  # outside the USSR
    assert soviet_winter_term(state, "axis", [ge], [su], warsaw) is None
    state.tracks["weather"] = "M"
    assert soviet_winter_term(state, "allies", [su], [ge], kiev) is None  # W-weather turns only
    state.tracks["weather"] = "W"
    for status in ("pending", "over"):
        state.tracks["soviet_winter"] = status
        assert soviet_winter_term(state, "allies", [su], [ge], kiev) is None
