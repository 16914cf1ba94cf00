"""The map legend: what every colour, line and mark on the map means (issue 26.6).

Built from the same style tables the map draws with (:mod:`mapview`), and only for what this
map and this game have: the terrain classes present, the hexside features present, the places,
the counter marks and the overlays with the sides' own colours.
"""

from __future__ import annotations

import html
from typing import Any

from workbench.engine.state import State
from workbench.ui import mapview

FEATURE_WORDS = {"river": "river", "canal": "canal", "border": "border", "fortress": "fortress hexside",
                 "ferry": "ferry / strait", "transport": "transport line", "rail": "railroad",
                 "impassable": "impassable hexside", "lake": "lake hexside", "all-sea": "all-sea hexside"}


def _swatch(fill: str, *, line: str = "#9a9a9a", hatch: bool = False, alpha: float = 1.0) -> str:
    pattern = (f"background-image:repeating-linear-gradient(45deg,{fill} 0 2px,transparent 2px 6px);"
               if hatch else "")
    return (f"<span style='display:inline-block;width:16px;height:12px;border:1px solid {line};"
            f"background:{fill if not hatch else 'transparent'};opacity:{alpha};{pattern}"
            "vertical-align:middle;margin-right:4px'></span>")


def _line(style: dict[str, Any]) -> str:
    dash = style.get("line_dash")
    kind = "dashed" if dash in ("dashed", "dashdot") or isinstance(dash, list) else (
        "dotted" if dash == "dotted" else "solid")
    width = max(1, round(float(style.get("line_width", 1.5))))
    return (f"<span style='display:inline-block;width:22px;border-top:{width}px {kind} "
            f"{style.get('line_color', '#555555')};vertical-align:middle;margin-right:4px'></span>")


def _dot(colour: str, shape: str = "50%") -> str:
    return (f"<span style='display:inline-block;width:9px;height:9px;border-radius:{shape};background:{colour};"
            "border:1px solid #333;vertical-align:middle;margin-right:4px'></span>")


def _row(title: str, items: list[str]) -> str:
    return (f"<div class='wb-legend-row'><b>{html.escape(title)}</b> "
            + " ".join(f"<span class='wb-legend-item'>{i}</span>" for i in items) + "</div>")


def legend_html(state: State) -> str:
    """The legend of the map of ``state`` as HTML."""
    hm = state.map
    present = sorted({str(t) for t in hm.hexes["terrain"].to_list()})
    terrain = [_swatch(mapview.TERRAIN_COLOURS.get(t, "#dddddd")) + html.escape(t) for t in present]
    features = [_line(mapview.FEATURE_STYLE.get(f, {"line_color": "#555555", "line_width": 1.5}))
                + html.escape(FEATURE_WORDS.get(f, f)) for f in hm.side_features]
    places = ["&#9733; capital", _dot("#ffffff", "0") + "city", _dot("#000000", "0") + "industrial city",
              _dot("#1f6fb4", "0") + "port", _dot("#ffffff") + "other named place"]
    counters = ["<span style='display:inline-block;width:0;height:0;border-left:5px solid transparent;"
                "border-right:5px solid transparent;border-bottom:9px solid #ff3b30;margin-right:4px'></span>"
                "out of supply", _dot("#1e9e4a") + "can still be given an order now",
                _dot("#ffffff") + "badge: units in the stack", _swatch("#cccccc", hatch=True) + "hatched: reduced"]
    sides = state.ruleset.sides
    overlays = []
    for k, side in enumerate(sides, start=1):
        colour = mapview.OVERLAY_SIDE_COLOURS.get(k, "#888888")
        overlays.append(_swatch(colour, hatch=True) + f"controlled by {html.escape(side)}")
        overlays.append(_swatch(colour, alpha=0.45) + f"{html.escape(side)} unit out of supply")
        overlays.append(_swatch("transparent", line=colour) + f"{html.escape(side)} ZOC")
    marks = [_swatch(mapview.MARK_COLOURS["reach"]) + "legal destination of the selected unit",
             _swatch("transparent", line=mapview.MARK_COLOURS["selected"]) + "selected unit",
             _swatch("transparent", line=mapview.MARK_COLOURS["targets"]) + "attack target",
             _swatch(mapview.MARK_COLOURS["airrange"], alpha=0.4) + "air range",
             _swatch(mapview.MARK_COLOURS["fog"], alpha=0.6) + "fog of war"]
    return ("<div class='wb-legend'>" + _row("Terrain", terrain) + _row("Hexsides and lines", features)
            + _row("Places", places) + _row("Counters", counters) + _row("Overlays", overlays)
            + _row("Marks", marks) + "</div>")
