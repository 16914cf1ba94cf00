"""Construction (ETO-37.0-37.8), Siberian transfers (43.1) and partisan building (45.2, 37.6).

* Step 1 (winter seasonal turns only): the year's additions from
  ``tables/force_pools.toml [additions.<year>]`` join the force pools (37.0).
* Step 2: units due from the turn track enter, in home-country resource hexes
  in supply and not in enemy ZOC (placed automatically, docs/rulings-eto.md);
  with no such hex they return to the force pool (37.6).
* Step 3 orders:
  ``{"kind": "build", "unit": pool id, "at": hex?, "depleted": bool}`` (37.2:
  infantry and partisans enter at once, others after the chart's delay; half
  cost on the depleted side, the chart's x/y for infantry, E13);
  ``{"kind": "rebuild", "unit": id}`` flips a depleted unit on the map not
  marked out of supply for half its build cost (37.3);
  ``{"kind": "reserve", "eps": n}`` puts EPs in the economic reserve, at most
  20 in all (37.8); ``place_hq`` (23.1, 27.5) is in :mod:`hq`.
* No deficit spending: a nation pays from a positive track, then its reserve
  (37.1, 37.8).  Minor partners' units are paid by their major at the major's
  cost (37.0).
* Step 3 repairs (37.5): ``{"kind": "build", "repair": hex, "nation": major}`` removes a
  Destroyed installation marker (``state.markers["destroyed"]``) from a friendly hex, even
  out of supply, for 2 EPs; the repair always succeeds in a seasonal turn.
* Partisans (45.0-45.3, 37.6): built by the Western Allies / USSR (the USSR only after its
  war with Germany began, track ``war.SU-GE``), for a partisan country conquered or partly
  occupied, up to its maximum on the map (force_pools.toml [partisan_max]) and the seasonal
  limit (costs.toml [free].partisans_per_season); placed next to a home resource hex.
* Siberian transfers (43.1): entering Step 3 the USSR rolls 1d6 + Soviet home
  city resource hexes (and Riga) held by the Axis; that many infantry from the
  Siberian Transfers box may be built free.
* Suez Adds (37.7), force_pools.toml [suez_adds]: in Step 3 the British player may move
  ``{"kind": "build", "suez": "box", "unit": id}`` a British infantry unit from the force pool
  to the Suez Adds box if it was eliminated in Africa, Asia, on a Mediterranean island or
  within three hexes of a Mediterranean port since the last Step 3 (prop ``suez_eligible``,
  set by :func:`losses.eliminate`; the choice lapses at the end of this Step 3), or, in
  winter, if it is one of this winter's British infantry additions (up to one half of them);
  in winter ``{"kind": "build", "suez": "pool", "unit": id}`` moves a unit from the box to the
  force pool.  A unit built from the box enters at Cairo or Mosul (``at``), whichever is not
  Axis-friendly, enemy ZOC ignored; while both are Axis-friendly the box's units go to the
  force pool (checked entering Step 3).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import (
    alternative_endings,
    historical,
    invasion,
    stacking,
    suez,
    supply,
    uk_conquest,
    values,
)
from workbench.rulesets.eto.command import spendable, track
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.losses import FORCE_POOL
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.zoc import zoc

TURN_TRACK = "Turn track"
SIBERIA = "Siberian Transfers"
SEASONS = ("winter", "spring", "summer", "autumn")


def season_after(label: str, n: int) -> str:
    y, s = int(label[:4]), SEASONS.index(label[5:])
    k = s + n
    return f"{y + k // 4:04d}-{SEASONS[k % 4]}"


def column(state: State, nation: str) -> str:
    return state.ruleset.tables["costs"]["columns"][values.major_of(state, nation)]


def build_cost(state: State, unit: Unit, depleted: bool = False) -> int:
    """ETO-CHART-1, 37.2, E13: the EP cost of building a unit (half on its depleted side)."""
    costs = state.ruleset.tables["costs"]
    item = values.type_row(state.ruleset.tables, unit.type).get("cost_item", "none")
    if item == "none":
        return 0
    col = column(state, unit.nation)
    if item == "infantry":
        split = costs["infantry_split"]
        one_step = not values.has_depleted_side(state, unit)
        return int(split["half" if (depleted or one_step) else "full"][col])
    full = int(costs["chart"][item][col])
    return math.ceil(full / 2) if depleted or not values.has_depleted_side(state, unit) and item != "partisan" \
        else full


def delay(state: State, unit: Unit) -> int:
    item = values.type_row(state.ruleset.tables, unit.type).get("cost_item", "none")
    row = state.ruleset.tables["costs"]["chart"].get(item, {})
    d = row.get("delay", 0)
    return int(d) if isinstance(d, int) else 0


def pay(state: State, nation: str, amount: int, rule: str, what: str) -> None:
    major = values.major_of(state, nation)
    from workbench.rulesets.eto.command import pay_eps
    if amount:
        pay_eps(state, major, amount, rule, what)


def placement_ok(state: State, unit: Unit, label: str, *, resource_only: bool = False,
                 ignore_zoc: bool = False) -> Refusal | None:
    """ETO-37.6: a home-country hex in supply (to a permanent source) and not in enemy ZOC
    (``ignore_zoc``: 34.1's exception when every home hex is in enemy ZOC)."""
    hm = state.map
    if not hm.has_hex(label):
        return Refusal("ETO-37.6", f"no hex {label!r}")
    i = hm.index(label)
    ta = terrain_arrays(state)
    if not home_mask(state, unit.nation)[i] or not ta.land[i]:
        return Refusal("ETO-37.6", f"{label} is not in {unit.nation}'s home country")
    if resource_only and not (ta.resource[i] or ta.city_resource[i]):
        return Refusal("ETO-37.6", f"units from the turn track enter in resource hexes; {label} is not one")
    if control(state)[i] != SIDE_CODE[unit.side]:
        return Refusal("ETO-37.6", f"{label} is not friendly")
    if zoc(state, values.other(unit.side))[i] and not ignore_zoc:
        return Refusal("ETO-37.6", f"{label} is in enemy ZOC")
    if supply.reach(state, unit.nation, unit.side)[i] < 0:
        return Refusal("ETO-37.6", f"{label} cannot trace supply to a permanent source")
    if not stacking.fits(state, label, unit.side, [unit]):
        return Refusal("ETO-24.2", f"{label} cannot hold another unit")
    return None


def partisan_home(state: State, nation: str) -> np.ndarray:
    """ETO-45.0, 45.3: the (original) home country of a partisan country: its units.toml
    ``countries`` or, for a country without a nation row, force_pools.toml [partisan_countries]."""
    if nation in state.ruleset.tables["units"]["nations"]:
        return home_mask(state, nation, original=True)
    ta = terrain_arrays(state)
    names = state.ruleset.tables["force_pools"].get("partisan_countries", {}).get(nation, [])
    return np.isin(ta.country, names) & ta.land


def partisan_max(state: State, nation: str) -> int | None:
    """ETO-45.1: the country's maximum number of partisans (None: not a partisan country)."""
    row = state.ruleset.tables["force_pools"]["partisan_max"]
    v = row.get(nation)
    return int(v) if isinstance(v, int) else None


def partisans_on_map(state: State, nation: str) -> int:
    return sum(1 for u in state.units_by_id.values()
               if u.nation == nation and values.on_map(u) and values.unit_class(state, u) == "partisan")


def season_start_month(label: str) -> str:
    """The first month (``YYYY-MM``) a turn label stands for: a seasonal turn comes before the
    first month of its season (ETO-SOP 1.2: winter Jan, spring Apr, summer Jul, autumn Oct)."""
    tail = label[5:]
    if tail in SEASONS:
        return f"{label[:4]}-{1 + 3 * SEASONS.index(tail):02d}"
    return label


def soviet_at_war_with_germany(state: State) -> bool:
    """ETO-45.2: "The Soviet Union cannot purchase partisan units until after it goes to war with
    Germany": the track named by costs.toml [free].soviet_war_track holds the month the war began,
    and that month lies before this turn."""
    key = state.ruleset.tables["costs"]["free"]["soviet_war_track"]
    began = str(state.tracks.get(key, "") or "")
    return bool(began) and began < season_start_month(state.turn_label)


def partisan_country_occupied(state: State, nation: str, side: str) -> bool:
    """ETO-45.0: "subject to partisan activity after they have been conquered, or when they are
    partially occupied by the units of an invader": at least one hex of the country's home
    territory is controlled by the partisans' enemy (docs/rulings-eto.md)."""
    enemy = SIDE_CODE[values.other(side)]
    return bool((partisan_home(state, nation) & (control(state) == enemy)).any())


def partisan_build_why_not(state: State, unit: Unit) -> Refusal | None:
    """ETO-45.0-45.2: who may build a partisan, for which country, and how many."""
    if values.major_of(state, unit.nation) not in state.ruleset.tables["costs"]["free"]["partisan_builders"]:
        return Refusal("ETO-45.2", "only the Western Allies and the USSR build partisans")
    cap = partisan_max(state, unit.nation)
    if cap is None:
        return Refusal("ETO-45.1", f"{unit.nation} is not a partisan country")
    if values.major_of(state, unit.nation) == "SU" and not soviet_at_war_with_germany(state):
        return Refusal("ETO-45.2", "the USSR cannot build partisans until after it goes to war with Germany")
    if not partisan_country_occupied(state, unit.nation, unit.side):
        return Refusal("ETO-45.0", f"{unit.nation} is neither conquered nor partly occupied, so it has no partisans yet")
    if partisans_on_map(state, unit.nation) >= cap:
        return Refusal("ETO-45.1", f"{unit.nation} already has its maximum of {cap} partisans on the map")
    limit = partisan_limit(state)
    if track(state, "partisans_built") >= limit:
        return Refusal("ETO-45.2", f"the limit of {limit} partisan(s) built per seasonal turn in {state.turn_label[:4]} "
                                   f"is reached")
    return None


def partisan_ok(state: State, unit: Unit, label: str,
                fields: tuple[set[str], set[int]] | None = None) -> Refusal | None:
    """ETO-37.6, 45.3: placed within the home country (need not be friendly), adjacent to but not
    in a home resource hex; neither the partisan hex nor that resource hex in enemy ZOC; not on or
    adjacent to an enemy airbase holding an air unit; not in a hex with units (45.6).  ``fields``:
    :func:`_partisan_fields` of this position and unit, when the caller asks for many hexes."""
    hm = state.map
    if not hm.has_hex(label):
        return Refusal("ETO-37.6", f"no hex {label!r}")
    i = hm.index(label)
    ta = terrain_arrays(state)
    home = partisan_home(state, unit.nation)
    ez = zoc(state, values.other(unit.side))
    if not home[i] or not ta.land[i]:
        return Refusal("ETO-37.6", f"partisans are placed within their home country; {label} is outside it")
    if ta.resource[i] or ta.city_resource[i]:
        return Refusal("ETO-37.6", f"a partisan goes next to a resource hex, not in one ({label} is a resource hex)")
    if ez[i]:
        return Refusal("ETO-37.6", f"{label} is in enemy ZOC")
    if (label in fields[0]) if fields is not None else values.units_at(state, label):
        return Refusal("ETO-45.6", f"{label} is occupied")
    res = [int(j) for j in hm.neighbors[i] if j >= 0 and (ta.resource[j] or ta.city_resource[j]) and home[j]]
    if not res:
        return Refusal("ETO-37.6", f"{label} is not adjacent to a home-country resource hex")
    if all(ez[j] for j in res):
        return Refusal("ETO-37.6", f"every home resource hex next to {label} is in enemy ZOC")
    near = {i, *(int(j) for j in hm.neighbors[i] if j >= 0)}
    if fields is not None and not (near & fields[1]):
        return None  # no enemy air unit on or next to the hex (the scan below would find none)
    air = set(state.ruleset.tables["costs"]["partisan_placement"]["air_classes"])
    for u in state.units_by_id.values():
        if u.side != unit.side and values.on_map(u) and values.unit_class(state, u) in air \
                and hm.index(u.location) in near:
            return Refusal("ETO-37.6", f"{label} is on or next to an enemy airbase holding an air unit ({u.location})")
    return None


def _partisan_fields(state: State, unit: Unit) -> tuple[set[str], set[int]]:
    """What :func:`partisan_ok` scans the units for, once for many hexes: the labels holding any
    unit, and the hexes of ``unit``'s enemy's air units on the map.  Valid while no unit changes."""
    air = set(state.ruleset.tables["costs"]["partisan_placement"]["air_classes"])
    hm = state.map
    occupied = {u.location for u in state.units_by_id.values()}
    enemy_air = {hm.index(u.location) for u in state.units_by_id.values()
                 if u.side != unit.side and values.on_map(u) and values.unit_class(state, u) in air}
    return occupied, enemy_air


def partisan_limit(state: State) -> int:
    """ETO-45.2: partisans buildable per seasonal turn (Western Allies and USSR together)."""
    per = state.ruleset.tables["costs"]["free"]["partisans_per_season"]
    year = int(state.turn_label[:4])
    return int(per["pre_1942"] if year < 1942 else per["1942"] if year == 1942 else per["after_1942"])


def pool_units(state: State, side: str, box: str = FORCE_POOL) -> list[Unit]:
    return sorted((u for u in state.units_by_id.values() if u.side == side and u.location == box
                   and values.unit_class(state, u) not in ("hq", "general")), key=lambda u: u.id)


def hub_hexes(state: State, unit: Unit) -> list[str]:
    """Candidate placements listed as legal orders: home city and resource hexes."""
    ta = terrain_arrays(state)
    hm = state.map
    idx = np.flatnonzero(home_mask(state, unit.nation) & (ta.city | ta.resource | ta.city_resource))
    return [hm.label(int(i)) for i in idx]


DESTROYED = "destroyed"  # state.markers key: {hex: {"kind": "fortification"|"airfield", ...}}


def destroyed_installations(state: State) -> dict[str, dict[str, Any]]:
    """ETO-27.6, 37.5: Destroyed installation markers, by hex (``state.markers["destroyed"]``)."""
    return state.markers.get(DESTROYED, {})


def repair_cost(state: State) -> int:
    """ETO-37.5, ETO-CHART-1 "Install. Repair": 2 EPs, automatically successful in a seasonal turn."""
    return int(state.ruleset.tables["costs"]["repairs"]["installation_repair_seasonal"])


def repair_why_not(state: State, side: str, label: str, nation: str, *, cost: int | None = None,
                   rule: str = "ETO-37.5", what: str = "") -> Refusal | None:
    """ETO-37.5: "A destroyed installation marker can be removed from any friendly hex, even one
    marked out of supply, for a cost of 2 EPs"; only majors pay (37.0), with positive EPs and no
    deficit spending (37.1, 37.8: the reserve may pay).  The 34.4 attempt shares these
    conditions with its own ``cost`` and ``rule``."""
    if label not in destroyed_installations(state):
        return Refusal(rule, f"there is no destroyed installation at {label!r}")
    i = state.map.index(label)
    if control(state)[i] != SIDE_CODE[side]:
        return Refusal(rule, f"{label} is not a friendly hex")
    if nation not in state.game.scenario.sides[side] or values.nation_kind(state, nation) != "major":
        return Refusal("ETO-37.0", f"only a major country of your side can pay for the repair, not {nation!r}")
    cost = repair_cost(state) if cost is None else cost
    if track(state, f"{nation}.eps") <= 0 and track(state, f"{nation}.reserve") <= 0:
        return Refusal("ETO-37.1", f"{nation} has no positive EPs")
    if spendable(state, nation) < cost:
        return Refusal("ETO-37.1", f"{nation} cannot pay {cost} EPs{what} (no deficit spending)")
    return None


def restore_installation(state: State, side: str, label: str) -> str:
    """The Destroyed marker comes off and the installation works again for the side that repaired
    it (27.6: "repaired by the capturing player"); returns its kind."""
    row = dict(state.markers[DESTROYED].pop(label))
    kind = str(row.get("kind", "fortification"))
    forts = state.markers.setdefault("forts", {})
    if label in forts:  # 21.5: the marker stayed on the map under the Destroyed marker
        forts[label]["side"] = side
    elif kind != "installation":  # 27.6 took the marker off; the repair puts it back
        forts[label] = {"side": side, "kind": kind}
    return kind


def repair(state: State, side: str, label: str, nation: str) -> None:
    """ETO-37.5: pay 2 EPs; the installation is repaired, no die."""
    cost = repair_cost(state)
    pay(state, nation, cost, "ETO-37.5", f"repairing the installation at {label}")
    kind = restore_installation(state, side, label)
    state.emit("installation_repaired", side=side, rule="ETO-37.5",
               text=f"{kind} at {label} repaired by {nation} ({cost} EPs)", hex=label, nation=nation, eps=cost)


class BuildOrder(OrderKind):
    """ETO-37.2 (units), 37.5 (``{"kind": "build", "repair": hex, "nation": major}``), 43.1, 45.2."""

    kind = "build"
    rule = "ETO-37.2"

    def _choices(self, state: State, side: str) -> list[Unit]:
        """One pool unit per (box, nation, type, reduced) so the list stays short."""
        seen, out = set(), []
        for box in (FORCE_POOL, SIBERIA, suez.box(state)):
            for u in pool_units(state, side, box):
                key = (box, u.nation, u.type)
                if key not in seen:
                    seen.add(key)
                    out.append(u)
        return out

    def _why_not(self, state: State, unit: Unit, order: dict[str, Any]) -> Refusal | None:
        why = self._unit_why_not(state, unit, bool(order.get("depleted", False)))
        if why is not None:
            return why
        if values.unit_class(state, unit) == "partisan":
            return partisan_ok(state, unit, str(order.get("at", "")))
        if unit.location == suez.box(state):
            return suez.placement_ok(state, unit, str(order.get("at", "")))
        if _naval_at_once(state, unit):
            at = str(order.get("at", ""))
            if at not in naval_entry_ports(state, unit):
                return Refusal("ETO-10.0", f"a new STP is placed on the map at once, in a home country port with "
                                           f"room (37.6); {at!r} is not one")
            return None
        if delay(state, unit) == 0 or unit.location == SIBERIA:
            return placement_ok(state, unit, str(order.get("at", "")))
        if "at" in order:
            return Refusal("ETO-37.2", "this unit enters later from the turn track; give no 'at'")
        return None

    def _unit_why_not(self, state: State, unit: Unit, depleted: bool) -> Refusal | None:
        """The part of :meth:`_why_not` that does not depend on where the unit is placed."""
        if depleted and not values.has_depleted_side(state, unit):
            return Refusal("ETO-37.2", "only units with a depleted side can be built depleted")
        if unit.location == SIBERIA:
            if track(state, "SU.siberian_allowed") <= 0:
                return Refusal("ETO-43.1", "no Siberian transfers left this season")
            cost = 0
        else:
            cost = build_cost(state, unit, depleted)
            major = values.major_of(state, unit.nation)
            if track(state, f"{major}.eps") <= 0 and track(state, f"{major}.reserve") <= 0:
                return Refusal("ETO-37.1", f"{major} has no positive EPs")
            if spendable(state, major) < cost:
                return Refusal("ETO-37.1", f"{major} cannot pay {cost} EPs (no deficit spending)")
        why = historical.fc_build_why_not(state, unit)  # 46.5 (optional)
        if why:
            return why
        if values.unit_class(state, unit) == "partisan":
            return partisan_build_why_not(state, unit)
        return None

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        out = []
        for u in self._choices(state, side):
            variants = [False, True] if values.has_depleted_side(state, u) and u.location != SIBERIA else [False]
            for dep in variants:
                base = {"kind": "build", "unit": u.id, "depleted": dep}
                if values.unit_class(state, u) == "partisan":
                    hm = state.map
                    ta = terrain_arrays(state)
                    if partisan_build_why_not(state, u) is not None:
                        continue
                    home = partisan_home(state, u.nation)
                    cands = sorted({hm.label(int(j)) for i in np.flatnonzero(home & (ta.resource | ta.city_resource))
                                    for j in hm.neighbors[i] if j >= 0})
                    if self._unit_why_not(state, u, dep) is None:  # then each hex is partisan_ok alone
                        fields = _partisan_fields(state, u)
                        out += [{**base, "at": h} for h in cands if partisan_ok(state, u, h, fields) is None]
                elif u.location == suez.box(state):
                    out += [{**base, "at": h} for h in suez.entry_hexes(state)
                            if self._why_not(state, u, {**base, "at": h}) is None]
                elif _naval_at_once(state, u):
                    out += [{**base, "at": h} for h in naval_entry_ports(state, u)
                            if self._why_not(state, u, {**base, "at": h}) is None]
                elif delay(state, u) == 0 or u.location == SIBERIA:
                    out += [{**base, "at": h} for h in hub_hexes(state, u)
                            if self._why_not(state, u, {**base, "at": h}) is None]
                elif self._why_not(state, u, base) is None:
                    out.append(base)
        majors = [n for n in state.game.scenario.sides[side] if values.nation_kind(state, n) == "major"]
        for label in sorted(destroyed_installations(state)):
            out += [{"kind": "build", "repair": label, "nation": n} for n in majors
                    if repair_why_not(state, side, label, n) is None]
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side == side and u.location in (FORCE_POOL, suez.box(state)):
                for where in ("box", "pool"):
                    o = {"kind": "build", "suez": where, "unit": u.id}
                    if suez.why_not(state, side, o) is None:
                        out.append(o)
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        if "repair" in order:
            why = repair_why_not(state, side, str(order["repair"]), str(order.get("nation", "")))
            if why:
                raise IllegalOrder.of(why, "ETO-37.5")
            return
        if "suez" in order:
            why = suez.why_not(state, side, order)
            if why:
                raise IllegalOrder.of(why, "ETO-37.7")
            return
        u = state.units_by_id.get(order.get("unit", ""))
        if u is None or u.side != side or u.location not in (FORCE_POOL, SIBERIA, suez.box(state)) \
                or values.unit_class(state, u) in ("hq", "general"):
            raise IllegalOrder("ETO-37.1", f"{order.get('unit')!r} is not one of your units in the force pool")
        why = self._why_not(state, u, order)
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        if "repair" in order:
            repair(state, state.decision.side, str(order["repair"]), str(order["nation"]))
            return
        if "suez" in order:
            suez.move(state, state.unit(order["unit"]), str(order["suez"]))
            return
        u = state.unit(order["unit"])
        depleted = bool(order.get("depleted", False))
        from_siberia = u.location == SIBERIA
        from_suez = u.location == suez.box(state)
        u.props.pop(suez.ELIGIBLE, None)
        u.props.pop(suez.ADDED, None)
        if from_siberia:
            state.tracks["SU.siberian_allowed"] = track(state, "SU.siberian_allowed") - 1
            cost = 0
        else:
            cost = build_cost(state, u, depleted)
            pay(state, u.nation, cost, self.rule, f"building {u.id}")
        u.reduced = depleted
        u.props.pop("pool_of", None)
        if values.unit_class(state, u) == "partisan":
            state.tracks["partisans_built"] = track(state, "partisans_built") + 1
        if depleted:
            u.props["built_depleted"] = state.turn
        if "at" in order:
            u.location = order["at"]
            if _naval_at_once(state, u):
                u.props["in_port"] = True  # 10.0: a new STP is placed at once, in its port (37.6)
            state.emit("build", side=u.side,
                       rule="ETO-43.1" if from_siberia else "ETO-37.7" if from_suez else self.rule,
                       text=f"{u.id} built ({cost} EPs) at {u.location}", unit=u.id, eps=cost, at=u.location)
        else:
            u.location = TURN_TRACK
            u.props["arrives"] = season_after(state.turn_label, delay(state, u))
            state.emit("build", side=u.side, rule=self.rule,
                       text=f"{u.id} built ({cost} EPs), enters {u.props['arrives']}", unit=u.id, eps=cost,
                       arrives=u.props["arrives"])


def _naval_at_once(state: State, unit: Unit) -> bool:
    """ETO-10.0: "Players can purchase STPs during the Construction phase (37.0) of a seasonal
    turn.  STPs are placed on the map immediately" (a naval unit with no delay: in a port)."""
    from workbench.rulesets.eto import naval_units

    return naval_units.is_naval(state, unit) and delay(state, unit) == 0


def months_since_built(state: State, unit: Unit) -> int:
    """ETO-37.2: monthly turns a unit built depleted has spent on the map ("After three monthly
    turns on the map, it can be built to full strength"); large for every other unit."""
    b = unit.props.get("built_depleted")
    if b is None:
        return 99
    return sum(1 for label in state.calendar[int(b) + 1:state.turn + 1] if label[5:].isdigit())


class RebuildDepletedOrder(OrderKind):
    """ETO-37.3: flip a depleted unit for half its build cost (not if marked OOS)."""

    kind = "rebuild"
    rule = "ETO-37.3"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        out = []
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side == side and values.on_map(u) and u.reduced and not u.props.get("oos") \
                    and values.is_combat_unit(state, u) and months_since_built(state, u) >= 3:
                major = values.major_of(state, u.nation)
                cost = adj.rebuild_cost(build_cost(state, u))
                if (track(state, f"{major}.eps") > 0 or track(state, f"{major}.reserve") > 0) \
                        and spendable(state, major) >= cost:
                    out.append({"kind": "rebuild", "unit": u.id})
        return out

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        cost = adj.rebuild_cost(build_cost(state, u))
        pay(state, u.nation, cost, self.rule, f"rebuilding {u.id}")
        u.reduced = False
        state.emit("rebuild", side=u.side, rule=self.rule, text=f"{u.id} rebuilt to full strength ({cost} EPs)",
                   unit=u.id, eps=cost)


class ReserveOrder(OrderKind):
    """ETO-37.8: move EPs from the track to the economic reserve (20 at most)."""

    kind = "reserve"
    rule = "ETO-37.8"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        cap = int(state.ruleset.tables["costs"]["reserve"]["max"])
        out = []
        for n in state.game.scenario.sides[side]:
            if values.nation_kind(state, n) != "major":
                continue
            room = min(cap - track(state, f"{n}.reserve"), track(state, f"{n}.eps"))
            for k in sorted({1, 5, 10, room}):
                if 0 < k <= room:
                    out.append({"kind": "reserve", "nation": n, "eps": k})
        return out

    def execute(self, state: State, order: dict[str, Any]) -> None:
        n, k = order["nation"], int(order["eps"])
        state.tracks[f"{n}.eps"] = track(state, f"{n}.eps") - k
        state.tracks[f"{n}.reserve"] = track(state, f"{n}.reserve") + k
        state.emit("reserve", rule=self.rule, text=f"{n} puts {k} EPs in economic reserve", nation=n, eps=k)


def additions(state: State, step: Any) -> None:
    """Construction Step 1 (37.0): the year's force-pool additions in winter seasonal turns; the
    Soviet improved-HQ draws of 43.9 in every seasonal turn of 1941."""
    improved_hq_draws(state)
    if not state.turn_label.endswith("winter"):
        return
    year = state.turn_label[:4]
    adds = state.ruleset.tables["force_pools"].get("additions", {}).get(year, {})
    sides = {n: s for s, ns in state.game.scenario.sides.items() for n in ns}
    hq_type = state.ruleset.tables["force_pools"]["soviet_hq_draws"]["type"]
    suez_added = 0
    adds = uk_conquest.winter_additions(state, adds)  # 40.7: a conquered UK adds one armor and one infantry
    for nation, row in sorted(adds.items()):
        if nation not in sides:
            continue
        if alternative_endings.frozen(state, values.major_of(state, nation)):
            state.emit("force_pool", side=sides[nation], rule="ETO-47.5", nation=nation, added={},
                       text=f"no {nation} force pool additions for {year}: the force pools are frozen (47.5, 47.6)")
            continue
        for utype, count in sorted(row.items()):
            if utype in ("source", "rationale") or not isinstance(count, int):
                continue
            if nation == "SU" and utype == hq_type and soviet_hq_draws_apply(state):
                continue  # 43.9: these HQs came (or come now) by the draws
            for u in add_to_pool(state, nation, sides[nation], year, utype, count):
                if suez.eligible_unit(state, u):
                    u.props[suez.ADDED] = state.turn_label
                    suez_added += 1
        state.emit("force_pool", side=sides[nation], rule="ETO-37.0",
                   text=f"{nation} force pool additions for {year}", nation=nation,
                   added={k: v for k, v in row.items() if isinstance(v, int)})
    if suez_added:  # 37.7: "up to one half of the British infantry units being added"
        allowed = math.floor(suez_added * float(suez.table(state)["winter_fraction"]))
        state.tracks[suez.ALLOWED] = allowed
        state.emit("suez_adds", side="allies", rule="ETO-37.7",
                   text=f"up to {allowed} of the {suez_added} British infantry added may go to the Suez Adds box",
                   allowed=allowed, added=suez_added)


def add_to_pool(state: State, nation: str, side: str, year: str, utype: str, count: int) -> list[Unit]:
    """Put a year's ``count`` units of ``utype`` in the nation's force pool (37.0); a unit already
    added (an early entry's, 40.7) is not added twice."""
    out = []
    for k in range(count):
        uid = f"{nation}-{year}-{utype}-{k + 1}"
        if uid in state.units_by_id:
            continue
        u = Unit(uid, side, nation, utype, None, FORCE_POOL, False, {"pool_of": values.major_of(state, nation)})
        state.units_by_id[uid] = u
        out.append(u)
    return out


def early_us_forces(state: State, nation: str) -> None:
    """ETO-40.7: "If the US is not already at war, it enters during the following seasonal turn. The
    1942 forces are placed in the force pool (exception - BB Massachusetts does not enter until 1942
    in any event)" -- on an entry before 1942, the 1942 additions at once, less the kinds held back
    (politics.toml [uk_conquest] not_before_1942)."""
    t = state.ruleset.tables["politics"]["uk_conquest"]
    if nation != t["heir"] or state.turn_label[:4] >= "1942":
        return
    row = state.ruleset.tables["force_pools"].get("additions", {}).get("1942", {}).get(nation, {})
    side = next((s for s, ns in state.game.scenario.sides.items() if nation in ns), None)
    if not row or side is None:
        return
    held = set(t.get("not_before_1942", []))
    added = []
    for utype, count in sorted(row.items()):
        if isinstance(count, int) and not isinstance(count, bool) and utype not in held:
            added += [u.id for u in add_to_pool(state, nation, side, "1942", utype, count)]
    state.emit("force_pool", side=side, rule="ETO-40.7", nation=nation, added={"units": len(added)},
               text=f"the US enters before 1942: its 1942 forces go to the force pool now ({len(added)} units)")


if early_us_forces not in invasion.ENTRY_HOOKS:
    invasion.ENTRY_HOOKS.append(early_us_forces)


def soviet_hq_draws_apply(state: State) -> bool:
    """ETO-43.9 applies: the USSR and Germany went to war before January 1941 (track
    ``war.SU-GE`` holds the month the war began) and no scenario rule says otherwise."""
    began = str(state.tracks.get("war.SU-GE", "") or "")
    return bool(began) and began < "1941-01" and not supply.special(state, "no_improved_hq_draw")


def improved_hq_draws(state: State) -> None:
    """ETO-43.9: from the winter 1941 seasonal turn the USSR rolls one die each seasonal turn and
    draws that many HQs of its 1942 order of battle at random into its force pool; any still out
    of play at the winter 1942 seasonal turn go to the force pool then."""
    if not soviet_hq_draws_apply(state):
        return
    row = state.ruleset.tables["force_pools"]["soviet_hq_draws"]
    year = int(state.turn_label[:4])
    names = list(row["hqs"])
    drawn = [n for n in str(state.tracks.get("SU.hq_drawn", "") or "").split(",") if n]
    left = [n for n in names if n not in drawn]
    if not left or year < 1941:
        return
    if year >= 1942:
        picks = left
        state.emit("hq_draw", side="allies", rule="ETO-43.9",
                   text=f"winter 1942: the remaining {len(left)} improved HQs enter the force pool", hqs=left)
    else:
        (die,) = state.roll(purpose="Soviet improved HQs drawn this season", rule="ETO-43.9", side="allies")
        picks = []
        for _ in range(min(die, len(left))):
            (k,) = state.roll(purpose=f"random draw among {len(left)} improved HQs", rule="ETO-43.9",
                              sides=len(left), side="allies")
            picks.append(left.pop(k - 1))
        state.emit("hq_draw", side="allies", rule="ETO-43.9", text=f"die {die}: {', '.join(picks)} drawn",
                   hqs=picks, die=die)
    for name in picks:
        uid = "SU-hq-" + "".join(ch for ch in name.lower().replace(" ", "-") if ch.isalnum() or ch == "-")
        state.units_by_id[uid] = Unit(uid, "allies", "SU", row["type"], None, FORCE_POOL, False,
                                      {"pool_of": "SU", "name": name})
    state.tracks["SU.hq_drawn"] = ",".join(drawn + picks)


def naval_entry_ports(state: State, unit: Unit) -> list[str]:
    """ETO-37.6: "naval units must be placed in home country ports" (in supply, not in enemy
    ZOC, friendly, with room: 7.7); "US naval units ... in the United States box or in any port
    friendly to the Western Allies".  A named ship back from repair (37.4) lists the port it was
    repaired in first, then major ports before minor ones."""
    from workbench.rulesets.eto import ports

    hm = state.map
    col = hm.hexes["port"]
    home = home_mask(state, unit.nation)
    reach = supply.reach(state, unit.nation, unit.side)
    enemy_zoc = zoc(state, values.other(unit.side))
    out = []
    for i in np.flatnonzero(np.asarray([p in ("minor", "major") for p in col])):
        label = hm.label(int(i))
        if unit.nation == "US":
            ok = ports.friendly(state, unit.side, label)
        else:
            ok = bool(home[i]) and reach[i] >= 0 and not enemy_zoc[i] and ports.friendly(state, unit.side, label)
        if ok and ports.enter_why_not(state, unit.side, [unit], label) is None:
            out.append(label)
    if unit.nation == "US" and ports.enter_why_not(state, unit.side, [unit], "US box") is None:
        out.append("US box")
    first = unit.props.get("repair_port")
    out.sort(key=lambda p: (p != first, p in ports.PORT_BOXES or col[hm.index(p)] != "major", p))
    return out


def naval_arrival(state: State, unit: Unit) -> None:
    """ETO-37.6: a naval unit due from the turn track enters a port (:func:`naval_entry_ports`,
    the first; the owner may sail it on); with none, it "is permanently eliminated"."""
    spots = naval_entry_ports(state, unit)
    unit.props.pop("repair_port", None)
    if not spots:
        unit.location = values.PERMANENT
        state.emit("arrive", side=unit.side, rule="ETO-37.6", unit=unit.id,
                   text=f"{unit.id} has no home port to enter: permanently eliminated")
        return
    unit.location = spots[0]
    unit.props["in_port"] = True
    state.emit("arrive", side=unit.side, rule="ETO-37.6", text=f"{unit.id} enters the port at {unit.location}",
               unit=unit.id, at=unit.location)


def delayed(state: State, step: Any) -> None:
    """Construction Step 2 (37.2, 37.6): units due this season enter, or return to the pool."""
    from workbench.rulesets.eto import naval_units

    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.location != TURN_TRACK or u.props.get("arrives") != state.turn_label:
            continue
        if naval_units.is_naval(state, u):
            u.props.pop("arrives", None)
            naval_arrival(state, u)
            continue
        spots = [h for h in hub_hexes(state, u) if placement_ok(state, u, h, resource_only=True) is None]
        spots.sort(key=lambda h: (not terrain_arrays(state).city_resource[state.map.index(h)], h))
        u.props.pop("arrives", None)
        if "built_depleted" in u.props:
            u.props["built_depleted"] = state.turn  # 37.2: the three months count from entering the map
        if spots:
            u.location = spots[0]
            state.emit("arrive", side=u.side, rule="ETO-37.6", text=f"{u.id} enters at {u.location}",
                       unit=u.id, at=u.location)
        else:
            u.location = FORCE_POOL
            state.emit("arrive", side=u.side, rule="ETO-37.6",
                       text=f"{u.id} has no eligible hex: back to the force pool", unit=u.id)


def begin_build(state: State, step: Any) -> None:
    """Entering Step 3: Siberian transfers (43.1) and the partisan count (45.2)."""
    state.tracks["partisans_built"] = 0
    suez.check(state)
    if not supply.special(state, "siberian_transfers"):
        return
    if not any(u.location == SIBERIA for u in state.units_by_id.values()):
        return
    hm = state.map
    ta = terrain_arrays(state)
    ctrl = control(state)
    captured = int((home_mask(state, "SU", original=True) & ta.city_resource & (ctrl == SIDE_CODE["axis"])).sum())
    try:
        if ctrl[hm.index(hm.hex_of("Riga"))] == SIDE_CODE["axis"]:
            captured += 1
    except KeyError:
        pass
    (die,) = state.roll(purpose=f"Siberian transfers (1d6 + {captured} captured city resource hexes)",
                        rule="ETO-43.1", side="allies")
    state.tracks["SU.siberian_allowed"] = die + captured
    state.emit("siberian", side="allies", rule="ETO-43.1",
               text=f"{die + captured} Siberian infantry may transfer this season", allowed=die + captured)


def end_build(state: State, step: Any) -> None:
    """End of Step 3: unused Siberian transfers lapse (43.1), and so do the Suez Adds choices
    not taken (37.7: the choice belongs to the elimination and to the winter additions)."""
    state.tracks.pop("SU.siberian_allowed", None)
    state.tracks.pop(suez.ALLOWED, None)
    for u in state.units_by_id.values():
        u.props.pop(suez.ELIGIBLE, None)
        u.props.pop(suez.ADDED, None)
