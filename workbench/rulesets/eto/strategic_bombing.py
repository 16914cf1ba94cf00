"""Strategic bombing (ETO-2.0-2.5, 12.2, 13.7) in Step 1 of the monthly Strategic Warfare phase.

The phase runs only with ``[options] strategic-warfare = true`` (``sequence.toml``).  Step 1:

* ``strategic/bombing/boxes`` (2.3, both sides): air units that begin the phase in a strategic
  bombing box may stay for this turn's raid or go home.  ``{"kind": "leave_box", "units": [...],
  "to": {id: base}}`` returns units to bases of the eligible area (not a change of base; they may
  fly other missions this turn).  Those left in the box stay if their owner has enough vacant
  bases for them (:func:`bases_for_kept`); the others return at the end of the step.
* ``strategic/bombing/raids/raid`` (2.2, the Allies first, then the Axis): the raider's
  ``{"kind": "raid", "target": "GE", "bombers": [...], "rail": [...], "escorts": [...],
  "us_bonus": n, "loser": id, "rail_loser": id, "targets": {...}}`` puts bombers (fighter-bombers
  as bombers) and escorts (fighters, fighter-bombers as fighters) in his box, uninterceptable
  (13.7, 14.4).  ``rail`` names the bombers that bomb rail capacity (2.4); ``us_bonus`` the most
  of 2.5's +1s the raider will use (default all); ``loser``/``rail_loser`` the bomber that takes
  an asterisk's step (default :func:`installation_bombing.default_loser`).
* The sides then alternate adding fighters (``reinforce_box`` or ``pass``, an interrupt): the
  defender first (fighters based in the target country), the raider's escorts after (only if he
  placed at least one).  A side that passes forfeits the rest of the raid (2.2).
* Air-to-air combat in the box (15.0; no own-base bonus, no blitzkrieg, 44.3); aborted units are
  set aside in the box (PC) and take no further part.  The unaborted bombers roll 2d6 on the
  Bombing Table (``tables/bombing.toml``): the normal raid's result is the EPs the target loses
  at once (Part 3), the rail raid's the rail capacity it loses this turn (2.4, ``rail.capacity``).

Units in a box stay there for the rest of the turn (13.7: :func:`commitment.in_bombing_box` makes
them PC, and every mission code refuses units that are not on the map).  Unit props while in the
box: ``sb_mission`` ("eps", "rail", "escort" or "defend"), ``sb_target`` (the target country),
``sb_turn`` (the turn it joined a raid), ``role`` (12.1) and ``base`` (the base it left).
The raid in progress is ``state.markers["strategic_bombing"]["raid"]``.  Rulings:
docs/rulings-eto.md, "Strategic bombing".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    air_combat,
    air_units,
    airbases,
    commitment,
    convoys,
    income,
    installation_bombing,
    italian_restrictions,
    rail,
    supply,
    values,
)
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import air_grounded

RULE = "ETO-2.2"
#: The box each side's raids use (the map's ``strategic_bombing`` boxes, 13.7).
BOXES = {"allies": "Allied strategic bombing box", "axis": "Axis strategic bombing box"}
MARKER = "strategic_bombing"
ADD = "strategic_add"                   # the interrupt: add fighters to the box, or pass
DECLINED = "strategic/declined"         # its on_pass procedure
BOXES_STEP = "strategic/bombing/boxes"
RAID_STEP = "strategic/bombing/raids/raid"
SB_PROPS = ("sb_mission", "sb_target", "sb_turn", "sb_kept")


# == where, what, who =========================================================================
def box_of(side: str) -> str:
    """ETO-13.7: the strategic bombing box ``side``'s raids use."""
    return BOXES[side]


def raider_of_box(box: str) -> str:
    return next(s for s, b in BOXES.items() if b == box)


def in_box(u: Unit) -> bool:
    return u.location in BOXES.values()


def box_units(state: State, box: str, side: str | None = None) -> list[Unit]:
    """The air units in ``box`` (of ``side``), by id."""
    return sorted((u for u in state.units_by_id.values() if u.location == box and (side is None or u.side == side)
                   and air_units.is_air(state, u)), key=lambda u: u.id)


def record(state: State) -> dict[str, Any]:
    return state.markers.setdefault(MARKER, {})


def current_raid(state: State) -> dict[str, Any] | None:
    return state.markers.get(MARKER, {}).get("raid")


def side_of_nation(state: State, nation: str) -> str | None:
    return next((s for s, ns in state.game.scenario.sides.items() if nation in ns), None)


def target_mask(state: State, nation: str) -> np.ndarray:
    """ETO-2.1: the resource hexes (city resource hexes included) of ``nation``'s home country
    (original borders) that its side still holds."""
    side = side_of_nation(state, nation)
    ta = terrain_arrays(state)
    if side is None:
        return np.zeros(state.map.size, dtype=bool)
    return home_mask(state, nation, original=True) & (ta.resource | ta.city_resource) \
        & (control(state) == SIDE_CODE[side])


def targets(state: State, side: str) -> list[str]:
    """ETO-2.2: the countries ``side`` may bomb: the enemy major powers with a resource hex of
    their own (the Allies bomb Germany or Italy, the Axis Britain or the USSR)."""
    enemy = values.other(side)
    return [n for n, s in income.majors(state) if s == enemy and target_mask(state, n).any()]


def reach(state: State, nation: str) -> np.ndarray:
    """``int[N]``: distance from every hex to the nearest resource hex of ``nation`` where air is
    not grounded (2.1: grounding in the target resource hexes prohibits bombing them)."""
    def make() -> np.ndarray:
        mask = target_mask(state, nation) & ~air_grounded(state)
        return state.map.dist_to_set(np.flatnonzero(mask))

    grounded = tuple(sorted(k for k, v in state.tracks.items() if k.startswith("grounded.") and v))
    return state.derived(("eto.sb.reach", nation), make, state.event_stamp, grounded)


def out_of_supply(state: State, u: Unit) -> bool:
    """ETO-2.1 "not marked out of supply": the OOS mark, or a base that traces no supply line
    (as an ATP's, 18.5)."""
    if u.props.get("oos"):
        return True
    return supply.reach(state, values.major_of(state, u.nation), u.side)[state.map.index(u.location)] < 0


def _can_fly_from_base(state: State, u: Unit, side: str, rule: str) -> Refusal | None:
    """The checks every unit leaving a base for the box passes (2.1, 13.4, 1.4, 20.0, 20.1)."""
    if u.side != side:
        return Refusal(rule, f"{u.id} belongs to {u.side}, not {side}")
    if not air_units.is_air(state, u):
        return Refusal("ETO-12.1", f"{u.id} is not an air unit")
    if commitment.carrier_based(u):
        return Refusal("ETO-2.1", f"{u.id} is carrier-based; only land-based air units bomb or defend "
                                  "strategically")
    if not values.on_map(u) or air_units.airborne(u):
        return Refusal("ETO-2.1", f"{u.id} is not on an airbase (it is {u.location})")
    if u.props.get("overstacked"):
        return Refusal("ETO-13.4", f"{u.id} is overstacked at {u.location}: it may only change base")
    if out_of_supply(state, u):
        return Refusal("ETO-2.1", f"{u.id} is out of supply; units out of supply take no part in strategic "
                                  "bombing")
    if air_grounded(state)[state.map.index(u.location)]:
        return Refusal("ETO-2.1", f"air is grounded at {u.location} this month; no strategic bombing from "
                                  "(or defence from) a grounded base")
    return commitment.may_fly(state, u, phase="strategic")


def raider_why_not(state: State, side: str, u: Unit, nation: str, role: str) -> Refusal | None:
    """ETO-2.1/12.1: why ``u`` may not join ``side``'s raid on ``nation`` as a ``role``
    ("bomber" or "fighter" escort), or None.  Land-based, on a base, not out of supply, not
    grounded at the base, uncommitted, its base within range of a resource hex of ``nation``
    that is not grounded."""
    why = _can_fly_from_base(state, u, side, "ETO-2.1") or italian_restrictions.attack_why_not(
        state, u, "a strategic bombing raid")  # 46.1 (optional)
    if why:
        return why
    row = air_units.class_row(state, u)
    if role == "bomber" and not row.get("bomber"):
        return Refusal("ETO-12.1", f"{u.id} is a fighter; it may go in as an escort, not as a bomber")
    if role == "fighter" and not row.get("fighter"):
        return Refusal("ETO-12.1", f"{u.id} is a bomber; only fighters and fighter-bombers escort")
    dist = int(reach(state, nation)[state.map.index(u.location)])
    rng = air_units.air_range(state, u)
    if dist > rng:
        where = "no resource hex of it is free of grounding" if dist >= 10**6 else \
            f"the nearest is {dist} hexes from {u.location}"
        return Refusal("ETO-2.1", f"{u.id} cannot reach a resource hex of {nation} (range {rng}; {where})")
    return None


def defender_why_not(state: State, side: str, u: Unit, nation: str) -> Refusal | None:
    """ETO-2.1: why ``u`` may not defend ``nation`` against a raid: "enemy fighters (not out of
    supply) on bases within the country being attacked" -- fighters and fighter-bombers as
    fighters, uncommitted, not grounded."""
    why = _can_fly_from_base(state, u, side, "ETO-2.1")
    if why:
        return why
    if not air_units.class_row(state, u).get("fighter"):
        return Refusal("ETO-2.1", f"{u.id} is a bomber; only fighters defend against strategic bombing")
    if not home_mask(state, nation, original=True)[state.map.index(u.location)]:
        return Refusal("ETO-2.1", f"{u.id} is based at {u.location}, outside {nation}; only fighters based in "
                                  "the country attacked defend it")
    return None


def eligible(state: State, side: str, nation: str, role: str) -> list[Unit]:
    """``side``'s units that may join a raid on ``nation`` as ``role`` ("bomber", "fighter") or
    defend it ("defend")."""
    out = []
    for u in air_units.air_units(state, side):
        if role == "defend":
            ok = defender_why_not(state, side, u, nation) is None
        else:
            ok = raider_why_not(state, side, u, nation, role) is None
        if ok:
            out.append(u)
    return out


# == 2.3: units already in the box ==============================================================
def _eligible_bases(state: State, u: Unit) -> list[str]:
    """ETO-2.3: "the eligible area" for ``u`` (in a box): a raider's friendly bases within its
    range of the country it bombs, a defender's friendly bases in the country it defends; bases
    where air is grounded are left out (1.4)."""
    nation = str(u.props.get("sb_target", ""))
    grounded = air_grounded(state)
    hm = state.map
    bases = [b for b in airbases.friendly_bases(state, u.side) if not grounded[hm.index(b)]]
    if not nation:
        return bases
    if u.props.get("sb_mission") == "defend":
        home = home_mask(state, nation, original=True)
        return [b for b in bases if home[hm.index(b)]]
    far = reach(state, nation)
    rng = air_units.air_range(state, u)
    return [b for b in bases if int(far[hm.index(b)]) <= rng]


def _vacancies(state: State, side: str) -> dict[str, int]:
    return {b: airbases.capacity(state, b) - airbases.load(state, b, side)
            for b in airbases.friendly_bases(state, side)}


def bases_for_kept(state: State, units: list[Unit]) -> tuple[list[Unit], list[Unit]]:
    """ETO-2.3: which of ``units`` (one side, in a box) may stay -- "enough intact airbases (at
    which his units could base)" in their eligible area, 13.2 basing limits (vacant bases only).
    The attacker's areas nest by range, so the shortest-ranged units are matched first; returns
    (stay, must return)."""
    if not units:
        return [], []
    free = _vacancies(state, units[0].side)
    stay, back = [], []
    for u in sorted(units, key=lambda u: (air_units.air_range(state, u), u.id)):
        spot = next((b for b in _eligible_bases(state, u) if free.get(b, 0) > 0), None)
        if spot is None:
            back.append(u)
        else:
            free[spot] -= 1
            stay.append(u)
    return stay, back


def _home_base(state: State, u: Unit, to: str | None = None) -> str | None:
    """Where ``u`` lands leaving the box: ``to`` if given (checked), else a vacant base of its
    eligible area nearest the base it left, else any vacant friendly base nearest it, else a base
    of the area with room to overstack (13.4); None: no friendly base at all."""
    if to is not None:
        if to not in _eligible_bases(state, u):
            raise IllegalOrder("ETO-2.3", f"{to} is not a friendly airbase in {u.id}'s eligible area (a base "
                                          "within its range of the country bombed, or in the country defended)")
        refuse(airbases.may_base_why_not(state, u, to))
        return to
    hm = state.map
    old = str(u.props.get("base") or "")
    near = (lambda b: (hm.distance(old, b), b)) if values.on_map_label(old) and hm.has_hex(old) else (lambda b: (0, b))
    area = sorted(_eligible_bases(state, u), key=near)
    for b in area:
        if airbases.has_room(state, u.side, b, u):
            return b
    for b in sorted(airbases.friendly_bases(state, u.side), key=near):
        if airbases.has_room(state, u.side, b, u):
            return b
    for b in area:
        if airbases.may_base_why_not(state, u, b, overstack=True) is None:
            return b
    return None


def return_to_base(state: State, u: Unit, why: str, to: str | None = None) -> str | None:
    """ETO-2.3: ``u`` leaves the box for a base (not a change of base: it may fly other missions
    this turn); eliminated if its side has no base for it.  Returns the base."""
    base = _home_base(state, u, to)
    box = u.location
    for k in (*SB_PROPS, "role", "aborted"):
        u.props.pop(k, None)
    if base is None:
        airbases.eliminate(state, u, "ETO-2.3", f"no friendly airbase to return to from the {box}")
        return None
    airbases.land(state, u, base)
    state.emit("strategic_return", side=u.side, rule="ETO-2.3", unit=u.id, box=box, to=base,
               text=f"{u.id} returns from the {box} to {base}{why}"
                    + (" (overstacked)" if u.props.get("overstacked") else ""))
    return base


class LeaveBoxOrder(OrderKind):
    """``leave_box``: units that began the phase in a strategic bombing box return to bases of the
    eligible area instead of joining this turn's raid (ETO-2.3)."""

    kind = "leave_box"
    rule = "ETO-2.3"

    def _side(self, state: State) -> str:
        return state.decision.side if state.decision else ""

    def legal(self, state: State) -> list[dict[str, Any]]:
        if not state.step or state.step.key != BOXES_STEP:
            return []
        side = self._side(state)
        mine = [u.id for box in BOXES.values() for u in box_units(state, box, side)]
        if not mine:
            return []
        return [{"kind": "leave_box", "units": mine}] + ([{"kind": "leave_box", "units": [i]} for i in mine]
                                                        if len(mine) > 1 else [])

    def _plan(self, state: State, order: dict[str, Any]) -> list[Unit]:
        if not state.step or state.step.key != BOXES_STEP:
            raise IllegalOrder("ETO-2.3", "units leave a strategic bombing box at the start of Step 1 only")
        side = self._side(state)
        ids = order.get("units")
        if not ids:
            raise IllegalOrder("ETO-2.3", "name the units that leave the box")
        units = []
        for uid in ids:
            u = state.units_by_id.get(uid)
            if u is None or u.side != side or not in_box(u):
                raise IllegalOrder("ETO-2.3", f"{uid} is not a {side} air unit in a strategic bombing box")
            units.append(u)
        if len({u.id for u in units}) != len(units):
            raise IllegalOrder("ETO-2.3", "each unit is named once")
        to = order.get("to") or {}
        bad = [k for k in to if k not in ids]
        if bad:
            raise IllegalOrder("ETO-2.3", f"'to' names {bad[0]}, which is not leaving the box")
        for u in units:
            if u.id in to:
                _home_base(state, u, to[u.id])
        for base in set(to.values()):
            n = sum(1 for b in to.values() if b == base)
            room = airbases.capacity(state, base) - airbases.load(state, base, side)
            if n > room:
                raise IllegalOrder("ETO-13.4", f"{base} has {max(room, 0)} vacant bases; {n} units cannot all "
                                               "return there")
        return units

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        to = order.get("to") or {}
        for u in self._plan(state, order):
            return_to_base(state, u, " (its owner does not use it for strategic bombing, 2.3)", to.get(u.id))


def settle_boxes(state: State, *_: Any) -> None:
    """End of the 2.3 step: the units left in each box stay for this turn's raid if their owner
    has the bases for them (2.3, 13.2); the others return to base."""
    for box in BOXES.values():
        for side in (raider_of_box(box), values.other(raider_of_box(box))):
            stay, back = bases_for_kept(state, box_units(state, box, side))
            for u in back:
                return_to_base(state, u, " (not enough vacant airbases in its eligible area to stay, 2.3)")
            for u in stay:
                u.props["sb_kept"] = state.turn_label
                u.props.pop("aborted", None)
            if stay:
                ids = sorted(u.id for u in stay)
                state.emit("strategic_kept", side=side, rule="ETO-2.3", box=box, units=ids,
                           text=f"{', '.join(ids)} stay in the {box} for this turn's raid")


def kept(state: State, box: str, side: str) -> list[Unit]:
    """Units that stayed in ``box`` this turn (2.3)."""
    return [u for u in box_units(state, box, side) if u.props.get("sb_kept") == state.turn_label]


# == the raid =====================================================================================
def _enter(state: State, u: Unit, box: str, mission: str, nation: str) -> None:
    """ETO-13.7: "moved from its base to the appropriate strategic bombing box; no interception is
    allowed" (14.4).  Recorded as a Strategic Warfare mission (12.2, 20.1)."""
    if values.on_map(u):
        commitment.commit_for(state, u, phase="strategic")
        u.props["base"] = u.location
    u.location = box
    u.props.pop("base_order", None)
    u.props.update(sb_mission=mission, sb_target=nation, sb_turn=state.turn_label)
    if air_units.class_row(state, u).get("fighter") and air_units.class_row(state, u).get("bomber"):
        u.props["role"] = "bomber" if mission in ("eps", "rail") else "fighter"
    if values.on_map_label(str(u.props.get("base"))):
        airbases.refresh_overstack(state, str(u.props["base"]), u.side)


def _ids(order: dict[str, Any], key: str) -> list[str]:
    v = order.get(key) or []
    return list(v)


class RaidOrder(OrderKind):
    """``raid``: the raider puts his bombers and escorts in his strategic bombing box
    (ETO-2.1, 2.2, 2.4, 2.5)."""

    kind = "raid"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        if not state.step or state.step.key != RAID_STEP or current_raid(state) is not None:
            return []
        side = state.decision.side if state.decision else ""
        if side != state.phasing or record(state).get("done", {}).get(side) == state.turn_label:
            return []
        box = box_of(side)
        held = kept(state, box, side)
        fixed = {str(u.props.get("sb_target")) for u in held}
        out = []
        for nation in targets(state, side):
            if fixed and nation not in fixed:
                continue
            bombers = [u.id for u in eligible(state, side, nation, "bomber")
                       if not air_units.class_row(state, u).get("fighter")]
            has_kept_bomber = any(u.props.get("sb_mission") in ("eps", "rail") for u in held)
            if not bombers and not has_kept_bomber:
                continue
            escorts = [u.id for u in eligible(state, side, nation, "fighter")]
            order: dict[str, Any] = {"kind": "raid", "target": nation}
            if bombers:
                order["bombers"] = bombers
            out.append(order)
            if escorts:
                out.append({**order, "escorts": escorts})
        return out

    def _plan(self, state: State, order: dict[str, Any]) -> dict[str, Any]:
        if not state.step or state.step.key != RAID_STEP:
            raise IllegalOrder(RULE, "strategic bombing raids are made in Step 1 of the Strategic Warfare phase")
        side = state.decision.side if state.decision else ""
        if current_raid(state) is not None or record(state).get("done", {}).get(side) == state.turn_label:
            raise IllegalOrder(RULE, f"{side} has made its strategic bombing raid this turn; one raid a turn")
        nation = order.get("target")
        options = targets(state, side)
        if nation not in options:
            raise IllegalOrder(RULE, f"{nation!r} cannot be bombed: name an enemy major power with resource hexes "
                                     f"({', '.join(options) or 'none'})")
        box = box_of(side)
        held = {u.id: u for u in kept(state, box, side)}
        wrong = sorted({str(u.props.get("sb_target")) for u in held.values()} - {nation})
        if wrong:
            raise IllegalOrder("ETO-2.3", f"the units kept in the {box} are over {', '.join(wrong)}; this turn's raid "
                                          f"with them bombs {', '.join(wrong)} (or they leave the box at the start "
                                          "of the step)")
        lists = {"eps": _ids(order, "bombers"), "rail": _ids(order, "rail"), "escort": _ids(order, "escorts")}
        every = [i for ids in lists.values() for i in ids]
        if len(set(every)) != len(every):
            raise IllegalOrder("ETO-2.4", "each unit is named once: no single air unit attacks both EPs and rail "
                                          "capacity, nor bombs and escorts")
        units: dict[str, tuple[Unit, str]] = {}
        for mission, ids in lists.items():
            role = "fighter" if mission == "escort" else "bomber"
            for uid in ids:
                u = state.units_by_id.get(uid) if isinstance(uid, str) else None
                if u is None:
                    raise IllegalOrder(RULE, f"no unit {uid!r}")
                if uid in held:
                    if not air_units.class_row(state, u).get(role):
                        raise IllegalOrder("ETO-12.1", f"{uid} cannot fly as a {role}")
                else:
                    refuse(raider_why_not(state, side, u, nation, role))
                units[uid] = (u, mission)
        missions = {uid: m for uid, (_, m) in units.items()}
        for uid, u in held.items():
            missions.setdefault(uid, str(u.props.get("sb_mission")))
        bombers = [uid for uid, m in missions.items() if m in ("eps", "rail")]
        if not bombers:
            raise IllegalOrder(RULE, "a raid needs at least one bomber (or fighter-bomber flying as a bomber)")
        for key, mission in (("loser", "eps"), ("rail_loser", "rail")):
            who = order.get(key)
            if who is not None and missions.get(who) != mission:
                raise IllegalOrder("ETO-21.5", f"{key} {who!r} is not one of the {'rail' if mission == 'rail' else 'EP'} "
                                               "raid's bombers")
        bonus = order.get("us_bonus")
        if bonus is not None and bonus < 0:
            raise IllegalOrder("ETO-2.5", "us_bonus is the number of +1s used: 0 or more")
        return {"side": side, "box": box, "target": nation, "units": units, "missions": missions,
                "held": held}

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        p = self._plan(state, order)
        side, box, nation = p["side"], p["box"], p["target"]
        for _uid, (u, mission) in sorted(p["units"].items()):
            _enter(state, u, box, mission, nation)
        for uid, u in p["held"].items():
            u.props.update(sb_mission=p["missions"][uid], sb_turn=state.turn_label)
            if air_units.class_row(state, u).get("fighter") and air_units.class_row(state, u).get("bomber"):
                u.props["role"] = "fighter" if p["missions"][uid] == "escort" else "bomber"
        defender = values.other(side)
        for u in kept(state, box, defender):
            if u.props.get("sb_target") != nation:
                return_to_base(state, u, f" (it defends {u.props.get('sb_target')}, not {nation}, 2.3)")
            else:
                u.props["sb_turn"] = state.turn_label
        rec = record(state)
        escorts = [uid for uid, m in p["missions"].items() if m == "escort"]
        rec["raid"] = {"side": side, "defender": defender, "box": box, "target": nation,
                       "us_bonus": order.get("us_bonus"), "loser": order.get("loser"),
                       "rail_loser": order.get("rail_loser"), "targets": dict(order.get("targets") or {}),
                       "escorted": bool(escorts), "turn": defender, "forfeit": {side: False, defender: False},
                       "added": {side: 0, defender: len(kept(state, box, defender))}}
        show = {m: [uid for uid, x in p["missions"].items() if x == m] for m in ("eps", "rail", "escort")}
        state.emit("strategic_raid", side=side, rule=RULE, box=box, target=nation, bombers=show["eps"],
                   rail=show["rail"], escorts=show["escort"],
                   text=f"{side} raid on {nation}: {', '.join(show['eps']) or 'no'} bombers against EPs"
                        + (f", {', '.join(show['rail'])} against rail capacity (2.4)" if show["rail"] else "")
                        + (f", escorts {', '.join(show['escort'])}" if show["escort"] else ", no escort")
                        + f" in the {box} (no interception, 13.7/14.4)")
        next_addition(state)


def addable(state: State, raid: dict[str, Any], side: str) -> list[Unit]:
    """The units ``side`` could add to the box now (2.2): the defender's fighters based in the
    target country; the raider's escorts, if he placed at least one with the raid."""
    if side == raid["side"]:
        if not raid["escorted"]:
            return []
        return eligible(state, side, raid["target"], "fighter")
    return eligible(state, side, raid["target"], "defend")


def next_addition(state: State) -> None:
    """ETO-2.2: "Both players alternate adding fighters and fighter escorts. Once a player
    declines to add more units to the box, he forfeits the opportunity for the rest of that
    strategic bombing raid."  A side with nothing to add declines at once; so does the raider
    when no defender is in the box (escorts against nobody change nothing).  When both have
    declined, the raid is resolved."""
    raid = current_raid(state)
    if raid is None:
        return
    for _ in range(6):  # at most: forfeit, switch, forfeit, resolve
        side = raid["turn"]
        other = values.other(side)
        if raid["forfeit"][side]:
            if raid["forfeit"][other]:
                resolve(state)
                return
            raid["turn"] = other
            continue
        pointless = side == raid["side"] and not box_units(state, raid["box"], raid["defender"])
        if pointless or not addable(state, raid, side):
            raid["forfeit"][side] = True
            continue
        role = "escorts" if side == raid["side"] else "fighters to defend"
        state.push_interrupt(ADD, side, RULE,
                             f"{raid['side']} raid on {raid['target']}: add {role} to the {raid['box']}, or pass "
                             "(a pass forfeits further additions to this raid)",
                             ["reinforce_box", "pass"], box=raid["box"], target=raid["target"], on_pass=DECLINED)
        return
    resolve(state)


def declined(state: State, frame: dict[str, Any]) -> None:
    """The ``pass`` of the 2.2 alternation: the side forfeits further additions."""
    raid = current_raid(state)
    if raid is None:
        return
    side = frame["side"]
    raid["forfeit"][side] = True
    state.emit("strategic_decline", side=side, rule=RULE, box=raid["box"],
               text=f"{side} adds no more units to the {raid['box']} this raid")
    raid["turn"] = values.other(side)
    next_addition(state)


class ReinforceBoxOrder(OrderKind):
    """``reinforce_box``: in the 2.2 alternation, the defender adds fighters based in the target
    country, or the raider adds escorts."""

    kind = "reinforce_box"
    rule = RULE

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = state.frames[-1] if state.frames else None
        raid = current_raid(state)
        if not f or f.get("interrupt") != ADD or raid is None:
            return []
        ids = [u.id for u in addable(state, raid, f["side"])]
        if not ids:
            return []
        return [{"kind": "reinforce_box", "units": ids}] + (
            [{"kind": "reinforce_box", "units": [i]} for i in ids] if len(ids) > 1 else [])

    def _plan(self, state: State, order: dict[str, Any]) -> tuple[dict[str, Any], str, list[Unit]]:
        f = state.frames[-1] if state.frames else None
        raid = current_raid(state)
        if not f or f.get("interrupt") != ADD or raid is None:
            raise IllegalOrder(RULE, "no strategic bombing raid is waiting for fighters")
        side = f["side"]
        ids = order.get("units")
        if not ids:
            raise IllegalOrder(RULE, "name at least one fighter to add, or pass")
        if len(set(ids)) != len(ids):
            raise IllegalOrder(RULE, "each unit is named once")
        units = []
        for uid in ids:
            u = state.units_by_id.get(uid)
            if u is None:
                raise IllegalOrder(RULE, f"no unit {uid!r}")
            if side == raid["side"]:
                if not raid["escorted"]:
                    raise IllegalOrder(RULE, "the raid went in without escorts; escorts may be added only to a raid "
                                             "that placed at least one (2.2)")
                refuse(raider_why_not(state, side, u, raid["target"], "fighter"))
            else:
                refuse(defender_why_not(state, side, u, raid["target"]))
            units.append(u)
        return raid, side, units

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        raid, side, units = self._plan(state, order)
        state.pop_interrupt()
        mission = "escort" if side == raid["side"] else "defend"
        for u in units:
            _enter(state, u, raid["box"], mission, raid["target"])
        raid["targets"].update(order.get("targets") or {})
        raid["added"][side] = raid["added"].get(side, 0) + len(units)
        state.emit("strategic_reinforce", side=side, rule=RULE, box=raid["box"], units=[u.id for u in units],
                   text=f"{side} adds {', '.join(u.id for u in units)} to the {raid['box']} "
                        f"({'escorts' if mission == 'escort' else 'defending fighters'})")
        raid["turn"] = values.other(side)
        next_addition(state)


# == resolution ======================================================================================
def us_daylight(state: State) -> dict[str, Any]:
    return installation_bombing.table(state.ruleset.tables)["us_daylight"]


def full_strength_us(state: State, bombers: list[Unit]) -> list[Unit]:
    """ETO-2.5: the full-strength US bombers (fighter-bombers flying as bombers too, 12.1)."""
    nations = us_daylight(state)["nations"]
    return [u for u in bombers if u.nation in nations and not u.reduced]


def _step_loss(state: State, bombers: list[Unit], chosen: str | None, rule: str, why: str,
               only: list[Unit] | None = None) -> tuple[str, str]:
    pool = only or bombers
    u = next((b for b in pool if b.id == chosen), None) or installation_bombing.default_loser(state, pool)
    return u.id, air_combat.lose_step(state, u, rule, why)


def bomb(state: State, raid: dict[str, Any], bombers: list[Unit], kind: str) -> dict[str, Any]:
    """ETO-2.2/2.4/2.5: one roll on the Bombing Table for the unaborted ``bombers`` of the EP raid
    (``kind`` "eps") or the rail raid ("rail").  EPs come off the target's track at once (Part 3;
    the economic reserve is never touched); rail points off its capacity this turn (2.4).  An
    asterisk costs the bombers one step (owner's choice, else the cheapest loss); when 2.5's +1s
    alone made the roll an asterisk roll, the step is a US bomber's (GAP-17, authored)."""
    tables = state.ruleset.tables
    side, nation = raid["side"], raid["target"]
    strength = sum(air_units.strength(state, u) for u in bombers)
    us = full_strength_us(state, bombers) if kind == "eps" else []
    per = int(us_daylight(state)["bonus_per_bomber"])
    wanted = raid.get("us_bonus")
    plus = len(us) * per if wanted is None else min(int(wanted), len(us) * per)
    col = installation_bombing.column(tables, strength)["label"]
    what = "EPs" if kind == "eps" else "rail capacity"
    dice = state.roll(2, purpose=f"strategic bombing of {nation}'s {what} ({strength} bomber SP, column {col}"
                      + (f", +{plus} US daylight" if plus else "") + ")",
                      rule="ETO-2.5" if plus else ("ETO-2.4" if kind == "rail" else RULE), side=side)
    natural = int(sum(dice))
    res = installation_bombing.bombing_result(tables, strength, natural + plus)
    out: dict[str, Any] = {"against": kind, "target": nation, "strength": strength, "column": res.column,
                           "rolled": list(dice), "us_bonus": plus, "us_available": len(us) * per,
                           "roll": natural + plus, "result": res.result, "asterisk": res.asterisk,
                           "loser": None, "loss": None, "bombers": [u.id for u in bombers]}
    if res.asterisk:
        only = None
        if plus and us_daylight(state).get("us_bomber_takes_bonus_loss") and \
                not installation_bombing.bombing_result(tables, strength, natural).asterisk:
            only = us
        chosen = raid.get("loser" if kind == "eps" else "rail_loser")
        out["loser"], out["loss"] = _step_loss(
            state, bombers, chosen, "ETO-2.5" if only else "ETO-21.5",
            f" (flak over {nation}" + (": the US daylight raid pressed home, GAP-17)" if only else ", 2.2)"), only)
    loss = f"; {out['loser']} {out['loss']} (asterisk)" if out["loser"] else ""
    if kind == "eps":
        key = f"{nation}.eps"
        before = values.track(state, key)
        state.tracks[key] = before - res.result
        convoys.tally(state, "bombing", nation, res.result)
        out["track"] = before - res.result
        state.emit("strategic_bombing", side=side, rule=RULE, **out,
                   text=f"{side} bombing of {nation}: {strength} SP, column {res.column}, roll {natural}"
                        + (f" +{plus}" if plus else "") + f": {res.result}{'*' if res.asterisk else ''}: "
                        f"{nation} loses {res.result} EPs (track {before} -> {before - res.result}){loss}")
    else:
        rail.add_bombing(state, nation, res.result)
        state.emit("strategic_bombing", side=side, rule="ETO-2.4", **out,
                   text=f"{side} bombing of {nation}'s railways: {strength} SP, column {res.column}, roll {natural}: "
                        f"{res.result}{'*' if res.asterisk else ''}: {nation} loses {res.result} rail capacity "
                        f"this turn ({rail.capacity(state, nation)} left){loss}")
    return out


def resolve(state: State) -> dict[str, Any]:
    """ETO-2.2: the air-to-air combat in the box (15.0), then the bombing by the unaborted
    bombers, EPs and rail separately (2.4).  Aborted units stay in the box, PC."""
    rec = record(state)
    raid = rec.pop("raid")
    box, side, defender = raid["box"], raid["side"], raid["defender"]
    sides = {side: box_units(state, box, side), defender: box_units(state, box, defender)}
    out: dict[str, Any] = {"combat": None, "eps": None, "rail": None}
    if sides[defender]:
        state.emit("air_battle", rule="ETO-2.2", hex=box,
                   text=f"air-to-air combat in the {box}: "
                        + "; ".join(f"{s} {', '.join(u.id for u in us)}" for s, us in sides.items()))
        out["combat"] = air_combat.fight(state, box, sides, first=side, preferences=raid["targets"])
    set_aside = [u.id for u in box_units(state, box) if air_combat.aborted(u)]
    if set_aside:
        state.emit("strategic_set_aside", rule="ETO-2.2", box=box, units=set_aside,
                   text=f"{', '.join(set_aside)} aborted: set aside in the {box}, PC, out of the raid")
    for kind in ("eps", "rail"):
        bombers = [u for u in box_units(state, box, side) if u.props.get("sb_mission") == kind
                   and air_units.is_bomber(state, u) and not air_combat.aborted(u)]
        if bombers:
            out[kind] = bomb(state, raid, bombers, kind)
    for u in box_units(state, box):
        u.props.pop("aborted", None)
    rec.setdefault("done", {})[side] = state.turn_label
    rec.setdefault("results", {})[side] = {"turn": state.turn_label, "target": raid["target"],
                                           **{k: v for k, v in out.items() if k != "combat"}}
    return out


def end_raid_step(state: State, *_: Any) -> None:
    """End of a side's raid step: units kept in its box (2.3) that joined no raid go home (2.3:
    the owner elected not to use them)."""
    side = state.phasing or ""
    box = box_of(side) if side in BOXES else None
    if box is None:
        return
    for u in box_units(state, box):
        if u.props.get("sb_kept") == state.turn_label and u.props.get("sb_turn") != state.turn_label:
            return_to_base(state, u, " (no raid this turn, 2.3)")


def end_phase(state: State, *_: Any) -> None:
    """End of the Strategic Warfare phase (ETO-20.1, 12.2): the flyers are PC (units in a box are
    PC by being there) and the raid record is cleared."""
    commitment.end_strategic_warfare(state)
    rec = state.markers.get(MARKER)
    if rec:
        rec.pop("raid", None)
