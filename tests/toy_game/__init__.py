"""Dice War: a third game that lives only in this folder (tables, order kind, face) and
registers itself, to prove that the workbench asks a ruleset and never names one."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from workbench.engine import IllegalOrder, OrderKind, Ruleset, State, register_ruleset
from workbench.engine.face import Assessment, Face, Metrics, expected

SIDES = ("axis", "allies")


def _other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


class AttackOrder(OrderKind):
    """DW-4: units next to an enemy hex attack it together: ``{"kind": "attack",
    "attackers": [ids], "targets": [hex]}``."""

    kind, rule = "attack", "DW-4"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side, hm = state.decision.side, state.map
        by_target: dict[str, list[str]] = {}
        enemy = {u.location for u in state.units_by_id.values() if u.side != side and u.location.isdigit()}
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side == side and u.location.isdigit() and not u.props.get("attacked"):
                for nb in hm.neighbors[hm.index(u.location)]:
                    if nb >= 0 and hm.label(int(nb)) in enemy:
                        by_target.setdefault(hm.label(int(nb)), []).append(u.id)
        return [{"kind": "attack", "attackers": ids, "targets": [t]} for t, ids in sorted(by_target.items())]

    def check(self, state: State, order: dict[str, Any]) -> None:
        options = {o["targets"][0]: set(o["attackers"]) for o in self.legal(state)}
        targets, attackers = order.get("targets"), order.get("attackers")
        if not isinstance(targets, list) or len(targets) != 1 or targets[0] not in options:
            raise IllegalOrder(self.rule, "attack one enemy hex next to your units")
        if not isinstance(attackers, list) or not attackers or not set(attackers) <= options[targets[0]]:
            raise IllegalOrder(self.rule, "attackers must be your units next to the target that have not attacked")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        a = state.ruleset.assess_attack(state, order)
        (die,) = state.roll(purpose=f"attack on {a.target} at {a.column}", rule=self.rule)
        result = state.ruleset.tables["crt"]["rows"][die - 1][state.ruleset.columns().index(a.column)]
        state.emit("combat", rule=self.rule, side=state.decision.side, text=f"{a.column}, die {die}: {result}")
        losers = a.defenders if result == "DE" else a.attackers if result == "AE" else []
        for uid in losers:
            u = state.unit(uid)
            u.location = "Eliminated"
            state.emit("eliminated", rule=self.rule, side=u.side, text=f"{uid} eliminated", unit=uid)
            key = f"{_other(u.side)}.vp"
            state.tracks[key] = state.tracks.get(key, 0) + 1
        for uid in a.attackers:
            if state.unit(uid).location.isdigit():
                state.unit(uid).props["attacked"] = True


class DiceWarFace(Face):
    """The face: prefix, planner, metrics (the rest are the engine's defaults)."""

    rule_prefix = "DW"

    def columns(self) -> list[str]:
        return list(self.tables["crt"]["columns"])  # type: ignore[attr-defined]

    def assess_attack(self, state: State, order: dict[str, Any]) -> Assessment:
        """DW-4: attack ÷ defence rounded down, 1-1 to 3-1; the exact 1d6 distribution."""
        side = state.decision.side
        target = order["targets"][0]
        cf = {t: int(v["cf"]) for t, v in self.unit_types.items()}  # type: ignore[attr-defined]
        defenders = sorted(u.id for u in state.units_at(target) if u.side != side)
        att = sum(cf[state.unit(a).type] for a in order["attackers"])
        dfn = sum(cf[state.unit(d).type] for d in defenders)
        cols = self.columns()
        column = cols[max(0, min(len(cols), att // max(dfn, 1)) - 1)]
        dist: dict[str, Fraction] = {}
        for row in self.tables["crt"]["rows"]:  # type: ignore[attr-defined]
            r = row[cols.index(column)]
            dist[r] = dist.get(r, Fraction(0)) + Fraction(1, 6)
        by = {r: {side: float(len(order["attackers"]) if r == "AE" else 0),
                  _other(side): float(len(defenders) if r == "DE" else 0)} for r in dist}
        return Assessment(
            attackers=list(order["attackers"]), defenders=defenders, attack=att, defense=dfn,
            base_column=column, column=column, distribution=dist,
            contributions=[(a, cf[state.unit(a).type], "DW-4") for a in order["attackers"]],
            results={r: self.tables["crt"]["meaning"][r] for r in dist},  # type: ignore[attr-defined]
            losses_by_result=by, expected_losses=expected(dist, by), odds_rule="DW-4", die="1d6", target=target)

    def metrics(self, state: State) -> Metrics:
        """Cities occupied per side are the objectives (DW-5)."""
        m = super().metrics(state)
        cities = set(state.map.places["hex"].to_list())
        m.objectives = {s: float(len({u.location for u in state.units_by_id.values()
                                      if u.side == s and u.location in cities})) for s in SIDES}
        m.objective_value = dict(m.objectives)
        return m


class DiceWar(DiceWarFace, Ruleset):
    name = "dicewar"
    version = "1"
    boxes = ("Eliminated",)

    def __init__(self) -> None:
        super().__init__(Path(__file__).parent / "tables")
        self.order_kinds = {"attack": AttackOrder()}
        self.procedures = {"income": self._income}

    def _income(self, state: State, step: Any) -> None:
        """DW-2: each nation gains its income of EPs."""
        for nation in ("GE", "SU"):
            state.tracks[f"{nation}.eps"] = state.tracks.get(f"{nation}.eps", 0) + int(self.tables["crt"]["income"])
        for u in state.units_by_id.values():
            u.props.pop("attacked", None)


RULESET = DiceWar()
register_ruleset(RULESET)

SCENARIO = """\
format = 1
id = "dicewar/border"
title = "Border clash"
ruleset = "dicewar"
map = "{map}"
first_turn = "1941-06"
last_turn = "1941-09"

[sides.axis]
nations = ["GE"]
[sides.allies]
nations = ["SU"]

[tracks]
"GE.eps" = 0
"SU.eps" = 0

[[units]]
id = "GE-pz"
nation = "GE"
type = "armor"
at = "0504"
count = 2

[[units]]
id = "SU-inf"
nation = "SU"
type = "infantry"
at = "0604"
"""
