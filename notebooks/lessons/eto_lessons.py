"""The ETO lessons (World War II: European Theater of Operations, the land game), as plain Python.

Each :class:`~make_lessons.Lesson` is a list of cells: ``md`` (markdown), ``code``, and the closing
``question`` / ``answer`` pair.  Every lesson starts with the same set-up cell (:data:`SETUP`): the
imports, the seed, the scenario text of the "Kursk front" the positions are placed on, and four
small helpers.  ``make_lessons.py`` turns them into notebooks.
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
SEED = 1941  # the dice live inside the game state: the same seed and orders always give the same game
pl.Config.set_tbl_rows(30)
pl.Config.set_fmt_str_lengths(90)
pl.Config.set_tbl_width_chars(160)

# Every ETO lesson places a few units on the real europe map, summer 1941, around Kursk (08640).
# West of 36.6 E the USSR is Axis-held (a control region), so Axis units trace supply home through
# Poland; east of it the Soviets hold.  {units} is filled in by each lesson.
FRONT = """
format = 1
id = "lesson/eto"
title = "{title}"
ruleset = "eto"
map = "europe"
first_turn = "{first}"
last_turn = "{last}"
units = [
{units}
]

[sides.axis]
nations = ["GE", "IT", "RO", "FI", "HU"]
[sides.allies]
nations = ["SU"]

[tracks]
"GE.eps" = 20
"GE.offensives" = 3
"SU.eps" = 20
"SU.offensives" = 3
"IT.eps" = 0
initiative = "axis"

[control]
Germany = "axis"
Poland = "axis"
Romania = "axis"
Hungary = "axis"
Finland = "axis"
USSR = "allies"
Latvia = "allies"
Lithuania = "allies"
Estonia = "allies"

[[control_regions]]
name = "Axis-held USSR west of 36.6 E"
country = "USSR"
side = "axis"
polygon = [[20.0, 44.0], [20.0, 70.0], [36.6, 70.0], [36.6, 44.0]]
"""


def load_position(title, units, first="1941-07", last="1941-08"):
    """Write the scenario (FRONT with these units) to a temporary folder and load it: a Game."""
    path = pathlib.Path(tempfile.mkdtemp(prefix="lesson-")) / "position.toml"
    path.write_text(FRONT.format(title=title, units=units.strip("\\n"), first=first, last=last))
    return wb.load_scenario(path)


def board(state, focus, marks=None, title=None, margin=2.2, width=640, height=420):
    """A static map of ``state`` framed on the ``focus`` hexes, with the hex labels written in.
    ``marks`` = {layer: (hexes, colour)}; layers: 'reach' (filled), 'zoc' (outlined),
    'supply' (tinted), 'targets' and 'selected' (rings)."""
    view = MapView(state, width=width, height=height, interactive=False,
                   title=title or " / ".join(state.clock))
    view.marks_renderer.level = "glyph"  # lit hexes stay inside the frame
    with view.batch():
        for layer, (hexes, colour) in (marks or {}).items():
            view.set_overlay(layer, list(hexes), colour)
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
The set-up cell below (collapsed: click it to open) loads the tools, seeds the dice and defines four helpers used below:
`load_position` (the scenario text → a game), `step_to` (end steps until a given decision),
`try_order` (send an order and show the refusal, if any) and `board` (a map of the position).
Nothing in it is specific to this lesson."""


def lesson_head(number: int, title: str, rules: list[str], intro: str) -> list[tuple[str, str]]:
    return [("md", f"# ETO lesson {number}: {title}\n\n**Rules:** {', '.join(rules)}.\n\n"
                   f"{intro.strip()}\n{HOW}\n{SETUP_NOTE}"),
            ("setup", SETUP)]


# ------------------------------------------------------------------------------------------------
SEQUENCE_RULES = ["ETO-SOP-MONTH", "ETO-SOP-SEASON", "ETO-1.0", "ETO-PART6", "ETO-22.0", "ETO-30.0", "ETO-38.0",
                  "ETO-38.2", "ETO-38.5"]
SEQUENCE = Lesson(
    file="eto-01-sequence-of-play.ipynb", game="ETO", subsystem="Sequence of play",
    rules=SEQUENCE_RULES,
    summary="monthly and seasonal turns; the alternating Offensive phase; initiative decides who goes first",
    cells=[
        *lesson_head(1, "The sequence of play", SEQUENCE_RULES, """
What happens in a game turn, in which order, and who decides. The rulebook (Part 1): *"There are two
types of turns in the game: seasonal turns (winter, spring, summer and autumn) during which players
adjust their economic status and purchase new units and offensive capabilities; and monthly turns
(January to December) during which players perform the actual air, land, and sea operations of the
war. Each year starts with the winter seasonal turn. Each seasonal turn is followed by three monthly
turns."*"""),
        ("md", """
## A small position

Two German infantry corps (4-2: strength 4, movement 2) at Kursk and one Soviet army to the east.
The game runs from June to July 1941. The scenario is plain text: change it and run the cell again."""),
        ("code", '''
UNITS = """
  { id = "GE-a", nation = "GE", type = "infantry", at = "08640" },
  { id = "GE-b", nation = "GE", type = "infantry", at = "08641" },
  { id = "SU-a", nation = "SU", type = "infantry", at = "08842" },
"""
game = load_position("Sequence of play", UNITS, first="1941-06", last="1941-07")
state = game.new_state(seed=SEED)
print("turns:", state.calendar)
print("now:  ", " / ".join(state.clock))
print("owed: ", state.decision)
show(board(state, ["08540", "08943"], title="Kursk, June 1941: two German corps and a Soviet army"))'''),
        ("md", """
The calendar shows the rule: June is a monthly turn, then comes the **summer seasonal turn**, then
July, August and September (the monthly turns it covers), then the autumn seasonal turn.

## The monthly turn

The monthly turn (Part 1, *Monthly Turn Sequence of Play*) has six phases: **Weather** [1.0],
**Strategic Warfare** [Part 3], **Naval and Air** [Parts 4-5], **Offensive** [Part 6], **Movement**
[Part 7] and the **End phase** (second naval movement, supply [32], replenishment [34], command
status, end of turn). The engine declares this sequence as data (`tables/sequence.toml`); here it is
as a tree, with each step's rule. The land game played today switches the strategic, naval and air
steps off (*off: option:...*): they keep their place in the tree. The step marked ▶ is where the game
is now."""),
        ("code", '''
from IPython.display import HTML, display

from workbench.ui.outline import outline_html

display(HTML(outline_html(state)))'''),
        ("md", """
The weather of June was settled without anyone deciding anything (the *Weather phase* [1.0] reads
the turn track and rolls a die where it lists several conditions). The log says so: every event
names its rule."""),
        ("code", '''
state.events().select("turn", "kind", "rule", "text")'''),
        ("md", """
## The Offensive phase alternates

*"One major or minor friendly nation at a time performs an offensive, activating some of its units
and following steps 1 through 6 below. After one offensive is concluded, an enemy nation performs an
offensive, followed by another friendly offensive, etc. The sides alternate until all players have
performed all desired (or eligible) offensives."* And step 6-D: *"The enemy player now has the option
of performing an offensive. If he declines, the friendly player can perform another offensive. If both
players decline, play proceeds to the Movement phase."* (ETO Part 1, Offensive phase; Part 6.)

The player with the initiative goes first (ETO-38.0). Here the Axis holds it, so the Axis decides
first: `begin` an offensive or `pass`. We begin one, activate the stack at Kursk (22.3), and end its
steps one by one, writing down who had to decide what, under which rule."""),
        ("code", '''
trail = []


def note(state):
    d = state.decision
    trail.append({"clock": " / ".join(state.clock[1:]), "side": d.side, "decision": d.kind,
                  "open orders": ", ".join(d.kinds), "rule": d.rule})


note(state)
state.apply({"kind": "begin"})
note(state)
state.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
while state.decision.kind != "offensive":  # end the steps of this offensive
    note(state)
    state.apply({"kind": "end_step"})
note(state)
pl.DataFrame(trail)'''),
        ("md", """
The offensive walked its steps (command, movement; breakthrough and combat were skipped, as no
enemy was in reach) and now the **Soviets** decide. They pass; the Axis may perform another
offensive; the Axis passes too, and two passes in a row end the phase."""),
        ("code", '''
trail.clear()
for _ in range(2):
    note(state)
    state.apply({"kind": "pass"})
note(state)
pl.DataFrame(trail)'''),
        ("md", """
## Try it: orders out of turn are refused

The **Movement phase** follows: *"Only ground units and generals which were not activated for any
offensive can move during this phase."* (ETO Part 1, Movement phase; 30.0). GE-a was activated for
the offensive; GE-b was not. Try both moves. Then try an order that belongs to another phase."""),
        ("code", '''
try_order(state, {"kind": "move", "unit": "GE-a", "path": ["08540"]})   # activated this turn
try_order(state, {"kind": "move", "unit": "GE-b", "path": ["08541"]})   # not activated: may move
try_order(state, {"kind": "begin"})                                     # the Offensive phase is over'''),
        ("md", """
## The same game in the workbench

The workbench shows the same decision in its title, the sequence of play with ▶ *you are here* in
the **Phase outline** panel, and *Advance / pass* ends the step. Click a unit, then a hex: a refused
order is shown with its rule, and nothing changes."""),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("md", """
## The seasonal turn and the initiative

The summer seasonal turn comes after June. Its last phase is the **Initiative** phase: *"The side
that buys the most offensives during the Initiative phase of a seasonal turn holds the initiative for
the following three monthly turns. During each monthly turn, the player with initiative chooses which
side performs the Naval and Air phase first, performs the first offensive each turn, and must move
first during the Movement phase."* (ETO-38.0). Offensives cost 2 EPs each for Germany and the
Soviet Union (38.3); ties are settled by a die roll (38.5).

We play a copy of the game (`fork`) to the buying step, so the game above is left as it was."""),
        ("code", '''
season = step_to(state.fork(), "initiative/buy")
print(" / ".join(season.clock))
print(season.decision)
print("the Axis may buy:", season.legal_orders()[:4], "...")'''),
        ("question", """
## Question

In the summer 1941 seasonal turn the Axis buys **one** offensive (Germany) and the Soviets buy
**two**. Who performs the first offensive of July, and which side moves first in July's Movement
phase? Write your answer down, then run the answer cell."""),
        ("answer", '''
# Answer: play it out on a copy of the seasonal turn and ask the game.
july = season.fork()
july.apply({"kind": "buy_offensives", "nation": "GE", "count": 1})
step_to(july, "initiative/buy", "allies")
july.apply({"kind": "buy_offensives", "nation": "SU", "count": 2})
step_to(july, "offensive")
first_offensive = july.decision.side
step_to(july, "movement/move")
first_to_move = july.decision.side
print("initiative:", july.tracks["initiative"], "| first offensive:", first_offensive,
      "| moves first:", first_to_move)
print([e["text"] for e in july.log if e["kind"] == "initiative"])
assert first_offensive == first_to_move == "allies"  # ETO-38.0: 2 offensives against 1'''),
    ])


# ------------------------------------------------------------------------------------------------
MOVEMENT_RULES = ["ETO-24.0", "ETO-24.1", "ETO-24.2", "ETO-24.4", "ETO-25.0", "ETO-25.1", "ETO-25.2",
                  "ETO-25.3", "ETO-30.1"]
MOVEMENT = Lesson(
    file="eto-02-movement-and-zoc.ipynb", game="ETO", subsystem="Movement and zones of control",
    rules=MOVEMENT_RULES,
    summary="one hex one point; infantry stops on entering enemy ZOC, armor may go one hex more; stacking",
    cells=[
        *lesson_head(2, "Movement and zones of control", MOVEMENT_RULES, """
*"Land units activated for an offensive can move a number of connecting land hexes equal to the
movement allowance printed on the units. Each hex costs 1 movement point to enter. A unit's movement
allowance can be reduced by weather conditions, by being out of supply, and by the presence of an
enemy unit's zone of control (25.0)."* (ETO-24.0; the same rules apply in the Movement phase, 30.0.)
Terrain rarely costs more in ETO; instead it **forbids** (24.1: no unit enters Switzerland, an all-sea
or all-lake hex; *"Armor units cannot enter a marsh hex"*), and zones of control **stop** units."""),
        ("md", """
## A small position

A German infantry corps (4-2) and a panzer corps (6-4) near Kursk; one Soviet army (2-2) at 08842.
We go straight to the Axis Movement phase of July 1941 (both sides pass the Offensive phase)."""),
        ("code", '''
UNITS = """
  { id = "GE-inf", nation = "GE", type = "infantry", at = "08641" },
  { id = "GE-pz", nation = "GE", type = "armor", at = "08640" },
  { id = "SU-a", nation = "SU", type = "infantry", at = "08842" },
"""
game = load_position("Movement and ZOC", UNITS)
state = step_to(game.new_state(seed=SEED), "movement/move", "axis")
print(" / ".join(state.clock), "|", state.decision)
for uid in ("GE-inf", "GE-pz", "SU-a"):
    print(uid, state.ruleset.unit_card(state, state.unit(uid)))'''),
        ("md", """
## Zones of control

*"The ZOC of an infantry or armor unit extends into the six hexes surrounding the unit"* (25.0),
but *"never ... into a hex the unit could not enter, or across a hexside the unit could not cross"*,
and *"Paratroops, headquarters units, generals, markers, and naval and air units do not have ZOCs"*
(25.1). Two rules then govern movement:

* **Infantry** (25.2): *"An infantry unit must stop moving when it enters a hex in enemy ZOC. If it
  begins a phase in enemy ZOC, it can leave that hex and move normally as long as the first hex it
  enters is not in enemy ZOC."* (A forest exception lets it slip into one more forest hex.)
* **Armor** (25.3): *"An armor unit that enters enemy ZOC while moving can move one additional hex,
  even if the additional hex is also in enemy ZOC."*

On the map: the Soviet ZOC outlined in red, and in yellow every hex the infantry may reach
(the kernel computed them: they are its legal orders)."""),
        ("code", '''
from workbench.rulesets.eto.zoc import zoc

hm = state.map
soviet_zoc = [hm.label(int(i)) for i in np.nonzero(zoc(state, "allies"))[0]]
inf_reach = destinations(state, "GE-inf")
print("Soviet ZOC:", soviet_zoc)
print(len(inf_reach), "hexes the infantry may reach:", inf_reach)
show(board(state, ["08440", "09043", "08641"], {"reach": (inf_reach, "#ffd400"), "zoc": (soviet_zoc, "#d62728"),
                                             "selected": (["08641"], "#ff7f0e")},
           title="GE-inf (4-2): where it may go; Soviet ZOC in red"))'''),
        ("md", """
The infantry may **enter** 08742 (in the Soviet ZOC) but not go on from it. The panzer corps, with
4 movement points, reaches much further, and may take one more step after entering the ZOC."""),
        ("code", '''
pz_reach = destinations(state, "GE-pz")
print(len(pz_reach), "hexes the panzer corps may reach")
show(board(state, ["08238", "09043", "08640"], {"reach": (pz_reach, "#ffd400"), "zoc": (soviet_zoc, "#d62728"),
                                             "selected": (["08640"], "#ff7f0e")},
           title="GE-pz (6-4): where it may go; Soviet ZOC in red"))'''),
        ("md", """
## Try it: the kernel refuses, and names the rule

Each order below is a path: the list of hexes entered. Run the cell, read each refusal, then change
the paths and try your own. A refused order changes nothing."""),
        ("code", '''
try_order(state, {"kind": "move", "unit": "GE-inf", "path": ["08742", "08743"]})  # on, out of the ZOC
try_order(state, {"kind": "move", "unit": "GE-pz", "path": ["08741", "08742", "08743", "08744"]})
try_order(state, {"kind": "move", "unit": "GE-pz", "path": ["08741", "08841", "08842"]})  # the enemy hex
try_order(state, {"kind": "move", "unit": "GE-inf", "path": ["08741", "08740", "08640"]})  # three hexes'''),
        ("md", """
The armor's legal move into the ZOC and one hex beyond it, and a legal infantry move into the ZOC,
both go through. After each move the log records the path."""),
        ("code", '''
from workbench.rulesets.eto.control import control

control_before = control(state).copy()
try_order(state, {"kind": "move", "unit": "GE-pz", "path": ["08741", "08742", "08743"]})
try_order(state, {"kind": "move", "unit": "GE-inf", "path": ["08742"]})
state.events().filter(kind="move").select("turn", "side", "rule", "text")'''),
        ("md", """
## Moving makes hexes friendly; stacking limits

*"When a land unit (other than a headquarters) enters an enemy controlled hex, that hex becomes
friendly."* (24.4) The panzer's path went through Soviet-held 08741: it is Axis now. And *"City resource hex: 3 land units; Other land hex: 2 land
units"* (24.2; one more for an all-Soviet stack)."""),
        ("code", '''
from workbench.rulesets.eto import adjudicate as eto

now = control(state)
changed = [hm.label(int(i)) for i in np.nonzero(now != control_before)[0]]
print("hexes that changed hands (1 = Axis, 2 = Soviet):", {h: f"{int(control_before[hm.index(h)])} -> {int(now[hm.index(h)])}" for h in changed})
print("stacking limits: plain hex", eto.stacking_limit(False, False), "| city resource hex",
      eto.stacking_limit(True, False), "| all-Soviet plain hex", eto.stacking_limit(False, True))'''),
        ("md", """
## In the workbench

Click the panzer at 08743 (it has moved) or any unit: the legal destinations light up; click a lit
hex to move, any other hex to hear the rule that forbids it. The *enemy ZOC* box under the map shows
the overlay."""),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench.toggle_overlay("zoc", True)
bench'''),
        ("question", """
## Question

Start again from the position at the top (GE-inf at 08641, the panzer at 08640, SU-a at 08842).
The panzer moves 08741 → 08841 (into the Soviet ZOC). How many hexes more may it move this phase,
and may it end at 09041 (08841 → 08941 → 09041)? Think with 25.3, then run the answer."""),
        ("answer", '''
# Answer: ask the kernel on a fresh copy of the starting position.
fresh = step_to(game.new_state(seed=SEED), "movement/move", "axis")
one_more = fresh.check({"kind": "move", "unit": "GE-pz", "path": ["08741", "08841", "08941"]})
two_more = fresh.check({"kind": "move", "unit": "GE-pz", "path": ["08741", "08841", "08941", "09041"]})
print("one hex after entering the ZOC:", "refused" if one_more else "legal")
print("two hexes after entering the ZOC:", two_more)
assert one_more is None and two_more is not None and two_more.rule == "ETO-25.3"'''),
    ])


# ------------------------------------------------------------------------------------------------
SUPPLY_RULES = ["ETO-32.0", "ETO-32.1", "ETO-32.3", "ETO-33.0", "ETO-33.1", "ETO-33.2", "ETO-33.3",
                "ETO-33.4", "ETO-33.5"]
SUPPLY = Lesson(
    file="eto-03-supply.ipynb", game="ETO", subsystem="Supply",
    rules=SUPPLY_RULES,
    summary="trace a line through friendly hexes free of enemy ZOC; a panzer cut off is marked, slowed, then depleted",
    cells=[
        *lesson_head(3, "Supply", SUPPLY_RULES, """
*"Supply for every land and air unit on the map originates in any friendly city resource hex of the
home country. For a unit to be in supply, the player must be able to trace a path of passable hexes
from a supply source to the unit."* (ETO-32.0) *"Supply can be traced from a supply source to a unit
through a line of friendly land and coastal hexes of any length. The hexes in the line must be free of
enemy units and enemy ZOC, though supply can be traced through a hex in enemy ZOC if it is occupied by
a friendly unit."* (32.3)

When is supply checked? *"The supply status of units is checked during the Supply step of the End
phase ... Supply is also determined for units before they begin moving and at the moment they
participate in combat."* (Part 8)"""),
        ("md", """
## A small position: a panzer races ahead

A German infantry corps and a panzer corps at Kursk (08640), a Soviet army at 08842 and another at
08939. July 1941 to September."""),
        ("code", '''
from workbench.rulesets.eto import supply

UNITS = """
  { id = "GE-inf", nation = "GE", type = "infantry", at = "08640" },
  { id = "GE-pz", nation = "GE", type = "armor", at = "08640" },
  { id = "SU-a", nation = "SU", type = "infantry", at = "08842" },
  { id = "SU-b", nation = "SU", type = "infantry", at = "08939" },
"""
game = load_position("Supply", UNITS, last="1941-09")
state = step_to(game.new_state(seed=SEED), "movement/move", "axis")
hm = state.map
def supplied(state):
    """Which Axis units can trace supply now (32.0)."""
    return {uid: bool(ok) for uid, ok in supply.status(state, "axis").items()}


print(" / ".join(state.clock), "| can trace supply now:", supplied(state))'''),
        ("md", """
Where can a German supply line run? The kernel answers with every hex it reaches from the German
supply sources through friendly hexes free of enemy units and ZOC (tinted green). Kursk and the
Axis-held land to the west are in; the Soviet-held land to the east is not (32.3: *"all hexes of the
supply line must be friendly to the player tracing supply"*)."""),
        ("code", '''
def supply_net(state, nation="GE", side="axis"):
    reach = supply.reach(state, nation, side)
    return [hm.label(int(i)) for i in np.nonzero(reach >= 0)[0]]


show(board(state, ["08439", "09043"], {"supply": (supply_net(state), "#2ca02c")},
           title="Hexes a German supply line can reach (green)"))'''),
        ("md", """
The panzer drives east through Soviet-held 08741 to 08841. The hexes it enters become Axis (24.4),
so a line runs behind it: it is still in supply."""),
        ("code", '''
try_order(state, {"kind": "move", "unit": "GE-pz", "path": ["08741", "08841"]})
print("can trace supply now:", supplied(state))'''),
        ("md", """
Now the Soviets move. SU-b steps to 08740, next to Kursk: its ZOC covers 08741 and Kursk itself. The
infantry corps still in Kursk keeps that hex open (a friendly unit in the hex), but 08741 is empty
and in the Soviet ZOC, and every other way back is Soviet-held or in the ZOC."""),
        ("code", '''
state.advance()  # the Axis ends its movement; the Soviets move
print(state.decision)
try_order(state, {"kind": "move", "unit": "SU-b", "path": ["08839", "08740"]})
print("can trace supply now:", supplied(state))
soviet_zoc = [hm.label(int(i)) for i in np.nonzero(state.ruleset.overlays(state, "axis")["zoc"])[0]]
show(board(state, ["08439", "09043"], {"supply": (supply_net(state), "#2ca02c"), "zoc": (soviet_zoc, "#d62728")},
           title="The line is cut: green = German supply net, red = Soviet ZOC"))'''),
        ("md", """
## Marked out of supply, then depleted

*"Any land or air unit that cannot trace a supply line during the Supply step of a turn is placed
under an out of supply marker."* (33.3) *"If a land unit that already has an out of supply marker on
it at the beginning of the Supply step, is still out of supply, it must be depleted. If it is already
depleted or it is only a single-step unit, it is eliminated"* (33.5). We end July: the Supply step of
the End phase marks the panzer."""),
        ("code", '''
step_to(state, "offensive")  # the End phase of July runs; August begins
state.events().filter(pl.col("kind").is_in(["out_of_supply", "depleted"])).select("turn", "kind", "rule", "text")'''),
        ("md", """
## What being out of supply costs

* **Movement** (33.1): *"The movement allowance of infantry and paratroop units is reduced to two (2),
  or one (1) in mud or winter weather conditions. The movement allowance of armor units is reduced to
  one (1)."* The rule applies to units that cannot trace a line when they start to move.
* **Combat** (33.2): *"If any attacking unit cannot trace a supply line at the instant it attacks, a
  -2 die modifier applies to the combat roll. If the defending stack cannot trace a supply line at the
  moment of combat, or any defending unit is marked out of supply, a +1 die modifier applies."*
* An armor unit **in** supply when it is activated stays in supply for that Offensive phase (33.6).

In August's Movement phase the panzer, cut off, may move one hex only."""),
        ("code", '''
step_to(state, "movement/move", "axis")
print(" / ".join(state.clock), "| GE-pz marked out of supply:", bool(state.unit("GE-pz").props.get("oos")))
print("GE-pz may move to:", destinations(state, "GE-pz"))
print(state.check({"kind": "move", "unit": "GE-pz", "path": ["08941", "09041"]}))'''),
        ("md", """
## Try it

The Axis wants the panzer's line open again (33.4: *"An out of supply marker is removed immediately
whenever a unit is able to trace a supply line to a permanent supply source"*). Try moves for the
infantry corps (movement 2) or the panzer (1 hex now), on a copy of the game, and see whether the
panzer can trace supply afterwards."""),
        ("code", '''
what_if = state.fork()
try_order(what_if, {"kind": "move", "unit": "GE-inf", "path": ["08540"]})  # change me
print("can trace supply:", supplied(what_if))'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench.toggle_overlay("supply", True)  # the red triangle and tint: units that cannot trace supply
bench'''),
        ("question", """
## Question

It is the Axis Movement phase of August; the panzer at 08841 is marked out of supply. Which single
moves (of one unit) reopen its supply line, and why does moving the infantry corps to 08741 work
although 08741 is in the Soviet ZOC?"""),
        ("answer", '''
# Answer: try every legal move on a copy of the game and keep those after which all Axis units trace.
reopen = []
for order in state.legal_orders_of("move"):
    trial = state.fork()
    trial.apply(order)
    if all(supply.status(trial, "axis").values()):
        reopen.append((order["unit"], order["path"]))
print(reopen)
print("32.3: a hex in enemy ZOC is open to the line when a friendly unit occupies it.")
assert ("GE-inf", ["08641", "08741"]) in reopen and all(path[-1] in ("08741", "08742") for _, path in reopen)'''),
    ])


# ------------------------------------------------------------------------------------------------
COMBAT_RULES = ["ETO-26.0", "ETO-26.1", "ETO-26.2", "ETO-26.3", "ETO-26.4", "ETO-27.1", "ETO-27.2",
                "ETO-27.3", "ETO-27.4", "ETO-22.3"]
COMBAT = Lesson(
    file="eto-04-combat-and-crt.ipynb", game="ETO", subsystem="Combat and the CRT",
    rules=COMBAT_RULES,
    summary="odds rounded for the defender, die-roll modifiers (the river), result codes; exact odds of each result",
    cells=[
        *lesson_head(4, "Combat and the Combat Results Table", COMBAT_RULES, """
The combat procedure (ETO-26.1): *"A. Total the strength points of all attacking land units ...
B. Total the strength points of all defending units ... C. Divide the attacker's strength points by the
defender's, rounding the odds in the defender's favor, to reach one of the ratios on the Combat
Results table (example – 10 points attacking 4 points becomes a 2:1 attack). Odds worse than 1:3 are
treated as 1:3; odds better than 6:1 are treated as 6:1. Odds of 5:1 are treated as 4:1. D. The
attacker rolls 1 die, adding all die modifiers that apply. ... E. Implement the result immediately. If
both sides are affected, the attacker's losses take effect first.\""""),
        ("md", """
## The odds column

`odds_column(attack, defence)` is the rule as a function, reading the rules tables. Try your own
numbers."""),
        ("code", '''
from workbench.rulesets.eto import adjudicate as eto

print("CRT columns:", eto.columns())
pl.DataFrame([{"attack": a, "defence": d, "column": eto.odds_column(a, d)}
              for a, d in [(10, 4), (11, 4), (12, 4), (20, 4), (24, 4), (40, 4), (4, 4), (3, 4), (4, 9), (2, 7)]])'''),
        ("md", """
10 against 4 is 2.5, rounded in the defender's favour: **2:1** (the book's example). 20 against 4 is
5:1, read as **4:1**; 3 against 4 is worse than 1:1 and rounds to **1:2** (the defender's favour);
2 against 7 is worse than 1:3 and reads **1:3**.

## The table and the modifiers

The printed CRT is not in the rulebook text (it was on the map: inventory gap GAP-05), so the engine's
cells are **authored**; the odds rules, the modifiers and the meaning of every result code are
transcribed from 26.1, 26.4 and 27.1. Each row is a modified die roll; rows below -2 and above 8 are
read on the end rows."""),
        ("code", '''
pl.DataFrame([{"modified die": eto.crt_row(m)["label"], **{c: eto.crt(c, m) for c in eto.columns()}}
              for m in range(-2, 9)])'''),
        ("md", """
## The modifiers (26.4)

*"All modifiers to the combat die roll are cumulative."* Among them: *"Rivers. If all attacking units
must attack across river hexsides, a -2 modifier applies"*; *"Rough Terrain. If the defender occupies a
rough terrain hex, apply a -1 modifier"*; supply (33.2): -2 if any attacker is out of supply, +1 if the
defender is. `combat_drm` adds them up."""),
        ("code", '''
print("river:", eto.combat_drm(all_across_river=True), "| rough:", eto.combat_drm(defender_rough=True),
      "| river and rough:", eto.combat_drm(all_across_river=True, defender_rough=True),
      "| defender out of supply:", eto.combat_drm(defender_unsupplied=True))'''),
        ("md", """
## A small position on the Donets

Two German corps (4-2 each, 8 strength points) at 08743. Two Soviet armies (2-2 each) hold 08843,
**across the Donets** (the blue line); two more hold 08842, with no river between. The Axis begins a
stack offensive (22.3: *"A single stack of friendly units can be activated ... activated units can only
attack one enemy-occupied hex per step"*) and goes to the Combat step."""),
        ("code", '''
UNITS = """
  { id = "GE-a", nation = "GE", type = "infantry", at = "08743" },
  { id = "GE-b", nation = "GE", type = "infantry", at = "08743" },
  { id = "SU-a", nation = "SU", type = "infantry", at = "08843" },
  { id = "SU-b", nation = "SU", type = "infantry", at = "08843" },
  { id = "SU-c", nation = "SU", type = "infantry", at = "08842" },
  { id = "SU-d", nation = "SU", type = "infantry", at = "08842" },
"""
game = load_position("Combat on the Donets", UNITS)
state = game.new_state(seed=SEED)
state.apply({"kind": "begin"})
state.apply({"kind": "activate", "mode": "stack", "hex": "08743"})
step_to(state, "offensive/combat")
state.apply({"kind": "attack"})
print(state.decision)
state.legal_orders()'''),
        ("code", '''
show(board(state, ["08642", "08944"], {"selected": (["08743"], "#ff7f0e"), "targets": (["08842", "08843"], "#d62728")},
           title="GE stack at 08743; targets 08842 (no river) and 08843 (across the Donets)"))'''),
        ("md", """
## Price both attacks before rolling

The ruleset's face, `state.ruleset.assess_attack(state, order)`, returns an **Assessment**: the
strengths with their rules, the modifiers, the column, and the **exact** probability of every result
(fractions of the die), with the expected steps each side loses. The planner tab of the workbench
shows the same numbers."""),
        ("code", '''
def price(target):
    a = state.ruleset.assess_attack(state, {"kind": "designate", "target": target, "attackers": ["GE-a", "GE-b"]})
    print(f"{target}: {a.attack:g} against {a.defense:g} -> {a.column}, die {a.die}; modifiers: {a.shifts or 'none'}")
    for result, p in a.distribution.items():
        print(f"   {result:5} {str(p):4} {a.results[result]}")
    print("   expected steps lost:", {k: round(v, 2) for k, v in a.expected_losses.items()})
    return a


across, open_ground = price("08843"), price("08842")'''),
        ("md", """
Same odds (8:4 = 2:1), but across the river the -2 shifts every roll two rows down: the attack that
usually hurts the defender now usually hurts the attacker.

## Try it: what the kernel refuses

Attacks need activated units (26.3), a target holding enemy land units (26.0), and one target per
step for a stack offensive (22.3). Try these, then your own."""),
        ("code", '''
try_order(state, {"kind": "designate", "target": "08843", "attackers": ["GE-a", "SU-a"]})
try_order(state, {"kind": "designate", "target": "08944", "attackers": ["GE-a", "GE-b"]})
try_order(state, {"kind": "designate", "target": "08843", "attackers": []})'''),
        ("md", """
## Roll it

We attack 08842, where no river helps the defender. The die is the game's seeded die: the roll, its
purpose and its rule go into the log. Results (27.1): *"x = The attacker loses one step ... D1 = The
defender must lose one step from the defending stack, or retreat that stack one hex. D2 (or D3) = ...
two (or three) steps, or retreat ... two (or three) hexes; or a combination"*; *"(D2) = The defender must
retreat all units two hexes"*; *"AE = All attacking units are eliminated. DE = All defending units are
eliminated."* The attacker's part comes first."""),
        ("code", '''
try_order(state, {"kind": "designate", "target": "08842", "attackers": ["GE-a", "GE-b"]})
step_to(state, "resolve")
try_order(state, {"kind": "resolve", "target": "08842"})
combat = state.events().filter(kind="combat").row(-1, named=True)
print(combat["text"])
print("now:", state.decision)'''),
        ("md", """
Whoever owes a decision now takes it: the attacker picks the steps he loses (27.2), the defender
picks steps or hexes of retreat (27.3: away from the combat, closer to supply, not through enemy ZOC),
and the attacker may advance into a vacated hex (27.4). Here each side takes the first legal choice."""),
        ("code", '''
while state.decision.kind in ("attacker_losses", "defender_losses", "retreat", "advance"):
    order = state.legal_orders()[-1] if state.decision.kind == "advance" else state.legal_orders()[0]
    print(f"{state.decision.side:6} {state.decision.kind:15} ({state.decision.rule}) -> {order}")
    state.apply(order)
state.units().select("id", "location", "reduced")'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

Before the roll: what is the probability that the attack **hurts the defender** (any result from
D1x up: the defender must lose a step or give ground) when the stack attacks 08842, and when it
attacks 08843 across the Donets?"""),
        ("answer", '''
# Answer: add up the exact probabilities of the results that affect the defender (27.1, 27.4).
from fractions import Fraction


def hurts_defender(assessment):
    return sum((p for r, p in assessment.distribution.items() if eto.result_code(r)["affects_defender"]), Fraction(0))


print("08842 (no river):", hurts_defender(open_ground), "| 08843 (across the river):", hurts_defender(across))
assert (hurts_defender(open_ground), hurts_defender(across)) == (Fraction(2, 3), Fraction(1, 3))'''),
    ])


# ------------------------------------------------------------------------------------------------
COMMAND_RULES = ["ETO-22.0", "ETO-22.1", "ETO-22.2", "ETO-22.3", "ETO-22.4", "ETO-22.6", "ETO-23.0",
                 "ETO-23.4", "ETO-23.6"]
COMMAND = Lesson(
    file="eto-05-command-hqs-generals.ipynb", game="ETO", subsystem="Command: HQs, generals and offensives",
    rules=COMMAND_RULES,
    summary="four ways to activate; what each costs and how many hexes it may attack; the half rule; HQ intervals",
    cells=[
        *lesson_head(5, "Command: HQs, generals and offensives", COMMAND_RULES, """
*"Units must be activated in order to move and/or attack during an offensive. There are four ways a
unit can be activated: by an army group headquarters, by a general, as an individual stack, or with a
minor country. Only one of these can be used during a given offensive."* (ETO-22.0) *"Depending on the
type of activation being used, a specific number of enemy hexes can be attacked during each step of
the offensive."* Offensives are bought in the seasonal turn and kept on the **offensives track**."""),
        ("md", """
## A small position

A German army group HQ (`GE-HQ`, command radius 4, attack rating 3) and a second one far to the
south (`GE-HQ2`); General Guderian with a panzer corps; two German and two Rumanian infantry corps;
three Soviet armies. Germany has 3 offensives and 20 EPs on its tracks."""),
        ("code", '''
from workbench.rulesets.eto import adjudicate as eto
from workbench.rulesets.eto import command, hq

UNITS = """
  { id = "GE-HQ", nation = "GE", type = "hq", at = "08540", name = "Army Group South" },
  { id = "GE-HQ2", nation = "GE", type = "hq", at = "08547", name = "Army Group Centre" },
  { id = "GE-G", nation = "GE", type = "general", at = "08641", name = "Guderian" },
  { id = "GE-pz", nation = "GE", type = "armor", at = "08641" },
  { id = "GE-a", nation = "GE", type = "infantry", at = "08640" },
  { id = "GE-b", nation = "GE", type = "infantry", at = "08640" },
  { id = "RO-1", nation = "RO", type = "infantry", at = "08642" },
  { id = "RO-2", nation = "RO", type = "infantry", at = "08642" },
  { id = "SU-a", nation = "SU", type = "infantry", at = "08740" },
  { id = "SU-b", nation = "SU", type = "infantry", at = "08741" },
  { id = "SU-c", nation = "SU", type = "infantry", at = "08842" },
"""
game = load_position("Command", UNITS)
state = game.new_state(seed=SEED)
for uid in ("GE-HQ", "GE-G"):
    print(uid, state.ruleset.unit_card(state, state.unit(uid)))
print("offensives:", state.tracks["GE.offensives"], "| EPs:", state.tracks["GE.eps"])'''),
        ("md", """
*"An HQ can activate units anywhere within its command radius, which is measured in hexes counted
outward from the HQ unit. Units activated by an HQ can perform a number of attacks (per step) equal to
the attack rating."* (22.1) On the map: the radius of Army Group South (4 hexes, blue), the units in
it, and Guderian's reach (*"Generals can activate all units stacked with or adjacent to the
general"*, 22.2; orange)."""),
        ("code", '''
hm = state.map
radius = [hm.label(i) for i in range(hm.size) if hq.in_radius(state, state.unit("GE-HQ"), hm.label(i))]
near_general = ["08641", *[hm.label(int(j)) for j in hm.neighbors[hm.index("08641")] if j >= 0]]
show(board(state, ["08136", "08944"], {"supply": (radius, "#1f77b4"), "reach": (near_general, "#ff7f0e")},
           title="Blue: Army Group South's command radius (4); orange: Guderian and his neighbours"))'''),
        ("md", """
## The four ways, side by side

The Axis begins an offensive; the Command step lists every activation open now. For each, on a copy
of the game, we take it and read the offensives track, the EPs, the units activated and how many
hexes may be attacked in the Breakthrough, Combat and Exploitation steps (22.1-22.4, 28.6, 29.3)."""),
        ("code", '''
state.apply({"kind": "begin"})
rows = []
for order in state.legal_orders():
    if order["kind"] not in ("activate", "activate_hq"):
        continue
    trial = state.fork()
    trial.apply(order)
    if {"kind": "activate", "all": True} in trial.legal_orders():
        trial.apply({"kind": "activate", "all": True})  # an HQ then activates every unit it may
    rows.append({"order": str({k: v for k, v in order.items() if k != "kind"}),
                 "offensives left": trial.tracks["GE.offensives"], "EPs": trial.tracks["GE.eps"],
                 "activated": ", ".join(u.id for u in command.activated_units(trial)),
                 **{f"attacks in {s}": command.attack_limit(trial, s) for s in ("breakthrough", "combat", "exploitation")}})
pl.DataFrame(rows)'''),
        ("md", """
Read the table with the rules:

* **HQ** (22.1): one offensive; the HQ's attack rating (3) in every step.
* **Two HQs together** (23.6, a combined offensive): *"The player conducting the offensive deducts one
  from his offensives track for each HQ he will activate. He also must pay EPs ... for each activated HQ
  beyond the first one"* (2 EPs for Germany); the attacks add up.
* **General** (22.2): one offensive; the units with or next to him; one attack per step.
* **Stack** (22.3): one offensive; one stack; one attack per step.
* **Minor country** (22.4): no offensive from the track; *"can attack one enemy stack, during the Combat
  step only"*.

## Try it: the half rule and the HQ interval

*"When a major nation activates units for an offensive, at least half of the land units activated must
belong to that major nation."* (22.0) Activate Army Group South, then try to activate a Rumanian corps
first, a German one, then the second Rumanian."""),
        ("code", '''
trial = state.fork()
trial.apply({"kind": "activate_hq", "hqs": ["GE-HQ"]})
for uid in ("RO-1", "GE-a", "RO-1", "RO-2"):
    try_order(trial, {"kind": "activate", "unit": uid})'''),
        ("md", """
*"An HQ unit can never be closer to another friendly HQ than the highest command radius of the two
units."* (23.4) Two German HQs (radius 4) must stay 4 hexes apart: 3 is too close."""),
        ("code", '''
print("at 08543 (3 hexes):", hq.interval_violations(state, state.unit("GE-HQ2"), "08543") or "allowed")
print("at 08544 (4 hexes):", hq.interval_violations(state, state.unit("GE-HQ2"), "08544") or "allowed")
print("the rule as arithmetic:", eto.hq_interval_ok(4, 4, 3), eto.hq_interval_ok(4, 4, 4))'''),
        ("md", """
## Impromptu offensives

*"Impromptu offensives can be used by a major nation that has no offensives remaining on its offensives
track but has EPs ... The cost of an impromptu offensive is twice the cost of a normal offensive"*
(22.6). A German offensive costs 2 EPs (38.3), so an impromptu one costs:"""),
        ("code", '''
print("offensive:", eto.offensive_cost("GE"), "EPs | impromptu:", eto.impromptu_cost("GE", False),
      "EPs | impromptu in a W turn:", eto.impromptu_cost("GE", True), "EPs")'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

Germany activates **both** army groups for one combined offensive. How many offensives are left on
its track, how many EPs does it have left (it starts with 3 offensives and 20 EPs), and how many hexes
may the combined offensive attack in its Combat step?"""),
        ("answer", '''
# Answer: take the order on a copy and read the tracks.
combined = state.fork()
combined.apply({"kind": "activate_hq", "hqs": ["GE-HQ", "GE-HQ2"]})
left = (combined.tracks["GE.offensives"], combined.tracks["GE.eps"], command.attack_limit(combined, "combat"))
print("offensives left, EPs left, attacks in the Combat step:", left)
print("23.6 as arithmetic: extra EPs for 2 HQs =", eto.combined_offensive_eps(2, "GE", False))
assert left == (1, 18, 6)'''),
    ])


# ------------------------------------------------------------------------------------------------
BREAKTHROUGH_RULES = ["ETO-28.0", "ETO-28.1", "ETO-28.3", "ETO-28.4", "ETO-28.5", "ETO-29.0", "ETO-29.1",
                      "ETO-29.2", "ETO-29.3", "ETO-26.2", "ETO-22.2"]
BREAKTHROUGH = Lesson(
    file="eto-06-breakthrough-and-exploitation.ipynb", game="ETO", subsystem="Breakthrough and exploitation",
    rules=BREAKTHROUGH_RULES,
    summary="armor with a general attacks in Step 2 and moves on by the general's rating; exploitation in Step 5",
    cells=[
        *lesson_head(6, "Breakthrough and exploitation", BREAKTHROUGH_RULES, """
*"Breakthrough attacks and movement occur during Step 2 of an Offensive phase. Activated armor units are
the only land units that can participate ... The participation of a general stacked with the armor unit
greatly increases the effectiveness of a breakthrough."* (ETO-28.0) And after the Combat step,
*"Exploitation movement and attacks occur during Step 5 of an Offensive phase. Armor units stacked with
generals are the only land units that can participate ... Armor and generals cannot participate in
exploitation if they moved or attacked during Step 2"* (29.0)."""),
        ("md", """
## A small position

General Guderian (combat rating 2, exploitation rating 4) with two panzer corps (6-4) at 08641, a
German infantry corps at Kursk, a Soviet army at 08741 and another at 08940."""),
        ("code", '''
UNITS = """
  { id = "GE-G", nation = "GE", type = "general", at = "08641", name = "Guderian" },
  { id = "GE-pz1", nation = "GE", type = "armor", at = "08641" },
  { id = "GE-pz2", nation = "GE", type = "armor", at = "08641" },
  { id = "GE-inf", nation = "GE", type = "infantry", at = "08640" },
  { id = "SU-a", nation = "SU", type = "infantry", at = "08741" },
  { id = "SU-b", nation = "SU", type = "infantry", at = "08940" },
"""
game = load_position("Breakthrough", UNITS)
state = game.new_state(seed=SEED)
print(state.ruleset.unit_card(state, state.unit("GE-G")))
state.apply({"kind": "begin"})
state.apply({"kind": "activate", "mode": "general", "general": "GE-G"})  # 22.2: he and his neighbours
step_to(state, "offensive/breakthrough")
print(state.decision)
state.legal_orders()'''),
        ("md", """
*"An armor unit can move no more than two hexes before making a breakthrough attack"* (28.1); the
breakthrough order names the armor, its pre-attack path (here none), the target and the general. The
general's combat rating adds to one unit of his nationality in his stack (26.2: two strength points),
so 6 + 6 + 2 = 14 against 2: 7:1, read on the 6:1 column."""),
        ("code", '''
a = state.ruleset.assess_attack(state, {"kind": "designate", "target": "08741", "attackers": ["GE-pz1", "GE-pz2"]})
print(a.contributions)
print(a.attack, "against", a.defense, "->", a.column, "| results:", {r: str(p) for r, p in a.distribution.items()})'''),
        ("md", """
## Try it: who may move in the Breakthrough step?

*"No friendly infantry units can move or perform advance after combat during the breakthrough step"*
(28.4), and only armor of one stack breaks through (28.0)."""),
        ("code", '''
try_order(state, {"kind": "move", "unit": "GE-inf", "path": ["08740"]})
try_order(state, {"kind": "breakthrough", "units": ["GE-pz1", "GE-inf"], "path": [], "target": "08741", "general": "GE-G"})'''),
        ("md", """
## The breakthrough

At 6:1 every result makes the Soviet army give up the hex (a two-step unit cannot take two or three
steps and stay). The attack is rolled, the defender chooses, and the panzers advance with Guderian."""),
        ("code", '''
try_order(state, {"kind": "breakthrough", "units": ["GE-pz1", "GE-pz2"], "path": [], "target": "08741", "general": "GE-G"})
state.apply({"kind": "resolve", "target": "08741"})
print(state.events().filter(kind="combat").row(-1, named=True)["text"])
while state.decision.kind in ("attacker_losses", "defender_losses", "retreat"):
    print(f"{state.decision.side}: {state.decision.kind} ({state.decision.rule}) -> {state.legal_orders()[0]}")
    state.apply(state.legal_orders()[0])
print(state.decision)
try_order(state, {"kind": "advance", "units": ["GE-pz1", "GE-pz2"], "to": "08741", "general": "GE-G"})
print(state.decision)'''),
        ("md", """
*"Armor units (but not paratroops) that advance after combat following a breakthrough attack are
entitled to perform breakthrough movement ... If no general is stacked with the armor unit, it can move
one hex. ... If a general is stacked with the armor unit, the unit and general can move a number of
hexes equal to the general's exploitation rating."* (28.3) Guderian's rating is 4. The yellow hexes:
where the first panzer may go now."""),
        ("code", '''
bt_reach = sorted({o["path"][-1] for o in state.legal_orders() if o.get("unit") == "GE-pz1" and o["path"]})
longest = max(len(o["path"]) for o in state.legal_orders() if o["kind"] == "bt_move")
print(len(bt_reach), "hexes; the longest breakthrough move is", longest, "hexes")
show(board(state, ["08437", "09145"], {"reach": (bt_reach, "#ffd400"), "selected": (["08741"], "#ff7f0e")},
           title="Breakthrough movement of GE-pz1 with Guderian (rating 4)"))'''),
        ("code", '''
try_order(state, {"kind": "bt_move", "unit": "GE-pz1", "path": ["08841", "08941", "09041"], "general": "GE-G"})
try_order(state, {"kind": "bt_move", "unit": "GE-pz2", "path": ["08742", "08743"]})
print("Guderian flipped (28.5, may not exploit this offensive):", bool(state.unit("GE-G").props.get("bt_general")))'''),
        ("md", """
*"A unit that performs a breakthrough cannot move during Step 3 of the current Offensive phase. However,
it can attack again during Step 4."* (28.4) The movement step comes next; try to move a panzer."""),
        ("code", '''
while state.decision.kind != "offensive/movement":
    state.apply(state.legal_orders()[-1] if state.decision.kind == "bt_move" else {"kind": "end_step"})
print(state.decision)
try_order(state, {"kind": "move", "unit": "GE-pz2", "path": ["08744"]})
try_order(state, {"kind": "move", "unit": "GE-inf", "path": ["08741"]})'''),
        ("md", """
## Exploitation

A second position: Hoth (exploitation rating 3) and two panzers **skip** the breakthrough and attack
in the Combat step (Step 4). *"After Step 4, Combat, is concluded during an offensive, exploitation can
occur if ... an activated armor unit and general were eligible to advance after combat during Step 4;
the armor and general did not perform a breakthrough; there are no adverse weather conditions"* (29.1).
*"Eligible armor units can move a number of hexes equal to the general's exploitation allowance"*
(29.2); the number of exploitation attacks is the HQ's attack rating, or one (29.3)."""),
        ("code", '''
HOTH = UNITS.replace("Guderian", "Hoth").replace('{ id = "GE-inf", nation = "GE", type = "infantry", at = "08640" },', "")
ex = load_position("Exploitation", HOTH).new_state(seed=SEED)
ex.apply({"kind": "begin"})
ex.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
step_to(ex, "offensive/combat")
ex.apply({"kind": "attack"})
ex.apply({"kind": "designate", "target": "08741", "attackers": ["GE-pz1", "GE-pz2"]})
step_to(ex, "resolve")
ex.apply({"kind": "resolve", "target": "08741"})
while ex.decision.kind in ("attacker_losses", "defender_losses", "retreat"):
    ex.apply(ex.legal_orders()[0])
ex.apply({"kind": "advance", "units": ["GE-pz1", "GE-pz2"], "to": "08741", "general": "GE-G"})
step_to(ex, "offensive/exploitation")
print(ex.decision)
ex_reach = destinations(ex, "GE-pz1")
print(len(ex_reach), "exploitation destinations for GE-pz1")
show(board(ex, ["08437", "09145"], {"reach": (ex_reach, "#ffd400"), "selected": (["08741"], "#ff7f0e")},
           title="Exploitation movement with Hoth (rating 3)"))'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

In the exploitation position, how far (in hexes) may the panzers move in Step 5, and could the
German **infantry** have joined the exploitation if it had been there? (Read 29.2 and 29.3.)"""),
        ("answer", '''
# Answer: the longest legal exploitation move, and the class rule for infantry.
longest = max(len(o["path"]) for o in ex.legal_orders_of("move"))
infantry = ex.ruleset.tables["units"]["classes"]["infantry"]
print("longest exploitation move:", longest, "hexes (Hoth's exploitation rating)")
print("infantry may exploit:", infantry["exploitation"], "(29.3: infantry cannot move or attack during exploitation)")
assert longest == 3 and infantry["exploitation"] is False'''),
    ])



# ------------------------------------------------------------------------------------------------
AIR_RULES = ["ETO-12.1", "ETO-12.3", "ETO-13.0", "ETO-13.2", "ETO-14.1", "ETO-14.2", "ETO-14.3", "ETO-15.3",
             "ETO-15.4", "ETO-15.7", "ETO-21.0"]
AIR = Lesson(
    file="eto-07-air-war.ipynb", game="ETO", subsystem="The air war: interception and air-to-air combat",
    rules=AIR_RULES,
    summary="bases and ranges, the 14.2 interception chain over the Channel, target numbers and the automatic results",
    cells=[
        *lesson_head(7, "The air war: interception chains and air-to-air combat", AIR_RULES, """
*"Air interception can occur whenever air missions are performed ... When performing air interception,
the player moves an air unit from its base and moves it to a space containing the enemy air or naval
unit(s)"* (ETO-14.0). *"The player performing interception declares the interception when an enemy
unit enters a hex within range. The enemy player must immediately cease moving his unit until the
interception and subsequent combat are resolved"* (14.1), and interceptors can themselves be
intercepted: *"This sort of chain reaction can continue until one or both sides have no more eligible
air units within range"* (14.2). This lesson replays the rulebook's own example over the Channel."""),
        ("md", """
## The position: August 1940, over the Channel

The rulebook's example (14.2): *"A German 6-12 bomber based in Frankfurt takes off ... a British
4-3/3 fighter from Dover takes off to intercept the bomber between Calais and Antwerp. A German 4-4/3
fighter based in Brussels intercepts the British fighter over Calais."* The counters read
strength-range/quality: the German fighter has strength 4, range 4 and quality 3. Here the bomber flies
an **air offensive** against Harwich's installations (21.0): the transport it attacks in the book
needs the naval units of the war at sea."""),
        ("code", '''
CHANNEL = """
format = 1
id = "lesson/eto-air"
title = "Over the Channel, August 1940"
ruleset = "eto"
map = "europe"
first_turn = "1940-08"
last_turn = "1940-09"
units = [
  { id = "GE-bomber", nation = "GE", type = "bomber", at = "Frankfurt" },
  { id = "GE-109", nation = "GE", type = "fighter", at = "Brussels" },
  { id = "UK-spitfire", nation = "UK", type = "fighter", at = "Dover" },
]

[sides.axis]
nations = ["GE", "IT"]
[sides.allies]
nations = ["UK"]

[tracks]
"GE.eps" = 20
"GE.offensives" = 3
"UK.eps" = 20
"UK.offensives" = 3
"IT.eps" = 0
initiative = "axis"

[control]
Germany = "axis"
Belgium = "axis"
Netherlands = "axis"
Luxembourg = "axis"
France = "axis"
"United Kingdom" = "allies"

[options]
air = true
"""
path = pathlib.Path(tempfile.mkdtemp(prefix="lesson-")) / "channel.toml"
path.write_text(CHANNEL)
game = wb.load_scenario(path)
state = game.new_state(seed=SEED)
hm = state.map
DOVER, CALAIS, BRUSSELS, FRANKFURT, HARWICH = (hm.hex_of(p) for p in ("Dover", "Calais", "Brussels", "Frankfurt", "Harwich"))
from workbench.rulesets.eto import airbases
pl.DataFrame([{"unit": u.id, "base": u.location, "bases in the hex": airbases.capacity(state, u.location),
               **state.ruleset.unit_card(state, u)} for u in state.units_by_id.values()])'''),
        ("md", """
Every air unit stands on a **base** (13.2): *"One air unit can base on a friendly resource hex, city
(including ports), or airfield marker. A hex containing two of these features can hold two air units"*.
Frankfurt and Brussels are city resource hexes (two bases each); Dover is a port (one)."""),
        ("code", '''
reach = [h for h in hm.labels_list if hm.distance(DOVER, h) <= 3 and hm.distance(CALAIS, h) <= 6]
show(board(state, [DOVER, BRUSSELS, HARWICH, hm.hex_of("Antwerp")], {"reach": (reach, "#9ecae1"),
           "selected": ([FRANKFURT, BRUSSELS], "#ff7f0e"), "targets": ([HARWICH], "#d62728")},
           title="Blue: hexes within the Spitfire's range of 3 from Dover"))'''),
        ("md", """
## The air offensive: the bomber takes off

Germany spends an offensive on an **air offensive** (21.1) and, in step 4B-B, the bomber flies towards
Harwich. It moves hex by hex; in every hex it enters the British player is asked whether to intercept
(14.1) -- but only where a British fighter can reach."""),
        ("code", '''
step_to(state, "offensive", "axis")
state.apply({"kind": "begin"})
state.apply({"kind": "air_offensive", "nations": ["GE"]})
state.apply({"kind": "fly", "units": ["GE-bomber"], "mission": "bomb", "to": HARWICH})
print(state.decision)
print("the bomber waits at", state.unit("GE-bomber").location,
      "-", hm.distance(DOVER, state.unit("GE-bomber").location), "hexes from Dover")'''),
        ("md", """
## Try it: an interception the rules refuse

*"The range of an air unit represents the number of hexes it can fly from its base when performing a
mission"* (13.0): the Spitfire has 3. Ask it to reach the bomber by a detour over Antwerp and the kernel
says which rule forbids it -- and nothing changes. (Try a path of your own.)"""),
        ("code", '''
from workbench.rulesets.eto.air_flights import path_to

ANTWERP = hm.hex_of("Antwerp")
detour = path_to(state, DOVER, ANTWERP) + path_to(state, ANTWERP, state.unit("GE-bomber").location)
try_order(state, {"kind": "intercept", "units": ["UK-spitfire"], "path": detour})'''),
        ("md", """
## The chain: interception, counter-interception

The Spitfire intercepts, flying by Calais. Over Calais the Germans may counter-intercept it with the
Bf 109 from Brussels (4 hexes: exactly its range)."""),
        ("code", '''
target = state.unit("GE-bomber").location
via = next(h for h in hm.labels_list if hm.distance(h, CALAIS) == 1 and hm.distance(h, target) == 1)
state.apply({"kind": "intercept", "units": ["UK-spitfire"], "path": [CALAIS, via, target]})
print(state.decision)
state.apply({"kind": "intercept", "units": ["GE-109"]})
print("over Calais:", [u.id for u in state.units_by_id.values() if u.location == CALAIS])'''),
        ("md", """
## Air-to-air combat (15.3)

*"To attack, add the quality rating and combat strength of the attacking fighter. Subtract the quality
rating of the target unit (0 if it is a bomber). The result is the target number ... Roll one die. If
the die roll is higher than the target number, the attack has no effect. If the die roll and the
target number are equal, the target unit is aborted ... If the die roll is less than the target number,
the target unit suffers a step loss"* -- and 15.7: *"A roll of 1 always aborts and depletes ... A roll of
6 never affects the target ... A roll of 5 never depletes"*. The fighters over Calais fight first
(the innermost combat of the chain, 14.3), once Germany declares it sends no more fighters."""),
        ("code", '''
state.apply({"kind": "pass"})


def air_rolls(state):
    """Every air-to-air attack so far, from the event log (each event's data is JSON text)."""
    import json

    rows = state.events().filter(pl.col("kind") == "air_combat")["data"]
    return pl.DataFrame([{k: json.loads(d).get(k) for k in ("round", "attacker", "target", "target_number", "die",
                                                             "result")} for d in rows])


air_rolls(state)'''),
        ("code", '''
# the rest of the chain: if the Spitfire was not aborted it reaches the bomber and attacks it
while state.decision.kind == "air_intercept":
    state.apply({"kind": "pass"})
print("the bomber is at", state.unit("GE-bomber").location,
      "| aborted:", bool(state.unit("GE-bomber").props.get("aborted")))
air_rolls(state)'''),
        ("code", '''
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

What target number does the Spitfire need against the Bf 109, and what against the bomber? Which
single die face can never hurt the bomber, even though it is below the target number? (Read 15.3 and
15.7.)"""),
        ("answer", '''
# Answer: the target numbers from the counters, and the automatic result of a 6.
from workbench.rulesets.eto import air_combat, air_units
spit, me109 = state.unit("UK-spitfire"), state.unit("GE-109")
tables = state.ruleset.tables
vs_fighter = air_combat.target_number(4, 3, 3, tables=tables)
vs_bomber = air_combat.target_number(4, 3, 0, tables=tables)
print("Spitfire against the Bf 109:", vs_fighter, "| against the bomber:", vs_bomber)
print("a 6 against a target number of 7:", air_combat.outcome(6, 7, tables))
assert (vs_fighter, vs_bomber, air_combat.outcome(6, 7, tables)) == (4, 7, "none")'''),
    ])


# ------------------------------------------------------------------------------------------------
NAVAL_RULES = ["ETO-7.3", "ETO-7.4", "ETO-8.1", "ETO-8.2", "ETO-8.4", "ETO-9.2", "ETO-9.3", "ETO-9.5", "ETO-10.9",
               "ETO-32.4", "ETO-32.5"]
NAVAL = Lesson(
    file="eto-08-war-at-sea.ipynb", game="ETO", subsystem="The war at sea: convoys, interception and naval combat",
    rules=NAVAL_RULES,
    summary="sea spaces and their costs, a supply convoy to Tripoli, the search roll, gunnery against armor",
    cells=[
        *lesson_head(8, "The war at sea: a convoy to Tripoli", NAVAL_RULES, """
*"Sea supply is necessary when land or air units are conducting a campaign in an area where a normal
land supply line cannot be traced (32.0); Axis troops in Africa ... are examples"* (ETO-10.0). Every
shell Rommel fired in 1941 crossed the Mediterranean past Malta. This lesson loads a supply marker at
Naples, sails it to Tripoli, and lets Malta's destroyers try to find it -- with the rulebook's numbers
at each step. The position is the **Mediterranean 1941** scenario."""),
        ("code", '''
game = wb.load_scenario("eto/mediterranean-1941")
state = game.new_state(seed=SEED)
hm = state.map
NAPLES, TRIPOLI, MALTA = (hm.hex_of(p) for p in ("Naples", "Tripoli", "Malta"))
from workbench.rulesets.eto import naval_search, naval_units, sea_spaces, sea_supply

pl.DataFrame([{"unit": u.id, "at": u.location, "name": u.props.get("name", ""), **state.ruleset.unit_card(state, u)}
              for u in naval_units.naval_units(state) if u.location in (NAPLES, MALTA)])'''),
        ("md", """
## Where ships go, and what it costs (7.3, 7.4)

Ships move through **spaces**: coastal hexes (*"1 MP per coastal hex"*, 7.3) and sea areas (*"5 MP per
sea area unless the map lists other"*, 7.4). The table lists what Naples' ships can reach with 12
movement points -- an STP convoy's allowance. Tripoli is the Tyrrhenian Sea (5) + the Central
Mediterranean (5) + Tripoli's coastal hex (1) = 11 away."""),
        ("code", '''
costs, paths = sea_spaces.reach(state, "axis", NAPLES, 12)
keep = {TRIPOLI, MALTA, hm.hex_of("Palermo"), hm.hex_of("Benghazi")}
pl.DataFrame([{"space": k, "MP": v, "route": " > ".join(paths[k])} for k, v in sorted(costs.items(), key=lambda kv: kv[1])
              if not k.isdigit() or k in keep])'''),
        ("code", '''
show(board(state, [NAPLES, TRIPOLI, MALTA], {"reach": ([k for k in costs if k.isdigit()], "#9ecae1"),
           "selected": ([NAPLES], "#ff7f0e"), "targets": ([TRIPOLI], "#d62728")},
           title="Blue: the coastal hexes Naples' convoys reach with 12 MP; red: Tripoli"))'''),
        ("md", """
## Supply markers (32.4, 32.5)

*"A player can embark supply markers on STPs in any port that has a land supply line to a supply
source"* (32.5) -- Naples has one, to Rome -- and the marker must go *"to a port ... that does not have
a land supply line"* (32.4): Tripoli, whose capacity is three markers (a major port). One STP carries
one marker."""),
        ("code", '''
print("Naples has a land line:", sea_supply.land_line(state, "IT", "axis", NAPLES))
print("Tripoli has a land line:", sea_supply.land_line(state, "IT", "axis", TRIPOLI),
      "| markers there:", sea_supply.markers_at(state, TRIPOLI), "of", sea_supply.port_capacity(state, TRIPOLI))
step_to(state, "naval-air/sides/first-naval-movement", "axis")
print(state.decision)'''),
        ("md", """
## Try it: a voyage too long

An STP moves 12 MP a phase (authored: the counters are missing). Ask the Tripoli convoy to sail on to
Alexandria and the kernel says which rule forbids it -- and nothing changes. (Try Benghazi instead.)"""),
        ("code", '''
try_order(state, {"kind": "sail", "units": ["IT-STP2"], "to": hm.hex_of("Alexandria"), "port": True})'''),
        ("md", """
## Try it: a full port

Load one supply marker on a Naples STP. Tripoli already holds its three markers, and *"An STP carrying a
supply marker cannot enter a port if that port already contains its maximum capacity of supply markers,
regardless of whether those markers are debarked or still aboard transports"* (32.5). Ask the loaded
convoy into Tripoli's port and the kernel refuses, naming the rule."""),
        ("code", '''
state.apply({"kind": "load_supply", "carriers": ["IT-STP1"], "markers": 1})
try_order(state, {"kind": "sail", "units": ["IT-STP1", "IT-DD1"], "to": TRIPOLI, "port": True})'''),
        ("md", """
The real convoy therefore waits off Tripoli: the STP with its marker and a destroyer squadron as
escort sail to Tripoli's coastal hex, outside the port, ready to go in once a marker there is used."""),
        ("code", '''
state.apply({"kind": "sail", "units": ["IT-STP1", "IT-DD1"], "to": TRIPOLI})
print(state.decision)'''),
        ("md", """
## Interception (8.1, 8.2, 8.4)

The convoy stopped in the Central Mediterranean: the mover stops when it enters a space within the
enemy's range (8.2). Ships in a coastal hex or port *"can intercept enemy naval units that enter any
coastal hex within 3 naval movement points, or an adjacent area"* (8.1) -- Malta's destroyers lie in a
port next to the Central Mediterranean. Their search roll (8.4): one die, *"If the die roll, after
modification, is 7 or more, that group has located the enemy stack"*; +1 per searching group, +1 with
friendly air in range, the area's own modifier; *"A search die roll of 6 always finds ... a die roll of
1 always fails"*."""),
        ("code", '''
mods = naval_search.modifiers(state, "allies", "Central Mediterranean", groups=1, searcher_ss=False, target_ss=False)
print("modifiers:", mods)
drm = sum(v for v, _ in mods)
p_find = sum(naval_search.found(d, drm, state.ruleset.tables) for d in range(1, 7)) / 6
print(f"Malta's destroyers find the convoy with probability {p_find:.2f}")
state.apply({"kind": "intercept_naval", "units": ["UK-DD3"]})
state.events().filter(pl.col("kind").is_in(["naval_search", "evaded", "naval_battle", "naval_round", "sunk",
                                             "damaged"])).select(["kind", "text"])'''),
        ("md", """
## Naval combat (9.2, 9.3, 9.5)

*"To attack, roll 2 dice and add the attacking ship's gunnery rating ... If the result is equal to or
greater than the armor rating of the target unit, the target is hit ... a roll of 12 always is a hit"*
(9.2); round 1 fires in sub-rounds, gunnery 5 first (9.3); *"When any naval unit is hit and the roll is
doubles ... it is sunk"* (9.5). The table gives the chance of a hit for each gunnery against each armor
(the counters' values are authored: the printed counters are missing, GAP-15)."""),
        ("code", '''
def p_hit(gunnery, armor):
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + gunnery >= armor or a + b == 12) / 36


pl.DataFrame([{"gunnery": g, **{f"armor {a}": round(p_hit(g, a), 2) for a in (8, 9, 10, 12)}} for g in range(6)])'''),
        ("code", '''
while state.decision.kind == "naval_intercept":
    state.apply({"kind": "pass"})
print("the convoy is at", state.unit("IT-STP1").location, "| in port:", naval_units.in_port(state.unit("IT-STP1")),
      "| markers aboard:", sea_supply.aboard(state.unit("IT-STP1")))
bench = Workbench(state, seed=SEED)
bench'''),
        ("question", """
## Question

A British destroyer (gunnery 1) fires at the Italian STP (armor 9). What is the chance of a hit, and what
happens to the marker on a hit rolled with doubles? (Read 9.2, 9.5 and 10.9.)"""),
        ("answer", '''
# Answer: 2d6 + 1 >= 9 -- 8 or more on two dice; doubles do nothing extra to an STP (10.9).
print("chance of a hit:", round(p_hit(1, 9), 3), "(15 of 36)")
print("a doubles hit on an STP: one STP lost, no more (10.9)")
assert round(p_hit(1, 9) * 36) == 15'''),
    ])

LESSONS = [SEQUENCE, MOVEMENT, SUPPLY, COMBAT, COMMAND, BREAKTHROUGH, AIR, NAVAL]
