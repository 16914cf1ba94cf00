"""Hex control (SSA-5.7e, 17.0).

Two kinds of control are kept apart:

* **line control** (``arrays["control"]``, int8 per hex): the side whose land
  units last passed through the hex, or that held it behind its lines at the
  start (SSA-5.7e).  Rail movement uses it, and SC0's special rule 8 uses it
  for cities.
* **city control** (``markers["cities"]``): who draws MP and VP from a city,
  which needs an occupation government (SSA-17.3-17.5); see ``occupation.py``.
"""

from __future__ import annotations

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values

NOBODY, AXIS, ALLIES = 0, 1, 2
SIDE_CODE = {"axis": AXIS, "allies": ALLIES}


def control_array(state: State) -> np.ndarray:
    ctrl = state.arrays.get("control")
    if ctrl is None:
        ctrl = np.zeros(state.map.size, dtype=np.int8)
        state.arrays["control"] = ctrl
    return ctrl


def initial_control(state: State) -> None:
    """Start-of-scenario control from the scenario's ``[control]`` table (SSA-17.1).

    Keys are map country codes; values ``"axis"``, ``"allies"``, ``"neutral"``.
    Countries left out take ``countries.toml [default_control]`` (SSA-18.2b, 18.4-18.7).
    Hexes of neutral countries are closed to both sides (SSA-18, SC0), except their
    border hexes (SSA-18.11b, unless ``movement.toml [neutrality]`` is overridden) and the
    two Panama Canal hexes where a scenario opens them (SC0 SR6).
    """
    hm = state.map
    country = np.array([c or "" for c in hm.hexes["country"].to_list()], dtype=object)
    table = state.ruleset.tables.get("countries", {})
    codes = table.get("codes", {})
    ctrl = np.zeros(hm.size, dtype=np.int8)
    neutral = np.zeros(hm.size, dtype=bool)
    given = state.game.scenario.raw.get("control", {})
    # SSA-18.2b, 18.4-18.7: countries a scenario leaves out take the rulebook's default (countries.toml)
    default = {k: v for k, v in table.get("default_control", {}).items() if k in codes}
    for key, val in {**default, **given}.items():
        if not isinstance(val, str) or key.startswith("box."):
            continue
        mask = np.isin(country, [*codes.get(key, []), key])
        if val in SIDE_CODE:
            ctrl[mask] = SIDE_CODE[val]
        elif val == "neutral":
            neutral |= mask
    if state.game.scenario.raw.get("control_regions"):
        from workbench.rulesets.ssa.deployment import geography

        regions = geography(state).region
        for region, val in state.game.scenario.raw["control_regions"].items():
            if region in regions and val in SIDE_CODE:
                ctrl[regions[region]] = SIDE_CODE[val]
                neutral &= ~regions[region]
    if any(isinstance(r, dict) and r.get("effect") == "panama_canal_hexes_open"
           for r in state.game.scenario.raw.get("special_rules", [])):
        # SC0 SR6: both players may move into the two Panama Canal hexes of neutral Panama
        for label in hm.area("Panama Canal"):
            neutral[hm.index(label)] = False
    if state.ruleset.tables["movement"].get("neutrality", {}).get("border_hexes_open"):
        neutral &= ~border_hexes(state)  # SSA-18.11b: entering them does not violate neutrality
    state.arrays["control"] = ctrl
    if neutral.any():
        state.arrays["neutral"] = neutral


def border_hexes(state: State) -> np.ndarray:
    """``bool[N]``: land hexes next to a land hex of another country (SSA-18.11b; movement.toml
    ``[neutrality]``, authored reading of "border hex")."""
    hm = state.map
    country = np.array([c or "" for c in hm.hexes["country"].to_list()], dtype=object)
    land = ~hm.is_water & (country != "")
    nb = hm.neighbors
    ok = (nb >= 0) & land[np.maximum(nb, 0)] & land[:, None]
    return (ok & (country[np.maximum(nb, 0)] != country[:, None])).any(axis=1)


def pass_through(state: State, unit: Unit, path: list[int]) -> None:
    """SSA-5.7e: a land unit passing through hexes gives its side their line control."""
    if not values.is_land(state, unit) or values.is_leader(state, unit):
        return
    ctrl = control_array(state)
    ctrl[np.asarray(path, dtype=np.int64)] = SIDE_CODE[unit.side]
