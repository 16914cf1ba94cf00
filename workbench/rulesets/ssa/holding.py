"""Off-map holding areas in play (SSA-15): attrition, control of the boxes, the 1941 Pacific fall.

Box control starts from the scenario's ``[control]`` ``"box.<name>"`` entries
and is kept in ``markers["box_control"]``.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.rulesets.ssa.losses import eliminate
from workbench.rulesets.ssa.special import special_rules, turn_number


def box_control(state: State) -> dict[str, str]:
    ctrl = state.markers.get("box_control")
    if ctrl is None:
        ctrl = {k[4:]: v for k, v in state.game.scenario.raw.get("control", {}).items()
                if k.startswith("box.") and isinstance(v, str)}
        state.markers["box_control"] = ctrl
    return ctrl


def attrition(state: State, step: Any = None) -> None:
    """SSA-15.3: in the Axis combat phase the Axis rolls 1d6 for each Allied unit in Europe or the
    Far East, eliminating it on 1-2.  SSA-15.4: in the Allied combat phase, when the Allies hold
    the Pacific box, they roll for each Axis unit there, eliminating it on 1."""
    phasing = state.phasing
    boxes = state.ruleset.tables["holding_areas"]["boxes"]
    for box, spec in boxes.items():
        rule = spec.get("attrition")
        if not isinstance(rule, dict) or rule["rolled_by"] != phasing:
            continue
        holder = rule.get("only_when_controlled_by")
        if holder and box_control(state).get(box) != holder:
            continue
        victims = sorted((u for u in state.units_by_id.values()
                          if u.location == box and u.side == rule["applies_to"]), key=lambda u: u.id)
        for u in victims:
            (die,) = state.roll(purpose=f"holding-area attrition of {u.id} in {box}", rule=rule["rule"],
                                side=phasing)
            if die in rule["eliminated_on"]:
                eliminate(state, u, rule["rule"], f" by attrition in {box}")


def pacific_fall(state: State, step: Any = None) -> None:
    """SSA-SC1 SR7: each turn a 1d6 at most the turn number hands the Pacific to Japan; Japanese
    forces deploy there (moving no further that turn) and Allied units there are eliminated."""
    for r in special_rules(state, "pacific_fall_check"):
        if state.markers.get("pacific_fallen"):
            return
        (die,) = state.roll(purpose="does the Pacific fall to Japan?", rule=r.get("rule", "SSA-SC1 SR7"))
        if die > turn_number(state):
            continue
        state.markers["pacific_fallen"] = True
        box = r.get("move_to", "Pacific")
        box_control(state)[box] = r.get("box_control_to", "axis")
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side == "allies" and u.location == r.get("eliminate_allied_in", box):
                eliminate(state, u, r.get("rule", "SSA-SC1 SR7"), " as the Pacific falls")
            elif u.nation == r.get("frozen_nation", "JA") and u.location == "Far East":
                u.location = box
                u.props["moved"] = "pacific-fall"
                u.props["sailed"] = True
        state.emit("pacific_falls", side="axis", rule=r.get("rule", "SSA-SC1 SR7"),
                   text=f"the Pacific falls to Japan (die {die} <= turn {turn_number(state)})")


PROCEDURES = {"player/combat/attrition": attrition, "start/pacific-fall": pacific_fall}
