"""Per-hex and per-hexside terrain arrays for ETO land play (ETO-24.1, TEC in tables/terrain.toml).

Terrain never changes in play, so the arrays are computed once per game and
cached on it.  Every land hex costs 1 MP (24.0): terrain decides what may
enter or cross, never what it costs.  Things that change (weather, ZOC,
control, units) are applied on top by the callers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.engine.state import State


@dataclass
class TerrainArrays:
    land: np.ndarray          # bool[N]: a land hex any land unit may enter (not sea/lake/Switzerland)
    marsh: np.ndarray         # bool[N]: armor may not enter (24.1)
    forest: np.ndarray        # bool[N]: ZOC slip (25.2), retreat through ZOC (27.3)
    rough: np.ndarray         # bool[N]: -1 DRM (26.4)
    coastal: np.ndarray
    city: np.ndarray
    city_resource: np.ndarray
    resource: np.ndarray
    severe: np.ndarray        # weather zones (1.0); mild_fg is mild for land (1.4)
    moderate: np.ndarray
    country: np.ndarray       # object[N]
    closed_side: np.ndarray   # bool[N, 6]: impassable, or all-sea without a ferry (24.1)
    lake_side: np.ndarray     # bool[N, 6]: crossable only when frozen (1.5)
    river_side: np.ndarray    # bool[N, 6]: river, canal or ferry (26.4 "treated as rivers")
    fortress_side: np.ndarray  # bool[N, 6]: permanent fortification hexside (24.1, 26.2)
    fort_hex: np.ndarray      # bool[N]: the hex behind a fortress hexside (permanent fort)


def terrain_arrays(state: State) -> TerrainArrays:
    """The map's terrain as arrays, once per game (the Switzerland list is a rule table); once
    the Maginot Line is dismantled (40.5, ``state.markers["maginot"]``), without its forts."""
    base = state.game.cached("eto.terrain", lambda: _terrain_arrays(state))
    if not (state.markers.get("maginot") or {}).get("dismantled"):
        return base
    return state.game.cached("eto.terrain.no_maginot", lambda: _without_line(state, base))


def _without_line(state: State, base: TerrainArrays) -> TerrainArrays:
    """ETO-40.5: "the Maginot Line fortifications along the Franco-German border ... no longer
    exist": the fortified hexes of the line's countries (tables/politics.toml [maginot]) and their
    fortress hexsides are plain terrain."""
    from dataclasses import replace

    line = np.isin(base.country, state.ruleset.tables["politics"]["maginot"]["line_countries"]) & base.fort_hex
    sides = base.fortress_side.copy()
    sides[line] = False
    nb = state.map.neighbors
    sides &= ~((nb >= 0) & line[np.maximum(nb, 0)])  # the sides facing the line from outside too
    return replace(base, fort_hex=base.fort_hex & ~line, fortress_side=sides)


def _terrain_arrays(state: State) -> TerrainArrays:
    hm = state.map
    names = hm.hexes["terrain"].to_list()
    country = np.array([c or "" for c in hm.hexes["country"].to_list()], dtype=object)
    tec = state.ruleset.tables["terrain"]
    banned = set(tec.get("hex_flags", {}).get("switzerland", {}).get("countries", []))
    banned |= {"Switzerland"}
    terr = np.array(names, dtype=object)
    land = ~hm.is_water & ~np.isin(country, list(banned))
    zone = np.array([z or "" for z in hm.hexes["weather_zone"].to_list()], dtype=object) \
        if "weather_zone" in hm.hexes.columns else np.full(hm.size, "moderate", dtype=object)
    mild_fg = hm.flag("mild_france_germany")
    all_sea = hm.side_mask("all-sea")
    ferry = hm.side_mask("ferry")
    closed = hm.side_mask("impassable") | (all_sea & ~ferry)
    fortress = hm.side_mask("fortress")
    arrays = TerrainArrays(
        land=land, marsh=(terr == "marsh") | (terr == "swamp"), forest=terr == "forest",
        rough=terr == "rough", coastal=hm.flag("coastal"), city=hm.flag("city"),
        city_resource=hm.flag("city_resource"), resource=hm.flag("resource"),
        severe=(zone == "severe") & ~mild_fg, moderate=(zone == "moderate") & ~mild_fg,
        country=country, closed_side=closed, lake_side=hm.side_mask("lake") & ~closed,
        river_side=hm.side_mask("river") | hm.side_mask("canal") | ferry,
        fortress_side=fortress, fort_hex=hm.flag("fortification"),
    )
    return arrays


def hex_lonlat(state: State) -> tuple[np.ndarray, np.ndarray]:
    """Longitude and latitude of every hex centre (for authored control regions), once per map."""
    hm = state.map

    def compute() -> tuple[np.ndarray, np.ndarray]:
        from pyproj import Transformer

        t = Transformer.from_crs(hm.meta.get("crs", "EPSG:3035"), "EPSG:4326", always_xy=True)
        lon, lat = t.transform(hm.hexes["x"].to_numpy(), hm.hexes["y"].to_numpy())
        return np.asarray(lon), np.asarray(lat)

    return hm.cached("eto.lonlat", compute)


def land_masses(state: State) -> np.ndarray:
    """A land-mass number per hex: land hexes joined by hexsides that are not all-sea (scipy
    connected components; water hexes get their own numbers).  Islands (37.7's Mediterranean
    islands, 40.6's Sicily and Sardinia) are the small masses.  Computed once per map."""
    def make() -> np.ndarray:
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        hm = state.map
        land = terrain_arrays(state).land
        nb = hm.neighbors
        a = np.repeat(np.arange(hm.size), 6).reshape(hm.size, 6)
        keep = (nb >= 0) & ~hm.side_mask("all-sea") & land[:, None] & land[np.maximum(nb, 0)]
        graph = coo_matrix((np.ones(int(keep.sum())), (a[keep], nb[keep])), shape=(hm.size, hm.size))
        return connected_components(graph, directed=False)[1]
    return state.game.cached(("eto.land_masses",), make)
