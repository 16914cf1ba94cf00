"""The PettingZoo environment (issue 25, item 5): PettingZoo's own API test, exact masks,
determinism, and episodes that end."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from workbench.env import WIN, WorkbenchEnv

VOI = "ssa/valor-of-ignorance"
BRITAIN = "eto/battle-of-britain-1940"


def test_pettingzoo_api_test_passes_on_valor_of_ignorance():
    api_test(WorkbenchEnv(VOI, seed=1, max_orders=300), num_cycles=100, verbose_progress=False)


def test_pettingzoo_api_test_passes_on_an_eto_scenario():
    api_test(WorkbenchEnv(BRITAIN, seed=1, max_orders=200), num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize("scenario", [VOI, BRITAIN, "eto/mediterranean-1941"])
def test_every_order_behind_the_mask_applies_without_error(scenario: str):
    """Each masked-in first move, and each order its second move offers, is carried out on a
    fork of the game without ``IllegalOrder``, for the first decisions of a randomly played game."""
    env = WorkbenchEnv(scenario, seed=5)
    env.reset()
    rng = np.random.default_rng(5)
    tried = 0
    for _ in range(12):
        if env._pending is None:
            mask = env.action_mask()
            groups = env._groups()
            assert set(np.flatnonzero(mask)) == set(groups)
            for key in np.flatnonzero(mask):
                options = groups[int(key)]
                for order in (options if len(options) <= 3 else [options[0], options[-1]]):
                    env.state.fork().apply(order)
                    tried += 1
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
    assert tried > 20


def _play(env: WorkbenchEnv, steps: int, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    taken = []
    for _ in range(steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal))
        taken.append(a)
        env.step(a)
    return taken


def test_same_seed_and_actions_give_the_same_game():
    a, b = WorkbenchEnv(VOI, seed=4), WorkbenchEnv(VOI, seed=4)
    a.reset(seed=4)
    b.reset(seed=4)
    actions = _play(a, 120, seed=9)
    for x in actions:
        b.step(x)
    assert a.state.digest() == b.state.digest() and a.state.orders == b.state.orders


def test_every_masked_action_is_a_legal_order_and_nothing_else_is():
    env = WorkbenchEnv(VOI, seed=2)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs = env.observe(env.agent_selection)
        mask = obs["action_mask"]
        legal = env.state.legal_orders()
        if env._pending is None:  # first move: each index is a (kind, unit) with legal orders
            keys = {env.key(o) for o in legal}
            assert set(np.flatnonzero(mask)) == keys
            assert obs["tracks"][2] == 0.0
        else:  # second move: each index is one of the orders of the chosen kind and unit
            assert all(env.order_of(int(i)) in legal for i in np.flatnonzero(mask))
            assert obs["tracks"][2] == 1.0 and (obs["choices"][: mask.sum(), 1] >= 1).all()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    masked_out = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(ValueError, match="masked out"):
        env.step(masked_out)


def test_observations_are_the_acting_sides_fog_of_war_view():
    """Own land strength is summed per hex from the counters; enemy units count only if the
    side's view (SSA-19) shows them; hidden enemy stacks are a channel of their own."""
    env = WorkbenchEnv(VOI, seed=1)
    env.reset()
    s, me = env.state, env.agent_selection
    obs = env.observe(me)
    view = s.ruleset.view(s, me)

    def strength(side: str, units) -> float:  # noqa: ANN001
        return sum(float(s.ruleset.unit_card(s, u)["strength"].strip("()[]")) for u in units
                   if u.side == side and u.location.isdigit() and s.ruleset.unit_types[u.type].get("domain") == "land"
                   and not u.props.get("carried"))

    other = [a for a in env.agents if a != me][0]
    assert obs["hexes"][0].sum() == pytest.approx(strength(me, s.units_by_id.values()))
    assert obs["hexes"][3].sum() == pytest.approx(strength(other, view.units_by_id.values()))
    assert obs["hexes"][5].sum() == len(view.hidden_hexes)
    assert not env.observe(other)["action_mask"].any()  # only the agent to act has moves


def test_episodes_end_by_truncation_or_by_the_games_end_with_a_win_bonus():
    env = WorkbenchEnv(VOI, seed=3, max_orders=25)
    env.reset()
    _play(env, 500, seed=1)
    assert all(env.truncations.values()) and len(env.state.orders) == 25
    env = WorkbenchEnv(VOI, seed=3)
    env.reset()
    total = dict.fromkeys(env.agents, 0.0)
    end = {env.kinds.index("end_step"), env.kinds.index("pass")}
    for _ in range(5000):  # every side ends every step at once: the game runs to its last turn
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        legal = np.flatnonzero(obs["action_mask"])
        quick = [a for a in legal if env._pending is None and a // env.U in end]
        env.step(int(quick[0] if quick else legal[0]))
        for ag in env.agents:
            total[ag] += env.rewards[ag]
    assert all(env.terminations.values()) and env.state.is_over
    assert sum(total.values()) == pytest.approx(0.0)  # zero-sum throughout
    winner = env.state.result["winner"]
    assert env.rewards[winner] == pytest.approx(env.infos[winner]["margin_change"] + WIN)


def test_supply_and_zoc_channels_are_the_players_map_overlays():
    """Own units out of supply (SSA-10) mark their hexes for their own side only; the enemy's
    land ZOC (SSA-8) is the workbench's ZOC overlay for that player."""
    env = WorkbenchEnv("ssa/1941", seed=1)
    env.reset()
    s, me = env.state, env.agent_selection
    other = [a for a in env.agents if a != me][0]
    obs = env.observe(me)
    hm = s.map
    bad = s.ruleset.out_of_supply(s)
    mine = {hm.index(s.unit(u).location) for u in bad if s.unit(u).side == me}
    theirs = {hm.index(s.unit(u).location) for u in bad if s.unit(u).side == other}
    assert mine and set(np.flatnonzero(obs["hexes"][8])) == mine
    assert set(np.flatnonzero(env.observe(other)["hexes"][8])) == theirs
    zoc = s.ruleset.overlays(s, me)["zoc"]
    assert obs["hexes"][9].sum() > 0 and set(np.flatnonzero(obs["hexes"][9])) == set(np.flatnonzero(zoc))


def test_the_lesson_notebook_is_its_generators_output_without_outputs():
    """notebooks/rl-environment.ipynb is written by make_rl_environment.py (stable cell ids) and
    committed without outputs; nbval runs it in CI."""
    import sys
    from pathlib import Path

    import nbformat

    notebooks = Path(__file__).resolve().parents[1] / "notebooks"
    sys.path.insert(0, str(notebooks))
    try:
        import make_rl_environment as mrl
    finally:
        sys.path.remove(str(notebooks))
    committed = nbformat.read(mrl.NOTEBOOK, as_version=4)
    assert [c.source for c in committed.cells] == [c.source for c in mrl.build().cells]
    assert [c.id for c in committed.cells] == [c.id for c in mrl.build().cells]
    assert all(not c.get("outputs") for c in committed.cells if c.cell_type == "code")
