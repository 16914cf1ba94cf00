"""ETO supply trace per turn on the Barbarossa map, against networkx on the same graph.

``python -m benchmarks.bench_eto_supply [--turns T]``.

The End phase Supply step (ETO-32.3, 33.3) asks, for every land unit of both sides,
whether it traces a line to a source of its nation.  Ours: the derived caches are
dropped, then :func:`workbench.rulesets.eto.supply.status` for both sides (the
passability masks with enemy ZOC, one vectorised multi-source reach per nation and
side).  Peer: networkx builds the same graph (the same passable hexes, joined across
the hexsides a land unit may cross) and runs ``multi_source_dijkstra_path_length``
per nation (reusing the kernel's masks, so the peer's time leaves out the ZOC and
control work ours includes).  Both answers are checked equal before timing.  Positions: the scenario
start, then after ``--turns`` turns of random play (a ragged front).
"""

from __future__ import annotations

import argparse

import networkx as nx
import numpy as np

from benchmarks.timing import best, row
from workbench.bots import RandomPolicy, play
from workbench.engine import load_scenario
from workbench.rulesets.eto import supply, values
from workbench.rulesets.eto.weather import crossable_sides


def ours(state) -> dict[str, bool]:  # noqa: ANN001
    state.forget()
    out: dict[str, bool] = {}
    for side in state.ruleset.sides:
        out.update(supply.status(state, side))
    return out


def peer(state) -> dict[str, bool]:  # noqa: ANN001
    """The same question answered by networkx (masks from the kernel, graph and search by nx)."""
    hm = state.map
    cross = crossable_sides(state)
    out: dict[str, bool] = {}
    for side in state.ruleset.sides:
        ok = supply.passable(state, side)
        g = nx.Graph()
        idx = np.flatnonzero(ok)
        g.add_nodes_from(idx.tolist())
        nb = hm.neighbors
        for d in range(6):
            j = nb[idx, d]
            keep = (j >= 0) & cross[idx, d]
            keep[keep] &= ok[j[keep]]
            g.add_edges_from(zip(idx[keep].tolist(), j[keep].tolist(), strict=True))
        by_nation: dict[str, dict[int, int]] = {}
        for u in state.units_by_id.values():
            if u.side != side or not values.on_map(u) or not values.is_land_unit(state, u):
                continue
            if values.unit_class(state, u) == "partisan":
                out[u.id] = True
                continue
            if u.nation not in by_nation:
                srcs = [i for n in supply.source_nations(state, u.nation) for i in supply.sources(state, n, side)]
                srcs = [s for s in srcs if s in g]
                by_nation[u.nation] = nx.multi_source_dijkstra_path_length(g, srcs) if srcs else {}
            i = hm.index(u.location)
            out[u.id] = i in by_nation[u.nation] or bool(supply.marker_reach(state, side)[i] >= 0)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=4)
    args = ap.parse_args(argv)
    game = load_scenario("eto/barbarossa-1941")
    start = game.new_state(seed=1)
    later = game.new_state(seed=1)
    play(later, {s: RandomPolicy(seed=i) for i, s in enumerate(game.ruleset.sides)}, until_turn=args.turns)
    print("ETO supply trace, every land unit of both sides (End phase Supply step, 32.3):")
    for name, st in (("start", start), (f"after {args.turns} turns ({later.turn_label})", later)):
        a, b = ours(st), peer(st)
        assert a == b, "the kernel and networkx disagree"
        t_ours = best(lambda st=st: ours(st), 7)
        t_peer = best(lambda st=st: peer(st), 3)
        print(row(f"supply trace, {len(a)} units, {name}", t_ours, "networkx same graph", t_peer))


if __name__ == "__main__":
    main()
