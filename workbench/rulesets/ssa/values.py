"""Counter values of SS Amerika units, read from ``tables/units.toml`` (SSA-3.3).

A value is looked up for the unit's nation first, then its nation group
(Latin America), then the unit type, so a designer can give one nation
different counters without touching the others.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit


def type_value(tables: dict[str, Any], utype: str, nation: str, key: str, default: Any = None) -> Any:
    """One counter field for a type and nation (nation → group → type → default)."""
    units = tables["units"]
    t = units["types"][utype]
    per_nation = t.get("nation", {})
    if nation in per_nation and key in per_nation[nation]:
        return per_nation[nation][key]
    for group, members in units.get("nation_groups", {}).items():
        if nation in members and group in per_nation and key in per_nation[group]:
            return per_nation[group][key]
    return t.get(key, default)


_MISSING = object()
_UNCACHED = object()


def value(state: State, unit: Unit, key: str, default: Any = None) -> Any:
    """A counter field of a unit, memoised per game (its units table) by (type, nation, field).
    A partisan flipped to its underground side reads ``types.<type>.underground`` first
    (SSA-3.3: the back of a partisan is its underground status, not a reduced strength)."""
    # this runs ~1e6 times a game: one dict look-up on the hit path, no helper calls
    props = unit.props
    if props and props.get("underground"):
        back = state.ruleset.tables["units"]["types"][unit.type].get("underground", {})
        if key in back:
            return back[key]
    cache = state.game._cache.get("ssa.unit_values")
    if cache is None:
        cache = state.game.cached("ssa.unit_values", dict)
    k = (unit.type, unit.nation, key)
    v = cache.get(k, _UNCACHED)
    if v is _UNCACHED:  # fields the counter lacks are cached too (as _MISSING)
        v = cache[k] = type_value(state.ruleset.tables, unit.type, unit.nation, key, _MISSING)
    return default if v is _MISSING else v


def domain(state: State, unit: Unit) -> str:
    return value(state, unit, "domain", "land")


def is_land(state: State, unit: Unit) -> bool:
    return value(state, unit, "domain", "land") == "land"


def is_leader(state: State, unit: Unit) -> bool:
    return unit.type.startswith("leader")


def is_mech(state: State, unit: Unit) -> bool:
    """SSA-3.3a: mechanized or non-mechanized (leaders move as mechanized, SSA-24.1)."""
    return bool(value(state, unit, "mech", False))


def sided(state: State, unit: Unit, key: str) -> float:
    """A printed value on the unit's current side: ``<key>_reduced`` when reduced (if the
    counter has a back), else ``<key>`` (SSA-3.3a, 13.9)."""
    if unit.reduced:
        v = value(state, unit, f"{key}_reduced")
        if v is not None:
            return float(v)
    return float(value(state, unit, key, 0) or 0)


def cf(state: State, unit: Unit) -> float:
    """Printed combat factor on the unit's current side (SSA-3.3a)."""
    return sided(state, unit, "cf")


def full_cf(state: State, unit: Unit) -> float:
    """Original full printed strength (what an exchange counts, SSA-11.9d)."""
    return float(value(state, unit, "cf", 0) or 0)


def mf(state: State, unit: Unit) -> float:
    """Printed movement factor on the unit's current side (SSA-3.3a)."""
    return sided(state, unit, "mf")


def has_reduced_side(state: State, unit: Unit) -> bool:
    return value(state, unit, "cf_reduced") is not None


def division_equivalents(state: State, unit: Unit) -> Fraction:
    """SSA-9.1: corps and divisions count 1, brigades and regiments 1/3, sizeless units 0."""
    size = unit.size
    if size is None:
        return Fraction(0)
    return _size_value(size, state)


def _size_value(size: str, state: State) -> Fraction:
    cache = state.game.cached("ssa.size_values", dict)  # size -> value: the stacking table's
    v = cache.get(size)
    if v is None:
        v = Fraction(state.ruleset.tables["stacking"]["land"]["value"].get(size, "0"))
        cache[size] = v
    return v
