"""Placing an invaded minor's units (ETO-39.2).

"As soon as the invasion of a minor country is announced, the player controlling the minor country
places that country's units on the map. Units must be placed entirely within the home country.
Enemy ZOC is ignored when placing these units. At least one infantry unit must be placed in the
country's capital. Air units must be placed on airbases; naval units in ports."

The units go at once to the set-up the scenario wrote for them (``props.deploy``, :func:`invasion.
deploy`), and the controlling player is then asked, before play goes on, whether to place any of
them elsewhere (``{"kind": "place_minor", "unit": id, "at": hex}``, as often as wished; ``pass``
keeps the rest where they are).  Bots keep the scenario's set-up.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    airbases,
    invasion,
    naval_units,
    politics,
    ports,
    stacking,
    values,
)
from workbench.rulesets.eto.control import home_mask
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-39.2"
INTERRUPT = "minor_placement"


def offer(state: State, nation: str, placed: list[str]) -> None:
    """``invasion.DEPLOY_HOOKS``: ask the controlling player to place the units just put down."""
    side = politics.side_of(state, nation)
    if not placed or side is None:
        return
    name = politics.nations(state)[nation]["name"]
    state.push_interrupt(INTERRUPT, side, RULE, f"{name} is invaded: place its units in its home country "
                         "(or pass to keep the set-up)", ["place_minor", "pass"], nation=nation, units=list(placed))


def _frame(state: State) -> dict[str, Any] | None:
    f = state.frames[-1] if state.frames else None
    return f if f and f.get("interrupt") == INTERRUPT else None


def capital(state: State, nation: str) -> np.ndarray:
    return home_mask(state, nation, original=True) & state.map.flag("capital")


def why_not(state: State, unit: Unit, at: Any) -> Refusal | None:
    """Why ``unit`` may not be placed at ``at`` now (39.2)."""
    f = _frame(state)
    if f is None:
        return Refusal(RULE, "no invaded minor's units are being placed")
    if unit.id not in f["data"]["units"]:
        return Refusal(RULE, f"{unit.id} is not one of the units being placed")
    hm = state.map
    if not isinstance(at, str) or not hm.has_hex(at):
        return Refusal(RULE, f"{at!r} is no hex")
    nation = f["data"]["nation"]
    i = hm.index(at)
    if not home_mask(state, nation, original=True)[i]:
        return Refusal(RULE, "units must be placed entirely within the home country")
    if at == unit.location:
        return Refusal(RULE, f"{unit.id} is already there")
    if values.is_air_counter(state, unit):
        if not airbases.capacity(state, at):
            return Refusal(RULE, "air units must be placed on airbases")
        return airbases.may_base_why_not(state, unit, at)
    if naval_units.is_naval(state, unit):
        if ports.size(state, at) is None:
            return Refusal(RULE, "naval units must be placed in ports")
        return None
    if not terrain_arrays(state).land[i]:
        return Refusal(RULE, f"{at} is no land hex")
    if not stacking.fits(state, at, unit.side, [unit]):
        return Refusal("ETO-24.2", f"{at} has no room for {unit.id}")
    if values.unit_class(state, unit) == "infantry":
        cap = capital(state, nation)
        here = [u for u in state.units_by_id.values() if u.nation == nation and u.id != unit.id
                and values.unit_class(state, u) == "infantry" and hm.has_hex(u.location) and cap[hm.index(u.location)]]
        if cap.any() and hm.has_hex(unit.location) and cap[hm.index(unit.location)] and not here and not cap[i]:
            return Refusal(RULE, "at least one infantry unit must be placed in the country's capital")
    return None


def candidates(state: State, unit: Unit, nation: str) -> list[str]:
    """Hexes offered in the legal list: the home country's cities, ports and capital (any other home
    hex is accepted when ordered)."""
    hm = state.map
    ta = terrain_arrays(state)
    m = home_mask(state, nation, original=True) & (ta.city | ta.city_resource | hm.flag("capital"))
    return [hm.label(int(i)) for i in np.flatnonzero(m)]


def place(state: State, unit: Unit, at: str) -> None:
    unit.location = at
    if values.is_air_counter(state, unit):
        unit.props["base"] = at
    if naval_units.is_naval(state, unit):
        unit.props["in_port"] = True
    state.emit("placed", side=unit.side, rule=RULE, unit=unit.id, hex=at,
               text=f"{unit.id} placed at {at} (39.2)")


class PlaceMinorOrder(OrderKind):
    """``{"kind": "place_minor", "unit": id, "at": hex}`` (ETO-39.2)."""

    kind = "place_minor"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return politics.on(game)

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = _frame(state)
        if f is None:
            return []
        out = []
        for uid in f["data"]["units"]:
            u = state.units_by_id.get(uid)
            if u is None:
                continue
            for h in candidates(state, u, f["data"]["nation"]):
                if why_not(state, u, h) is None:
                    out.append({"kind": self.kind, "unit": uid, "at": h})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid = order.get("unit")
        if not isinstance(uid, str) or uid not in state.units_by_id:
            raise IllegalOrder(self.rule, f"no unit {uid!r}")
        refuse(why_not(state, state.unit(uid), order.get("at")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        place(state, state.unit(order["unit"]), str(order["at"]))


if offer not in invasion.DEPLOY_HOOKS:
    invasion.DEPLOY_HOOKS.append(offer)
