"""Repairing damaged naval units in the seasonal Construction step (ETO-37.4).

``{"kind": "repair_ship", "unit": id}`` in Construction Step 3: a damaged naval unit in a friendly
port is repaired for 2 EPs (a U-boat for 4), paid by its major from its EP track or reserve, never
into deficit (37.1, 37.8).  A squadron (CL, DD, DE, CVE, SS) or a U-boat is flipped to its full
side at once.  A named ship (BB, CA, CV) rolls one die for the seasons in the yard (1-3: that
many, 4-6: four); it goes to the turn track undamaged and re-enters like a new naval unit
(:func:`construction.naval_arrival`, 37.6), in the port it was repaired in when that port still
qualifies.  Numbers: ``tables/costs.toml [repairs]`` (naval_repair, uboat_repair,
named_ship_repair_delay).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import construction, naval_units, ports, values
from workbench.rulesets.eto.command import spendable, track

RULE = "ETO-37.4"
REPAIR_PORT = "repair_port"  # prop: the port a named ship was repaired in (37.4, 37.6)


def _row(state: State) -> dict[str, Any]:
    return state.ruleset.tables["costs"]["repairs"]


def cost(state: State, u: Unit) -> int:
    """ETO-37.4: "All naval units cost 2 EPs to repair (exception: U-boats cost 4 EPs to repair)"."""
    return int(_row(state)["uboat_repair" if naval_units.is_uboat(state, u) else "naval_repair"])


def in_friendly_port(state: State, u: Unit) -> bool:
    """Inside a port of its side: a port hex's port (``props.in_port``) or a port box (7.8)."""
    if u.location in ports.PORT_BOXES:
        return ports.friendly(state, u.side, u.location)
    return naval_units.in_port(u) and ports.size(state, u.location) is not None \
        and ports.friendly(state, u.side, u.location)


def why_not(state: State, side: str, u: Unit) -> Refusal | None:
    """ETO-37.4: "Damaged naval units in friendly ports can be repaired during the construction
    phase"; the major pays with positive EPs and no deficit (37.1, 37.8)."""
    if u.side != side or not naval_units.is_naval(state, u):
        return Refusal(RULE, f"{u.id} is not one of your naval units")
    if naval_units.is_stp(state, u):
        return Refusal(RULE, "STP markers have no damaged side to repair")
    if not naval_units.damaged(u):
        return Refusal(RULE, f"{u.id} is not damaged")
    if not in_friendly_port(state, u):
        return Refusal(RULE, f"{u.id} is not in a friendly port")
    major = values.major_of(state, u.nation)
    need = cost(state, u)
    if track(state, f"{major}.eps") <= 0 and track(state, f"{major}.reserve") <= 0:
        return Refusal("ETO-37.1", f"{major} has no positive EPs")
    if spendable(state, major) < need:
        return Refusal("ETO-37.1", f"{major} cannot pay {need} EPs for {u.id} (no deficit spending)")
    return None


def delay(state: State, die: int) -> int:
    """ETO-37.4: "The result is the number of seasons ... with a maximum of four seasons delay.
    A 4, 5 or 6 result indicates four seasons"."""
    return int(_row(state)["named_ship_repair_delay"][str(die)])


def repair(state: State, u: Unit) -> None:
    """ETO-37.4: pay; a squadron or U-boat is repaired at once; a named ship rolls its seasons in
    the yard and goes to the turn track, undamaged."""
    need = cost(state, u)
    construction.pay(state, u.nation, need, RULE, f"repairing {u.id}")
    u.reduced = False
    if not naval_units.is_named(state, u):
        state.emit("ship_repaired", side=u.side, rule=RULE, unit=u.id, eps=need, at=u.location,
                   text=f"{u.id} repaired at {u.location} ({need} EPs): back at full strength")
        return
    (die,) = state.roll(1, purpose=f"seasons in the yard for {u.id} (1-3: that many, 4-6: four)", rule=RULE,
                        side=u.side)
    n = delay(state, die)
    u.props[REPAIR_PORT] = u.location
    u.props.pop("in_port", None)
    u.location = construction.TURN_TRACK
    u.props["arrives"] = construction.season_after(state.turn_label, n)
    state.emit("ship_repaired", side=u.side, rule=RULE, unit=u.id, eps=need, seasons=n,
               arrives=u.props["arrives"],
               text=f"{u.id} repaired ({need} EPs): {die} -> {n} season(s) in the yard, returns {u.props['arrives']}")


class RepairShipOrder(OrderKind):
    """``{"kind": "repair_ship", "unit": id}`` in the seasonal Construction step (ETO-37.4)."""

    kind = "repair_ship"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        return [{"kind": self.kind, "unit": u.id} for u in naval_units.naval_units(state, d.side)
                if why_not(state, d.side, u) is None]

    def _unit(self, state: State, order: dict[str, Any]) -> Unit:
        d = state.decision
        uid = order.get("unit")
        if not isinstance(uid, str) or uid not in state.units_by_id:
            raise IllegalOrder(RULE, f"{uid!r} is not a unit")
        u = state.units_by_id[uid]
        refuse(why_not(state, d.side if d else "", u))
        return u

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._unit(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        repair(state, self._unit(state, order))
