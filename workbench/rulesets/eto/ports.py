"""Ports: which hexes and boxes are ports, their capacity, who may enter (ETO-7.7, 7.8).

A port is an area inside its coastal hex: a ship in the hex is either in the port
(``props["in_port"]``) or outside it, at sea.  Ports are the map's ``port`` column (minor: 10
naval units, major: 20; an STP stack counts as one, 10.3) and the port boxes (the US, Canada,
Capetown and India boxes: unlimited; the Iraq transit box: 10).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import naval_units, sea_spaces, values, weather
from workbench.rulesets.eto.control import ENTRY_HOOKS, SIDE_CODE, control

RULE = "ETO-7.7"
PORT_BOXES = ("US box", "Canada box", "Capetown box", "India box", "Iraq transit box")


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["naval_movement"]["ports"]


def size(state: State, space: str) -> str | None:
    """"minor", "major", "box" (unlimited) or "iraq" for a port; None elsewhere."""
    if space in PORT_BOXES:
        return "iraq" if space == "Iraq transit box" else "box"
    if not values.on_map_label(space):
        return None
    p = state.map.hexes["port"][state.map.index(space)]
    return str(p) if p in ("minor", "major") else None


def capacity(state: State, space: str) -> int | None:
    """ETO-7.7/7.8: naval units the port holds (None: unlimited)."""
    s = size(state, space)
    return {"minor": int(table(state)["minor"]), "major": int(table(state)["major"]),
            "iraq": int(table(state)["iraq_transit"])}.get(s or "")


def in_port(state: State, side: str, space: str) -> list[Unit]:
    return [u for u in naval_units.naval_units(state, side, space) if naval_units.in_port(u)]


def destroyed(state: State, space: str) -> bool:
    """ETO-21.5, 27.6: a hex with a Destroyed installation marker "cannot be used as an airbase,
    port, or fortification until the installation is repaired"."""
    return space in state.markers.get("destroyed", {})


def friendly(state: State, side: str, space: str) -> bool:
    """A port of the side (partner ports count, 7.7: "may base in partner ports"); a destroyed
    port serves no one until repaired (21.5)."""
    if space in PORT_BOXES:
        return side == "allies"
    return values.on_map_label(space) and control(state)[state.map.index(space)] == SIDE_CODE[side] \
        and not destroyed(state, space)


def london_ok(state: State, side: str, space: str) -> bool:
    """ETO-7.8: London is a port only for a side that also controls Harwich and Dover."""
    hm = state.map
    try:
        if space != hm.hex_of("London"):
            return True
        return all(control(state)[hm.index(hm.hex_of(p))] == SIDE_CODE[side] for p in table(state)["london_needs"])
    except KeyError:
        return True


def enter_why_not(state: State, side: str, units: list[Unit], space: str) -> Refusal | None:
    """ETO-7.7/7.8: may ``units`` enter the port at ``space`` now."""
    if size(state, space) is None:
        return Refusal(RULE, f"{space} has no port")
    if destroyed(state, space):
        return Refusal("ETO-21.5", f"the port at {space} is destroyed: it cannot be used as a port until repaired")
    if space in weather.icebound_ports(state):
        return Refusal("ETO-7.8", f"{space} is icebound: naval units cannot enter or leave it")
    if not london_ok(state, side, space):
        return Refusal("ETO-7.8", "London is a port only for the side that also controls Harwich and Dover")
    if space in PORT_BOXES:
        why = box_why_not(state, side, units, space)
        if why:
            return why
    if not friendly(state, side, space):
        heavy = [u for u in in_port(state, values.other(side), space) if naval_units.kind(state, u) in ("BB", "CA")]
        if heavy:
            return Refusal(RULE, f"naval units may not enter an enemy port holding a BB or CA ({heavy[0].id})")
    cap = capacity(state, space)
    if cap is not None:
        now = naval_units.unit_count(state, in_port(state, side, space))
        adding = naval_units.unit_count(state, [u for u in units if not naval_units.in_port(u) or u.location != space])
        if now + adding > cap:
            return Refusal(RULE, f"the port at {space} holds {cap} naval units; {now} are there")
    return None


def box_why_not(state: State, side: str, units: list[Unit], box: str) -> Refusal | None:
    """ETO-7.8: the US box is Allied once the US is at war; the Canada, Capetown and India boxes
    serve the UK and its partners; the Iraq box the UK alone, while it holds an Iraq edge hex;
    the Axis enters none of them (``tables/naval_movement.toml [boxes]``)."""
    if not sea_spaces.box_open(state, side, box):
        if side == "axis":
            return Refusal("ETO-7.8", f"the Axis never enters the {box}")
        if box == "US box":
            return Refusal("ETO-7.8", "the US box is usable only once the US is at war")
        return Refusal("ETO-7.8", f"the {box} cannot be used now: the UK holds no Iraq hex at the map edge")
    for u in units:
        if not sea_spaces.box_nation_ok(state, box, u.nation):
            who = "the UK" if box == "Iraq transit box" else "the UK and its partners"
            return Refusal("ETO-7.8", f"{u.id} ({u.nation}) cannot enter the {box}: it serves {who} only")
    return None


def enemy_ships_in_port(state: State, side: str, space: str) -> list[Unit]:
    """ETO-7.7: entering a port with enemy DD, CV, CL or STPs means a naval battle there."""
    return [u for u in in_port(state, values.other(side), space)
            if naval_units.kind(state, u) in ("DD", "CV", "CL", "STP", "CVE", "DE")]


def on_land_entry(state: State, unit: Unit, labels: list[str]) -> None:
    """ETO-7.7: "Enemy land unit in port hex -> port enemy-controlled instantly; friendly ships in
    it are outside port in the hex"; 7.8: capturing an icebound port sinks the enemy ships there."""
    if not naval_units.in_play(state) or not values.is_land_unit(state, unit):
        return
    icebound = weather.icebound_ports(state)
    for label in labels:
        if size(state, label) is None:
            continue
        for ship in in_port(state, values.other(unit.side), label):
            if label in icebound:
                naval_units.sink(state, ship, "ETO-7.8", f" in icebound {label}, taken by {unit.id}")
            else:
                ship.props.pop("in_port", None)
                state.emit("port_lost", side=ship.side, rule=RULE, at=label, unit=ship.id,
                           text=f"{unit.id} takes the port at {label}: {ship.id} is now outside the port")


if on_land_entry not in ENTRY_HOOKS:
    ENTRY_HOOKS.append(on_land_entry)


def evacuate_closed_boxes(state: State, *_: Any) -> list[str]:
    """ETO-7.8: "If this condition cannot be met, the UK player must evacuate the [Iraq] box and
    cannot use it again until he regains an edge hex."  At the end of the Naval and Air phase
    (the UK's chance to sail, lift and fly out), a side's ships still in a port box it may no
    longer use (``edge_control`` in ``tables/naval_movement.toml [boxes]``) are put out into the
    box's sea space with whatever they carry; its land and air units left there, with no ship to
    carry them, are eliminated (ruling in docs/rulings-eto.md)."""
    from workbench.rulesets.eto import air_units, losses

    moved: list[str] = []
    if not naval_units.in_play(state):
        return moved
    for box in PORT_BOXES:
        if box not in state.map.boxes or not sea_spaces.box_rules(state, box).get("edge_control"):
            continue
        sea = [x for x in state.map.boxes[box].links if x in state.map.sea_areas]
        for side in ("axis", "allies"):
            here = [u for u in state.units_by_id.values() if u.location == box and u.side == side]
            if not here or sea_spaces.box_open(state, side, box):
                continue
            for u in sorted(here, key=lambda x: x.id):
                if naval_units.is_naval(state, u) and sea:
                    u.location = sea[0]
                    u.props.pop("in_port", None)
                    moved.append(u.id)
                    state.emit("evacuated", side=side, rule="ETO-7.8", at=sea[0],
                               text=f"{u.id} must evacuate the {box}: put out into the {sea[0]}")
                elif air_units.is_air(state, u):
                    air_units.eliminate(state, u, "ETO-7.8", f": left in the {box} when it had to be evacuated")
                else:
                    losses.eliminate(state, u, "ETO-7.8", f": left in the {box} when it had to be evacuated",
                                     box=values.FORCE_POOL)
    return moved
