"""Zones of control (SSA-8.0): which hexes each side's land and naval units control.

Every land unit except leaders (SSA-24.3) and underground partisans exerts a
ZOC into the six adjacent hexes, but not into a hex or across a hexside it
could not enter itself (SSA-8.6): a mechanized unit's ZOC stops at mountains
off the roads, no land ZOC enters all-sea hexes.
"""

from __future__ import annotations

import numpy as np

from workbench.engine.state import State
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.assault import settings as assault_settings
from workbench.rulesets.ssa.mountain_troops import move_class
from workbench.rulesets.ssa.terrain import terrain_arrays


def exerts_land_zoc(state: State, unit) -> bool:  # noqa: ANN001 - Unit
    """SSA-8.G; units ashore by amphibious assault exert none until they clear their hex
    (G-09, tables/assault.toml ``zoc_before_cleared``)."""
    return (values.is_land(state, unit) and not values.is_leader(state, unit)
            and unit.location.isdigit() and not unit.props.get("underground")
            and not unit.props.get("carried")
            and not (unit.props.get("assault_hex") == unit.location
                     and not assault_settings(state, unit).get("zoc_before_cleared", False)))


def land_zoc(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes in the land ZOC of ``side`` (SSA-8.G, 8.6)."""
    return state.derived(("ssa.land_zoc", side), lambda: _land_zoc(state, side), side=side)  # its units alone


def _land_zoc(state: State, side: str) -> np.ndarray:
    hm = state.map
    ta = terrain_arrays(state)
    out = np.zeros(hm.size, dtype=bool)
    units = [u for u in state.units_by_id.values() if u.side == side and exerts_land_zoc(state, u)]
    if not units:
        return out
    # all six hexsides of every unit at once (vectorised: recomputed after every move)
    i = np.array([hm.index(u.location) for u in units], dtype=np.int64)
    mech = np.array([values.is_mech(state, u) for u in units], dtype=bool)[:, None]
    # SSA-22.3b: a mountain unit's ZOC extends through mountain hexes (it enters them at 2 MF)
    mountain = np.array([move_class(state, u) == "mountain" for u in units], dtype=bool)[:, None]
    j = hm.neighbors[i]
    jj = np.maximum(j, 0)
    enterable = np.where(mech, np.isfinite(ta.enter_mech[jj]),
                         np.where(mountain, np.isfinite(ta.enter_mountain[jj]), np.isfinite(ta.enter_foot[jj])))
    hit = (j >= 0) & ~ta.all_sea_side[i] & (enterable | (ta.transport[i] & ~hm.is_water[jj]))
    out[j[hit]] = True
    return out


def naval_zoc(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes in the naval ZOC of ``side``'s naval units (SSA-8.G, 8.3).

    Submarines exert none: enemy fleets pass through their hexes freely (SSA-13.6)."""
    return state.derived(("ssa.naval_zoc", side), lambda: _naval_zoc(state, side))


def _naval_zoc(state: State, side: str) -> np.ndarray:
    hm = state.map
    out = np.zeros(hm.size, dtype=bool)
    for u in state.units_by_id.values():
        if u.side == side and u.location.isdigit() and values.domain(state, u) == "naval" \
                and u.type != "submarine" and not u.props.get("carried"):
            nb = hm.neighbors[hm.index(u.location)]
            nb = nb[nb >= 0]
            out[nb[hm.is_water[nb] | hm.flag("coastal")[nb]]] = True
    return out
