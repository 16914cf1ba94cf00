"""Supply (SSA-10.0, 15.6): which land units can trace a supply line now.

A unit traces at most its own MF (paying its class's terrain costs, roads at
½, no ZOC surcharge) to a supply point: a source, or a logistic unit that
itself traces, within *its* MF, to another supply point (SSA-10.1a-b).  No
line enters an enemy ZOC hex unless a friendly unit is there (SSA-8.4), nor a
hex holding enemy units.

Sources (SSA-10.1d-f):

* Allies: every Allied-controlled industrial city, unlimited.
* Axis: a friendly transport convoy in a coastal hex that can trace by sea,
  clear of enemy naval units and naval ZOC, to the ocean edge of its holding
  area (Europe by the Atlantic for Germans and their allies, the Far East by
  the Pacific for the Japanese).  In a port it supplies any number of units;
  on a plain coastal hex at most 3 division-equivalents.

Costs are found for all hexes at once with scipy's Dijkstra on the reversed
step graph, so one call answers for every unit (a hot path: see benchmarks).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from workbench.engine.search import multi_source_reach
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import militia, values
from workbench.rulesets.ssa.assault import in_supply as assault_in_supply
from workbench.rulesets.ssa.mountain_troops import move_class
from workbench.rulesets.ssa.movement import MECH_PHASE, MOVEMENT_MARK, blocked_hexes, other
from workbench.rulesets.ssa.occupation import city_hexes, controls_city
from workbench.rulesets.ssa.terrain import hexside_steps, land_water
from workbench.rulesets.ssa.weather import signature as weather_signature
from workbench.rulesets.ssa.zoc import land_zoc, naval_zoc

JAPANESE = frozenset({"JA"})
UNLIMITED = Fraction(10**9)


@dataclass
class SupplyPoint:
    hex: int
    capacity: Fraction
    root: int  # index of the source this point finally traces to


def _step_graph(state: State, side: str, mech: bool | str, reverse: bool = False) -> csr_matrix:
    """Directed graph of allowed supply steps x→y weighted by their MF cost, or with
    ``reverse`` the same steps y→x (to trace from points back to units).  Memoised per
    position: air bases and supply both trace on it; callers must not modify it."""
    deps = []
    for name in ("bombed", "neutral"):
        a = state.arrays.get(name)
        deps += [id(a), None if a is None else a.tobytes()]
    deps.append(weather_signature(state))  # SSA-26.4: weather raises supply-tracing costs
    return state.derived(("ssa.supply_graph", side, mech, reverse),
                         lambda: _make_step_graph(state, side, mech, reverse), *deps)


def friendly_land(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes holding a land unit of ``side`` (read-only).  Memoised while none of
    ``side``'s units changes: every supply graph and box land line of a trace asks."""
    def compute() -> np.ndarray:
        hm = state.map
        out = np.zeros(hm.size, dtype=bool)
        for u in state.units_by_id.values():
            if u.side == side and u.location.isdigit() and values.is_land(state, u):
                out[hm.index(u.location)] = True
        return out

    return state.derived(("ssa.friendly_land", side), compute, side=side)


def _make_step_graph(state: State, side: str, mech: bool | str, reverse: bool = False) -> csr_matrix:
    hm = state.map
    friendly = friendly_land(state, side)
    # a hex both sides' land units share (an amphibious landing, G-09) stays open to the defenders
    closed = (blocked_hexes(state, side) & ~friendly) | (land_zoc(state, other(side)) & ~friendly) \
        | land_water(state)
    rows, cols, cost, target = hexside_steps(state, mech, state.arrays.get("bombed"), reverse)
    keep = ~closed[target]
    rows, cols, cost = rows[keep], cols[keep], cost[keep]
    indptr = np.zeros(hm.size + 1, dtype=np.int32)
    np.cumsum(np.bincount(rows, minlength=hm.size), out=indptr[1:])
    return csr_matrix((cost, cols, indptr), shape=(hm.size, hm.size))


class _Graphs(dict):
    """The reversed supply step graphs of one side, built on first use for each terrain-cost class
    (mechanized, foot, and mountain troops with SSA-22.3a in use)."""

    def __init__(self, state: State, side: str) -> None:
        super().__init__()
        self.state, self.side = state, side
        self._fields: dict[tuple[bool | str, tuple[int, ...]], tuple[np.ndarray, np.ndarray]] = {}
        self._class_of: dict[str, bool | str] = {}

    def move_class(self, unit: Unit) -> bool | str:
        """:func:`move_class`, once per unit for this trace (no unit changes during a trace)."""
        cls = self._class_of.get(unit.id)
        if cls is None:
            cls = self._class_of[unit.id] = move_class(self.state, unit)
        return cls

    def __missing__(self, cls: bool | str) -> csr_matrix:
        graph = self[cls] = _step_graph(self.state, self.side, cls, reverse=True)
        return graph

    def cost_to(self, cls: bool | str, points: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """:func:`cost_to` on the graph of ``cls``, memoised for this trace: the logistic chain's
        last pass, the assignment and the box land lines ask the same field of the same points.
        The graphs are fixed for the trace, so equal points give an equal answer (read-only)."""
        key = (cls, tuple(points))
        hit = self._fields.get(key)
        if hit is None:
            hit = self._fields[key] = cost_to(self[cls], points)
        return hit


def _classes(state: State, units: list[Unit], graphs: _Graphs | None = None) -> list[bool | str]:
    """The terrain-cost classes among ``units``, in a fixed order (foot, mechanized, mountain)."""
    seen = {move_class(state, u) if graphs is None else graphs.move_class(u) for u in units}
    return [c for c in (False, True, "mountain") if c in seen]


def cost_to(graph_t: csr_matrix, points: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Least cost from every hex to the nearest point, and which point that is."""
    n = graph_t.shape[0]
    if not points:
        return np.full(n, np.inf), np.full(n, -1)
    dist, _, nearest = dijkstra(graph_t, directed=True, indices=points, min_only=True,
                                return_predecessors=True)
    return dist, nearest


def _sea_edge(state: State, ocean: str | None) -> np.ndarray:
    """Sea hexes on the map edge toward a holding area's ocean (any ocean if unknown)."""
    hm = state.map

    def compute() -> np.ndarray:  # the map never changes: once per ocean
        edge = hm.is_water & (hm.neighbors < 0).any(axis=1)
        if ocean and "weather_zone" in hm.hexes.columns:
            zone = np.array([(z or "").lower() for z in hm.hexes["weather_zone"].to_list()])
            if (edge & (zone == ocean)).any():
                edge &= zone == ocean
        return edge

    return hm.cached(("ssa.sea_edge", ocean), compute).copy()


def axis_sources(state: State, japanese: bool) -> list[SupplyPoint]:
    """SSA-10.1e-f: Axis convoys in coastal hexes with a clear sea trace to their holding area.

    Memoised per position (unit epoch) and bombing (a bombed port is no port, SSA-12.3a):
    supply, air bases, mobilization and the bots ask."""
    bombed = state.arrays.get("bombed")
    return list(state.derived(("ssa.axis_sources", japanese), lambda: _axis_sources(state, japanese),
                              id(bombed), None if bombed is None else bombed.tobytes()))


def _axis_sources(state: State, japanese: bool) -> list[SupplyPoint]:
    hm = state.map
    enemy_naval = _sea_blocked(state, "allies")
    ocean = "pacific" if japanese else "atlantic"
    reach = _sea_reach(state, ocean, enemy_naval)
    coastal = hm.flag("coastal")
    port = hm.flag("port")
    bombed = state.arrays.get("bombed")
    if bombed is not None:  # SSA-12.3a: a bombed coastal city cannot be used as a port
        port = port & ~bombed
    out: list[SupplyPoint] = []
    seen: set[int] = set()
    for u in state.units_by_id.values():
        if u.side != "axis" or u.type != "transport" or not u.location.isdigit():
            continue
        if (u.nation in JAPANESE) != japanese:
            continue
        i = hm.index(u.location)
        nb = hm.neighbors[i]
        touches = reach[i] >= 0 or any(reach[j] >= 0 for j in nb if j >= 0)
        if coastal[i] and touches and i not in seen:
            seen.add(i)
            cap = UNLIMITED if port[i] else Fraction(
                state.ruleset.tables["movement"].get("supply", {}).get("coastal_convoy_limit", 3))
            out.append(SupplyPoint(i, cap, len(out)))
    return out


def _sea_blocked(state: State, enemy: str) -> np.ndarray:
    """SSA-10.1f: sea hexes a supply line may not cross -- ``enemy`` fleets (not submarines,
    13.6: naval._enemy_fleets) and their naval ZOC.  A fresh array (the cached ones are shared)."""
    from workbench.rulesets.ssa.naval import _enemy_fleets

    return naval_zoc(state, enemy) | _enemy_fleets(state, "axis" if enemy == "allies" else "allies")


def _sea_reach(state: State, ocean: str, enemy_naval: np.ndarray) -> np.ndarray:
    """Sea distance from the ocean edge clear of ``enemy_naval`` hexes (-1: cut off).  A pure
    function of the map and that mask, so it is memoised per map by the mask's content: it
    survives the Axis player's own moves, which change the unit epoch but not the mask."""
    cache = state.map.cached("ssa.sea_reach", dict)  # (ocean, mask bytes) -> distances
    key = (ocean, enemy_naval.tobytes())
    reach = cache.get(key)
    if reach is None:
        hm = state.map
        edge = _sea_edge(state, ocean) & ~enemy_naval
        sea_ok = hm.is_water & ~enemy_naval
        reach = multi_source_reach(hm.neighbors, sea_ok, np.flatnonzero(edge))
        if len(cache) >= 64:
            cache.clear()
        cache[key] = reach
    return reach


def allied_sources(state: State) -> list[SupplyPoint]:
    """SSA-10.1d: every Allied-controlled industrial city, unlimited; and SSA-10.1f ("both players
    may trace supply across all sea hexes"): Allied convoys in coastal hexes with a clear sea trace
    back to a friendly port or an Allied-held holding area."""
    out = [SupplyPoint(i, UNLIMITED, k) for k, i in
           enumerate(h for h in city_hexes(state, "industrial") if controls_city(state, "allies", h))]
    bombed = state.arrays.get("bombed")
    convoys = state.derived(("ssa.allied_convoy_sources",), lambda: _allied_convoys(state),
                            id(bombed), None if bombed is None else bombed.tobytes(),
                            repr(state.markers.get("city_control")), repr(state.markers.get("box_control")))
    return out + [SupplyPoint(i, cap, len(out) + k) for k, (i, cap) in enumerate(convoys)]


def _allied_convoys(state: State) -> list[tuple[int, Fraction]]:
    """SSA-10.1f for the Allies: (hex, capacity) of each coastal hex holding an Allied transport
    whose sea trace, clear of Axis fleets and their naval ZOC, reaches a friendly port (an
    Allied-held industrial port city, a supply source itself, not bombed, 12.3a) or the ocean edge
    of an Allied holding area."""
    hm = state.map
    enemy_naval = _sea_blocked(state, "axis")
    port = hm.flag("port")
    bombed = state.arrays.get("bombed")
    if bombed is not None:
        port = port & ~bombed
    sea_ok = hm.is_water & ~enemy_naval
    start = np.zeros(hm.size, dtype=bool)
    for h in city_hexes(state, "industrial"):  # ruling: the port the line runs back to is a source (10.1d)
        if port[h] and controls_city(state, "allies", h):
            nb = hm.neighbors[h]
            start[nb[nb >= 0]] = True
    boxes = state.ruleset.tables["holding_areas"]["boxes"]
    held = state.markers.get("box_control")  # read only: holding.box_control would record it
    if held is None:
        held = {k[4:]: v for k, v in state.game.scenario.raw.get("control", {}).items() if k.startswith("box.")}
    for box, side in held.items():
        if side == "allies":
            for ocean in boxes.get(box, {}).get("adjacent_oceans", []):
                start |= _sea_edge(state, ocean)
    start &= sea_ok
    if not start.any():
        return []
    reach = multi_source_reach(hm.neighbors, sea_ok, np.flatnonzero(start))
    coastal = hm.flag("coastal")
    limit = Fraction(state.ruleset.tables["movement"].get("supply", {}).get("coastal_convoy_limit", 3))
    out: dict[int, Fraction] = {}
    for u in state.units_by_id.values():
        if u.side != "allies" or u.type != "transport" or not u.location.isdigit():
            continue
        i = hm.index(u.location)
        nb = hm.neighbors[i]
        if coastal[i] and (reach[i] >= 0 or any(reach[j] >= 0 for j in nb if j >= 0)):
            out[i] = UNLIMITED if port[i] else limit
    return sorted(out.items())


def supply_status(state: State, side: str) -> dict[str, bool]:
    """``{unit id: in supply}`` for every land unit of ``side`` (SSA-10, 15.6).

    Memoised per position (tracing costs ~50 ms and mobilization, combat and the
    bots all ask): recomputed when any unit changes (the unit epoch) or the line
    control, city control, bombing, neutrality or air-supply markers differ."""
    arrays = state.arrays
    deps = [len(state.units_by_id), repr(state.markers.get("city_control")),
            repr(state.markers.get("air_supplied")), weather_signature(state)]
    for name in ("control", "bombed", "neutral"):
        a = arrays.get(name)
        deps += [id(a), None if a is None else a.tobytes()]
    return dict(state.derived(("ssa.supply_status", side), lambda: _supply_status(state, side), *deps))


def _supply_status(state: State, side: str) -> dict[str, bool]:
    hm = state.map
    out: dict[str, bool] = {}
    on_map: list[Unit] = []
    for u in state.units_by_id.values():
        if u.side != side or not values.is_land(state, u):
            continue
        if values.is_leader(state, u):
            out[u.id] = True  # SSA-24.2: leaders are always in supply
            continue
        if u.props.get("carried"):
            out[u.id] = True  # SSA-10.1c
        elif u.location.isdigit():
            air = state.markers.get("air_supplied", {})
            mark = air.get(u.location)  # SSA-10.1h, refined below: the side that flew it in
            out[u.id] = bool(mark) and (not isinstance(mark, dict) or mark.get("side", side) == side)
            on_map.append(u)
        else:
            out[u.id] = _box_supplied(state, u)
    if side == "allies":
        groups = [(allied_sources(state), on_map)]
    else:
        groups = [(axis_sources(state, jp), [u for u in on_map if (u.nation in JAPANESE) == jp])
                  for jp in (False, True)]
    graphs = _Graphs(state, side)
    boxed = [u for u in state.units_by_id.values() if u.side == side and values.is_land(state, u)
             and not out.get(u.id, True) and not u.location.isdigit()]
    for k, (sources, units) in enumerate(groups):
        points = _chain(state, graphs, sources, [u for u in units if _is_logistic(state, u)])
        _assign(state, graphs, points, sources, units, out)
        _box_land_lines(state, graphs, points, [u for u in boxed if side == "allies"
                                                 or (u.nation in JAPANESE) == bool(k)], out)
    for u in on_map:  # SSA-10.1g: units making an amphibious assault (G-09)
        if not out[u.id] and assault_in_supply(state, u):
            out[u.id] = True
    militia_units = [u for u in on_map if militia.is_militia(state, u)]
    if militia_units:  # SSA-22.10: militia are supplied by friendly towns within their MF, and only so
        towns = militia.towns(state, side)
        fields: dict[bool | str, np.ndarray] = {}  # one trace from the towns per terrain class
        for u in militia_units:
            cls = graphs.move_class(u)
            if towns and cls not in fields:
                fields[cls] = graphs.cost_to(cls, towns)[0]
            out[u.id] = militia.supplied(state, u, graphs[cls], towns, fields.get(cls))
    del hm
    return out


def can_trace_from(state: State, unit: Unit, label: str) -> bool:
    """Could ``unit`` trace supply from ``label`` (SSA-10.1a: a line within its MF to a supply
    point, logistic chains included; convoy capacity not counted)?  For the retreat priorities
    (gap G-10), which compare the hexes a unit may retreat into."""
    side = unit.side
    jp = unit.nation in JAPANESE
    mech = move_class(state, unit)

    def field() -> np.ndarray:
        graphs = _Graphs(state, side)
        sources = allied_sources(state) if side == "allies" else axis_sources(state, jp)
        logistics = [u for u in state.units_by_id.values() if u.side == side and u.location.isdigit()
                     and values.is_land(state, u) and _is_logistic(state, u)
                     and (side == "allies" or (u.nation in JAPANESE) == jp)]
        points = _chain(state, graphs, sources, logistics)
        return graphs.cost_to(mech, [p.hex for p in points])[0]

    deps = [repr(state.markers.get("city_control")), repr(state.markers.get("box_control")),
            weather_signature(state)]
    for name in ("control", "bombed", "neutral"):
        a = state.arrays.get(name)
        deps += [id(a), None if a is None else a.tobytes()]
    dist = state.derived(("ssa.trace_field", side, jp, mech), field, *deps)
    return bool(dist[state.map.index(label)] <= values.mf(state, unit))


def judge_for_movement(state: State, step: object = None) -> None:
    """SSA-10.G: supply for movement is judged once, at the start of the friendly Initial
    Movement and Mechanized Movement phases.  The phasing side's on-map land units that are
    out of supply then are kept in ``state.markers["unsupplied_for_movement"]`` for the whole
    phase (a unit that regains supply mid-phase keeps the penalty; movement.toml
    ``[supply_effects]``, read by :func:`movement.movement_mf`).

    Emits ``supply_judged`` (data: ``units``, the out-of-supply unit ids, sorted)."""
    side = state.phasing
    mech_only = step is not None and str(getattr(step, "key", "")).endswith(MECH_PHASE)
    movers = any(u.side == side and u.location.isdigit() and values.is_land(state, u)
                 and (not mech_only or values.is_mech(state, u)) for u in state.units_by_id.values())
    # nobody who could move this phase: no trace (~50 ms) is needed
    units = sorted(uid for uid, ok in supply_status(state, side).items()
                   if not ok and state.units_by_id[uid].location.isdigit()) if movers else []
    state.markers[MOVEMENT_MARK] = {"side": side, "units": units}
    text = (f"supply for movement: {len(units)} {side} land unit{'s' if len(units) != 1 else ''} out of supply"
            + (f" ({', '.join(units)})" if units else ""))
    state.emit("supply_judged", side=side, rule="SSA-10.G", text=text, units=units)


def _is_logistic(state: State, unit: Unit) -> bool:
    return bool(values.value(state, unit, "logistic", False))


def _chain(state: State, graphs: _Graphs, sources: list[SupplyPoint],
           logistics: list[Unit]) -> list[SupplyPoint]:
    """SSA-10.1b: logistic units join the network when they reach it within their own MF."""
    hm = state.map
    points = list(sources)
    pending = list(logistics)
    changed = True
    while changed and pending:
        changed = False
        for mech in _classes(state, pending, graphs):
            group = [u for u in pending if graphs.move_class(u) == mech]
            if not group:
                continue
            dist, nearest = graphs.cost_to(mech, [p.hex for p in points])
            by_hex = {p.hex: p for p in points}
            for u in group:
                i = hm.index(u.location)
                if dist[i] <= values.mf(state, u):
                    root = by_hex[int(nearest[i])].root if nearest[i] >= 0 else 0
                    points.append(SupplyPoint(i, UNLIMITED, root))
                    pending.remove(u)
                    changed = True
    return points


def _assign(state: State, graphs: _Graphs, points: list[SupplyPoint],
            sources: list[SupplyPoint], units: list[Unit], out: dict[str, bool]) -> None:
    """Each unit in reach of a point is supplied, within its root source's capacity."""
    hm = state.map
    left = {s.root: s.capacity for s in sources}
    for mech in _classes(state, units, graphs):
        group = sorted((u for u in units if graphs.move_class(u) == mech), key=lambda u: u.id)
        if not group or not points:
            continue
        dist, nearest = graphs.cost_to(mech, [p.hex for p in points])
        by_hex = {p.hex: p for p in points}
        for u in group:
            i = hm.index(u.location)
            if dist[i] > values.mf(state, u):
                continue
            root = by_hex[int(nearest[i])].root
            need = values.division_equivalents(state, u)  # 10.1f, 9.1c: a logistic corps is a division too
            if left.get(root, UNLIMITED) >= need:
                left[root] = left.get(root, UNLIMITED) - need
                out[u.id] = True


def _box_land_lines(state: State, graphs: _Graphs, points: list[SupplyPoint],
                    units: list[Unit], out: dict[str, bool]) -> None:
    """SSA-15.6b: a unit in a box with a land link (Latin America, SSA-15.5e) is supplied if it
    can trace a land supply line onto the map and back to a friendly supply point.  Stepping onto
    a hex of a linked country costs the same share of its MF as moving there (holding_areas.toml
    ``land_link``; docs/rulings-ssa.md); the rest of its MF carries the line on as on the map."""
    if not units or not points:
        return
    hm = state.map
    boxes = state.ruleset.tables["holding_areas"]["boxes"]
    side = units[0].side
    friendly = friendly_land(state, side)
    # a hex both sides' land units share (an amphibious landing, G-09) stays open to the defenders
    closed = (blocked_hexes(state, side) & ~friendly) | (land_zoc(state, other(side)) & ~friendly) \
        | land_water(state)
    country = np.array([c or "" for c in hm.hexes["country"].to_list()], dtype=object) \
        if "country" in hm.hexes.columns else np.full(hm.size, "", dtype=object)
    dist = {mech: graphs.cost_to(mech, [p.hex for p in points])[0] for mech in _classes(state, units, graphs)}
    for u in units:
        link = boxes.get(u.location, {}).get("land_link")
        if not isinstance(link, dict):
            continue
        entry = np.isin(country, list(link["from_countries"])) & ~closed
        if not entry.any():
            continue
        left = values.mf(state, u) - link_cost(values.mf(state, u), link)
        if float(dist[graphs.move_class(u)][entry].min()) <= left:
            out[u.id] = True


def link_cost(full: float, link: dict) -> int:
    """SSA-15.5e-f: the share of a movement or range factor a box link costs (``half_mf`` /
    ``half_range``), rounded as the table says (up, authored)."""
    half = Fraction(str(full)) / 2
    return int(-(-half // 1)) if link.get("rounding", "up") == "up" else int(half // 1)


def _box_supplied(state: State, unit: Unit) -> bool:
    """SSA-15.6: in a holding area a unit needs a friendly logistic unit and transport there,
    except Axis units in Europe or the Far East (15.6a), units an air cargo supplies in Latin
    America (15.6c) and Argentine, Brazilian and Chilean units in Latin America (15.6d).  The
    land line of 15.6b is :func:`_box_land_lines`."""
    box = unit.location
    spec = state.ruleset.tables["holding_areas"]["boxes"].get(box)
    if spec is None:
        return False
    if unit.side == "axis" and spec.get("axis_always_supplied"):
        return True
    if unit.nation in spec.get("always_supplied_nations", ()):  # SSA-15.6d
        return True
    from workbench.rulesets.ssa.holding import box_air_supplied

    if box_air_supplied(state, unit):  # SSA-15.6c
        return True
    here = [u for u in state.units_by_id.values() if u.location == box and u.side == unit.side]
    return any(_is_logistic(state, u) for u in here) and any(u.type == "transport" for u in here)
