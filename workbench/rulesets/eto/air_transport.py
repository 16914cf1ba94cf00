"""Air transport with ATP markers (ETO-18.0-18.5) and air supply (ETO-32.6).

In its own Naval and Air phase, Step 4, a side may fly ATP markers::

    {"kind": "air_transport", "atps": ["GE-atp-1"], "pickup": hex, "cargo": [unit ids],
     "supply": 0, "to": hex, "stay": false}

The ATPs fly from their base to the pickup airbase (``pickup``, default their base), load,
and fly on to ``to``; the whole trip is at most 12 hexes (18.2).  Each paratroop, infantry
step or air supply marker needs one ATP; generals and one HQ ride free with another unit,
alone they need one (18.4).  A full-strength infantry unit splits: it flips to its depleted
side and a depleted infantry unit from the force pool takes the step left behind (18.3; with
none in the pool that step is lost), or both halves fly when two ATPs carry them.  The
flight is intercepted like any other (18.2); an ATP marker destroyed with its load aboard
takes the load with it (18.1); an aborted one returns and its load stays where it was
picked up.  Landed units are not activated, may be activated or move normally later this
turn, but may not move by rail this turn (18.3).  An air supply marker lands on an airbase
within 12 hexes of an ATP base that traces a land supply line (32.6); it then supplies like a
supply marker (32.4).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    air_flights,
    air_units,
    airbases,
    losses,
    stacking,
    supply,
    values,
)
from workbench.rulesets.eto.control import SIDE_CODE, control, pass_through

RULE = "ETO-18.2"
CARGO_CLASSES = ("infantry", "paratroop", "hq", "general")


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["air"]["air_transport"]


def used_this_turn(state: State, u: Unit) -> bool:
    """ETO-18.5: an ATP that flew a transport this turn may not paradrop (and flies once)."""
    return u.props.get("atp_used") == state.turn_label


def atp_why_not(state: State, side: str, u: Unit) -> Refusal | None:
    """ETO-18.1, 18.3, 18.5: why ATP marker ``u`` may not fly a transport now, or None."""
    if u.side != side or not air_units.is_atp(state, u):
        return Refusal("ETO-18.1", f"{u.id} is not a {side} ATP marker")
    if air_units.airborne(u) or not values.on_map(u):
        return Refusal("ETO-18.1", f"{u.id} is not on an airbase")
    if used_this_turn(state, u):
        return Refusal("ETO-18.5", f"{u.id} has flown already this turn")
    if supply.reach(state, values.major_of(state, u.nation), side)[state.map.index(u.location)] < 0:
        return Refusal("ETO-18.5", f"{u.id} is out of supply: an ATP out of supply may only change base")
    return None


def needs(state: State, cargo: list[Unit], markers: int) -> int:
    """ETO-18.4: ATPs the load needs -- one per paratroop, infantry step and supply marker; generals
    and one HQ free with another unit, one when they fly alone."""
    steps = 0
    riders = 0
    for u in cargo:
        cls = values.unit_class(state, u)
        if cls == "paratroop":
            steps += 1
        elif cls == "infantry":
            steps += 1  # a full unit splits: one step flies per ATP (18.3); see plan_split
        else:
            riders += 1
    steps += markers
    if steps == 0 and riders:
        return 1
    return steps


class AirTransportOrder(OrderKind):
    """``air_transport``: ATP markers carry land units or air supply markers (18.2, 32.6)."""

    kind = "air_transport"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side if state.decision else ""
        if not (state.step and state.step.key.endswith("air-movement")):
            return []
        out = []
        for atp in air_units.air_units(state, side):
            if atp_why_not(state, side, atp) is not None:
                continue
            here = [u for u in values.units_at(state, atp.location, side)
                    if values.unit_class(state, u) in ("infantry", "paratroop")]
            for u in here[:1]:
                for dest in _nearby_friendly(state, side, atp.location)[:2]:
                    order = {"kind": "air_transport", "atps": [atp.id], "cargo": [u.id], "to": dest}
                    if state.check(order) is None:
                        out.append(order)
        return out

    def _plan(self, state: State, order: dict[str, Any]) -> dict[str, Any]:
        side = state.decision.side if state.decision else ""
        if not (state.step and state.step.key.endswith("air-movement")):
            raise IllegalOrder(RULE, "air transport flies in the friendly Air Movement step of the Naval and Air phase")
        atps = air_flights.named_units(state, order.get("atps"), "ETO-18.1", "name the ATP markers that fly")
        for u in atps:
            refuse(atp_why_not(state, side, u))
        base = air_flights.one_base(atps, "ATP markers")
        pickup = order.get("pickup") or base
        to = order.get("to")
        hm = state.map
        for h, what in ((pickup, "pickup"), (to, "destination")):
            if not isinstance(h, str) or not hm.has_hex(h):
                raise IllegalOrder(RULE, f"no {what} hex {h!r}")
        if pickup != base and not airbases.is_friendly_base(state, side, pickup):
            raise IllegalOrder(RULE, f"{pickup} is not a friendly airbase; loads are picked up on airbases")
        cargo_ids = order.get("cargo") or []
        n_supply = order.get("supply") or 0
        if not isinstance(cargo_ids, list) or not isinstance(n_supply, int) or n_supply < 0:
            raise IllegalOrder(RULE, "cargo is a list of unit ids and supply a whole number of markers")
        cargo = []
        for uid in cargo_ids:
            u = state.units_by_id.get(uid) if isinstance(uid, str) else None
            if u is None or u.side != side or u.location != pickup:
                raise IllegalOrder(RULE, f"{uid} is not a {side} unit at the pickup hex {pickup}")
            if values.unit_class(state, u) not in CARGO_CLASSES:
                raise IllegalOrder("ETO-18.3", f"{uid} cannot fly: only paratroops, infantry, HQs and generals "
                                               "are transported by air")
            cargo.append(u)
        if not cargo and not n_supply:
            raise IllegalOrder(RULE, "name the units (cargo) or air supply markers (supply) to carry")
        if n_supply and cargo:
            raise IllegalOrder("ETO-32.6", "an air supply marker flies on its own ATP mission, not with land units")
        if sum(1 for u in cargo if values.unit_class(state, u) == "hq") > 1 and \
                any(values.unit_class(state, u) not in ("hq", "general") for u in cargo):
            raise IllegalOrder("ETO-18.4", "one HQ may ride free with other units")
        points = sum(air_units.atp_points(a) for a in atps)
        need = needs(state, cargo, n_supply)
        if need > points:
            raise IllegalOrder("ETO-18.4", f"the load needs {need} ATPs; {', '.join(a.id for a in atps)} carry {points}")
        trip = hm.distance(base, pickup) + hm.distance(pickup, to)
        limit = int(table(state)["max_distance"])
        if trip > limit:
            raise IllegalOrder(RULE, f"the trip is {trip} hexes ({base} - {pickup} - {to}); an ATP flies at most {limit}")
        path = air_flights.path_to(state, base, pickup) if pickup != base else []
        path += air_flights.path_to(state, pickup, to) if to != pickup else []
        refuse(air_flights.path_why_not(state, side, base, path, limit))
        if n_supply:
            if not airbases.is_friendly_base(state, side, to):
                raise IllegalOrder("ETO-32.6", f"an air supply marker lands on a friendly airbase; {to} is none")
            here = int(state.markers.get("supply_markers", {}).get(to, {}).get("air", 0))
            if here + n_supply > airbases.capacity(state, to):
                raise IllegalOrder("ETO-32.4", f"one air supply marker may stand in a hex for each airbase there: "
                                               f"{to} has {airbases.capacity(state, to)} and {here} marker(s)")
            if not _base_supplied(state, side, atps[0]):
                raise IllegalOrder("ETO-32.6", f"{base} traces no land supply line to a source (an air supply "
                                               "marker does not count)")
        else:
            i = hm.index(to)
            if hm.is_water[i] or int(control(state)[i]) != SIDE_CODE[side] or \
                    any(values.is_land_unit(state, e) for e in values.units_at(state, to, values.other(side))):
                raise IllegalOrder(RULE, f"{to} is not a friendly land hex free of enemy units; air transport lands "
                                         "behind friendly lines (paratroops attack by paradrop, 19.0)")
            if not stacking.fits(state, to, side, cargo):
                raise IllegalOrder("ETO-24.2", f"{to} cannot hold {', '.join(u.id for u in cargo)}")
        return {"atps": atps, "base": base, "pickup": pickup, "to": to, "cargo": cargo, "supply": n_supply,
                "path": path, "points": points, "side": side}

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        p = self._plan(state, order)
        cargo = split_infantry(state, p["cargo"], p["points"] - needs(state, p["cargo"], p["supply"]))
        for a in p["atps"]:
            a.props["atp_used"] = state.turn_label
        fl = air_flights.new_flight(state, p["side"], p["atps"], "air_transport", p["path"], target=p["to"])
        fl.update(pickup=p["pickup"], picked=p["pickup"] == p["base"], cargo=[u.id for u in cargo],
                  supply=p["supply"], stay=bool(order.get("stay")))
        air_flights.fly_on(state, fl["id"])


def _base_supplied(state: State, side: str, atp: Unit) -> bool:
    """ETO-32.6: the ATP's base traces a land line to a source (a supply marker counts; an air
    supply marker does not -- the markers at a hex that came by air are ignored)."""
    i = state.map.index(atp.location)
    if supply.reach(state, values.major_of(state, atp.nation), side)[i] >= 0:
        return True
    marks = state.markers.get("supply_markers", {})
    return any(m.get("side") == side and int(m.get("markers", 0)) > int(m.get("air", 0))
               and state.map.distance(h, atp.location) == 0 for h, m in marks.items())


def _nearby_friendly(state: State, side: str, start: str) -> list[str]:
    return [b for b in airbases.friendly_bases(state, side)
            if b != start and state.map.distance(start, b) <= 12][:4]


def split_infantry(state: State, cargo: list[Unit], spare: int) -> list[Unit]:
    """ETO-18.3: a full-strength (two-step) infantry unit flips to its depleted side; a depleted
    infantry unit of its type from the force pool takes the other step -- staying behind, or
    flying too when a spare ATP carries it.  With none in the pool the step left behind is lost
    (and a flying second half cannot be made)."""
    out = list(cargo)
    for u in cargo:
        if values.unit_class(state, u) != "infantry" or u.reduced or values.steps_left(state, u) < 2:
            continue
        u.reduced = True
        major = values.major_of(state, u.nation)
        twin = next((o for o in sorted(state.units_by_id.values(), key=lambda o: o.id)
                     if o.location == values.FORCE_POOL and o.type == u.type and o.nation == u.nation
                     and o.props.get("pool_of", major) == major), None)
        if twin is None:
            state.emit("air_split", side=u.side, rule="ETO-18.3", unit=u.id,
                       text=f"{u.id} splits to fly; no {u.type} in the force pool: the step left behind is lost")
            continue
        twin.location = u.location
        twin.reduced = True
        twin.props.pop("pool_of", None)
        if spare > 0:
            spare -= 1
            out.append(twin)
        state.emit("air_split", side=u.side, rule="ETO-18.3", unit=u.id, twin=twin.id,
                   text=f"{u.id} splits into two depleted units to fly; {twin.id} "
                        + ("flies too" if twin in out else f"stays at {u.location}"))
    return out


def land_cargo(state: State, fl: dict[str, Any]) -> None:
    """ETO-18.2 Step 4 / 32.6: the load lands at the destination."""
    to = fl["at"]
    moved = []
    for uid in fl.get("cargo", []):
        u = state.units_by_id[uid]
        if u.location != fl["pickup"]:
            continue
        u.location = to
        u.props["air_transported"] = state.turn_label
        pass_through(state, u, [state.map.index(to)])
        moved.append(uid)
    if fl.get("supply"):
        m = state.markers.setdefault("supply_markers", {}).setdefault(
            to, {"side": fl["side"], "nation": state.units_by_id[fl["units"][0]].nation, "markers": 0})
        m["markers"] = int(m.get("markers", 0)) + int(fl["supply"])
        m["air"] = int(m.get("air", 0)) + int(fl["supply"])
    fl["landed"] = True
    state.emit("air_transport", side=fl["side"], rule=RULE, flight=fl["id"], to=to, units=moved,
               supply=fl.get("supply", 0),
               text=f"air transport lands at {to}: " + (", ".join(moved) or f"{fl.get('supply')} air supply marker(s)"))
    if fl.get("stay") and all(airbases.may_base_why_not(state, state.units_by_id[a], to) is None for a in fl["units"]):
        for a in fl["units"]:
            atp = state.units_by_id[a]
            atp.flag("flight", None)
            airbases.land(state, atp, to)
        fl["ended"] = True


def lost_with_atp(state: State, fl: dict[str, Any]) -> None:
    """ETO-18.1: a load aboard a destroyed ATP marker is destroyed with it."""
    if not fl.get("picked") or fl.get("landed"):
        return
    alive = [a for a in fl["units"] if values.on_map(state.units_by_id[a])]
    if alive:
        return  # aborted, not destroyed: the load stays where it was picked up
    for uid in fl.get("cargo", []):
        u = state.units_by_id[uid]
        if values.on_map(u):
            losses.eliminate(state, u, "ETO-18.1", " (its ATP was destroyed in flight)")
    fl["cargo"] = []
    fl["supply"] = 0


air_flights.ARRIVAL_HOOKS.setdefault("air_transport", land_cargo)
if lost_with_atp not in air_flights.LOSS_HOOKS:
    air_flights.LOSS_HOOKS.append(lost_with_atp)
