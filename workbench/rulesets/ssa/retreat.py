"""Retreats (SSA-11.9, 8.5; procedure authored in tables/retreat.toml).

Each retreating unit moves one hex, chosen by its owner (SSA-14.G), to a hex
with no enemy land or naval unit, that it could normally enter, and that is
not in an enemy ZOC unless a friendly land unit is already there (SSA-8.5).
Bound minor-country units stay at home (SSA-18.2a-4).  A unit with nowhere to
go is eliminated.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.control import pass_through
from workbench.rulesets.ssa.losses import eliminate
from workbench.rulesets.ssa.movement import blocked_hexes, other
from workbench.rulesets.ssa.terrain import terrain_arrays
from workbench.rulesets.ssa.zoc import land_zoc


def retreat_hexes(state: State, unit: Unit) -> list[str]:
    hm = state.map
    ta = terrain_arrays(state)
    a = hm.index(unit.location)
    enter = ta.enter_mech if values.is_mech(state, unit) else ta.enter_foot
    blocked = blocked_hexes(state, unit.side)
    ezoc = land_zoc(state, other(unit.side))
    friendly = {u.location for u in state.units_by_id.values()
                if u.side == unit.side and u.id != unit.id and values.is_land(state, u)}
    home = state.ruleset.tables["units"].get("nations", {}).get(unit.nation, {}).get("home")
    bound = home and home not in state.ruleset.boxes and values.value(state, unit, "domain") == "land"
    countries = hm.hexes["country"].to_list() if bound else None
    out = []
    for d in range(6):
        b = int(hm.neighbors[a, d])
        if b < 0 or blocked[b] or hm.is_water[b] or ta.all_sea_side[a, d]:
            continue
        if not (np.isfinite(enter[b]) or ta.transport[a, d]):
            continue
        if ezoc[b] and hm.label(b) not in friendly:
            continue
        if bound and countries[b] != home:
            continue
        out.append(hm.label(b))
    return out


def preferred_hexes(state: State, unit: Unit, away_from: list[str]) -> list[str]:
    """The eligible hexes the retreat priorities of gap G-10 (tables/retreat.toml) leave the owner:
    one that keeps stacking (9.1) over one that does not; then the farthest from the units it
    retreats from; then one that can trace supply (10.1); the owner chooses among the rest."""
    from workbench.rulesets.ssa.stacking import land_room
    from workbench.rulesets.ssa.supply import can_trace_from

    hm = state.map
    options = retreat_hexes(state, unit)
    fits = [h for h in options if land_room(state, unit.side, h, unit) is None]
    options = fits or options
    spots = [hm.index(h) for h in away_from if hm.has_hex(h)]
    if spots and len(options) > 1:
        far = {h: min(int(hm.grid.distance(hm.index(h), j)) for j in spots) for h in options}
        best = max(far.values())
        options = [h for h in options if far[h] == best]
    if len(options) > 1:
        supplied = [h for h in options if can_trace_from(state, unit, h)]
        options = supplied or options
    return options


def start_retreats(state: State, side: str, unit_ids: list[str], rule: str, then: str | None = None,
                   away_from: list[str] | None = None) -> None:
    """Units of ``side`` must retreat: those with no hex are eliminated, the owner places the rest
    (``away_from``: the hexes of the enemy units of the combat, for the G-10 priorities)."""
    pending = []
    for uid in unit_ids:
        unit = state.unit(uid)
        if not unit.location.isdigit():
            continue
        if retreat_hexes(state, unit):
            pending.append(uid)
        else:
            eliminate(state, unit, rule, " (no hex to retreat into)")
    if pending:
        state.push_interrupt("retreat", side, rule, f"retreat {', '.join(pending)} one hex",
                             ["retreat"], pending=pending, then=then, away_from=list(away_from or []))
    elif then:
        state.ruleset.procedures[then](state, {"data": {}})


class RetreatOrder(OrderKind):
    kind = "retreat"
    rule = "SSA-11.9"

    def legal(self, state: State) -> list[dict[str, Any]]:
        data = state.frames[-1]["data"]
        uid = data["pending"][0]
        return [{"kind": "retreat", "unit": uid, "to": h}
                for h in preferred_hexes(state, state.unit(uid), data.get("away_from", []))]

    def check(self, state: State, order: dict[str, Any]) -> None:
        data = state.frames[-1]["data"]
        pending = data["pending"]
        uid = order.get("unit")
        if uid not in pending:
            raise IllegalOrder(self.rule, f"units to retreat now: {', '.join(pending)}")
        options = retreat_hexes(state, state.unit(uid))
        if order.get("to") not in options:
            raise IllegalOrder("SSA-8.5", f"{uid} may retreat only into {', '.join(options)} "
                               "(no enemy units, enterable, not enemy ZOC unless a friendly unit is there)")
        best = preferred_hexes(state, state.unit(uid), data.get("away_from", []))
        if order.get("to") not in best:
            raise IllegalOrder("SSA-11.9", f"{uid} must retreat into {', '.join(best)}: the retreat priorities "
                               "(ruling G-10) put a hex that keeps stacking first, then the farthest from the "
                               "enemy units of the combat, then one that can trace supply")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f = state.frames[-1]
        unit = state.unit(order["unit"])
        start = unit.location
        unit.location = order["to"]
        pass_through(state, unit, [state.map.index(order["to"])])
        state.emit("retreat", side=unit.side, rule=self.rule, text=f"{unit.id} retreats {start} → {unit.location}",
                   unit=unit.id, start=start, to=unit.location)
        from workbench.rulesets.ssa.leaders import follow_retreat

        follow_retreat(state, unit, start)  # ruling A28: leaders go with the last unit of their stack
        f["data"]["pending"].remove(unit.id)
        # later units may have lost their last hex to stacking or ZOC changes: eliminate those
        for uid in list(f["data"]["pending"]):
            if not retreat_hexes(state, state.unit(uid)):
                f["data"]["pending"].remove(uid)
                eliminate(state, state.unit(uid), self.rule, " (no hex to retreat into)")
        if not f["data"]["pending"]:
            state.pop_interrupt()
            then = f["data"].get("then")
            if then:
                state.ruleset.procedures[then](state, f)
