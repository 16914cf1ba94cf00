"""What ETO shows the workbench: counters, overlays, the attack planner, metrics, the victory
reading, the bot and the CRT table (the :class:`~workbench.engine.face.Face` methods)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from workbench.engine.face import Assessment, Face, Metrics, economy_tracks, expected, steps_lost
from workbench.engine.state import State
from workbench.engine.units import Unit


def code_steps(code: dict[str, Any], attacker_steps: float, defender_steps: float) -> tuple[float, float]:
    """Steps each side loses on a result code (27.1): an eliminated side loses every step it
    has; flexible losses (a step or a hex of retreat, the defender's choice) count as steps."""
    def num(k: str) -> float:
        v = code.get(k, 0)
        return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0.0

    a = attacker_steps if code.get("attacker_eliminated") else min(num("attacker_steps"), attacker_steps)
    d = defender_steps if code.get("defender_eliminated") else num("defender_steps") + num("defender_flex")
    return a, min(d, defender_steps)


def distribution(column: str, drm: int, *, fort: bool = False,
                 tables: dict[str, Any] | None = None) -> dict[str, Fraction]:
    """ETO-26.1 D: the exact result of one attack over the six faces of 1d6 plus the DRM
    (27.1: (D2) is read as x against a fortification)."""
    from workbench.rulesets.eto import adjudicate as adj

    out: dict[str, Fraction] = {}
    for die in range(1, 7):
        r = adj.crt(column, die + drm, tables=tables)
        if fort:
            r = adj.against_fortification(r, tables=tables)
        out[r] = out.get(r, Fraction(0)) + Fraction(1, 6)
    return out


class ETOFace(Face):
    """ETO's face (mixed into :class:`~workbench.rulesets.eto.ruleset.ETORuleset`)."""

    rule_prefix = "ETO"
    attack_kinds = ("designate",)
    #: the lookahead bot prices whole sets of attacks exactly instead of playing forks on: an ETO
    #: attack resolves only after every designation, air step and interception of the offensive
    lookahead = "allocation"

    # -- counters -----------------------------------------------------------------------------
    def unit_card(self, state: State, unit: Unit) -> dict[str, str]:
        """Land units: strength and movement allowance on their current side (26.2, 24.0);
        generals: combat and exploitation ratings (26.2, 28.3); HQs: attack rating and
        command radius (22.1, 23.0)."""
        from workbench.rulesets.eto import air_units, values

        cls = values.unit_class(state, unit)
        if air_units.is_atp(state, unit):
            return {"strength": f"{air_units.atp_points(unit)} ATP", "movement": str(air_units.air_range(state, unit)),
                    "note": "air transport points (18.1)"}
        if air_units.is_air(state, unit):
            q = values.value(state, unit, "depleted_quality" if unit.reduced else "quality")
            status = [s for s in (unit.props.get("commit"), "aborted" if unit.props.get("aborted") else "",
                                  "overstacked" if unit.props.get("overstacked") else "") if s]
            return {"strength": f"{air_units.strength(state, unit)}" + (f"/{q}" if q is not None else ""),
                    "movement": str(air_units.air_range(state, unit)),
                    "note": f"{cls.replace('_', '-')}: strength/quality, range" + (f"; {', '.join(status)}" if status else "")}
        ma = str(values.printed_ma(state, unit))
        if cls == "general":
            return {"strength": f"{values.combat_rating(state, unit)}-{values.exploitation_rating(state, unit)}",
                    "movement": ma, "note": "general: combat rating, exploitation rating"}
        if cls == "hq":
            return {"strength": f"{values.attack_rating(state, unit)}-{values.command_radius(state, unit)}",
                    "movement": ma, "note": "HQ: attack rating, command radius"}
        note = "out of supply" if unit.props.get("oos") else ""
        return {"strength": str(values.strength(state, unit)), "movement": ma, "note": note}

    def air_range(self, state: State, unit: Unit) -> int | None:
        """ETO-13.0: an air unit's (or ATP marker's) range in hexes from its base."""
        from workbench.rulesets.eto import air_units

        return air_units.air_range(state, unit) if air_units.flies(state, unit) else None

    # -- overlays -----------------------------------------------------------------------------
    def overlays(self, state: State, side: str | None) -> dict[str, np.ndarray | None]:
        """Control (24.4), units that cannot trace supply now (32.0) and the enemy's ZOC (25.0)."""
        from workbench.rulesets.eto import supply
        from workbench.rulesets.eto.control import control
        from workbench.rulesets.eto.zoc import zoc

        hm = state.map
        sides = self.sides  # type: ignore[attr-defined]
        oos = np.zeros(hm.size, dtype=np.int64)
        zones = np.zeros(hm.size, dtype=np.int64)
        for k, s in enumerate(sides, start=1):
            if side is None or s == side:
                for uid, ok in supply.status(state, s).items():
                    if not ok:
                        oos[hm.index(state.unit(uid).location)] = k
            if side is None or s != side:  # a player sees the enemy's ZOC
                zones[np.asarray(zoc(state, s), dtype=bool) & (zones == 0)] = k
        return {"control": np.asarray(control(state)).astype(np.int64), "supply": oos, "zoc": zones}

    def out_of_supply(self, state: State) -> set[str]:
        """Units marked out of supply (33.0) or unable to trace now (32.0)."""
        from workbench.rulesets.eto import supply

        bad = {u.id for u in state.units_by_id.values() if u.props.get("oos")}
        for s in self.sides:  # type: ignore[attr-defined]
            bad |= {uid for uid, ok in supply.status(state, s).items() if not ok}
        return bad

    # -- the attack planner -------------------------------------------------------------------
    def assess_attack(self, state: State, order: dict[str, Any]) -> Assessment:
        """ETO-26.1-26.4: strengths with generals and fortifications, the odds column, every DRM,
        the exact 1d6 distribution and expected step losses of a ``designate`` order."""
        from workbench.rulesets.eto import adjudicate as adj
        from workbench.rulesets.eto import values
        from workbench.rulesets.eto.combat import assess

        target = order.get("target") or (order.get("targets") or [None])[0]
        side = state.decision.side if state.decision else self.sides[0]  # type: ignore[attr-defined]
        a = assess(state, side, list(order["attackers"]), target)
        tables = state.ruleset.tables
        dist = distribution(a.column, a.drm, fort=bool(a.fort), tables=tables)
        enemy = values.other(side)
        att_steps = float(sum(values.steps_left(state, state.unit(u)) for u in a.attackers))
        dfn_steps = float(sum(values.steps_left(state, state.unit(u)) for u in a.defenders))
        by: dict[str, dict[str, float]] = {}
        for r in dist:
            la, ld = code_steps(adj.result_code(r, tables=tables), att_steps, dfn_steps)
            by[r] = {side: la, enemy: ld}
        return Assessment(
            attackers=list(a.attackers), defenders=list(a.defenders), attack=a.attack, defense=a.defense,
            base_column=a.column, column=a.column, distribution=dist,
            contributions=[(who, v, rule) for who, v, rule in a.contributions],
            shifts=[(f"{v:+d} DRM", why, rule) for v, why, rule in a.drms],
            results={r: str(adj.result_code(r, tables=tables).get("text", r)) for r in dist},
            losses_by_result=by, expected_losses=expected(dist, by), odds_rule="ETO-26.1",
            die=f"1d6 {a.drm:+d}", target=target)

    def crt_table(self, tables: dict[str, Any] | None = None,
                  modifiers: range | list[int] | None = None) -> pl.DataFrame:
        """Every column under each DRM (default -3..+3), with the steps a one-unit stack of two
        steps would lose on each side."""
        from workbench.rulesets.eto import adjudicate as adj

        rows = []
        for col in adj.columns(tables):
            for drm in (modifiers if modifiers is not None else range(-3, 4)):
                for res, p in distribution(col, int(drm), tables=tables).items():
                    a, d = code_steps(adj.result_code(res, tables=tables), 2.0, 2.0)
                    rows.append({"column": col, "drm": int(drm), "result": res, "probability": float(p),
                                 "p_exact": str(p), "attacker_steps": float(p) * a, "defender_steps": float(p) * d})
        return pl.DataFrame(rows)

    # -- metrics and victory ------------------------------------------------------------------
    def metrics(self, state: State) -> Metrics:
        """EPs and reserves per nation (36.0) with the war's running totals (EPs lost to convoy attacks
        and to strategic bombing, lend lease sent), steps lost, victory objectives held per side and
        the Axis VP of the scenario's victory rules."""
        from workbench.rulesets.eto.control import SIDE_CODE, control
        from workbench.rulesets.eto.victory import axis_vp, objective_hexes

        ctrl = control(state)
        held = {s: float(sum(1 for i in objective_hexes(state) if ctrl[i] == SIDE_CODE[s]))
                for s in self.sides}  # type: ignore[attr-defined]
        vp = float(axis_vp(state)[0])
        economy = economy_tracks(state)
        for k, v in state.tracks.items():  # the war's running totals: convoy losses, bombing damage, lend lease
            if k.startswith("sw.") and k.count(".") == 2 and isinstance(v, int | float):
                _, what, nation = k.split(".")
                economy[f"{nation}.{what}"] = float(v)
        return Metrics(economy=economy, losses=steps_lost(state), objectives=held,
                       objective_value={"axis": vp, "allies": 0.0}, vp={"axis": vp})

    def brain(self, side: str) -> Any:
        from workbench.rulesets.eto.bot import ETOBrain

        return ETOBrain(side)
