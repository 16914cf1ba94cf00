"""Random-play fuzzing: no crash, no dead end, every scenario to its end."""

from __future__ import annotations

import pytest

from workbench.bots import RandomPolicy


def fuzz(game, seed: int, max_orders: int = 3000) -> None:
    state = game.new_state(seed=seed)
    pol = RandomPolicy(seed)
    for n in range(max_orders):
        if state.is_over:
            return
        d = state.decision
        assert d is not None, f"seed {seed}: no decision at {state.clock} after {n} orders"
        legal = state.legal_orders()
        assert legal, f"seed {seed}: {d} has no legal orders at {state.clock}"
        state.apply(pol.choose(state, legal))
    raise AssertionError(f"seed {seed}: game not over after {max_orders} orders at {state.clock}")


@pytest.mark.parametrize("seed", range(25))
def test_toy_random_play_never_crashes_or_dead_ends(toy_game, seed):
    fuzz(toy_game, seed)


SHIPPED = ["ssa/valor-of-ignorance", "ssa/1941", "ssa/d-day-1944", "ssa/resistance",
           "ssa/alternative-future-1946", "ssa/ww3-1949", "eto/barbarossa-1941", "eto/battle-of-britain-1940"]


@pytest.mark.parametrize("seed", range(8))
def test_eto_air_war_random_play_never_crashes_or_dead_ends(seed):
    """Battle of Britain (air only: flights, interceptions, air offensives, bombing) under random
    play, 8 seeds, to its end (about half a second a game)."""
    from workbench.engine import load_scenario

    fuzz(load_scenario("eto/battle-of-britain-1940"), seed=seed, max_orders=5000)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SHIPPED)
def test_shipped_scenarios_play_to_the_end_under_random_play(scenario):
    """Random legal play of every shipped scenario reaches its last turn: no crash, no dead end."""
    from workbench.engine import load_scenario

    fuzz(load_scenario(scenario), seed=3, max_orders=20_000)
