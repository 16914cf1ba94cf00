"""Named places (cities, resource hexes, capitals, ports) placed on hexes.

A place goes in the hex containing its coordinates.  At 50-75 km a coastal
city's point can fall in a hex that is mostly sea; then the place moves to the
nearest land hex of its own country, and a port moves to the nearest coastal
hex, because a port must touch the sea for the rules to work.  Every move is
reported so the author can check it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from pyproj import Transformer

from workbench.mapbuild.grid import GeoGrid


@dataclass
class Place:
    name: str
    lon: float
    lat: float
    attrs: dict[str, str]
    x: float = 0.0
    y: float = 0.0
    hex: int = -1
    moved: str = ""
    extra: dict[str, object] = field(default_factory=dict)


def load(rows: list[dict[str, str]], crs: str) -> list[Place]:
    tr = Transformer.from_crs("EPSG:4326", crs, always_xy=True)
    out = []
    for row in rows:
        lon, lat = float(row["lon"]), float(row["lat"])
        attrs = {k: v for k, v in row.items() if k not in ("name", "lon", "lat")}
        x, y = tr.transform(lon, lat)
        out.append(Place(row["name"], lon, lat, attrs, float(x), float(y)))
    return out


def _nearest(grid: GeoGrid, p: Place, candidates: np.ndarray) -> int:
    if candidates.size == 0:
        return -1
    d = np.hypot(grid.x[candidates] - p.x, grid.y[candidates] - p.y)
    return int(candidates[np.argmin(d)])


def locate(grid: GeoGrid, places: list[Place], land: np.ndarray, coastal: np.ndarray,
           country: np.ndarray, max_ring: int = 2) -> list[str]:
    """Set ``Place.hex``; return a log line per moved or unplaced place."""
    log = []
    idx = grid.locate([p.x for p in places], [p.y for p in places])
    for p, h in zip(places, idx.tolist(), strict=True):
        p.hex = h
        if h < 0:
            log.append(f"{p.name}: off the map")
            continue
        want_port = bool(p.attrs.get("port"))
        own = p.attrs.get("country", "")
        ok = land[h] and (not want_port or coastal[h]) and (not own or country[h] == own)
        if ok:
            continue
        near = _ring_hexes(grid, h, max_ring)
        good = land[near] & ((country[near] == own) if own else True)
        if want_port:
            good &= coastal[near]
        new = _nearest(grid, p, near[good])
        if new < 0:
            good = land[near] & (coastal[near] if want_port else True)
            new = _nearest(grid, p, near[good])
        if new < 0:
            log.append(f"{p.name}: no suitable hex near {grid.hexgrid.label(h)}")
            continue
        if new == h:
            log.append(f"{p.name}: kept in {grid.hexgrid.label(h)} (no hex of its own country near)")
            continue
        p.moved = f"{grid.hexgrid.label(h)}->{grid.hexgrid.label(new)}"
        p.hex = new
        log.append(f"{p.name}: moved {p.moved}")
    return log


def _ring_hexes(grid: GeoGrid, h: int, radius: int) -> np.ndarray:
    seen = {h}
    frontier = [h]
    nbs = grid.hexgrid.neighbors
    for _ in range(radius):
        nxt = []
        for a in frontier:
            for b in nbs[a].tolist():
                if b >= 0 and b not in seen:
                    seen.add(b)
                    nxt.append(b)
        frontier = nxt
    return np.array(sorted(seen), dtype=np.int64)
