"""The spaces ships move through and what each costs (ETO-7.2-7.4, 7.8, 8.1; GAP-09, GAP-20, GAP-22).

A *space* is a coastal hex (its label), a sea area (its name) or a sea box (the US box, the US
coastal box, the Canada, Capetown, India and Iraq transit boxes).  Convoy escort boxes are not
in the graph: ships reach them only by 7.5's direct move (:mod:`naval_movement`).

The graph is built once per game as a sparse matrix of entry costs:

* coastal hex to coastal hex, 1 MP, only across a hexside that touches water (7.3: never across
  an all-land hexside): one of the two hexes flanking the hexside is all-sea, or the hexside is a
  ferry or all-sea hexside;
* coastal hex to the sea area of an adjacent all-sea hex: the area's MP (5, or "MP n", 7.4);
  back to the coastal hex, 1;
* sea area to adjacent sea area: the entered area's MP;
* boxes by the map's links, ``mp_in`` / ``mp_out`` (7.8), else 1 to enter a box and the area's MP
  to leave into an area;
* the Kiel and Suez canals (``tables/naval_movement.toml``): end to end at their printed MP,
  passable only while every land hex along them is friendly (7.8).

Gridded areas are single spaces: 7.4's exact hex paths (to dodge enemy air) are not traced.
Shortest paths are scipy's Dijkstra on that matrix.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from workbench.engine.state import State
from workbench.rulesets.eto import values
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.supply import condition

#: Boxes ships may sail to and from like spaces (7.8); the convoy escort boxes are 7.5's.
SEA_BOXES = ("US box", "US coastal box", "Canada box", "Capetown box", "India box", "Iraq transit box")
UNREACHABLE = 10**6


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["naval_movement"]


class SeaGraph:
    """Nodes (spaces) and entry costs of one map; built once per game."""

    def __init__(self, state: State) -> None:
        hm = state.map
        t = table(state)
        coastal = np.flatnonzero(hm.flag("coastal"))
        areas = list(hm.sea_areas)
        boxes = [b for b in SEA_BOXES if b in hm.boxes]
        self.nodes: list[str] = [hm.label(int(i)) for i in coastal] + areas + boxes
        self.index = {n: k for k, n in enumerate(self.nodes)}
        self.area_mp = {a: int(hm.sea_areas[a].attrs.get("mp_cost", 5)) for a in areas}
        terr = hm.hexes["terrain"].to_list()
        sea_of = hm.hexes["sea_area"].to_list()
        nb = hm.neighbors
        water = np.array([t_ == "all-sea" for t_ in terr])
        edges: dict[tuple[int, int], int] = {}

        def add(a: str, b: str, cost: int) -> None:
            if a in self.index and b in self.index and a != b:
                edges[(self.index[a], self.index[b])] = int(cost)

        hex_cost = int(t["costs"]["coastal_hex"])
        cset = set(int(i) for i in coastal)
        self.adjacent_areas: dict[str, set[str]] = {}
        for i in coastal:
            i = int(i)
            a = hm.label(i)
            ring = [int(j) for j in nb[i]]
            for d, j in enumerate(ring):
                if j < 0:
                    continue
                if water[j] and sea_of[j]:
                    self.adjacent_areas.setdefault(a, set()).add(str(sea_of[j]))
                if j in cset:
                    flank = (ring[(d - 1) % 6], ring[(d + 1) % 6])
                    wet = any(f >= 0 and water[f] for f in flank) or hm.side_has(i, j, "ferry") \
                        or hm.side_has(i, j, "all-sea")
                    if wet:
                        add(a, hm.label(j), hex_cost)
        self.home: dict[str, str] = {}
        for i in coastal:
            votes: dict[str, int] = {}
            for j in nb[int(i)]:
                if j >= 0 and water[j] and sea_of[j]:
                    votes[str(sea_of[j])] = votes.get(str(sea_of[j]), 0) + 1
            if votes:
                self.home[hm.label(int(i))] = min(votes, key=lambda k: (-votes[k], k))
        for a, near in self.adjacent_areas.items():
            for area in near:
                add(a, area, self.area_mp[area])
                add(area, a, hex_cost)
        for area in areas:
            for other in hm.sea_areas[area].attrs.get("adjacent", []):
                if other in self.area_mp:
                    add(area, other, self.area_mp[other])
        for b in boxes:
            box = hm.boxes[b]
            mp_in = dict(box.attrs.get("mp_in") or {})
            mp_out = dict(box.attrs.get("mp_out") or {})
            for link in box.links:
                if link not in self.index:
                    continue
                if link in boxes:  # box to box: the leaving box's mp_out, else the entered box's mp_in
                    other = hm.boxes[link].attrs
                    add(b, link, mp_out.get(link, dict(other.get("mp_in") or {}).get(b, int(t["costs"]["box_default"]))))
                    continue
                add(link, b, mp_in.get(link, int(t["costs"]["box_default"])))
                add(b, link, mp_out.get(link, self.area_mp.get(link, int(t["costs"]["box_default"]))))
        self.canal_edges: dict[tuple[int, int], str] = {}
        for name, c in t.get("canals", {}).items():
            e1, e2 = c["ends"]
            for x, y in ((e1, e2), (e2, e1)):
                if x in self.index and y in self.index:
                    add(x, y, int(c["mp"]))
                    self.canal_edges[(self.index[x], self.index[y])] = name
        rows, cols = zip(*edges, strict=True) if edges else ((), ())
        self.n = len(self.nodes)
        self.rows = np.array(rows, dtype=np.int64)
        self.cols = np.array(cols, dtype=np.int64)
        self.costs = np.array([edges[k] for k in zip(rows, cols, strict=True)], dtype=np.float64)
        self.edge_cost = {(self.nodes[a], self.nodes[b]): c for (a, b), c in edges.items()}
        self.out: dict[str, dict[str, int]] = {}
        for (a, b), c in self.edge_cost.items():
            self.out.setdefault(a, {})[b] = c
        self.canal_of = {(self.nodes[a], self.nodes[b]): name for (a, b), name in self.canal_edges.items()}
        self.ranges: dict[str, frozenset[str]] = {}  # 8.1, a pure function of the map: memo
        self._matrices: dict[bytes, csr_matrix] = {}
        seas = np.isin(self.cols, [self.index[a] for a in areas] + [self.index[b] for b in boxes])
        self.coastal_matrix = self.matrix(seas)

    def matrix(self, blocked: np.ndarray | None = None) -> csr_matrix:
        """The entry-cost matrix; ``blocked`` edges (a bool mask over the edge list) left out.
        Memoised by the mask: a game has few distinct ones (which canals and boxes are shut)."""
        key = b"" if blocked is None else np.packbits(blocked).tobytes()
        m = self._matrices.get(key)
        if m is None:
            keep = np.ones(len(self.costs), dtype=bool) if blocked is None else ~blocked
            m = csr_matrix((self.costs[keep], (self.rows[keep], self.cols[keep])), shape=(self.n, self.n))
            if len(self._matrices) < 64:
                self._matrices[key] = m
        return m

    def neighbours(self, space: str) -> dict[str, int]:
        """Spaces entered straight from ``space`` and their cost (whoever sails)."""
        return dict(self.out.get(space, {}))


def graph(state: State) -> SeaGraph:
    return state.game.cached("eto.sea_graph", lambda: SeaGraph(state))


def is_space(state: State, space: str) -> bool:
    return space in graph(state).index


def canal_open(state: State, side: str, name: str) -> bool:
    """ETO-7.8: "passable if all adjacent land hexes are friendly"."""
    c = table(state)["canals"][name]
    ctrl = control(state)
    return all(ctrl[state.map.index(h)] == SIDE_CODE[side] for h in c["land"] if values.on_map_label(h))


def box_rules(state: State, box: str) -> dict[str, Any]:
    """ETO-7.8: who may enter ``box`` (``tables/naval_movement.toml [boxes]``); {} if anyone."""
    return dict(table(state).get("boxes", {}).get(box, {}))


def box_open(state: State, side: str, box: str) -> bool:
    """ETO-7.8: may ``side`` enter ``box`` now (its sides, the US at war, Iraq's edge hexes)."""
    r = box_rules(state, box)
    if "sides" in r and side not in r["sides"]:
        return False
    if r.get("requires") and not condition(state, str(r["requires"])):
        return False
    if r.get("edge_control"):
        hm, ctrl = state.map, control(state)
        links = [h for h in hm.boxes[box].links if values.on_map_label(h) and hm.has_hex(h)]
        if not any(ctrl[hm.index(h)] == SIDE_CODE[side] for h in links):
            return False
    return True


def box_nation_ok(state: State, box: str, nation: str) -> bool:
    """ETO-7.8: the Canada, Capetown and India boxes serve the UK and its partners, the Iraq box
    the UK alone."""
    r = box_rules(state, box)
    if "nations" in r and nation not in r["nations"]:
        return False
    if "partnerships" in r:
        row = state.ruleset.tables["units"]["nations"].get(nation, {})
        if row.get("partnership") not in r["partnerships"]:
            return False
    return True


def closed_boxes(state: State, side: str) -> set[str]:
    """ETO-7.8: the sea boxes ``side`` may not enter now (:func:`box_open`)."""
    return {b for b in SEA_BOXES if b in state.map.boxes and not box_open(state, side, b)}


def home_area(state: State, space: str) -> str:
    """ETO-7.6 (ruling): the sea area a space is billed in: an area is its own; a coastal hex
    belongs to the area most of its all-sea neighbours lie in (ties: the first name); anything
    else (a boxed space, a landlocked coastal hex) is its own."""
    return graph(state).home.get(space, space)


def blocked_edges(state: State, side: str) -> np.ndarray:
    """Edges closed to ``side`` now: unfriendly canals, forbidden boxes."""
    g = graph(state)
    mask = np.zeros(len(g.costs), dtype=bool)
    shut = {g.index[b] for b in closed_boxes(state, side) if b in g.index}
    if shut:
        mask |= np.isin(g.cols, list(shut))
    for (x, y), name in g.canal_edges.items():
        if not canal_open(state, side, name):
            mask |= (g.rows == x) & (g.cols == y)
    return mask


def reach(state: State, side: str, start: str, mp: int) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Spaces ``side``'s ships at ``start`` can enter with ``mp`` (cost, path), by Dijkstra."""
    g = graph(state)
    if start not in g.index:
        return {}, {}
    dist, pred = dijkstra(g.matrix(blocked_edges(state, side)), indices=g.index[start], limit=mp + 0.5,
                          return_predecessors=True)
    costs: dict[str, int] = {}
    paths: dict[str, list[str]] = {}
    for k in np.flatnonzero(np.isfinite(dist)):
        k = int(k)
        if k == g.index[start]:
            continue
        path = [g.nodes[k]]
        p = int(pred[k])
        while p >= 0 and p != g.index[start]:
            path.append(g.nodes[p])
            p = int(pred[p])
        costs[g.nodes[k]] = int(dist[k])
        paths[g.nodes[k]] = path[::-1]
    return costs, paths


def step_cost(state: State, side: str, a: str, b: str) -> int | None:
    """The MP to enter ``b`` from ``a`` for ``side`` now, or None if they are not linked."""
    g = graph(state)
    c = g.edge_cost.get((a, b))
    if c is None or (b in SEA_BOXES and not box_open(state, side, b)):
        return None
    canal = g.canal_of.get((a, b))
    if canal is not None and not canal_open(state, side, canal):
        return None
    return int(c)


def interception_range(state: State, space: str) -> frozenset[str]:
    """ETO-8.1 (GAP-22 ruling): ships in a coastal hex or port reach every coastal hex within 3
    naval MP (over coastal hexes) and every sea area adjacent to their hex; ships in a sea area
    reach that area and every coastal hex adjacent to it.  Boxes reach nothing.  Memoised per
    map (it depends on the map alone)."""
    g = graph(state)
    got = g.ranges.get(space)
    if got is not None:
        return got
    if space in state.map.sea_areas:
        out = {space} | {h for h, near in g.adjacent_areas.items() if space in near}
    elif not values.on_map_label(space) or space not in g.index:
        out = set()
    else:
        out = set(g.adjacent_areas.get(space, ()))
        dist = dijkstra(g.coastal_matrix, indices=g.index[space], limit=3.5)
        out |= {g.nodes[int(k)] for k in np.flatnonzero(np.isfinite(dist))}
    g.ranges[space] = frozenset(out)
    return g.ranges[space]
