"""Air reconnaissance and what each side sees of the other's stacks (ETO-12.7; GAP-24).

12.7: "Air reconnaissance entitles a player to examine enemy stacks within range of any friendly
air unit"; it is not a mission, is made at any time after the Weather phase of a monthly turn and
never in a seasonal turn, and not over a hex whose weather prohibits air operations or whose every
friendly air unit in range is grounded.  "If air reconnaissance of a hex is not possible, then
enemy units in that hex cannot be examined beyond the top unit."

So :func:`view` shows a side its own units and, in each enemy stack on the map, the top unit --
and the whole stack where reconnaissance reaches (:func:`examinable`).  Recon being automatic and
free, it is simply always made where it may be (docs/rulings-eto.md, R1).  A game played without
the air rules (``options.air`` off) abstracts the air war, and with it reconnaissance: every stack
may be examined.  Units at sea, in boxes and aboard ships are found by naval search (8.x), not by
12.7, and are shown as they are.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine import fog
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, values
from workbench.rulesets.eto.weather import air_grounded

RULE = "ETO-12.7"


def examinable(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes whose enemy stacks ``side`` may examine now (12.7)."""
    def make() -> np.ndarray:
        hm = state.map
        if not state.game.options.get("air"):
            return np.ones(hm.size, dtype=bool)
        out = np.zeros(hm.size, dtype=bool)
        if state.turn_label[5:].isalpha():  # "Air reconnaissance is not allowed during seasonal turns"
            return out
        grounded = air_grounded(state)
        by_range: dict[int, list[int]] = {}
        for u in air_units.air_units(state, side):
            if not values.on_map(u) or not hm.has_hex(u.location):
                continue
            i = hm.index(u.location)
            if grounded[i]:
                continue  # a grounded unit sees nothing
            by_range.setdefault(air_units.air_range(state, u), []).append(i)
        for rng, sources in by_range.items():
            out |= hm.dist_to_set(sorted(set(sources))) <= rng
        return out & ~grounded
    return state.derived(("eto.recon", side), make, state.event_stamp)


def _top_first(units: list[Unit]) -> list[Unit]:
    """A stack from the top: the order the units stand in the position (the owner's stacking
    order; an airbase's is 13.4's restack order), ruling R1."""
    return list(units)


def _hidden(state: State, side: str) -> tuple[dict[str, int], set[str]]:
    """The enemy units ``side`` may not see (ids) and their count per hex, computed once per position:
    the bots ask for a view at every decision."""
    def make() -> tuple[dict[str, int], set[str]]:
        hm = state.map
        stacks: dict[str, list[Unit]] = {}
        for u in state.units_by_id.values():
            if u.side != side and u.location.isdigit() and hm.has_hex(u.location):
                stacks.setdefault(u.location, []).append(u)
        deep = {h: us for h, us in stacks.items() if len(us) > 1}
        hidden: dict[str, int] = {}
        concealed: set[str] = set()
        if deep:
            seen = examinable(state, side)
            for h, us in deep.items():
                if not seen[hm.index(h)]:
                    _top, *rest = _top_first(us)
                    hidden[h] = len(rest)
                    concealed |= {u.id for u in rest}
        return hidden, concealed
    return state.derived(("eto.fog", side), make, state.event_stamp)


def view(state: State, side: str, markers: dict[str, Any] | None = None) -> Any:
    """The position as ``side`` sees it: the state itself when nothing is hidden, else a
    :class:`fog.SideView` (``markers``: the ETO face's filtered markers, the secret offensives)."""
    hidden, concealed = _hidden(state, side)
    if not hidden:
        return None
    shown = {uid: u for uid, u in state.units_by_id.items() if uid not in concealed}
    return ETOSideView(state, side, shown, hidden, markers)


class ETOSideView(fog.SideView):
    """12.7's view: the top unit of each enemy stack out of reconnaissance, the rest counted."""

    def __init__(self, state: State, side: str, shown: dict[str, Unit], hidden: dict[str, int],
                 markers: dict[str, Any] | None) -> None:
        super().__init__(state, side, shown, hidden)
        self._markers = markers

    @property
    def markers(self) -> dict[str, Any]:
        return self._markers if self._markers is not None else self._state.markers
