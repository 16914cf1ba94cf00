"""A tiny per-position memo for derived arrays (ZOC, supply), so legal-order generation
does not recompute them for every unit.

Keys include the length of the event log and of the order list: every change of
position in the ETO rules code emits an event, so a new position always has a
new key, and undo/restore returns to a key whose value is still right.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.engine.state import State


def memo(state: State, key: tuple, make: Callable[[], Any]) -> Any:
    stamp = (len(state.log), len(state.orders), state.turn)
    cache = state.__dict__.get("_eto_memo")
    if cache is None or cache[0] != stamp:
        cache = (stamp, {})
        state.__dict__["_eto_memo"] = cache
    store = cache[1]
    if key not in store:
        store[key] = make()
    return store[key]


def forget(state: State) -> None:
    state.__dict__.pop("_eto_memo", None)
