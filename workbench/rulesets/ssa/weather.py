"""Weather (optional rule SSA-26): the roll, and what each result does to movement, supply,
combat, air units, recon and fleets.

The step ``turn/start/weather`` (sequence.toml, ``when = "optional:SSA-26"``) rolls one die for
the Axis (26.G, 26.1), adds the month modifier (26.2: Dec-Feb +1, Jun-Aug -1), and reads all six
columns of ``tables/weather.toml``; a scenario may force the result (``weather_forced``: SC1 and
SC2 SR1, clear on turn 1) or the roll (``weather_forced_roll``: SC3 SR1, a 7 on turn 1).  The
result is ``markers["weather"] = {"I": "C", "II": ..., "Atlantic": ..., "Pacific": ...}``.

Each hex reads its map ``weather_zone`` column (I-IV for land, ``Atlantic`` / ``Pacific`` for the
sea; authored: ``weather.toml ocean_column``).  Where a zone's weather is

* P, S, T: every land movement cost in it rises by ``terrain.toml [weather_costs]`` (P +1 except on
  transportation lines, S +2 and +1 on lines, T +1 on lines too, ruling), and so does supply
  tracing (26.4), because both read :func:`hex_costs` through ``terrain.hexside_steps``;
* F: rivers (hexsides into the zone) and lakes freeze and count as the hex's other terrain
  (a lake: clear); F and S shift all combat one column left, read in the defender's hex, the
  best zone for the defence when the defenders stand in several (26.5);
* S: no air unit flies from or to the zone, and no recon from it; P and F: each hex with air
  units on a mission is checked after air movement, 1-3 the mission is clouded out (26.3-P);
* H (an ocean column): no air unit flies from or to a sea or coastal hex of that ocean south of
  Zone I; its fleets there go back to the nearest friendly port (else the holding area of
  ``weather.toml [naval_return]``) and no naval unit moves in those hexes; F in Zone I: the same
  for the sea hexes of Zone I (the map's ``climate_band``) and the coastal hexes of Zone I.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.special import special_rules, turn_number

RULE = "SSA-26"
MARK = "weather"
LAND_ZONES = ("I", "II", "III", "IV")


def rule_on(state: State) -> bool:
    """Whether optional rule SSA-26 is switched on for this game."""
    return RULE in state.game.options.get("optional_rules", [])


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["weather"]


def current(state: State) -> dict[str, str] | None:
    """The weather of each zone this turn, or None (rule off, or no roll yet)."""
    w = state.markers.get(MARK)
    return w if rule_on(state) and isinstance(w, dict) else None


def signature(state: State) -> tuple | None:
    """A hashable stamp of the weather, for caches of costs that depend on it."""
    w = current(state)
    return None if w is None else tuple(sorted(w.items()))


# -- the roll (26.1, 26.2) ---------------------------------------------------------------------
def month_modifier(state: State) -> int:
    """SSA-26.2: December to February +1, June to August -1, other months 0."""
    month = state.turn_label[-2:]
    return int(table(state)["month_modifier"].get(month, 0))


def roll_weather(state: State, step: Any = None) -> None:
    """SSA-26.G, 26.1-26.2: the Axis rolls one die at the start of the turn, modified by the
    month, and reads every column of the Weather Table; scenario rules may force it."""
    t = table(state)
    cols = t["columns"]
    forced = [r for r in special_rules(state, "weather_forced") if int(r.get("turn", 0)) == turn_number(state)]
    forced_roll = [r for r in special_rules(state, "weather_forced_roll")
                   if turn_number(state) in [int(x) for x in r.get("turns", [])]]
    if forced:
        code = str(forced[0]["result"])
        result = {c: code for c in cols}
        how = f"{forced[0].get('rule', 'scenario rule')}: weather is {code} everywhere this turn"
        roll = None
    else:
        if forced_roll:
            roll = int(forced_roll[0]["roll"])
            how = f"{forced_roll[0].get('rule', 'scenario rule')}: the weather die roll is {roll}"
        else:
            (die,) = state.roll(purpose="weather for the turn (all zones)", rule="SSA-26.1", side="axis")
            mod = month_modifier(state)
            lo, hi = t["range"]
            roll = min(max(die + mod, lo), hi)
            how = f"die {die} {mod:+d} for the month (SSA-26.2) = {roll}"
        row = t["rows"][str(roll)]
        result = dict(zip(cols, row, strict=True))
    state.markers[MARK] = result
    state.markers["weather_roll"] = roll
    shown = ", ".join(f"{c} {result[c]}" for c in cols)
    state.emit("weather", side="axis", rule="SSA-26.1", text=f"weather: {shown} ({how})", weather=result,
               roll=roll)
    naval_returns(state)


# -- zones ---------------------------------------------------------------------------------------
def _zones(state: State) -> np.ndarray:
    hm = state.map

    def compute() -> np.ndarray:
        if "weather_zone" not in hm.hexes.columns:
            return np.full(hm.size, "", dtype=object)
        return np.array([z or "" for z in hm.hexes["weather_zone"].to_list()], dtype=object)

    return hm.cached("ssa.weather_zones", compute)


def _bands(state: State) -> np.ndarray:
    """The latitude band (I-IV) of every hex, sea included (map ``climate_band``; else the zone)."""
    hm = state.map

    def compute() -> np.ndarray:
        if "climate_band" not in hm.hexes.columns:
            return _zones(state)
        return np.array([z or "" for z in hm.hexes["climate_band"].to_list()], dtype=object)

    return hm.cached("ssa.climate_bands", compute)


def zone_of(state: State, label: str) -> str:
    return str(_zones(state)[state.map.index(label)])


def codes(state: State) -> np.ndarray:
    """``str[N]``: this turn's weather code in every hex ("" with no weather)."""
    w = current(state)
    hm = state.map
    if w is None:
        return np.full(hm.size, "", dtype=object)

    def compute() -> np.ndarray:
        zones = _zones(state)
        out = np.full(hm.size, "", dtype=object)
        for z, code in w.items():
            out[zones == z] = code
        return out

    return state.game.cached(("ssa.weather_codes", signature(state)), compute)


def code_at(state: State, label: str) -> str:
    return str(codes(state)[state.map.index(label)]) if state.map.has_hex(label) else ""


# -- movement and supply (26.3, 26.4) ----------------------------------------------------------
def hex_costs(state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SSA-26.3-P/S/T, F, 26.4: per hex entered, (cost added off a transportation line, cost added
    along one, frozen: rivers into it and its lakes count as the other terrain)."""
    def compute() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hm = state.map
        c = codes(state)
        wc = state.ruleset.tables["terrain"]["weather_costs"]
        add = np.zeros(hm.size)
        line = np.zeros(hm.size)
        for code, spec in wc.items():
            if isinstance(spec, dict):
                mask = c == code
                add[mask] = float(spec.get("add", 0))
                line[mask] = float(spec.get("on_transport_line", 0))
        frozen = c == "F"
        for a in (add, line, frozen):
            a.flags.writeable = False  # shared by every caller of this weather
        return add, line, frozen

    # a function of this turn's weather alone: once per weather, not per step-cost call
    return state.game.cached(("ssa.hex_costs", signature(state)), compute)


# -- combat (26.3-F/S, 26.5) -------------------------------------------------------------------
def combat_shift(state: State, targets: list[str], ignore_freeze: bool = False) -> tuple[int, str, str] | None:
    """SSA-26.3-F, 26.3-S, 26.5: one column left in Freeze or Storms, read in the defender's hex;
    defenders in several zones use the zone best for the defence.  ``ignore_freeze``: mountain
    troops attacking alone are not affected by Freeze (SSA-22.3e)."""
    if current(state) is None:
        return None
    shifts = state.ruleset.tables["crt"]["shifts"]
    best: tuple[int, str, str] | None = None
    for t in targets:
        code = code_at(state, t)
        if code == "F" and ignore_freeze:
            continue
        spec = {"F": shifts["weather_freeze"], "S": shifts["weather_storms"]}.get(code)
        if spec is None:
            continue
        cand = (int(spec["columns"]), f"weather {code} in zone {zone_of(state, t)} (defender's hex)", "SSA-26.3")
        if best is None or cand[0] < best[0]:
            best = cand
    return best


def frozen_river(state: State, targets: list[str]) -> bool:
    """SSA-26.3-F: the defender's hex is in a zone with Freeze, so its rivers are frozen."""
    return current(state) is not None and any(code_at(state, t) == "F" for t in targets)


# -- air (26.3-P/F/S/H) ---------------------------------------------------------------------------
def flight_refusal(state: State, unit: Unit, start: str | None, target: str | None) -> Refusal | None:
    """SSA-26.3-S, 26.3-H: why ``unit`` may not fly from ``start`` to ``target`` in this weather."""
    if current(state) is None:
        return None
    for where in (start, target):
        if not where or not state.map.has_hex(where):
            continue
        code = code_at(state, where)
        if code == "S":
            return Refusal("SSA-26.3-S", f"no aircraft may fly in Storms ({where}, zone {zone_of(state, where)})")
        if _hurricane_sea(state)[state.map.index(where)]:
            return Refusal("SSA-26.3-H", f"no air unit may fly over a coastal or ocean hex in a hurricane ({where})")
    return None


def no_flight(state: State) -> np.ndarray:
    """``bool[N]``: hexes :func:`flight_refusal` refuses as a start or target (Storms, or a
    hurricane over sea or coast), for checking every hex in range at once (SSA-26.3-S, 26.3-H)."""
    def compute() -> np.ndarray:
        out = (codes(state) == "S") | _hurricane_sea(state)
        out.flags.writeable = False
        return out

    return state.game.cached(("ssa.no_flight", signature(state)), compute)


def _hurricane_sea(state: State) -> np.ndarray:
    """``bool[N]``: sea and coastal hexes under a Hurricane (an ocean column south of Zone I, or
    a land zone's coastal hexes)."""
    hm = state.map
    w = current(state) or {}

    def compute() -> np.ndarray:
        zones, bands = _zones(state), _bands(state)
        coastal = hm.flag("coastal")
        out = np.zeros(hm.size, dtype=bool)
        for z, code in w.items():
            if code != "H":
                continue
            if z in LAND_ZONES:
                out |= (zones == z) & coastal
            else:
                out |= (zones == z) & hm.is_water & (bands != "I")
        return out

    return state.game.cached(("ssa.weather_hurricane", signature(state)), compute)


def cloud_check(state: State, step: Any = None) -> None:
    """SSA-26.3-P, 26.3-F: after air movement, each hex with phasing air units in the air on a
    mission in Precipitation or Freeze is checked: on 1-3 it is cloud covered and they abort."""
    if current(state) is None:
        return
    abort_on = set(table(state)["effects"]["cloud_check_abort_on"])
    side = state.phasing
    hexes: dict[str, list[Unit]] = {}
    for u in state.units_by_id.values():
        if u.side == side and u.props.get("flying") and u.props.get("mission") not in (None, "aborted", "transfer"):
            hexes.setdefault(u.location, []).append(u)
    for label in sorted(hexes):
        code = code_at(state, label)
        if code not in ("P", "F"):
            continue
        (die,) = state.roll(purpose=f"cloud cover over {label} ({code})", rule="SSA-26.3-P", side=side)
        if die in abort_on:
            for u in hexes[label]:
                u.props["mission"] = "aborted"
            state.emit("clouds", side=side, rule="SSA-26.3-P", hex=label, units=[u.id for u in hexes[label]],
                       text=f"{label} is cloud covered (die {die}): "
                            f"{', '.join(u.id for u in hexes[label])} return without completing their missions")


def recon_blocked(state: State, source: str) -> bool:
    """SSA-26.3-S: no air recon from a hex in Storms."""
    return current(state) is not None and code_at(state, source) == "S"


# -- naval (26.3-F, 26.3-H) ---------------------------------------------------------------------
def naval_closed(state: State) -> np.ndarray:
    """``bool[N]``: hexes where no naval movement is allowed: Zone I ocean and coastal hexes in
    Freeze (26.3-F); ocean hexes south of Zone I of an ocean in a Hurricane, and coastal hexes of
    a land zone in a Hurricane (26.3-H)."""
    hm = state.map
    w = current(state)
    if w is None:
        return np.zeros(hm.size, dtype=bool)

    def compute() -> np.ndarray:
        out = _hurricane_sea(state).copy()
        if w.get("I") == "F":
            zones, bands = _zones(state), _bands(state)
            out |= (hm.is_water & (bands == "I")) | ((zones == "I") & hm.flag("coastal"))
        return out

    return state.game.cached(("ssa.weather_naval_closed", signature(state)), compute)


def naval_returns(state: State) -> None:
    """SSA-26.3-F, 26.3-H: fleets at sea in a closed area go at once to the nearest friendly port
    (ties: the lowest hex label, authored), else to the holding area of ``weather.toml
    [naval_return]``; their cargo and carrier air go with them."""
    from workbench.rulesets.ssa.air import carry_air
    from workbench.rulesets.ssa.naval import carried_by
    from workbench.rulesets.ssa.occupation import city_owner

    hm = state.map
    closed = naval_closed(state)
    if not closed.any():
        return
    ports = [i for i in np.flatnonzero(hm.flag("port")) if not closed[i]]
    back = table(state).get("naval_return", {})
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if values.domain(state, u) != "naval" or not u.location.isdigit():
            continue
        i = hm.index(u.location)
        if not (closed[i] and hm.is_water[i]):
            continue
        own = [p for p in ports if city_owner(state, int(p)) == u.side]
        if own:
            dest = min(own, key=lambda p: (hm.distance(i, int(p)), hm.label(int(p))))
            to = hm.label(int(dest))
        else:
            ocean = str(_zones(state)[i])
            to = back.get(u.side, {}).get(ocean, "")
            if not to:
                continue
        rule = "SSA-26.3-H" if _hurricane_sea(state)[i] else "SSA-26.3-F"
        start = u.location
        u.location = to
        u.props["sail_done"] = True
        for cargo in carried_by(state, u):
            cargo.location = to
        carry_air(state, u)
        state.emit("sail", side=u.side, rule=rule, unit=u.id, start=start, to=to,
                   text=f"{u.id} driven back by the weather: {start} → {to}")


def naval_refusal(state: State, unit: Unit) -> Refusal | None:
    """SSA-26.3-F/H: a fleet in a hex closed by the weather may not move this turn."""
    if current(state) is None or not unit.location.isdigit():
        return None
    if naval_closed(state)[state.map.index(unit.location)]:
        return Refusal("SSA-26.3", f"no naval movement is allowed in {unit.location} in this weather")
    return None
