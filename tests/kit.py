"""A small test map and a toy ruleset that exercise every kind of flow node.

The toy is deliberately tiny but complete: nested steps, a per-side player
turn, an interception chain that goes three deep (interception →
counter-interception → counter-counter-interception), and an alternating
offensive phase that ends when both sides pass in a row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from workbench.engine import OrderKind, Refusal, Ruleset, State
from workbench.engine.flow import Sequence
from workbench.engine.moves import MovementRules, MoveOrder
from workbench.hexgrid import HexGrid
from workbench.map import HexMap

COLS, ROWS = 12, 10


class FixedDice:
    """Scripted dice for rules tests; still logged through state.roll like real ones."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll(self, n: int = 1, sides: int = 6) -> list[int]:
        return [self.faces.pop(0) for _ in range(n)]

    @property
    def state(self):  # noqa: ANN201
        return {"fixed": list(self.faces)}


def build_testland(path: Path) -> HexMap:
    """12×10 hexes: sea in columns 1-2, a lake at 0705, a river between columns 6 and 7."""
    grid = HexGrid(COLS, ROWS)
    labels = grid.labels.tolist()
    col, row = grid.offset(np.arange(grid.size))
    terrain = np.where(col < 2, "sea", "clear").astype(object)
    terrain[(col == 4) & (row >= 6)] = "forest"
    terrain[grid.parse("0705")] = "lake"
    country = np.where(col < 2, None, np.where(col < 6, "West", "East"))
    hexes = pl.DataFrame({"id": labels, "q": grid.q, "r": grid.r, "terrain": terrain.tolist(),
                          "country": country.tolist()})
    river = [{"hex": grid.label(grid.parse(f"06{r:02d}")), "dir": d, "feature": "river"}
             for r in range(1, ROWS + 1) for d in (1, 2)]
    sides = pl.DataFrame(river, schema={"hex": pl.String, "dir": pl.Int64, "feature": pl.String})
    places = pl.DataFrame({"name": ["Westport", "Eastburg", "Midtown"],
                           "hex": ["0305", "1005", "0503"], "kind": ["city", "city", "city"]})
    meta = {"boxes": [{"name": "Reserve", "kind": "box", "links": ["0305"]}],
            "sea_areas": [{"name": "West Sea", "gridded": True}]}
    hm = HexMap("testland", grid, hexes, sides, places, meta)
    hm.save(path)
    return hm


SEQUENCE = [
    {"path": "turn", "title": "Turn", "rule": "TOY-1"},
    {"path": "turn/supply", "title": "Supply check", "rule": "TOY-2"},
    {"path": "turn/player", "title": "{side} player turn", "rule": "TOY-3", "kind": "sides",
     "sides": ["axis", "allies"]},
    {"path": "turn/player/movement", "title": "Movement", "rule": "TOY-3.1", "actor": "phasing",
     "orders": ["move", "fly"]},
    {"path": "turn/player/combat", "title": "Combat", "rule": "TOY-3.2"},
    {"path": "turn/player/combat/fire", "title": "Fire", "rule": "TOY-3.2a", "actor": "phasing",
     "orders": ["fire"]},
    {"path": "turn/player/combat/tally", "title": "Tally", "rule": "TOY-3.2b"},
    {"path": "turn/offensives", "title": "Offensive phase", "rule": "TOY-4", "kind": "alternate",
     "first": "initiative"},
    {"path": "turn/offensives/attack", "title": "{side} offensive", "rule": "TOY-4.1",
     "actor": "phasing", "orders": ["fire"]},
    {"path": "turn/end", "title": "End of turn", "rule": "TOY-5"},
]

CHAIN = ("interception", "counter-interception", "counter-counter-interception")


class FlyOrder(OrderKind):
    """Flying a mission opens an interception window for the enemy (TOY-6)."""

    kind, rule = "fly", "TOY-6"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        return [{"kind": "fly", "unit": u.id} for u in state.units_by_id.values()
                if u.side == side and u.type == "air" and not u.props.get("flown")]

    def execute(self, state: State, order: dict[str, Any]) -> None:
        unit = state.unit(order["unit"])
        unit.props["flown"] = True
        state.emit("fly", side=unit.side, rule=self.rule, text=f"{unit.id} flies", unit=unit.id)
        state.push_interrupt(CHAIN[0], state._other(unit.side), "TOY-6.1",
                             f"intercept {unit.id}?", ["intercept", "pass"], depth=0, target=unit.id)


class InterceptOrder(OrderKind):
    """Declare an (counter-)interception; each one invites the next, three deep (TOY-6.1)."""

    kind, rule = "intercept", "TOY-6.1"

    def legal(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": "intercept"}]

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f = state.settle_interrupt(then="resolve-interception")
        state.emit("intercept", side=f["side"], rule=self.rule, text=f"{f['side']} declares {f['interrupt']}",
                   level=f["interrupt"])
        depth = f["data"]["depth"] + 1
        if depth < len(CHAIN):
            state.push_interrupt(CHAIN[depth], state._other(f["side"]), "TOY-6.1",
                                 f"declare {CHAIN[depth]}?", ["intercept", "pass"], depth=depth,
                                 target=f["data"]["target"])


class FireOrder(OrderKind):
    """Fire at an adjacent enemy: a 1d6 of 5-6 reduces it (TOY-7)."""

    kind, rule = "fire", "TOY-7"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        hm = state.map
        enemy = {u.location for u in state.units_by_id.values() if u.side != side and u.location.isdigit()}
        out = []
        for u in state.units_by_id.values():
            if u.side == side and u.location.isdigit() and not u.props.get("fired"):
                for nb in hm.neighbors[hm.index(u.location)]:
                    if nb >= 0 and hm.label(nb) in enemy:
                        out.append({"kind": "fire", "unit": u.id, "target": hm.label(nb)})
        return out

    def execute(self, state: State, order: dict[str, Any]) -> None:
        unit = state.unit(order["unit"])
        unit.props["fired"] = True
        (die,) = state.roll(purpose=f"{unit.id} fires at {order['target']}", rule=self.rule)
        if die >= 5:
            for t in state.units_at(order["target"]):
                t.reduced = True
            state.emit("hit", rule=self.rule, side=unit.side, text=f"hit on {order['target']}")


class ToyMovement(MovementRules):
    rule = "TOY-3.1"

    def why_not(self, state: State, unit, a: int, b: int) -> Refusal:
        return Refusal(self.rule, f"{unit.id} cannot enter {state.map.label(b)}: land units never enter water")


class ToyRuleset(Ruleset):
    name = "toy"
    version = "1"
    boxes = ("Reserve",)

    def __init__(self) -> None:
        super().__init__()
        self.sequence = Sequence(SEQUENCE, "toy")
        self.tables["units"] = {"types": {
            "infantry": {"domain": "land", "size": "division", "mf": 3, "mf_reduced": 2},
            "armor": {"domain": "land", "size": "division", "mf": 5, "mf_reduced": 4},
            "air": {"domain": "air", "size": None, "mf": 0},
            "fleet": {"domain": "naval", "size": None, "mf": 0},
        }}
        self.order_kinds = {"move": MoveOrder(ToyMovement()), "fly": FlyOrder(),
                            "intercept": InterceptOrder(), "fire": FireOrder()}
        self.procedures = {"resolve-interception": self._resolve, "supply": self._supply,
                           "end": self._end, "player/combat/fire:exit": self._clear_fired,
                           "offensives/attack:exit": self._clear_fired}

    def _resolve(self, state: State, frame: dict[str, Any]) -> None:
        state.emit("resolve", side=frame["side"], rule="TOY-6.2",
                   text=f"{frame['interrupt']} resolved", level=frame["interrupt"])

    def _supply(self, state: State, step) -> None:
        state.emit("supply", rule=step.rule, text="supply checked")

    def _clear_fired(self, state: State, step) -> None:
        for u in state.units_by_id.values():
            u.props.pop("fired", None)

    def _end(self, state: State, step) -> None:
        for u in state.units_by_id.values():
            u.props.clear()

    def end_turn(self, state: State) -> None:
        if all(u.reduced for u in state.units_by_id.values() if u.side == "allies"):
            state.finish("axis", "decisive", rule="TOY-8")

    def final_result(self, state: State) -> dict[str, Any]:
        axis = sum(not u.reduced for u in state.units_by_id.values() if u.side == "axis")
        allies = sum(not u.reduced for u in state.units_by_id.values() if u.side == "allies")
        if axis == allies:
            return {"winner": None, "level": "draw", "rule": "TOY-8"}
        return {"winner": "axis" if axis > allies else "allies", "level": "marginal", "rule": "TOY-8"}


TOY_SCENARIO = """\
format = 1
id = "toy/skirmish"
title = "Skirmish"
ruleset = "toy"
map = "{map}"
first_turn = "1941-06"
last_turn = "1941-08"

[sides.axis]
nations = ["GE"]
[sides.allies]
nations = ["SU"]

[tracks]
initiative = "axis"

[[units]]
id = "GE-inf"
nation = "GE"
type = "infantry"
at = "0504"
count = 2

[[units]]
id = "GE-pz"
nation = "GE"
type = "armor"
at = "Midtown"

[[units]]
id = "GE-air"
nation = "GE"
type = "air"
at = "0305"

[[units]]
id = "SU-inf"
nation = "SU"
type = "infantry"
at = "0804"
count = 2

[[units]]
id = "SU-air"
nation = "SU"
type = "air"
at = "1005"

[[units]]
id = "SU-res"
nation = "SU"
type = "infantry"
at = "Reserve"
"""
