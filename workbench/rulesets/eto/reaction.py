"""Armor reaction attacks (ETO-26.5).

"Any time during an enemy Offensive phase that an enemy unit or stack vacates a
hex in the ZOC of a friendly armor unit, that armor unit can attack the enemy
unit(s) before it moves."  Orders move one unit (or one advancing group) at a
time, so (docs/rulings-eto.md, 26.5):

* the trigger is the voluntary move (offensive move, exploitation move,
  breakthrough pre-attack move, advance after combat, breakthrough movement;
  never a retreat) that leaves its start hex without land units of the
  offensive's side; units that left earlier by separate orders were "part of
  the stack" and are gone already;
* every armor unit of the other side whose ZOC covers the start hex (25.1) and
  which could attack across the hexside may react, alone or together, whether
  or not it was activated before; it attacks the moving units in the start
  hex, before they move;
* the owner of the armor is asked first (an ``armor_reaction`` interrupt:
  ``{"kind": "react", "units": [..]}`` or ``pass``); the move waits;
* the attack is normal land combat (26.1-26.4, no air, no paratroops):
  generals, terrain, weather and supply count; results apply at once (27.1);
  the reacting armor may advance and the other friendly units may make a
  secondary advance as if activated (27.4);
* afterwards the move goes on if every moving unit is still in its start hex
  and the move is still legal; a unit that retreated or was eliminated moves no
  farther (for a breakthrough, the breakthrough is spent and its attack
  cancelled, 28.4).

An order that vacates several hexes (a multi-hex advance) offers the reactions
one hex at a time; each hex is offered once per order.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import values
from workbench.rulesets.eto.zoc import can_attack_across, projects_into

RULE = "ETO-26.5"
DECLINED = "reaction/declined"


def reactors(state: State, label: str, side: str) -> list[Unit]:
    """Armor of ``side`` whose ZOC covers ``label`` and that could attack across the hexside (26.5)."""
    hm = state.map
    out = []
    for u in state.units_by_id.values():
        if u.side != side or not values.on_map(u) or values.unit_class(state, u) != "armor":
            continue
        if hm.distance(u.location, label) != 1 or not can_attack_across(state, u.location, label):
            continue
        if projects_into(state, u, label):
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def intercept(state: State, kind: str, order: dict[str, Any], units: list[Unit]) -> bool:
    """Called by a voluntary move before it changes anything.  If the move vacates a hex in the
    ZOC of enemy armor during the mover's own offensive, ask that armor's owner and defer the
    move (True).  False: go on with the move now."""
    off = state.markers.get("offensive") or {}
    movers = [u for u in units if values.on_map(u) and values.is_combat_unit(state, u)]
    if not off.get("mode") or not movers or movers[0].side != off.get("side"):
        return False
    side = movers[0].side
    enemy = values.other(side)
    offered = list(state.markers.get("reaction_offered", []))
    ids = {u.id for u in movers}
    for label in sorted({u.location for u in movers}):
        if label in offered:
            continue
        staying = [o for o in values.units_at(state, label, side)
                   if values.is_land_unit(state, o) and o.id not in ids]
        if staying:
            continue  # only part of the stack leaves: no reaction (26.5)
        armor = reactors(state, label, enemy)
        if not armor:
            continue
        here = sorted(u.id for u in movers if u.location == label)
        state.push_interrupt(
            "armor_reaction", enemy, RULE,
            f"{', '.join(here)} leave {label} in the ZOC of your armor: armor reaction attack?",
            ["react", "pass"], on_pass=DECLINED, hex=label, units=here,
            deferred={"kind": kind, "order": order}, offered=offered + [label])
        state.emit("reaction_offered", side=enemy, rule=RULE,
                   text=f"{', '.join(here)} vacate {label}: {', '.join(u.id for u in armor)} may react",
                   hex=label, units=here, armor=[u.id for u in armor])
        return True
    return False


def declined(state: State, f: dict[str, Any]) -> None:
    """``pass`` on the interrupt: the move goes on."""
    data = f["data"]
    resume(state, data["deferred"], data["units"], data["hex"], data["offered"])


def after(state: State, c: dict[str, Any]) -> None:
    """The reaction combat is over: restore any combat it interrupted, then go on with the move
    (26.5: a unit that retreated moves no farther)."""
    r = c["reaction"]
    if r.get("outer") is not None:
        state.markers["combat"] = r["outer"]
    resume(state, r["deferred"], r["units"], r["hex"], r["offered"])


def resume(state: State, deferred: dict[str, Any], ids: list[str], label: str, offered: list[str]) -> None:
    order = dict(deferred["order"])
    kind = deferred["kind"]
    here = [u for u in ids if values.on_map(state.unit(u)) and state.unit(u).location == label]
    gone = [u for u in ids if u not in here]
    if "units" in order:
        order["units"] = [u for u in order["units"] if u not in gone]
    if gone and kind == "breakthrough":
        halt(state, kind, deferred["order"], ids)  # the stack must stay together (28.0)
        return
    if gone:
        halt(state, kind, deferred["order"], gone)
    if ("units" in order and not order["units"]) or ("unit" in order and order["unit"] in gone):
        return
    handler = state.ruleset.order_kinds[kind]
    state.markers["reaction_offered"] = offered
    try:
        try:
            handler.check(state, order)
        except IllegalOrder as exc:
            state.emit("reaction_halt", rule=RULE, text=f"the interrupted {kind} is no longer legal: {exc}",
                       units=here)
            halt(state, kind, order, here)
            return
        handler.execute(state, order)
    finally:
        state.markers.pop("reaction_offered", None)


def halt(state: State, kind: str, order: dict[str, Any], ids: list[str]) -> None:
    """Units whose move was stopped by the reaction move no farther this step (26.5)."""
    state.emit("reaction_halt", rule=RULE, text=f"{', '.join(ids)} move no farther", units=ids)
    if kind == "move":
        for u in ids:
            if values.on_map(state.unit(u)):
                state.unit(u).props["moved"] = True
    elif kind == "advance":
        c = state.markers.get("combat")
        if c is not None:
            c.setdefault("halted", []).extend(ids)
    elif kind == "bt_move":
        f = state.frames[-1]
        if f.get("interrupt") == "bt_move":
            for u in ids:
                if u in f["data"]["pending"]:
                    f["data"]["pending"].remove(u)
            if not f["data"]["pending"]:
                state.pop_interrupt()
    elif kind == "breakthrough":
        off = values.offensive(state)
        off["bt_done"] = int(off.get("bt_done", 0)) + 1  # the breakthrough is spent
        for u in order.get("units", []):
            unit = state.unit(u)
            unit.props["bt_done"] = True
            if values.on_map(unit):
                unit.props["must_attack"] = order["target"]  # 28.4: cancelled before the roll
        state.emit("cancelled", rule="ETO-28.4", text=f"breakthrough attack on {order['target']} cancelled",
                   target=order["target"])
