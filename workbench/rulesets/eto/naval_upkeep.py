"""End-phase upkeep of ships at sea (ETO-7.6, 33.8).

At the end of the End phase's naval movement every naval unit not in a friendly port must be
paid for: 1 EP per sea area (a coastal hex counts in its home area) holding the nation's units at sea, 2 EPs where it has more than 8;
nothing for units in a convoy escort box or that did strategic warfare this turn (U-boats,
raiders).  A nation that cannot pay marks those units out of supply (33.8), and with them every
unit embarked in the stack (10.3), which then suffers 33.5's attrition while it stays marked.
The marker comes off at the end of the phase in which the ships are in a friendly port (33.8).
Minor allies' ships are paid by their major partner.  Numbers: ``tables/naval_movement.toml
[upkeep]``.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import convoys, naval_units, ports, sea_spaces, sea_transport, values

RULE = "ETO-7.6"


def at_sea(state: State, u: Unit) -> bool:
    """Outside a friendly port, not in an escort or port box, not a strategic warfare unit."""
    if naval_units.in_port(u) and ports.friendly(state, u.side, u.location):
        return False
    if u.location in state.map.boxes and u.location not in ("US coastal box",):
        return False
    if naval_units.is_uboat(state, u):
        return False  # U-boats do strategic warfare every turn (5.1)
    route = convoys.route_at(state, u.location)
    if route and naval_units.kind(state, u) in ("BB", "CA", "CL", "CV") and u.nation == "GE":
        return False  # surface raiders on a route did strategic warfare this turn (4.1)
    return values.on_map_label(u.location) or u.location in state.map.sea_areas or u.location == "US coastal box"


def bill(state: State) -> dict[tuple[str, str], list[Unit]]:
    """(paying major, sea area) -> its units at sea there; ships in coastal hexes count in the
    hex's home area (:func:`sea_spaces.home_area`, ETO-7.6 "1 EP per area")."""
    out: dict[tuple[str, str], list[Unit]] = {}
    for u in naval_units.naval_units(state):
        if at_sea(state, u):
            area = sea_spaces.home_area(state, u.location)
            out.setdefault((values.major_of(state, u.nation), area), []).append(u)
    return out


def pay(state: State, *_: Any) -> None:
    """ETO-7.6: each nation pays for its ships at sea, or they are marked OOS (33.8)."""
    t = state.ruleset.tables["naval_movement"]["upkeep"]
    for (major, space), units in sorted(bill(state).items()):
        n = naval_units.unit_count(state, units)
        cost = int(t["per_big_area"]) if n > int(t["big_stack"]) else int(t["per_area"])
        key = f"{major}.eps"
        have = int(state.tracks.get(key, 0))
        if have >= cost:
            state.tracks[key] = have - cost
            state.emit("naval_upkeep", side=units[0].side, rule=RULE, nation=major, eps=cost, at=space,
                       text=f"{major} pays {cost} EP(s) for {n} naval unit(s) at sea in {space}")
        else:
            for u in units:
                u.props["oos"] = True
            for c in embarked(state, units):  # 10.3: the cargo of a stack marked OOS is OOS too
                if not c.props.get("oos"):
                    c.props["oos"], c.props["oos_since"] = True, state.turn_label
                    state.emit("out_of_supply", side=c.side, rule="ETO-10.3", unit=c.id,
                               text=f"{c.id} is embarked in a stack marked out of supply: it is out of supply too")
            state.emit("naval_upkeep", side=units[0].side, rule="ETO-33.8", nation=major, eps=0, at=space,
                       text=f"{major} cannot pay {cost} EP(s) for its ships at sea in {space}: they are marked "
                            "out of supply")


def embarked(state: State, ships: list[Unit]) -> list[Unit]:
    """The units aboard ``ships`` (10.1: cargo stands at ``aboard:<ship id>``)."""
    ids = {u.id for u in ships}
    return sorted((u for u in state.units_by_id.values() if sea_transport.is_aboard(u) and u.props.get("aboard") in ids),
                  key=lambda u: u.id)


def clear_in_port(state: State, *_: Any) -> list[str]:
    """ETO-33.8: "Out of supply markers are removed from naval units at the end of the phase in
    which the naval units enter a friendly port" (their cargo's with them, 10.3)."""
    cleared = []
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if not (u.props.get("oos") and naval_units.is_naval(state, u) and naval_units.in_port(u)
                and ports.friendly(state, u.side, u.location)):
            continue
        for x in [u, *embarked(state, [u])]:
            x.props.pop("oos", None)
            x.props.pop("oos_since", None)
            cleared.append(x.id)
        state.emit("supplied", side=u.side, rule="ETO-33.8", unit=u.id,
                   text=f"{u.id} is in a friendly port at {u.location}: its out of supply marker is removed")
    return cleared


def embarked_attrition(state: State, *_: Any) -> list[str]:
    """ETO-10.3/33.5: at the End phase's Supply step, a unit embarked in a stack still marked out
    of supply since an earlier turn loses a step (a one-step or depleted unit is lost at sea, to
    the force pool)."""
    hit = []
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if not (sea_transport.is_aboard(u) and u.props.get("oos")) or u.props.get("oos_since") == state.turn_label:
            continue
        ship = sea_transport.carrier_of(state, u)
        if ship is None or not ship.props.get("oos"):
            continue
        hit.append(u.id)
        if values.steps_left(state, u) >= 2 and values.unit_class(state, u) != "paratroop":
            u.reduced = True
            state.emit("depleted", side=u.side, rule="ETO-33.5", unit=u.id, at=ship.location,
                       text=f"{u.id} loses a step: still out of supply aboard {ship.id}")
        else:
            sea_transport.lose_cargo(state, u, "ETO-33.5", f": still out of supply aboard {ship.id}")
    return hit


def forced_voyages(state: State, step: Any = None) -> list[str]:
    """ETO-33.8: at the end of a side's naval movement step, its marked ships that did not sail
    are sailed by the kernel along the most direct path to the closest friendly port, as far as
    their allowance goes (ruling A-33.8); returns the ids moved."""
    from workbench.rulesets.eto import naval_movement

    side = state.phasing
    ph = naval_movement.phase(state)
    if side is None or ph is None or state.markers.get("naval", {}).get("voyage"):
        return []
    stacks: dict[str, list[Unit]] = {}
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.side == side and u.props.get("oos") and naval_units.is_naval(state, u) and not naval_units.in_port(u) \
                and u.props.get("sailed_phase") != f"{state.turn_label}/{ph}" and not sea_transport.is_aboard(u):
            stacks.setdefault(u.location, []).append(u)
    moved: list[str] = []
    for at, units in sorted(stacks.items()):
        path = naval_movement.home_port_path(state, side, at)
        if not path:
            continue
        mp, go = naval_movement.allowance(state, units), []
        prev = at
        for sp in path:
            c = sea_spaces.step_cost(state, side, prev, sp)
            if c is None or c > mp:
                break
            mp -= c
            go.append(sp)
            prev = sp
        if not go:
            continue
        to_port = go == path
        if naval_movement.sail_why_not(state, side, units, go, to_port) is not None:
            continue
        state.emit("forced_voyage", side=side, rule="ETO-33.8", units=[u.id for u in units],
                   text=f"{', '.join(u.id for u in units)}, out of supply, sail toward {path[-1]} (33.8)")
        naval_movement.sail(state, side, units, go, to_port)
        moved += [u.id for u in units]
        if state.markers.get("naval", {}).get("voyage"):
            break  # an interception halted the voyage: the rest sail when it is settled
    return moved
