"""Casualties (SSA-14): reducing and eliminating units, and the owner's loss choices.

A full unit with a reduced side flips; a reduced unit, or one with no reduced
side, is eliminated (SSA-11.9b, 13.9).  Air units are never reduced: any loss
eliminates them (SSA-3.3b).  Eliminated units wait in the ``Eliminated`` box,
where mobilization can rebuild them (SSA-16.12).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values

ELIMINATED = "Eliminated"


def eliminate(state: State, unit: Unit, rule: str, why: str = "") -> None:
    start = unit.location
    unit.location = ELIMINATED
    unit.reduced = False
    for k in list(unit.props):
        if k not in ("carrier_qualified", "pool", "letter"):
            unit.props.pop(k)
    state.emit("eliminated", side=unit.side, rule=rule, text=f"{unit.id} eliminated{why}",
               unit=unit.id, at=start)
    from workbench.rulesets.ssa import airborne, leaders, morale, special_weapons

    morale.note_elimination(state, unit, start)  # SSA-21 (authored): losses cost morale
    leaders.after_elimination(state, unit, start)  # SSA-24.4, 24.5
    airborne.after_elimination(state, unit)  # SSA-22.1c
    special_weapons.after_elimination(state, unit)  # SSA-22.13a, 22.14a


def reduce(state: State, unit: Unit, rule: str) -> None:
    """One step loss: flip, or eliminate if already reduced or one-sided (SSA-11.9b)."""
    if values.domain(state, unit) == "air" or unit.reduced or not values.has_reduced_side(state, unit):
        eliminate(state, unit, rule)
        return
    unit.reduced = True
    state.emit("reduced", side=unit.side, rule=rule, text=f"{unit.id} reduced", unit=unit.id,
               at=unit.location)


def minimal_loss_sets(state: State, units: list[Unit], at_least: float) -> list[list[str]]:
    """SSA-11.9d: every set of units whose full printed CF reaches ``at_least`` with no unit
    to spare (no proper subset would also do); all units if even all of them fall short."""
    ids = sorted(units, key=lambda u: u.id)
    total = sum(values.full_cf(state, u) for u in ids)
    if total <= at_least:
        return [[u.id for u in ids]]
    if len(ids) > 12:  # too many to list every set: offer the greedy one (others still accepted)
        pick, s = [], 0.0
        for u in sorted(ids, key=lambda u: (-values.full_cf(state, u), u.id)):
            if s >= at_least:
                break
            pick.append(u.id)
            s += values.full_cf(state, u)
        return [pick]
    out = []
    for k in range(1, len(ids) + 1):
        for combo in combinations(ids, k):
            s = sum(values.full_cf(state, u) for u in combo)
            if s >= at_least and all(s - values.full_cf(state, u) < at_least for u in combo):
                out.append([u.id for u in combo])
    return out


class TakeLossesOrder(OrderKind):
    """The owner picks which units take an exchange's losses (SSA-11.9d, 14.G)."""

    kind = "take_losses"
    rule = "SSA-11.9d"

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = state.frames[-1]
        units = [state.unit(u) for u in f["data"]["candidates"]]
        return [{"kind": "take_losses", "units": s}
                for s in minimal_loss_sets(state, units, f["data"]["at_least"])]

    def check(self, state: State, order: dict[str, Any]) -> None:
        f = state.frames[-1]
        chosen = order.get("units")
        cands = f["data"]["candidates"]
        if not isinstance(chosen, list) or not chosen or not set(chosen) <= set(cands) \
                or len(set(chosen)) != len(chosen):
            raise IllegalOrder(self.rule, f"choose losses among {', '.join(cands)}")
        need = f["data"]["at_least"]
        got = sum(values.full_cf(state, state.unit(u)) for u in chosen)
        if got < need and set(chosen) != set(cands):
            raise IllegalOrder(self.rule, f"the losses must total at least {need:g} full-strength "
                               f"combat factors; {', '.join(chosen)} total {got:g}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f = state.pop_interrupt()
        for uid in order["units"]:
            reduce(state, state.unit(uid), self.rule)
        then = f["data"].get("then")
        if then:
            state.ruleset.procedures[then](state, f)
