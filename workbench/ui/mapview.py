"""The bokeh hex map: terrain, hexside features, places, overlays and counters.

The only module that knows bokeh's axial convention.  Our axial ``r`` grows
south like bokeh's, so ``hex_tile`` takes our ``q, r`` directly (flat-top,
circumradius 1 in data units).  The figure and its renderers are built once;
every later change (a move, a highlight, an overlay switched on) replaces or
patches the small column data sources, never the figure, so a click costs a
few kilobytes over the widget comm even on the 14,000-hex map.

Layers, bottom to top: terrain tiles; overlays (control, supply, ZOC, air
range, fog of war, the reach of the selected unit, the selected hex); hexside
features (rivers, borders, fortress sides, canals, ferries, lines); sea-area
boundaries and names; off-map boxes (holding areas, port and escort boxes) as
labelled rectangles beside the map edge they link to (``offmap``); places
(cities, capitals, ports); counters (NATO-style symbol, size, values, a hatch
when reduced, a badge with the stack size, a mark when out of supply), in
hexes and in boxes alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from bokeh.events import DoubleTap, PressUp, Tap
from bokeh.models import ColumnDataSource, CustomJSHover, HoverTool, LinearColorMapper, Range1d
from bokeh.plotting import figure
from bokeh.util.hex import axial_to_cartesian

from workbench.engine.state import State
from workbench.hexgrid import DIRECTIONS
from workbench.ui import counters as counters_mod
from workbench.ui import offmap, symbols

TERRAIN_COLOURS = {
    "clear": "#e8e4c9", "rough": "#c9b48a", "forest": "#8fb37a", "forestation": "#8fb37a",
    "woods": "#8fb37a", "marsh": "#9fc7b8", "swamp": "#9fc7b8", "mountains": "#a68c6d",
    "mountain": "#a68c6d", "desert": "#f0d9a0", "tundra": "#d7dde0", "icecap": "#ffffff",
    "sea": "#a9cce3", "all-sea": "#a9cce3", "ocean": "#a9cce3", "lake": "#b8d8ee",
    "all-lake": "#b8d8ee", "steppe": "#e2d9a8", "impassable": "#7d7d7d",
}
SIDE_COLOURS = symbols.SIDE_COLOURS
#: Overlay colours per side index (1 = first side) and per layer.
OVERLAY_SIDE_COLOURS = {1: "#d62728", 2: "#1f77b4", 3: "#2ca02c"}
FEATURE_STYLE: dict[str, dict[str, Any]] = {
    "river": {"line_color": "#2b6cb0", "line_width": 2.5},
    "canal": {"line_color": "#17a2b8", "line_width": 2.5, "line_dash": "dashed"},
    "border": {"line_color": "#7b2d8b", "line_width": 1.6, "line_dash": "dashdot"},
    "fortress": {"line_color": "#111111", "line_width": 4.0},
    "ferry": {"line_color": "#8b5a2b", "line_width": 2.0, "line_dash": "dotted"},
    "transport": {"line_color": "#333333", "line_width": 1.4, "line_dash": [6, 3]},
    "rail": {"line_color": "#333333", "line_width": 1.4, "line_dash": [6, 3]},
    "impassable": {"line_color": "#8b0000", "line_width": 3.0},
    "lake": {"line_color": "#6fa8dc", "line_width": 1.0},
    "all-sea": {"line_color": "#5b8fc7", "line_width": 1.0},
}
DIR_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
OVERLAYS = ("control", "supply", "zoc")
#: (fill alpha, outline colour, outline width, hatch) of each rule overlay.  Control is a light
#: hatch in the side's colour, so a tinted land hex never reads as sea (issue 26.6).
OVERLAY_STYLE = {"control": (0.10, None, 0, "/"), "supply": (0.45, None, 0, None),
                 "zoc": (0.0, "colour", 2.0, None)}
#: Colours of the click marks (reach, selection, air range, fog), for the map and its legend.
MARK_COLOURS = {"reach": "#ffd400", "selected": "#ff7f0e", "airrange": "#9467bd", "fog": "#555555",
                "targets": "#d62728"}
#: Marks, bottom to top: (fill alpha, outline width) of each.
MARKS = {"airrange": (0.18, 0.0), "fog": (0.55, 0.0), "reach": (0.55, 0.0), "targets": (0.0, 3.0),
         "selected": (0.0, 4.0)}
NAN = float("nan")
#: Live maps with more hexes than this send only the hexes around the view.
CULL_ABOVE = 3000


def hex_centres(q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x, y = axial_to_cartesian(np.asarray(q), np.asarray(r), 1.0, "flattop")
    return np.asarray(x, dtype=float), np.asarray(y, dtype=float)


def _corner(x: np.ndarray, y: np.ndarray, deg: float) -> tuple[np.ndarray, np.ndarray]:
    a = np.deg2rad(deg)
    return x + np.cos(a), y + np.sin(a)


class MapView:
    """One bokeh figure of a state's map, built once and patched afterwards.

    ``side`` is the viewing side (``None``: the umpire sees everything).
    ``on_click(label)`` callbacks receive the label of a tapped hex.
    """

    def __init__(self, state: State, *, width: int = 860, height: int = 600,
                 side: str | None = None, title: str | None = None, focus: Iterable[str] | None = None,
                 tools: str = "pan,wheel_zoom,reset,save", interactive: bool = True,
                 ranges: tuple[Range1d, Range1d] | None = None) -> None:
        self.state = state
        self.side = side
        self.hm = hm = state.map
        self.width, self.height = width, height
        q, r = hm.grid.q, hm.grid.r
        self.hx, self.hy = hex_centres(q, r)
        self.boxes = offmap.box_layout(hm, self.hx, self.hy)
        self.sea_anchor = offmap.sea_anchors(hm, self.hx, self.hy) if hm.sea_areas else {}
        self._sea_area = offmap.sea_area_of(hm) if self.sea_anchor else None
        self._click_handlers: list[Callable[[str], None]] = []
        self.counters: list[counters_mod.Counter] = []
        self.selected_unit: str | None = None

        self.terrain_names = list(hm.terrain_names)
        cols = hm.hexes.columns
        countries = [c or "" for c in hm.hexes["country"].to_list()] if "country" in cols else [""] * hm.size
        self.country_names = sorted(set(countries))
        cidx = {c: i for i, c in enumerate(self.country_names)}
        self.features = self._feature_text()
        self.places_text = self._place_text()
        self.place_names = [""] + sorted(set(self.places_text) - {""})
        pidx = {p: i for i, p in enumerate(self.place_names)}
        fbits = hm.side_flags.astype(np.int64)
        dirbits = np.zeros(hm.size, dtype=np.int64)  # feature k on direction d -> bit 6k+d
        for k in range(len(hm.side_features)):
            for d in range(6):
                dirbits |= (((fbits[:, d] >> k) & 1) << (6 * k + d)).astype(np.int64)
        # every column numeric: bokeh sends them as binary arrays (fast to build, small to send);
        # the hover tool turns the codes back into words in the browser
        self._hex_all = {
            "q": np.asarray(q, dtype=np.int32), "r": np.asarray(r, dtype=np.int32),
            "t": hm.terrain.astype(np.int32),
            "c": np.array([cidx[c] for c in countries], dtype=np.int32),
            "f": dirbits.astype(np.float64),  # up to 53 bits exactly
            "p": np.array([pidx[p] for p in self.places_text], dtype=np.int32),
            "lab": np.array([int(x) for x in hm.labels.tolist()], dtype=np.int64).astype(np.float64),
        }
        # viewport culling on big live maps: BokehJS repaints every hex tile on any change, so only
        # the hexes in and around the view are sent; panning out of them sends the next window
        self.cull = interactive and hm.size > CULL_ABOVE
        self._window: tuple[float, float, float, float] | None = None
        self.hex_source = ColumnDataSource({k: v[:0] for k, v in self._hex_all.items()})
        self.fig = figure(frame_width=width, frame_height=height, tools=tools,
                          active_scroll="wheel_zoom", toolbar_location="above",
                          title=title if title is not None else state.game.scenario.title,
                          x_range=ranges[0] if ranges else Range1d(0, 1),
                          y_range=ranges[1] if ranges else Range1d(0, 1), min_border=4)
        self.fig.axis.visible = False
        self.fig.grid.visible = False
        self.fig.background_fill_color = "#dfe8ee"
        if ranges is None:  # shared ranges (a side-by-side twin) keep the other view's frame
            self.set_focus(focus)
        if self.cull:
            for rng in (self.fig.x_range, self.fig.y_range):
                rng.on_change("start", self._range_moved)
                rng.on_change("end", self._range_moved)
            if ranges is not None:
                self._load_window()  # the shared frame is set already: send its hexes now
        else:
            self.hex_source.data = dict(self._hex_all)
        palette = [TERRAIN_COLOURS.get(t, "#dddddd") for t in self.terrain_names]
        mapper = LinearColorMapper(palette=palette, low=-0.5, high=len(palette) - 0.5)
        self.tiles = self.fig.hex_tile(
            q="q", r="r", size=1.0, orientation="flattop", source=self.hex_source,
            fill_color={"field": "t", "transform": mapper}, line_color="#9a9a9a", line_width=0.3,
            name="terrain")
        digits = len(hm.label(0))
        fmt = {
            "@lab": CustomJSHover(code=f"return String(value).padStart({digits}, '0')"),
            "@t": CustomJSHover(args={"names": self.terrain_names}, code="return names[value]"),
            "@c": CustomJSHover(args={"names": self.country_names}, code="return names[value]"),
            "@p": CustomJSHover(args={"names": self.place_names}, code="return names[value]"),
            "@f": CustomJSHover(args={"names": list(hm.side_features), "dirs": list(DIR_NAMES)}, code="""
                const out = []; let v = value;
                for (let k = 0; k < names.length; k++) {
                  const ds = [];
                  for (let d = 0; d < 6; d++) { if (Math.floor(v / 2 ** (6 * k + d)) % 2 == 1) ds.push(dirs[d]); }
                  if (ds.length) out.push(names[k] + ' ' + ds.join(','));
                }
                return out.join('; ');"""),
        }
        self.fig.add_tools(HoverTool(renderers=[self.tiles], formatters=fmt, tooltips=[
            ("hex", "@lab{custom} (@t{custom})"), ("country", "@c{custom}"), ("sides", "@f{custom}"),
            ("place", "@p{custom}")]))
        if interactive:  # standalone pages cannot run Python callbacks
            # a Tap event carries data coordinates; selections would be swallowed by overlays.
            # BokehJS calls a second click within 300 ms a DoubleTap and a click held (or queued
            # behind a busy page) past 300 ms a PressUp instead of a Tap: all three are a click here,
            # or a click on a loaded machine is silently lost.
            for kind in (Tap, DoubleTap, PressUp):
                self.fig.on_event(kind, self._tapped)

        # overlays: the rule layers (toggled rarely) each in a source; the marks that change on
        # every click (reach, selection, targets, air range, fog) share one source and one renderer
        self.overlay_sources: dict[str, ColumnDataSource] = {}
        self.overlay_renderers: dict[str, Any] = {}
        for name, (alpha, line, lw, hatch) in OVERLAY_STYLE.items():
            src = ColumnDataSource({"q": [], "r": [], "colour": []})
            extra = {"hatch_pattern": hatch, "hatch_color": "colour", "hatch_alpha": 0.55, "hatch_scale": 7,
                     "hatch_weight": 1.5} if hatch else {}
            self.overlay_renderers[name] = self.fig.hex_tile(
                q="q", r="r", size=1.0, orientation="flattop", source=src, fill_color="colour",
                fill_alpha=alpha, line_color=line, line_width=lw, name=f"overlay-{name}", **extra)
            self.overlay_sources[name] = src
        self._marks: dict[str, tuple[list[int], list[str]]] = {n: ([], []) for n in MARKS}
        self._batch = 0
        self.marks_source = ColumnDataSource(self._marks_data())
        self.marks_renderer = self.fig.hex_tile(
            q="q", r="r", size=1.0, orientation="flattop", source=self.marks_source, fill_color="fill",
            fill_alpha="fill_alpha", line_color="line", line_width="line_width", name="marks")

        # hexside features
        self.side_renderers: dict[str, Any] = {}
        for feature, seg in self._side_segments().items():
            style = FEATURE_STYLE.get(feature, {"line_color": "#555555", "line_width": 1.5})
            self.side_renderers[feature] = self.fig.segment(
                x0="x0", y0="y0", x1="x1", y1="y1", source=ColumnDataSource(seg),
                line_cap="round", name=f"side-{feature}", **style)

        # sea areas: where one meets another, and each one's name
        seas = offmap.sea_boundaries(hm, self.hx, self.hy)
        if seas["x0"]:
            self.fig.segment(x0="x0", y0="y0", x1="x1", y1="y1", source=ColumnDataSource(seas),
                             line_color="#3d6e9e", line_width=1.2, line_dash="dashed", line_alpha=0.7,
                             name="sea-boundaries")
        self.sea_label_source = ColumnDataSource(offmap.sea_labels(hm, self.hx, self.hy))
        self.fig.text(x="x", y="y", text="name", source=self.sea_label_source, text_font_size="9pt",
                      text_font_style="italic", text_align="center", text_baseline="middle",
                      text_color="#2f5f8f", text_alpha=0.8, name="sea-names")

        # off-map boxes: a rectangle each, lit like hexes when they are a legal destination
        self._box_marks: dict[str, dict[str, str]] = {n: {} for n in MARKS}
        self.box_source = ColumnDataSource(self._box_data())
        self.box_renderer = self.fig.rect(
            x="x", y="y", width="w", height="h", source=self.box_source, fill_color="fill",
            fill_alpha="fill_alpha", line_color="line", line_width="line_width", name="boxes")
        self.fig.text(x="x", y="ty", text="name", source=self.box_source, text_font_size="8pt",
                      text_font_style="bold", text_align="center", text_baseline="top",
                      text_color="#333333", name="box-names")
        self.fig.add_tools(HoverTool(renderers=[self.box_renderer], tooltips=[("box", "@name (@kind)")]))

        # places
        self.place_source = ColumnDataSource(self._place_data())
        self.fig.scatter(x="x", y="y", marker="marker", size="size", source=self.place_source,
                         fill_color="fill", line_color="#222222", name="places")
        self.fig.text(x="x", y="ty", text="name", source=self.place_source, text_font_size="7pt",
                      text_align="center", text_baseline="top", text_color="#222222",
                      name="place-names")

        # counters: one source, every part of the counter art drawn from its columns
        self.unit_source = ColumnDataSource(self._empty_units())
        f, u = self.fig, self.unit_source
        cw, ch = symbols.COUNTER_W, symbols.COUNTER_H
        for k in (2, 1):  # the counters under the top one of a stack
            f.rect(x=f"s{k}x", y=f"s{k}y", width=cw, height=ch, source=u, fill_color="colour",
                   fill_alpha=f"s{k}a", line_color="#000000", line_alpha=f"s{k}a", name=f"stack-shadow-{k}")
        self.counter_renderer = f.rect(
            x="x", y="y", width=cw, height=ch, source=u, fill_color="colour", line_color="outline",
            line_width="outline_w", hatch_pattern="hatch", hatch_color="fg", hatch_alpha=0.45,
            hatch_scale=6, name="counters")
        f.rect(x="x", y="fy", width=symbols.FRAME_W, height=symbols.FRAME_H, source=u,
               fill_alpha=0, line_color="fg", line_alpha="frame_alpha", line_width=1.2, name="frames")
        f.multi_line(xs="lxs", ys="lys", source=u, line_color="fg", line_width=1.2, name="symbol-lines")
        f.ellipse(x="x", y="fy", width="ow", height="oh", source=u, fill_alpha=0, line_color="fg",
                  line_alpha="oa", line_width=1.2, name="symbol-ovals")
        f.scatter(x="x", y="fy", size=4, source=u, fill_color="fg", line_color="fg", fill_alpha="da",
                  line_alpha="da", name="symbol-dots")
        f.text(x="x", y="fy", text="glyph", source=u, text_font_size="9pt", text_align="center",
               text_baseline="middle", text_color="fg", name="glyphs")
        f.text(x="x", y="my", text="size", source=u, text_font_size="5pt", text_align="center",
               text_baseline="bottom", text_color="fg")
        f.text(x="x", y="vy", text="values", source=u, text_font_size="7pt", text_font_style="bold",
               text_align="center", text_baseline="middle", text_color="fg", name="values")
        f.scatter(x="bx", y="by", size=13, source=u, fill_color="#ffffff", line_color="#000000",
                  fill_alpha="ba", line_alpha="ba", name="badges")
        f.text(x="bx", y="by", text="btext", source=u, text_font_size="7pt", text_align="center",
               text_baseline="middle", text_color="#000000")
        f.scatter(x="ox", y="oy", marker="triangle", size=9, source=u, fill_color="#ff3b30",
                  line_color="#000000", fill_alpha="oa2", line_alpha="oa2", name="out-of-supply")
        f.scatter(x="rx", y="oy", marker="circle", size=7, source=u, fill_color="#1e9e4a",
                  line_color="#ffffff", fill_alpha="ra", line_alpha="ra", name="can-act")
        self.fig.add_tools(HoverTool(renderers=[self.counter_renderer], tooltips=[
            ("stack", "@hex: @stack")]))
        for rend in self.fig.renderers:
            # nothing on this map is selected or muted: let BokehJS derive those glyphs instead of
            # sending two extra models per renderer (a quarter of the document)
            rend.nonselection_glyph = "auto"
            rend.muted_glyph = "auto"
            if rend.data_source is u or rend is self.marks_renderer:
                # what a click changes (counters, lit hexes) is painted on the overlay layer, so
                # BokehJS repaints it alone and keeps the terrain, hexsides and places cached
                rend.level = "overlay"
        self.refresh()

    # -- geometry -----------------------------------------------------------------------
    def xy(self, label: str) -> tuple[float, float]:
        """Where a hex's (or a box's, or a sea area's) counters are drawn."""
        spot = self.boxes.get(label)
        if spot is not None:
            return spot.x, spot.y - 0.4
        k = self.sea_anchor.get(label)
        if k is not None:  # ships in a sea area stand just under the area's name
            return float(self.hx[k]), float(self.hy[k]) - 1.0
        i = self.hm.index(label)
        return float(self.hx[i]), float(self.hy[i])

    def _box_data(self) -> dict[str, list]:
        data: dict[str, list] = {k: [] for k in ("x", "y", "w", "h", "ty", "name", "kind", "fill",
                                                 "fill_alpha", "line", "line_width")}
        for name, spot in self.boxes.items():
            data["x"].append(spot.x)
            data["y"].append(spot.y)
            data["w"].append(spot.w)
            data["h"].append(spot.h)
            data["ty"].append(spot.y + spot.h / 2 - 0.1 * spot.h)
            data["name"].append(name)
            data["kind"].append(self.hm.boxes[name].kind.replace("_", " "))
            fill, alpha, line, lw = "#f4f1e6", 0.9, "#555555", 1.0
            for mark, (m_alpha, m_lw) in MARKS.items():  # the topmost mark wins
                colour = self._box_marks[mark].get(name)
                if colour is not None:
                    if m_alpha and mark != "fog":
                        fill, alpha = colour, max(m_alpha, 0.6)
                    if m_lw:
                        line, lw = colour, m_lw
            data["fill"].append(fill)
            data["fill_alpha"].append(alpha)
            data["line"].append(line)
            data["line_width"].append(lw)
        return data

    def set_focus(self, hexes: Iterable[str] | None = None, margin: float = 3.0, *, whole: bool = False) -> None:
        """Frame the view on some hexes (default: where most units of the side to decide stand,
        or all of a small map); ``whole``: the whole map with its boxes."""
        hm = self.hm
        if hexes is None and not whole:
            units = [u for u in self.state.units_by_id.values() if u.location.isdigit()]
            d = self.state.decision
            mine = [u for u in units if d is not None and u.side == d.side]
            # one entry per unit, so the view centres where the army is, not between its outposts
            labels = sorted(u.location for u in (mine or units))
            hexes = labels if (hm.size > 2500 and labels) else None
        if hexes and not whole:
            idx = np.array([hm.index(h) for h in hexes], dtype=np.int64)
            if hm.size > 2500:
                # a readable zoom on a big map: at least 24 columns across
                cx, cy = float(np.median(self.hx[idx])), float(np.median(self.hy[idx]))
                span = 30.0  # about 20 columns across: counters large enough to read
                x0, x1 = cx - span / 2, cx + span / 2
                y0, y1 = cy - span / 2, cy + span / 2
            else:
                x0, x1 = self.hx[idx].min() - margin, self.hx[idx].max() + margin
                y0, y1 = self.hy[idx].min() - margin, self.hy[idx].max() + margin
        else:
            x0, x1 = self.hx.min() - 1.2, self.hx.max() + 1.2
            y0, y1 = self.hy.min() - 1.2, self.hy.max() + 1.2
            for spot in self.boxes.values():  # the off-map boxes are part of the map
                x0, x1 = min(x0, spot.x - spot.w / 2 - 0.5), max(x1, spot.x + spot.w / 2 + 0.5)
                y0, y1 = min(y0, spot.y - spot.h / 2 - 0.5), max(y1, spot.y + spot.h / 2 + 0.5)
        # keep hexes regular: data aspect = frame aspect
        want = self.width / self.height
        w, h = x1 - x0, y1 - y0
        if w / h < want:
            extra = h * want - w
            x0, x1 = x0 - extra / 2, x1 + extra / 2
        else:
            extra = w / want - h
            y0, y1 = y0 - extra / 2, y1 + extra / 2
        for rng, a, b in ((self.fig.x_range, x0, x1), (self.fig.y_range, y0, y1)):
            rng.start, rng.end = float(a), float(b)
            rng.reset_start, rng.reset_end = float(a), float(b)
        self._load_window()

    def centre_on(self, labels: Iterable[str]) -> None:
        """Pan (keeping the zoom) so the middle of ``labels`` (hexes, boxes, sea areas) is centred."""
        xs = [self.xy(h) for h in labels]
        x, y = sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)
        for rng, c in ((self.fig.x_range, x), (self.fig.y_range, y)):
            half = (rng.end - rng.start) / 2
            rng.start, rng.end = c - half, c + half

    def _range_moved(self, attr: str, old: float, new: float) -> None:
        self._load_window()

    def _load_window(self) -> None:
        """Send the hexes of the view plus half a view around it, unless they are already there."""
        if not getattr(self, "cull", False):
            return
        xr, yr = self.fig.x_range, self.fig.y_range
        x0, x1, y0, y1 = float(xr.start), float(xr.end), float(yr.start), float(yr.end)
        w = self._window
        if w is not None and w[0] <= x0 and x1 <= w[1] and w[2] <= y0 and y1 <= w[3]:
            return
        mx, my = (x1 - x0) / 2 + 2, (y1 - y0) / 2 + 2
        self._window = (x0 - mx, x1 + mx, y0 - my, y1 + my)
        keep = ((self.hx >= self._window[0]) & (self.hx <= self._window[1])
                & (self.hy >= self._window[2]) & (self.hy <= self._window[3]))
        self.hex_source.data = {k: v[keep] for k, v in self._hex_all.items()}

    def _side_segments(self) -> dict[str, dict[str, list[float]]]:
        hm = self.hm
        nb = hm.neighbors
        out = {}
        for feature in hm.side_features:
            mask = hm.side_mask(feature).copy()
            # each side once: N/NE/SE from every hex, S/SW/NW only at the map edge
            mask[:, 3:] &= nb[:, 3:] < 0
            i, d = np.nonzero(mask)
            if i.size == 0:
                continue
            centre = 90.0 - 60.0 * d
            x0, y0 = _corner(self.hx[i], self.hy[i], centre - 30)
            x1, y1 = _corner(self.hx[i], self.hy[i], centre + 30)
            out[feature] = {"x0": x0.tolist(), "y0": y0.tolist(), "x1": x1.tolist(), "y1": y1.tolist()}
        return out

    def _feature_text(self) -> list[str]:
        hm = self.hm
        parts: list[list[str]] = [[] for _ in range(hm.size)]
        for feature in hm.side_features:
            mask = hm.side_mask(feature)
            for i in np.nonzero(mask.any(axis=1))[0].tolist():
                dirs = ",".join(DIR_NAMES[d] for d in np.nonzero(mask[i])[0].tolist())
                parts[i].append(f"{feature} {dirs}")
        return ["; ".join(p) for p in parts]

    def _place_text(self) -> list[str]:
        hm = self.hm
        out = [""] * hm.size
        pl_ = hm.places
        if pl_.height == 0:
            return out
        kinds = pl_["kind"].to_list()
        for name, h, k in zip(pl_["name"].to_list(), pl_["hex"].to_list(), kinds, strict=True):
            if hm.has_hex(h):
                i = hm.index(h)
                out[i] = (out[i] + "; " if out[i] else "") + f"{name} ({k})"
        return out

    def _place_data(self) -> dict[str, list]:
        hm = self.hm
        pl_ = hm.places
        data: dict[str, list] = {"x": [], "y": [], "ty": [], "name": [], "marker": [], "size": [], "fill": []}
        if pl_.height == 0:
            return data
        cols = pl_.columns
        cap = pl_["capital"].to_list() if "capital" in cols else [False] * pl_.height
        port = pl_["port"].to_list() if "port" in cols else [False] * pl_.height
        ckind = pl_["city_kind"].to_list() if "city_kind" in cols else [None] * pl_.height
        for k, (name, h, kind) in enumerate(zip(pl_["name"].to_list(), pl_["hex"].to_list(),
                                                pl_["kind"].to_list(), strict=True)):
            if not hm.has_hex(h):
                continue
            x, y = self.xy(h)
            data["x"].append(x)
            data["y"].append(y + 0.69)
            data["ty"].append(y - 0.52)
            data["name"].append(name)
            data["marker"].append("star" if cap[k] else ("square" if kind == "city" else "circle"))
            data["size"].append(11 if cap[k] else 8)
            fill = "#000000" if ckind[k] == "industrial" else "#ffffff"
            data["fill"].append("#1f6fb4" if (port[k] and fill == "#ffffff") else fill)
        return data

    def static_twin(self, *, marks: bool = True, keep_view: bool = True) -> MapView:
        """A fresh, kernel-free copy of this view as it looks now (counters and, with ``marks``,
        overlays and lit hexes; with ``keep_view``, the same frame): what a standalone page or a
        notebook exported without its kernel shows.  The live figure belongs to the notebook's
        document and calls Python on a tap, so it is never embedded itself."""
        twin = MapView(self.state, side=self.side, width=self.width, height=self.height,
                       title=self.fig.title.text, interactive=False)
        if marks:
            twin.selected_unit = self.selected_unit
            for name, src in self.overlay_sources.items():
                twin.overlay_sources[name].data = dict(src.data)
            twin._marks = dict(self._marks)
            twin._box_marks = dict(self._box_marks)
            twin._push_marks()
            twin.set_counters(self.counters)
        if keep_view:
            for mine, theirs in ((self.fig.x_range, twin.fig.x_range), (self.fig.y_range, twin.fig.y_range)):
                theirs.start, theirs.end = mine.start, mine.end
        return twin

    def mark_past(self, banner: str | None) -> None:
        """Mark the map plainly as a past position (a replay), or as live again (issue 26.7):
        the title says so and the frame turns grey-violet."""
        live = self.state.game.scenario.title
        self.fig.title.text = banner or live
        self.fig.title.text_color = "#6a1b9a" if banner else "#000000"
        self.fig.background_fill_color = "#d9d2e9" if banner else "#dfe8ee"
        self.fig.border_fill_color = "#d9d2e9" if banner else "#ffffff"

    # -- events ---------------------------------------------------------------------------
    def on_click(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(hex label)`` whenever a hex is tapped in the browser."""
        self._click_handlers.append(handler)

    def sea_area_at(self, label: str) -> str | None:
        """The sea area an all-sea hex belongs to ('' on land: None)."""
        if self._sea_area is None or not label.isdigit() or not self.hm.has_hex(label):
            return None
        return self._sea_area[self.hm.index(label)] or None

    def click(self, label: str) -> None:
        """What a tap on ``label`` does (kernel-side tests call this)."""
        for h in self._click_handlers:
            h(label)

    def _tapped(self, event: Tap | DoubleTap | PressUp) -> None:
        label = self.hex_at(event.x, event.y)
        if label is not None:
            self.click(label)

    def hex_at(self, x: float | None, y: float | None) -> str | None:
        """The label of the hex (or name of the box) under data point (x, y), ``None`` off the map."""
        if x is None or y is None:
            return None
        for name, spot in self.boxes.items():
            if spot.contains(x, y):
                return name
        from workbench.hexgrid import cube_round

        q = x / 1.5
        r = -y / np.sqrt(3.0) - q / 2.0
        rq, rr = cube_round(np.array([q]), np.array([r]))
        i = int(self.hm.grid.index(rq, rr)[0])
        return self.hm.label(i) if i >= 0 else None

    # -- layers ------------------------------------------------------------------------------
    @contextmanager
    def batch(self):  # noqa: ANN201
        """Group mark changes: the marks source is sent to the browser once, at the end."""
        self._batch += 1
        try:
            yield
        finally:
            self._batch -= 1
            if not self._batch:
                self._push_marks()

    def _marks_data(self) -> dict[str, list]:
        q, r = self.hm.grid.q, self.hm.grid.r
        data: dict[str, list] = {"q": [], "r": [], "fill": [], "fill_alpha": [], "line": [], "line_width": []}
        for name, (alpha, lw) in MARKS.items():
            idx, colours = self._marks[name]
            for i, c in zip(idx, colours, strict=True):
                data["q"].append(int(q[i]))
                data["r"].append(int(r[i]))
                data["fill"].append(c)
                data["fill_alpha"].append(alpha)
                data["line"].append(c if lw else None)
                data["line_width"].append(lw)
        return data

    def _push_marks(self) -> None:
        data = self._marks_data()
        if data != self.marks_source.data:
            self.marks_source.data = data
        if self.boxes:
            boxes = self._box_data()
            if boxes != self.box_source.data:
                self.box_source.data = boxes

    def set_overlay(self, name: str, hexes: Iterable[int] | np.ndarray, colours: Any = "#ffd400") -> None:
        """Replace one overlay: ``hexes`` are dense indices or labels (box names light the box)."""
        hexes = list(hexes) if not isinstance(hexes, np.ndarray) else hexes.tolist()
        if isinstance(colours, str):
            colours = [colours] * len(hexes)
        colours = list(colours)
        box_marks = {h: c for h, c in zip(hexes, colours, strict=True) if isinstance(h, str) and h in self.boxes}
        if box_marks or name in MARKS:
            keep = [k for k, h in enumerate(hexes) if not (isinstance(h, str) and h in self.boxes)]
            hexes, colours = [hexes[k] for k in keep], [colours[k] for k in keep]
        if self.sea_anchor and any(isinstance(h, str) and h in self.sea_anchor for h in hexes):
            wide: list[Any] = []
            wide_c: list[Any] = []
            for h, c in zip(hexes, colours, strict=True):  # a sea area lights every hex of it
                more = np.flatnonzero(self._sea_area == h).tolist() if isinstance(h, str) and h in self.sea_anchor else [h]
                wide += more
                wide_c += [c] * len(more)
            hexes, colours = wide, wide_c
        idx = [self.hm.index(h) if isinstance(h, str) else int(h) for h in hexes]
        if name in MARKS:
            self._box_marks[name] = box_marks
            self._marks[name] = (idx, list(colours))
            if not self._batch:
                self._push_marks()
            return
        q, r = self.hm.grid.q, self.hm.grid.r
        data = {"q": [int(q[i]) for i in idx], "r": [int(r[i]) for i in idx], "colour": list(colours)}
        if data != self.overlay_sources[name].data:
            self.overlay_sources[name].data = data

    def set_overlay_codes(self, name: str, codes: np.ndarray | None, palette: dict[int, str] | None = None,
                          skip_water: bool = False) -> None:
        """An overlay from an int array per hex (0 = nothing; k = side k's colour)."""
        if codes is None:
            self.set_overlay(name, [])
            return
        palette = palette or OVERLAY_SIDE_COLOURS
        mask = codes != 0
        if skip_water:
            mask &= ~self.hm.is_water
        idx = np.nonzero(mask)[0]
        self.set_overlay(name, idx, [palette.get(int(codes[i]), "#888888") for i in idx])

    def overlay_hexes(self, name: str) -> list[str]:
        if name in MARKS:
            return [self.hm.label(i) for i in self._marks[name][0]] + list(self._box_marks[name])
        src = self.overlay_sources[name].data
        return [self.hm.label(int(self.hm.grid.index(q, r))) for q, r in zip(src["q"], src["r"], strict=True)]

    def refresh(self, state: State | None = None, side: str | None = "keep", *,
                oos: set[str] | None = None, ready: set[str] | None = None) -> None:
        """Redraw the counters of ``state`` (default: the current one) as ``side`` sees them;
        ``ready`` units get the green can-act mark."""
        if state is not None:
            self.state = state
        if side != "keep":
            self.side = side
        self.set_counters(counters_mod.stacks(self.state, self.side, oos=oos, selected=self.selected_unit,
                                              ready=ready))

    def set_counters(self, stacks: list[counters_mod.Counter]) -> None:
        """Replace the counter layer (one source; sent only if something changed)."""
        self.counters = stacks
        u = self.counter_data(stacks)
        if u != self.unit_source.data:
            self.unit_source.data = u

    def counter_data(self, stacks: list[counters_mod.Counter]) -> dict[str, list]:
        """The counter source's columns for ``stacks`` (also what an exported page's move list
        swaps in to show an earlier position)."""
        n_side: dict[str, int] = {}
        for c in stacks:
            n_side[c.hex] = n_side.get(c.hex, 0) + 1
        seen: dict[str, int] = {}
        u: dict[str, list] = self._empty_units()
        cw, ch = symbols.COUNTER_W, symbols.COUNTER_H
        for c in stacks:
            x, y = self.xy(c.hex)
            k = seen.get(c.hex, 0)
            seen[c.hex] = k + 1
            if n_side[c.hex] > 1:  # both sides in one hex (air/naval over land units): side by side
                shift = 1.6 if c.hex in self.boxes else 0.32
                x += -shift if k == 0 else shift
            n = len(c.units)
            geo = symbols.frame_geometry(c.cls, x, y)
            sel = self.selected_unit in c.units
            for s_ in (1, 2):
                u[f"s{s_}x"].append(x + 0.09 * s_)
                u[f"s{s_}y"].append(y + 0.09 * s_)
                u[f"s{s_}a"].append(1.0 if n > s_ and not c.hidden else 0.0)
            lxs: list[float] = []
            lys: list[float] = []
            for xs, ys in geo["lines"]:
                if lxs:
                    lxs.append(NAN)
                    lys.append(NAN)
                lxs += xs
                lys += ys
            u["lxs"].append(lxs or [NAN])
            u["lys"].append(lys or [NAN])
            oval = geo["ovals"][0] if geo["ovals"] else None
            u["ow"].append(oval[2] if oval else 0.0)
            u["oh"].append(oval[3] if oval else 0.0)
            u["oa"].append(1.0 if oval else 0.0)
            u["da"].append(1.0 if geo["dots"] else 0.0)
            u["x"].append(x)
            u["y"].append(y)
            u["fy"].append(y + symbols.FRAME_DY)
            u["my"].append(y + symbols.FRAME_DY + symbols.FRAME_H / 2 + 0.02)
            u["vy"].append(y - 0.30)
            u["hex"].append(c.hex)
            u["side"].append(c.side)
            u["top"].append(c.top)
            u["colour"].append(c.fill)
            u["fg"].append(c.fg)
            u["outline"].append("#ffd400" if sel else "#000000")
            u["outline_w"].append(3.0 if sel else 1.0)
            u["hatch"].append("/" if c.reduced else " ")
            u["frame_alpha"].append(1.0 if geo["frame"] else 0.0)
            u["glyph"].append(geo["glyph"])
            u["size"].append(c.size_mark)
            u["values"].append("-".join(v for v in (c.strength, c.movement) if v))
            u["label"].append("?" if c.hidden else (str(n) if n > 1 else c.cls[:3]))
            u["stack"].append(c.tooltip)
            u["count"].append(0 if c.hidden else n)
            u["bx"].append(x + cw / 2)
            u["by"].append(y + ch / 2)
            u["ba"].append(1.0 if n > 1 and not c.hidden else 0.0)  # fog hides the count too
            u["btext"].append(str(n) if n > 1 and not c.hidden else "")
            u["ox"].append(x - cw / 2 + 0.12)
            u["oy"].append(y + ch / 2 - 0.12)
            u["oa2"].append(1.0 if c.oos else 0.0)
            u["rx"].append(x + cw / 2 - 0.12)
            u["ra"].append(1.0 if c.ready else 0.0)
        return u

    def stack_tip(self, label: str) -> str:
        """What the hover tells about the stack(s) in a hex (empty if none)."""
        return " | ".join(c.tooltip for c in self.counters if c.hex == label)

    @staticmethod
    def _empty_units() -> dict[str, list]:
        keys = ("x", "y", "fy", "my", "vy", "hex", "side", "top", "colour", "fg", "outline", "outline_w",
                "hatch", "frame_alpha", "glyph", "size", "values", "label", "stack", "count",
                "s1x", "s1y", "s1a", "s2x", "s2y", "s2a", "lxs", "lys", "ow", "oh", "oa", "da",
                "bx", "by", "ba", "btext", "ox", "oy", "oa2", "rx", "ra")
        return {k: [] for k in keys}


def neighbour_labels(state: State, label: str) -> list[str]:
    hm = state.map
    nb = hm.neighbors[hm.index(label)]
    return [hm.label(int(j)) for j in nb if j >= 0]


def hex_line(state: State, a: str, b: str) -> list[str]:
    """Labels of the straight line of hexes from a to b, a excluded (for explaining refused clicks)."""
    from workbench.hexgrid import line

    hm = state.map
    ia, ib = hm.index(a), hm.index(b)
    pts = line(int(hm.grid.q[ia]), int(hm.grid.r[ia]), int(hm.grid.q[ib]), int(hm.grid.r[ib]))
    out = []
    for q, r in pts[1:].tolist():
        i = hm.grid.index(q, r)
        if i is None or int(i) < 0:
            break
        out.append(hm.label(int(i)))
    return out


def export_html(view: MapView, path: str | Path, title: str = "Wargame Workbench") -> Path:
    """A standalone page of one map view (bokeh INLINE: opens offline, no kernel)."""
    from workbench.ui.export import write_page

    if view.fig._event_callbacks:  # a live view: export a fresh twin
        view = view.static_twin()
    return write_page([view.fig], path, title)


__all__ = ["DIRECTIONS", "MapView", "export_html", "hex_centres", "hex_line", "neighbour_labels"]
