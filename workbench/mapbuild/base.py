"""The build steps both maps share: land and water, countries, terrain, sides.

A :class:`MapBuild` holds the per-hex arrays (one numpy array per output
column), the hexside feature rows and the places while a map module
(:mod:`~workbench.mapbuild.europe`, :mod:`~workbench.mapbuild.north_america`)
adds what only its game needs.  Classification rules (documented in
``docs/maps.md``):

* a hex is **land** when land covers at least ``land_threshold`` of it, or when
  it holds an authored place and any land at all (islands such as Malta);
* a water hex is a **lake** when most of its water lies in authored lake
  polygons, else **sea**;
* a land hex's **country** is the country with the largest area in it;
* its **terrain** is the terrain class with the largest area of its land, the
  land outside every authored terrain polygon counting as ``clear``;
* a land hex is **coastal** when a neighbour is a sea hex (and lake hex on maps
  whose rules count lake shores as coastal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import shapely

from workbench.mapbuild import places as placemod
from workbench.mapbuild import sources
from workbench.mapbuild.borders import flag, historical_countries, majority
from workbench.mapbuild.grid import GeoGrid
from workbench.mapbuild.hexsides import CornerGraph, trim_ends, water_fraction
from workbench.mapbuild.overlay import area_by_key, points_in


@dataclass
class MapSpec:
    name: str
    crs: str
    flat_to_flat_km: float
    bbox: tuple[float, float, float, float]  # projected metres
    source_dir: Path
    rename: dict[str, str | None]
    sea_terrain: str
    lake_terrain: str
    land_threshold: float = 0.3
    coastal_on_lakes: bool = False
    year: str = ""


@dataclass
class MapBuild:
    spec: MapSpec
    grid: GeoGrid
    cols: dict[str, np.ndarray] = field(default_factory=dict)
    side_rows: list[tuple[int, str, str]] = field(default_factory=list)  # (side, feature, name)
    places: list[placemod.Place] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    countries: gpd.GeoDataFrame | None = None
    land_geom: shapely.Geometry | None = None
    lake_geom: shapely.Geometry | None = None

    # -- helpers ------------------------------------------------------------------
    def src(self, name: str) -> Path:
        return self.spec.source_dir / name

    def geo(self, name: str) -> gpd.GeoDataFrame:
        return sources.read_geojson(self.src(name), self.spec.crs)

    def add_sides(self, sides: list[int] | np.ndarray, feature: str, name: str = "") -> None:
        self.side_rows.extend((int(s), feature, name) for s in sides)

    def side_mask(self, feature: str) -> np.ndarray:
        m = np.zeros(len(self.grid.sides["hex"]), dtype=bool)
        idx = [s for s, f, _ in self.side_rows if f == feature]
        m[idx] = True
        return m


def start(spec: MapSpec) -> MapBuild:
    """Grid, land/water, countries and terrain: everything but game specifics."""
    grid = GeoGrid.covering(spec.bbox, spec.flat_to_flat_km * 1000.0, spec.crs)
    b = MapBuild(spec, grid)
    pad = 3 * grid.circumradius
    xmin, ymin, xmax, ymax = spec.bbox
    clip = shapely.box(xmin - 2 * pad, ymin - 2 * pad, xmax + 2 * pad, ymax + 2 * pad)

    # countries and land ---------------------------------------------------------------
    ne = sources.natural_earth_countries(spec.crs)
    overrides = b.geo("borders.geojson")
    lakes = b.geo("water.geojson")
    countries = historical_countries(ne, spec.rename, overrides, lakes, clip)
    b.countries = countries
    names = countries["country"].tolist()
    areas = area_by_key(grid, countries.geometry.values, np.arange(len(names)), len(names))
    land_area = areas.sum(axis=1)
    land_geom = shapely.union_all(countries.geometry.values)
    b.land_geom = land_geom
    kinds = lakes["kind"] if "kind" in lakes.columns else [None] * len(lakes)
    lake_only = [g for g, k in zip(lakes.geometry.values, kinds, strict=True) if k != "sea"]
    lake_geom = shapely.difference(shapely.union_all(lake_only), land_geom) \
        if lake_only else shapely.Polygon()
    b.lake_geom = lake_geom
    lake_area = area_by_key(grid, np.array([lake_geom]), np.array([0]), 1)[:, 0]

    # places decide which tiny islands stay land ------------------------------------------
    b.places = placemod.load(sources.read_csv(b.src("places.csv")), spec.crs)
    raw = grid.locate([p.x for p in b.places], [p.y for p in b.places])
    has_place = np.zeros(grid.size, dtype=bool)
    has_place[raw[raw >= 0]] = True
    frac = land_area / grid.hex_area
    is_land = (frac >= spec.land_threshold) | (has_place & (frac > 0.002))
    water_area = np.maximum(grid.hex_area - land_area, 0.0)
    is_lake = ~is_land & (lake_area >= 0.5 * water_area)

    country = majority(areas, names)
    country[~is_land] = None

    # terrain -----------------------------------------------------------------------------
    terr = b.geo("terrain.geojson")
    classes = sorted(set(terr["terrain"]))
    # later polygons win where they overlap earlier ones (an icecap inside tundra)
    eff = list(terr.geometry.values)
    covered = shapely.Polygon()
    for k in range(len(eff) - 1, -1, -1):
        g = eff[k]
        eff[k] = shapely.difference(g, covered)
        covered = shapely.union(covered, g)
    tgeoms = [shapely.intersection(shapely.union_all(
        [e for e, t in zip(eff, terr["terrain"], strict=True) if t == c]), land_geom)
        for c in classes]
    tareas = area_by_key(grid, np.array(tgeoms, dtype=object), np.arange(len(classes)),
                         len(classes))
    clear = np.maximum(land_area - tareas.sum(axis=1), 0.0)
    allareas = np.concatenate([clear[:, None], tareas], axis=1)
    terrain = majority(allareas, ["clear", *classes], min_area=-1.0)
    terrain[~is_land & ~is_lake] = spec.sea_terrain
    terrain[is_lake] = spec.lake_terrain

    nbs = grid.hexgrid.neighbors
    sea = ~is_land & ~is_lake
    wet = sea | is_lake if spec.coastal_on_lakes else sea
    coastal = is_land & np.any(np.where(nbs >= 0, wet[np.maximum(nbs, 0)], False), axis=1)

    b.cols.update(
        terrain=terrain.astype(object), country=country, coastal=coastal,
        land_pct=np.round(np.minimum(frac, 1.0) * 100).astype(np.int8),
    )
    b.cols["_land"] = is_land
    b.cols["_sea"] = sea
    b.cols["_lake"] = is_lake

    # water hexsides ----------------------------------------------------------------------
    s = grid.sides
    both_land = is_land[s["hex"]] & is_land[s["nb"]]
    land_share = 1.0 - water_fraction(grid, shapely.union_all([lake_geom, shapely.difference(
        clip, land_geom)]))
    lake_share = water_fraction(grid, lake_geom)
    sea_share = 1.0 - land_share - lake_share
    b.add_sides(np.nonzero(both_land & (sea_share >= 0.5))[0], "all-sea")
    b.add_sides(np.nonzero(both_land & (lake_share >= 0.5))[0], "lake")
    b.cols["_both_land"] = both_land
    return b


def borders(b: MapBuild) -> None:
    """A border hexside between land hexes of different countries."""
    s = b.grid.sides
    c = b.cols["country"]
    ca, cb = c[s["hex"]], c[s["nb"]]
    diff = b.cols["_both_land"] & (ca != cb)
    for k in np.nonzero(diff)[0].tolist():
        pair = sorted([str(ca[k]), str(cb[k])])
        b.side_rows.append((k, "border", "|".join(pair)))


def edge_chains(b: MapBuild, gdf: gpd.GeoDataFrame, feature_col: str = "feature") -> None:
    """Rivers, canals and straits as connected hexside chains (see :mod:`hexsides`)."""
    graph = CornerGraph(b.grid)
    land_side = b.cols["_both_land"]
    for rec in gdf.itertuples(index=False):
        chain = graph.snap_line(rec.geometry)
        feat = getattr(rec, feature_col)
        if feat == "river":  # a river reaching the sea stops at the coast
            chain = trim_ends(chain, ~land_side)
        b.add_sides(chain, feat, rec.name)


def locate_places(b: MapBuild) -> None:
    land = b.cols["_land"]
    b.log.extend(placemod.locate(b.grid, b.places, land, b.cols["coastal"], b.cols["country"]))


def sea_neighbour(b: MapBuild) -> np.ndarray:
    nbs = b.grid.hexgrid.neighbors
    sea = b.cols["_sea"]
    return np.any(np.where(nbs >= 0, sea[np.maximum(nbs, 0)], False), axis=1)


def truthy(v: str | None) -> bool:
    return str(v or "").strip().lower() in ("1", "true", "yes", "y")


__all__ = ["MapSpec", "MapBuild", "start", "borders", "edge_chains", "locate_places",
           "sea_neighbour", "truthy", "flag", "points_in"]
