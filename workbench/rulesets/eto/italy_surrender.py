"""The surrender of Italy (ETO-40.6).

While no Axis land or air unit stands in Africa, Palestine, Lebanon-Syria, Spain, Turkey or
Sicily, the first Italian mainland hex the Western Allies capture in a turn makes the Axis
player roll one die: on 1-2 Italy surrenders.  It is then conquered with all normal effects
(:func:`conquest.conquer`: units removed, ships diced), but Italy's hexes, Albania's and
Sardinia's go back to the Axis unless Allied units hold them or they lie behind the Allied
front (24.5).  Registered as a capture hook of :mod:`control`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import conquest, politics, values
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto.terrain import hex_lonlat, terrain_arrays

RULE = "ETO-40.6"


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["italy_surrender"]


def _box(state: State, key: str) -> np.ndarray:
    """Hexes inside the table's lon/lat box ``key`` (authored)."""
    w, so, e, n = _t(state)[key]
    lon, lat = hex_lonlat(state)
    return (lon >= w) & (lon <= e) & (lat >= so) & (lat <= n) & terrain_arrays(state).land


def mainland(state: State) -> np.ndarray:
    """The Italian mainland: Italy's hexes on the peninsula, Sicily and Sardinia left out."""
    ta = terrain_arrays(state)
    return (ta.country == "Italy") & _box(state, "mainland_bounds") & ~_box(state, "sicily_bounds") \
        & ~_box(state, "sardinia_bounds")


def axis_outside(state: State) -> list[str]:
    """Where Axis land or air units keep 40.6 from applying (empty: it applies)."""
    hm = state.map
    ta = terrain_arrays(state)
    sicily = _box(state, "sicily_bounds") & (ta.country == "Italy")
    out = set()
    for u in state.units_by_id.values():
        if u.side != "axis" or not values.on_map(u) or not hm.has_hex(u.location or ""):
            continue
        if not (values.is_land_unit(state, u) or values.is_air_counter(state, u)):
            continue
        i = hm.index(u.location)
        if ta.country[i] in _t(state)["axis_free"]:
            out.add(str(ta.country[i]))
        elif sicily[i]:
            out.add("Sicily")
    return sorted(out)


def on_capture(state: State, unit: Unit, taken: np.ndarray) -> None:
    """The roll after the Western Allies' first capture on the Italian mainland this turn."""
    t = _t(state)
    it = t["nation"]
    if not politics.on(state.game) or politics.partnership(state, it) != "axis" \
            or it in politics.war_state(state).get("conquered", {}):
        return
    if politics.partnership(state, values.major_of(state, unit.nation)) != "western":
        return
    if not mainland(state)[taken].any():
        return
    ws = politics.writable(state)
    if ws.get("italy_roll_turn") == state.turn_label or axis_outside(state):
        return
    ws["italy_roll_turn"] = state.turn_label
    (die,) = state.roll(1, purpose="Italy's surrender after a Western Allied capture on the mainland: 1-2 surrenders",
                        rule=RULE, side="axis")
    if die not in t["surrenders_on"]:
        state.emit("italy_fights_on", side="axis", rule=RULE, text=f"Italy fights on ({die})")
        return
    conquest.conquer(state, it, values.major_of(state, unit.nation))
    hm = state.map
    ta = terrain_arrays(state)
    back = (np.isin(ta.country, t["stay_axis"]) | _box(state, "sardinia_bounds")) & ta.land
    held = np.zeros(hm.size, dtype=bool)
    for u in state.units_by_id.values():
        if u.side == "allies" and values.is_land_unit(state, u) and hm.has_hex(u.location or ""):
            held[hm.index(u.location)] = True
    ctrl = ctl.control(state)
    ctrl[back & ~held] = ctl.AXIS
    from workbench.rulesets.eto.front import apply_front

    apply_front(state, "allies", within=back)  # hexes behind the Allied front stay Allied
    state.emit("italy_surrenders", side="allies", rule=RULE,
               text=f"Italy surrenders ({die}): conquered; Italy, Albania and Sardinia friendly to the Axis "
                    "except where Allied units stand or behind the Allied front")


if on_capture not in ctl.CAPTURE_HOOKS:
    ctl.CAPTURE_HOOKS.append(on_capture)
