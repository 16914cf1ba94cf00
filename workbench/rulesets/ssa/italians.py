"""Italian units (SSA-22.12): they come while Axis morale is high and go home when it is poor.

* 22.12a: each Mobilization phase with Axis morale High, the Axis receives one
  more Italian unit as a reinforcement (``tables/special_units.toml [italians]``).
* 22.12b: the moment Axis morale is Poor ("low") every Italian unit in play
  leaves it, withdrawn to Italy: not eliminated in combat, so it costs no
  morale (SSA-21 losses count eliminations only).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.rulesets.ssa.free_units import grant_free_unit
from workbench.rulesets.ssa.losses import ELIMINATED
from workbench.rulesets.ssa.special_units import in_use
from workbench.rulesets.ssa.subversion import morale_level

PART = "SSA-22.12"


def spec(state: State) -> dict[str, Any]:
    return state.ruleset.tables["special_units"]["italians"]


def reinforce(state: State, step: Any = None) -> None:
    """SSA-22.12a: one extra Italian unit in the Mobilization phase while Axis morale is High."""
    if not in_use(state, PART) or morale_level(state, "axis") != spec(state)["when_axis_morale"]:
        return
    grant_free_unit(state, spec(state), "SSA-22.12a", "Axis morale is High: one more Italian unit")


def withdraw_at_mobilization(state: State, step: Any = None) -> None:
    """SSA-22.12b, checked again each Mobilization phase (a game may start with Poor morale)."""
    withdraw_if_poor(state)


def withdraw_if_poor(state: State) -> None:
    """SSA-22.12b: at Poor Axis morale every Italian unit is removed at once (not a combat loss)."""
    s = spec(state)
    if not in_use(state, PART) or morale_level(state, "axis") != s["withdrawn_when_axis_morale"]:
        return
    gone = sorted(u.id for u in state.units_by_id.values()
                  if u.nation == s["nation"] and u.location not in (ELIMINATED, s["withdrawn_to"], "unplaced"))
    if not gone:
        return
    for uid in gone:
        u = state.unit(uid)
        u.location = s["withdrawn_to"]
        u.props.clear()
    state.emit("withdrawn", side="axis", rule="SSA-22.12b", units=gone,
               text=f"Axis morale is Poor: the Italians go home ({', '.join(gone)})")
