"""Sea supply: supply markers made in a port, carried by STPs or DD/CL pairs, landed in ports
without a land supply line (ETO-32.4, 32.5, 10.5).

``{"kind": "load_supply", "carriers": [ids], "markers": n, "from": hex?}`` in the friendly first naval
movement step: the carriers stand in a friendly port with a land supply line to a source of
their nation (32.5), or convert markers standing in another port linked to theirs by a land
supply line (``from``: those are used up, 32.5); each marker needs one STP or one DD/CL pair (10.2, 10.8) and is kept on the
lead carrier (``props["supply_aboard"]``).  The markers sail with it.  In Step 5 of the Naval and
Air phase (supply debarkation, 10.5) every carrier in a friendly port that has no land supply
line to a city resource source (32.4) lands its markers there, up to the port's marker capacity
(minor 1, city resource minor 2, major 3, city resource major 4); they then supply like any
marker (:func:`supply.marker_supply`).  A ship carrying markers may not enter a port already
holding its capacity of markers, landed or aboard (32.5: :func:`entry_why_not`).  Capacities: ``tables/naval_movement.toml [supply_ports]``.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import naval_units, ports, sea_spaces, sea_transport, supply, values
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-32.5"


def aboard(u: Unit) -> int:
    return int(u.props.get("supply_aboard", 0))


def port_capacity(state: State, label: str) -> int:
    """ETO-32.4: supply markers a port holds (minor 1, city resource minor 2, major 3, city
    resource major 4)."""
    t = state.ruleset.tables["naval_movement"]["supply_ports"]
    size = ports.size(state, label)
    if size not in ("minor", "major"):
        return 0
    cr = bool(terrain_arrays(state).city_resource[state.map.index(label)])
    return int(t[f"{'city_resource_' if cr else ''}{size}"])


def markers_at(state: State, label: str) -> int:
    m = state.markers.get("supply_markers", {}).get(label) or {}
    return int(m.get("markers", 0))


def land_line(state: State, nation: str, side: str, label: str) -> bool:
    """A land supply line from the port to a (permanent) source of the nation (32.3, 32.5)."""
    return bool(values.on_map_label(label)) and supply.reach(state, nation, side)[state.map.index(label)] >= 0


def linked(state: State, side: str, a: str, b: str) -> bool:
    """ETO-32.5: a land supply line joins hexes ``a`` and ``b`` (32.3's rules, for ``side``)."""
    from workbench.engine.search import multi_source_reach

    hm = state.map
    if not (values.on_map_label(a) and values.on_map_label(b)):
        return False
    dist = multi_source_reach(hm.neighbors, supply.passable(state, side) | _ends(state, a, b),
                              [hm.index(a)], blocked_sides=~supply.crossable_sides(state))
    return bool(dist[hm.index(b)] >= 0)


def _ends(state: State, a: str, b: str) -> Any:
    import numpy as np

    out = np.zeros(state.map.size, dtype=bool)
    out[[state.map.index(a), state.map.index(b)]] = True
    return out


def aboard_in_port(state: State, side: str, label: str) -> int:
    """Supply markers still aboard ``side``'s ships in the port of ``label``."""
    return sum(aboard(c) for c in naval_units.naval_units(state, side, label) if naval_units.in_port(c))


def entry_why_not(state: State, side: str, units: list[Unit], port: str) -> Refusal | None:
    """ETO-32.5: "An STP carrying a supply marker cannot enter a port if that port already contains
    its maximum capacity of supply markers, regardless of whether those markers are debarked or
    still aboard transports"."""
    if not any(aboard(u) for u in units):
        return None
    held = markers_at(state, port) + aboard_in_port(state, side, port)
    cap = port_capacity(state, port)
    if held >= cap:
        return Refusal(RULE, f"{port} already holds its {cap} supply marker(s) (landed or aboard): a ship "
                             "carrying a supply marker cannot enter it")
    return None


def _box_why_not(state: State, nation: str, box: str) -> Refusal | None:
    """ETO-7.8/32.2: the Canada, Capetown and India boxes "can generate UK supply markers", the
    US box US and UK ones once the US is at war; the Iraq box "cannot generate supply markers"
    (``supply_for`` in ``tables/naval_movement.toml [boxes]``)."""
    who = sea_spaces.box_rules(state, box).get("supply_for", [])
    if not who:
        return Refusal("ETO-7.8", f"the {box} cannot generate supply markers")
    if nation not in who:
        return Refusal("ETO-7.8", f"the {box} generates supply markers for {' and '.join(who)} only, not {nation}")
    return None


def load_why_not(state: State, side: str, carriers: list[Unit], n: int, source: str | None = None) -> Refusal | None:
    """ETO-32.5: markers embark in a friendly port with a land supply line to a source, or are
    converted from ``n`` supply markers at ``source``, a port the loading port is linked to by a
    land supply line (the old markers are used up); one STP or DD/CL pair per marker, on top of
    what the carriers already lift (10.1)."""
    if n < 1:
        return Refusal(RULE, "load at least one supply marker")
    if not carriers or len({c.location for c in carriers}) != 1:
        return Refusal(RULE, "the carriers must be together in one port")
    at = carriers[0].location
    for c in carriers:
        if c.side != side or not (naval_units.is_stp(state, c) or naval_units.kind(state, c) in ("DD", "CL")):
            return Refusal(RULE, f"{c.id} is not a friendly STP marker, DD or CL")
        if naval_units.is_stp(state, c) and c.props.get("stp_task") == state.turn_label:
            return Refusal("ETO-10.0", f"{c.id} already did a task this monthly turn")
    if at in ports.PORT_BOXES:
        why = _box_why_not(state, carriers[0].nation, at)
        if why:
            return why
    elif not ports.friendly(state, side, at) or ports.size(state, at) not in ("minor", "major"):
        return Refusal(RULE, f"supply markers embark in a friendly port; {at} is not one")
    if source is not None:
        if source == at:
            return Refusal(RULE, "a marker is converted into a marker at another port, not its own")
        rec = state.markers.get("supply_markers", {}).get(source) or {}
        sea = markers_at(state, source) - int(rec.get("air", 0))
        if rec.get("side") != side or markers_at(state, source) < n:
            return Refusal(RULE, f"{source} holds no {n} supply marker(s) of yours to convert")
        if sea < n:
            return Refusal(RULE, "air supply markers can never be converted to supply markers")
        if not linked(state, side, source, at):
            return Refusal(RULE, f"no land supply line joins {source} and {at}: its marker cannot be converted there")
    elif at not in ports.PORT_BOXES and not land_line(state, carriers[0].nation, side, at):
        return Refusal(RULE, f"{at} has no land supply line to a supply source")
    lift = sea_transport.lift(state, sea_transport.carriers_at(state, side, at))
    need = sea_transport.needed_in(state, side, at) + n
    if need > lift:
        return Refusal("ETO-10.2", f"{n} supply marker(s) need {n} STP(s) besides the cargo already aboard; "
                                   f"the ships at {at} lift {lift}")
    return None


def debark_supply(state: State, *_: Any) -> None:
    """ETO-10.5 / 32.4 (Naval and Air Step 5): carriers in a friendly port without a land supply
    line land their supply markers there, up to the port's capacity; the rest stay aboard."""
    marks = state.markers.setdefault("supply_markers", {})
    for c in sorted(naval_units.naval_units(state), key=lambda u: u.id):
        n = aboard(c)
        if not n or not naval_units.in_port(c) or not ports.friendly(state, c.side, c.location):
            continue
        at = c.location
        if land_line(state, c.nation, c.side, at):
            state.emit("supply_not_landed", side=c.side, rule="ETO-32.4", hex=at,
                       text=f"{c.id} keeps its supply markers aboard: {at} has a land supply line already")
            continue
        room = port_capacity(state, at) - markers_at(state, at)
        k = max(0, min(n, room))
        if not k:
            continue
        rec = marks.setdefault(at, {"side": c.side, "markers": 0})
        rec["side"] = c.side
        rec["markers"] = int(rec.get("markers", 0)) + k
        if c.nation == state.ruleset.tables["politics"]["stp_restrictions"]["italian"]:
            rec["italian"] = int(rec.get("italian", 0)) + k  # 46.2: they feed a German unit at half capacity
        c.props["supply_aboard"] = n - k
        if not c.props["supply_aboard"]:
            c.props.pop("supply_aboard")
        state.emit("supply_landed", side=c.side, rule="ETO-10.5", hex=at,
                   text=f"{c.id} lands {k} supply marker(s) at {at} ({rec['markers']} there)")


class LoadSupplyOrder(OrderKind):
    """``{"kind": "load_supply", "carriers": [ids], "markers": n}`` (ETO-32.5)."""

    kind = "load_supply"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def _carriers(self, state: State, order: dict[str, Any]) -> list[Unit]:
        ids = order.get("carriers")
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i in state.units_by_id for i in ids):
            raise IllegalOrder(self.rule, "carriers is a list of STP, DD or CL ids")
        return [state.units_by_id[i] for i in ids]

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        out = []
        spaces = {c.location for c in naval_units.naval_units(state, d.side) if naval_units.in_port(c)}
        marks = {h: r for h, r in state.markers.get("supply_markers", {}).items()
                 if (r or {}).get("side") == d.side and int((r or {}).get("markers", 0)) > 0}
        for at in sorted(spaces):
            cs = [c for c in sea_transport.carriers_at(state, d.side, at) if naval_units.is_stp(state, c)]
            if not cs:
                continue
            if load_why_not(state, d.side, cs, 1) is None:
                out.append({"kind": self.kind, "carriers": [c.id for c in cs], "markers": 1})
            else:  # 32.5: a marker elsewhere, linked by land, may be converted here
                out += [{"kind": self.kind, "carriers": [c.id for c in cs], "markers": 1, "from": h}
                        for h in sorted(marks) if load_why_not(state, d.side, cs, 1, h) is None]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        n = order.get("markers", 1)
        if not isinstance(n, int):
            raise IllegalOrder(self.rule, "markers is a whole number")
        source = order.get("from")
        if source is not None and not isinstance(source, str):
            raise IllegalOrder(self.rule, "from is the hex label of the port holding the marker to convert")
        refuse(load_why_not(state, d.side if d else "", self._carriers(state, order), n, source))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        cs = self._carriers(state, order)
        n = int(order.get("markers", 1))
        source = order.get("from")
        if source is not None:  # 32.5: "doing so consumes the first marker"
            rec = state.markers["supply_markers"][source]
            rec["markers"] = int(rec["markers"]) - n
            if rec["markers"] <= 0:
                state.markers["supply_markers"].pop(source)
            state.emit("supply_converted", side=cs[0].side, rule=self.rule, hex=source,
                       text=f"{n} supply marker(s) at {source} converted into marker(s) at {cs[0].location}")
        cs[0].props["supply_aboard"] = aboard(cs[0]) + n
        for c in cs:
            if naval_units.is_stp(state, c):
                c.props["stp_task"] = state.turn_label
        state.emit("supply_loaded", side=cs[0].side, rule=self.rule, hex=cs[0].location,
                   text=f"{n} supply marker(s) made at {cs[0].location} and loaded on {', '.join(c.id for c in cs)}")


class RemoveMarkersOrder(OrderKind):
    """``{"kind": "remove_supply_markers", "hex": h}``: "A player can remove his own, unwanted supply
    markers from the map at any time" (ETO-32.4)."""

    kind = "remove_supply_markers"
    rule = "ETO-32.4"

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        return [{"kind": self.kind, "hex": h} for h, m in sorted(state.markers.get("supply_markers", {}).items())
                if m.get("side") == d.side and int(m.get("markers", 0)) > 0]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        m = state.markers.get("supply_markers", {}).get(order.get("hex")) if isinstance(order.get("hex"), str) else None
        if d is None or not m or m.get("side") != d.side or int(m.get("markers", 0)) <= 0:
            raise IllegalOrder(self.rule, f"no supply marker of yours at {order.get('hex')!r}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        m = state.markers["supply_markers"].pop(order["hex"])
        state.emit("supply_markers_removed", side=state.decision.side, rule=self.rule, hex=order["hex"],
                   text=f"{m.get('markers')} supply marker(s) removed from {order['hex']}")
