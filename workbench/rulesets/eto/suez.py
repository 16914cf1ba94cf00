"""The Suez Adds box (ETO-37.7).

British infantry eliminated in Africa, Asia, on a Mediterranean island or within
three hexes of a Mediterranean port may go to the Suez Adds box instead of the
force pool; so may up to half of the British infantry added in a winter.  Units
are built from the box at Cairo or Mosul, ignoring enemy ZOC; when both cities
are friendly to the Axis the box empties into the force pool.

Flow: :func:`losses.eliminate` marks an eligible unit (prop ``suez_eligible``);
in the next seasonal Construction Step 3 the British player moves it with
``{"kind": "build", "suez": "box", "unit": id}`` (winter: ``"suez": "pool"``
the other way), after which the option lapses (ruling in docs/rulings-eto.md).
The map reading (which countries are Africa and Asia, the Mediterranean sea
areas, island size) is data: ``force_pools.toml [suez_adds]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import stacking, values
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.terrain import hex_lonlat, land_masses, terrain_arrays
from workbench.rulesets.eto.values import FORCE_POOL, track

ELIGIBLE = "suez_eligible"            # prop: may still be moved to the box (eliminated where 37.7 allows)
ADDED = "suez_added"                  # prop: a British infantry addition of this winter
ALLOWED = "suez_adds.from_additions"  # track: winter additions that may still go to the box


def table(state: State) -> dict[str, Any]:
    """ETO-37.7: force_pools.toml [suez_adds]."""
    return state.ruleset.tables["force_pools"]["suez_adds"]


def box(state: State) -> str:
    return str(table(state)["box"])


def eligible_unit(state: State, unit: Unit) -> bool:
    """ETO-37.7: "British infantry units" (no other type may use the box)."""
    t = table(state)
    return unit.nation in t["nations"] and values.unit_class(state, unit) in t["classes"]


def entry_hexes(state: State) -> list[str]:
    """ETO-37.7: the hexes of Cairo and Mosul (``entry_cities``)."""
    return [state.map.hex_of(name) for name in table(state)["entry_cities"]]


def closed(state: State) -> bool:
    """ETO-37.7: "If both of these cities are friendly to the Axis" the box cannot be used."""
    ctrl = control(state)
    return all(ctrl[state.map.index(h)] == SIDE_CODE["axis"] for h in entry_hexes(state))


def _med_islands(state: State, land: np.ndarray, touches_med: np.ndarray, max_hexes: int) -> np.ndarray:
    """Mediterranean islands: land masses cut off by all-sea hexsides (:func:`land_masses`), of at
    most ``max_hexes`` hexes, with a hex on a Mediterranean sea area."""
    comp = land_masses(state)
    sizes = np.bincount(comp[land], minlength=comp.max() + 1)
    small = land & (sizes[comp] <= max_hexes)
    return small & np.isin(comp, np.unique(comp[small & touches_med]))


def mask(state: State) -> np.ndarray:
    """ETO-37.7: hexes where an eliminated British infantry unit may go to the box: Africa, Asia,
    a Mediterranean island, or within three hexes of a port on the Mediterranean (incl. Adriatic
    and Aegean).  Computed once per game (the regions are a rule table)."""
    return state.game.cached("eto.suez_mask", lambda: _mask(state))


def _mask(state: State) -> np.ndarray:
    import shapely

    hm = state.map
    ta = terrain_arrays(state)
    t = table(state)
    reg = t["regions"]
    sea = np.array([s or "" for s in hm.hexes["sea_area"].to_list()], dtype=object)
    med_sea = np.isin(sea, list(reg["mediterranean_seas"]))
    nb = hm.neighbors
    touches_med = ((nb >= 0) & med_sea[np.maximum(nb, 0)]).any(axis=1)
    out = np.isin(ta.country, list(reg["africa"]) + list(reg["asia"])) & ta.land
    lon, lat = hex_lonlat(state)
    for part in reg.get("asia_parts", []):
        inside = shapely.contains_xy(shapely.Polygon(part["polygon"]), lon, lat)
        out |= inside & (ta.country == part["country"]) & ta.land
    out |= _med_islands(state, ta.land, touches_med, int(reg["island_max_hexes"]))
    # Within three hexes of a Mediterranean port (hex count, terrain ignored)
    near = np.array([bool(p) for p in hm.hexes["port"].to_list()]) & touches_med
    for _ in range(int(t["port_hexes"])):
        near = near | ((nb >= 0) & near[np.maximum(nb, 0)]).any(axis=1)
    out |= near & ta.land
    return out


def may_go(state: State, unit: Unit, label: str) -> bool:
    """ETO-37.7: an eliminated British infantry unit may go to the box instead of the force pool
    (not while Cairo and Mosul are both Axis-friendly)."""
    if not values.on_map_label(label) or not eligible_unit(state, unit) or closed(state):
        return False
    return bool(mask(state)[state.map.index(label)])


def check(state: State) -> None:
    """ETO-37.7: "If both of these cities [Cairo, Mosul] are friendly to the Axis, units in the
    Suez Adds box must be moved to the Western Allies force pool"."""
    name = box(state)
    inside = sorted((u for u in state.units_by_id.values() if u.location == name), key=lambda u: u.id)
    if not inside or not closed(state):
        return
    for u in inside:
        u.location = FORCE_POOL
        u.props["pool_of"] = values.major_of(state, u.nation)
    state.emit("suez_adds", side="allies", rule="ETO-37.7",
               text=f"Cairo and Mosul are both Axis-friendly: {', '.join(u.id for u in inside)} → force pool",
               units=[u.id for u in inside])


def placement_ok(state: State, unit: Unit, label: str) -> Refusal | None:
    """ETO-37.7, 37.6: a unit built from the box enters at Cairo or Mosul, one not friendly to
    the Axis; "Enemy ZOC does not affect this placement" (nor home country or supply)."""
    entries = entry_hexes(state)
    names = " or ".join(table(state)["entry_cities"])
    if label not in entries:
        return Refusal("ETO-37.7", f"a unit built from the Suez Adds box enters at {names} "
                                   f"({', '.join(entries)}), not {label!r}")
    if control(state)[state.map.index(label)] == SIDE_CODE["axis"]:
        return Refusal("ETO-37.7", f"{label} is friendly to the Axis")
    if not stacking.fits(state, label, unit.side, [unit]):
        return Refusal("ETO-24.2", f"{label} cannot hold another unit")
    return None


def why_not(state: State, side: str, order: dict[str, Any]) -> Refusal | None:
    """ETO-37.7: may this unit move to ("box") or from ("pool") the Suez Adds box now?"""
    u = state.units_by_id.get(str(order.get("unit", "")))
    where = order.get("suez")
    if u is None or u.side != side:
        return Refusal("ETO-37.7", f"{order.get('unit')!r} is not one of your units")
    if not eligible_unit(state, u):
        return Refusal("ETO-37.7", f"only British infantry may use the Suez Adds box, not {u.id} ({u.nation} {u.type})")
    winter = state.turn_label.endswith("winter")
    if where == "box":
        if u.location != FORCE_POOL:
            return Refusal("ETO-37.7", f"{u.id} is not in the force pool")
        if closed(state):
            return Refusal("ETO-37.7", "Cairo and Mosul are both friendly to the Axis; the Suez Adds box is closed")
        if u.props.get(ELIGIBLE):
            return None
        if winter and u.props.get(ADDED) == state.turn_label:
            if track(state, ALLOWED) <= 0:
                return Refusal("ETO-37.7", "no more than one half of this winter's British infantry additions "
                                           "may go to the box")
            return None
        return Refusal("ETO-37.7", f"{u.id} was not eliminated in Africa, Asia, on a Mediterranean island or "
                                   f"within {table(state)['port_hexes']} hexes of a Mediterranean port, nor added "
                                   "to the pool this winter")
    if where == "pool":
        if u.location != box(state):
            return Refusal("ETO-37.7", f"{u.id} is not in the Suez Adds box")
        if not winter:
            return Refusal("ETO-37.7", "units move from the Suez Adds box to the force pool only in winter seasonal turns")
        return None
    return Refusal("ETO-37.7", f"'suez' is 'box' or 'pool', not {where!r}")


def move(state: State, u: Unit, where: str) -> None:
    """ETO-37.7: move a British infantry unit between the force pool and the Suez Adds box."""
    if where == "box":
        if not u.props.pop(ELIGIBLE, None):
            state.tracks[ALLOWED] = track(state, ALLOWED) - 1
        u.props.pop(ADDED, None)
        u.props.pop("pool_of", None)
        u.location = box(state)
        text = f"{u.id} goes to the Suez Adds box"
    else:
        u.location = FORCE_POOL
        u.props["pool_of"] = values.major_of(state, u.nation)
        text = f"{u.id} moves from the Suez Adds box to the force pool"
    state.emit("suez_adds", side=u.side, rule="ETO-37.7", text=text, unit=u.id, to=u.location)
