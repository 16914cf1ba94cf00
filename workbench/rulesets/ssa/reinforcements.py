"""Scenario reinforcements (``[[reinforcements]]`` in the scenario files).

A reinforcement entry arrives on its turn (``turn = "YYYY-MM"``) and is placed
like a deployment group: cycling over its ``default`` places, spilling to the
nearest hex its ``where`` allows with room.  Entries with a ``trigger``
instead of a turn arrive when rules code fires that trigger (an event such as
a country entering the war).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa.deployment import place_units
from workbench.rulesets.ssa.special import start_reduced


def new_units(state: State, entry: dict[str, Any], *, side: str | None = None,
              at: str = "unplaced") -> list[Unit]:
    """The units of a ``[[reinforcements]]`` entry not yet in the game (``count`` copies get
    ``-1``, ``-2`` ... ids), owned by ``side`` (default: their nation's scenario side), at ``at``."""
    sc = state.game.scenario
    types = state.ruleset.unit_types
    out = []
    for spec in entry.get("units", []):
        count = int(spec.get("count", 1))
        ids = [spec["id"]] if count == 1 else [f"{spec['id']}-{n}" for n in range(1, count + 1)]
        for uid in ids:
            if uid in state.units_by_id:
                continue
            out.append(Unit(uid, side or sc.side_of(spec["nation"]), spec["nation"], spec["type"],
                            types[spec["type"]].get("size"), at, bool(spec.get("reduced", False))))
    return out


def arrive(state: State, entry: dict[str, Any]) -> list[Unit]:
    """Bring one reinforcement entry onto the map (or into its box)."""
    units = new_units(state, entry)
    if not units:
        return []
    start_reduced(state, units)
    side = entry.get("side", units[0].side)
    for u in units:
        state.units_by_id[u.id] = u
    for u in place_units(state, units, side, entry):
        u.location = "Force pool"  # nowhere legal this turn: it waits off the map
    state.emit("reinforcements", side=side, rule=entry.get("rule", "SSA-SC"),
               text=f"{len(units)} units arrive: {', '.join(u.id for u in units)}",
               units=[u.id for u in units], entry=entry.get("id"))
    return units


def arrive_due(state: State) -> None:
    """Every entry whose turn is the current one."""
    for entry in state.game.scenario.raw.get("reinforcements", []):
        if entry.get("turn") == state.turn_label and entry.get("id") not in state.markers.get("arrived", []):
            arrive(state, entry)
            state.markers.setdefault("arrived", []).append(entry.get("id"))
