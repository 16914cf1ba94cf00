"""Leaders (SSA-24): what a leader is, when it dies, and what its letter does.

Always in force, because five of six scenarios set leaders up (docs/rulings-ssa.md A22, A28):

* a leader is a mechanized land unit of CF 0 and MF 10 that pays 1 MF a land hex
  (SSA-24.1; ``terrain.hexside_steps(..., "leader")``), is always in supply (24.2), has no ZOC
  and does not stop enemy movement (24.3: zoc.py, movement.py);
* it is eliminated when every friendly land unit stacked with it is eliminated, or when enemy
  land units enter its hex (24.4: :func:`after_elimination`, :func:`enemy_entered`); when the
  last unit of its stack retreats, it goes along (:func:`follow_retreat`, ruling A28).

With optional rule 24 on, the letter on each counter (``props["letter"]``: the scenario's
``letter`` key, else drawn at random at set-up, SSA-24.6) acts (24.7, 24.8):

* "A": an attack by mechanized units stacked with it shifts one column right; mechanized
  units that start the Mechanized Movement phase with it have MF 10 while it moves with them
  (:func:`armor_bonus_mf`, :func:`drag_along`);
* "G": any land combat its side's units in its hex take part in shifts one column its way;
* "F" / "B": the leader rides a fighter / bomber from its hex (the fly or intercept order's
  ``leader``): one column for that fighter in air-to-air combat, one column right for that
  bomber's strategic bombing.

Any leader may ride any air unit (``leader`` on a fly order, mission or transfer) or board any
naval unit (``embark``), and dies if its carrier does (24.5: :func:`after_elimination`).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values

RULE = "SSA-24"
LETTER_NAMES = {"A": "armored forces leader", "G": "ground forces leader", "F": "fighter leader",
                "B": "bomber leader"}


def rule_on(state: State) -> bool:
    """Whether optional rule SSA-24 is switched on for this game."""
    return RULE in state.game.options.get("optional_rules", [])


def is_leader(state: State, unit: Unit) -> bool:
    return values.is_leader(state, unit)


def letter(state: State, unit: Unit) -> str | None:
    """SSA-24.7: the letter printed on this leader's counter (None: a named leader with no letter)."""
    return unit.props.get("letter")


def acting(state: State, unit: Unit, code: str) -> bool:
    """Whether ``unit`` is a leader whose letter ``code`` acts now (optional rule 24 on)."""
    return rule_on(state) and values.is_leader(state, unit) and unit.props.get("letter") == code


def leaders_at(state: State, side: str, label: str, code: str | None = None) -> list[Unit]:
    """``side``'s leaders standing in ``label`` (not riding an aircraft), with letter ``code``."""
    return sorted((u for u in state.units_by_id.values() if u.side == side and u.location == label
                   and values.is_leader(state, u) and not u.props.get("riding")
                   and not u.props.get("carried")
                   and (code is None or u.props.get("letter") == code)), key=lambda u: u.id)


def assign_letters(state: State) -> None:
    """SSA-24.6, 24.7: leaders are selected at random, so each leader counter without a letter
    (``types.leader.letters``; named leaders have none) is given one by a die."""
    if not rule_on(state):
        return
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if not values.is_leader(state, u) or u.props.get("letter"):
            continue
        letters = values.value(state, u, "letters")
        if not letters:
            continue
        (die,) = state.roll(purpose=f"which leader counter {u.id} is ({'/'.join(letters)})", rule="SSA-24.6",
                            sides=len(letters), side=u.side)
        u.props["letter"] = letters[die - 1]
        state.emit("leader", side=u.side, rule="SSA-24.6", unit=u.id, letter=u.props["letter"],
                   text=f"{u.id} is an \"{u.props['letter']}\" leader ({LETTER_NAMES[u.props['letter']]})")


def card_note(state: State, unit: Unit) -> str:
    """SSA-24.7: the counter's letter for the unit card."""
    code = unit.props.get("letter")
    if code:
        return f"leader \"{code}\": {LETTER_NAMES.get(code, '')}"
    special = values.value(state, unit, "always_at")
    return "named leader" + (f" (always set up in {special})" if special else "")


# -- elimination (24.4, 24.5) ----------------------------------------------------------------------
def _companions(state: State, side: str, label: str) -> list[Unit]:
    return [u for u in state.units_by_id.values() if u.side == side and u.location == label
            and values.is_land(state, u) and not values.is_leader(state, u) and not u.props.get("carried")]


def after_elimination(state: State, unit: Unit, start: str) -> None:
    """SSA-24.4: a leader is eliminated when all the units it is stacked with are eliminated;
    SSA-24.5: a leader riding an air or naval unit is eliminated with it."""
    from workbench.rulesets.ssa.losses import eliminate

    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if values.is_leader(state, u) and (u.props.get("riding") == unit.id or u.props.get("carried") == unit.id):
            eliminate(state, u, "SSA-24.5", f" (aboard {unit.id}, which was eliminated)")
    if values.is_leader(state, unit) or not start.isdigit() or not values.is_land(state, unit):
        return
    if _companions(state, unit.side, start):
        return
    for ldr in leaders_at(state, unit.side, start):
        eliminate(state, ldr, "SSA-24.4", f" (every unit stacked with it in {start} was eliminated)")


def enemy_entered(state: State, mover: Unit, labels: list[str]) -> None:
    """SSA-24.4: a leader is eliminated if its hex is entered by enemy land units."""
    from workbench.rulesets.ssa.losses import eliminate

    if not values.is_land(state, mover):
        return
    for label in labels:
        for ldr in leaders_at(state, "allies" if mover.side == "axis" else "axis", label):
            eliminate(state, ldr, "SSA-24.4", f" ({mover.id} entered {label})")


def follow_retreat(state: State, unit: Unit, start: str) -> None:
    """Ruling A28: when the last friendly land unit of a leader's hex retreats, its leaders go
    with it (they took no part in the combat, SSA-24.1 CF 0, but share the stack's fate)."""
    if values.is_leader(state, unit) or not start.isdigit() or _companions(state, unit.side, start):
        return
    for ldr in leaders_at(state, unit.side, start):
        ldr.location = unit.location
        state.emit("retreat", side=ldr.side, rule="SSA-24.4", unit=ldr.id, start=start, to=unit.location,
                   text=f"{ldr.id} goes with {unit.id}: {start} → {unit.location}")


# -- letters (24.8) ---------------------------------------------------------------------------------
def land_combat_shifts(state: State, side: str, attackers: list[Unit], targets: list[str]) -> list[tuple[int, str, str]]:
    """SSA-24.8-A, 24.8-G: the leader column shifts of a land attack (positive: right)."""
    if not rule_on(state):
        return []
    enemy = "allies" if side == "axis" else "axis"
    out: list[tuple[int, str, str]] = []
    att_hexes = sorted({u.location for u in attackers})
    mech_hexes = sorted({u.location for u in attackers if values.is_mech(state, u)})
    a = [ldr for h in mech_hexes for ldr in leaders_at(state, side, h, "A")]
    if a:
        out.append((1, f"\"A\" leader {a[0].id} with attacking mechanized units", "SSA-24.8-A"))
    g_att = [ldr for h in att_hexes for ldr in leaders_at(state, side, h, "G")]
    if g_att:
        out.append((1, f"\"G\" leader {g_att[0].id} with the attackers", "SSA-24.8-G"))
    g_dfn = [ldr for h in targets for ldr in leaders_at(state, enemy, h, "G")]
    if g_dfn:
        out.append((-1, f"\"G\" leader {g_dfn[0].id} with the defenders", "SSA-24.8-G"))
    return out


MECH_PHASE = "mechanized-movement"


def mark_armor_stacks(state: State, step: Any = None) -> None:
    """SSA-24.8-A: at the start of the Mechanized Movement phase, each mechanized unit stacked
    with a friendly "A" leader is tied to it (``props["a_leader"]``)."""
    if not rule_on(state):
        return
    side = state.phasing
    for u in state.units_by_id.values():
        u.props.pop("a_leader", None)
    for ldr in state.units_by_id.values():
        if ldr.side != side or not acting(state, ldr, "A") or not ldr.location.isdigit() or ldr.props.get("riding"):
            continue
        for u in state.units_by_id.values():
            if u.side == side and u.location == ldr.location and values.is_mech(state, u) \
                    and not values.is_leader(state, u) and values.is_land(state, u) and not u.props.get("carried"):
                u.props["a_leader"] = ldr.id


def _bonus_leader(state: State, unit: Unit) -> Unit | None:
    lid = unit.props.get("a_leader")
    if not lid or state.step is None or not state.step.key.endswith(MECH_PHASE):
        return None
    ldr = state.units_by_id.get(lid)
    if ldr is None or ldr.location != unit.location:
        return None
    for other in state.units_by_id.values():  # the leader must stay with units that used the bonus
        if other is not unit and other.props.get("a_leader") == lid and other.location == ldr.location \
                and float(other.props.get("mf_spent", 0)) > values.mf(state, other):
            return None
    return ldr


def armor_bonus_mf(state: State, unit: Unit, mf: float) -> float:
    """SSA-24.8-A: a mechanized unit stacked with an "A" leader throughout the Mechanized
    Movement phase has MF 10 (the leader moves with it, :func:`drag_along`)."""
    if _bonus_leader(state, unit) is None:
        return mf
    return max(mf, float(values.value(state, state.units_by_id[unit.props["a_leader"]], "mf", 10)))


def bonus_leader(state: State, unit: Unit) -> Unit | None:
    """SSA-24.8-A: the "A" leader whose MF 10 ``unit`` moves on now, or None."""
    return _bonus_leader(state, unit)


def drag_along(state: State, ldr: Unit, unit: Unit, path: list[str]) -> None:
    """SSA-24.8-A: a unit moving on the "A" leader's MF 10 takes the leader with it (1 MF a hex)."""
    ldr.location = path[-1]
    ldr.props["mf_spent"] = float(ldr.props.get("mf_spent", 0)) + len(path)
    ldr.props["moved"] = state.step.path if state.step else True
    state.emit("move", side=ldr.side, rule="SSA-24.8-A", unit=ldr.id, to=path[-1],
               text=f"{ldr.id} moves with {unit.id} to {path[-1]} (\"A\" leader)")


def leader_move_refusal(state: State, unit: Unit) -> IllegalOrder | None:
    """SSA-24.8-A: an "A" leader may not leave units that have moved on its MF 10 this phase."""
    if not values.is_leader(state, unit) or not rule_on(state):
        return None
    for u in state.units_by_id.values():
        if u.props.get("a_leader") == unit.id and u.location == unit.location \
                and float(u.props.get("mf_spent", 0)) > values.mf(state, u):
            return IllegalOrder("SSA-24.8-A", f"{unit.id} must stay with {u.id}, which moved on the \"A\" "
                                "leader's movement factor of 10 this phase")
    return None


def air_leader_refusal(state: State, air: Unit, leader_id: Any) -> IllegalOrder | None:
    """SSA-24.5: any air unit may carry a leader that begins the phase in its hex (SSA-24.8-F/B:
    the movement or interception phase).  Only an "F" leader on a fighter or a "B" leader on a
    bomber shifts combat (:func:`air_shift`); others just travel."""
    ldr = state.units_by_id.get(leader_id) if isinstance(leader_id, str) else None
    if ldr is None or ldr.side != air.side or not values.is_leader(state, ldr):
        return IllegalOrder("SSA-24.5", f"{leader_id!r} is not one of your leaders")
    if ldr.location != air.location or ldr.props.get("moved") or ldr.props.get("riding") \
            or ldr.props.get("carried"):
        return IllegalOrder("SSA-24.5", f"{ldr.id} must begin the phase in {air.id}'s hex ({air.location}) "
                            "to go with it")
    if any(r.id != ldr.id for r in riders(state, air)):
        return IllegalOrder("SSA-24.5", f"{air.id} already carries a leader")
    return None


def _shifting(state: State, air: Unit, code: str) -> bool:
    """SSA-24.8-F/B: an "F" leader helps a fighter, a "B" leader a bomber."""
    if code == "F":
        return "fighter" in air.type and bool(values.value(state, air, "can_intercept", True))
    return "bomber" in air.type


def board(state: State, air: Unit, leader_id: str) -> None:
    """SSA-24.8-F/B, 24.5: the leader flies with the aircraft."""
    ldr = state.unit(leader_id)
    ldr.props["riding"] = air.id
    ldr.location = air.location
    state.emit("leader", side=ldr.side, rule="SSA-24.8", unit=ldr.id,
               text=f"{ldr.id} goes with {air.id}")


def riders(state: State, air: Unit) -> list[Unit]:
    return [u for u in state.units_by_id.values() if u.props.get("riding") == air.id]


def follow_air(state: State, air: Unit) -> None:
    """A leader riding an aircraft is where the aircraft is; it gets off once it has landed."""
    for ldr in riders(state, air):
        ldr.location = air.location
        if not air.props.get("flying"):
            ldr.props.pop("riding", None)


def air_shift(state: State, units: list[Unit], code: str) -> int:
    """SSA-24.8-F/B: one column when a fighter (``"F"``) or bomber (``"B"``) in ``units`` carries
    a leader of that letter (a leader riding another aircraft only travels, 24.5)."""
    if not rule_on(state):
        return 0
    return 1 if any(r.props.get("letter") == code and _shifting(state, u, code)
                    for u in units for r in riders(state, u)) else 0
