"""Initiative and offensives (ETO-38.0-38.5).

* Step 1 (38.1): every offensives track goes to 0.
* Step 2 (38.2, 38.3): ``{"kind": "buy_offensives", "nation": n, "count": k}``,
  secretly, at 2 EPs (GE, IT, SU) or 3 (FR, UK, US) each, doubled in the
  winter seasonal turn except for the USSR, at most 30; a nation with no EPs
  after construction gets one free.  Purchases wait in
  ``markers["secret_offensives"]``, hidden from the other side's view.
* Reveal (38.4, 38.5): tracks are marked; the side with more offensives has
  the initiative for three months; a tie is settled by one die per side,
  rerolling ties (every roll logged).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import values
from workbench.rulesets.eto.command import pay_eps, spendable, track


def adjust(state: State, step: Any) -> None:
    for nations in state.game.scenario.sides.values():
        for n in nations:
            if values.nation_kind(state, n) == "major":
                state.tracks[f"{n}.offensives"] = 0
    state.markers["secret_offensives"] = {}
    state.emit("offensives_reset", rule="ETO-38.1", text="all offensives tracks set to 0")


def soviet_prewar_limit(state: State, nation: str) -> dict[str, Any] | None:
    """ETO-43.8: in 1939-1940 the USSR buys at most nine offensives and marks at most 1d6+3."""
    row = state.ruleset.tables["costs"]["offensives"].get("soviet_1939_1940")
    if nation != "SU" or not row or int(state.turn_label[:4]) not in row.get("years", (1939, 1940)):
        return None
    return row


def unit_cost(state: State, nation: str) -> int:
    return adj.offensive_cost(nation, winter_seasonal=state.turn_label.endswith("winter"),
                              tables=state.ruleset.tables)


class BuyOffensivesOrder(OrderKind):
    kind = "buy_offensives"
    rule = "ETO-38.2"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        bought = state.markers.get("secret_offensives", {})
        cap = int(state.ruleset.tables["costs"]["offensives"]["max_per_nation"])
        out = []
        for n in state.game.scenario.sides[side]:
            if values.nation_kind(state, n) != "major" or n in bought:
                continue
            c = unit_cost(state, n)
            most = min(cap, spendable(state, n) // c) if c else cap
            pre = soviet_prewar_limit(state, n)
            if pre:
                most = min(most, int(pre["buy_max"]))  # 43.8
            out += [{"kind": "buy_offensives", "nation": n, "count": k} for k in range(0, most + 1)]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        if order not in self.legal(state):
            n = order.get("nation")
            raise IllegalOrder(self.rule, f"{n} may buy offensives once a season, at most 30, and only what it "
                               f"can pay for ({unit_cost(state, n) if isinstance(n, str) and n in ('GE', 'IT', 'SU', 'FR', 'UK', 'US') else '?'} EPs each)")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        n, k = order["nation"], int(order["count"])
        cost = k * unit_cost(state, n)
        if cost:
            pay_eps(state, n, cost, "ETO-38.3", f"{k} offensives")
        state.markers.setdefault("secret_offensives", {})[n] = k
        state.emit("offensives_bought", side=state.decision.side, rule=self.rule,
                   text=f"{n} marks its offensives secretly", nation=n, secret=True)


def reveal(state: State, step: Any) -> None:
    """ETO-38.4-38.5: mark the tracks, compare the sides, settle ties by dice."""
    bought = state.markers.pop("secret_offensives", {}) or {}
    free = int(state.ruleset.tables["costs"]["offensives"]["free_if_zero_eps_after_construction"])
    totals = {}
    for side, nations in state.game.scenario.sides.items():
        total = 0
        for n in nations:
            if values.nation_kind(state, n) != "major":
                continue
            k = int(bought.get(n, 0))
            if k == 0 and track(state, f"{n}.eps") <= 0 and track(state, f"{n}.reserve") <= 0:
                k = free
            pre = soviet_prewar_limit(state, n)
            if pre and k:
                add = int(str(pre["mark_max"]).split("+")[1])
                (die,) = state.roll(purpose=f"{n} 1939-40 offensives: at most 1d6+{add} marked", rule="ETO-43.8",
                                    side=side)
                if k > die + add:
                    state.emit("offensives_lost", side=side, rule="ETO-43.8",
                               text=f"{n} paid for {k} offensives but may mark {die + add}: {k - die - add} lost",
                               nation=n, bought=k, marked=die + add)
                    k = die + add
            state.tracks[f"{n}.offensives"] = k
            total += k
        totals[side] = total
    a, b = state.ruleset.sides
    if totals[a] != totals[b]:
        winner = a if totals[a] > totals[b] else b
    else:
        winner = None
        while winner is None:
            (da,) = state.roll(purpose=f"initiative tie ({totals[a]} offensives each): {a}", rule="ETO-38.5", side=a)
            (db,) = state.roll(purpose=f"initiative tie ({totals[b]} offensives each): {b}", rule="ETO-38.5", side=b)
            if da != db:
                winner = a if da > db else b
    state.tracks["initiative"] = winner
    state.emit("initiative", side=winner, rule="ETO-38.5",
               text=f"offensives: {a} {totals[a]}, {b} {totals[b]}; {winner} has the initiative",
               totals=totals, initiative=winner)
