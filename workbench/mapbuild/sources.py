"""Reading the map sources under ``maps/sources/`` (never ``../shared`` at run time).

Authored files are plain GeoJSON (lon/lat, EPSG:4326) and CSV with ``#`` comment
lines, read with the standard library so the build does not depend on GDAL
driver quirks and stays byte-for-byte reproducible.  Natural Earth shapefiles
are read through pyogrio.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import geopandas as gpd
import shapely

ROOT = Path(__file__).resolve().parents[2]
MAPS_DIR = ROOT / "maps"
SOURCES = MAPS_DIR / "sources"
NATURAL_EARTH = SOURCES / "naturalearth"

#: Densify lon/lat geometry to this step (degrees) before projecting, so long
#: authored edges (a border drawn as a few points) bend like the real parallel.
DENSIFY_DEG = 0.25


def read_geojson(path: Path, crs: str | None = None) -> gpd.GeoDataFrame:
    """A FeatureCollection as a GeoDataFrame, in file order, optionally projected."""
    fc = json.loads(Path(path).read_text())
    feats = fc["features"]
    if not feats:
        return gpd.GeoDataFrame({"geometry": []}, geometry="geometry", crs="EPSG:4326")
    gdf = gpd.GeoDataFrame.from_features(feats, crs="EPSG:4326")
    return project(gdf, crs) if crs else gdf


def read_meta(path: Path) -> dict[str, Any]:
    """The foreign top-level members of a GeoJSON file (source, rationale, ...)."""
    fc = json.loads(Path(path).read_text())
    return {k: v for k, v in fc.items() if k not in ("type", "features")}


def project(gdf: gpd.GeoDataFrame, crs: str) -> gpd.GeoDataFrame:
    """Densify in lon/lat, then project."""
    out = gdf.copy()
    out["geometry"] = shapely.segmentize(out.geometry.values, DENSIFY_DEG)
    return out.to_crs(crs)


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows of a CSV whose lines starting with ``#`` are comments (source notes)."""
    with Path(path).open(newline="", encoding="utf-8") as fh:
        lines = [ln for ln in fh if not ln.lstrip().startswith("#") and ln.strip()]
    return [{k: (v or "").strip() for k, v in row.items()} for row in csv.DictReader(lines)]


def read_json(path: Path) -> Any:
    return json.loads(Path(path).read_text())


def natural_earth_countries(crs: str) -> gpd.GeoDataFrame:
    gdf = gpd.read_file(NATURAL_EARTH / "naturalearth_lowres.shp", engine="pyogrio")
    return project(gdf[["name", "geometry"]], crs)


def natural_earth_cities() -> gpd.GeoDataFrame:
    return gpd.read_file(NATURAL_EARTH / "naturalearth_cities.shp", engine="pyogrio")
