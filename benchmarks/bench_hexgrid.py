"""Hex distance, neighbours and a whole-map multi-source reach on a 12,000-hex grid.

Peers, run in the same process on the same graph: networkx (the usual
pure-Python graph library) and scipy's csgraph BFS (the compiled anchor).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order

from benchmarks.timing import best, row
from workbench import hexgrid as hg
from workbench.engine.search import connected_to_sources, multi_source_reach
from workbench.hexgrid import HexGrid


def build(cols: int = 120, rows: int = 100, seed: int = 1):
    grid = HexGrid(cols, rows)
    rng = np.random.default_rng(seed)
    passable = rng.random(grid.size) > 0.25  # a quarter of the map is water or enemy ZOC
    nb = grid.neighbors
    src = np.repeat(np.arange(grid.size), 6)
    dst = nb.ravel()
    keep = dst >= 0
    graph = nx.Graph()
    graph.add_nodes_from(range(grid.size))
    graph.add_edges_from(zip(src[keep].tolist(), dst[keep].tolist(), strict=True))
    return grid, passable, graph


def main() -> None:
    grid, passable, graph = build()
    n = grid.size
    print(f"hex grid benchmarks: {grid.cols}x{grid.rows} = {n} hexes, {graph.number_of_edges()} adjacencies")
    rng = np.random.default_rng(2)
    a = rng.integers(0, n, 10_000)
    b = rng.integers(0, n, 10_000)
    q, r = grid.q, grid.r

    # distance: 10,000 pairs; networkx would need a shortest path per pair, so compare a
    # per-pair Python axial formula (what a naive engine does) as the peer.
    def py_dist() -> None:
        for i, j in zip(a.tolist(), b.tolist(), strict=True):
            dq, dr = int(q[i]) - int(q[j]), int(r[i]) - int(r[j])
            (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    ours = best(lambda: hg.distance(q[a], r[a], q[b], r[b]))
    print(row("distance, 10,000 pairs (numpy)", ours, "pure Python loop", best(py_dist, 3)))
    pair = list(zip(a[:50].tolist(), b[:50].tolist(), strict=True))
    nx_one = best(lambda: [nx.shortest_path_length(graph, i, j) for i, j in pair], 3) / 50
    ours_one = best(lambda: hg.distance(q[a[0]], r[a[0]], q[b[0]], r[b[0]]), 7, 200)
    print(row("distance, one pair", ours_one, "networkx BFS per pair", nx_one))

    # neighbours of every hex
    ours = best(lambda: grid.neighbors.copy())
    print(row("neighbours of every hex (cached array)", ours, "networkx adjacency",
              best(lambda: [list(graph.adj[i]) for i in range(n)], 3)))

    # multi-source reach / supply trace over a passability mask
    sources = np.flatnonzero(passable)[:: n // 20][:20]
    sub = graph.subgraph(np.flatnonzero(passable).tolist())

    def nx_reach() -> dict:
        return nx.multi_source_dijkstra_path_length(sub, set(sources.tolist()))

    ours = best(lambda: multi_source_reach(grid.neighbors, passable, sources), 11)
    ours_d = multi_source_reach(grid.neighbors, passable, sources)
    theirs = nx_reach()
    assert len(theirs) == int((ours_d >= 0).sum()), "peer disagrees on the reachable set"
    assert all(ours_d[k] == v for k, v in theirs.items()), "peer disagrees on distances"
    nx_time = best(nx_reach, 3)
    print(row("reach with distances: 20 sources, whole map", ours, "networkx multi-source", nx_time))
    conn = connected_to_sources(grid.q, grid.r, passable, sources)
    assert set(np.flatnonzero(conn).tolist()) == set(theirs), "peer disagrees on the supplied set"
    supply = best(lambda: connected_to_sources(grid.q, grid.r, passable, sources), 11)
    print(row("supply trace (connectivity), whole map", supply, "networkx multi-source", nx_time))

    # scipy csgraph anchor: BFS from one super-source over the same passable subgraph
    keep = (grid.neighbors >= 0) & passable[:, None] & passable[np.maximum(grid.neighbors, 0)]
    rows_ = np.repeat(np.arange(n), 6)[keep.ravel()]
    cols_ = grid.neighbors.ravel()[keep.ravel()]
    rows_ = np.concatenate([rows_, np.full(sources.size, n)])
    cols_ = np.concatenate([cols_, sources])
    mat = csr_matrix((np.ones(rows_.size), (rows_, cols_)), shape=(n + 1, n + 1))
    anchor = best(lambda: breadth_first_order(mat, n, directed=True, return_predecessors=False), 11)
    print(row("  (anchor) scipy csgraph BFS, same graph", anchor, "ours", ours).replace(
        "ratio", "ours/scipy"))


if __name__ == "__main__":
    main()
