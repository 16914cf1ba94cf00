"""Paratroops that dropped this turn (ETO-19.3, 19.4, 28.7): which they are, and supply judged
as if they were still at their airbases.  Below combat and paradrop, which both need it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from workbench.engine.state import State
from workbench.engine.units import Unit


def dropped_this_turn(state: State, unit: Unit) -> bool:
    """ETO-19.4 / 28.7: the para dropped this turn and must stay where it landed."""
    return unit.props.get("dropped") == state.turn_label


@contextmanager
def paras_lifted(state: State, target: str) -> Iterator[None]:
    """Ruling (19.3): a para that dropped into a defender's hex does not cut that defender's
    supply line (it has no ZOC, 19.0, and the hex stays the defender's until vacated).  Supply
    is judged with such paras lifted back to their airbases for the moment."""
    moved = [(u, u.location) for u in state.units_by_id.values()
             if u.location == target and dropped_this_turn(state, u) and u.props.get("drop_base")]
    if not moved:
        yield
        return
    for u, _ in moved:  # moving units bumps the unit epoch: derived masks are recomputed
        u.location = u.props["drop_base"]
    try:
        yield
    finally:
        for u, at in moved:
            u.location = at
