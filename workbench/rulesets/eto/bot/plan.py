"""The plan the ETO planners share: the memos and the position info.

* **Memos.**  ``ctx.memo`` lasts one decision of one step; :func:`offensive_memo` lasts one
  offensive (ETO-22.0: a unit is activated once a turn, for one offensive), keyed by the turn and
  the count of offensives the brain has begun (``game_memo["off_serial"]``, kept by
  ``command.begin``).  ``game_memo`` holds what spans turns: the Axis lanes, the path fields.
* **Position info** (:func:`position_info`, once per position and offensive): own and enemy
  land units by hex and the enemy strength there, as the side's view shows them; distances to
  the enemy and to the victory objectives (the scenario's, weighted by ``OBJECTIVE_PULL``); the
  Axis goal fields by class and lane (``fields.goal_fields``) and the *prize* mask of victory
  hexes it does not hold.
* What every planner asks of it: a unit's goal field (:func:`goal_of`), the victory hexes a move
  enters (:func:`grab`, 24.4) and what an HQ standing somewhere commands (:func:`hq_score`, 22.1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.bots.heuristic import Context
from workbench.rulesets.eto import values
from workbench.rulesets.eto.bot.fields import goal_fields

#: a victory hex the Axis does not hold, entered on the way, is worth this many hexes of progress
GRAB_HEXES = 3.0
#: objective weight in hexes: a unit is drawn to an objective worth more as if it were nearer
OBJECTIVE_PULL = {10: 4.0, 6: 3.0, 4: 2.0, 3: 1.5}
#: the strength guessed for each enemy unit hidden beneath a stack's top unit (12.7): a 1941 corps
HIDDEN_SP = 3


def dest(o: dict[str, Any]) -> str | None:
    """Where a move, rail or advance order ends."""
    if "to" in o:
        return o["to"]
    path = o.get("path") or []
    return path[-1] if path else None


def offensive_memo(ctx: Context) -> dict[str, Any]:
    """Plans for the current offensive (the step memos are shared by every offensive of a turn)."""
    key = (ctx.state.turn, ctx.policy.game_memo.get("off_serial", 0))
    memo = ctx.policy.game_memo.get("off")
    if memo is None or memo.get("_key") != key:
        memo = {"_key": key}
        ctx.policy.game_memo["off"] = memo
    return memo


def current_units(ctx: Context) -> set[str]:
    """Units activated for the current offensive.  Units activated for an earlier offensive this
    turn are not used again (ETO-22.0: a unit is activated once a turn, for one offensive)."""
    return set((ctx.state.markers.get("offensive") or {}).get("units", []))


def position_info(ctx: Context) -> dict[str, Any]:
    """The position info the planners share, computed once per position and offensive."""
    stamp = (len(ctx.state.log), ctx.policy.game_memo.get("off_serial", 0))
    if ctx.memo.get("info_stamp") == stamp:
        return ctx.memo["info"]
    view, hm = ctx.view, ctx.state.map
    enemy = np.zeros(hm.size)
    enemy_sp = np.zeros(hm.size)
    own = np.zeros(hm.size)
    for u in view.units_by_id.values():
        if u.location.isdigit() and hm.has_hex(u.location):
            try:
                land = values.is_land_unit(ctx.state, u)
            except Exception:  # noqa: BLE001
                land = True
            if land:
                i = hm.index(u.location)
                if u.side == ctx.side:
                    own[i] += 1
                else:
                    enemy[i] += 1
                    try:
                        enemy_sp[i] += values.strength(ctx.state, u) if values.is_combat_unit(ctx.state, u) else 0
                    except Exception:  # noqa: BLE001
                        enemy_sp[i] += 3
    for h, n in getattr(view, "hidden_stacks", {}).items():  # 12.7: units beneath an unexamined top unit
        if hm.has_hex(h):
            enemy[hm.index(h)] += n
            enemy_sp[hm.index(h)] += HIDDEN_SP * n
    objectives = []
    weights = []
    vps = []
    for o in ctx.state.game.scenario.raw.get("victory", {}).get("objectives", []):
        try:
            p = o["place"]
            objectives.append(hm.index(p if p.isdigit() else hm.hex_of(p)))
            vps.append(int(o.get("vp", 0)))
            weights.append(OBJECTIVE_PULL.get(vps[-1], 1.0))
        except Exception:  # noqa: BLE001
            continue
    enemy_idx = np.flatnonzero(enemy > 0)
    info = {"enemy": enemy, "enemy_sp": enemy_sp, "own": own, "objectives": objectives,
            "to_enemy": hm.dist_to_set(enemy_idx[:: max(1, len(enemy_idx) // 60)]),
            "to_obj": hm.dist_to_set(objectives)}
    goal = info["to_obj"].astype(float)
    info["lane_goal"] = {}
    if ctx.side == "axis" and objectives:
        try:
            goal, info["lane_goal"] = goal_fields(ctx, objectives, weights, vps, info)
        except Exception:  # noqa: BLE001
            goal = info["to_obj"].astype(float)
    info["goal"] = goal
    ctx.memo["info"] = info
    ctx.memo["info_stamp"] = stamp
    return info


def goal_of(ctx: Context, info: dict[str, Any], uid: str) -> np.ndarray:
    """The goal field a unit moves by: its lane's (Axis), else the army's."""
    fields = info.get("lane_goal")
    if not fields:
        return info["goal"]
    u = ctx.state.units_by_id.get(uid)
    by_cls = fields["armor" if u is not None and values.unit_class(ctx.state, u) == "armor" else "infantry"]
    lane = ctx.policy.game_memo.get("lanes", {}).get(uid)
    return by_cls[-1] if lane is None else by_cls[lane]


def grab(ctx: Context, info: dict[str, Any], o: dict[str, Any]) -> float:
    """Hexes a move takes, in goal-field hexes: the victory hexes (objectives and Soviet
    resource hexes) the Axis does not hold that the path enters.  A land unit that enters an
    enemy-controlled hex makes it friendly (24.4), and victory counts control, not occupation,
    so a move through an empty resource hex is worth it even if the unit ends elsewhere."""
    prize = info.get("prize")
    if prize is None:
        return 0.0
    hm = ctx.state.map
    n = sum(1 for h in o.get("path") or [] if isinstance(h, str) and hm.has_hex(h) and prize[hm.index(h)])
    return GRAB_HEXES * n


def hq_score(ctx: Context, hq: Any, at: str | None = None, fresh: bool = False) -> float:
    """Own unactivated combat units in the HQ's radius near the enemy, and enemy stacks there
    (with the HQ at ``at``, default where it stands; ``fresh``: as if no unit were activated
    yet, for next month)."""
    st, hm = ctx.state, ctx.state.map
    info = position_info(ctx)
    if at is None and not values.on_map(hq):
        return 0.0
    radius = values.command_radius(st, hq)
    near = hm.dist_from(hm.index(at or hq.location))
    total = 0.0
    for u in st.units_by_id.values():
        if u.side != ctx.side or not values.on_map(u) or (u.props.get("activated") and not fresh):
            continue
        if values.unit_class(st, u) not in ("infantry", "armor"):
            continue
        i = hm.index(u.location)
        if near[i] <= radius and info["to_enemy"][i] <= 2:
            total += 1.0
    targets = (info["enemy"] > 0) & (near <= radius + 1)
    return total + 0.5 * float(targets.sum()) if total else 0.0
