"""Atomic weapons (SSA-22.14): one bomb, delivered by a strategic bomber or a missile.

With rule 22.14 in use:

* Delivery (22.14b-c).  A strategic bomber that begins the movement phase in the bomb's
  hex (a friendly airbase) picks it up and flies it to the target in the Initial Movement
  phase: ``{"kind": "atomic_mission", "bomber": id, "bomb": id, "to": hex}``.  It may be
  intercepted (shot down, the bomb is lost with it; turned back, it brings the bomb home).
  In the aerial step the bomb falls: ``{"kind": "atomic_attack", "bomb": id}``, with no AA
  fire and no normal bombardment.  Or a strategic missile that began the movement phase in
  the bomb's hex (an airbase) carries it like any missile (22.13, anywhere):
  ``{"kind": "atomic_attack", "bomb": id, "missile": id, "target": hex or box}``.
* Effects (22.14d, ``tables/crt.toml [atomic]``): a city or Panama Canal hex is marked
  strategically bombed and every transportation line in the hex destroyed (the strategic
  bombing marker does both); each land and naval unit there is attacked on its own at 3-1
  (partisan undergrounds and special operations of the attacker's too); every air unit on
  the ground there is eliminated.  The bomb (and missile) is used up (22.14e).
* The hex may not be attacked in any other way that Combat phase, and no second atomic
  attack may hit it (22.14f).
* Morale (22.14g, ``tables/morale.toml``): the first atomic attack by either player on an
  enemy city or holding area costs the victim 5 x 1d6 morale, every later one 3 x 1d6;
  units it destroys count as losses as usual (SSA-21), the attacker's own partisans and
  special operations excepted (22.14h(4)).
* Restrictions (22.14h): the Allies never hit a city/industrial hex; the Axis never a
  holding area; the Allies may hit Europe or the Far East, by missile, for the morale loss
  alone; never a hex with friendly units other than partisan undergrounds and special
  operations.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import adjudicate as adj
from workbench.rulesets.ssa import values, weather
from workbench.rulesets.ssa.air import (
    INITIAL,
    air_range,
    base_kind,
    city_kinds,
    flying,
    grounded,
    is_air,
    land_base_capacity,
    range_refusal,
)
from workbench.rulesets.ssa.losses import ELIMINATED, eliminate
from workbench.rulesets.ssa.missiles import (
    AERIAL,
    AIR_ATTACKED,
    ATOMIC_HEXES,
    boxes_table,
    missile_refusal,
)
from workbench.rulesets.ssa.movement import other
from workbench.rulesets.ssa.special_units import in_use
from workbench.rulesets.ssa.special_weapons import ATOMIC, MISSILE, carrier, expend, load, where

PART = "SSA-22.14"
MISSION = "atomic"
START = "weapons_at_start"   # markers: where each weapon stood as the Initial Movement phase began
FIRST_USE = "atomic_used"    # markers: an atomic attack on an enemy city or holding area has happened (A25)
EXEMPT = ("partisan", "special_operations")


def _table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["crt"]["atomic"]


def remember_start(state: State, step: Any = None) -> None:
    """SSA-22.14c: note where every weapon is as the phasing player's movement phase begins."""
    if in_use(state, PART):
        state.markers[START] = {w.id: where(state, w) for w in state.units_by_id.values()
                                if w.type in (ATOMIC, MISSILE) and w.side == state.phasing
                                and w.location != ELIMINATED}


def _exempt(unit: Unit) -> bool:
    """22.14h(4): partisan undergrounds and special operations may share the target hex."""
    return unit.type in EXEMPT


def _bomb(state: State, side: str, bid: Any) -> Unit | Refusal:
    b = state.units_by_id.get(bid) if isinstance(bid, str) else None
    if b is None or b.side != side or b.type != ATOMIC or b.location == ELIMINATED:
        return Refusal("SSA-22.14", f"{bid!r} is not one of your atomic weapons")
    return b


def target_refusal(state: State, side: str, target: Any, *, by_missile: bool) -> Refusal | None:
    """SSA-22.14.G, f, h: what an atomic weapon of ``side`` may hit."""
    hm = state.map
    if isinstance(target, str) and target in state.ruleset.boxes:
        if side == "axis":
            return Refusal("SSA-22.14h(2)", "the Axis may not use atomic weapons against holding areas")
        if target not in boxes_table(state)["allied_atomic_vs"]:
            return Refusal("SSA-22.14h(3)", "the Allies' atomic weapons reach only the Europe and Far East holding areas")
        if not by_missile:
            return Refusal("SSA-22.14h(3)", "an atomic weapon reaches Europe or the Far East on a strategic missile")
        return None
    if not isinstance(target, str) or not hm.has_hex(target):
        return Refusal("SSA-22.14", f"{target!r} is not a hex of the map")
    i = hm.index(target)
    city = bool(city_kinds(state)[i])
    if side == "allies" and city:
        return Refusal("SSA-22.14h(1)", "the Allies may not use atomic weapons against city or industrial hexes")
    here = [u for u in state.units_by_id.values() if u.location == target and not flying(u)]  # not aircraft aloft
    if any(u.side == side and not _exempt(u) for u in here):
        return Refusal("SSA-22.14h(4)", f"{target} holds friendly units: an atomic weapon may not be dropped there")
    from workbench.rulesets.ssa.occupation import city_owner

    enemy_city = city and city_owner(state, i) == other(side)
    if not enemy_city and not any(u.side == other(side) for u in here):
        return Refusal("SSA-22.14.G", f"{target} is neither an enemy city nor a hex with enemy units")
    if target in state.markers.get(ATOMIC_HEXES, []):
        return Refusal("SSA-22.14f", f"{target} was already hit by an atomic attack this Combat phase")
    if target in state.markers.get(AIR_ATTACKED, []):
        return Refusal("SSA-22.14f", f"{target} was already attacked this Combat phase; a hex hit by an atomic "
                       "attack may not be attacked in any other way")
    return None


def candidate_targets(state: State, side: str, *, by_missile: bool) -> list[str]:
    """What ``legal`` offers before :func:`target_refusal` filters: every hex holding enemy units
    or an enemy-controlled city (22.14.G), and for a missile the holding areas (22.14h(3))."""
    from workbench.rulesets.ssa.occupation import city_owner

    hm = state.map
    hexes = {u.location for u in state.units_by_id.values()
             if u.side == other(side) and u.location.isdigit() and hm.has_hex(u.location)}
    kinds = city_kinds(state)
    hexes |= {hm.label(i) for i in range(hm.size) if kinds[i] and city_owner(state, i) == other(side)}
    out = sorted(hexes)
    if by_missile and side == "allies":
        out += list(boxes_table(state)["allied_atomic_vs"])
    return out


class AtomicMissionOrder(OrderKind):
    """SSA-22.14c: a strategic bomber picks up the bomb in its hex and flies it to the target."""

    kind = "atomic_mission"
    rule = "SSA-22.14c"

    def _why_not(self, state: State, order: dict[str, Any]) -> Refusal | None:
        side = state.decision.side
        if not in_use(state, PART):
            return Refusal("SSA-22.G", "atomic weapons belong to the special-units rule (optional rule 22.14), "
                           "which this game does not use")
        if (state.step.key if state.step else "") != INITIAL:
            return Refusal("SSA-22.14c", "a bomber takes an atomic weapon out in the Initial Movement phase")
        b = _bomb(state, side, order.get("bomb"))
        if isinstance(b, Refusal):
            return b
        bid = order.get("bomber")
        bomber = state.units_by_id.get(bid) if isinstance(bid, str) else None
        if bomber is None or bomber.side != side or not values.value(state, bomber, "atomic_delivery", False) \
                or not is_air(state, bomber):
            return Refusal("SSA-22.14b", f"{bid!r} is not one of your strategic bombers (only they and missiles "
                           "deliver atomic weapons)")
        if not grounded(state, bomber) or bomber.props.get("flown") or bomber.props.get("transferred"):
            return Refusal("SSA-22.14c", f"{bomber.id} must be on the ground and not have flown this turn")
        at = state.markers.get(START, {}).get(b.id, where(state, b))
        if at != bomber.location or where(state, b) != bomber.location:
            return Refusal("SSA-22.14c", f"{bomber.id} must begin the movement phase in the atomic weapon's hex "
                           f"({at})")
        if not bomber.location.isdigit() or land_base_capacity(state, side)[state.map.index(bomber.location)] <= 0:
            return Refusal("SSA-22.14c", f"the atomic weapon must be at a friendly airbase; {bomber.location} is not one")
        to = order.get("to")
        why = target_refusal(state, side, to, by_missile=False)
        if why:
            return why
        why = weather.flight_refusal(state, bomber, bomber.location, to)
        if why:
            return why
        return range_refusal(state, bomber, to, air_range(state, bomber), "SSA-6.2", f"{bomber.id}'s range is")

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        if not in_use(state, PART) or (state.step.key if state.step else "") != INITIAL:
            return []
        bombs = [b for b in state.units_by_id.values() if b.type == ATOMIC and b.side == side
                 and b.location != ELIMINATED]
        if not bombs:
            return []
        targets = [t for t in candidate_targets(state, side, by_missile=False)
                   if target_refusal(state, side, t, by_missile=False) is None]
        out = []
        for b in sorted(bombs, key=lambda u: u.id):
            here = where(state, b)
            for bomber in sorted(state.units_by_id.values(), key=lambda u: u.id):
                if bomber.side != side or bomber.location != here or not values.value(state, bomber, "atomic_delivery",
                                                                                     False):
                    continue
                for t in targets:
                    o = {"kind": self.kind, "bomber": bomber.id, "bomb": b.id, "to": t}
                    if self._why_not(state, o) is None:
                        out.append(o)
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        why = self._why_not(state, order)
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        bomber, b, to = state.unit(order["bomber"]), state.unit(order["bomb"]), order["to"]
        start = bomber.location
        load(state, b, bomber)
        bomber.props.update({"flying": True, "base": start, "base_kind": base_kind(state, bomber),
                             "mission": MISSION, "target": to, "flown": True})
        bomber.location = to
        state.emit("fly", side=bomber.side, rule=self.rule, unit=bomber.id, start=start, to=to, mission=MISSION,
                   text=f"{bomber.id} flies {start} → {to} with the atomic weapon {b.id}")


class AtomicAttackOrder(OrderKind):
    """SSA-22.14c-h: the bomb falls from its bomber over the target, or rides a missile."""

    kind = "atomic_attack"
    rule = "SSA-22.14d"

    def _plan(self, state: State, order: dict[str, Any]) -> tuple[Unit, Unit | None, Unit | None, str] | Refusal:
        side = state.decision.side
        if not in_use(state, PART):
            return Refusal("SSA-22.G", "atomic weapons belong to the special-units rule (optional rule 22.14), "
                           "which this game does not use")
        if (state.step.key if state.step else "") != AERIAL:
            return Refusal("SSA-22.14c", "atomic attacks are made in the friendly Combat phase (its aerial step)")
        b = _bomb(state, side, order.get("bomb"))
        if isinstance(b, Refusal):
            return b
        mid = order.get("missile")
        if mid is None:  # from the bomber carrying it
            bomber = carrier(state, b)
            if bomber is not None and bomber.props.get("mission") == "aborted" \
                    and bomber.props.get("aborted_mission") == MISSION:
                return Refusal("SSA-22.14c", f"{bomber.id} was turned back by interception: it brings {b.id} "
                               "home and cannot drop it")
            if bomber is None or not is_air(state, bomber) or not flying(bomber) \
                    or bomber.props.get("mission") != MISSION:
                return Refusal("SSA-22.14c", f"{b.id} is not aboard a strategic bomber on an atomic mission")
            if bomber.location != bomber.props.get("target"):
                return Refusal("SSA-22.14c", f"{bomber.id} was turned back and cannot drop {b.id}")
            target = bomber.location
            why = target_refusal(state, side, target, by_missile=False)
            return why if why else (b, bomber, None, target)
        m = missile_with(state, side, b, mid)
        if isinstance(m, Refusal):
            return m
        target = order.get("target")
        why = target_refusal(state, side, target, by_missile=True)
        return why if why else (b, None, m, target)

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        if not in_use(state, PART) or (state.step.key if state.step else "") != AERIAL:
            return []
        out = []
        bombs = [b for b in sorted(state.units_by_id.values(), key=lambda u: u.id)
                 if b.type == ATOMIC and b.side == side and b.location != ELIMINATED]
        missiles = [m for m in sorted(state.units_by_id.values(), key=lambda u: u.id)
                    if m.type == MISSILE and m.side == side and m.location != ELIMINATED]
        targets: list[str] | None = None
        for b in bombs:
            o = {"kind": self.kind, "bomb": b.id}
            if not isinstance(self._plan(state, o), Refusal):
                out.append(o)
            for m in missiles:  # SSA-22.14c: or on a missile that began the movement phase with it
                if isinstance(missile_with(state, side, b, m.id), Refusal):
                    continue
                if targets is None:
                    targets = [t for t in candidate_targets(state, side, by_missile=True)
                               if target_refusal(state, side, t, by_missile=True) is None]
                out += [{"kind": self.kind, "bomb": b.id, "missile": m.id, "target": t} for t in targets]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        plan = self._plan(state, order)
        if isinstance(plan, Refusal):
            raise IllegalOrder.of(plan, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        b, bomber, missile, target = self._plan(state, order)  # type: ignore[misc]
        side = state.decision.side
        how = f"dropped by {bomber.id}" if bomber else f"on {missile.id}"
        state.emit("atomic_attack", side=side, rule=self.rule, bomb=b.id, target=target,
                   delivery=(bomber or missile).id, text=f"atomic attack on {target} ({b.id}, {how})")
        if bomber is not None:
            bomber.props["attacked"] = True
        expend(state, b, "SSA-22.14e", f"used on {target}")
        if missile is not None:
            expend(state, missile, "SSA-22.13e", f"carried {b.id} to {target}")
        state.markers.setdefault(ATOMIC_HEXES, []).append(target)
        if target in state.ruleset.boxes:  # 22.14h(3): morale alone
            morale_loss(state, side, target)
            return
        effects(state, side, target)
        i = state.map.index(target)
        from workbench.rulesets.ssa.occupation import city_owner

        if city_kinds(state)[i] and city_owner(state, i) == other(side):
            morale_loss(state, side, target)


def missile_with(state: State, side: str, bomb: Unit, mid: Any) -> Unit | Refusal:
    """SSA-22.14c: a missile ready to fire (22.13a-b) that began the movement phase in the bomb's
    hex, a friendly airbase, and is still there with it."""
    why = missile_refusal(state, side, mid)
    if why:
        return why
    m = state.unit(mid)
    start = state.markers.get(START, {})
    at_b, at_m = start.get(bomb.id, where(state, bomb)), start.get(m.id, where(state, m))
    if at_b != at_m or where(state, bomb) != at_b or where(state, m) != at_m:
        return Refusal("SSA-22.14c", f"{m.id} must begin the movement phase in the atomic weapon's hex ({at_b})")
    if not at_b.isdigit() or land_base_capacity(state, side)[state.map.index(at_b)] <= 0:
        return Refusal("SSA-22.14c", f"the atomic weapon must be at a friendly airbase; {at_b} is not one")
    return m


def effects(state: State, side: str, target: str) -> None:
    """SSA-22.14d: marker and lines, each unit at 3-1 on its own, grounded air eliminated."""
    from workbench.rulesets.ssa.air_combat import place_bombed
    from workbench.rulesets.ssa.retreat import start_retreats

    place_bombed(state, target, side, rule="SSA-22.14d", how="atomic attack")
    t = _table(state)
    tables = state.ruleset.tables
    retreats: dict[str, list[str]] = {}
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if u.location != target or u.props.get("carried"):
            continue
        if is_air(state, u):
            if grounded(state, u):  # (4) air units on the ground; those in the air are spared
                _lose(state, side, u, "eliminate", " (on the ground under an atomic attack)")
            continue
        dom = values.domain(state, u)
        if dom not in ("land", "naval") or values.is_leader(state, u):
            continue
        (die,) = state.roll(purpose=f"atomic attack on {u.id} at {target} ({t['column']})", rule="SSA-22.14d",
                            side=side)
        result = adj.crt(str(t["column"]), die, tables=tables)
        effect = t["land" if dom == "land" else "naval"].get(result)
        state.emit("atomic_result", side=side, rule="SSA-22.14d", unit=u.id, die=die, result=result,
                   effect=effect or "none", text=f"{u.id}: die {die} at {t['column']}: {result} ({effect or 'no effect'})")
        if effect == "retreat":
            retreats.setdefault(u.side, []).append(u.id)
        elif effect:
            _lose(state, side, u, effect, "")
    for owner, ids in sorted(retreats.items()):
        start_retreats(state, owner, [x for x in ids if state.unit(x).location == target], "SSA-22.14d",
                       away_from=[target])


def _lose(state: State, side: str, u: Unit, effect: str, why: str) -> None:
    """One unit's loss (``reduce``: a land unit's step, a naval unit's damage, SSA-13.9, with
    what rides on it); the attacker's own partisans and special operations cost nobody morale
    (22.14h(4))."""
    from workbench.rulesets.ssa import morale
    from workbench.rulesets.ssa.casualties import lose

    own = u.side == side
    before = dict(state.markers.get(morale.LOSSES, {}))
    if why:
        eliminate(state, u, "SSA-22.14d", why)
    else:
        lose(state, u, effect, "SSA-22.14d")
    if own:
        state.markers[morale.LOSSES] = before


def morale_loss(state: State, side: str, target: str) -> None:
    """SSA-22.14g: 5 x 1d6 the first time either player hits an enemy city or holding area,
    3 x 1d6 after (one global first-use flag, ruling A25)."""
    from workbench.rulesets.ssa import morale

    first = not state.markers.get(FIRST_USE)
    state.markers[FIRST_USE] = True
    times = 5 if first else 3
    victim = other(side)
    (die,) = state.roll(purpose=f"morale lost to the atomic attack on {target} ({times} x 1d6)",
                        rule="SSA-22.14g", side=side)
    morale.change(state, victim, -times * die, "SSA-22.14g",
                  f"{'first' if first else 'a later'} atomic attack, on {target}: {times} x {die}")


ORDER_KINDS = {"atomic_mission": AtomicMissionOrder(), "atomic_attack": AtomicAttackOrder()}
