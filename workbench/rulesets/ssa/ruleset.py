"""The SS Amerika ruleset object: tables, sequence of play, order kinds, procedures."""

from __future__ import annotations

from pathlib import Path

from workbench.engine.ruleset import Ruleset
from workbench.engine.state import State


class SSARuleset(Ruleset):
    """SS Amerika (SSA-1.0): one turn a month; Mobilization stage then two player turns (SSA-4.G)."""

    name = "ssa"
    version = "0.1"
    sides = ("axis", "allies")
    #: The four off-map holding areas (SSA-3.1c) plus where unbuilt units wait.
    boxes = ("Europe", "Latin America", "Pacific", "Far East", "Unplaced", "Force pool")

    def __init__(self) -> None:
        super().__init__(Path(__file__).parent / "tables")

    def condition(self, state: State, when: str) -> bool:
        """``special:X`` is on when the scenario has a special rule with effect X."""
        if when.startswith("special:"):
            effect = when.split(":", 1)[1]
            rules = state.game.scenario.raw.get("special_rules", [])
            return any(isinstance(r, dict) and r.get("effect") == effect for r in rules)
        return super().condition(state, when)
