"""The ETO ruleset object: tables, calendar, sequence of play, order kinds, procedures."""

from __future__ import annotations

from pathlib import Path

from workbench.engine.ruleset import Ruleset, month_range
from workbench.engine.state import State

#: Which seasonal turn comes before a month (ETO-SOP 1.2: each year starts with winter).
SEASON_BEFORE = {1: "winter", 4: "spring", 7: "summer", 10: "autumn"}


class ETORuleset(Ruleset):
    """ETO: monthly turns, with a seasonal turn before January, April, July and October."""

    name = "eto"
    version = "0.1"
    sides = ("axis", "allies")
    boxes = ("Force pool", "Replenishment", "Unplaced")

    def __init__(self) -> None:
        super().__init__(Path(__file__).parent / "tables")

    def calendar(self, first: str, last: str) -> list[str]:
        """Monthly labels ``1941-06`` plus seasonal ones ``1941-autumn`` before Oct (ETO-SOP)."""
        out: list[str] = []
        for label in month_range(first, last):
            y, m = (int(x) for x in label.split("-"))
            if m in SEASON_BEFORE and label != first:
                out.append(f"{y:04d}-{SEASON_BEFORE[m]}")
            out.append(label)
        return out

    def turn_root(self, state: State) -> str:
        return "seasonal" if state.turn_label[5:].isalpha() else "monthly"
