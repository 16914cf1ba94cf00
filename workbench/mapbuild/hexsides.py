"""Hexside features from geography: rivers, canals, straits, borders, water sides.

Two models, because games use hexsides in two ways:

* **Edge chains** (rivers, canals, straits): the feature runs *along* hexsides,
  like a river printed on a map, and units cross it when moving between the two
  banks.  A source line is snapped to a connected path of hex edges: sample the
  line densely, snap each sample to the nearest hex corner, and join consecutive
  corners by the shortest path in the corner graph.  Chains are connected by
  construction.
* **Hex paths** (railroads, highways): the feature runs *through* hexes, so it
  is recorded on the hexsides between consecutive hexes of the path a line
  passes through.

Water sides (all-sea, lake) are sampled along the centre-to-centre segment.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import shapely
from scipy.spatial import cKDTree

from workbench.hexgrid import line as hex_line
from workbench.mapbuild.grid import GeoGrid
from workbench.mapbuild.overlay import points_in


class CornerGraph:
    """Hex corners as nodes, interior hexsides as edges."""

    def __init__(self, grid: GeoGrid) -> None:
        self.grid = grid
        s = grid.sides
        n = len(grid.vertices)
        adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for k, (a, b) in enumerate(zip(s["va"].tolist(), s["vb"].tolist(), strict=True)):
            adj[a].append((b, k))
            adj[b].append((a, k))
        self.adj = [sorted(x) for x in adj]
        self.tree = cKDTree(grid.vertices)

    def path(self, a: int, b: int, limit: int = 64) -> list[int]:
        """Side indices of a shortest corner path ``a -> b`` (breadth-first)."""
        if a == b:
            return []
        prev: dict[int, tuple[int, int]] = {a: (-1, -1)}
        todo = deque([a])
        while todo:
            u = todo.popleft()
            if u == b:
                break
            if len(prev) > limit * limit:
                return []
            for v, k in self.adj[u]:
                if v not in prev:
                    prev[v] = (u, k)
                    todo.append(v)
        if b not in prev:
            return []
        out = []
        v = b
        while v != a:
            u, k = prev[v]
            out.append(k)
            v = u
        return out[::-1]

    def snap_line(self, geom: shapely.Geometry) -> list[int]:
        """Ordered side indices of the edge chain following ``geom`` (a (multi)line)."""
        out: list[int] = []
        step = self.grid.circumradius / 4.0
        for part in shapely.get_parts(geom):
            dense = shapely.segmentize(part, step)
            xy = shapely.get_coordinates(dense)
            _, vid = self.tree.query(xy)
            keep = np.concatenate([[True], vid[1:] != vid[:-1]])
            vid = vid[keep]
            for a, b in zip(vid[:-1].tolist(), vid[1:].tolist(), strict=True):
                out.extend(self.path(a, b))
        # drop immediate back-and-forth duplicates, keep first occurrence order
        seen: set[int] = set()
        chain = []
        for k in out:
            if k not in seen:
                seen.add(k)
                chain.append(k)
        return chain


def trim_ends(chain: list[int], bad: np.ndarray) -> list[int]:
    """Remove sides from both ends of a chain while they are ``bad`` (e.g. at sea)."""
    i, j = 0, len(chain)
    while i < j and bad[chain[i]]:
        i += 1
    while j > i and bad[chain[j - 1]]:
        j -= 1
    return chain[i:j]


def hex_path(grid: GeoGrid, geom: shapely.Geometry) -> list[int]:
    """Dense indices of the hexes a line passes through, consecutive ones adjacent."""
    hexes: list[int] = []
    q, r = grid.hexgrid.q, grid.hexgrid.r
    for part in shapely.get_parts(geom):
        xy = shapely.get_coordinates(shapely.segmentize(part, grid.circumradius / 3.0))
        idx = grid.locate(xy[:, 0], xy[:, 1])
        idx = idx[idx >= 0]
        seq: list[int] = []
        for h in idx.tolist():
            if seq and seq[-1] == h:
                continue
            if seq and grid.hexgrid.distance(seq[-1], h) > 1:
                a = seq[-1]
                for hq, hr in hex_line(int(q[a]), int(r[a]), int(q[h]), int(r[h]))[1:-1].tolist():
                    seq.append(int(grid.hexgrid.index(hq, hr)))
            seq.append(h)
        hexes.extend(seq)
        hexes.append(-1)  # part separator
    return hexes


def path_sides(grid: GeoGrid, hexes: list[int]) -> list[int]:
    """Side indices between consecutive hexes of :func:`hex_path` output."""
    a = np.array(hexes[:-1])
    b = np.array(hexes[1:])
    ok = (a >= 0) & (b >= 0) & (a != b)
    sides = grid.side_index(a[ok], b[ok])
    return [int(s) for s in sides if s >= 0]


def water_fraction(grid: GeoGrid, water: shapely.Geometry, n: int = 9) -> np.ndarray:
    """Per interior side: share of the centre-to-centre segment lying in ``water``.

    Sampled at ``n`` points (ends excluded), which is plenty at hex scale.
    """
    s = grid.sides
    t = (np.arange(n) + 0.5) / n
    x = grid.x[s["hex"]][:, None] * (1 - t) + grid.x[s["nb"]][:, None] * t
    y = grid.y[s["hex"]][:, None] * (1 - t) + grid.y[s["nb"]][:, None] * t
    inside = points_in(water, x.ravel(), y.ravel()).reshape(x.shape)
    return inside.mean(axis=1)
