"""Special units (SSA-22.G): which of the special-unit rules a game uses.

"The players decide prior to beginning play which ones they will use" (22.G).
Optional rule ``SSA-22`` switches on every special-unit rule; a scenario or the
set-up panel may instead switch on single parts (``SSA-22.1`` airborne,
``SSA-22.2`` marines, ``SSA-22.3`` mountain troops, ``SSA-22.10`` militia,
``SSA-22.11`` European volunteers, ``SSA-22.12`` Italians, ``SSA-22.13``
strategic missiles, ``SSA-22.14`` atomic weapons), as listed in
``tables/optional_rules.toml``.
"""

from __future__ import annotations

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.special import optional_rule_on

RULE = "SSA-22"
#: The parts of rule 22 a game may choose one by one (22.4-22.9 have no procedure: gap G-12).
PARTS = ("SSA-22.1", "SSA-22.2", "SSA-22.3", "SSA-22.10", "SSA-22.11", "SSA-22.12", "SSA-22.13", "SSA-22.14")
#: The counter flag (``tables/units.toml``) each part gives its powers to.
FLAGS = {"SSA-22.1": "airborne", "SSA-22.2": "marine", "SSA-22.3": "mountain", "SSA-22.10": "militia"}


def in_use(state: State, part: str) -> bool:
    """SSA-22.G: whether special-unit rule ``part`` (e.g. ``"SSA-22.3"``) is in use in this game."""
    return optional_rule_on(state, RULE) or optional_rule_on(state, part)


def is_special(state: State, unit: Unit, part: str) -> bool:
    """Whether ``unit`` carries the counter symbol of ``part`` and that rule is in use (22.G):
    with the rule off, a mountain division is just infantry."""
    return bool(values.value(state, unit, FLAGS[part], False)) and in_use(state, part)
