"""The ETO heuristic brain: a sensible beginner for either side of the land campaign.

* **Initiative** (SOP seasonal): buys offensives — the Axis as many as it can
  afford (up to 3 a nation), the Soviets one or two — and begins an offensive
  whenever it has one.
* **Command** (ETO-22/23): activates the HQ with the most combat units in its
  radius near the enemy, so the attacks are supplied and commanded.
* **Combat** (ETO-26): every possible designation is priced with
  ``combat.assess`` (odds column and DRMs) over the exact CRT rows; targets
  with a good expected result are designated, then resolved.
* **Losses, retreats, advances**: the fewest steps, away from the enemy;
  victorious stacks advance.
* **Movement and rail** (ETO-30/31): units behind the front ride the rails
  toward it; others move toward the victory objectives (Axis) or toward the
  threatened objectives (Soviets).
* **Construction** (ETO-37): rebuilds and builds what is offered, HQs first.

Anything else ends the step or passes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.bots.heuristic import Brain, Context
from workbench.bots.ssa import dist_from, dist_to_set

RESULT_VALUE = {"DE": 3.0, "D3": 2.5, "(D2)": 2.0, "D2": 1.8, "D2x": 1.3, "D1": 1.0, "D1x": 0.6,
                "x": -0.4, "xx": -0.9, "AE": -2.5}


def _dest(o: dict[str, Any]) -> str | None:
    if "to" in o:
        return o["to"]
    path = o.get("path") or []
    return path[-1] if path else None


class ETOBrain(Brain):
    def __init__(self, side: str) -> None:
        self.side = side

    def propose(self, ctx: Context) -> dict[str, Any] | None:
        kinds = set(ctx.decision.kinds)
        for kind, fn in (("take_losses", self.take_losses), ("retreat", self.retreat),
                         ("advance", self.advance), ("buy_offensives", self.buy),
                         ("designate", self.designate), ("resolve", self.resolve),
                         ("activate_hq", self.activate_hq), ("begin", self.begin),
                         ("attack", self.attack), ("build", self.build), ("rebuild", self.build),
                         ("place_hq", self.build), ("move", self.move), ("rail", self.move)):
            if kind in kinds:
                order = fn(ctx)
                if order is not None:
                    return order
        return None

    # -- helpers ------------------------------------------------------------------------------
    def _info(self, ctx: Context) -> dict[str, Any]:
        if "info" in ctx.memo:
            return ctx.memo["info"]
        from workbench.rulesets.eto import values

        view, hm = ctx.view, ctx.state.map
        enemy = np.zeros(hm.size)
        own = np.zeros(hm.size)
        for u in view.units_by_id.values():
            if u.location.isdigit() and hm.has_hex(u.location):
                try:
                    land = values.is_land_unit(ctx.state, u)
                except Exception:  # noqa: BLE001
                    land = True
                if land:
                    (own if u.side == ctx.side else enemy)[hm.index(u.location)] += 1
        objectives = []
        for o in ctx.state.game.scenario.raw.get("victory", {}).get("objectives", []):
            try:
                p = o["place"]
                objectives.append(hm.index(p if p.isdigit() else hm.hex_of(p)))
            except Exception:  # noqa: BLE001
                continue
        enemy_idx = np.flatnonzero(enemy > 0)
        info = {"enemy": enemy, "own": own, "objectives": objectives,
                "to_enemy": dist_to_set(hm, enemy_idx[:: max(1, len(enemy_idx) // 60)]),
                "to_obj": dist_to_set(hm, objectives)}
        ctx.memo["info"] = info
        return info

    # -- decisions ----------------------------------------------------------------------------
    def buy(self, ctx: Context) -> dict[str, Any] | None:
        opts = ctx.legal("buy_offensives")
        if not opts:
            return None
        want = 3 if ctx.side == "axis" else 2
        by_nation: dict[str, list[dict[str, Any]]] = {}
        for o in opts:
            by_nation.setdefault(o["nation"], []).append(o)
        for _n, os_ in sorted(by_nation.items()):
            best = max((o for o in os_ if o["count"] <= want), key=lambda o: o["count"], default=None)
            if best is not None and ctx.ok(best):
                return best
        return None

    def begin(self, ctx: Context) -> dict[str, Any] | None:
        """Begin an offensive, a few a month (the Axis 3, the Soviets 1); then pass."""
        key = ("begins", ctx.state.turn)
        n = ctx.policy.game_memo.get(key, 0)
        if n >= (3 if ctx.side == "axis" else 1):
            return None
        order = ctx.first_ok(ctx.legal("begin"))
        if order is not None:
            ctx.policy.game_memo[key] = n + 1
        return order

    def activate_hq(self, ctx: Context) -> dict[str, Any] | None:
        if ctx.memo.get("hq_done"):
            return None
        ctx.memo["hq_done"] = True
        opts = ctx.legal("activate_hq")
        if not opts:
            return None
        info = self._info(ctx)
        hm = ctx.state.map

        def score(o: dict[str, Any]) -> float:
            total = 0.0
            for h in o.get("hqs", []):
                u = ctx.view.units_by_id.get(h)
                if u is None or not u.location.isdigit():
                    continue
                near = dist_from(hm, hm.index(u.location)) <= 4
                total += float((info["own"][near]).sum()) + 2.0 * float((info["enemy"][near] > 0).sum())
            return total - 0.5 * len(o.get("hqs", []))

        return ctx.first_ok(sorted(opts, key=lambda o: -score(o))[:4])

    def attack(self, ctx: Context) -> dict[str, Any] | None:
        if ctx.memo.get("attack_done"):
            return None
        ctx.memo["attack_done"] = True
        return ctx.first_ok(ctx.legal("attack"))

    def designate(self, ctx: Context) -> dict[str, Any] | None:
        from workbench.rulesets.eto import adjudicate as adj
        from workbench.rulesets.eto.combat import assess

        opts = ctx.legal("designate")
        if not opts:
            return None
        tables = ctx.state.ruleset.tables
        best, best_ev = None, 0.4
        for o in opts:
            try:
                a = assess(ctx.state, ctx.side, o["attackers"], o["target"])
                ev = sum(RESULT_VALUE.get(adj.crt(a.column, die + a.drm, tables=tables), 0.0)
                         for die in range(1, 7)) / 6
            except Exception:  # noqa: BLE001
                continue
            if ev > best_ev:
                best, best_ev = o, ev
        return best if best is not None and ctx.ok(best) else None

    def resolve(self, ctx: Context) -> dict[str, Any] | None:
        return ctx.first_ok(ctx.legal("resolve"))

    def take_losses(self, ctx: Context) -> dict[str, Any] | None:
        opts = ctx.legal("take_losses")
        return min(opts, key=lambda o: (len(o.get("units", [])), str(o))) if opts else None

    def retreat(self, ctx: Context) -> dict[str, Any] | None:
        opts = ctx.legal("retreat")
        if not opts:
            return None
        info = self._info(ctx)
        hm = ctx.state.map

        def score(o: dict[str, Any]) -> float:
            d = _dest(o)
            return -float(info["to_enemy"][hm.index(d)]) if d and hm.has_hex(d) else 0.0

        return min(opts, key=score)

    def advance(self, ctx: Context) -> dict[str, Any] | None:
        opts = ctx.legal("advance")
        return max(opts, key=lambda o: len(o.get("units", []))) if opts else None

    def build(self, ctx: Context) -> dict[str, Any] | None:
        n = ctx.memo.get("built", 0)
        if n >= 40:
            return None
        for kind in ("rebuild", "place_hq", "build"):
            opts = ctx.legal(kind)
            if kind == "build":
                opts = [o for o in opts if not o.get("depleted")]
            if opts:
                o = ctx.first_ok(opts[:3])
                if o is not None:
                    ctx.memo["built"] = n + 1
                    return o
        return None

    def move(self, ctx: Context) -> dict[str, Any] | None:
        """Each unit once: rail toward the front if far from it, else step toward the goal."""
        st, hm = ctx.state, ctx.state.map
        if "queue" not in ctx.memo:
            by_unit: dict[str, list[dict[str, Any]]] = {}
            for kind in ("rail", "move"):
                for o in ctx.legal(kind):
                    if "unit" in o:
                        by_unit.setdefault(o["unit"], []).append(o)
            ctx.memo["opts"] = by_unit
            ctx.memo["queue"] = sorted(by_unit)
        info = self._info(ctx)
        goal = info["to_obj"] if ctx.side == "axis" and info["objectives"] else info["to_enemy"]
        front = info["to_enemy"]
        while ctx.memo["queue"]:
            uid = ctx.memo["queue"].pop(0)
            u = st.units_by_id.get(uid)
            if u is None or not u.location.isdigit() or not hm.has_hex(u.location):
                continue
            here = hm.index(u.location)
            if ctx.side != "axis" and front[here] <= 1:
                continue  # the Soviets hold the line where they stand
            cands = []
            for o in ctx.memo["opts"][uid]:
                d = _dest(o)
                if not d or not hm.has_hex(d):
                    continue
                j = hm.index(d)
                if o["kind"] == "rail" and front[here] <= 4:
                    continue
                s = float(goal[j]) + (0.0 if front[j] >= 1 else 2.0)
                if ctx.side != "axis":
                    s = float(abs(front[j] - 1)) + 0.1 * float(goal[j])
                cands.append((s, o))
            stay = float(goal[here]) if ctx.side == "axis" else float(abs(front[here] - 1)) + 0.1 * float(goal[here])
            cands.sort(key=lambda c: c[0])
            for s, o in cands[:5]:
                if s >= stay:
                    break
                if ctx.ok(o):
                    return o
        return None
