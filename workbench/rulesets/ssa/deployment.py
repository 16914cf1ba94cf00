"""Scenario set-up (SSA-SC.4 and each scenario's deployment text).

Every unit a scenario lists as ``at = "unplaced"`` belongs to a
``[[deployment]]`` group whose ``where`` table says where it may set up (the
vocabulary is documented in docs/rulings-ssa.md).  At set-up each group is
placed by default, cycling over its ``default`` places and spilling to the
nearest legal hex with room, so every scenario starts with no manual
placement.  During the first turn's set-up step each side may then move its
deployable units anywhere their group allows (the ``deploy`` order).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, ScenarioError
from workbench.engine.ruleset import OrderKind
from workbench.engine.search import multi_source_reach
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.control import control_array
from workbench.rulesets.ssa.occupation import city_hexes

UNPLACED = "unplaced"
WHERE_KEYS = {"country", "coast", "city", "on_or_adjacent", "places", "anywhere", "min_distance",
              "max_distance", "of", "center", "region", "friendly", "not", "any_of", "box",
              "not_adjacent_to_enemy", "except", "trace_supply", "nations", "max_land", "max_air",
              "max_naval", "max_per_hex", "max_per_city"}


class Geography:
    """Per-hex masks the ``where`` vocabulary needs, computed once per game."""

    def __init__(self, state: State) -> None:
        hm = state.map
        self.map = hm
        tables = state.ruleset.tables["countries"]
        names = np.array([c or "" for c in hm.hexes["country"].to_list()], dtype=object)
        self.country = {code: np.isin(names, [*ns, code]) for code, ns in tables["codes"].items()}
        self.land = ~hm.is_water
        self.coastal = hm.flag("coastal")
        ocean = np.array([(o or "") for o in hm.hexes["ocean"].to_list()], dtype=object) \
            if "ocean" in hm.hexes.columns else np.full(hm.size, "", dtype=object)
        nb = np.where(hm.neighbors < 0, 0, hm.neighbors)
        off = hm.neighbors < 0
        self.coast = {}
        for key, word in (("pacific", "Pacific"), ("atlantic", "Atlantic")):
            on = np.array([word in o for o in ocean])
            touch = (on[nb] & ~off).any(axis=1)
            self.coast[key] = self.coastal & touch
        self.coast["west"] = self.coast["pacific"]
        self.coast["east"] = self.coast["atlantic"]
        self.coast["any"] = self.coastal
        self.city = np.zeros(hm.size, dtype=bool)
        self.city_kind = {"industrial": np.zeros(hm.size, dtype=bool),
                          "non_industrial": np.zeros(hm.size, dtype=bool)}
        kinds = hm.hexes["city_kind"].to_list() if "city_kind" in hm.hexes.columns else [None] * hm.size
        for i in city_hexes(state):
            self.city[i] = True
            self.city_kind["industrial" if kinds[i] == "industrial" else "non_industrial"][i] = True
        self.near_city = self.city | (self.city[nb] & ~off).any(axis=1)
        dist = multi_source_reach(hm.neighbors, np.ones(hm.size, dtype=bool), np.flatnonzero(self.coastal))
        self.coast_distance = np.where(dist < 0, 10**6, dist)
        regions = tables.get("regions", {})
        self.region = {"central_america": np.any([self.country[c] for c in regions["central_america"]], axis=0)}
        lon = _longitudes(hm)
        self.region["alaska"] = self.country["US"] & (lon < regions["alaska_west_of_lon"])
        zone = np.array([(z or "") for z in hm.hexes["weather_zone"].to_list()], dtype=object) \
            if "weather_zone" in hm.hexes.columns else np.full(hm.size, "", dtype=object)
        self.region["mexico_north_of_III_IV"] = self.country["MX"] & (zone == regions["mexico_north_zone"])
        self.region["mexico_south_of_III_IV"] = self.country["MX"] & (zone == regions["mexico_south_zone"])

    def place(self, name: str) -> list[int]:
        """Hexes of a named place or area (the Panama Canal has two)."""
        return [self.map.index(h) for h in self.map.area(name)]


def _longitudes(hm) -> np.ndarray:  # noqa: ANN001
    from pyproj import Transformer

    crs = hm.meta.get("crs")
    if not crs or "x" not in hm.hexes.columns:
        return np.zeros(hm.size)
    tr = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
    lon, _ = tr.transform(hm.column("x"), hm.column("y"))
    return np.asarray(lon)


def geography(state: State) -> Geography:
    """The game's :class:`Geography` (once per game: it reads the countries table)."""
    return state.game.cached("ssa.geography", lambda: Geography(state))


def _codes(v: Any) -> list[str]:
    return [v] if isinstance(v, str) else list(v)


def where_mask(state: State, where: dict[str, Any], side: str, center: int | None = None) -> np.ndarray:
    """Hexes satisfying a ``where`` table (all its keys must hold)."""
    geo = geography(state)
    hm = state.map
    if "box" in where and len(where) == 1:
        return np.zeros(hm.size, dtype=bool)
    m = geo.land.copy()
    if "box" in where and not any(k in where for k in ("country", "anywhere", "region", "places", "city")):
        return np.zeros(hm.size, dtype=bool)
    if "any_of" in where:
        alt = np.zeros(hm.size, dtype=bool)
        for w in where["any_of"]:
            alt |= where_mask(state, w, side, center)
        m &= alt
    if "country" in where:
        m &= np.any([geo.country.get(c, np.zeros(hm.size, dtype=bool)) for c in _codes(where["country"])], axis=0)
    if "region" in where:
        m &= np.any([geo.region[r] for r in _codes(where["region"])], axis=0)
    if "coast" in where:
        m &= geo.coast[where["coast"]]
    if "city" in where:
        m &= geo.city if where["city"] == "any" else geo.city_kind[where["city"]]
    if where.get("on_or_adjacent") == "city":
        m &= geo.near_city
    if "places" in where:
        pm = np.zeros(hm.size, dtype=bool)
        for p in where["places"]:
            pm[geo.place(p)] = True
        m &= pm
    if where.get("of") == "coast" and "min_distance" in where:
        m &= geo.coast_distance >= int(where["min_distance"])
    if where.get("of") == "center" and "max_distance" in where and center is not None:
        m &= hm.grid.distance(np.arange(hm.size), center) <= int(where["max_distance"])
    if where.get("friendly"):
        m &= control_array(state) == {"axis": 1, "allies": 2}[side]
    if where.get("not_adjacent_to_enemy"):
        enemy = np.zeros(hm.size, dtype=bool)
        for u in state.units_by_id.values():
            if u.side != side and u.location.isdigit():
                enemy[hm.index(u.location)] = True
        nb = np.where(hm.neighbors < 0, 0, hm.neighbors)
        m &= ~enemy & ~(enemy[nb] & (hm.neighbors >= 0)).any(axis=1)
    if "not" in where:
        m &= ~where_mask(state, where["not"], side, center)
    return m


def where_boxes(where: dict[str, Any]) -> list[str]:
    """Holding areas a ``where`` table allows, in order."""
    out = _codes(where["box"]) if "box" in where else []
    for w in where.get("any_of", []):
        out += [b for b in where_boxes(w) if b not in out]
    return out


def _center(state: State, group: dict[str, Any]) -> int | None:
    where = group.get("where", {})
    specs = [where] + list(where.get("any_of", []))
    for spec in specs:
        c = spec.get("center")
        if isinstance(c, dict) and c.get("default"):
            return geography(state).place(c["default"])[0]
    return None


def air_capacity(state: State) -> np.ndarray:
    """``int[N]``: air units a hex can base (SSA-6.3a): industrial city 4, other city 2,
    clear/desert/forestation/rough 1, others 0 (supply of the field base is checked in play)."""
    def compute() -> np.ndarray:  # once per game: the map and the air table
        geo = geography(state)
        basing = state.ruleset.tables["air"]["basing"]
        terrain = np.array(state.map.hexes["terrain"].to_list(), dtype=object)
        cap = np.where(np.isin(terrain, basing["supplied_hex_terrains"]), int(basing["supplied_hex"]), 0)
        cap = np.where(geo.city_kind["non_industrial"], int(basing["non_industrial_city"]), cap)
        return np.where(geo.city_kind["industrial"], int(basing["industrial_city"]), cap)

    return state.game.cached("ssa.air_capacity", compute)


class Room:
    """Stacking room per hex while placing (SSA-9.1 land, 9.3 naval, 6.3 air bases)."""

    def __init__(self, state: State, side: str) -> None:
        self.state = state
        self.side = side
        self.land: dict[int, Fraction] = defaultdict(Fraction)
        self.naval: dict[int, int] = defaultdict(int)
        self.air: dict[int, int] = defaultdict(int)
        self.under: dict[int, int] = defaultdict(int)
        self.group: dict[int, int] = defaultdict(int)
        hm = state.map
        for u in state.units_by_id.values():
            if u.side == side and u.location.isdigit():
                self.add(u, hm.index(u.location), count_group=False)

    def capacity(self, i: int) -> int:
        return int(air_capacity(self.state)[i])

    def fits(self, u: Unit, i: int, max_per_hex: int | None = None) -> bool:
        st = self.state
        dom = values.domain(st, u)
        if max_per_hex is not None and self.group[i] >= max_per_hex:
            return False
        if dom == "naval":
            return bool(geography(st).coastal[i]) and self.naval[i] < 6
        if dom == "air":
            return self.air[i] < self.capacity(i)
        if dom == "special":
            return True
        if u.props.get("underground"):  # their own limit, outside the division count (SSA-9.1)
            return self.under[i] < int(st.ruleset.tables["stacking"]["land"]["partisan_underground_extra_limit"])
        limit = Fraction(st.ruleset.tables["stacking"]["land"]["limit_per_hex"])
        return self.land[i] + values.division_equivalents(st, u) <= limit

    def add(self, u: Unit, i: int, count_group: bool = True) -> None:
        dom = values.domain(self.state, u)
        if dom == "naval":
            self.naval[i] += 1
        elif dom == "air":
            self.air[i] += 1
        elif dom == "land" and u.props.get("underground"):
            self.under[i] += 1
        elif dom == "land":
            self.land[i] += values.division_equivalents(self.state, u)
        if count_group:
            self.group[i] += 1


def deploy_defaults(state: State) -> None:
    """Place every unplaced unit by its group's defaults (see the module doc)."""
    groups = {g["name"]: g for g in state.game.scenario.raw.get("deployment", [])}
    by_group: dict[str, list[Unit]] = defaultdict(list)
    for u in state.units_by_id.values():
        if u.location == UNPLACED:
            by_group[state.game.scenario_units[u.id].get("deploy") or ""].append(u)
    for name, units in by_group.items():
        group = groups.get(name)
        if group is None:
            raise ScenarioError(state.game.scenario.file, f"units ({units[0].id}).deploy",
                                f"unplaced unit names deployment group {name!r}, which the scenario lacks")
        side = group.get("side", units[0].side)
        unplaced = place_units(state, units, side, group, center=_center(state, group))
        if unplaced:
            raise ScenarioError(state.game.scenario.file, f"deployment[{name}]",
                                f"no legal hex with room left for {', '.join(u.id for u in unplaced)}")
        state.emit("deployed", side=side, rule=group.get("rule", "SSA-SC"),
                   text=f"{len(units)} units set up by default: {group.get('text', name)}", group=name)


def place_units(state: State, units: list[Unit], side: str, spec: dict[str, Any],
                center: int | None = None) -> list[Unit]:
    """Place units by a set-up spec (``where`` + ``default`` places): cycling over the
    defaults, spilling to the nearest legal hex with room, else into the first box the spec
    allows.  Returns the units that found no place (their location is unchanged)."""
    where = spec.get("where", {})
    mask = where_mask(state, where, side, center)
    boxes = where_boxes(where)
    room = Room(state, side)
    cap = where.get("max_per_hex") or where.get("max_per_city")
    defaults: list[int] = []
    for p in spec.get("default", []):
        try:
            defaults += geography(state).place(p)
        except KeyError:
            continue
    candidates = np.flatnonzero(mask)
    left = []
    for k, u in enumerate(units):
        spot = _spot(state, u, defaults[k % len(defaults)] if defaults else None, candidates, room, cap)
        if spot is not None:
            u.location = state.map.label(spot)
            room.add(u, spot)
        elif boxes:
            u.location = boxes[0]
        else:
            left.append(u)
    return left


def _spot(state: State, u: Unit, first: int | None, candidates: np.ndarray, room: Room,
          cap: int | None) -> int | None:
    if first is not None and first in set(candidates.tolist()) and room.fits(u, first, cap):
        return first
    if candidates.size == 0:
        return None
    origin = first if first is not None else int(candidates[0])
    order = candidates[np.argsort(state.map.grid.distance(candidates, origin), kind="stable")]
    for i in order:
        if room.fits(u, int(i), cap):
            return int(i)
    return None


class DeployOrder(OrderKind):
    """Set-up: move a deployable unit anywhere its group allows (SSA-SC.4)."""

    kind = "deploy"
    rule = "SSA-SC.4"

    def _deployable(self, state: State, side: str) -> list[Unit]:
        return [u for u in state.units_by_id.values() if u.side == side and not u.location.startswith("aboard:")
                and state.game.scenario_units.get(u.id, {}).get("deploy")]  # a weapon goes with its carrier

    def _options(self, state: State, u: Unit) -> tuple[np.ndarray, list[str], int | None]:
        groups = {g["name"]: g for g in state.game.scenario.raw.get("deployment", [])}
        group = groups[state.game.scenario_units[u.id]["deploy"]]
        where = group.get("where", {})
        mask = where_mask(state, where, u.side, _center(state, group))
        return mask, where_boxes(where), where.get("max_per_hex") or where.get("max_per_city")

    def legal(self, state: State) -> list[dict[str, Any]]:
        """Every hex (and box) each deployable unit may move to, with room checked vectorised."""
        side = state.decision.side
        hm = state.map
        room = Room(state, side)
        land = np.zeros(hm.size, dtype=np.int64)
        naval = np.zeros(hm.size, dtype=np.int64)
        air = np.zeros(hm.size, dtype=np.int64)
        for i, v in room.land.items():
            land[i] = int(v * 3)
        for i, v in room.naval.items():
            naval[i] = v
        for i, v in room.air.items():
            air[i] = v
        capacity = air_capacity(state)
        coastal = geography(state).coastal
        limit = int(state.ruleset.tables["stacking"]["land"]["limit_per_hex"]) * 3
        out = []
        masks: dict[str, tuple[np.ndarray, list[str]]] = {}
        for u in self._deployable(state, side):
            group = state.game.scenario_units[u.id]["deploy"]
            if group not in masks:
                mask, boxes, _ = self._options(state, u)
                masks[group] = (np.flatnonzero(mask), boxes)
            cand, boxes = masks[group]
            here = hm.index(u.location) if u.location.isdigit() else -1
            dom = values.domain(state, u)
            if dom == "naval":
                ok = coastal[cand] & (naval[cand] + 1 - (cand == here) <= 6)
            elif dom == "air":
                ok = air[cand] + 1 - (cand == here) <= capacity[cand]
            elif dom == "land":
                own = int(values.division_equivalents(state, u) * 3)
                ok = land[cand] + own - np.where(cand == here, own, 0) <= limit
            else:
                ok = np.ones(cand.size, dtype=bool)
            out += [{"kind": "deploy", "unit": u.id, "to": hm.label(int(i))} for i in cand[ok & (cand != here)]]
            out += [{"kind": "deploy", "unit": u.id, "to": b} for b in boxes if b != u.location]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        uid, to = order.get("unit"), order.get("to")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if u is None or u not in self._deployable(state, side):
            raise IllegalOrder(self.rule, f"{uid!r} is not one of your units that set up by deployment group")
        mask, boxes, _ = self._options(state, u)
        if to in boxes:
            return
        if not isinstance(to, str) or not state.map.has_hex(to) or not mask[state.map.index(to)]:
            group = state.game.scenario_units[u.id]["deploy"]
            raise IllegalOrder(self.rule, f"{to!r} is outside where group {group!r} may set up")
        if not Room(state, side).fits(u, state.map.index(to)):
            raise IllegalOrder("SSA-9.1", f"{to} has no stacking room for {u.id}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        start = u.location
        u.location = order["to"]
        state.emit("deploy", side=u.side, rule=self.rule, text=f"{u.id} sets up at {u.location} (was {start})",
                   unit=u.id, to=u.location)


def setup_breaches(state: State) -> list[tuple[str, str]]:
    """Set-up rules a starting position breaks (the set-up panel's check).

    Stacking (SSA-9.1), neutral territory (SSA-18: a neutral's own units are at
    home there, special operations may enter, 18.11c), each deployment group's area
    (SSA-SC.4), and for units the scenario places by name: they stand where their
    side has control at the start (SSA-17.1; docs/rulings.md, "set-up edits").
    """
    from workbench.rulesets.ssa.movement import ignores_neutrality
    from workbench.rulesets.ssa.stacking import overstacked

    hm = state.map
    out: list[tuple[str, str]] = []
    for side in state.ruleset.sides:
        out += [("SSA-9.1", f"{side} overstacked: {why}") for why in overstacked(state, side)]
    neutral = state.arrays.get("neutral")
    ctrl = control_array(state)
    groups = {g["name"]: g for g in state.game.scenario.raw.get("deployment", [])}
    masks: dict[tuple[str, str], tuple[np.ndarray, list[str]]] = {}
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        loc = u.location
        if loc.startswith("aboard:"):  # SSA-22.13a, 22.14a: a weapon stands where its carrier does
            continue
        on_map = loc.isdigit() and hm.has_hex(loc)
        if on_map and neutral is not None and neutral[hm.index(loc)] and not ignores_neutrality(state, u) \
                and not geography(state).country.get(u.nation, np.zeros(1, dtype=bool))[hm.index(loc)]:
            out.append(("SSA-18", f"{u.id} is in neutral territory at {loc}"))
            continue
        group = state.game.scenario_units.get(u.id, {}).get("deploy")
        if group in groups:
            if (group, u.side) not in masks:
                where = groups[group].get("where", {})
                masks[group, u.side] = (where_mask(state, where, u.side, _center(state, groups[group])),
                                        where_boxes(where))
            mask, boxes = masks[group, u.side]
            if loc in boxes or (on_map and mask[hm.index(loc)]):
                continue
            out.append(("SSA-SC.4", f"{u.id} is at {loc}, outside where deployment group {group!r} may set up"))
        elif on_map and values.domain(state, u) == "land" \
                and ctrl[hm.index(loc)] not in (0, {"axis": 1, "allies": 2}[u.side]):
            out.append(("SSA-17.1", f"{u.id} sets up at {loc}, a hex the enemy controls at the start"))
    return out
