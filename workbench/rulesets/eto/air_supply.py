"""Air units out of supply (ETO-33.7).

An air unit is marked out of supply in the End phase's Supply step like a land unit (33.3,
:func:`supply.supply_step`) but never depleted for it.  While marked it flies short: "only
missions in its base hex, or any adjacent hex" (:func:`mission_range`); in a Naval and Air
phase it may instead change base once, one hop of up to twice its range
(:func:`change_base_why_not`).
"""

from __future__ import annotations

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units

RULE = "ETO-33.7"


def marked(u: Unit) -> bool:
    """ETO-33.7: "An air unit suffers no ill effect from lack of supply unless it is marked"."""
    return bool(u.props.get("oos"))


def mission_range(state: State, u: Unit) -> int:
    """ETO-33.7: how far ``u`` may fly to a mission's target (or an interception): its range, or
    one hex (its base hex or an adjacent one) while marked out of supply."""
    rng = air_units.air_range(state, u)
    return min(rng, int(state.ruleset.tables["air"]["out_of_supply"]["mission_hexes"])) if marked(u) else rng


def change_base_why_not(state: State, units: list[Unit], via: list[str], start: str, to: str,
                        phase: str) -> Refusal | None:
    """ETO-33.7: a marked unit changes base only in a Naval and Air phase, one hop ("It cannot
    change base three times ... it is allowed only one hop"), within twice its range (the normal
    hop, checked by the order); in an Offensive or End phase only to a base in an adjacent hex
    (a mission "in its base hex, or any adjacent hex", docs/rulings-eto.md)."""
    bad = [u for u in units if marked(u)]
    if not bad:
        return None
    who = ", ".join(u.id for u in bad)
    if len(via) + 1 > int(state.ruleset.tables["air"]["out_of_supply"]["change_base_hops"]):
        return Refusal(RULE, f"{who} {'is' if len(bad) == 1 else 'are'} out of supply: a change of base makes only "
                             "one hop, not three")
    if phase != "naval-air":
        limit = min(mission_range(state, u) for u in bad)
        if state.map.distance(start, to) > limit:
            return Refusal(RULE, f"{who} {'is' if len(bad) == 1 else 'are'} out of supply: outside a Naval and Air "
                                 f"phase it flies only to its base hex or an adjacent hex ({to} is "
                                 f"{state.map.distance(start, to)} hexes away)")
    return None


def target_why_not(state: State, units: list[Unit], to: str) -> Refusal | None:
    """ETO-33.7: a marked unit flies a mission "in its base hex, or any adjacent hex" only."""
    for u in units:
        if marked(u) and state.map.has_hex(u.location) and state.map.distance(u.location, to) > mission_range(state, u):
            return Refusal(RULE, f"{u.id} is out of supply: it flies missions only over its base hex or an adjacent "
                                 f"hex; {to} is {state.map.distance(u.location, to)} hexes from {u.location}")
    return None
