"""The home country garrison of a minor country (ETO-41.2).

At least a third (rounded up) of the strength points of a minor country's land units in play
must stay within its original borders.  A move or rail move that would leave fewer inside is
refused; when combat losses inside the country break the ratio, units outside lose steps at
once, the weakest first, until it holds again (run at the end of every attack sequence).
"""

from __future__ import annotations

import math

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import losses, values
from workbench.rulesets.eto.control import home_mask

RULE = "ETO-41.2"


def _land_in_play(state: State, nation: str) -> list[Unit]:
    hm = state.map
    return [u for u in state.units_by_id.values() if u.nation == nation and values.on_map(u)
            and hm.has_hex(u.location or "") and values.is_combat_unit(state, u)]


def split(state: State, nation: str, moved: dict[str, str] | None = None) -> tuple[int, int]:
    """(SP inside the home country, SP in play) for ``nation``, with ``moved`` units placed at
    their new hexes."""
    hm = state.map
    home = home_mask(state, nation, original=True)
    inside = total = 0
    for u in _land_in_play(state, nation):
        at = (moved or {}).get(u.id, u.location)
        sp = values.strength(state, u)
        total += sp
        if hm.has_hex(at) and home[hm.index(at)]:
            inside += sp
    return inside, total


def needed(total: int) -> int:
    return math.ceil(total / 3)


def move_why_not(state: State, unit: Unit, dest: str) -> Refusal | None:
    """ETO-41.2: may ``unit`` end its move in ``dest``?"""
    if values.nation_kind(state, unit.nation) != "minor" or not values.is_combat_unit(state, unit):
        return None
    inside, total = split(state, unit.nation, {unit.id: dest})
    if inside >= needed(total):
        return None
    before, _ = split(state, unit.nation)
    if inside >= before:  # the move does not take strength out of the country
        return None
    name = state.ruleset.tables["units"]["nations"].get(unit.nation, {}).get("name", unit.nation)
    return Refusal(RULE, f"{unit.id} may not leave {name}: at least a third of its {total} SP in play "
                   f"({needed(total)}) must stay inside its borders, and only {inside} would")


def home_lock(state: State, unit: Unit):  # noqa: ANN201
    """For the legal-order lists: the home mask a minor's unit may not leave now (41.2), or None
    when it may go anywhere (the same answer :func:`move_why_not` gives, once per unit)."""
    if values.nation_kind(state, unit.nation) != "minor" or not values.is_combat_unit(state, unit):
        return None
    home = home_mask(state, unit.nation, original=True)
    hm = state.map
    if not (hm.has_hex(unit.location or "") and home[hm.index(unit.location)]):
        return None  # already outside: moving on takes nothing more from home
    inside, total = split(state, unit.nation)
    if inside - values.strength(state, unit) >= needed(total):
        return None
    return home


def restore(state: State, *_: object) -> None:
    """After combat losses inside the country: units outside lose steps until the ratio holds."""
    hm = state.map
    for nation in sorted({u.nation for u in state.units_by_id.values()
                          if values.nation_kind(state, u.nation) == "minor"}):
        home = home_mask(state, nation, original=True)
        for _ in range(100):
            inside, total = split(state, nation)
            if total == 0 or inside >= needed(total):
                break
            outside = [u for u in _land_in_play(state, nation) if not home[hm.index(u.location)]]
            if not outside:
                break
            weakest = min(outside, key=lambda u: (values.strength(state, u), u.id))
            losses.step_loss(state, weakest, RULE, f": {nation} must keep a third of its SP at home")

