"""Flights: air units in the air, hex by hex, until they return (ETO-12.0, 13.0, 13.2, 14.1).

A flight is a record in ``state.markers["air"]["flights"]`` (docs/design/eto-air.md):
``{"id", "side", "units", "mission", "at", "base", "path" (hexes still to fly), "target",
"stops", "target_flight", "offered", "arrived", "ended", ...}``.  :func:`fly_on` walks it;
modules above register what happens in each hex entered (:data:`OFFER_HOOKS`: interception,
14.1), on arrival (:data:`ARRIVAL_HOOKS` by mission) and when a flight is shot down
(:data:`LOSS_HOOKS`), so this module sits below all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from workbench import hexgrid
from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, airbases, carriers, naval_units, values
from workbench.rulesets.eto.control import NEUTRAL, control
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import air_grounded

#: ``f(state, flight) -> bool``: True when it made the flight wait (an interrupt is pushed).
OFFER_HOOKS: list[Callable[[State, dict[str, Any]], bool]] = []
#: ``mission -> f(state, flight)``: what a mission does on reaching its destination.
ARRIVAL_HOOKS: dict[str, Callable[[State, dict[str, Any]], None]] = {}
#: ``f(state, flight)``: a flight lost every unit (aborted or eliminated).
LOSS_HOOKS: list[Callable[[State, dict[str, Any]], None]] = []


def named_units(state: State, ids: Any, rule: str, name_them: str) -> list[Unit]:
    """The units an air order names in its list (``units``, ``atps``), refused under ``rule`` when
    the list is missing or empty (``name_them`` says what to name) or an id is unknown."""
    if not isinstance(ids, list) or not ids:
        raise IllegalOrder(rule, name_them)
    units = []
    for uid in ids:
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if u is None:
            raise IllegalOrder(rule, f"no unit {uid!r}")
        units.append(u)
    return units


def one_base(units: list[Unit], who: str) -> str:
    """ETO-13.6: units from different bases fly separately; the base they all take off from."""
    if len({u.location for u in units}) > 1:
        raise IllegalOrder("ETO-13.6", f"{who} from different bases fly separately (one order per base)")
    return units[0].location


def air_marker(state: State) -> dict[str, Any]:
    return state.markers.setdefault("air", {"flights": {}, "next": 1, "intercepted": {}})


def flights(state: State) -> dict[str, dict[str, Any]]:
    return air_marker(state)["flights"]


def new_flight(state: State, side: str, units: list[Unit], mission: str, path: list[str], *,
               target: str, stops: list[str] | None = None, target_flight: str | None = None,
               targets: dict[str, list[str]] | None = None) -> dict[str, Any]:
    rec = air_marker(state)
    fid = f"F{rec['next']}"
    rec["next"] += 1
    base = units[0].location
    fl = {"id": fid, "side": side, "units": [u.id for u in units], "mission": mission, "at": base,
          "base": base, "path": list(path), "target": target, "stops": list(stops or []),
          "target_flight": target_flight, "offered": [], "arrived": False, "ended": False,
          "targets": dict(targets or {}), "step": state.step.key if state.step else ""}
    rec["flights"][fid] = fl
    for u in units:
        u.flag("flight", fid)
        u.props["base"] = u.props.get("base") or base
    state.emit("air_takeoff", side=side, rule="ETO-12.0", flight=fid, units=fl["units"], mission=mission,
               target=target, text=f"{', '.join(fl['units'])} take off from {base}: {mission.replace('_', ' ')} "
                                   f"to {target}")
    return fl


def live_units(state: State, fl: dict[str, Any]) -> list[Unit]:
    """The flight's units still flying with it: not aborted, not eliminated (15.6)."""
    out = []
    for uid in fl["units"]:
        u = state.units_by_id.get(uid)
        if u is not None and u.props.get("flight") == fl["id"] and not u.props.get("aborted") \
                and u.location == fl["at"]:
            out.append(u)
    return out


def fly_on(state: State, fid: str) -> None:
    """ETO-14.1: walk flight ``fid`` hex by hex; in every hex entered -- and in its base hex as
    it takes off -- the other side may intercept, and the flight waits for that (and for the
    combat) before it goes on."""
    fl = flights(state)[fid]
    while not fl["ended"]:
        live = live_units(state, fl)
        if not live:
            for hook in LOSS_HOOKS:
                hook(state, fl)
            end_flight(state, fl, "every unit aborted or eliminated")
            return
        if fl["at"] not in fl["offered"]:
            fl["offered"].append(fl["at"])
            if any(hook(state, fl) for hook in OFFER_HOOKS):
                return  # an interrupt waits for the interceptor's owner
        if not fl["path"]:
            arrive(state, fl)
            return
        nxt = fl["path"].pop(0)
        fl["at"] = nxt
        for u in live:
            u.location = nxt
        pick_up(state, fl, nxt)
        if nxt == fl.get("pickup"):
            fl["picked"] = True  # 18.2: the ATP loads here
        if nxt in fl["stops"]:
            for u in live:
                u.props["base"] = nxt  # 13.2: the last base it stood on, however briefly


def pick_up(state: State, fl: dict[str, Any], at: str) -> None:
    """ETO-13.6: the units waiting on their base at ``at`` join the flight there (they can be
    intercepted with it from that hex on, 14.1); each keeps its own base to return to."""
    ids = (fl.get("joins") or {}).pop(at, [])
    for uid in ids:
        u = state.units_by_id[uid]
        u.flag("flight", fl["id"])
        u.props["base"] = u.props.get("base") or at
        fl["units"].append(uid)
    if ids:
        state.emit("air_pickup", side=fl["side"], rule="ETO-13.6", flight=fl["id"], hex=at, units=ids,
                   text=f"{', '.join(ids)} take off from {at} and join flight {fl['id']}")


def arrive(state: State, fl: dict[str, Any]) -> None:
    """The flight reached its destination: a change of base lands (13.2, stacking checked only
    now); other missions wait over the target, where the air-to-air combat is fought once no more
    units will fly to it (15.2 A: :func:`air_interception.resolve_destinations` at the step's end)."""
    fl["arrived"] = True
    live = live_units(state, fl)
    state.emit("air_arrive", side=fl["side"], rule="ETO-13.0", flight=fl["id"], hex=fl["at"],
               text=f"{', '.join(u.id for u in live)} reach {fl['at']}")
    if fl["mission"] == "change_base":
        cv = state.units_by_id.get(fl.get("carrier") or "")
        for u in live:
            u.flag("flight", None)
            if cv is not None and cv.location not in (values.FORCE_POOL, values.PERMANENT) \
                    and carriers.may_base_why_not(state, u, cv) is None:
                carriers.land_on(state, u, cv)  # 13.3: a CV as the end of a change of base
            else:
                carriers.leave(u)
                airbases.land(state, u, fl["at"])
        fl["ended"] = True
        return
    hook = ARRIVAL_HOOKS.get(fl["mission"])
    if hook is not None:
        hook(state, fl)


def end_flight(state: State, fl: dict[str, Any], why: str) -> None:
    fl["ended"] = True
    state.emit("air_flight_over", side=fl["side"], rule="ETO-15.6", flight=fl["id"],
               text=f"flight {fl['id']} ({fl['mission'].replace('_', ' ')}) stops: {why}")


def return_all(state: State, *_: Any) -> None:
    """ETO-13.2, 14.1, 4A-G/4B-D: every air unit still away returns to its base; no interception or
    combat now.  Aborted units of a change of base return to the last base they stood on (12.3)."""
    rec = air_marker(state)
    back = []
    for u in air_units.air_units(state):
        if not u.props.get("flight"):
            u.props.pop("aborted", None)
            continue
        base = air_units.base_of(u)
        u.flag("flight", None)
        u.props.pop("aborted", None)
        u.props.pop("role", None)
        if carriers.carrier_based(u):
            cv = carriers.carrier_of(state, u)
            if cv is not None and not naval_units.damaged(cv):
                carriers.sync(state, u)  # 13.2: back to the carrier it took off from
                back.append(u.id)
            else:  # 13.4: the carrier was sunk or damaged while its air was up
                carriers.orphan_lands(state, u, u.location)
            continue
        if base is None:
            continue
        if airbases.is_friendly_base(state, u.side, base):
            u.location = base
            airbases.refresh_overstack(state, base, u.side)
            back.append(u.id)
        else:  # the base was lost while the unit was away (13.2): evacuate from there
            u.location = base
            airbases.evacuate(state, base, u.side)
    rec["flights"] = {}
    rec["intercepted"] = {}
    if back:
        state.emit("air_return", rule="ETO-13.0", units=back, text=f"{len(back)} air units return to base")


def naval_air_missions(state: State) -> dict[str, str] | None:
    """ETO-12.3, 12.4: the missions flown so far in the current Naval and Air phase (one side's),
    by unit id: "In its own Naval and Air phase, an air unit can perform one of the following
    missions"; in the enemy's, "one interception mission".  None outside a Naval and Air phase."""
    key = state.step.key if state.step else ""
    if not key.startswith("naval-air"):
        return None
    phase = f"{state.turn_label}/{state.phasing}"
    rec = air_marker(state).get("naval_air_missions")
    if not rec or rec.get("phase") != phase:
        rec = {"phase": phase, "units": {}}
        air_marker(state)["naval_air_missions"] = rec
    return rec["units"]


def naval_air_why_not(state: State, u: Unit) -> Refusal | None:
    """ETO-12.3/12.4: a unit that has flown a mission in this Naval and Air phase flies no other."""
    done = naval_air_missions(state)
    if done is None or u.id not in done:
        return None
    own = u.side == state.phasing
    return Refusal("ETO-12.3" if own else "ETO-12.4",
                   f"{u.id} has already flown a mission this Naval and Air phase ({done[u.id]}); an air unit "
                   + ("performs one mission in its own Naval and Air phase" if own
                      else "flies one interception mission in the enemy Naval and Air phase"))


def note_naval_air_mission(state: State, units: list[Unit], mission: str) -> None:
    done = naval_air_missions(state)
    if done is not None:
        for u in units:
            done[u.id] = mission


def phase_for(state: State, side: str) -> str:
    """The commitment context (20.0) of ``side`` flying now: own or enemy Naval and Air phase,
    land or air offensive, End phase."""
    key = state.step.key if state.step else ""
    root = state.step.path.split("/", 1)[0] if state.step else ""
    off = state.markers.get("offensive") or {}
    own = side == (off.get("side") or state.phasing)
    if root == "air-offensive-4B":
        return "own-air-offensive" if own else "enemy-air-offensive"
    if root == "attack-4A" or key.startswith("offensive"):
        return "own-land-offensive" if own else "enemy-land-offensive"
    if key.startswith("naval-air"):
        return "naval-air" if side == state.phasing else "enemy-naval-air"
    if key.startswith("end"):
        return "end"
    if key.startswith("strategic"):
        return "strategic"
    return "naval-air" if side == state.phasing else "enemy-naval-air"


def defending_status(state: State, label: str, side: str) -> str | None:
    """What ``side``'s air would defend at ``label`` (20.1-20.3): its activated or standby land
    units, both ("mixed"), or an unoccupied hex / fortification ("unoccupied-fort-amphibious")."""
    land = [u for u in values.units_at(state, label, side) if values.is_land_unit(state, u)]
    if not land:
        return "unoccupied-fort-amphibious"
    act = {bool(u.props.get("activated")) for u in land}
    return "mixed" if len(act) == 2 else ("activated" if True in act else "standby")


def path_to(state: State, start: str, end: str) -> list[str]:
    """A straight hex line from ``start`` to ``end`` (without ``start``)."""
    g = state.map.grid
    a, b = state.map.index(start), state.map.index(end)
    (q1, r1), (q2, r2) = g.axial(a), g.axial(b)
    line = hexgrid.line(int(q1), int(r1), int(q2), int(r2))
    out = [state.map.label(g.index(int(q), int(r))) for q, r in line]
    return out[1:] if out and out[0] == start else out


def ungridded_hexes(state: State) -> np.ndarray:
    """ETO-13.1: the map's hexes that belong to a sea area without a hex grid (by hex index)."""
    hm = state.map

    def compute() -> np.ndarray:
        names = {n for n, a in hm.sea_areas.items() if not a.gridded}
        return np.array([str(a) in names for a in hm.hexes["sea_area"].to_list()], dtype=bool)

    return hm.cached("eto.ungridded_hexes", compute)


def path_why_not(state: State, side: str, start: str, path: list[str], limit: int) -> Refusal | None:
    """ETO-13.0, 13.1, 1.4: the path is contiguous, no longer than ``limit`` hexes, never over a
    neutral land hex nor through an all-land hexside between two neutral coastal hexes (either
    would invade the neutral, 39.0), never into a sea area without a hex grid (land-based air
    cannot enter one) nor into a grounded zone."""
    from workbench.rulesets.eto.sea_spaces import graph

    hm = state.map
    if len(path) > limit:
        return Refusal("ETO-13.0", f"the flight is {len(path)} hexes long; the range allows {limit}")
    prev = start
    ta = terrain_arrays(state)
    ctrl = control(state)
    grounded = air_grounded(state)
    water = hm.is_water
    ungridded = ungridded_hexes(state)
    for h in path:
        if not isinstance(h, str) or not hm.has_hex(h):
            return Refusal("ETO-13.0", f"no hex {h!r} on the path")
        if hm.distance(prev, h) != 1:
            return Refusal("ETO-13.0", f"the path jumps from {prev} to {h}; air units fly hex by hex")
        i = hm.index(h)
        if not water[i] and not ta.coastal[i] and ctrl[i] == NEUTRAL:
            return Refusal("ETO-13.1", f"{h} is a neutral land hex: flying over it would invade the neutral "
                                       "country (39.0)")
        if ungridded[i]:
            return Refusal("ETO-13.1", f"{h} is in the {hm.hexes['sea_area'][i]}, a sea area without a hex "
                                       "grid: land-based air units cannot enter it")
        j = hm.index(prev)
        if ta.coastal[i] and ta.coastal[j] and not water[i] and not water[j] and ctrl[i] == ctrl[j] == NEUTRAL \
                and (prev, h) not in graph(state).edge_cost:
            return Refusal("ETO-13.1", f"{prev} to {h} crosses an all-land hexside of a neutral country: that "
                                       "would invade it (39.0)")
        if grounded[i]:
            return Refusal("ETO-1.4", f"air is grounded in the weather zone of {h} this month")
        prev = h
    return None
