"""Scenario victory (authored for Barbarossa 1941, GAP-16; scenario ``[victory]``).

Axis VP = the objectives it controls (Moscow 10, Leningrad 6, Kiev 4, Rostov 3)
+ 1 per other resource or city resource hex inside the USSR's original borders
it controls.  Levels are read from the scenario's ``[[victory.levels]]``.
Sudden death at the end of any monthly turn: the Axis holds Moscow and
Leningrad; or a Soviet land unit stands in a city resource hex of Germany,
Rumania or Hungary.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.rulesets.eto import values
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.terrain import terrain_arrays


def _hex(state: State, place: str) -> int:
    hm = state.map
    return hm.index(place if place.isdigit() else hm.hex_of(place))


def objective_hexes(state: State) -> set[int]:
    """The hexes of the scenario's victory objectives (``[[victory.objectives]]``)."""
    return {_hex(state, o["place"]) for o in state.game.scenario.raw.get("victory", {}).get("objectives", [])}


def axis_vp(state: State) -> tuple[int, dict[str, int]]:
    """The Axis VP and their detail: objectives it controls, then Soviet resource hexes."""
    v = state.game.scenario.raw.get("victory", {})
    ctrl = control(state)
    detail: dict[str, int] = {}
    objective_hexes = set()
    for o in v.get("objectives", []):
        i = _hex(state, o["place"])
        objective_hexes.add(i)
        if ctrl[i] == SIDE_CODE["axis"]:
            detail[o["place"]] = int(o["vp"])
    ta = terrain_arrays(state)
    each = int(v.get("resource_hexes", {}).get("vp_each", 0))
    if each and "SU" in state.ruleset.tables["units"]["nations"]:
        mask = home_mask(state, "SU", original=True) & (ta.resource | ta.city_resource) & (ctrl == SIDE_CODE["axis"])
        n = sum(1 for i in np.flatnonzero(mask) if int(i) not in objective_hexes)
        if n:
            detail["resource hexes"] = n * each
    return sum(detail.values()), detail


def level(state: State, vp: int) -> str:
    for lv in state.game.scenario.raw.get("victory", {}).get("levels", []):
        if lv.get("min", -10**9) <= vp <= lv.get("max", 10**9):
            return lv["result"]
    return "draw"


def winner_of(result: str) -> str | None:
    low = result.lower()
    if low.startswith("axis"):
        return "axis"
    if low.startswith("soviet") or low.startswith("allies"):
        return "allies"
    return None


def sudden_death(state: State) -> dict[str, Any] | None:
    ctrl = control(state)
    v = state.game.scenario.raw.get("victory", {})
    if not v:
        return None
    hm = state.map
    try:
        if all(ctrl[_hex(state, p)] == SIDE_CODE["axis"] for p in ("Moscow", "Leningrad")):
            return _scored(state, {"winner": "axis", "level": "Axis decisive victory", "rule": "ETO-7.1-core",
                                   "why": "the Axis controls Moscow and Leningrad"})
    except KeyError:
        pass
    ta = terrain_arrays(state)
    axis_home = np.zeros(hm.size, dtype=bool)
    for n in ("GE", "RO", "HU"):
        if n in state.ruleset.tables["units"]["nations"]:
            axis_home |= home_mask(state, n, original=True)
    for u in state.units_by_id.values():
        if u.side == "allies" and values.on_map(u) and values.is_combat_unit(state, u):
            i = hm.index(u.location)
            if axis_home[i] and ta.city_resource[i]:
                return _scored(state, {"winner": "allies", "level": "Soviet decisive victory",
                                       "rule": "ETO-7.1-core", "why": f"{u.id} occupies {u.location}"})
    return None


def _scored(state: State, result: dict[str, Any]) -> dict[str, Any]:
    """A sudden-death result with the Axis VP held now, as :func:`final` gives them, so every
    game's batch summary has its VP."""
    vp, detail = axis_vp(state)
    return {**result, "axis_vp": vp, "vp": detail}


def final(state: State) -> dict[str, Any]:
    vp, detail = axis_vp(state)
    result = level(state, vp)
    return {"winner": winner_of(result), "level": result, "rule": "ETO-7.1-core", "axis_vp": vp, "vp": detail}
