"""Retreats (ETO-27.3), chosen by the defender unit by unit (the stack may split).

A retreat path of N hexes must (27.3):

* end N hexes from the combat hex, each hex one farther than the last;
* never enter a hex or cross a hexside the unit could not (24.1) nor a hex
  holding enemy units;
* not pass through enemy ZOC unless the hex is forest or holds a friendly land
  unit, partisan (45.6) or fortification;
* end closer to the unit's supply source than the combat hex, when the unit
  was in supply at the moment of combat; otherwise, end in supply if it can;
* avoid hexes adjacent to enemy units when some path does;
* not end overstacked: the unit then retreats one (or more) hexes farther.

A unit with no such path is eliminated.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import cooperation, stacking, supply, values
from workbench.rulesets.eto.control import pass_through
from workbench.rulesets.eto.movement import can_enter_basic, land_occupied_by, occupied_by
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.zoc import zoc

MAX_EXTRA = 2  # further hexes a unit may need to avoid ending overstacked


def paths(state: State, unit: Unit, origin: str, n: int, was_supplied: bool) -> list[list[str]]:
    """Every legal retreat path (labels) of ``unit`` from ``origin`` (27.3)."""
    hm = state.map
    ta = terrain_arrays(state)
    side = unit.side
    enemy = values.other(side)
    ez = zoc(state, enemy)
    enemy_here = occupied_by(state, enemy)
    closed = cooperation.closed_to(state, unit)  # 42.5: not through the other partnership's hexes
    if closed is not None:
        enemy_here = enemy_here | closed
    friend = land_occupied_by(state, side)
    forts = {h for h, f in state.markers.get("forts", {}).items() if f.get("side") == side}
    o = hm.index(origin)
    enemy_adj = set()
    for u in state.units_by_id.values():
        if u.side == enemy and values.on_map(u) and values.is_land_unit(state, u):
            i = hm.index(u.location)
            enemy_adj |= {int(j) for j in hm.neighbors[i] if j >= 0}
    sreach = supply.reach(state, unit.nation, side)

    def ok_hex(a: int, d: int, b: int) -> bool:
        if enemy_here[b] or not can_enter_basic(state, unit, a, d, b):
            return False
        return not ez[b] or bool(ta.forest[b] or friend[b] or hm.label(b) in forts)

    found: list[list[int]] = []

    def walk(a: int, depth: int, acc: list[int], length: int, into: list[list[int]]) -> None:
        if depth == length:
            into.append(list(acc))
            return
        if depth >= n and stacking.fits(state, hm.label(a), side, [unit]):
            return  # 27.3: an additional hex only where ending would overstack the unit
        for d in range(6):
            b = int(hm.neighbors[a, d])
            if b < 0 or int(hm.grid.distance(o, b)) != depth + 1 or not ok_hex(a, d, b):
                continue
            walk(b, depth + 1, acc + [b], length, into)

    for length in range(n, n + MAX_EXTRA + 1):
        found = []
        walk(o, 0, [], length, found)
        found = [p for p in found if stacking.fits(state, hm.label(p[-1]), side, [unit])]
        if was_supplied and sreach[o] >= 0:
            found = [p for p in found if 0 <= sreach[p[-1]] < sreach[o]]
        else:
            supplied = [p for p in found if sreach[p[-1]] >= 0]
            found = supplied or found
        if found:
            break
    calm = [p for p in found if not any(h in enemy_adj for h in p)]
    found = calm or found
    return [[hm.label(h) for h in p] for p in found]


def start(state: State, c: dict[str, Any], pending: dict[str, int]) -> bool:
    """Eliminate units with no retreat; ask the defender for the rest.  True if asked."""
    from workbench.rulesets.eto.losses import eliminate

    sup = c.setdefault("dfn_supplied", {})
    left = {}
    for uid, n in sorted(pending.items()):
        u = state.unit(uid)
        if not paths(state, u, c["target"], n, sup.get(uid, True)):
            eliminate(state, u, "ETO-27.3", " (no legal retreat)")
        else:
            left[uid] = n
    if not left:
        return False
    side = values.other(c["side"])
    state.push_interrupt("retreat", side, "ETO-27.3", f"retreat {', '.join(left)} from {c['target']}",
                         ["retreat"], pending=left, origin=c["target"])
    return True


class RetreatOrder(OrderKind):
    """``{"kind": "retreat", "unit": id, "path": [...]}`` (27.3)."""

    kind = "retreat"
    rule = "ETO-27.3"

    def _paths(self, state: State, uid: str) -> list[list[str]]:
        f = state.frames[-1]
        c = state.markers.get("combat", {})
        n = f["data"]["pending"][uid]
        return paths(state, state.unit(uid), f["data"]["origin"], n, c.get("dfn_supplied", {}).get(uid, True))

    def legal(self, state: State) -> list[dict[str, Any]]:
        pending = state.frames[-1]["data"]["pending"]
        uid = sorted(pending)[0]
        return [{"kind": "retreat", "unit": uid, "path": p} for p in self._paths(state, uid)]

    def check(self, state: State, order: dict[str, Any]) -> None:
        pending = state.frames[-1]["data"]["pending"]
        uid = order.get("unit")
        if uid not in pending:
            raise IllegalOrder(self.rule, f"units to retreat now: {', '.join(sorted(pending))}")
        if order.get("path") not in self._paths(state, uid):
            raise IllegalOrder(self.rule, f"{uid} must retreat {pending[uid]} hexes away from the combat hex, "
                               "not through enemy ZOC (except forest or a friendly-held hex), toward its supply, "
                               "avoiding enemy-adjacent hexes when it can, and not ending overstacked")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.eto.losses import eliminate

        f = state.frames[-1]
        u = state.unit(order["unit"])
        start_hex = u.location
        u.location = order["path"][-1]
        u.props["retreated_into"] = state.markers.get("combat", {}).get("mode") or True  # 27.3: this step
        pass_through(state, u, [state.map.index(h) for h in order["path"]])
        state.emit("retreat", side=u.side, rule=self.rule, text=f"{u.id} retreats {start_hex} → {u.location}",
                   unit=u.id, start=start_hex, path=order["path"])
        # generals and HQs left alone with the retreating stack go with it (authored: 24.3)
        for g in values.units_at(state, start_hex, u.side):
            if values.unit_class(state, g) in ("general", "hq") and not any(
                    values.is_combat_unit(state, o) for o in values.units_at(state, start_hex, u.side)):
                g.location = u.location
                state.emit("retreat", side=u.side, rule=self.rule, text=f"{g.id} goes with {u.id}",
                           unit=g.id, start=start_hex, path=order["path"])
        pending = f["data"]["pending"]
        pending.pop(u.id)
        c = state.markers.get("combat", {})
        for uid in sorted(pending):
            if not paths(state, state.unit(uid), f["data"]["origin"], pending[uid],
                         c.get("dfn_supplied", {}).get(uid, True)):
                pending.pop(uid)
                eliminate(state, state.unit(uid), self.rule, " (no legal retreat)")
        if not pending:
            state.pop_interrupt()
