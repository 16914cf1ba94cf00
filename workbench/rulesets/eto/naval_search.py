"""Naval search: who may search, in which groups, the search roll, evasion (ETO-8.4, 8.5, 8.7-8.9).

The interception chain (offers in each space a voyage enters, counter-interception, 8.0-8.3)
calls these pieces; they know nothing of the interrupt stack.  A *stack* is the list of naval
units being searched for; a *group* is one searching group of the intercepting stack (8.4).
The numbers are ``tables/naval_search.toml``; the sea area's INT modifier is the map's
``search_mod`` (GAP-09).

Searches made this step are kept in ``state.markers["naval"]["searches"]`` (8.5: a group
searches a given enemy stack once per step; a unit that found a stack searches no more this
step); :func:`clear_step` empties it when a naval movement step ends.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, control, naval_units, values, weather

RULE = "ETO-8.4"


def rules(state: State) -> dict[str, Any]:
    return state.ruleset.tables["naval_search"]


# --- where: spaces and their hexes -----------------------------------------------------------

def is_sea_area(state: State, space: str) -> bool:
    return space in state.map.sea_areas


def space_hexes(state: State, space: str) -> np.ndarray:
    """Hex indices of a space: the hex itself, or every hex of a sea area (GAP-09)."""
    if values.on_map_label(space):
        return np.array([state.map.index(space)])

    def compute() -> np.ndarray:
        col = state.map.column("sea_area")
        return np.flatnonzero(np.asarray([v == space for v in col]))

    return state.map.cached(("eto.sea_area_hexes", space), compute)


def winter_in(state: State, space: str) -> bool:
    """8.4: "W weather conditions exist in the space" (any hex of a sea area; one weather zone)."""
    idx = space_hexes(state, space)
    return bool(len(idx)) and bool((weather.conditions(state)[idx] == weather.WINTER).any())


def area_modifier(state: State, space: str) -> int:
    """8.4: "modifiers appropriate to the sea area being searched" (INT -2/-3, the map's data)."""
    area = state.map.sea_areas.get(space)
    return int(area.attrs.get("search_mod", 0)) if area else 0


def air_in_range(state: State, side: str, space: str) -> bool:
    """8.4: any friendly air unit based within range of the coastal hex, or of any hex of the sea
    area, holding the enemy ships, its base not grounded (weather "that allows flying")."""
    target = space_hexes(state, space)
    if not len(target):
        return False
    grounded = weather.air_grounded(state)
    dist = state.map.dist_to_set(target) if len(target) > 1 else state.map.dist_from(int(target[0]))
    for u in air_units.air_units(state, side):
        base = air_units.base_of(u)
        if not air_units.is_air(state, u) or not base or not values.on_map_label(base) or u.location != base:
            continue
        i = state.map.index(base)
        if not grounded[i] and int(dist[i]) <= air_units.air_range(state, u):
            return True
    return False


# --- who: groups -----------------------------------------------------------------------------

def group_speed(state: State, group: list[Unit]) -> int:
    """8.4: "The slowest unit in a group determines the group's speed"."""
    return min(naval_units.speed(state, u) for u in group)


def in_search_order(state: State, groups: list[list[Unit]]) -> list[list[Unit]]:
    """8.4: groups search "beginning with the fastest" (ties keep the intercepting player's order)."""
    return sorted(groups, key=lambda g: -group_speed(state, g))


def groups_why_not(state: State, stack: list[Unit], groups: list[list[Unit]]) -> Refusal | None:
    """8.4/8.5: the intercepting player's split of ``stack`` into searching groups.

    Splitting needs six or more ships; each group has at least three ships (fewer only when
    the whole stack has fewer than three); each group has a unit with a gunnery rating, even
    0 (CVs and STPs never search by themselves, 8.5); U-boats never search (8.9); a submarine
    searches alone (11.3)."""
    g = rules(state)["groups"]
    ids = [u.id for grp in groups for u in grp]
    if sorted(ids) != sorted(u.id for u in stack) or len(ids) != len(set(ids)):
        return Refusal(RULE, "the searching groups must share out the intercepting stack, each unit in one group")
    if any(naval_units.is_uboat(state, u) for u in stack):
        return Refusal("ETO-8.9", "U-boats never intercept Allied naval units")
    if len(stack) > 1 and any(naval_units.is_submarine(state, u) for u in stack):
        return Refusal("ETO-11.3", "an SS unit always intercepts by itself, never with other naval units")
    n = naval_units.unit_count(state, stack)
    if len(groups) > 1 and n < int(g["split_from"]):
        return Refusal(RULE, f"only a stack of {g['split_from']} or more ships may split into search "
                             f"groups; this one has {n}")
    for grp in groups:
        size = naval_units.unit_count(state, grp)
        if size < int(g["min_size"]) and n >= int(g["min_size"]):
            return Refusal(RULE, f"each searching group must have at least {g['min_size']} ships; "
                                 f"{', '.join(u.id for u in grp)} has {size}")
        if not any(naval_units.gunnery(state, u) is not None for u in grp):
            return Refusal("ETO-8.5", f"the group {', '.join(u.id for u in grp)} has no unit with a gunnery "
                                      "rating: carriers and STPs cannot search by themselves")
    return None


# --- the roll --------------------------------------------------------------------------------

def modifiers(state: State, side: str, space: str, *, groups: int, searcher_ss: bool,
              target_ss: bool) -> list[tuple[int, str]]:
    """ETO-8.4, 11.3: the search DRMs that apply, each with its reason."""
    t = rules(state)["search"]
    out = [(int(t["per_group"]) * max(1, groups), f"{max(1, groups)} searching group(s)")]
    if air_in_range(state, side, space):
        out.append((int(t["air_in_range"]), "friendly air based within range"))
    if values.on_map_label(space) and not is_sea_area(state, space):
        out.append((int(t["coastal_hex"]), "coastal hex"))
    if winter_in(state, space):
        out.append((int(t["winter"]), "W weather in the space"))
    if searcher_ss:
        out.append((int(t["searcher_ss"]), "the searcher is a submarine"))
    if target_ss:
        out.append((int(t["target_ss"]), "the target is a submarine"))
    mod = area_modifier(state, space)
    if mod:
        out.append((mod, f"{space} INT {mod:+d}"))
    return out


def found(die: int, drm: int, tables: dict[str, Any]) -> bool:
    """ETO-8.4: modified 7 or more finds; a natural 6 always finds, a natural 1 always fails."""
    t = tables["naval_search"]["search"]
    if die == int(t["natural_find"]):
        return True
    if die == int(t["natural_fail"]):
        return False
    return die + drm >= int(t["find_at"])


def search(state: State, side: str, group: list[Unit], target: list[Unit], space: str, *,
           groups: int = 1) -> bool:
    """ETO-8.4: one group's search roll for the enemy ``target`` stack in ``space`` (1d6 + DRMs,
    logged with each modifier); records the search for 8.5."""
    searcher_ss = all(naval_units.is_submarine(state, u) for u in group)
    target_ss = bool(target) and all(naval_units.is_submarine(state, u) for u in target)
    mods = modifiers(state, side, space, groups=groups, searcher_ss=searcher_ss, target_ss=target_ss)
    drm = sum(v for v, _ in mods)
    shown = ", ".join(f"{v:+d} {why}" for v, why in mods)
    (die,) = state.roll(1, purpose=f"search by {', '.join(u.id for u in group)} for "
                                   f"{', '.join(u.id for u in target)} in {space} ({shown})",
                        rule=RULE, side=side)
    ok = found(die, drm, state.ruleset.tables)
    note_search(state, group, target, ok)
    state.emit("naval_search", side=side, rule=RULE, at=space, found=ok,
               text=f"{'found' if ok else 'missed'}: {die}{drm:+d} = {die + drm} (7+ finds)",
               group=[u.id for u in group], target=[u.id for u in target])
    return ok


# --- 8.5 memory ------------------------------------------------------------------------------

def _record(state: State) -> dict[str, Any]:
    return state.markers.setdefault("naval", {}).setdefault("searches", {"pairs": [], "found": []})


def _key(stack: list[Unit]) -> str:
    return ",".join(sorted(u.id for u in stack))


def _sub_in_hex(state: State, group: list[Unit], target: list[Unit]) -> bool:
    """A lone submarine searching for a stack that stands in a hex (not an area space)."""
    return (len(group) == 1 and naval_units.is_submarine(state, group[0]) and bool(target)
            and values.on_map_label(target[0].location))


def note_search(state: State, group: list[Unit], target: list[Unit], ok: bool) -> None:
    rec = _record(state)
    rec["pairs"].append([_key(group), _key(target)])
    if ok:
        rec["found"].extend(u.id for u in group)
    if _sub_in_hex(state, group, target):
        rec.setdefault("sub_hex", []).append(_key(target))  # 11.3: one submarine per stack in a hex


def may_search_why_not(state: State, group: list[Unit], target: list[Unit]) -> Refusal | None:
    """ETO-8.5: "A group can search for a given enemy stack only once per step"; "Once a naval
    unit finds an enemy stack, it cannot search anymore during that step".  ETO-11.3: "More than
    one SS unit can try to intercept an enemy stack in the same area, but not in the same hex"
    (ruling: a stack in a hex is tried for by one submarine a step, a stack in an area by any
    number, each alone)."""
    rec = _record(state)
    done = set(rec["found"]) & {u.id for u in group}
    if done:
        return Refusal("ETO-8.5", f"{', '.join(sorted(done))} already found an enemy stack this step")
    if [_key(group), _key(target)] in rec["pairs"]:
        return Refusal("ETO-8.5", "this group already searched for that enemy stack this step")
    if _sub_in_hex(state, group, target) and _key(target) in rec.get("sub_hex", []):
        return Refusal("ETO-11.3", "several submarines may try for an enemy stack in the same area, but not in "
                                   "the same hex: a submarine already tried for this stack in its hex this step")
    return None


def clear_step(state: State, *_: Any) -> None:
    """End of a naval movement step: the 8.5 limits start again."""
    state.markers.setdefault("naval", {}).pop("searches", None)


# --- 8.5, 8.8, 8.9: stacks that cannot be intercepted ----------------------------------------

def target_why_not(state: State, stack: list[Unit], space: str, *, entering_port: bool = False,
                   canal: bool = False) -> Refusal | None:
    """Why the enemy ``stack`` in ``space`` cannot be intercepted now, or None (8.5, 8.8, 8.9).

    ``entering_port``: it is entering the port from the port's own coastal hex; ``canal``: it is
    entering canal hexsides or moving from a canal straight into a port."""
    if any(naval_units.is_uboat(state, u) for u in stack):
        return Refusal("ETO-8.9", "U-boats are never intercepted; all U-boat combat is strategic warfare")
    box = state.map.boxes.get(space)
    if box is not None and "convoy escort" in box.name.lower():
        return Refusal("ETO-8.8", "units in a convoy escort box cannot be intercepted by the Axis")
    if space in weather.icebound_ports(state):
        return Refusal("ETO-8.5", f"{space} is icebound: no interception into or out of it")
    if entering_port:
        return Refusal("ETO-8.5", "naval units entering a port from that port's coastal hex cannot be intercepted")
    if canal:
        return Refusal("ETO-8.5", "naval units entering canal hexsides, or moving from a canal directly to a "
                                  "port, cannot be intercepted")
    in_port = [u for u in stack if naval_units.in_port(u)]
    if in_port and _friendly_port(state, in_port[0], space) and any(
            naval_units.kind(state, u) in ("BB", "CA") for u in in_port):
        return Refusal("ETO-8.5", "a stack with a BB or CA in a friendly port cannot be intercepted")
    return None


def _friendly_port(state: State, u: Unit, space: str) -> bool:
    return values.on_map_label(space) and bool(control.friendly(state, u.side)[state.map.index(space)])


# --- 8.6, 8.7 ------------------------------------------------------------------------------

AUTOMATIC = {
    "port_vs_entering_hex": "naval units in a port intercept an enemy stack entering the port hex",
    "port_hex_vs_leaving_port": "naval units in a port hex intercept enemy units leaving that port or "
                                "entering the port hex",
    "amphibious_assault": "enemy naval units making an amphibious assault are intercepted in the assault hex",
    "enemy_port": "naval units able to enter an enemy port intercept enemy naval units in it",
}


def automatic(situation: str) -> str:
    """ETO-8.6: the reason a stack intercepts with no search roll, for one of :data:`AUTOMATIC`'s
    situations (the movement code names the situation; each unit still finds once a step)."""
    return AUTOMATIC[situation]


def may_evade_why_not(state: State, group: list[Unit], target: list[Unit], *, automatic: bool,
                      evaded_already: bool) -> Refusal | None:
    """ETO-8.7: the target may evade a finding group whose slowest unit is slower than the
    target's slowest; not a group that intercepted automatically (8.6); and only one group of
    the same intercepting stack."""
    if automatic:
        return Refusal("ETO-8.7", "a group that intercepted automatically cannot be evaded")
    if evaded_already:
        return Refusal("ETO-8.7", "the stack already evaded a group of this intercepting stack; it must fight "
                                  "every other group that finds it")
    gs, ts = group_speed(state, group), group_speed(state, target)
    if not gs < ts:
        return Refusal("ETO-8.7", f"the finding group's slowest unit (speed {gs}) is not slower than the "
                                  f"stack's slowest (speed {ts})")
    return None
