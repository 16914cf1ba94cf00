"""Command planner of the ETO heuristic brain: the initiative, offensives and activation.

* **Purchase** (ETO-38.2/38.3, seasonal): the Axis buys offensives for its army groups over the
  season -- 3 per army-group HQ and a dozen for stack offensives, within the 38.3 limit -- and
  keeps the EPs for them through construction (:func:`offensive_budget`); the Soviets buy 2.
* **Initiative** (ETO-22.0): the Axis begins an offensive while an HQ with offensives on its
  nation's track has units near the enemy, a general's group or a stack can make one good
  attack, or a minor partner can attack (22.4); the Soviets begin two a month.
* **Activation** (ETO-22.1-22.4, 23.1): the HQ with the most unactivated combat units in its
  radius near the enemy, then only the units its offensive needs (:func:`pre_plan`: attackers for
  as many targets as it may attack, and the armor in contact that may break through, 28.1), and a
  general only with a carrier (24.3).  With no HQ worth it, the Axis lets a general lead the
  units around him (22.2) or a single stack attack (22.3), from offensives the HQs will not need
  this season (:func:`spare_offensives`), else a minor partner's own offensive (22.4).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.bots.heuristic import Context
from workbench.rulesets.eto import command as eto_command
from workbench.rulesets.eto import values
from workbench.rulesets.eto.bot.plan import current_units, hq_score, offensive_memo, position_info
from workbench.rulesets.eto.bot.pricing import assign_targets, one_attack


def spare_offensives(ctx: Context, nation: str) -> int:
    """Offensives on ``nation``'s track beyond those its army-group HQs need for the rest of
    the season (38.2: offensives are bought once a season): each HQ not yet activated this
    month, and every HQ once in each later month of the season.  An HQ offensive attacks up
    to its attack rating each step (22.1), a stack offensive once (22.3), so a stack or a
    general offensive spends only what the HQs will not need."""
    st = ctx.state
    label = st.turn_label
    month = int(label[5:7]) if len(label) >= 7 and label[5:7].isdigit() else 3
    later = (3 - month % 3) % 3  # months after this one before the next seasonal turn (Jan-Mar = winter)
    hqs = [u for u in st.units_by_id.values() if u.nation == nation and values.on_map(u)
           and values.unit_class(st, u) == "hq"]
    need = sum(1 for u in hqs if not u.props.get("activated")) + later * len(hqs)
    return eto_command.track(st, f"{nation}.offensives") - need


def hq_candidates(ctx: Context) -> list[tuple[float, Any]]:
    """Unactivated HQs of a major power with offensives on its track whose ``hq_score`` (units in
    contact in the radius, enemy stacks in reach) is 2 or more, best first (22.1)."""
    st = ctx.state
    out = []
    for u in st.units_by_id.values():
        if u.side != ctx.side or not values.on_map(u) or u.props.get("activated"):
            continue
        if values.unit_class(st, u) != "hq" or values.nation_kind(st, u.nation) != "major":
            continue
        if eto_command.track(st, f"{u.nation}.offensives") <= 0:
            continue
        s = hq_score(ctx, u)
        if s >= 2:
            out.append((s, u))
    return sorted(out, key=lambda t: (-t[0], t[1].id))


def stack_candidates(ctx: Context) -> list[tuple[float, str]]:
    """Axis: unactivated stacks next to a weak enemy hex, for a one-attack stack offensive (22.3),
    while the track has offensives the HQs will not need this season."""
    if ctx.side != "axis":
        return []
    st, hm = ctx.state, ctx.state.map
    info = position_info(ctx)
    out = []
    for h in eto_command._stack_hexes(st, ctx.side):
        units = [u for u in values.units_at(st, h, ctx.side)
                 if eto_command.can_activate(st, u, ctx.side) and values.unit_class(st, u) in ("infantry", "armor")]
        n = eto_command._offensive_nation(st, units, ctx.side)
        if not units or n is None or spare_offensives(ctx, n) <= 0:
            continue
        att = sum(values.strength(st, u) for u in units)
        best = one_attack(ctx, info, hm.index(h), lambda _j, units=units, att=att: (units, att))
        if best is not None:
            out.append((best, h))
    return sorted(out, key=lambda t: (-t[0], t[1]))


def general_candidates(ctx: Context) -> list[tuple[float, str]]:
    """Axis: unactivated generals whose group (the units stacked with or next to him, 22.2) can
    make one good attack on an enemy hex next to him without moving: a one-attack offensive
    that, unlike a stack offensive (22.3), combines several stacks against one hex."""
    if ctx.side != "axis":
        return []
    st, hm = ctx.state, ctx.state.map
    info = position_info(ctx)
    out = []
    for g in st.units_by_id.values():
        if g.side != ctx.side or not values.on_map(g) or g.props.get("activated") \
                or values.unit_class(st, g) != "general" or values.nation_kind(st, g.nation) != "major" \
                or eto_command.track(st, f"{g.nation}.offensives") <= 0:
            continue
        group = [u for u in eto_command.general_group(st, g) if values.unit_class(st, u) in ("infantry", "armor")]
        if sum(u.nation == g.nation for u in group) * 2 < len(group):
            continue

        def attack(j: int, g: Any = g, group: list[Any] = group) -> tuple[list[Any], int]:
            by = [u for u in group if int(hm.grid.distance(hm.index(u.location), j)) == 1]
            att = sum(values.strength(st, u) for u in by)
            return by, att + min(values.combat_rating(st, g), att)  # his rating, within 2x (26.2)

        best = one_attack(ctx, info, hm.index(g.location), attack)
        if best is not None:
            out.append((best, g.id))
    return sorted(out, key=lambda t: (-t[0], t[1]))


def minor_candidates(ctx: Context) -> set[str]:
    """Axis minor partners with unactivated combat units next to the enemy and a minor offensive
    left this month (22.4)."""
    if ctx.side != "axis":
        return set()
    st, hm = ctx.state, ctx.state.map
    info = position_info(ctx)
    out = set()
    for u in st.units_by_id.values():
        if u.side != ctx.side or not values.on_map(u) or values.nation_kind(st, u.nation) != "minor":
            continue
        if u.nation in out or not eto_command.can_activate(st, u, ctx.side):
            continue
        used = eto_command.track(st, f"{u.nation}.minor_offensives_used")
        if used >= eto_command.minor_offensives_allowed(st, u.nation):
            continue
        if values.unit_class(st, u) in ("infantry", "armor") and info["to_enemy"][hm.index(u.location)] <= 1:
            out.add(u.nation)
    return out


def buy(ctx: Context) -> dict[str, Any] | None:
    """Seasonal purchase (38.2): as many offensives as wanted, up to what is offered."""
    opts = ctx.legal("buy_offensives")
    if not opts:
        return None
    by_nation: dict[str, list[dict[str, Any]]] = {}
    for o in opts:
        by_nation.setdefault(o["nation"], []).append(o)
    for n, os_ in sorted(by_nation.items()):
        want = offensives_wanted(ctx, n) if ctx.side == "axis" else 2
        best = max((o for o in os_ if o["count"] <= want), key=lambda o: o["count"], default=None)
        if best is not None and ctx.ok(best):
            return best
    return None


def offensives_wanted(ctx: Context, nation: str) -> int:
    """Axis offensives to buy for a season: each army group HQ once a month and a dozen stack
    offensives (22.1, 22.3), at most the 38.3 limit."""
    st = ctx.state
    hqs = sum(1 for u in st.units_by_id.values() if u.nation == nation and values.unit_class(st, u) == "hq")
    cap = int(st.ruleset.tables["costs"]["offensives"].get("max_per_nation", 30))
    return min(3 * hqs + 12, cap) if hqs else 0


def offensive_budget(ctx: Context, nation: str) -> int:
    """EPs to keep through construction for the season's offensives (bought after it, 38.2):
    the wanted number at this season's price (38.3: dearer in the winter seasonal turn).  Units
    are not what the Axis lacks -- each may be activated once a turn (22.0) -- offensives are."""
    offs = ctx.state.ruleset.tables["costs"]["offensives"]
    winter = ctx.state.turn_label.endswith("winter")
    price = int((offs["cost_winter_seasonal"] if winter else offs["cost"]).get(nation, 2))
    return offensives_wanted(ctx, nation) * price


def begin(ctx: Context) -> dict[str, Any] | None:
    """Axis: begin while an HQ can usefully be activated.  Soviets: a couple a month."""
    key = ("begins", ctx.state.turn)
    n = ctx.policy.game_memo.get(key, 0)
    if ctx.side == "axis":
        if n >= 24 or not (hq_candidates(ctx) or general_candidates(ctx)
                           or stack_candidates(ctx) or minor_candidates(ctx)):
            return None
    elif n >= 2:
        return None
    order = ctx.first_ok(ctx.legal("begin"))
    if order is not None:
        ctx.policy.game_memo[key] = n + 1
        ctx.policy.game_memo["off_serial"] = ctx.policy.game_memo.get("off_serial", 0) + 1
    return order


def activate_hq(ctx: Context) -> dict[str, Any] | None:
    """Step 1-A (22.1): the best HQ candidate, once an offensive."""
    off = offensive_memo(ctx)
    if off.get("hq_tried"):
        return None
    off["hq_tried"] = True
    opts = ctx.legal("activate_hq")
    if not opts:
        return None
    cands = hq_candidates(ctx)
    rank = {u.id: s for s, u in cands}
    singles = [o for o in opts if len(o.get("hqs", [])) == 1 and o["hqs"][0] in rank]
    if ctx.side != "axis" and not singles:
        singles = [o for o in opts if len(o.get("hqs", [])) == 1]
    singles.sort(key=lambda o: (-rank.get(o["hqs"][0], 0.0), o["hqs"][0]))
    return ctx.first_ok(singles[:4])


def activate(ctx: Context) -> dict[str, Any] | None:
    """Activate the units of the activated HQ that are near the enemy (and its generals)."""
    st = ctx.state
    off = st.markers.get("offensive") or {}
    memo = offensive_memo(ctx)
    if not off.get("mode"):
        # no HQ worth activating: the Axis starts a stack offensive (22.3) instead
        if ctx.side != "axis" or memo.get("stack_tried"):
            return None
        memo["stack_tried"] = True
        legal = ctx.legal("activate")
        gens = {o["general"]: o for o in legal if o.get("mode") == "general"}
        opts = {o["hex"]: o for o in legal if o.get("mode") == "stack"}
        ranked = sorted([(v, 0, gens[g]) for v, g in general_candidates(ctx) if g in gens]
                        + [(v, 1, opts[h]) for v, h in stack_candidates(ctx) if h in opts],
                        key=lambda t: (-t[0], t[1]))
        order = ctx.first_ok(o for _v, _k, o in ranked)
        if order is None:  # a minor country's own offensive (22.4): its units near the enemy
            minors = minor_candidates(ctx)
            order = ctx.first_ok(o for o in legal if o.get("mode") == "minor" and o.get("form") == "home"
                                 and o.get("nation") in minors)
        return order
    if memo.get("activation_done"):
        return None
    opts = [o for o in ctx.legal("activate") if "unit" in o]
    if not opts:
        memo["activation_done"] = True
        return None
    info = position_info(ctx)
    hm = st.map
    major = off.get("nation")

    def want(o: dict[str, Any]) -> tuple[int, float, str] | None:
        u = st.units_by_id.get(o["unit"])
        if u is None or not values.on_map(u):
            return None
        cls = values.unit_class(st, u)
        d = float(info["to_enemy"][hm.index(u.location)])
        if cls == "general":
            # a general is only worth activating with a carrier activated for this offensive
            # (24.3: he moves only with the land units he stacks with); one left alone stays
            # unactivated and joins the armor in the Movement phase (30.1)
            cur = current_units(ctx)
            carried = any(v.id in cur for v in values.units_at(st, u.location, ctx.side)
                          if values.unit_class(st, v) in ("infantry", "armor"))
            return (3, d, u.id) if carried else None
        reach = values.printed_ma(st, u) + 1
        if cls not in ("infantry", "armor") or d > reach:
            return None
        return (1 if u.nation == major else 2, d, u.id)

    ranked = sorted((w, o) for o in opts if (w := want(o)) is not None)
    if off.get("mode") == "hq" and ctx.side == "axis":
        chosen = pre_plan(ctx, [o["unit"] for _w, o in ranked])
        ranked = [(w, o) for w, o in ranked if w[0] == 3 or o["unit"] in chosen]
    for _w, o in ranked:
        if ctx.ok(o):
            return o
    memo["activation_done"] = True
    return None


def pre_plan(ctx: Context, candidates: list[str]) -> set[str]:
    """The units an HQ offensive needs: attackers for as many targets as it may attack (the best
    odds each, up to 6:1) and armor able to break through; the rest stay unactivated, free to
    move in the Movement phase or to make stack offensives of their own (22.3)."""
    memo = offensive_memo(ctx)
    if "pre_plan" in memo:
        return memo["pre_plan"]
    st, hm = ctx.state, ctx.state.map
    info = position_info(ctx)
    limit = eto_command.attacks_left(st, "combat")
    enemy_hexes = [int(i) for i in np.flatnonzero(info["enemy"] > 0)]
    units = {uid: st.unit(uid) for uid in candidates}
    reach: dict[str, set[int]] = {}
    chosen: set[str] = set()
    for uid, u in units.items():
        here = hm.index(u.location)
        ma = values.printed_ma(st, u)
        near = {t for t in enemy_hexes if int(hm.grid.distance(here, t)) <= ma + 1}
        if near:
            reach[uid] = near
        if values.unit_class(st, u) == "armor" and any(int(hm.grid.distance(here, t)) <= 1 for t in near):
            chosen.add(uid)  # breakthrough candidates already in contact (28.1)
    assign_targets(ctx, enemy_hexes, reach, units, limit, chosen,
                   lambda uid, t: (int(hm.grid.distance(hm.index(units[uid].location), t)),
                                   -values.strength(st, units[uid]), uid))
    memo["pre_plan"] = chosen
    return chosen
