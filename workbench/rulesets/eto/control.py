"""Hex control (ETO-24.4).

``state.arrays["control"]`` is an int8 per hex: 0 neutral, 1 Axis, 2 Allies.
It starts from the scenario's ``[control]`` table (keys are map ``country``
values) and its ``[[control_regions]]`` (authored 1939-40 annexations, each a
lon/lat polygon inside one country).  A land unit other than an HQ that enters
a hex makes it friendly (24.4); partisans too (45.4).  The fronts of 24.5 are in
:mod:`front`, which needs the ZOC (and the ZOC needs control).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import values
from workbench.rulesets.eto.terrain import hex_lonlat, terrain_arrays

NEUTRAL, AXIS, ALLIES = 0, 1, 2
SIDE_CODE = {"axis": AXIS, "allies": ALLIES}
#: ``f(state, unit, labels)`` run after a land unit entered ``labels`` (airbase evacuation,
#: 13.2, registers here from :mod:`airbases`).
ENTRY_HOOKS: list[Callable[[State, Unit, list[str]], None]] = []
#: ``f(state, unit, hexes)`` run after a land unit took ``hexes`` (dense indices) from the other
#: side or a neutral: captures (40.6's roll for Italy registers here).
CAPTURE_HOOKS: list[Callable[[State, Unit, np.ndarray], None]] = []


def control(state: State) -> np.ndarray:
    ctrl = state.arrays.get("control")
    if ctrl is None:
        ctrl = initial_control(state)
        state.arrays["control"] = ctrl
    return ctrl


def friendly(state: State, side: str) -> np.ndarray:
    return control(state) == SIDE_CODE[side]


def region_masks(state: State) -> list[tuple[dict[str, Any], np.ndarray]]:
    """Each ``[[control_regions]]`` entry with the hexes it covers (cached per game: the
    regions are the scenario's)."""
    return state.game.cached("eto.control_regions", lambda: _region_masks(state))


def _region_masks(state: State) -> list[tuple[dict[str, Any], np.ndarray]]:
    return [(reg, area_mask(state, reg)) for reg in state.game.scenario.raw.get("control_regions", [])]


def area_mask(state: State, reg: dict[str, Any]) -> np.ndarray:
    """The land hexes of an authored area: inside its lon/lat ``polygon`` and its ``country``,
    plus its ``hexes``, less its ``exclude`` (scenario control regions; 43.2's pre-war conquests)."""
    import shapely

    ta = terrain_arrays(state)
    poly = reg.get("polygon")
    if poly:
        lon, lat = hex_lonlat(state)
        inside = shapely.contains_xy(shapely.Polygon(poly), lon, lat)
    else:
        inside = np.zeros(state.map.size, bool)
    mask = inside & (ta.country == reg.get("country", ta.country))
    for h in reg.get("hexes", []):
        mask[state.map.index(h)] = True
    for h in reg.get("exclude", []):
        mask[state.map.index(h)] = False
    return mask


def initial_control(state: State) -> np.ndarray:
    """ETO-24.4: hexes begin friendly to the power controlling them (scenario [control])."""
    ta = terrain_arrays(state)
    ctrl = np.zeros(state.map.size, dtype=np.int8)
    for country, who in state.game.scenario.raw.get("control", {}).items():
        if who in SIDE_CODE:
            ctrl[ta.country == country] = SIDE_CODE[who]
    for reg, mask in region_masks(state):
        if reg.get("side") in SIDE_CODE:
            ctrl[mask] = SIDE_CODE[reg["side"]]
        elif reg.get("side") == "neutral":  # a neutral's annexation (39.0: the USSR's 1939-40 zones)
            ctrl[mask] = NEUTRAL
    ctrl[~ta.land] = NEUTRAL
    return ctrl


def home_mask(state: State, nation: str, *, original: bool = False) -> np.ndarray:
    """Home-country hexes of a nation (37.6).  The USSR's pre-war conquests count as home
    for replenishment, construction, rail and 43.4 but not for income (43.5): ``original=True``
    gives the original borders only."""
    def compute() -> np.ndarray:  # per game: the units table and the scenario's regions
        ta = terrain_arrays(state)
        row = state.ruleset.tables["units"]["nations"].get(nation, {})
        mask = np.isin(ta.country, row.get("countries", [])) & ta.land
        if not original:
            for reg, m in region_masks(state):
                if reg.get("home") == nation:
                    mask = mask | m
        return mask

    base = state.game.cached(("eto.home", nation, original), compute)
    if original:
        return base
    for hook in HOME_HOOKS:  # 43.5: pre-war conquests made in play
        extra = hook(state, nation)
        if extra is not None:
            base = base | extra
    return base


#: ``f(state, nation)``: land hexes made home in play (43.5's conquered pre-war areas), or None.
HOME_HOOKS: list[Callable[[State, str], np.ndarray | None]] = []


def pass_through(state: State, unit: Unit, path: list[int]) -> None:
    """ETO-24.4: a land unit (not an HQ or general) entering a hex makes it friendly; entering an
    enemy coastal fort's hex by land removes the marker (24.1), however the unit got there
    (move, advance, breakthrough or retreat)."""
    if not values.is_land_unit(state, unit):
        return
    idx = np.asarray(path, dtype=np.int64)
    ctrl = control(state)
    taken = idx[ctrl[idx] != SIDE_CODE[unit.side]]
    ctrl[idx] = SIDE_CODE[unit.side]
    labels = [state.map.label(int(i)) for i in path]
    remove_entered_markers(state, unit, labels)
    for hook in ENTRY_HOOKS:
        hook(state, unit, labels)
    if len(taken):
        for capture in CAPTURE_HOOKS:
            capture(state, unit, taken)


def removable_marker_kinds(state: State) -> set[str]:
    """``terrain.toml [features]`` marker kinds an enemy land unit removes by entering the hex (24.1:
    the coastal fort)."""
    return {str(f["marker_kind"]) for f in state.ruleset.tables["terrain"].get("features", {}).values()
            if f.get("removed_on_enemy_land_entry") and f.get("marker_kind")}


def remove_entered_markers(state: State, unit: Unit, path: list[str]) -> None:
    """ETO-24.1: "Coastal fort: removed if enemy enters by land": an enemy land unit entering
    the hex (ending there or passing through) removes the marker.  It is removed, not destroyed,
    so it cannot be repaired (37.5 repairs destroyed installations)."""
    if not values.is_land_unit(state, unit):
        return
    forts = state.markers.get("forts", {})
    kinds = removable_marker_kinds(state)
    for h in path:
        f = forts.get(h)
        if f and f.get("kind") in kinds and f.get("side") != unit.side:
            forts.pop(h)
            state.emit("marker_removed", side=unit.side, rule="ETO-24.1",
                       text=f"{f.get('kind')} marker at {h} removed: {unit.id} entered the hex by land",
                       hex=h, marker=f.get("kind"), unit=unit.id)
