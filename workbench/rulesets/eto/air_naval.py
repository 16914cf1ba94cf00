"""Air-naval combat (ETO-16.0-16.5): bombers attacking ships, and the ships' anti-aircraft fire.

A ship is a naval :class:`Unit` (``naval_units``): each hit is applied to it as it occurs
(16.1 B) with the naval combat's damage rules (9.5, 10.9: ``naval_damage.hit_unit``), and its
armor is read again before each attack (a damaged ship shows its damaged armor).  A plain dict
``{"id", "armor", "named", "kind"}`` (``kind`` "BB", "CV", "CA", "CL", "DD", "CVE", "SS", "STP"
...; ``named`` defaults to ``kind in ("BB", "CV", "CA")``) is still taken, for tables and
examples: :func:`bomb_ships` then only marks the results on it (``"hits"``, ``"sunk"``).

16.0/16.1's when and who (after air-to-air combat in the hex, unaborted bombers only, the
bombing player's choice of targets) is the caller's: air missions and interception pass the
survivors of :func:`air_combat.fight`.  The numbers are ``tables/air.toml [air_naval]``.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_combat, air_units, naval_damage, values

NAMED = ("BB", "CV", "CA")  # 16.3: "specifically named naval units"; squadrons and STPs are not


def rules(tables: dict[str, Any]) -> dict[str, Any]:
    return tables["air"]["air_naval"]


def attacks(strength: int, underlined: bool, tables: dict[str, Any]) -> int:
    """ETO-16.2: "A bomber can attack a number of times equal to its combat strength", except an
    underlined strength: "half that many times, rounded down, to a maximum of four attacks"."""
    if not underlined:
        return max(0, strength)
    a = rules(tables)
    return min(max(0, strength) // int(a["underlined_divisor"]), int(a["underlined_max_attacks"]))


def bonus(*, named: bool, naval_air: bool, tables: dict[str, Any]) -> int:
    """ETO-16.3: against a named ship (BB, CV, CA) +2 for a land-based bomber or fighter-bomber,
    +3 for a naval air unit; nothing against squadrons or STPs."""
    if not named:
        return 0
    a = rules(tables)
    return int(a["named_ship_bonus_naval_air"] if naval_air else a["named_ship_bonus_land_based"])


def hit(dice: tuple[int, int], armor: int, *, named: bool, naval_air: bool, tables: dict[str, Any],
        stp: bool = False) -> str:
    """ETO-16.2: two dice (plus the 16.3 bonus) equal to or higher than the armor rating hit; "a
    hit rolled with doubles automatically sinks the naval unit (but does not cause extra damage
    to a STP)".  Doubles that miss do nothing.  Returns "sunk", "hit" or "miss"."""
    total = sum(dice) + bonus(named=named and not stp, naval_air=naval_air, tables=tables)
    if total < armor:
        return "miss"
    return "sunk" if dice[0] == dice[1] and not stp else "hit"


def aa_hit(roll_total: int, *, port: str | None, stack_size: int, tables: dict[str, Any]) -> bool:
    """ETO-16.4: the bombing roll (the two dice, unmodified) hits the bomber on a 2 if the target
    is in a minor port or in a stack of at least 10 naval units (not counting STPs); on a 2 or 3
    if it is in a major port or a fortified port (permanent fortification or marker)."""
    a = rules(tables)
    if port in ("major", "fortified"):
        return roll_total in a["aa_major_or_fortified_port"]
    if port == "minor" or stack_size >= int(a["big_stack"]):
        return roll_total in a["aa_minor_port_or_big_stack"]
    return False


def _named(ship: dict[str, Any]) -> bool:
    return bool(ship.get("named", str(ship.get("kind", "")).upper() in NAMED))


def _stp(ship: dict[str, Any]) -> bool:
    return str(ship.get("kind", "")).upper() == "STP"


def ship_record(state: State, u: Unit) -> dict[str, Any]:
    """The dict :func:`bomb_ships` reads for a naval unit: its current armor, kind and name."""
    from workbench.rulesets.eto import naval_units

    return {"id": u.id, "armor": naval_units.armor(state, u), "kind": naval_units.kind(state, u),
            "named": naval_units.is_named(state, u)}


def bomb_ships(state: State, bomber: Unit, ships: list[dict[str, Any] | Unit], *, targets: list[str] | None = None,
               port: str | None = None, stack_size: int | None = None, carrier: bool = False) -> dict[str, Any]:
    """ETO-16.1 B/C, 16.2-16.4: one bomber's attacks on the ships in its hex.

    ``targets``: the ship attacked by each attack, in order (16.1 B: a new or the same target
    before each attack); fewer than the bomber's attacks is allowed (16.2: "Players are never
    required to make air-naval attacks"), more is refused; None means every attack, each on the
    first ship of ``ships`` still afloat.  A declared target already sunk is replaced by that
    ship, and the log says so.  Damage is marked on the ship dicts as it occurs (16.1 B); the
    anti-aircraft hits (16.4, ``port`` "minor"/"major"/"fortified"/None, ``stack_size`` the naval
    units in the stack without STPs, counted from ``ships`` when None) are taken by this bomber
    after all its attacks, excess hits ignored (16.1 C, 16.4)."""
    tables = state.ruleset.tables
    if not air_units.is_air(state, bomber) or not air_units.is_bomber(state, bomber):
        raise IllegalOrder("ETO-16.0", f"{bomber.id} is not flying as a bomber")
    if air_combat.aborted(bomber):
        raise IllegalOrder("ETO-15.6", f"{bomber.id} is aborted and cannot make air-naval attacks")
    if not values.on_map(bomber) and not carrier:  # carrier air strikes wherever its CV is (9.0)
        raise IllegalOrder("ETO-16.0", f"{bomber.id} is not on the map")
    n = attacks(air_units.strength(state, bomber), air_units.underlined(state, bomber), tables)
    plan = list(targets) if targets is not None else [None] * n
    if len(plan) > n:
        raise IllegalOrder("ETO-16.2", f"{bomber.id} makes at most {n} air-naval attacks, not {len(plan)}")
    units = {u.id: u for u in ships if isinstance(u, Unit)}
    ships = [ship_record(state, s) if isinstance(s, Unit) else s for s in ships]
    by_id = {str(s["id"]): s for s in ships}
    for t in plan:
        if t is not None and t not in by_id:
            raise IllegalOrder("ETO-16.1", f"{t!r} is not a naval unit in {bomber.location}")
    if stack_size is None:
        stack_size = sum(1 for s in ships if not _stp(s))
    naval_air = values.unit_class(state, bomber) == "naval_air"
    out: list[dict[str, Any]] = []
    aa = 0
    for want in plan:
        afloat = [s for s in ships if not s.get("sunk")]
        if not afloat:
            break
        ship = by_id[want] if want is not None else afloat[0]
        if ship.get("sunk"):
            ship = afloat[0]
            state.emit("air_naval_target", side=bomber.side, rule="ETO-16.1",
                       text=f"{want} is already sunk; {bomber.id} attacks {ship['id']}", bomber=bomber.id,
                       wanted=want, target=ship["id"])
        if ship["id"] in units:  # 9.5: a damaged ship shows its damaged armor at once
            ship["armor"] = ship_record(state, units[ship["id"]])["armor"]
        named, stp = _named(ship), _stp(ship)
        plus = bonus(named=named and not stp, naval_air=naval_air, tables=tables)
        armor = int(ship["armor"])
        dice = state.roll(2, purpose=f"{bomber.id} attacks {ship['id']} (armor {armor}"
                          f"{f', +{plus} against a named ship' if plus else ''})", rule="ETO-16.2", side=bomber.side)
        d = (int(dice[0]), int(dice[1]))
        result = hit(d, armor, named=named, naval_air=naval_air, tables=tables, stp=stp)
        if result == "sunk":
            ship["sunk"] = True
        elif result == "hit":
            ship["hits"] = int(ship.get("hits", 0)) + 1
        flak = aa_hit(sum(d), port=port, stack_size=stack_size, tables=tables)
        aa += flak
        rec = {"bomber": bomber.id, "ship": ship["id"], "dice": list(d), "bonus": plus, "armor": armor,
               "result": result, "aa_hit": flak}
        state.emit("air_naval", side=bomber.side, rule="ETO-16.2",
                   text=f"{bomber.id} attacks {ship['id']}: {d[0]}+{d[1]}{f' +{plus}' if plus else ''} against armor "
                        f"{armor}: {result}{' (anti-aircraft hit)' if flak else ''}",
                   hex=bomber.location, **rec)
        out.append(rec)
        if result != "miss" and ship["id"] in units:  # 16.1 B: damage marked as it occurs
            u = units[ship["id"]]
            naval_damage.hit_unit(state, u, sink=result == "sunk", by=bomber.id, rule="ETO-16.2")
            ship["sunk"] = not naval_damage.afloat(u)
    taken: list[str] = []
    for _ in range(aa):
        if bomber.location == values.FORCE_POOL:
            break  # 16.4: excess hits are ignored, never passed to another bomber
        taken.append(air_combat.lose_step(state, bomber, "ETO-16.4", " (anti-aircraft fire)"))
    if aa:
        state.emit("anti_aircraft", side=bomber.side, rule="ETO-16.4",
                   text=f"{bomber.id}: {aa} anti-aircraft hit(s), {len(taken)} taken ({', '.join(taken)})",
                   bomber=bomber.id, hits=aa, taken=taken)
    return {"bomber": bomber.id, "attacks": out, "aa_hits": aa, "aa_taken": taken, "ships": ships}


# --- attack_naval missions against real ships (16.0, 16.1, 16.5) ------------------------------

def naval_targets(state: State, side: str, to: str) -> list[Unit]:
    """ETO-16.5: the enemy ships a land-based air unit over ``to`` may attack: those in the coastal
    hex (its port too), or in the gridded sea area the all-sea hex ``to`` belongs to; ships in an
    ungridded area are reached only by carrier air in naval interception (not here)."""
    from workbench.rulesets.eto import naval_units

    enemy = values.other(side)
    if not state.map.has_hex(to):
        return []
    area = state.map.hexes["sea_area"][state.map.index(to)]
    spaces = [to]
    if area and area in state.map.sea_areas and state.map.sea_areas[area].gridded:
        spaces.append(area)
    return [u for sp in spaces for u in naval_units.naval_units(state, enemy, sp) if not naval_units.is_uboat(state, u)]


def port_kind(state: State, at: str) -> str | None:
    """ETO-16.4: the anti-aircraft class of the port at ``at``: "fortified" (a fortification
    marker, built or building, or a permanent fortification: "the fortification may be permanent
    or an installation marker"), else "minor" or "major"; None for no port, a port box, or a hex
    whose installations are destroyed (21.5: no port or fortification until repaired)."""
    from workbench.rulesets.eto import ports
    from workbench.rulesets.eto.terrain import terrain_arrays

    size = ports.size(state, at)
    if size not in ("minor", "major") or at in state.markers.get("destroyed", {}):
        return None
    marker = state.markers.get("forts", {}).get(at) or {}
    if marker.get("kind") == "fortification" or terrain_arrays(state).fort_hex[state.map.index(at)]:
        return "fortified"
    return size


def strike_flights(state: State, *_: Any) -> None:
    """ETO-16.1: after the air-to-air combat over the target (15.0), each unaborted bomber of an
    ``attack_naval`` flight makes its attacks on the enemy ships there (the most valuable first:
    named ships, then squadrons, then STPs), with the port's or the big stack's anti-aircraft fire
    (16.4)."""
    from workbench.rulesets.eto import air_flights, naval_units

    for fl in sorted(air_flights.flights(state).values(), key=lambda f: f["id"]):
        if fl["mission"] != "attack_naval" or not fl["arrived"] or fl["ended"]:
            continue
        bombers = [u for u in air_flights.live_units(state, fl) if air_units.is_bomber(state, u)
                   and not air_combat.aborted(u)]
        # 11.2: a sub at sea is searched for and struck by submarines.strike_subs_at_sea, which ran
        # first and kept its striker for itself
        bombers = [u for u in bombers if not u.props.pop("struck_sub", False)]
        for b in bombers:
            ships = [s for s in naval_targets(state, fl["side"], fl["at"]) if naval_units.is_naval(state, s)
                     and not (naval_units.is_submarine(state, s) and not naval_units.in_port(s))]
            if not ships:
                break
            strike(state, b, ships, fl["at"])


def strike(state: State, bomber: Unit, ships: list[Unit], at: str) -> dict[str, Any]:
    """ETO-16.1-16.4: one bomber's attacks on the naval units ``ships`` over ``at``: the most
    valuable first (named ships, then squadrons, then STPs), with the port's anti-aircraft class
    if any of them is in port (:func:`port_kind`) and the stack's size without STPs."""
    from workbench.rulesets.eto import naval_units

    ships = sorted(ships, key=lambda s: (not naval_units.is_named(state, s), naval_units.is_stp(state, s), s.id))
    port = port_kind(state, at) if any(naval_units.in_port(s) for s in ships) else None
    stack = naval_units.unit_count(state, [s for s in ships if not naval_units.is_stp(state, s)])
    return bomb_ships(state, bomber, ships, port=port, stack_size=stack)

