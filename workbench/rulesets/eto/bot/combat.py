"""Combat planner of the ETO heuristic brain: breakthrough, designation, losses, retreats, advances.

* **Breakthrough** (ETO-28.0): the activated armor stack with the best priced attack, a general
  along adding his combat rating (26.2) and his exploitation rating (28.3).
* **Combat** (ETO-26): every possible designation of the offensive's activated units is priced
  with ``combat.assess`` (odds column and DRMs) over the exact CRT rows; the best one clearing the
  bar (lower on a victory hex the Axis does not hold, 27.1) is designated, then resolved.
* **Losses, retreats, advances** (ETO-27.1, 27.3, 27.4): the fewest units; retreats to the hex
  furthest from the enemy; victorious stacks advance with as many units as may, the general along.
* **Breakthrough movement** (ETO-28.3): toward the unit's goal field, counting the victory hexes
  the path enters (24.4), with the general when there is one.  Exploitation moves (29.2) are
  ordinary ``move`` orders, planned by the movement planner.
"""

from __future__ import annotations

from typing import Any

from workbench.bots.heuristic import Context
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import values
from workbench.rulesets.eto.bot.plan import (
    current_units,
    dest,
    goal_of,
    grab,
    offensive_memo,
    position_info,
)
from workbench.rulesets.eto.bot.pricing import drm_guess, expected_value, prize_bar
from workbench.rulesets.eto.combat import assess
from workbench.rulesets.eto.weather import MUD, conditions


def breakthrough(ctx: Context) -> dict[str, Any] | None:
    """Step 5 (28.0): the activated stack with the best priced breakthrough attack, if it is worth it."""
    memo = offensive_memo(ctx)
    if memo.get("bt_tries", 0) >= 3:
        return None
    memo["bt_tries"] = memo.get("bt_tries", 0) + 1
    cur = current_units(ctx)
    opts = [o for o in ctx.legal("breakthrough") if set(o["units"]) <= cur]
    if not opts:
        return None
    st, hm = ctx.state, ctx.state.map
    tables = st.ruleset.tables
    info = position_info(ctx)
    cond = conditions(st)
    best, best_v = None, 0.9
    for o in opts:
        t = o["target"]
        ti = hm.index(t)
        att = sum(values.strength(st, st.unit(u)) for u in o["units"])
        if o.get("general"):
            att += min(values.combat_rating(st, st.unit(o["general"])), att)
        dfn = float(info["enemy_sp"][ti]) or 1.0
        drm = drm_guess(ctx, [st.unit(u) for u in o["units"]], t) - (1 if cond[ti] == MUD else 0)
        col = adj.odds_column(int(att), int(dfn), tables=tables)
        v = expected_value(col, drm, tables) - 0.05 * float(info["goal"][ti])
        if o.get("general"):
            # 28.3: with a general the stack moves his exploitation rating after the advance,
            # without one a single hex: the same attack is worth more with him along
            v += 0.1 * values.exploitation_rating(st, st.unit(o["general"]))
        if v > best_v:
            best, best_v = o, v
    return best if best is not None and ctx.ok(best) else None


def attack(ctx: Context) -> dict[str, Any] | None:
    """An ``attack`` decision: the first legal one, once a step."""
    memo = offensive_memo(ctx)
    key = ("attack_done", ctx.state.step.key if ctx.state.step else "")
    if memo.get(key):
        return None
    memo[key] = True
    return ctx.first_ok(ctx.legal("attack"))


def designate(ctx: Context) -> dict[str, Any] | None:
    """Step 4 (26.0): the best priced attack by the offensive's activated units, if it clears the bar."""
    cur = current_units(ctx)
    opts = []
    for o in ctx.legal("designate"):
        mine = [a for a in o["attackers"] if a in cur]
        if mine:
            opts.append(o if len(mine) == len(o["attackers"]) else {**o, "attackers": mine})
    if not opts:
        return None
    tables = ctx.state.ruleset.tables
    info = position_info(ctx)
    hm = ctx.state.map
    threshold = 0.3 if ctx.side == "axis" else 0.4
    best, best_v = None, -1e9
    for o in opts:
        try:
            a = assess(ctx.state, ctx.side, o["attackers"], o["target"])
            ev = expected_value(a.column, a.drm, tables)
        except Exception:  # noqa: BLE001
            continue
        if ev <= prize_bar(info, hm.index(o["target"]), threshold):  # no prize hexes for the Soviets
            continue
        v = ev - 0.15 * float(info["goal"][hm.index(o["target"])]) if ctx.side == "axis" else ev
        if v > best_v:
            best, best_v = o, v
    return best if best is not None and ctx.ok(best) else None


def resolve(ctx: Context) -> dict[str, Any] | None:
    """Resolve the designated attacks (26.1)."""
    return ctx.first_ok(ctx.legal("resolve"))


def take_losses(ctx: Context) -> dict[str, Any] | None:
    """27.1: the loss option with the fewest units."""
    opts = ctx.legal("take_losses")
    return min(opts, key=lambda o: (len(o.get("units", [])), str(o))) if opts else None


def retreat(ctx: Context) -> dict[str, Any] | None:
    """27.3: retreat to the hex furthest from the enemy."""
    opts = ctx.legal("retreat")
    if not opts:
        return None
    info = position_info(ctx)
    hm = ctx.state.map

    def score(o: dict[str, Any]) -> float:
        d = dest(o)
        return -float(info["to_enemy"][hm.index(d)]) if d and hm.has_hex(d) else 0.0

    return min(opts, key=score)


def advance(ctx: Context) -> dict[str, Any] | None:
    """27.4: advance with as many of the offensive's units as may, the general along."""
    cur = current_units(ctx)
    opts = [o for o in ctx.legal("advance") if set(o.get("units", [])) <= cur]
    return max(opts, key=lambda o: (len(o.get("units", [])), "general" in o)) if opts else None


def bt_move(ctx: Context) -> dict[str, Any] | None:
    """Breakthrough movement (28.3): toward the goal, with the general when there is one."""
    opts = ctx.legal("bt_move")
    if not opts:
        return None
    info = position_info(ctx)
    hm = ctx.state.map
    here = None
    u = ctx.state.units_by_id.get(opts[0].get("unit", ""))
    goal = goal_of(ctx, info, u.id) if u is not None else info["goal"]
    if u is not None and hm.has_hex(u.location):
        here = float(goal[hm.index(u.location)])

    def score(o: dict[str, Any]) -> tuple[float, int]:
        d = dest(o)
        g = float(goal[hm.index(d)]) if d and hm.has_hex(d) else (here or 0.0)
        return (g - grab(ctx, info, o), 0 if "general" in o else 1)

    for o in sorted(opts, key=score)[:5]:
        if ctx.ok(o):
            return o
    return None
