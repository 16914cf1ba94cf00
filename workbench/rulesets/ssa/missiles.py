"""Strategic missiles (SSA-22.13): long-range strategic bombing that is never shot down.

With rule 22.13 in use, in the friendly Combat phase's aerial step a player fires a
missile carried by one of his logistic units that is in supply (22.13a-b) at an enemy
city hex anywhere on the map (22.13c): ``{"kind": "fire_missile", "missiles": [ids],
"target": hex}``.  Each missile bombards with 10, only for strategic bombing, and may
join a strategic bombing attack of air units on the same hex (the bomb order's
``missiles`` field, 22.13d).  The odds are bombardment against the city's AA; no
interception, no AA fire, and no result ever costs a missile, which is used up either
way (22.13e).  The Allies may fire at the Europe or Far East holding area: each such
missile lowers Axis morale by 1 and does nothing else (22.13f;
``tables/holding_areas.toml [atomic_and_missiles]``).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.air import city_kinds
from workbench.rulesets.ssa.movement import other
from workbench.rulesets.ssa.occupation import city_owner
from workbench.rulesets.ssa.special_units import in_use
from workbench.rulesets.ssa.special_weapons import MISSILE, carrier, expend, where

PART = "SSA-22.13"
AERIAL = "player/combat/air"
#: ``state.markers``: hexes hit by an atomic attack this Combat phase (22.14f) and hexes
#: already attacked from the air this phase (an atomic attack must come first).
ATOMIC_HEXES = "atomic_hexes"
AIR_ATTACKED = "air_attacked_hexes"


def boxes_table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["holding_areas"]["atomic_and_missiles"]


def bombardment(state: State, missile: Unit) -> float:
    """SSA-22.13d: a missile's bombardment strength (10)."""
    return float(values.value(state, missile, "bombardment", 0) or 0)


def missile_refusal(state: State, side: str, mid: Any) -> Refusal | None:
    """Why ``mid`` cannot be fired now (SSA-22.13a-b)."""
    from workbench.rulesets.ssa.supply import supply_status

    m = state.units_by_id.get(mid) if isinstance(mid, str) else None
    if m is None or m.side != side or m.type != MISSILE:
        return Refusal("SSA-22.13", f"{mid!r} is not one of your strategic missiles")
    c = carrier(state, m)
    if c is None or not values.value(state, c, "logistic", False):
        return Refusal("SSA-22.13a", f"{m.id} is not carried by a logistic unit")
    if not supply_status(state, side).get(c.id, False):
        return Refusal("SSA-22.13b", f"{m.id}'s logistic unit {c.id} is out of supply: it cannot launch")
    return None


def target_refusal(state: State, side: str, target: Any) -> Refusal | None:
    """SSA-22.13b, c, f: an enemy city hex anywhere; for the Allies also Europe or the Far East."""
    hm = state.map
    if isinstance(target, str) and target in state.ruleset.boxes:
        if side == "allies" and target in boxes_table(state)["allied_missile_vs"]:
            return None
        return Refusal("SSA-22.13f", "only the Allies fire missiles at a holding area, and only at Europe or the Far East")
    if not isinstance(target, str) or not hm.has_hex(target):
        return Refusal("SSA-22.13b", f"{target!r} is not a hex of the map")
    i = hm.index(target)
    if not city_kinds(state)[i] or city_owner(state, i) != other(side):
        return Refusal("SSA-22.13b", f"missiles are fired at enemy city hexes; {target} is not one")
    if target in state.markers.get(ATOMIC_HEXES, []):
        return Refusal("SSA-22.14f", f"{target} was hit by an atomic attack this Combat phase: nothing else "
                       "may attack it")
    return None


def strike(state: State, side: str, target: str, missiles: list[Unit]) -> None:
    """SSA-22.13f: missiles at a holding area cost the Axis 1 morale each; they are used up."""
    from workbench.rulesets.ssa import morale

    per = int(boxes_table(state)["allied_missile_axis_morale"])
    for m in missiles:
        expend(state, m, "SSA-22.13e", f"fired at {target}")
    morale.change(state, "axis", per * len(missiles), "SSA-22.13f",
                  f"{len(missiles)} Allied missile{'s' if len(missiles) > 1 else ''} fired at {target}")


def fired(state: State, missiles: list[Unit], target: str) -> None:
    """SSA-22.13e: missiles are expended in the Combat phase they are fired, whatever the result."""
    for m in missiles:
        expend(state, m, "SSA-22.13e", f"fired at {target}")


class FireMissileOrder(OrderKind):
    """SSA-22.13b-f: ``{"kind": "fire_missile", "missiles": [ids], "target": hex or box}``."""

    kind = "fire_missile"
    rule = "SSA-22.13b"

    def _why_not(self, state: State, order: dict[str, Any]) -> Refusal | None:
        side = state.decision.side
        if not in_use(state, PART):
            return Refusal("SSA-22.G", "strategic missiles belong to the special-units rule (optional rule 22.13), "
                           "which this game does not use")
        if (state.step.key if state.step else "") != AERIAL:
            return Refusal("SSA-22.13b", "missiles are fired in the friendly Combat phase (its aerial step)")
        ids = order.get("missiles")
        if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids):
            return Refusal("SSA-22.13b", "name the missiles to fire, each once")
        for mid in ids:
            why = missile_refusal(state, side, mid)
            if why:
                return why
        return target_refusal(state, side, order.get("target"))

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        if not in_use(state, PART) or (state.step.key if state.step else "") != AERIAL:
            return []
        ready = [m.id for m in sorted(state.units_by_id.values(), key=lambda u: u.id)
                 if m.type == MISSILE and m.side == side and missile_refusal(state, side, m.id) is None]
        if not ready:
            return []
        hm = state.map
        kinds = city_kinds(state)
        targets = [hm.label(i) for i in range(hm.size) if kinds[i] and city_owner(state, i) == other(side)]
        if side == "allies":
            targets += list(boxes_table(state)["allied_missile_vs"])
        return [{"kind": self.kind, "missiles": [m], "target": t} for m in ready for t in targets
                if target_refusal(state, side, t) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        why = self._why_not(state, order)
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.ssa.air_combat import strategic_bombing

        side = state.decision.side
        missiles = [state.unit(m) for m in order["missiles"]]
        target = order["target"]
        state.emit("fire_missile", side=side, rule=self.rule, missiles=order["missiles"], target=target,
                   text=f"{', '.join(order['missiles'])} fired from {', '.join(where(state, m) for m in missiles)} "
                        f"at {target}")
        if target in state.ruleset.boxes:
            strike(state, side, target, missiles)
            return
        strategic_bombing(state, side, target, [], missiles)


ORDER_KINDS = {"fire_missile": FireMissileOrder()}
