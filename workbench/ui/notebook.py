"""Generate ``notebooks/00-start-here.ipynb`` (committed without outputs).

``python -m workbench.ui.notebook`` rewrites the notebook from the cells below,
so the lesson and the code stay reviewable as plain Python.  The notebook keeps
its kernelspec (JupyterLab would otherwise ask for a kernel) and carries no
outputs and no widget state.  :func:`start_notebook` also makes copies pointed
at another scenario (the browser tests use one on a small test map).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "00-start-here.ipynb"
DONE_MARK = "start-here: all cells ran"

CELLS: list[tuple[str, str]] = [
    ("markdown", """\
# Start here: the Wargame Workbench

This notebook opens the default scenario in the **workbench**: a live hex map with click-to-order,
the sequence of play with "you are here", an attack planner with exact odds, a log in which every
die roll names its rule, undo / fork / replay, a set-up editor and charts.

Everything the workbench shows comes from the same small API that bots and the batch runner use:

* `state.decision` says **who must decide what, and under which rule**;
* `state.legal_orders()` lists every legal order for that decision;
* `state.apply(order)` carries one out, or raises `IllegalOrder` naming the rule it breaks.

The dice live inside the game state, so the same seed and the same orders always give the same game.
Run the cells in order (or *Run → Run All Cells*)."""),
    ("code", """\
import workbench as wb
from bokeh.io import output_notebook
from bokeh.resources import INLINE

from workbench.demo import DEFAULT_SCENARIO
from workbench.ui import Workbench

output_notebook(INLINE, hide_banner=True)  # INLINE: BokehJS comes with the notebook, no internet needed
SEED = 2024                                 # the game's dice and the bots are seeded: same seed, same game
SCENARIO = DEFAULT_SCENARIO
wb.scenarios()"""),
    ("markdown", """\
## Load a scenario

`wb.load_scenario` reads a scenario file (TOML), checks every key against the ruleset and the map, and
returns a `Game`. `game.new_state(seed=...)` gives the starting position with its dice seeded. We skip
ahead to the first step where units move (ending the steps before it with `state.advance()`, and letting
the first side go first where a step asks who does)."""),
    ("code", """\
game = wb.load_scenario(SCENARIO)
state = game.new_state(seed=SEED)
for _ in range(40):  # end the steps before the first movement step
    d = state.decision
    if d is None or 'move' in d.kinds:
        break
    if 'choose_first' in d.kinds:  # a step that needs a choice to go on: who goes first
        state.apply(state.legal_orders_of('choose_first')[0])
    else:
        state.advance()
print(game.scenario.title, '|', ' / '.join(state.clock))
print(state.decision)"""),
    ("markdown", """\
## Open the workbench

One widget holds everything. Read it top to bottom:

1. **Title and view.** The turn and the open steps of the sequence of play, and who owes a decision.
   *view* switches between the **umpire** (sees everything) and one **side**, which sees only what the
   fog-of-war rules show: enemy stacks are shown, their contents are not.
2. **The message line** answers every click. When the kernel refuses an order it shows *why* and
   *which rule*, and nothing changes.
3. **The map** (bokeh). Terrain, hexside features (rivers, borders, canals, lines), cities (black:
   industrial), capitals (stars) and ports (blue), and the counters: a NATO-style symbol (crossed box:
   infantry, oval: armour, ✈ air, ⚓ naval), the size (XX = division), strength-movement, a hatch when
   reduced, a badge with the number of units in a stack, a red triangle when out of supply, a green dot
   when a unit of the stack can still be given an order now (click the stack to pick it).
   Hover a hex for its label, terrain, hexsides, places and the stack. Drag to pan, scroll to zoom.
   The check boxes under the map add overlays: control, out of supply, the enemy ZOC, air ranges.
4. **Decision and play buttons** (right, always in view). The decision owed and its rule, and buttons:
   *Advance / pass* ends the step; the bot buttons let a random bot play to the end of the step, the
   phase or the turn. The sequence-of-play tree with ▶ *you are here* is in the *Orders* tab.
5. **Orders** (right, *Orders* tab). Click one of your units: its legal destinations light up in yellow
   (the kernel computed them). Click a lit hex and the order is applied. Click any other hex and the
   message line says which rule forbids it. Every other kind of decision (losses to take, retreat paths,
   purchases, interceptions) appears here, grouped by what it means, with its rule, as a drop-down of
   the legal orders and an *Apply* button; kinds with nothing legal now are left out.
6. **Tabs**: beside the map the *Orders*, the *Attack planner* and the *Log* (so the map and the planner
   or the log are on screen together, even on a laptop: the map fits the window); under the map
   *Undo, fork & replay*, *Set-up* and *Charts*."""),
    ("code", """\
bench = Workbench(state, seed=SEED)
bench"""),
    ("markdown", """\
## The attack planner

In a combat step, click an enemy stack (or pick a target in the *Attack planner* tab) and tick the
attackers. The planner shows each strength contribution with its rule, each column shift with its rule,
the odds column, the **exact** probability of every combat result (fractions of the die) and the expected
step losses of each side. *Commit attack* sends the order; the die roll appears in the log.

## The log

Every event of the game, newest first, filterable by kind, side, text or rule; *die rolls only* shows each
roll with its purpose and the rule that called for it. The annotation box attaches a comment and marks
(`!`, `?`, *key moment*) to the last order: they travel with the game record.

## Undo, fork and replay

*Undo* takes back the last order, but never a die roll. *Fork here* starts a what-if branch; pick it
under *live* to play it, and *Side by side* compares two branches: what differs, and the dice each rolled
since they split (same seed, same stream). The *replay* slider redraws the map as it was after each order.

## Set-up: make your own variant

Pick a scenario and a seed; switch optional rules on or off; override a rule-table entry for this game
(for example `crt.rows.2`); switch on *Edit position on the map* and use the tools (move, add, remove,
reduce, reinforce) by clicking the map. An edit that breaks a set-up rule is refused with its reason,
unless *designer mode* is on, which then lists the rules the position breaks. *Save scenario* writes a new
scenario file and checks that it loads back to the same position (the same state digest).

## Charts

Economy per nation and turn, losses by side and unit type, objectives held, victory points and morale,
computed with polars from the event log and the tracks. A chart with nothing to show yet says what it
waits for.

## Share

`export_html` (or *Export page* in *Undo, fork & replay*) writes one standalone page with the map, a
move list that steps the map through the game (click a move), the notes, the charts and the log: it
opens in any browser, offline, without Python. A notebook exported with nbconvert shows a static map
where the workbench is."""),
    ("code", """\
import pathlib

page = bench.export_html(pathlib.Path('out') / 'start-here.html')
print('wrote', page, page.stat().st_size // 1024, 'kB')"""),
    ("markdown", """\
## Underneath: the kernel API

The workbench never does anything you could not do in code. A *fork* is an independent copy of the game;
here bots play its first turn while the workbench above keeps the original."""),
    ("code", """\
from workbench.bots import RandomPolicy, play

lesson = state.fork()
print(lesson.decision)
print(len(lesson.legal_orders()), 'legal orders, for example', lesson.legal_orders()[:2])
bots = {side: RandomPolicy(SEED + i) for i, side in enumerate(game.ruleset.sides)}
play(lesson, bots, until_turn=lesson.turn + 1)
print(' / '.join(lesson.clock))
lesson.events().select('seq', 'turn', 'kind', 'side', 'rule', 'text').tail(8)"""),
    ("markdown", """\
A game record holds the scenario, the seed and the orders; replaying it rebuilds the game exactly."""),
    ("code", """\
import tempfile

path = pathlib.Path(tempfile.mkdtemp()) / 'first-turn.json'
lesson.record().save(path)
assert wb.replay(path).digest() == lesson.digest()
print('replayed', len(lesson.orders), 'orders; same digest', lesson.digest()[:12])
print('""" + DONE_MARK + """')"""),
    ("markdown", """\
## Where next

* [The lessons](lessons/index.ipynb): the rules of both games, one subsystem at a time, on the real map.
* [Balance testing](balance-testing.ipynb): how much the dice decide, from seeded bot games.
* [The maps](maps.ipynb): how the two hex maps are built from geographic data.
* [A game for learning agents](rl-environment.ipynb): any scenario as a PettingZoo environment
  (`workbench.env`), with a simple agent evaluated against the random bot."""),
]


def start_notebook(scenario: str | None = None) -> dict:
    """The notebook as JSON data; ``scenario`` replaces the default scenario id (for tests)."""
    cells = []
    for i, (kind, src) in enumerate(CELLS):
        if scenario is not None and "SCENARIO = DEFAULT_SCENARIO" in src:
            src = src.replace("SCENARIO = DEFAULT_SCENARIO", f"SCENARIO = {json.dumps(str(scenario))}")
        cell = {"cell_type": kind, "id": f"start-{i:02d}", "metadata": {}, "source": src.splitlines(True)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    return {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                         "language_info": {"name": "python"}}}


def write(path: str | Path = NOTEBOOK, scenario: str | None = None) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(start_notebook(scenario), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write(*sys.argv[1:2]))
