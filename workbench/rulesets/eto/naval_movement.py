"""Naval movement: the ``sail`` order (ETO-7.0-7.7, 7.9 in part, 11.1).

``{"kind": "sail", "units": [ids], "path": [spaces], "port": true}`` moves a stack (or part of
one: 7.0 lets a stack drop units off) from the space it shares through ``path``; ``port`` ends
the voyage inside the port of the last space.  ``{"kind": "sail", "units": [...], "to": space}``
lets the kernel take the cheapest route.  Ships sail in their side's first naval movement step
(Naval and Air phase) and in the End phase's second naval movement (7.6), once in each.

The voyage is walked space by space: :data:`OFFER_HOOKS` run in each space entered (naval and
air interception plug in there, 8.2/14.0); a hook that returns True halts the stack in that
space.  Cargo aboard STPs moves with its markers (10.1) and counts the MP (10.2, 10.7).

Entering an enemy port holding enemy DDs, CLs, carriers or STPs is a battle with no withdrawal
(7.7, 8.6: automatic interception); the stack enters only if no enemy ship there is left afloat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    convoys,
    naval_combat,
    naval_units,
    ports,
    sea_spaces,
    sea_transport,
    values,
)

RULE = "ETO-7.0"
#: ``f(state, voyage) -> True`` halts the moving stack in ``voyage["at"]`` (interception, 8.2).
OFFER_HOOKS: list[Callable[[State, dict[str, Any]], bool]] = []


def phase(state: State) -> str | None:
    """"naval-air" in the first naval movement step, "end" in the second (7.1, 7.6)."""
    key = state.step.key if state.step else ""
    if key.startswith("naval-air"):
        return "naval-air"
    if key.startswith("end"):
        return "end"
    return None


def allowance(state: State, units: list[Unit]) -> int:
    """ETO-7.1: the stack moves at its slowest unit's (current, 9.5) movement allowance."""
    return min(naval_units.speed(state, u) for u in units)


def _escort_route(state: State, space: str) -> str | None:
    for r in convoys.routes(state):
        if convoys.box_of(state, r) == space:
            return r
    return None


def escort_origin_ok(state: State, route: str, port: str) -> bool:
    """ETO-7.5, inventory §3.16: the ports a route's escort box may be entered from."""
    o = state.ruleset.tables["naval_movement"]["escort_origins"][route]
    hm = state.map
    if port in o.get("places", []):
        return True
    if not values.on_map_label(port):
        return False
    for place in o.get("places", []):
        try:
            if hm.hex_of(place) == port:
                return True
        except KeyError:
            continue
    if str(hm.hexes["country"][hm.index(port)]) in o.get("countries", []):
        return True
    if "not_seas" in o:
        seas = sea_spaces.graph(state).adjacent_areas.get(port, set())
        return bool(seas) and not seas & set(o["not_seas"])
    return False


def escort_box_why_not(state: State, side: str, units: list[Unit], start: str, box: str) -> Refusal | None:
    """ETO-7.5: only Allied DD, DE, CL and CV/CVE carrying air, beginning the friendly Naval and
    Air phase in a friendly port of the route's list, moved straight into the box (no MP, no
    interception); box to box only NA-Arctic, NA-SA, NA-US coast, US coast-SA; never in the End
    phase (7.6)."""
    if phase(state) != "naval-air":
        return Refusal("ETO-7.6", "ships cannot enter convoy escort boxes in the End phase")
    if side != "allies":
        return Refusal("ETO-7.5", "only Allied ships use the convoy escort boxes")
    for u in units:
        if not naval_units.is_escort_type(state, u) or (naval_units.is_carrier(state, u)
                                                        and not convoys.has_air(state, u)):
            return Refusal("ETO-7.5", f"{u.id} cannot escort convoys: only DD, DE, CL and carriers with naval air")
    route = _escort_route(state, box)
    from_route = _escort_route(state, start)
    if from_route is not None:
        pairs = {tuple(sorted(p)) for p in state.ruleset.tables["naval_movement"]["escort_boxes"]["pairs"]}
        if tuple(sorted((from_route, route))) not in pairs:
            return Refusal("ETO-7.5", f"ships cannot move from the {start} to the {box}")
        if any(u.props.get("escort_since") == state.turn_label for u in units):
            return Refusal("ETO-7.5", "ships move from box to box only if they began the phase in the box")
        return None
    if not all(naval_units.in_port(u) for u in units) or not ports.friendly(state, side, start):
        return Refusal("ETO-7.5", "ships move into a convoy escort box only from a friendly port they began the phase in")
    if not escort_origin_ok(state, route, start):
        return Refusal("ETO-7.5", f"the {box} cannot be entered from {start} (7.5's port list)")
    return None


def path_cost(state: State, side: str, start: str, path: list[str]) -> tuple[int, Refusal | None]:
    """Total MP of ``path`` from ``start``, or the first reason it cannot be sailed."""
    total, here = 0, start
    for space in path:
        if not isinstance(space, str) or not sea_spaces.is_space(state, space):
            return total, Refusal("ETO-7.2", f"{space!r} is no coastal hex, sea area or sea box ships can enter")
        c = sea_spaces.step_cost(state, side, here, space)
        if c is None:
            g = sea_spaces.graph(state)
            if space in g.index and here in g.index and g.neighbours(here).get(space) is not None:
                return total, Refusal("ETO-7.8", f"{here} -> {space} is closed to {side} (a canal not wholly "
                                                 "friendly, or a box it may never enter)")
            return total, Refusal("ETO-7.3", f"{space} is not next to {here} by sea (ships never cross an all-land "
                                             "hexside)")
        total += c
        here = space
    return total, None


def _exclusion_why_not(state: State, side: str, units: list[Unit], start: str, path: list[str]) -> Refusal | None:
    """ETO-7.6: in the End phase a stack cannot enter a space within enemy naval interception
    range unless it has more naval units and more gunnery than all supplied enemy vessels in
    range (enemy ships marked OOS do not count); ships starting in range may leave."""
    enemy = [u for u in naval_units.naval_units(state, values.other(side)) if not naval_units.is_uboat(state, u)
             and not u.props.get("oos") and (sea_spaces.is_space(state, u.location))]
    ranges = {u.id: sea_spaces.interception_range(state, u.location) for u in enemy}
    start_in = {uid for uid, r in ranges.items() if start in r}
    n_mine = naval_units.unit_count(state, units)
    g_mine = sum(int(naval_units.gunnery(state, u) or 0) for u in units)
    for space in path:
        near = [u for u in enemy if space in ranges[u.id]]
        if not near or {u.id for u in near} <= start_in:
            continue
        n_them = naval_units.unit_count(state, near)
        g_them = sum(int(naval_units.gunnery(state, u) or 0) for u in near)
        if not (n_mine > n_them and g_mine > g_them):
            return Refusal("ETO-7.6", f"in the End phase {space} is within interception range of "
                                      f"{', '.join(u.id for u in near)}; the stack needs more units ({n_mine} vs "
                                      f"{n_them}) and more gunnery ({g_mine} vs {g_them}) to enter it")
    return None


def stack_why_not(state: State, side: str, units: list[Unit]) -> Refusal | None:
    """What refuses these units any voyage now, whatever the path (7.0, 7.1, 7.6, 9.6, 11.1)."""
    ph = phase(state)
    if ph is None:
        return Refusal("ETO-7.0", "naval units move only in the Naval and Air phase and the End phase")
    if not units:
        return Refusal(RULE, "name the naval units to sail")
    starts = {u.location for u in units}
    if len(starts) != 1:
        return Refusal(RULE, "the units sailing together must start in the same space")
    start = starts.pop()
    for u in units:
        if u.side != side or not naval_units.is_naval(state, u):
            return Refusal(RULE, f"{u.id} is not a naval unit of the side moving now")
        if u.props.get("sailed_phase") == f"{state.turn_label}/{ph}":
            return Refusal("ETO-7.1", f"{u.id} already moved in this phase")
        if u.props.get("withdrew_step") == f"{state.turn_label}/{state.step.key if state.step else ''}":
            return Refusal("ETO-9.6", f"{u.id} withdrew from a naval battle and stays here this step")
        if ph == "end" and naval_units.in_port(u):
            return Refusal("ETO-7.6", f"{u.id} began the End phase in port and cannot move")
    if any(naval_units.is_submarine(state, u) for u in units) and len(units) > 1:
        return Refusal("ETO-11.1", "a submarine moves alone: it never stacks with other friendly naval units outside port")
    if start in state.map.boxes and _escort_route(state, start) is None and start not in sea_spaces.SEA_BOXES:
        return Refusal(RULE, f"ships in the {start} do not sail")
    if start in weather_icebound(state) and any(naval_units.in_port(u) for u in units):
        return Refusal("ETO-7.8", f"{start} is icebound: naval units cannot leave it")
    return None


def _subs_involved(state: State, side: str, units: list[Unit], end: str) -> bool:
    """A submarine moves, or a friendly one waits at sea in ``end`` (11.1's test is needed)."""
    if any(naval_units.is_submarine(state, u) for u in units):
        return True
    key = ("eto.subs_at_sea", side)
    subs = state.derived(key, lambda: {u.location for u in naval_units.naval_units(state, side)
                                       if naval_units.is_submarine(state, u) and not naval_units.in_port(u)},
                         state.event_stamp)
    return end in subs


def end_why_not(state: State, side: str, units: list[Unit], start: str, path: list[str], to_port: bool) -> Refusal | None:
    """What refuses the voyage's end: the port (7.7, 7.8), the End phase's exclusion (7.6), a
    submarine stacked at sea (11.1), U-boat posting limits (5.8)."""
    end = path[-1]
    if to_port:
        why = ports.enter_why_not(state, side, units, end)
        if why:
            return why
    if phase(state) == "end":
        why = _exclusion_why_not(state, side, units, start, path)
        if why:
            return why
    if not to_port and (values.on_map_label(end) or end in state.map.sea_areas) and _subs_involved(state, side, units, end):
        others = [u for u in naval_units.naval_units(state, side, end) if u not in units and not naval_units.in_port(u)]
        if any(naval_units.is_submarine(state, u) for u in [*units, *others]) and len(others) + len(units) > 1:
            return Refusal("ETO-11.1", "a submarine cannot end its move stacked with other friendly naval units "
                                       "outside a port")
    for u in units:
        if naval_units.is_uboat(state, u):
            route = convoys.route_at(state, end)
            if route is not None:
                from workbench.rulesets.eto import uboats

                why = uboats.deployment_why_not(state, u, route)
                if why:
                    return why
    return None


def sail_why_not(state: State, side: str, units: list[Unit], path: list[str], to_port: bool) -> Refusal | None:
    """Every rule a sail order must pass, checked before anything moves."""
    why = stack_why_not(state, side, units)
    if why:
        return why
    ph = phase(state)
    start = units[0].location
    if not isinstance(path, list) or not path:
        return Refusal(RULE, "a voyage needs a path: the spaces entered, in order")
    if len(path) == 1 and _escort_route(state, path[0]) is not None:
        return escort_box_why_not(state, side, units, start, path[0])
    if _escort_route(state, start) is not None:
        if any(u.props.get("escort_since") == state.turn_label for u in units):
            return Refusal("ETO-7.5", "ships may leave a convoy escort box only if they began the phase in it")
        if ph != "naval-air":
            return Refusal("ETO-7.5", "ships leave a convoy escort box only in the friendly Naval and Air phase")
        area = convoys.area_of(state, _escort_route(state, start))
        cost, why = path_cost(state, side, area, path[1:]) if path[0] == area else (0, Refusal(
            "ETO-7.5", f"ships leaving the {start} enter its area first ({area}), paying its MP"))
        if why:
            return why
        cost += sea_spaces.graph(state).area_mp.get(area, 0)
        start_for_rest = area
    else:
        cost, why = path_cost(state, side, start, path)
        if why:
            return why
        start_for_rest = start
    ma = allowance(state, units)
    if cost > ma and not (len(path) == 1 and ph == "naval-air"):
        return Refusal("ETO-7.4", f"the voyage costs {cost} MP; the stack has {ma} (only a one-space move is "
                                  "allowed whatever its cost, and only in the Naval and Air phase)")
    return end_why_not(state, side, units, start_for_rest, path, to_port)


def weather_icebound(state: State) -> set[str]:
    from workbench.rulesets.eto.weather import icebound_ports

    return icebound_ports(state)


def voyage_record(state: State) -> dict[str, Any] | None:
    """The voyage waiting on an interception decision (8.2), if any."""
    return state.markers.get("naval", {}).get("voyage")


def sail(state: State, side: str, units: list[Unit], path: list[str], to_port: bool,
         plan: dict[str, Any] | None = None) -> dict[str, Any]:
    """Start the stack's voyage (the order was checked) and walk it as far as it goes.  ``plan``:
    the stack's standing battle orders (9.1, 9.4, 9.6: :func:`naval_combat.plan_from`), given
    before any enemy is met, so they stay secret from the interceptor."""
    start = units[0].location
    voyage = {"side": side, "units": [u.id for u in units], "from": start, "path": list(path), "left": list(path),
              "at": start, "mp": 0, "halted": False, "port": bool(to_port), "phase": phase(state),
              "escorting": len(path) == 1 and _escort_route(state, path[0]) is not None, "plan": plan or {}}
    for u in units:
        u.props.pop("in_port", None)
    return continue_voyage(state, voyage)


def continue_voyage(state: State, voyage: dict[str, Any]) -> dict[str, Any]:
    """ETO-7.0/8.2: walk the voyage space by space; in each space the other side may be offered an
    interception (:data:`OFFER_HOOKS`), and the voyage waits for it in ``markers["naval"]``."""
    side = voyage["side"]
    state.markers.setdefault("naval", {}).pop("voyage", None)
    while voyage["left"]:
        live = [state.units_by_id[i] for i in voyage["units"] if state.units_by_id[i].location == voyage["at"]]
        if not live:
            break
        space = voyage["left"][0]
        here = voyage["at"]
        step = 0
        if not voyage["escorting"]:
            step = sea_spaces.step_cost(state, side, here, space) or (
                sea_spaces.graph(state).area_mp.get(space, 0) if _escort_route(state, here) else 0)
            one_space = len(voyage["path"]) == 1 and voyage["phase"] == "naval-air"
            if voyage["mp"] + step > allowance(state, live) and not one_space:
                break  # 9.5: a ship damaged on the way moves on at its damaged speed, if it can
        voyage["left"].pop(0)
        voyage["mp"] += step
        for u in live:
            u.location = space
        voyage["at"] = space
        if any(hook(state, voyage) for hook in OFFER_HOOKS):
            state.markers["naval"]["voyage"] = voyage
            return voyage  # an interrupt waits for the other side (8.2)
    return finish_voyage(state, voyage)


def finish_voyage(state: State, voyage: dict[str, Any]) -> dict[str, Any]:
    """The stack has stopped: mark it moved, count its cargo's MP, and enter the port if asked
    (7.7: fighting for an enemy port first)."""
    side, here, ph = voyage["side"], voyage["at"], voyage["phase"]
    live = [state.units_by_id[i] for i in voyage["units"] if state.units_by_id[i].location == here]
    for u in live:
        u.props["sailed"] = state.turn_label
        u.props["sailed_phase"] = f"{state.turn_label}/{ph}"
        if voyage["escorting"]:
            u.props["escort_since"] = state.turn_label
        else:
            u.props.pop("escort_since", None)
        if naval_units.is_stp(state, u) or naval_units.kind(state, u) in ("DD", "CL"):
            sea_transport.note_voyage(state, u, voyage["mp"])
    entered = False
    stopped = bool(voyage["left"])
    if voyage["port"] and not stopped and live and ports.enter_why_not(state, side, live, here) is None:
        foes = ports.enemy_ships_in_port(state, side, here)
        if foes:  # 7.7, 8.6: the battle for the port, no withdrawal
            naval_combat.resolve(state, here, {side: live, values.other(side): ports.in_port(state, values.other(side),
                                                                                              here)},
                                 port=True, plans={side: naval_combat.plan_from(voyage.get("plan"))}, strict=False)
            live = [u for u in live if u.location == here]
        if live and not ports.enemy_ships_in_port(state, side, here):
            for u in live:
                u.props["in_port"] = True
            entered = True
    state.emit("sail", side=side, rule=RULE, at=here, units=voyage["units"], path=[voyage["from"], *voyage["path"]],
               mp=voyage["mp"],
               text=f"{', '.join(voyage['units'])} sail {voyage['from']} -> {' -> '.join(voyage['path'])} "
                    f"({voyage['mp']} MP)" + (" into port" if entered else "")
                    + (f" and stop at {here}" if stopped else ""))
    return voyage


class SailOrder(OrderKind):
    """``{"kind": "sail", "units": [...], "path": [...], "port": bool}`` (ETO-7.0)."""

    kind = "sail"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def _units(self, state: State, order: dict[str, Any]) -> list[Unit]:
        ids = order.get("units")
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
            raise IllegalOrder(self.rule, "units is a list of different naval unit ids")
        out = []
        for i in ids:
            if i not in state.units_by_id:
                raise IllegalOrder(self.rule, f"there is no unit {i!r}")
            out.append(state.units_by_id[i])
        return out

    def path_of(self, state: State, order: dict[str, Any], units: list[Unit]) -> Any:
        path = order.get("path")
        if path is None and isinstance(order.get("to"), str) and units:
            d = state.decision
            to = order["to"]
            if _escort_route(state, to) is not None:
                return [to]
            _, paths = sea_spaces.reach(state, d.side if d else units[0].side, units[0].location, 10**4)
            return paths.get(to)
        return path

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        units = self._units(state, order)
        refuse(sail_why_not(state, d.side if d else "", units, self.path_of(state, order, units),
                            bool(order.get("port"))))
        refuse(naval_combat.plan_why_not(order, [u.id for u in units]))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        units = self._units(state, order)
        sail(state, state.decision.side, units, self.path_of(state, order, units), bool(order.get("port")),
             naval_combat.plan_of(order))

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        ph = phase(state)
        if d is None or ph is None:
            return []
        out = []
        stacks: dict[str, list[Unit]] = {}
        for u in naval_units.naval_units(state, d.side):
            if sea_spaces.is_space(state, u.location) or _escort_route(state, u.location):
                stacks.setdefault(u.location, []).append(u)
        for start, ships in sorted(stacks.items()):
            groups = [ships] + ([[u] for u in ships] if len(ships) > 1 else [])
            for grp in groups:
                out += self._moves(state, d.side, start, grp, ph)
        return out

    def _moves(self, state: State, side: str, start: str, grp: list[Unit], ph: str) -> list[dict[str, Any]]:
        """The group's voyages: every space Dijkstra reaches within its MA (their cost is right by
        construction), the one-space moves, and the escort boxes."""
        if stack_why_not(state, side, grp) is not None:
            return []
        ids = [u.id for u in grp]
        out = []
        if _escort_route(state, start) is None:
            costs, paths = sea_spaces.reach(state, side, start, allowance(state, grp))
            if ph == "naval-air" and sea_spaces.is_space(state, start):
                for nxt in sea_spaces.graph(state).neighbours(start):
                    if nxt not in paths and sea_spaces.step_cost(state, side, start, nxt) is not None:
                        paths[nxt] = [nxt]
            for dest, path in sorted(paths.items()):
                for port in ((False, True) if ports.size(state, dest) else (False,)):
                    if end_why_not(state, side, grp, start, path, port) is None:
                        out.append({"kind": self.kind, "units": ids, "path": path, **({"port": True} if port else {})})
            for r in convoys.routes(state):
                box = convoys.box_of(state, r)
                if escort_box_why_not(state, side, grp, start, box) is None:
                    out.append({"kind": self.kind, "units": ids, "path": [box]})
        else:
            area = convoys.area_of(state, _escort_route(state, start))
            for r in convoys.routes(state):
                box = convoys.box_of(state, r)
                if box != start and sail_why_not(state, side, grp, [box], False) is None:
                    out.append({"kind": self.kind, "units": ids, "path": [box]})
            if sail_why_not(state, side, grp, [area], False) is None:
                out.append({"kind": self.kind, "units": ids, "path": [area]})
        return out
