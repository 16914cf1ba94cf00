"""The Axis goal fields and lanes: where each unit of the ETO heuristic brain is going.

* **Goal fields** (ETO-24.1): path distance, over the land a unit of each class may enter (no
  marsh for armor, no neutral or banned hex, no all-sea or unfrozen-lake hexside), to the
  nearest victory objective or Soviet resource hex the Axis does not hold, less the objective's
  pull.  Cached for the turn in ``game_memo["fields"]``.
* **Lanes**: one per victory objective, holding the resource hexes nearer to it than to any
  other; each Axis combat unit and HQ is given a lane for the game (``game_memo["lanes"]``), by
  the scenario's ``[bot_plan]`` (the army group HQ nearest it) or by each lane's worth, so the
  army spreads over every objective instead of crowding onto the nearest.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.bots.heuristic import Context
from workbench.engine.search import multi_source_reach
from workbench.rulesets.eto import values
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.movement import banned_hexes
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import crossable_sides


def goal_fields(ctx: Context, objectives: list[int], weights: list[float], vps: list[int],
                info: dict[str, Any]) -> tuple[np.ndarray, dict[str, list[np.ndarray]]]:
    """Axis goal fields: distance to the nearest objective or Soviet resource hex not yet held
    (the richer objectives pulling harder), for the whole army and for each *lane* -- one per
    victory objective, holding the resource hexes nearer to it than to any other -- so that the
    army spreads over all the objectives instead of crowding onto the nearest."""
    hm = ctx.state.map
    ctrl = control(ctx.state)
    mine = SIDE_CODE[ctx.side]
    ta = terrain_arrays(ctx.state)
    res = [int(i) for i in np.flatnonzero(home_mask(ctx.state, "SU", original=True)
                                            & (ta.resource | ta.city_resource)) if int(i) not in objectives]
    to_obj = np.array([hm.dist_from(o) for o in objectives], dtype=float)  # [objective, hex]
    lane_of = [int(np.argmin(to_obj[:, i])) for i in res]
    worth = [vp + 1 + lane_of.count(k) for k, vp in enumerate(vps)]
    assign_lanes(ctx, objectives, to_obj, np.array(worth, dtype=float))
    prize = np.zeros(hm.size, dtype=bool)
    prize[[i for i in list(objectives) + res if ctrl[i] != mine]] = True
    info["prize"] = prize
    fields: dict[str, list[np.ndarray]] = {}
    for cls in ("infantry", "armor"):
        lanes = []
        for k, (i, w) in enumerate(zip(objectives, weights, strict=True)):
            targets = [(i, -w)] if ctrl[i] != mine else []
            targets += [(r, 0.0) for r, kr in zip(res, lane_of, strict=True) if kr == k and ctrl[r] != mine]
            lanes.append(path_field(ctx, cls, targets))
        goal = np.minimum.reduce(lanes)
        if goal.min() >= 1e5:
            goal = info["to_enemy"].astype(float)
        fields[cls] = [lane if lane.min() < 1e5 else goal for lane in lanes] + [goal]
    return fields["infantry"][-1], fields


def path_field(ctx: Context, cls: str, targets: list[tuple[int, float]]) -> np.ndarray:
    """Hexes a unit of ``cls`` must walk to the nearest target, less the target's pull: a
    breadth-first search over the land it may enter (24.1: no marsh for armor, no neutral or
    banned hex, no all-sea or unfrozen lake hexside), so a unit is not led into a dead end
    behind a marsh or a coast as plain hex distance would.  Enemy units and ZOC are ignored:
    they are fought or bypassed on the way.  Cached for the turn (1e6 where unreachable)."""
    st, hm = ctx.state, ctx.state.map
    cache = ctx.policy.game_memo.get("fields")
    if cache is None or cache.get("_turn") != st.turn:
        cache = {"_turn": st.turn}
        ctx.policy.game_memo["fields"] = cache
    key = (cls, tuple(targets))
    if key in cache:
        return cache[key]
    if ("open", cls) not in cache:
        cache[("open", cls)] = open_land(ctx, cls)
    passable, blocked = cache[("open", cls)]
    out = np.full(hm.size, 1e6)
    for pull in sorted({p for _i, p in targets}):
        d = multi_source_reach(hm.neighbors, passable, [i for i, p in targets if p == pull],
                               blocked_sides=blocked)
        np.minimum(out, np.where(d >= 0, d + pull, 1e6), out=out)
    cache[key] = out
    return out


def open_land(ctx: Context, cls: str) -> tuple[np.ndarray, np.ndarray]:
    """``(passable[N], blocked_sides[N, 6])`` for a unit of ``cls`` of this side (24.1)."""
    st = ctx.state
    ta = terrain_arrays(st)
    sample = next((u for u in st.units_by_id.values() if u.side == ctx.side and u.nation != "FI"
                   and values.unit_class(st, u) == cls), None)
    passable = ta.land.copy()
    if sample is not None:
        passable &= ~banned_hexes(st, sample)
    if cls == "armor":
        passable &= ~ta.marsh
    return passable, ~crossable_sides(st)


def assign_lanes(ctx: Context, objectives: list[int], to_obj: np.ndarray, worth: np.ndarray) -> None:
    """Each Axis combat unit and HQ gets a lane for the game: shares of the army in proportion
    to each lane's worth (its objective's VP plus its resource hexes), the nearest units
    first; later arrivals fill the lane furthest below its share."""
    st, hm = ctx.state, ctx.state.map
    lanes: dict[str, int] = ctx.policy.game_memo.setdefault("lanes", {})
    share = worth / worth.sum()
    combat = [u for u in st.units_by_id.values()
              if u.side == ctx.side and values.on_map(u) and values.unit_class(st, u) in ("infantry", "armor")]
    new = [u for u in combat if u.id not in lanes]
    if not new:
        return
    count = np.zeros(len(objectives))
    for u in combat:
        if u.id in lanes:
            count[lanes[u.id]] += 1
    quota = share * len(combat)
    plan = (st.game.scenario.raw.get("bot_plan", {}).get(ctx.side, {}) or {}).get("lanes", {})
    hq_lane = {}
    for hid, place in plan.items():
        try:
            i = hm.index(place if place.isdigit() else hm.hex_of(place))
            if hid in st.units_by_id and i in objectives:
                hq_lane[hid] = objectives.index(i)
        except Exception:  # noqa: BLE001
            continue
    if hq_lane:
        # the scenario's plan: each unit follows the army group (HQ) nearest it when first seen
        for hid, k in hq_lane.items():
            lanes.setdefault(hid, k)
        for u in new:
            here = hm.index(u.location)
            near = [(int(hm.grid.distance(here, hm.index(st.unit(h).location))), h) for h in hq_lane
                    if values.on_map(st.unit(h))]
            if near:
                lanes[u.id] = hq_lane[min(near)[1]]
    pairs = sorted((float(to_obj[k, hm.index(u.location)]), u.id, k)
                   for u in new for k in range(len(objectives)))
    for _d, uid, k in pairs:
        if uid not in lanes and count[k] < quota[k]:
            lanes[uid] = k
            count[k] += 1
    for u in new:
        if u.id not in lanes:
            k = int(np.argmax(quota - count))
            lanes[u.id] = k
            count[k] += 1
    # HQs follow the lane most of the combat units in their radius belong to
    for hq in st.units_by_id.values():
        if hq.side != ctx.side or hq.id in lanes or not values.on_map(hq) or values.unit_class(st, hq) != "hq":
            continue
        here = hm.index(hq.location)
        near = hm.dist_from(here)
        votes = np.zeros(len(objectives))
        for u in combat:
            if near[hm.index(u.location)] <= values.command_radius(st, hq):
                votes[lanes[u.id]] += 1
        lanes[hq.id] = int(np.argmax(votes)) if votes.any() else int(np.argmin(to_obj[:, here]))
