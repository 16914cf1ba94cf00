"""Interdicting the German iron route: Strategic Warfare phase Step 5 (ETO-6.0-6.2).

The route is interdicted, once per step, if Sweden or Norway is an unconquered enemy of the
Axis; if Sweden was conquered by an Axis enemy; if an Axis enemy's ship stands in a Swedish or
Norwegian coastal hex from Stockholm to Narvik; or if an Axis enemy's land unit (not a partisan)
holds Narvik while Sweden is not Axis-conquered (6.1).  Germany then loses 2d6 EPs, rolled by
the interdicting player; 3d6 if the Allies conquered Sweden and no supplied German unit is in
Sweden (6.2).  The hexes of the route are ``tables/iron_route.toml`` (authored band).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.rulesets.eto import alternative_endings, naval_units, politics, values
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-6.1"


def _t(state: State) -> dict[str, Any]:
    return state.ruleset.tables["iron_route"]


def route_hexes(state: State) -> np.ndarray:
    """The Swedish and Norwegian coastal hexes "from Stockholm to Narvik (inclusive)" (authored:
    the map rows between the two, inclusive)."""
    def make() -> np.ndarray:
        t = _t(state)
        hm = state.map
        ta = terrain_arrays(state)
        rows = hm.column("row")
        a, b = (int(rows[hm.index(hm.hex_of(t[k]))]) for k in ("from_place", "to_place"))
        lo, hi = min(a, b), max(a, b)
        return np.isin(ta.country, t["countries"]) & hm.flag("coastal") & (rows >= lo) & (rows <= hi) & ta.land
    return state.game.cached(("eto.iron_route",), make)


def _enemy_of_axis(state: State, nation: str) -> bool:
    return politics.side_of(state, nation) == "allies"


def _sweden(state: State) -> str:
    return next(n for n, r in politics.nations(state).items() if "Sweden" in r.get("countries", []))


def conditions(state: State) -> list[str]:
    """ETO-6.1: the situations that interdict the route now (each in words)."""
    ws = politics.war_state(state)
    conquered = ws.get("conquered", {})
    out = []
    for code, row in sorted(politics.nations(state).items()):
        if set(row.get("countries", [])) & set(_t(state)["countries"]) and _enemy_of_axis(state, code) \
                and code not in conquered:
            out.append(f"{row['name']} is an unconquered enemy of the Axis")
    sw = _sweden(state)
    by = conquered.get(sw)
    if by is not None and politics.side_of(state, by) == "allies":
        out.append(f"Sweden was conquered by {by}, an enemy of the Axis")
    hm = state.map
    band = route_hexes(state)
    ships = sorted({u.location for u in state.units_by_id.values() if u.side == "allies"
                    and naval_units.is_naval(state, u) and hm.has_hex(u.location or "") and band[hm.index(u.location)]})
    if ships:
        out.append(f"Allied naval units in {', '.join(ships)} on the route's coast")
    narvik = hm.hex_of(_t(state)["narvik"])
    sweden_axis = by is not None and politics.side_of(state, by) == "axis"
    if not sweden_axis and any(u.location == narvik and u.side == "allies" and values.is_land_unit(state, u)
                               and values.unit_class(state, u) != "partisan" for u in state.units_by_id.values()):
        out.append("an Allied land unit holds Narvik")
    return out


def interdiction_step(state: State, _step: Any = None) -> None:
    """Strategic Warfare Step 5 (ETO-6.0-6.2): at most one interdiction per step (none in 47.5's
    Cold War clash)."""
    if not alternative_endings.strategic_warfare_allowed(state, "iron_route"):
        return
    why = conditions(state)
    if not why:
        return
    t = _t(state)
    sw = _sweden(state)
    by = politics.war_state(state).get("conquered", {}).get(sw)
    n = int(t["dice"])
    if by is not None and politics.side_of(state, by) == "allies" and not _german_supplied_in_sweden(state):
        n = int(t["dice_sweden_allied"])
    dice = state.roll(n, purpose=f"iron route interdicted ({'; '.join(why)}): German EPs lost", rule="ETO-6.2",
                      side="allies")
    loss = sum(dice)
    key = f"{t['victim']}.eps"
    state.tracks[key] = int(state.tracks.get(key, 0)) - loss
    state.emit("iron_route", side="allies", rule="ETO-6.2", loss=loss,
               text=f"Iron route interdicted: {'; '.join(why)}. {t['victim']} loses {loss} EPs ({n}d6)")


def _german_supplied_in_sweden(state: State) -> bool:
    from workbench.rulesets.eto.supply import in_supply_for_effects

    hm = state.map
    ta = terrain_arrays(state)
    return any(u.nation == "GE" and values.is_land_unit(state, u) and hm.has_hex(u.location or "")
               and ta.country[hm.index(u.location)] == "Sweden" and in_supply_for_effects(state, u)
               for u in state.units_by_id.values())
