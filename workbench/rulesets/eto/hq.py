"""Army group headquarters (ETO-23.0-23.6): intervals, placement, offensive moves.

* 23.1: an HQ in the force pool is placed in any seasonal Construction phase
  on any friendly hex (in enemy ZOC only on a friendly unit); the
  ``place_hq`` order also returns generals from the force pool (27.5), onto a
  hex holding a land unit of their nation (authored).
* 23.2: an activated HQ moves up to 3 hexes at Step 1-B and again at 3-C,
  ignoring weather, entering enemy ZOC only where a friendly land unit is.
* 23.4: never closer to another friendly HQ than the larger command radius,
  unless an all-sea hex or hexside lies between (read here as: the straight
  hex line between them crosses an all-sea hex, authored).
* 23.5: a unit type with ``location_limit`` (the "Africa" HQs, ``hq_africa``)
  is placed, moved and railed only inside its region of ``tables/hq_regions.toml``
  (French Morocco eastward to Lebanon-Syria, Iraq and Persia); it still commands
  units outside.  The region's ``boxes`` are allowed to its ``box_types`` only: the UK
  "Middle East" HQ (``hq_me``) may also stand in the Iraq transit box.
* 24.1: units in a transit box are in range of any HQ in the box or in the box's
  ``command_country`` (terrain.toml ``[transit_boxes]``), and an HQ in the box commands units in
  the box and anywhere in that country, but not beyond (:func:`in_radius`).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import sea_transport, values
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.hq_limits import (  # noqa: F401 - the HQ limits, here and for callers
    box_allows_hq,
    interval_violations,
    region_mask,
    region_why_not,
    sea_between,
)
from workbench.rulesets.eto.losses import FORCE_POOL, _clear
from workbench.rulesets.eto.movement import (
    Walker,
    box_move_why_not,
    box_paths,
    land_occupied_by,
    transit_box,
)
from workbench.rulesets.eto.zoc import zoc


def in_radius(state: State, hq: Unit, label: str) -> bool:
    """Is ``label`` within the HQ's command radius (22.1)?  24.1 transit boxes: a unit in the box
    is in range of an HQ in the box or in the box's ``command_country``; an HQ in the box reaches
    the box and that country only."""
    hm = state.map
    hbox, lbox = transit_box(state, hq.location), transit_box(state, label)
    if hbox is not None or lbox is not None:
        if hbox is not None and lbox is not None:
            return hq.location == label
        from workbench.rulesets.eto.terrain import terrain_arrays

        country = terrain_arrays(state).country
        box, at = (hbox, label) if hbox is not None else (lbox, hq.location)
        return bool(hm.has_hex(at) and country[hm.index(at)] == box.get("command_country"))
    if not (hm.has_hex(hq.location) and hm.has_hex(label)):
        return False
    return int(hm.grid.distance(hm.index(hq.location), hm.index(label))) <= values.command_radius(state, hq)


def active_hq_reaches(state: State, side: str, label: str) -> bool:
    """ETO-10.5/22.1: ``label`` is within the command radius of an HQ active in ``side``'s
    current offensive (an air unit aboard may debark there during the offensive)."""
    off = state.markers.get("offensive") or {}
    if off.get("side") != side:
        return False
    return any(in_radius(state, state.unit(h), label) for h in off.get("hqs", []) if h in state.units_by_id)


if active_hq_reaches not in sea_transport.HQ_REACH:
    sea_transport.HQ_REACH.append(active_hq_reaches)


class MoveHQOrder(OrderKind):
    """``{"kind": "move_hq", "hq": id, "path": [...]}``: ETO-23.2, up to 3 hexes at 1-B and 3-C."""

    kind = "move_hq"
    rule = "ETO-23.2"

    def movers(self, state: State) -> list[Unit]:
        off = state.markers.get("offensive") or {}
        key = state.step.key if state.step else ""
        return [state.unit(h) for h in off.get("hqs", [])
                if (values.on_map(state.unit(h)) or transit_box(state, state.unit(h).location))
                and state.unit(h).props.get("hq_moved") != key]

    def legal(self, state: State) -> list[dict[str, Any]]:
        hm = state.map
        out = []
        for hq in self.movers(state):
            reach = Walker(state, hq, "hq").reach() if values.on_map(hq) else {}
            for b, path in sorted(reach.items()):
                if not interval_violations(state, hq, hm.label(b)):
                    out.append({"kind": "move_hq", "hq": hq.id, "path": [hm.label(i) for i in path]})
            for p in box_paths(state, hq, "hq", reach):  # 24.1 / 23.5: the Middle East HQ's box
                if not interval_violations(state, hq, p[-1]):
                    out.append({"kind": "move_hq", "hq": hq.id, "path": p})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        hid, path = order.get("hq"), order.get("path")
        movers = {h.id for h in self.movers(state)}
        if hid not in movers:
            raise IllegalOrder(self.rule, f"{hid!r} is not an activated HQ that may still move this step")
        hq = state.unit(hid)
        if not isinstance(path, list) or not path:
            raise IllegalOrder(self.rule, "an HQ move needs a path of hex labels")
        if transit_box(state, hq.location) or (isinstance(path[-1], str) and transit_box(state, path[-1])):
            why = box_move_why_not(state, hq, "hq", path)  # 24.1, 23.5
        elif not all(isinstance(h, str) and state.map.has_hex(h) for h in path):
            raise IllegalOrder(self.rule, "an HQ move needs a path of hex labels")
        else:
            why = Walker(state, hq, "hq").why_not([state.map.index(h) for h in path])
        if why:
            raise IllegalOrder.of(why, self.rule)
        bad = interval_violations(state, hq, path[-1])
        if bad:
            raise IllegalOrder("ETO-23.4", f"HQ {hid} may not end within {bad}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        hq = state.unit(order["hq"])
        start = hq.location
        hq.location = order["path"][-1]
        hq.props["hq_moved"] = state.step.key
        state.emit("move_hq", side=hq.side, rule=self.rule, text=f"HQ {hq.id} moves {start} → {hq.location}",
                   unit=hq.id, start=start, path=order["path"])


class RemoveHQOrder(OrderKind):
    """``{"kind": "remove_hq", "hq": id}``: ETO-23.1 "A player can remove one (or more) of his HQs
    from the map at any time he desires, placing it into his force pool" -- offered in the owner's
    Command steps, Movement phase and Construction phase (ruling: the times the choice matters),
    never for the HQ of the offensive in progress."""

    kind = "remove_hq"
    rule = "ETO-23.1"

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        busy = set((state.markers.get("offensive") or {}).get("hqs", []))
        return [{"kind": "remove_hq", "hq": u.id} for u in sorted(state.units_by_id.values(), key=lambda u: u.id)
                if u.side == side and values.unit_class(state, u) == "hq" and u.id not in busy
                and u.location != FORCE_POOL and (values.on_map(u) or transit_box(state, u.location))]

    def check(self, state: State, order: dict[str, Any]) -> None:
        if order not in self.legal(state):
            raise IllegalOrder(self.rule, f"{order.get('hq')!r} is not an HQ of yours on the map outside the "
                               "offensive in progress")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        hq = state.unit(order["hq"])
        start = hq.location
        hq.location = FORCE_POOL
        _clear(hq)
        state.emit("hq_removed", side=hq.side, rule=self.rule, text=f"HQ {hq.id} removed to the force pool",
                   unit=hq.id, at=start)


class PlaceHQOrder(OrderKind):
    """``{"kind": "place_hq", "unit": id, "at": hex}``: ETO-23.1 (HQs) and 27.5 (generals)."""

    kind = "place_hq"
    rule = "ETO-23.1"

    def pool(self, state: State, side: str) -> list[Unit]:
        return [u for u in state.units_by_id.values() if u.side == side and u.location == FORCE_POOL
                and values.unit_class(state, u) in ("hq", "general")]

    def where(self, state: State, unit: Unit) -> list[str]:
        """Legal hexes, listed among hexes holding friendly land units (any friendly hex is accepted)."""
        hm = state.map
        labels = sorted({u.location for u in state.units_by_id.values()
                         if u.side == unit.side and values.on_map(u) and values.is_combat_unit(state, u)
                         and (values.unit_class(state, unit) == "hq" or u.nation == unit.nation)})
        return [h for h in labels if self._why_not(state, unit, h) is None and hm.has_hex(h)]

    def _why_not(self, state: State, unit: Unit, at: str) -> Refusal | None:
        hm = state.map
        if not hm.has_hex(at):
            return Refusal("ETO-23.1", f"no hex {at!r}")
        i = hm.index(at)
        if control(state)[i] != SIDE_CODE[unit.side]:
            return Refusal("ETO-23.1", f"{at} is not a friendly hex")
        friend = land_occupied_by(state, unit.side)[i]
        if zoc(state, values.other(unit.side))[i] and not friend:
            return Refusal("ETO-23.1", f"{at} is in enemy ZOC and holds no friendly unit")
        if values.unit_class(state, unit) == "hq":
            bad = interval_violations(state, unit, at)
            if bad:
                return Refusal("ETO-23.4", f"{at} is within {bad}")
            outside = region_why_not(state, unit, at)
            if outside:
                return outside
        elif not any(u.nation == unit.nation and values.is_combat_unit(state, u)
                     for u in values.units_at(state, at, unit.side)):
            return Refusal("ETO-27.5", f"general {unit.id} must be placed with a land unit of his nation (authored)")
        return None

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        out = []
        for u in sorted(self.pool(state, side), key=lambda u: u.id):
            out += [{"kind": "place_hq", "unit": u.id, "at": h} for h in self.where(state, u)]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        u = state.units_by_id.get(order.get("unit", ""))
        if u is None or u not in self.pool(state, side):
            raise IllegalOrder(self.rule, f"{order.get('unit')!r} is not an HQ or general of yours in the force pool")
        why = self._why_not(state, u, str(order.get("at", "")))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        u = state.unit(order["unit"])
        u.location = order["at"]
        u.props.pop("pool_of", None)
        state.emit("place", side=u.side, rule=self.rule, text=f"{u.id} placed at {u.location}", unit=u.id,
                   at=u.location)
