"""Writing a built map: the HexMap folder (Parquet + meta.json) and a GeoPackage.

Output is deterministic (sorted rows, no timestamps, compact dtypes) so a
rebuild reproduces the committed frames exactly.  The GeoPackage is for GIS
users only; the game loads the Parquet folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import polars as pl
import shapely

from workbench.map import HexMap
from workbench.mapbuild.base import MapBuild

SIDE_SCHEMA = {"hex": pl.String, "dir": pl.Int8, "feature": pl.String, "name": pl.String}


def hex_frame(b: MapBuild, columns: list[tuple[str, str]]) -> pl.DataFrame:
    """The per-hex frame in dense order; ``columns`` gives (name, dtype) after the grid ones."""
    g = b.grid
    hg = g.hexgrid
    data: dict[str, pl.Series] = {
        "id": pl.Series("id", hg.labels.astype(str).tolist(), pl.String),
        "q": pl.Series("q", hg.q, pl.Int16),
        "r": pl.Series("r", hg.r, pl.Int16),
        "col": pl.Series("col", g.col, pl.Int16),
        "row": pl.Series("row", g.row, pl.Int16),
        "x": pl.Series("x", np.round(g.x, 1), pl.Float64),
        "y": pl.Series("y", np.round(g.y, 1), pl.Float64),
    }
    kinds = {"str": pl.String, "bool": pl.Boolean, "i8": pl.Int8, "i16": pl.Int16}
    for name, kind in columns:
        v = b.cols[name]
        if kind == "str":
            vals = [None if (x is None or x == "") else str(x) for x in v.tolist()]
            data[name] = pl.Series(name, vals, pl.String)
        else:
            data[name] = pl.Series(name, v, kinds[kind])
    return pl.DataFrame(data)


def side_frame(b: MapBuild) -> pl.DataFrame:
    s = b.grid.sides
    labels = b.grid.hexgrid.labels
    rows = sorted({(int(s["hex"][k]), int(s["dir"][k]), f, n) for k, f, n in b.side_rows})
    return pl.DataFrame(
        {"hex": [str(labels[h]) for h, _, _, _ in rows],
         "dir": [d for _, d, _, _ in rows],
         "feature": [f for _, _, f, _ in rows],
         "name": [n or None for _, _, _, n in rows]},
        schema=SIDE_SCHEMA,
    )


def place_frame(b: MapBuild, attr_cols: list[tuple[str, str]]) -> pl.DataFrame:
    labels = b.grid.hexgrid.labels
    ps = sorted((p for p in b.places if p.hex >= 0), key=lambda p: (p.name, p.hex))
    data: dict[str, Any] = {
        "name": pl.Series([p.name for p in ps], dtype=pl.String),
        "hex": pl.Series([str(labels[p.hex]) for p in ps], dtype=pl.String),
        "kind": pl.Series([p.attrs.get("kind") or "city" for p in ps], dtype=pl.String),
        "lon": pl.Series([p.lon for p in ps], dtype=pl.Float32),
        "lat": pl.Series([p.lat for p in ps], dtype=pl.Float32),
    }
    for name, kind in attr_cols:
        vals = [p.extra.get(name, p.attrs.get(name, getattr(p, name, None))) for p in ps]
        if kind == "bool":
            data[name] = pl.Series([bool(v) and str(v).lower() not in ("0", "false", "no")
                                    for v in vals], dtype=pl.Boolean)
        else:
            data[name] = pl.Series([None if v in (None, "") else str(v) for v in vals],
                                   dtype=pl.String)
    return pl.DataFrame(data)


def write(b: MapBuild, out_dir: Path, hexes: pl.DataFrame, places: pl.DataFrame,
          gpkg: Path | None) -> HexMap:
    sides = side_frame(b)
    hm = HexMap(b.spec.name, b.grid.hexgrid, hexes, sides, places, b.meta)
    hm.side_features = list(b.meta["side_features"])
    hm.save(out_dir)
    if gpkg is not None:
        write_gpkg(b, gpkg, hexes, sides, places)
    return hm


def write_gpkg(b: MapBuild, path: Path, hexes: pl.DataFrame, sides: pl.DataFrame,
               places: pl.DataFrame) -> None:
    """Hex polygons, hexside lines and place points for GIS tools."""
    g = b.grid
    crs = b.spec.crs
    path.unlink(missing_ok=True)
    hx = gpd.GeoDataFrame({c: hexes[c].to_list() for c in hexes.columns},
                          geometry=g.polygons, crs=crs)
    hx.to_file(path, layer="hexes", driver="GPKG", engine="pyogrio")
    idx = np.array([g.hexgrid.parse(h) for h in sides["hex"].to_list()], dtype=np.int64)
    d = sides["dir"].to_numpy().astype(np.int64)
    from workbench.mapbuild.grid import SIDE_CORNERS

    c = g.corners
    seg = np.stack([c[idx, SIDE_CORNERS[d, 0]], c[idx, SIDE_CORNERS[d, 1]]], axis=1)
    sd = gpd.GeoDataFrame({k: sides[k].to_list() for k in sides.columns},
                          geometry=shapely.linestrings(seg), crs=crs)
    sd.to_file(path, layer="hexsides", driver="GPKG", engine="pyogrio")
    pidx = np.array([g.hexgrid.parse(h) for h in places["hex"].to_list()], dtype=np.int64)
    pl_ = gpd.GeoDataFrame({k: places[k].to_list() for k in places.columns},
                           geometry=shapely.points(g.x[pidx], g.y[pidx]), crs=crs)
    pl_.to_file(path, layer="places", driver="GPKG", engine="pyogrio")
