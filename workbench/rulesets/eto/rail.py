"""Rail movement (ETO-31.0-31.6), in the Movement phase.

``{"kind": "rail", "unit": id, "to": hex, "general": id?}``.  Each unit moved
costs one point of its major's capacity this month (minors ride on their major
partner's, 31.0; a general or HQ stacked with a unit moving by rail rides
free, 31.1).  The route is a shortest path through friendly-controlled hexes
(31.2, 31.3) not crossing impassable, lake, all-sea hexes or hexsides (ferries
allowed), that enters enemy ZOC only at its last hex, and passes through at
least one hex of the country whose capacity is used.  Not for units activated
this turn or starting in enemy ZOC.  Soviet capacity drops with Minsk (-1),
Kazan (-1) and Moscow with its eight resource hexes (-2) in Axis hands (31.6).
Bombing is not in the land core: capacity is the authored number.

Legal orders list destinations among friendly city and resource hexes (the
rail hubs); any reachable hex is accepted.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import stacking, values
from workbench.rulesets.eto.cache import memo
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.hq import region_why_not
from workbench.rulesets.eto.movement import generals_with, occupied_by
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.zoc import zoc


def capacity(state: State, major: str) -> int:
    """ETO-31.0, 31.6: this month's capacity of a major (authored numbers, printed reductions)."""
    rail = state.ruleset.tables["rail"]
    row = rail["capacity"].get(major)
    if row is None:
        return 0
    pts = int(row["points"])
    if major == "SU":
        ctrl = control(state)
        hm = state.map
        for red in rail.get("soviet_reductions", []):
            try:
                i = hm.index(hm.hex_of(red["city"]))
            except KeyError:
                continue
            if ctrl[i] != SIDE_CODE["axis"]:
                continue
            if red["city"] == "Moscow":
                ta = terrain_arrays(state)
                ring = [int(j) for j in np.flatnonzero(ta.resource) if hm.grid.distance(i, int(j)) <= 1]
                if not all(ctrl[j] == SIDE_CODE["axis"] for j in ring):
                    continue
            pts -= int(red["points"])
        pts = max(pts, int(row.get("minimum", 0)))
    return pts


def used(state: State, major: str) -> int:
    return int(state.tracks.get(f"{major}.rail_used", 0) or 0)


def network(state: State, side: str) -> np.ndarray:
    """Hexes a rail move may pass through: friendly, land, no enemy units, not in enemy ZOC."""
    def make() -> np.ndarray:
        ta = terrain_arrays(state)
        return ta.land & (control(state) == SIDE_CODE[side]) & ~occupied_by(state, values.other(side)) \
            & ~zoc(state, values.other(side))
    return memo(state, ("rail_net", side), make)


def net_components(state: State, side: str) -> np.ndarray:
    """Connected components of the rail network alone (31.2: a route passes only through
    network hexes), so legal destinations agree exactly with :func:`route`."""
    def make() -> np.ndarray:
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import connected_components

        hm = state.map
        ta = terrain_arrays(state)
        net = network(state, side)
        src = np.repeat(np.arange(hm.size), 6)
        dst = hm.neighbors.ravel()
        ok = (dst >= 0) & (~ta.closed_side & ~ta.lake_side).ravel() & net[src] & net[np.maximum(dst, 0)]
        g = csr_matrix((np.ones(int(ok.sum())), (src[ok], dst[ok])), shape=(hm.size, hm.size))
        return connected_components(g, directed=False)[1]
    return memo(state, ("rail_net_components", side), make)


def route(state: State, unit: Unit, dest: str) -> list[int] | None:
    """A shortest rail path (31.2) from the unit to ``dest``; the last hex may be in enemy ZOC."""
    hm = state.map
    ta = terrain_arrays(state)
    net = network(state, unit.side)
    ok_side = ~ta.closed_side & ~ta.lake_side
    src = hm.index(unit.location)
    goal = hm.index(dest)
    final_ok = ta.land[goal] and control(state)[goal] == SIDE_CODE[unit.side] \
        and not occupied_by(state, values.other(unit.side))[goal]
    if not final_ok or goal == src:
        return None
    parent = {src: -1}
    q = deque([src])
    while q:
        a = q.popleft()
        for d in range(6):
            b = int(hm.neighbors[a, d])
            if b < 0 or b in parent or not ok_side[a, d]:
                continue
            if b == goal:
                parent[b] = a
                path = [b]
                while parent[path[-1]] != src:
                    path.append(parent[path[-1]])
                return path[::-1]
            if net[b]:
                parent[b] = a
                q.append(b)
    return None


class RailOrder(OrderKind):
    kind = "rail"
    rule = "ETO-31.0"

    def movers(self, state: State) -> list[Unit]:
        side = state.decision.side
        ez = zoc(state, values.other(side))
        out = []
        for u in state.units_by_id.values():
            if u.side != side or not values.on_map(u) or u.props.get("activated") or u.props.get("moved") \
                    or u.props.get("railed") or u.props.get("dropped") == state.turn_label:
                continue  # dropped paras stay in their hex for the turn (19.4, 28.7)
            if values.unit_class(state, u) not in state.ruleset.tables["rail"]["limits"]["eligible_classes"]:
                continue
            if ez[state.map.index(u.location)]:
                continue  # 31.3
            major = values.major_of(state, u.nation)
            if used(state, major) >= capacity(state, major):
                continue
            out.append(u)
        return sorted(out, key=lambda u: u.id)

    def legal(self, state: State) -> list[dict[str, Any]]:
        hm = state.map
        ta = terrain_arrays(state)
        side = state.decision.side
        net = network(state, side)
        movers = self.movers(state)
        if not movers:
            return []
        hubs = np.flatnonzero((ta.city | ta.resource) & net)
        out = []
        labels = net_components(state, side)
        ok_side = ~ta.closed_side & ~ta.lake_side
        for u in movers:
            i = hm.index(u.location)
            # the components this unit can enter: its own, or (starting off the network, e.g.
            # in enemy ZOC) those of the network hexes next to it, as route() searches
            if net[i]:
                reach = {int(labels[i])}
            else:
                reach = {int(labels[b]) for d, b in enumerate(hm.neighbors[i])
                         if b >= 0 and ok_side[i, d] and net[b]}
            country = home_mask(state, values.major_of(state, u.nation), original=True)
            for h in hubs:
                if h == i or int(labels[h]) not in reach:
                    continue
                if not (country[i] or country[h]):
                    continue
                if not stacking.fits(state, hm.label(int(h)), side, [u]) or region_why_not(state, u, hm.label(int(h))):
                    continue
                out.append({"kind": "rail", "unit": u.id, "to": hm.label(int(h))})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid = order.get("unit")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if u is None or u not in self.movers(state):
            raise IllegalOrder("ETO-31.3", f"{uid} may not move by rail now (activated this turn, already moved, "
                               "in enemy ZOC, not a rail-eligible unit, or its nation's capacity is used up)")
        dest = order.get("to")
        if not isinstance(dest, str) or not state.map.has_hex(dest):
            raise IllegalOrder(self.rule, "a rail move needs a destination hex ('to')")
        path = route(state, u, dest)
        if path is None:
            raise IllegalOrder("ETO-31.3", f"no rail route to {dest} through friendly hexes free of enemy units "
                               "and ZOC")
        major = values.major_of(state, u.nation)
        country = home_mask(state, major, original=True)
        if not (country[state.map.index(u.location)] or any(country[i] for i in path)):
            raise IllegalOrder("ETO-31.2", f"the route must pass through at least one hex of {major}")
        if not stacking.fits(state, dest, u.side, [u]):
            raise IllegalOrder("ETO-24.2", f"{dest} cannot hold {uid}")
        outside = region_why_not(state, u, dest)
        if outside:
            raise IllegalOrder.cited(outside, "ETO-23.5")
        gid = order.get("general")
        if gid is not None and gid not in {g.id for g in generals_with(state, u)}:
            raise IllegalOrder("ETO-31.1", f"{gid} is not a general stacked with {uid}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        path = route(state, u, order["to"])
        major = values.major_of(state, u.nation)
        state.tracks[f"{major}.rail_used"] = used(state, major) + 1
        start = u.location
        u.location = order["to"]
        u.props["railed"] = True
        u.props["moved"] = True
        if order.get("general"):
            g = state.unit(order["general"])
            g.location = u.location
            g.props["moved"] = True
        state.emit("rail", side=u.side, rule=self.rule,
                   text=f"{u.id} moves by rail {start} → {u.location} ({major} {used(state, major)}/"
                        f"{capacity(state, major)})", unit=u.id, start=start,
                   path=[state.map.label(i) for i in path or []])
