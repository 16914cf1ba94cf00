"""Historical countries: Natural Earth's modern borders, renamed and overridden.

Natural Earth 1:110m has today's borders.  A map of 1 September 1939 (ETO) or
1941 (SS Amerika) keeps Natural Earth's coastlines and land but redraws the
political lines with authored override polygons:

1. each modern country is renamed to its historical owner (``rename``; e.g.
   Austria and Czechia become Germany, Moldova becomes Romania);
2. the override polygons are applied in file order: the part of the land inside
   a polygon is taken from whoever had it and given to the polygon's country,
   so the polygons can be coarse and spill into the sea;
3. polygons marked ``"add_land": true`` create land Natural Earth 1:110m lacks
   (Malta, Gotland, Rhodes, ...);
4. lakes marked ``"cut": true`` are removed from the land.
"""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import shapely


def historical_countries(ne: gpd.GeoDataFrame, rename: dict[str, str | None],
                         overrides: gpd.GeoDataFrame, lakes: gpd.GeoDataFrame,
                         clip: shapely.Geometry) -> gpd.GeoDataFrame:
    """Country polygons (projected) in the map's year, sorted by name."""
    names = [rename.get(n, n) for n in ne["name"]]
    geoms: dict[str, shapely.Geometry] = {}
    for name, g in zip(names, ne.geometry.values, strict=True):
        if not name:
            continue
        g = shapely.intersection(shapely.make_valid(g), clip)
        if g.is_empty:
            continue
        geoms[name] = shapely.union(geoms[name], g) if name in geoms else g
    land = shapely.union_all(list(geoms.values()))
    for rec in overrides.itertuples(index=False):
        g = shapely.intersection(shapely.make_valid(rec.geometry), clip)
        add = flag(getattr(rec, "add_land", None))
        piece = g if add else shapely.intersection(g, land)
        if piece.is_empty:
            continue
        for name in list(geoms):
            geoms[name] = shapely.difference(geoms[name], piece)
        owner = rec.country
        geoms[owner] = shapely.union(geoms[owner], piece) if owner in geoms else piece
        if add:
            land = shapely.union(land, piece)
    cut = [g for g, c in zip(lakes.geometry.values, lakes.get("cut", [None] * len(lakes)),
                             strict=True) if flag(c)]
    if cut:
        cut_u = shapely.union_all(cut)
        geoms = {n: shapely.difference(g, cut_u) for n, g in geoms.items()}
    rows = sorted((n, g) for n, g in geoms.items() if not g.is_empty and g.area > 0)
    return gpd.GeoDataFrame({"country": [n for n, _ in rows]},
                            geometry=[g for _, g in rows], crs=ne.crs)


def flag(value: object) -> bool:
    """A GeoJSON boolean property (missing, null or NaN count as false)."""
    return isinstance(value, bool | np.bool_) and bool(value)


def majority(areas: np.ndarray, names: list[str], min_area: float = 0.0) -> np.ndarray:
    """Per hex, the name with the largest area (``None`` where all are <= min_area).

    Ties go to the first name in ``names`` (sorted), so the result is stable.
    """
    best = np.argmax(areas, axis=1)
    top = areas[np.arange(areas.shape[0]), best]
    out = np.array(names, dtype=object)[best]
    out[top <= min_area] = None
    return out
