"""Counter values of ETO units, read from ``tables/units.toml`` (GAP-15, authored).

A unit's *class* (infantry, armor, paratroop, partisan, hq, general) gives its
behaviour (ETO-19.0, 22-25, 45); its *type* and nation give its printed
numbers: strength, movement allowance, steps, HQ command radius and attack
rating, a general's combat and exploitation ratings.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit

#: Classes that are "land units" for stacking, ZOC and combat (ETO-24.2, 25.0).
COMBAT_CLASSES = ("infantry", "armor", "paratroop")


def type_row(tables: dict[str, Any], utype: str) -> dict[str, Any]:
    return tables["units"]["types"][utype]


def nation_row(tables: dict[str, Any], utype: str, nation: str) -> dict[str, Any]:
    """The per-nation counter values of a type (empty if the nation has none)."""
    return type_row(tables, utype).get("nations", {}).get(nation, {})


def unit_class(state: State, unit: Unit) -> str:
    # ~5e6 calls a game: the class of each type is read from the units table once per game
    cache = state.game._cache.get("eto.unit_class")
    if cache is None:
        cache = state.game.cached("eto.unit_class", dict)
    c = cache.get(unit.type)
    if c is None:
        c = cache[unit.type] = type_row(state.ruleset.tables, unit.type).get("class", "infantry")
    return c


def is_class(state: State, unit: Unit, *classes: str) -> bool:
    return unit_class(state, unit) in classes


def on_map(unit: Unit) -> bool:
    return unit.location.isdigit()


def on_map_label(label: str) -> bool:
    return label.isdigit()


def is_combat_unit(state: State, unit: Unit) -> bool:
    """Infantry, armor and paratroop units: the ones that attack, defend and take steps."""
    return unit_class(state, unit) in COMBAT_CLASSES


def is_land_unit(state: State, unit: Unit) -> bool:
    """Any land counter that occupies a hex as a "land unit" (ETO-24.2, 23.2): combat units
    and partisans; not HQs or generals."""
    return unit_class(state, unit) in (*COMBAT_CLASSES, "partisan")


#: Air units and ATP markers (ETO-12.1, 18.1): never land counters.
AIR_COUNTER_CLASSES = ("fighter", "fighter_bomber", "bomber", "naval_air", "atp")


#: Ships, submarines, U-boats and STP markers (ETO-7.0, 10.1): never land counters.
NAVAL_CLASSES = ("named_ship", "squadron", "submarine", "uboat", "stp")


def is_naval_counter(state: State, unit: Unit) -> bool:
    """A naval unit or STP marker: it is never activated for an offensive (22.0)."""
    return unit_class(state, unit) in NAVAL_CLASSES


def is_air_counter(state: State, unit: Unit) -> bool:
    """An air unit or ATP marker: it neither blocks land movement nor is activated (20.0, 22.0)."""
    return unit_class(state, unit) in AIR_COUNTER_CLASSES


def value(state: State, unit: Unit, key: str, default: Any = None) -> Any:
    row = nation_row(state.ruleset.tables, unit.type, unit.nation)
    return row.get(key, type_row(state.ruleset.tables, unit.type).get(key, default))


def strength(state: State, unit: Unit) -> int:
    """Printed strength points on the unit's current side (ETO-26.2); paratroops are always 1 (19.0)."""
    if unit.reduced:
        v = value(state, unit, "depleted_strength")
        if v is not None:
            return int(v)
    return int(value(state, unit, "strength", 0) or 0)


def printed_ma(state: State, unit: Unit) -> int:
    """Printed movement allowance (ETO-24.0); HQs and generals have 5 (ETO-30.1)."""
    cls = unit_class(state, unit)
    if cls in ("hq", "general"):
        return int(state.ruleset.tables["units"]["classes"][cls].get("movement_phase_ma", 5))
    if unit.reduced:
        v = value(state, unit, "depleted_move")
        if v is not None:
            return int(v)
    return int(value(state, unit, "move", 0) or 0)


def steps_left(state: State, unit: Unit) -> int:
    """Steps before elimination (ETO-27.2): 2 for a full two-step unit, else 1."""
    if unit.reduced:
        return 1
    return int(value(state, unit, "steps", 1) or 1)


def has_depleted_side(state: State, unit: Unit) -> bool:
    return int(value(state, unit, "steps", 1) or 1) >= 2


def command_radius(state: State, unit: Unit) -> int:
    """HQ command radius in hexes (ETO-22.1, 23.0)."""
    return int(value(state, unit, "command_radius", 0) or 0)


def attack_rating(state: State, unit: Unit) -> int:
    """HQ attack rating: attacks per step (ETO-22.1, 28.6, 29.3)."""
    return int(value(state, unit, "attack_rating", 1) or 1)


def general_row(state: State, unit: Unit) -> dict[str, Any]:
    name = unit.props.get("name") or unit.id.split("-", 1)[-1]
    return state.ruleset.tables["units"].get("generals", {}).get(name, {})


def combat_rating(state: State, unit: Unit) -> int:
    """A general's combat rating: SP added to one unit of his nationality (ETO-26.2)."""
    return int(general_row(state, unit).get("combat_rating", 0))


def exploitation_rating(state: State, unit: Unit) -> int:
    """A general's exploitation rating: BT/exploitation hexes (ETO-28.3, 29.2)."""
    return int(general_row(state, unit).get("exploitation_rating", 0))


def is_zhukov(state: State, unit: Unit) -> bool:
    return general_row(state, unit).get("special") == "zhukov"


def nation_kind(state: State, nation: str) -> str:
    return state.ruleset.tables["units"]["nations"].get(nation, {}).get("kind", "major")


def major_of(state: State, nation: str) -> str:
    """The major partner that pays for (and keeps the force pool of) a minor's units (ETO-27.2); a
    minor the USSR invaded under 47.2 is rebuilt with German EPs ("German EPs can be used to rebuild
    units of the minor country")."""
    row = state.ruleset.tables["units"]["nations"].get(nation, {})
    ws = state.markers.get("politics")
    if ws and nation in ws.get("soviet_adventures", ()) and nation not in ws.get("conquered", {}):
        return "GE"
    if "major_partner" in row or row.get("kind") != "minor":
        return row.get("major_partner", nation)
    # 41.1: a minor with no fixed major (Poland, Norway ...) serves its partnership's major
    # (tables/politics.toml [partnership_major]; docs/rulings-eto.md, the 1939 campaign)
    p = (ws or {}).get("members", {}).get(nation)
    return str(state.ruleset.tables["politics"].get("partnership_major", {}).get(p, nation))


def units_at(state: State, label: str, side: str | None = None) -> list[Unit]:
    return [u for u in state.units_by_id.values()
            if u.location == label and (side is None or u.side == side)]


def combat_units_at(state: State, label: str, side: str) -> list[Unit]:
    """The combat units (infantry, armor, paratroops) of ``side`` in a hex."""
    return [u for u in units_at(state, label, side) if is_combat_unit(state, u)]


def other(side: str) -> str:
    return "allies" if side == "axis" else "axis"


#: Boxes units go to when they leave the map (27.2, 27.5, 27.7).
FORCE_POOL = "Force pool"
REPLENISHMENT = "Replenishment"
PERMANENT = "Eliminated"


def track(state: State, key: str) -> int:
    """A numeric track (EPs, offensives ...), 0 when unset."""
    return int(state.tracks.get(key, 0) or 0)


def offensive(state: State) -> dict[str, Any]:
    """The offensive in progress (``markers["offensive"]``: side, mode, HQs, attacks made ...)."""
    return state.markers.setdefault("offensive", {})


_SEASON_BEFORE = {"winter": 0.5, "spring": 3.5, "summer": 6.5, "autumn": 9.5}


def month_key(label: str) -> float:
    """Order turn labels: ``1941-12`` -> 1941*12+12; the seasonal ``1942-winter`` comes just
    before January 1942."""
    y, rest = label.split("-", 1)
    m = _SEASON_BEFORE[rest] if rest.isalpha() else float(rest)
    return int(y) * 12 + m
