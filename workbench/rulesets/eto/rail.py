"""Rail movement (ETO-31.0-31.6), in the Movement phase.

``{"kind": "rail", "unit": id, "to": hex, "general": id?, "hq": id?}``.  Each unit moved
costs one point of its major's capacity this month, or of a partner major's (minors ride on
their major partner's, 31.0); a general or HQ stacked with a unit moving by rail rides
free (31.1).  The route is a shortest path through friendly-controlled hexes
(31.2, 31.3) not crossing impassable, lake, all-sea hexes or hexsides (ferries
allowed), that enters enemy ZOC only at its last hex, and passes through at
least one hex of the country whose capacity is used.  Not for units activated
this turn or starting in enemy ZOC.  Soviet capacity drops with Minsk (-1),
Kazan (-1) and Moscow with its eight resource hexes (-2) in Axis hands (31.6).
Strategic bombing of rail capacity (2.4) takes points off a major's national pool for the
turn it happens (:func:`add_bombing`, ``state.markers["rail_bombed"]``).

A major may hold extra capacity pools (``[capacity.X]`` rows with ``nation``): the UK's
Egyptian point (31.4), usable only by a route through Egypt and lost while the Axis holds
Cairo.  A move is paid from the first pool with points left whose country the route
touches (the national pool first, then the partners').  Moves into, out of or through Asiatic Turkey and Persia
are limited to one point per country per turn (31.5, ``[middle_east]``); among equally short
routes one avoiding that area is taken when the allowance is spent (31.2 "one of the
shortest").

Legal orders list destinations among friendly city and resource hexes (the
rail hubs); any reachable hex is accepted.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import garrison, politics, stacking, values
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.hq_limits import region_why_not
from workbench.rulesets.eto.movement import generals_with, occupied_by
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.zoc import zoc

RAIL_BOMBED = "rail_bombed"


def bombed(state: State, major: str) -> int:
    """ETO-2.4: rail capacity ``major`` lost to strategic bombing this turn (0 in another turn)."""
    rec = state.markers.get(RAIL_BOMBED, {}).get(major) or {}
    return int(rec.get("points", 0)) if rec.get("turn") == state.turn_label else 0


def add_bombing(state: State, major: str, points: int) -> None:
    """ETO-2.4: "The resulting number is subtracted from bombed country's rail capacity for that
    turn only" (raids in the same turn add up)."""
    marks = state.markers.setdefault(RAIL_BOMBED, {})
    marks[major] = {"turn": state.turn_label, "points": bombed(state, major) + int(points)}


def capacity(state: State, major: str) -> int:
    """ETO-31.0, 31.4, 31.6: this month's capacity of a pool (a major, or an extra pool such as
    ``UK_Egypt``): authored numbers, printed reductions, the Egyptian point lost with Cairo;
    less the points bombed this turn (2.4, never below 0)."""
    return max(0, _printed(state, major) - bombed(state, major))


def _printed(state: State, major: str) -> int:
    rail = state.ruleset.tables["rail"]
    row = rail["capacity"].get(major)
    if row is None:
        return 0
    pts = int(row["points"])
    loss = row.get("loss")
    if loss and loss.get("while") == "axis_controls":
        hm = state.map
        if control(state)[hm.index(hm.hex_of(loss["city"]))] == SIDE_CODE["axis"]:
            return 0  # 31.4: "unless Cairo has been captured by the Axis"
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
            if red["city"] == "Moscow" and not all(ctrl[j] == SIDE_CODE["axis"] for j in _resource_group(state, i)):
                continue  # 31.6: "only when the Axis controls all eight resource hexes connected to Moscow"
            pts -= int(red["points"])
        pts = max(pts, int(row.get("minimum", 0)))
    return pts


def _resource_group(state: State, start: int) -> list[int]:
    """The resource hexes joined to ``start`` through adjacent resource hexes (31.6: Moscow's group
    of eight on the map, Moscow among them and one beyond its ring)."""
    hm, res = state.map, terrain_arrays(state).resource
    seen, todo = {start}, [start]
    while todo:
        for j in hm.neighbors[todo.pop()]:
            j = int(j)
            if j >= 0 and res[j] and j not in seen:
                seen.add(j)
                todo.append(j)
    return sorted(seen)


def pools(state: State, major: str) -> list[str]:
    """ETO-31.0, 31.4: the capacity pools a major's units may use, its national pool first,
    then extra pools (``nation = major``) such as the UK's Egyptian point."""
    cap = state.ruleset.tables["rail"]["capacity"]
    extra = [k for k, row in cap.items() if k != major and row.get("nation") == major]
    return [major, *sorted(extra)]


def pool_mask(state: State, pool: str, major: str) -> np.ndarray:
    """ETO-31.2, 31.4: the hexes a route paid from ``pool`` must touch: the pool's ``country``
    list if it has one (Egypt), else the major's original home country."""
    row = state.ruleset.tables["rail"]["capacity"].get(pool, {})
    if row.get("country"):
        ta = terrain_arrays(state)
        return np.isin(ta.country, list(row["country"])) & ta.land
    return home_mask(state, major, original=True)


def partners(state: State, major: str) -> list[str]:
    """ETO-31.0: the other majors of ``major``'s partnership on its side in this game, whose rail
    points its units may use ("any of its partners")."""
    nations = state.ruleset.tables["units"]["nations"]
    mine = nations.get(major, {}).get("partnership")
    side = next((sd for sd, ns in state.game.scenario.sides.items() if major in ns), None)
    if mine is None or side is None:
        return []
    return sorted(n for n in state.game.scenario.sides[side]
                  if n != major and nations.get(n, {}).get("kind") == "major"
                  and nations[n].get("partnership") == mine)


def usable_pools(state: State, major: str) -> list[tuple[str, str]]:
    """``(pool, owner)``: the pools a major's units may use, its own first, then its partners'
    (31.0); a route paid from a pool must touch the owner's country (31.2)."""
    return [(p, m) for m in (major, *partners(state, major)) for p in pools(state, m)]


def pools_left(state: State, major: str) -> list[tuple[str, str]]:
    return [(p, m) for p, m in usable_pools(state, major) if used(state, p) < capacity(state, p)]


def middle_east_areas(state: State) -> list[tuple[str, np.ndarray]]:
    """ETO-31.5: the restricted areas, each with its own allowance: Asiatic Turkey and Persia
    (one area when ``counting.combined``)."""
    def make() -> list[tuple[str, np.ndarray]]:
        me = state.ruleset.tables["rail"].get("middle_east", {})
        ta = terrain_arrays(state)
        hm = state.map
        areas = []
        for c in me.get("countries", []):
            areas.append((c, (ta.country == c) & ta.land))
        at = me.get("asiatic_turkey")
        if at:
            m = (ta.country == at["country"]) & ta.land
            for h in at.get("exclude_hexes", []):
                m[hm.index(h)] = False
            areas.append(("Asiatic Turkey", m))
        if me.get("counting", {}).get("combined", True) and areas:
            union = np.zeros(hm.size, dtype=bool)
            for _, m in areas:
                union |= m
            return [(" and ".join(n for n, _ in areas), union)]
        return areas
    return state.derived(("eto.rail_middle_east",), make, state.event_stamp)


def _me_key(state: State, unit: Unit, area: str) -> str:
    """ETO-31.5: the track counting a country's Middle East rail points this turn (reset monthly
    with the other ``.rail_used`` tracks)."""
    me = state.ruleset.tables["rail"].get("middle_east", {})
    who = unit.nation if me.get("counting", {}).get("per", "major") == "nation" \
        else values.major_of(state, unit.nation)
    return f"{who}.middle_east.{area.replace(' ', '_')}"


def _me_spent(state: State, unit: Unit) -> np.ndarray:
    """ETO-31.5: hexes a rail move of ``unit`` may no longer start in, pass through or end in."""
    limit = int(state.ruleset.tables["rail"].get("middle_east", {}).get("points_per_country", 1))
    out = np.zeros(state.map.size, dtype=bool)
    for area, m in middle_east_areas(state):
        if used(state, _me_key(state, unit, area)) >= limit:
            out |= m
    return out


def used(state: State, major: str) -> int:
    return int(state.tracks.get(f"{major}.rail_used", 0) or 0)


def network(state: State, side: str) -> np.ndarray:
    """Hexes a rail move may pass through: friendly, land, no enemy units, not in enemy ZOC."""
    def make() -> np.ndarray:
        ta = terrain_arrays(state)
        return ta.land & (control(state) == SIDE_CODE[side]) & ~occupied_by(state, values.other(side)) \
            & ~zoc(state, values.other(side))
    return state.derived(("eto.rail_net", side), make, state.event_stamp)


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
    return state.derived(("eto.rail_net_components", side), make, state.event_stamp)


def _bfs(state: State, side: str, src: int, goal: int | None, blocked: np.ndarray | None):
    """Breadth-first search over the rail network from ``src``; with ``goal`` the path to it
    (list of hexes, ``src`` excluded) or None, without it the distance array (-1 unreached)."""
    hm = state.map
    ta = terrain_arrays(state)
    net = network(state, side)
    if blocked is not None:
        net = net & ~blocked
    ok_side = ~ta.closed_side & ~ta.lake_side
    parent = {src: -1}
    dist = np.full(hm.size, -1, dtype=np.int64)
    dist[src] = 0
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
                dist[b] = dist[a] + 1
                q.append(b)
    return None if goal is not None else dist


def route(state: State, unit: Unit, dest: str, avoid: np.ndarray | None = None) -> list[int] | None:
    """A shortest rail path (31.2) from the unit to ``dest``; the last hex may be in enemy ZOC.
    With ``avoid``, one of the shortest paths keeping out of those hexes if there is one (31.5)."""
    hm = state.map
    ta = terrain_arrays(state)
    src = hm.index(unit.location)
    goal = hm.index(dest)
    final_ok = ta.land[goal] and control(state)[goal] == SIDE_CODE[unit.side] \
        and not occupied_by(state, values.other(unit.side))[goal]
    if not final_ok or goal == src:
        return None
    path = _bfs(state, unit.side, src, goal, None)
    if path is not None and avoid is not None and avoid.any():
        alt = _bfs(state, unit.side, src, goal, avoid)
        if alt is not None and len(alt) == len(path):
            return alt
    return path


def plan(state: State, unit: Unit, dest: str) -> tuple[list[int], str, list[str]]:
    """ETO-31.2, 31.4, 31.5: the route, the capacity pool paying for it and the Middle East
    areas it counts against; raises :class:`IllegalOrder` naming the rule that forbids it."""
    hm = state.map
    major = values.major_of(state, unit.nation)
    spent = _me_spent(state, unit)
    path = route(state, unit, dest, avoid=spent)
    if path is None:
        raise IllegalOrder("ETO-31.3", f"no rail route to {dest} through friendly hexes free of enemy units "
                           "and ZOC")
    src = hm.index(unit.location)
    hexes = [src, *path]
    cap = state.ruleset.tables["rail"]["capacity"]
    pool = None
    for p, owner in usable_pools(state, major):
        if pool_mask(state, p, owner)[hexes].any() and used(state, p) < capacity(state, p):
            pool = p
            break
    if pool is None:
        extra = [p for p in pools(state, major) if p != major]
        for p in extra:
            row = cap[p]
            names = " or ".join(row.get("country", []))
            if pool_mask(state, p, major)[hexes].any():
                loss = row.get("loss")
                if capacity(state, p) == 0 and loss:
                    raise IllegalOrder(row.get("rule", "ETO-31.4"),
                                       f"{loss['city']} is in Axis hands, so {major} has no rail point for {names}")
                raise IllegalOrder(row.get("rule", "ETO-31.4"),
                                   f"{major}'s rail point for {names} is already used this turn")
        if pool_mask(state, major, major)[hexes].any():
            also = partners(state, major)
            raise IllegalOrder("ETO-31.0", f"{major}'s rail capacity is used up this turn" + (
                f", and no point of {', '.join(also)} is left for a route through its country" if also else ""))
        if extra:
            names = " or ".join(c for p in extra for c in cap[p].get("country", []))
            raise IllegalOrder(cap[extra[0]].get("rule", "ETO-31.4"),
                               f"the route must pass through at least one hex of {major}, or of {names} to use "
                               f"{major}'s rail point there")
        raise IllegalOrder("ETO-31.2", f"the route must pass through at least one hex of {major}")
    limit = int(state.ruleset.tables["rail"].get("middle_east", {}).get("points_per_country", 1))
    areas = []
    for area, m in middle_east_areas(state):
        if m[hexes].any():
            key = _me_key(state, unit, area)
            if used(state, key) >= limit:
                who = key.split(".")[0]
                raise IllegalOrder("ETO-31.5", f"{who} has already used {limit} rail point(s) this turn into, out "
                                   f"of or through {area}; no shortest route to {dest} keeps out of it")
            areas.append(key)
    return path, pool, areas


class RailOrder(OrderKind):
    kind = "rail"
    rule = "ETO-31.0"

    def movers(self, state: State) -> list[Unit]:
        side = state.decision.side
        ez = zoc(state, values.other(side))
        return sorted((u for u in state.units_by_id.values() if self._may_rail(state, u, side, ez)),
                      key=lambda u: u.id)

    @staticmethod
    def _may_rail(state: State, u: Unit, side: str, ez: np.ndarray) -> bool:
        """Whether ``u`` is one of :meth:`movers` (``ez``: the enemy ZOC), asked of one unit."""
        if u.side != side or not values.on_map(u) or u.props.get("activated") or u.props.get("moved") \
                or u.props.get("railed") or u.props.get("dropped") == state.turn_label \
                or u.props.get("air_transported") == state.turn_label:
            return False  # dropped paras stay in their hex for the turn (19.4, 28.7); airlifted units never rail (18.3)
        if values.unit_class(state, u) not in state.ruleset.tables["rail"]["limits"]["eligible_classes"]:
            return False
        if politics.at_peace(state, u.nation):
            return False  # 39.0, 31.2: a neutral's own hexes are friendly to no side, so it has no rail net
        if ez[state.map.index(u.location)]:
            return False  # 31.3
        return bool(pools_left(state, values.major_of(state, u.nation)))  # 31.0, 31.4: every pool spent (or lost)

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
            major = values.major_of(state, u.nation)
            country = np.zeros(hm.size, dtype=bool)
            for p, owner in pools_left(state, major):
                country |= pool_mask(state, p, owner)
            spent = _me_spent(state, u)
            if spent.any():  # 31.5: only destinations whose shortest route can keep out
                full = _bfs(state, side, i, None, None)
                clear = _bfs(state, side, i, None, spent)
            lock = garrison.home_lock(state, u)  # 41.2
            for h in hubs:
                if h == i or int(labels[h]) not in reach or (lock is not None and not lock[h]):
                    continue
                if not (country[i] or country[h]):
                    continue
                if spent.any() and (spent[i] or spent[h] or clear[h] != full[h]):
                    continue
                if not stacking.fits(state, hm.label(int(h)), side, [u]) or region_why_not(state, u, hm.label(int(h))):
                    continue
                out.append({"kind": "rail", "unit": u.id, "to": hm.label(int(h))})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid = order.get("unit")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if u is not None and u.props.get("air_transported") == state.turn_label:
            raise IllegalOrder("ETO-18.3", f"{uid} moved by air this turn and may not move by rail")
        side = state.decision.side  # one unit asked, not every mover listed (the same test)
        if u is None or not self._may_rail(state, u, side, zoc(state, values.other(side))):
            raise IllegalOrder("ETO-31.3", f"{uid} may not move by rail now (activated this turn, already moved, "
                               "in enemy ZOC, not a rail-eligible unit, or its nation's capacity is used up)")
        dest = order.get("to")
        if not isinstance(dest, str) or not state.map.has_hex(dest):
            raise IllegalOrder(self.rule, "a rail move needs a destination hex ('to')")
        plan(state, u, dest)
        if not stacking.fits(state, dest, u.side, [u]):
            raise IllegalOrder("ETO-24.2", f"{dest} cannot hold {uid}")
        outside = region_why_not(state, u, dest)
        if outside:
            raise IllegalOrder.of(outside, "ETO-23.5")
        refuse(garrison.move_why_not(state, u, dest))  # 41.2
        gid = order.get("general")
        if gid is not None and gid not in {g.id for g in generals_with(state, u)}:
            raise IllegalOrder("ETO-31.1", f"{gid} is not a general stacked with {uid}")
        hid = order.get("hq")
        if hid is not None:
            self._check_hq_rider(state, u, hid, dest)

    @staticmethod
    def _check_hq_rider(state: State, u: Unit, hid: Any, dest: str) -> None:
        """31.1: "a general or HQ stacked with a unit that moves by rail can ride along without
        requiring a rail point" -- an unactivated HQ that has not moved, allowed where it arrives."""
        from workbench.rulesets.eto.hq_limits import interval_violations

        hq = state.units_by_id.get(hid) if isinstance(hid, str) else None
        if hq is None or hq.side != u.side or values.unit_class(state, hq) != "hq" or hq.location != u.location:
            raise IllegalOrder("ETO-31.1", f"{hid} is not an HQ stacked with {u.id}")
        if hq.props.get("activated") or hq.props.get("moved") or hq.props.get("railed"):
            raise IllegalOrder("ETO-31.3", f"HQ {hid} was activated or has moved this turn")
        bad = interval_violations(state, hq, dest)
        if bad:
            raise IllegalOrder("ETO-23.4", f"HQ {hid} may not stand at {dest}: it is within {bad}")
        outside = region_why_not(state, hq, dest)
        if outside:
            raise IllegalOrder.of(outside, "ETO-23.5")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        path, pool, areas = plan(state, u, order["to"])
        state.tracks[f"{pool}.rail_used"] = used(state, pool) + 1
        for key in areas:  # 31.5
            state.tracks[f"{key}.rail_used"] = used(state, key) + 1
        start = u.location
        u.location = order["to"]
        u.props["railed"] = True
        u.props["moved"] = True
        for key in ("general", "hq"):  # 31.1: riders, free
            if order.get(key):
                r = state.unit(order[key])
                r.location = u.location
                r.props["moved"] = True
                if key == "hq":
                    r.props["railed"] = True
        state.emit("rail", side=u.side, rule=self.rule,
                   text=f"{u.id} moves by rail {start} → {u.location} ({pool} {used(state, pool)}/"
                        f"{capacity(state, pool)})", unit=u.id, start=start, pool=pool,
                   path=[state.map.label(i) for i in path or []])
