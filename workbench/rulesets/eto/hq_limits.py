"""Where an HQ may stand: the interval between HQs (ETO-23.4) and the location limits of
the Middle East HQs (ETO-23.5).  Pure rules on the map and the units, below movement and
losses, which both need them (an HQ ends a move, or withdraws, only where these allow)."""

from __future__ import annotations

import numpy as np

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import values


def sea_between(state: State, a: int, b: int) -> bool:
    """Authored reading of 23.4: an all-sea hex on the straight hex line between two HQs."""
    hm = state.map
    n = int(hm.grid.distance(a, b))
    if n <= 1:
        return False
    qa, ra = hm.grid.q[a], hm.grid.r[a]
    qb, rb = hm.grid.q[b], hm.grid.r[b]
    t = np.linspace(0, 1, n + 1)[1:-1]
    q = qa + (qb - qa) * t + 1e-6
    r = ra + (rb - ra) * t + 1e-6
    x, z = q, r
    y = -x - z
    rx, ry, rz = np.round(x), np.round(y), np.round(z)
    dx, dy, dz = np.abs(rx - x), np.abs(ry - y), np.abs(rz - z)
    fix_x = (dx > dy) & (dx > dz)
    rx = np.where(fix_x, -ry - rz, rx)
    fix_z = ~fix_x & (dz >= dy)
    rz = np.where(fix_z, -rx - ry, rz)
    sea = hm.is_water
    for qq, rr in zip(rx.astype(int), rz.astype(int), strict=True):
        hits = np.flatnonzero((hm.grid.q == qq) & (hm.grid.r == rr))
        if hits.size and sea[hits[0]]:
            return True
    return False


def interval_violations(state: State, hq: Unit, at: str) -> str:
    """ETO-23.4: '' if ``hq`` may stand at ``at``; else which HQ is too close."""
    hm = state.map
    if not hm.has_hex(at):
        return ""  # authored: an off-map box is no distance from any hex (23.4 counts hexes)
    i = hm.index(at)
    ra = values.command_radius(state, hq)
    for other, j, rb in _hqs_on_map(state, hq.side):
        if other.id == hq.id:
            continue
        dist = int(hm.grid.distance(i, j))
        if not adj.hq_interval_ok(ra, rb, dist, False) and not sea_between(state, i, j):
            return f"{dist} hexes of {other.id} (at least {max(ra, rb)} needed)"
    return ""


def _hqs_on_map(state: State, side: str) -> list[tuple[Unit, int, int]]:
    """``side``'s HQs on the map, in unit order, with their hex and command radius: once per
    position (23.4 asks this for every hex an HQ could move to)."""
    def compute() -> list[tuple[Unit, int, int]]:
        return [(u, state.map.index(u.location), values.command_radius(state, u))
                for u in state.units_by_id.values()
                if u.side == side and values.on_map(u) and values.unit_class(state, u) == "hq"]

    return state.derived(("eto.hqs_on_map", side), compute, len(state.units_by_id))


def region_mask(state: State, unit: Unit) -> np.ndarray | None:
    """ETO-23.5: ``bool[N]`` of the hexes a location-limited HQ may occupy (None: no limit)."""
    region = values.type_row(state.ruleset.tables, unit.type).get("location_limit")
    if not region:
        return None
    from workbench.rulesets.eto.terrain import terrain_arrays

    countries = state.ruleset.tables["hq_regions"]["regions"][region]["countries"]
    return np.isin(terrain_arrays(state).country, countries)


def box_allows_hq(state: State, unit: Unit, box: str) -> bool:
    """ETO-23.5: may this HQ stand in the off-map ``box``?  Only a type listed in its region's
    ``box_types`` with the box in its ``boxes`` (the Middle East HQ and the Iraq transit box)."""
    region = values.type_row(state.ruleset.tables, unit.type).get("location_limit")
    if not region:
        return False
    row = state.ruleset.tables["hq_regions"]["regions"][region]
    return box in row.get("boxes", []) and unit.type in row.get("box_types", [])


def region_why_not(state: State, unit: Unit, label: str) -> Refusal | None:
    """ETO-23.5: why ``unit`` may not stand in ``label`` (a hex or an off-map box), or None."""
    if not state.map.has_hex(label):
        if box_allows_hq(state, unit, label):
            return None
        return Refusal("ETO-23.5", f"HQ {unit.id} may not be in the {label}; only the HQs 23.5 names may")
    mask = region_mask(state, unit)
    if mask is None or mask[state.map.index(label)]:
        return None
    return Refusal("ETO-23.5", f"{unit.id} is restricted to French Morocco eastward to Lebanon-Syria, Iraq and "
                               f"Persia; {label} is outside")
