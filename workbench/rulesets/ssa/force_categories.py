"""Forces listed by category (SSA-SC.3): the player picks which counters fill a category.

A scenario prints some forces as a category ("Choice of any ten standard fighters, tactical
bombers and air cargo"); the scenario file holds it as a ``[[pools]]`` entry (``total``,
``allowed`` types or ``"any"``) and tags the default mix of ``[[units]]`` with ``pool``.  In the
set-up step (SSA-SC.4) the owner may swap a tagged unit for another allowed type:
``{"kind": "pick", "unit": id, "type": t}``.  One counter replaces another, so the category's
total never changes.  What may not be picked:

* a type outside ``allowed`` (``"any"``: any type of the same domain, air for the air pools);
* a type whose development the owner lacks (SSA-23.G: "may not ... utilize");
* a unit marked carrier qualified may become only a type of ``carrier_qualified_types`` (when
  the pool lists them) that can fly from carriers (SSA-6.3d), and a unit on a carrier stays
  carrier-capable.

There is no counter manifest (inventory gap for SC.3), so counters are limited only by the
category, not by how many of a type the box holds.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import technology, values

RULE = "SSA-SC.3"


def pool_of(state: State, u: Unit) -> dict[str, Any] | None:
    """The ``[[pools]]`` category the unit fills, or ``None``."""
    pid = u.props.get("pool")
    if pid is None:
        return None
    return next((p for p in state.game.scenario.raw.get("pools", []) if p.get("id") == pid), None)


def allowed(state: State, u: Unit, pool: dict[str, Any]) -> list[str]:
    """SSA-SC.3: the types the category allows (``"any"``: every type of the unit's domain)."""
    types = state.ruleset.unit_types
    if pool["allowed"] == "any":
        dom = values.domain(state, u)
        return [t for t, spec in types.items() if spec.get("domain") == dom]
    return [t for t in pool["allowed"] if t in types]


def refusal(state: State, side: str, u: Unit | None, utype: Any) -> Refusal | None:
    """Why ``u`` may not become a ``utype`` at set-up, or ``None``."""
    if u is None or u.side != side:
        return Refusal(RULE, "name one of your units")
    pool = pool_of(state, u)
    if pool is None:
        return Refusal(RULE, f"{u.id} is printed as itself, not as part of a category you fill")
    if utype == u.type:
        return Refusal(RULE, f"{u.id} is a {utype} already")
    if utype not in allowed(state, u, pool):
        return Refusal(RULE, f"the category {pool['id']} ({pool.get('text', '')}) does not allow {utype!r}")
    if not technology.may_use(state, side, u.nation, utype):
        return Refusal("SSA-23.G", f"a {utype} needs a development {u.nation} does not own")
    capable = bool(values.type_value(state.ruleset.tables, utype, u.nation, "carrier_capable", False))
    if u.props.get("carrier_qualified"):
        listed = pool.get("carrier_qualified_types")
        if (listed and utype not in listed) or not capable:
            return Refusal(RULE, f"{u.id} is carrier qualified: it may become only a carrier type "
                                 f"({', '.join(listed) if listed else 'carrier-capable'})")
    if u.props.get("carrier") and not capable:
        return Refusal("SSA-6.3d", f"{u.id} is based on a carrier; a {utype} cannot fly from carriers")
    return None


class PickOrder(OrderKind):
    """SSA-SC.3: at set-up, fill a category with another allowed counter type."""

    kind = "pick"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        out = []
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side != side or not u.props.get("pool"):
                continue
            pool = pool_of(state, u)
            if pool is None:
                continue
            out += [{"kind": self.kind, "unit": u.id, "type": t} for t in allowed(state, u, pool)
                    if refusal(state, side, u, t) is None]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        why = refusal(state, state.decision.side, state.units_by_id.get(order.get("unit", "")), order.get("type"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        before = u.type
        u.type = order["type"]
        state.emit("pick", side=u.side, rule=self.rule, unit=u.id, type=u.type, was=before,
                   text=f"{u.id} fills its category ({pool_of(state, u)['id']}) as a {u.type} instead of a {before}")


ORDER_KINDS = {"pick": PickOrder()}
