"""What the counter layer shows: stacks per hex, seen by the umpire or by one side.

Fog of war: the per-side view is ``state.ruleset.view(state, side)``.  When a
ruleset has no fog rules yet its view *is* the state; the workbench then
still hides the contents of enemy stacks (their presence is public, what is in
them is not).  A ruleset whose view object differs from the state decides
itself: the workbench shows the view's units as they are and greys out the
hexes listed in ``view.hidden_hexes`` (if it has that attribute).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.ui import symbols


@dataclass
class Counter:
    """One drawn counter (the top unit of a stack) and what the hover may tell."""

    hex: str
    side: str
    units: list[str]
    top: str
    cls: str
    size_mark: str
    strength: str
    movement: str
    fill: str
    fg: str
    reduced: bool
    hidden: bool
    oos: bool
    tooltip: str
    ready: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def view_of(state: State, side: str | None) -> tuple[Any, bool]:
    """(the view object, whether enemy stack contents must be hidden by the workbench)."""
    if side is None:
        return state, False
    view = state.ruleset.view(state, side)
    return view, view is state


def stacks(state: State, side: str | None, *, oos: set[str] | None = None,
           selected: str | None = None, ready: set[str] | None = None) -> list[Counter]:
    """Counters of every occupied hex and off-map box, sorted by place then side.  ``ready``:
    units that may still be given an order now (their stack gets a green mark)."""
    ready = ready or set()
    view, hide_enemy = view_of(state, side)
    units = getattr(view, "units_by_id", state.units_by_id)
    by_hex: dict[tuple[str, str], list[Unit]] = {}
    boxes = state.map.boxes
    seas = state.map.sea_areas
    for u in units.values():
        if u.location.isdigit() or u.location in boxes or u.location in seas:
            by_hex.setdefault((u.location, u.side), []).append(u)
    types = state.ruleset.unit_types
    out: list[Counter] = []
    oos = oos or set()
    for (h, s), us in sorted(by_hex.items()):
        hidden = hide_enemy and s != side
        # the selected unit sits on top of its stack; else the strongest-looking land unit first
        us = sorted(us, key=lambda u: (u.id != selected, types.get(u.type, {}).get("domain", "land") != "land",
                                       u.reduced, u.id))
        top = us[0]
        info = types.get(top.type, {})
        fill, ink = nation_colours(state, top)
        if hidden:
            card = {"strength": "?", "movement": "", "note": ""}
            cls, mark = "unit", ""
            tip = f"{s} stack (contents hidden)"  # SSA-19: neither the units nor their number
        else:
            card = state.ruleset.unit_card(state, top)
            cls, mark = symbols.classify(top.type, info), symbols.size_mark(top.size)
            tip = "; ".join(_describe(state, u, oos) for u in us)
        out.append(Counter(h, s, [u.id for u in us], top.id, cls, mark, card.get("strength", ""),
                           card.get("movement", ""), fill, ink,
                           bool(top.reduced) and not hidden, hidden,
                           any(u.id in oos for u in us) and not hidden, tip,
                           any(u.id in ready for u in us) and not hidden))
    return out


def nation_colours(state: State, u: Unit) -> tuple[str, str]:
    """(fill, ink) of a counter: the ruleset's ``units.nation_colours`` entry for the unit's nation
    or nation group (SS Amerika: SSA-3.3), else the generic colour of :mod:`symbols`."""
    units = state.ruleset.tables.get("units", {})
    table = units.get("nation_colours", {})
    entry = table.get(u.nation) or next((table[g] for g, members in units.get("nation_groups", {}).items()
                                         if u.nation in members and g in table), None)
    fill = entry["fill"] if entry else symbols.nation_colour(u.nation, u.side)
    return fill, (entry or {}).get("text") or symbols.text_colour(fill)


def _describe(state: State, u: Unit, oos: set[str]) -> str:
    card = state.ruleset.unit_card(state, u)
    vals = "-".join(v for v in (card.get("strength", ""), card.get("movement", "")) if v)
    flags = [f for f, on in (("reduced", u.reduced), ("out of supply", u.id in oos)) if on]
    return f"{u.id} {u.type.replace('_', ' ')} {vals}" + (f" ({', '.join(flags)})" if flags else "")
