"""Mobilization (SSA-16): income of mobilization points (MP) and spending them.

Points are kept per country track and kind (SSA-16.5): ``GE.mp.industrial``,
``US.mp.non_industrial``, ... and the German volunteer points ``GE.volunteer``.

Income (step *Accrue*, SSA-16.1-16.13):

* Germany 15 I + 15 NI and Japan 5 I + 10 NI every turn (SSA-16.6a-b);
* +1 I to Germany per captured industrial hex with an atrocity marker whose
  transportation line reaches a port with an Axis convoy (SSA-16.6c-d);
* ½ volunteer point per German-controlled collaboration city, the sum rounded
  up (SSA-16.10a);
* the Allies draw 1 point per controlled industrial hex (I) or non-industrial
  city (NI) of each country, to that country's track; strategically bombed
  hexes give nothing (SSA-12.3a), Central America, Colombia, Venezuela and the
  Caribbean republics give nothing (SSA-16.12a; authored per-hex yield, see
  tables/mobilization.toml);
* industrial income is halved, rounded up, before 1942 for the Allies and
  before 1943 for the Axis (SSA-16.13), and by scenario rules (SC5 SR6).

Spending (step *Spend*, both sides): ``mobilize`` a new unit, ``replace`` a
reduced unit's losses (minor-country units under SSA-16.12a(1), volunteer units
with volunteer points, SSA-16.10e), ``rebuild`` an eliminated minor-country unit
(SSA-16.12a(2)), ``demobilize`` an air unit for half its cost back
(SSA-16.14).  Optional rule 21 scales I and NI income by morale (SSA-16.15).  NI points buy only non-mechanized units (SSA-16.2); unspent
points carry over (SSA-16.3).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import air, technology, values
from workbench.rulesets.ssa.deployment import air_capacity, geography
from workbench.rulesets.ssa.occupation import city_hexes, city_owner
from workbench.rulesets.ssa.special import has_special, special_rules, turn_number
from workbench.rulesets.ssa.special_weapons import MISSILE, WEAPONS, load, may_carry_why_not
from workbench.rulesets.ssa.supply import _box_supplied, supply_status

IND, NON = "industrial", "non_industrial"


def mob(state: State) -> dict[str, Any]:
    return state.ruleset.tables["mobilization"]


def _country_code(state: State) -> np.ndarray:
    """Per-hex country code (US, CA, ...) from the countries table (once per game)."""
    def compute() -> np.ndarray:
        out = np.full(state.map.size, "", dtype=object)
        for code, mask in geography(state).country.items():
            out[mask & (out == "")] = code
        return out

    return state.game.cached("ssa.country_code", compute)


def income(state: State) -> dict[str, dict[str, int]]:
    """This turn's MP income per track: ``{"GE": {"industrial": 15, "non_industrial": 15}, ...}``."""
    m = mob(state)
    sides = state.game.scenario.sides
    nations = {n for ns in sides.values() for n in ns}
    out: dict[str, dict[str, float]] = {}
    for track, pts in m["income"]["axis_fixed"].items():
        if track in nations:
            out[track] = {IND: pts["industrial"], NON: pts["non_industrial"]}
    hm = state.map
    kinds = hm.hexes["city_kind"].to_list()
    codes = _country_code(state)
    bombed = state.arrays.get("bombed")
    allied = m["income"]["allied_cities"]
    no_income = set(allied["no_income_countries"])
    atrocity = set(state.markers.get("atrocity", []))
    collab = 0
    for i in city_hexes(state):
        owner = city_owner(state, i)
        if owner is None or (bombed is not None and bombed[i]):
            continue
        code = codes[i]
        label = hm.label(i)
        axis_track = allied["axis_track_by_country"].get(code) if owner == "axis" else None
        if (owner == "allies" or axis_track) and code not in no_income:  # SSA-16.12e: Axis-held Iceland, Greenland
            track = axis_track or allied["track_by_country"].get(code)
            if track is None or track not in nations:
                continue
            per = allied["per_industrial_hex"] if kinds[i] == "industrial" else allied["per_non_industrial_city"]
            t = out.setdefault(track, {IND: 0, NON: 0})
            t[IND] += per["industrial"]
            t[NON] += per["non_industrial"]
        if owner == "axis":
            if not axis_track and kinds[i] == "industrial" and label in atrocity and captured_trace(state, i):
                gt = out.setdefault(m["income"]["axis_captured_industry"]["credited_to"], {IND: 0, NON: 0})
                gt[IND] += m["income"]["axis_captured_industry"]["per_atrocity_industrial_hex"]
            if code not in no_income and german_controlled_collaboration(state, label):
                collab += 1
    if "GE" in nations:
        vol = m["income"]["volunteer"]
        out.setdefault("GE", {IND: 0, NON: 0})["volunteer"] = math.ceil(collab * vol["per_collaboration_city"])
    for track, pts in out.items():
        side = state.game.scenario.side_of(track) if track in nations else "axis"
        pts[IND] = _halve(state, side, pts[IND])
        factor = morale_factor(state, side)
        if factor != 1:  # SSA-16.15, 21.4a/c: after the halving (mobilization.toml [modifiers] order)
            pts[IND], pts[NON] = math.ceil(pts[IND] * factor), math.ceil(pts[NON] * factor)
    return {t: {k: int(v) for k, v in p.items()} for t, p in out.items()}


def morale_factor(state: State, side: str) -> Fraction:
    """SSA-16.15, 21.4a/c (optional rule 21): High morale +30%, Poor -30% of a side's I and NI
    income (tables/morale.toml [levels], [effects] mp_factor); 1 without rule 21."""
    if "SSA-21" not in state.game.options.get("optional_rules", []) or f"{side}.morale" not in state.tracks:
        return Fraction(1)
    table = state.ruleset.tables["morale"]
    level = float(state.tracks[f"{side}.morale"])
    for name, bounds in table["levels"].items():
        if isinstance(bounds, list) and bounds[0] <= level <= bounds[1]:
            return Fraction(str(table["effects"].get(name, {}).get("mp_factor", 1)))
    return Fraction(1)


def german_controlled_collaboration(state: State, label: str) -> bool:
    """SSA-16.10b, 16.10d: an Axis city with a collaboration government set up by a German-track
    military government (tables/mobilization.toml [income.volunteer] german_control_track)."""
    hm = state.map
    if state.markers.get("policy", {}).get(label) != "collaboration" or city_owner(state, hm.index(label)) != "axis":
        return False
    occupier = state.markers.get("occupier", {}).get(label)
    return occupier is None or _track_for(state, occupier) == mob(state)["income"]["volunteer"]["german_control_track"]


def _halve(state: State, side: str, points: float) -> float:
    """SSA-16.13 war mobilization and scenario halvings (SC5 SR6), rounded up."""
    for rule in mob(state)["modifiers"]["war_mobilization"]:
        if rule["side"] == side and state.turn_label < rule["before"]:
            points = math.ceil(points * rule["factor"])
    for r in special_rules(state, "mp_halved"):
        if r.get("side") == side and turn_number(state) in r.get("turns", []):
            points = math.ceil(points / 2)
    return points


def captured_trace(state: State, idx: int) -> bool:
    """SSA-16.6d: a transportation line from the captured hex to a port with an Axis convoy
    that can trace to the map edge, clear of enemy units, enemy ZOC (unless a friendly unit is
    there) and bombing markers."""
    from workbench.engine.search import multi_source_reach
    from workbench.rulesets.ssa.movement import enemy_present
    from workbench.rulesets.ssa.supply import axis_sources
    from workbench.rulesets.ssa.terrain import terrain_arrays
    from workbench.rulesets.ssa.zoc import land_zoc

    hm = state.map
    ta = terrain_arrays(state)
    ports = [p.hex for p in axis_sources(state, japanese=False) if hm.flag("port")[p.hex]]
    if not ports:
        return False
    friendly = np.zeros(hm.size, dtype=bool)
    for u in state.units_by_id.values():
        if u.side == "axis" and u.location.isdigit():
            friendly[hm.index(u.location)] = True
    ok = ta.on_line & ~enemy_present(state, "axis") & (~land_zoc(state, "allies") | friendly)
    bombed = state.arrays.get("bombed")
    if bombed is not None:
        ok &= ~bombed
    dist = multi_source_reach(hm.neighbors, ok, ports, blocked_sides=~ta.transport)
    return bool(dist[idx] >= 0)


def accrue(state: State, step: Any = None) -> None:
    """SSA-16.1: add this turn's income to every track (skipped under SC0 SR3)."""
    if has_special(state, "no_mobilization"):
        return
    for track, pts in income(state).items():
        for kind in (IND, NON):
            key = f"{track}.mp.{kind}"
            state.tracks[key] = int(state.tracks.get(key, 0)) + pts.get(kind, 0)
        if pts.get("volunteer"):
            state.tracks["GE.volunteer"] = int(state.tracks.get("GE.volunteer", 0)) + pts["volunteer"]
        state.emit("income", side=state.game.scenario.side_of(track) if _is_nation(state, track) else None,
                   rule="SSA-16.1", text=f"{track} receives {pts.get(IND, 0)} I + {pts.get(NON, 0)} NI"
                   + (f" + {pts['volunteer']} volunteer" if pts.get("volunteer") else ""),
                   track=track, industrial=pts.get(IND, 0), non_industrial=pts.get(NON, 0),
                   volunteer=pts.get("volunteer", 0))


def _is_nation(state: State, track: str) -> bool:
    return any(track in ns for ns in state.game.scenario.sides.values())


def _track_for(state: State, nation: str) -> str | None:
    """SSA-16.6, 16.10c: which track pays for a nation's units."""
    for track, nations in mob(state)["who_may_build"].items():
        if isinstance(nations, list) and nation in nations and not track.endswith("_from") \
                and track not in ("never_built",):
            return track
    return None


def cost_of(state: State, utype: str, nation: str, what: str = "build") -> tuple[int, str] | None:
    """MP cost and point kind ("I", "any" or "volunteer") of building or replacing a unit type."""
    c = mob(state)["costs"].get(utype)
    if c is None or not c.get("buildable", True) or what not in c:
        return None
    extra = mob(state).get("nation_surcharge", {}).get(nation, {}).get(utype, {}).get(what, 0)
    return int(c[what]) + int(extra), c.get("points", "any")


def _affordable(state: State, track: str, cost: int, points: str, mech: bool) -> bool:
    if points == "volunteer":
        return int(state.tracks.get("GE.volunteer", 0)) >= cost
    ind = int(state.tracks.get(f"{track}.mp.{IND}", 0))
    non = int(state.tracks.get(f"{track}.mp.{NON}", 0))
    if points == "I" or mech:  # SSA-16.2: NI points buy non-mechanized units only
        return ind >= cost
    return ind + non >= cost


def _pay(state: State, track: str, cost: int, points: str, mech: bool) -> None:
    if points == "volunteer":
        state.tracks["GE.volunteer"] = int(state.tracks["GE.volunteer"]) - cost
        return
    non_key, ind_key = f"{track}.mp.{NON}", f"{track}.mp.{IND}"
    from_non = 0 if (points == "I" or mech) else min(cost, int(state.tracks.get(non_key, 0)))
    state.tracks[non_key] = int(state.tracks.get(non_key, 0)) - from_non
    state.tracks[ind_key] = int(state.tracks.get(ind_key, 0)) - (cost - from_non)


def _open_cities(state: State, side: str) -> list[tuple[int, str]]:
    """City hexes (index, label) ``side`` owns that no unit was built in this stage and that
    are not bombed: the part of :func:`_placements` shared by every nation and unit type."""
    hm = state.map
    bombed = state.arrays.get("bombed")
    used = set(state.markers.get("built_at", []))
    out = []
    for i in city_hexes(state):
        label = hm.label(i)
        if city_owner(state, i) != side or label in used or (bombed is not None and bombed[i]):
            continue
        out.append((i, label))
    return out


def _placements(state: State, side: str, nation: str, utype: str,
                cities: list[tuple[int, str]] | None = None) -> list[str]:
    """Where a new unit may appear (tables/mobilization.toml [placement], authored).
    ``cities`` is :func:`_open_cities`, when the caller asks for many types at once."""
    if nation == "JA":
        return ["Far East"]
    if side == "axis" and nation != "AV":
        return ["Europe"]
    hm = state.map
    dom = state.ruleset.unit_types[utype].get("domain", "land")
    codes = _country_code(state)
    kinds = _city_kind_list(state)
    mech = bool(state.ruleset.unit_types[utype].get("mech", False))
    track_of = mob(state)["income"]["allied_cities"]["track_by_country"]
    track = _track_for(state, nation)  # loop invariants, hoisted (this runs per unit type)
    port = hm.flag("port") if dom == "naval" else None
    full = _land_full_mask(state, side, utype) if dom == "land" else None
    air_here = _air_count(state, side) if dom == "air" else None
    out = []
    for i, label in (_open_cities(state, side) if cities is None else cities):
        if nation == "AV":  # SSA-16.10d, f: any German-controlled collaboration city, in any country
            if german_controlled_collaboration(state, label):
                out.append(label)
            continue
        if track_of.get(codes[i]) != track:
            continue
        if dom == "naval" and not port[i]:
            continue
        if dom == "air" and air_capacity(state)[i] <= air_here.get(label, 0):
            continue
        if dom == "land" and kinds[i] != "industrial" and mech:
            continue
        if dom == "land" and full[i]:
            continue
        out.append(label)
    return out


def _land_full(state: State, side: str, i: int, utype: str) -> bool:
    """SSA-9.1: a new land unit may not appear in a full hex."""
    from workbench.rulesets.ssa.stacking import land_thirds

    size = state.ruleset.unit_types[utype].get("size")
    own = int(Fraction(state.ruleset.tables["stacking"]["land"]["value"].get(size or "", "0")) * 3)
    return int(land_thirds(state, side)[i]) + own > int(state.ruleset.tables["stacking"]["land"]["limit_per_hex"]) * 3


def _land_full_mask(state: State, side: str, utype: str) -> np.ndarray:
    """:func:`_land_full` for every hex at once."""
    from workbench.rulesets.ssa.stacking import land_thirds

    size = state.ruleset.unit_types[utype].get("size")
    own = int(Fraction(state.ruleset.tables["stacking"]["land"]["value"].get(size or "", "0")) * 3)
    limit = int(state.ruleset.tables["stacking"]["land"]["limit_per_hex"]) * 3
    return land_thirds(state, side).astype(np.int64) + own > limit


def _city_kind_list(state: State) -> list[str | None]:
    """The map's ``city_kind`` column as a list, read once per map."""
    hm = state.map
    return hm.cached("ssa.city_kind_list", lambda: hm.hexes["city_kind"].to_list())


def _air_count(state: State, side: str) -> dict[str, int]:
    """:func:`_air_here` for every location at once."""
    out: dict[str, int] = {}
    for u in state.units_by_id.values():
        if u.side == side and values.domain(state, u) == "air":
            out[u.location] = out.get(u.location, 0) + 1
    return out


def _air_here(state: State, side: str, label: str) -> int:
    return sum(1 for u in state.units_by_id.values() if u.location == label and u.side == side
               and values.domain(state, u) == "air")


def _weapon_rule_ok(state: State, utype: str) -> bool:
    """SSA-22.G: missiles and atomic weapons are built only while their rule is in use."""
    from workbench.rulesets.ssa.special_units import in_use

    return utype not in WEAPONS or in_use(state, "SSA-22.13" if utype == MISSILE else "SSA-22.14")


def weapon_carriers(state: State, side: str, utype: str, places: list[str]) -> list[str]:
    """SSA-22.13a, 22.14a: the units standing where a new ``utype`` may appear that may carry it
    (a new missile or atomic weapon is placed aboard one of them)."""
    probe = Unit("new", side, "", utype, None, "unplaced")
    where = set(places)
    return sorted(u.id for u in state.units_by_id.values() if u.side == side and u.location in where
                  and may_carry_why_not(state, probe, u) is None)


def _tech_ok(state: State, side: str, nation: str, utype: str) -> bool:
    """SSA-23.G: a gated unit type needs its development (technology.may_use)."""
    return technology.may_use(state, side, nation, utype)


class MobilizeOrder(OrderKind):
    """SSA-16.G: build a new unit with mobilization points."""

    kind = "mobilize"
    rule = "SSA-16.G"

    def legal(self, state: State) -> list[dict[str, Any]]:
        if has_special(state, "no_mobilization"):
            return []
        side = state.decision.side
        out = []
        cities = _open_cities(state, side)
        # types alike in what _placements reads (domain, mech, size) share one answer per nation
        places_of: dict[tuple[Any, ...], list[str]] = {}
        for nation in state.game.scenario.sides[side]:
            track = _track_for(state, nation)
            if track is None or nation in mob(state)["who_may_build"].get("never_built", []):
                continue
            for utype, spec in state.ruleset.unit_types.items():
                cost = cost_of(state, utype, nation)
                if cost is None or not _tech_ok(state, side, nation, utype) or not _weapon_rule_ok(state, utype):
                    continue
                if cost[1] == "volunteer" and nation != "AV":
                    continue
                if not _affordable(state, track, cost[0], cost[1], bool(spec.get("mech", False))):
                    continue
                key = (nation, spec.get("domain", "land"), bool(spec.get("mech", False)), spec.get("size"))
                places = places_of.get(key)
                if places is None:
                    places = places_of[key] = _placements(state, side, nation, utype, cities)
                if utype in WEAPONS:  # SSA-22.13a, 22.14a: a new missile or bomb goes aboard a carrier
                    places = weapon_carriers(state, side, utype, places)
                out += [{"kind": "mobilize", "nation": nation, "type": utype, "at": at} for at in places]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        nation, utype, at = order.get("nation"), order.get("type"), order.get("at")
        if has_special(state, "no_mobilization"):
            raise IllegalOrder("SSA-SC0 SR3", "this scenario uses no mobilization")
        if nation not in state.game.scenario.sides[side]:
            raise IllegalOrder(self.rule, f"{nation!r} is not one of your nations")
        if utype not in state.ruleset.unit_types:
            raise IllegalOrder(self.rule, f"unknown unit type {utype!r}")
        track = _track_for(state, nation)
        cost = cost_of(state, utype, nation)
        if track is None or cost is None:
            raise IllegalOrder("SSA-16.11", f"{utype} units of {nation} cannot be built")
        if not _tech_ok(state, side, nation, utype):
            tech = mob(state)["costs"][utype]["tech"]
            who = technology.purchaser(state, nation)
            raise IllegalOrder("SSA-23.1", f"a {utype} needs the {tech} development, which {who or nation} does not own"
                               + ("" if who else f" ({nation} may use no developments: SSA-23.5a-b)"))
        mech = bool(state.ruleset.unit_types[utype].get("mech", False))
        if cost[1] == "volunteer" and not _affordable(state, track, cost[0], cost[1], mech):
            raise IllegalOrder("SSA-16.10c", f"a {utype} is paid only with volunteer points and {track} has "
                               f"{int(state.tracks.get(track, 0))} of the {cost[0]} it costs")
        if not _affordable(state, track, cost[0], cost[1], mech):
            kind = "industrial points (NI points buy non-mechanized units only, SSA-16.2)" \
                if (cost[1] == "I" or mech) else "points"
            raise IllegalOrder("SSA-16.2" if mech or cost[1] == "I" else "SSA-16.4",
                               f"{track} lacks the {cost[0]} {kind} a {utype} costs")
        if not _weapon_rule_ok(state, utype):
            raise IllegalOrder("SSA-22.G", f"{utype.replace('_', ' ')}s belong to the special-units rule (optional "
                               f"rule 22), which this game does not use")
        if utype in WEAPONS:
            carriers = weapon_carriers(state, side, utype, _placements(state, side, nation, utype))
            if at not in carriers:
                raise IllegalOrder("SSA-22.13a" if utype == MISSILE else "SSA-22.14a",
                                   f"a new {utype.replace('_', ' ')} is placed aboard the unit that carries it: "
                                   f"{at!r} is not one of yours where new units appear"
                                   + (" (a logistic unit with no missile)" if utype == MISSILE else ""))
            return
        if at not in _placements(state, side, nation, utype):
            if nation == "AV":
                raise IllegalOrder("SSA-16.10d", f"a new American Volunteer unit appears only on a German-controlled "
                                   f"city with a collaboration government, one a city a turn: not at {at!r}")
            raise IllegalOrder("SSA-16.G", f"a new {utype} cannot appear at {at!r} (see tables/mobilization.toml "
                               "[placement]: a friendly industrial city of the paying country, one new unit a city "
                               "a turn; Germans in Europe, Japanese in the Far East)")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        nation, utype = order["nation"], order["type"]
        track = _track_for(state, nation)
        cost, points = cost_of(state, utype, nation)
        spec = state.ruleset.unit_types[utype]
        _pay(state, track, cost, points, bool(spec.get("mech", False)))
        n = int(state.tracks.get("built", 0)) + 1
        state.tracks["built"] = n
        uid = f"{nation}-{utype}-m{n}"
        unit = Unit(uid, side, nation, utype, spec.get("size"), order["at"])
        state.units_by_id[uid] = unit
        if utype in WEAPONS:  # SSA-22.13a, 22.14a: aboard its carrier
            load(state, unit, state.unit(order["at"]))
        elif order["at"].isdigit():
            state.markers.setdefault("built_at", []).append(order["at"])
        state.emit("mobilize", side=side, rule=self.rule, text=f"{track} builds {uid} at {order['at']} for {cost} MP",
                   unit=uid, track=track, cost=cost, type=utype, nation=nation)


class ReplaceOrder(OrderKind):
    """SSA-16.G, 16.11: a reduced unit in supply returns to full strength for its replacement cost."""

    kind = "replace"
    rule = "SSA-16.G"

    def _candidates(self, state: State, side: str) -> list[tuple[Unit, str, int, str]]:
        if has_special(state, "no_mobilization"):
            return []
        supplied = None  # traced (~25 ms) only when some reduced unit could pay for its replacement
        out = []
        exiles = mob(state)["who_may_build"].get("exile_replacements_from", [])
        minor = mob(state)["minor_countries"]
        for u in state.units_by_id.values():
            if u.side != side or not u.reduced:
                continue
            cost = cost_of(state, u.type, u.nation, "replace")
            if cost is None:
                continue
            tracks = exiles if u.nation == "EX" else minor["paid_by"].get(side, []) if u.nation in minor["no_mp"] \
                else [_track_for(state, u.nation)]
            paying = [track for track in tracks  # SSA-16.11: any Allied country may pay for an exile unit
                      if track and track.split(".")[0] in state.game.scenario.sides[side]
                      and _affordable(state, track, cost[0], cost[1], values.is_mech(state, u))]
            if not paying:
                continue
            if u.nation in minor["no_mp"]:
                if not minor_may_replace(state, u):
                    continue
            else:
                if supplied is None:
                    supplied = supply_status(state, side)
                if not supplied.get(u.id, False):
                    continue
            out += [(u, track, cost[0], cost[1]) for track in paying]
        return out

    def legal(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": "replace", "unit": u.id, "track": t} for u, t, _, _ in self._candidates(state, state.decision.side)]

    def check(self, state: State, order: dict[str, Any]) -> None:
        if {"kind": "replace", "unit": order.get("unit"), "track": order.get("track")} not in self.legal(state):
            u = state.units_by_id.get(order.get("unit")) if isinstance(order.get("unit"), str) else None
            cost = cost_of(state, u.type, u.nation, "replace") if u is not None else None
            if u is not None and u.side == state.decision.side and u.nation in mob(state)["minor_countries"]["no_mp"]:
                raise IllegalOrder("SSA-16.12a(1)", f"{u.id} cannot take a replacement now: a unit of a minor "
                                   "country needs a friendly city of its own country and a line of supply to a "
                                   "friendly city in Canada, the US or Mexico (pro-Axis: the Europe or Far East "
                                   "box), must be reduced, and the paying track needs the points")
            if cost is not None and cost[1] == "volunteer":
                raise IllegalOrder("SSA-16.10e", f"{u.id} is a volunteer unit: it takes replacements only with "
                                   f"volunteer points ({cost[0]} on {_track_for(state, u.nation)}), "
                                   "and only while reduced and supplied")
            raise IllegalOrder(self.rule, f"{order.get('unit')!r} cannot take a replacement now: it must be a "
                               "reduced, supplied unit whose paying track has the points")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        cost, points = cost_of(state, u.type, u.nation, "replace")
        _pay(state, order["track"], cost, points, values.is_mech(state, u))
        u.reduced = False
        state.emit("replace", side=u.side, rule=self.rule, text=f"{u.id} replaced to full strength for {cost} MP",
                   unit=u.id, track=order["track"], cost=cost)


def minor_may_replace(state: State, u: Unit, at: str | None = None) -> bool:
    """SSA-16.12a(1): a unit of a no-MP minor country (Central America, Colombia, Venezuela, the
    Caribbean) takes replacements only while a city of its country is friendly and it traces a line
    of supply (from ``at``, default where it stands) to a friendly city in Canada, the US or Mexico
    (pro-Allied) or to the Europe / Far East box (pro-Axis); tables/mobilization.toml [minor_countries]."""
    from workbench.rulesets.ssa.mountain_troops import move_class
    from workbench.rulesets.ssa.supply import _step_graph, axis_sources, cost_to

    m = mob(state)["minor_countries"]
    hm = state.map
    codes = _country_code(state)
    home = state.ruleset.tables["units"]["nations"].get(u.nation, {}).get("home")
    cities = [i for i in city_hexes(state) if city_owner(state, i) == u.side]
    if not any(codes[i] == home for i in cities):
        return False
    where = at or u.location
    if not where.isdigit():
        return u.side == "axis" and where in m["trace_to_boxes"]
    if u.side == "allies":
        points = [i for i in cities if codes[i] in m["trace_to_countries"]]
    else:
        points = [p.hex for jp in (False, True) for p in axis_sources(state, jp)]
    dist, _ = cost_to(_step_graph(state, u.side, move_class(state, u), reverse=True), points)
    return bool(dist[hm.index(where)] <= values.mf(state, u))


def air_unit_supplied(state: State, u: Unit) -> bool:
    """SSA-16.14: whether an air unit is "in supply".  On the map: its base is a supplied hex
    (SSA-6.3a, the test of SSA-6.3b; a carrier counts as supplied).  In a holding area: SSA-15.6,
    as for land units (docs/rulings-ssa.md)."""
    if u.location.isdigit():
        return air.base_supplied(state, u)
    return _box_supplied(state, u)


class DemobilizeOrder(OrderKind):
    """SSA-16.14: a supplied air unit may be removed for half its cost back, rounded up."""

    kind = "demobilize"
    rule = "SSA-16.14"

    def _in_play(self, state: State, u: Unit, side: str) -> bool:
        """``side``'s air unit on the map or in a holding area (SSA-3.1c), with a build cost."""
        return u.side == side and values.domain(state, u) == "air" \
            and (u.location.isdigit() or u.location in state.ruleset.tables["holding_areas"]["boxes"]) \
            and cost_of(state, u.type, u.nation) is not None and bool(_track_for(state, u.nation))

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        return [{"kind": "demobilize", "unit": u.id} for u in state.units_by_id.values()
                if self._in_play(state, u, side) and air_unit_supplied(state, u)]

    def check(self, state: State, order: dict[str, Any]) -> None:
        u = state.units_by_id.get(order.get("unit")) if isinstance(order.get("unit"), str) else None
        if u is None or not self._in_play(state, u, state.decision.side):
            raise IllegalOrder(self.rule, f"{order.get('unit')!r} is not one of your air units in play")
        if not air_unit_supplied(state, u):
            raise IllegalOrder(self.rule, f"{u.id} is out of supply ({u.location}): only a supplied air unit "
                               "may be demobilized")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        cost, _ = cost_of(state, u.type, u.nation)
        refund = math.ceil(cost * mob(state)["air_demobilization"]["refund_fraction"])
        track = _track_for(state, u.nation)
        key = f"{track}.mp.{IND}"
        state.tracks[key] = int(state.tracks.get(key, 0)) + refund
        u.location = "Force pool"
        state.emit("demobilize", side=u.side, rule=self.rule, text=f"{u.id} demobilized: {refund} I back to {track}",
                   unit=u.id, track=track, refund=refund)


class RebuildOrder(OrderKind):
    """SSA-16.12a(2): an eliminated unit of a no-MP minor country is rebuilt for the full build cost
    of its type, paid by a friendly track of the player's choice, if the conditions of 16.12a(1) hold.
    It appears at full strength on a friendly city of its own country from which the trace of
    16.12a(1) exists, one new unit a city a turn (tables/mobilization.toml [minor_countries])."""

    kind = "rebuild"
    rule = "SSA-16.12a(2)"

    def legal(self, state: State) -> list[dict[str, Any]]:
        if has_special(state, "no_mobilization"):
            return []
        side = state.decision.side
        minor = mob(state)["minor_countries"]
        codes = _country_code(state)
        out = []
        for u in state.units_by_id.values():
            if u.side != side or u.location != "Eliminated" or u.nation not in minor["no_mp"]:
                continue
            cost = cost_of(state, u.type, u.nation)
            home = state.ruleset.tables["units"]["nations"].get(u.nation, {}).get("home")
            if cost is None:
                continue
            tracks = [t for t in minor["paid_by"].get(side, []) if t in state.game.scenario.sides[side]
                      and _affordable(state, t, cost[0], cost[1], values.is_mech(state, u))]
            full = _land_full_mask(state, side, u.type)
            at = [label for i, label in _open_cities(state, side)
                  if codes[i] == home and not full[i] and minor_may_replace(state, u, label)]
            out += [{"kind": "rebuild", "unit": u.id, "track": t, "at": a} for t in tracks for a in at]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        if {k: order.get(k) for k in ("kind", "unit", "track", "at")} not in self.legal(state):
            raise IllegalOrder(self.rule, f"{order.get('unit')!r} cannot be rebuilt at {order.get('at')!r} with "
                               f"{order.get('track')!r} points: it must be an eliminated unit of a minor country "
                               "with a friendly city of its own, placed on such a city that traces supply to a "
                               "friendly city in Canada, the US or Mexico (pro-Axis: the Europe or Far East box), "
                               "and the paying track needs the unit's full build cost")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        cost, points = cost_of(state, u.type, u.nation)
        _pay(state, order["track"], cost, points, values.is_mech(state, u))
        u.location, u.reduced = order["at"], False
        state.markers.setdefault("built_at", []).append(order["at"])
        state.emit("rebuild", side=u.side, rule=self.rule, text=f"{u.id} rebuilt at {order['at']} for {cost} MP "
                   f"from {order['track']}", unit=u.id, track=order["track"], cost=cost)


class LatinAmericaStepOrder(OrderKind):
    """SSA-16.12b: each turn Argentina, Brazil and Chile may each either bring one reduced unit to
    full strength or rebuild one eliminated unit at reduced strength, free (no MP source; authored,
    tables/mobilization.toml [minor_countries] abc).  A reduced unit must trace supply to the Latin
    America box: it must stand there, supplied (SSA-15.6d; ruling in docs/rulings-ssa.md); a rebuilt
    unit appears in the Latin America box."""

    kind = "latin_america_step"
    rule = "SSA-16.12b"

    def _spec(self, state: State) -> dict[str, Any]:
        return mob(state)["minor_countries"]["abc"]

    def _used(self, state: State, nation: str) -> bool:
        return state.markers.get("abc_step", {}).get(nation) == state.turn

    def legal(self, state: State) -> list[dict[str, Any]]:
        if has_special(state, "no_mobilization"):
            return []
        spec, side = self._spec(state), state.decision.side
        box = spec["trace_to"]
        return [{"kind": self.kind, "unit": u.id} for u in state.units_by_id.values()
                if u.side == side and u.nation in spec["countries"] and not self._used(state, u.nation)
                and (u.location == "Eliminated" or (u.reduced and u.location == box and _box_supplied(state, u)))]

    def check(self, state: State, order: dict[str, Any]) -> None:
        if {"kind": self.kind, "unit": order.get("unit")} in self.legal(state):
            return
        u = state.units_by_id.get(order.get("unit")) if isinstance(order.get("unit"), str) else None
        if u is not None and u.nation in self._spec(state)["countries"] and self._used(state, u.nation):
            raise IllegalOrder(self.rule, f"{u.nation} has already had its one replacement or rebuild this turn")
        raise IllegalOrder(self.rule, f"{order.get('unit')!r} cannot take the free step: it must be your "
                           "Argentine, Brazilian or Chilean unit, either eliminated or reduced and in supply "
                           "in the Latin America box")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        box = self._spec(state)["rebuilt_at"]
        if u.location == "Eliminated":
            u.location, u.reduced = box, True
            text = f"{u.id} rebuilt at reduced strength in the {box} box"
        else:
            u.reduced = False
            text = f"{u.id} brought back to full strength"
        state.markers.setdefault("abc_step", {})[u.nation] = state.turn
        state.emit("replace", side=u.side, rule=self.rule, text=text + " (free)", unit=u.id, cost=0)


def end_of_mobilization(state: State, step: Any = None) -> None:
    """New-unit placement limits last one Mobilization stage."""
    state.markers.pop("built_at", None)


ORDER_KINDS = {"mobilize": MobilizeOrder(), "replace": ReplaceOrder(), "demobilize": DemobilizeOrder(),
               "rebuild": RebuildOrder(), "latin_america_step": LatinAmericaStepOrder()}
PROCEDURES = {"mobilization/accrue": accrue, "mobilization/spend:exit": end_of_mobilization}
