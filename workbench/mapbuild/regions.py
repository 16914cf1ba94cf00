"""Point-in-polygon attributes: weather zones, sea areas, home-country regions.

These are zones a rulebook draws with coloured or dashed lines across hexes, so
a hex belongs to the zone containing its centre.  Authored polygons are applied
in file order, later ones winning, which lets a file state a broad default zone
first and carve exceptions after it.
"""

from __future__ import annotations

from collections.abc import Sequence

import geopandas as gpd
import numpy as np
import shapely

from workbench.mapbuild.grid import GeoGrid


def by_centre(grid: GeoGrid, gdf: gpd.GeoDataFrame, column: str, default=None,
              mask: np.ndarray | None = None, country: np.ndarray | None = None) -> np.ndarray:
    """Per-hex value of ``column`` from the last polygon containing the hex centre.

    ``mask`` limits the hexes considered; a polygon with a ``country`` property
    only labels hexes of that country (so a coarse box around Sicily labels
    only Italian hexes).
    """
    out = np.full(grid.size, default, dtype=object)
    consider = np.ones(grid.size, dtype=bool) if mask is None else mask
    has_country = "country" in gdf.columns and country is not None
    for k, geom in enumerate(gdf.geometry.values):
        shapely.prepare(geom)
        inside = shapely.contains_xy(geom, grid.x, grid.y) & consider
        if has_country:
            c = gdf["country"].iloc[k]
            if isinstance(c, str) and c:
                inside &= country == c
        out[inside] = gdf[column].iloc[k]
    return out


def nearest_fill(grid: GeoGrid, values: np.ndarray, need: np.ndarray,
                 polys: gpd.GeoDataFrame, column: str) -> np.ndarray:
    """Fill ``need`` hexes left without a value from the nearest polygon."""
    todo = np.nonzero(need & np.array([v is None for v in values]))[0]
    if todo.size == 0 or len(polys) == 0:
        return values
    tree = shapely.STRtree(polys.geometry.values)
    idx = tree.nearest(grid.points[todo])
    values = values.copy()
    values[todo] = polys[column].values[idx]
    return values


def ordered_unique(values: Sequence) -> list:
    seen: list = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen
