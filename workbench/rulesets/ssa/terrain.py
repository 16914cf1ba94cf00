"""Per-hex terrain arrays for SS Amerika movement, from the map and the TEC (SSA-5.3, TEC).

Computed once per (map, tables) and cached on the game, since terrain never
changes in play; things that do change (bombed lines, control, ZOC) are
applied on top by the callers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.engine.state import State

TRANSPORT = "transport"


@dataclass
class TerrainArrays:
    enter_mech: np.ndarray  # float[N]: MF to enter; inf = prohibited
    enter_foot: np.ndarray
    river: np.ndarray  # bool[N, 6]
    transport: np.ndarray  # bool[N, 6]: a transportation line crosses the hexside
    all_sea_side: np.ndarray  # bool[N, 6]
    on_line: np.ndarray  # bool[N]: the hex is on a transportation line
    river_mech: float
    river_foot: float
    road_cost: float


def terrain_arrays(state: State) -> TerrainArrays:
    """The map's terrain costs as arrays, once per game (the costs are rule tables)."""
    return state.game.cached("ssa.terrain", lambda: _terrain_arrays(state))


def _terrain_arrays(state: State) -> TerrainArrays:
    hm, tables = state.map, state.ruleset.tables
    tec = tables["terrain"]["terrain"]
    names = hm.hexes["terrain"].to_list()

    def cost(kind: str) -> np.ndarray:
        out = np.empty(hm.size, dtype=float)
        for t in set(names):
            row = tec.get(t)
            v = "P" if row is None else row[kind]
            out[np.array([n == t for n in names])] = np.inf if v == "P" else float(v)
        return out

    transport = hm.side_mask(TRANSPORT)
    river = hm.side_mask("river") | hm.side_mask("canal")
    arrays = TerrainArrays(
        enter_mech=cost("mech"), enter_foot=cost("nonmech"), river=river, transport=transport,
        all_sea_side=hm.side_mask("all-sea"), on_line=transport.any(axis=1),
        river_mech=float(tables["terrain"]["hexsides"]["river"]["mech"]),
        river_foot=float(tables["terrain"]["hexsides"]["river"]["nonmech"]),
        road_cost=float(tables["movement"]["road"]["cost_per_hex"]),
    )
    # SSA TEC: mechanized units may enter mountain hexes on transportation lines (by road).
    return arrays


def hexside_steps(state: State, mech: bool, bombed: np.ndarray | None,
                  reverse: bool = False) -> tuple[np.ndarray, ...]:
    """Every step into enterable terrain as (row, column, MF cost, hex entered), sorted by row
    then column: the canonical CSR order, so a position's step graph (supply, movement) is these
    arrays masked by its closed hexes plus its ZOC costs, with no COO conversion or transpose.
    The cost is the terrain's (roads at their cost unless bombed, rivers added); ``reverse``
    gives the steps y→x.  Fixed by the map and bombing, so kept per game while nothing is bombed."""
    if bombed is None:
        return state.game.cached(("ssa.hexside_steps", mech, reverse),
                                 lambda: _hexside_steps(state, mech, None, reverse))
    return _hexside_steps(state, mech, bombed, reverse)


def _hexside_steps(state: State, mech: bool, bombed: np.ndarray | None,
                   reverse: bool) -> tuple[np.ndarray, ...]:
    hm = state.map
    ta = terrain_arrays(state)
    base = ta.enter_mech if mech else ta.enter_foot
    river = ta.river_mech if mech else ta.river_foot
    src = np.repeat(np.arange(hm.size), 6)
    dst = hm.neighbors.ravel()
    dst0 = np.maximum(dst, 0)
    road = ta.transport.ravel()
    if bombed is not None:
        road = road & ~bombed[src] & ~bombed[dst0]
    cost = np.where(road, ta.road_cost, base[dst0] + np.where(ta.river.ravel(), river, 0.0))
    ok = (dst >= 0) & np.isfinite(cost)
    src, dst, cost = src[ok], dst[ok], cost[ok]
    rows, cols = (dst, src) if reverse else (src, dst)
    order = np.lexsort((cols, rows))
    return rows[order], cols[order].astype(np.int32), cost[order], dst[order]
