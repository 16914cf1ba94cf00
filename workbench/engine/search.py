"""Graph searches over the hex grid, shared by both rulesets.

These are the hot paths (supply tracing, movement reach), so they work on the
dense ``neighbors[N, 6]`` array with numpy and never build a graph object.
"""

from __future__ import annotations

import heapq

import numpy as np


def multi_source_reach(neighbors: np.ndarray, passable: np.ndarray, sources,
                       max_steps: int | None = None, blocked_sides: np.ndarray | None = None
                       ) -> np.ndarray:
    """Hex distance from the nearest source through passable hexes (``-1`` = unreachable).

    A frontier BFS: each ring is one vectorised gather over the frontier only,
    so a whole-map supply trace costs O(N) work in a few dozen numpy calls.
    ``blocked_sides[N, 6]`` marks hexsides that may not be crossed.
    Sources are reached at distance 0 even if not passable themselves.
    """
    n = neighbors.shape[0]
    dist = np.full(n, -1, dtype=np.int32)
    frontier = np.unique(np.asarray(sources, dtype=np.int64))
    if frontier.size == 0:
        return dist
    dist[frontier] = 0
    # Off-map neighbours (-1) point at a sentinel slot that is never passable.
    nbrs = np.where(neighbors < 0, n, neighbors)
    if blocked_sides is not None:
        nbrs = np.where(blocked_sides, n, nbrs)
    open_ = np.append(passable.astype(bool), False)
    open_[frontier] = False
    owner = np.empty(n + 1, dtype=np.int64)
    step = 0
    while frontier.size and (max_steps is None or step < max_steps):
        step += 1
        nb = nbrs[frontier].ravel()
        nb = nb[open_[nb]]
        # de-duplicate without sorting: the last writer of each hex keeps it
        owner[nb] = np.arange(nb.size)
        frontier = nb[owner[nb] == np.arange(nb.size)]
        open_[frontier] = False
        dist[frontier] = step
    return dist


def cheapest_reach(neighbors: np.ndarray, source: int, budget: float,
                   step_cost) -> tuple[dict[int, float], dict[int, int]]:
    """Dijkstra from one hex within a movement budget.

    ``step_cost(a, d, b)`` is the full cost of the step a→b in direction d
    (terrain, hexside, ZOC...), or ``None`` when the step is forbidden.
    Returns ``(cost, parent)`` maps for every reachable hex; ``parent`` lets
    the caller rebuild the path.
    """
    cost: dict[int, float] = {source: 0.0}
    parent: dict[int, int] = {}
    heap = [(0.0, source)]
    while heap:
        c, a = heapq.heappop(heap)
        if c > cost.get(a, np.inf):
            continue
        for d in range(6):
            b = int(neighbors[a, d])
            if b < 0:
                continue
            step = step_cost(a, d, b)
            if step is None:
                continue
            nc = c + step
            if nc <= budget and nc < cost.get(b, np.inf):
                cost[b] = nc
                parent[b] = a
                heapq.heappush(heap, (nc, b))
    return cost, parent


def graph_reach(graph, source: int, budget: float) -> tuple[dict[int, float], dict[int, int]]:  # noqa: ANN001
    """:func:`cheapest_reach` on a prebuilt sparse step-cost matrix (scipy's compiled Dijkstra).

    ``graph[a, b]`` is the full cost of the step a→b; absent entries are forbidden steps.
    """
    from scipy.sparse.csgraph import dijkstra

    dist, pred = dijkstra(graph, directed=True, indices=source, limit=budget + 1e-9,
                          return_predecessors=True)
    reached = np.flatnonzero(np.isfinite(dist))
    hexes = reached.tolist()  # plain ints and floats in bulk: this runs for every unit checked
    cost = dict(zip(hexes, dist[reached].tolist(), strict=True))
    others = reached[reached != source]
    parent = dict(zip(others.tolist(), pred[others].tolist(), strict=True))
    return cost, parent


def path_to(parent: dict[int, int], source: int, target: int) -> list[int]:
    """Rebuild the path source→target from a parent map."""
    path = [target]
    while path[-1] != source:
        path.append(parent[path[-1]])
    return path[::-1]


#: The six axial neighbours as a 3x3 structuring element indexed [dq + 1, dr + 1].
HEX_STRUCTURE = np.array([[0, 1, 1],
                          [1, 1, 1],
                          [1, 1, 0]], dtype=bool)


def connected_to_sources(q: np.ndarray, r: np.ndarray, passable: np.ndarray, sources) -> np.ndarray:
    """Which hexes connect to any source through passable hexes (unlimited path length).

    This is the common supply question ("can it trace a line of any length
    through friendly hexes free of enemy ZOC?").  In axial coordinates hex
    adjacency is a fixed 6-neighbour stencil, so connected-component labelling
    (scipy.ndimage, compiled) answers it for the whole map at once.
    Sources count as connected even if not passable.
    """
    from scipy import ndimage

    sources = np.asarray(sources, dtype=np.int64)
    qi = q - q.min()
    ri = r - r.min()
    img = np.zeros((qi.max() + 1, ri.max() + 1), dtype=bool)
    mask = passable.astype(bool).copy()
    mask[sources] = True
    img[qi[mask], ri[mask]] = True
    labels, _ = ndimage.label(img, structure=HEX_STRUCTURE)
    hit = np.unique(labels[qi[sources], ri[sources]])
    hit = hit[hit > 0]
    return np.isin(labels[qi, ri], hit) & mask
