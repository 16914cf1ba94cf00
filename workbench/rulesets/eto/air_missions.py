"""Air missions and flights (ETO-12.0, 12.3-12.6, 13.0, 13.1, 13.6).

The ``fly`` order sends air units from one base on a mission::

    {"kind": "fly", "units": ["GE-bmb-1", "GE-ftr-1"], "mission": "ground_support",
     "to": "08740", "path": [...], "via": [...], "roles": {"GE-fb-1": "bomber"},
     "targets": {"GE-ftr-1": ["SU-ftr-2"]}}

Missions: ``change_base`` (12.3, up to three hops of twice the range each through friendly
bases named in ``via``), ``attack_air`` (12.3/14.5: fighters against an enemy airbase),
``attack_naval`` (12.3, 16.0), ``ground_support`` (12.5/12.6, 17.0: over a hex under attack;
fighters may escort), ``bomb`` (21.4/21.5: installations, air offensives only).  ``path``
(optional) is the hexes flown through after the base, ending on ``to``; without it the flight
takes a straight hex line.  ``roles`` declares a fighter-bomber's role for the mission
(12.1: fighter unless declared bomber; a ground-support, naval-attack or bombing mission
makes it a bomber by default).  ``targets`` are each fighter's preferred air-to-air targets
(15.3), honoured where doubling-up (15.5) allows.

A flight is a record in ``state.markers["air"]["flights"]`` (see docs/design/eto-air.md).
:func:`fly_on` walks it one hex at a time and lets the other side intercept in each hex
entered (:mod:`air_interception`).  Flights return to their bases when the step that launched
them ends (:func:`return_all`; 4A-G, 4B-D, and the end of Naval and Air Steps 2 and 4).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    air_supply,
    air_units,
    airbases,
    carriers,
    combat,
    command,
    commitment,
    cooperation,
    historical,
    installation_bombing,
    italian_restrictions,
    naval_units,
    values,
)
from workbench.rulesets.eto.air_flights import (
    defending_status,
    fly_on,
    named_units,
    naval_air_why_not,
    new_flight,
    note_naval_air_mission,
    one_base,
    path_to,
    path_why_not,
    phase_for,
)
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import air_grounded

MISSIONS = ("change_base", "attack_air", "attack_naval", "ground_support", "bomb")
#: The mission each flight step allows, by step key (sequence.toml).
STEP_MISSIONS = {
    "naval-air/sides/air-naval": ("attack_naval",),
    "naval-air/sides/air-movement": ("change_base", "attack_air"),
    "ground-support": ("ground_support",),
    "defensive-support": ("ground_support",),
    "air-moves": ("change_base", "attack_air", "attack_naval", "bomb"),
}
BOMBER_MISSIONS = ("ground_support", "attack_naval", "bomb")


# == checks ====================================================================================
def defending_for(state: State, side: str, mission: str, to: str | None) -> str | None:
    """What defensive ground support over ``to`` defends (20.1-20.3), for commitment."""
    if mission != "ground_support" or not to or phase_for(state, side) != "enemy-land-offensive":
        return None
    return defending_status(state, to, side)


def unit_why_not(state: State, side: str, u: Unit, mission: str, to: str | None = None, *,
                 escort: bool = False) -> Refusal | None:
    """Why ``u`` may not take off on ``mission`` now (12.1-12.6, 13.4, 1.4, 20.0), or None."""
    if u.side != side:
        return Refusal("ETO-12.0", f"{u.id} is not a {side} unit")
    if not air_units.is_air(state, u) and not (air_units.is_atp(state, u) and mission == "change_base"):
        return Refusal("ETO-12.1", f"{u.id} is not an air unit" + (
            " (an ATP marker flies transport orders, or changes base, 18.1)" if air_units.is_atp(state, u) else ""))
    afloat = carriers.carrier_of(state, u) is not None  # 13.3: a carrier is its base, wherever it is
    in_box = u.location in state.ruleset.tables["terrain"].get("transit_boxes", {})  # 24.1: the Iraq box
    if in_box and not air_units.airborne(u):
        return None if mission == "change_base" else Refusal(
            "ETO-24.1", f"{u.id} is in the {u.location}: from there it only changes base to an airbase in Iraq")
    if not (values.on_map(u) or afloat) or air_units.airborne(u):
        return Refusal("ETO-12.0", f"{u.id} is not on an airbase (it is {'flying' if air_units.airborne(u) else u.location})")
    if u.props.get("debarked") == state.turn_label:
        return Refusal("ETO-10.5", f"{u.id} debarked in {u.location} this turn: an air unit debarked in a port "
                       "cannot move from that port for the duration of the turn")
    if u.props.get("overstacked") and mission != "change_base":
        return Refusal("ETO-13.4", f"{u.id} is overstacked at {u.location}: it may only change base")
    why = italian_restrictions.air_mission_why_not(state, u, mission)  # 46.1 (optional)
    if why:
        return why
    why = naval_air_why_not(state, u)
    if why:
        return why
    start = carriers.launch_hex(state, u, to) if afloat else u.location
    if start is not None and air_grounded(state)[state.map.index(start)]:
        return Refusal("ETO-1.4", f"air is grounded in the weather zone of {start} this month")
    if start is None and mission != "change_base":
        return Refusal("ETO-13.1", f"{u.id}'s carrier is in a sea area without a hex grid: its air flies missions "
                                   "only within that area (naval interception, 16.5) or changes base to another "
                                   "carrier there")
    if mission == "attack_air" and not air_units.has_quality(state, u):
        return Refusal("ETO-12.3", f"{u.id} is a bomber; only fighters attack enemy air units")
    why = carriers.mission_why_not(state, u, mission)  # 13.3: a damaged carrier's air only changes base
    if why:
        return why
    if mission in ("attack_naval", "bomb") and not air_units.class_row(state, u).get("bomber") and not escort:
        return Refusal("ETO-12.1", f"{u.id} is a fighter; it cannot attack naval units or installations "
                                   "(it may fly with bombers as their escort)")
    return commitment.may_fly(state, u, phase=phase_for(state, side), mission=mission,
                              defending=defending_for(state, side, mission, to))


def target_why_not(state: State, side: str, mission: str, to: str, units: list[Unit]) -> Refusal | None:
    """Why ``mission`` may not go to ``to`` (12.3-12.6, 17.0, 21.5)."""
    hm = state.map
    enemy = values.other(side)
    if not isinstance(to, str) or not hm.has_hex(to):
        return Refusal("ETO-13.0", f"no hex {to!r}")
    if mission == "change_base":
        return None  # the destination is checked as a base by the order
    if mission == "attack_air":
        if not airbases.based_at(state, to, enemy):
            return Refusal("ETO-12.3", f"there are no enemy air units on a base at {to}")
        return None
    if mission == "attack_naval":
        from workbench.rulesets.eto.air_naval import naval_targets

        if not naval_targets(state, side, to):
            return Refusal("ETO-16.0", f"there are no enemy naval units land-based air can reach at {to} (a coastal "
                                       "hex, its port, or a gridded sea area: 16.5)")
        return None
    if mission == "bomb":
        if installation_bombing.threshold(state, to) <= 0 or int(control(state)[hm.index(to)]) == SIDE_CODE[side]:
            return Refusal("ETO-21.5", f"{to} holds no enemy installation")
        return None
    if mission == "ground_support":
        key = state.step.key if state.step else ""
        if key.endswith("defensive-support"):
            if not any(d["target"] == to for d in combat.designations(state)):
                return Refusal("ETO-17.0", f"{to} is not under attack; defensive ground support flies over a "
                                           "friendly hex the enemy has designated")
        elif not [u for u in values.units_at(state, to, enemy) if values.is_land_unit(state, u)] \
                and not combat.enemy_fort(state, side, to):
            return Refusal("ETO-17.0", f"{to} holds no enemy land unit or fortification to attack")
        return None
    return Refusal("ETO-12.0", f"unknown mission {mission!r}; one of {', '.join(MISSIONS)}")


class FlyOrder(OrderKind):
    """``fly``: air units from one base fly a mission (12.3-12.6, 13.0, 13.6)."""

    kind = "fly"
    rule = "ETO-12.0"

    def legal(self, state: State) -> list[dict[str, Any]]:
        """One order per mission-capable unit and nearby target (a sample for bots and the planner)."""
        return list(self._orders(state))

    def any_legal(self, state: State) -> bool:
        """Stops at the first legal order (the flow asks this to skip empty air steps)."""
        return next(self._orders(state), None) is not None

    def _orders(self, state: State) -> Iterator[dict[str, Any]]:
        side = state.decision.side if state.decision else None
        if side is None:
            return
        missions = allowed_missions(state)
        for u in air_units.air_units(state, side):  # ATP markers too: they change base (18.1)
            for mission in missions:
                if unit_why_not(state, side, u, mission) is not None:
                    continue
                for to in candidate_targets(state, side, u, mission)[:3]:
                    order = {"kind": "fly", "units": [u.id], "mission": mission, "to": to}
                    if state.check(order) is None:
                        yield order

    def check(self, state: State, order: dict[str, Any]) -> None:
        plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        units, mission, path, stops, side, start = _plan(state, order)
        joins = pickups(state, order)
        if start is None:  # 13.1: from carrier to carrier inside a sea area without a hex grid
            note_naval_air_mission(state, units, mission)
            for u in units:
                carriers.land_on(state, u, state.unit(str(order["carrier"])))
            return
        for u in units:
            u.location = start
        for u in [*units, *(j for us in joins.values() for j in us)]:
            commitment.commit_for(state, u, phase=phase_for(state, side), mission=mission,
                                  defending=defending_for(state, side, mission, str(order["to"])))
            r = (order.get("roles") or {}).get(u.id)
            if air_units.class_row(state, u).get("fighter") and air_units.class_row(state, u).get("bomber"):
                u.props["role"] = r or ("bomber" if mission in BOMBER_MISSIONS else "fighter")
        note_naval_air_mission(state, [*units, *(j for us in joins.values() for j in us)], mission)
        off = command.offensive(state)
        if mission == "ground_support":
            command.pay_minor_air(state, side, [*units, *(j for us in joins.values() for j in us)])  # 22.4
        if mission == "ground_support" and off.get("side") == side and off.get("mode") not in (None, "air"):
            off.setdefault("air_units", []).extend(u.id for u in [*units, *(j for us in joins.values() for j in us)])
        fl = new_flight(state, side, units, mission, path, target=path[-1] if path else start, stops=stops,
                        targets=order.get("targets"))
        fl["joins"] = {b: [u.id for u in us] for b, us in joins.items()}
        if mission == "change_base" and order.get("carrier"):
            fl["carrier"] = str(order["carrier"])  # 13.3: the change of base ends on this carrier
        fly_on(state, fl["id"])


def allowed_missions(state: State) -> tuple[str, ...]:
    key = state.step.key if state.step else ""
    for k, ms in STEP_MISSIONS.items():
        if key.endswith(k):
            return ms
    return ()


def candidate_targets(state: State, side: str, u: Unit, mission: str) -> list[str]:
    """Hexes in range a mission could go to, nearest first (for the order list)."""
    hm = state.map
    enemy = values.other(side)
    box = state.ruleset.tables["terrain"].get("transit_boxes", {}).get(u.location)
    if box is not None:  # 24.1: from the Iraq box, to any airbase in Iraq
        if mission != "change_base":
            return []
        ta = terrain_arrays(state)
        return sorted(b for b in airbases.friendly_bases(state, side) if hm.has_hex(b)
                      and ta.country[hm.index(b)] == box.get("command_country") and airbases.has_room(state, side, b, u))
    rng = air_supply.mission_range(state, u)  # 33.7: one hex while out of supply
    start = carriers.launch_hex(state, u) if carriers.carrier_of(state, u) is not None else u.location
    if start is None or not hm.has_hex(start):
        return []
    d = hm.dist_from(start)
    if mission == "change_base":
        rng = air_units.air_range(state, u) * int(airbases.table(state)["change_base_hop_multiplier"])
        if air_supply.marked(u) and phase_for(state, side) != "naval-air":
            rng = air_supply.mission_range(state, u)
        cand = {b for b in airbases.friendly_bases(state, side) if b != start
                and airbases.has_room(state, side, b, u)}
    elif mission == "attack_air":
        cand = {e.location for e in air_units.air_units(state, enemy) if not air_units.airborne(e)
                and values.on_map(e)}
    elif mission == "ground_support":
        key = state.step.key if state.step else ""
        if key.endswith("defensive-support"):
            cand = {dd["target"] for dd in combat.designations(state)}
        else:
            cand = {e.location for e in state.units_by_id.values()
                    if e.side == enemy and values.on_map(e) and values.is_land_unit(state, e)
                    and d[hm.index(e.location)] <= rng}
    elif mission == "attack_naval":  # 16.5: enemy ships in coastal hexes and gridded sea areas
        cand = set()
        for e in state.units_by_id.values():
            if e.side != enemy or not values.is_naval_counter(state, e):
                continue
            if values.on_map(e):
                cand.add(e.location)
            elif e.location in hm.sea_areas and hm.sea_areas[e.location].gridded:
                from workbench.rulesets.eto.naval_search import space_hexes

                idx = space_hexes(state, e.location)
                if len(idx):
                    cand.add(hm.label(int(idx[int(d[idx].argmin())])))  # the area's hex nearest the base
    elif mission == "bomb":  # 21.5: enemy airbases (cities, resource hexes, airfields) and fortifications
        cand = set(airbases.friendly_bases(state, enemy))
        cand |= {h for h, m in state.markers.get("forts", {}).items() if m.get("side") == enemy}
    else:
        cand = set()
    if carriers.carrier_based(u):  # 13.1/13.3: from the carrier's area hex nearest each target
        near = {c: hm.distance(str(carriers.launch_hex(state, u, c)), c) for c in cand}
        return sorted((c for c in cand if near[c] <= rng), key=lambda c: (near[c], c))
    return sorted((c for c in cand if d[hm.index(c)] <= rng), key=lambda c: (int(d[hm.index(c)]), c))


def pickups(state: State, order: dict[str, Any]) -> dict[str, list[Unit]]:
    """ETO-13.6: the order's ``join`` -- units picked up on the way, by the base they wait on, in
    the order the flight reaches them ("the first plane ... must fly to the next base and 'pick up'
    the second unit, then both fly to the third base")."""
    joins = order.get("join") or {}
    if not joins:
        return {}
    if not isinstance(joins, dict):
        raise IllegalOrder("ETO-13.6", "join names, for each base on the way, the air units picked up there")
    if order.get("mission") == "change_base":
        raise IllegalOrder("ETO-13.6", "a change of base picks no one up: each unit changes base by its own order")
    out: dict[str, list[Unit]] = {}
    for base, ids in joins.items():
        us = named_units(state, ids, "ETO-13.6", f"name the air units picked up at {base}")
        for u in us:
            if u.location != base or air_units.airborne(u):
                raise IllegalOrder("ETO-13.6", f"{u.id} is not waiting on its base at {base}")
        out[str(base)] = us
    return out


def _pickup_path(state: State, side: str, start: str, to: str, joins: dict[str, list[Unit]], rng: int) -> list[str]:
    """ETO-13.6: base to base to the target; "each air unit pays MPs only for the hexes it actually
    moves into" -- a unit's range counts from the base it is picked up at."""
    path: list[str] = []
    prev = start
    for b in [*joins, to]:
        if b == prev:
            raise IllegalOrder("ETO-13.6", f"the flight is already at {b}")
        path += path_to(state, prev, b)
        prev = b
    refuse(path_why_not(state, side, start, path, rng))
    for b, us in joins.items():
        rest = path[path.index(b) + 1:]
        refuse(path_why_not(state, side, b, rest, min(air_supply.mission_range(state, u) for u in us)))
    return path


def takeoff(state: State, units: list[Unit], toward: str | None) -> str | None:
    """The hex the flight takes off from: the units' base hex, or their carrier's (13.1, 13.3:
    :func:`carriers.launch_hex`; None for a carrier in a sea area without a hex grid)."""
    if carriers.carrier_of(state, units[0]) is not None:
        return carriers.launch_hex(state, units[0], toward if toward and state.map.has_hex(toward) else None)
    return one_base(units, "air units")  # they join over the target, or are picked up on the way (13.6)


def carrier_destination(state: State, side: str, units: list[Unit], order: dict[str, Any]) -> Unit | None:
    """ETO-13.3: the CV or CVE a change of base ends on (``carrier``), checked: a friendly carrier
    at ``to`` (its hex or sea area) that may take the naval air unit."""
    cid = order.get("carrier")
    if cid is None:
        return None
    cv = state.units_by_id.get(cid) if isinstance(cid, str) else None
    if cv is None or cv.side != side or not naval_units.is_carrier(state, cv) \
            or cv.location in (values.FORCE_POOL, values.PERMANENT):
        raise IllegalOrder("ETO-13.3", f"{cid!r} is not a friendly CV or CVE on the map")
    if order.get("to") != cv.location:
        raise IllegalOrder("ETO-13.3", f"{cv.id} is at {cv.location}: name that as the change of base's end")
    for u in units:
        if u.props.get("carrier") == cv.id:
            raise IllegalOrder("ETO-13.3", f"{u.id} is already on {cv.id}")
        refuse(carriers.may_base_why_not(state, u, cv))
    return cv


def plan(state: State, order: dict[str, Any]) -> tuple[list[Unit], str, list[str], list[str], str]:
    """Check a ``fly`` order; returns (units, mission, path, change-of-base stops, side)."""
    units, mission, path, stops, side, _start = _plan(state, order)
    return units, mission, path, stops, side


def _plan(state: State, order: dict[str, Any]) -> tuple[list[Unit], str, list[str], list[str], str, str | None]:
    """:func:`plan`, and the hex the flight takes off from (None: from carrier to carrier inside
    a sea area without a hex grid, no flight)."""
    d = state.decision
    side = d.side if d else ""
    mission = order.get("mission")
    if mission not in allowed_missions(state):
        allowed = ", ".join(allowed_missions(state)) or "none"
        raise IllegalOrder("ETO-12.0", f"a {mission} mission cannot be flown in this step (allowed: {allowed})")
    units = named_units(state, order.get("units"), "ETO-12.0", "name the air units that fly")
    joins = pickups(state, order)
    # 12.5, 13.6: fighters may fly in the same stack as bombers, as their escort
    escort = any(air_units.class_row(state, u).get("bomber") for u in [*units, *(j for us in joins.values() for j in us)])
    for u in [*units, *(j for us in joins.values() for j in us)]:
        refuse(unit_why_not(state, side, u, mission, order.get("to") if isinstance(order.get("to"), str) else None,
                            escort=escort))
    refuse(cooperation.mix_why_not(state, [*units, *(j for us in joins.values() for j in us)], "fly together"))  # 42.4
    if mission == "ground_support":
        refuse(command.air_half_why_not(state, side, [*units, *(j for us in joins.values() for j in us)]))  # 42.0
        refuse(command.minor_air_why_not(state, side, [*units, *(j for us in joins.values() for j in us)]))  # 22.4
    cv = carrier_destination(state, side, units, order) if mission == "change_base" else None
    if any(carriers.carrier_based(u) for u in units) and len(units) > 1:
        raise IllegalOrder("ETO-13.6", "each carrier is a base of its own: its naval air flies by its own order")
    to = order.get("to")
    toward = to if isinstance(to, str) and state.map.has_hex(to) else None
    if cv is not None and toward is None:
        first = takeoff(state, units, None)
        toward = carriers.landing_hex(state, cv, first) if first else None
    start = takeoff(state, units, toward)
    if start is None:
        own = carriers.carrier_of(state, units[0])
        if cv is not None and own is not None and own.location == cv.location and not order.get("via"):
            return units, mission, [], [], side, None  # 13.1: carrier to carrier inside an area without a hex grid
        raise IllegalOrder("ETO-13.1", f"{units[0].id}'s carrier is in a sea area without a hex grid: its air "
                                       "changes base only to another carrier in that area")
    if cv is not None:
        if carriers.landing_hex(state, cv, start) is None:
            raise IllegalOrder("ETO-13.1", f"{cv.id} is in {cv.location}, a sea area without a hex grid: no flight "
                                           "from outside the area enters it")
        to = carriers.landing_hex(state, cv, start)
    refuse(target_why_not(state, side, mission, to, units))
    rng = min(air_supply.mission_range(state, u) for u in units)  # 33.7: one hex while out of supply
    if mission != "change_base":
        refuse(air_supply.target_why_not(state, [*units, *(j for us in joins.values() for j in us)], str(to)))
    stops: list[str] = []
    if joins:
        return units, mission, _pickup_path(state, side, start, str(to), joins, rng), [], side, start
    if mission == "change_base":
        via = order.get("via") or []
        if not isinstance(via, list) or len(via) + 1 > int(airbases.table(state)["change_base_hops"]):
            raise IllegalOrder("ETO-12.3", "a change of base makes at most three hops")
        refuse(air_supply.change_base_why_not(state, units, via, start, str(to), phase_for(state, side)))
        hop = int(airbases.table(state)["change_base_hop_multiplier"]) * min(air_units.air_range(state, u) for u in units)
        path: list[str] = []
        prev = start
        for stop in [*via, to]:
            if isinstance(stop, str) and stop in state.units_by_id and naval_units.is_carrier(state, state.unit(stop)):
                raise IllegalOrder("ETO-13.3", f"a carrier can be the start or the end of a change of base, never an "
                                               f"intermediate base ({stop})")
            if cv is not None and stop == to:  # 13.3: the change of base ends on the carrier
                end = str(carriers.landing_hex(state, cv, prev))
                leg = path_to(state, prev, end) if end != prev else []
                refuse(path_why_not(state, side, prev, leg, hop))
                path += leg
                stops.append(end)
                break
            if not isinstance(stop, str) or not airbases.is_friendly_base(state, side, stop):
                raise IllegalOrder("ETO-12.3", f"each hop of a change of base ends on a friendly airbase; {stop} is none")
            box = state.ruleset.tables["terrain"].get("transit_boxes", {}).get(prev)
            if box is not None:  # 24.1: "An air unit in the box can change base to any airbase in Iraq as the first hop"
                if terrain_arrays(state).country[state.map.index(stop)] != box.get("command_country"):
                    raise IllegalOrder("ETO-24.1", f"from the {prev} the first hop goes to an airbase in "
                                                   f"{box.get('command_country')}; {stop} is not there")
                path.append(stop)  # straight onto the Iraq base, however far (the box is off the map)
                stops.append(stop)
                prev = stop
                continue
            leg = path_to(state, prev, stop)
            refuse(path_why_not(state, side, prev, leg, hop))
            path += leg
            stops.append(stop)
            prev = stop
        for u in units:
            if cv is None:
                refuse(airbases.may_base_why_not(state, u, to))
        refuse(historical.fc_mission_why_not(state, units, [start, *path]))  # 46.5 (optional)
        if cv is None and len(units) > 1 and airbases.capacity(state, to) - airbases.load(state, to, side) < len(units):
            raise IllegalOrder("ETO-13.4", f"{to} has room for {airbases.capacity(state, to) - airbases.load(state, to, side)} "
                                           "more air units")
        return units, mission, path, stops[:-1], side, start
    path = order.get("path") or path_to(state, start, to)
    if not isinstance(path, list) or not path and start != to or (path and path[-1] != to):
        raise IllegalOrder("ETO-13.0", f"the path must end on the target {to}")
    refuse(path_why_not(state, side, start, path, rng))
    refuse(historical.fc_mission_why_not(state, units, list(path)))  # 46.5 (optional)
    return units, mission, list(path), [], side, start
