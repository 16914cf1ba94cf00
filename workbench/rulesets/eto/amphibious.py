"""Amphibious assault and naval bombardment in the land combat pipeline (ETO-10.6, 26.2, 26.4).

An assault force is land units embarked with ``sea_mission = "assault"`` (:mod:`sea_transport`)
whose carriers stand in the enemy coastal hex.  Activated for an offensive, they are designated
as attackers of that very hex in the Combat step (26.0: "amphibious ... units attack their own
hex"); the combat code asks this module:

* :func:`assault_why_not` -- may these aboard units assault ``target`` (10.6);
* :func:`intrinsic_strength` -- an empty coastal hex defends with 1, or half the SP of the enemy
  units exerting ZOC into it, +2 for a fortification marker (26.2);
* :func:`combat_terms` (in ``combat.EXTRA_TERMS``) -- naval bombardment for both sides (26.2:
  1 SP per 4 gunnery of the ships in the hex) and the -3 DRM when at least half the attacking
  land SP assault amphibiously (26.4);
* :func:`after_roll` -- one STP sunk per assaulting infantry/armor unit, whatever the result;
* :func:`land_survivors` -- on success every surviving assaulting unit debarks into the hex as
  its advance after combat; on failure the survivors stay aboard (10.6).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import (
    italian_restrictions,
    naval_units,
    sea_transport,
    stacking,
    values,
)
from workbench.rulesets.eto.control import SIDE_CODE, control, pass_through
from workbench.rulesets.eto.zoc import projects_into

RULE = "ETO-10.6"


def is_assaulting(u: Unit) -> bool:
    return sea_transport.is_aboard(u) and u.props.get("sea_mission") == "assault"


def assault_units(state: State, ids: list[str]) -> list[Unit]:
    return [state.unit(i) for i in ids if is_assaulting(state.unit(i))]


def assault_why_not(state: State, side: str, target: str, attackers: list[Unit]) -> Refusal | None:
    """ETO-10.6: the aboard ``attackers`` may assault ``target`` from the sea."""
    amph = [u for u in attackers if sea_transport.is_aboard(u)]
    if not amph:
        return None
    i = state.map.index(target)
    for u in amph:
        if u.props.get("sea_mission") != "assault":
            return Refusal(RULE, f"{u.id} is embarked for a {u.props.get('sea_mission')} mission, not an assault")
        if sea_transport.space_of(state, u) != target:
            return Refusal(RULE, f"{u.id}'s transports are at {sea_transport.space_of(state, u)}, not off {target}")
        if not u.props.get("in_offensive"):
            return Refusal("ETO-10.6", f"{u.id} is not activated for this offensive: assaulting units must be")
    if not bool(state.map.hexes["coastal"][i]):
        return Refusal(RULE, f"{target} is not a coastal hex")
    if control(state)[i] == SIDE_CODE[side]:
        return Refusal(RULE, f"{target} is friendly: units debark there by transport (10.5), not by assault")
    if not sea_transport.terrain_allows(state, target, "amphibious_assault"):
        return Refusal(RULE, f"amphibious assaults cannot be made into rough, forest or swamp coastal hexes; "
                             f"{target} is {state.map.hexes['terrain'][i]}")
    if state.markers.get("amphibious", {}).get(target) == state.turn_label:
        return Refusal(RULE, f"{target} was already the target of an amphibious assault this turn")
    waiting = {u.id for u in state.units_by_id.values() if u.side == side and is_assaulting(u)
               and u.props.get("in_offensive") and sea_transport.space_of(state, u) == target}
    if waiting - {u.id for u in amph}:
        return Refusal(RULE, f"all units assaulting {target} attack as one group: "
                             f"{', '.join(sorted(waiting - {u.id for u in amph}))} must join")
    land = [u for u in amph if stacking.counts_type(state, u)]
    limit = stacking.limit_for(state, target, [u.nation for u in land])
    if len(land) > limit:
        return Refusal(RULE, f"only as many units as could stack in {target} ({limit}) may assault it")
    return None


def intrinsic_strength(state: State, side: str, target: str) -> int:
    """ETO-26.2: the empty coastal hex's own defence against an assault by ``side``."""
    enemy = values.other(side)
    zoc_sp = [values.strength(state, u) for u in state.units_by_id.values()
              if u.side == enemy and values.on_map(u) and values.is_combat_unit(state, u)
              and state.map.distance(u.location, target) == 1 and projects_into(state, u, target)]
    marker = state.markers.get("forts", {}).get(target) or {}
    fort = marker.get("side") == enemy and marker.get("kind") in ("fortification", "coastal_fort") \
        and not marker.get("building")  # 40.5: a fort under construction does not defend yet
    return adj.coastal_intrinsic_strength(zoc_sp, fort_marker=fort, tables=state.ruleset.tables)


def offensive_key(state: State) -> str:
    """Which offensive this is, within the turn (26.2: a ship bombards for one land offensive)."""
    off = state.markers.get("offensive", {}) or {}
    who = ",".join(off.get("hqs") or []) or off.get("general") or ",".join(off.get("units", [])[:1])
    return f"{state.turn_label}/{off.get('side')}/{off.get('mode')}/{who}"


def bombarding_ships(state: State, side: str, target: str, *, attacking: bool) -> list[Unit]:
    """ETO-26.2: the side's ships in the hex that may add gunnery: not those withdrawn from naval
    combat this turn (9.6); attacking, not those that bombarded for another offensive this turn
    ("a ship can contribute its gunnery to only one land offensive per turn"; defending, any),
    nor Italian ships while 46.1 binds Italy."""
    out = []
    key = offensive_key(state)
    for u in naval_units.naval_units(state, side, target):
        if naval_units.gunnery(state, u) is None or u.props.get("withdrew") == state.turn_label:
            continue
        used = str(u.props.get("bombarded", ""))
        if attacking and used.startswith(state.turn_label + "/") and used != key:
            continue
        if attacking and italian_restrictions.attack_why_not(state, u, "shore bombardment"):
            continue  # 46.1 (optional): no attack by Italian ships yet
        out.append(u)
    return out


def bombardment_sp(state: State, ships: list[Unit]) -> int:
    """ETO-26.2: "1 strength point for every 4 points of gunnery in the naval stack"."""
    return adj.naval_bombardment_sp(sum(int(naval_units.gunnery(state, u) or 0) for u in ships))


def amphibious_half(state: State, attacker_ids: list[str]) -> bool:
    """ETO-26.4: at least half the attacking land SP assault amphibiously."""
    units = [state.unit(a) for a in attacker_ids]
    total = sum(values.strength(state, u) for u in units)
    amph = sum(values.strength(state, u) for u in units if is_assaulting(u))
    return amph > 0 and 2 * amph >= total


def combat_terms(state: State, ctx: dict[str, Any]) -> dict[str, Any]:
    """``combat.EXTRA_TERMS`` hook: naval bombardment by both sides in a coastal defender's hex
    (26.2) and the amphibious -3 (26.4)."""
    target, side = ctx["target"], ctx["side"]
    if not naval_units.in_play(state) or not bool(state.map.hexes["coastal"][state.map.index(target)]):
        return {}
    out: dict[str, Any] = {"terms": []}
    att = bombarding_ships(state, side, target, attacking=True)
    dfn = bombarding_ships(state, values.other(side), target, attacking=False)
    a_sp, d_sp = bombardment_sp(state, att), bombardment_sp(state, dfn)
    if a_sp:
        out["attack_add"] = a_sp
        out["terms"].append((f"naval bombardment ({', '.join(u.id for u in att)})", a_sp, "ETO-26.2"))
    if d_sp:
        out["defense_add"] = d_sp
        out["terms"].append((f"naval bombardment ({', '.join(u.id for u in dfn)})", d_sp, "ETO-26.2"))
    if amphibious_half(state, ctx["attackers"]):
        out["drm_kwargs"] = {"amphibious_half": True}
    return out


def after_roll(state: State, side: str, target: str, attacker_ids: list[str]) -> None:
    """ETO-10.6/10.2: "one STP involved in the assault is automatically sunk for each unit that
    was carried" (infantry and armor), marked after the die roll whatever the result; the
    bombarding ships are spent for this offensive; the hex has had its assault this turn."""
    amph = assault_units(state, attacker_ids)
    state.markers.setdefault("amphibious", {})[target] = state.turn_label
    for ship in bombarding_ships(state, side, target, attacking=True):
        ship.props["bombarded"] = offensive_key(state)
    for u in amph:
        u.props["assaulted"] = state.turn_label  # 32.7: no attacker-OOS DRM for them this turn
    n = sum(1 for u in amph if values.unit_class(state, u) in ("infantry", "armor")) * int(
        sea_transport.table(state)["limits"]["assault_stps_lost_per_unit"])
    stps = [c for c in naval_units.naval_units(state, side, target) if naval_units.is_stp(state, c)]
    lost = 0
    for stp in sorted(stps, key=lambda c: naval_units.stp_points(c)):
        while lost < n and naval_units.stp_points(stp) > 0:
            stp.props["points"] = naval_units.stp_points(stp) - 1
            lost += 1
        if naval_units.stp_points(stp) == 0:
            naval_units.sink(state, stp, RULE, " (its last STP lost in the assault)")
    if lost:
        state.emit("stps_lost", side=side, rule=RULE, at=target,
                   text=f"{lost} STP(s) sunk in the amphibious assault on {target}")
    sea_transport.check_lift(state, side, target)


def land_survivors(state: State, c: dict[str, Any]) -> list[str]:
    """ETO-10.6: "Following a successful assault, surviving attacking units must debark into the
    coastal hex; this is treated as their advance after combat."  On failure they stay aboard."""
    amph = [u for u in assault_units(state, c["attackers"])]
    if not amph:
        return []
    vacated = not values.combat_units_at(state, c["target"], values.other(c["side"]))
    if not c.get("defenders"):
        vacated = bool(c.get("affects_defender"))  # 10.6: an empty hex falls to a retreat or step result
    if not vacated:
        state.emit("assault_failed", side=c["side"], rule=RULE, at=c["target"],
                   text=f"the assault on {c['target']} failed: {', '.join(u.id for u in amph)} stay aboard")
        return []
    i = state.map.index(c["target"])
    for u in amph:
        for k in ("aboard", "sea_mission", "sea_mp", "embark_no", "embarked_from"):
            u.props.pop(k, None)
        u.location = c["target"]
        pass_through(state, u, [i])
    c.setdefault("advanced", []).extend(u.id for u in amph)
    state.emit("landed", side=c["side"], rule=RULE, at=c["target"],
               text=f"{', '.join(u.id for u in amph)} storm ashore at {c['target']}")
    return [u.id for u in amph]
