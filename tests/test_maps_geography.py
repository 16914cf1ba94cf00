"""The committed maps against real geography (fast: reads maps/, never rebuilds)."""

from __future__ import annotations

import math
import time
from collections import defaultdict

import numpy as np
import polars as pl
import pytest
from pyproj import Geod, Transformer

from workbench.map import HexMap, load_map

GEOD = Geod(ellps="WGS84")

EUROPE_PAIRS = [
    ("London", "Berlin"), ("Paris", "Rome"), ("Madrid", "Warsaw"), ("Moscow", "Stalingrad"),
    ("Leningrad", "Kiev"), ("Oslo", "Athens"), ("Brussels", "Budapest"), ("Ankara", "Cairo"),
    ("Algiers", "Tripoli"), ("Murmansk", "Archangel"), ("Stockholm", "Helsinki"),
    ("Bucharest", "Sofia"), ("Baghdad", "Jerusalem"), ("Marseilles", "Hamburg"),
    ("Dublin", "Reykjavik"),
]
NA_PAIRS = [
    ("New York", "Chicago"), ("Washington DC", "Ottawa"), ("Los Angeles", "Seattle"),
    ("Houston", "Denver"), ("Mexico City", "Havana"), ("Miami", "Boston"),
    ("Anchorage", "Vancouver"), ("Winnipeg", "Montreal"), ("Bogota", "Caracas"),
    ("Panama City", "Guatemala City"), ("San Francisco", "Salt Lake City"),
    ("Reykjavik", "St. John's"), ("Detroit", "Atlanta"), ("Kingston", "San Juan"),
    ("Halifax", "Toronto"),
]


@pytest.fixture(scope="module")
def eu() -> HexMap:
    return load_map("europe")


@pytest.fixture(scope="module")
def na() -> HexMap:
    return load_map("north-america")


def _place(m: HexMap, name: str) -> dict:
    rows = m.places.filter(pl.col("name") == name)
    assert rows.height == 1, f"{name} not on map {m.name}"
    return rows.row(0, named=True)


# -- loading ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["europe", "north-america"])
def test_loads_fast_and_has_contract_columns(name):
    from workbench.map import MAPS_DIR

    t0 = time.perf_counter()
    m = HexMap.load(MAPS_DIR / name)
    assert time.perf_counter() - t0 < 0.5
    for c in ("id", "q", "r", "col", "row", "x", "y", "terrain", "country", "coastal"):
        assert c in m.hexes.columns
    for k in ("crs", "hex_flat_to_flat_km", "circumradius_m", "origin_x", "origin_y",
              "orientation", "sea_areas", "boxes", "side_features"):
        assert k in m.meta
    assert m.hexes.height == m.size > 10_000
    assert m.hexes["coastal"].dtype == pl.Boolean
    assert set(m.sides["feature"].unique()) <= set(m.side_features)


def test_hex_centres_follow_the_contract(eu, na):
    for m in (eu, na):
        r = m.meta["circumradius_m"]
        col = m.hexes["col"].to_numpy()
        row = m.hexes["row"].to_numpy()
        x = m.meta["origin_x"] + 1.5 * r * col
        y = m.meta["origin_y"] - math.sqrt(3) * r * (row + 0.5 * (col & 1))
        assert np.allclose(m.hexes["x"].to_numpy(), x, atol=2.0)
        assert np.allclose(m.hexes["y"].to_numpy(), y, atol=2.0)
        assert abs(math.sqrt(3) * r / 1000 - m.meta["hex_flat_to_flat_km"]) < 1e-6


def test_terrain_vocabularies(eu, na):
    assert set(eu.hexes["terrain"].unique()) <= {"clear", "rough", "forest", "marsh", "all-sea",
                                                 "all-lake"}
    assert set(na.hexes["terrain"].unique()) <= {"clear", "forestation", "rough", "mountains",
                                                 "desert", "tundra", "icecap", "sea", "lake"}
    assert {"mountains", "desert", "tundra", "icecap"} <= set(na.hexes["terrain"].unique())


# -- places ------------------------------------------------------------------------------------
@pytest.mark.parametrize("mapname", ["europe", "north-america"])
def test_every_named_city_is_in_its_country_and_near_its_coordinates(mapname):
    m = load_map(mapname)
    tr = Transformer.from_crs("EPSG:4326", m.meta["crs"], always_xy=True)
    country = m.column("country")
    w = m.meta["hex_flat_to_flat_km"] * 1000
    for p in m.places.iter_rows(named=True):
        i = m.index(p["hex"])
        if p["kind"] in ("city", "town"):
            assert country[i] == p["country"], p
        x, y = tr.transform(p["lon"], p["lat"])
        d = math.hypot(m.hexes["x"][i] - x, m.hexes["y"][i] - y)
        assert d <= 2.05 * w, (p["name"], d / w)


@pytest.mark.parametrize("mapname,pairs", [("europe", EUROPE_PAIRS),
                                           ("north-america", NA_PAIRS)])
def test_hex_distances_match_great_circle(mapname, pairs):
    """Hex distance ~ great-circle distance / hex size, within 15%.

    A hex grid measures distance in steps, not straight lines: moving across the
    grain of flat-top hexes (due east, say) takes 2/sqrt(3) = 1.155 steps per hex
    width.  So the expectation is the great-circle distance in hex widths times
    that direction's step factor (1 along the three hex axes), taken from the
    pair's bearing on the map; the 15% tolerance is then left for geography
    (projection scale, city placement).
    """
    m = load_map(mapname)
    w = m.meta["hex_flat_to_flat_km"]
    tr = Transformer.from_crs("EPSG:4326", m.meta["crs"], always_xy=True)
    for a, b in pairs:
        pa, pb = _place(m, a), _place(m, b)
        km = GEOD.inv(pa["lon"], pa["lat"], pb["lon"], pb["lat"])[2] / 1000
        (xa, ya), (xb, yb) = tr.transform(pa["lon"], pa["lat"]), tr.transform(pb["lon"], pb["lat"])
        expected = km / w * _step_factor(xb - xa, yb - ya)
        got = m.distance(pa["hex"], pb["hex"])
        assert abs(got - expected) <= 0.15 * expected, (a, b, got, expected)


def _step_factor(dx: float, dy: float) -> float:
    """Hex steps per hex width for a straight move (dx, dy) on a flat-top grid."""
    r = 1.0 / math.sqrt(3)  # circumradius of a unit-width hex
    n = math.hypot(dx, dy)
    dx, dy = dx / n, dy / n
    q = dx / (1.5 * r)
    rr = -dy / (math.sqrt(3) * r) - q / 2
    return (abs(q) + abs(rr) + abs(q + rr)) / 2


def test_natural_earth_cities_agree_with_authored_coordinates(eu, na):
    from workbench.mapbuild.sources import natural_earth_cities

    ne = natural_earth_cities()
    ne_xy = {n: (g.x, g.y) for n, g in zip(ne["name"], ne.geometry, strict=True)}
    checked = 0
    for m in (eu, na):
        for p in m.places.iter_rows(named=True):
            if p["name"] in ne_xy:
                lon, lat = ne_xy[p["name"]]
                km = GEOD.inv(p["lon"], p["lat"], lon, lat)[2] / 1000
                if km > 2000:  # a namesake elsewhere (Victoria, Seychelles)
                    continue
                assert km < 30, (p["name"], km)
                checked += 1
    assert checked >= 40


def test_rulebook_places_exist(eu):
    names = set(eu.places["name"].to_list())
    gap10 = ["Leningrad", "Archangel", "Murmansk", "London", "Harwich", "Dover", "Southampton",
             "Le Havre", "Brest", "Marseilles", "St. Nazaire", "Bordeaux", "Lyons", "Paris",
             "Port Said", "Cairo", "Kiel", "Hamburg", "Casablanca", "Gibraltar", "Malta",
             "Narvik", "Stockholm", "Calais", "Antwerp", "Frankfurt", "Brussels", "Beirut",
             "Algiers", "Durazzo", "Mosul", "Riga", "Minsk", "Moscow", "Kazan", "Stalingrad",
             "Kiev"]
    assert not [n for n in gap10 if n not in names]
    res = eu.column("resource")
    country = eu.column("country")
    assert res[country == "Poland"].sum() == 7
    assert res[country == "Albania"].sum() == 2
    assert res[country == "Egypt"].sum() == 3
    assert res[country == "Iraq"].sum() == 2


def test_moscow_has_eight_connected_resource_hexes(eu):
    res = eu.column("resource")
    start = eu.index(eu.hex_of("Moscow"))
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in eu.neighbors[h].tolist():
            if n >= 0 and res[n] and n not in seen:
                seen.add(n)
                todo.append(n)
    assert len(seen) >= 8


def test_capitals(eu, na):
    for m, names in ((eu, ["Berlin", "London", "Paris", "Rome", "Moscow", "Warsaw", "Ankara"]),
                     (na, ["Washington DC", "Ottawa", "Mexico City", "Havana", "Bogota"])):
        cap = m.column("capital")
        for n in names:
            assert cap[m.index(m.hex_of(n))], n


# -- coasts and ports ---------------------------------------------------------------------------
def _sea(m: HexMap) -> np.ndarray:
    return np.isin(m.column("terrain"), ["all-sea", "sea"])


def test_every_port_is_coastal_with_a_sea_neighbour(eu, na):
    for m in (eu, na):
        sea = _sea(m)
        port = m.column("port")
        ports = np.nonzero(port != None)[0] if port.dtype == object else np.nonzero(port)[0]  # noqa: E711
        ports = [i for i in ports.tolist() if port[i] not in (None, False)]
        assert len(ports) > 40
        coastal = m.column("coastal")
        for i in ports:
            assert coastal[i], m.label(i)
            nb = m.neighbors[i]
            assert np.any(sea[nb[nb >= 0]]), m.label(i)


def test_coastal_means_land_next_to_water(eu, na):
    for m in (eu, na):
        coastal = m.column("coastal")
        assert not np.any(coastal & m.is_water)
        wet = m.is_water
        nb = m.neighbors
        touch = np.any(np.where(nb >= 0, wet[np.maximum(nb, 0)], False), axis=1)
        assert np.all(touch[coastal])


# -- hexsides -------------------------------------------------------------------------------------
@pytest.mark.parametrize("mapname", ["europe", "north-america"])
def test_river_chains_are_connected(mapname):
    m = load_map(mapname)
    rivers = m.sides.filter(pl.col("feature") == "river")
    per = defaultdict(list)
    corners = {}
    for h, d, name in zip(rivers["hex"], rivers["dir"], rivers["name"], strict=True):
        per[name].append((m.index(h), int(d)))
    assert len(per) >= 20
    from workbench.mapbuild.grid import SIDE_CORNERS

    r = m.meta["circumradius_m"]
    ang = np.deg2rad(np.arange(6) * 60.0)
    col, row = m.hexes["col"].to_numpy(), m.hexes["row"].to_numpy()
    x = m.meta["origin_x"] + 1.5 * r * col  # float64 centres from the contract formula
    y = m.meta["origin_y"] - math.sqrt(3) * r * (row + 0.5 * (col & 1))
    for name, sides in per.items():
        parent: dict = {}
        for i, d in sides:
            ends = []
            for k in SIDE_CORNERS[d]:
                key = (round(x[i] + r * math.cos(ang[k])), round(y[i] + r * math.sin(ang[k])))
                ends.append(corners.setdefault(key, key))
            parent[_find(parent, ends[0])] = _find(parent, ends[1])
        roots = {_find(parent, a) for a in parent}
        assert len(roots) == 1, (name, len(roots), len(sides))
        assert len(sides) >= 1, name


def _find(parent: dict, a):
    """Union-find root (corners joined by river hexsides)."""
    while parent.setdefault(a, a) != a:
        a = parent[a]
    return a


def test_great_britain_and_france_share_no_land_adjacency(eu):
    country = eu.column("country")
    land = ~eu.is_water
    sea_side = eu.side_mask("all-sea")
    for i in np.nonzero((country == "United Kingdom") & land)[0].tolist():
        for d, n in enumerate(eu.neighbors[i].tolist()):
            if n >= 0 and country[n] == "France":
                assert sea_side[i, d], (eu.label(i), eu.label(n))


def test_switzerland_cannot_be_entered(eu):
    swiss = eu.column("country") == "Switzerland"
    assert swiss.sum() >= 10
    assert np.array_equal(eu.column("impassable"), swiss)
    imp = eu.side_mask("impassable")
    for i in np.nonzero(swiss)[0].tolist():
        for d, n in enumerate(eu.neighbors[i].tolist()):
            if n >= 0 and not swiss[n]:
                assert imp[i, d] and imp[n, (d + 3) % 6]


def test_ferries_canals_and_fortifications(eu):
    names = set(eu.sides.filter(pl.col("feature") == "ferry")["name"].to_list())
    assert names == {"Dardanelles", "Bosporus", "Strait of Messina", "Kerch Strait", "Oresund",
                     "Strait of Gibraltar"}
    land = ~eu.is_water
    ferry = eu.sides.filter(pl.col("feature") == "ferry")
    for h, d in zip(ferry["hex"], ferry["dir"], strict=True):
        i = eu.index(h)
        assert land[i] and land[eu.neighbors[i, d]]
    canals = set(eu.sides.filter(pl.col("feature") == "canal")["name"].to_list())
    assert canals == {"Suez Canal", "Kiel Canal"}
    forts = eu.sides.filter(pl.col("feature") == "fortress")
    assert set(forts["name"].to_list()) == {"Maginot Line", "West Wall", "Mannerheim Line",
                                            "Metaxas Line"}
    fcol = eu.column("fortification")
    for h, d, name in zip(forts["hex"], forts["dir"], forts["name"], strict=True):
        i = eu.index(h)
        assert name in (fcol[i], fcol[eu.neighbors[i, d]])


def test_maginot_faces_germany(eu):
    country = eu.column("country")
    forts = eu.sides.filter(pl.col("name") == "Maginot Line")
    for h, d in zip(forts["hex"], forts["dir"], strict=True):
        i = eu.index(h)
        pair = {country[i], country[eu.neighbors[i, d]]}
        assert "France" in pair and pair & {"Germany", "Luxembourg"}


def test_borders_1939(eu):
    def c(name):
        return eu.column("country")[eu.index(eu.hex_of(name))]

    assert c("Vienna") == c("Prague") == c("Breslau") == c("Konigsberg") == "Germany"
    assert c("Wilno") == c("Lwow") == c("Brest-Litovsk") == "Poland"
    assert c("Chisinau") == c("Cernauti") == "Romania"
    assert c("Viipuri") == "Finland" and c("Minsk") == "USSR"
    assert c("Kassa") == "Hungary"
    home = eu.column("home")
    for place, flag in (("Konigsberg", "East Prussia"), ("Belfast", "Northern Ireland"),
                        ("Palermo", "Sicily"), ("Cagliari", "Sardinia"), ("Heraklion", "Crete"),
                        ("Edirne", "European Turkey"), ("Ankara", "Asiatic Turkey")):
        assert home[eu.index(eu.hex_of(place))] == flag, place
    colony = eu.column("colony_of")
    for place, owner in (("Beirut", "France"), ("Jerusalem", "United Kingdom"),
                         ("Amman", "United Kingdom"), ("Baghdad", "United Kingdom"),
                         ("Cairo", "United Kingdom"), ("Tripoli", "Italy"), ("Tunis", "France"),
                         ("Algiers", "France"), ("Casablanca", "France"), ("Tirana", "Italy")):
        assert colony[eu.index(eu.hex_of(place))] == owner, place


def test_weather_zones(eu, na):
    wz = eu.column("weather_zone")
    assert wz[eu.index(eu.hex_of("Moscow"))] == "severe"
    assert wz[eu.index(eu.hex_of("Athens"))] == "moderate"
    assert wz[eu.index(eu.hex_of("Cairo"))] == "mild"
    mff = eu.column("mild_france_germany")
    assert mff[eu.index(eu.hex_of("Paris"))] and mff[eu.index(eu.hex_of("Frankfurt"))]
    assert not mff[eu.index(eu.hex_of("Cairo"))]
    nz = na.column("weather_zone")
    assert {"I", "II", "III", "IV", "Atlantic", "Pacific"} == set(nz)
    for place, zone in (("Fairbanks", "I"), ("Chicago", "II"), ("Phoenix", "III"),
                        ("Panama City", "IV")):
        assert nz[na.index(na.hex_of(place))] == zone, place
    assert na.column("climate_band")[na.index(na.hex_of("Mexico City"))] == "IV"
    assert na.column("climate_band")[na.index(na.hex_of("Monterrey"))] == "III"


def test_sea_areas_and_boxes(eu, na):
    areas = {s["name"]: s for s in eu.meta["sea_areas"]}
    assert areas["North Atlantic"]["search_mod"] == -2
    assert areas["South Atlantic"]["search_mod"] == -3
    assert areas["Persian Gulf"]["weather_zone"] == areas["Red Sea"]["weather_zone"] == "mild"
    sa = eu.column("sea_area")
    sea = _sea(eu)
    assert all(sa[sea] != None) and all(sa[~sea] == None)  # noqa: E711
    assert set(sa[sea]) <= set(areas)
    boxes = set(eu.boxes)
    for want in ("US box", "US coastal box", "Canada box", "Capetown box", "India box",
                 "Iraq transit box", "North Atlantic convoy escort box",
                 "South Atlantic convoy escort box", "US coast convoy escort box",
                 "Arctic convoy escort box", "Allied strategic bombing box",
                 "Axis strategic bombing box", "Suez Adds box", "Siberian Transfers box"):
        assert want in boxes, want
        assert eu.boxes[want].links, want
    for link in eu.boxes["Iraq transit box"].links[1:]:
        assert eu.column("country")[eu.index(link)] == "Iraq"
    holding = na.boxes
    assert set(holding) == {"Europe", "Latin America", "Pacific", "Far East"}
    assert set(holding["Far East"].links) == {"Pacific"}
    assert {"Atlantic Ocean", "Pacific Ocean", "Europe"} <= set(holding["Latin America"].links)


def test_washington_ottawa_and_the_panama_canal(na):
    assert na.hex_of("Washington DC") and na.hex_of("Ottawa")
    canal_hexes = np.nonzero(na.column("canal"))[0]
    assert len(canal_hexes) == 2
    a, b = canal_hexes.tolist()
    assert na.distance(a, b) == 1
    assert na.side_has(a, b, "canal")
    assert na.sides.filter(pl.col("feature") == "canal").height == 1
    assert set(na.column("country")[canal_hexes]) == {"Panama"}
    assert sorted(na.meta["panama_canal_hexes"]) == sorted(na.label(i) for i in canal_hexes)


def test_transport_lines_connect_cities(na):
    tmask = na.side_mask("transport")
    deg = tmask.sum(axis=1)
    for city in ("New York", "Chicago", "Los Angeles", "Montreal", "Mexico City"):
        assert deg[na.index(na.hex_of(city))] >= 2, city
    country = na.column("country")
    assert set(na.sides.filter(pl.col("feature") == "border")["name"].to_list()) >= {
        "Canada|United States", "Mexico|United States", "British Honduras|Guatemala"}
    assert "Puerto Rico" in set(country) and "Jamaica" in set(country)
