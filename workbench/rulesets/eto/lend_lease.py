"""EP exchanges: lend lease and the Axis exchange (ETO-36.5-36.9).

``{"kind": "lend_lease", "from": "UK", "to": "SU", "eps": 12}`` in the Income phase's Step 4.
The EPs leave the sender's track and reach the receiver's at once.  The limits are per seasonal
turn and are read on the sender's total before this season's first exchange (after income,
before construction): the UK sends the USSR up to a third, the US (from winter 1942) up to half
to the USSR and half to the UK, never more than two thirds of its income in all (36.8); Germany
sends Italy up to 15 (36.9).  More than 5 EPs to the USSR in a season opens the Arctic route
(36.5, E17).  The amounts sent this season stay on the tracks ``lend_lease.<from>.<to>`` until the
next Step 4, where 4.4 reads them to share convoy losses.  The UK's 1941 receipts (36.6) are
added to its income by :func:`income.uk_receipts`.  The numbers are ``tables/income.toml [lend_lease]``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import convoy_routes, convoys, politics
from workbench.rulesets.eto.convoy_routes import sent, to_soviet_this_season
from workbench.rulesets.eto.income import us_base_income
from workbench.rulesets.eto.values import month_key

RULE = "ETO-36.5"
#: (sender, receiver) -> the table section that allows it
FLOWS = {("UK", "SU"): "ETO-36.5", ("US", "SU"): "ETO-36.5", ("US", "UK"): "ETO-36.7", ("GE", "IT"): "ETO-36.9"}
#: (sender, receiver) -> its limit in ``tables/income.toml [lend_lease]``
LIMITS = {("UK", "SU"): "uk_to_su_max_fraction", ("US", "SU"): "us_to_su_max_fraction",
          ("US", "UK"): "us_to_uk_max_fraction"}


def _t(state: State) -> dict[str, Any]:
    """``tables/income.toml [lend_lease]``."""
    return state.ruleset.tables["income"]["lend_lease"]


def soviet_eligible(state: State) -> str | None:
    """36.5: why the USSR may not receive lend lease now (None: it may)."""
    ws = politics.war_state(state)
    if not politics.front_open(state, "axis", "soviet"):
        return "the Axis has not invaded the Soviet Union"
    if ws.get("axis_soviet_war_by") == "soviet":
        return "the Soviet Union invaded an Axis country to begin the war: no lend lease, ever"
    began = ws.get("axis_soviet_war_began")
    if began and month_key(began) >= month_key(state.turn_label):
        return "lend lease goes in the seasonal turns after the Axis invasion"
    return None


def season_start_total(state: State, nation: str) -> int:
    """The sender's total before this season's first exchange (the limits' base)."""
    out = sum(sent(state, nation, b) for (a, b) in FLOWS if a == nation)
    return int(state.tracks.get(f"{nation}.eps", 0)) + out


def _frac(x: str) -> Fraction:
    return Fraction(x)


def limit(state: State, a: str, b: str) -> tuple[int, str]:
    """The most ``a`` may send ``b`` in all this season, and why (36.5-36.9)."""
    t = _t(state)
    if (a, b) == ("GE", "IT"):
        return int(t["ge_to_it_max"]), f"ETO-36.9: Germany sends Italy up to {t['ge_to_it_max']} EPs a season"
    base = season_start_total(state, a)
    frac = _frac(t[LIMITS[(a, b)]])
    n = int(frac * base)
    return n, f"{FLOWS[(a, b)]}: {a} sends up to {frac} of its total ({base}): {n}"


def why_not(state: State, side: str, a: str, b: str, eps: Any) -> Refusal | None:
    """Why ``side`` may not send ``eps`` EPs from ``a`` to ``b`` now (36.0, 36.5-36.9)."""
    t = _t(state)
    if (a, b) not in FLOWS:
        return Refusal("ETO-36.0", "EPs pass only UK/US -> USSR, US -> UK and Germany -> Italy (36.5-36.9); "
                       "no other trading")
    rule = FLOWS[(a, b)]
    if politics.side_of(state, a) not in (side, None) or a not in state.game.scenario.sides.get(side, []):
        return Refusal(rule, f"{side} does not command {a}")
    if not isinstance(eps, int) or isinstance(eps, bool) or eps < 1:
        return Refusal(rule, f"send a whole number of EPs, 1 or more, not {eps!r}")
    if eps > int(state.tracks.get(f"{a}.eps", 0)):
        return Refusal("ETO-36.0", f"{a} has {state.tracks.get(f'{a}.eps', 0)} EPs: a country never spends into "
                       "a negative total")
    month = state.turn_label
    if a == "US" and month_key(month) < month_key(t["us_from"]):
        return Refusal(rule, "the US sends lend lease from the winter 1942 seasonal turn")
    if b == "SU":
        why = soviet_eligible(state)
        if why:
            return Refusal(rule, why)
    if (a, b) == ("US", "UK") and convoy_routes.closed_now(state, "north_atlantic") is not None:
        return Refusal(rule, "lend lease to the UK needs the North Atlantic route open")
    most, words = limit(state, a, b)
    if sent(state, a, b) + eps > most:
        return Refusal(rule, f"{words}; {sent(state, a, b)} sent already this season")
    if a == "US":
        cap = int(_frac(t["us_total_max_fraction_of_income"]) * us_base_income(state))
        total = sent(state, "US", "SU") + sent(state, "US", "UK") + eps
        if total > cap:
            return Refusal("ETO-36.8", f"the US may spend at most two thirds of its income "
                           f"({us_base_income(state)}) on lend lease a season: {cap}")
    return None


def reset(state: State, _step: Any = None) -> None:
    """Start of Step 4: last season's amounts are spent; this season's begin at 0."""
    for (a, b) in FLOWS:
        state.tracks.pop(f"lend_lease.{a}.{b}", None)


class LendLeaseOrder(OrderKind):
    """``{"kind": "lend_lease", "from": a, "to": b, "eps": n}`` (ETO-36.5-36.9)."""

    kind = "lend_lease"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        out = []
        for (a, b) in FLOWS:
            if a not in state.game.scenario.sides.get(d.side, []):
                continue
            most = limit(state, a, b)[0] - sent(state, a, b)
            for n in sorted({1, 5, most // 2, most} - {0}):
                if n > 0 and why_not(state, d.side, a, b, n) is None:
                    out.append({"kind": self.kind, "from": a, "to": b, "eps": n})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(self.rule, "no decision is open")
        refuse(why_not(state, d.side, str(order.get("from")), str(order.get("to")), order.get("eps")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        a, b, n = order["from"], order["to"], int(order["eps"])
        state.tracks[f"{a}.eps"] = int(state.tracks.get(f"{a}.eps", 0)) - n
        state.tracks[f"{b}.eps"] = int(state.tracks.get(f"{b}.eps", 0)) + n
        convoys.tally(state, "lend_lease", a, n)
        state.tracks[f"lend_lease.{a}.{b}"] = sent(state, a, b) + n
        rule = FLOWS[(a, b)]
        state.emit("lend_lease", side=politics.side_of(state, a) or "allies", rule=rule, sender=a, receiver=b,
                   eps=n, text=f"{a} sends {n} EPs to {b}")
        over = int(_t(state)["arctic_must_open_if_more_than"])
        if b == "SU" and to_soviet_this_season(state) > over:
            if "UK" in politics.war_state(state).get("conquered", {}) \
                    and convoy_routes.closed_now(state, "north_atlantic") is not None:
                state.tracks["convoy.north_atlantic.reopened"] = 1  # 36.4, 40.7: the US must reopen it
                convoy_routes.open_route(state, "north_atlantic", "ETO-36.4", "the US reopens")
            if convoy_routes.closed_now(state, "arctic") is not None:
                convoy_routes.open_route(state, "arctic", "ETO-36.5",
                                         f"more than {over} EPs of lend lease to the USSR this season open")
