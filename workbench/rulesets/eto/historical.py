"""Optional historical restrictions that act on ships (ETO-46.2).

46.2: until the Axis controls the Suez Canal or Gibraltar, German STPs stay out of the
Mediterranean and Italian STPs inside it (Gibraltar counts as both).  Asked by the sail order.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto import naval_units, politics, sea_spaces

RULE = "ETO-46.2"


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["stp_restrictions"]


def _med(state: State) -> set[str]:
    return set(state.ruleset.tables["force_pools"]["suez_adds"]["regions"]["mediterranean_seas"])


def lifted(state: State) -> bool:
    """The Axis controls the Suez Canal (every entry hex, 37.7) or Gibraltar."""
    from workbench.rulesets.eto import suez

    hm = state.map
    if suez.closed(state):
        return True
    return any(ctl.control(state)[hm.index(hm.hex_of(p))] == ctl.AXIS for p in _t(state)["until_axis_holds"])


def stp_why_not(state: State, units: list[Unit], spaces: list[str]) -> Refusal | None:
    """ETO-46.2: may these ships' STPs pass through ``spaces``?"""
    if not state.game.optional_rule(RULE):
        return None
    t = _t(state)
    nations = {u.nation for u in units if naval_units.is_stp(state, u)}
    if not nations & {t["german"], t["italian"]} or lifted(state):
        return None
    med = _med(state)
    hm = state.map
    both = {hm.hex_of(p) for p in t["both_sides"]}
    for space in spaces:
        if space in both:
            continue
        inside = sea_spaces.home_area(state, space) in med
        if t["german"] in nations and inside:
            return Refusal(RULE, f"German STPs may not enter the Mediterranean ({space}) until the Axis controls "
                           "the Suez Canal or Gibraltar")
        if t["italian"] in nations and not inside:
            return Refusal(RULE, f"Italian STPs may not leave the Mediterranean ({space}) until the Axis controls "
                           "the Suez Canal or Gibraltar")
    return None
