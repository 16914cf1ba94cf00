"""Conquest and liberation of countries (ETO-40.0-40.3).

A country is conquered when every city resource hex of its home country and colonies is held
by its enemies; a minor without any, when all its cities and resource hexes are; one with
neither, as soon as an invader enters (40.0).  Conquest removes its land and air units and its
force pool, hands its hexes to the conqueror's side, and dices for its navy stack by stack
(40.2).  A conquered country is liberated when its enemies' enemies hold all its home city
resource hexes again (40.3).  Checked whenever a land unit takes hexes (``control.ENTRY_HOOKS``),
in games that play politics (:func:`politics.on`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto import naval_units, politics, sea_spaces, uk_conquest, values
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-40.0"
TURN_TRACK = "Turn track"
#: Where a conquered nation's land units wait for 46.6 (optional): out of play, in the Unplaced box.
LIBERABLE = "Unplaced"
#: ``f(state, nation)`` run after ``nation`` is liberated (Vichy registers here, 40.4).
LIBERATION_HOOKS: list[Callable[[State, str], None]] = []
#: ``f(state, nation)`` run after ``nation`` is conquered.
CONQUEST_HOOKS: list[Callable[[State, str], None]] = []


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["conquest"]


def key_hexes(state: State, nation: str, *, home_only: bool = False) -> np.ndarray:
    """The hexes whose capture conquers ``nation`` (40.0): its city resource hexes (home and
    colonies); a minor without any, its cities and resource hexes; with neither, every hex."""
    ta = terrain_arrays(state)
    row = politics.nations(state)[nation]
    land = ctl.home_mask(state, nation, original=True) if home_only else politics.territory(state, nation)
    cr = land & ta.city_resource
    if cr.any():
        return cr
    if row.get("kind") == "minor":
        cities = land & (ta.city | ta.resource)
        if cities.any():
            return cities
    return land


def conquered_now(state: State, nation: str) -> bool:
    """ETO-40.0: every key hex held by the enemy side (the country is at war and not yet conquered);
    a country with neither cities nor resource hexes, as soon as an enemy holds any of its hexes."""
    side = politics.side_of(state, nation)
    if side is None or nation in politics.war_state(state).get("conquered", {}):
        return False
    keys = key_hexes(state, nation)
    ctrl = ctl.control(state)
    enemy = ctl.SIDE_CODE[values.other(side)]
    if not keys.any():
        return False
    ta = terrain_arrays(state)
    if not (keys & (ta.city | ta.resource | ta.city_resource)).any():  # no cities, no resources
        return bool((ctrl[keys] == enemy).any())
    return bool((ctrl[keys] == enemy).all())


def conquer(state: State, nation: str, conqueror: str) -> None:
    """ETO-40.1: the effects of conquest, at once."""
    name = politics.nations(state)[nation]["name"]
    side = politics.side_of(state, nation) or "allies"
    win_side = values.other(side)
    ws = politics.writable(state)
    ws.setdefault("conquered", {})[nation] = conqueror
    removed: list[str] = []
    navy: dict[str, list[Unit]] = {}
    if uk_conquest.applies(state, nation):  # 40.7: the UK's own list of what goes where
        removed = uk_conquest.conquer(state, conqueror)
    else:
        for u in sorted([u for u in state.units_by_id.values() if u.nation == nation], key=lambda u: u.id):
            if naval_units.is_naval(state, u) and u.location not in (values.FORCE_POOL, "Eliminated"):
                navy.setdefault(u.location or "", []).append(u)
            else:  # land and air on the map, and the whole force pool (40.1)
                removed.append(u.id)
                if state.game.optional_rule("ETO-46.6") and values.is_land_unit(state, u):
                    u.location, u.props = LIBERABLE, {"liberable": nation}  # 46.6: they may return
                    continue
                del state.units_by_id[u.id]
    mask = politics.territory(state, nation)
    if uk_conquest.applies(state, nation):  # 40.7: Malta, Gibraltar and the rest abroad become American
        mask = mask & uk_conquest.kept(state)
    ctl.control(state)[mask] = ctl.SIDE_CODE[win_side]
    state.emit("conquered", side=win_side, rule="ETO-40.1", nation=nation, conqueror=conqueror,
               text=f"{name} is conquered by {conqueror}: {len(removed)} land and air units and its force pool "
                    f"removed, its territory friendly to the {win_side.capitalize()}")
    for at, stack in sorted(navy.items()):
        dispose(state, stack, conqueror, at, side)
    last_member(state, nation)
    for hook in CONQUEST_HOOKS:  # 43.2: eastern Poland passes to the Soviet sphere
        hook(state, nation)
    for k in [k for k in state.tracks if k.startswith(f"{nation}.rail")]:
        state.tracks[k] = 0  # 40.1: "The nation's rail capacity is lost"


def last_member(state: State, nation: str) -> None:
    """ETO-40.1: "If the conquered country was the last member of the Soviet or Western Allies
    partnership, control transfers from the USSR to the Western Allies, or vice versa. If this ever
    applies to the Axis partnership, the game is over" (``politics["axis_fallen"]``, read by
    ``victory.sudden_death``).  Control being two-sided, the transfer is of the hexes' holder."""
    ws = politics.writable(state)
    p = ws["members"].get(nation)
    if p is None or any(q == p and n not in ws.get("conquered", {}) for n, q in ws["members"].items()):
        return
    if p == "axis":
        ws["axis_fallen"] = state.turn_label
        state.emit("axis_fallen", side="allies", rule="ETO-40.1",
                   text=f"{politics.nations(state)[nation]['name']} was the Axis's last member: the game is over")
        return
    heirs = [n for n, q in ws["members"].items() if q not in (p, "axis") and n not in ws.get("conquered", {})
             and politics.nations(state)[n].get("kind") == "major"]
    if not heirs or state.arrays.get("holder") is None:
        return
    from workbench.rulesets.eto import holders  # holders sits above this module (its capture hook)

    codes = holders.codes(state)
    arr = holders.holders(state)
    theirs = [codes.index(n) for n, q in ws["members"].items() if q == p]
    holders.assign(state, np.isin(arr, theirs) & (ctl.control(state) == ctl.SIDE_CODE[politics.side_of(state, nation)
                                                                                      or "allies"]), sorted(heirs)[0])
    state.emit("control_transfer", side="allies", rule="ETO-40.1",
               text=f"the {'Soviet' if p == 'soviet' else 'Western Allied'} partnership has fallen: its hexes pass to "
                    f"{politics.nations(state)[sorted(heirs)[0]]['name']}")


def _in(band: list[int], roll: int) -> bool:
    return band[0] <= roll <= band[1]


def dispose(state: State, stack: list[Unit], conqueror: str, at: str, old_side: str) -> None:
    """ETO-40.2: two dice per stack: 2-5 join the conqueror's opponents, 6-9 are removed, 10-12
    join the conqueror (Germany's Mediterranean prizes join Italy); ships on the turn track are
    eliminated on 2-9."""
    t = _t(state)["disposal"]
    nation = stack[0].nation
    roll = sum(state.roll(int(t["dice"]), purpose=f"disposal of {nation}'s ships at {at}: 2-5 to the conqueror's "
                          "opponents, 6-9 removed, 10-12 to the conqueror", rule=t["rule"]))
    fleet = conqueror
    if conqueror == t["mediterranean_conqueror"] and at != TURN_TRACK \
            and sea_spaces.home_area(state, at) in t["mediterranean_areas"]:
        fleet = t["mediterranean_fleet"]  # "even if Italy is not yet at war"
    ids = ", ".join(u.id for u in stack)
    if at == TURN_TRACK and _in(t["turn_track_eliminated"], roll) or at != TURN_TRACK and _in(t["removed"], roll):
        for u in stack:
            del state.units_by_id[u.id]
        fate = "permanently removed from play"
    elif _in(t["join_conqueror"], roll):
        for u in stack:
            u.props.setdefault("captured_from", u.nation)
            u.nation, u.side = fleet, politics.side_of(state, fleet) or values.other(old_side)
        fate = f"join the {fleet} fleet"
    else:
        heir = _heir(state, nation, old_side)
        for u in stack:
            u.props.setdefault("captured_from", u.nation)
            u.nation, u.side = heir, old_side
            if u.props.get("in_port"):  # "leave the port immediately, but remain in the port hex"
                u.props["in_port"] = False
        fate = f"join the {heir} fleet, opposing the conqueror"
    state.emit("naval_disposal", side=old_side, rule=t["rule"], nation=nation, roll=roll,
               text=f"{ids} at {at}: {roll}, {fate}")


def _heir(state: State, nation: str, side: str) -> str:
    """The major that takes over ships joining the conqueror's opponents: the conquered
    minor's major partner, else the first major of its partnership still fighting."""
    row = politics.nations(state)[nation]
    p = politics.partnership(state, nation) or "western"
    conquered = politics.war_state(state).get("conquered", {})
    cands = [row.get("major_partner")] + [n for n, r in sorted(politics.nations(state).items())
                                          if r.get("kind") == "major" and politics.partnership(state, n) == p]
    return next((n for n in cands if n and n != nation and n not in conquered), nation)


def liberated_now(state: State, nation: str) -> str | None:
    """ETO-40.3: the liberating side, when every home city resource hex of a conquered country is
    held by an enemy of its conqueror."""
    conqueror = politics.war_state(state).get("conquered", {}).get(nation)
    if conqueror is None:
        return None
    c_side = politics.side_of(state, conqueror)
    if c_side is None:
        return None
    keys = key_hexes(state, nation, home_only=True)
    for key, zone in state.arrays.items():  # 40.4: with Vichy neutral, "the rest of France" is liberated
        if key.startswith("zone.") and politics.neutral(state, key[5:]):
            keys = keys & ~zone.astype(bool)
    liberator = values.other(c_side)
    if keys.any() and bool((ctl.control(state)[keys] == ctl.SIDE_CODE[liberator]).all()):
        return liberator
    return None


def liberate(state: State, nation: str, liberator_side: str, liberator: str) -> None:
    """ETO-40.3: "treated as a second conquest": the country's hexes become friendly to the
    liberator, and the ships its conqueror took are diced for again."""
    ws = politics.writable(state)
    conqueror = ws["conquered"].pop(nation)
    ws.setdefault("liberated", {})[nation] = liberator
    ctl.control(state)[ctl.home_mask(state, nation, original=True)] = ctl.SIDE_CODE[liberator_side]
    state.emit("liberated", side=liberator_side, rule="ETO-40.3", nation=nation, liberator=liberator,
               text=f"{politics.nations(state)[nation]['name']} is liberated by {liberator}")
    for hook in LIBERATION_HOOKS:  # 40.4: a neutral Vichy turns Allied
        hook(state, nation)
    prizes: dict[str, list[Unit]] = {}
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.props.get("captured_from") == nation and politics.side_of(state, u.nation) == politics.side_of(
                state, conqueror):
            prizes.setdefault(u.location or "", []).append(u)
    for at, stack in sorted(prizes.items()):
        dispose(state, stack, liberator, at, stack[0].side)


def colony_check(state: State, country: str, conqueror: str, side: str) -> None:
    """ETO-40.0: "a colony of a major power is conquered when all cities and resource hexes in it
    have been captured by the invader; if it has no cities or resource hexes, it is conquered as
    soon as an invader enters" -- the whole colony then becomes the conqueror's (40.1)."""
    hexes = state.map.hexes
    if "colony_of" not in hexes.columns:
        return
    ta = terrain_arrays(state)
    land = (ta.country == country) & ta.land
    idx = np.flatnonzero(land)
    if not len(idx):
        return
    owner_name = hexes["colony_of"][int(idx[0])]
    nation = next((n for n, r in politics.nations(state).items() if owner_name and r.get("name") == owner_name), None)
    ws = politics.war_state(state)
    if nation is None or country in ws.get("colonies_conquered", {}) or nation in ws.get("conquered", {}) \
            or politics.side_of(state, nation) in (None, side):
        return
    ctrl = ctl.control(state)
    enemy = ctl.SIDE_CODE[side]
    keys = land & (ta.city | ta.city_resource | ta.resource)
    done = (ctrl[keys] == enemy).all() if keys.any() else (ctrl[land] == enemy).any()
    if not done:
        return
    politics.writable(state).setdefault("colonies_conquered", {})[country] = conqueror
    ctrl[land] = enemy
    if state.arrays.get("holder") is not None:
        from workbench.rulesets.eto import holders

        holders.assign(state, land, conqueror)
    state.emit("colony_conquered", side=side, rule=RULE, country=country, nation=nation, conqueror=conqueror,
               text=f"{country}, a colony of {politics.nations(state)[nation]['name']}, is conquered by {conqueror} (40.0): "
                    "all of it is theirs")


def on_land_entry(state: State, unit: Unit, labels: list[str]) -> None:
    """After a land unit took hexes: conquests and liberations it completed (40.0, 40.3)."""
    if not politics.on(state.game):
        return
    ta = terrain_arrays(state)
    hm = state.map
    touched = set()
    for lab in labels:
        i = hm.index(lab)
        c = ta.country[i]
        if c:
            n = politics.nation_of_country(state, c)
            if n is not None:
                touched.add(n)
    conqueror = values.major_of(state, unit.nation)
    for c in sorted({str(ta.country[hm.index(lab)]) for lab in labels if ta.country[hm.index(lab)]}):
        colony_check(state, c, conqueror, unit.side)
    for n in sorted(touched):
        if conquered_now(state, n):
            conquer(state, n, conqueror)
        else:
            lib = liberated_now(state, n)
            if lib is not None and lib == unit.side:
                liberate(state, n, lib, conqueror)


if on_land_entry not in ctl.ENTRY_HOOKS:
    ctl.ENTRY_HOOKS.append(on_land_entry)
