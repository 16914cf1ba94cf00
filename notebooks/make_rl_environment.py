"""Write notebooks/rl-environment.ipynb (no outputs): the PettingZoo environment, as a lesson.

    .venv/bin/python notebooks/make_rl_environment.py
"""

from __future__ import annotations

from pathlib import Path

import nbformat as nbf

NOTEBOOK = Path(__file__).resolve().parent / "rl-environment.ipynb"

CELLS = [
    ("md", """# A game for learning agents: the PettingZoo environment

`workbench.env.WorkbenchEnv` puts any scenario behind [PettingZoo](https://pettingzoo.farama.org)'s
**AEC** (agent-environment cycle) interface, the standard for turn-based multi-agent games:

1. `env.agent_selection` names the agent to act: here a *side*, whoever owes the kernel's
   current decision (the phasing player, or the other side for an interception or a retreat);
2. `env.last()` gives that agent its observation, reward, and whether the game ended;
3. `env.step(action)` plays its action, and the cycle moves on.

We use *The Valor of Ignorance* (Japan invades the American west coast in 1939), the
shortest SS Amerika scenario.  Everything is seeded: run it twice, get the same numbers."""),
    ("code", """import numpy as np
import polars as pl

from workbench.bots.policy import RandomPolicy
from workbench.env import HEX_CHANNELS, TRACKS, WorkbenchEnv

env = WorkbenchEnv("ssa/valor-of-ignorance", seed=0, max_orders=150)
env.reset(seed=0)
print("agents:", env.agents, "| to act:", env.agent_selection)
print("action space:", env.action_space("axis"))
{k: v.shape for k, v in env.observation_space("axis").spaces.items()}"""),
    ("md", """## What an agent sees

The observation is built from the acting side's **fog-of-war view** (SS Amerika rule 19: enemy
stacks are hidden until recon or contact), as numpy arrays:

* `hexes` — one row per channel, one column per map hex;
* `tracks` — a few numbers about the game (turn, whose phase, the ruleset's metrics);
* `action_mask` — which actions are legal now (1) and which are not (0)."""),
    ("code", """obs, reward, terminated, truncated, info = env.last()
pl.DataFrame({"channel": list(HEX_CHANNELS), "hexes used": (obs["hexes"] != 0).sum(axis=1),
              "total": obs["hexes"].sum(axis=1).round(1)})"""),
    ("code", """labels = env.state.map.labels_list
own = obs["hexes"][0]
top = np.argsort(-own)[:5]
pl.DataFrame({"hex": [labels[i] for i in top], "own land strength": own[top],
              "terrain class": obs["hexes"][7][top]})"""),
    ("code", """pl.DataFrame({"track": list(TRACKS), "value": obs["tracks"]})"""),
    ("md", """## How an agent acts: two moves per order

A wargame order has parts: *what kind* (move, attack, embark ...), *which unit*, and *where*.
The action space is **factored** the same way.  The first move picks a kind and a unit, with a
fixed meaning for every index (`kind_id * env.U + unit_slot`); the second picks one of that
unit's legal orders of that kind (its destination, say).  When there is only one, the first
move carries it out.  The masks come straight from the rules engine's `legal_orders`, so a
masked-in action is always legal."""),
    ("code", """mask = obs["action_mask"]
pairs = np.flatnonzero(mask)
kinds = [env.kinds[a // env.U] for a in pairs]
pl.DataFrame({"kind": kinds}).group_by("kind").len().sort("len", descending=True)"""),
    ("md", """## Two simple agents against the project's `RandomPolicy`

* **masked random** draws a legal action uniformly from the mask;
* **greedy** looks one order ahead: it tries a few of its legal orders on a copy of the game
  (`state.fork()`), and keeps the one that leaves its contest margin best — the same number the
  rewards pay (objective value held and enemy steps lost, both ways).

The opponent is the workbench's `RandomPolicy` bot, played through the environment with
`env.actions_for(order)`.  Each episode is cut at 150 orders (a truncation), which is enough to
see the agents differ in the first turn's landings."""),
    ("code", """def masked_random(env, rng):
    return [int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))]


def greedy(env, rng, tries=6):
    sign = 1 if env.agent_selection == env.possible_agents[0] else -1
    legal = env.legal()
    picks = [legal[i] for i in rng.choice(len(legal), size=min(tries, len(legal)), replace=False)]

    def value(order):
        trial = env.state.fork()
        trial.apply(order)
        return sign * env.margin(trial)

    return env.actions_for(max(picks, key=value))


def episode(agent, seed):
    env = WorkbenchEnv("ssa/valor-of-ignorance", seed=seed, max_orders=150)
    env.reset(seed=seed)
    opponent, rng = RandomPolicy(seed=seed), np.random.default_rng(seed)
    total = 0.0
    while not (env.terminations["axis"] or env.truncations["axis"]):
        acting = env.agent_selection
        if acting == "axis":
            actions = agent(env, rng)
        else:
            actions = env.actions_for(opponent.choose(env.state, env.state.legal_orders()))
        for a in actions:
            env.step(a)
            total += env.rewards["axis"]
    return {"agent": agent.__name__, "seed": seed, "axis reward": total, "orders": len(env.state.orders)}


results = pl.DataFrame([episode(agent, seed) for agent in (masked_random, greedy) for seed in (1, 2)])
results"""),
    ("code", """results.group_by("agent").agg(pl.col("axis reward").mean().alias("mean reward")).sort("agent")"""),
    ("code", """best = results.group_by("agent").agg(pl.col("axis reward").mean()).sort("axis reward").row(-1)
print(f"best mean reward over these episodes: {best[0]} ({best[1]:+.1f})")"""),
    ("md", """In 150 orders little changes hands, so the rewards are small and two seeds are few: read
the table as a demonstration of the interface, not a verdict.  Looking one order ahead is
already a policy; a learning agent would replace `greedy` with a network that reads
`hexes` and `tracks` and outputs logits over the action space, multiplied by the mask.

**Try it:** raise `tries` to 12, or give the Allies the greedy agent instead.  For whole games
and many seeds use the batch runner (`workbench batch`) — the environment is for agents that
learn; the batch is for measuring."""),
]


def build() -> nbf.NotebookNode:
    nb = nbf.v4.new_notebook()
    nb.cells = [nbf.v4.new_markdown_cell(t) if k == "md" else nbf.v4.new_code_cell(t) for k, t in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


if __name__ == "__main__":
    nbf.write(build(), NOTEBOOK)
    print(f"wrote {NOTEBOOK}")
