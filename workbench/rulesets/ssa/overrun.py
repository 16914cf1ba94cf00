"""Overrun (SSA-11.10a-g; the threshold is authored in ``overrun.toml``, gap G-11).

Order: ``{"kind": "overrun", "units": [ids], "target": hex}`` in either movement
phase (11.10b).  The units are land units only (11.10a) of the phasing player,
stacked together in one hex adjacent to ``target`` (11.10d), that have moved
together so far this phase (same MF spent: 11.10c) and each still have the
4 MF the overrun costs.  Their combat strength (supply judged now, 11.10f)
against the defenders' (land combat odds, ``crt.toml [odds]``), after terrain
shifts (11.10g), must reach ``min_column_after_shifts`` (7-1): then every enemy
land unit in the hex is eliminated, with no die roll, and the stack may move
on and overrun again (11.10e).  An overrun below the threshold is an illegal
order: nothing is spent.

11.10c: the stack is recorded (``props["overrun_stack"]``); for the rest of the
phase a move order for one of its units moves the others still with it along
the same path, and is refused if any of them cannot follow
(``movement.SSAMoveOrder``).

Events: ``overrun`` (data: units, target, defenders, attack, defense, column).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import adjudicate as adj
from workbench.rulesets.ssa import leaders, mountain_troops, values, weather
from workbench.rulesets.ssa.air import city_kinds
from workbench.rulesets.ssa.losses import eliminate
from workbench.rulesets.ssa.movement import SSAMovement, other
from workbench.rulesets.ssa.supply import supply_status

MOVEMENT_KEYS = ("player/initial-movement", "player/mechanized-movement")


def defenders(state: State, side: str, target: str) -> list[Unit]:
    return sorted((u for u in state.units_by_id.values() if u.location == target and u.side == other(side)
                   and values.is_land(state, u) and not u.props.get("carried")), key=lambda u: u.id)


def odds(state: State, side: str, units: list[Unit], target: str) -> tuple[float, float, str, str, list]:
    """(attack, defence, base column, shifted column, shifts) of an overrun (SSA-11.10d, f, g)."""
    tables = state.ruleset.tables
    hm = state.map
    sup = {**supply_status(state, side), **supply_status(state, other(side))}
    attack = sum(adj.supply_strength(values.cf(state, u), sup.get(u.id, False)) for u in units)
    dfn = [u for u in defenders(state, side, target) if not values.is_leader(state, u)]
    defense = sum(adj.supply_strength(values.cf(state, u), sup.get(u.id, False)) for u in dfn)
    base = adj.odds_column(attack, defense, tables=tables)
    shifts = []
    terrain = hm.hexes["terrain"][hm.index(target)]
    here = units[0].location
    across = (hm.side_has(here, target, "river") or hm.side_has(here, target, "canal")) \
        and not weather.frozen_river(state, [target])
    t = adj.terrain_shift([terrain], across, tables=tables)
    if t:
        shifts.append([-t, f"terrain {terrain}" + (", across a river" if across else "")])
    city = tables["terrain"].get("features", {}).get("industrial_city", {})
    if city_kinds(state)[hm.index(target)] == "industrial" and city.get("defender") not in ("*", None):
        shifts.append([-int(city["defender"]), "industrial city"])
    shifts += [[n, why] for n, why, _ in leaders.land_combat_shifts(state, side, units, [target])]  # SSA-24.8
    shifts += [[n, why] for n, why, _ in mountain_troops.combat_shifts(state, units, dfn, [target])]  # SSA-22.3c-d
    # SSA-26.3-F/S (overrun.toml other_shifts); SSA-22.3e: mountain troops alone ignore Freeze
    wshift = weather.combat_shift(state, [target], mountain_troops.ignore_freeze(state, units))
    if wshift:
        shifts.append([wshift[0], wshift[1]])
    column = base
    for n, _ in shifts:
        column = adj.shift(column, n, tables=tables)
    return attack, defense, base, column, shifts


class OverrunOrder(OrderKind):
    kind = "overrun"
    rule = "SSA-11.10d"

    def __init__(self) -> None:
        self.moves = SSAMovement()

    def _table(self, state: State) -> dict[str, Any]:
        return state.ruleset.tables["overrun"]

    def _why_not(self, state: State, ids: Any, target: Any) -> Refusal | None:
        side = state.decision.side
        hm = state.map
        key = state.step.key if state.step else ""
        if key not in MOVEMENT_KEYS:
            return Refusal("SSA-11.10b", "overruns take place in the Initial or Mechanized Movement phase")
        if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids) \
                or not isinstance(target, str) or not hm.has_hex(target):
            return Refusal("SSA-11.10d", "an overrun needs a list of units and a target hex")
        units = [state.units_by_id.get(u) for u in ids]
        if any(u is None or u.side != side for u in units):
            return Refusal("SSA-11.10a", "name your own units")
        if any(not values.is_land(state, u) for u in units):
            return Refusal("SSA-11.10a", "only land units may overrun; air and naval units may not take part")
        movers = {u.id for u in self.moves.movers(state)}
        for u in units:
            if u.id not in movers or values.is_leader(state, u) or values.cf(state, u) <= 0 \
                    or values.value(state, u, "defend_only", False):
                return Refusal("SSA-11.10b", f"{u.id} cannot overrun now (it may not move in this phase, or cannot attack)")
        if len({u.location for u in units}) != 1:
            return Refusal("SSA-11.10c", "the overrunning units must be stacked together")
        if len({float(u.props.get("mf_spent", 0)) for u in units}) != 1 or \
                len({u.props.get("overrun_stack") and tuple(u.props["overrun_stack"]) for u in units}) != 1:
            return Refusal("SSA-11.10c", "the overrunning units must have moved together as one stack this phase")
        here = units[0].location
        if hm.index(target) not in hm.neighbors[hm.index(here)]:
            return Refusal("SSA-11.10d", f"the overrun is made from a hex adjacent to {target}")
        dfn = defenders(state, side, target)
        if not [u for u in dfn if not values.is_leader(state, u)]:
            return Refusal("SSA-11.10d", f"{target} holds no enemy land units to overrun")
        if any(values.value(state, u, "security_only", False) for u in dfn if not values.is_leader(state, u)) \
                and not any(values.value(state, u, "security", False) for u in units):
            return Refusal("SSA-3.3", f"the units in {target} can be attacked only by security combat")
        cost = float(self._table(state)["mf_cost"])
        for u in units:
            left = self.moves.allowance(state, u)
            if left < cost:
                return Refusal("SSA-11.10d", f"{u.id} has {left:g} MF left; an overrun costs {cost:g}")
        attack, defense, base, column, shifts = odds(state, side, units, target)
        need = self._table(state)["threshold"]["min_column_after_shifts"]
        cols = adj.columns(state.ruleset.tables)
        if cols.index(column) < cols.index(need):
            return Refusal("SSA-11.10g", f"{attack:g} vs {defense:g} is {base}, shifted to {column}; "
                                         f"an overrun needs {need} after terrain shifts (overrun.toml)")
        return None

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        hm = state.map
        key = state.step.key if state.step else ""
        if key not in MOVEMENT_KEYS:
            return []
        enemy_hexes = {u.location for u in state.units_by_id.values() if u.side != side and u.location.isdigit()
                       and values.is_land(state, u) and not values.is_leader(state, u)}
        stacks: dict[tuple, list[str]] = {}
        for u in self.moves.movers(state):
            if values.cf(state, u) > 0 and not values.is_leader(state, u):
                k = (u.location, float(u.props.get("mf_spent", 0)), tuple(u.props.get("overrun_stack") or ()))
                stacks.setdefault(k, []).append(u.id)
        out = []
        for (here, _, _), ids in sorted(stacks.items()):
            ids = sorted(ids)
            nb = [hm.label(int(j)) for j in hm.neighbors[hm.index(here)] if j >= 0]
            groups = [list(c) for k in range(1, len(ids) + 1) for c in combinations(ids, k)] \
                if len(ids) <= 4 else [ids]
            for t in sorted(set(nb) & enemy_hexes):
                for g in groups:
                    if self._why_not(state, g, t) is None:
                        out.append({"kind": "overrun", "units": g, "target": t})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        why = self._why_not(state, order.get("units"), order.get("target"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        target = order["target"]
        units = [state.unit(u) for u in order["units"]]
        attack, defense, base, column, shifts = odds(state, side, units, target)
        cost = float(self._table(state)["mf_cost"])
        dfn = defenders(state, side, target)
        state.emit("overrun", side=side, rule=self.rule,
                   text=f"{', '.join(order['units'])} overrun {target}: {attack:g}:{defense:g} → {base}, "
                        f"shifted to {column}; defenders eliminated",
                   units=order["units"], target=target, defenders=[u.id for u in dfn], attack=attack,
                   defense=defense, base_column=base, column=column, shifts=shifts)
        for u in units:
            u.props["mf_spent"] = float(u.props.get("mf_spent", 0)) + cost
            u.props["overrun_stack"] = sorted(order["units"])
            u.props["moved"] = state.step.path
        for u in dfn:
            eliminate(state, u, "SSA-11.10d", f" (overrun by {', '.join(order['units'])})")
