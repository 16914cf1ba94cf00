"""Air interception of moving naval units (ETO-12.4, 14.0, 14.1, 14.4, 16.5).

"A bomber is eligible to intercept enemy naval units only" (14.0).  As a voyage
(:mod:`naval_movement`) enters a space in its side's Naval and Air phase, the other side is
offered an interception by its land-based bombers within range (:data:`naval_movement.OFFER_HOOKS`,
before the naval interception there): an interrupt ``air_intercept_ships`` with
``intercept_ships`` orders and ``pass``.

* **Where** (16.5): land-based air reaches ships in a map hex (a coastal hex or a port) or in a
  sea space with a hex grid -- there it flies to the hex of that area nearest its base
  (ruling in docs/rulings-eto.md); never into an ungridded area or a box.
* **Who**: unaborted bombers (and fighter-bombers flying as bombers) on a land base, within
  range, not overstacked, not grounded, that have not intercepted this step (14.4) nor flown
  their one interception mission of the enemy Naval and Air phase (12.4), and that commitment
  (20.0) lets fly.  One order per base (13.6).
* **Not intercepted** (14.4): U-boats, submarines (their own procedure, 11.2), ships sailing
  to a convoy escort box; in the End phase's second naval movement only ships that entered the
  air unit's range during the phase (:func:`entered_range`).
* **Flow**: the bombers fly hex by hex (:func:`air_flights.fly_on`, so the ships' side may
  counter-intercept them with fighters, 14.2); when the interceptor's owner passes, each
  bomber that arrived unaborted makes its air-naval attacks on the moving stack
  (:func:`air_naval.strike`: 16.1-16.4) and the voyage goes on if anything is left (14.1).
  The bombers stay over the hex until they return to base at the end of the step (14.1;
  the End phase: at the end of each side's second naval movement).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    air_combat,
    air_flights,
    air_interception,
    air_naval,
    air_supply,
    air_units,
    carriers,
    commitment,
    italian_restrictions,
    naval_movement,
    naval_units,
    sea_paths,
    values,
)
from workbench.rulesets.eto.weather import air_grounded

RULE = "ETO-14.0"
INTERRUPT = "air_intercept_ships"
SETTLE = "air/ships_intercepted"
MISSION = "intercept_naval"


def reach_hexes(state: State, space: str) -> list[str]:
    """ETO-16.5: the map hexes land-based air flies to for ships in ``space``: the hex itself;
    every hex of a gridded sea area; none for an ungridded area or a box."""
    hm = state.map
    if hm.has_hex(space):
        return [space]
    area = hm.sea_areas.get(space)
    if area is None or not area.gridded:
        return []

    def compute() -> list[str]:
        areas = np.asarray([str(a) for a in hm.hexes["sea_area"].to_list()])
        return [hm.label(int(i)) for i in np.nonzero(areas == space)[0]]

    return list(hm.cached(("eto.area_hexes", space), compute))


def base_hex(state: State, u: Unit, space: str) -> str | None:
    """The hex ``u`` takes off from: its base, or its carrier's hex (the hex of the carrier's
    gridded area nearest ``space``; None without a hex grid: 13.1, 16.5)."""
    if state.map.has_hex(u.location) and not u.props.get("carrier"):
        return u.location
    hexes = reach_hexes(state, space)
    cv = carriers.carrier_of(state, u)
    if not hexes or cv is None:
        return None
    if cv.location == space or cv.location in hexes:
        return cv.location if state.map.has_hex(cv.location) else hexes[0]
    own = reach_hexes(state, cv.location)
    if not own:
        return None
    hm = state.map
    d = hm.dist_to_set(np.array([hm.index(h) for h in own]))
    nearest = min(hexes, key=lambda h: (int(d[hm.index(h)]), h))
    return carriers.launch_hex(state, u, nearest)


def target_hex(state: State, u: Unit, space: str, voyage: dict[str, Any] | None = None) -> str | None:
    """The hex of ``space`` nearest ``u``'s base, if within its range (13.0, 14.1); of the hexes
    the voyage traced through it, if it traced any (7.4: :mod:`sea_paths`)."""
    hexes = sea_paths.traced(voyage, space) or reach_hexes(state, space)
    start = base_hex(state, u, space)
    if not hexes or start is None:
        return None
    best = min(hexes, key=lambda h: (state.map.distance(start, h), h))
    return best if state.map.distance(start, best) <= air_supply.mission_range(state, u) else None  # 33.7


def targets(state: State, voyage: dict[str, Any]) -> list[Unit]:
    """The moving ships air can intercept where the voyage is now (14.4: no U-boats, no subs)."""
    return [state.units_by_id[i] for i in voyage["units"]
            if state.units_by_id[i].location == voyage["at"]
            and not naval_units.is_uboat(state, state.units_by_id[i])
            and not naval_units.is_submarine(state, state.units_by_id[i])]


def entered_range(state: State, u: Unit, voyage: dict[str, Any]) -> bool:
    """ETO-14.4 (End phase): the voyage was out of ``u``'s interception range somewhere before
    the space it is in now -- it began the phase out of range, or left the range and re-entered."""
    done = len(voyage["path"]) - len(voyage["left"]) - 1
    return any(target_hex(state, u, sp, voyage) is None for sp in [voyage["from"], *voyage["path"][:max(done, 0)]])


def interceptor_why_not(state: State, u: Unit, side: str, space: str,
                        voyage: dict[str, Any] | None = None) -> Refusal | None:
    """Why ``u`` (of ``side``) may not intercept the ships moving in ``space`` now, or None
    (``voyage``: the moving stack's voyage, for the End phase's rule; the waiting one if None)."""
    if u.side != side or not air_units.is_air(state, u):
        return Refusal(RULE, f"{u.id} is not a {side} air unit")
    if not air_units.class_row(state, u).get("bomber"):
        return Refusal(RULE, f"{u.id} is a fighter; fighters intercept air units only, bombers naval units")
    if u.id in air_interception.used(state):
        return Refusal("ETO-14.4", f"{u.id} has already intercepted this step; an air unit intercepts once per step")
    why = air_flights.naval_air_why_not(state, u) or italian_restrictions.attack_why_not(
        state, u, "an air attack on ships")  # 46.1 (optional)
    if why:
        return why
    cv = carriers.carrier_of(state, u)
    if air_units.airborne(u) or not (values.on_map(u) or cv is not None):
        return Refusal("ETO-14.1", f"{u.id} is not on a base")
    if cv is not None:  # 8.5, 16.5: a CV's air intercepts ships like land-based air, within range
        why = carriers.mission_why_not(state, u, "intercept")
        if why:
            return why
        if cv.props.get("oos"):
            return Refusal("ETO-33.8", f"{u.id}'s carrier {cv.id} is marked out of supply: its air intercepts nothing")
        if base_hex(state, u, space) is None:
            return Refusal("ETO-16.5", f"{u.id}'s carrier is in a sea area without a hex grid: its air attacks ships "
                                       "only in naval interception there (9.0)")
    elif u.props.get("carrier"):
        return Refusal("ETO-13.3", f"{u.id}'s carrier is gone")
    if u.props.get("overstacked"):
        return Refusal("ETO-13.4", f"{u.id} is overstacked and may only change base")
    if air_combat.aborted(u):
        return Refusal("ETO-15.6", f"{u.id} is aborted")
    start = base_hex(state, u, space)
    if start is not None and air_grounded(state)[state.map.index(start)]:
        return Refusal("ETO-1.4", f"air is grounded in the weather zone of {start} this month")
    if not reach_hexes(state, space):
        return Refusal("ETO-16.5", f"{space} has no hex grid: only carrier-based naval air reaches ships there")
    voyage = voyage or naval_movement.voyage_record(state)
    to = target_hex(state, u, space, voyage)
    if to is None:
        if air_supply.marked(u):
            return Refusal(air_supply.RULE, f"{u.id} is out of supply: it flies missions only over its base hex or "
                                            f"an adjacent one; {space} is farther")
        return Refusal("ETO-14.1", f"{space} is beyond {u.id}'s range of {air_units.air_range(state, u)} "
                                   f"from {start}")
    if air_grounded(state)[state.map.index(to)]:
        return Refusal("ETO-1.4", f"air is grounded over {to} this month")
    if start is not None and start != to and values.on_map_label(start):
        path = air_flights.path_to(state, start, to)
        why = air_flights.path_why_not(state, side, start, path, air_units.air_range(state, u))
        if why:  # 13.1: the flight the order would fly (never over neutral land, 39.0)
            return why
    if voyage is not None and voyage["phase"] == "end" and not entered_range(state, u, voyage):
        return Refusal("ETO-14.4", f"in the End phase air intercepts only ships that enter its range during the "
                                   f"phase; these began it within {u.id}'s range and have not left it")
    return commitment.may_fly(state, u, phase=air_flights.phase_for(state, side), mission="intercept")


def interceptors(state: State, side: str, space: str, voyage: dict[str, Any] | None = None) -> list[Unit]:
    return [u for u in air_units.air_units(state, side) if interceptor_why_not(state, u, side, space, voyage) is None]


def offer(state: State, voyage: dict[str, Any]) -> bool:
    """ETO-14.0/14.1: the voyage entered ``voyage["at"]``: if the other side's bombers could
    intercept it there, ask and make the voyage wait (True)."""
    if voyage["phase"] not in ("naval-air", "end") or voyage["escorting"] or not targets(state, voyage):
        return False  # 14.4: ships sailing to a convoy escort box are not intercepted
    enemy = values.other(voyage["side"])
    cands = interceptors(state, enemy, voyage["at"], voyage)
    if not cands:
        return False
    state.push_interrupt(INTERRUPT, enemy, RULE,
                         f"intercept {', '.join(voyage['units'])} in {voyage['at']} with bombers? "
                         f"({len(cands)} in range)", ["intercept_ships", "pass"], space=voyage["at"],
                         on_pass=SETTLE)
    return True


def settle(state: State, frame: dict[str, Any]) -> None:
    """The intercepting side sent all it will: each bomber over the ships attacks them (16.1),
    then the voyage goes on (14.1)."""
    space = frame["data"]["space"]
    voyage = naval_movement.voyage_record(state)
    for fl in sorted(air_flights.flights(state).values(), key=lambda f: int(f["id"][1:])):
        if fl["mission"] != MISSION or fl.get("ships_in") != space or not fl["arrived"] or fl["ended"]:
            continue
        for b in air_flights.live_units(state, fl):
            ships = targets(state, voyage) if voyage else []
            if not ships:
                break
            if air_units.is_bomber(state, b) and not air_combat.aborted(b):
                air_naval.strike(state, b, ships, space)
        fl["ended"] = True  # 14.1: the bombers stay in the hex until everyone returns
    if voyage is not None:
        naval_movement.continue_voyage(state, voyage)


class InterceptShipsOrder(OrderKind):
    """``{"kind": "intercept_ships", "units": [ids]}``: bombers from one base fly to the moving
    enemy ships (ETO-14.0, 14.1)."""

    kind = "intercept_ships"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval")) and bool(game.options.get("air"))

    @staticmethod
    def _frame(state: State) -> dict[str, Any] | None:
        f = state.frames[-1] if state.frames else None
        return f if f and f.get("interrupt") == INTERRUPT else None

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = self._frame(state)
        if f is None:
            return []
        return [{"kind": self.kind, "units": [u.id]} for u in interceptors(state, f["side"], f["data"]["space"])]

    def _plan(self, state: State, order: dict[str, Any]) -> tuple[str, list[Unit], list[str], str]:
        f = self._frame(state)
        if f is None:
            raise IllegalOrder(RULE, "no enemy naval stack is waiting to be intercepted by air")
        space = f["data"]["space"]
        units = air_flights.named_units(state, order.get("units"), RULE, "name the bombers that intercept")
        for u in units:
            refuse(interceptor_why_not(state, u, f["side"], space))
        if any(u.props.get("carrier") for u in units) and len(units) > 1:
            raise IllegalOrder("ETO-13.6", "each carrier is a base of its own: its air intercepts by its own order")
        start = str(base_hex(state, units[0], space)) if units[0].props.get("carrier") \
            else air_flights.one_base(units, "interceptors")
        to = str(target_hex(state, units[0], space, naval_movement.voyage_record(state)))
        path = air_flights.path_to(state, start, to) if start != to else []
        rng = min(air_supply.mission_range(state, u) for u in units)
        refuse(air_flights.path_why_not(state, f["side"], start, path, rng))
        return space, units, path, to

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        space, units, path, to = self._plan(state, order)
        side = units[0].side
        if units[0].props.get("carrier"):
            units[0].location = str(base_hex(state, units[0], space))  # takes off from its carrier's hex
        air_flights.note_naval_air_mission(state, units, "intercept")  # 12.4: its one interception
        for u in units:
            commitment.commit_for(state, u, phase=air_flights.phase_for(state, side), mission="intercept")
            air_interception.used(state)[u.id] = state.step.key if state.step else ""
            if air_units.class_row(state, u).get("fighter"):
                u.props["role"] = "bomber"  # a fighter-bomber intercepting ships flies as a bomber (12.1)
        fl = air_flights.new_flight(state, side, units, MISSION, path, target=to)
        fl["ships_in"] = space
        state.emit("intercept_ships", side=side, rule=RULE, flight=fl["id"], hex=to, space=space,
                   text=f"{', '.join(u.id for u in units)} fly to intercept the ships in {space} (over {to})")
        air_flights.fly_on(state, fl["id"])


if offer not in naval_movement.OFFER_HOOKS:
    naval_movement.OFFER_HOOKS.insert(0, offer)  # first in each space, whatever the import order
