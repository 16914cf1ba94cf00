"""Land movement (ETO-24.0-24.3, 25.2-25.3, 30.0-30.4; BT and exploitation moves 28.1, 28.3, 29.2).

Every land hex costs 1 MP (24.0).  What a unit may do depends on a small
per-path state, so the reach search walks ``(hex, ZOC state, touched bad
weather)`` rather than plain costs:

* infantry and paratroops stop on entering enemy ZOC; one that enters or
  starts in a forest ZOC hex may slip into one adjacent forest ZOC hex
  (not across a frozen lake hexside) and stops there (25.2);
* armor may move one more hex after entering enemy ZOC (25.3);
* a unit starting in enemy ZOC leaves normally if the first hex it enters is
  free of ZOC (25.2, 25.3); armor may instead move one hex into ZOC;
* infantry and armor MA is halved (rounded up) once the unit is in or enters a
  mud or winter hex (1.2, 1.3); out of supply, infantry has at most 2 (1 in
  mud/winter) and armor 1 (33.1);
* HQs and generals move 5 (30.1), HQs 3 at steps 1-B and 3-C (23.2), ignoring
  weather, entering enemy ZOC only where a friendly land unit is; generals
  stop on entering enemy ZOC, and during offensives move only with a land unit
  (24.3: the ``general`` key of a move order).
* 24.1 transit boxes (``terrain.toml [transit_boxes]``, e.g. the Iraq transit box): a land unit
  of the listed nations moves from the box onto a friendly map-edge hex the box links to, or
  from such a hex into the box, for the box's MP cost, in the Movement phase or when activated
  (``"path"`` then starts with the edge hex, or ends with the box's name);
* 24.1 coastal forts: an enemy land unit entering the hex by land removes the marker
  (``terrain.toml [features]`` rows with ``removed_on_enemy_land_entry``).

The engine's :mod:`workbench.engine.moves` works on additive per-step costs,
which cannot express these path-dependent stops; this module keeps the same
order format (``{"kind": "move", "unit": ..., "path": [...]}``) and reports the
generalisation needed (a stateful reach) for lifting into the engine.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import cooperation, invasion, politics, stacking, supply, values
from workbench.rulesets.eto.control import NEUTRAL, SIDE_CODE, control, pass_through
from workbench.rulesets.eto.garrison import home_lock
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import FAIR, WINTER, conditions, crossable_sides, lakes_frozen
from workbench.rulesets.eto.zoc import zoc

# ZOC states along a path
FREE, STOP, ARMOR_EXTRA, FOREST_SLIP, START_ZOC, START_FOREST_ZOC, START_ZOC_ARMOR = range(7)


def occupied_by(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes holding any land counter (HQs and generals too) of ``side`` on the map;
    air units do not count: enemy land units entering make them evacuate (13.2)."""
    def make() -> np.ndarray:
        out = np.zeros(state.map.size, dtype=bool)
        for u in state.units_by_id.values():
            if u.side == side and values.on_map(u) and not values.is_air_counter(state, u):
                out[state.map.index(u.location)] = True
        return out
    return state.derived(("eto.occupied", side), make, state.event_stamp)


def land_occupied_by(state: State, side: str) -> np.ndarray:
    def make() -> np.ndarray:
        out = np.zeros(state.map.size, dtype=bool)
        for u in state.units_by_id.values():
            if u.side == side and values.on_map(u) and values.is_land_unit(state, u):
                out[state.map.index(u.location)] = True
        return out
    return state.derived(("eto.land_occupied", side), make, state.event_stamp)


def banned_hexes(state: State, unit: Unit) -> np.ndarray:
    """Hexes closed to this unit by control and scenario rules: neutral hexes (no invasions in
    the land core, 30.2/39), everything outside a neutral's own territory for the neutral's units
    (39.0: at peace until it invades), Bulgaria for Soviet units and the Finnish halt line
    (scenario)."""
    def make() -> np.ndarray:
        hm = state.map
        ta = terrain_arrays(state)
        out = control(state) == NEUTRAL
        if politics_on:  # 39.0, 39.1, 42.5, 43.6: a nation's hexes are open to itself, its partners and its
            # enemies -- so a neutral at peace keeps to its own soil
            from workbench.rulesets.eto import holders

            out = (out & (holders.holders(state) == 0)) | holders.closed(state, unit)
        rules = state.game.scenario.raw.get("special_rules", [])
        effects = {r.get("effect") for r in rules if isinstance(r, dict)}
        if unit.side == "allies" and "minors_active" in effects:
            out = out | (ta.country == "Bulgaria")
        if unit.nation == "FI" and "finnish_halt_line" in effects:
            try:
                lenin = hm.index(hm.hex_of("Leningrad"))
                out = out | (hm.grid.distance(np.arange(hm.size), lenin) <= 2)
            except KeyError:
                pass
        return out
    politics_on = bool(state.game.options.get("politics"))
    key = (unit.nation, bool(unit.props.get("activated"))) if politics_on else unit.nation == "FI"
    return state.derived(("eto.banned", unit.side, key), make, state.event_stamp, state.markers.get("holder_rev", 0))


def enter_arrays(state: State, unit: Unit) -> tuple[np.ndarray, np.ndarray]:
    """``(enter_ok[N], side_ok[N, 6])`` for a unit's side and class: terrain, hexside,
    fortification and control permissions (24.1), enemy-occupied hexes excluded."""
    cls = values.unit_class(state, unit)
    politics_on = bool(state.game.options.get("politics"))
    by_nation = cls == "partisan" or unit.nation == "FI" or politics_on
    key = ("eto.enter", unit.side, cls, unit.nation if by_nation else "", politics_on and bool(unit.props.get("activated")),
           unit.type if cls == "hq" else "")

    def make() -> tuple[np.ndarray, np.ndarray]:
        hm = state.map
        ta = terrain_arrays(state)
        ok = ta.land & ~banned_hexes(state, unit) & ~occupied_by(state, values.other(unit.side))
        if cls == "armor":
            ok &= ~ta.marsh
        if cls == "partisan":
            from workbench.rulesets.eto.control import home_mask
            ok &= home_mask(state, unit.nation)  # 45.4: never out of its home country
        if cls == "hq":
            from workbench.rulesets.eto.hq_limits import region_mask
            region = region_mask(state, unit)
            if region is not None:
                ok &= region  # 23.5
        for h, f in state.markers.get("forts", {}).items():
            if f.get("kind") == "fortification" and f.get("side") != unit.side:
                ok[hm.index(h)] = False
        nb = hm.neighbors
        j = np.maximum(nb, 0)
        ctrl = control(state)
        side_ok = crossable_sides(state) & ~(ta.fortress_side & ta.fort_hex[j] & (ctrl[j] != SIDE_CODE[unit.side]))
        return ok, side_ok
    return state.derived(key, make, state.event_stamp, state.markers.get("holder_rev", 0))


def can_enter_basic(state: State, unit: Unit, a: int, d: int, b: int) -> bool:
    """Terrain, hexside, fortification and control permissions for the step a→b (24.1)."""
    ok, side_ok = enter_arrays(state, unit)
    occupied = occupied_by(state, values.other(unit.side))
    return bool(side_ok[a, d]) and (bool(ok[b]) or bool(occupied[b] and _basic_terrain_ok(state, unit, b)))


def entry_barrier(state: State, unit: Unit, a: int, d: int, b: int) -> str:
    """Plain words for why the step a→b is closed (24.1), for refusals."""
    hm = state.map
    ta = terrain_arrays(state)
    if hm.is_water[b]:
        return "it is an all-sea or all-lake hex"
    if not ta.land[b]:
        return "Switzerland may not be entered"
    if hm.side_mask("impassable")[a, d]:
        return "the hexside is impassable"
    if ta.closed_side[a, d]:
        return "an all-sea hexside without a ferry may not be crossed"
    if ta.lake_side[a, d] and not lakes_frozen(state)[a, d]:
        return "a lake hexside may be crossed only when the lake is frozen (1.5)"
    if values.unit_class(state, unit) == "armor" and ta.marsh[b]:
        return "armor cannot enter a marsh hex"
    fort = state.markers.get("forts", {}).get(hm.label(b))
    if fort and fort.get("kind") == "fortification" and fort.get("side") != unit.side:
        return "an enemy fortification marker bars the hex until it is captured"
    if ta.fortress_side[a, d] and ta.fort_hex[b]:
        return "enemy units may not enter a fortified hex through its fortress hexside until it is captured"
    if banned_hexes(state, unit)[b]:
        if state.game.options.get("politics"):
            from workbench.rulesets.eto import holders

            if holders.closed(state, unit)[b]:
                for hook in holders.CLOSED_HOOKS:  # 43.2, 43.3 say why first
                    more = hook(state, unit)
                    if more is not None and more[0][b]:
                        return more[1]
                if politics.at_peace(state, unit.nation):
                    return (f"{unit.nation} is neutral: its units stay on its own soil until it invades "
                            "(ETO-39.0; declare_war first)")
                return holders.why_closed(state, unit, b)
        if control(state)[b] == NEUTRAL and terrain_arrays(state).land[b]:
            return invasion.neutral_territory_note(state)
        return "the hex is closed to this unit by a scenario rule"
    return "the hex is closed to this unit"


def _basic_terrain_ok(state: State, unit: Unit, b: int) -> bool:
    ta = terrain_arrays(state)
    return bool(ta.land[b] and not banned_hexes(state, unit)[b]
                and not (values.unit_class(state, unit) == "armor" and ta.marsh[b]))


@dataclass
class MoveSpec:
    """What limits one unit's move now."""

    fair: int            # allowance while every hex touched is fair
    bad: int             # allowance once a mud/winter hex is touched
    zoc_rule: str        # "infantry", "armor", "none", "hq", "general"
    no_mud: bool = False         # BT / exploitation: may not enter mud (1.2)
    no_winter: bool = False      # exploitation: may not enter the severe zone in W (1.3)


def spec_for(state: State, unit: Unit, mode: str) -> MoveSpec:
    """The allowance and ZOC rule for a unit in a mode: movement, offensive, hq,
    bt_pre, bt, exploit (with ``general`` rating in unit.props when riding)."""
    cls = values.unit_class(state, unit)
    if cls == "hq":
        if mode == "hq":  # 23.2: in an offensive, on from one friendly-held ZOC hex to the next
            return MoveSpec(3, 3, "hq")
        n = values.printed_ma(state, unit)  # 30.1: in the Movement phase it stops as a general does
        return MoveSpec(n, n, "general")
    if cls == "general":
        n = values.printed_ma(state, unit)
        return MoveSpec(n, n, "general")
    utype = cls if cls in ("infantry", "armor", "paratroop") else "infantry"
    sup = supply.in_supply_for_effects(state, unit)
    if cls == "partisan":
        return MoveSpec(1, 1, "none")  # 45.4: one hex, ignoring ZOC, weather and supply
    printed = values.printed_ma(state, unit)
    if mode in ("movement", "offensive"):
        return MoveSpec(adj.movement_allowance(printed, utype, "F", sup, tables=state.ruleset.tables),
                        adj.movement_allowance(printed, utype, "M", sup, tables=state.ruleset.tables),
                        "infantry" if cls != "armor" else "armor")
    if mode == "bt_pre":  # 28.1: two hexes (one ZOC to ZOC, by the armor ZOC rule); OOS 1 (33.1)
        n = 2 if sup else 1
        return MoveSpec(n, n, "armor", no_mud=True)
    rating = int(unit.props.get("riding_rating", 0))
    winter_cap = int(state.ruleset.tables["weather"]["effects"]["winter"]["breakthrough_move_max"])
    if mode == "bt":
        n = rating if rating else 1
        rule = "armor" if rating else "none"  # 28.3: without a general ZOC has no effect
    else:  # exploit, 29.2
        n, rule = rating, "armor"
    if not sup:
        n = min(n, 1)
    return MoveSpec(n, min(n, winter_cap), rule, no_mud=True, no_winter=(mode == "exploit"))


def _start_zoc_state(rule: str, in_zoc: bool, forest: bool) -> int:
    if not in_zoc:
        return FREE
    if rule == "infantry":
        return START_FOREST_ZOC if forest else START_ZOC
    if rule == "armor":
        return START_ZOC_ARMOR
    return FREE


def _next_zoc(rule: str, z: int, ez_b: bool, forest_a: bool, forest_b: bool, frozen_side: bool) -> int | None:
    """The ZOC state after entering b, or None if the step is forbidden (25.2, 25.3)."""
    if rule in ("none", "hq"):
        return FREE
    if rule == "general":  # 30.1: "they must cease movement immediately upon entering enemy ZOC"
        if z == STOP:
            return None
        return STOP if ez_b else FREE
    if z == STOP:
        return None
    if rule == "armor":
        if z == ARMOR_EXTRA:
            return STOP
        if z == START_ZOC_ARMOR:
            return STOP if ez_b else FREE
        return ARMOR_EXTRA if ez_b else FREE
    # infantry / paratroop
    if z == FREE:
        if not ez_b:
            return FREE
        return FOREST_SLIP if forest_b else STOP
    if z == START_ZOC:
        return None if ez_b else FREE
    if z == START_FOREST_ZOC:
        if not ez_b:
            return FREE
        return STOP if (forest_b and not frozen_side) else None
    if z == FOREST_SLIP:
        return STOP if (ez_b and forest_a and forest_b and not frozen_side) else None
    return None


def partisan_only(state: State, side: str) -> np.ndarray:
    """``bool[N]``: hexes whose ``side`` land units are all partisans (45.5)."""
    def make() -> np.ndarray:
        out = np.zeros(state.map.size, dtype=bool)
        other = np.zeros(state.map.size, dtype=bool)
        for u in state.units_by_id.values():
            if u.side == side and values.on_map(u):
                i = state.map.index(u.location)
                if values.unit_class(state, u) == "partisan":
                    out[i] = True
                elif values.is_combat_unit(state, u):
                    other[i] = True
        return out & ~other
    return state.derived(("eto.partisan_only", side), make, state.event_stamp)


def partisan_kill_mp(state: State, b: int) -> int:
    """ETO-45.5: MPs an enemy infantry unit spends to enter (and destroy) a partisan in hex ``b``:
    2, or 3 in rough or forest (terrain.toml ``partisan_kill_mp``)."""
    name = state.map.hexes["terrain"][b]
    row = state.ruleset.tables["terrain"]["terrain"].get(name, {})
    return int(row.get("partisan_kill_mp", 2) or 2)


#: The rule of the order that walks in each mode (default ETO-24.0), cited when a path's hexes
#: are not adjacent: an HQ move (23.2) or a breakthrough move (28.3).
PATH_RULE = {"hq": "ETO-23.2", "bt": "ETO-28.3"}


class Walker:
    """Everything about the board one unit's move needs, computed once."""

    def __init__(self, state: State, unit: Unit, mode: str, *, origin: int | None = None,
                 spent: int = 0) -> None:
        """``origin``/``spent``: a unit coming off a transit box (24.1) has just entered ``origin``
        (by default its own hex, not entered) and spent ``spent`` MPs doing so."""
        self.state, self.unit, self.mode = state, unit, mode
        hm = state.map
        self.hm = hm
        self.spec = spec_for(state, unit, mode)
        self.ta = terrain_arrays(state)
        self.ez = zoc(state, values.other(unit.side))
        if state.game.options.get("politics"):  # 43.6: a nation at peace with the unit stops nothing
            from workbench.rulesets.eto import holders

            peace = holders.enemy_zoc(state, unit)
            if peace is not None:
                self.ez = peace
        self.enemy = occupied_by(state, values.other(unit.side))
        closed = cooperation.closed_to(state, unit)  # 42.5: the other Allied partnership's hexes
        if mode != "retreat":
            ez = cooperation.zoc_of_others(state, unit)  # 42.5: its ZOCs as an enemy's
            if ez is not None:
                self.ez = self.ez | ez
        self.friend_land = land_occupied_by(state, unit.side)
        self.cond = conditions(state)
        self.frozen = lakes_frozen(state)
        self.weather_free = values.unit_class(state, unit) in ("hq", "general", "partisan")
        self.start = hm.index(unit.location) if origin is None else origin
        self.spent, self.arrived = spent, origin is not None
        self.enter_ok, self.side_ok = enter_arrays(state, unit)
        if closed is not None:  # 42.5: never into or through a hex the other partnership occupies
            self.enemy = self.enemy | closed
            self.enter_ok = self.enter_ok & ~closed
        # 45.5: enemy infantry may enter a hex held only by partisans, paying 2 (3) MPs, and stops
        self.hunt = partisan_only(state, values.other(unit.side)) \
            if values.unit_class(state, unit) == "infantry" and mode in ("movement", "offensive") else None

    def extra(self, b: int) -> int:
        """MPs beyond the usual 1 that entering ``b`` costs (45.5: a partisan's hex)."""
        return partisan_kill_mp(self.state, b) - 1 if self.hunt is not None and self.hunt[b] else 0

    def step(self, a: int, d: int, b: int, z: int, bad: bool) -> tuple[int, bool] | None:
        if not self.side_ok[a, d]:
            return None
        if not self.enter_ok[b]:
            if self.hunt is None or not self.hunt[b] or not _basic_terrain_ok(self.state, self.unit, b):
                return None
            res = self.step_rules(a, d, b, z, bad)
            return None if res is None else (STOP, res[1])  # ruling: the hunter stops in the hex
        return self.step_rules(a, d, b, z, bad)

    def step_rules(self, a: int, d: int, b: int, z: int, bad: bool) -> tuple[int, bool] | None:
        sp = self.spec
        if sp.no_mud and self.cond[b] != FAIR and (self.cond[b] != WINTER or sp.no_winter):
            return None
        if sp.zoc_rule == "hq" and self.ez[b] and not self.friend_land[b]:
            return None  # 23.2
        if sp.zoc_rule == "general" and self.ez[b] and not self.friend_land[b]:
            return None  # 30.1
        nz = _next_zoc(sp.zoc_rule, z, bool(self.ez[b]), bool(self.ta.forest[a]), bool(self.ta.forest[b]),
                       bool(self.frozen[a, d]))
        if nz is None:
            return None
        nbad = bad or (not self.weather_free and self.cond[b] != FAIR)
        return nz, nbad

    def limit(self, bad: bool) -> int:
        return self.spec.bad if bad else self.spec.fair

    def initial(self) -> tuple[int, bool]:
        s = self.start
        if self.arrived:  # 24.1: it entered the edge hex from the box, so ZOC stops it there
            nz = _next_zoc(self.spec.zoc_rule, FREE, bool(self.ez[s]), False, bool(self.ta.forest[s]), False)
            z = STOP if nz is None else nz
        else:
            z = _start_zoc_state(self.spec.zoc_rule, bool(self.ez[s]), bool(self.ta.forest[s]))
        bad = (not self.weather_free) and self.cond[s] != FAIR
        return z, bad

    def reach(self) -> dict[int, list[int]]:
        """Every hex the unit can end in, with one path (hex indices, excluding the start)."""
        z0, bad0 = self.initial()
        start = (self.start, z0, bad0)
        parent: dict[tuple[int, int, bool], tuple[int, int, bool] | None] = {start: None}
        depth = {start: self.spent}
        best: dict[int, tuple[int, int, bool]] = {}
        queue = deque([start])
        nb = self.hm.neighbors
        while queue:
            node = queue.popleft()
            a, z, bad = node
            n = depth[node]
            for d in range(6):
                b = int(nb[a, d])
                if b < 0 or b == self.start:
                    continue
                res = self.step(a, d, b, z, bad)
                if res is None:
                    continue
                nz, nbad = res
                cost = 1 + self.extra(b)
                if n + cost > self.limit(nbad):
                    continue
                key = (b, nz, nbad)
                if key in depth:
                    continue
                depth[key] = n + cost
                parent[key] = node
                if b not in best:
                    best[b] = key
                queue.append(key)
        out = {}
        for b, key in best.items():
            path = []
            k: Any = key
            while k is not None and parent[k] is not None:
                path.append(k[0])
                k = parent[k]
            out[b] = path[::-1]
        return out

    def why_not(self, path: list[int]) -> Refusal | None:
        """None if the path is legal, else the rule that stops it and why."""
        return self.walk(path)[0]

    def walk(self, path: list[int]) -> tuple[Refusal | None, int, bool, int]:
        """``(why_not, ZOC state, touched bad weather, MPs spent)`` after following ``path``."""
        z, bad = self.initial()
        a = self.start
        n = self.spent
        for k, b in enumerate(path, start=1):
            dirs = np.nonzero(self.hm.neighbors[a] == b)[0]
            if dirs.size == 0:
                rule = PATH_RULE.get(self.mode, "ETO-24.0")
                return Refusal(rule, f"{self.hm.label(a)} and {self.hm.label(b)} are not adjacent"), z, bad, n
            d = int(dirs[0])
            n += 1 + self.extra(b)
            hunting = self.hunt is not None and self.hunt[b]
            if hunting and k < len(path):
                return Refusal("ETO-45.5", f"{self.unit.id} must stop in {self.hm.label(b)} to destroy the "
                               "partisan there"), z, bad, n
            if self.enemy[b] and not hunting:
                return Refusal("ETO-24.0", f"{self.hm.label(b)} holds enemy units"), z, bad, n
            if values.unit_class(self.state, self.unit) == "hq":
                from workbench.rulesets.eto.hq_limits import region_why_not
                outside = region_why_not(self.state, self.unit, self.hm.label(b))
                if outside:
                    return outside, z, bad, n
            if not can_enter_basic(self.state, self.unit, a, d, b) and not hunting:
                why = entry_barrier(self.state, self.unit, a, d, b)
                rule = why.split(":", 1)[0] if why.startswith("ETO-") else "ETO-24.1"  # 43.2, 43.3 name their own
                return Refusal(rule, f"{self.unit.id} cannot enter {self.hm.label(b)} from "
                               f"{self.hm.label(a)}: {why}"), z, bad, n
            res = self.step(a, d, b, z, bad)
            if res is None:
                rule = "ETO-23.2" if self.spec.zoc_rule == "hq" else "ETO-30.1" if self.spec.zoc_rule == "general" else \
                    ("ETO-25.3" if self.spec.zoc_rule == "armor" else "ETO-25.2")
                if self.spec.no_mud and self.cond[b] != FAIR:
                    rule = "ETO-1.2"
                return Refusal(rule, f"{self.unit.id} may not move on into {self.hm.label(b)} "
                               "(enemy ZOC or weather)"), z, bad, n
            z, bad = res
            if n > self.limit(bad):
                return Refusal("ETO-24.0", f"{self.unit.id} may move {self.limit(bad)} hexes now "
                               f"(weather 1.2-1.3, supply 33.1); the path costs {n}"
                               + (" (2 or 3 MPs to destroy a partisan, 45.5)" if hunting else "")), z, bad, n
            a = b
        return None, z, bad, n


def transit_box(state: State, name: str) -> dict[str, Any] | None:
    """ETO-24.1: the ``terrain.toml [transit_boxes]`` row of an off-map box this map has, or None."""
    row = state.ruleset.tables["terrain"].get("transit_boxes", {}).get(name)
    return row if row is not None and name in state.map.boxes else None


box_edges = supply.box_edges  # ETO-24.1: a transit box's friendly map-edge hexes (supply reads them too)


def box_user_why_not(state: State, unit: Unit, name: str) -> Refusal | None:
    """ETO-24.1 / 23.5: may this unit use the transit box at all?  Land units of the box's
    nations and classes; HQs only of the types 23.5 allows there (``hq_regions.toml``)."""
    row = transit_box(state, name)
    if row is None:
        return Refusal("ETO-24.1", f"{name!r} is not a transit box land units can use")
    if values.unit_class(state, unit) == "hq":
        from workbench.rulesets.eto.hq_limits import box_allows_hq
        if box_allows_hq(state, unit, name):
            return None
        return Refusal("ETO-23.5", f"HQ {unit.id} may not be in the {name}; only the HQs 23.5 names may")
    if unit.nation not in row.get("nations", []) or values.unit_class(state, unit) not in row.get("classes", []):
        return Refusal("ETO-24.1", f"only {', '.join(row.get('nations', []))} land units may use the {name}, "
                                   f"not {unit.id}")
    return None


def box_move_why_not(state: State, unit: Unit, mode: str, path: list[str]) -> Refusal | None:
    """ETO-24.1: a move out of a transit box (the path starts with a friendly map-edge hex the
    box links to, costing the box's MPs, then goes on as usual) or into one (the path walks to
    such an edge hex, or starts on one, and ends with the box's name; the unit must still be free
    to move on, and the box's MPs count against its allowance)."""
    hm = state.map
    src = unit.location if transit_box(state, unit.location) else None
    dst = path[-1] if path and isinstance(path[-1], str) and transit_box(state, path[-1]) else None
    if src and dst:
        return Refusal("ETO-24.1", f"{unit.id} is already in the {src}; it moves out onto a map-edge hex")
    name = src or dst
    if name is None:
        return None
    if mode not in ("movement", "offensive", "hq"):
        return Refusal("ETO-24.1", "units use the transit box only in the Movement phase or when activated for an "
                                   "offensive, not in breakthrough or exploitation moves")
    why = box_user_why_not(state, unit, name)
    if why:
        return why
    row = transit_box(state, name) or {}
    mp = int(row.get("mp", 1))
    hexes = path if src else path[:-1]
    if not all(isinstance(h, str) and hm.has_hex(h) for h in hexes):
        return Refusal("ETO-24.0", "a move needs a path: the list of hex labels entered (and a transit box at an end)")
    links = [h for h in hm.boxes[name].links if hm.has_hex(h)]
    edges = box_edges(state, name, unit.side)
    if src:
        if not hexes:
            return Refusal("ETO-24.1", f"a move out of the {name} needs the map-edge hex it enters")
        first = hexes[0]
        if first not in links:
            return Refusal("ETO-24.1", f"{first} is not one of the {name}'s map-edge hexes ({', '.join(links)})")
        e = hm.index(first)
        if e not in edges:
            return Refusal("ETO-24.1", f"{first} is not a friendly map-edge hex free of enemy units")
        outside = None
        if values.unit_class(state, unit) == "hq":
            from workbench.rulesets.eto.hq_limits import region_why_not
            outside = region_why_not(state, unit, first)
        if outside:
            return outside
        if not enter_arrays(state, unit)[0][e]:
            return Refusal("ETO-24.1", f"{unit.id} cannot enter {first}: the hex is closed to this unit")
        w = Walker(state, unit, mode, origin=e, spent=mp)
        if w.spec.zoc_rule in ("hq", "general") and w.ez[e] and not w.friend_land[e]:
            rule = "ETO-23.2" if w.spec.zoc_rule == "hq" else "ETO-30.1"
            return Refusal(rule, f"{unit.id} may not enter {first}: it is in enemy ZOC with no friendly land unit")
        if mp > w.limit(w.initial()[1]):
            return Refusal("ETO-24.0", f"{unit.id} has fewer than the {mp} MPs the {name} costs")
        return w.why_not([hm.index(h) for h in hexes[1:]])
    w = Walker(state, unit, mode)
    why, z, bad, n = w.walk([hm.index(h) for h in hexes])
    if why:
        return why
    last = hexes[-1] if hexes else unit.location
    if last not in links:
        return Refusal("ETO-24.1", f"{unit.id} enters the {name} only from one of its map-edge hexes "
                                   f"({', '.join(links)}), not from {last}")
    if hm.index(last) not in edges:
        return Refusal("ETO-24.1", f"{last} is not a friendly map-edge hex free of enemy units")
    if z in (STOP, FOREST_SLIP):
        rule = "ETO-25.3" if w.spec.zoc_rule == "armor" else "ETO-25.2"
        return Refusal(rule, f"{unit.id} entered enemy ZOC at {last} and must stop there")
    if n + mp > w.limit(bad):
        return Refusal("ETO-24.0", f"{unit.id} may move {w.limit(bad)} now; reaching the {name} costs {n + mp} "
                                   f"({mp} for the box itself)")
    return None


def box_paths(state: State, unit: Unit, mode: str, reach: dict[int, list[int]]) -> list[list[str]]:
    """ETO-24.1: the legal transit-box moves to list for ``unit`` (one path per destination):
    out of the box it is in, or into each box it may use.  ``reach`` is its ordinary reach."""
    hm = state.map
    out: list[list[str]] = []
    if transit_box(state, unit.location):
        name = unit.location
        if box_user_why_not(state, unit, name):
            return out
        mp = int((transit_box(state, name) or {}).get("mp", 1))
        edges = [e for e in box_edges(state, name, unit.side) if not box_move_why_not(state, unit, mode, [hm.label(e)])]
        seen = set(edges)
        out += [[hm.label(e)] for e in edges]
        for e in edges:
            for p in Walker(state, unit, mode, origin=e, spent=mp).reach().values():
                if p[-1] not in seen:
                    seen.add(p[-1])
                    out.append([hm.label(i) for i in [e, *p]])
        return out
    if not values.on_map(unit) or mode not in ("movement", "offensive", "hq"):
        return out
    start = hm.index(unit.location)
    for name in state.ruleset.tables["terrain"].get("transit_boxes", {}):
        if transit_box(state, name) is None or box_user_why_not(state, unit, name):
            continue
        edges = [e for e in box_edges(state, name, unit.side) if e == start or e in reach]
        for e in sorted(edges, key=lambda e: len(reach.get(e, []))):  # the nearest edge hex first
            path = [hm.label(i) for i in reach.get(e, [])] + [name]
            if not box_move_why_not(state, unit, mode, path):
                out.append(path)
                break
    return out


def generals_with(state: State, unit: Unit) -> list[Unit]:
    return [g for g in values.units_at(state, unit.location, unit.side) if values.unit_class(state, g) == "general"]


class MoveOrder(OrderKind):
    """``{"kind": "move", "unit": id, "path": [...], "general": id?}`` (24.0, 30.0, 29.2).

    24.3 switching while passing through: ``"drop_at": hex`` leaves the riding general with a
    friendly land unit in a hex the path passes through; ``"pick_up": general`` takes on a
    general standing in a hex the path passes through.  Neither variant is listed by ``legal``
    (it would multiply the list); ``check`` accepts them.

    24.1 transit boxes: a path ending with a box's name moves into the box, and a unit in a box
    moves out with a path starting on one of the box's friendly map-edge hexes
    (:func:`box_move_why_not`).  Entering units remove enemy coastal forts (24.1)."""

    kind = "move"
    rule = "ETO-24.0"

    def mode(self, state: State) -> str:
        key = state.step.key if state.step else ""
        if key.startswith("movement"):
            return "movement"
        if key == "offensive/exploitation":
            return "exploit"
        return "offensive"

    def movers(self, state: State) -> list[Unit]:
        d = state.decision
        if d is None:
            return []
        mode = self.mode(state)
        return [u for u in state.units_by_id.values() if self._may_move(state, u, d.side, mode)]

    @staticmethod
    def _may_move(state: State, u: Unit, side: str, mode: str) -> bool:
        """Whether ``u`` is one of :meth:`movers` now, asked of one unit (``check`` needs no list)."""
        if u.side != side or u.props.get("moved") or \
                not (values.on_map(u) or transit_box(state, u.location)):
            return False  # 24.1: units in a transit box move too
        if u.props.get("dropped") == state.turn_label:
            return False  # 19.4, 28.7: a para stays in its drop hex for the rest of the turn
        cls = values.unit_class(state, u)
        if mode == "movement":
            if u.props.get("activated") or u.props.get("railed"):
                return False
            return not (cls == "partisan" and u.props.get("partisan_moved"))
        if mode == "offensive":
            return bool(cls in ("infantry", "armor", "paratroop") and u.props.get("in_offensive")
                        and not u.props.get("bt_done"))
        return bool(mode == "exploit" and u.props.get("exploiter") and not state.markers.get("exploit_attacks_begun"))

    def is_mover(self, state: State, unit: Unit) -> bool:
        """Whether ``unit`` is one of :meth:`movers`, without listing every mover."""
        d = state.decision
        return d is not None and self._may_move(state, unit, d.side, self.mode(state))

    def walker(self, state: State, unit: Unit, general: Unit | None = None) -> Walker:
        mode = self.mode(state)
        if mode == "exploit":
            gen = state.units_by_id.get(unit.props.get("exploiter", ""))
            unit.props["riding_rating"] = values.exploitation_rating(state, gen) if gen else 0
            try:
                return Walker(state, unit, "exploit")
            finally:
                unit.props.pop("riding_rating", None)
        return Walker(state, unit, mode)

    def destinations(self, state: State, unit: Unit) -> dict[int, list[int]]:
        if not values.on_map(unit):
            return {}  # in a transit box: see box_paths (24.1)
        w = self.walker(state, unit)
        out = w.reach()
        from workbench.rulesets.eto.sea_transport import debark_limit

        limit = debark_limit(state, unit)
        if limit is not None:  # 10.5: one hex from a friendly port free of enemy ZOC, else none
            out = {b: p for b, p in out.items() if len(p) <= limit}
        if stacking.counts_type(state, unit):
            out = {b: p for b, p in out.items() if stacking.fits(state, state.map.label(b), unit.side, [unit])}
        if values.unit_class(state, unit) == "hq":
            from workbench.rulesets.eto.hq_limits import interval_violations
            out = {b: p for b, p in out.items() if not interval_violations(state, unit, state.map.label(b))}
        return out

    def legal(self, state: State) -> list[dict[str, Any]]:
        return list(self._orders(state))

    def any_legal(self, state: State) -> bool:
        """Stops at the first legal move (the flow asks this to skip empty steps)."""
        return next(self._orders(state), None) is not None

    def _orders(self, state: State) -> Iterator[dict[str, Any]]:
        hm = state.map
        mode = self.mode(state)
        for u in sorted(self.movers(state), key=lambda u: u.id):
            if values.unit_class(state, u) == "general" and mode != "movement":
                continue
            gens = [g for g in generals_with(state, u) if not g.props.get("moved")] \
                if values.is_combat_unit(state, u) and mode != "movement" else []  # 30.1: he moves alone
            dests = self.destinations(state, u)
            lock = home_lock(state, u)  # 41.2: a minor's garrison may not leave
            paths = [[hm.label(i) for i in path] for d, path in sorted(dests.items()) if lock is None or lock[d]]
            for p in box_paths(state, u, mode, dests):
                if not (stacking.counts_type(state, u) and state.map.has_hex(p[-1])
                        and not stacking.fits(state, p[-1], u.side, [u])):
                    paths.append(p)
            for path in paths:
                order = {"kind": "move", "unit": u.id, "path": path}
                yield order
                for g in gens:
                    if mode == "exploit" and g.id != u.props.get("exploiter"):
                        continue
                    yield {**order, "general": g.id}

    def route(self, state: State, unit: Unit, to: str) -> list[str] | None:
        """A move by destination (``"to"`` instead of ``"path"``): the path the kernel would list
        for ``unit`` to ``to`` (the first of the cheapest), or None if it cannot get there now."""
        hm = state.map
        if not hm.has_hex(to):
            return None
        path = self.destinations(state, unit).get(hm.index(to))
        return None if path is None else [hm.label(i) for i in path]

    def path_of(self, state: State, order: dict[str, Any]) -> Any:
        """The order's path, or the route to its ``"to"`` when it names only a destination."""
        path = order.get("path")
        if path is None and isinstance(order.get("to"), str) and order.get("unit") in state.units_by_id:
            return self.route(state, state.unit(order["unit"]), order["to"]) or None
        return path

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid, path = order.get("unit"), order.get("path")
        if not isinstance(uid, str) or uid not in state.units_by_id:
            raise IllegalOrder(self.rule, f"there is no unit {uid!r}")
        unit = state.units_by_id[uid]
        if path is None and "to" in order:
            path = self.path_of(state, order)
            if path is None and self.is_mover(state, unit):
                raise IllegalOrder(self.rule, f"{uid} cannot get to {order.get('to')!r} now by any route "
                                   "(terrain, ZOC, stacking and its movement allowance; 24.0-24.2)")
        mode = self.mode(state)
        if unit.props.get("dropped") == state.turn_label:
            raise IllegalOrder("ETO-28.7", f"{uid} paradropped into {unit.location} this turn and must stay there "
                               "for the rest of the turn (it may only retreat, 19.4)")
        from workbench.rulesets.eto.sea_transport import debark_limit

        limit = debark_limit(state, unit)
        if limit is not None and isinstance(path, list) and len(path) > limit:
            raise IllegalOrder("ETO-10.5", f"{uid} debarked this turn and may move "
                               + ("one hex (from a friendly port free of enemy ZOC)" if limit else
                                  "no further (it landed outside a port or in enemy ZOC)"))
        if values.unit_class(state, unit) == "general" and mode != "movement":
            raise IllegalOrder("ETO-24.3", f"{uid} may not move now: generals cannot move during offensives "
                               "except to accompany land units they are stacked with")
        if not self.is_mover(state, unit):
            rule, text = {"movement": ("ETO-30.0", "only units not activated for an offensive move now, once each"),
                          "offensive": ("ETO-24.0", "only activated land units that have not moved this step "
                                                    "(and did not break through, 28.4) move now"),
                          "exploit": ("ETO-29.1", "only eligible armor stacked with a general exploits, "
                                                  "before any exploitation attack")}[mode]
            raise IllegalOrder(rule, f"{uid} may not move now: {text}")
        if not isinstance(path, list) or not path:
            raise IllegalOrder(self.rule, "a move needs a path: the list of hex labels entered")
        if transit_box(state, unit.location) or (isinstance(path[-1], str) and transit_box(state, path[-1])):
            why = box_move_why_not(state, unit, mode, path)  # 24.1
        elif not all(isinstance(h, str) and state.map.has_hex(h) for h in path):
            raise IllegalOrder(self.rule, "a move needs a path: the list of hex labels entered")
        else:
            why = self.walker(state, unit).why_not([state.map.index(h) for h in path])
        if why:
            raise IllegalOrder.of(why, self.rule)
        dest = path[-1]
        on_map_dest = state.map.has_hex(dest)
        if on_map_dest and stacking.counts_type(state, unit) and not stacking.fits(state, dest, unit.side, [unit]):
            refuse(stacking.apart_why_not(state, dest, unit.side, [unit]))  # 42.4, 42.5
            raise IllegalOrder("ETO-24.2", f"{uid} may not end its move in {dest}: the stack would exceed "
                               f"the limit of {stacking.limit_for(state, dest, [unit.nation])}")
        if on_map_dest:
            from workbench.rulesets.eto.garrison import move_why_not

            refuse(move_why_not(state, unit, dest))  # 41.2: a minor's home garrison
            from workbench.rulesets.eto import holders

            for hook in holders.MOVE_CHECKS:  # 40.4: units leave Vichy territory
                refuse(hook(state, unit, path, lambda: Walker(state, unit, "movement").reach()))
        if values.unit_class(state, unit) == "hq" and on_map_dest:
            from workbench.rulesets.eto.hq_limits import interval_violations
            bad = interval_violations(state, unit, dest)
            if bad:
                raise IllegalOrder("ETO-23.4", f"HQ {uid} may not end within {bad}")
        if (order.get("general") or order.get("pick_up")) and not values.is_combat_unit(state, unit):
            raise IllegalOrder("ETO-24.3", f"{uid} cannot carry a general: generals move with land units")
        if (order.get("general") or order.get("pick_up") or order.get("drop_at")) and mode == "movement":
            raise IllegalOrder("ETO-30.1", "in the Movement phase a general moves on his own (MA 5, stopping on "
                               "entering enemy ZOC), not riding with a unit")
        gid = order.get("general")
        if gid is not None:
            gen = state.units_by_id.get(gid)
            if gen is None or values.unit_class(state, gen) != "general" or gen.location != unit.location \
                    or gen.side != unit.side or gen.props.get("moved"):
                raise IllegalOrder("ETO-24.3", f"{gid} is not a general stacked with {uid} that may move with it")
            if mode == "exploit" and gid != unit.props.get("exploiter"):
                raise IllegalOrder("ETO-29.1", f"{gid} is not the general {uid} exploits with")
        self._check_switch(state, order, unit, path, mode)

    @staticmethod
    def _check_switch(state: State, order: dict[str, Any], unit: Unit, path: list[str], mode: str) -> None:
        """ETO-24.3: a general switches carrier when the two land units are stacked together, even
        if one only passes through the other's hex."""
        drop, pick = order.get("drop_at"), order.get("pick_up")
        if drop is None and pick is None:
            return
        if mode == "exploit":
            raise IllegalOrder("ETO-29.2", "exploiting armor moves with the general it exploits with; "
                               "no general changes carrier in the Exploitation step")
        if drop is not None and pick is not None:
            raise IllegalOrder("ETO-24.3", "a move may drop its general or pick one up, not both")
        if drop is not None:
            if not order.get("general"):
                raise IllegalOrder("ETO-24.3", "drop_at needs the general that rides with the unit")
            if drop not in path[:-1]:
                raise IllegalOrder("ETO-24.3", f"{drop} is not a hex {unit.id} passes through")
            if not any(values.is_combat_unit(state, u) and u.id != unit.id
                       for u in values.units_at(state, drop, unit.side)):
                raise IllegalOrder("ETO-24.3", f"no friendly land unit in {drop} for the general to switch to")
            return
        gen = state.units_by_id.get(pick)
        if gen is None or values.unit_class(state, gen) != "general" or gen.side != unit.side \
                or gen.props.get("moved"):
            raise IllegalOrder("ETO-24.3", f"{pick} is not a friendly general that may still move")
        if gen.location not in path[:-1]:
            raise IllegalOrder("ETO-24.3", f"{pick} is not in a hex {unit.id} passes through, so the two "
                               "are never stacked together")
        if order.get("general"):
            raise IllegalOrder("ETO-24.3", "one general per stack: this unit already carries one")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        unit = state.unit(order["unit"])
        start = unit.location
        mode = self.mode(state)
        if mode != "movement":
            from workbench.rulesets.eto.reaction import intercept

            if intercept(state, self.kind, order, [unit]):
                return  # 26.5: the enemy armor may attack before the unit moves
        path = self.path_of(state, order)
        unit.location = path[-1]
        unit.props["moved"] = True
        if mode == "movement" and values.unit_class(state, unit) == "partisan":
            unit.props["partisan_moved"] = True
        entered = [h for h in path if state.map.has_hex(h)]
        pass_through(state, unit, [state.map.index(h) for h in entered])
        if values.unit_class(state, unit) == "infantry" and values.on_map(unit):
            from workbench.rulesets.eto.losses import eliminate

            for p in values.units_at(state, unit.location, values.other(unit.side)):
                if values.unit_class(state, p) == "partisan":
                    eliminate(state, p, "ETO-45.5", f" ({unit.id} spends "
                              f"{partisan_kill_mp(state, state.map.index(unit.location))} MPs to enter its hex)")
        riders = []
        gid = order.get("general") or order.get("pick_up")
        if gid:
            gen = state.unit(gid)
            gen.location = order.get("drop_at") or unit.location  # 24.3: it may switch en route
            riders.append(gen.id)
            if mode == "movement":
                gen.props["moved"] = True
        extra = {"dropped": riders[0], "dropped_at": order["drop_at"]} if order.get("drop_at") else {}
        state.emit("move", side=unit.side, rule="ETO-30.0" if mode == "movement" else
                   ("ETO-29.2" if mode == "exploit" else "ETO-24.0"),
                   text=f"{unit.id} moves {start} → {unit.location}" + (f" with {riders[0]}" if riders else "")
                   + (f" (who stays in {order['drop_at']}, 24.3)" if order.get("drop_at") else ""),
                   unit=unit.id, start=start, path=path,
                   riders=[] if order.get("drop_at") else riders, **extra)  # riders end where the unit ends
        after_move(state, unit.side)


def after_move(state: State, side: str) -> None:
    """Lone enemy HQs/generals now in this side's ZOC withdraw (23.3); out of supply markers come
    off units that now trace to a permanent source, "immediately ... regardless of the phase" (33.4)."""

    lone_commanders_in_zoc(state, side)
    supply.refresh_markers(state)


def lone_commanders_in_zoc(state: State, mover_side: str) -> None:
    """ETO-23.3 (and, authored, generals alike): an HQ or general not stacked with a friendly
    land unit that comes into the ZOC of a moving enemy unit withdraws one hex out of the ZOC,
    or (HQ) goes to the force pool / (general) faces the 27.5 roll."""
    from workbench.rulesets.eto.hq_limits import interval_violations
    from workbench.rulesets.eto.losses import _clear, general_falls
    from workbench.rulesets.eto.values import FORCE_POOL
    from workbench.rulesets.eto.zoc import zoc

    hm = state.map
    enemy_zoc = zoc(state, mover_side)
    side = values.other(mover_side)
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.side != side or not values.on_map(u) or values.unit_class(state, u) not in ("hq", "general"):
            continue
        i = hm.index(u.location)
        if not enemy_zoc[i] or any(values.is_land_unit(state, o) for o in values.units_at(state, u.location, side)):
            continue
        blocked = {o.location for o in state.units_by_id.values()
                   if o.side == mover_side and values.on_map(o) and values.is_land_unit(state, o)}
        moved = False
        for d in range(6):
            j = int(hm.neighbors[i, d])
            if j < 0 or enemy_zoc[j] or hm.label(j) in blocked or not can_enter_basic(state, u, i, d, j):
                continue
            if values.unit_class(state, u) == "hq" and interval_violations(state, u, hm.label(j)):
                continue
            start = u.location
            u.location = hm.label(j)
            state.emit("withdraw", side=side, rule="ETO-23.3", text=f"{u.id} withdraws {start} → {u.location}",
                       unit=u.id, start=start, to=u.location)
            moved = True
            break
        if not moved:
            if values.unit_class(state, u) == "hq":
                start = u.location
                u.location = FORCE_POOL
                _clear(u)
                state.emit("hq_removed", side=side, rule="ETO-23.3",
                           text=f"HQ {u.id} cannot withdraw: to the force pool", unit=u.id, at=start)
            else:
                general_falls(state, u, "ETO-43.7")
