"""Axis air interdiction of the Arctic convoy route (ETO-3.0-3.5), Strategic Warfare Step 2.

``monthly/strategic/arctic`` runs with air in play, and does nothing while the Arctic route is
closed (3.1, 36.4):

* ``arctic/route`` (3.3, the Western Allies): ``{"kind": "trace_route", "path": [hex, ...]}``
  traces this turn's route -- contiguous all-sea and coastal hexes from Murmansk (or Archangel
  unless it is ice-bound, 1.5) to a hex of the North Atlantic sea area or an Allied-controlled
  port in the UK.  Untraced, the route is :func:`default_route` (the shortest path out of reach
  of as many Axis bombers as possible; ``tables/arctic_interdiction.toml [route_default]``).
* ``arctic/interdict`` (3.2, the Axis): ``{"kind": "interdict_convoy", "units": [...], "to":
  hex, "path": [...], "roles": {...}, "targets": {...}}`` flies bombers (fighters as their
  escort) from one base to a hex of the route by normal air movement (13.0).  Allied fighters
  intercept in every hex entered and the Axis counter-intercepts (:mod:`air_interception`).
  As an interdicting flight reaches its hex, the Allies' naval air on carriers in the Arctic
  convoy escort box may first intercept it (3.5, ``escort_intercept``): moved straight from the
  box, never intercepted (14.4), one naval air unit per interdicting unit.
* At the step's end (:func:`resolve`): the air-to-air combats left, then one interdiction
  however many hexes (3.3): the unaborted Axis bombers cause 1d6 EPs for the first full-strength
  bomber, +2 per other, half (rounded up) for a depleted one (3.4, E16), lost as 4.4 divides the
  Arctic route's losses (:func:`convoys.lose_eps`).  Everyone goes home; the flyers are PC for
  the turn (12.2, 20.1), the naval air interceptors too (3.5).

The traced route is ``state.markers["arctic_interdiction"]`` (``turn``, ``path``, ``traced``).
Rulings: docs/rulings-eto.md, "Arctic interdiction (3.0-3.5)".
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    air_flights,
    air_interception,
    air_units,
    commitment,
    convoys,
    naval_units,
    values,
)
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.sea_spaces import graph
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import air_grounded, icebound_ports

RULE = "ETO-3.2"
MARKER = "arctic_interdiction"
MISSION = "interdict"
ROUTE_STEP = "strategic/arctic/route"
INTERDICT_STEP = "strategic/arctic/interdict"
ESCORT = "arctic_escort_intercept"       # the 3.5 interrupt
ESCORT_SETTLE = "arctic/escort-settled"  # its continuation


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["arctic_interdiction"]


def route_name(state: State) -> str:
    return str(table(state)["route"]["convoy_route"])


def closed_why(state: State) -> str | None:
    """ETO-3.1: "Air units cannot interdict the convoy route if it is closed (36.4)"."""
    if convoys.closed(state, route_name(state)):
        return "the Arctic convoy route is closed (36.4): air units cannot interdict it"
    return None


# == the route (3.3) =============================================================================
def starts(state: State) -> list[str]:
    """ETO-3.3: Murmansk, or Archangel except in winter (ice-bound, 1.5) -- while Allied-held."""
    hm = state.map
    ctrl = control(state)
    ice = icebound_ports(state)
    out = []
    for name in table(state)["route"]["starts"]:
        try:
            h = hm.hex_of(name)
        except KeyError:
            continue
        if h not in ice and ctrl[hm.index(h)] == SIDE_CODE["allies"]:
            out.append(h)
    return out


def _masks(state: State) -> tuple[np.ndarray, np.ndarray]:
    """(route hexes: all-sea or coastal; end hexes: the North Atlantic area, Allied UK ports)."""
    hm = state.map
    ta = terrain_arrays(state)
    t = table(state)["route"]
    on = hm.is_water | ta.coastal
    area = np.array([a == t["end_area"] for a in hm.hexes["sea_area"].to_list()], dtype=bool)
    port = np.array([bool(p) for p in hm.hexes["port"].to_list()], dtype=bool)
    uk = np.array([c == t["end_port_country"] for c in hm.hexes["country"].to_list()], dtype=bool)
    end = area | (port & uk & (control(state) == SIDE_CODE["allies"]))
    return on, end & on


def _step_ok(state: State, a: int, b: int) -> bool:
    """Two route hexes follow each other: adjacent, and a coastal-to-coastal step crosses water
    (as ships do, 7.3)."""
    hm = state.map
    water = hm.is_water
    if water[a] or water[b]:
        return True
    return (hm.label(a), hm.label(b)) in graph(state).edge_cost


def threat(state: State) -> np.ndarray:
    """``int[N]``: how many Axis land-based bombers on a base reach each hex (their range)."""
    hm = state.map
    out = np.zeros(hm.size, dtype=int)
    for u in air_units.air_units(state, "axis"):
        if not air_units.class_row(state, u).get("bomber") or commitment.carrier_based(u) \
                or not values.on_map(u) or air_units.airborne(u):
            continue
        out += hm.dist_from(u.location) <= air_units.air_range(state, u)
    return out


def _edges(state: State) -> tuple[np.ndarray, np.ndarray]:
    """The steps a route may take between all-sea and coastal hexes (per game)."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        hm = state.map
        on = hm.is_water | terrain_arrays(state).coastal
        rows, cols = [], []
        for i in np.flatnonzero(on):
            for j in hm.neighbors[int(i)]:
                j = int(j)
                if j >= 0 and on[j] and _step_ok(state, int(i), j):
                    rows.append(int(i))
                    cols.append(j)
        return np.array(rows, dtype=int), np.array(cols, dtype=int)

    return state.game.cached("eto.arctic_route_edges", compute)


def default_route(state: State) -> list[str]:
    """The route traced for the Western Allies when they trace none (authored,
    ``[route_default]``): the cheapest path, each hex costing ``hex_cost`` plus ``threat_cost``
    per Axis bomber that reaches it.  Empty when no route exists."""
    def make() -> list[str]:
        hm = state.map
        src = [hm.index(h) for h in starts(state)]
        if not src:
            return []
        _on, end = _masks(state)
        d = table(state)["route_default"]
        cost = int(d["hex_cost"]) + int(d["threat_cost"]) * threat(state)
        rows, cols = _edges(state)
        m = csr_matrix((cost[cols].astype(float), (rows, cols)), shape=(hm.size, hm.size))
        dist, pred, _src = dijkstra(m, indices=src, return_predecessors=True, min_only=True)
        ends = np.flatnonzero(end & np.isfinite(dist))
        if not len(ends):
            return []
        k = int(ends[np.argmin(dist[ends])])
        path = [k]
        while int(pred[path[-1]]) >= 0:
            path.append(int(pred[path[-1]]))
        return [hm.label(i) for i in reversed(path)]

    return list(state.derived(("eto.arctic.default_route",), make, state.event_stamp))


def route_why_not(state: State, path: Any) -> Refusal | None:
    """ETO-3.3: why ``path`` is no Arctic route: contiguous all-sea and coastal hexes from
    Murmansk (or Archangel, not ice-bound) to the North Atlantic sea area or an Allied-controlled
    UK port."""
    hm = state.map
    if not isinstance(path, list) or len(path) < 2 or not all(isinstance(h, str) and hm.has_hex(h) for h in path):
        return Refusal("ETO-3.3", "trace the route as a list of at least two hexes of the map")
    ok = starts(state)
    if path[0] not in ok:
        return Refusal("ETO-3.3", f"the route begins at Murmansk (or Archangel, except in winter) while the "
                                  f"Allies hold it, not at {path[0]}" + ("" if ok else ": no such port now"))
    on, end = _masks(state)
    if not end[hm.index(path[-1])]:
        return Refusal("ETO-3.3", f"the route ends in the North Atlantic sea area or at an Allied-controlled "
                                  f"UK port, not at {path[-1]}")
    for a, b in zip(path, path[1:], strict=False):
        i, j = hm.index(a), hm.index(b)
        if not on[j]:
            return Refusal("ETO-3.3", f"{b} is a land hex: the route runs through sea areas, all-sea and coastal "
                                      "hexes")
        if hm.distance(a, b) != 1 or not _step_ok(state, i, j):
            return Refusal("ETO-3.3", f"the route jumps from {a} to {b}")
    return None


def record(state: State) -> dict[str, Any]:
    """This turn's route: the one traced (or set at the step's start), else the default."""
    rec = state.markers.get(MARKER)
    if not rec or rec.get("turn") != state.turn_label:
        return {"turn": state.turn_label, "path": default_route(state), "traced": False}
    return rec


def route(state: State) -> list[str]:
    return list(record(state)["path"])


def begin(state: State, *_: Any) -> None:
    """Step 2 begins: this turn's default route (3.3: "can be altered from turn to turn")."""
    state.markers.pop(MARKER, None)
    if closed_why(state) is None:
        rec = record(state)
        state.markers[MARKER] = rec
        path = rec["path"]
        state.emit("arctic_route", side="allies", rule="ETO-3.3", path=path,
                   text=f"the Arctic convoy route runs {path[0]} - ... - {path[-1]} ({len(path)} hexes)"
                   if path else "no Arctic convoy route can be traced")


class TraceRouteOrder(OrderKind):
    """``trace_route``: the Western Allies trace this turn's Arctic route (ETO-3.3)."""

    kind = "trace_route"
    rule = "ETO-3.3"

    def legal(self, state: State) -> list[dict[str, Any]]:
        """The default route, offered while an Axis bomber could reach the current one."""
        if state.decision is None or state.decision.side != "allies" or closed_why(state):
            return []
        path = route(state)
        hm = state.map
        reach = threat(state)
        if not path or not any(reach[hm.index(h)] for h in path):
            return []
        return [{"kind": self.kind, "path": default_route(state)}]

    def check(self, state: State, order: dict[str, Any]) -> None:
        if not state.step or state.step.key != ROUTE_STEP:
            raise IllegalOrder(self.rule, "the Arctic route is traced in Strategic Warfare Step 2")
        if state.decision is None or state.decision.side != "allies":
            raise IllegalOrder(self.rule, "the Western Allies trace the Arctic convoy route")
        why = closed_why(state)
        if why:
            raise IllegalOrder("ETO-3.1", why)
        refuse(route_why_not(state, order.get("path")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        path = list(order["path"])
        state.markers[MARKER] = {"turn": state.turn_label, "path": path, "traced": True}
        state.emit("arctic_route", side="allies", rule=self.rule, path=path,
                   text=f"the Western Allies trace the Arctic route {path[0]} - ... - {path[-1]} ({len(path)} hexes)")


# == the interdiction mission (3.1, 3.2) ==========================================================
def unit_why_not(state: State, u: Unit) -> Refusal | None:
    """ETO-3.1/3.2: why ``u`` may not fly to interdict: an Axis land-based air unit on its base,
    not overstacked, not grounded, not committed this turn (12.2, 20.1)."""
    if u.side != "axis":
        return Refusal("ETO-3.1", f"{u.id} is not an Axis unit; only Axis air interdicts the Arctic route")
    if not air_units.is_air(state, u):
        return Refusal("ETO-12.1", f"{u.id} is not an air unit")
    if commitment.carrier_based(u):
        return Refusal("ETO-3.1", f"{u.id} is carrier-based; interdictors fly from bases by normal air movement")
    if not values.on_map(u) or air_units.airborne(u):
        return Refusal("ETO-3.2", f"{u.id} is not on an airbase")
    if u.props.get("overstacked"):
        return Refusal("ETO-13.4", f"{u.id} is overstacked at {u.location}: it may only change base")
    if air_grounded(state)[state.map.index(u.location)]:
        return Refusal("ETO-1.4", f"air is grounded in the weather zone of {u.location} this month")
    return commitment.may_fly(state, u, phase="strategic")


def eligible(state: State) -> list[Unit]:
    return [u for u in air_units.air_units(state, "axis") if unit_why_not(state, u) is None]


def plan(state: State, order: dict[str, Any]) -> tuple[list[Unit], str, list[str]]:
    """Check an ``interdict_convoy`` order: (units, target hex, path)."""
    if not state.step or state.step.key != INTERDICT_STEP:
        raise IllegalOrder(RULE, "air interdiction of the Arctic route is flown in Strategic Warfare Step 2")
    if state.decision is None or state.decision.side != "axis":
        raise IllegalOrder("ETO-3.1", "only the Axis interdicts the Arctic convoy route")
    why = closed_why(state)
    if why:
        raise IllegalOrder("ETO-3.1", why)
    units = air_flights.named_units(state, order.get("units"), RULE, "name the air units that interdict")
    for u in units:
        refuse(unit_why_not(state, u))
    roles = order.get("roles") or {}
    if not any(air_units.class_row(state, u).get("bomber") and roles.get(u.id) != "fighter" for u in units):
        raise IllegalOrder("ETO-3.2", "an interdiction needs a bomber: only unaborted bombers interdict "
                                      "(fighters fly with them as escort)")
    start = air_flights.one_base(units, "interdicting air units")
    to = order.get("to")
    if not isinstance(to, str) or to not in route(state):
        raise IllegalOrder("ETO-3.2", f"{to} is not a hex of the Arctic convoy route the Western Allies traced")
    path = order.get("path") or air_flights.path_to(state, start, to)
    if start == to:
        path = []
    elif not isinstance(path, list) or path[-1] != to:
        raise IllegalOrder("ETO-13.0", f"the path must end on the interdiction hex {to}")
    refuse(air_flights.path_why_not(state, "axis", start, path, min(air_units.air_range(state, u) for u in units)))
    return units, to, list(path)


class InterdictOrder(OrderKind):
    """``interdict_convoy``: Axis air from one base flies to a hex of the Arctic route (ETO-3.2)."""

    kind = "interdict_convoy"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        """Per base: all its eligible bombers (and fighters as escort) to the nearest route hex
        they reach, and each bomber alone."""
        if state.decision is None or state.decision.side != "axis" or closed_why(state):
            return []
        if not state.step or state.step.key != INTERDICT_STEP:
            return []
        path = route(state)
        if not path:
            return []
        hm = state.map
        idx = np.array([hm.index(h) for h in path])
        out: list[dict[str, Any]] = []
        by_base: dict[str, list[Unit]] = {}
        for u in eligible(state):
            by_base.setdefault(u.location, []).append(u)
        for base, us in sorted(by_base.items()):
            bombers = [u for u in us if air_units.class_row(state, u).get("bomber")]
            if not bombers:
                continue
            d = hm.dist_from(base)[idx]
            for group in ([*bombers, *(u for u in us if u not in bombers)], bombers, *([b] for b in bombers[1:])):
                rng = min(air_units.air_range(state, u) for u in group)
                for k in np.argsort(d, kind="stable")[:200]:
                    if d[int(k)] > rng:
                        break
                    order = {"kind": self.kind, "units": [u.id for u in group], "to": path[int(k)]}
                    if order not in out and state.check(order) is None:
                        out.append(order)
                        break
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        units, to, path = plan(state, order)
        roles = order.get("roles") or {}
        for u in units:
            commitment.commit_for(state, u, phase="strategic")
            row = air_units.class_row(state, u)
            if row.get("fighter") and row.get("bomber"):
                u.props["role"] = roles.get(u.id) or "bomber"
        fl = air_flights.new_flight(state, "axis", units, MISSION, path, target=to, targets=order.get("targets"))
        state.emit("interdict_convoy", side="axis", rule=RULE, flight=fl["id"], hex=to, units=fl["units"],
                   text=f"{', '.join(fl['units'])} fly from {fl['base']} to interdict the Arctic route at {to}")
        air_flights.fly_on(state, fl["id"])


# == naval air from the escort box (3.5) ==========================================================
def escort_air(state: State) -> list[Unit]:
    """ETO-3.5: Allied naval air on a carrier (``[escort_air] carriers``) in the route's convoy
    escort box, not yet committed this turn nor used to intercept this step."""
    box = convoys.box_of(state, route_name(state))
    kinds = set(table(state)["escort_air"]["carriers"])
    cvs = {c.id for c in naval_units.naval_units(state, "allies", box) if naval_units.kind(state, c) in kinds}
    used = air_interception.used(state)
    return [u for u in air_units.air_units(state, "allies") if u.props.get("carrier") in cvs
            and u.location == box and not air_units.airborne(u) and u.id not in used
            and commitment.may_fly(state, u, phase="strategic") is None]


def offer_escort(state: State, fl: dict[str, Any]) -> bool:
    """ETO-3.5: as an interdicting flight reaches its hex, the naval air in the escort box may
    intercept it (before the land-based fighters are asked, so all fight together)."""
    if fl["mission"] != MISSION or fl["path"] or fl["at"] != fl["target"] or fl.get("escort_offered"):
        return False
    fl["escort_offered"] = True
    if air_grounded(state)[state.map.index(fl["at"])] or not escort_air(state):
        return False
    what = ", ".join(u.id for u in air_flights.live_units(state, fl))
    state.push_interrupt(ESCORT, "allies", "ETO-3.5",
                         f"naval air in the Arctic convoy escort box: intercept {what} over {fl['at']}?",
                         ["escort_intercept", "pass"], flight=fl["id"], hex=fl["at"], on_pass=ESCORT_SETTLE)
    return True


def escort_settled(state: State, frame: dict[str, Any]) -> None:
    """After 3.5's interception: the land-based fighters may intercept too (14.1); then the
    combat over the hex (every interceptor in it) and the flight arrives."""
    fl = air_flights.flights(state)[frame["data"]["flight"]]
    if air_interception.offer(state, fl):
        return
    air_interception.settle(state, {"data": {"flight": fl["id"], "hex": frame["data"]["hex"]}})


class EscortInterceptOrder(OrderKind):
    """``escort_intercept``: naval air from the Arctic escort box intercepts an interdicting
    flight in its hex, one naval air unit per interdicting air unit (ETO-3.5)."""

    kind = "escort_intercept"
    rule = "ETO-3.5"

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = state.frames[-1] if state.frames else None
        if not f or f.get("interrupt") != ESCORT:
            return []
        fl = air_flights.flights(state)[f["data"]["flight"]]
        n = len(air_flights.live_units(state, fl)) * int(table(state)["escort_air"]["per_interdictor"])
        ids = [u.id for u in escort_air(state)]
        return [{"kind": self.kind, "units": ids[:n]}] + ([{"kind": self.kind, "units": [i]} for i in ids[:n]]
                                                        if min(n, len(ids)) > 1 else [])

    def _plan(self, state: State, order: dict[str, Any]) -> tuple[dict[str, Any], list[Unit]]:
        f = state.frames[-1] if state.frames else None
        if not f or f.get("interrupt") != ESCORT:
            raise IllegalOrder(self.rule, "no interdicting flight is waiting over the Arctic route")
        fl = air_flights.flights(state)[f["data"]["flight"]]
        units = air_flights.named_units(state, order.get("units"), self.rule, "name the naval air units")
        if len({u.id for u in units}) != len(units):
            raise IllegalOrder(self.rule, "each naval air unit is named once")
        ok = {u.id for u in escort_air(state)}
        for u in units:
            if u.id not in ok:
                raise IllegalOrder(self.rule, f"{u.id} is not uncommitted naval air on a carrier in the Arctic convoy "
                                              "escort box")
        most = len(air_flights.live_units(state, fl)) * int(table(state)["escort_air"]["per_interdictor"])
        if len(units) > most:
            raise IllegalOrder(self.rule, f"each naval air unit intercepts one interdicting air unit: at most {most} "
                                          "here")
        return fl, units

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        fl, units = self._plan(state, order)
        frame = state.pop_interrupt()
        at = fl["at"]
        enemy = air_flights.live_units(state, fl)
        enemy = sorted(enemy, key=lambda e: (not air_units.is_bomber(state, e), e.id))
        targets = dict(order.get("targets") or {})
        for k, u in enumerate(units):
            commitment.commit_for(state, u, phase="strategic")
            air_interception.used(state)[u.id] = state.step.key if state.step else ""
            u.props["role"] = "fighter"
            u.props["escort_box"] = u.location
            targets.setdefault(u.id, [enemy[k % len(enemy)].id])  # the one interdictor it intercepts
            u.location = at  # 3.5: straight from the box to the hex; never intercepted (14.4)
        hunt = air_flights.new_flight(state, "allies", units, "intercept", [], target=at, target_flight=fl["id"],
                                      targets=targets)
        hunt["arrived"] = True
        hunt["offered"].append(at)
        state.emit("escort_intercept", side="allies", rule=self.rule, flight=hunt["id"], target_flight=fl["id"],
                   hex=at, text=f"{', '.join(u.id for u in units)} fly from the Arctic convoy escort box to intercept "
                                f"{', '.join(fl['units'])} over {at} (3.5)")
        escort_settled(state, frame)


# == the effect (3.4) and the end of the step ==========================================================
def ep_loss(state: State, bombers: list[Unit]) -> dict[str, Any]:
    """ETO-3.4 (E16): the first full-strength bomber 1d6, each other full-strength +2, a depleted
    one half of that, rounded up (a depleted first bomber ceil(1d6/2)).  The Axis rolls."""
    e = table(state)["effects"]
    half = Fraction(str(e["depleted_fraction"]))
    full = [b for b in bombers if not b.reduced]
    dep = [b for b in bombers if b.reduced]
    die = sum(state.roll(int(e["dice"]), purpose=f"Arctic convoy interdiction by {len(full)} full-strength and "
                                                   f"{len(dep)} depleted bombers", rule="ETO-3.4", side="axis"))
    add = int(e["additional_full"])
    if full:
        total = die + add * (len(full) - 1) + math.ceil(add * half) * len(dep)
    else:
        total = math.ceil(die * half) + math.ceil(add * half) * (len(dep) - 1)
    return {"die": die, "full": [b.id for b in full], "depleted": [b.id for b in dep], "eps": int(total)}


def resolve(state: State, *_: Any) -> dict[str, Any] | None:
    """End of Step 2: the combats over the hexes, then one interdiction for the whole route
    (3.3, 3.4); everyone returns, the flyers are PC for the turn (3.2, 3.5, 12.2)."""
    fls = [f for f in air_flights.flights(state).values() if f["mission"] == MISSION]
    if not fls:
        return None
    air_interception.resolve_destinations(state)
    bombers: dict[str, Unit] = {}
    for f in fls:
        if f["arrived"]:
            for u in air_flights.live_units(state, f):
                if air_units.is_bomber(state, u):
                    bombers[u.id] = u
    out: dict[str, Any] = {"bombers": sorted(bombers), "eps": 0, "shares": {}}
    if bombers and closed_why(state) is None:
        res = ep_loss(state, [bombers[k] for k in sorted(bombers)])
        shares = convoys.lose_eps(state, route_name(state), res["eps"], "ETO-3.4",
                                  "air interdiction of the Arctic convoy route")
        out.update(res, shares=shares)
        state.emit("arctic_interdiction", side="axis", rule="ETO-3.4", **out,
                   text=f"{', '.join(sorted(bombers))} interdict the Arctic route: {res['eps']} EPs lost "
                        f"({', '.join(f'{k} {v}' for k, v in shares.items())})")
    else:
        state.emit("arctic_interdiction", side="axis", rule="ETO-3.2", **out,
                   text="no unaborted Axis bomber reached the Arctic route: no interdiction")
    naval = []
    for u in air_units.air_units(state, "allies"):
        box = u.props.pop("escort_box", None)
        if box is None:
            continue
        if values.on_map(u) or u.location == box:  # 3.5: survivors move straight back to their carrier
            u.location = str(box)
            u.flag("flight", None)
            for k in ("base", "role", "aborted"):
                u.props.pop(k, None)
        naval.append(u)
    for u in naval:
        if u.location == convoys.box_of(state, route_name(state)) and commitment.status(state, u) is None:
            commitment.mark(state, u, commitment.PC, "ETO-3.5", "it intercepted Arctic interdictors: committed "
                                                                 "for the turn")
    air_flights.return_all(state)
    return out


if offer_escort not in air_flights.OFFER_HOOKS:
    air_flights.OFFER_HOOKS.insert(0, offer_escort)
