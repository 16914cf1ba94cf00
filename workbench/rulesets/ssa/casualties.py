"""Extraction of casualties (SSA-14) for air and naval combat, and naval damage (SSA-13.9).

SSA-14.G: the owner chooses which of his units are lost; SSA-14.X: when air
units interdict, the *attacking* player chooses the defender's losses.  A loss
that leaves no choice (every candidate must go) is applied at once; otherwise
the chooser gets a ``choose_losses`` interrupt naming the candidates and either
a ``count`` of units or an ``at_least`` number of factors (naval exchanges,
convoy cargo).

Knock-on losses (SSA-12.2b, 13.8, 7.7a):

* a carrier fleet that is damaged loses one air unit based on it; one that is
  eliminated loses them all;
* a convoy that is damaged loses 2 transport points of cargo; one that is
  eliminated loses all its cargo.

Events: ``reduced`` / ``eliminated`` (from :mod:`losses`), ``damaged``.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.losses import eliminate, reduce

#: How many listed choices at most (any valid choice is still accepted by check()).
MAX_LISTED = 60


def naval_strength(state: State, unit: Unit) -> float:
    """SSA-3.3c: a naval unit's combat strength on its current side."""
    return values.sided(state, unit, "strength")


def naval_aa(state: State, unit: Unit) -> float:
    """SSA-12.2b: a naval unit's anti-aircraft strength on its current side."""
    return values.sided(state, unit, "aa")


def based_on(state: State, carrier: Unit) -> list[Unit]:
    """Air units based on a carrier fleet (SSA-6.3d), on deck or in the air."""
    return sorted((u for u in state.units_by_id.values() if u.props.get("carrier") == carrier.id),
                  key=lambda u: u.id)


def cargo_of(state: State, convoy: Unit) -> list[Unit]:
    return sorted((u for u in state.units_by_id.values() if u.props.get("carried") == convoy.id),
                  key=lambda u: u.id)


def measure(state: State, unit: Unit, what: str) -> float:
    if what == "naval_strength":
        return naval_strength(state, unit)
    if what == "transport_points":
        return float(Fraction(str(values.value(state, unit, "transport_points", "1"))))
    raise ValueError(what)


def damage(state: State, unit: Unit, rule: str, chooser: str | None = None) -> None:
    """SSA-13.9: a full naval unit flips; a reduced one is eliminated.  Then the knock-on losses."""
    if unit.reduced or values.value(state, unit, "strength_reduced") is None:
        lose(state, unit, "eliminate", rule, chooser)
        return
    unit.reduced = True
    state.emit("damaged", side=unit.side, rule=rule, text=f"{unit.id} damaged (flipped)", unit=unit.id,
               at=unit.location)
    chooser = chooser or unit.side
    if unit.type == "carrier_fleet":
        air = based_on(state, unit)
        if air:  # SSA-12.2b: one air unit based on it is eliminated
            choose_losses(state, chooser, air, rule="SSA-12.2b", count=1, effect="eliminate",
                          prompt=f"{unit.id} was damaged: choose the air unit based on it that is lost")
    if unit.type == "transport":
        cargo = cargo_of(state, unit)
        if cargo:  # authored (docs/rulings-ssa.md): a damaged convoy loses 2 TP of cargo
            choose_losses(state, chooser, cargo, rule="SSA-7.7a", at_least=2.0, measure_by="transport_points",
                          effect="eliminate",
                          prompt=f"{unit.id} was damaged: choose cargo totalling at least 2 transport points")


def lose(state: State, unit: Unit, effect: str, rule: str, chooser: str | None = None) -> None:
    """Apply one loss: ``eliminate``, or ``reduce`` (land step loss, naval damage, air elimination)."""
    if not unit.location or unit.location in ("Eliminated",):
        return
    dom = values.domain(state, unit)
    if effect == "reduce" and dom == "naval":
        damage(state, unit, rule, chooser)
        return
    if effect == "reduce" and dom != "air":
        reduce(state, unit, rule)
        return
    riders = based_on(state, unit) + cargo_of(state, unit) if dom == "naval" else []
    eliminate(state, unit, rule)
    for r in riders:  # SSA-12.2b: a carrier's air units go down with it; cargo is lost with its convoy
        eliminate(state, r, rule, f" (aboard {unit.id})")


def choose_losses(state: State, chooser: str, candidates: list[Unit], *, rule: str, effect: str,
                  prompt: str, count: int | None = None, at_least: float | None = None,
                  measure_by: str | None = None, then: str | None = None, **data: Any) -> None:
    """Have ``chooser`` pick losses among ``candidates`` (or apply them at once if there is no choice)."""
    cands = [u for u in candidates if u.location != "Eliminated"]
    if not cands:
        _then(state, then, data)
        return
    if count is not None:
        forced = count >= len(cands)
    else:
        forced = sum(measure(state, u, measure_by) for u in cands) <= float(at_least)
    if forced:
        for u in cands:
            lose(state, u, effect, rule, chooser)
        _then(state, then, data)
        return
    state.push_interrupt("choose_losses", chooser, rule, prompt, ["choose_losses"],
                         candidates=[u.id for u in cands], count=count, at_least=at_least,
                         measure_by=measure_by, effect=effect, then=then, **data)


def _then(state: State, then: str | None, data: dict[str, Any]) -> None:
    if then:
        state.ruleset.procedures[then](state, {"data": data})


class ChooseLossesOrder(OrderKind):
    """SSA-14: the chooser names the units lost: ``{"kind": "choose_losses", "units": [...]}``."""

    kind = "choose_losses"
    rule = "SSA-14.G"

    def _frame(self, state: State) -> dict[str, Any]:
        return state.frames[-1]

    def _cands(self, state: State) -> list[Unit]:
        f = self._frame(state)
        return [state.unit(u) for u in f["data"]["candidates"] if state.unit(u).location != "Eliminated"]

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = self._frame(state)
        cands = self._cands(state)
        ids = [u.id for u in cands]
        out: list[dict[str, Any]] = []
        if f["data"]["count"] is not None:
            for combo in combinations(ids, min(f["data"]["count"], len(ids))):
                out.append({"kind": "choose_losses", "units": list(combo)})
                if len(out) >= MAX_LISTED:
                    break
            return out
        need = float(f["data"]["at_least"])
        by = f["data"]["measure_by"]
        m = {u.id: measure(state, u, by) for u in cands}
        for k in range(1, len(ids) + 1):
            for combo in combinations(ids, k):
                s = sum(m[u] for u in combo)
                if s >= need and all(s - m[u] < need for u in combo):
                    out.append({"kind": "choose_losses", "units": list(combo)})
                    if len(out) >= MAX_LISTED:
                        return out
        return out or [{"kind": "choose_losses", "units": ids}]

    def check(self, state: State, order: dict[str, Any]) -> None:
        f = self._frame(state)
        rule = f["rule"]
        cands = {u.id for u in self._cands(state)}
        chosen = order.get("units")
        if not isinstance(chosen, list) or not chosen or len(set(chosen)) != len(chosen) \
                or not set(chosen) <= cands:
            raise IllegalOrder(rule, f"choose losses among {', '.join(sorted(cands))}")
        if f["data"]["count"] is not None:
            n = min(f["data"]["count"], len(cands))
            if len(chosen) != n:
                raise IllegalOrder(rule, f"choose exactly {n} unit{'s' if n > 1 else ''} to lose")
            return
        need = float(f["data"]["at_least"])
        got = sum(measure(state, state.unit(u), f["data"]["measure_by"]) for u in chosen)
        if got < need and set(chosen) != cands:
            raise IllegalOrder(rule, f"the losses must total at least {need:g} "
                               f"{f['data']['measure_by'].replace('_', ' ')}; these total {got:g}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f = state.pop_interrupt()
        side = f["side"]
        for uid in order["units"]:
            lose(state, state.unit(uid), f["data"]["effect"], f["rule"], side)
        _then(state, f["data"].get("then"), f["data"])
