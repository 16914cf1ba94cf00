"""The ETO map of Europe on 1 September 1939: 50 km flat-top hexes in EPSG:3035.

Shared steps come from :mod:`workbench.mapbuild.base`; this module adds what the
ETO rules need: Switzerland impassable, home-country and colony flags, weather
zones with the mild France-Germany region, named sea areas with MP costs and
INT search modifiers, ferries and canals, permanent fortifications with fortress
hexsides, city/resource/capital/port attributes and the off-map boxes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import shapely

from workbench.mapbuild import base, export, regions, sources
from workbench.mapbuild.grid import DIRECTION_BEARINGS
from workbench.mapbuild.hexsides import CornerGraph

NAME = "europe"
SRC = sources.SOURCES / "europe"

#: Natural Earth's modern countries renamed to their 1 September 1939 owners
#: (None drops the polygon; authored overrides then redraw the changed borders).
RENAME: dict[str, str | None] = {
    "Austria": "Germany", "Czechia": "Germany",
    "Slovenia": "Yugoslavia", "Croatia": "Yugoslavia", "Bosnia and Herz.": "Yugoslavia",
    "Serbia": "Yugoslavia", "Montenegro": "Yugoslavia", "Kosovo": "Yugoslavia",
    "North Macedonia": "Yugoslavia",
    "Russia": "USSR", "Belarus": "USSR", "Ukraine": "USSR", "Georgia": "USSR",
    "Armenia": "USSR", "Azerbaijan": "USSR", "Kazakhstan": "USSR", "Turkmenistan": "USSR",
    "Uzbekistan": "USSR",
    "Moldova": "Romania",
    "Syria": "Lebanon-Syria", "Lebanon": "Lebanon-Syria",
    "Israel": "Palestine", "Palestine": "Palestine", "Jordan": "Transjordan",
    "N. Cyprus": "Cyprus", "Morocco": "French Morocco", "W. Sahara": "Spanish Sahara",
    "Iran": "Persia",
}

#: Colonies, mandates and protectorates of 1939 and who held them (ETO 36.x, 40.7).
COLONY_OF = {
    "Albania": "Italy", "Libya": "Italy",
    "Lebanon-Syria": "France", "Tunisia": "France", "Algeria": "France",
    "French Morocco": "France",
    "Egypt": "United Kingdom", "Palestine": "United Kingdom", "Transjordan": "United Kingdom",
    "Iraq": "United Kingdom", "Cyprus": "United Kingdom", "Malta": "United Kingdom",
    "Gibraltar": "United Kingdom", "Kuwait": "United Kingdom",
    "Spanish Morocco": "Spain", "Spanish Sahara": "Spain",
    "Greenland": "Denmark", "Iceland": "Denmark",
}

SIDE_FEATURES = ["river", "canal", "ferry", "border", "fortress", "impassable", "all-sea",
                 "lake"]


def spec() -> base.MapSpec:
    from pyproj import Transformer  # noqa: F401  (pyproj needed by sources)

    return base.MapSpec(
        name=NAME, crs="EPSG:3035", flat_to_flat_km=50.0,
        # LAEA Europe metres: Iceland/Ireland .. Urals/Caspian; Egypt/Iraq .. North Cape
        bbox=(2_400_000.0, 900_000.0, 7_800_000.0, 5_500_000.0),
        source_dir=SRC, rename=RENAME, sea_terrain="all-sea", lake_terrain="all-lake",
        land_threshold=0.3, coastal_on_lakes=False, year="1939-09-01",
    )


def build(out_dir: Path, gpkg: Path | None = None) -> base.MapBuild:
    b = base.start(spec())
    g = b.grid
    land = b.cols["_land"]
    country = b.cols["country"]

    # places first: they may claim a hex for a small country (Gibraltar, Luxembourg)
    base.locate_places(b)
    for p in b.places:
        hc = p.attrs.get("hex_country") or ""
        if p.hex >= 0 and hc:
            country[p.hex] = hc
    base.borders(b)

    # Switzerland: impassable hexes and every hexside into them -------------------------
    swiss = country == "Switzerland"
    b.cols["impassable"] = swiss
    s = g.sides
    into = swiss[s["hex"]] != swiss[s["nb"]]
    b.add_sides(np.nonzero(into)[0], "impassable", "Switzerland")

    # colonies and home-country regions --------------------------------------------------
    b.cols["colony_of"] = np.array([COLONY_OF.get(c) if c else None for c in country],
                                   dtype=object)
    homes = b.geo("home_regions.geojson")
    b.cols["home"] = regions.by_centre(g, homes, "home", mask=land, country=country)

    # weather ----------------------------------------------------------------------------
    weather = b.geo("weather.geojson")
    wz = regions.by_centre(g, weather, "zone", default="moderate", mask=land)
    mff = regions.by_centre(g, weather, "mild_france_germany", default=False, mask=land)

    # sea areas ------------------------------------------------------------------------
    seas = b.geo("sea_areas.geojson")
    sea = b.cols["_sea"]
    sa = regions.by_centre(g, seas, "name", mask=sea)
    sa = regions.nearest_fill(g, sa, sea, seas, "name")
    b.cols["sea_area"] = sa
    sea_weather = dict(zip(seas["name"], seas["weather_zone"], strict=True))
    wz = np.where(sea, np.array([sea_weather.get(x) for x in sa], dtype=object), wz)
    wz[b.cols["_lake"]] = regions.by_centre(g, weather, "zone", default="moderate")[
        b.cols["_lake"]]
    b.cols["weather_zone"] = wz
    b.cols["mild_france_germany"] = np.array([bool(v) for v in mff]) & land

    # rivers, canals, straits -----------------------------------------------------------
    base.edge_chains(b, b.geo("rivers.geojson"))
    _ferries(b, b.geo("straits.geojson"))

    # fortifications ---------------------------------------------------------------------
    _fortifications(b, b.geo("fortifications.geojson"))

    # per-hex place attributes --------------------------------------------------------------
    _place_columns(b)

    b.meta = _meta(b, seas)
    hexes = export.hex_frame(b, [
        ("terrain", "str"), ("country", "str"), ("coastal", "bool"), ("impassable", "bool"),
        ("colony_of", "str"), ("home", "str"), ("weather_zone", "str"),
        ("mild_france_germany", "bool"), ("sea_area", "str"), ("city", "str"),
        ("city_resource", "bool"), ("resource", "bool"), ("capital", "bool"), ("port", "str"),
        ("fortification", "str"), ("land_pct", "i8"),
    ])
    places = export.place_frame(b, [("country", "str"), ("role", "str"), ("port", "str"),
                                    ("capital", "bool"), ("resource", "str"),
                                    ("moved", "str")])
    export.write(b, out_dir, hexes, places, gpkg)
    return b


def _ferries(b: base.MapBuild, straits) -> None:
    """A strait is an all-sea hexside chain bridged by a ferry between two land hexes."""
    graph = CornerGraph(b.grid)
    both = b.cols["_both_land"]
    g = b.grid
    for rec in straits.itertuples(index=False):
        chain = [k for k in graph.snap_line(rec.geometry) if both[k]]
        if not chain:  # strait narrower than a hex: the land side nearest its middle
            mid = shapely.line_interpolate_point(rec.geometry, 0.5, normalized=True)
            d = shapely.distance(g.side_segments, mid)
            d[~both] = np.inf
            chain = [int(np.argmin(d))]
        b.add_sides(chain, "ferry", rec.name)
        b.add_sides(chain, "all-sea", rec.name)


def _fortifications(b: base.MapBuild, forts) -> None:
    """Fortified hexes along each line; fortress hexsides face the enemy.

    A hexside of a fortified hex is a fortress hexside when the hex beyond is in
    one of the line's ``faces`` countries, or (for lines drawn behind a border,
    like the Mannerheim Line) lies within 60 degrees of the line's ``bearing``.
    """
    g = b.grid
    country = b.cols["country"]
    land = b.cols["_land"]
    fort = np.full(g.size, None, dtype=object)
    nbs = g.hexgrid.neighbors
    tree = shapely.STRtree(g.polygons)
    for rec in forts.itertuples(index=False):
        hit = tree.query(shapely.buffer(rec.geometry, g.circumradius * 0.25),
                         predicate="intersects")
        hit = np.array(sorted(h for h in hit.tolist() if land[h] and country[h] == rec.country),
                       dtype=np.int64)
        fort[hit] = rec.name
        faces = set(str(rec.faces).split("|")) if rec.faces else set()
        bearing = float(rec.bearing) if rec.bearing == rec.bearing and rec.bearing is not None \
            else None
        mine = set(hit.tolist())
        for h in hit.tolist():
            for d in range(6):
                n = int(nbs[h, d])
                if n < 0 or not land[n] or n in mine:
                    continue
                ok = country[n] in faces
                if bearing is not None:
                    diff = abs((DIRECTION_BEARINGS[d] - bearing + 180) % 360 - 180)
                    ok = ok or diff <= 60
                if ok:
                    k = g.side_index(np.array([h]), np.array([n]))[0]
                    b.side_rows.append((int(k), "fortress", rec.name))
    b.cols["fortification"] = fort


def _place_columns(b: base.MapBuild) -> None:
    """City, resource, capital and port columns from the places on each hex.

    Several places can share a hex (Athens and Piraeus); the hex takes the
    capital's name if any, else the first by file order, the strongest port,
    and is a resource hex if any place on it is.
    """
    g = b.grid
    city = np.full(g.size, None, dtype=object)
    cres = np.zeros(g.size, dtype=bool)
    res = np.zeros(g.size, dtype=bool)
    cap = np.zeros(g.size, dtype=bool)
    port = np.full(g.size, None, dtype=object)
    rank = {"": 0, "minor": 1, "major": 2}
    by_hex = sorted((p for p in b.places if p.hex >= 0),
                    key=lambda p: (not base.truthy(p.attrs.get("capital")),))
    cluster_extra = []
    for p in by_hex:
        h = p.hex
        kind = p.attrs.get("kind") or "city"
        r = p.attrs.get("resource") or ""
        if kind == "city" and city[h] is None:
            city[h] = p.name
        if r in ("resource", "city-resource"):
            res[h] = True
        if r == "city-resource":
            cres[h] = True
        if base.truthy(p.attrs.get("capital")):
            cap[h] = True
        pt = p.attrs.get("port") or ""
        if rank[pt] > rank[port[h] or ""]:
            port[h] = pt
        n = int(p.attrs.get("cluster") or 0)
        if n > 1:
            cluster_extra.append((p, n))
    land = b.cols["_land"]
    from pyproj import Transformer

    from workbench.mapbuild.places import Place

    inv = Transformer.from_crs(g.crs, "EPSG:4326", always_xy=True)
    for p, n in cluster_extra:  # e.g. Moscow's eight connected resource hexes
        d = np.hypot(g.x - g.x[p.hex], g.y - g.y[p.hex])
        d[~land | (b.cols["country"] != b.cols["country"][p.hex])] = np.inf
        for k, h in enumerate(np.argsort(d, kind="stable")[:n].tolist()):
            res[h] = True
            if h != p.hex:
                lon, lat = inv.transform(g.x[h], g.y[h])
                b.places.append(Place(f"{p.name} industrial region {k}", round(lon, 2),
                                      round(lat, 2),
                                      {"kind": "resource", "country": p.attrs.get("country", ""),
                                       "resource": "resource",
                                       "role": f"{p.name} resource cluster"}, hex=h))
    b.cols.update(city=city, city_resource=cres, resource=res, capital=cap, port=port)


def _meta(b: base.MapBuild, seas) -> dict:
    g = b.grid
    sa = b.cols["sea_area"]
    nbs = g.hexgrid.neighbors
    adjacent: dict[str, set[str]] = {n: set() for n in seas["name"]}
    for i in np.nonzero(sa != None)[0].tolist():  # noqa: E711
        for n in nbs[i].tolist():
            if n >= 0 and sa[n] is not None and sa[n] != sa[i]:
                adjacent[sa[i]].add(sa[n])
    sea_areas = []
    for rec in seas.itertuples(index=False):
        sea_areas.append({
            "name": rec.name, "gridded": bool(rec.gridded), "mp_cost": int(rec.mp_cost),
            "search_mod": int(rec.search_mod), "weather_zone": rec.weather_zone,
            "hexes": int(np.sum(sa == rec.name)), "adjacent": sorted(adjacent[rec.name]),
            "source": rec.source,
        })
    boxes = _boxes(b)
    return {
        "title": "ETO Europe, 1 September 1939",
        "game": "eto", "crs": g.crs, "hex_flat_to_flat_km": 50.0,
        "circumradius_m": round(g.circumradius, 3), "origin_x": g.x0, "origin_y": g.y0,
        "orientation": "flattop", "border_date": "1939-09-01",
        "terrain_vocabulary": ["clear", "rough", "forest", "marsh", "all-sea", "all-lake"],
        "side_features": SIDE_FEATURES,
        "weather_zones": ["mild", "moderate", "severe"],
        "sea_areas": sea_areas, "boxes": boxes,
        "sources": sorted(p.name for p in SRC.iterdir()) + ["naturalearth (1:110m)"],
    }


def _boxes(b: base.MapBuild) -> list[dict]:
    """Off-map boxes; ``@`` links are resolved to hex labels at build time."""
    g = b.grid
    labels = g.hexgrid.labels
    spec = sources.read_json(SRC / "boxes.json")
    country = b.cols["country"]
    land = b.cols["_land"]
    edge = (g.col == 0) | (g.col == g.cols - 1) | (g.row == 0) | (g.row == g.rows - 1)
    places = {p.name: p for p in b.places}
    out = []
    for box in spec["boxes"]:
        links: list[str] = []
        for link in box.get("links", []):
            if link.startswith("@place:"):
                p = places.get(link[7:])
                if p is not None and p.hex >= 0:
                    links.append(str(labels[p.hex]))
            elif link.startswith("@edge:"):
                hx = np.nonzero(edge & land & (country == link[6:]))[0]
                links.extend(str(labels[h]) for h in hx.tolist())
            elif link.startswith("@resource:"):
                who = set(link[10:].split("|"))
                hx = np.nonzero(b.cols["resource"] & np.isin(country, list(who)))[0]
                links.extend(str(labels[h]) for h in hx.tolist())
            else:
                links.append(link)
        out.append({**{k: v for k, v in box.items() if k != "links"}, "links": links})
    return out
