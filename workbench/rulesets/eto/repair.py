"""Emergency repair of destroyed installations in the End phase (ETO-34.4).

``{"kind": "repair", "hex": label, "nation": major}`` in Step 3 (Replenishment):
the major pays 2 EPs (``costs.toml [repairs] installation_repair_monthly``, from
its track or reserve, never into deficit) and rolls one die; on 4-6
(``installation_repair_monthly_success``) the Destroyed marker comes off and the
installation works again for the repairing side, on 1-3 it stays destroyed and
the EPs are spent.  The hex need not be in supply.  The seasonal repair that
always succeeds is 37.5 (``construction.repair``).  One attempt per installation
per turn (ruling in docs/rulings-eto.md).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import construction

ATTEMPTS = "repair_attempts"  # state.markers key: {hex: turn label of the last attempt}


def _row(state: State) -> dict[str, Any]:
    return state.ruleset.tables["costs"]["repairs"]


def attempt_cost(state: State) -> int:
    """ETO-34.4: "The cost of a repair attempt is 2 EPs"."""
    return int(_row(state)["installation_repair_monthly"])


def succeeds(state: State, die: int) -> bool:
    """ETO-34.4: "On a 4-6 it is repaired; on a 1-3, it remains destroyed"."""
    lo, hi = (int(x) for x in str(_row(state)["installation_repair_monthly_success"]).split("-"))
    return lo <= die <= hi


def why_not(state: State, side: str, label: str, nation: str) -> Refusal | None:
    """The 37.5 conditions (friendly hex, a major pays, no deficit) with the 34.4 price, once a turn."""
    why = construction.repair_why_not(state, side, label, nation, cost=attempt_cost(state), rule="ETO-34.4",
                                      what=" for a repair attempt")
    if why:
        return why
    if state.markers.get(ATTEMPTS, {}).get(label) == state.turn_label:
        return Refusal("ETO-34.4", f"the installation at {label} has already had its repair attempt this turn")
    return None


class RepairAttemptOrder(OrderKind):
    """``{"kind": "repair", "hex": label, "nation": major}``: ETO-34.4 in End phase Step 3."""

    kind = "repair"
    rule = "ETO-34.4"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        out = []
        for label in sorted(construction.destroyed_installations(state)):
            for n in state.game.scenario.sides[side]:
                if why_not(state, side, label, n) is None:
                    out.append({"kind": "repair", "hex": label, "nation": n})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        label, nation = str(order.get("hex", "")), str(order.get("nation", ""))
        why = why_not(state, state.decision.side, label, nation)
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side, label, nation = state.decision.side, order["hex"], order["nation"]
        cost = attempt_cost(state)
        construction.pay(state, nation, cost, self.rule, f"a repair attempt at {label}")
        state.markers.setdefault(ATTEMPTS, {})[label] = state.turn_label
        (die,) = state.roll(purpose=f"repair attempt at {label}", rule=self.rule, side=side)
        if succeeds(state, die):
            kind = construction.restore_installation(state, side, label)
            state.emit("installation_repaired", side=side, rule=self.rule, hex=label, nation=nation, eps=cost,
                       text=f"{kind} at {label} repaired by {nation} (die {die}, {cost} EPs)")
        else:
            state.emit("repair_failed", side=side, rule=self.rule, hex=label, nation=nation, eps=cost,
                       text=f"repair attempt at {label} fails (die {die}); {nation} spent {cost} EPs")
