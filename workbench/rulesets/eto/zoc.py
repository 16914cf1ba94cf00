"""Zones of control (ETO-25.0, 25.1).

Infantry and armor units project a ZOC into the six adjacent hexes, except
(25.1): into a hex the unit could not enter (armor: marsh; nobody: sea, lake,
Switzerland), across a hexside it could not cross (impassable, all-sea without
a ferry, an unfrozen lake), across an enemy fortress hexside, or into a hex
holding an enemy fortification marker.  Paratroops, HQs, generals and
partisans have none.  Partisans negate enemy ZOC for supply and retreat (45.6),
which :mod:`supply` and :mod:`retreat` apply.  A neutral's units (39.0: Italy or the USSR before
they enter the war) are nobody's enemy and have none either.
"""

from __future__ import annotations

import numpy as np

from workbench.engine.state import State
from workbench.rulesets.eto import politics, values
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import crossable_sides


def zoc(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes in the ZOC of ``side``'s land units."""
    return state.derived(("eto.zoc", side), lambda: _zoc(state, side), state.event_stamp)


def zoc_of_nations(state: State, side: str, nations: tuple[str, ...]) -> np.ndarray:
    """``bool[N]``: the ZOC of the land units of ``nations`` (of ``side``) only: 42.5 makes one
    Allied partnership feel the other's."""
    return state.derived(("eto.zoc", side, nations), lambda: _zoc(state, side, set(nations)), state.event_stamp)


def _zoc(state: State, side: str, nations: set[str] | None = None) -> np.ndarray:
    hm = state.map
    ta = terrain_arrays(state)
    out = np.zeros(hm.size, dtype=bool)
    inf, arm = [], []
    for u in state.units_by_id.values():
        if u.side != side or not values.on_map(u) or (nations is not None and u.nation not in nations):
            continue
        cls = values.unit_class(state, u)
        if cls not in ("infantry", "armor") or politics.at_peace(state, u.nation):
            continue  # 39.0: a neutral's units are no one's enemy
        if cls == "infantry":
            inf.append(hm.index(u.location))
        elif cls == "armor":
            arm.append(hm.index(u.location))
    cross = crossable_sides(state)
    ctrl = control(state)
    forts = state.markers.get("forts", {})
    enemy_fort = np.zeros(hm.size, dtype=bool)
    for h, f in forts.items():
        if f.get("kind") == "fortification" and f.get("side") != side:
            enemy_fort[hm.index(h)] = True
    for idx, armor in ((inf, False), (arm, True)):
        if not idx:
            continue
        idx = np.unique(np.asarray(idx, dtype=np.int64))
        nb = hm.neighbors[idx]
        ok = (nb >= 0) & cross[idx]
        j = np.maximum(nb, 0)
        ok &= ta.land[j]
        if armor:
            ok &= ~ta.marsh[j]
        # 25.1: never across an enemy fortress hexside into the (uncaptured) fortified hex
        ok &= ~(ta.fortress_side[idx] & (ctrl[j] != SIDE_CODE[side]) & ta.fort_hex[j])
        ok &= ~enemy_fort[j]
        out[j[ok]] = True
    return out


def projects_into(state: State, unit: object, label: str) -> bool:
    """Whether this one infantry or armor unit's ZOC covers the adjacent hex ``label`` (25.1: not
    into a hex it could not enter, across a hexside it could not cross, across an enemy fortress
    hexside into the fortified hex, or into an enemy fortification marker's hex)."""
    cls = values.unit_class(state, unit)
    if cls not in ("infantry", "armor") or not values.on_map(unit) or politics.at_peace(state, unit.nation):
        return False
    hm = state.map
    a, b = hm.index(unit.location), hm.index(label)
    dirs = np.nonzero(hm.neighbors[a] == b)[0]
    if dirs.size == 0:
        return False
    d = int(dirs[0])
    ta = terrain_arrays(state)
    if not crossable_sides(state)[a, d] or not ta.land[b] or (cls == "armor" and ta.marsh[b]):
        return False
    if ta.fortress_side[a, d] and ta.fort_hex[b] and control(state)[b] != SIDE_CODE[unit.side]:
        return False
    f = state.markers.get("forts", {}).get(label)
    return not (f and f.get("kind") == "fortification" and f.get("side") != unit.side)


def side_dir(state: State, a: str, b: str) -> int:
    hm = state.map
    dirs = np.nonzero(hm.neighbors[hm.index(a)] == hm.index(b))[0]
    return int(dirs[0]) if dirs.size else -1


def can_attack_across(state: State, a: str, b: str) -> bool:
    """Adjacent across a hexside the attacker could cross (authored reading of 25.1/26.0)."""
    d = side_dir(state, a, b)
    return d >= 0 and bool(crossable_sides(state)[state.map.index(a), d])
