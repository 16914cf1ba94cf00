"""The SS Amerika lessons, as plain Python.

Each :class:`~make_lessons.Lesson` is a list of cells: ``md`` (markdown), ``code``, ``setup`` and the
closing ``question`` / ``answer`` pair.  Every lesson starts with the same set-up cell (:data:`SETUP`):
the imports, the seed, the scenario text of a German beachhead on the US east coast (the real
north-america map) and four small helpers.  ``make_lessons.py`` turns them into notebooks.
"""

from __future__ import annotations

from make_lessons import HELPERS, Lesson

SETUP = '''
import pathlib
import tempfile

import numpy as np
import polars as pl
from bokeh.io import output_notebook, show
from bokeh.resources import INLINE

import workbench as wb
from workbench.ui import Workbench
from workbench.ui.mapview import MapView

output_notebook(INLINE, hide_banner=True)  # BokehJS travels inside the notebook: no internet needed
SEED = 1943  # the dice live inside the game state: the same seed and orders always give the same game
pl.Config.set_tbl_rows(30)
pl.Config.set_fmt_str_lengths(90)
pl.Config.set_tbl_width_chars(160)

# Every SS Amerika lesson places a few units on the real north-america map, summer 1943, around a
# German beachhead in New Jersey: New York (077065) and Philadelphia (076066) are US industrial
# cities; the Axis is supplied from the Europe holding area.  {units} is filled in by each lesson.
COAST = """
format = 1
id = "lesson/ssa"
title = "{title}"
ruleset = "ssa"
map = "north-america"
first_turn = "{first}"
last_turn = "{last}"
units = [
{units}
]

[sides.axis]
nations = ["GE", "SS", "JA"]
[sides.allies]
nations = ["US", "BC"]

[control]
US = "allies"
CA = "allies"
MX = "allies"
"box.Europe" = "axis"
"box.Far East" = "axis"
"box.Pacific" = "axis"
"box.Latin America" = "open"

# At the start every US hex is Allied (SSA-17.1), so German units stand on US soil only as a
# deployment group of the scenario (SSA-SC.4): the beachhead, any coastal hex of the US east coast.
[[deployment]]
name = "beachhead"
side = "axis"
rule = "SSA-SC.4"
text = "Lesson position: a German beachhead on the US east coast."
default = ["077067"]
where.country = "US"
where.coast = "east"
"""


def load_position(title, units, first="1943-06", last="1943-08"):
    """Write the scenario (COAST with these units) to a temporary folder and load it: a Game."""
    path = pathlib.Path(tempfile.mkdtemp(prefix="lesson-")) / "position.toml"
    path.write_text(COAST.format(title=title, units=units.strip("\\n"), first=first, last=last))
    return wb.load_scenario(path)


def board(state, focus=None, marks=None, title=None, margin=2.2, width=640, height=420):
    """A static map of ``state`` framed on the ``focus`` hexes (None: the whole map and its boxes),
    with the hex labels written in.  ``marks`` = {layer: (hexes, colour)}; layers: 'reach' (filled),
    'zoc' (outlined), 'supply' (tinted), 'targets' and 'selected' (rings)."""
    view = MapView(state, width=width, height=height, interactive=False,
                   title=title or " / ".join(state.clock))
    view.marks_renderer.level = "glyph"  # lit hexes stay inside the frame
    with view.batch():
        for layer, (hexes, colour) in (marks or {}).items():
            view.set_overlay(layer, list(hexes), colour)
    if focus is None:  # the whole map with its off-map boxes
        spots = list(view.boxes.values())
        x0 = min([view.hx.min(), *(s.x - s.w / 2 for s in spots)]) - 1
        x1 = max([view.hx.max(), *(s.x + s.w / 2 for s in spots)]) + 1
        y0 = min([view.hy.min(), *(s.y - s.h / 2 for s in spots)]) - 1
        y1 = max([view.hy.max(), *(s.y + s.h / 2 for s in spots)]) + 1
    else:
        xy = np.array([view.xy(h) for h in focus])
        (x0, y0), (x1, y1) = xy.min(axis=0) - margin, xy.max(axis=0) + margin
    w, h = x1 - x0, y1 - y0
    if w / h < width / height:
        x0, x1 = x0 - (h * width / height - w) / 2, x1 + (h * width / height - w) / 2
    else:
        y0, y1 = y0 - (w * height / width - h) / 2, y1 + (w * height / width - h) / 2
    for rng, a, b in ((view.fig.x_range, x0, x1), (view.fig.y_range, y0, y1)):
        rng.start, rng.end, rng.reset_start, rng.reset_end = float(a), float(b), float(a), float(b)
    idx = np.nonzero((view.hx > x0) & (view.hx < x1) & (view.hy > y0) & (view.hy < y1))[0]
    if len(idx) > 1500:  # too small to read: no hex labels on the whole map
        return view.fig
    view.fig.text(x=view.hx[idx], y=view.hy[idx] + 0.62, text=[state.map.label(int(i)) for i in idx],
                  text_font_size="6pt", text_align="center", text_baseline="middle", text_color="#666666")
    return view.fig
''' + HELPERS

HOW = """
**How to use this notebook:** *Run → Run All Cells*, then read from the top. Cells marked
*Try it* are for the class: change the order (or the scenario text) and run the cell again with
*Shift-Enter*. *Kernel → Restart Kernel and Run All Cells* goes back to the start. The dice are
seeded (`SEED`), so every run of the notebook plays the same game."""

SETUP_NOTE = """
The set-up cell below (collapsed: click it to open) loads the tools, seeds the dice and defines the
helpers used below: `load_position` (the scenario text → a game), `step_to` (end steps until a
given decision), `try_order` (send an order and show the refusal, if any), `destinations` and
`board` (a map of the position). Nothing in it is specific to this lesson."""


def lesson_head(number: int, title: str, rules: list[str], intro: str) -> list[tuple[str, str]]:
    return [("md", f"# SS Amerika lesson {number}: {title}\n\n**Rules:** {', '.join(rules)}.\n\n"
                   f"{intro.strip()}\n{HOW}\n{SETUP_NOTE}"),
            ("setup", SETUP)]


BEACHHEAD = '''
UNITS = """
  { id = "GE-tp", nation = "GE", type = "transport", at = "077067", deploy = "beachhead" },
  { id = "GE-pz", nation = "GE", type = "armor_division", at = "077067", deploy = "beachhead" },
  { id = "GE-inf", nation = "GE", type = "infantry_division", at = "076067", deploy = "beachhead" },
  { id = "US-inf", nation = "US", type = "infantry_division", at = "076065" },
  { id = "US-mot", nation = "US", type = "motorized_infantry_division", at = "075066" },
"""'''

# ------------------------------------------------------------------------------------------------
SEQUENCE_RULES = ["SSA-4.G", "SSA-4.1", "SSA-4.2a", "SSA-4.2b", "SSA-4.2c", "SSA-4.2d", "SSA-4.2e",
                  "SSA-4.3", "SSA-4.4"]
SEQUENCE = Lesson(
    file="ssa-01-sequence-of-play.ipynb", game="SS Amerika", subsystem="Sequence of play",
    rules=SEQUENCE_RULES,
    summary="mobilization, then each player's turn: move, intercept, fight, move the mechanized units again",
    cells=[
        *lesson_head(1, "The sequence of play", SEQUENCE_RULES, """
*"The game is played in Game Turns, each consisting of a Mobilization Stage, an Axis Player Turn, and an
Allied Player Turn. Each player turn is composed of a series of Phases. The player whose turn it is is
the Phasing Player; the other player is the Non-Phasing Player."* (SSA-4.0) A game turn is one month.

1. **Mobilization Stage** (4.1): both players accrue and spend mobilization points.
2. **Axis Player Turn** (4.2): a) Special Action phase (optional rule), b) **Initial Movement**,
   c) **Interception** (the *non-phasing* player's fighters), d) **Combat**: aerial, then naval, then land,
   e) **Mechanized Movement**: *"The Axis player moves eligible mechanized units a second time.
   Additionally, the Axis player must return all of his air units to base."*
3. **Allied Player Turn** (4.3): the same phases.
4. **Game Turn Indication** (4.4): advance the turn marker one month."""),
        ("md", """
## A small position

A German beachhead in New Jersey: an armor division (13-8) and an infantry division (8-5) with the
transport convoy that supplies them; two US divisions hold the line by Philadelphia. June to July 1943."""),
        ("code", BEACHHEAD + '''
game = load_position("Sequence of play", UNITS, last="1943-07")
state = game.new_state(seed=SEED)
print(state.calendar, "|", " / ".join(state.clock))
print(state.decision)
show(board(state, ["074064", "078069"], title="The German beachhead in New Jersey, June 1943"))'''),
        ("md", """
The tree of the game turn, declared as data in the ruleset (`tables/sequence.toml`), each step with its
rule; ▶ marks where the game is. The first turn begins with the scenario's **set-up** step (SSA-SC.4):
each side may adjust its deployment, or end the step to keep the default one."""),
        ("code", '''
from IPython.display import HTML, display

from workbench.ui.outline import outline_html

display(HTML(outline_html(state)))'''),
        ("md", """
## One game turn, decision by decision

We play June 1943 through: the German armor moves once in the Initial Movement phase, and every other
decision is simply ended. The table lists who owed which decision, under which rule, with which orders
open."""),
        ("code", '''
trail = []
while state.decision is not None and state.turn_label == "1943-06":
    d = state.decision
    trail.append({"phase": " / ".join(state.clock[1:]), "side": d.side, "decision": d.kind, "rule": d.rule,
                  "open orders": ", ".join(k for k in d.kinds if k != "end_step")})
    if d.kind == "player/initial-movement" and d.side == "axis":
        state.apply({"kind": "move", "unit": "GE-pz", "to": "075067"})
    if d.kind == "player/mechanized-movement" and d.side == "axis":
        break
    state.advance()
pl.DataFrame(trail)'''),
        ("md", """
Read it against the rulebook: the Mobilization Stage (both sides), then the Axis player turn. The
**Interception** phase is owed by the *Allies*, the non-phasing player (4.2c), and the combat phase is
taken in the printed order: aerial, naval, land (4.2d).

## Try it: who may move now?

We stopped in the Axis **Mechanized Movement** phase (4.2e). Only mechanized units move a second time;
and only the phasing player moves. Try these orders, then your own."""),
        ("code", '''
print(state.decision)
try_order(state, {"kind": "move", "unit": "GE-inf", "to": "075068"})   # infantry: not mechanized
try_order(state, {"kind": "move", "unit": "US-mot", "to": "074066"})   # the Allies are not phasing
try_order(state, {"kind": "attack", "attackers": ["GE-pz"], "targets": ["075066"]})  # combat is over
try_order(state, {"kind": "move", "unit": "GE-pz", "to": "074068"})    # armor: its second move'''),
        ("md", """
The refusals name the rule that the engine checks (the movement rule, 5.0, and the phase's rule), and
nothing changes. Note: the rulebook makes the Mobilization Stage **simultaneous** (4.1); the engine asks
the Axis first, then the Allies, in turn.

## The same turn in the workbench

The **Phase outline** panel shows this tree with ▶ *you are here*; *Advance / pass* ends the step;
the bot buttons play to the end of the step, phase or turn."""),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

Once the Germans end their Mechanized Movement phase, whose decision is next, in which phase, and in
which month? And when will the German infantry division next be allowed to move?"""),
        ("answer", '''
# Answer: end the step on a copy and ask the game; then find the next phase in which GE-inf may move.
after = state.fork()
after.advance()
print("next:", after.decision.side, "|", " / ".join(after.clock))
while not any(o.get("unit") == "GE-inf" for o in after.legal_orders_of("move")):
    after.advance()
print("GE-inf may move again in:", " / ".join(after.clock))
assert after.clock == ("1943-07", "Axis player turn", "Initial Movement phase")'''),
    ])


# ------------------------------------------------------------------------------------------------
MOVEMENT_RULES = ["SSA-5.G", "SSA-5.1", "SSA-5.2", "SSA-5.3", "SSA-5.4", "SSA-5.5", "SSA-5.8", "SSA-8.G",
                  "SSA-8.2", "SSA-8.6"]
MOVEMENT = Lesson(
    file="ssa-02-movement-and-zoc.ipynb", game="SS Amerika", subsystem="Movement and zones of control",
    rules=MOVEMENT_RULES,
    summary="terrain costs for mechanized and foot units, roads at half a point, +1/+1/+2 for zones of control",
    cells=[
        *lesson_head(2, "Movement and zones of control", MOVEMENT_RULES, """
*"Land units are moved in the appropriate movement phases. A player may move all, some or none of his
eligible units. Units are moved one at a time, tracing a path of continuous hexes through the grid. As a
unit enters a hex, it expends a certain number of movement factors."* (SSA-5.0) *"Each type of terrain
has a cost in movement points to enter ... mechanized and nonmechanized units pay different amounts"*
(5.3). Zones of control do not stop units in SS Amerika; they cost: *"It costs one additional movement
factor to move into an enemy zone of control; it costs one additional movement factor to exit an enemy
zone of control. ... two additional movement factors to move directly from one enemy zone of control to
another"* (5.5, 8.2)."""),
        ("md", """
## The terrain effects chart, as the engine reads it

Movement costs per hex (`None`: prohibited), and the extra cost of crossing a river hexside."""),
        ("code", '''
from workbench.rulesets.ssa import adjudicate as ssa

terrains = ["clear", "forestation", "rough", "mountains", "desert", "tundra", "sea"]
print(pl.DataFrame({"terrain": terrains,
                    "mechanized": [ssa.movement_cost(t, True) for t in terrains],
                    "non-mechanized": [ssa.movement_cost(t, False) for t in terrains]}))
print("crossing a river: mechanized +", ssa.river_cost(True), ", non-mechanized +", ssa.river_cost(False))'''),
        ("md", """
Road movement (5.8): *"units may move along transportation lines at the road movement rate (1/2
movement factors per hex, regardless of terrain)"*, through hexsides that carry the line (dashed on the
map).

## A small position

The German beachhead of lesson 1, in the Axis Initial Movement phase of June 1943."""),
        ("code", BEACHHEAD + '''
game = load_position("Movement and ZOC", UNITS)
state = step_to(game.new_state(seed=SEED), "player/initial-movement", "axis")
hm = state.map
for uid in ("GE-pz", "GE-inf", "US-inf", "US-mot"):
    print(uid, state.ruleset.unit_card(state, state.unit(uid)))'''),
        ("md", """
*"All land and naval units have a zone of control. This is the six hexes surrounding the unit."* (8.0)
On the map: the US zone of control outlined in blue, and in yellow every hex the German infantry
division (5 movement factors) may reach."""),
        ("code", '''
us_zoc = [hm.label(int(i)) for i in np.nonzero(state.ruleset.overlays(state, "axis")["zoc"])[0]]
inf_reach = destinations(state, "GE-inf")
print("US ZOC:", us_zoc)
print(len(inf_reach), "hexes the infantry may reach")
show(board(state, ["073064", "078069"], {"reach": (inf_reach, "#ffd400"), "zoc": (us_zoc, "#1f77b4"),
                                          "selected": (["076067"], "#ff7f0e")},
           title="GE-inf (8-5): where it may go; US zone of control in blue"))'''),
        ("md", """
## What each path costs

Each row is one move, priced by the kernel on a copy of the game (`mf_spent` after the move), or its
refusal. Work out each cost by hand first, from the chart above and the ZOC rules."""),
        ("code", '''
import json


def price(unit, path):
    trial = state.fork()
    refused = trial.check({"kind": "move", "unit": unit, "path": path})
    if refused:
        return {"unit": unit, "path": " → ".join(path), "cost": None, "refused": str(refused)}
    trial.apply({"kind": "move", "unit": unit, "path": path})
    return {"unit": unit, "path": " → ".join(path), "cost": trial.unit(unit).props["mf_spent"], "refused": ""}


pl.DataFrame([
    price("GE-inf", ["076068"]),             # clear, no ZOC
    price("GE-inf", ["076066"]),             # clear (Philadelphia), into the US ZOC: 1 + 1
    price("GE-inf", ["075067", "075068"]),   # into the ZOC, then out along the road: 2 + (1/2 + 1)
    price("GE-inf", ["076066", "077066"]),   # ZOC to ZOC across the Delaware: 2 + (1 + 1 + 2)
    price("GE-pz", ["077066"]),              # armor into the ZOC: 1 + 1
    price("GE-inf", ["076066", "076065"]),   # into the enemy's hex
])'''),
        ("md", """
The cheapest route is the kernel's job too: `{"kind": "move", "unit": ..., "to": hex}` takes the
cheapest legal path (roads included) and refuses when none is within the unit's movement factors."""),
        ("code", '''
for to in ("074068", "069069", "062070"):
    trial = state.fork()
    refused = trial.check({"kind": "move", "unit": "GE-pz", "to": to})
    if refused:
        print(to, "-> refused:", refused)
    else:
        trial.apply({"kind": "move", "unit": "GE-pz", "to": to})
        route = json.loads(trial.events().filter(kind="move")["data"].to_list()[-1])["path"]
        print(to, "-> costs", trial.unit("GE-pz").props["mf_spent"], "of 8 along", route)'''),
        ("md", """
## Try it

Change the paths and run again. A move may use all, some or none of the movement factors (5.2), *"A
unit may always move one hex per turn, minimum, unless moving into prohibited terrain or through enemy
zones of control"* (5.4), and *"A land unit may never enter a hex containing an enemy unit"* (5.1)."""),
        ("code", '''
try_order(state, {"kind": "move", "unit": "GE-inf", "path": ["076066", "077066"]})  # 6 points: one too many
try_order(state, {"kind": "move", "unit": "GE-pz", "path": ["077066", "077065"]})   # New York is empty: 2 + 3'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench.toggle_overlay("zoc", True)
bench'''),
        ("question", """
## Question

The German infantry division is at 076067 with 5 movement factors. Philadelphia (076066) is in the US
zone of control. How much does it cost to move **076067 → 076066 → 075067** (into the ZOC, then
directly to another ZOC hex), and is the move legal? Look at the map first: which hexsides carry a
transportation line?"""),
        ("answer", '''
# Answer: 1 (clear) + 1 (enter the ZOC) = 2 into Philadelphia; then the Northeast Corridor line runs
# from Philadelphia to 075067: 1/2 (road, 5.8) + 2 (ZOC to ZOC, 5.5b) = 2.5.  4.5 in all, within 5.
row = price("GE-inf", ["076066", "075067"])
print(row)
print(hm.sides.filter(pl.col("hex").is_in(["076066", "075067"])))
assert row["cost"] == 4.5 and not row["refused"]'''),
    ])


# ------------------------------------------------------------------------------------------------
SUPPLY_RULES = ["SSA-10.G", "SSA-10.1a", "SSA-10.1b", "SSA-10.1d", "SSA-10.1e", "SSA-10.1f", "SSA-8.4",
                "SSA-11.5"]
SUPPLY = Lesson(
    file="ssa-03-supply.ipynb", game="SS Amerika", subsystem="Supply",
    rules=SUPPLY_RULES,
    summary="a line as long as the unit's movement factor; logistic chains; the Axis supplied by sea from Europe",
    cells=[
        *lesson_head(3, "Supply", SUPPLY_RULES, """
*"For units to function at full effectiveness, they must be in supply. Supply for movement purposes is
judged at the beginning of the friendly initial or mechanized movement phase. Supply for combat is
judged at the instant of combat."* (SSA-10.0) *"Each unit must trace a supply line to a logistic unit,
which must be able to trace a supply line back to a supply source. The length of the supply line is equal
to the unit's movement factor, taking into account terrain."* (10.1a)

* **Allied sources** (10.1d): *"Allied industrial city hexes. Each industrial city can supply an unlimited
  number of units."*
* **Axis sources** (10.1e): *"the Europe holding area"* (the Far East for Japanese units).
* **By sea** (10.1f): *"having a transport unit on any coastal or port hex, tracing the supply line
  through sea hexes free of enemy naval units and their zones of control, back to a friendly port hex or
  holding area. Note that the Axis Player must use naval extension in order to supply his units in North
  America. A port hex can supply an unlimited number of units, a coastal hex up to three divisions."*
* *"Supply may not be traced through an enemy zone of control, unless there is a friendly unit occupying
  the hex."* (8.4)"""),
        ("md", """
## A small position

The German beachhead has grown: three infantry divisions and an armor division, all supplied through one
transport convoy in a **coastal** hex (077067, not a port). Far to the west, in the Appalachians, a US
infantry division (069073) and a US logistic corps (070069)."""),
        ("code", '''
from workbench.rulesets.ssa import supply

UNITS = """
  { id = "GE-tp", nation = "GE", type = "transport", at = "077067", deploy = "beachhead" },
  { id = "GE-1", nation = "GE", type = "infantry_division", at = "077067", deploy = "beachhead" },
  { id = "GE-2", nation = "GE", type = "infantry_division", at = "076067", deploy = "beachhead" },
  { id = "GE-3", nation = "GE", type = "infantry_division", at = "076068", deploy = "beachhead" },
  { id = "GE-pz", nation = "GE", type = "armor_division", at = "077066", deploy = "beachhead" },
  { id = "US-1", nation = "US", type = "infantry_division", at = "075066" },
  { id = "US-2", nation = "US", type = "infantry_division", at = "069073" },
  { id = "US-log", nation = "US", type = "nonmotorized_logistic_corps", at = "070069" },
"""
game = load_position("Supply", UNITS)
state = step_to(game.new_state(seed=SEED), "player/initial-movement", "axis")
hm = state.map


def in_supply(state, side):
    return {uid: bool(ok) for uid, ok in supply.supply_status(state, side).items()}


print("Axis: ", in_supply(state, "axis"))
print("Allies:", in_supply(state, "allies"))'''),
        ("md", """
The convoy in a coastal hex supplies **three divisions**: the fourth German division, the armor, is out
of supply (the rulebook does not say which units a full convoy serves; the engine picks).
The US division in the hills is out of supply too (see below). On the map the units that cannot
trace supply are tinted red."""),
        ("code", '''
oos = sorted(state.ruleset.out_of_supply(state))
print("out of supply:", oos)
assert oos == ["GE-pz", "US-2"]  # the text of this lesson reads this position so
oos_hexes = [state.unit(u).location for u in oos]
show(board(state, ["068072", "078065"], {"supply": (oos_hexes, "#d62728"), "selected": (["077067"], "#ff7f0e")},
           title="Out of supply (red); the German convoy at 077067 (orange ring)"))'''),
        ("md", """
## What being out of supply costs

* **Combat** (11.5): *"Land units that are out of supply have their combat strength halved (retaining
  fractions)."*
* **Movement**: the rulebook judges supply for movement (10.0) but prints no movement penalty (gap
  G-24). The engine's authored rule (`movement.toml [supply_effects]`): half the movement factor,
  fractions dropped, and no rail movement.

Compare the armor division's 13 combat strength and 8 movement factors with what it has now."""),
        ("code", '''
from workbench.rulesets.ssa import adjudicate as ssa

print("combat strength out of supply:", ssa.supply_strength(13, False), "| in supply:", ssa.supply_strength(13, True))
print("movement: judged out of supply at the start of this phase:", state.markers.get("unsupplied_for_movement"))
try_order(state.fork(), {"kind": "move", "unit": "GE-pz", "to": "071069"})'''),
        ("md", """
## Logistic chains

The US division at 069073 sits in rough hills: its line (at most its 5 movement factors, paying 2 per
rough hex) does not reach an industrial city. A logistic unit extends the chain (10.1b): *"each logistic
unit may trace a supply line back to another logistic unit, setting up a chain of such units to extend the
supply line."*

## Try it

It is the Axis turn now; we go on to the Allies' Initial Movement phase. Move the logistic corps and
see whether the division is supplied afterwards."""),
        ("code", '''
step_to(state, "player/initial-movement", "allies")
trial = state.fork()
try_order(trial, {"kind": "move", "unit": "US-log", "to": "071071"})   # change me
print("US-2 in supply:", in_supply(trial, "allies")["US-2"])'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench.toggle_overlay("supply", True)
bench'''),
        ("question", """
## Question

In the Allied Initial Movement phase: to which hexes may the US logistic corps move so that the division
at 069073 is in supply afterwards? (Think: where can the corps itself reach a city, and is the division
within 5 movement factors of it?)"""),
        ("answer", '''
# Answer: try every legal move of the logistic corps on a copy, keep those that supply US-2.
good = []
for order in state.legal_orders_of("move"):
    if order["unit"] != "US-log":
        continue
    trial = state.fork()
    trial.apply(order)
    if in_supply(trial, "allies")["US-2"]:
        good.append(order["to"])
print(len(good), "hexes:", good)
assert not in_supply(state, "allies")["US-2"] and "071072" in good'''),
    ])


# ------------------------------------------------------------------------------------------------
COMBAT_RULES = ["SSA-11.G", "SSA-11.1", "SSA-11.2", "SSA-11.3", "SSA-11.5", "SSA-11.8", "SSA-11.9a",
                "SSA-11.9b", "SSA-11.9c", "SSA-11.9d", "SSA-11.9e", "SSA-11.9f", "SSA-11.9g"]
COMBAT = Lesson(
    file="ssa-04-combat-and-crt.ipynb", game="SS Amerika", subsystem="Combat and the CRT",
    rules=COMBAT_RULES,
    summary="odds with fractions dropped, terrain column shifts (rivers, cities), the seven result codes",
    cells=[
        *lesson_head(4, "Combat and the Combat Results Table", COMBAT_RULES, """
*"Resolve each combat individually, with the phasing player determining the order of attacks. The
attacker totals the combat strength of all attacking units; this is compared to the total defense
strength and is expressed as a ratio. Drop any fractions, and compare the result to the ratios on the
Combat Results Table. This gives a column for the combat to be resolved on; make any modifications for
terrain, roll the dice and apply the result."* (SSA-11.0) Combat is voluntary; *"all attacking units
are adjacent to all defending units"* (11.1); *"No unit may attack, or be attacked, more than once per
friendly combat phase"* (11.2)."""),
        ("md", """
## Odds and columns

`odds_column` drops fractions; `shift` moves columns (right helps the attacker, left the defender).
The rulebook does not say how to drop fractions when the attacker is **weaker** (5 against 11 is 1 to
2.2): the engine reads it literally (1-2); the usual convention (in the defender's favour) would give 1-3
(inventory G-30, a named option in `crt.toml`)."""),
        ("code", '''
from workbench.rulesets.ssa import adjudicate as ssa

print("columns:", ssa.columns())
pl.DataFrame([{"attack": a, "defence": d, "column": ssa.odds_column(a, d)}
              for a, d in [(24, 7), (21, 7), (16, 7), (13, 7), (8, 7), (5, 11), (6.5, 7), (100, 1)]])'''),
        ("md", """
## The table

Only row 1 of the printed CRT survives in the rulebook text; rows 2-6 are **authored** in the engine
(inventory G-03), monotone in the dice and the odds. Low rolls favour the attacker. The codes (11.9):
**DZ** every defender eliminated; **DE** every defender reduced, survivors retreat; **DR** defenders
retreat one hex; **EX** exchange: the weaker side reduces all its units, the other side units of at least
that strength; **AR** attackers retreat; **AE** every attacker reduced, survivors retreat; **AZ** every
attacker eliminated."""),
        ("code", '''
pl.DataFrame([{"die": die, **{c: ssa.crt(c, die) for c in ssa.columns()}} for die in range(1, 7)])'''),
        ("md", """
## A small position: Philadelphia

A US infantry division (7-5) holds Philadelphia (076066), an **industrial city**; the Delaware river runs
on its eastern side. Three German divisions are adjacent: an infantry division at 076067 (no river
between), another at 077067 and the armor division at 077066 (both across the river). We go to the Axis
land combat step."""),
        ("code", '''
UNITS = """
  { id = "GE-tp", nation = "GE", type = "transport", at = "077067", deploy = "beachhead" },
  { id = "GE-pz", nation = "GE", type = "armor_division", at = "077066", deploy = "beachhead" },
  { id = "GE-1", nation = "GE", type = "infantry_division", at = "076067", deploy = "beachhead" },
  { id = "GE-2", nation = "GE", type = "infantry_division", at = "077067", deploy = "beachhead" },
  { id = "US-1", nation = "US", type = "infantry_division", at = "076066" },
  { id = "US-2", nation = "US", type = "infantry_division", at = "077065" },
"""
game = load_position("Combat at Philadelphia", UNITS)
state = step_to(game.new_state(seed=SEED), "player/combat/land", "axis")
print(state.decision)
attacks = [o for o in state.legal_orders() if o["kind"] == "attack"]
print(len(attacks), "legal attacks")
show(board(state, ["075064", "078068"], {"targets": (["076066"], "#d62728")},
           title="Philadelphia (076066): the Delaware runs on its east side"))'''),
        ("md", """
## Price every attack on Philadelphia

`state.ruleset.assess_attack(state, order)` gives the strengths, every column shift with its reason,
the final column and the exact probability of each result."""),
        ("code", '''
rows = []
for order in attacks:
    if order["targets"] != ["076066"]:
        continue
    a = state.ruleset.assess_attack(state, order)
    rows.append({"attackers": ", ".join(order["attackers"]), "odds": f"{a.attack:g}:{a.defense:g}",
                 "base": a.base_column, "shifts": "; ".join(f"{s} ({why})" for s, why, _ in a.shifts),
                 "column": a.column, "P(DE or DZ)": str(sum(p for r, p in a.distribution.items() if r in ("DE", "DZ"))),
                 "distribution": ", ".join(f"{r} {p}" for r, p in a.distribution.items())})
table = pl.DataFrame(rows)
table'''),
        ("md", """
Terrain shifts (11.8): *"The terrain of the defender's hex will affect combat by shifting the odds
column"*. The industrial city shifts one column left; a river shifts two more, but only when **all**
attackers attack across it: GE-1, south of Philadelphia, takes the river away.

## Try it: what the kernel refuses"""),
        ("code", '''
try_order(state, {"kind": "attack", "attackers": ["GE-1"], "targets": ["077065"]})      # not adjacent
try_order(state, {"kind": "attack", "attackers": ["GE-tp"], "targets": ["076066"]})     # a convoy
try_order(state, {"kind": "attack", "attackers": ["US-2"], "targets": ["077066"]})      # not the phasing side'''),
        ("md", """
## Roll it

All three divisions attack. The die is the game's seeded die; the roll and its rule go into the log,
then whoever owes a decision (retreats, exchange losses) takes the first legal choice."""),
        ("code", '''
try_order(state, {"kind": "attack", "attackers": ["GE-1", "GE-2", "GE-pz"], "targets": ["076066"]})
print(state.events().filter(kind="roll")["text"].to_list()[-1])
while state.decision is not None and state.decision.kind != "player/combat/land":
    order = state.legal_orders()[0]
    print(f"{state.decision.side}: {state.decision.kind} ({state.decision.rule}) -> {order}")
    state.apply(order)
state.units().select("id", "location", "reduced")'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

Which attack on Philadelphia gives the Germans the best chance of a DE or DZ, and what is that chance?
Why is it better to bring GE-1 even though GE-2 and GE-pz already give 21:7?"""),
        ("answer", '''
# Answer: the row of the table with the highest P(DE or DZ).
from fractions import Fraction

best = max(rows, key=lambda r: Fraction(r["P(DE or DZ)"]))
print(best["attackers"], "->", best["column"], best["P(DE or DZ)"])
print("without GE-1 every attacker crosses the river: two more columns left (SSA-11.8).")
assert best["attackers"] == "GE-1, GE-2, GE-pz"'''),
    ])


# ------------------------------------------------------------------------------------------------
MOBILIZATION_RULES = ["SSA-16.G", "SSA-16.1", "SSA-16.2", "SSA-16.3", "SSA-16.5", "SSA-16.6a", "SSA-16.6b",
                      "SSA-16.13", "SSA-16.14"]
MOBILIZATION = Lesson(
    file="ssa-05-mobilization.ipynb", game="SS Amerika", subsystem="Mobilization",
    rules=MOBILIZATION_RULES,
    summary="industrial and non-industrial points, the war-mobilization halving, what each kind of point buys",
    cells=[
        *lesson_head(5, "Mobilization", MOBILIZATION_RULES, """
*"In the Mobilization Phase, both players receive mobilization points and then expend them to create new
units and replace losses."* (SSA-16.0)

* *"There are two basic types of mobilization points: industrial and non-industrial. Industrial points
  come from industrial cities; non-industrial points come from non-industrial cities."* (16.1)
* *"Industrial points can be used to mobilize any type of units. Non-industrial points can be used to
  mobilize non-mechanized units only."* (16.2) *"Mobilization points can be accumulated from turn to
  turn."* (16.3) Each country keeps its own points (16.5).
* The Axis receives fixed points: Germany *"15 industrial and 15 non-industrial"*, Japan *"5 industrial and
  10 non-industrial"* (16.6a-b).
* War mobilization (16.13): *"In all turns prior to 1942, the Allied countries have the number of
  industrial mobilization points they receive per turn halved (rounding fractions up). In all turns prior
  to 1943, the Axis countries have the number of industrial mobilization points they receive halved"*."""),
        ("md", """
## A small position, December 1942

The beachhead of the other lessons, plus a German fighter in Europe. The game runs one turn."""),
        ("code", '''
from workbench.rulesets.ssa.mobilization import income

UNITS = """
  { id = "GE-tp", nation = "GE", type = "transport", at = "077067", deploy = "beachhead" },
  { id = "GE-1", nation = "GE", type = "infantry_division", at = "077067", deploy = "beachhead" },
  { id = "GE-ftr", nation = "GE", type = "standard_fighter", at = "Europe" },
  { id = "US-1", nation = "US", type = "infantry_division", at = "076066" },
"""
december = load_position("Mobilization", UNITS, first="1942-12", last="1942-12").new_state(seed=SEED)
january = load_position("Mobilization", UNITS, first="1943-01", last="1943-01").new_state(seed=SEED)
pl.DataFrame([{"turn": s.turn_label, "country": n, **pts} for s in (december, january) for n, pts in income(s).items()])'''),
        ("md", """
Germany's industrial points are halved before 1943 (15 → 8, rounding up); Japan's 5 → 3. The US and
the Commonwealth earn a point per city they control (industrial cities give industrial points); from 1942
they are no longer halved.

## What things cost

The printed Mobilization Costs Table is missing from the rulebook text (gap); the engine's costs are
authored in `tables/mobilization.toml`: `I` = industrial points only, `NI` = either kind."""),
        ("code", '''
costs = december.ruleset.tables["mobilization"]["costs"]
pl.DataFrame([{"unit type": t, "build": c["build"], "replace": c.get("replace"), "points": c.get("points")}
              for t, c in costs.items() if isinstance(c, dict) and "build" in c]).head(20)'''),
        ("md", """
## Spending: Germany, December 1942

The Mobilization Stage accrues the points, then each side spends them. *German mobilization points may
be used only to mobilize German ... units* (16.6); new German units appear in the Europe holding area."""),
        ("code", '''
state = step_to(december, "mobilization/spend", "axis")
print({k: v for k, v in state.tracks.items() if k.startswith("GE.mp")})
try_order(state, {"kind": "mobilize", "nation": "GE", "type": "armor_division", "at": "Europe"})
try_order(state, {"kind": "mobilize", "nation": "GE", "type": "panzergrenadier_division", "at": "Europe"})
print({k: v for k, v in state.tracks.items() if k.startswith("GE.mp")})
try_order(state, {"kind": "mobilize", "nation": "GE", "type": "armored_cavalry_regiment", "at": "Europe"})
try_order(state, {"kind": "mobilize", "nation": "GE", "type": "infantry_division", "at": "Europe"})
try_order(state, {"kind": "mobilize", "nation": "GE", "type": "infantry_division", "at": "077067"})
print({k: v for k, v in state.tracks.items() if k.startswith("GE.mp")})'''),
        ("md", """
The armor division costs more industrial points than Germany has; the panzergrenadier division takes
them all; after that the non-industrial points still buy infantry, but not the (mechanized) armored
cavalry (16.2). New units appear only where the rules put them (German units in Europe: the placement
rules, 16.7-16.9, are missing from the rulebook text, so the engine's placement is authored).

Air units can be **demobilized** (16.14): *"He then receives a number of mobilization points equal to
fifty percent of the unit's original mobilization value (fractions rounded up). The unit must be in
supply for it to be demobilized."*"""),
        ("code", '''
before = state.tracks["GE.mp.industrial"]
try_order(state, {"kind": "demobilize", "unit": "GE-ftr"})
print("industrial points:", before, "->", state.tracks["GE.mp.industrial"], "| the fighter is now in:", state.unit("GE-ftr").location)
new = [u.id for u in state.units_by_id.values() if u.location == "Europe"]
print("in the Europe box now:", new)
show(board(state, title="New German units wait in the Europe box (ringed) until ships carry them over",
           marks={"targets": (["Europe"], "#d62728")}, width=700, height=620))'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

Start again from the December 1942 position. After the points are accrued, Germany spends only on
**infantry divisions** in Europe. How many can it mobilize this turn, and how many points of each kind are
left over for January (16.3)?"""),
        ("answer", '''
# Answer: buy infantry until the kernel refuses, on a fresh copy of December.
fresh = step_to(load_position("Mobilization", UNITS, first="1942-12", last="1943-01").new_state(seed=SEED),
                "mobilization/spend", "axis")
order = {"kind": "mobilize", "nation": "GE", "type": "infantry_division", "at": "Europe"}
bought = 0
while fresh.check(order) is None:
    fresh.apply(order)
    bought += 1
left = {k: v for k, v in fresh.tracks.items() if k.startswith("GE.mp")}
print(bought, "infantry divisions; left:", left, "| refused then:", fresh.check(order))
assert bought == (8 + 15) // costs["infantry_division"]["build"]'''),
    ])


# ------------------------------------------------------------------------------------------------
HOLDING_RULES = ["SSA-15.G", "SSA-15.1", "SSA-15.2", "SSA-15.3", "SSA-15.5a", "SSA-15.6", "SSA-15.6a",
                 "SSA-7.2", "SSA-7.6", "SSA-7.7.G"]
HOLDING = Lesson(
    file="ssa-06-holding-areas.ipynb", game="SS Amerika", subsystem="Holding areas (off-map boxes)",
    rules=HOLDING_RULES,
    summary="the four off-map boxes; in and out only by sea; Allied units in Europe and the Far East die on 1-2",
    cells=[
        *lesson_head(6, "Holding areas", HOLDING_RULES, """
*"There are four off map areas, represented by holding boxes: Europe, South America, the Pacific and the
Far East."* (SSA-15.0)

* *"There is no limit to the number or type of units that may be in a holding area. Both Allied and Axis
  units may co-exist in the same holding area without combat."* (15.1, 15.2)
* *"During the Axis combat phase, the Axis player rolls the die once for each Allied unit in the European
  and Far Eastern holding areas. On a roll of "1" or "2" that unit is eliminated."* (15.3)
* *"Except as noted below, the only way units can move into or out of a holding area is by naval
  movement or naval transport."* (15.5a)
* *"Units in holding areas must be supplied to function normally. To be supplied there must be at least one
  friendly logistics unit plus at least one friendly naval transport."* Exception: *"Axis units in the
  European or Far Eastern holding areas are always in supply."* (15.6, 15.6a)"""),
        ("md", """
## The boxes on the map

The map knows each box, what it links to, and which sea or box a ship may sail to from it (7.6)."""),
        ("code", '''
hm = wb.load_map("north-america")
pl.DataFrame([{"box": b["name"], "sails to": ", ".join(b.get("naval_adjacent", [])),
               "supply source for": b.get("supply_source", ""), "attrition": b.get("attrition", "")}
              for b in hm.meta["boxes"]])'''),
        ("md", """
## A small position

A German transport and an infantry division in the **Europe** box; another German division with a
convoy on the New Jersey coast; two US divisions in Europe (perhaps shipped there to fight) and one in the
Far East; a US transport in New York."""),
        ("code", '''
UNITS = """
  { id = "GE-tp", nation = "GE", type = "transport", at = "Europe" },
  { id = "GE-1", nation = "GE", type = "infantry_division", at = "Europe" },
  { id = "GE-tp2", nation = "GE", type = "transport", at = "077067", deploy = "beachhead" },
  { id = "GE-2", nation = "GE", type = "infantry_division", at = "077067", deploy = "beachhead" },
  { id = "US-1", nation = "US", type = "infantry_division", at = "Europe" },
  { id = "US-2", nation = "US", type = "infantry_division", at = "Europe" },
  { id = "US-3", nation = "US", type = "infantry_division", at = "Far East" },
  { id = "US-tp", nation = "US", type = "transport", at = "077065" },
"""
game = load_position("Holding areas", UNITS)
state = step_to(game.new_state(seed=SEED), "player/initial-movement", "axis")
print("out of supply:", sorted(state.ruleset.out_of_supply(state)))
show(board(state, title="The whole map: the holding boxes sit beside the map edges they link to",
           marks={"targets": (["Europe", "Far East"], "#d62728")}, width=700, height=620))'''),
        ("md", """
The three US divisions are out of supply: there is no US logistic unit and transport in their boxes
(15.6). The German division in Europe is always supplied (15.6a).

## Try it: in and out only by sea

The German infantry in Europe cannot march onto the map, and the one on the coast cannot march into
the box (the engine refuses: a box is not a hex a land unit can enter). The transport may carry it (7.7.G):
embark, sail, debark."""),
        ("code", '''
try_order(state, {"kind": "move", "unit": "GE-2", "to": "Europe"})
try_order(state, {"kind": "move", "unit": "GE-1", "to": "077067"})
print("the transport in Europe may sail to:", [d for d in destinations(state, "GE-tp", "sail") if not d.isdigit()],
      "and", sum(d.isdigit() for d in destinations(state, "GE-tp", "sail")), "sea hexes")
print("embark orders open:", state.legal_orders_of("embark"))'''),
        ("code", '''
trip = state.fork()
try_order(trip, {"kind": "embark", "convoy": "GE-tp", "units": ["GE-1"]})
try_order(trip, {"kind": "sail", "unit": "GE-tp", "to": "076068"})   # a coastal hex of New Jersey
print("GE-1 is aboard, at:", trip.unit("GE-1").location, "| debark orders:", trip.legal_orders_of("debark"))
try_order(trip, {"kind": "debark", "convoy": "GE-tp", "units": ["GE-1"]})'''),
        ("md", """
## Attrition in Europe and the Far East

In the Axis combat phase the Axis rolls a die for each Allied unit in Europe and the Far East (15.3).
Each one dies on a 1 or 2: a chance of **1/3**. We end the Axis steps up to the Mechanized Movement phase
and read the log."""),
        ("code", '''
n = len(state.log)
step_to(state, "player/mechanized-movement", "axis")
for e in state.log[n:]:
    if e.get("rule") == "SSA-15.3":
        print(e["kind"], "|", e["text"])
print({u: state.unit(u).location for u in ("US-1", "US-2", "US-3")})'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

Before the Axis combat phase: what is the probability that **all three** US divisions in Europe and
the Far East survive the attrition roll (15.3)? And the expected number lost?"""),
        ("answer", '''
# Answer: each survives on 3-6 (4 faces of 6), independently.
from fractions import Fraction

survive = Fraction(4, 6)
all_three = survive ** 3
expected_lost = 3 * (1 - survive)
print("all three survive:", all_three, f"({float(all_three):.0%}) | expected losses:", expected_lost)
print("the rule as data:", state.ruleset.tables["holding_areas"]["boxes"]["Europe"]["attrition"])
assert all_three == Fraction(8, 27) and expected_lost == 1'''),
    ])

LESSONS = [SEQUENCE, MOVEMENT, SUPPLY, COMBAT, MOBILIZATION, HOLDING]
