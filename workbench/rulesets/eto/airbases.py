"""Airbases: capacity, stacking order, overstacking and evacuation (ETO-13.2-13.5, 18.1).

A friendly resource hex, city (ports included) or airfield marker is one base each; a city
resource hex is two, three with an airfield marker (13.2).  A destroyed installation
(21.5, ``state.markers["destroyed"]``) is no base until repaired.  Air units on a hex stand
in a stacking order (``props["base_order"]``): the top ones, up to the capacity, function;
the rest are overstacked (``props["overstacked"]``) and may only change base (13.4).  An ATP
marker, or a stack of them, counts as one air unit for basing (18.1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, control, supply, values
from workbench.rulesets.eto.control import SIDE_CODE
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-13.2"


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["air"]["basing"]


def _printed_capacity(state: State) -> np.ndarray:
    """Bases per hex from the map's features (13.2): city or port 1, resource hex 1 (a city
    resource hex is both: 2).  Per game."""
    def compute() -> np.ndarray:
        hm = state.map
        ta = terrain_arrays(state)
        per = int(table(state)["bases_per_feature"])
        port = np.array([p is not None for p in hm.hexes["port"].to_list()]) if "port" in hm.hexes.columns \
            else np.zeros(hm.size, dtype=bool)
        city = ta.city | ta.city_resource | port
        resource = ta.resource | ta.city_resource
        return (city.astype(np.int16) + resource.astype(np.int16)) * per

    return state.game.cached("eto.air.printed_capacity", compute)


def capacity(state: State, label: str) -> int:
    """ETO-13.2: how many air units the hex can base without overstacking (airfield marker +1;
    a destroyed installation makes it no base, 21.5)."""
    if not values.on_map_label(label) or not state.map.has_hex(label):
        return 0
    if label in state.markers.get("destroyed", {}):
        return 0
    n = int(_printed_capacity(state)[state.map.index(label)])
    marker = state.markers.get("forts", {}).get(label) or {}
    if marker.get("kind") == "airfield" and not marker.get("building"):
        n += int(table(state)["bases_per_feature"])
    return n


def max_units(state: State, label: str) -> int:
    """ETO-13.4: a base never holds more than two air units (a city resource hex, two bases, four)."""
    return capacity(state, label) * int(table(state)["max_units_per_base"])


def is_friendly_base(state: State, side: str, label: str) -> bool:
    """ETO-13.2: a base of ``side``: capacity > 0 and the hex friendly-controlled."""
    if capacity(state, label) <= 0:
        return False
    return int(control.control(state)[state.map.index(label)]) == SIDE_CODE[side]


def friendly_bases(state: State, side: str) -> list[str]:
    """Every friendly base hex of ``side`` (13.2), by label."""
    hm = state.map
    cand = np.flatnonzero(_printed_capacity(state) > 0)
    labels = {hm.label(int(i)) for i in cand}
    labels |= {h for h, m in state.markers.get("forts", {}).items() if m.get("kind") == "airfield"}
    return sorted(h for h in labels if is_friendly_base(state, side, h))


def based_at(state: State, label: str, side: str | None = None) -> list[Unit]:
    """Air units and ATP markers standing on the hex's bases (not flying), top of the stacking
    order first (13.4); naval air on a carrier in the hex is on its carrier, not on these bases
    (13.3)."""
    out = [u for u in state.units_by_id.values()
           if u.location == label and air_units.flies(state, u) and not air_units.airborne(u)
           and (side is None or u.side == side) and not u.props.get("carrier")]
    return sorted(out, key=lambda u: (int(u.props.get("base_order", 0)), u.id))


def _slots(state: State, units: list[Unit]) -> list[list[Unit]]:
    """Group units into basing slots: every air unit one slot, every ATP marker stack one (18.1)."""
    slots: list[list[Unit]] = []
    atps: list[Unit] = []
    for u in units:
        if air_units.is_atp(state, u):
            if not atps:
                slots.append(atps)
            atps.append(u)
        else:
            slots.append([u])
    return slots


def load(state: State, label: str, side: str) -> int:
    """Bases in use at the hex (13.2, an ATP stack counting one, 18.1)."""
    return len(_slots(state, based_at(state, label, side)))


def has_room(state: State, side: str, label: str, u: Unit | None = None) -> bool:
    """ETO-13.2/13.4: a vacant base for one more unit (an ATP joins an ATP stack for free)."""
    here = based_at(state, label, side)
    if u is not None and air_units.is_atp(state, u) and any(air_units.is_atp(state, o) for o in here):
        return True
    return len(_slots(state, here)) < capacity(state, label)


def may_base_why_not(state: State, u: Unit, label: str, *, overstack: bool = False) -> Refusal | None:
    """Why ``u`` may not end a change of base at ``label`` (13.2, 13.4), or None."""
    if not is_friendly_base(state, u.side, label):
        return Refusal(RULE, f"{label} is not a friendly airbase (a friendly city, port, resource hex or "
                             "airfield marker whose installations are not destroyed)")
    if not overstack and not has_room(state, u.side, label, u):
        return Refusal("ETO-13.4", f"every base at {label} is occupied ({capacity(state, label)}); an occupied "
                                   "base may not be the destination of a change of base")
    if load(state, label, u.side) >= max_units(state, label) and not (
            air_units.is_atp(state, u) and any(air_units.is_atp(state, o) for o in based_at(state, label, u.side))):
        return Refusal("ETO-13.4", f"{label} already holds {max_units(state, label)} air units, the most its "
                                   "bases can ever hold")
    return None


def land(state: State, u: Unit, label: str) -> None:
    """Put ``u`` on a base at ``label``, at the bottom of the stacking order (13.4: the order is
    fixed at the moment of overstacking)."""
    here = based_at(state, label, u.side)
    u.location = label
    u.props["base"] = label
    u.props["base_order"] = max((int(o.props.get("base_order", 0)) for o in here if o is not u), default=-1) + 1
    refresh_overstack(state, label, u.side)


def refresh_overstack(state: State, label: str, side: str) -> list[Unit]:
    """ETO-13.4: mark the units beyond the capacity (bottom of the stacking order) overstacked;
    when a unit above leaves, the next one uses the base normally.  Returns the excess."""
    cap = capacity(state, label)
    excess: list[Unit] = []
    for k, slot in enumerate(_slots(state, based_at(state, label, side))):
        for u in slot:
            if k < cap:
                u.props.pop("overstacked", None)
            else:
                u.props["overstacked"] = True
                excess.append(u)
    return excess


def reorder(state: State, label: str, side: str, order: list[str]) -> None:
    """ETO-13.4: the owner restacks a base (in his Naval and Air phase or an air offensive)."""
    here = {u.id: u for u in based_at(state, label, side)}
    rank = [uid for uid in order if uid in here] + [uid for uid in here if uid not in order]
    for k, uid in enumerate(rank):
        here[uid].props["base_order"] = k
    refresh_overstack(state, label, side)


def evacuate(state: State, label: str, side: str, rule: str = RULE) -> list[tuple[str, str | None]]:
    """ETO-13.2/13.4: the base at ``label`` was captured or destroyed.  Each functioning air
    unit of ``side`` on it flies at once, uninterceptable and whatever the weather, to another
    friendly base within twice its range -- a vacant one, the one closest to its nearest supply
    source first -- or, if none is vacant, onto an occupied one (overstacking); with no base in
    reach it is eliminated.  Overstacked units there are destroyed (13.4).  The owner's choice of
    base is made by that order (docs/rulings-eto.md).  Returns (unit, new base or None)."""
    units = based_at(state, label, side)
    if not units:
        return []
    out: list[tuple[str, str | None]] = []
    hm = state.map
    mult = int(table(state)["evacuation_multiplier"])
    bases = [b for b in friendly_bases(state, side) if b != label]
    src = supply.reach(state, values.major_of(state, units[0].nation), side)
    for u in units:
        if u.props.get("overstacked"):
            air_units.eliminate(state, u, "ETO-13.4", f" (overstacked at {label} when the base was lost)")
            out.append((u.id, None))
            continue
        reach = mult * air_units.air_range(state, u)
        near = [b for b in bases if hm.distance(label, b) <= reach
                and load(state, b, side) < max_units(state, b)]
        if not near:
            air_units.eliminate(state, u, rule, f" (no friendly base within {reach} hexes of {label})")
            out.append((u.id, None))
            continue

        def key(b: str, u: Unit = u) -> tuple[int, int, int, str]:
            to_src = int(src[hm.index(b)])
            return (0 if has_room(state, side, b, u) else 1, to_src if to_src >= 0 else 10**6,
                    hm.distance(label, b), b)

        dest = min(near, key=key)
        land(state, u, dest)
        state.emit("air_evacuated", side=side, rule=rule, unit=u.id, frm=label, to=dest,
                   text=f"{u.id} evacuates {label} to {dest}"
                        + (" (overstacked)" if u.props.get("overstacked") else ""))
        out.append((u.id, dest))
    return out


def on_land_entry(state: State, unit: Unit, labels: list[str]) -> None:
    """ETO-13.2: an enemy land unit entering an airbase hex makes the air units there evacuate
    (registered with :data:`control.ENTRY_HOOKS`)."""
    if not air_units.in_play(state):
        return  # the land game has no air counters: nothing to look for on every move
    enemy = values.other(unit.side)
    printed = _printed_capacity(state)
    forts = state.markers.get("forts", {})
    for h in labels:
        if (printed[state.map.index(h)] > 0 or h in forts) and based_at(state, h, enemy):
            evacuate(state, h, enemy)


class RestackOrder(OrderKind):
    """``restack``: ``{"kind": "restack", "hex": h, "order": [ids, top first]}`` -- change the
    stacking order of an overstacked base (ETO-13.4: in a friendly Naval and Air phase or air
    offensive; sequence.toml lists it in those steps only)."""

    kind = "restack"
    rule = "ETO-13.4"

    def legal(self, state: State) -> list[dict[str, Any]]:
        return []  # a choice for players; bots never need it

    def check(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side if state.decision else ""
        h = order.get("hex")
        ids = order.get("order")
        if not isinstance(h, str) or not based_at(state, h, side):
            raise IllegalOrder("ETO-13.4", f"no {side} air units stand on a base at {h!r}")
        here = {u.id for u in based_at(state, h, side)}
        if not isinstance(ids, list) or set(ids) != here or len(ids) != len(here):
            raise IllegalOrder("ETO-13.4", f"list every air unit on {h}, top first: {', '.join(sorted(here))}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side if state.decision else ""
        reorder(state, order["hex"], side, list(order["order"]))
        state.emit("restack", side=side, rule="ETO-13.4", hex=order["hex"], order=list(order["order"]),
                   text=f"{side} restacks the air units at {order['hex']}: {', '.join(order['order'])}")


if on_land_entry not in control.ENTRY_HOOKS:
    control.ENTRY_HOOKS.append(on_land_entry)
