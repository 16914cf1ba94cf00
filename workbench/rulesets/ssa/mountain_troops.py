"""Mountain troops (SSA-22.3): infantry trained for mountains, icecap and tundra.

With special-unit rule 22.3 in use, a unit whose counter has the mountain
symbol (``mountain = true`` in ``tables/units.toml``):

* pays 2 MF to enter mountain, icecap and tundra hexes (22.3a; the TEC's
  ``mountain_unit_cost``), for movement and for tracing supply, which reads
  the same costs;
* projects its ZOC into every mountain hex next to it (22.3b);
* defending in a mountain hex gives the defender one more column (22.3c);
* attacking into a mountain hex gives the attacker one column (22.3d);
* attacking alone, mountain units ignore the Freeze column shift (22.3e).

Everything else is as infantry.  The shifts are ``tables/crt.toml [shifts]``.
"""

from __future__ import annotations

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.special_units import is_special

PART = "SSA-22.3"
MOUNTAIN = "mountains"


def is_mountain(state: State, unit: Unit) -> bool:
    """A mountain-trained unit while rule 22.3 is in use (22.G)."""
    return is_special(state, unit, PART)


def move_class(state: State, unit: Unit) -> bool | str:
    """The terrain-cost class a land unit moves and traces supply with: ``"leader"`` (1 MF a
    hex, SSA-24.1), ``"mountain"`` (SSA-22.3a), else mechanized (True) or not (False)."""
    if values.is_leader(state, unit):
        return "leader"
    if is_mountain(state, unit) and not values.is_mech(state, unit):
        return "mountain"
    return values.is_mech(state, unit)


def _in_mountains(state: State, label: str) -> bool:
    hm = state.map
    return hm.has_hex(label) and hm.hexes["terrain"][hm.index(label)] == MOUNTAIN


def combat_shifts(state: State, attackers: list[Unit], defenders: list[Unit],
                  targets: list[str]) -> list[tuple[int, str, str]]:
    """SSA-22.3c-d: the mountain-troop column shifts of one land attack."""
    shifts = state.ruleset.tables["crt"]["shifts"]
    out: list[tuple[int, str, str]] = []
    if any(is_mountain(state, u) and _in_mountains(state, u.location) for u in defenders):
        s = shifts["mountain_unit_defending_in_mountains"]
        out.append((int(s["columns"]), "mountain troops defending in mountains", str(s["rule"])))
    if any(_in_mountains(state, t) for t in targets) and any(is_mountain(state, u) for u in attackers):
        s = shifts["mountain_unit_attacking_into_mountains"]
        out.append((int(s["columns"]), "mountain troops attacking into mountains", str(s["rule"])))
    return out


def ignore_freeze(state: State, attackers: list[Unit]) -> bool:
    """SSA-22.3e: mountain units that are the only land units attacking ignore Freeze."""
    return bool(attackers) and all(is_mountain(state, u) for u in attackers)
