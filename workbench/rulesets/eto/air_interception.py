"""Air interception and counter-interception (ETO-14.0-14.6).

Whenever a flight (:mod:`air_missions`) enters a hex -- its base hex as it takes off
included -- within range of enemy fighters that may fly now, their owner gets an
``air_intercept`` interrupt and the flight waits (14.1):

* ``{"kind": "intercept", "units": [...], "path": [...]}`` sends fighters from one base to
  the waiting flight's hex (more orders may follow: every interceptor reaches the hex before
  any combat, 14.1/14.3).  Their flight is walked like any other, so the first side may
  counter-intercept it in every hex it enters, and so on (14.2);
* ``pass`` ends the declarations for that hex: the air-to-air combat there is fought
  (15.0) and the waiting flight goes on unless all its units were aborted or eliminated.

Because the interrupts nest, the innermost combat is fought first -- the order of the 14.2
example.  An air unit intercepts once per step (14.4); flights into or out of the
strategic bombing box are never intercepted (14.4, 13.7); Malta's air units fight an
attacking fighter only if their owner intercepts it (14.6).  Fighters intercept air units;
bombers intercept only naval units (14.0), which come with the war at sea.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    air_combat,
    air_flights,
    air_supply,
    air_units,
    airbases,
    commitment,
    cooperation,
    historical,
    values,
)
from workbench.rulesets.eto.weather import air_grounded

RULE = "ETO-14.1"
INTERRUPT = "air_intercept"
SETTLE = "air/intercepted"
MALTA = "Malta"


def used(state: State) -> dict[str, str]:
    """Units that intercepted this step (14.4: one interception per step), by id."""
    return air_flights.air_marker(state).setdefault("intercepted", {})


def mission_target(state: State, fl: dict[str, Any]) -> dict[str, Any]:
    """The flight whose mission started the chain (an interceptor's target's target ...)."""
    fls = air_flights.flights(state)
    seen = set()
    while fl.get("target_flight") and fl["id"] not in seen:
        seen.add(fl["id"])
        fl = fls[fl["target_flight"]]
    return fl


def interceptor_why_not(state: State, u: Unit, fl: dict[str, Any]) -> Refusal | None:
    """Why ``u`` may not intercept flight ``fl`` in the hex it just entered (12.4, 14.0-14.4,
    20.0-20.3), or None."""
    at = fl["at"]
    if u.side == fl["side"] or not air_units.is_air(state, u):
        return Refusal("ETO-14.0", f"{u.id} is not an enemy air unit of the flight")
    why = historical.fc_mission_why_not(state, [u], [at])  # 46.5: the home fighter stays over Britain
    if why:
        return why
    if not air_units.has_quality(state, u):
        return Refusal("ETO-14.0", f"{u.id} is a bomber; bombers intercept only naval units")
    if air_units.airborne(u) or not values.on_map(u):
        return Refusal("ETO-14.2", f"{u.id} is not on its base")
    if u.props.get("overstacked"):
        return Refusal("ETO-13.4", f"{u.id} is overstacked and may only change base")
    if u.id in used(state):
        return Refusal("ETO-14.4", f"{u.id} has already intercepted this step; an air unit intercepts once per step")
    why = air_flights.naval_air_why_not(state, u)
    if why:
        return why
    dist = state.map.distance(u.location, at)
    if dist > air_supply.mission_range(state, u):
        if air_supply.marked(u):
            return Refusal(air_supply.RULE, f"{u.id} is out of supply: it flies missions only over its base hex or "
                                            f"an adjacent one; {at} is {dist} hexes from {u.location}")
        return Refusal("ETO-14.1", f"{at} is {dist} hexes from {u.location}, beyond {u.id}'s range of "
                                   f"{air_units.air_range(state, u)}")
    grounded = air_grounded(state)
    if grounded[state.map.index(u.location)] or grounded[state.map.index(at)]:
        return Refusal("ETO-1.4", "air is grounded in that weather zone this month")
    root = mission_target(state, fl)
    defending = None
    if root["mission"] == "ground_support":
        defending = air_flights.defending_status(state, root["target"], u.side)
    return commitment.may_fly(state, u, phase=air_flights.phase_for(state, u.side), defending=defending,
                              mission="intercept")


def interceptors(state: State, fl: dict[str, Any]) -> list[Unit]:
    enemy = values.other(fl["side"])
    return [u for u in air_units.air_units(state, enemy) if interceptor_why_not(state, u, fl) is None]


def offer(state: State, fl: dict[str, Any]) -> bool:
    """ETO-14.1: if the other side could intercept ``fl`` in the hex it has entered, ask it and
    make the flight wait (True)."""
    if fl["mission"] == "evacuate" or not air_flights.live_units(state, fl):
        return False
    cands = interceptors(state, fl)
    if not cands:
        return False
    enemy = values.other(fl["side"])
    what = ", ".join(u.id for u in air_flights.live_units(state, fl))
    state.push_interrupt(INTERRUPT, enemy, RULE,
                         f"intercept {what} over {fl['at']}? ({len(cands)} fighters in range)",
                         ["intercept", "pass"], flight=fl["id"], hex=fl["at"], on_pass=SETTLE)
    return True



def settle(state: State, frame: dict[str, Any]) -> None:
    """The interceptor's owner declared all he will send (15.2 A): fight over the hex, then the
    waiting flight goes on (14.1, 14.3)."""
    fls = air_flights.flights(state)
    fl = fls[frame["data"]["flight"]]
    at = frame["data"]["hex"]
    hunters = [f for f in fls.values() if f.get("target_flight") == fl["id"] and f["at"] == at and f["arrived"]
               and not f["ended"]]
    theirs = [u for f in hunters for u in air_flights.live_units(state, f)]
    if theirs and air_flights.live_units(state, fl):
        fight(state, at, {fl["side"]: air_flights.live_units(state, fl), hunters[0]["side"]: theirs},
              first=fl["side"], flights=[fl, *hunters], rule="ETO-14.3")
    for f in hunters:
        f["ended"] = True  # 14.1: interceptors stay in the hex until everyone returns
    if not fl["ended"]:
        air_flights.fly_on(state, fl["id"])


def fight(state: State, at: str, sides: dict[str, list[Unit]], *, first: str,
          flights: list[dict[str, Any]], rule: str) -> dict[str, Any]:
    """ETO-15.0: air-to-air combat over ``at`` (needs a fighter on at least one side)."""
    if not any(air_units.is_fighter(state, u) for us in sides.values() for u in us):
        return {}
    prefs: dict[str, list[str]] = {}
    routes: dict[str, list[str]] = {}
    for f in flights:
        prefs.update(f.get("targets") or {})
        if f["mission"] == "change_base":  # 15.4: own-base bonus at every base of the route
            for uid in f["units"]:
                routes[uid] = [*f["stops"], f["target"]]
    state.emit("air_battle", rule=rule, hex=at, text=f"air-to-air combat over {at}: "
               + "; ".join(f"{s} {', '.join(u.id for u in us)}" for s, us in sides.items()))
    return air_combat.fight(state, at, sides, first=first, preferences=prefs, bases_on_route=routes)


def resolve_destinations(state: State, *_: Any) -> None:
    """ETO-14.3/15.0 at the end of a flying step: wherever flights of both sides are over the
    same destination hex, or fighters attack an enemy airbase, fight it out (15.2 A: no more
    air units will fly to the combat)."""
    fls = air_flights.flights(state)
    hexes = sorted({f["at"] for f in fls.values() if f["arrived"] and not f["ended"]})
    for at in hexes:
        here = [f for f in fls.values() if f["at"] == at and f["arrived"] and not f["ended"]]
        sides: dict[str, list[Unit]] = {}
        for f in here:
            sides.setdefault(f["side"], []).extend(air_flights.live_units(state, f))
        base_attack = [f for f in here if f["mission"] == "attack_air"]
        first = min(here, key=lambda f: int(f["id"][1:]))["side"]
        if base_attack and state.map.hex_of(MALTA) != at:
            owner = values.other(base_attack[0]["side"])
            defenders = airbases.based_at(state, at, owner)
            if defenders:
                sides.setdefault(owner, []).extend(defenders)
                first = owner  # the defenders were in the hex first (15.2 B)
        if len([s for s, us in sides.items() if us]) == 2:
            fight(state, at, sides, first=first, flights=here, rule="ETO-15.0")


class InterceptOrder(OrderKind):
    """``intercept``: fighters from one base fly to the waiting enemy flight (14.1, 14.2)."""

    kind = "intercept"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = state.frames[-1] if state.frames else None
        if not f or f.get("interrupt") != INTERRUPT:
            return []
        fl = air_flights.flights(state)[f["data"]["flight"]]
        return [{"kind": "intercept", "units": [u.id]} for u in interceptors(state, fl)]

    def _plan(self, state: State, order: dict[str, Any]) -> tuple[dict[str, Any], list[Unit], list[str]]:
        f = state.frames[-1] if state.frames else None
        if not f or f.get("interrupt") != INTERRUPT:
            raise IllegalOrder(RULE, "no enemy flight is waiting to be intercepted")
        fl = air_flights.flights(state)[f["data"]["flight"]]
        units = air_flights.named_units(state, order.get("units"), RULE, "name the fighters that intercept")
        for u in units:
            if u.side != f["side"]:
                raise IllegalOrder(RULE, f"{u.id} is not a {f['side']} unit")
            refuse(interceptor_why_not(state, u, fl))
        # 42.4, 42.5: never airborne in one hex with the other nationality (one of them defends a shared base)
        aloft = [v for g in air_flights.flights(state).values() if g.get("target_flight") == fl["id"]
                 and g["at"] == fl["at"] and not g["ended"] for v in air_flights.live_units(state, g)]
        refuse(cooperation.mix_why_not(state, [*units, *aloft], "be airborne in one hex"))
        start = air_flights.one_base(units, "interceptors")
        path = order.get("path") or air_flights.path_to(state, start, fl["at"])
        if start == fl["at"]:
            path = []
        elif not isinstance(path, list) or path[-1] != fl["at"]:
            raise IllegalOrder("ETO-14.1", f"the interceptors' path must end where the enemy is, {fl['at']}")
        rng = min(air_supply.mission_range(state, u) for u in units)
        refuse(air_flights.path_why_not(state, f["side"], start, path, rng))
        return fl, units, path

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        fl, units, path = self._plan(state, order)
        side = units[0].side
        root = mission_target(state, fl)
        defending = air_flights.defending_status(state, root["target"], side) \
            if root["mission"] == "ground_support" else None
        air_flights.note_naval_air_mission(state, units, "intercept")  # 12.3/12.4: its mission this phase
        for u in units:
            commitment.commit_for(state, u, phase=air_flights.phase_for(state, side), defending=defending,
                                  mission="intercept")
            used(state)[u.id] = state.step.key if state.step else ""
            if air_units.class_row(state, u).get("bomber"):
                u.props["role"] = "fighter"  # an intercepting fighter-bomber flies as a fighter (12.1, 14.0)
        hunt = air_flights.new_flight(state, side, units, "intercept", path, target=fl["at"],
                                       target_flight=fl["id"], targets=order.get("targets"))
        state.emit("intercept", side=side, rule=RULE, flight=hunt["id"], target_flight=fl["id"], hex=fl["at"],
                   text=f"{', '.join(u.id for u in units)} intercept {', '.join(fl['units'])} over {fl['at']}")
        air_flights.fly_on(state, hunt["id"])


if offer not in air_flights.OFFER_HOOKS:
    air_flights.OFFER_HOOKS.append(offer)
