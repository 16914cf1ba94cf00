"""Scenario victory (authored, GAP-16; the scenario's ``[victory]`` table).

Axis VP = the ``[[victory.objectives]]`` it controls (Barbarossa: Moscow 10, Leningrad 6,
Kiev 4, Rostov 3) + ``[victory.resource_hexes] vp_each`` per other resource or city resource
hex inside the USSR's original borders it controls + the air war (``[victory.air_war]``: air
steps lost over the game by side and class, ``state.markers["air_losses"]``, and destroyed
bases near a place) + the naval war (``[victory.naval_war]``: ships sunk by side and type).  Levels are read from ``[[victory.levels]]``.  Sudden death at the end
of any monthly turn: each ``[[victory.sudden_death]]`` names its test in ``when``:
``controls`` (the side holds every one of ``places``), ``unit_in_city_resource`` (a land unit
of the side in a city resource hex inside the original borders of ``nations``) or
``no_air_near`` (no air unit of ``classes`` of the other side based within ``radius`` of
``place``).
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
    detail.update(air_war_vp(state))
    detail.update(naval_war_vp(state))
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
    """The first ``[[victory.sudden_death]]`` condition that holds now, scored (GAP-16); the
    conquest of the Axis's last member ends any game (40.1)."""
    fallen = (state.markers.get("politics") or {}).get("axis_fallen")
    if fallen:
        levels = state.game.scenario.raw.get("victory", {}).get("levels", [])
        best = str(levels[-1]["result"]) if levels else "Allied decisive victory"  # the levels run Axis-best first
        return _scored(state, {"winner": "allies", "level": best, "rule": "ETO-40.1",
                               "why": f"the Axis's last member was conquered in {fallen}"})
    for entry in state.game.scenario.raw.get("victory", {}).get("sudden_death", []):
        why = _holds(state, entry)
        if why:
            side = entry.get("side")
            return _scored(state, {"winner": side if side in SIDE_CODE else winner_of(entry["result"]),
                                   "level": entry["result"], "rule": entry.get("rule", "ETO-7.1-core"), "why": why})
    return None


def _holds(state: State, entry: dict[str, Any]) -> str | None:
    """Why a sudden-death condition holds now (None if it does not)."""
    hm = state.map
    ctrl = control(state)
    side = entry.get("side", "axis")
    when = entry.get("when")
    if when == "controls":
        places = list(entry.get("places", []))
        if places and all(ctrl[_hex(state, p)] == SIDE_CODE[side] for p in places):
            return f"the {side.capitalize()} control {' and '.join(places)}"
        return None
    if when == "unit_in_city_resource":
        ta = terrain_arrays(state)
        home = np.zeros(hm.size, dtype=bool)
        for n in entry.get("nations", []):
            if n in state.ruleset.tables["units"]["nations"]:
                home |= home_mask(state, n, original=True)
        for u in state.units_by_id.values():
            if u.side == side and values.on_map(u) and values.is_combat_unit(state, u):
                i = hm.index(u.location)
                if home[i] and ta.city_resource[i]:
                    return f"{u.id} occupies {u.location}"
        return None
    if when == "no_air_near":
        centre = _hex(state, entry["place"])
        radius = int(entry.get("radius", 0))
        classes = set(entry.get("classes", values.AIR_COUNTER_CLASSES))
        other = values.other(side)
        for u in state.units_by_id.values():  # based there, or flying from there (a bombing box too)
            base = str(u.props.get("base") or u.location)
            if u.side == other and values.unit_class(state, u) in classes and values.on_map_label(base) \
                    and u.location != values.FORCE_POOL and hm.distance(hm.label(centre), base) <= radius:
                return None
        return f"no {other} {'/'.join(sorted(classes))} is based within {radius} hexes of {entry['place']}"
    return None


def counted_vp(entries: list[dict[str, Any]], lost: dict[str, Any], what: str, label: str) -> dict[str, int]:
    """VP per entry: ``vp`` for every ``per`` losses of ``side`` counted over the entry's ``what``
    keys (air classes, ship types) in a ``side.key -> count`` record, rounded down."""
    out: dict[str, int] = {}
    for e in entries:
        n = sum(int(lost.get(f"{e['side']}.{k}", 0)) for k in e.get(what, []))
        vp = int(e.get("vp", 1)) * (n // max(int(e.get("per", 1)), 1))
        if vp:
            out[e.get("label", f"{e['side']} {label}")] = vp
    return out


def air_war_vp(state: State) -> dict[str, int]:
    """``[victory.air_war]``: VP for air steps lost over the game (each ``steps_lost`` entry:
    ``side``, ``classes``, ``vp`` per ``per`` steps, rounded down) and for destroyed bases of
    ``destroyed_bases.side`` within ``radius`` of ``near`` (``vp_each``)."""
    aw = state.game.scenario.raw.get("victory", {}).get("air_war")
    if not aw:
        return {}
    out = counted_vp(aw.get("steps_lost", []), state.markers.get("air_losses", {}), "classes", "air steps lost")
    db = aw.get("destroyed_bases")
    if db:
        hm = state.map
        centre = hm.label(_hex(state, db["near"]))
        n = sum(1 for h, rec in state.markers.get("destroyed", {}).items()
                if hm.has_hex(h) and hm.distance(centre, h) <= int(db.get("radius", 0))
                and rec.get("side", db.get("side")) == db.get("side"))
        if n:
            out[db.get("label", f"bases destroyed near {db['near']}")] = n * int(db.get("vp_each", 1))
    return out


def naval_war_vp(state: State) -> dict[str, int]:
    """``[victory.naval_war]``: VP for naval units sunk over the game (each ``ships_lost`` entry:
    ``side``, ``kinds`` such as "BB", "DD", "STP", ``vp`` per ``per`` units, rounded down), read
    from ``state.markers["naval_losses"]`` (``naval_units.sink``)."""
    nw = state.game.scenario.raw.get("victory", {}).get("naval_war")
    if not nw:
        return {}
    return counted_vp(nw.get("ships_lost", []), state.markers.get("naval_losses", {}), "kinds", "ships sunk")


def _scored(state: State, result: dict[str, Any]) -> dict[str, Any]:
    """A sudden-death result with the Axis VP held now, as :func:`final` gives them, so every
    game's batch summary has its VP."""
    vp, detail = axis_vp(state)
    return {**result, "axis_vp": vp, "vp": detail}


def final(state: State) -> dict[str, Any]:
    vp, detail = axis_vp(state)
    result = level(state, vp)
    return {"winner": winner_of(result), "level": result, "rule": "ETO-7.1-core", "axis_vp": vp, "vp": detail}
