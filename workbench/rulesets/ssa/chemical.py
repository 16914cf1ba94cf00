"""Chemical warfare (optional rule SSA-28): an attack declared chemical shifts the odds and stiffens
the enemy's morale.

An attack is made chemical with ``"chemical": true`` on the attack order itself: the land
``attack`` (SSA-11), the air ``interdict`` against ground or naval units (SSA-12.2a-b) and the
``naval_attack`` (SSA-13).  Attack only (28.1): no order of the defender carries it.

* Eligibility (28.2, 28.5): at least one unit taking part must be able to use chemicals and be
  supplied: an air unit with a bombardment factor, a Battle Fleet, or a land unit of division
  size.  So a brigade may attack with chemicals when air units with a bombardment factor or a
  Battle Fleet support it (28.5).  Air units on a combat mission flew from a supplied base
  (SSA-6.3b) and fleets have no supply rule on the map: both count as supplied
  (docs/rulings-ssa.md, SSA-28.2).
* Shifts (``crt.toml [shifts]`` chemical_*): land attacks and air attacks on ground units +1
  column (28.3a); in the first combat phase chemicals are used, +3 instead (28.4a) and +1 on
  attacks against naval units (28.4b; none later: 28.3 names no naval shift).
* Morale (``morale.toml [changes]``): the enemy gains 1 per chemical attack (28.3b), 2 in that
  first phase (28.4c), whenever the scenario keeps a morale track (a printed change, like 30.2d).
* The first phase is the first combat phase in which *either* player uses chemicals
  (``markers["chemical_first"]`` = its turn and phasing side; docs/rulings-ssa.md A26): after it
  both armies are ready for gas.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.special import optional_rule_on

RULE = "SSA-28"
MARK = "chemical_first"


def rule_on(state: State) -> bool:
    """Whether optional rule SSA-28 is in use (switched on, not barred by the scenario)."""
    return optional_rule_on(state, RULE)


def _phase(state: State) -> dict[str, Any]:
    return {"turn": state.turn_label, "side": state.phasing}


def first_phase(state: State) -> bool:
    """SSA-28.4: is this the first combat phase in which chemicals are used (none used before, or
    the first use was in this very phase)?"""
    mark = state.markers.get(MARK)
    return mark is None or mark == _phase(state)


def shift(state: State, against: str) -> tuple[int, str, str] | None:
    """The column shift of a chemical attack on ``against`` = ``"land"`` (land attacks and air
    attacks on ground units) or ``"naval"``: (columns right, why, rule); ``None`` for no shift."""
    s = state.ruleset.tables["crt"]["shifts"]
    first = first_phase(state)
    if against == "naval":
        spec = s["chemical_first_phase_naval"] if first else None
    else:
        spec = s["chemical_first_phase"] if first else s["chemical_normal"]
    if spec is None:
        return None
    why = "chemical attack" + (" in the first chemical combat phase" if first else "")
    return int(spec["columns"]), why, spec["rule"]


def _able(state: State, u: Unit, supplied: dict[str, bool]) -> bool:
    """SSA-28.2: an air unit with a bombardment factor, a Battle Fleet, a supplied division (or
    corps: a corps counts as a division for all purposes, SSA-9.1c)."""
    dom = values.domain(state, u)
    if dom == "air":
        return float(values.value(state, u, "bombardment", 0) or 0) > 0
    if dom == "naval":
        return u.type == "battle_fleet"
    return values.is_land(state, u) and values.division_equivalents(state, u) >= 1 and supplied.get(u.id, False)


def refusal(state: State, side: str, units: list[Unit]) -> IllegalOrder | None:
    """SSA-28.1, 28.2, 28.5: why ``units`` (every unit taking part in one attack, supporting air
    and fleets included) may not attack with chemicals, or ``None``."""
    if not rule_on(state):
        return IllegalOrder(RULE, "chemical warfare (optional rule 28) is not in use in this game")
    from workbench.rulesets.ssa.supply import supply_status

    supplied = supply_status(state, side)
    if not any(_able(state, u, supplied) for u in units):
        return IllegalOrder("SSA-28.2", "no unit in this attack can use chemical warfare: it takes a supplied "
                            "division-size land unit, an air unit with a bombardment factor or a Battle Fleet "
                            "(supporting air or fleets let smaller land units attack with chemicals, SSA-28.5)")
    return None


def used(state: State, side: str, where: str) -> None:
    """SSA-28.3b, 28.4c: a chemical attack was made; the enemy's morale rises (2 in the first
    chemical combat phase, else 1).  The first phase is remembered."""
    first = first_phase(state)
    if MARK not in state.markers:
        state.markers[MARK] = _phase(state)
    spec = state.ruleset.tables["morale"]["changes"]["chemical_first_phase" if first else "chemical_attack"]
    from workbench.rulesets.ssa import morale
    from workbench.rulesets.ssa.movement import other

    state.emit("chemical", side=side, rule=spec["rule"], hex=where, first_phase=first,
               text=f"{side} attacks {where} with chemicals" + (" (first chemical combat phase)" if first else ""))
    morale.change(state, other(side), spec["delta"], spec["rule"], f"chemical attack on {where}")
