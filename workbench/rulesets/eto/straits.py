"""Fortified straits (ETO-7.8: ferry crossings).

"A fortification (including coastal fortifications) in a ferry crossing hex prevents enemy naval
units from passing through those straits.  A naval unit can enter a ferry crossing hex containing
(or across the straits from) an enemy fortification without restriction, but when that unit
leaves it must return the way it came."

A *strait* is a group of coastal hexes joined by ferry hexsides (the Dardanelles, the Bosporus,
the Danish belts, Messina, Kerch, Gibraltar).  While any hex of a strait holds an enemy
fortification, a stack that entered the strait from a space may leave it only "the way it came":
to that space or a space linked to it through a coastal hex (:meth:`Straits.way_back`).  A stack
that stops inside keeps the space it came from (``props["strait_end"]``) for its next voyage;
a stack found inside with none (it was there before the fort) may leave either way.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import sea_spaces, values
from workbench.rulesets.eto.control import SIDE_CODE, control

RULE = "ETO-7.8"


class Straits:
    """The map's straits and their ends; built once per game."""

    def __init__(self, state: State) -> None:
        hm = state.map
        g = sea_spaces.graph(state)
        coastal = {n for n in g.nodes if values.on_map_label(n)}
        links: dict[str, set[str]] = {}
        for a in coastal:
            i = hm.index(a)
            for j in hm.neighbors[i]:
                b = hm.label(int(j)) if j >= 0 else ""
                if b in coastal and hm.side_has(i, int(j), "ferry"):
                    links.setdefault(a, set()).add(b)
        self.group_of: dict[str, int] = {}
        self.groups: list[set[str]] = []
        for a in sorted(links):
            if a in self.group_of:
                continue
            grp, todo = set(), [a]
            while todo:
                h = todo.pop()
                if h not in grp:
                    grp.add(h)
                    todo += links.get(h, set())
            for h in grp:
                self.group_of[h] = len(self.groups)
            self.groups.append(grp)


    def way_back(self, g: sea_spaces.SeaGraph, came: str) -> set[str]:
        """"The way it came": the space entered from and the spaces it links to through a coastal
        hex (the book's example: in from 4429, out to 4429 or 4330); area-to-area links do not
        count, else a whole sea would be "the way back"."""
        out = {came}
        for b, _ in g.neighbours(came).items():
            if values.on_map_label(came) or values.on_map_label(b):
                out.add(b)
        out |= {a for a, nxt in g.out.items() if came in nxt and (values.on_map_label(a) or values.on_map_label(came))}
        return out


def straits(state: State) -> Straits:
    return state.game.cached("eto.straits", lambda: Straits(state))


def fort_side(state: State, label: str) -> str | None:
    """The side whose fortification (permanent, or a fortification marker not destroyed) stands in
    ``label``, if any."""
    if label in state.markers.get("destroyed", {}):
        return None
    marker = state.markers.get("forts", {}).get(label) or {}
    if marker.get("kind", "fortification") == "fortification" and marker.get("side"):
        return str(marker["side"])
    hm = state.map
    i = hm.index(label)
    if hm.hexes["fortification"][i]:
        code = control(state)[i]
        for side, c in SIDE_CODE.items():
            if c == code and side in ("axis", "allies"):
                return side
    return None


def blocked(state: State, side: str, label: str) -> bool:
    """ETO-7.8: is ``label`` a ferry crossing hex of a strait holding an enemy fortification."""
    st = straits(state)
    k = st.group_of.get(label)
    return k is not None and any(fort_side(state, h) == values.other(side) for h in st.groups[k])


def why_not(state: State, side: str, units: list[Unit], start: str, path: list[str]) -> Refusal | None:
    """ETO-7.8: a stack that entered a fortified enemy strait leaves it only the way it came."""
    st = straits(state)
    came = next((u.props.get("strait_end") for u in units if u.props.get("strait_end")), None)
    here = start
    g = sea_spaces.graph(state)
    for space in path:
        k = st.group_of.get(here)
        if k is not None and space not in st.groups[k] and came and blocked(state, side, here) \
                and space not in st.way_back(g, came):
            return Refusal(RULE, f"an enemy fortification holds the straits at {here}: ships that came in "
                                 f"from {came} must leave the way they came")
        if st.group_of.get(space) is not None and st.group_of.get(space) != k:
            came = here  # entering a strait: the space it came from
        elif st.group_of.get(space) is None:
            came = None
        here = space
    return None


def end_after(state: State, units: list[Unit], start: str, path: list[str]) -> Any:
    """The exit a stack ending its voyage in a strait came in by (kept in ``props.strait_end``)."""
    st = straits(state)
    came = next((u.props.get("strait_end") for u in units if u.props.get("strait_end")), None)
    here = start
    for space in path:
        g_here, g_space = st.group_of.get(here), st.group_of.get(space)
        if g_space is None:
            came = None
        elif g_space != g_here:
            came = here
        here = space
    return came
