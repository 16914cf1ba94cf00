"""Naval movement and sea transport (SSA-7.0), with naval ZOC stops (SSA-8.3).

* Fleets move any distance through sea and coastal hexes (SSA-7.G, 7.1, 7.4),
  never into a hex with enemy naval units other than submarines (SSA-7.3, 13.6).
* Entering an enemy naval ZOC hex ends the move; a fleet that starts in one may
  leave it, but not pass through another (SSA-8.3).
* Holding areas (SSA-7.2, 7.6): a fleet at sea next to the map edge of an
  ocean may enter a holding area beside that ocean, and stops there.  One that
  starts a turn in a box may move to an adjacent box, or come back onto the map
  at that ocean's edge and sail on.
* The Panama Canal hexside may be crossed only by a side that controls both
  canal hexes, with no enemy fleet beyond and no bombing marker (SSA-7.5).
* Convoys (``transport``) carry land and air units: 4 transport points full,
  2 reduced (SSA-7.7a); mechanized divisions cost 2, others 1, air units 1
  (SSA-7.7b).  Cargo embarks where it starts the phase (a coastal hex or a
  box) and debarks in a coastal hex or a box; it never lands among enemy land
  or naval units (SSA-7.7g) and air units land only where there is an airbase
  (SSA-7.7f).

Orders: ``sail`` ``{"unit", "to"}`` (the kernel finds the shortest legal
route), ``embark`` ``{"convoy", "units": [...]}``, ``debark`` ``{"convoy",
"units": [...]}``.  For the legal-order list, sea destinations are
coastal hexes, boxes and the sea hexes next to enemy fleets; any other
reachable sea hex is still accepted.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values, weather
from workbench.rulesets.ssa.control import SIDE_CODE, control_array
from workbench.rulesets.ssa.movement import enemy_present, home_rule, other
from workbench.rulesets.ssa.special import frozen, special_rules
from workbench.rulesets.ssa.stacking import land_room
from workbench.rulesets.ssa.zoc import naval_zoc

OCEANS = {"atlantic": "Atlantic", "pacific": "Pacific"}


def _box_oceans(state: State, box: str) -> list[str]:
    spec = state.ruleset.tables["holding_areas"]["boxes"].get(box, {})
    return list(spec.get("adjacent_oceans", []))


def _adjacent_boxes(state: State, box: str) -> list[str]:
    spec = state.ruleset.tables["holding_areas"]["boxes"].get(box, {})
    return list(spec.get("adjacent_boxes", []))


def closed_boxes(state: State, side: str) -> set[str]:
    """Boxes a scenario closes (SC0 SR7 and the like)."""
    out: set[str] = set()
    for r in special_rules(state, "boxes_closed"):
        out |= set(r.get("boxes", []))
    for r in special_rules(state, "box_closed_to"):
        if r.get("side") in (None, side):
            out |= set(r.get("boxes", [r.get("box")]) if r.get("box") else r.get("boxes", []))
    return out


def sea_arrays(state: State):  # noqa: ANN201
    """Static naval geography: navigable hexes, ocean-edge hexes per ocean (cached per map)."""
    return state.map.cached("ssa.sea", lambda: _sea_arrays(state.map))


def _sea_arrays(hm):  # noqa: ANN001, ANN202
    navigable = hm.is_water & ~hm.terrain_mask("lake") | hm.flag("coastal")
    ocean = np.array([(o or "") for o in hm.hexes["ocean"].to_list()], dtype=object) \
        if "ocean" in hm.hexes.columns else np.full(hm.size, "", dtype=object)
    edge = hm.is_water & (hm.neighbors < 0).any(axis=1)
    edges = {}
    for key, word in OCEANS.items():
        on = np.array([word in o for o in ocean])
        edges[key] = edge & on if (edge & on).any() else edge
    canal = [hm.index(h) for h in hm.meta.get("panama_canal_hexes", [])]
    return navigable, edges, canal


def canal_controlled(state: State, side: str) -> bool:
    """SSA-7.5a: both canal hexes friendly (occupied by or last passed by own land units)."""
    _, _, canal = sea_arrays(state)
    if len(canal) != 2:
        return False
    ctrl = control_array(state)
    return all(ctrl[i] == SIDE_CODE[side] for i in canal)


def canal_bombed(state: State) -> bool:
    """SSA-12.3a: a strategic bombing marker on a canal hex closes the canal."""
    _, _, canal = sea_arrays(state)
    bombed = state.arrays.get("bombed")
    return bombed is not None and any(bool(bombed[i]) for i in canal)


def canal_open(state: State, side: str) -> bool:
    """SSA-7.5a, 7.5c: both canal hexes friendly, not bombed."""
    return canal_controlled(state, side) and not canal_bombed(state)


class SailOrder(OrderKind):
    kind = "sail"
    rule = "SSA-7.0"

    def movers(self, state: State) -> list[Unit]:
        side = state.decision.side
        # 7.1 "an unlimited number of ocean hexes": a fleet may sail on after a stop (7.7: a convoy
        # sails to the coast, picks its cargo up and carries it on) until it enters an enemy naval
        # ZOC (8.3) or a holding area (7.2), which end its movement (``sail_done``)
        return [u for u in state.units_by_id.values() if u.side == side and values.domain(state, u) == "naval"
                and not u.props.get("sail_done") and u.location not in ("Eliminated", "unplaced", "Force pool")
                and not frozen(state, u) and weather.naval_refusal(state, u) is None]

    def _network(self, state: State, side: str):  # noqa: ANN202
        """Sea components for ``side``: hexes a fleet may pass through (navigable, no enemy
        fleet, no enemy naval ZOC) joined by sea hexsides; for each component the ZOC hexes
        where a move ends (SSA-8.3) and the holding areas its ocean edges reach (SSA-7.2)."""
        def compute():  # noqa: ANN202
            from scipy.sparse import csr_matrix
            from scipy.sparse.csgraph import connected_components

            hm = state.map
            navigable, edges, canal = sea_arrays(state)
            enter = navigable & ~_enemy_fleets(state, side) & ~weather.naval_closed(state)  # SSA-26.3-F/H
            zoc = naval_zoc(state, other(side))
            through = enter & ~zoc
            a = np.repeat(np.arange(hm.size), 6)
            b = hm.neighbors.ravel()
            bb = np.maximum(b, 0)
            water = hm.is_water
            landland = ~water[a] & ~water[bb]
            canal_pair = np.isin(a, canal) & np.isin(bb, canal) & canal_open(state, side)
            edge_ok = (b >= 0) & (~landland | canal_pair)
            inner = edge_ok & through[a] & through[bb]
            g = csr_matrix((np.ones(int(inner.sum())), (a[inner], b[inner])), shape=(hm.size, hm.size))
            _, comp = connected_components(g, directed=False)
            comp = np.where(through, comp, -1)
            ends = edge_ok & through[a] & enter[bb] & zoc[bb]
            terminals: dict[int, set[int]] = {}
            for c, t in zip(comp[a[ends]].tolist(), b[ends].tolist(), strict=True):
                terminals.setdefault(c, set()).add(t)
            closed = closed_boxes(state, side)
            boxes: dict[int, set[str]] = {}
            for box in state.ruleset.tables["holding_areas"]["boxes"]:
                if box in closed:
                    continue
                for ocean in _box_oceans(state, box):
                    for c in np.unique(comp[edges.get(ocean, np.zeros(hm.size, bool)) & through]):
                        boxes.setdefault(int(c), set()).add(box)
            return comp, through, enter, zoc, terminals, boxes, edge_ok.reshape(hm.size, 6)

        return state.derived(("ssa.sea_network", side), compute, id(state.arrays.get("control")),
                             state.arrays.get("control", np.zeros(0)).tobytes(),
                             id(state.arrays.get("bombed")), weather.signature(state))

    def destinations(self, state: State, unit: Unit) -> set[str]:
        """Every hex label or box the fleet can reach now (SSA-7, 8.3)."""
        idx, boxes = self.reach(state, unit)
        return {state.map.label(int(i)) for i in idx} | boxes

    def reach(self, state: State, unit: Unit) -> tuple[np.ndarray, set[str]]:
        """Reachable hexes (dense indices) and holding areas."""
        hm = state.map
        comp, through, enter, zoc, terminals, boxes, edge_ok = self._network(state, unit.side)
        _, edges, _ = sea_arrays(state)
        closed = closed_boxes(state, unit.side)
        comps: set[int] = set()
        ends: set[int] = set()
        out: set[str] = set()
        if unit.location.isdigit():
            s0 = hm.index(unit.location)
            if through[s0]:
                comps.add(int(comp[s0]))
            else:  # starting in enemy ZOC: it may leave, but not pass through another (SSA-8.3)
                for d in range(6):
                    n = int(hm.neighbors[s0, d])
                    if n >= 0 and edge_ok[s0, d] and enter[n]:
                        if through[n]:
                            comps.add(int(comp[n]))
                        else:
                            ends.add(n)
        else:  # in a holding area (SSA-7.6): adjacent boxes, or onto the map at its ocean edge
            out |= {b for b in _adjacent_boxes(state, unit.location) if b not in closed}
            for ocean in _box_oceans(state, unit.location):
                mask = edges.get(ocean, np.zeros(hm.size, bool)) & enter
                comps |= {int(c) for c in np.unique(comp[mask & through])}
                ends |= {int(i) for i in np.flatnonzero(mask & zoc)}
        for c in comps:
            ends |= terminals.get(c, set())
            out |= boxes.get(c, set())
        # a mask rather than np.union1d: the same sorted indices without hashing the map
        reached = np.isin(comp, list(comps)) if comps else np.zeros(hm.size, dtype=bool)
        reached[np.fromiter(ends, dtype=np.int64)] = True
        idx = np.flatnonzero(reached)
        if unit.location.isdigit():
            idx = idx[idx != hm.index(unit.location)]
        out.discard(unit.location)
        return idx, out

    def legal(self, state: State) -> list[dict[str, Any]]:
        hm = state.map
        coastal = hm.flag("coastal")
        enemy_fleets = _enemy_fleets(state, state.decision.side)
        near_enemy = np.zeros(hm.size, dtype=bool)
        nb = hm.neighbors
        near_enemy[(np.where(nb >= 0, enemy_fleets[np.maximum(nb, 0)], False)).any(axis=1)] = True
        out = []
        labels = hm.labels_list
        wanted = coastal | near_enemy
        for u in self.movers(state):
            stack_ok = _naval_room(state, u.side)
            idx, boxes = self.reach(state, u)
            idx = idx[wanted[idx] & stack_ok[idx]]
            out += [{"kind": "sail", "unit": u.id, "to": b} for b in sorted(boxes)]
            out += [{"kind": "sail", "unit": u.id, "to": labels[i]} for i in idx.tolist()]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        uid, to = order.get("unit"), order.get("to")
        u = state.units_by_id.get(uid) if isinstance(uid, str) else None
        if u is not None and weather.naval_refusal(state, u) is not None:
            raise IllegalOrder.of(weather.naval_refusal(state, u), self.rule)
        if u is None or u not in self.movers(state):
            raise IllegalOrder(self.rule, f"{uid!r} is not one of your fleets that may still sail this phase (a fleet "
                               "stops for the phase on entering an enemy naval ZOC or a holding area, a convoy "
                               "once it has debarked its cargo)")
        idx, boxes = self.reach(state, u)
        hm = state.map
        if isinstance(to, str) and hm.has_hex(to) and not sea_arrays(state)[0][hm.index(to)]:
            raise IllegalOrder("SSA-7.4", f"{u.id} cannot sail to {to}: naval units move only on ocean or "
                               "coastal hexes, never into all-land or lake hexes or up rivers")
        if isinstance(to, str) and hm.has_hex(to) and _enemy_fleets(state, u.side)[hm.index(to)]:
            raise IllegalOrder("SSA-7.3", f"{u.id} cannot sail into {to}: it holds enemy naval units")
        if not (to in boxes or (isinstance(to, str) and hm.has_hex(to) and np.isin(hm.index(to), idx))):
            canal_rule = _canal_refusal(state, u, hm.index(to)) if isinstance(to, str) and hm.has_hex(to) else None
            if canal_rule == "SSA-7.5a":
                raise IllegalOrder(canal_rule, f"{u.id} cannot reach {to}: the way lies through the Panama Canal, "
                                   "which is open only to the side whose land units hold (or last passed through) "
                                   "both canal hexes, and never while it bears a bombing marker (SSA-12.3a)")
            if canal_rule == "SSA-7.5b":
                raise IllegalOrder(canal_rule, f"{u.id} cannot reach {to}: enemy naval units hold the coastal hex on "
                                   "the far side of the Panama Canal")
            raise IllegalOrder("SSA-8.3" if isinstance(to, str) and to.isdigit() else "SSA-7.6",
                               f"{u.id} cannot reach {to!r}: fleets sail through sea and coastal hexes, stop on "
                               "entering an enemy naval ZOC, never enter enemy fleets, and use holding areas "
                               "only beside their ocean")
        if to.isdigit() and not _naval_room(state, u.side)[state.map.index(to)]:
            raise IllegalOrder("SSA-9.3", f"{to} already holds 6 friendly naval units")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        start = u.location
        u.location = order["to"]
        u.props["sailed"] = True
        hm = state.map
        if not hm.has_hex(u.location) or naval_zoc(state, other(u.side))[hm.index(u.location)]:
            u.props["sail_done"] = True  # 7.2 (a holding area), 8.3 (enemy naval ZOC): no further
        for cargo in carried_by(state, u):
            cargo.location = u.location
        state.emit("sail", side=u.side, rule=self.rule, text=f"{u.id} sails {start} → {u.location}",
                   unit=u.id, start=start, to=u.location)


def _canal_refusal(state: State, unit: Unit, dest: int) -> str | None:
    """The rule that keeps a fleet from ``dest`` when the sea joins them only through the Panama
    Canal: "SSA-7.5a" (not controlled, or bombed) or "SSA-7.5b" (enemy fleets beyond); else None."""
    from workbench.engine.search import multi_source_reach

    hm = state.map
    navigable, _, canal = sea_arrays(state)
    if len(canal) != 2 or not unit.location.isdigit():
        return None
    water = hm.is_water
    nb = hm.neighbors
    landland = ~water[:, None] & ~water[np.maximum(nb, 0)]
    pair = np.zeros_like(landland)
    for x, y in ((canal[0], canal[1]), (canal[1], canal[0])):
        pair[x, nb[x] == y] = True
    src = [hm.index(unit.location)]
    closed = multi_source_reach(nb, navigable, src, blocked_sides=landland)
    opened = multi_source_reach(nb, navigable, src, blocked_sides=landland & ~pair)
    if not closed[dest] < 0 <= opened[dest]:
        return None
    if not canal_open(state, unit.side):
        return "SSA-7.5a"
    return "SSA-7.5b" if _enemy_fleets(state, unit.side)[canal].any() else None


def _enemy_fleets(state: State, side: str) -> np.ndarray:
    """Hexes holding enemy naval units other than submarines (SSA-7.3, 13.6)."""
    def compute() -> np.ndarray:
        hm = state.map
        out = np.zeros(hm.size, dtype=bool)
        for u in state.units_by_id.values():
            if u.side != side and u.location.isdigit() and values.domain(state, u) == "naval" \
                    and u.type != "submarine":
                out[hm.index(u.location)] = True
        return out

    return state.derived(("ssa.enemy_fleets", side), compute)


def _naval_room(state: State, side: str) -> np.ndarray:
    """SSA-9.3: at most 6 naval units a hex."""
    def compute() -> np.ndarray:
        hm = state.map
        count = np.zeros(hm.size, dtype=np.int64)
        for u in state.units_by_id.values():
            if u.side == side and u.location.isdigit() and values.domain(state, u) == "naval":
                count[hm.index(u.location)] += 1
        return count < int(state.ruleset.tables["stacking"]["naval"]["limit_per_hex"])

    return state.derived(("ssa.naval_room", side), compute)


def carried_by(state: State, convoy: Unit) -> list[Unit]:
    return [u for u in state.units_by_id.values() if u.props.get("carried") == convoy.id]


def transport_points(state: State, unit: Unit) -> Fraction:
    """SSA-7.7b: mechanized division 2, other divisions 1, air units 1 (table value per type)."""
    return Fraction(str(values.value(state, unit, "transport_points", "1")))


def capacity(state: State, convoy: Unit) -> Fraction:
    """SSA-7.7a: a full convoy carries 4 transport points, a reduced one 2."""
    key = "transport_capacity_reduced" if convoy.reduced else "transport_capacity"
    return Fraction(values.value(state, convoy, key, 0) or 0)


def _load(state: State, convoy: Unit) -> Fraction:
    return sum((transport_points(state, u) for u in carried_by(state, convoy)), Fraction(0))


class EmbarkOrder(OrderKind):
    """SSA-7.7: cargo that started the phase in the convoy's coastal hex or box goes aboard."""

    kind = "embark"
    rule = "SSA-7.7"

    def _convoys(self, state: State, leaders_only: bool = False) -> list[Unit]:
        """Own transport convoys; for leaders, every own naval unit (SSA-24.5: "any type of air or
        naval unit")."""
        side = state.decision.side
        return [u for u in state.units_by_id.values() if u.side == side
                and (u.type == "transport" or (leaders_only and values.domain(state, u) == "naval"))
                and u.location not in ("Eliminated", "unplaced", "Force pool")]

    def _cargo(self, state: State, convoy: Unit) -> list[Unit]:
        hm = state.map
        here = convoy.location
        if here.isdigit() and not hm.flag("coastal")[hm.index(here)]:
            return []
        return [u for u in state.units_by_id.values()
                if u.side == convoy.side and u.location == here and values.domain(state, u) in ("land", "air")
                and not u.props.get("carried") and not u.props.get("moved") and not u.props.get("mf_spent")
                and not u.props.get("railed") and not frozen(state, u) and not self._bound(state, u)]

    def _bound(self, state: State, unit: Unit) -> str | None:
        """SSA-18.2a-18.4: minor-country units bound to home never board (movement.toml [home_country])."""
        if state.ruleset.tables["movement"].get("home_country", {}).get("embark", True):
            return None
        return home_rule(state, unit)

    def legal(self, state: State) -> list[dict[str, Any]]:
        out = []
        for c in self._convoys(state, leaders_only=True):
            room = capacity(state, c) - _load(state, c)
            for u in self._cargo(state, c):
                if c.type != "transport" and not values.is_leader(state, u):
                    continue
                if transport_points(state, u) <= room:
                    out.append({"kind": "embark", "convoy": c.id, "units": [u.id]})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        cid, units = order.get("convoy"), order.get("units")
        convoy = state.units_by_id.get(cid) if isinstance(cid, str) else None
        if not isinstance(units, list) or not units:
            raise IllegalOrder(self.rule, "name the units to embark")
        only_leaders = all(isinstance(x, str) and x in state.units_by_id
                           and values.is_leader(state, state.unit(x)) for x in units)
        if convoy is None or convoy not in self._convoys(state, leaders_only=only_leaders):
            raise IllegalOrder(self.rule, f"{cid!r} is not one of your transport convoys"
                               + ("" if only_leaders else " (only leaders may board other naval units, SSA-24.5)"))
        eligible = {u.id for u in self._cargo(state, convoy)}
        for uid in units:
            u = state.units_by_id.get(uid) if isinstance(uid, str) else None
            if u is not None and u.side == convoy.side and self._bound(state, u):
                raise IllegalOrder(self._bound(state, u), f"{uid} may never leave its home country, so it "
                                   "may not board a convoy")
            if uid not in eligible:
                raise IllegalOrder("SSA-7.7", f"{uid} cannot embark on {cid}: cargo must be a land or air "
                                   "unit that has not moved, in the convoy's coastal hex or box")
        load = _load(state, convoy) + sum((transport_points(state, state.unit(u)) for u in units), Fraction(0))
        if load > capacity(state, convoy):
            raise IllegalOrder("SSA-7.7a", f"{cid} carries {capacity(state, convoy)} transport points; "
                               f"this cargo needs {load}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        for uid in order["units"]:
            state.unit(uid).flag("carried", order["convoy"])
        state.emit("embark", side=state.decision.side, rule=self.rule,
                   text=f"{', '.join(order['units'])} embark on {order['convoy']}",
                   convoy=order["convoy"], units=order["units"])


class DebarkOrder(OrderKind):
    """SSA-7.7c, f, g: cargo lands in a coastal hex (never among enemy land or naval units)
    or in a holding area; air units only where there is an airbase."""

    kind = "debark"
    rule = "SSA-7.7c"

    def _where_ok(self, state: State, convoy: Unit, unit: Unit) -> Refusal | None:
        here = convoy.location
        if not here.isdigit():
            return None  # into a holding area
        hm = state.map
        i = hm.index(here)
        if not hm.flag("coastal")[i]:
            return Refusal("SSA-7.7e", "cargo stays aboard at sea; it debarks only in a coastal hex or a box")
        if enemy_present(state, unit.side)[i]:
            return Refusal("SSA-7.7g", "units may not debark among enemy land or naval units"
                                       " (land units may storm ashore with an amphibious_assault order)")
        if values.domain(state, unit) == "air":
            from workbench.rulesets.ssa.air import base_refusal

            why = base_refusal(state, unit, here)
            if why is not None:
                return Refusal("SSA-7.7f", f"air units debark only in a hex with a friendly airbase with room ({why!s})")
        return None

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        out = []
        for u in state.units_by_id.values():
            if u.side == side and u.props.get("carried"):
                convoy = state.unit(u.props["carried"])
                if values.domain(state, convoy) != "naval":  # airborne troops aloft land by SSA-22.1
                    continue
                if self._where_ok(state, convoy, u) is None and not (
                        convoy.location.isdigit() and land_room(state, side, convoy.location, u) is not None):
                    out.append({"kind": "debark", "convoy": convoy.id, "units": [u.id]})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        units = order.get("units")
        if not isinstance(units, list) or not units:
            raise IllegalOrder(self.rule, "name the units to debark")
        for uid in units:
            u = state.units_by_id.get(uid)
            carrier = state.units_by_id.get(order.get("convoy")) if isinstance(order.get("convoy"), str) else None
            if u is None or u.side != state.decision.side or u.props.get("carried") != order.get("convoy") \
                    or carrier is None or values.domain(state, carrier) != "naval":
                raise IllegalOrder(self.rule, f"{uid!r} is not aboard {order.get('convoy')!r}, a naval unit")
            why = self._where_ok(state, state.unit(order["convoy"]), u)
            if why:
                raise IllegalOrder.of(why, self.rule)
        convoy = state.unit(order["convoy"])
        if convoy.location.isdigit():
            for uid in units:
                refusal = land_room(state, convoy.side, convoy.location, state.unit(uid))
                if refusal is not None:
                    raise refusal

    def execute(self, state: State, order: dict[str, Any]) -> None:
        convoy = state.unit(order["convoy"])
        for uid in order["units"]:
            u = state.unit(uid)
            u.flag("carried", None)
            u.location = convoy.location
            u.props["moved"] = state.step.path if state.step else "debarked"
            u.props["mf_spent"] = 10**6  # debarked units move no further this phase
        # 7.7: the convoy "picks the unit up, and moves them to any other port or coastal hex and
        # debarks them" -- one lift a phase: having debarked, it sails no further
        convoy.props["sail_done"] = True
        state.emit("debark", side=convoy.side, rule=self.rule,
                   text=f"{', '.join(order['units'])} debark at {convoy.location}",
                   convoy=convoy.id, units=order["units"], at=convoy.location)
