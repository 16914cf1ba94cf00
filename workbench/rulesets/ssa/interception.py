"""The Interception phase (SSA-4.2c, 6.5; procedure authored in ``air.toml [interception]``, gap G-07).

The non-phasing player's air units with an unparenthesized air-to-air value
(``can_intercept``), on the ground at a supplied base or a carrier, take off
and attack the phasing air units flying a mission over one hex within their
range: ``{"kind": "intercept", "units": [ids], "target": hex}``.

All interceptors over a hex make one combat (one interception per hex per
phase; each interceptor once): the interceptors' air-to-air against the whole
mission stack's air-to-air (escorts and parenthesized values defend), on the
CRT with ``crt.toml [results.interception]``: losses are whole air units,
each owner chooses his own (SSA-14.G); an aborted mission flies on to no
target (``mission = "aborted"``) and must come home in the Mechanized Movement
phase.  Interceptors return to base at the end of that phase (SSA-6.5, air.py).

Scenario special rules: ``special.frozen(state, unit, "no_interception")`` (SC0 SR2).

Events: ``intercept`` (data: units, target, mission units, attack, defense, column, die, result).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import adjudicate as adj
from workbench.rulesets.ssa import leaders, values
from workbench.rulesets.ssa.air import (
    FIGHTER_TYPES,
    air_range,
    base_supplied,
    flight_distances,
    flying,
    grounded,
    over_hex,
)
from workbench.rulesets.ssa.casualties import choose_losses
from workbench.rulesets.ssa.movement import other
from workbench.rulesets.ssa.special import frozen


def mission_stack(state: State, side: str, target: str) -> list[Unit]:
    """Phasing air units in the air over ``target`` on a mission (not yet aborted)."""
    return sorted((u for u in state.units_by_id.values()
                   if u.side == side and flying(u) and u.location == target and not u.props.get("intercepting")
                   and u.props.get("mission") not in (None, "aborted", "transfer")), key=lambda u: u.id)


def a2a(state: State, u: Unit) -> float:
    return float(values.value(state, u, "air_to_air", 0) or 0)


class InterceptOrder(OrderKind):
    kind = "intercept"
    rule = "SSA-6.5"

    def interceptors(self, state: State) -> list[Unit]:
        side = state.decision.side
        return sorted((u for u in state.units_by_id.values()
                       if u.side == side and grounded(state, u) and values.value(state, u, "can_intercept", False)
                       and not frozen(state, u, "no_interception") and base_supplied(state, u)),
                      key=lambda u: u.id)

    def targets(self, state: State) -> list[str]:
        phasing = state.phasing
        done = set(state.markers.get("intercepted_hexes", []))
        return sorted({u.location for u in state.units_by_id.values()
                       if u.side == phasing and flying(u) and u.props.get("mission") not in (None, "aborted")
                       and not u.props.get("intercepting")} - done)

    def _in_range(self, state: State, u: Unit, target: str) -> bool:
        hm = state.map
        return int(flight_distances(state, hm.index(u.location))[hm.index(target)]) <= air_range(state, u)

    def legal(self, state: State) -> list[dict[str, Any]]:
        out = []
        limit = int(state.ruleset.tables["air"]["interception"]["max_per_hex"])
        pool = self.interceptors(state)
        for t in self.targets(state):
            ids = [u.id for u in pool if self._in_range(state, u, t)][:limit]
            if not ids:
                continue
            groups = [list(c) for k in range(1, len(ids) + 1) for c in combinations(ids, k)] \
                if len(ids) <= 4 else [ids] + [[i] for i in ids]
            out += [{"kind": "intercept", "units": g, "target": t} for g in groups]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        ids, target = order.get("units"), order.get("target")
        if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids) or not isinstance(target, str):
            raise IllegalOrder(self.rule, "name the intercepting air units and the target hex")
        if target not in self.targets(state):
            raise IllegalOrder(self.rule, f"{target} holds no enemy air mission that can still be intercepted "
                               "(one interception per hex; air transfers cannot be intercepted)")
        pool = {u.id: u for u in self.interceptors(state)}
        for uid in ids:
            u = state.units_by_id.get(uid)
            if u is not None and u.side == state.decision.side and frozen(state, u, "no_interception"):
                raise IllegalOrder("SSA-SC", f"{uid} may not intercept this turn (scenario special rule)")
            if uid not in pool:
                raise IllegalOrder(self.rule, f"{uid} cannot intercept: only your fighters with an unparenthesized "
                                   "air-to-air value, on the ground at a supplied base or carrier, may intercept")
            if not self._in_range(state, pool[uid], target):
                raise IllegalOrder("SSA-6.2", f"{target} is beyond {uid}'s range of {air_range(state, pool[uid])}")
        limit = int(state.ruleset.tables["air"]["interception"]["max_per_hex"])
        if over_hex(state, state.decision.side, target) + len(ids) > limit:
            raise IllegalOrder("SSA-9.2b", f"at most {limit} air units of a side may be in the air over a hex")
        if order.get("leader") is not None and self._carrier_for(state, ids, order["leader"]) is None:
            raise leaders.air_leader_refusal(state, pool[ids[0]], order["leader"]) or IllegalOrder(
                "SSA-24.8", f"no interceptor can take {order['leader']} along")  # SSA-24.8-F

    def _carrier_for(self, state: State, ids: list[str], leader: Any) -> Unit | None:
        """The interceptor that takes the leader along: the first in its hex that may (SSA-24.8-F)."""
        for uid in ids:
            u = state.unit(uid)
            if leaders.air_leader_refusal(state, u, leader) is None:
                return u
        return None

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        phasing = other(side)
        target = order["target"]
        tables = state.ruleset.tables
        icp = [state.unit(u) for u in order["units"]]
        if order.get("leader"):
            leaders.board(state, self._carrier_for(state, order["units"], order["leader"]), order["leader"])
        for u in icp:
            u.props.update({"flying": True, "intercepting": True, "base": u.location})
            if u.props.get("carrier"):
                u.props["base_carrier"] = u.props["carrier"]
            u.location = target
            leaders.follow_air(state, u)
        state.markers.setdefault("intercepted_hexes", []).append(target)
        stack = mission_stack(state, phasing, target)
        attack = sum(a2a(state, u) for u in icp)
        defense = sum(a2a(state, u) for u in stack)
        base = adj.odds_column(attack, defense, tables=tables)
        column = base
        shifts = []
        bd = tables["air"]["interception"]["shifts"]["bomber_destroyer_vs_unescorted"]
        if any(u.type == "bomber_destroyer" for u in icp) and not any(u.type in FIGHTER_TYPES for u in stack):
            shifts.append((int(bd["columns"]), "bomber destroyers vs an unescorted mission"))
            column = adj.shift(column, int(bd["columns"]), tables=tables)
        for n, who in ((leaders.air_shift(state, icp, "F"), "interceptors"),
                       (-leaders.air_shift(state, stack, "F"), "mission")):  # SSA-24.8-F
            if n:
                shifts.append((n, f"\"F\" fighter leader with the {who}"))
                column = adj.shift(column, n, tables=tables)
        (die,) = state.roll(purpose=f"interception {attack:g} vs {defense:g} at {target} ({column})",
                            rule="SSA-6.5", side=side)
        result = adj.crt(column, die, tables=tables)
        effect = tables["crt"]["results"]["interception"][result]
        state.emit("intercept", side=side, rule="SSA-6.5",
                   text=f"interception at {target}: {attack:g}:{defense:g} → {column}; die {die}: {result}",
                   units=[u.id for u in icp], target=target, mission_units=[u.id for u in stack],
                   attack=attack, defense=defense, base_column=base, column=column,
                   shifts=[[n, w] for n, w in shifts], die=die, result=result)
        if effect.get("mission") == "aborted":
            for u in stack:
                u.props["aborted_mission"] = u.props.get("mission")
                u.props["mission"] = "aborted"
        n = int(effect.get("air_defender_losses", 0) or 0)
        if n:
            choose_losses(state, phasing, stack, rule="SSA-6.5", count=n, effect="eliminate",
                          prompt=f"interception: choose {n} of your mission air units lost")
        k = int(effect.get("air_attacker_losses", 0) or 0)
        if k:
            choose_losses(state, side, icp, rule="SSA-6.5", count=k, effect="eliminate",
                          prompt=f"interception: choose {k} of your interceptors lost")
