"""Airborne assaults (SSA-22.1): parachute and glider drops by air transport.

With special-unit rule 22.1 in use, in the Initial Movement phase an air
transport (``cargo = true`` in ``tables/units.toml``) on a supplied airbase
carries the airborne units that begin the phase in its hex to any hex within
its range (22.1a-b): ``{"kind": "airborne_drop", "aircraft": id, "units":
[ids], "to": hex}``.  One transport lifts two non-mechanized airborne
divisions or one mechanized one (``airlift_per_cargo``; brigades and
regiments lift by their own counts).  The drop hex must be one the units could
move into (22.1d): not water, not terrain their class may not enter, not a
neutral country, not outside a minor country's home.

The transport flies like a mission (``mission = "airborne_lift"``): enemy
interceptors may attack it in the Interception phase (22.1c).  Shot down, its
troops die with it; turned back (an aborted mission), it keeps them and they
stay at the airbase (authored).  At the end of the Interception phase the
troops land (``tables/special_units.toml [airborne]``).  Landing among enemy
land units is an airborne assault (22.1e): the defender gets one column
(``crt.toml [shifts].airborne_assault_onto_enemy``), the paratroops may attack
only the defenders of their own hex, and if that hex is not clear when the
Land Combat step ends they are eliminated (``assault.py``, kind ``airborne``).
The transport comes home in the Mechanized Movement phase like any mission.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values, weather
from workbench.rulesets.ssa.air import (
    INITIAL,
    air_range,
    air_tables,
    base_kind,
    base_supplied,
    destroy_grounded_air,
    grounded,
    over_hex,
    range_refusal,
)
from workbench.rulesets.ssa.assault import KIND, LANDED
from workbench.rulesets.ssa.control import pass_through
from workbench.rulesets.ssa.losses import eliminate
from workbench.rulesets.ssa.mountain_troops import move_class
from workbench.rulesets.ssa.movement import away_from_home, blocked_for, enemy_present
from workbench.rulesets.ssa.special import frozen
from workbench.rulesets.ssa.special_units import in_use, is_special
from workbench.rulesets.ssa.stacking import land_thirds
from workbench.rulesets.ssa.terrain import land_water, terrain_arrays

PART = "SSA-22.1"
MISSION = "airborne_lift"
DROP = "drop_at"  # unit.props: the hex an airborne unit aboard a transport will land in


def lift_share(state: State, unit: Unit) -> Fraction:
    """SSA-22.1a: the part of one transport's lift the unit takes (1/2 for a non-mechanized
    airborne division, 1 for a mechanized one; ``units.toml airlift_per_cargo``)."""
    per = int(values.value(state, unit, "airlift_per_cargo", 0) or 0)
    return Fraction(1, per) if per > 0 else Fraction(10**6)


def _enterable(state: State, unit: Unit, i: int) -> bool:
    """SSA-22.1d: could the unit move into hex ``i`` at all (terrain, water, neutrals, home)?"""
    ta = terrain_arrays(state)
    cls = move_class(state, unit)
    base = ta.enter_mech if cls is True else ta.enter_mountain if cls == "mountain" else ta.enter_foot
    if land_water(state)[i]:
        return False
    if not np.isfinite(base[i]) and not (cls is True and ta.on_line[i]):  # mech: mountains by road only
        return False
    neutral_or_enemy = blocked_for(state, unit)
    if neutral_or_enemy[i] and not enemy_present(state, unit.side)[i]:
        return False
    away = away_from_home(state, unit)
    return away is None or not away[i]


def _coming(state: State, side: str) -> dict[str, int]:
    """SSA-9.1: thirds of a division already on their way to each drop hex (``DROP``)."""
    out: dict[str, int] = {}
    for u in state.units_by_id.values():
        to = u.props.get(DROP)
        if u.side == side and to is not None:
            out[to] = out.get(to, 0) + int(values.division_equivalents(state, u) * 3)
    return out


class AirborneDropOrder(OrderKind):
    """SSA-22.1a-d: an air transport lifts airborne units from its base to a drop hex."""

    kind = "airborne_drop"
    rule = "SSA-22.1a"

    def _transports(self, state: State, side: str) -> list[Unit]:
        return sorted((u for u in state.units_by_id.values()
                       if u.side == side and grounded(state, u) and values.value(state, u, "cargo", False)
                       and not u.props.get("carrier") and not u.props.get("carried") and not frozen(state, u)
                       and not u.props.get("flown") and not u.props.get("transferred")), key=lambda u: u.id)

    def _troops(self, state: State, transport: Unit) -> list[Unit]:
        """Airborne units that began the phase in the transport's hex and have not moved."""
        return sorted((u for u in state.units_by_id.values()
                       if u.side == transport.side and u.location == transport.location
                       and is_special(state, u, PART) and not u.props.get("moved") and not u.props.get("mf_spent")
                       and not u.props.get("carried") and not frozen(state, u)), key=lambda u: u.id)

    def _why_not(self, state: State, transport: Any, units: Any, to: Any,
                 pre: dict[str, Any] | None = None) -> Refusal | None:
        """Why the drop is refused, or None.  ``pre``: the position's transports, ready troops
        and incoming drops, computed once by :meth:`legal` for its many candidates."""
        side = state.decision.side
        hm = state.map
        if not in_use(state, PART):
            return Refusal("SSA-22.G", "airborne assaults belong to the special-units rule (optional rule 22.1), "
                           "which this game does not use")
        if (state.step.key if state.step else "") != INITIAL:
            return Refusal("SSA-22.1a", "an airborne assault starts in the Initial Movement phase")
        t = state.units_by_id.get(transport) if isinstance(transport, str) else None
        if t is None or t.side != side or not values.value(state, t, "cargo", False):
            return Refusal("SSA-22.1a", f"{transport!r} is not one of your air transports")
        if t not in (pre["transports"] if pre else self._transports(state, side)):
            return Refusal("SSA-22.1a", f"{t.id} must be on the ground at an airbase and not have flown this turn")
        if not base_supplied(state, t):
            return Refusal("SSA-22.1a", f"the airbase at {t.location} is out of supply: no airborne assault from it")
        if not isinstance(units, list) or not units or len(set(units)) != len(units) \
                or not all(isinstance(x, str) for x in units):
            return Refusal("SSA-22.1a", "name the airborne units to lift, each once")
        ready = pre["ready"] if pre else {u.id for u in self._troops(state, t)}
        for uid in units:
            u = state.units_by_id.get(uid)
            if u is None or u.side != side:
                return Refusal("SSA-22.1a", f"{uid!r} is not one of your units")
            if not is_special(state, u, PART):
                return Refusal("SSA-22.1", f"{uid} is not an airborne unit")
            if uid not in ready:
                return Refusal("SSA-22.1a", f"{uid} must begin the Initial Movement phase in {t.id}'s hex "
                               f"({t.location}) and not have moved")
        load = sum((lift_share(state, state.unit(u)) for u in units), Fraction(0))
        if load > 1:
            return Refusal("SSA-22.1a", "one air transport carries two non-mechanized airborne divisions or one "
                           f"mechanized airborne division a turn; these units need {float(load):g} transports")
        if not isinstance(to, str) or not hm.has_hex(to):
            return Refusal("SSA-22.1b", f"{to!r} is not a hex of the map")
        why = weather.flight_refusal(state, t, t.location, to)  # SSA-26.3-S, 26.3-H
        if why:
            return why
        why = range_refusal(state, t, to, air_range(state, t), "SSA-22.1b", f"{t.id}'s range is")
        if why:
            return why
        j = hm.index(to)
        for uid in units:
            if not _enterable(state, state.unit(uid), j):
                return Refusal("SSA-22.1d", f"{uid} could not move into {to}, so it may not drop there")
        limit = int(air_tables(state)["basing"]["max_in_air_over_hex"])
        if over_hex(state, side, to) >= limit:
            return Refusal("SSA-9.2b", f"at most {limit} friendly air units may be in the air over {to}")
        cap = int(state.ruleset.tables["stacking"]["land"]["limit_per_hex"]) * 3
        coming = pre["coming"].get(to, 0) if pre else _coming(state, side).get(to, 0)
        mine = sum(int(values.division_equivalents(state, state.unit(u)) * 3) for u in units)
        if int(land_thirds(state, side)[j]) + coming + mine > cap:
            return Refusal("SSA-9.1", f"the drop would overstack {to} (limit {cap // 3} division-equivalents)")
        return None

    def legal(self, state: State) -> list[dict[str, Any]]:
        """Drops of each airborne unit, and of the fullest load, by each transport into each hex in
        range (other groups are legal too)."""
        side = state.decision.side
        if not in_use(state, PART) or (state.step.key if state.step else "") != INITIAL:
            return []
        out = []
        hm = state.map
        from workbench.rulesets.ssa.air import flight_distances

        transports = self._transports(state, side)
        coming = _coming(state, side)
        for t in transports:
            troops = self._troops(state, t)
            pre = {"transports": transports, "ready": {u.id for u in troops}, "coming": coming}
            if not troops or not base_supplied(state, t):
                continue
            d = flight_distances(state, hm.index(t.location))
            near = np.flatnonzero(d <= air_range(state, t))
            groups = [[u.id] for u in troops]
            full, load = [], Fraction(0)  # the fullest lift: troops in id order while they fit
            for u in troops:
                if load + lift_share(state, u) <= 1:
                    full.append(u.id)
                    load += lift_share(state, u)
            if len(full) > 1:
                groups.append(full)
            for g in groups:
                for j in near:
                    order = {"kind": self.kind, "aircraft": t.id, "units": g, "to": hm.label(int(j))}
                    if self._why_not(state, t.id, g, order["to"], pre) is None:
                        out.append(order)
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        why = self._why_not(state, order.get("aircraft"), order.get("units"), order.get("to"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        t = state.unit(order["aircraft"])
        start, to = t.location, order["to"]
        t.props.update({"flying": True, "base": start, "base_kind": base_kind(state, t), "mission": MISSION,
                        "target": to, "flown": True})
        t.location = to
        for uid in order["units"]:
            u = state.unit(uid)
            u.props.update({"carried": t.id, DROP: to, "moved": state.step.path if state.step else "drop",
                            "mf_spent": 10**6})  # the drop is the unit's Initial Movement (authored)
            u.location = to
        state.emit("airborne_drop", side=t.side, rule="SSA-22.1b", aircraft=t.id, units=list(order["units"]),
                   start=start, to=to,
                   text=f"{t.id} lifts {', '.join(order['units'])} from {start} to drop on {to}")


def land_drops(state: State, step: Any = None) -> None:
    """SSA-22.1b, e (authored timing): at the end of the Interception phase the surviving lifts land
    their troops; a lift turned back by interceptors brings them home to its airbase."""
    side = state.phasing
    landed: dict[str, list[str]] = {}
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if u.side != side or DROP not in u.props:
            continue
        t = state.units_by_id.get(u.props.get("carried"))
        to = u.props.pop(DROP)
        u.props.pop("carried", None)
        if t is None or t.location == "Eliminated":  # SSA-22.1c: already gone with it
            continue
        if t.props.get("mission") == "aborted":  # authored: turned back, the troops never jumped
            u.location = t.props.get("base", u.location)
            state.emit("airborne_drop", side=side, rule="SSA-22.1c", units=[u.id], aircraft=t.id,
                       text=f"{u.id} stays at {u.location}: {t.id} was turned back")
            continue
        u.location = to
        landed.setdefault(to, []).append(u.id)
    for to, ids in landed.items():
        i = state.map.index(to)
        units = [state.unit(x) for x in ids]
        if enemy_present(state, side)[i] and any(values.is_land(state, e) and not values.is_leader(state, e)
                                                 for e in state.units_by_id.values()
                                                 if e.location == to and e.side != side):
            for u in units:  # SSA-22.1e: an airborne assault
                u.flag(LANDED, to)
                u.flag(KIND, "airborne")
            what = "airborne assault"
        else:
            for u in units:
                pass_through(state, u, [i])  # SSA-5.7e: the drop hex's line control
            destroy_grounded_air(state, units[0], [to])  # SSA-6.3c, 24.4
            what = "drop"
        state.emit("airborne_landing", side=side, rule="SSA-22.1e" if what != "drop" else "SSA-22.1b",
                   units=ids, at=to, text=f"{', '.join(ids)} land at {to} ({what})")


def after_elimination(state: State, unit: Unit) -> None:
    """SSA-22.1c: airborne units aboard a transport that is shot down are eliminated with it."""
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if u.props.get("carried") == unit.id and DROP in u.props:
            eliminate(state, u, "SSA-22.1c", f" (aboard {unit.id}, which was shot down)")
