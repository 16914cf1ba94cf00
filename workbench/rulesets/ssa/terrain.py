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
    game = state.game
    cached = getattr(game, "_ssa_terrain", None)
    if cached is not None:
        return cached
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
    game._ssa_terrain = arrays
    return arrays
