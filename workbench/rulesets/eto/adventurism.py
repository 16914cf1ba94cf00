"""Italian adventurism (optional rule ETO-47.1).

From May 1940 a neutral Italy may invade Greece or Yugoslavia (one of them) alone, outside 39.4:
``{"kind": "limited_war", "nation": "IT", "target": "GR"}``, open where ``declare_war`` is.
The two fight a war of their own (a war between two nations, :mod:`politics`): the minor joins no partnership,
Italy stays neutral to everyone else and draws its wartime income.  When Italy later enters the
war proper, the minor, if not yet conquered, joins the Allies (39.3's Soviet die when the USSR
fights the Axis, else the Western Allies).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto import invasion, politics
from workbench.rulesets.eto.invasion import declare_why_not, deploy, joins
from workbench.rulesets.eto.values import month_key

RULE = "ETO-47.1"


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["adventurism"]


def why_not(state: State, side: str, invader: str, target: str) -> Refusal | None:
    """Why ``side`` may not open Italy's limited war on ``target`` now (47.1, and 39.0's own
    conditions)."""
    t = _t(state)
    base = declare_why_not(state, side, invader, target)
    if base is not None:
        return base
    if not state.game.optional_rule(RULE):
        return Refusal(RULE, "Italian adventurism is an optional rule this game does not play")
    if invader != t["nation"] or target not in t["targets"]:
        return Refusal(RULE, "only Italy's invasion of Greece or Yugoslavia can be a limited war")
    if not politics.neutral(state, invader):
        return Refusal(RULE, "Italy is already at war: its invasions are invasions (39.3, 39.4)")
    if month_key(state.turn_label) < month_key(t["from"]):
        return Refusal(RULE, f"Italian adventurism begins in {t['from']}")
    if politics.war_state(state).get("adventure"):
        return Refusal(RULE, "Italy may invade Greece or Yugoslavia alone, not both")
    return None


def invade(state: State, invader: str, target: str) -> None:
    """The limited war: a war of the two alone, the minor's units placed, Italy's wartime base."""
    ws = politics.writable(state)
    ws["adventure"] = target
    politics.open_war(state, invader, target)
    mask = politics.territory(state, target) & (ctl.control(state) == ctl.NEUTRAL)
    ctl.control(state)[mask] = ctl.ALLIES  # enterable by the Italians, as the enemy's (ruling P18)
    placed = deploy(state, target)
    base = state.ruleset.tables["income"]["base"][invader].get("at_war")
    if base is not None:
        state.tracks[f"{invader}.income_base"] = max(int(state.tracks.get(f"{invader}.income_base", 0)), int(base))
    name = politics.nations(state)[target]["name"]
    state.emit("invaded", side="allies", rule=RULE, nation=target, invader=invader, partnership=None, how="limited",
               text=f"Italy invades {name} alone (47.1): a war of the two; Italy stays neutral to the rest"
                    + (f"; {len(placed)} units placed" if placed else ""))


def on_italy_enters(state: State, nation: str) -> None:
    """47.1: Italy joins the war proper; its unconquered adventure joins the Allies."""
    ws = politics.war_state(state)
    if nation != _t(state)["nation"]:
        return
    target = ws.get("adventure")
    if not target or target in ws.get("conquered", {}) or not politics.neutral(state, target):
        return
    p = joins(state, _t(state)["nation"], target)
    politics.join(state, target, p)
    for u in state.units_by_id.values():
        if u.nation == target:
            u.side = politics.side_of(state, target) or u.side
    state.emit("joins", side="allies", rule=RULE, nation=target,
               text=f"{politics.nations(state)[target]['name']}, still fighting Italy, joins the "
                    f"{'Soviet Union' if p == 'soviet' else 'Western Allies'}")


class LimitedWarOrder(OrderKind):
    """``{"kind": "limited_war", "nation": "IT", "target": "GR"}`` (ETO-47.1)."""

    kind = "limited_war"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return politics.on(game) and game.optional_rule(RULE)

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        t = _t(state)
        return [{"kind": self.kind, "nation": t["nation"], "target": x} for x in t["targets"]
                if why_not(state, d.side, t["nation"], x) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(self.rule, "no decision is open")
        refuse(why_not(state, d.side, str(order.get("nation")), str(order.get("target"))))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        invade(state, order["nation"], order["target"])


if on_italy_enters not in invasion.ENTRY_HOOKS:
    invasion.ENTRY_HOOKS.append(on_italy_enters)
