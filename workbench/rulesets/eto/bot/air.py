"""Air planner of the ETO heuristic brain (ETO-12.0-21.5).

* **Ground support** (17.0): in 4A-B the attacker sends its bombers, with fighters for air
  superiority, over the enemy hex its activated units can hit hardest (the designation
  planner then prices that hex with the bombers' SP and the +1 DRM, as ``combat.assess``
  counts them); in 4A-D the defender covers the designated hex the enemy attacks with the
  best odds: two bombers (17.3 caps the defence at +2) and a fighter to contest superiority.
* **Interception** (14.1): fighters intercept flights carrying bombers or ATPs, and enemy
  fighter sweeps they outnumber; the best fighters by strength + quality (15.3) go first.
* **Naval and Air phase** (12.3): fighters sweep an enemy airbase they outnumber; units far
  from the enemy move to a vacant base nearer the front.
* **Air offensives** (21.0): when a side has no land offensive worth beginning but its
  bombers reach enemy airbases, it flies an air offensive: bombers bomb the base with the most
  enemy air on it, fighters sweep it.
"""

from __future__ import annotations

from typing import Any

from workbench.bots.heuristic import Context
from workbench.rulesets.eto import (
    air_flights,
    air_interception,
    air_missions,
    air_units,
    airbases,
    values,
)
from workbench.rulesets.eto.values import track
from workbench.rulesets.eto.zoc import can_attack_across

#: At most this many air offensives a side flies in one monthly turn (it keeps offensives for later months).
AIR_OFFENSIVES_PER_MONTH = 3


def _free(ctx: Context, mission: str, to: str | None = None) -> list[Any]:
    """Own air units that may take off on ``mission`` now (towards ``to`` when given)."""
    st = ctx.state
    out = []
    for u in air_units.air_units(st, ctx.side):
        if u.props.get("carrier") or air_missions.unit_why_not(st, ctx.side, u, mission, to) is not None:
            continue  # carrier air is left to the players (13.3)
        if to is not None and st.map.distance(u.location, to) > air_units.air_range(st, u):
            continue
        out.append(u)
    return out


def _by_base(units: list[Any]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for u in sorted(units, key=lambda u: u.id):
        out.setdefault(u.location, []).append(u)
    return out


def _power(st: Any, u: Any) -> int:
    return air_units.strength(st, u) + int(values.value(st, u, "quality", 0) or 0)


def _send(ctx: Context, mission: str, to: str, units: list[Any]) -> dict[str, Any] | None:
    """One ``fly`` order per base (13.6), the first that is legal."""
    orders = []
    for _base, us in sorted(_by_base(units).items()):
        orders.append({"kind": "fly", "units": [u.id for u in us], "mission": mission, "to": to})
    return ctx.first_ok(orders)


# == ground support (4A-B, 4A-D) ===============================================================
def _attack_target(ctx: Context) -> str | None:
    """The enemy hex the activated units can hit hardest: most adjacent activated SP per defending SP."""
    st, hm = ctx.state, ctx.state.map
    enemy = values.other(ctx.side)
    mine = [u for u in st.units_by_id.values() if u.side == ctx.side and values.on_map(u)
            and u.props.get("in_offensive") and values.is_combat_unit(st, u)]
    best, best_v = None, 0.0
    seen: set[str] = set()
    for u in mine:
        for e in st.units_by_id.values():
            if e.side != enemy or not values.on_map(e) or not values.is_land_unit(st, e) or e.location in seen:
                continue
            if hm.distance(u.location, e.location) != 1:
                continue
            seen.add(e.location)
            att = sum(values.strength(st, m) for m in mine if hm.distance(m.location, e.location) == 1)
            dfn = sum(values.strength(st, d) for d in values.units_at(st, e.location, enemy)
                      if values.is_land_unit(st, d))
            v = att / max(dfn, 1)
            if v > best_v:
                best, best_v = e.location, v
    return best


def _defend_target(ctx: Context) -> str | None:
    """The designated hex the enemy attacks with the best odds."""
    from workbench.rulesets.eto import combat

    st = ctx.state
    best, best_v = None, -1.0
    for d in combat.designations(st):
        att = sum(values.strength(st, st.unit(a)) for a in d["attackers"] if a in st.units_by_id)
        dfn = sum(values.strength(st, u) for u in values.units_at(st, d["target"], ctx.side)
                  if values.is_land_unit(st, u))
        v = att / max(dfn, 1)
        if v > best_v:
            best, best_v = d["target"], v
    return best


def fly(ctx: Context) -> dict[str, Any] | None:
    """Route a ``fly`` decision by step (4A-B, 4A-D, Naval and Air Step 4, 4B-B)."""
    key = ctx.state.step.key if ctx.state.step else ""
    if ctx.memo.get("_count", 0) > 6:
        return None
    if key.endswith("defensive-support"):
        return _defensive_support(ctx)
    if key.endswith("ground-support"):
        return _ground_support(ctx)
    if key.endswith("air-movement"):
        return _sweep(ctx) or _rebase(ctx)
    if key.endswith("air-naval"):
        return _naval_strike(ctx)
    if key.endswith("air-moves"):
        return _air_offensive_strike(ctx)
    return None


def _target(ctx: Context, pick: Any) -> str | None:
    """The step's target hex, chosen once per decision (the memo) by ``pick``."""
    if "target" not in ctx.memo:
        ctx.memo["target"] = pick(ctx)
    return ctx.memo["target"]


def _ground_support(ctx: Context) -> dict[str, Any] | None:
    to = _target(ctx, _attack_target)
    if to is None:
        return None
    free = _free(ctx, "ground_support", to)
    bombers = [u for u in free if air_units.class_row(ctx.state, u).get("bomber")]
    fighters = [u for u in free if u not in bombers][:2]
    if not bombers and not fighters:
        return None
    return _send(ctx, "ground_support", to, bombers + fighters)


def _defensive_support(ctx: Context) -> dict[str, Any] | None:
    memo = ctx.memo
    to = _target(ctx, _defend_target)
    if to is None or memo.get("sent", 0) >= 3:
        return None
    free = _free(ctx, "ground_support", to)
    bombers = [u for u in free if not air_units.has_quality(ctx.state, u)][:2 - memo.get("bombers", 0)]
    fighters = [u for u in free if air_units.has_quality(ctx.state, u)][:1]
    units = bombers + fighters
    if not units:
        return None
    order = _send(ctx, "ground_support", to, units)
    if order is not None:
        memo["sent"] = memo.get("sent", 0) + 1
        memo["bombers"] = memo.get("bombers", 0) + sum(1 for u in bombers if u.id in order["units"])
    return order


# == interception (14.1) ========================================================================
def intercept(ctx: Context) -> dict[str, Any] | None:
    """Intercept bombers and ATPs; fighter sweeps only when outnumbering them."""
    st = ctx.state
    f = st.frames[-1]
    fl = air_flights.flights(st).get(f.get("data", {}).get("flight", ""))
    if fl is None:
        return None
    enemy_units = air_flights.live_units(st, fl)
    carries = any(not air_units.is_fighter(st, u) for u in enemy_units)
    sent = sum(len(g["units"]) for g in air_flights.flights(st).values() if g.get("target_flight") == fl["id"])
    want = len(enemy_units) + (1 if carries else 0)
    if sent >= want or (not carries and len(air_interception.interceptors(st, fl)) + sent <= len(enemy_units)):
        return None
    cands = sorted(air_interception.interceptors(st, fl), key=lambda u: (-_power(st, u), u.id))
    if not cands:
        return None
    base = cands[0].location
    units = [u.id for u in cands if u.location == base][:max(want - sent, 1)]
    return ctx.first_ok([{"kind": "intercept", "units": units}])


# == Naval and Air phase (12.3) =================================================================
def _naval_strike(ctx: Context) -> dict[str, Any] | None:
    """Naval and Air Step 2 (16.0): bombers attack the enemy ships their bases reach -- named
    ships and convoys first -- with the fighters of their base as escort, once a step."""
    from workbench.rulesets.eto import naval_units
    from workbench.rulesets.eto.air_missions import candidate_targets
    from workbench.rulesets.eto.air_naval import naval_targets

    st = ctx.state
    if ctx.memo.get("struck"):
        return None
    best = None
    for u in air_units.air_units(st, ctx.side):
        if not air_units.class_row(st, u).get("bomber") or u.props.get("carrier") \
                or air_missions.unit_why_not(st, ctx.side, u, "attack_naval"):
            continue
        for to in candidate_targets(st, ctx.side, u, "attack_naval")[:3]:
            ships = naval_targets(st, ctx.side, to)
            value = sum(3 if naval_units.is_named(st, s) else 2 if naval_units.is_stp(st, s) else 1 for s in ships)
            if value and (best is None or value > best[0]):
                best = (value, to)
    if best is None:
        return None
    to = best[1]
    free = _free(ctx, "attack_naval", to)
    bombers = [u for u in free if air_units.class_row(st, u).get("bomber")]
    ctx.memo["struck"] = True
    return _send(ctx, "attack_naval", to, bombers) if bombers else None


def _sweep(ctx: Context) -> dict[str, Any] | None:
    """Fighters attack an enemy airbase they outnumber (12.3, 14.5)."""
    st = ctx.state
    enemy = values.other(ctx.side)
    bases = sorted({u.location for u in air_units.air_units(st, enemy) if values.on_map(u) and not air_units.airborne(u)})
    best = None
    for b in bases:
        attackers = _free(ctx, "attack_air", b)
        defenders = airbases.based_at(st, b, enemy)
        if len(attackers) > len(defenders) + 1:
            score = len(attackers) - len(defenders)
            if best is None or score > best[0]:
                best = (score, b, attackers)
    if best is None:
        return None
    return _send(ctx, "attack_air", best[1], best[2])


def _rebase(ctx: Context) -> dict[str, Any] | None:
    """A unit out of reach of every enemy unit moves to a vacant base nearer the front (12.3)."""
    st, hm = ctx.state, ctx.state.map
    if ctx.memo.get("rebased", 0) >= 4:
        return None
    enemy_hexes = [hm.index(u.location) for u in st.units_by_id.values()
                   if u.side == values.other(ctx.side) and values.on_map(u)]
    if not enemy_hexes:
        return None
    d = hm.dist_to_set(enemy_hexes)
    for u in _free(ctx, "change_base"):
        if d[hm.index(u.location)] <= air_units.air_range(st, u):
            continue
        hop = 2 * air_units.air_range(st, u)
        cands = [b for b in airbases.friendly_bases(st, ctx.side)
                 if hm.distance(u.location, b) <= hop and d[hm.index(b)] < d[hm.index(u.location)]
                 and airbases.has_room(st, ctx.side, b, u)]
        cands.sort(key=lambda b: (abs(int(d[hm.index(b)]) - air_units.air_range(st, u)), b))
        order = ctx.first_ok([{"kind": "fly", "units": [u.id], "mission": "change_base", "to": b} for b in cands[:3]])
        if order is not None:
            ctx.memo["rebased"] = ctx.memo.get("rebased", 0) + 1
            return order
    return None


# == air offensives (21.0) ======================================================================
def _strike_target(ctx: Context) -> str | None:
    """The enemy airbase with the most air units on it that our bombers reach."""
    st = ctx.state
    enemy = values.other(ctx.side)
    best = None
    for b in sorted({u.location for u in air_units.air_units(st, enemy) if values.on_map(u)
                     and not air_units.airborne(u)}):
        n = len(airbases.based_at(st, b, enemy))
        bombers = [u for u in _free(ctx, "bomb", b) if not air_units.has_quality(st, u)]
        if bombers and (best is None or n > best[0]):
            best = (n, b)
    return best[1] if best else None


def _air_offensive_strike(ctx: Context) -> dict[str, Any] | None:
    to = _target(ctx, _strike_target)
    if to is None:
        return None
    bombers = [u for u in _free(ctx, "bomb", to) if not air_units.has_quality(ctx.state, u)]
    if bombers:
        return _send(ctx, "bomb", to, bombers)
    fighters = _free(ctx, "attack_air", to)
    if fighters and airbases.based_at(ctx.state, to, values.other(ctx.side)):
        return _send(ctx, "attack_air", to, fighters)
    return None


def wants_air_offensive(ctx: Context) -> bool:
    key = ("air_offensives", ctx.state.turn)
    if ctx.policy.game_memo.get(key, 0) >= AIR_OFFENSIVES_PER_MONTH:
        return False
    st = ctx.state
    if not any(air_units.is_air(st, u) and values.on_map(u) for u in air_units.air_units(st, ctx.side)):
        return False
    enemy = values.other(ctx.side)
    bases = {u.location for u in air_units.air_units(st, enemy) if values.on_map(u) and not air_units.airborne(u)}
    return any(st.map.distance(u.location, b) <= air_units.air_range(st, u)
               for u in air_units.air_units(st, ctx.side) if values.on_map(u) and not air_units.has_quality(st, u)
               for b in bases)


def begin(ctx: Context) -> dict[str, Any] | None:
    """Begin an offensive to fly it in the air when no land attack is possible (21.0)."""
    if land_front(ctx) or not wants_air_offensive(ctx):
        return None
    order = ctx.first_ok(ctx.legal("begin"))
    if order is not None:
        ctx.policy.game_memo[("air_offensives", ctx.state.turn)] = \
            ctx.policy.game_memo.get(("air_offensives", ctx.state.turn), 0) + 1
    return order


def land_front(ctx: Context) -> bool:
    """Whether any own combat unit stands next to an enemy land unit across a hexside it may attack
    across (26.0, 24.1: not an all-sea hexside): a land offensive can attack."""
    st, hm = ctx.state, ctx.state.map
    enemy = {u.location for u in st.units_by_id.values()
             if u.side == values.other(ctx.side) and values.on_map(u) and values.is_land_unit(st, u)}
    return any(values.on_map(u) and values.is_combat_unit(st, u)
               and any(hm.distance(u.location, e) == 1 and can_attack_across(st, u.location, e) for e in enemy)
               for u in st.units_by_id.values() if u.side == ctx.side)


def air_offensive(ctx: Context) -> dict[str, Any] | None:
    """Step 1: an air offensive when no land attack is possible anywhere (21.1); the land
    planners get the offensive otherwise."""
    if ctx.memo.get("air_checked"):
        return None
    ctx.memo["air_checked"] = True
    if land_front(ctx) or not wants_air_offensive(ctx):
        return None
    opts = [o for o in ctx.legal("air_offensive") if not o.get("impromptu")]
    opts = [o for o in opts if track(ctx.state, f"{o['nations'][0]}.offensives") > 0]
    return ctx.first_ok(opts[:1])
