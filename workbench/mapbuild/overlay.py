"""Areal overlay of the hex grid with polygon layers (countries, terrain, lakes).

Majority-area classification needs, per hex, the area of each polygon class
inside it.  An STRtree over the hexes finds candidate pairs; hexes lying wholly
inside a polygon part take the full hex area without a GEOS intersection, which
is most hexes of any large country or terrain region.
"""

from __future__ import annotations

import numpy as np
import shapely

from workbench.mapbuild.grid import GeoGrid


def explode(geoms: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split multi-part geometries into parts, each keeping its key."""
    parts, idx = shapely.get_parts(geoms, return_index=True)
    ok = ~shapely.is_empty(parts)
    return parts[ok], np.asarray(keys)[idx[ok]]


def area_by_key(grid: GeoGrid, geoms: np.ndarray, keys: np.ndarray,
                n_keys: int) -> np.ndarray:
    """``float[N, n_keys]``: area (m²) of each key's polygons inside each hex.

    ``keys`` are integer class codes ``0..n_keys-1``; overlapping polygons of the
    same key are counted twice, so callers dissolve per key first.
    """
    out = np.zeros((grid.size, n_keys))
    parts, pkeys = explode(np.asarray(geoms), np.asarray(keys))
    if parts.size == 0:
        return out
    tree = shapely.STRtree(grid.polygons)
    pidx, hidx = tree.query(parts, predicate="intersects")
    shapely.prepare(parts)
    inside = shapely.contains_properly(parts[pidx], grid.polygons[hidx])
    area = np.full(pidx.shape, grid.hex_area)
    cut = ~inside
    area[cut] = shapely.area(shapely.intersection(grid.polygons[hidx[cut]], parts[pidx[cut]]))
    np.add.at(out, (hidx, pkeys[pidx]), area)
    return out


def points_in(geom: shapely.Geometry, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Vectorised point-in-polygon against one (prepared) geometry."""
    if geom is None or geom.is_empty:
        return np.zeros(np.shape(x), dtype=bool)
    shapely.prepare(geom)
    return shapely.contains_xy(geom, x, y)
