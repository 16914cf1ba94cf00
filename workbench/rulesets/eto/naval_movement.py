"""Naval movement: the ``sail`` order (ETO-7.0-7.7, 7.9 in part, 11.1).

``{"kind": "sail", "units": [ids], "path": [spaces], "port": true, "hexes": {area: [hexes]}}``
moves a stack (or part of
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
    carriers,
    convoys,
    fleets,
    historical,
    italian_restrictions,
    naval_combat,
    naval_units,
    ports,
    sea_paths,
    sea_spaces,
    sea_transport,
    straits,
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


def _exclusion_why_not(state: State, side: str, stacks: list[list[Unit]], start: str,
                       path: list[str]) -> Refusal | None:
    """ETO-7.6: in the End phase a stack cannot enter a space within enemy naval interception
    range unless it has more naval units and more gunnery than all supplied enemy vessels in
    range (enemy ships marked OOS do not count); ships starting in range may leave.
    ``stacks[k]`` is the stack entering ``path[k]`` (7.0: it changes where units drop off or join)."""
    enemy = [u for u in naval_units.naval_units(state, values.other(side)) if not naval_units.is_uboat(state, u)
             and not u.props.get("oos") and (sea_spaces.is_space(state, u.location))]
    ranges = {u.id: sea_spaces.interception_range(state, u.location) for u in enemy}
    start_in = {uid for uid, r in ranges.items() if start in r}
    for space, units in zip(path, stacks, strict=True):
        near = [u for u in enemy if space in ranges[u.id]]
        if not near or {u.id for u in near} <= start_in:
            continue
        n_mine = naval_units.unit_count(state, units)
        g_mine = sum(int(naval_units.gunnery(state, u) or 0) for u in units)
        n_them = naval_units.unit_count(state, near)
        g_them = sum(int(naval_units.gunnery(state, u) or 0) for u in near)
        if not (n_mine > n_them and g_mine > g_them):
            return Refusal("ETO-7.6", f"in the End phase {space} is within interception range of "
                                      f"{', '.join(u.id for u in near)}; the stack needs more units ({n_mine} vs "
                                      f"{n_them}) and more gunnery ({g_mine} vs {g_them}) to enter it")
    return None


def _stacks(state: State, units: list[Unit], path: list[str], drop: dict[str, list[str]],
            join: dict[str, list[str]]) -> list[list[Unit]]:
    """ETO-7.0: the stack entering each space of ``path``: joiners are in it from the space after
    the one they join in, dropped units up to the space they are left in (first visits count)."""
    ids = [u.id for u in units]
    drop, join = dict(drop), dict(join)
    out = []
    for space in path:
        out.append([state.units_by_id[i] for i in ids])
        ids += [i for i in join.pop(space, []) if i not in ids]
        ids = [i for i in ids if i not in set(drop.pop(space, []))]
    return out


def _stops_why_not(state: State, side: str, units: list[Unit], start: str, path: list[str],
                   drop: dict[str, list[str]], join: dict[str, list[str]], ph: str) -> Refusal | None:
    """ETO-7.0: "Moving naval stacks can drop off units as they move ... can pick up additional
    naval units as it moves (by entering the hex occupied by the non-moving units)"."""
    if not isinstance(drop, dict) or not isinstance(join, dict):
        return Refusal(RULE, "drop and join map spaces of the path to unit ids")
    for where in (*drop, *join):
        if where not in path:
            return Refusal(RULE, f"{where} is not on the path: units drop off or join only in spaces entered")
    moving = {u.id for u in units}
    seen: set[str] = set()
    for space in path:
        for i in join.get(space, []) if space not in seen else []:
            u = state.units_by_id.get(i)
            if u is None or u.side != side or not naval_units.is_naval(state, u) or u.location != space:
                return Refusal(RULE, f"{i} is no friendly naval unit waiting in {space} to join the stack")
            if i in moving:
                return Refusal(RULE, f"{i} is already in the moving stack")
            if u.props.get("sailed_phase") == f"{state.turn_label}/{ph}":
                return Refusal("ETO-7.1", f"{i} already moved in this phase and cannot join")
            if ph == "end" and naval_units.in_port(u):
                return Refusal("ETO-7.6", f"{i} began the End phase in port and cannot move")
            if naval_units.is_submarine(state, u) or naval_units.is_uboat(state, u):
                return Refusal("ETO-11.1", f"{i} is a submarine: it moves alone and joins no stack")
            moving.add(i)
        for i in drop.get(space, []) if space not in seen else []:
            if i not in moving:
                return Refusal(RULE, f"{i} is not in the stack when it enters {space}, so it cannot be dropped there")
            moving.discard(i)
        seen.add(space)
    return None


def _port_move_why_not(state: State, side: str, units: list[Unit], start: str, to_port: bool) -> Refusal | None:
    """ETO-7.7: "a player can declare that his naval units in a port hex are entering (or leaving)
    the port" without moving: ``path = []``; entering is a move's end, leaving only in the Naval
    and Air phase (in the End phase units "can only enter ports")."""
    if ports.size(state, start) is None:
        return Refusal(RULE, f"{start} has no port: a voyage needs a path, the spaces entered in order")
    if start in weather_icebound(state):
        return Refusal("ETO-7.8", f"{start} is icebound: naval units cannot enter or leave it")
    if to_port:
        if any(naval_units.in_port(u) for u in units):
            return Refusal("ETO-7.7", "some of these units are already in the port")
        return ports.enter_why_not(state, side, units, start)
    if not all(naval_units.in_port(u) for u in units):
        return Refusal("ETO-7.7", "only units in the port can leave it")
    if any(naval_units.is_submarine(state, u) for u in units) and len(
            [u for u in naval_units.naval_units(state, side, start) if not naval_units.in_port(u)]) + len(units) > 1:
        return Refusal("ETO-11.1", "a submarine cannot end its move stacked with other friendly naval units "
                                   "outside a port")
    return None


def home_port_path(state: State, side: str, start: str) -> list[str] | None:
    """ETO-33.8: the most direct path (fewest MPs; ties by name) to the closest friendly port."""
    costs, paths = sea_spaces.reach(state, side, start, 10**4)
    best = sorted((c, sp) for sp, c in costs.items() if ports.size(state, sp) is not None
                  and ports.friendly(state, side, sp) and not ports.destroyed(state, sp))
    return paths[best[0][1]] if best else None


def oos_why_not(state: State, side: str, units: list[Unit], path: list[str], to_port: bool) -> Refusal | None:
    """ETO-33.8: ships marked out of supply "must move toward the closest (in movement points)
    friendly port ... They cannot deviate from the most direct path to this port"."""
    marked = [u for u in units if u.props.get("oos") and naval_units.is_naval(state, u)]
    if not marked or not path:
        return None
    direct = home_port_path(state, side, units[0].location)
    if direct is None:
        return None
    if path != direct[:len(path)] or (to_port and path != direct):
        return Refusal("ETO-33.8", f"{marked[0].id} is out of supply: it may only sail the most direct path to "
                                   f"{direct[-1]} ({' - '.join(direct)})")
    return None


def sail_why_not(state: State, side: str, units: list[Unit], path: list[str], to_port: bool,
                 drop: dict[str, list[str]] | None = None, join: dict[str, list[str]] | None = None) -> Refusal | None:
    """Every rule a sail order must pass, checked before anything moves."""
    drop, join = drop or {}, join or {}
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
        if u.props.get("withdrew_step") == (state.step.key if state.step else None):
            return Refusal("ETO-9.6", f"{u.id} withdrew from a naval battle and stays here this step")
        if ph == "end" and naval_units.in_port(u):
            return Refusal("ETO-7.6", f"{u.id} began the End phase in port and cannot move")
    if any(naval_units.is_submarine(state, u) for u in units) and len(units) > 1:
        return Refusal("ETO-11.1", "a submarine moves alone: it never stacks with other friendly naval units outside port")
    why = oos_why_not(state, side, units, path if isinstance(path, list) else [], to_port)
    if why:
        return why
    if not isinstance(path, list):
        return Refusal(RULE, "a voyage needs a path: the spaces entered, in order")
    if not path:
        if drop or join:
            return Refusal(RULE, "units drop off or join only on a voyage")
        return _port_move_why_not(state, side, units, start, to_port)
    if start in state.map.boxes and _escort_route(state, start) is None and start not in sea_spaces.SEA_BOXES:
        return Refusal(RULE, f"ships in the {start} do not sail")
    if start in weather_icebound(state) and any(naval_units.in_port(u) for u in units):
        return Refusal("ETO-7.8", f"{start} is icebound: naval units cannot leave it")
    if (drop or join) and (_escort_route(state, path[-1]) or _escort_route(state, start)):
        return Refusal("ETO-7.5", "moves into and out of convoy escort boxes drop off and pick up no units")
    if len(path) == 1 and _escort_route(state, path[0]) is not None:
        return escort_box_why_not(state, side, units, start, path[0])
    if _escort_route(state, start) is not None:
        if any(u.props.get("escort_since") == state.turn_label for u in units):
            return Refusal("ETO-7.5", "ships may leave a convoy escort box only if they began the phase in it")
        if ph != "naval-air":
            return Refusal("ETO-7.5", "ships leave a convoy escort box only in the friendly Naval and Air phase")
        area = convoys.area_of(state, _escort_route(state, start))
        path_from = area
        cost, why = path_cost(state, side, area, path[1:]) if path[0] == area else (0, Refusal(
            "ETO-7.5", f"ships leaving the {start} enter its area first ({area}), paying its MP"))
        if why:
            return why
        cost += sea_spaces.graph(state).area_mp.get(area, 0)
        start_for_rest = path_from
    else:
        cost, why = path_cost(state, side, start, path)
        if why:
            return why
        start_for_rest = start
    why = _stops_why_not(state, side, units, start, path, drop, join, ph)
    if why:
        return why
    stacks = _stacks(state, units, path, drop, join)
    final = [state.units_by_id[i] for i in _final_ids(units, path, drop, join)]
    why = _mp_why_not(state, side, stacks, start, path, cost, ph)
    if why:
        return why
    for space, stack in zip(path, stacks, strict=True):
        for box in [space] if space in ports.PORT_BOXES else []:
            why = ports.box_why_not(state, side, stack, box)
            if why:
                return why
    why = straits.why_not(state, side, units, start, path)
    if why:
        return why
    why = historical.stp_why_not(state, units, path) or italian_restrictions.sail_why_not(
        state, units, path)  # 46.2, 46.1 (optional)
    if why:
        return why
    end = path[-1]
    if to_port:
        if not final:
            return Refusal(RULE, "every unit was dropped on the way: none is left to enter the port")
        why = ports.enter_why_not(state, side, final, end)
        if why:
            return why
        from workbench.rulesets.eto import sea_supply

        why = sea_supply.entry_why_not(state, side, final, end)  # 32.5: a port full of supply markers
        if why:
            return why
    if ph == "end":
        why = _exclusion_why_not(state, side, stacks, start_for_rest, path)
        if why:
            return why
    units = final
    if not to_port and values.on_map_label(end):  # 11.1: "they can occupy the same area as other friendly units"
        others = [u for u in naval_units.naval_units(state, side, end) if u not in units and not naval_units.in_port(u)]
        subs = [u for u in [*units, *others] if naval_units.is_submarine(state, u)]
        if subs and len(others) + len(units) > 1 and not to_port:
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


def _final_ids(units: list[Unit], path: list[str], drop: dict[str, list[str]], join: dict[str, list[str]]) -> list[str]:
    """The ids still in the stack when it stops (7.0)."""
    ids = [u.id for u in units]
    drop, join = dict(drop), dict(join)
    for space in path:
        ids += [i for i in join.pop(space, []) if i not in ids]
        ids = [i for i in ids if i not in set(drop.pop(space, []))]
    return ids


def _mp_why_not(state: State, side: str, stacks: list[list[Unit]], start: str, path: list[str], cost: int,
                ph: str) -> Refusal | None:
    """ETO-7.1/7.4: each unit pays the MP of the spaces it is in the stack for; units that join
    are "assumed to have used as many movement points as the rest of the stack" (7.0), so every
    unit's need is the stack's cost up to where it is dropped or the voyage ends.  A one-space
    voyage in the Naval and Air phase is always allowed (7.4)."""
    if len(path) == 1 and ph == "naval-air":
        return None
    spent: dict[str, int] = {}
    total, here = cost - sum(int(sea_spaces.step_cost(state, side, a, b) or 0)
                             for a, b in zip([start, *path[:-1]], path, strict=True)), start
    for k, space in enumerate(path):
        total += int(sea_spaces.step_cost(state, side, here, space) or 0)
        for u in stacks[k]:
            spent[u.id] = total
        here = space
    for uid, mp in spent.items():
        u = state.units_by_id[uid]
        ma = naval_units.speed(state, u)
        if mp > ma:
            return Refusal("ETO-7.4", f"the voyage costs {mp} MP for {uid}; it has {ma} (only a one-space move is "
                                      "allowed whatever its cost, and only in the Naval and Air phase)")
    return None


def weather_icebound(state: State) -> set[str]:
    from workbench.rulesets.eto.weather import icebound_ports

    return icebound_ports(state)


def voyage_record(state: State) -> dict[str, Any] | None:
    """The voyage waiting on an interception decision (8.2), if any."""
    return state.markers.get("naval", {}).get("voyage")


def sail(state: State, side: str, units: list[Unit], path: list[str], to_port: bool,
         drop: dict[str, list[str]] | None = None, join: dict[str, list[str]] | None = None,
         plan: dict[str, Any] | None = None, hexes: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """Start the stack's voyage (the order was checked) and walk it as far as it goes.  ``plan``:
    the stack's standing battle orders (9.1, 9.4, 9.6: :func:`naval_combat.plan_from`), given
    before any enemy is met, so they stay secret from the interceptor."""
    start = units[0].location
    voyage = {"side": side, "units": [u.id for u in units], "from": start, "path": list(path), "left": list(path),
              "at": start, "mp": 0, "halted": False, "port": bool(to_port), "phase": phase(state),
              "escorting": len(path) == 1 and _escort_route(state, path[0]) is not None,
              "drop": {k: list(v) for k, v in (drop or {}).items()}, "join": {k: list(v) for k, v in (join or {}).items()},
              "dropped": [], "plan": plan or {}, "hexes": {k: list(v) for k, v in (hexes or {}).items()}}
    for u in units:
        u.props.pop("in_port", None)
    return continue_voyage(state, voyage)


def _stop_over(state: State, voyage: dict[str, Any], space: str) -> None:
    """ETO-7.0: units waiting in ``space`` join the stack (having spent its MP), dropped units stay
    (and move no more this phase)."""
    for i in voyage.get("join", {}).pop(space, []):
        u = state.units_by_id[i]
        if u.location == space and i not in voyage["units"]:
            u.props.pop("in_port", None)
            voyage["units"].append(i)
    for i in voyage.get("drop", {}).pop(space, []):
        if i in voyage["units"]:
            voyage["units"].remove(i)
            voyage["dropped"].append(i)
            u = state.units_by_id[i]
            u.props["sailed"] = state.turn_label
            u.props["sailed_phase"] = f"{state.turn_label}/{voyage['phase']}"
            _mark_strait(state, [u], voyage)


def _mark_strait(state: State, units: list[Unit], voyage: dict[str, Any]) -> None:
    """ETO-7.8: units stopping inside a strait remember the space they came in from."""
    came = straits.end_after(state, units, voyage["from"], voyage["path"][:len(voyage["path"]) - len(voyage["left"])])
    for u in units:
        if came:
            u.props["strait_end"] = came
        else:
            u.props.pop("strait_end", None)


def continue_voyage(state: State, voyage: dict[str, Any]) -> dict[str, Any]:
    """ETO-7.0/8.2: walk the voyage space by space; in each space the other side may be offered an
    interception (:data:`OFFER_HOOKS`), and the voyage waits for it in ``markers["naval"]``."""
    side = voyage["side"]
    state.markers.setdefault("naval", {}).pop("voyage", None)
    if voyage.get("next_hook") and _offer(state, voyage):
        return voyage  # the space's other interceptors (naval, air) are asked in turn
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
            if naval_units.is_carrier(state, u):
                for air in carriers.aboard(state, u):
                    carriers.sync(state, air)  # 13.3: its naval air sails with it
        voyage["at"] = space
        _stop_over(state, voyage, space)
        if _offer(state, voyage):
            return voyage  # an interrupt waits for the other side (8.2)
    return finish_voyage(state, voyage)


def _offer(state: State, voyage: dict[str, Any]) -> bool:
    """Run the :data:`OFFER_HOOKS` for the space the voyage is in, from the one after the hook
    that made it wait last (so naval and air interception are both offered there, 8.2, 14.0)."""
    start = int(voyage.pop("next_hook", 0))
    for i, hook in enumerate(OFFER_HOOKS[start:], start):
        if hook(state, voyage):
            voyage["next_hook"] = i + 1
            state.markers.setdefault("naval", {})["voyage"] = voyage
            return True
    return False


def finish_voyage(state: State, voyage: dict[str, Any]) -> dict[str, Any]:
    """The stack has stopped: mark it moved, count its cargo's MP, and enter the port if asked
    (7.7: fighting for an enemy port first)."""
    side, here, ph = voyage["side"], voyage["at"], voyage["phase"]
    live = [state.units_by_id[i] for i in voyage["units"] if state.units_by_id[i].location == here]
    _mark_strait(state, live, voyage)
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
    if not voyage["path"]:
        text = f"{', '.join(voyage['units'])} " + ("enter" if entered else "leave" if not voyage["port"]
                                                    else "cannot enter") + f" the port at {here}"
    else:
        text = (f"{', '.join(voyage['units'])} sail {voyage['from']} -> {' -> '.join(voyage['path'])} "
                f"({voyage['mp']} MP)" + (" into port" if entered else "") + (f" and stop at {here}" if stopped else "")
                + (f"; dropped off: {', '.join(voyage['dropped'])}" if voyage.get("dropped") else ""))
    state.emit("sail", side=side, rule=RULE, at=here, units=voyage["units"], path=[voyage["from"], *voyage["path"]],
               mp=voyage["mp"], dropped=list(voyage.get("dropped", [])), text=text)
    return voyage


class SailOrder(OrderKind):
    """``{"kind": "sail", "units": [...], "path": [...], "port": bool, "drop": {space: [ids]},
    "join": {space: [ids]}}`` (ETO-7.0); ``"fleet": box`` sails a fleet box's ships (7.9);
    ``"path": []`` enters or leaves the port of the units' hex without moving (7.7)."""

    kind = "sail"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def _units(self, state: State, order: dict[str, Any]) -> list[Unit]:
        ids = list(order.get("units") or [])
        if order.get("fleet") is not None:
            if not isinstance(order["fleet"], str) or order["fleet"] not in fleets.boxes(state):
                raise IllegalOrder("ETO-7.9", f"there is no fleet box {order['fleet']!r}")
            ids += [u.id for u in fleets.ships(state, order["fleet"]) if u.id not in ids]
            if not ids:
                raise IllegalOrder("ETO-7.9", f"the {order['fleet']} box holds no ships")
        if not ids or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
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
                            bool(order.get("port")), order.get("drop"), order.get("join")))
        refuse(naval_combat.plan_why_not(order, [u.id for u in units]))
        path = self.path_of(state, order, units)
        refuse(sea_paths.hexes_why_not(state, units[0].location, list(path or []), order.get("hexes")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        units = self._units(state, order)
        sail(state, state.decision.side, units, self.path_of(state, order, units), bool(order.get("port")),
             order.get("drop"), order.get("join"), naval_combat.plan_of(order), order.get("hexes"))

    def any_legal(self, state: State) -> bool:
        return any(True for _ in self._iter(state))

    def legal(self, state: State) -> list[dict[str, Any]]:
        return list(self._iter(state))

    def _iter(self, state: State) -> Any:
        d = state.decision
        ph = phase(state)
        if d is None or ph is None:
            return
        stacks: dict[str, list[Unit]] = {}
        for u in naval_units.naval_units(state, d.side):
            if sea_spaces.is_space(state, u.location) or _escort_route(state, u.location):
                stacks.setdefault(u.location, []).append(u)
        for start, ships in sorted(stacks.items()):
            groups = [ships] + ([[u] for u in ships] if len(ships) > 1 else [])
            for grp in groups:
                yield from self._moves(state, d.side, start, grp, ph)

    def _moves(self, state: State, side: str, start: str, grp: list[Unit], ph: str) -> Any:
        ids = [u.id for u in grp]
        if any(u.props.get("sailed_phase") == f"{state.turn_label}/{ph}" for u in grp):
            return
        if ports.size(state, start) and values.on_map_label(start):  # 7.7: into or out of the port, in place
            for port in (True, False):
                if sail_why_not(state, side, grp, [], port) is None:
                    yield ({"kind": self.kind, "units": ids, "path": [], **({"port": True} if port else {})})
        if _escort_route(state, start) is None:
            costs, paths = sea_spaces.reach(state, side, start, allowance(state, grp))
            if ph == "naval-air":
                for nxt in sea_spaces.graph(state).neighbours(start) if sea_spaces.is_space(state, start) else {}:
                    if nxt not in paths and sea_spaces.step_cost(state, side, start, nxt) is not None:
                        paths[nxt] = [nxt]
            for dest, path in sorted(paths.items()):
                for port in ((False, True) if ports.size(state, dest) else (False,)):
                    if sail_why_not(state, side, grp, path, port) is None:
                        yield ({"kind": self.kind, "units": ids, "path": path, **({"port": True} if port else {})})
            for r in convoys.routes(state):
                box = convoys.box_of(state, r)
                if escort_box_why_not(state, side, grp, start, box) is None and sail_why_not(state, side, grp, [box], False) is None:
                    yield ({"kind": self.kind, "units": ids, "path": [box]})
        else:
            area = convoys.area_of(state, _escort_route(state, start))
            for r in convoys.routes(state):
                box = convoys.box_of(state, r)
                if box != start and sail_why_not(state, side, grp, [box], False) is None:
                    yield ({"kind": self.kind, "units": ids, "path": [box]})
            if sail_why_not(state, side, grp, [area], False) is None:
                yield ({"kind": self.kind, "units": ids, "path": [area]})
