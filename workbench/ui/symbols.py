"""Counter art: NATO-style type symbols, size markers and nation colours.

Generic over rulesets: a unit type is classified from its name and its
``domain`` in the ruleset's ``units`` table (``infantry_division``,
``panzergrenadier_division``, ``standard_fighter``, ``battle_fleet`` ...), so
a new ruleset gets sensible counters without any UI code.  A ruleset may
override the class of a type with ``symbol = "armor"`` in its units table.

The symbol is drawn as primitives inside the counter's unit frame (see
:func:`frame_geometry`): crossed diagonals for infantry, an oval for armour,
one diagonal for cavalry, a dot for artillery, a bar for logistics; air and
naval units and leaders get a glyph.
"""

from __future__ import annotations

from typing import Any

#: Symbol classes and how they are drawn inside the frame.
#: cross = infantry X, oval = armour track, slash = cavalry, dot = artillery,
#: bar = logistics line along the bottom, glyph = a text glyph instead of the frame art.
CLASSES: dict[str, dict[str, Any]] = {
    "infantry": {"cross": True},
    "mechanized": {"cross": True, "oval": True},
    "armor": {"oval": True},
    "cavalry": {"slash": True},
    "recon": {"slash": True, "oval": True},
    "airborne": {"cross": True, "glyph": "⌒"},
    "mountain": {"cross": True, "glyph": "▲"},
    "marine": {"cross": True, "glyph": "⚓"},
    "artillery": {"dot": True},
    "logistic": {"bar": True},
    "security": {"glyph": "MP"},
    "special": {"glyph": "SF"},
    "partisan": {"glyph": "P"},
    "leader": {"glyph": "★", "no_frame": True},
    "air": {"glyph": "✈", "no_frame": True},
    "naval": {"glyph": "⚓", "no_frame": True},
    "submarine": {"glyph": "◒", "no_frame": True},
    "base": {"glyph": "⊕", "no_frame": True},
    "unit": {"glyph": "?"},
}

SIZE_MARKS = {"army": "XXXX", "corps": "XXX", "division": "XX", "brigade": "X",
              "regiment": "III", "battalion": "II", "group": "X"}

NATION_COLOURS = {
    "GE": "#8a9199", "SS": "#3d3d3d", "IT": "#6d8f4e", "JA": "#d9b44a", "EV": "#7f8a96",
    "AV": "#a3a08a", "AXP": "#5d5d5d", "US": "#6b8e23", "BC": "#c2a36b", "EX": "#5b7fa6",
    "ME": "#8c5a3c", "ALP": "#7a6a4f", "SU": "#a0522d", "FR": "#4f6fb0", "PL": "#b56576",
    "RO": "#8f6a9e", "HU": "#5f8f8f", "FI": "#e6e6e6", "LA": "#8c5a3c",
}
SIDE_COLOURS = {"axis": "#6e7479", "allies": "#6b8e23"}
SIDE_ACCENT = {"axis": "#202020", "allies": "#f4f1de"}

_KEYWORDS: list[tuple[str, tuple[str, ...]]] = [
    ("leader", ("leader", "royal", "degaulle")),
    ("submarine", ("submarine", "u_boat", "uboat")),
    ("naval", ("fleet", "transport", "convoy", "carrier", "naval", "cruiser", "battleship", "ship")),
    ("air", ("fighter", "bomber", "air_unit", "aircraft", "interceptor", "missile", "air")),
    ("base", ("airbase", "fortress_marker")),
    ("logistic", ("logistic", "supply", "hq", "headquarters")),
    ("artillery", ("artillery", "gun", "rocket")),
    ("partisan", ("partisan", "resistance")),
    ("security", ("police", "security", "government", "garrison")),
    ("special", ("commando", "ranger", "jagdkommando", "special")),
    ("mechanized", ("panzergrenadier", "mechanized", "motorized", "mech_inf")),
    ("armor", ("armor", "armour", "panzer", "tank")),
    ("recon", ("armored_cavalry",)),
    ("cavalry", ("cavalry",)),
    ("airborne", ("airborne", "parachute", "para")),
    ("mountain", ("mountain",)),
    ("marine", ("marine",)),
    ("infantry", ("infantry", "division", "corps", "brigade", "volunteer", "militia", "rifle", "army")),
]


def classify(utype: str, info: dict[str, Any] | None = None) -> str:
    """The symbol class of a unit type (see :data:`CLASSES`)."""
    info = info or {}
    explicit = info.get("symbol")
    if isinstance(explicit, str) and explicit in CLASSES:
        return explicit
    name = utype.lower()
    domain = info.get("domain", "")
    # armoured cavalry before armour, airborne armour keeps its armour oval
    if "armored_cavalry" in name or "armoured_cavalry" in name:
        return "recon"
    if name.startswith("airborne_panzer") or name.startswith("airborne_armor"):
        return "armor"
    for cls, words in _KEYWORDS:
        if any(w in name for w in words):
            if cls == "air" and domain == "land":
                continue  # e.g. 'airborne_*' land units
            return cls
    if domain == "air":
        return "air"
    if domain == "naval":
        return "naval"
    return "infantry" if domain == "land" else "unit"


def size_mark(size: str | None) -> str:
    return SIZE_MARKS.get((size or "").lower(), "")


def nation_colour(nation: str, side: str) -> str:
    return NATION_COLOURS.get(nation, SIDE_COLOURS.get(side, "#777777"))


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``."""
    h = fill.lstrip("#")
    if len(h) != 6:
        return "#000000"
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return "#000000" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#ffffff"


# -- geometry (data units; hex circumradius 1) ---------------------------------------
COUNTER_W, COUNTER_H = 1.05, 1.0
FRAME_W, FRAME_H = 0.56, 0.34
FRAME_DY = 0.10  # frame centre above the counter centre


def frame_geometry(cls: str, x: float, y: float) -> dict[str, list]:
    """Primitives of one symbol at counter centre (x, y): line strips, ovals, dots, glyph."""
    spec = CLASSES.get(cls, CLASSES["unit"])
    fx, fy = x, y + FRAME_DY
    hw, hh = FRAME_W / 2, FRAME_H / 2
    lines: list[tuple[list[float], list[float]]] = []
    ovals: list[tuple[float, float, float, float]] = []
    dots: list[tuple[float, float]] = []
    if spec.get("cross"):
        lines.append(([fx - hw, fx + hw], [fy - hh, fy + hh]))
        lines.append(([fx - hw, fx + hw], [fy + hh, fy - hh]))
    if spec.get("slash"):
        lines.append(([fx - hw, fx + hw], [fy - hh, fy + hh]))
    if spec.get("bar"):
        lines.append(([fx - hw, fx + hw], [fy - hh * 0.45, fy - hh * 0.45]))
    if spec.get("oval"):
        ovals.append((fx, fy, FRAME_W * 0.7, FRAME_H * 0.62))
    if spec.get("dot"):
        dots.append((fx, fy))
    return {"lines": lines, "ovals": ovals, "dots": dots, "glyph": spec.get("glyph", ""),
            "frame": not spec.get("no_frame")}
