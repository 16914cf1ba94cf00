"""Air units and ATP markers: what a counter is and what it prints (ETO-12.1, 15.6, 18.1).

Air counters are ordinary :class:`~workbench.engine.units.Unit` records whose type has an
air class in ``tables/units.toml`` (fighter, fighter_bomber, bomber, naval_air) or the
``atp`` class.  They never count as land units (no ZOC, control or stacking, 19.0/24.2).

Where an air unit is:

* on its base: ``location`` is the base hex and ``props["base"]`` the same label;
* in flight: ``location`` is the hex the flight has reached, ``props["base"]`` still the
  last base it stood on (13.2), ``props["flight"]`` the flight id (:mod:`air_missions`);
* in a strategic bombing box (13.7), the force pool or the eliminated box: a box name.

Status props: ``commit`` ("CC"/"PC", 20.0), ``role`` ("fighter"/"bomber" for a
fighter-bomber on its current mission, 12.1), ``aborted`` (15.6), ``points`` (ATP
markers: 1 or 2, 18.1).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import values

AIR_CLASSES = ("fighter", "fighter_bomber", "bomber", "naval_air")


def in_play(state: State) -> bool:
    """The scenario plays its air war (``[options] air = true``)."""
    return bool(state.game.options.get("air"))


def class_row(state: State, u: Unit) -> dict[str, Any]:
    return state.ruleset.tables["units"]["classes"].get(values.unit_class(state, u), {})


def is_air(state: State, u: Unit) -> bool:
    """ETO-12.1: fighters, fighter-bombers, bombers and naval air (not ATPs)."""
    return values.unit_class(state, u) in AIR_CLASSES


def is_atp(state: State, u: Unit) -> bool:
    """ETO-12.1/18.1: an air transport marker: not an air unit, but it flies like one."""
    return values.unit_class(state, u) == "atp"


def flies(state: State, u: Unit) -> bool:
    """Air units and ATP markers: everything that flies missions (13.0, 18.1)."""
    return is_air(state, u) or is_atp(state, u)


def has_quality(state: State, u: Unit) -> bool:
    """ETO-12.1: fighters and fighter-bombers print a quality rating; bombers do not."""
    return bool(class_row(state, u).get("fighter"))


def role(state: State, u: Unit) -> str:
    """ETO-12.1: "fighter" or "bomber" on the current mission.  A fighter-bomber (and naval
    air) flies in the role declared for the mission, fighter until declared otherwise."""
    row = class_row(state, u)
    if is_atp(state, u):
        return "bomber"  # 18.1: treated like a bomber in air-to-air combat
    if row.get("fighter") and row.get("bomber"):
        return str(u.props.get("role", "fighter"))
    return "fighter" if row.get("fighter") else "bomber"


def is_fighter(state: State, u: Unit) -> bool:
    """Attacks in air-to-air combat on this mission (15.1)."""
    return role(state, u) == "fighter"


def is_bomber(state: State, u: Unit) -> bool:
    """Attacks ground, naval and installation targets on this mission (12.1, 16-17, 21.5)."""
    return role(state, u) == "bomber" and not is_atp(state, u)


def strength(state: State, u: Unit) -> int:
    """Printed combat strength on the unit's current side (ETO-15.3, 17.3)."""
    return values.strength(state, u)


def quality(state: State, u: Unit) -> int:
    """ETO-15.3: the quality rating; 0 for a bomber, for a fighter-bomber flying as a bomber
    (it is attacked as a bomber) and for an ATP."""
    if not has_quality(state, u) or role(state, u) != "fighter":
        return 0
    if u.reduced:
        v = values.value(state, u, "depleted_quality")
        if v is not None:
            return int(v)
    return int(values.value(state, u, "quality", 0) or 0)


def air_range(state: State, u: Unit) -> int:
    """ETO-13.0: hexes from base on a mission (the same again to return)."""
    return int(values.value(state, u, "range", 0) or 0)


def underlined(state: State, u: Unit) -> bool:
    """ETO-16.2: an underlined strength makes half as many air-naval attacks (at most 4)."""
    return bool(values.value(state, u, "underlined", False))


def steps_left(state: State, u: Unit) -> int:
    """2 on the full side of a two-step counter, else 1 (15.6: a blank back is eliminated)."""
    steps = int(values.value(state, u, "steps", 1) or 1)
    return 1 if u.reduced or steps < 2 else 2


def record_loss(state: State, u: Unit, steps: int) -> None:
    """Air steps lost over the game, by side and class (``state.markers["air_losses"]``), for
    victory conditions that count the air war (rebuilds do not give them back)."""
    rec = state.markers.setdefault("air_losses", {})
    key = f"{u.side}.{values.unit_class(state, u)}"
    rec[key] = int(rec.get(key, 0)) + int(steps)


def eliminate(state: State, u: Unit, rule: str, why: str = "") -> None:
    """ETO-15.6: "Eliminated air units are returned to the force pool of the owning country (or
    major country partner, if from a minor country)".  Like ``losses.eliminate`` (the same props
    kept, ``pool_of``, the event) without its land-stack consequences (27.5 generals, 23.3 HQs,
    37.7): an air unit is not part of the stack below it."""
    from workbench.rulesets.eto.losses import KEEP_PROPS

    start = u.location
    if not is_atp(state, u):
        record_loss(state, u, steps_left(state, u))
    u.location = values.FORCE_POOL
    u.reduced = False
    for k in list(u.props):
        if k not in KEEP_PROPS:
            u.props.pop(k)
    u.props["pool_of"] = values.major_of(state, u.nation)
    state.emit("eliminated", side=u.side, rule=rule, text=f"{u.id} eliminated{why} → {values.FORCE_POOL}",
               unit=u.id, at=start, box=values.FORCE_POOL, oos=False, suez_eligible=False)


def atp_points(u: Unit) -> int:
    """ETO-18.1: ATPs a marker represents (1 or 2)."""
    return int(u.props.get("points", 1))


def base_of(u: Unit) -> str | None:
    """ETO-13.2: the designated base (the last base it stood on)."""
    b = u.props.get("base")
    if b:
        return str(b)
    return u.location if values.on_map(u) else None


def airborne(u: Unit) -> bool:
    return bool(u.props.get("flight"))


def air_units(state: State, side: str | None = None) -> list[Unit]:
    """Every air unit and ATP marker of ``side`` (all sides when None), by id."""
    return sorted((u for u in state.units_by_id.values()
                   if (side is None or u.side == side) and flies(state, u)), key=lambda u: u.id)
