"""Off-map holding areas in play (SSA-15): attrition, control of the boxes, the 1941 Pacific fall.

Box control starts from the scenario's ``[control]`` ``"box.<name>"`` entries
and is kept in ``markers["box_control"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.losses import eliminate
from workbench.rulesets.ssa.special import frozen, special_rules, turn_number


def box_control(state: State) -> dict[str, str]:
    ctrl = state.markers.get("box_control")
    if ctrl is None:
        ctrl = {k[4:]: v for k, v in state.game.scenario.raw.get("control", {}).items()
                if k.startswith("box.") and isinstance(v, str)}
        state.markers["box_control"] = ctrl
    return ctrl


def attrition(state: State, step: Any = None) -> None:
    """SSA-15.3: in the Axis combat phase the Axis rolls 1d6 for each Allied unit in Europe or the
    Far East, eliminating it on 1-2.  SSA-15.4: in the Allied combat phase, when the Allies hold
    the Pacific box, they roll for each Axis unit there, eliminating it on 1."""
    phasing = state.phasing
    boxes = state.ruleset.tables["holding_areas"]["boxes"]
    for box, spec in boxes.items():
        rule = spec.get("attrition")
        if not isinstance(rule, dict) or rule["rolled_by"] != phasing:
            continue
        holder = rule.get("only_when_controlled_by")
        if holder and box_control(state).get(box) != holder:
            continue
        victims = sorted((u for u in state.units_by_id.values()
                          if u.location == box and u.side == rule["applies_to"]), key=lambda u: u.id)
        for u in victims:
            (die,) = state.roll(purpose=f"holding-area attrition of {u.id} in {box}", rule=rule["rule"],
                                side=phasing)
            if die in rule["eliminated_on"]:
                eliminate(state, u, rule["rule"], f" by attrition in {box}")


def pacific_fall(state: State, step: Any = None) -> None:
    """SSA-SC1 SR7: each turn a 1d6 at most the turn number hands the Pacific to Japan; Japanese
    forces deploy there (moving no further that turn) and Allied units there are eliminated."""
    for r in special_rules(state, "pacific_fall_check"):
        if state.markers.get("pacific_fallen"):
            return
        (die,) = state.roll(purpose="does the Pacific fall to Japan?", rule=r.get("rule", "SSA-SC1 SR7"))
        if die > turn_number(state):
            continue
        state.markers["pacific_fallen"] = True
        box = r.get("move_to", "Pacific")
        box_control(state)[box] = r.get("box_control_to", "axis")
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side == "allies" and u.location == r.get("eliminate_allied_in", box):
                eliminate(state, u, r.get("rule", "SSA-SC1 SR7"), " as the Pacific falls")
            elif u.nation == r.get("frozen_nation", "JA") and u.location == "Far East":
                u.location = box
                u.props["moved"] = "pacific-fall"
                u.props["sailed"] = True
                u.props["sail_done"] = True
        state.emit("pacific_falls", side="axis", rule=r.get("rule", "SSA-SC1 SR7"),
                   text=f"the Pacific falls to Japan (die {die} <= turn {turn_number(state)})")


class BoxMarchOrder(OrderKind):
    """SSA-15.5e: a land unit moves from Colombia or Venezuela into the Latin America box for ½
    its MF, or from the box onto a hex of those countries for ½ its MF (rounded up, authored:
    holding_areas.toml ``land_link``), then moves on with what is left.  Entering the box ends
    its movement for the turn, as for naval units (SSA-7.2; docs/rulings-ssa.md).  Order:
    ``{"kind": "box_march", "unit", "to"}`` (``to`` the box or a hex)."""

    kind = "box_march"
    rule = "SSA-15.5e"

    def _link(self, state: State, box: str) -> dict[str, Any] | None:
        link = state.ruleset.tables["holding_areas"]["boxes"].get(box, {}).get("land_link")
        return link if isinstance(link, dict) else None

    def _linked_boxes(self, state: State) -> list[str]:
        return [b for b in state.ruleset.tables["holding_areas"]["boxes"] if self._link(state, b)]

    def _mover_refusal(self, state: State, u: Unit | None) -> Refusal | None:
        from workbench.rulesets.ssa.movement import MECH_PHASE

        d, step = state.decision, state.step
        if u is None or d is None or step is None or u.side != d.side or not values.is_land(state, u):
            return Refusal("SSA-15.5e", "only your own land units march into or out of a holding area")
        if u.props.get("railed") or u.props.get("carried") or frozen(state, u):
            return Refusal("SSA-15.5e", f"{u.id} may not move now (it moved by rail, is being carried, or is held in place)")
        if step.key.endswith(MECH_PHASE) and not values.is_mech(state, u):
            return Refusal("SSA-4.2e", f"only mechanized units move in the Mechanized Movement phase ({u.id} is not)")
        if u.props.get("box_entered_turn") == state.turn:
            return Refusal("SSA-7.2", f"{u.id} entered {u.location} this turn and must stay there until next turn")
        return None

    def _why_not(self, state: State, u: Unit | None, to: Any) -> Refusal | None:
        from workbench.rulesets.ssa.movement import blocked_for, movement_mf
        from workbench.rulesets.ssa.stacking import land_room
        from workbench.rulesets.ssa.supply import link_cost
        from workbench.rulesets.ssa.zoc import land_zoc

        why = self._mover_refusal(state, u)
        if why:
            return why
        hm = state.map
        left = movement_mf(state, u) - float(u.props.get("mf_spent", 0))
        if u.location.isdigit():
            link = self._link(state, to) if isinstance(to, str) else None
            if link is None:
                return Refusal("SSA-15.5a", "land units reach a holding area only by sea, except Latin America from "
                                            f"Colombia or Venezuela ({to!r})")
            if hm.hexes["country"][hm.index(u.location)] not in link["from_countries"]:
                return Refusal("SSA-15.5e", f"{u.id} must be in {' or '.join(link['from_countries'])} to march into {to}")
            cost = link_cost(values.mf(state, u), link)
            if left < cost:
                return Refusal("SSA-15.5e", f"marching into {to} costs half the MF ({cost}); {u.id} has {left:g} left")
            return None
        link = self._link(state, u.location)
        if link is None:
            return Refusal("SSA-15.5a", f"units leave {u.location} only by sea")
        if not isinstance(to, str) or not hm.has_hex(to):
            return Refusal("SSA-15.5e", f"{to!r} is not a hex of the map")
        i = hm.index(to)
        if hm.is_water[i] or hm.hexes["country"][i] not in link["from_countries"]:
            return Refusal("SSA-15.5e", f"from {u.location} land units march only onto land hexes of "
                                        f"{' or '.join(link['from_countries'])} ({to} is not one)")
        if blocked_for(state, u)[i]:
            return Refusal("SSA-5.1", f"{u.id} may not enter {to} (enemy units there, or a neutral country)")
        cost = link_cost(values.mf(state, u), link) + (1 if land_zoc(state, _other(u.side))[i] else 0)
        if left < cost:
            return Refusal("SSA-15.5e", f"marching onto {to} costs {cost} MF (half the MF, +1 into an enemy ZOC, "
                                        f"SSA-5.5); {u.id} has {left:g} left")
        room = land_room(state, u.side, to, u)
        return room.refusal if room else None

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side if state.decision else None
        boxes = self._linked_boxes(state)
        if side is None or not boxes:
            return []
        hm = state.map
        out: list[dict[str, Any]] = []
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side != side or not values.is_land(state, u):
                continue
            if u.location.isdigit():
                tos = boxes
            elif u.location in boxes:
                countries = self._link(state, u.location)["from_countries"]
                tos = [hm.label(int(i)) for i in
                       np.flatnonzero(np.isin(np.array(hm.hexes["country"].to_list(), dtype=object),
                                              list(countries)) & ~hm.is_water)]
            else:
                continue
            out += [{"kind": self.kind, "unit": u.id, "to": t} for t in tos if self._why_not(state, u, t) is None]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid = order.get("unit")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        why = self._why_not(state, u, order.get("to"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.ssa.supply import link_cost
        from workbench.rulesets.ssa.zoc import land_zoc

        u = state.unit(order["unit"])
        start, to = u.location, order["to"]
        box = to if not to.isdigit() else start
        cost = link_cost(values.mf(state, u), self._link(state, box))
        if to.isdigit():
            cost += 1 if land_zoc(state, _other(u.side))[state.map.index(to)] else 0
        u.props["mf_spent"] = float(u.props.get("mf_spent", 0)) + cost
        u.location = to
        if to.isdigit():
            state.ruleset.order_kinds["move"].rules.moved(state, u, [state.map.index(to)])
        else:
            u.props["box_entered_turn"] = state.turn
            u.props["moved"] = state.step.path
        state.emit("box_march", side=u.side, rule=self.rule,
                   text=f"{u.id} marches {start} → {to} for {cost} MF", unit=u.id, start=start, to=to, cost=cost)


# ------------------------------------------------------------------ SSA-15.5b-d, f, 15.6c: air links
def _edge_distance(state: State, edge: str) -> np.ndarray:
    """``int[N]``: hexes from each hex to the nearest hex of a map edge (``east``: the last column)."""
    hm = state.map

    def compute() -> np.ndarray:  # the map never changes
        col, _ = hm.grid.offset(np.arange(hm.size))
        on_edge = np.flatnonzero(col == (col.max() if edge == "east" else col.min()))
        idx = np.arange(hm.size)
        return np.min([hm.grid.distance(np.full(hm.size, int(j)), idx) for j in on_edge], axis=0)

    return hm.cached(("ssa.edge_distance", edge), compute)


def _country_distance(state: State, countries: list[str]) -> np.ndarray:
    """``float[N]``: hexes from each hex to the nearest hex of ``countries`` (inf if none)."""
    hm = state.map

    def compute() -> np.ndarray:
        country = np.array([c or "" for c in hm.hexes["country"].to_list()], dtype=object)
        hexes = np.flatnonzero(np.isin(country, list(countries)))
        idx = np.arange(hm.size)
        return np.min([hm.grid.distance(np.full(hm.size, int(j)), idx) for j in hexes], axis=0) \
            .astype(float) if hexes.size else np.full(hm.size, np.inf)

    return hm.cached(("ssa.country_distance", tuple(countries)), compute)


def air_link_cost(state: State, u: Unit, box: str) -> np.ndarray:
    """``float[N]``: range factors an air unit spends between each map hex and ``box`` (inf: no
    link).  SSA-15.5b: Axis strategic bombers, Europe <-> the east map edge for 15 (plus the hexes
    to that edge); 15.5c: Axis air cargo, Europe <-> any hex of Iceland; 15.5f: any air unit,
    Latin America for ½ range (plus the hexes to Colombia or Venezuela, authored)."""
    from workbench.rulesets.ssa.air import air_range
    from workbench.rulesets.ssa.supply import link_cost

    tables = state.ruleset.tables["holding_areas"]
    cost = np.full(state.map.size, np.inf)
    for link in tables.get("special_links", {}).values():
        if link.get("box") != box or link.get("side") != u.side or u.type not in link.get("types", ()):
            continue
        if link.get("map_edge"):
            cost = np.minimum(cost, link["range_cost"] + _edge_distance(state, link["map_edge"]))
        if link.get("from_country"):
            cost = np.minimum(cost, np.where(_country_distance(state, [link["from_country"]]) == 0, 0, np.inf))
    air = tables["boxes"].get(box, {}).get("air_link")
    if isinstance(air, dict):
        cost = np.minimum(cost, link_cost(air_range(state, u), air)
                          + _country_distance(state, list(air["from_countries"])))
    return cost


def boxes_linked_by_air(state: State, u: Unit, a: str, b: str) -> bool:
    """SSA-15.5d: Axis air cargo and strategic bombers fly between Europe and Latin America."""
    return any(link.get("side") == u.side and u.type in link.get("types", ())
               and {a, b} <= set(link.get("boxes", ()))
               for link in state.ruleset.tables["holding_areas"].get("special_links", {}).values())


def box_air_supplied(state: State, unit: Unit) -> bool:
    """SSA-15.6c: ``unit`` is one of the (up to 3) units an air cargo supplies in its box."""
    return any(isinstance(v, dict) and v.get("box") == unit.location and v.get("side") == unit.side
               and unit.id in v.get("units", ())
               for v in state.markers.get("air_supplied", {}).values())


class BoxFlightOrder(OrderKind):
    """Air units into, out of and between holding areas (SSA-15.5a-d, f; 15.6c).

    ``{"kind": "box_flight", "unit", "to", "mission"}``:

    * ``transfer`` (either movement phase, not after a mission, SSA-6.6): hex -> box, box -> hex
      (a friendly airbase, SSA-6.3a) with the link cost (:func:`air_link_cost`) at most 2 x range,
      or Europe <-> Latin America (15.5d);
    * a combat mission (Initial Movement phase) from a box to a map hex within range by the link
      (15.5b: strategic bombers based in Europe); the unit then flies as any other and
      ``return`` (Mechanized Movement phase) brings it back to a box within range;
    * ``air_supply`` (Initial Movement phase, air cargo, 15.6c) into Latin America from a
      supplied hex within range by the link (Axis: or from Europe), naming in ``"units"`` up to
      3 friendly units there (holding_areas.toml ``air_supply``); they are supplied for a game
      turn (SSA-10.1h) and the cargo stays in the box."""

    kind = "box_flight"
    rule = "SSA-15.5"

    def _boxes(self, state: State) -> list[str]:
        return list(state.ruleset.tables["holding_areas"]["boxes"])

    def _why_not(self, state: State, u: Unit | None, to: Any, mission: Any, units: Any = None) -> Refusal | None:
        from workbench.rulesets.ssa import air
        from workbench.rulesets.ssa.supply import _box_supplied

        d, step = state.decision, state.step
        if u is None or d is None or step is None or u.side != d.side or not air.is_air(state, u):
            return Refusal("SSA-15.5", "only your own air units fly into or out of holding areas")
        key = step.key
        boxes = self._boxes(state)
        start = u.location
        if mission == "return":
            if key != air.MECH or not air.flying(u) or u.props.get("intercepting"):
                return Refusal("SSA-6.4", "only your air units in the air return, in the Mechanized Movement phase")
            if to not in boxes or air_link_cost(state, u, to)[state.map.index(start)] > air.air_range(state, u):
                return Refusal("SSA-15.5a", f"{u.id} cannot reach {to!r} from {start} within its range")
            return None
        if air.flying(u) or frozen(state, u) or (start not in boxes and not start.isdigit()):
            return Refusal("SSA-15.5", f"{u.id} is not on the ground at a base or in a holding area")
        if u.props.get("flown"):
            return Refusal("SSA-6.6", f"{u.id} flew a mission this turn")
        if not isinstance(to, str) or not (to in boxes or state.map.has_hex(to)) or to == start:
            return Refusal("SSA-15.5", f"{to!r} is not another hex or holding area")
        rng = air.air_range(state, u)
        if start in boxes and to in boxes:
            if mission not in ("transfer", "air_supply") or not boxes_linked_by_air(state, u, start, to):
                return Refusal("SSA-15.5a", f"{u.id} cannot fly from {start} to {to} (only Axis air cargo and "
                                            "strategic bombers, between Europe and Latin America, SSA-15.5d)")
            cost = 0.0
        elif start in boxes:
            cost = float(air_link_cost(state, u, start)[state.map.index(to)])
        elif to in boxes:
            cost = float(air_link_cost(state, u, to)[state.map.index(start)])
        else:
            return Refusal("SSA-6.0", "flights between map hexes are fly orders")
        if mission == "transfer":
            if u.props.get("carrier"):
                return Refusal("SSA-15.5a", f"{u.id} is based on a carrier, which carries it (SSA-6.3d)")
            mult = int(air.air_tables(state)["movement"]["transfer_leg_multiplier"])
            if cost > mult * rng:
                return Refusal("SSA-15.5a", f"{u.id} cannot transfer between {start} and {to}: " + (
                    "no air link joins them" if cost == np.inf else
                    f"the leg costs {cost:g} range factors, more than {mult} x range = {mult * rng}"))
            return air.base_refusal(state, u, to) if to.isdigit() else None
        if key != air.INITIAL:
            return Refusal("SSA-6.4", "air missions fly out only in the Initial Movement phase")
        if u.props.get("transferred"):
            return Refusal("SSA-6.6", f"{u.id} transferred this turn and may fly no mission")
        if mission == "air_supply":
            spec = state.ruleset.tables["holding_areas"]["boxes"].get(to, {}).get("air_supply") \
                if isinstance(to, str) else None
            if not isinstance(spec, dict):
                return Refusal("SSA-15.6c", f"air supply into a holding area goes only to Latin America ({to!r})")
            why = air.mission_refusal(state, u, mission)
            if why:
                return why
            if start.isdigit() and not air.supplied_hexes(state, u.side)[state.map.index(start)]:
                return Refusal("SSA-15.6c", f"the air cargo must fly from a supplied hex ({start} is not)")
            if cost > rng:
                return Refusal("SSA-15.6c", f"{to} costs {cost:g} range factors from {start}; {u.id}'s range is {rng}")
            return self._units_refusal(state, u, to, units, int(spec["units"]))
        if mission not in air.COMBAT_MISSIONS or start not in boxes or not to.isdigit():
            return Refusal("SSA-15.5a", "from a holding area an air unit transfers, or flies a mission onto the map "
                                        f"({mission!r} to {to!r})")
        if not _box_supplied(state, u):
            return Refusal("SSA-15.6", f"{u.id} is out of supply in {start} and may not fly missions")
        why = air.mission_refusal(state, u, mission)
        if why:
            return why
        if cost > rng:
            return Refusal("SSA-15.5b", f"{to} costs {cost:g} range factors from {start}; {u.id}'s range is {rng}") \
                if cost < np.inf else Refusal("SSA-15.5a", f"no air link takes {u.id} from {start} onto the map")
        if not air.mission_targets(state, u.side, mission)[state.map.index(to)]:
            return Refusal("SSA-12.G", f"{to} holds no target for a {mission.replace('_', ' ')} mission")
        limit = int(air.air_tables(state)["basing"]["max_in_air_over_hex"])
        if air.over_hex(state, u.side, to) >= limit:
            return Refusal("SSA-9.2b", f"at most {limit} friendly air units may be in the air over {to}")
        return None

    def _candidates(self, state: State, u: Unit, box: str) -> list[Unit]:
        from workbench.rulesets.ssa import air

        return sorted((v for v in state.units_by_id.values()
                       if v.side == u.side and v.location == box and v.id != u.id
                       and (air.is_air(state, v) or values.domain(state, v) == "naval"
                            or (values.is_land(state, v) and not values.is_leader(state, v)
                                and values.division_equivalents(state, v) <= 1))), key=lambda v: v.id)

    def _units_refusal(self, state: State, u: Unit, box: str, units: Any, most: int) -> Refusal | None:
        ok = {v.id for v in self._candidates(state, u, box)}
        if not isinstance(units, list) or not units or len(units) > most or len(set(units)) != len(units) \
                or not set(units) <= ok:
            return Refusal("SSA-15.6c", f"name 1 to {most} different friendly divisions, air or naval units in {box} "
                                        "for the air cargo to supply")
        return None

    def legal(self, state: State) -> list[dict[str, Any]]:
        from itertools import combinations

        from workbench.rulesets.ssa import air

        side = state.decision.side if state.decision else None
        if side is None:
            return []
        hm = state.map
        boxes = self._boxes(state)
        out: list[dict[str, Any]] = []
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side != side or not air.is_air(state, u):
                continue
            tries: list[tuple[str, str]] = []
            if air.flying(u):
                tries = [(b, "return") for b in boxes]
            elif u.location in boxes:
                tries = [(b, "transfer") for b in boxes] + [(b, "air_supply") for b in boxes]
                for b in (u.location,):
                    reach = air_link_cost(state, u, b)
                    mult = int(air.air_tables(state)["movement"]["transfer_leg_multiplier"])
                    for j in np.flatnonzero(reach <= mult * air.air_range(state, u)):
                        tries.append((hm.label(int(j)), "transfer"))
                        if reach[j] <= air.air_range(state, u):
                            tries += [(hm.label(int(j)), m) for m in air.COMBAT_MISSIONS if m != "air_supply"]
            elif u.location.isdigit():
                tries = [(b, "transfer") for b in boxes] + [(b, "air_supply") for b in boxes]
            for to, m in tries:
                if m == "air_supply":
                    spec = state.ruleset.tables["holding_areas"]["boxes"].get(to, {}).get("air_supply")
                    if not isinstance(spec, dict):
                        continue
                    cands = [v.id for v in self._candidates(state, u, to)]
                    k = min(int(spec["units"]), len(cands))
                    groups = [list(c) for c in combinations(cands, k)] if len(cands) <= 8 else [cands[:k]]
                    out += [{"kind": self.kind, "unit": u.id, "to": to, "mission": m, "units": g}
                            for g in groups if self._why_not(state, u, to, m, g) is None]
                elif self._why_not(state, u, to, m) is None:
                    out.append({"kind": self.kind, "unit": u.id, "to": to, "mission": m})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid = order.get("unit")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        why = self._why_not(state, u, order.get("to"), order.get("mission"), order.get("units"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.ssa import air

        u = state.unit(order["unit"])
        start, to, mission = u.location, order["to"], order["mission"]
        if mission == "return":
            air.land(state, u, to, None)
            state.emit("land", side=u.side, rule="SSA-15.5b", text=f"{u.id} returns to {to} (from {start})",
                       unit=u.id, start=start, to=to)
            return
        if mission in ("transfer", "air_supply"):
            u.flag("carrier", None)
            u.location = to
            u.props["transferred" if mission == "transfer" else "flown"] = True
            if mission == "transfer":
                u.props["transferred_in"] = state.step.path if state.step else ""
            if mission == "air_supply":
                marks = dict(state.markers.get("air_supplied", {}))
                marks[f"{to}/{u.id}"] = {"side": u.side, "turn": state.turn, "box": to, "units": list(order["units"])}
                state.markers["air_supplied"] = marks
            state.emit("box_flight", side=u.side, rule="SSA-15.6c" if mission == "air_supply" else "SSA-15.5",
                       text=f"{u.id} flies {start} → {to}" + (
                           f" and supplies {', '.join(order['units'])} for one game turn"
                           if mission == "air_supply" else ""),
                       unit=u.id, start=start, to=to, mission=mission, units=order.get("units"))
            return
        u.props.update({"flying": True, "base": start, "base_kind": "land", "mission": mission,
                        "target": to, "flown": True})
        u.location = to
        state.emit("fly", side=u.side, rule="SSA-15.5b",
                   text=f"{u.id} flies {start} → {to} on a {mission.replace('_', ' ')} mission",
                   unit=u.id, start=start, to=to, mission=mission)


def _other(side: str) -> str:
    return "allies" if side == "axis" else "axis"


ORDER_KINDS = {"box_march": BoxMarchOrder(), "box_flight": BoxFlightOrder()}
PROCEDURES = {"player/combat/attrition": attrition, "start/pacific-fall": pacific_fall}
