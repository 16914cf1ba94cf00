"""Pilot recovery (ETO-34.3): air units shot up over home ground are rebuilt at the turn's end.

"An air unit that suffers step loss over a home country hex (including a coastal hex) can be
rebuilt to full strength at the end of the turn it suffers damage.  Air units defending their
home country in the strategic warfare box are eligible".  :func:`note_loss` (called by
``air_combat.lose_step`` before every air step loss) marks the unit ``props["pilot_recovery"]``
with the turn; an eligible unit that was eliminated goes to the Replenishment box instead of
the force pool (the sequence of play: "After replenishment, move any ... air units still in the
replenishment box to their respective force pools").

``{"kind": "recover_pilots", "unit": id}`` in the End phase's Replenishment step (Step 3) flips
a depleted eligible unit to full strength; ``{"kind": "recover_pilots", "unit": id, "at": hex}``
puts an eliminated one back at full strength on a friendly airbase of its home country, in
supply, with room (docs/rulings-eto.md).  Either costs 5 EPs (``costs.toml`` [repairs]) from
the EP track or the economic reserve.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, airbases, supply, values
from workbench.rulesets.eto.command import pay_eps, spendable
from workbench.rulesets.eto.control import home_mask

RULE = "ETO-34.3"
MARK = "pilot_recovery"


def over_home(state: State, u: Unit) -> bool:
    """ETO-34.3: ``u`` is over a hex of its own home country (land hexes, coastal ones too), or
    defends its home country in the strategic warfare box (2.1)."""
    if state.map.has_hex(u.location):
        return bool(home_mask(state, u.nation)[state.map.index(u.location)])
    return u.props.get("sb_mission") == "defend" and u.props.get("sb_target") == u.nation


def note_loss(state: State, u: Unit) -> None:
    """Before ``u`` loses a step: mark it eligible this turn when the loss is over home ground."""
    if air_units.is_air(state, u) and over_home(state, u):
        u.props[MARK] = state.turn_label
    else:
        u.props.pop(MARK, None)  # the last step was lost abroad: nothing to recover (docs/rulings-eto.md)


def after_elimination(state: State, u: Unit, eligible: bool) -> None:
    """An eliminated eligible unit waits in the Replenishment box (not the force pool) until the
    turn's Replenishment step."""
    if eligible and u.location == values.FORCE_POOL:
        u.location = values.REPLENISHMENT
        u.props[MARK] = state.turn_label
        state.emit("to_replenishment", side=u.side, rule=RULE, unit=u.id,
                   text=f"{u.id} was lost over its home country: its pilots may be recovered this turn "
                        f"(Replenishment box)")


def eligible(state: State, u: Unit) -> bool:
    """Lost a step over home ground this turn and not yet rebuilt."""
    if u.props.get(MARK) != state.turn_label or not air_units.is_air(state, u):
        return False
    return u.location == values.REPLENISHMENT or u.reduced


def cost(state: State) -> int:
    return int(state.ruleset.tables["costs"]["repairs"]["pilot_recovery"])


def base_why_not(state: State, u: Unit, at: Any) -> Refusal | None:
    """Where an eliminated unit comes back: a friendly airbase in its home country that traces
    supply and has room (13.2, 13.4)."""
    if not isinstance(at, str) or not state.map.has_hex(at):
        return Refusal(RULE, f"name the friendly airbase in {u.nation}'s home country where {u.id} returns")
    i = state.map.index(at)
    if not home_mask(state, u.nation)[i]:
        return Refusal(RULE, f"{at} is not in {u.nation}'s home country")
    if not airbases.is_friendly_base(state, u.side, at):
        return Refusal(RULE, f"{at} is not a friendly airbase")
    if supply.reach(state, u.nation, u.side)[i] < 0:
        return Refusal(RULE, f"{at} traces no supply line")
    if not airbases.has_room(state, u.side, at, u):
        return Refusal("ETO-13.4", f"{at} has no room for another air unit")
    return None


def why_not(state: State, side: str, u: Unit, at: Any = None) -> Refusal | None:
    """Why ``side`` may not recover ``u``'s pilots now (to ``at``, for an eliminated unit)."""
    if u.side != side:
        return Refusal(RULE, f"{u.id} is not a {side} unit")
    if not eligible(state, u):
        return Refusal(RULE, f"{u.id} did not lose a step over its home country this turn (or is already rebuilt)")
    if values.nation_kind(state, u.nation) != "major":
        return Refusal("ETO-34.1", "major nation EPs cannot rebuild minor partner units")
    if spendable(state, u.nation) < cost(state):
        return Refusal(RULE, f"{u.nation} cannot pay {cost(state)} EPs (EP track and economic reserve)")
    if u.location == values.REPLENISHMENT:
        return base_why_not(state, u, at)
    return None


def recover(state: State, u: Unit, at: str | None) -> None:
    pay_eps(state, u.nation, cost(state), RULE, f"recovering {u.id}'s pilots")
    u.reduced = False
    u.props.pop(MARK, None)
    if u.location == values.REPLENISHMENT:
        u.props.pop("pool_of", None)
        airbases.land(state, u, str(at))
    state.emit("pilots_recovered", side=u.side, rule=RULE, unit=u.id, at=u.location, eps=cost(state),
               text=f"{u.id} rebuilt to full strength at {u.location} for {cost(state)} EPs (pilot recovery)")


class RecoverPilotsOrder(OrderKind):
    """``recover_pilots``: rebuild an air unit damaged over home ground this turn (34.3)."""

    kind = "recover_pilots"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side if state.decision else None
        out: list[dict[str, Any]] = []
        for u in air_units.air_units(state, side):
            if not eligible(state, u):
                continue
            if u.location != values.REPLENISHMENT:
                if why_not(state, side or "", u) is None:
                    out.append({"kind": self.kind, "unit": u.id})
                continue
            bases = [b for b in airbases.friendly_bases(state, u.side) if why_not(state, u.side, u, b) is None]
            out += [{"kind": self.kind, "unit": u.id, "at": b} for b in bases[:5]]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        u = state.units_by_id.get(order.get("unit", "")) if isinstance(order.get("unit"), str) else None
        if u is None:
            raise IllegalOrder(RULE, f"no unit {order.get('unit')!r}")
        refuse(why_not(state, state.decision.side if state.decision else "", u, order.get("at")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        recover(state, u, order.get("at"))
