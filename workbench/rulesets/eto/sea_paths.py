"""Exact hex paths through gridded sea areas (ETO-7.2, 7.4).

"Naval units must show a path of movement through the hex grid when passing through such an
area" (13.1) -- only to keep out of enemy air's reach (7.4: "may trace an exact hex path to avoid
enemy air, still paying only the area cost; exact path unnecessary if no enemy air can reach").
A ``sail`` order may name, for gridded sea areas of its path, the hexes it passes through
(``hexes``: ``{area: [hex, ...]}``).  Air can then intercept the stack in that area only from
those hexes (:func:`air_ship_interception.target_hex`); an area without a traced path is open
to air from any of its hexes.  The MP cost stays the area's (7.4).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import Refusal
from workbench.engine.state import State

RULE = "ETO-7.4"


def area_hexes(state: State, area: str) -> set[str]:
    """The map hexes of a sea area (none for a hex, a box or an area without a grid)."""
    hm = state.map
    a = hm.sea_areas.get(area)
    if a is None or not a.gridded:
        return set()

    def compute() -> frozenset[str]:
        col = hm.hexes["sea_area"].to_list()
        return frozenset(hm.label(i) for i, v in enumerate(col) if str(v) == area)

    return set(hm.cached(("eto.sea_paths.area", area), compute))


def _touches(state: State, hex_: str, space: str) -> bool:
    """``hex_`` is next to ``space`` (a hex, or a gridded area's hexes); spaces without hexes
    (boxes, areas without a grid) are taken as touching."""
    hm = state.map
    if hm.has_hex(space):
        return hm.distance(hex_, space) <= 1
    others = area_hexes(state, space)
    if not others:
        return True
    return any(hm.distance(hex_, h) <= 1 for h in others)


def hexes_why_not(state: State, start: str, path: list[str], hexes: Any) -> Refusal | None:
    """ETO-7.4: each traced area is a gridded sea area of the path; its hexes lie in it, follow one
    another hex by hex, enter from the space before and leave towards the space after."""
    if not hexes:
        return None
    if not isinstance(hexes, dict):
        return Refusal(RULE, "hexes names, for gridded sea areas of the path, the hexes passed through")
    for area, trail in hexes.items():
        if area not in path:
            return Refusal(RULE, f"{area} is not on the path")
        inside = area_hexes(state, area)
        if not inside:
            return Refusal(RULE, f"{area} has no hex grid: there is no exact path to trace through it")
        if not isinstance(trail, list) or not trail or not all(isinstance(h, str) for h in trail):
            return Refusal(RULE, f"name the hexes of {area} passed through, in order")
        bad = [h for h in trail if h not in inside]
        if bad:
            return Refusal(RULE, f"{bad[0]} is not a hex of {area}")
        for a, b in zip(trail, trail[1:], strict=False):
            if state.map.distance(a, b) != 1:
                return Refusal(RULE, f"the path through {area} jumps from {a} to {b}; it goes hex by hex")
        k = path.index(area)
        before = path[k - 1] if k else start
        if not _touches(state, trail[0], before):
            return Refusal(RULE, f"the path through {area} must begin next to {before}, where the stack comes from")
        if k + 1 < len(path) and not _touches(state, trail[-1], path[k + 1]):
            return Refusal(RULE, f"the path through {area} must end next to {path[k + 1]}, where the stack goes")
    return None


def traced(voyage: dict[str, Any] | None, space: str) -> list[str] | None:
    """The hexes a voyage traced through ``space`` (None: not traced)."""
    if not voyage:
        return None
    trail = (voyage.get("hexes") or {}).get(space)
    return list(trail) if trail else None
