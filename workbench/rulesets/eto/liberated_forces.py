"""Liberated forces (optional rule ETO-46.6).

With the rule on, a conquered nation's land units leave play for the Unplaced box instead of
the game (:func:`conquest.conquer`).  When the nation is liberated, one of them is placed in
its country at once, and one more in each winter seasonal turn after, on the liberating
partnership's side; they are not removed if the nation falls again.  The kernel places the
strongest unit first, in the country's first friendly city resource hex (else any friendly
hex of it) -- the liberating player's choice, made for him.
"""

from __future__ import annotations

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import conquest, politics, values
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-46.6"


def waiting(state: State, nation: str) -> list[Unit]:
    return sorted((u for u in state.units_by_id.values() if u.props.get("liberable") == nation),
                  key=lambda u: (-values.strength(state, u), u.id))


def place_one(state: State, nation: str) -> Unit | None:
    """One of ``nation``'s waiting units onto its liberated country (46.6)."""
    side = politics.war_state(state).get("liberated_side", {}).get(nation)
    units = waiting(state, nation)
    if side is None or not units:
        return None
    hm = state.map
    ta = terrain_arrays(state)
    home = ctl.home_mask(state, nation, original=True) & (ctl.control(state) == ctl.SIDE_CODE[side])
    spots = np.flatnonzero(home & ta.city_resource) if (home & ta.city_resource).any() else np.flatnonzero(home)
    if not len(spots):
        return None
    u = units[0]
    u.location, u.side = hm.label(int(spots[0])), side
    u.props = {"liberated_force": True}
    state.emit("placed", side=side, rule=RULE, unit=u.id,
               text=f"{u.id} of liberated {politics.nations(state)[nation]['name']} takes the field at {u.location}")
    return u


def on_liberation(state: State, nation: str) -> None:
    """40.3 with 46.6: the liberating player places one unit at once."""
    if not state.game.optional_rule(RULE):
        return
    liberator = politics.war_state(state).get("liberated", {}).get(nation)
    side = politics.side_of(state, liberator) if liberator else None
    if side is None:
        return
    politics.writable(state).setdefault("liberated_side", {})[nation] = side
    place_one(state, nation)


def winter(state: State, _step: object = None) -> None:
    """46.6: "During each winter seasonal turn thereafter, one more of the country's land units"."""
    if not state.game.optional_rule(RULE) or not state.turn_label.endswith("winter"):
        return
    for nation in sorted(politics.war_state(state).get("liberated_side", {})):
        place_one(state, nation)


if on_liberation not in conquest.LIBERATION_HOOKS:
    conquest.LIBERATION_HOOKS.append(on_liberation)
