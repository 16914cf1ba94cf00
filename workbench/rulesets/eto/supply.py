"""Supply (ETO-32.0-32.8) and unsupplied units (ETO-33.0-33.6).

Sources (32.1): every friendly city resource hex of a unit's home country
that the enemy has not captured (the USSR may also use Riga, 43.2).  A
country with no city resource hex on the map uses its capital (authored,
docs/rulings-eto.md).  In the Barbarossa scenario German units may also trace
to Finnish sources (special rule ``finland_sea_supply``: the Baltic sea lift
that a land-only game cannot play).

Theatre sources (32.1, 32.2), all data in ``tables/supply_sources.toml``:
colony city resource hexes supply the colonial major's units; the Capetown,
India and Canada boxes supply UK units and the US box US and (after the US
enters the war) UK units; American units may use every British source.  A box
supplies units in the box; it reaches the map only through the map hexes the
box links to (``meta.json`` ``boxes``), which then act as sources.  The four
source boxes of the europe map link only to sea areas, so their supply
reaches the map as supply markers carried by STPs (32.5, a later issue).
A permanent fortification hex supplies one friendly land unit in it (the first
unit there, by id, that reaches no other source) while held by a side fielding
the nation whose home country it lies in; once the enemy has held it at a Supply
step the capability is lost for good (``state.markers["captured_forts"]``).

Lines (32.3): overland, of any length, through friendly land hexes free of
enemy units and enemy ZOC, except ZOC hexes occupied by a friendly land unit
or partisan (45.6); never across impassable, all-sea (unless ferried) or
unfrozen lake hexsides.  A whole-map frontier BFS per nation answers for
every unit at once (a hot path).

Isolated sources (32.8): a major country's source must trace to another of
its sources; if it cannot (and not all of them are isolated) it stops being a
source, and at the end of the Supply step it receives 1d6 supply markers
(4 units each per turn).

Supply markers (32.4): portable sources.  A unit traces an ordinary 32.3 line
to a marker hex.  In the Supply step, units that reach no permanent source are
supplied from markers they reach, up to four units per marker (units already
marked out of supply first, 33.3, then by id); every marker that supplied a
unit is consumed.  The enemy taking the hex takes the markers.  Markers are
created only by 32.8 in the land core (sea and air supply, 32.5-32.6, are
later issues).

Markers (33.3-33.5): in the End phase Supply step every land unit that cannot
trace is marked out of supply; one already marked is depleted, or eliminated
if depleted or one-step (to the force pool).  A marked unit that traces again
loses its marker (33.4).  Units in cities suffer no out-of-supply penalty
unless marked (33.0); armor in supply when activated stays supplied for the
offensive (33.6).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.search import multi_source_reach
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import politics, values
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import crossable_sides
from workbench.rulesets.eto.zoc import zoc

MARKER_UNITS = 4  # 32.4: a supply marker supplies up to four units a turn


def special(state: State, effect: str) -> bool:
    return any(isinstance(r, dict) and r.get("effect") == effect
               for r in state.game.scenario.raw.get("special_rules", []))


def vichy_departure_zone(state: State) -> np.ndarray | None:
    """ETO-40.4: while units must still leave Vichy territory, the territory (else None); supply
    lines cross it freely and no unit in it may be activated meanwhile (read here, below the
    politics modules, from the war state's flag)."""
    ws = state.markers.get("politics")
    if not ws or not ws.get("vichy_departure"):
        return None
    z = state.arrays.get(f"zone.{state.ruleset.tables['politics']['vichy']['nation']}")
    return None if z is None else z.astype(bool)


def passable(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes a supply line of ``side`` may enter (32.3)."""
    def make() -> np.ndarray:
        hm = state.map
        ta = terrain_arrays(state)
        mine = np.zeros(hm.size, dtype=bool)
        theirs = np.zeros(hm.size, dtype=bool)
        for u in state.units_by_id.values():
            if values.on_map(u) and values.is_land_unit(state, u):
                (mine if u.side == side else theirs)[hm.index(u.location)] = True
        ok = ta.land & (control(state) == SIDE_CODE[side]) & ~theirs
        ok &= ~zoc(state, values.other(side)) | mine
        if side == "allies" and special(state, "ladoga_ice_road"):
            ok |= ladoga_ice(state)
        vz = vichy_departure_zone(state)
        if vz is not None:  # 40.4: "trace supply freely through Vichy territory (even through enemy units)"
            ok |= vz
        return ok
    return state.derived(("eto.supply_passable", side), make, state.event_stamp)


def ladoga_ice(state: State) -> np.ndarray:
    """Scenario rule ``ladoga_ice_road`` (authored): in W turns from 1941-12 the all-lake hexes of
    Lake Ladoga carry Soviet supply lines."""
    hm = state.map
    out = np.zeros(hm.size, dtype=bool)
    if state.tracks.get("weather") != "W" or state.turn_label < "1941-12" or not state.turn_label[5:].isdigit():
        return out
    lake = hm.terrain_mask("all-lake")
    try:
        lenin = hm.index(hm.hex_of("Leningrad"))
    except KeyError:
        return out
    from workbench.engine.search import connected_to_sources

    near = [i for i in np.flatnonzero(lake) if hm.grid.distance(i, lenin) <= 4]
    if not near:
        return out
    return connected_to_sources(hm.grid.q, hm.grid.r, lake, near) & lake


def sources(state: State, nation: str, side: str) -> list[int]:
    """Supply source hexes for ``nation``'s own units (ETO-32.1, 32.8, authored capital fallback):
    home city resource hexes, ``extra_sources`` (Riga, 43.2), colony city resource hexes and the
    map hexes that its supply boxes link to, each only while friendly-controlled."""
    def make() -> list[int]:
        hm = state.map
        ta = terrain_arrays(state)
        ctrl = control(state)
        row = state.ruleset.tables["units"]["nations"].get(nation, {})
        home = home_mask(state, nation, original=True)
        cands = np.flatnonzero(home & ta.city_resource)
        if cands.size == 0:
            cap = hm.flag("capital")
            cands = np.flatnonzero(home & cap)
        extra = [hm.index(hm.hex_of(p)) for p in row.get("extra_sources", []) if _has_place(state, p)]
        extra += colony_sources(state, nation) + box_link_sources(state, nation)
        out = sorted({int(i) for i in cands if ctrl[i] == SIDE_CODE[side]}
                     | {i for i in extra if ctrl[i] == SIDE_CODE[side]})
        isolated = set(state.markers.get("isolated_sources", {}))
        if values.nation_kind(state, nation) == "major":
            good = [i for i in out if hm.label(i) not in isolated]
            if good:
                out = good
        return out
    return state.derived(("eto.sources", nation, side), make, state.event_stamp)


def _has_place(state: State, name: str) -> bool:
    try:
        state.map.hex_of(name)
    except KeyError:
        return False
    return True


def source_nations(state: State, nation: str) -> list[str]:
    """Whose sources a nation's units may use (ETO-32.2): its own, those the
    ``supply_sources`` table ``[shares]`` grants (US units: any British source), plus
    scenario sharing."""
    out = [nation]
    for other in _table(state).get("shares", {}).get(nation, {}).get("uses", []):
        if other not in out:
            out.append(other)
    if nation == "GE" and special(state, "finland_sea_supply"):
        out.append("FI")
    return out


def _table(state: State) -> dict[str, Any]:
    return state.ruleset.tables.get("supply_sources", {})


def condition(state: State, name: str) -> bool:
    """A ``[conditions]`` entry of the ``supply_sources`` table (e.g. ``us_at_war``, ETO-32.1):
    the scenario's ``track`` decides if set, else whether a side fields the ``fielded`` nation."""
    try:
        c = _table(state)["conditions"][name]
    except KeyError:
        raise KeyError(f"supply_sources.toml has no condition {name!r}") from None
    track = c.get("track")
    if track and track in state.tracks:
        return bool(state.tracks[track])
    fielded = c.get("fielded")
    return bool(fielded) and any(fielded in ns for ns in state.game.scenario.sides.values())


def colony_sources(state: State, nation: str) -> list[int]:
    """ETO-32.1: the colony city resource hexes (``[[colonies]]``) that supply all units of
    the colonial major ``nation`` (control is checked by :func:`sources`)."""
    hm = state.map
    return [hm.index(hm.hex_of(c["place"])) for c in _table(state).get("colonies", [])
            if c.get("nation") == nation and _has_place(state, c["place"])]


def supply_boxes(state: State, nation: str) -> list[str]:
    """ETO-32.1: the off-map boxes (``[[boxes]]``) that are supply sources for ``nation``'s
    own units now (the US box for the UK only after the US enters the war)."""
    return [b["box"] for b in _table(state).get("boxes", [])
            if nation in b.get("nations", []) and b["box"] in state.map.boxes
            and (not b.get("requires") or condition(state, b["requires"]))]


def box_link_sources(state: State, nation: str) -> list[int]:
    """ETO-32.1 (authored reading): a supply box reaches the map only through the map hexes it
    links to (``meta.json``); those hexes act as sources.  Sea-area links carry supply only
    as STP-borne supply markers (32.5)."""
    hm = state.map
    return [hm.index(link) for b in supply_boxes(state, nation) for link in hm.boxes[b].links
            if values.on_map_label(link) and hm.has_hex(link)]


def box_supplies(state: State, unit: Unit) -> bool | None:
    """ETO-32.1, 32.2: for a unit in a supply box, whether the box supplies it (its nation's
    boxes or those of a nation whose sources it may use); ``None`` if not in a supply box."""
    if unit.location not in {b["box"] for b in _table(state).get("boxes", [])}:
        return None
    return any(unit.location in supply_boxes(state, n) for n in source_nations(state, unit.nation))


def reach(state: State, nation: str, side: str) -> np.ndarray:
    """``int32[N]``: supply-line length (ETO-32.3) from the nearest source that ``nation``'s units
    may use (ETO-32.1, 32.2: :func:`source_nations`; -1: none)."""
    def make() -> np.ndarray:
        hm = state.map
        srcs = [i for n in source_nations(state, nation) for i in sources(state, n, side)]
        return multi_source_reach(hm.neighbors, passable(state, side), srcs,
                                  blocked_sides=~crossable_sides(state))
    return state.derived(("eto.reach", nation, side), make, state.event_stamp)


def traces(state: State, unit: Unit) -> bool:
    """Can the unit trace a supply line now (32.3)?  Units in a supply box: if the box supplies
    them (32.1, 32.2); other off-map units: yes."""
    if not values.on_map(unit):
        boxed = box_supplies(state, unit)
        return True if boxed is None else boxed
    if values.unit_class(state, unit) == "partisan":
        return True  # 45.4: partisans never need supply
    if politics.at_peace(state, unit.nation):
        return True  # 39.0: a neutral at peace on its own soil (docs/rulings-eto.md, the 1939 campaign)
    i = state.map.index(unit.location)
    if reach(state, unit.nation, unit.side)[i] >= 0:
        return True
    if unit.id in fort_supplied(state, unit.side):
        return True
    return marker_reach(state, unit.side)[i] >= 0


def fort_hexes(state: State, side: str) -> np.ndarray:
    """``bool[N]``: permanent fortification hexes that can supply a unit of ``side`` (ETO-32.1):
    held by ``side``, in the original home country of a nation ``side`` fields, and never
    captured (``captured_forts``)."""
    def make() -> np.ndarray:
        hm = state.map
        ok = terrain_arrays(state).fort_hex & (control(state) == SIDE_CODE[side])
        home = np.zeros(hm.size, dtype=bool)
        for n in state.game.scenario.sides.get(side, []):
            home |= home_mask(state, n, original=True)
        ok &= home
        for h in state.markers.get("captured_forts", []):
            ok[hm.index(h)] = False
        return ok
    return state.derived(("eto.fort_hexes", side), make, state.event_stamp)


def fort_supplied(state: State, side: str) -> set[str]:
    """ETO-32.1: "A permanent fortification provides supply for one Friendly unit in the hex":
    per fort hex, the first land unit of ``side`` there (units marked out of supply first, then
    by id) that reaches no permanent source."""
    def make() -> set[str]:
        hm = state.map
        forts = fort_hexes(state, side)
        if not forts.any():
            return set()
        chosen: dict[int, str] = {}
        for u in sorted(state.units_by_id.values(), key=lambda u: (not u.props.get("oos"), u.id)):
            if u.side != side or not values.on_map(u) or not values.is_combat_unit(state, u):
                continue
            i = hm.index(u.location)
            if forts[i] and i not in chosen and reach(state, u.nation, side)[i] < 0:
                chosen[i] = u.id
        return set(chosen.values())
    return state.derived(("eto.fort_supplied", side), make, state.event_stamp)


def note_captured_forts(state: State) -> None:
    """ETO-32.1: a permanent fortification held by a side that fields no nation whose home
    country it is in has been captured; it never supplies again."""
    hm = state.map
    ta = terrain_arrays(state)
    ctrl = control(state)
    held = {}
    for side in state.ruleset.sides:
        home = np.zeros(hm.size, dtype=bool)
        for n in state.game.scenario.sides.get(side, []):
            home |= home_mask(state, n, original=True)
        held[SIDE_CODE[side]] = home
    captured = state.markers.setdefault("captured_forts", [])
    for i in np.flatnonzero(ta.fort_hex):
        code = int(ctrl[i])
        lab = hm.label(int(i))
        if code in held and not held[code][i] and lab not in captured \
                and any(h[i] for c, h in held.items() if c != code):
            captured.append(lab)
            state.emit("fort_captured", side="axis" if code == SIDE_CODE["axis"] else "allies", rule="ETO-32.1",
                       text=f"the permanent fortification at {lab} is captured and no longer provides supply",
                       hex=lab)


def _marker_hexes(state: State, side: str) -> set[str]:
    return {h for h, m in state.markers.get("supply_markers", {}).items()
            if m.get("side") == side and m.get("markers", 0) > 0}


def marker_sources(state: State, h: str, side: str) -> list[int]:
    """The map hexes a supply line traces to for the markers at ``h``: the hex itself, or for a
    transit box (24.1: "The UK player can trace supply to a friendly map edge hex in Iraq if he has
    a supply marker in the box") its friendly map-edge hexes free of enemy units."""
    hm = state.map
    if hm.has_hex(h):
        return [hm.index(h)]
    box = state.ruleset.tables["terrain"].get("transit_boxes", {}).get(h)
    if box is None or h not in hm.boxes:
        return []
    m = state.markers.get("supply_markers", {}).get(h, {})
    if m.get("nation") not in box.get("nations", []) and m.get("side") != side:
        return []
    return box_edges(state, h, side)


def box_edges(state: State, name: str, side: str) -> list[int]:
    """ETO-24.1: a transit box's map-edge hexes (its map links) friendly to ``side`` and holding no
    enemy unit (movement and supply both use them)."""
    hm = state.map
    ctrl = control(state)
    enemy = {u.location for u in state.units_by_id.values() if u.side != side and values.on_map(u)
             and not values.is_air_counter(state, u)}
    return [hm.index(h) for h in hm.boxes[name].links
            if hm.has_hex(h) and ctrl[hm.index(h)] == SIDE_CODE[side] and h not in enemy]


def marker_reach(state: State, side: str) -> np.ndarray:
    """``int32[N]``: supply-line length from the nearest supply marker of ``side`` (32.4; -1: none)."""
    def make() -> np.ndarray:
        hm = state.map
        srcs = sorted({i for h in sorted(_marker_hexes(state, side)) for i in marker_sources(state, h, side)})
        if not srcs:
            return np.full(hm.size, -1, dtype=np.int32)
        return multi_source_reach(hm.neighbors, passable(state, side), srcs, blocked_sides=~crossable_sides(state))
    return state.derived(("eto.marker_reach", side), make, state.event_stamp)


def capture_markers(state: State) -> None:
    """ETO-32.4: "If the enemy takes control of a hex that contains a supply marker, they also get
    control of the supply marker" (their capacity used this turn goes with them)."""
    hm = state.map
    ctrl = control(state)
    for h, m in state.markers.get("supply_markers", {}).items():
        if not hm.has_hex(h):
            continue  # markers in a box change hands with no hex (24.1's Iraq box)
        c = ctrl[hm.index(h)]
        owner = "axis" if c == SIDE_CODE["axis"] else "allies"
        if c in (SIDE_CODE["axis"], SIDE_CODE["allies"]) and m.get("side") != owner and m.get("markers", 0) > 0:
            m["side"] = owner
            m.pop("used", None)
            state.emit("supply_markers_captured", side=owner, rule="ETO-32.4",
                       text=f"{owner} takes the {m['markers']} supply marker(s) at {h}", hex=h)


def marker_supply(state: State, side: str, units: list[Unit]) -> set[str]:
    """ETO-32.4 in the Supply step: which of ``units`` (none reaching a permanent source) the
    markers supply, four per marker, units already marked out of supply first (33.3); the
    markers that supplied a unit are consumed.  A unit restored by a marker earlier this turn
    (33.4) is supplied by it again without counting twice ("that unit counts toward the marker's
    capacity")."""
    hm = state.map
    marks = state.markers.get("supply_markers", {})
    capture_markers(state)
    hexes = sorted(_marker_hexes(state, side))
    if not hexes:
        return set()
    passable_ = passable(state, side)
    blocked = ~crossable_sides(state)
    early = {h: set(restored_this_turn(state, h)) for h in hexes}  # 33.4: restored earlier this turn
    left = {h: capacity_left(state, h) for h in hexes}
    served: dict[str, int] = {h: 0 for h in hexes}
    doubled = _italian_markers(state)  # 46.2 (optional): hex -> units of capacity only Italian STPs brought
    extra: dict[str, int] = {h: 0 for h in hexes}
    srcs = {h: marker_sources(state, h, side) for h in hexes}
    dist = {h: multi_source_reach(hm.neighbors, passable_ | _srcs_mask(hm.size, srcs[h]), srcs[h], blocked_sides=blocked)
            if srcs[h] else np.full(hm.size, -1, dtype=np.int32) for h in hexes}
    out: set[str] = set()
    for u in sorted(units, key=lambda u: (not u.props.get("oos"), u.id)):
        i = hm.index(u.location)
        again = [h for h in hexes if u.id in early[h] and dist[h][i] >= 0]
        if again:
            out.add(u.id)  # already counted against that marker this turn
            continue
        cost = 2 if u.nation in doubled["nations"] else 1
        options = sorted((int(dist[h][i]), h) for h in hexes if dist[h][i] >= 0 and left[h] > 0)
        if not options:
            continue
        h = options[0][1]
        plain = left[h] - doubled["hexes"].get(h, 0)  # capacity of the markers not brought by Italian STPs
        if cost == 2 and plain < 1:
            second = [hh for _, hh in options[1:] if left[hh] > 0]
            if left[h] >= 2:
                left[h] -= 2
                extra[h] += 1
            elif second:  # "a German unit may trace to two markers"
                left[h] -= 1
                left[second[0]] -= 1
                served[second[0]] += 1
            else:
                continue
            doubled["hexes"][h] = max(0, doubled["hexes"].get(h, 0) - 2)
        else:
            left[h] -= 1
            if plain < 1 and h in doubled["hexes"]:
                doubled["hexes"][h] -= 1
        served[h] += 1
        out.add(u.id)
    for h, n in served.items():
        marks[h].pop("used", None)
        n += len(early[h]) + extra[h]
        if n:
            sea = int(marks[h]["markers"]) - int(marks[h].get("air", 0))
            sea_used = min(sea, -(-n // MARKER_UNITS))       # 32.4: four units a supply marker, served first
            air_used = max(0, n - sea * MARKER_UNITS)         # "An air supply marker can supply one unit"
            used = sea_used + air_used
            marks[h]["markers"] -= used
            if air_used:
                marks[h]["air"] = int(marks[h].get("air", 0)) - air_used
            if marks[h].get("italian"):  # the plain markers are used first
                plain = int(marks[h]["markers"]) + used - int(marks[h].get("air", 0)) - int(marks[h]["italian"])
                marks[h]["italian"] = max(0, int(marks[h]["italian"]) - max(0, sea_used - plain))
            state.emit("supply_markers_used", side=side, rule="ETO-32.4",
                       text=f"{used} supply marker(s) at {h} consumed supplying {n} unit(s)", hex=h, units=n,
                       markers=used)
    return out


def _srcs_mask(n: int, idx: list[int]) -> np.ndarray:
    out = np.zeros(n, dtype=bool)
    out[idx] = True
    return out


def _italian_markers(state: State) -> dict[str, Any]:
    """ETO-46.2 (optional): "A German unit supplied from a marker carried by Italian STPs counts as
    2 units of marker capacity" -- the capacity (in units) of such markers by hex, and who pays double."""
    t = state.ruleset.tables["politics"]["stp_restrictions"]
    if not state.game.optional_rule(t["rule"]):
        return {"nations": set(), "hexes": {}}
    hexes = {}
    for h, m in state.markers.get("supply_markers", {}).items():
        it = min(int(m.get("italian", 0)), int(m.get("markers", 0)) - int(m.get("air", 0)))
        if it > 0:
            hexes[h] = it * MARKER_UNITS
    return {"nations": {t["german"]}, "hexes": hexes}


def restored_this_turn(state: State, h: str) -> list[str]:
    """Units a supply marker hex has restored this turn (33.4), by id."""
    m = state.markers.get("supply_markers", {}).get(h, {})
    used = m.get("used") or {}
    return list(used.get("units", [])) if used.get("turn") == state.turn_label else []


def used_this_turn(state: State, h: str) -> int:
    """How many units a supply marker hex has restored this turn (33.4)."""
    return len(restored_this_turn(state, h))


def capacity_left(state: State, h: str) -> int:
    """ETO-32.4: four units a turn for each supply marker in the hex and one for each air supply
    marker, less those already served."""
    m = state.markers.get("supply_markers", {}).get(h, {})
    air = int(m.get("air", 0))
    return (int(m.get("markers", 0)) - air) * MARKER_UNITS + air - used_this_turn(state, h)


def restore_from_marker(state: State, unit: Unit, why: str) -> bool:
    """ETO-33.4, second paragraph: a unit marked out of supply that is activated for an offensive
    or attacked loses its marker if it traces a line to a friendly supply marker with capacity
    left this turn; that uses one unit of the marker's capacity (32.4)."""
    if not unit.props.get("oos") or not values.on_map(unit):
        return False
    capture_markers(state)
    hm = state.map
    i = hm.index(unit.location)
    if marker_reach(state, unit.side)[i] < 0:
        return False
    pas, blocked = passable(state, unit.side), ~crossable_sides(state)
    best = None
    for h in sorted(_marker_hexes(state, unit.side)):
        if capacity_left(state, h) <= 0:
            continue
        srcs = marker_sources(state, h, unit.side)
        if not srcs:
            continue
        d = int(multi_source_reach(hm.neighbors, pas, srcs, blocked_sides=blocked)[i])
        if d >= 0 and (best is None or d < best[0]):
            best = (d, h)
    if best is None:
        return False
    h = best[1]
    m = state.markers["supply_markers"][h]
    m["used"] = {"turn": state.turn_label, "units": [*restored_this_turn(state, h), unit.id]}
    unit.props.pop("oos", None)
    state.emit("supplied", side=unit.side, rule="ETO-33.4", unit=unit.id, hex=h,
               text=f"{unit.id}, {why}, traces to the supply marker at {h} and is back in supply "
                    f"({capacity_left(state, h)} unit(s) of capacity left this turn)")
    return True


def assault_supplied(state: State, unit: Unit) -> bool:
    """ETO-32.7: "Units making an amphibious assault are automatically in supply for the remainder
    of that turn.  They are not marked out of supply at the end of the turn" (``props.assaulted``,
    set by :mod:`amphibious` when the assault is rolled)."""
    return unit.props.get("assaulted") == state.turn_label


def in_supply_for_effects(state: State, unit: Unit) -> bool:
    """Supply as the penalties see it (33.0, 33.6): marked units are out; unmarked units in
    cities, and armor supplied at activation for this offensive, are in."""
    if unit.props.get("oos"):
        return False
    if unit.props.get("supplied_offensive") or assault_supplied(state, unit):
        return True
    if values.on_map(unit) and terrain_arrays(state).city[state.map.index(unit.location)]:
        return True
    return traces(state, unit)


def status(state: State, side: str) -> dict[str, bool]:
    """``{unit id: can trace}`` for every land unit of ``side`` on the map."""
    return {u.id: traces(state, u) for u in state.units_by_id.values()
            if u.side == side and values.on_map(u) and values.is_land_unit(state, u)}


def refresh_markers(state: State, side: str | None = None) -> None:
    """ETO-33.4: a marked unit that traces to a permanent source loses its marker at once."""
    for u in state.units_by_id.values():
        if u.props.get("oos") and (side is None or u.side == side) and values.on_map(u):
            i = state.map.index(u.location)
            if reach(state, u.nation, u.side)[i] >= 0:
                u.props.pop("oos", None)
                state.emit("supplied", side=u.side, rule="ETO-33.4", text=f"{u.id} traces supply again",
                           unit=u.id)


#: Air classes that trace supply on their bases (33.3, 33.7).
AIR_TRACERS = ("fighter", "fighter_bomber", "bomber", "naval_air")


def supply_step(state: State, step: Any) -> None:
    """End phase Step 2 (ETO-33.3, 33.5, 33.7, 32.8, 32.1 forts): mark land and air units, deplete
    and eliminate land units (never air ones); isolated sources."""
    from workbench.rulesets.eto.losses import step_loss

    note_captured_forts(state)

    for side in state.ruleset.sides:
        mine = [u for u in sorted(state.units_by_id.values(), key=lambda u: u.id)
                if u.side == side and values.on_map(u)
                and (values.is_combat_unit(state, u) or traces_as_air(state, u))
                and not politics.at_peace(state, u.nation)]  # 39.0: a neutral's units are at peace
        by_fort = fort_supplied(state, side)
        cut = [u for u in mine if reach(state, u.nation, u.side)[state.map.index(u.location)] < 0
               and u.id not in by_fort]
        by_marker = marker_supply(state, side, cut)
        for u in mine:
            if reach(state, u.nation, u.side)[state.map.index(u.location)] >= 0 or u.id in by_marker \
                    or u.id in by_fort or assault_supplied(state, u):
                if u.props.pop("oos", None):
                    state.emit("supplied", side=side, rule="ETO-33.4", text=f"{u.id} is back in supply",
                               unit=u.id)
                continue
            if u.props.get("oos"):
                if not traces_as_air(state, u):  # 33.7: "air units are never depleted from lack of supply"
                    step_loss(state, u, "ETO-33.5", why=" (still out of supply)", oos=True)
            else:
                u.props["oos"] = True
                state.emit("out_of_supply", side=side, rule="ETO-33.3",
                           text=f"{u.id} is marked out of supply at {u.location}", unit=u.id)
    isolated_sources(state)


def traces_as_air(state: State, u: Unit) -> bool:
    """ETO-33.3/33.7: an air unit standing on a land airbase traces supply in the Supply step like
    a land unit ("any land or air unit"); naval air aboard a carrier follows its ship instead
    (33.8: naval units do not trace), and ATP markers are not air units (18.1)."""
    return values.unit_class(state, u) in AIR_TRACERS and not u.props.get("carrier") \
        and not u.props.get("flight") and state.map.has_hex(u.location)


def isolated_sources(state: State) -> None:
    """ETO-32.8: a major country's source that cannot trace to another of its sources is
    isolated (unless all are); it gets 1d6 supply markers once; reconnected, they are removed."""
    hm = state.map
    ta = terrain_arrays(state)
    ctrl = control(state)
    iso: dict[str, Any] = state.markers.setdefault("isolated_sources", {})
    marks: dict[str, Any] = state.markers.setdefault("supply_markers", {})
    for nation, row in sorted(state.ruleset.tables["units"]["nations"].items()):
        if row.get("kind") != "major":
            continue
        side = "allies" if row.get("partnership") != "axis" else "axis"
        home = home_mask(state, nation, original=True)
        srcs = [int(i) for i in np.flatnonzero(home & ta.city_resource) if ctrl[i] == SIDE_CODE[side]]
        if len(srcs) < 2:
            continue
        pas = passable(state, side)
        cut = []
        for s in srcs:
            others = [o for o in srcs if o != s]
            # "as if the original source was a unit": its own hex counts as friendly-occupied, so
            # enemy ZOC there does not cut it (32.3: a friendly unit negates ZOC for supply)
            here = pas.copy()
            here[s] = True
            d = multi_source_reach(hm.neighbors, here, others, blocked_sides=~crossable_sides(state))
            if d[s] < 0:
                cut.append(s)
        if len(cut) == len(srcs):
            cut = []
        for s in srcs:
            lab = hm.label(s)
            if s in cut and lab not in iso:
                (die,) = state.roll(purpose=f"supply markers for isolated {lab}", rule="ETO-32.8", side=side)
                iso[lab] = nation
                marks[lab] = {"side": side, "nation": nation, "markers": die}
                state.emit("isolated", side=side, rule="ETO-32.8",
                           text=f"{lab} is isolated: {die} supply markers placed", hex=lab, markers=die)
            elif s not in cut and lab in iso:
                iso.pop(lab)
                marks.pop(lab, None)
                state.emit("reconnected", side=side, rule="ETO-32.8", text=f"{lab} traces supply again", hex=lab)
