"""Paradrops in attack sequence 4A (ETO-19.0-19.4) and paratroops aiding breakthroughs and
exploitation attacks (ETO-28.7, 29.4).

Flow.  Step 4A-A (``attack-4A/paratroops``, ``when = "paradrop"``) takes
``{"kind": "paradrop_move", "unit": para, "target": hex}`` orders: an undepleted,
supplied paratroop on a friendly airbase with an unused ATP of its major (19.1) is
flown by that ATP -- as a bomber with range 12 (19.2) -- towards the hex it will drop
on.  Step 4A-E (``attack-4A/paradrops``) resolves the drops after the designations of
4A-C: one die on the Paradrop Table (``tables/paradrop.toml``, GAP-29 row for 2) with
-2 if no friendly land unit is adjacent to the hex, and the air-superiority +/-2 from
:data:`AIR_SUPERIORITY` (:func:`ground_support.paradrop_drm`: the unaborted air units over
the hex, 17.2).  A surviving para lands in
the hex and joins the attack on it (alone if no one else attacks it, 19.3); undepleted,
it gives the +1 combat DRM (:func:`combat_terms`, registered in ``combat.EXTRA_TERMS``).

Air transport points: the land core has no ATP markers, so each nation's ATPs are an
authored count (``[atps.X]`` in ``paradrop.toml``), one paradrop each per turn.
Airbases are the friendly city, resource, city-resource and fortress hexes (the set
:func:`front.apply_front` treats as airbases) plus friendly airfield markers.

Hooks for the air issue: :data:`INTERCEPTION` (18.1, 19.2: an aborted ATP makes no drop)
and :data:`AIR_SUPERIORITY` (19.2 +/-2, registered by :mod:`ground_support`).  The scenario special rule ``land_only`` says
"no paradrops", so 4A-A and 4A-E never apply in such scenarios (ruling in
docs/rulings-eto.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    air_flights,
    air_units,
    amphibious,
    combat,
    command,
    sea_transport,
    supply,
    values,
)
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.drops import dropped_this_turn, paras_lifted  # noqa: F401 - here and for callers
from workbench.rulesets.eto.terrain import terrain_arrays

#: Air issue hook (18.1, 19.2): ``f(state, flight) -> True`` when the ATP is aborted or
#: destroyed by interception; the drop then does not happen.  Empty in the land core.
INTERCEPTION: list[Callable[[State, dict[str, Any]], bool]] = []
#: Air issue hook (19.2): ``f(state, side, target) -> +2 | -2 | 0`` for friendly / enemy air
#: superiority in the combat hex (:func:`ground_support.paradrop_drm` registers itself).
AIR_SUPERIORITY: list[Callable[[State, str, str], int]] = []


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["paradrop"]


def flight_range(state: State) -> int:
    """ETO-19.2: the ATP moves like a bomber with a range of 12."""
    return int(table(state)["flight"]["range"])


def land_only(state: State) -> bool:
    return supply.special(state, "land_only")


def atps(state: State, major: str) -> int:
    """The authored ATP count of a major (18.0; no printed land-core OOB)."""
    return int(table(state).get("atps", {}).get(major, {}).get("count", 0))


def _used(state: State) -> dict[str, int]:
    rec = state.markers.get("atps_used")
    if not rec or rec.get("turn") != state.turn_label:
        rec = {"turn": state.turn_label}
        state.markers["atps_used"] = rec
    return rec


def atps_left(state: State, major: str) -> int:
    """ETO-19.1: ATPs that have not flown this turn."""
    rec = state.markers.get("atps_used") or {}
    used = int(rec.get(major, 0)) if rec.get("turn") == state.turn_label else 0
    return atps(state, major) - used


def uses_markers(state: State, major: str) -> bool:
    """The scenario fields ATP markers for ``major`` (18.1); else its authored ATP count serves."""
    return any(air_units.is_atp(state, a) and values.major_of(state, a.nation) == major
               for a in state.units_by_id.values())


def atp_for(state: State, para: Unit) -> Unit | None:
    """ETO-19.1, 18.5: an ATP marker of the para's major on its airbase that has not flown this turn."""
    major = values.major_of(state, para.nation)
    for a in sorted(state.units_by_id.values(), key=lambda a: a.id):
        if air_units.is_atp(state, a) and a.location == para.location and not air_units.airborne(a) \
                and values.major_of(state, a.nation) == major and a.props.get("atp_used") != state.turn_label \
                and not a.props.get("overstacked"):
            return a
    return None


def airbases(state: State, side: str) -> np.ndarray:
    """Friendly airbase hexes: cities, resource hexes, fortress hexes and airfield markers."""
    ta = terrain_arrays(state)
    mask = ta.city | ta.resource | ta.city_resource | ta.fort_hex
    mask = mask.copy()
    for label, m in state.markers.get("forts", {}).items():
        if m.get("kind") == "airfield" and m.get("side") == side and state.map.has_hex(label):
            mask[state.map.index(label)] = True
    return mask & (control(state) == SIDE_CODE[side])


def pending(state: State) -> list[dict[str, Any]]:
    return state.markers.setdefault("paradrops", [])


def unit_why_not(state: State, side: str, u: Unit) -> Refusal | None:
    """ETO-19.1/19.4: why this unit may not paradrop now, or None."""
    if u.side != side or not values.on_map(u):
        return Refusal("ETO-19.1", f"{u.id} is not a {side} unit on the map")
    if values.unit_class(state, u) != "paratroop":
        return Refusal("ETO-19.0", f"{u.id} is not a paratroop unit; only paratroops paradrop")
    if land_only(state):
        return Refusal("ETO-19.0", "this scenario is land only (special rule land_only): no paradrops")
    if u.reduced:
        return Refusal("ETO-19.4", f"{u.id} is depleted, and a depleted paratroop unit cannot make a paradrop")
    if dropped_this_turn(state, u) or u.props.get("moved") or any(p["unit"] == u.id for p in pending(state)):
        return Refusal("ETO-19.4", f"{u.id} has already moved or dropped this turn")
    if not airbases(state, side)[state.map.index(u.location)]:
        return Refusal("ETO-19.1", f"{u.id} is not on a friendly airbase ({u.location} is no friendly city, resource hex, "
                                   "fortress or airfield)")
    major = values.major_of(state, u.nation)
    if uses_markers(state, major):
        if atp_for(state, u) is None:
            return Refusal("ETO-19.1", f"no {major} ATP marker that has not flown this turn stands on {u.location}")
    elif atps_left(state, major) <= 0:
        return Refusal("ETO-19.1", f"{major} has no ATP that has not flown this turn ({atps(state, major)} in all)")
    if not supply.traces(state, u):
        return Refusal("ETO-19.1", f"{u.id} is out of supply, and a paratroop must be in supply to paradrop")
    return None


def target_why_not(state: State, side: str, u: Unit, target: str) -> Refusal | None:
    """ETO-19.1-19.3: why ``u`` may not drop on ``target`` in this attack sequence, or None."""
    hm = state.map
    if not isinstance(target, str) or not hm.has_hex(target):
        return Refusal("ETO-19.2", f"no hex {target!r}")
    dist = hm.distance(u.location, target)
    if dist > flight_range(state):
        return Refusal("ETO-19.2", f"{target} is {dist} hexes from {u.location}; the ATP flies as a bomber with "
                                   f"range {flight_range(state)}")
    enemy = values.other(side)
    mode = combat.current_mode(state)
    if vacant(state, side, target):
        i = hm.index(target)
        if hm.is_water[i] or int(control(state)[i]) != SIDE_CODE[enemy]:
            return Refusal("ETO-19.3", f"{target} holds no enemy land unit and is not an enemy-controlled land hex")
        if mode != "combat":
            return Refusal("ETO-19.3", "a drop on an unoccupied hex is made in the Combat step (docs/rulings-eto.md)")
        return _reach_why_not(state, target)
    desig = [d for d in combat.designations(state) if d["target"] == target]
    if mode == "breakthrough":
        if not desig:
            return Refusal("ETO-28.7", "in the breakthrough step paratroops may only aid the breakthrough attack, "
                                       f"not an attack on {target}")
        return None
    other_targets = {p["target"] for p in pending(state)} - {target}
    if target not in {p["target"] for p in pending(state)} and \
            command.attacks_left(state, mode) - len(other_targets) <= 0:
        return Refusal("ETO-22.1", f"this offensive may attack no more hexes in the {mode} step")
    why = combat.target_why_not(state, side, target, [], mode)
    if why:
        return why
    return _reach_why_not(state, target)


def vacant(state: State, side: str, target: str) -> bool:
    """ETO-19.3: no enemy land unit and no enemy fortification in the hex."""
    enemy = values.other(side)
    return not [o for o in values.units_at(state, target, enemy) if values.is_land_unit(state, o)] \
        and not combat.enemy_fort(state, side, target)


def alone(state: State) -> bool:
    """ETO-19.1: "the paratroop unit can be activated by itself for a one-unit offensive"."""
    off = command.offensive(state)
    ids = off.get("units", [])
    return off.get("mode") == "stack" and len(ids) == 1 and values.unit_class(state, state.unit(ids[0])) == "paratroop"


def _reach_why_not(state: State, target: str) -> Refusal | None:
    """ETO-19.1: in the radius of an activated HQ, else adjacent to the activated stack or
    general; a para activated alone drops anywhere in the ATP's range (docs/rulings-eto.md)."""
    hm = state.map
    off = command.offensive(state)
    if alone(state):
        return None
    if off.get("mode") == "hq":
        from workbench.rulesets.eto.hq import in_radius

        if not any(in_radius(state, state.unit(h), target) for h in off["hqs"]):
            return Refusal("ETO-19.1", f"{target} is outside the command radius of every activated HQ")
        return None
    stacks = {state.unit(a).location for a in off.get("units", []) if values.on_map(state.unit(a))}
    if off.get("general") and values.on_map(state.unit(off["general"])):
        stacks.add(state.unit(off["general"]).location)
    if not any(hm.distance(s, target) == 1 for s in stacks):
        return Refusal("ETO-19.1", f"{target} is not adjacent to the stack or general activated for the offensive")
    return None


def drop_drm_terms(state: State, side: str, target: str, para: str) -> list[tuple[int, str, str]]:
    """ETO-19.2: the Paradrop Table modifiers as ``(value, why, rule)``."""
    drm = table(state)["drm"]
    out: list[tuple[int, str, str]] = []
    air = sum(int(f(state, side, target)) for f in AIR_SUPERIORITY)
    if air:
        out.append((air, "friendly air superiority" if air > 0 else "enemy air superiority", "ETO-19.2"))
    hm = state.map
    adjacent = False
    for o in state.units_by_id.values():
        if o.side == side and amphibious.is_assaulting(o) and sea_transport.space_of(state, o) == target:
            adjacent = True  # 19.2: a force in the hex preparing an amphibious assault qualifies
            break
        if o.side != side or o.id == para or not values.on_map(o) or not values.is_land_unit(state, o):
            continue
        if hm.distance(o.location, target) == 1 or (o.location == target and dropped_this_turn(state, o)):
            adjacent = True  # earlier-dropped paras in the hex count as adjacent (19.2)
            break
    if not adjacent:
        out.append((int(drm["not_adjacent_to_friendly_land_unit"]), "hex not adjacent to a friendly land unit",
                    "ETO-19.2"))
    return out


def drop_result(state: State, modified: int) -> dict[str, Any]:
    """ETO-19.2: the Paradrop Table row for a modified roll (GAP-29: 2 reads as eliminated)."""
    for row in table(state)["rows"]:
        if ("min" not in row or modified >= int(row["min"])) and ("max" not in row or modified <= int(row["max"])):
            return row
    raise ValueError(f"ETO-19.2: no Paradrop Table row for {modified}")


class ParadropOrder(OrderKind):
    """4A-A: ``{"kind": "paradrop_move", "unit": para, "target": hex}`` (19.1, 19.2)."""

    kind = "paradrop_move"
    rule = "ETO-19.2"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        hm = state.map
        out = []
        enemy = values.other(side)
        targets = sorted({u.location for u in state.units_by_id.values()
                          if u.side == enemy and values.on_map(u) and values.is_land_unit(state, u)})
        for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
            if values.unit_class(state, u) != "paratroop" or unit_why_not(state, side, u) is not None:
                continue
            for t in targets:
                if hm.distance(u.location, t) <= flight_range(state) and target_why_not(state, side, u, t) is None:
                    out.append({"kind": self.kind, "unit": u.id, "target": t})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        uid = order.get("unit")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if u is None:
            raise IllegalOrder(self.rule, f"there is no unit {uid!r}")
        why = unit_why_not(state, side, u) or target_why_not(state, side, u, order.get("target"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        major = values.major_of(state, u.nation)
        flight = {"unit": u.id, "target": order["target"], "base": u.location, "major": major,
                  "side": u.side, "mode": combat.current_mode(state)}
        atp = atp_for(state, u) if uses_markers(state, major) else None
        if atp is None:
            rec = _used(state)
            rec[major] = int(rec.get(major, 0)) + int(table(state)["flight"]["atps_per_drop"])
        pending(state).append(flight)
        state.emit("paradrop_flight", side=u.side, rule="ETO-19.2",
                   text=f"{major} ATP flies {u.id} from {u.location} towards {order['target']} "
                        f"({atps_left(state, major)} ATP(s) left this turn)",
                   unit=u.id, target=order["target"], base=u.location)
        if atp is not None:  # 19.2: the ATP marker flies like a bomber and can be intercepted
            atp.props["atp_used"] = state.turn_label
            fl = air_flights.new_flight(state, u.side, [atp], "paradrop",
                                        air_flights.path_to(state, u.location, order["target"]),
                                        target=order["target"])
            flight["atp"] = atp.id
            air_flights.fly_on(state, fl["id"])


def opens_attack(state: State, side: str) -> bool:
    """ETO-19.1: a para activated alone opens the Combat step's attack sequence by its drop."""
    if not alone(state) or land_only(state) or combat.current_mode(state) != "combat":
        return False
    return bool(ParadropOrder().legal(state))


def step_applies(state: State, key: str) -> bool:
    """Sequence condition ``paradrop``: 4A-A when the phasing side could drop; 4A-E when drops fly."""
    if key == "paradrops":
        return bool(state.markers.get("paradrops"))
    side = state.phasing
    if side is None or land_only(state):
        return False
    return any(values.unit_class(state, u) == "paratroop" and unit_why_not(state, side, u) is None
               for u in state.units_by_id.values() if u.side == side)


def resolve_drops(state: State, step: Any = None) -> None:
    """4A-E (ETO-19.2, 19.3): roll each flown paradrop; survivors land in and attack the hex."""
    from workbench.rulesets.eto.losses import eliminate

    flights = list(state.markers.pop("paradrops", []))
    for f in flights:
        u = state.unit(f["unit"])
        side, target, mode = f["side"], f["target"], f["mode"]
        atp = state.units_by_id.get(f.get("atp", "")) if f.get("atp") else None
        if atp is not None and not values.on_map(atp):  # 18.1: the load dies with its ATP marker
            eliminate(state, u, "ETO-18.1", " (its ATP was destroyed in flight)")
            continue
        if (atp is not None and atp.props.get("aborted")) or any(hook(state, f) for hook in INTERCEPTION):
            state.emit("paradrop_aborted", side=side, rule="ETO-19.2",
                       text=f"the ATP carrying {u.id} was aborted: no drop on {target}", unit=u.id, target=target)
            continue
        desig = next((d for d in combat.designations(state) if d["target"] == target and not d["resolved"]), None)
        empty = desig is None and vacant(state, side, target)
        if desig is None and not empty and (command.attacks_left(state, mode) <= 0
                              or combat.target_why_not(state, side, target, [], mode)):
            state.emit("paradrop_cancelled", side=side, rule="ETO-22.1",
                       text=f"no drop on {target}: the hex can no longer be attacked this step", unit=u.id,
                       target=target)
            continue
        terms = drop_drm_terms(state, side, target, u.id)
        drm = sum(v for v, _, _ in terms)
        (die,) = state.roll(purpose=f"paradrop of {u.id} on {target} (DRM {drm:+d})", rule="ETO-19.2", side=side)
        row = drop_result(state, die + drm)
        effect = row["effect"]
        state.emit("paradrop", side=side, rule=str(row.get("rule", "ETO-19.2")),
                   text=f"{u.id} drops on {target}: die {die} {drm:+d} = {die + drm}: {effect}",
                   unit=u.id, target=target, die=die, drm=drm, modified=die + drm, effect=effect,
                   drms=[[v, why, r] for v, why, r in terms])
        if effect == "eliminated":
            eliminate(state, u, "ETO-19.2", " (Paradrop Table)")
            continue
        if effect == "depleted":
            u.reduced = True
            state.emit("depleted", side=side, rule="ETO-19.2", text=f"{u.id} depleted on landing",
                       unit=u.id, at=target)
        u.location = target
        u.props["dropped"] = state.turn_label
        u.props["drop_base"] = f["base"]
        u.props["moved"] = True
        if empty:  # 19.3: the hex becomes friendly; the paratroop makes no attack this turn
            from workbench.rulesets.eto.control import pass_through

            pass_through(state, u, [state.map.index(target)])
            state.emit("paradrop_landed", side=side, rule="ETO-19.3", unit=u.id, hex=target,
                       text=f"{u.id} lands in the unoccupied {target}: the hex is now {side}-controlled")
            continue
        if desig is None:
            combat.designate(state, target, [u.id], mode)  # 19.3: it must attack, alone if need be
        else:
            desig["attackers"].append(u.id)


def dropped_attackers(state: State, c: dict[str, Any]) -> list[Unit]:
    """Paratroops that dropped on this combat's hex and still stand in it."""
    out = []
    for a in c["attackers"]:
        u = state.unit(a)
        if values.on_map(u) and u.location == c["target"] and dropped_this_turn(state, u):
            out.append(u)
    return out


def combat_terms(state: State, ctx: dict[str, Any]) -> dict[str, Any]:
    """ETO-19.3: an undamaged para attacking the hex it just dropped into gives +1 (a depleted
    one only its 1 SP).  Registered in :data:`combat.EXTRA_TERMS`."""
    for a in ctx["attackers"]:
        u = state.unit(a)
        if u.location == ctx["target"] and dropped_this_turn(state, u) and not u.reduced:
            return {"drm_kwargs": {"paratroop": True}}
    return {}


def not_vacated(state: State, c: dict[str, Any]) -> None:
    """ETO-19.4, 28.7, 29.4: paras that dropped on a hex the attack did not vacate are
    eliminated (the loss counts as an attacker step loss)."""
    from workbench.rulesets.eto.losses import eliminate

    if not combat.combat_units_at(state, c["target"], values.other(c["side"])):
        return
    rule = {"breakthrough": "ETO-28.7", "exploitation": "ETO-29.4"}.get(c["mode"], "ETO-19.4")
    for u in dropped_attackers(state, c):
        eliminate(state, u, rule, f" (the attack did not vacate {c['target']}; counts as an attacker step loss)")


if combat_terms not in combat.EXTRA_TERMS:
    combat.EXTRA_TERMS.append(combat_terms)
if opens_attack not in combat.ATTACK_OPENERS:
    combat.ATTACK_OPENERS.append(opens_attack)
