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

* `hexes` — one row per channel, one column per map hex (`HEX_CHANNELS` names them: own and
  seen enemy units, hidden enemy stacks, control, terrain, own units out of supply, enemy ZOC);
* `tracks` — a few numbers about the game (turn, whose phase, the ruleset's metrics);
* `action_mask` — which actions are legal now (1) and which are not (0).

The Axis moves first, and its units are still in the holding boxes off the west coast, so the
Axis sees mostly *hidden* American stacks and their zones of control."""),
    ("code", """obs, reward, terminated, truncated, info = env.last()
pl.DataFrame({"channel": list(HEX_CHANNELS), "hexes used": (obs["hexes"] != 0).sum(axis=1),
              "total": obs["hexes"].sum(axis=1).round(1)})"""),
    ("md", """Any agent's observation can be read, not only the acting one's (its mask is then all
zeros).  The Allies' view shows their own defenders: here as a table of the busiest hexes, and
then on the map, one channel per colour."""),
    ("code", """allied = env.observe("allies")["hexes"]
labels = env.state.map.labels_list
own = allied[HEX_CHANNELS.index("own_land_strength")]
top = np.argsort(-own)[:5]
pl.DataFrame({"hex": [labels[i] for i in top], "own land strength": own[top],
              "out of supply": allied[HEX_CHANNELS.index("own_out_of_supply")][top],
              "terrain class": allied[HEX_CHANNELS.index("terrain")][top]})"""),
    ("code", """from bokeh.io import output_notebook, show
from bokeh.plotting import figure
from bokeh.resources import INLINE
from bokeh.transform import linear_cmap

from workbench.ui.mapview import hex_centres

output_notebook(INLINE, hide_banner=True)  # BokehJS comes with the notebook: no internet needed
q, r = np.asarray(env.state.map.grid.q), np.asarray(env.state.map.grid.r)  # the axial grid the workbench draws
x, y = hex_centres(q, r)
busy = np.flatnonzero(own)  # draw the rectangle around the Allied units, with a margin
window = ((x >= x[busy].min() - 8) & (x <= x[busy].max() + 8)
          & (y >= y[busy].min() - 8) & (y <= y[busy].max() + 8))
fig = figure(title="The Allies' observation: own land strength per hex", match_aspect=True,
             width=640, height=520, tools="pan,wheel_zoom,reset,hover",
             tooltips=[("hex", "@hex"), ("strength", "@strength")])
fig.axis.visible = fig.grid.visible = False
data = {"q": q[window], "r": r[window], "hex": np.array(labels)[window],
        "strength": own[window], "terrain": allied[HEX_CHANNELS.index("terrain")][window]}
fig.hex_tile("q", "r", source=data, orientation="flattop", line_color="white",
             fill_color=linear_cmap("terrain", "Greys256", 0, 1.6), fill_alpha=0.5)
strong = own[window] > 0
fig.hex_tile("q", "r", source={k: v[strong] for k, v in data.items()}, orientation="flattop",
             fill_color=linear_cmap("strength", "Reds256", own.max(), 0), line_color="black")
show(fig)"""),
    ("code", """pl.DataFrame({"track": list(TRACKS), "value": obs["tracks"]})"""),
    ("md", """## How an agent acts: two moves per order

A wargame order has parts: *what kind* (move, attack, embark ...), *which unit*, and *where*.
The action space is **factored** the same way.  The first move picks a kind and a unit, with a
fixed meaning for every index (`kind_id * env.U + unit_slot`); the second picks one of that
unit's legal orders of that kind (its destination, say).  When there is only one, the first
move carries it out.  The masks come straight from the rules engine's `legal_orders`, so a
masked-in action is always legal."""),
    ("code", """print(env.agent_selection, env.state.decision.kind, "| legal orders:", len(env.legal()))
env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # the Axis's only order: end its set-up step
obs, *_ = env.last()
pairs = np.flatnonzero(obs["action_mask"])
print(env.agent_selection, env.state.decision.kind, "| legal orders:", len(env.legal()),
      "| first moves:", len(pairs))
slots = env.unit_ids + ["(no unit)", "(new unit)"]
pl.DataFrame({"action": pairs, "kind": [env.kinds[a // env.U] for a in pairs],
              "unit": [slots[a % env.U] for a in pairs]}).head(8)"""),
    ("md", """The Allies now set up: thousands of `deploy` orders, but only a few dozen first moves, one
per unit.  Pick the unit with the most places to go; the second move then offers each of its
orders, and `obs["choices"]` says where each one goes."""),
    ("code", """from collections import Counter

per_move = Counter(env.key(o) for o in env.legal())
first = max(pairs, key=lambda a: per_move[int(a)])
env.step(int(first))
obs, *_ = env.last()
print("second move of", env.agent_selection, "| stage track:", obs["tracks"][TRACKS.index("stage")],
      "| choices:", int(obs["action_mask"].sum()))
pl.DataFrame({"rank": range(4),
              "to hex": [labels[i] if i >= 0 else "-" for i in obs["choices"][:4, 0]],
              "units": obs["choices"][:4, 1], "order": [str(env.order_of(k)) for k in range(4)]})"""),
    ("md", """## Two simple agents against the project's `RandomPolicy`

We play the Axis with three agents, always against the workbench's `RandomPolicy` bot as the
Allies:

* **random bot** is `RandomPolicy` itself playing the Axis: the baseline;
* **masked random** draws a legal action uniformly from the mask;
* **greedy** looks one order ahead: it tries a few of its legal orders on a copy of the game
  (`state.fork()`), and keeps the one that leaves its contest margin best — the same number the
  rewards pay (objective value held and enemy steps lost, both ways).

The opponent is the workbench's `RandomPolicy` bot, played through the environment with
`env.actions_for(order)`.  Each episode is cut at 150 orders (a truncation) unless the game
ends first."""),
    ("code", """def masked_random(env, rng):
    return [int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))]


def random_bot(env, rng):
    bot = RandomPolicy(seed=int(rng.integers(1 << 30)))
    return env.actions_for(bot.choose(env.state, env.state.legal_orders()))


def greedy(env, rng, tries=4):
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
    winner = (env.state.result or {}).get("winner") or "-"
    return {"agent": agent.__name__, "seed": seed, "axis reward": total, "orders": len(env.state.orders),
            "turn reached": env.state.turn, "ended": "game over" if env.state.is_over else "cut",
            "winner": winner}


results = pl.DataFrame([episode(agent, seed) for agent in (random_bot, masked_random, greedy)
                        for seed in (1, 2)])
results"""),
    ("code", """results.group_by("agent").agg(pl.col("axis reward").mean().alias("mean reward")).sort("agent")"""),
    ("code", """best = results.group_by("agent").agg(pl.col("axis reward").mean()).sort("axis reward").row(-1)
print(f"best mean reward over these episodes: {best[0]} ({best[1]:+.1f})")"""),
    ("md", """Read the table row by row.  The reward pays the contest margin as it changes, and ±100
to the winner (−100 to the loser) when the game ends.  A game that reaches its last turn is
`game over` and the scenario's victory rules name the winner; an episode still running after
150 orders is `cut` (a truncation), with the margin it had.  `turn reached` shows how far each
agent let the calendar run: ending steps moves the game on, moving units does not.  Two seeds
are few: read the table as a demonstration of the interface, not a verdict.  Looking one order ahead is
already a policy; a learning agent would replace `greedy` with a network that reads
`hexes` and `tracks` and outputs logits over the action space, multiplied by the mask.

**Try it:** raise `tries` to 8, or give the Allies the greedy agent instead.  For whole games
and many seeds use the batch runner (`workbench batch`) — the environment is for agents that
learn; the batch is for measuring."""),
]


def build() -> nbf.NotebookNode:
    nb = nbf.v4.new_notebook()
    nb.cells = [nbf.v4.new_markdown_cell(t) if k == "md" else nbf.v4.new_code_cell(t) for k, t in CELLS]
    for i, cell in enumerate(nb.cells):  # stable ids: regenerating gives the same file
        cell["id"] = f"rl-{i:02d}"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


if __name__ == "__main__":
    nbf.write(build(), NOTEBOOK)
    print(f"wrote {NOTEBOOK}")
