"""Replenishment (ETO-34.0-34.2), End phase Step 3.

``{"kind": "rebuild", "unit": id, "at": hex}`` returns an infantry unit from
the Replenishment box to a home-country hex in supply and not in enemy ZOC
(34.1; a ZOC hex if every home hex is in enemy ZOC).  It costs the normal
infantry price from the EP track or reserve, except the free rebuilds (34.2):

* each unconquered minor country: one per home city resource hex not captured;
* the USSR: three, if it has fewer than 15 EPs on the track at the start of the
  step, spending every non-reserve EP it has on them;
* Germany: two of its 4-2 infantry.

Major EPs never pay for minor partners' units (34.1).  Units still in the box
when the step ends go to the force pool (27.7, 34.1).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import values
from workbench.rulesets.eto.command import pay_eps, spendable, track
from workbench.rulesets.eto.construction import build_cost, hub_hexes, placement_ok
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.losses import FORCE_POOL, REPLENISHMENT
from workbench.rulesets.eto.terrain import terrain_arrays


def begin(state: State, step: Any) -> None:
    """Entering the step: count the free rebuilds (34.2)."""
    free = state.ruleset.tables["costs"]["free"]
    ta = terrain_arrays(state)
    for side, nations in state.game.scenario.sides.items():
        for n in nations:
            if n == "GE":
                k = int(free["germany_free_infantry_rebuilds_per_replenishment"])
            elif n == "SU":
                k = int(free["soviet_free_infantry_rebuilds"]) \
                    if track(state, "SU.eps") < int(free["soviet_free_rebuild_threshold"]) else 0
            elif values.nation_kind(state, n) == "minor":
                k = int((home_mask(state, n, original=True) & ta.city_resource
                         & (control(state) == SIDE_CODE[side])).sum())
            else:
                k = 0
            state.tracks[f"{n}.free_rebuilds"] = k


def end(state: State, step: Any) -> None:
    """34.1: whatever is still in the box goes to the force pool."""
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.location == REPLENISHMENT:
            u.location = FORCE_POOL
            u.props["pool_of"] = values.major_of(state, u.nation)
            u.props.pop("pilot_recovery", None)  # 34.3: only at the end of the turn of the loss
            state.emit("to_force_pool", side=u.side, rule="ETO-34.1", text=f"{u.id} goes to the force pool",
                       unit=u.id)
    for key in [k for k in state.tracks if k.endswith(".free_rebuilds")]:
        state.tracks.pop(key)


def cost_of(state: State, u: Unit) -> tuple[int, bool]:
    """(EPs, free?) for rebuilding u now."""
    if track(state, f"{u.nation}.free_rebuilds") > 0 and (u.nation != "GE" or u.type == "infantry"):
        return 0, True
    if values.nation_kind(state, u.nation) == "minor":
        return -1, False  # 34.1: major EPs never rebuild minor units
    return build_cost(state, u), False


def spots(state: State, u: Unit) -> list[str]:
    out = [h for h in hub_hexes(state, u) if placement_ok(state, u, h) is None]
    return out


class ReplenishOrder(OrderKind):
    kind = "rebuild"
    rule = "ETO-34.1"

    def _why_not(self, state: State, u: Unit, at: str) -> Refusal | None:
        cost, _free = cost_of(state, u)
        if cost < 0:
            return Refusal("ETO-34.1", "major nation EPs cannot rebuild minor partner units (no free rebuild left)")
        if cost and spendable(state, u.nation) < cost:
            return Refusal("ETO-34.1", f"{u.nation} cannot pay {cost} EPs")
        why = placement_ok(state, u, at)
        if why and "enemy ZOC" in why.why:
            home = home_mask(state, u.nation)
            from workbench.rulesets.eto.zoc import zoc
            if (home & ~zoc(state, values.other(u.side))).any():
                return why
            # 34.1: "if all home country hexes are in enemy ZOC, the unit can be placed in a ZOC hex
            # as long as it is in supply" -- and the other requirements (supply, stacking) still hold
            return placement_ok(state, u, at, ignore_zoc=True)
        return why

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        seen, out = set(), []
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side != side or u.location != REPLENISHMENT or (u.nation, u.type) in seen \
                    or values.is_air_counter(state, u):  # air units: pilot recovery (34.3)
                continue
            seen.add((u.nation, u.type))
            out += [{"kind": "rebuild", "unit": u.id, "at": h} for h in hub_hexes(state, u)
                    if self._why_not(state, u, h) is None]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        u = state.units_by_id.get(order.get("unit", ""))
        if u is None or u.side != state.decision.side or u.location != REPLENISHMENT:
            raise IllegalOrder(self.rule, f"{order.get('unit')!r} is not one of your units in the Replenishment box")
        if values.is_air_counter(state, u):
            raise IllegalOrder("ETO-34.3", f"{u.id} is an air unit: it comes back by pilot recovery (recover_pilots)")
        why = self._why_not(state, u, str(order.get("at", "")))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        cost, free = cost_of(state, u)
        rule = "ETO-34.2" if free else self.rule
        if free:
            state.tracks[f"{u.nation}.free_rebuilds"] = track(state, f"{u.nation}.free_rebuilds") - 1
            if u.nation == "SU" and track(state, "SU.eps") > 0:
                pay_eps(state, "SU", track(state, "SU.eps"), "ETO-34.2", "the free Soviet rebuilds")
        elif cost:
            pay_eps(state, u.nation, cost, rule, f"rebuilding {u.id}")
        u.location = order["at"]
        state.emit("replenish", side=u.side, rule=rule,
                   text=f"{u.id} rebuilt {'free' if free else f'for {cost} EPs'} at {u.location}",
                   unit=u.id, at=u.location, eps=0 if free else cost)
