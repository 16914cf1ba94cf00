"""What a hit does to a naval unit, whoever fired it (ETO-9.5, 10.9, 11.0, 16.2).

Gunfire (:mod:`naval_combat`, :mod:`submarines`) and air-naval attacks (:mod:`air_naval`) apply
their hits here, so a ship takes damage the same way from a gun and from a bomb.
"""

from __future__ import annotations

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import naval_units, sea_transport, values


def afloat(u: Unit) -> bool:
    """Still in play: not sunk to the force pool or out of the game (9.5)."""
    return u.location not in (values.FORCE_POOL, values.PERMANENT, "Eliminated")


def hit_unit(state: State, t: Unit, *, sink: bool, by: str, rule: str = "ETO-9.5") -> None:
    """ETO-9.5/10.9/16.2: one hit on a naval unit: doubles sink it, a hit damages an undamaged
    unit and sinks a damaged one (or a submarine, 11.0); an STP hit removes one STP and never
    more (10.9: an empty marker goes to the force pool; carried units beyond the lift are
    lost, :func:`sea_transport.check_lift`)."""
    if not afloat(t):
        return
    if naval_units.is_stp(state, t):
        t.props["points"] = naval_units.stp_points(t) - 1
        if naval_units.stp_points(t) <= 0:
            naval_units.sink(state, t, "ETO-10.9", " (its last STP)")
        else:
            state.emit("stp_lost", side=t.side, rule="ETO-10.9", unit=t.id, at=t.location,
                       text=f"{t.id} loses one STP to {by} ({naval_units.stp_points(t)} left)")
            sea_transport.check_lift(state, t.side, t.location)
        return
    if sink:
        naval_units.sink(state, t, rule, f" by {by} (doubles)")
    else:
        naval_units.damage(state, t, rule, f" by {by}")
