"""Stacking (ETO-24.2; partisans 45.6).

Land units per hex: 3 in a city resource hex, 2 elsewhere; a stack made up
entirely of Soviet units gets one more.  French and British land units never stack together,
nor Western Allied and Soviet ones (42.4, 42.5: :mod:`cooperation`).  Paratroops, generals, HQs, air and
naval units and markers never count.  The limit is in effect at the end of
every step: moves, advances, retreats and placements are never allowed to end
overstacked, and :func:`enforce` eliminates any excess at the end of a step
(the owner's choice is automated: weakest units first, docs/rulings-eto.md).
A partisan that ends a step stacked with a friendly land unit is eliminated.
"""

from __future__ import annotations

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import cooperation, values
from workbench.rulesets.eto.terrain import terrain_arrays


def counts(state: State, unit: Unit) -> bool:
    """Whether a unit counts against the land stacking limit (24.2)."""
    return values.on_map(unit) and counts_type(state, unit)


def soviet_nations(state: State) -> set[str]:
    return set(state.ruleset.tables["stacking"]["limits"]["all_soviet_nations"])


def limit_for(state: State, label: str, nations: list[str]) -> int:
    ta = terrain_arrays(state)
    cr = bool(ta.city_resource[state.map.index(label)])
    all_soviet = bool(nations) and set(nations) <= soviet_nations(state)
    return adj.stacking_limit(cr, all_soviet, tables=state.ruleset.tables)


def stack_of(state: State, label: str, side: str) -> list[Unit]:
    return list(_stacks(state).get((label, side), ()))


def _stacks(state: State) -> dict[tuple[str, str], list[Unit]]:
    """Counting units by (hex, side), in unit order: one pass per position, not one per hex asked."""
    def compute() -> dict[tuple[str, str], list[Unit]]:
        out: dict[tuple[str, str], list[Unit]] = {}
        for u in state.units_by_id.values():
            if u.location.isdigit() and counts_type(state, u):  # counts(), inlined: ~400 units a pass
                out.setdefault((u.location, u.side), []).append(u)
        return out

    return state.derived("eto.stacks", compute, len(state.units_by_id))


def fits(state: State, label: str, side: str, adding: list[Unit], leaving: tuple[str, ...] = ()) -> bool:
    """Would the hex be within the limit with ``adding`` units added (and ``leaving`` gone)?"""
    here = [u for u in stack_of(state, label, side) if u.id not in leaving]
    new = here + [u for u in adding if counts_type(state, u) and u not in here]
    new = [u for u in new if values.unit_class(state, u) != "partisan"] or new
    if len(new) > limit_for(state, label, [u.nation for u in new]):
        return False
    return len({u.nation for u in new}) < 2 or cooperation.mix_why_not(state, new, "stack together") is None


def apart_why_not(state: State, label: str, side: str, adding: list[Unit]) -> Refusal | None:
    """ETO-42.4, 42.5: why ``adding`` may not end a step in ``label`` beside the land units
    there (French with British, Western Allied with Soviet)."""
    here = [u for u in stack_of(state, label, side) if u not in adding]
    new = here + [u for u in adding if counts_type(state, u)]
    return cooperation.mix_why_not(state, new, "stack together") if len({u.nation for u in new}) > 1 else None


def counts_type(state: State, unit: Unit) -> bool:
    """24.2: not the exempt classes (paratroops, generals, HQs), nor air units and ATP markers
    (their classes say ``counts_for_stacking = false``: air basing is 13.4's limit)."""
    cache = state.game.cached("eto.counts_type", dict)  # per type: the class and the tables decide
    hit = cache.get(unit.type)
    if hit is None:
        cls = values.unit_class(state, unit)
        if state.ruleset.tables["units"]["classes"].get(cls, {}).get("counts_for_stacking") is False:
            hit = False
        else:
            hit = cls not in state.ruleset.tables["stacking"]["exempt"]["classes"]
        cache[unit.type] = hit
    return hit


