"""Scenario-level rules (SSA-SC): first and last turns, starting morale and mobilization points,
and the initial deployment constraints, against the rulebook's scenario pages."""

from __future__ import annotations

import pytest

from workbench.engine import load_scenario

#: SSA-SC.2: (first turn, last turn, number of turns) as each scenario prints them.
TURNS = {"ssa/valor-of-ignorance": ("1939-06", "1939-10", 5), "ssa/1941": ("1941-09", "1942-08", 12),
         "ssa/d-day-1944": ("1944-06", "1946-05", 24), "ssa/resistance": ("1944-12", "1945-11", 12),
         "ssa/alternative-future-1946": ("1946-05", "1947-04", 12), "ssa/ww3-1949": ("1949-06", "1951-06", 25)}

#: SSA-SC.5: starting morale (Axis, Allies) and accumulated MP; SC0 uses neither.
MORALE = {"ssa/1941": (90, 50), "ssa/d-day-1944": (85, 65), "ssa/resistance": (65, 90),
          "ssa/alternative-future-1946": (60, 60), "ssa/ww3-1949": (65, 55)}
MP = {"ssa/d-day-1944": {"GE.mp.industrial": 0, "US.mp.industrial": 0, "US.mp.non_industrial": 0},
      "ssa/1941": {"GE.mp.industrial": 5, "US.mp.non_industrial": 10, "BC.mp.industrial": 0},
      "ssa/resistance": {"US.mp.industrial": 10, "US.mp.non_industrial": 10, "BC.mp.industrial": 5,
                         "BC.mp.non_industrial": 5, "GE.mp.industrial": 0},
      "ssa/alternative-future-1946": {"GE.mp.industrial": 10, "US.mp.industrial": 0},
      "ssa/ww3-1949": {"GE.mp.industrial": 5, "US.mp.industrial": 10, "US.mp.non_industrial": 10,
                       "BC.mp.industrial": 5, "BC.mp.non_industrial": 5}}


@pytest.mark.parametrize("sid", sorted(TURNS))
def test_ssa_sc_2_first_and_last_game_turns(sid):
    first, last, n = TURNS[sid]
    game = load_scenario(sid)
    state = game.new_state(0)
    assert state.turn_label == first
    calendar = state.ruleset.calendar(game.scenario.first_turn, game.scenario.last_turn)
    assert calendar[0] == first and calendar[-1] == last and len(calendar) == n


@pytest.mark.parametrize("sid", sorted(MORALE))
def test_ssa_sc_5_starting_morale_and_mobilization_points(sid):
    tracks = load_scenario(sid).new_state(0).tracks
    assert (tracks["axis.morale"], tracks["allies.morale"]) == MORALE[sid]
    for key, value in MP[sid].items():
        assert tracks[key] == value, key


def test_ssa_sc_0_valor_of_ignorance_has_no_morale_or_mobilization():
    """SC0 prints neither morale nor mobilization points (SR3: no mobilization)."""
    tracks = load_scenario("ssa/valor-of-ignorance").new_state(0).tracks
    assert not any(k.endswith("morale") or ".mp." in k for k in tracks)


def test_ssa_sc_4_default_deployment_satisfies_every_group():
    """SC.4: every unit of a deployment group starts where its group allows (SC0: the west-coast
    group on U.S. west coast hexes), and the default set-up breaks no set-up rule."""
    state = load_scenario("ssa/valor-of-ignorance").new_state(0)
    hm = state.map
    west = [u for u in state.units_by_id.values()
            if state.game.scenario_units.get(u.id, {}).get("deploy") == "west-coast"]
    assert len(west) >= 5
    for u in west:
        assert hm.hexes["country"][hm.index(u.location)] == "United States"
    assert state.ruleset.setup_breaches(state) == []
