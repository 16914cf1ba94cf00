"""Movement planner of the ETO heuristic brain: offensive movement, the Movement phase, rail, HQs.

* **HQ moves** (ETO-23.2): the activated HQ moves up to 3 hexes at Step 1-B, to where its radius
  covers the most unactivated units in contact, and at 3-C, after the units moved, toward its
  lane's objective, keeping every planned infantry attacker within its radius (26.3) and never
  ending alone in enemy ZOC (23.3).
* **Offensive movement** (ETO-24): picks as many target hexes as the HQ may attack (22.1), the
  ones the activated units can reach at the best odds (nearest the objectives first among
  equals), and moves the units next to them; a general's offensive attacks only next to him and
  he holds his ground (22.2).  Other Axis units step along their goal fields.
* **Movement and rail** (ETO-30/31): units far behind the front ride the rails toward it (31.3);
  others move toward the victory objectives and the Soviet resource hexes (Axis, by path
  distance, 24.1, counting the victory hexes a path enters, 24.4) or toward the front line
  (Soviets, who hold the line where they stand).  The Axis moves its HQs and generals last (30.1),
  to where the units now stand: an HQ where its radius commands the most units in contact next
  month, a general with the strongest group in contact, riding with armor first (28.3).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.bots.heuristic import Context
from workbench.rulesets.eto import command as eto_command
from workbench.rulesets.eto import values
from workbench.rulesets.eto.bot.plan import (
    current_units,
    dest,
    goal_of,
    grab,
    hq_score,
    offensive_memo,
    position_info,
)
from workbench.rulesets.eto.bot.pricing import assign_targets
from workbench.rulesets.eto.combat import can_attack_across
from workbench.rulesets.eto.hq import in_radius


def move_hq(ctx: Context) -> dict[str, Any] | None:
    """ETO-23.2: the activated HQ moves up to 3 hexes at Step 1-B and again at 3-C.  At 1-B
    (before any unit is activated) it goes where its radius covers the most units in contact;
    at 3-C (after the units moved) it follows the advance toward the objectives, keeping every
    infantry attacker it planned within its radius (26.3) and out of enemy ZOC when alone."""
    st, hm = ctx.state, ctx.state.map
    key = st.step.key if st.step else ""
    memo = offensive_memo(ctx)
    flag = ("hq_moved", key)
    if memo.get(flag) or key not in ("offensive/command", "offensive/movement"):
        return None
    if key == "offensive/movement" and ("oqueue" not in memo or memo["oqueue"]):
        return None  # the units move first
    memo[flag] = True
    opts = ctx.legal("move_hq")
    if not opts:
        return None
    info = position_info(ctx)
    best, best_v = None, None
    for hid in sorted({o["hq"] for o in opts}):
        hq = st.unit(hid)
        if not values.on_map(hq):
            continue
        # 23.3: an HQ alone in enemy ZOC is pushed away, so it never ends there
        mine = [o for o in opts if o["hq"] == hid and hm.has_hex(o["path"][-1])
                and not (info["to_enemy"][hm.index(o["path"][-1])] <= 1
                         and info["own"][hm.index(o["path"][-1])] <= 0)]
        if key == "offensive/command":
            here = hq_score(ctx, hq)
            for o in mine:
                v = hq_score(ctx, hq, o["path"][-1]) - here
                if v > 0.5 and (best_v is None or v > best_v):
                    best, best_v = o, v
            continue
        keep = [st.unit(uid) for uid in memo.get("oplan", {})
                if uid in st.units_by_id and values.unit_class(st, st.unit(uid)) == "infantry"]
        goal = goal_of(ctx, info, hid)
        here = float(goal[hm.index(hq.location)])
        radius = values.command_radius(st, hq)
        for o in mine:
            j = hm.index(o["path"][-1])
            if any(int(hm.grid.distance(j, hm.index(v.location))) > radius for v in keep if values.on_map(v)):
                continue
            v = here - float(goal[j])
            if v > 0 and (best_v is None or v > best_v):
                best, best_v = o, v
    return best if best is not None and ctx.ok(best) else None


def move(ctx: Context) -> dict[str, Any] | None:
    """A ``move`` or ``rail`` decision: offensive movement at Step 3 (then the HQ's 3-C move),
    else a free move (the Movement phase, exploitation)."""
    key = ctx.state.step.key if ctx.state.step else ""
    if key == "offensive/movement":
        return offensive_move(ctx) or move_hq(ctx)
    return free_move(ctx, offensive_memo(ctx) if key.startswith("offensive") else ctx.memo)


def _plan_attacks(ctx: Context, by_unit: dict[str, list[dict[str, Any]]]) -> dict[str, str]:
    """Targets for this offensive's Combat step and the units that will attack each."""
    st, hm = ctx.state, ctx.state.map
    info = position_info(ctx)
    off = st.markers.get("offensive") or {}
    hqs = [st.unit(h) for h in off.get("hqs", [])]
    limit = eto_command.attacks_left(st, "combat")
    if limit <= 0:
        return {}
    enemy_hexes = {int(i) for i in np.flatnonzero(info["enemy"] > 0)}
    gen = st.units_by_id.get(off.get("general") or "") if off.get("mode") == "general" else None
    if gen is not None and values.on_map(gen):
        # 22.2: a general's offensive attacks only hexes next to him; he stays where he is
        enemy_hexes &= {int(j) for j in hm.neighbors[hm.index(gen.location)] if j >= 0}
    # where each activated attacker could stand at the Combat step, by target
    reach: dict[str, dict[int, list[int]]] = {}
    units = {}
    cur = current_units(ctx)
    for u in st.units_by_id.values():
        if u.id not in cur or not values.on_map(u):
            continue
        if values.unit_class(st, u) not in ("infantry", "armor"):
            continue
        units[u.id] = u
        spots = {hm.index(u.location)}
        for o in by_unit.get(u.id, []):
            d = dest(o)
            if d and hm.has_hex(d):
                spots.add(hm.index(d))
        infantry = values.unit_class(st, u) == "infantry"
        for s in spots:
            if infantry and hqs and not any(in_radius(st, h, hm.label(s)) for h in hqs):
                continue
            for j in hm.neighbors[s]:
                j = int(j)
                if j >= 0 and j in enemy_hexes and can_attack_across(st, hm.label(s), hm.label(j)):
                    reach.setdefault(u.id, {}).setdefault(j, []).append(s)
    plan: dict[str, str] = {}
    for t, chosen in assign_targets(ctx, sorted(enemy_hexes), reach, units, limit, set(),
                                    lambda uid, t: (-values.strength(st, units[uid]), uid), mud=True):
        for uid in chosen:
            plan[uid] = hm.label(t)
    return plan


def offensive_move(ctx: Context) -> dict[str, Any] | None:
    """Step 3 (24.0): each activated unit once, the planned attackers next to their targets first;
    units in the line hold it; other Axis units step along their goal fields."""
    st, hm = ctx.state, ctx.state.map
    memo = offensive_memo(ctx)
    if "oqueue" not in memo:
        by_unit: dict[str, list[dict[str, Any]]] = {}
        cur = current_units(ctx)
        for o in ctx.legal("move"):
            if o.get("unit") in cur:
                by_unit.setdefault(o["unit"], []).append(o)
        plan = _plan_attacks(ctx, by_unit)
        memo["oplan"] = plan
        memo["oqueue"] = sorted(by_unit, key=lambda u: (u not in plan, u))
        memo["oopts"] = by_unit
    info = position_info(ctx)
    plan = memo["oplan"]
    while memo["oqueue"]:
        uid = memo["oqueue"].pop(0)
        u = st.units_by_id.get(uid)
        if u is None or not u.location.isdigit() or not hm.has_hex(u.location):
            continue
        here = hm.index(u.location)
        opts = memo["oopts"].get(uid, [])
        if (st.markers.get("offensive") or {}).get("mode") == "general":
            opts = [o for o in opts if "general" not in o]  # the general holds his ground (22.2)
        goal = goal_of(ctx, info, uid)
        if uid in plan:
            t = hm.index(plan[uid])
            if int(hm.grid.distance(here, t)) == 1:
                continue  # already in place
            cands = []
            for o in opts:
                d = dest(o)
                if d and hm.has_hex(d) and int(hm.grid.distance(hm.index(d), t)) == 1:
                    cands.append((float(goal[hm.index(d)]), "general" not in o, o))
            cands.sort(key=lambda c: (c[0], c[1]))
            for _s, _g, o in cands[:8]:
                if ctx.ok(o):
                    return o
            continue
        if info["to_enemy"][here] <= 1:
            continue  # in the line: hold it
        if ctx.side != "axis":
            continue
        cands = []
        for o in opts:
            d = dest(o)
            if d and hm.has_hex(d):
                j = hm.index(d)
                cands.append((float(goal[j]) - grab(ctx, info, o), "general" not in o, o))
        cands.sort(key=lambda c: (c[0], c[1]))
        stay = float(goal[here])
        for s, _g, o in cands[:5]:
            if s >= stay:
                break
            if ctx.ok(o):
                return o
    return None


def hq_value(ctx: Context, hq: Any, goal: np.ndarray) -> Any:
    """Where an Axis HQ should stand: where its radius will cover the most combat units in
    contact next month, nearer the objectives among equals."""
    hm = ctx.state.map

    def value(at: str) -> tuple[float, float]:
        return (hq_score(ctx, hq, at, fresh=True), -float(goal[hm.index(at)]))

    return value


def _place_hq(ctx: Context, hq: Any, opts: list[dict[str, Any]], goal: np.ndarray) -> dict[str, Any] | None:
    """Movement phase (30.1: HQs move 5 hexes): the Axis HQ goes where it is worth most."""
    return _best_move(ctx, hq, opts, hq_value(ctx, hq, goal))


def _best_move(ctx: Context, unit: Any, opts: list[dict[str, Any]], value: Any) -> dict[str, Any] | None:
    """The move order whose destination ``value`` beats staying put most, or None."""
    hm = ctx.state.map
    best, best_v = None, value(unit.location)
    for o in opts:
        d = dest(o)
        if o.get("kind") != "move" or not d or not hm.has_hex(d):
            continue
        v = value(d)
        if v > best_v:
            best, best_v = o, v
    return best if best is not None and ctx.ok(best) else None


def _place_general(ctx: Context, gen: Any, opts: list[dict[str, Any]],
                   goal: np.ndarray) -> dict[str, Any] | None:
    """Movement phase (30.1: generals move 5 hexes): the Axis general goes where he is worth most."""
    return _best_move(ctx, gen, opts, general_value(ctx, gen, goal))


def general_value(ctx: Context, gen: Any, goal: np.ndarray) -> Any:
    """Where an Axis general should stand: with the strongest group of own combat units in
    contact -- the stack he stands on and the hexes next to it (22.2) -- on a hex next to the
    enemy, so next month he adds his rating to an HQ offensive's attack or, if the HQs leave
    that group unactivated, leads an offensive of his own."""
    st, hm = ctx.state, ctx.state.map
    info = position_info(ctx)
    sp = np.zeros(hm.size)
    armor = np.zeros(hm.size)
    for u in st.units_by_id.values():
        if u.side == ctx.side and values.on_map(u) and values.unit_class(st, u) in ("infantry", "armor"):
            i = hm.index(u.location)
            if info["to_enemy"][i] <= 1:
                sp[i] += values.strength(st, u)
                if values.unit_class(st, u) == "armor" and u.nation == gen.nation:
                    armor[i] += values.strength(st, u)

    def value(at: str) -> tuple[float, float]:
        # riding with armor first: a breakthrough with a general moves his exploitation rating (28.3)
        i = hm.index(at)
        if sp[i] <= 0 or not any(j >= 0 and info["enemy"][j] > 0 for j in hm.neighbors[i]):
            return (0.0, -float(goal[i]))
        return (2 * armor[i] + sp[i] + sum(float(sp[j]) for j in hm.neighbors[i] if j >= 0), -float(goal[i]))

    return value


def free_move(ctx: Context, memo: dict[str, Any]) -> dict[str, Any] | None:
    """Each unit once: rail toward the front if far from it, else step toward the goal."""
    st, hm = ctx.state, ctx.state.map
    key_mp = (st.step.key if st.step else "").startswith("movement")
    if "queue" not in memo:
        by_unit: dict[str, list[dict[str, Any]]] = {}
        cur = current_units(ctx) if ctx.state.step and ctx.state.step.key.startswith("offensive") else None
        for kind in ("rail", "move"):
            for o in ctx.legal(kind):
                if "unit" in o and (cur is None or o["unit"] in cur):
                    by_unit.setdefault(o["unit"], []).append(o)
        memo["opts"] = by_unit
        # the combat units first: HQs and generals then go where the units now stand
        late = {u.id for u in st.units_by_id.values() if u.id in by_unit
                and values.unit_class(st, u) in ("hq", "general")} if key_mp else set()
        memo["queue"] = sorted(by_unit, key=lambda uid: (uid in late, uid))
    info = position_info(ctx)
    army = info["goal"] if ctx.side == "axis" and info["objectives"] else info["to_enemy"]
    front = info["to_enemy"]
    while memo["queue"]:
        uid = memo["queue"].pop(0)
        u = st.units_by_id.get(uid)
        if u is None or not u.location.isdigit() or not hm.has_hex(u.location):
            continue
        goal = goal_of(ctx, info, uid) if ctx.side == "axis" else army
        if ctx.side == "axis" and key_mp and values.unit_class(st, u) in ("hq", "general"):
            place = _place_hq if values.unit_class(st, u) == "hq" else _place_general
            o = place(ctx, u, memo["opts"].get(uid, []), goal)
            if o is not None:
                return o
            continue
        here = hm.index(u.location)
        if ctx.side != "axis" and front[here] <= 1:
            continue  # the Soviets hold the line where they stand
        cands = []
        for o in memo["opts"].get(uid, []):
            d = dest(o)
            if not d or not hm.has_hex(d):
                continue
            j = hm.index(d)
            if o["kind"] == "rail" and front[here] <= 4:
                continue
            s = float(goal[j]) - grab(ctx, info, o)
            if ctx.side != "axis":
                s = float(abs(front[j] - 1)) + 0.1 * float(goal[j])
            cands.append((s, "general" not in o, o))
        stay = float(goal[here]) if ctx.side == "axis" else float(abs(front[here] - 1)) + 0.1 * float(goal[here])
        cands.sort(key=lambda c: (c[0], c[1]))
        for s, _g, o in cands[:5]:
            if s >= stay:
                break
            if ctx.ok(o):
                return o
    return None
