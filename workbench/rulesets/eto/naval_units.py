"""Naval units and STP markers: what a counter is and what it prints (ETO-7.0, 9.5, 10.1, 11.0).

Naval counters are ordinary :class:`~workbench.engine.units.Unit` records whose type has a naval
class in ``tables/units.toml``: ``named_ship`` (BB, CA, CV), ``squadron`` (CL, DD, DE, CVE),
``submarine`` (SS), ``uboat`` and ``stp``.  They never count as land units (no ZOC, control or
land stacking).  The values (gunnery, armor, speed) are authored (GAP-15).

Where a ship is (docs/design/eto-naval.md):

* ``location`` is a **space**: a coastal hex label, a sea area's name, or a box name;
* ``props["in_port"]``: inside the port of its hex (7.7);
* ``reduced`` is the damaged side (9.5: "flip it over");
* ``props["points"]`` on an STP marker (1-4, 10.1); ``props["cargo"]`` what it carries (10.1);
* ``props["name"]`` on a named ship (BB, CA, CV).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import values

NAVAL_CLASSES = values.NAVAL_CLASSES

#: ``f(state, unit, space)`` run after a naval unit sank in ``space`` (sea transport moves the
#: cargo to another ship of the stack, or loses it, 10.9).
SINK_HOOKS: list[Callable[[State, Unit, str], None]] = []


def in_play(state: State) -> bool:
    """The scenario plays the war at sea (``[options] naval = true``)."""
    return bool(state.game.options.get("naval"))


def class_row(state: State, u: Unit) -> dict[str, Any]:
    return state.ruleset.tables["units"]["classes"].get(values.unit_class(state, u), {})


def is_naval(state: State, u: Unit) -> bool:
    """ETO-7.0: ships, squadrons, submarines, U-boats and STP markers."""
    return values.unit_class(state, u) in NAVAL_CLASSES


def kind(state: State, u: Unit) -> str:
    """The printed type letters: "BB", "CA", "CV", "CL", "DD", "DE", "CVE", "SS", "UBOAT", "STP"."""
    return str(values.type_row(state.ruleset.tables, u.type).get("kind", u.type.upper()))


def is_named(state: State, u: Unit) -> bool:
    """ETO-9.5, 16.3: BB, CA and CV are "specifically named" ships; the rest are squadrons."""
    return bool(class_row(state, u).get("named"))


def is_stp(state: State, u: Unit) -> bool:
    """ETO-10.1: an STP marker (no gunnery; a stack of markers is one naval unit, 10.3)."""
    return values.unit_class(state, u) == "stp"


def is_submarine(state: State, u: Unit) -> bool:
    """ETO-11.0: a tactical submarine (SS), not a U-boat."""
    return values.unit_class(state, u) == "submarine"


def is_uboat(state: State, u: Unit) -> bool:
    """ETO-11.0, 8.9: a German U-boat, used only in strategic warfare."""
    return values.unit_class(state, u) == "uboat"


def is_carrier(state: State, u: Unit) -> bool:
    """ETO-13.3: a CV or CVE, which bases naval air."""
    return kind(state, u) in ("CV", "CVE")


def is_escort_type(state: State, u: Unit) -> bool:
    """ETO-7.5: the ships that may enter a convoy escort box (DD, DE, CL, and CV/CVE with air)."""
    return kind(state, u) in ("DD", "DE", "CL", "CV", "CVE")


def damaged(u: Unit) -> bool:
    """ETO-9.5: the unit shows its damaged side."""
    return bool(u.reduced)


def _printed(state: State, u: Unit, key: str) -> Any:
    if damaged(u):
        v = values.value(state, u, f"damaged_{key}")
        if v is not None:
            return v
    return values.value(state, u, key)


def gunnery(state: State, u: Unit) -> int | None:
    """ETO-9.0/9.2: the current gunnery rating, or None for a unit without one (CV, CVE, STP,
    U-boat), which never attacks.  9.5: a damaged unit fires with its damaged side's value."""
    v = _printed(state, u, "gunnery")
    return None if v is None else int(v)


def gunnery_against(state: State, u: Unit, target: Unit) -> int | None:
    """ETO-11.4: "Submarines can only use their gunnery rating as a die-roll modifier when
    attacking named naval units.  Against squadrons or STP markers the sub has a gunnery rating
    of 0."  Every other unit fires with :func:`gunnery`."""
    g = gunnery(state, u)
    if g is not None and class_row(state, u).get("gunnery_vs_named_only") and not is_named(state, target):
        return 0
    return g


def armor(state: State, u: Unit) -> int:
    """ETO-9.2: the number 2d6 + gunnery must reach to hit the unit."""
    return int(_printed(state, u, "armor") or 0)


def speed(state: State, u: Unit) -> int:
    """ETO-7.1, 8.4: the printed movement allowance (its speed for search order and evasion);
    9.5: a damaged unit's damaged speed "takes effect" at once."""
    return int(_printed(state, u, "speed") or 0)


def stp_points(u: Unit) -> int:
    """ETO-10.1: STPs a marker represents (1-4)."""
    return int(u.props.get("points", 1))


def in_port(u: Unit) -> bool:
    """ETO-7.7: inside the port of its hex (a port is an area within the port hex)."""
    return bool(u.props.get("in_port"))


def naval_units(state: State, side: str | None = None, at: str | None = None) -> list[Unit]:
    """Every naval unit of ``side`` (all sides when None), at space ``at`` when given, by id."""
    return sorted((u for u in state.units_by_id.values()
                   if (side is None or u.side == side) and (at is None or u.location == at)
                   and is_naval(state, u)), key=lambda u: u.id)


def unit_count(state: State, units: list[Unit]) -> int:
    """ETO-10.3: naval units "for all purposes": every STP marker in a stack together is one."""
    stps = [u for u in units if is_stp(state, u)]
    return len(units) - len(stps) + (1 if stps else 0)


def sink(state: State, u: Unit, rule: str, why: str = "") -> None:
    """ETO-9.5: "Sunk named ships (BB, CV, CA) are permanently removed from play.  Squadrons (CL,
    DD, DE, CVE, SS) are returned to the force pool"; a U-boat sunk is removed for good (5.2).
    Like ``air_units.eliminate``: the kept props, ``pool_of``, the event."""
    from workbench.rulesets.eto.losses import KEEP_PROPS

    start = u.location
    box = values.PERMANENT if class_row(state, u).get("sunk") == "permanent" else values.FORCE_POOL
    u.location = box
    u.reduced = False
    for k in list(u.props):
        if k not in KEEP_PROPS and k != "name":
            u.props.pop(k)
    if box == values.FORCE_POOL:
        u.props["pool_of"] = values.major_of(state, u.nation)
    rec = state.markers.setdefault("naval_losses", {})
    key = f"{u.side}.{kind(state, u)}"
    rec[key] = int(rec.get(key, 0)) + 1
    state.emit("sunk", side=u.side, rule=rule, text=f"{u.id} sunk{why} → {box}", unit=u.id, at=start, box=box)
    for hook in SINK_HOOKS:
        hook(state, u, start)


def damage(state: State, u: Unit, rule: str, why: str = "") -> bool:
    """ETO-9.5: a hit without doubles damages an undamaged unit (flip it) and sinks a damaged
    one, or any unit without a damaged side (SS, 11.0).  Returns True if the unit sank."""
    if damaged(u) or int(values.value(state, u, "steps", 1) or 1) < 2:
        sink(state, u, rule, why)
        return True
    u.reduced = True
    state.emit("damaged", side=u.side, rule=rule, text=f"{u.id} damaged{why}", unit=u.id, at=u.location)
    return False
