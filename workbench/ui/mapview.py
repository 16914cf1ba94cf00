"""A bokeh hex map of a state: terrain tiles, hexside features and counters.

The only place that knows bokeh's axial convention.  Our axial ``r`` grows
south like bokeh's, so ``hex_tile`` takes our ``q, r`` directly.  Updates
patch the column data sources (``refresh``); the figure is built once.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from bokeh.embed import file_html
from bokeh.models import ColumnDataSource, HoverTool, TapTool
from bokeh.plotting import figure
from bokeh.resources import INLINE
from bokeh.util.hex import axial_to_cartesian

from workbench.engine.state import State

TERRAIN_COLOURS = {
    "clear": "#e8e4c9", "rough": "#c9b48a", "forest": "#8fb37a", "forestation": "#8fb37a",
    "marsh": "#9fc7b8", "mountains": "#a68c6d", "desert": "#f0d9a0", "tundra": "#d7dde0",
    "icecap": "#ffffff", "sea": "#a9cce3", "all-sea": "#a9cce3", "ocean": "#a9cce3",
    "lake": "#b8d8ee", "all-lake": "#b8d8ee",
}
SIDE_COLOURS = {"axis": "#5b5b5b", "allies": "#6b8e23"}


class MapView:
    """One bokeh figure of a state's map with a counter layer that can be refreshed."""

    def __init__(self, state: State, *, width: int = 900, height: int = 650) -> None:
        self.state = state
        hm = state.map
        self.size = 1.0
        terrain = hm.hexes["terrain"].to_list()
        self.hex_source = ColumnDataSource({
            "q": hm.grid.q, "r": hm.grid.r, "id": hm.labels.tolist(), "terrain": terrain,
            "country": [c or "" for c in hm.hexes["country"].to_list()],
            "colour": [TERRAIN_COLOURS.get(t, "#dddddd") for t in terrain],
        })
        self.unit_source = ColumnDataSource(self._unit_data())
        self.fig = figure(width=width, height=height, match_aspect=True,
                          tools="pan,wheel_zoom,reset,save", title=state.game.scenario.title)
        self.fig.axis.visible = False
        self.fig.grid.visible = False
        tiles = self.fig.hex_tile(q="q", r="r", size=self.size, orientation="flattop",
                                  source=self.hex_source, fill_color="colour",
                                  line_color="#9a9a9a", line_width=0.3)
        self.fig.add_tools(HoverTool(renderers=[tiles], tooltips=[
            ("hex", "@id"), ("terrain", "@terrain"), ("country", "@country")]))
        self.fig.add_tools(TapTool(renderers=[tiles]))
        counters = self.fig.rect(x="x", y="y", width=1.0, height=0.75, source=self.unit_source,
                                 fill_color="colour", line_color="black")
        self.fig.text(x="x", y="y", text="label", source=self.unit_source, text_font_size="7pt",
                      text_align="center", text_baseline="middle", text_color="white")
        self.fig.add_tools(HoverTool(renderers=[counters], tooltips=[
            ("hex", "@hex"), ("stack", "@stack")]))

    def _unit_data(self) -> dict[str, list]:
        hm = self.state.map
        stacks: dict[str, list] = {}
        for u in self.state.units_by_id.values():
            if u.location.isdigit():
                stacks.setdefault(u.location, []).append(u)
        hexes = sorted(stacks)
        idx = np.array([hm.index(h) for h in hexes], dtype=np.int64)
        x, y = axial_to_cartesian(hm.grid.q[idx], hm.grid.r[idx], self.size, "flattop") \
            if len(idx) else (np.array([]), np.array([]))
        return {
            "x": list(x), "y": list(y), "hex": hexes,
            "label": [f"{len(stacks[h])}" if len(stacks[h]) > 1 else stacks[h][0].type[:3]
                      for h in hexes],
            "colour": [SIDE_COLOURS.get(stacks[h][0].side, "#333333") for h in hexes],
            "stack": [", ".join(f"{u.id}{' (reduced)' if u.reduced else ''}" for u in stacks[h])
                      for h in hexes],
        }

    def refresh(self) -> None:
        """Patch the counter layer to the state's current positions (no new figure)."""
        self.unit_source.data = self._unit_data()


def export_html(view: MapView, path: str | Path, title: str = "Wargame Workbench") -> Path:
    """A standalone page (bokeh INLINE: opens offline, no kernel)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(file_html(view.fig, INLINE, title), encoding="utf-8")
    return path
