"""Hex movement as an order kind, shared by every ruleset.

A ruleset supplies the rule-specific parts through :class:`MovementRules`
(who may move, how far, what each hex and hexside costs, where a unit must
stop); this module owns the order format, the legal-destination search and
the path check, so both games validate moves the same way.

Order: ``{"kind": "move", "unit": "GE-4Pz", "path": ["3514", "3515"]}``.
The path lists the hexes entered, in order, not the start hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.search import cheapest_reach, graph_reach, path_to

if TYPE_CHECKING:
    from workbench.engine.state import State
    from workbench.engine.units import Unit


class MovementRules:
    """The rule hooks movement needs.  Subclass per ruleset; the defaults suit a plain game."""

    rule = "move"

    def movers(self, state: State) -> list[Unit]:
        """Units that may still move in this step."""
        side = state.decision.side if state.decision else None
        step = state.step.path if state.step else ""
        return [u for u in state.units_by_id.values()
                if u.side == side and u.location.isdigit() and u.props.get("moved") != step]

    def may_move(self, state: State, unit: Unit) -> bool:
        """Whether ``unit`` is one of :meth:`movers` (rulesets may answer for one unit faster)."""
        return unit in self.movers(state)

    def allowance(self, state: State, unit: Unit) -> float:
        t = state.game.ruleset.unit_types[unit.type]
        return float(t.get("mf_reduced" if unit.reduced else "mf", t.get("mf", 0)) or 0)

    def enter_cost(self, state: State, unit: Unit) -> np.ndarray:
        """Cost to enter each hex for this unit (``inf`` = prohibited)."""
        return np.where(state.map.is_water, np.inf, 1.0)

    def step_cost(self, state: State, unit: Unit):  # noqa: ANN201 - a callable
        """``f(a, d, b)``: the full cost of the step a→b (direction d), ``None`` if forbidden.

        The default charges :meth:`enter_cost`; rulesets add hexsides, roads and ZOC.
        """
        enter = self.enter_cost(state, unit)

        def cost(a: int, d: int, b: int) -> float | None:
            return float(enter[b]) if np.isfinite(enter[b]) else None

        return cost

    def step_graph(self, state: State, unit: Unit):  # noqa: ANN201
        """Optional: the same costs as :meth:`step_cost` as a sparse N×N matrix, so reach
        uses compiled Dijkstra.  Rulesets cache it per side and class; None = use step_cost."""
        return None

    def end_refusal(self, state: State, unit: Unit, dest: int) -> IllegalOrder | None:
        """Why the unit may not end its move in ``dest`` (stacking), or None."""
        return None

    def end_ok(self, state: State, unit: Unit) -> np.ndarray | None:
        """Vectorised :meth:`end_refusal`: ``bool[N]`` of hexes the unit may end in (None = all)."""
        return None

    def why_not(self, state: State, unit: Unit, a: int, b: int) -> Refusal:
        """Why the step a→b is refused, under the most precise rule the ruleset knows."""
        return Refusal(self.rule, f"{unit.id} cannot enter {state.map.label(b)}")

    def moved(self, state: State, unit: Unit, path: list[int]) -> None:
        """After a move: mark the unit, update control, etc."""
        unit.props["moved"] = state.step.path if state.step else ""


class MoveOrder(OrderKind):
    kind = "move"

    def __init__(self, rules: MovementRules) -> None:
        self.rules = rules
        self.rule = rules.rule

    def reach(self, state: State, unit: Unit) -> tuple[dict[int, float], dict[int, int], int]:
        src = state.map.index(unit.location)
        budget = self.rules.allowance(state, unit)
        graph = self.rules.step_graph(state, unit)
        if graph is not None:
            cost, parent = graph_reach(graph, src, budget)
        else:
            cost, parent = cheapest_reach(state.map.neighbors, src, budget, self.rules.step_cost(state, unit))
        return cost, parent, src

    def destinations(self, state: State, unit: Unit) -> list[str]:
        """Labels of every hex the unit can reach now (for UI highlighting)."""
        cost, _, src = self.reach(state, unit)
        return [state.map.label(i) for i in sorted(cost) if i != src]

    def legal(self, state: State) -> list[dict[str, Any]]:
        """One order per reachable hex, as ``{"unit", "to"}``: the kernel moves the unit by
        its cheapest route.  An explicit ``"path"`` is accepted too (same checks)."""
        return self.legal_for(state, self.rules.movers(state))

    def legal_for(self, state: State, movers: list[Unit]) -> list[dict[str, Any]]:
        """:meth:`legal` for ``movers`` (= ``rules.movers(state)``, when the caller has it)."""
        out = []
        labels = state.map.labels_list
        reach_of = self._reached_all(state, movers)
        for unit in movers:
            src, reached = reach_of[unit.id]
            ok = self.rules.end_ok(state, unit)
            if ok is not None:  # vectorised stacking test
                reached = reached[np.asarray(ok, dtype=bool)[reached] & (reached != src)]
                out += [{"kind": "move", "unit": unit.id, "to": labels[d]} for d in reached.tolist()]
                continue
            for dest in reached.tolist():
                if dest != src and self.rules.end_refusal(state, unit, dest) is None:
                    out.append({"kind": "move", "unit": unit.id, "to": labels[dest]})
        return out

    def _reached_all(self, state: State, units: list[Unit]) -> dict[str, tuple[int, np.ndarray]]:
        """:meth:`_reached` for many units with one compiled Dijkstra per step graph (the units
        of a side and class share one), so scipy's per-call set-up (~0.5 ms) is paid once per
        graph, not once per unit.  Searching to the largest allowance and cutting each row at
        its own gives exactly the per-unit sets."""
        out: dict[str, tuple[int, np.ndarray]] = {}
        groups: dict[int, tuple[Any, list[Unit]]] = {}
        own_reach = type(self).reach is not MoveOrder.reach
        for unit in units:
            graph = None if own_reach else self.rules.step_graph(state, unit)
            if graph is None:
                out[unit.id] = self._reached(state, unit)
            else:
                groups.setdefault(id(graph), (graph, []))[1].append(unit)
        if not groups:
            return out
        from scipy.sparse.csgraph import dijkstra

        for graph, group in groups.values():
            src = [state.map.index(u.location) for u in group]
            limit = [self.rules.allowance(state, u) + 1e-9 for u in group]
            dist = dijkstra(graph, directed=True, indices=src, limit=max(limit))
            for k, u in enumerate(group):
                out[u.id] = (src[k], np.flatnonzero(dist[k] <= limit[k]))
        return out

    def _reached(self, state: State, unit: Unit) -> tuple[int, np.ndarray]:
        """The unit's hex and every hex it can reach (ascending indices), as :meth:`reach`
        finds them but without building cost/parent dicts (legal() asks for every unit)."""
        src = state.map.index(unit.location)
        graph = self.rules.step_graph(state, unit)
        if graph is None or type(self).reach is not MoveOrder.reach:
            cost, _, src = self.reach(state, unit)
            return src, np.array(sorted(cost), dtype=np.int64)
        from scipy.sparse.csgraph import dijkstra

        budget = self.rules.allowance(state, unit)
        dist = dijkstra(graph, directed=True, indices=src, limit=budget + 1e-9)
        return src, np.flatnonzero(np.isfinite(dist))

    def route(self, state: State, unit: Unit, to: str) -> list[str] | None:
        """Cheapest path (hexes entered) to ``to`` within the unit's allowance, or None."""
        if not isinstance(to, str) or not state.map.has_hex(to):
            return None
        cost, parent, src = self.reach(state, unit)
        dest = state.map.index(to)
        if dest not in cost or dest == src:
            return None
        return [state.map.label(i) for i in path_to(parent, src, dest)[1:]]

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid, path = order.get("unit"), order.get("path")
        if not isinstance(uid, str) or uid not in state.units_by_id:
            raise IllegalOrder(self.rule, f"there is no unit {uid!r}")
        unit = state.units_by_id[uid]
        if not self.rules.may_move(state, unit):
            raise IllegalOrder(self.rule, f"{uid} may not move now (not yours, not on the map, "
                               f"or already moved this step)")
        if path is None and "to" in order:
            path = self.route(state, unit, order["to"])
            if path is None:
                raise IllegalOrder.of(self.unreachable(state, unit, order["to"]), self.rule)
        if not isinstance(path, list) or not path or not all(isinstance(h, str) for h in path):
            raise IllegalOrder(self.rule, "a move needs a destination 'to' or a path: the list of hexes entered")
        hm = state.map
        try:
            idx = [hm.index(unit.location)] + [hm.index(h) for h in path]
        except KeyError as exc:
            raise IllegalOrder(self.rule, str(exc.args[0])) from None
        cost = self.rules.step_cost(state, unit)
        budget = self.rules.allowance(state, unit)
        spent = 0.0
        for a, b in zip(idx, idx[1:], strict=False):
            dirs = np.nonzero(hm.neighbors[a] == b)[0]
            if dirs.size == 0:
                raise IllegalOrder(self.rule, f"{hm.label(a)} and {hm.label(b)} are not adjacent")
            step = cost(a, int(dirs[0]), b)
            if step is None:
                raise IllegalOrder.of(self.rules.why_not(state, unit, a, b), self.rule)
            spent += step
            if spent > budget:
                raise IllegalOrder(self.rule, f"{uid} has {budget:g} movement points and entering "
                                   f"{hm.label(b)} would bring the cost to {spent:g}")
        refusal = self.rules.end_refusal(state, unit, idx[-1])
        if refusal is not None:
            raise refusal

    def unreachable(self, state: State, unit: Unit, to: Any) -> Refusal:
        """Why ``to`` is out of reach: off the map, blocked (the ruleset's :meth:`MovementRules.why_not`),
        or too far."""
        hm = state.map
        if not isinstance(to, str) or not hm.has_hex(to):
            return Refusal(self.rule, f"{to!r} is not a hex on this map")
        src, dest = hm.index(unit.location), hm.index(to)
        if dest == src:
            return Refusal(self.rule, f"{unit.id} is already in {to}")
        dirs = np.nonzero(hm.neighbors[src] == dest)[0]
        if dirs.size and self.rules.step_cost(state, unit)(src, int(dirs[0]), dest) is None:
            return self.rules.why_not(state, unit, src, dest)
        graph = self.rules.step_graph(state, unit)  # compiled when the ruleset offers the graph
        if graph is not None:
            full, _ = graph_reach(graph, src, float("inf"))
        else:
            full, _ = cheapest_reach(hm.neighbors, src, float("inf"), self.rules.step_cost(state, unit))
        if dest not in full:
            return Refusal(self.rule, f"{unit.id} has no route to {to} (prohibited terrain, enemy units or the "
                           "map edge)")
        return Refusal(self.rule, f"{unit.id} has {self.rules.allowance(state, unit):g} movement points; "
                       f"the cheapest route to {to} costs {full[dest]:g}")

    def path_cost(self, state: State, unit: Unit, path: list[str]) -> float:
        """Cost of a (checked) path from the unit's hex."""
        hm = state.map
        cost = self.rules.step_cost(state, unit)
        idx = [hm.index(unit.location)] + [hm.index(h) for h in path]
        total = 0.0
        for a, b in zip(idx, idx[1:], strict=False):
            d = int(np.nonzero(hm.neighbors[a] == b)[0][0])
            total += cost(a, d, b) or 0.0
        return total

    def execute(self, state: State, order: dict[str, Any]) -> None:
        unit = state.units_by_id[order["unit"]]
        if "path" not in order:
            order = {**order, "path": self.route(state, unit, order["to"])}
        start = unit.location
        unit.location = order["path"][-1]
        self.rules.moved(state, unit, [state.map.index(h) for h in order["path"]])
        state.emit("move", side=unit.side, rule=self.rule,
                   text=f"{unit.id} moves {start} → {unit.location}",
                   unit=unit.id, start=start, path=order["path"])
