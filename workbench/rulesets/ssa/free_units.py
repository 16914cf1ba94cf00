"""Units a rule hands out free in the Mobilization phase (SSA-22.11, 22.12a)."""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit


def grant_free_unit(state: State, spec: dict[str, Any], rule: str, why: str) -> list[str]:
    """Create ``spec["count"]`` units of ``spec["type"]`` / ``spec["nation"]`` at ``spec["arrives"]``,
    paying nothing; ids are ``<nation>-<type>-f<n>`` from one counter per game (deterministic)."""
    utype, nation = spec["type"], spec["nation"]
    try:
        side = state.game.scenario.side_of(nation)
    except KeyError:  # the scenario has no such nation: nothing to give
        return []
    size = state.ruleset.unit_types[utype].get("size")
    out = []
    for _ in range(int(spec.get("count", 1))):
        n = int(state.tracks.get("free_units", 0)) + 1
        state.tracks["free_units"] = n
        uid = f"{nation}-{utype}-f{n}"
        state.units_by_id[uid] = Unit(uid, side, nation, utype, size, spec["arrives"])
        out.append(uid)
    state.emit("free_units", side=side, rule=rule, units=out, at=spec["arrives"],
               text=f"{why}: {', '.join(out)} arrive{'s' if len(out) == 1 else ''} in {spec['arrives']}")
    return out
