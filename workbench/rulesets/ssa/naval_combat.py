"""Naval combat (SSA-13.0-13.9) in the Naval Combat step of the Combat phase.

Order: ``{"kind": "naval_attack", "attackers": [ids], "target": hex}``.

* Attackers are the phasing player's naval units on the map, each adjacent to
  ``target`` (SSA-13.G), each attacking once a phase and only one hex (13.4);
  convoys never attack (13.5).  Combat is voluntary (13.1).
* The defenders are every enemy naval unit in ``target`` except submarines,
  which naval units cannot attack and which add nothing to the defence (13.6);
  they defend with one combined strength (13.3).  A hex is attacked once a phase.
* A defending stack with a carrier fleet may retreat one hex before combat
  (13.2): the defender gets a ``naval_retreat`` / ``pass`` decision.  Retreating
  cancels the attack (the attackers have used their attack: docs/rulings-ssa.md).
* Odds: naval strength against naval strength, no terrain; one die
  (``state.roll``); results ``crt.toml [results.naval]`` (13.8); damage flips a
  full unit and eliminates a reduced one (13.9), with the knock-on losses of
  :mod:`casualties` (carrier air, convoy cargo).  The owner chooses (SSA-14.G).

Events: ``naval_combat``, ``naval_retreat``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import adjudicate as adj
from workbench.rulesets.ssa import chemical, surprise, values, weather
from workbench.rulesets.ssa.air import carry_air
from workbench.rulesets.ssa.casualties import choose_losses, damage, lose, naval_strength
from workbench.rulesets.ssa.movement import other
from workbench.rulesets.ssa.naval import carried_by, sea_arrays

RESOLVE = "ssa.naval_combat.resolve"


def is_naval(state: State, u: Unit) -> bool:
    return values.domain(state, u) == "naval" and u.location.isdigit() and not u.props.get("carried")


def defending_stack(state: State, side: str, target: str) -> list[Unit]:
    """SSA-13.3, 13.6: the enemy naval units in ``target`` that naval units can attack."""
    return sorted((u for u in state.units_by_id.values() if u.side == other(side) and u.location == target
                   and is_naval(state, u) and not values.value(state, u, "immune_to_naval_attack", False)),
                  key=lambda u: u.id)


def adjacent(state: State, a: str, b: str) -> bool:
    hm = state.map
    return hm.index(b) in hm.neighbors[hm.index(a)]


class NavalAttackOrder(OrderKind):
    kind = "naval_attack"
    rule = "SSA-13.0"

    def attackers(self, state: State) -> list[Unit]:
        side = state.decision.side
        return sorted((u for u in state.units_by_id.values() if u.side == side and is_naval(state, u)
                       and values.value(state, u, "can_attack", True) and not u.props.get("naval_attacked")
                       and naval_strength(state, u) > 0), key=lambda u: u.id)

    def targets(self, state: State) -> set[str]:
        side = state.decision.side
        done = set(state.markers.get("naval_attacked_hexes", []))
        # hexes where defending_stack() is not empty, in one pass over the units (not one per unit)
        return {u.location for u in state.units_by_id.values() if u.side == other(side) and is_naval(state, u)
                and not values.value(state, u, "immune_to_naval_attack", False)} - done

    def legal(self, state: State) -> list[dict[str, Any]]:
        out = []
        pool = self.attackers(state)
        for t in sorted(self.targets(state)):
            ids = [u.id for u in pool if adjacent(state, u.location, t)]
            if ids:
                out.append({"kind": "naval_attack", "attackers": ids, "target": t})
                if len(ids) > 1:
                    out += [{"kind": "naval_attack", "attackers": [i], "target": t} for i in ids]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        ids, target = order.get("attackers"), order.get("target")
        if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids) or not isinstance(target, str):
            raise IllegalOrder(self.rule, "a naval attack needs a list of attacking naval units and a target hex")
        if not target.isdigit():
            raise IllegalOrder("SSA-15.2", f"there is no combat in the holding areas ({target})")
        if target in state.markers.get("atomic_hexes", []):
            raise IllegalOrder("SSA-22.14f", f"{target} was hit by an atomic attack this Combat phase: nothing else "
                               "may attack it")
        if target not in self.targets(state):
            here = [u for u in state.units_by_id.values() if u.location == target and u.side != state.decision.side
                    and is_naval(state, u)]
            if here and all(values.value(state, u, "immune_to_naval_attack", False) for u in here):
                raise IllegalOrder("SSA-13.6", f"submarines in {target} cannot be attacked by naval units")
            raise IllegalOrder("SSA-13.G", f"{target} holds no enemy naval units that can be attacked this phase")
        pool = {u.id for u in self.attackers(state)}
        for uid in ids:
            u = state.units_by_id.get(uid)
            if u is not None and u.side == state.decision.side and not values.value(state, u, "can_attack", True):
                raise IllegalOrder("SSA-13.5", f"{uid} is a transport convoy; convoys never attack")
            if uid not in pool:
                raise IllegalOrder("SSA-13.4", f"{uid} cannot attack now (not your naval unit on the map, "
                                   "or it has attacked already this phase)")
            if not adjacent(state, state.unit(uid).location, target):
                raise IllegalOrder("SSA-13.G", f"{uid} is not adjacent to {target}")
        if order.get("chemical"):  # SSA-28.2: a Battle Fleet must take part
            refusal = chemical.refusal(state, state.decision.side, [state.unit(u) for u in ids])
            if refusal:
                raise refusal

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        target = order["target"]
        for uid in order["attackers"]:
            state.unit(uid).props["naval_attacked"] = True
        state.markers.setdefault("naval_attacked_hexes", []).append(target)
        dfn = defending_stack(state, side, target)
        data = {"attackers": order["attackers"], "target": target, "attacker": side,
                **({"chemical": True} if order.get("chemical") else {})}
        if any(values.value(state, u, "retreat_before_combat", False) for u in dfn) and retreat_hexes(state, dfn):
            state.push_interrupt("naval_retreat", other(side), "SSA-13.2",
                                 f"your carrier stack in {target} is attacked: retreat one hex before combat, "
                                 "or pass to fight", ["naval_retreat", "pass"], on_pass=RESOLVE, **data)
            return
        resolve(state, {"data": data})


def retreat_hexes(state: State, stack: list[Unit]) -> list[str]:
    """SSA-13.2: one hex, not into enemy naval units (ZOC is no obstacle), room for the stack (9.3)."""
    if not stack:
        return []
    hm = state.map
    navigable, _, _ = sea_arrays(state)
    side = stack[0].side
    here = hm.index(stack[0].location)
    enemy = np.zeros(hm.size, dtype=bool)
    count = np.zeros(hm.size, dtype=np.int64)
    for u in state.units_by_id.values():
        if is_naval(state, u):
            i = hm.index(u.location)
            if u.side != side and u.type != "submarine":
                enemy[i] = True
            elif u.side == side:
                count[i] += 1
    limit = int(state.ruleset.tables["stacking"]["naval"]["limit_per_hex"])
    out = []
    for d in range(6):
        j = int(hm.neighbors[here, d])
        if j < 0 or not navigable[j] or enemy[j] or (not hm.is_water[here] and not hm.is_water[j]):
            continue
        if count[j] + len(stack) <= limit:
            out.append(hm.label(j))
    return out


class NavalRetreatOrder(OrderKind):
    """SSA-13.2: the defender's carrier stack retreats one hex before combat."""

    kind = "naval_retreat"
    rule = "SSA-13.2"

    def _stack(self, state: State) -> list[Unit]:
        data = state.frames[-1]["data"]
        return defending_stack(state, data["attacker"], data["target"])

    def legal(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": "naval_retreat", "to": h} for h in retreat_hexes(state, self._stack(state))]

    def check(self, state: State, order: dict[str, Any]) -> None:
        options = retreat_hexes(state, self._stack(state))
        if order.get("to") not in options:
            raise IllegalOrder(self.rule, f"the stack may retreat only into {', '.join(options)} "
                               "(one hex, no enemy naval units, stacking room)")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f = state.pop_interrupt()
        stack = defending_stack(state, f["data"]["attacker"], f["data"]["target"])
        for u in stack:
            u.location = order["to"]
            for cargo in carried_by(state, u):
                cargo.location = u.location
            carry_air(state, u)
        state.emit("naval_retreat", side=f["side"], rule=self.rule,
                   text=f"{', '.join(u.id for u in stack)} retreat before combat {f['data']['target']} → {order['to']}",
                   units=[u.id for u in stack], start=f["data"]["target"], to=order["to"])


def resolve(state: State, frame: dict[str, Any]) -> None:
    """SSA-13.3, 13.8: combined strengths, the die, the result."""
    data = frame["data"]
    side, target = data["attacker"], data["target"]
    enemy = other(side)
    att = [state.unit(u) for u in data["attackers"] if state.unit(u).location.isdigit()]
    dfn = defending_stack(state, side, target)
    if not att or not dfn:
        return
    tables = state.ruleset.tables
    attack = sum(naval_strength(state, u) for u in att)
    defense = sum(surprise.naval_defence(state, u, naval_strength(state, u)) for u in dfn)  # SSA-30.2a
    column = adj.odds_column(attack, defense, tables=tables)
    wshift = weather.combat_shift(state, [target])  # SSA-26.3-F/S: all combat one column left
    if wshift:
        column = adj.shift(column, wshift[0], tables=tables)
    if data.get("chemical"):  # SSA-28.4b: +1 in the first chemical combat phase only
        cshift = chemical.shift(state, "naval")
        if cshift:
            column = adj.shift(column, cshift[0], tables=tables)
        chemical.used(state, side, target)
    (die,) = state.roll(purpose=f"naval combat {attack:g} vs {defense:g} at {target} ({column})",
                        rule="SSA-13.8", side=side)
    result = adj.crt(column, die, tables=tables)
    state.emit("naval_combat", side=side, rule="SSA-13.8",
               text=f"naval combat at {target}: {attack:g}:{defense:g} → {column}; die {die}: {result}",
               attackers=[u.id for u in att], defenders=[u.id for u in dfn], target=target,
               attack=attack, defense=defense, column=column, die=die, result=result)
    rule = "SSA-13.8"
    if result == "AZ":
        _one_and_rest(state, side, att, rule)
    elif result == "AE":
        for u in att:
            damage(state, u, rule)
    elif result == "DE":
        for u in dfn:
            damage(state, u, rule)
    elif result == "DZ":
        _one_and_rest(state, enemy, dfn, rule)
    elif result == "EX":
        exchange(state, side, att, dfn, attack, defense)


def _one_and_rest(state: State, owner: str, units: list[Unit], rule: str) -> None:
    """'One unit eliminated, remainder damaged': the owner chooses which (SSA-14.G)."""
    if len(units) == 1:
        lose(state, units[0], "eliminate", rule, owner)
        return
    choose_losses(state, owner, units, rule=rule, count=1, effect="eliminate",
                  prompt="choose the naval unit eliminated (the others are damaged)",
                  then="ssa.reduce_rest", rest=[u.id for u in units], rest_rule=rule, rest_chooser=owner)


def exchange(state: State, side: str, att: list[Unit], dfn: list[Unit], attack: float, defense: float) -> None:
    """SSA-13.8 EX: the side with fewer naval combat factors damages all its units; the other
    damages units totalling at least as many factors.  On a tie the defender is the smaller side
    (as SSA-11.9d, docs/rulings-ssa.md)."""
    enemy = other(side)
    if attack < defense:
        low, low_side, high, high_side, amount = att, side, dfn, enemy, attack
    else:
        low, low_side, high, high_side, amount = dfn, enemy, att, side, defense
    for u in low:
        damage(state, u, "SSA-13.8")
    choose_losses(state, high_side, high, rule="SSA-13.8", at_least=amount, measure_by="naval_strength",
                  effect="reduce", prompt=f"exchange: damage naval units totalling at least {amount:g} factors")
    del low_side
