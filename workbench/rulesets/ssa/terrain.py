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
    enter_mountain: np.ndarray  # foot costs with the TEC's ``mountain_unit_cost`` (SSA-22.3a)
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

    def cost(kind: str, fallback: str | None = None) -> np.ndarray:
        out = np.empty(hm.size, dtype=float)
        for t in set(names):
            row = tec.get(t)
            v = "P" if row is None else row.get(kind, row.get(fallback or kind))
            out[np.array([n == t for n in names])] = np.inf if v == "P" else float(v)
        return out

    transport = hm.side_mask(TRANSPORT)
    river = hm.side_mask("river") | hm.side_mask("canal")
    arrays = TerrainArrays(
        enter_mech=cost("mech"), enter_foot=cost("nonmech"),
        enter_mountain=cost("mountain_unit_cost", "nonmech"), river=river, transport=transport,
        all_sea_side=hm.side_mask("all-sea"), on_line=transport.any(axis=1),
        river_mech=float(tables["terrain"]["hexsides"]["river"]["mech"]),
        river_foot=float(tables["terrain"]["hexsides"]["river"]["nonmech"]),
        road_cost=float(tables["movement"]["road"]["cost_per_hex"]),
    )
    # SSA TEC: mechanized units may enter mountain hexes on transportation lines (by road).
    return arrays


def hexside_steps(state: State, mech: bool | str, bombed: np.ndarray | None,
                  reverse: bool = False) -> tuple[np.ndarray, ...]:
    """Every step into enterable terrain as (row, column, MF cost, hex entered), sorted by row
    then column: the canonical CSR order, so a position's step graph (supply, movement) is these
    arrays masked by its closed hexes plus its ZOC costs, with no COO conversion or transpose.
    The cost is the terrain's (roads at their cost unless bombed, rivers added) plus the weather's
    (SSA-26.3, 26.4); ``mech`` is True, False, ``"leader"`` (1 MF a land hex, SSA-24.1) or
    ``"mountain"`` (foot costs, 2 MF in mountains, icecap and tundra, SSA-22.3a);
    ``reverse`` gives the steps y→x.  Kept per game for each weather while nothing is bombed."""
    from workbench.rulesets.ssa.weather import signature

    sig = signature(state)
    if bombed is None:
        return state.game.cached(("ssa.hexside_steps", mech, reverse, sig),
                                 lambda: _hexside_steps(state, mech, None, reverse))
    return _hexside_steps(state, mech, bombed, reverse)


def land_water(state: State) -> np.ndarray:
    """``bool[N]``: water a land unit may not enter: the map's water less lakes frozen by the
    weather (SSA-26.3-F: they count as the hex's other terrain, clear)."""
    from workbench.rulesets.ssa.weather import hex_costs, signature

    hm = state.map
    sig = signature(state)
    if sig is None:
        return hm.is_water

    def compute() -> np.ndarray:
        frozen = hex_costs(state)[2]
        lakes = hm.terrain_mask("lake", "all-lake")
        return hm.is_water & ~(frozen & lakes)

    return state.game.cached(("ssa.land_water", sig), compute)


def _hexside_steps(state: State, mech: bool | str, bombed: np.ndarray | None,
                   reverse: bool) -> tuple[np.ndarray, ...]:
    from workbench.rulesets.ssa.weather import hex_costs

    hm = state.map
    ta = terrain_arrays(state)
    if mech == "leader":  # SSA-24.1: any land terrain at 1 MF a hex
        base = np.where(np.isfinite(ta.enter_mech) | np.isfinite(ta.enter_foot), 1.0, np.inf)
        river = 0.0
    elif mech == "mountain":  # SSA-22.3a
        base, river = ta.enter_mountain, ta.river_foot
    else:
        base = ta.enter_mech if mech else ta.enter_foot
        river = ta.river_mech if mech else ta.river_foot
    add, line_add, frozen = hex_costs(state)
    if frozen.any():  # SSA-26.3-F: frozen lakes count as clear
        lakes = hm.terrain_mask("lake", "all-lake") & frozen
        clear = float(state.ruleset.tables["terrain"]["terrain"]["clear"]["mech" if mech is True else "nonmech"])
        base = np.where(lakes, 1.0 if mech == "leader" else clear, base)
    src = np.repeat(np.arange(hm.size), 6)
    dst = hm.neighbors.ravel()
    dst0 = np.maximum(dst, 0)
    road = ta.transport.ravel()
    if bombed is not None:
        road = road & ~bombed[src] & ~bombed[dst0]
    river_cost = np.where(ta.river.ravel() & ~frozen[dst0], river, 0.0)
    cost = np.where(road, ta.road_cost + line_add[dst0], base[dst0] + add[dst0] + river_cost)
    ok = (dst >= 0) & np.isfinite(cost)
    src, dst, cost = src[ok], dst[ok], cost[ok]
    rows, cols = (dst, src) if reverse else (src, dst)
    order = np.lexsort((cols, rows))
    return rows[order], cols[order].astype(np.int32), cost[order], dst[order]
