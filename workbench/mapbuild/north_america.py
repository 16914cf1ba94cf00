"""The SS Amerika map of North America in 1941: 75 km flat-top hexes, EPSG:9311.

Shared steps come from :mod:`workbench.mapbuild.base`; this module adds the SS
Amerika specifics: its terrain vocabulary, industrial and non-industrial cities
(ports derived as coastal cities), transportation lines through hexsides, the
two Panama Canal hexes and their canal hexside, weather zones I-IV plus the
Atlantic and Pacific, and the four holding areas with their adjacencies.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import shapely

from workbench.mapbuild import base, export, regions, sources
from workbench.mapbuild.hexsides import hex_path, path_sides

NAME = "north-america"
SRC = sources.SOURCES / "north-america"

RENAME: dict[str, str | None] = {
    "United States of America": "United States", "Belize": "British Honduras",
    "Dominican Rep.": "Dominican Republic", "Trinidad and Tobago": "Trinidad",
    "Guyana": "British Guiana", "Suriname": "Dutch Guiana",
}

#: Who held each territory in 1941 (SSA 16.12: Puerto Rico counts as US; the
#: Commonwealth is Canada, British Honduras and Jamaica).
SOVEREIGN = {
    "Puerto Rico": "United States", "British Honduras": "United Kingdom",
    "Jamaica": "United Kingdom", "Bahamas": "United Kingdom", "Trinidad": "United Kingdom",
    "Newfoundland": "United Kingdom", "British Guiana": "United Kingdom",
    "Greenland": "Denmark", "Dutch Guiana": "Netherlands",
}

SIDE_FEATURES = ["river", "transport", "border", "canal", "lake", "all-sea"]

#: The canal runs between these two points (Colon on the Caribbean, Balboa on the Pacific).
CANAL_ENDS = ((-79.90, 9.35), (-79.55, 8.95))


def spec() -> base.MapSpec:
    return base.MapSpec(
        name=NAME, crs="EPSG:9311", flat_to_flat_km=75.0,
        # US National Atlas Equal Area metres: Bering Strait .. Iceland; Colombia .. Ellesmere
        bbox=(-2_800_000.0, -4_450_000.0, 4_550_000.0, 4_650_000.0),
        source_dir=SRC, rename=RENAME, sea_terrain="sea", lake_terrain="lake",
        land_threshold=0.3, coastal_on_lakes=True, year="1941",
    )


def build(out_dir: Path, gpkg: Path | None = None) -> base.MapBuild:
    b = base.start(spec())
    g = b.grid
    country = b.cols["country"]
    sea = b.cols["_sea"]

    canal_hexes = _panama_canal(b)
    base.locate_places(b)
    base.borders(b)
    b.cols["sovereign"] = np.array([SOVEREIGN.get(c, c) if c else None for c in country],
                                   dtype=object)

    # weather and oceans ---------------------------------------------------------------
    oceans = b.geo("oceans.geojson")
    ocean_of_centre = regions.by_centre(g, oceans, "ocean", default="Atlantic")
    weather = b.geo("weather.geojson")
    band = regions.by_centre(g, weather, "zone", default="II")
    b.cols["climate_band"] = band
    wz = band.copy()
    wz[sea] = ocean_of_centre[sea]
    b.cols["weather_zone"] = wz
    nbs = g.hexgrid.neighbors
    ocean = np.full(g.size, None, dtype=object)
    ocean[sea] = [f"{o} Ocean" for o in ocean_of_centre[sea]]
    for i in np.nonzero(b.cols["coastal"])[0].tolist():  # coastal hexes: their sea neighbours'
        seas = sorted({ocean[n] for n in nbs[i].tolist() if n >= 0 and sea[n]})
        ocean[i] = seas[0] if len(seas) == 1 else ("|".join(seas) if seas else None)
    b.cols["ocean"] = ocean

    # rivers and transportation lines --------------------------------------------------------
    base.edge_chains(b, b.geo("rivers.geojson"))
    both = b.cols["_both_land"]
    for rec in b.geo("transport.geojson").itertuples(index=False):
        sides = [k for k in path_sides(g, hex_path(g, rec.geometry)) if both[k]]
        b.add_sides(sides, "transport", rec.name)

    # cities ----------------------------------------------------------------------------------
    _place_columns(b)
    b.cols["canal"] = np.zeros(g.size, dtype=bool)
    b.cols["canal"][canal_hexes] = True

    b.meta = _meta(b)
    hexes = export.hex_frame(b, [
        ("terrain", "str"), ("country", "str"), ("sovereign", "str"), ("coastal", "bool"),
        ("weather_zone", "str"), ("climate_band", "str"), ("ocean", "str"), ("city", "str"),
        ("city_kind", "str"), ("port", "bool"), ("capital", "bool"), ("canal", "bool"),
        ("land_pct", "i8"),
    ])
    places = export.place_frame(b, [("country", "str"), ("city_kind", "str"),
                                    ("capital", "bool"), ("port", "bool"), ("role", "str"),
                                    ("moved", "str")])
    export.write(b, out_dir, hexes, places, gpkg)
    return b


def _panama_canal(b: base.MapBuild) -> list[int]:
    """The two canal hexes (SSA-7.5a) and the canal hexside between them.

    Both are forced to Panamanian land, since at 75 km the isthmus is barely a
    hex wide and the rules need both canal hexes on the map.
    """
    g = b.grid
    from pyproj import Transformer

    tr = Transformer.from_crs("EPSG:4326", g.crs, always_xy=True)
    (x1, y1), (x2, y2) = (tr.transform(*p) for p in CANAL_ENDS)
    a, c = (int(h) for h in g.locate([x1, x2], [y1, y2]))
    if a == c:  # both ends in one hex: the neighbour towards the Pacific end
        nb = [n for n in g.hexgrid.neighbors[a].tolist() if n >= 0]
        c = min(nb, key=lambda n: np.hypot(g.x[n] - x2, g.y[n] - y2))
    elif g.hexgrid.distance(a, c) > 1:
        path = hex_path(g, shapely.LineString([(x1, y1), (x2, y2)]))
        path = [h for h in path if h >= 0]
        a, c = path[len(path) // 2 - 1], path[len(path) // 2]
    for h in (a, c):
        if not b.cols["_land"][h]:
            b.log.append(f"Panama Canal: hex {g.hexgrid.label(h)} forced to land")
        b.cols["_land"][h] = True
        b.cols["_sea"][h] = False
        b.cols["_lake"][h] = False
        b.cols["country"][h] = "Panama"
        if b.cols["terrain"][h] in ("sea", "lake"):
            b.cols["terrain"][h] = "forestation"
    s = g.sides
    b.cols["_both_land"] = b.cols["_land"][s["hex"]] & b.cols["_land"][s["nb"]]
    nbs = g.hexgrid.neighbors
    sea = b.cols["_sea"]
    wet = sea | b.cols["_lake"]
    b.cols["coastal"] = b.cols["_land"] & np.any(np.where(nbs >= 0, wet[np.maximum(nbs, 0)],
                                                          False), axis=1)
    k = int(g.side_index(np.array([a]), np.array([c]))[0])
    b.add_sides([k], "canal", "Panama Canal")
    return [a, c]


def _place_columns(b: base.MapBuild) -> None:
    """City name, kind (industrial wins), capital; a port is a city next to the ocean."""
    g = b.grid
    city = np.full(g.size, None, dtype=object)
    kind = np.full(g.size, None, dtype=object)
    cap = np.zeros(g.size, dtype=bool)
    sea_nb = base.sea_neighbour(b)
    order = sorted((p for p in b.places if p.hex >= 0),
                   key=lambda p: (not base.truthy(p.attrs.get("capital")),))
    for p in order:
        h = p.hex
        if city[h] is None:
            city[h] = p.name
        k = p.attrs.get("city_kind") or "non-industrial"
        if kind[h] != "industrial":
            kind[h] = k
        if base.truthy(p.attrs.get("capital")):
            cap[h] = True
        p.extra["port"] = bool(sea_nb[h] and b.cols["_land"][h])
    port = (city != None) & sea_nb & b.cols["_land"]  # noqa: E711
    b.cols.update(city=city, city_kind=kind, capital=cap, port=port)


def _meta(b: base.MapBuild) -> dict:
    g = b.grid
    labels = g.hexgrid.labels
    spec = sources.read_json(SRC / "boxes.json")
    land = b.cols["_land"]
    country = b.cols["country"]
    edge = (g.col == 0) | (g.col == g.cols - 1) | (g.row == 0) | (g.row == g.rows - 1)
    east = g.col == g.cols - 1
    boxes = []
    for box in spec["boxes"]:
        links = []
        for link in box.get("links", []):
            if link.startswith("@country:"):
                c = link[9:]
                hx = np.nonzero(land & (country == c) & edge)[0]
                if hx.size == 0:
                    hx = np.nonzero(land & (country == c))[0]
                links.extend(str(labels[h]) for h in hx.tolist())
            else:
                links.append(link)
        extra = {}
        for key in ("air_links", "land_links"):
            if key in box:
                extra[key] = {_resolve(k, labels, land, country, east): v
                              for k, v in box[key].items()}
        boxes.append({**{k: v for k, v in box.items() if k not in ("links", "air_links",
                                                                   "land_links")},
                      **extra, "links": links})
    oc = b.cols["ocean"]
    sea = b.cols["_sea"]
    seas = [{"name": f"{o} Ocean", "gridded": True, "mp_cost": 0, "search_mod": 0,
             "weather_zone": o, "hexes": int(np.sum(sea & (oc == f"{o} Ocean"))),
             "source": "SSA-7.G (unlimited naval movement through ocean hexes), SSA-26"}
            for o in ("Atlantic", "Pacific")]
    canal = [str(labels[h]) for h in np.nonzero(b.cols["canal"])[0].tolist()]
    return {
        "title": "SS Amerika North America, 1941", "game": "ss-amerika", "crs": g.crs,
        "hex_flat_to_flat_km": 75.0, "circumradius_m": round(g.circumradius, 3),
        "origin_x": g.x0, "origin_y": g.y0, "orientation": "flattop", "border_date": "1941",
        "terrain_vocabulary": ["clear", "forestation", "rough", "mountains", "desert", "tundra",
                               "icecap", "sea", "lake"],
        "side_features": SIDE_FEATURES,
        "weather_zones": ["I", "II", "III", "IV", "Atlantic", "Pacific"],
        "panama_canal_hexes": canal, "areas": {"Panama Canal": canal}, "sea_areas": seas, "boxes": boxes,
        "sources": sorted(p.name for p in SRC.iterdir()) + ["naturalearth (1:110m)"],
    }


def _resolve(key: str, labels, land, country, east) -> str:
    """Name the hex set a special link key stands for (kept compact in meta.json)."""
    if key == "@edge:east":
        hx = np.nonzero(east)[0]
        return f"east map edge ({labels[hx[0]]}..{labels[hx[-1]]})"
    if key.startswith("@hexes:") or key.startswith("@country:"):
        c = key.split(":", 1)[1]
        return f"{c} ({int(np.sum(land & (country == c)))} hexes)"
    return key
