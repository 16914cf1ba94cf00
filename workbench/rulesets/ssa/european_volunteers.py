"""European volunteer divisions (SSA-22.11): free German 8-5s while Axis morale is High.

Each Mobilization phase with Axis morale High, Germany receives one European
volunteer division without paying MP (``tables/special_units.toml
[european_volunteers]``).  Bringing a reduced one back to full strength costs
the normal replacement (``mobilization.toml`` european_volunteer_division,
paid by the German track like any German unit, SSA-16.6).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.rulesets.ssa.free_units import grant_free_unit
from workbench.rulesets.ssa.special_units import in_use
from workbench.rulesets.ssa.subversion import morale_level

PART = "SSA-22.11"


def reinforce(state: State, step: Any = None) -> None:
    """SSA-22.11: one free European volunteer division while Axis morale is High."""
    spec = state.ruleset.tables["special_units"]["european_volunteers"]
    if not in_use(state, PART) or morale_level(state, "axis") != spec["when_axis_morale"]:
        return
    grant_free_unit(state, spec, "SSA-22.11", "Axis morale is High: a free European volunteer division")
