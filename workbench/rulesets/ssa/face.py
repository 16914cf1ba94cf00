"""What SS Amerika shows the workbench: counters, overlays, the attack planner, metrics, the
victory reading, the bot and the CRT table (the :class:`~workbench.engine.face.Face` methods)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from workbench.engine.face import (
    Assessment,
    Face,
    Metrics,
    economy_tracks,
    expected,
    show_number,
    steps_lost,
)
from workbench.engine.state import State
from workbench.engine.units import Unit

RESULTS = {
    "DZ": "defender eliminated", "DE": "defender reduced, then retreats", "DR": "defender retreats",
    "EX": "exchange", "AR": "attacker retreats", "AE": "attacker reduced, then retreats",
    "AZ": "attacker eliminated",
}
#: (attacker steps, defender steps) per one-unit stack for each result (SSA-11.9), for the CRT table
STEP_LOSSES = {"AZ": (2, 0), "AE": (1, 0), "AR": (0, 0), "EX": (1, 1), "DR": (0, 0), "DE": (0, 1), "DZ": (0, 2)}


class SSAFace(Face):
    """SS Amerika's face (mixed into :class:`~workbench.rulesets.ssa.ruleset.SSARuleset`)."""

    rule_prefix = "SSA"
    attack_kinds = ("attack",)

    # -- counters -----------------------------------------------------------------------------
    def unit_card(self, state: State, unit: Unit) -> dict[str, str]:
        """Air: air-to-air-bombardment and range (SSA-3.3); ``(n)`` defend-only, ``[n]``
        security-only land units."""
        from workbench.rulesets.ssa import values

        dom = values.domain(state, unit)
        if dom == "air":
            a2a = values.value(state, unit, "air_to_air")
            bomb = values.value(state, unit, "bombardment")
            rng = values.value(state, unit, "range")
            return {"strength": f"{show_number(a2a)}-{show_number(bomb)}" if a2a is not None else show_number(bomb),
                    "movement": show_number(rng), "note": "air: air-to-air, bombardment, range"}
        if dom == "naval":  # SSA-3.3c: combat strength and AA, the reduced back when reduced
            def side_value(key: str) -> Any:
                v = values.value(state, unit, f"{key}_reduced") if unit.reduced else None
                return values.value(state, unit, key) if v is None else v

            return {"strength": show_number(side_value("strength")), "movement": show_number(side_value("aa")),
                    "note": "naval: combat strength, AA"}
        cf = values.cf(state, unit)
        if values.is_leader(state, unit):  # SSA-24.7: the letter printed on the counter
            from workbench.rulesets.ssa.leaders import card_note

            return {"strength": show_number(cf), "movement": show_number(values.mf(state, unit)),
                    "note": card_note(state, unit)}
        shown = f"({show_number(cf)})" if values.value(state, unit, "defend_only", False) else show_number(cf)
        if values.value(state, unit, "security_only", False):
            shown = f"[{show_number(cf)}]"
        return {"strength": shown, "movement": show_number(values.mf(state, unit)), "note": ""}

    def air_range(self, state: State, unit: Unit) -> int | None:
        from workbench.rulesets.ssa import values

        if values.domain(state, unit) != "air":
            return None
        v = values.value(state, unit, "range")
        return int(v) if v is not None else None

    # -- overlays -----------------------------------------------------------------------------
    def overlays(self, state: State, side: str | None) -> dict[str, np.ndarray | None]:
        """Control (SSA-17), units out of supply (SSA-10) and the enemy's land ZOC (SSA-8)."""
        out = super().overlays(state, side)
        out["supply"] = self._supply(state, side)
        out["zoc"] = self._zoc(state, side)
        return out

    def _supply(self, state: State, side: str | None) -> np.ndarray:
        from workbench.rulesets.ssa.supply import supply_status

        hm = state.map
        out = np.zeros(hm.size, dtype=np.int64)
        for k, s in enumerate(self.sides, start=1):  # type: ignore[attr-defined]
            if side is not None and s != side:
                continue
            for uid, ok in supply_status(state, s).items():
                loc = state.unit(uid).location
                if not ok and loc.isdigit():
                    out[hm.index(loc)] = k
        return out

    def _zoc(self, state: State, side: str | None) -> np.ndarray:
        from workbench.rulesets.ssa.zoc import land_zoc

        out = np.zeros(state.map.size, dtype=np.int64)
        for k, s in enumerate(self.sides, start=1):  # type: ignore[attr-defined]
            if side is not None and s == side:
                continue  # a player sees the enemy's ZOC
            out[land_zoc(state, s) & (out == 0)] = k
        return out

    def out_of_supply(self, state: State) -> set[str]:
        from workbench.rulesets.ssa.supply import supply_status

        bad: set[str] = set()
        for s in self.sides:  # type: ignore[attr-defined]
            bad |= {u for u, ok in supply_status(state, s).items() if not ok}
        return bad

    # -- the attack planner -------------------------------------------------------------------
    def assess_attack(self, state: State, order: dict[str, Any]) -> Assessment:
        """SSA-11: strengths, column shifts, the exact 1d6 distribution and expected steps
        (EX: the weaker side loses a step per unit, the other the fewest strongest units that
        reach that strength)."""
        from workbench.rulesets.ssa import values
        from workbench.rulesets.ssa.combat import assess
        from workbench.rulesets.ssa.movement import other

        side = state.decision.side if state.decision else self.sides[0]  # type: ignore[attr-defined]
        a = assess(state, side, list(order["attackers"]), list(order["targets"]),
                   list(order.get("support", [])), list(order.get("gunfire", [])))
        dist = a.distribution(state.ruleset.tables)
        enemy = other(side)

        def steps(uid: str) -> int:
            u = state.unit(uid)
            return 2 if (not u.reduced and values.has_reduced_side(state, u)) else 1

        att_all = sum(steps(u) for u in a.attackers)
        dfn_all = sum(steps(u) for u in a.defenders)
        losses: dict[str, tuple[float, float]] = {
            "DZ": (0, dfn_all), "DE": (0, len(a.defenders)), "DR": (0, 0), "AR": (0, 0),
            "AE": (len(a.attackers), 0), "AZ": (att_all, 0),
        }
        if a.land_attack < a.land_defense:
            low, high, strength, low_is_att = a.attackers, a.defenders, a.land_attack, True
        else:
            low, high, strength, low_is_att = a.defenders, a.attackers, a.land_defense, False
        need, n = strength, 0
        for uid in sorted(high, key=lambda u: -values.full_cf(state, state.unit(u))):
            if need <= 0:
                break
            need -= values.full_cf(state, state.unit(uid))
            n += 1
        losses["EX"] = (len(low), n) if low_is_att else (n, len(low))
        by = {r: {side: float(losses.get(r, (0, 0))[0]), enemy: float(losses.get(r, (0, 0))[1])} for r in dist}
        exp = expected(dist, by)
        return Assessment(
            attackers=list(a.attackers), defenders=list(a.defenders), attack=a.attack, defense=a.defense,
            base_column=a.base_column, column=a.column, distribution=dist,
            contributions=[(who, v, rule) for who, v, rule in a.contributions],
            shifts=[(f"{k:+d} column{'s' if abs(k) != 1 else ''}", why, rule) for k, why, rule in a.shifts],
            results={r: RESULTS.get(r, r) for r in dist}, losses_by_result=by, expected_losses=exp,
            odds_rule="SSA-11.G", die="1d6", target=", ".join(order["targets"]))

    def crt_table(self, tables: dict[str, Any] | None = None,
                  modifiers: range | list[int] | None = None) -> pl.DataFrame:
        """SSA-11.G: shifts move the column, so there is no die modifier (``drm`` 0)."""
        from workbench.rulesets.ssa import adjudicate as adj

        rows = []
        for col in adj.columns(tables):
            for res, p in adj.outcome_distribution(col, tables=tables).items():
                a, d = STEP_LOSSES.get(res, (0, 0))
                rows.append({"column": col, "drm": 0, "result": res, "probability": float(p), "p_exact": str(p),
                             "attacker_steps": float(p) * a, "defender_steps": float(p) * d})
        return pl.DataFrame(rows)

    # -- metrics and victory ------------------------------------------------------------------
    def metrics(self, state: State) -> Metrics:
        """Cities held (SSA-17.1) as counted and as weighted by the bots, VP as read by
        :meth:`result` (SSA-20), national morale tracks (SSA-21)."""
        base = super().metrics(state)
        r = self.result(state)
        vp = {s: float(r[f"vp_{s}"]) for s in self.sides if r.get(f"vp_{s}") is not None}  # type: ignore[attr-defined]
        return Metrics(economy=economy_tracks(state), losses=steps_lost(state), objectives=base.objectives,
                       objective_value=objective_value(state), vp=vp, morale=base.morale)

    def result(self, state: State) -> dict[str, Any]:
        """The rules' result where they name a winner (SSA-20.5, SC0's Japanese count); else the
        reading of SSA-20.1 from city control and occupation policy (``source = "workbench"``)."""
        res = dict(state.result or {})
        out = super().result(state)
        if isinstance(res.get("vp"), dict):  # SSA-20.5: the ruleset's own count
            out["vp_axis"], out["vp_allies"] = res["vp"].get("axis"), res["vp"].get("allies")
        elif "japanese_industrial_hexes" in res:  # SC0: the Japanese count is the scenario's measure
            out["vp_axis"] = res["japanese_industrial_hexes"]
        if out["winner"] is None:
            out.update(read_victory(state), source="workbench")
        return out

    def brain(self, side: str) -> Any:
        from workbench.rulesets.ssa.bot import SSABrain

        return SSABrain(side)


def objective_value(state: State) -> dict[str, float]:
    """Cities held per side, weighted as the bots weigh them (industrial 3, other 1, capitals
    +3); cities of countries the scenario gives nobody count only once captured."""
    from workbench.rulesets.ssa.bot import city_weights
    from workbench.rulesets.ssa.occupation import city_owner

    out = dict.fromkeys(state.ruleset.sides, 0.0)
    intended = intended_owners(state)
    for i, w in city_weights(state).items():
        if intended and i not in intended:
            continue  # cities of neutral or closed countries do not count
        owner = city_owner(state, i) or intended.get(i)
        if owner in out:
            out[owner] += w
    return out


def intended_owners(state: State) -> dict[int, str]:
    """The side the scenario's ``[control]`` gives each city's country (SSA-17.1), used for
    a city nobody controls, so that only real captures move the contest score."""
    return state.game.cached("ssa.intended_owners", lambda: _intended_owners(state))  # the scenario's control


def _intended_owners(state: State) -> dict[int, str]:
    from workbench.rulesets.ssa.occupation import city_hexes

    hm = state.map
    names = hm.hexes["country"].to_list()
    codes = state.ruleset.tables.get("countries", {}).get("codes", {})
    name_code = {n: c for c, ns in codes.items() for n in (ns if isinstance(ns, list) else [ns])}
    control = state.game.scenario.raw.get("control", {})
    out = {}
    for i in city_hexes(state):
        v = control.get(name_code.get(names[i], ""), None)
        if v in ("axis", "allies"):
            out[i] = v
    return out


def read_victory(state: State) -> dict[str, Any]:
    """SS Amerika victory read from city control (SSA-20.1 VP, SSA-20.2 levels), or a
    scenario's own ``[victory]`` measure (SC0: Japanese-controlled U.S. industrial hexes)."""
    from workbench.rulesets.ssa import adjudicate as adj
    from workbench.rulesets.ssa.occupation import city_hexes, city_owner

    hm = state.map
    kinds = hm.hexes["city_kind"].to_list()
    names = hm.hexes["country"].to_list()
    v = state.game.scenario.raw.get("victory", {})
    if v.get("measure") == "japanese_controlled_us_industrial_hexes":
        n = sum(1 for i in city_hexes(state, "industrial")
                if names[i] == "United States" and city_owner(state, i) == "axis")
        for lv in v.get("levels", []):
            if lv.get("min", 0) <= n <= lv.get("max", 10**9):
                res = lv["result"]
                winner = "axis" if res.startswith("axis") else "allies" if res.startswith("allied") else None
                return {"winner": winner, "level": res, "vp_axis": float(n), "vp_allies": 0.0}
        return {"winner": None, "level": "draw", "vp_axis": float(n), "vp_allies": 0.0}
    t = state.ruleset.tables["victory"]["vp"]
    places = {r["name"]: r["hex"] for r in hm.places.select("name", "hex").to_dicts()}
    policy = state.markers.get("policy", {})
    vp = {"axis": 0.0, "allies": 0.0}
    for cap, key in (("Washington DC", "washington_dc"), ("Ottawa", "ottawa")):
        h = places.get(cap)
        if h and hm.has_hex(h):
            owner = city_owner(state, hm.index(h))
            if owner in vp:
                vp[owner] += float(t[owner].get(key, 0))
    for i in city_hexes(state):
        owner = city_owner(state, i)
        ind = kinds[i] == "industrial"
        if owner == "allies":
            vp["allies"] += t["allies"]["industrial_hex" if ind else "non_industrial_city"]
        elif owner == "axis":
            pol = policy.get(hm.label(i), "collaboration")
            key = ("industrial_hex_" if ind else "non_industrial_city_") + pol
            vp["axis"] += float(t["axis"].get(key, 0))
    vp["axis"] = float(math.ceil(vp["axis"]))
    hi, lo = ("axis", "allies") if vp["axis"] > vp["allies"] else ("allies", "axis")
    level = adj.victory_level(vp[hi], vp[lo], tables=state.ruleset.tables) if vp[hi] != vp[lo] else "draw"
    return {"winner": hi if level != "draw" else None, "level": level,
            "vp_axis": vp["axis"], "vp_allies": vp["allies"]}

