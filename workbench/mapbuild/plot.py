"""Bokeh drawing of a built map: terrain, hexside features, places, hover.

Used by ``notebooks/maps.ipynb`` and for eyeballing a rebuild.  Hexes are drawn
with ``hex_tile`` in the map's own axial coordinates, so the plot's data space
is the projected CRS shifted by the map origin (``origin_x``, ``origin_y`` in
meta.json): true positions, no per-hex polygons to ship to the browser.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import ColumnDataSource, HoverTool, Legend, LegendItem
from bokeh.plotting import figure

from workbench.map import HexMap
from workbench.mapbuild.grid import SIDE_CORNERS

TERRAIN_COLOURS = {
    "clear": "#e8e4c9", "rough": "#b8a27a", "forest": "#7fae6a", "marsh": "#9fc7b3",
    "all-sea": "#a9cde8", "all-lake": "#7fb6e0", "sea": "#a9cde8", "lake": "#7fb6e0",
    "forestation": "#7fae6a", "mountains": "#9a7b56", "desert": "#f0d9a0",
    "tundra": "#cfd8c8", "icecap": "#ffffff",
}
SIDE_STYLE = {
    "river": ("#2b6cb0", 2.0), "canal": ("#00bcd4", 3.0), "ferry": ("#e91e63", 3.0),
    "border": ("#555555", 1.2), "fortress": ("#d32f2f", 3.5), "impassable": ("#000000", 3.0),
    "all-sea": ("#1565c0", 1.0), "lake": ("#4fc3f7", 2.0), "transport": ("#8b0000", 1.6),
}
ROLE_COLOURS = {"capital": "#c62828", "port": "#1565c0", "resource": "#6a1b9a",
                "industrial": "#6a1b9a", "city": "#212121"}


def hex_source(m: HexMap) -> ColumnDataSource:
    cols = {c: m.hexes[c].to_list() for c in m.hexes.columns}
    cols["colour"] = [TERRAIN_COLOURS.get(t, "#ff00ff") for t in cols["terrain"]]
    return ColumnDataSource(cols)


def side_segments(m: HexMap, feature: str) -> tuple[list, list]:
    """Hexside segments of one feature in local plot coordinates."""
    s = m.sides.filter(m.sides["feature"] == feature)
    if s.height == 0:
        return [], []
    idx = np.array([m.grid.parse(h) for h in s["hex"].to_list()], dtype=np.int64)
    d = s["dir"].to_numpy().astype(np.int64)
    r = float(m.meta["circumradius_m"])
    x, y = _local_centres(m, idx)
    ang = np.deg2rad(np.arange(6) * 60.0)
    a, b = SIDE_CORNERS[d, 0], SIDE_CORNERS[d, 1]
    xs = np.stack([x + r * np.cos(ang[a]), x + r * np.cos(ang[b])], axis=1)
    ys = np.stack([y + r * np.sin(ang[a]), y + r * np.sin(ang[b])], axis=1)
    return xs.tolist(), ys.tolist()


def _local_centres(m: HexMap, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r = float(m.meta["circumradius_m"])
    q = m.grid.q[idx].astype(float)
    rr = m.grid.r[idx].astype(float)
    return 1.5 * r * q, -np.sqrt(3.0) * r * (rr + q / 2.0)


def draw(m: HexMap, width: int = 900, height: int = 750, labels: int = 0):
    """A bokeh figure of the whole map with a hover listing every hex attribute."""
    r = float(m.meta["circumradius_m"])
    p = figure(width=width, height=height, match_aspect=True, title=m.meta.get("title", m.name),
               tools="pan,wheel_zoom,box_zoom,reset,save", active_scroll="wheel_zoom")
    p.grid.visible = False
    p.axis.visible = False
    src = hex_source(m)
    tiles = p.hex_tile(q="q", r="r", size=r, orientation="flattop", source=src,
                       fill_color="colour", line_color="#ffffff", line_alpha=0.25,
                       hover_line_color="#000000")
    skip = {"q", "r", "col", "row", "x", "y", "colour"}
    tips = [("hex", "@id")] + [(c, f"@{{{c}}}") for c in m.hexes.columns
                               if c not in skip and c != "id"]
    p.add_tools(HoverTool(renderers=[tiles], tooltips=tips))
    items = []
    for feat in m.side_features:
        xs, ys = side_segments(m, feat)
        if not xs:
            continue
        colour, w = SIDE_STYLE.get(feat, ("#ff9800", 2.0))
        rr = p.multi_line(xs, ys, line_color=colour, line_width=w)
        items.append(LegendItem(label=feat, renderers=[rr]))
    pl_ = m.places
    if pl_.height:
        idx = np.array([m.grid.parse(h) for h in pl_["hex"].to_list()], dtype=np.int64)
        x, y = _local_centres(m, idx)
        role = _roles(pl_)
        psrc = ColumnDataSource({"x": x, "y": y, "name": pl_["name"].to_list(), "role": role,
                                 "hex": pl_["hex"].to_list(),
                                 "colour": [ROLE_COLOURS.get(k, "#212121") for k in role]})
        pr = p.scatter("x", "y", source=psrc, size=6, color="colour", line_color="white")
        p.add_tools(HoverTool(renderers=[pr], tooltips=[("place", "@name"), ("role", "@role"),
                                                        ("hex", "@hex")]))
        items.append(LegendItem(label="places", renderers=[pr]))
        if labels:
            big = np.array([k in ("capital",) for k in role])
            p.text(x[big], y[big], text=np.array(pl_["name"].to_list())[big], text_font_size="8pt",
                   x_offset=4, y_offset=-2)
    p.add_layout(Legend(items=items, click_policy="hide"), "right")
    return p


def _roles(places) -> list[str]:
    cols = set(places.columns)
    out = []
    for row in places.iter_rows(named=True):
        if row.get("capital"):
            out.append("capital")
        elif "city_kind" in cols and row.get("city_kind") == "industrial":
            out.append("industrial")
        elif row.get("port") not in (None, "", False):
            out.append("port")
        elif row.get("resource"):
            out.append("resource")
        else:
            out.append("city")
    return out
