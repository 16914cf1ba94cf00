"""Militia divisions (SSA-22.10): infantry that draw supply only from a nearby friendly town.

"Militia divisions may receive supply only from a friendly non-industrial
city, if that city is within the militia unit's movement factor."  With rule
22.10 in use, a militia unit on the map is in supply exactly when a supply
line of at most its MF (its class's terrain costs, the usual enemy-ZOC and
enemy-unit limits of SSA-8.4 and 10.1) reaches a non-industrial city its side
controls.  Industrial cities, logistic units, convoys and air supply do not
supply it.  In a holding area the holding-area rules (SSA-15.6) apply as to
any unit: a box has no cities (docs/rulings-ssa.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.occupation import city_hexes, controls_city
from workbench.rulesets.ssa.special_units import is_special

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

PART = "SSA-22.10"
TOWN = "non-industrial"


def is_militia(state: State, unit: Unit) -> bool:
    """A militia division while rule 22.10 is in use (22.G)."""
    return is_special(state, unit, PART)


def towns(state: State, side: str) -> list[int]:
    """SSA-22.10: the non-industrial cities ``side`` controls, its militia's only supply points."""
    return [i for i in city_hexes(state, TOWN) if controls_city(state, side, i)]


def supplied(state: State, unit: Unit, graph_t: csr_matrix, points: list[int],
             dist: np.ndarray | None = None) -> bool:
    """SSA-22.10: a line of at most the unit's MF on ``graph_t`` (the reversed supply step graph of
    its terrain class) reaches one of ``points`` (:func:`towns`).  ``dist``: the costs from
    ``points`` on ``graph_t`` when the caller has them (one trace for all militia of a class)."""
    from workbench.rulesets.ssa.supply import cost_to

    if not points:
        return False
    if dist is None:
        dist = cost_to(graph_t, points)[0]
    return bool(dist[state.map.index(unit.location)] <= values.mf(state, unit))
