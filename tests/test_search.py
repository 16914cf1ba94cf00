"""Grid searches agree with a plain reference BFS (networkx) on random masks."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from workbench.engine.search import (
    cheapest_reach,
    connected_to_sources,
    multi_source_reach,
    path_to,
)
from workbench.hexgrid import HexGrid


@pytest.mark.parametrize("seed", range(5))
def test_reach_and_connectivity_match_networkx(seed):
    grid = HexGrid(23, 17)
    rng = np.random.default_rng(seed)
    passable = rng.random(grid.size) > 0.35
    sources = rng.choice(np.flatnonzero(passable), 3, replace=False)
    g = nx.Graph()
    g.add_nodes_from(np.flatnonzero(passable).tolist())
    for i in np.flatnonzero(passable):
        for j in grid.neighbors[i]:
            if j >= 0 and passable[j]:
                g.add_edge(int(i), int(j))
    ref = nx.multi_source_dijkstra_path_length(g, set(sources.tolist()))
    dist = multi_source_reach(grid.neighbors, passable, sources)
    assert {i: int(dist[i]) for i in np.flatnonzero(dist >= 0)} == ref
    conn = connected_to_sources(grid.q, grid.r, passable, sources)
    assert set(np.flatnonzero(conn).tolist()) == set(ref)
    limited = multi_source_reach(grid.neighbors, passable, sources, max_steps=2)
    assert set(np.flatnonzero(limited >= 0).tolist()) == {k for k, v in ref.items() if v <= 2}


def test_blocked_hexsides_stop_the_trace():
    grid = HexGrid(6, 1)  # a single row: a corridor 0..5
    passable = np.ones(grid.size, dtype=bool)
    blocked = np.zeros((grid.size, 6), dtype=bool)
    blocked[2, :] = True  # hex 2 cannot be left
    dist = multi_source_reach(grid.neighbors, passable, [0], blocked_sides=blocked)
    assert dist.tolist()[:3] == [0, 1, 2] and dist[3] == -1


def test_cheapest_reach_respects_budget_and_costs():
    grid = HexGrid(8, 1)
    cost = np.array([1, 1, 3, 1, 1, np.inf, 1, 1], dtype=float)
    c, parent = cheapest_reach(grid.neighbors, 0, 5,
                               lambda a, d, b: cost[b] if np.isfinite(cost[b]) else None)
    assert c == {0: 0.0, 1: 1.0, 2: 4.0, 3: 5.0}
    assert path_to(parent, 0, 3) == [0, 1, 2, 3]
