"""A small SS Amerika test map and scenario builder, so rules tests pin exact numbers.

Layout (14 columns x 12 rows, CCRR labels):

* columns 01-02 are sea (the "Pacific"), column 03 is the coast;
* a north-south river runs along the east sides of column 07;
* a transportation line runs east along row 06 from 0306 to 1406;
* terrain patches: forestation 0502-0504, rough 0903-0904, mountains 1002-1003
  and 1006 (crossed by the line), desert 1209-1211, a lake at 0810;
* country US for columns 03-10, CA for 11-14; cities at 0306 (industrial,
  port), 0806 (industrial), 1306 (non-industrial).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from workbench.hexgrid import HexGrid
from workbench.map import HexMap

COLS, ROWS = 14, 12


def built_map_dir(tmp_path_factory, name: str, build) -> str:  # noqa: ANN001
    """Build a test map once into a fresh temporary folder; its path for ``load_scenario``."""
    path = tmp_path_factory.mktemp("maps") / name
    build(path)
    return str(path)


def build_ssa_testmap(path: Path) -> HexMap:
    grid = HexGrid(COLS, ROWS)
    labels = grid.labels.tolist()
    col, _ = grid.offset(np.arange(grid.size))
    c = col + 1
    terrain = np.full(grid.size, "clear", dtype=object)
    terrain[c <= 2] = "sea"

    def put(label: str, t: str) -> None:
        terrain[grid.parse(label)] = t

    for lab in ("0502", "0503", "0504"):
        put(lab, "forestation")
    for lab in ("0903", "0904"):
        put(lab, "rough")
    for lab in ("1002", "1003", "1006"):
        put(lab, "mountains")
    for lab in ("1209", "1210", "1211"):
        put(lab, "desert")
    put("0810", "lake")
    country = np.where(c <= 2, None, np.where(c <= 10, "US", "CA")).astype(object)
    coastal = (c == 3)
    city = [None] * grid.size
    kind = [None] * grid.size
    for lab, name, k in (("0306", "Port City", "industrial"), ("0806", "Mill Town", "industrial"),
                         ("1306", "Border Town", "non-industrial")):
        city[grid.parse(lab)] = name
        kind[grid.parse(lab)] = k
    hexes = pl.DataFrame({
        "id": labels, "q": grid.q, "r": grid.r, "terrain": terrain.tolist(),
        "country": country.tolist(), "coastal": coastal.tolist(), "city": city, "city_kind": kind,
        "port": [bool(coastal[i] and city[i]) for i in range(grid.size)],
    })
    sides: list[dict] = []
    for rr in range(1, ROWS + 1):  # river on the east sides of column 07 (odd column: NE, SE)
        for d in (1, 2):
            sides.append({"hex": f"07{rr:02d}", "dir": d, "feature": "river"})
    line = [f"{cc:02d}06" for cc in range(3, 15)]
    for a, b in zip(line, line[1:], strict=False):
        ia, ib = grid.parse(a), grid.parse(b)
        d = int(np.nonzero(grid.neighbors[ia] == ib)[0][0])
        sides.append({"hex": a, "dir": d, "feature": "transport"})
    sides_df = pl.DataFrame(sides, schema={"hex": pl.String, "dir": pl.Int64, "feature": pl.String})
    places = pl.DataFrame({"name": ["Port City", "Mill Town", "Border Town"],
                           "hex": ["0306", "0806", "1306"], "kind": ["city"] * 3})
    meta = {"boxes": [{"name": n, "kind": "holding area", "links": []}
                      for n in ("Europe", "Latin America", "Pacific", "Far East")],
            "side_features": ["river", "transport", "border", "canal", "all-sea"]}
    hm = HexMap("ssa-testland", grid, hexes, sides_df, places, meta)
    hm.save(path)
    return hm


def scenario_text(map_dir: str, units: list[dict], *, first="1942-06", last="1942-08",
                  extra: str = "", axis_nations=("GE", "JA", "SS"), allied_nations=("US", "BC")) -> str:
    lines = [
        'format = 1', 'designer_mode = true', 'id = "test/ssa"', 'title = "SSA rules test"', 'ruleset = "ssa"',
        f'map = "{map_dir}"', f'first_turn = "{first}"', f'last_turn = "{last}"',
        *(["units = []"] if not units else []),
        '[sides.axis]', f'nations = {list(axis_nations)!r}'.replace("'", '"'),
        '[sides.allies]', f'nations = {list(allied_nations)!r}'.replace("'", '"'),
        '[control]', 'US = "allies"', 'CA = "allies"', extra,
    ]
    for u in units:
        lines.append("[[units]]")
        lines += [f"{k} = {_toml(v)}" for k, v in u.items()]
    return "\n".join(lines) + "\n"


def _toml(v) -> str:  # noqa: ANN001
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)


def build_ssa_minor_map(path: Path) -> HexMap:
    """The test map with Central American countries in the east: columns 11-12 Guatemala (GT),
    13-14 Honduras (HN), so Border Town (1306) is a Honduran city (SSA-16.12a, 18.2a)."""
    hm = build_ssa_testmap(path)
    col = np.array([int(h[:2]) for h in hm.hexes["id"].to_list()])
    country = np.where(col >= 13, "HN", np.where(col >= 11, "GT", np.array(hm.hexes["country"].to_list(),
                                                                             dtype=object)))
    hexes = hm.hexes.with_columns(pl.Series("country", country.tolist(), dtype=pl.String))
    out = HexMap("ssa-minorland", hm.grid, hexes, hm.sides, hm.places, hm.meta)
    out.save(path)
    return out


def build_ssa_canal_map(path: Path) -> HexMap:
    """The test map with a second sea in the south-east joined to the western sea only by a
    Panama Canal hexside: row 12 is sea in columns 01-07 and 10-14 (plus 1409-1411); 0812 and
    0912 are the two (US) canal hexes (SSA-7.5)."""
    hm = build_ssa_testmap(path)
    labels = hm.hexes["id"].to_list()
    sea = {f"{c:02d}12" for c in (*range(1, 8), *range(10, 15))} | {"1409", "1410", "1411"}
    terrain = ["sea" if h in sea else t for h, t in zip(labels, hm.hexes["terrain"].to_list(), strict=True)]
    water = np.array([t == "sea" for t in terrain])
    near = np.array([any(water[j] for j in hm.neighbors[i] if j >= 0) for i in range(hm.size)])
    coastal = (~water & near).tolist()
    country = [None if w else c for w, c in zip(water.tolist(), hm.hexes["country"].to_list(), strict=True)]
    hexes = hm.hexes.with_columns(pl.Series("terrain", terrain), pl.Series("coastal", coastal),
                                  pl.Series("country", country, dtype=pl.String))
    i, j = hm.index("0812"), hm.index("0912")
    d = int(np.nonzero(hm.neighbors[i] == j)[0][0])
    sides = pl.concat([hm.sides, pl.DataFrame({"hex": ["0812"], "dir": [d], "feature": ["canal"]},
                                              schema=hm.sides.schema)])
    meta = {**hm.meta, "panama_canal_hexes": ["0812", "0912"]}
    out = HexMap("ssa-canalland", hm.grid, hexes, sides, hm.places, meta)
    out.save(path)
    return out


#: Scenario ``extra`` that switches off the authored out-of-supply movement penalty (SSA-10.G,
#: movement.toml [supply_effects]) for tests of other movement rules, whose units are unsupplied.
NO_SUPPLY_MOVEMENT_PENALTY = ('[overrides]\n"movement.supply_effects.movement_mf_factor" = 1.0\n'
                              '"movement.supply_effects.movement_rail" = true\n')


def build_ssa_weather_map(path: Path) -> HexMap:
    """The test map with weather zones (SSA-26): land rows 01-04 Zone I (arctic), rows 05-12
    Zone II (humid); the sea (columns 01-02) is the Pacific, its rows 01-04 in the Zone I band
    (``climate_band``), the rest in band II.  The lake 0810 and the river of column 07 lie in
    Zone II, the mountains 1002-1003 in Zone I."""
    hm = build_ssa_testmap(path)
    labels = hm.hexes["id"].to_list()
    col = np.array([int(h[:2]) for h in labels])
    row = np.array([int(h[2:]) for h in labels])
    band = np.where(row <= 4, "I", "II")
    zone = np.where(col <= 2, "Pacific", band)
    hexes = hm.hexes.with_columns(pl.Series("weather_zone", zone.tolist()), pl.Series("climate_band", band.tolist()))
    out = HexMap("ssa-weatherland", hm.grid, hexes, hm.sides, hm.places, hm.meta)
    out.save(path)
    return out
