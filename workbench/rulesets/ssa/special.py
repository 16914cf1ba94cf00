"""Scenario special rules (SSA-SC0..SC5 "Special rules"), looked up by their ``effect`` keyword.

Each scenario file lists its special rules with a machine keyword (``effect``)
and parameters; rules code asks here whether one is in force.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit


def special_rules(state: State, effect: str) -> list[dict[str, Any]]:
    rules = state.game.scenario.raw.get("special_rules")
    if not isinstance(rules, list) or not rules:
        return []
    return list(_by_effect(state, rules).get(effect, ()))


def _by_effect(state: State, rules: list) -> dict[str, list[dict[str, Any]]]:
    """The scenario's special rules grouped by effect, once per game (asked per unit in hot
    loops; the scenario never changes during play)."""
    def compute() -> dict[str, list[dict[str, Any]]]:
        index: dict[str, list[dict[str, Any]]] = {}
        for r in rules:
            if isinstance(r, dict) and isinstance(r.get("effect"), str):
                index.setdefault(r["effect"], []).append(r)
        return index

    return state.game.cached("ssa.special_rules", compute)


def has_special(state: State, effect: str) -> bool:
    return bool(special_rules(state, effect))


def optional_rule_on(state: State, rule: str) -> bool:
    """Whether optional rule ``rule`` (e.g. ``"SSA-23"``) is in use: switched on in the game's
    ``[options] optional_rules`` and not barred by a scenario special rule (effect
    ``no_optional_rules``, SC0 SR1) -- SSA-SC.6: a scenario's special rules override the
    standard rules, including the players' choice of optional rules."""
    return rule in state.game.options.get("optional_rules", []) and not has_special(state, "no_optional_rules")


def turn_number(state: State) -> int:
    """Game turn number, 1 for the first turn (scenario texts count from 1)."""
    return state.turn + 1


def frozen(state: State, unit: Unit, what: str = "no_move") -> bool:
    """Whether a special rule stops this unit moving (or intercepting) now.

    ``side_frozen`` (SC0 SR2: no US unit moves or intercepts on turn 1) and
    ``neutral_nations`` (neutral forces placed by a player stay put until their
    country enters the war)."""
    rules = state.game.scenario.raw.get("special_rules")
    if not isinstance(rules, list) or not rules:
        return False  # asked per unit whenever movers are listed: skip the lookups
    if what == "no_interception" and unit.side == "allies" and state.markers.get("surprise_attack"):
        from workbench.rulesets.ssa.surprise import no_interception

        if no_interception(state, unit):  # SSA-30.2b
            return True
    by_effect = _by_effect(state, rules)
    for r in by_effect.get("side_frozen", ()):
        if r.get("side") == unit.side and turn_number(state) in r.get("turns", []) and r.get(what, True):
            return True
    for r in by_effect.get("pacific_fall_check", ()):  # SC1 SR7: Japan waits for the Pacific
        if unit.nation == r.get("frozen_nation") and not state.markers.get("pacific_fallen"):
            return True
    for r in by_effect.get("neutral_nations", ()):
        entered = state.markers.get("entered_war", [])
        if unit.nation in r.get("nations", []) and unit.nation not in entered:
            return True
    return False


def start_reduced(state: State, units: list[Unit]) -> None:
    """SC0 SR5 and the like: units of a side and size start (and arrive) reduced."""
    for r in special_rules(state, "start_reduced"):
        for u in units:
            if u.side == r.get("side") and (not r.get("sizes") or u.size in r["sizes"]):
                u.reduced = True
