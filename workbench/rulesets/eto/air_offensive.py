"""Air offensives: sequence 4B (ETO-21.0-21.4).

In Step 1 of an offensive a player may make it an air offensive instead of a land one:
``{"kind": "air_offensive", "nations": ["GE"]}`` (add ``"impromptu": true`` to pay EPs
instead, 22.6).  Each participating major spends an offensive (21.1; no extra EPs for a
combined one).  Sequence 4B then runs (``sequence.toml`` ``air-offensive-4B``): 4B-B
``fly`` orders (``attack_air``, ``attack_naval``, ``bomb`` or ``change_base``) with
interceptions, 4B-C the bombing of installations (:mod:`installation_bombing`) after the
air-to-air combats over the targets, 4B-D every flight returns and the flyers are marked
PC (20.1).  The land steps of the offensive find nothing activated and pass.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import (
    air_flights,
    air_interception,
    air_units,
    installation_bombing,
    italian_restrictions,
    values,
)
from workbench.rulesets.eto.command import majors_of_side, offensive, pay_eps, spendable, w_turn
from workbench.rulesets.eto.values import track

ROOT = "air-offensive-4B"


def is_air_offensive(state: State) -> bool:
    return (state.markers.get("offensive") or {}).get("mode") == "air"


class AirOffensiveOrder(OrderKind):
    """``air_offensive``: this offensive is an air offensive (ETO-21.0, 21.1)."""

    kind = "air_offensive"
    rule = "ETO-21.1"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side if state.decision else ""
        out = []
        for n in majors_of_side(state, side):
            order = {"kind": "air_offensive", "nations": [n]}
            if track(state, f"{n}.offensives") <= 0:
                order["impromptu"] = True
            if state.check(order) is None:
                out.append(order)
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        off = state.markers.get("offensive") or {}
        side = off.get("side") or (state.decision.side if state.decision else "")
        if off.get("mode"):
            raise IllegalOrder("ETO-21.0", "this offensive has begun already; an air offensive replaces a land one")
        nations = order.get("nations")
        majors = majors_of_side(state, side)
        if not isinstance(nations, list) or not nations or not all(n in majors for n in nations):
            raise IllegalOrder("ETO-21.1", f"name the major powers that take part ({', '.join(majors)}); "
                                           "minor partners' air units cannot take part in air offensives")
        if len(set(nations)) != len(nations):
            raise IllegalOrder("ETO-21.1", "each major is named once")
        for n in nations:
            why = italian_restrictions.offensive_why_not(state, n)  # 46.1 (optional)
            if why:
                raise IllegalOrder.of(why, self.rule)
            if order.get("impromptu"):
                cost = adj.impromptu_cost(n, w_turn(state), tables=state.ruleset.tables)
                if spendable(state, n) < cost:
                    raise IllegalOrder("ETO-22.6", f"{n} has {spendable(state, n)} EPs; an impromptu offensive "
                                                   f"costs {cost}")
            elif track(state, f"{n}.offensives") <= 0:
                raise IllegalOrder("ETO-21.1", f"{n} has no offensive left on the offensives track; each major "
                                               "taking part spends one (or pays for an impromptu offensive)")
        if not any(u.nation in nations and air_units.is_air(state, u) and values.on_map(u)
                   for u in air_units.air_units(state, side)):
            raise IllegalOrder("ETO-21.1", f"{', '.join(nations)} has no air unit on the map to fly it")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        off = offensive(state)
        side = off["side"]
        for n in order["nations"]:
            if order.get("impromptu"):
                pay_eps(state, n, adj.impromptu_cost(n, w_turn(state), tables=state.ruleset.tables),
                        "ETO-22.6", "an impromptu air offensive")
            else:
                state.tracks[f"{n}.offensives"] = track(state, f"{n}.offensives") - 1
        off.update(mode="air", nation=order["nations"][0], nations=list(order["nations"]),
                   impromptu=bool(order.get("impromptu")))
        state.emit("offensive", side=side, rule=self.rule, mode="air", nations=list(order["nations"]),
                   text=f"{'/'.join(order['nations'])} air offensive")
        state.push_procedure(ROOT)


def participants(state: State, u: Any) -> bool:
    """ETO-21.1: a land-based air unit of a nation taking part (carrier air never, 20.0)."""
    off = state.markers.get("offensive") or {}
    return u.nation in off.get("nations", []) and not u.props.get("carrier")


def resolve(state: State, *_: Any) -> None:
    """4B-C: the air-to-air combats over the targets first (14.3), then each surviving, unaborted
    bomber force bombs the installations of its target hex (21.4, 21.5)."""
    air_interception.resolve_destinations(state)
    fls = air_flights.flights(state)
    by_hex: dict[str, list[Any]] = {}
    for f in fls.values():
        if f["mission"] == "bomb" and f["arrived"] and not f["ended"]:
            by_hex.setdefault(f["at"], []).extend(
                u for u in air_flights.live_units(state, f) if air_units.is_bomber(state, u))
    for h, bombers in sorted(by_hex.items()):
        if bombers:
            installation_bombing.bomb(state, h, bombers)
    from workbench.rulesets.eto.air_naval import strike_flights

    strike_flights(state)  # 16.1: attack_naval flights of the air offensive


def finish(state: State, *_: Any) -> None:
    """4B-D: every air unit returns; no air combat now (21.0)."""
    air_flights.return_all(state)
