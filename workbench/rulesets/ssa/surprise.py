"""Surprise attack (optional rule SSA-30): the Axis may declare one at the start of game turn 1.

Only where the scenario allows it (special rule ``surprise_attack_allowed``: SC1 SR2, SC4 SR3,
SC5 SR1) and optional rule 30 is on.  The step ``turn/start/surprise-attack`` asks the Axis
(interrupt ``surprise_attack``, order ``declare_surprise_attack``, 30.1).  If declared, during
game turn 1 (``markers["surprise_attack"]`` = the turn label):

* Allied naval units defend in naval combat at half their strength (30.2a: :func:`naval_defence`);
* Allied air units may not intercept (30.2b: ``special.frozen(..., "no_interception")``);
* Allied land units have half their MF, fractions dropped (30.2c: :func:`halved_mf`; the
  one-hex minimum move of SSA-5.4 still applies);
* the Allies roll one die and add ten times it to their morale, up to 100 (30.2d).
"""

from __future__ import annotations

import math
from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.special import has_special, turn_number

RULE = "SSA-30"
MARK = "surprise_attack"


def rule_on(state: State) -> bool:
    """Whether optional rule SSA-30 is switched on and the scenario allows a surprise attack."""
    return RULE in state.game.options.get("optional_rules", []) and has_special(state, "surprise_attack_allowed")


def active(state: State) -> bool:
    """SSA-30.2: a surprise attack was declared and this is game turn 1."""
    return state.markers.get(MARK) is not None and state.markers.get(MARK) == state.turn_label


def offer(state: State, step: Any = None) -> None:
    """SSA-30.1: at the beginning of game turn 1 the Axis may declare a surprise attack."""
    if not rule_on(state) or turn_number(state) != 1 or MARK in state.markers:
        return
    state.push_interrupt("surprise_attack", "axis", "SSA-30.1",
                         "Declare a surprise attack? (Allied fleets defend at half strength, Allied air may not "
                         "intercept and Allied land units have half their MF this turn; Allied morale rises by "
                         "ten times a die)", ["declare_surprise_attack"])


class DeclareSurpriseAttackOrder(OrderKind):
    """SSA-30.1, 30.2d: the Axis declares (or not) a surprise attack at the start of turn 1."""

    kind = "declare_surprise_attack"
    rule = "SSA-30.1"

    def legal(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": self.kind, "declare": True}, {"kind": self.kind, "declare": False}]

    def check(self, state: State, order: dict[str, Any]) -> None:
        if not isinstance(order.get("declare"), bool):
            raise IllegalOrder(self.rule, "say whether the Axis declares a surprise attack: 'declare' true or false")
        if turn_number(state) != 1:
            raise IllegalOrder(self.rule, "a surprise attack can be declared only at the beginning of game turn 1")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        state.pop_interrupt()
        if not order["declare"]:
            state.markers[MARK] = None
            state.emit("surprise_attack", side="axis", rule=self.rule, declared=False,
                       text="the Axis does not declare a surprise attack")
            return
        state.markers[MARK] = state.turn_label
        state.emit("surprise_attack", side="axis", rule=self.rule, declared=True,
                   text="the Axis declares a surprise attack: Allied fleets defend at half strength, Allied air "
                        "may not intercept, Allied land units have half their MF this turn (SSA-30.2)")
        spec = state.ruleset.tables["morale"]["changes"]["surprise_attack"]
        dice = state.roll(int(spec["dice"]), purpose="outrage at the surprise attack: Allied morale",
                          rule="SSA-30.2d", side="allies")
        from workbench.rulesets.ssa import morale

        morale.change(state, spec["side"], sum(dice) * int(spec["times"]), "SSA-30.2d",
                      f"surprise attack: die {sum(dice)} x {spec['times']}")


def halved_mf(state: State, unit: Unit, mf: float) -> float:
    """SSA-30.2c: Allied land units have their MF halved on the surprise turn (fractions dropped)."""
    if unit.side != "allies" or not active(state) or not values.is_land(state, unit):
        return mf
    return float(math.floor(mf / 2 + 1e-9))


def no_interception(state: State, unit: Unit) -> bool:
    """SSA-30.2b: Allied air units may not intercept on the surprise turn."""
    return unit.side == "allies" and active(state)


def naval_defence(state: State, unit: Unit, strength: float) -> float:
    """SSA-30.2a: an Allied naval unit's defence factor is halved on the surprise turn."""
    if unit.side != "allies" or not active(state):
        return strength
    return strength / 2
