"""Fronts (ETO-24.5): the phasing side takes every enemy-held vacant hex behind a continuous
front of its units and ZOC.  Above control and ZOC, which it reads."""

from __future__ import annotations

import numpy as np

from workbench.engine.search import connected_to_sources
from workbench.engine.state import State
from workbench.rulesets.eto import values
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.zoc import zoc


def apply_front(state: State, side: str, within: np.ndarray | None = None) -> int:
    """ETO-24.5: enemy-held vacant hexes cut off from every enemy unit and enemy airbase by
    friendly units and ZOC become friendly.  Hexes in friendly ZOC (the front itself),
    in enemy ZOC, holding enemy units, and airbases (airfield markers too) and fortifications
    (fortification markers too) do not change.  ``within``: only those hexes may change (40.6
    applies the front to Italy's lands alone).
    Returns how many hexes changed hands."""
    hm = state.map
    ta = terrain_arrays(state)
    ctrl = control(state)
    enemy = values.other(side)
    mine = np.zeros(hm.size, dtype=bool)
    theirs = np.zeros(hm.size, dtype=bool)
    for u in state.units_by_id.values():
        if values.on_map(u) and values.is_land_unit(state, u):
            (mine if u.side == side else theirs)[hm.index(u.location)] = True
    fzoc = zoc(state, side)
    airbase = ta.city | ta.resource | ta.city_resource | ta.fort_hex
    fort = np.zeros(hm.size, dtype=bool)
    for label, m in state.markers.get("forts", {}).items():  # airfield / fortification markers
        if hm.has_hex(label):
            if m.get("kind") == "airfield":
                airbase[hm.index(label)] = True
            else:
                fort[hm.index(label)] = True
    enemy_held = ctrl == SIDE_CODE[enemy]
    seeds = np.flatnonzero(theirs | (enemy_held & airbase))
    passable = ta.land & ~mine & ~fzoc
    if seeds.size:
        reached = connected_to_sources(hm.grid.q, hm.grid.r, passable, seeds)
    else:
        reached = np.zeros(hm.size, dtype=bool)
    flip = enemy_held & ~reached & ~theirs & ~zoc(state, enemy) & ~airbase & ~fort & ~fzoc & ta.land
    if within is not None:
        flip &= within
    n = int(flip.sum())
    if n:
        ctrl[flip] = SIDE_CODE[side]
        state.emit("front", side=side, rule="ETO-24.5", text=f"{n} hexes behind the {side} front become friendly",
                   hexes=n)
    return n
