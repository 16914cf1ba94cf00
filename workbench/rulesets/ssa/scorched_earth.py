"""Scorched earth (optional rule SSA-29): a unit wrecks the city or canal hex it stands in.

Order (phasing player, Land Combat step of the Combat phase, optional rule 29 on):
``{"kind": "scorch", "unit": id}``.

* Targets (29.1): a city hex or a Panama Canal hex, the one the unit stands in
  (docs/rulings-ssa.md, SSA-29.1), not already under a strategic bombing marker.
* Who (29.2): a land combat unit of division size (a corps counts as a division, SSA-9.1c), not
  a logistics unit, that has not attacked this phase; it then cannot attack (29.3: "in place of
  combat", the unit is marked as having attacked).
* The roll (29.3): two dice (``state.roll``); success if the total is at most the unit's combat
  factor, halved when it is out of supply (SSA-11.5).
* Success (29.4) places the strategic bombing marker with all its effects
  (:func:`air_combat.place_bombed`), and moves Allied morale (29.6, ``morale.toml [changes]``):
  +1 for each Axis success, -1 for each Allied one.  Several units may try in one hex, each
  rolling separately (29.5), until one succeeds: a scorched hex cannot be scorched again.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import adjudicate as adj
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.air import canal_hexes, city_kinds
from workbench.rulesets.ssa.air_combat import place_bombed
from workbench.rulesets.ssa.special import optional_rule_on
from workbench.rulesets.ssa.supply import supply_status

RULE = "SSA-29"


def rule_on(state: State) -> bool:
    """Whether optional rule SSA-29 is in use (switched on, not barred by the scenario)."""
    return optional_rule_on(state, RULE)


def target_refusal(state: State, label: str) -> Refusal | None:
    """SSA-29.1, 29.4: may the hex ``label`` be scorched?"""
    if not label.isdigit():
        return Refusal("SSA-29.1", f"only a city or Panama Canal hex on the map can be scorched, not {label}")
    i = state.map.index(label)
    if not city_kinds(state)[i] and i not in canal_hexes(state):
        return Refusal("SSA-29.1", f"{label} is neither a city nor a Panama Canal hex")
    bombed = state.arrays.get("bombed")
    if bombed is not None and bombed[i]:
        return Refusal("SSA-29.4", f"{label} already has a strategic bombing marker: there is nothing left to scorch")
    return None


def unit_refusal(state: State, side: str, u: Unit | None) -> Refusal | None:
    """SSA-29.2, 29.3: may this unit attempt scorched earth now?"""
    if u is None or u.side != side:
        return Refusal("SSA-29.2", "name one of your land units")
    if not values.is_land(state, u) or values.is_leader(state, u) or values.cf(state, u) <= 0:
        return Refusal("SSA-29.2", f"{u.id} is not a land combat unit")
    if values.value(state, u, "logistic", False):
        return Refusal("SSA-29.2", f"{u.id} is a logistics unit; logistics units may not scorch earth")
    if values.division_equivalents(state, u) < 1:
        return Refusal("SSA-29.2", f"{u.id} is a {u.size}; only division-size units scorch earth")
    if u.props.get("attacked") or u.props.get("carried"):
        return Refusal("SSA-29.3", f"{u.id} has already attacked or tried scorched earth this combat phase "
                                   "(or is aboard a convoy)")
    return target_refusal(state, u.location)


class ScorchOrder(OrderKind):
    """SSA-29.3: a unit scorches its hex in place of combat: 2d6 at most its supply-modified CF."""

    kind = "scorch"
    rule = "SSA-29.3"

    def legal(self, state: State) -> list[dict[str, Any]]:
        if not rule_on(state):
            return []
        side = state.decision.side
        return [{"kind": self.kind, "unit": u.id} for u in sorted(state.units_by_id.values(), key=lambda u: u.id)
                if u.side == side and u.location.isdigit() and unit_refusal(state, side, u) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        if not rule_on(state):
            raise IllegalOrder(RULE, "scorched earth (optional rule 29) is not in use in this game")
        why = unit_refusal(state, state.decision.side, state.units_by_id.get(order.get("unit", "")))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        u = state.unit(order["unit"])
        u.props["attacked"] = True  # 29.3: in place of combat
        supplied = supply_status(state, side).get(u.id, False)
        cf = adj.supply_strength(values.cf(state, u), supplied)
        dice = state.roll(2, purpose=f"scorched earth by {u.id} in {u.location}: success on {cf:g} or less",
                          rule=self.rule, side=side)
        ok = sum(dice) <= cf
        state.emit("scorched_earth", side=side, rule=self.rule, unit=u.id, hex=u.location, cf=cf,
                   total=sum(dice), success=ok,
                   text=f"{u.id} tries to scorch {u.location}: {'+'.join(map(str, dice))} = {sum(dice)} against "
                        f"CF {cf:g}{'' if supplied else ' (halved: out of supply)'}: "
                        + ("success" if ok else "failure"))
        if not ok:
            return
        place_bombed(state, u.location, side, rule="SSA-29.4", how="scorched earth")
        spec = state.ruleset.tables["morale"]["changes"][f"scorched_earth_{side}"]
        from workbench.rulesets.ssa import morale

        morale.change(state, spec["side"], spec["delta"], spec["rule"], f"{side} scorched earth in {u.location}")


ORDER_KINDS = {"scorch": ScorchOrder()}
