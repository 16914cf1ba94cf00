"""The armor reaction attack itself (ETO-26.5): ``{"kind": "react", "units": [armor ids]}``.

:mod:`reaction` offers the attack when a moving stack leaves a hex in the ZOC of enemy armor
and lets the move go on afterwards; this order makes the attack, through the ordinary land
combat of :mod:`combat` (the combat-result steps, then the move resumes)."""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto.reaction import RULE, after, reactors


class ReactOrder(OrderKind):
    """``{"kind": "react", "units": [armor ids]}``: the armor reaction attack (26.5)."""

    kind = "react"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        data = state.frames[-1]["data"]
        armor = reactors(state, data["hex"], state.decision.side)
        out = [{"kind": "react", "units": [u.id]} for u in armor]
        if len(armor) > 1:
            out.append({"kind": "react", "units": [u.id for u in armor]})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        data = state.frames[-1]["data"]
        ids = order.get("units")
        ok = {u.id for u in reactors(state, data["hex"], state.decision.side)}
        if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids) or not set(ids) <= ok:
            raise IllegalOrder(self.rule, f"only armor whose ZOC covers {data['hex']} may make a reaction "
                               f"attack on it ({', '.join(sorted(ok)) or 'none'} here)")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.eto.combat import resolve

        f = state.pop_interrupt()
        data = f["data"]
        outer = state.markers.pop("combat", None)
        state.emit("reaction", side=f["side"], rule=self.rule,
                   text=f"{', '.join(order['units'])} attack {data['hex']} in reaction", hex=data["hex"],
                   units=list(order["units"]))
        reaction = {"outer": outer, "deferred": data["deferred"], "units": data["units"],
                    "hex": data["hex"], "offered": data["offered"]}
        if not resolve(state, {"target": data["hex"], "attackers": list(order["units"]), "mode": "reaction",
                               "side": f["side"], "reaction": reaction}):
            after(state, {"reaction": reaction})  # cancelled before the roll: the move goes on
