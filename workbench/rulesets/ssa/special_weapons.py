"""Strategic missiles and atomic weapons ride with their carriers (SSA-22.13a, 22.14a).

A missile is always carried by a friendly logistic unit, one each (22.13a); an atomic
weapon by any friendly land, air or naval unit (22.14a).  Neither fights, moves or
stacks on its own, so such a counter stands at ``aboard:<carrier id>`` (the scenario's
``carried_by`` key names the carrier): no rule that looks at map hexes sees it, it goes
wherever its carrier goes, and it is eliminated with it.  :func:`where` is the hex or
holding area it is in.
"""

from __future__ import annotations

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values

ABOARD = "aboard:"
MISSILE = "strategic_missile"
ATOMIC = "atomic_weapon"
WEAPONS = (MISSILE, ATOMIC)


def is_weapon(unit: Unit) -> bool:
    return unit.type in WEAPONS


def carrier(state: State, weapon: Unit) -> Unit | None:
    """The unit carrying ``weapon`` (None if it is not aboard anything)."""
    if not weapon.location.startswith(ABOARD):
        return None
    return state.units_by_id.get(weapon.location[len(ABOARD):])


def where(state: State, weapon: Unit) -> str:
    """The hex or holding area the weapon is in: its carrier's, however deep the nesting
    (a bomb on a bomber aboard a convoy)."""
    seen = set()
    u = weapon
    while u.location.startswith(ABOARD) and u.id not in seen:
        seen.add(u.id)
        c = state.units_by_id.get(u.location[len(ABOARD):])
        if c is None:
            return u.location
        u = c
    return u.location


def aboard(state: State, unit: Unit) -> list[Unit]:
    """The weapons ``unit`` carries."""
    tag = ABOARD + unit.id
    return sorted((w for w in state.units_by_id.values() if w.location == tag), key=lambda w: w.id)


def may_carry_why_not(state: State, weapon: Unit, unit: Unit) -> Refusal | None:
    """SSA-22.13a: a missile rides a friendly logistic unit that carries no other missile;
    SSA-22.14a: an atomic weapon rides any friendly land, air or naval unit."""
    if unit.side != weapon.side or is_weapon(unit):
        return Refusal("SSA-22.14a", f"{unit.id} is not a friendly land, air or naval unit")
    if weapon.type == MISSILE:
        if not values.value(state, unit, "logistic", False):
            return Refusal("SSA-22.13a", f"a strategic missile is carried only by a logistic unit; {unit.id} is not one")
        if any(w.type == MISSILE and w.id != weapon.id for w in aboard(state, unit)):
            return Refusal("SSA-22.13a", f"{unit.id} already carries a missile: one missile a logistic unit")
    return None


def stow(state: State) -> None:
    """Put every weapon the scenario gives a carrier (``carried_by``) aboard it (set-up)."""
    for w in sorted(state.units_by_id.values(), key=lambda u: u.id):
        cid = w.props.get("carried_by")
        if is_weapon(w) and isinstance(cid, str) and cid in state.units_by_id \
                and not w.location.startswith(ABOARD) and may_carry_why_not(state, w, state.unit(cid)) is None:
            w.location = ABOARD + cid


def load(state: State, weapon: Unit, unit: Unit) -> None:
    """``weapon`` goes aboard ``unit``."""
    weapon.location = ABOARD + unit.id
    weapon.props["carried_by"] = unit.id


def expend(state: State, weapon: Unit, rule: str, why: str) -> None:
    """SSA-22.13e, 22.14e: a missile or bomb used up leaves play (not a combat loss)."""
    from workbench.rulesets.ssa.losses import ELIMINATED

    weapon.location = ELIMINATED
    weapon.props.clear()
    state.emit("expended", side=weapon.side, rule=rule, unit=weapon.id, text=f"{weapon.id} expended: {why}")


def after_elimination(state: State, unit: Unit) -> None:
    """SSA-22.13a, 22.14a: the weapons a unit carries are eliminated with it."""
    from workbench.rulesets.ssa.losses import eliminate

    for w in aboard(state, unit):
        rule = "SSA-22.13a" if w.type == MISSILE else "SSA-22.14a"
        eliminate(state, w, rule, f" (carried by {unit.id}, which was eliminated)")
