"""Partners that fight side by side but not together (ETO-42.4, 42.5).

42.4 keeps French and British units apart: they never activate each other for offensives,
their land units never end a step stacked together, their air units never fly together and a
base both use is defended by one nationality.  42.5 applies the same to the Western Allies and
the Soviet Union once both are at war with the Axis, and adds: the two never combine
offensives, never enter or pass through a hex the other occupies (even in retreat), and each
feels the other's zones of control as an enemy's (not in retreat).  Which nations and
partnerships are kept apart is data (``politics.toml [cooperation]``).

"Permission" (42.5: bases, ports and supply lines of the other partnership) is always given:
the Allied player commands both partnerships (docs/rulings-eto.md, P21).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import politics, values


def _table(state: State) -> dict:
    return politics.table(state)["cooperation"]


def apart_rule(state: State, a: str, b: str) -> str | None:
    """The rule that keeps nations ``a`` and ``b`` apart (42.4 or 42.5), or ``None``."""
    if a == b:
        return None
    t = _table(state)
    if {a, b} in [set(p) for p in t["apart_nations"]]:
        return str(t["rule"])
    pa, pb = politics.partnership(state, a), politics.partnership(state, b)
    if pa and pb and pa != pb and {pa, pb} in [set(p) for p in t["apart_partnerships"]]:
        return str(t["partnership_rule"])
    return None


def mix_why_not(state: State, units: Iterable[Unit], what: str) -> Refusal | None:
    """Why these units may not be together (``what``: "stack together", "fly together" ...)."""
    nations = sorted({u.nation for u in units})
    for i, a in enumerate(nations):
        for b in nations[i + 1:]:
            rule = apart_rule(state, a, b)
            if rule:
                return Refusal(rule, f"{_name(state, a)} and {_name(state, b)} units may not {what}")
    return None


def _name(state: State, n: str) -> str:
    return str(politics.nations(state).get(n, {}).get("name", n))


def partnership_of(state: State, unit: Unit) -> str | None:
    return politics.partnership(state, unit.nation)


def others(state: State, unit: Unit) -> list[str]:
    """The partnerships on ``unit``'s side that 42.5 keeps apart from it (both at war with the
    Axis: before that they are neutral to each other and politics keeps them apart)."""
    mine = partnership_of(state, unit)
    if mine is None:
        return []
    out = []
    for pair in _table(state)["apart_partnerships"]:
        if mine in pair:
            out += [p for p in pair if p != mine]
    return [p for p in out if politics.front_open(state, "axis", p) and politics.front_open(state, "axis", mine)]


def occupied_by_partnership(state: State, partnership: str) -> np.ndarray:
    """``bool[N]``: hexes holding any counter of ``partnership`` on the map, air units on their
    bases included (42.5: "including occupied airbases")."""
    def make() -> np.ndarray:
        out = np.zeros(state.map.size, dtype=bool)
        for u in state.units_by_id.values():
            if values.on_map(u) and politics.partnership(state, u.nation) == partnership:
                out[state.map.index(u.location)] = True
        return out
    return state.derived(("eto.occupied.partnership", partnership), make, state.event_stamp)


def closed_to(state: State, unit: Unit) -> np.ndarray | None:
    """ETO-42.5: hexes ``unit`` may not enter or pass through, retreat included: those the other
    partnership occupies; ``None`` when no such partnership is at war beside it."""
    ps = others(state, unit)
    if not ps:
        return None
    out = np.zeros(state.map.size, dtype=bool)
    for p in ps:
        out |= occupied_by_partnership(state, p)
    return out if out.any() else None


def zoc_of_others(state: State, unit: Unit) -> np.ndarray | None:
    """ETO-42.5: the other partnership's ZOCs impede ``unit``'s movement "exactly as enemy ZOCs"."""
    ps = others(state, unit)
    if not ps:
        return None
    from workbench.rulesets.eto.zoc import zoc_of_nations

    nations = [n for n, p in politics.war_state(state)["members"].items() if p in ps]
    out = zoc_of_nations(state, unit.side, tuple(sorted(nations)))
    return out if out.any() else None


def activation_why_not(state: State, commander: Unit, unit: Unit) -> Refusal | None:
    """ETO-42.4: French and British units cannot activate each other for offensives (an HQ or a
    general of one nation does not activate the other's units; 42.5 likewise)."""
    rule = apart_rule(state, commander.nation, unit.nation)
    if rule and values.is_combat_unit(state, unit):
        return Refusal(rule, f"{commander.id} ({_name(state, commander.nation)}) cannot activate "
                             f"{unit.id} ({_name(state, unit.nation)}) for an offensive")
    return None


def combine_why_not(state: State, hqs: list[Unit]) -> Refusal | None:
    """ETO-42.5: the Western Allies and the USSR cannot combine offensives (France and Britain
    may, 42.4)."""
    ps = {politics.partnership(state, h.nation) for h in hqs} - {None}
    if len(ps) > 1:
        for pair in _table(state)["apart_partnerships"]:
            if set(pair) <= ps:
                return Refusal(str(_table(state)["partnership_rule"]),
                               "the Western Allies and the Soviet Union cannot combine offensives")
    return None
