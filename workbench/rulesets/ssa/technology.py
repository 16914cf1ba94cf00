"""Technological developments (optional rule SSA-23): who owns which, and buying them.

Some unit types (SSA-23.1, ``units.toml`` / ``mobilization.toml [costs]`` key ``tech``) may be
mobilized only by a power that owns their development.  Ownership is kept **per purchaser**
(SSA-23.G "recorded separately"): the Allies once for the US and the Commonwealth together
(23.5a: no other Allied country may use them), Germany and Japan each on their own (23.5b).
``tables/technology.toml [purchasers]`` says which purchaser's record a nation uses and whose
industrial points pay.

The record starts as the scenario's ``[technologies]`` (SSA-23.4, no cost) and lives in
``state.markers["technologies"]`` once a development is bought (until then it is read from the
scenario, so games that buy nothing keep their state unchanged).

Order (Mobilization stage, step *Spend*, optional rule 23 on):
``{"kind": "buy_technology", "tech": "jet_fighter", "nation": "US"}`` pays the authored cost
(``technology.toml [costs]``, gap) from ``nation``'s industrial points (23.5) once (23.2); the
unit type may be mobilized from that same step on.  Abstract developments (23.3: radar,
electronic warfare, advanced submarines, tactical missiles) are owned and recorded but have no
game effect (docs/rulings-ssa.md, SSA-23.3).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.ssa.special import has_special, optional_rule_on

RULE = "SSA-23"
MARK = "technologies"


def rule_on(state: State) -> bool:
    """Whether optional rule SSA-23 is in use (switched on, not barred by the scenario)."""
    return optional_rule_on(state, RULE)


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["technology"]


def technologies(state: State) -> list[str]:
    """Every development of SSA-23.1 and 23.3, in table order."""
    k = table(state)["kinds"]
    return [*k["unit"], *k["abstract"]]


def cost(state: State, tech: str) -> int:
    """SSA-23.5 (authored, gap): industrial MP a development costs."""
    return int(table(state)["costs"][tech])


def purchaser(state: State, nation: str) -> str | None:
    """SSA-23.5a-b: whose record a nation's units use (``allies``, ``GE``, ``JA``); ``None`` for a
    country that may use no development (Mexico, the Latin American minors, exiles)."""
    for who, spec in table(state)["purchasers"].items():
        if isinstance(spec, dict) and nation in spec.get("applies_to", []):
            return who
    return None


def record(state: State) -> dict[str, list[str]]:
    """SSA-23.G, 23.4: the developments each purchaser owns (the scenario's, plus those bought)."""
    mark = state.markers.get(MARK)
    if mark is not None:
        return mark
    raw = state.game.scenario.raw.get("technologies", {})
    return {who: list(owned) for who, owned in raw.items() if isinstance(owned, list)}


def owns(state: State, who: str, tech: str) -> bool:
    return tech in record(state).get(who, [])


def may_use(state: State, side: str, nation: str, utype: str) -> bool:
    """SSA-23.G, 23.1, 23.5a-b: may ``nation`` mobilize a unit of ``utype``?  Types without a
    development always; gated types only if the nation's purchaser owns the development.  A scenario
    file may still key a record by side name (``allies``), which the Allies' record is anyway."""
    tech = state.ruleset.tables["mobilization"]["costs"].get(utype, {}).get("tech")
    if not tech:
        return True
    who = purchaser(state, nation)
    return who is not None and owns(state, who, tech)


def _payers(state: State, side: str) -> list[tuple[str, str]]:
    """``(purchaser, paying nation)`` pairs open to ``side`` (only nations of the scenario)."""
    nations = state.game.scenario.sides.get(side, [])
    out = []
    for who, spec in table(state)["purchasers"].items():
        if isinstance(spec, dict):
            out += [(who, n) for n in spec.get("pays_from", []) if n in nations]
    return out


def _industrial(state: State, nation: str) -> int:
    return int(state.tracks.get(f"{nation}.mp.industrial", 0))


class BuyTechnologyOrder(OrderKind):
    """SSA-23.2, 23.5: pay a development once with industrial MP; usable from this Mobilization phase."""

    kind = "buy_technology"
    rule = "SSA-23.2"

    def legal(self, state: State) -> list[dict[str, Any]]:
        if not rule_on(state) or has_special(state, "no_mobilization"):
            return []
        out = []
        for who, nation in _payers(state, state.decision.side):
            for tech in technologies(state):
                if not owns(state, who, tech) and _industrial(state, nation) >= cost(state, tech):
                    out.append({"kind": self.kind, "tech": tech, "nation": nation})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        if not rule_on(state):
            raise IllegalOrder(RULE, "technological developments (optional rule 23) are not in use in this game")
        if has_special(state, "no_mobilization"):
            raise IllegalOrder("SSA-SC0 SR3", "this scenario uses no mobilization, so nothing can be developed")
        tech, nation = order.get("tech"), order.get("nation")
        if tech not in technologies(state):
            raise IllegalOrder("SSA-23.1", f"{tech!r} is no technological development (SSA-23.1, 23.3: "
                               f"{', '.join(technologies(state))})")
        payers = dict((n, w) for w, n in _payers(state, state.decision.side))
        if nation not in payers:
            raise IllegalOrder("SSA-23.5a", f"{nation!r} cannot pay for developments: only "
                               f"{', '.join(payers) or 'none of your countries'} may (the Allies' developments "
                               "serve the US and the Commonwealth only; Germany and Japan pay separately)")
        who = payers[nation]
        if owns(state, who, tech):
            raise IllegalOrder("SSA-23.2", f"{who} already owns {tech}: each development is paid only once")
        price, have = cost(state, tech), _industrial(state, nation)
        if have < price:
            raise IllegalOrder("SSA-23.5", f"{tech} costs {price} industrial MP and {nation} has {have} "
                               "(developments are paid with industrial points only)")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        tech, nation = order["tech"], order["nation"]
        who = dict((n, w) for w, n in _payers(state, side))[nation]
        price = cost(state, tech)
        state.tracks[f"{nation}.mp.industrial"] = _industrial(state, nation) - price
        rec = {w: list(t) for w, t in record(state).items()}
        rec.setdefault(who, []).append(tech)
        state.markers[MARK] = rec
        abstract = tech in table(state)["kinds"]["abstract"]
        state.emit("technology", side=side, rule=self.rule, tech=tech, nation=nation, purchaser=who, cost=price,
                   text=f"{nation} pays {price} industrial MP: {who} now owns {tech.replace('_', ' ')}"
                        + (" (an abstract development: no game effect, SSA-23.3)" if abstract
                           else " and may mobilize it from this phase (SSA-23.2)"))


ORDER_KINDS = {"buy_technology": BuyTechnologyOrder()}
