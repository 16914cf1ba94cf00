"""Armor breakthrough (ETO-28.0-28.6) and exploitation eligibility (ETO-29.0-29.3).

``{"kind": "breakthrough", "units": [armor..], "general": id?, "path": [..], "target": hex}``
activates one stack of activated armor, or part of it (28.6; with a general, not Zhukov, 43.7),
moves it together up to two hexes (one from ZOC into ZOC, 28.1; one when out of
supply, 33.1), and designates its attack; attack sequence 4A then resolves it
(28.2) and breakthrough movement follows the advance (28.3, :mod:`advance`).
One breakthrough per offensive, or as many as the activated HQs' attack
ratings (28.4, 28.6).  Units in mud cannot break through; mud hexes are never
attacked or entered (28.4, 1.2).  A general that takes part is flipped and may
not exploit (28.5).

Exploitation (29.1): at the start of Step 5, activated armor that could
advance after combat in Step 4 and did not break through, stacked with an
activated unflipped general with an exploitation rating, in a hex that is
neither mud nor winter, may exploit up to the general's rating (29.2) and
attack up to the HQ attack rating or one hex (29.3).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import command, values
from workbench.rulesets.eto.combat import designate, target_why_not
from workbench.rulesets.eto.control import pass_through
from workbench.rulesets.eto.movement import Walker
from workbench.rulesets.eto.weather import FAIR, MUD, conditions


def bt_limit(state: State) -> int:
    off = command.offensive(state)
    if off.get("mode") == "hq":
        return command.attack_limit(state, "breakthrough")
    return 1 if off.get("mode") in ("general", "stack") else 0


def stacks(state: State, side: str) -> list[tuple[str, list[Unit], list[Unit]]]:
    """(hex, armor, generals) for every hex of activated armor able to break through."""
    cond = conditions(state)
    by_hex: dict[str, list[Unit]] = {}
    for u in state.units_by_id.values():
        if u.side == side and values.on_map(u) and values.unit_class(state, u) == "armor" \
                and u.props.get("in_offensive") and not u.props.get("bt_done") and not u.props.get("moved"):
            by_hex.setdefault(u.location, []).append(u)
    out = []
    for h, arm in sorted(by_hex.items()):
        if cond[state.map.index(h)] == MUD:
            continue
        gens = [g for g in values.units_at(state, h, side) if values.unit_class(state, g) == "general"
                and g.props.get("in_offensive") and not values.is_zhukov(state, g)]
        out.append((h, sorted(arm, key=lambda u: u.id), gens))
    return out


class BreakthroughOrder(OrderKind):
    kind = "breakthrough"
    rule = "ETO-28.0"

    def _walk(self, state: State, armor: list[Unit]) -> dict[int, list[int]]:
        reach = None
        for u in armor:
            r = Walker(state, u, "bt_pre").reach()
            reach = r if reach is None else {b: p for b, p in reach.items() if b in r}
        return reach or {}

    def legal(self, state: State) -> list[dict[str, Any]]:
        """Each stack of armor able to break through, whole or -- when the offensive may make more
        than one breakthrough -- one armor unit of it (28.6: "Armor units in the same stack can be
        activated separately, performing different breakthroughs")."""
        if self._left(state) <= 0:
            return []
        out = []
        for _h, armor, gens in stacks(state, state.decision.side):
            out += self._options(state, armor, gens)
            if len(armor) > 1 and self._left(state) > 1:
                for u in armor:
                    out += self._options(state, [u], gens)
        return out

    @staticmethod
    def _left(state: State) -> int:
        return bt_limit(state) - int(command.offensive(state).get("bt_done", 0))

    def _options(self, state: State, armor: list[Unit], gens: list[Unit]) -> list[dict[str, Any]]:
        """The breakthroughs of ``armor`` (one stack, or some units of it): each end of its
        pre-attack move (28.1) and each enemy hex next to that end, with or without a general
        riding along.  The general leading a 22.2 offensive who rides along is counted where the
        stack ends its move: the hex attacked must be next to him at the time of combat."""
        side = state.decision.side
        hm = state.map
        off = command.offensive(state)
        lead = off.get("general") if off.get("mode") == "general" else None
        enemy_hexes = {u.location for u in state.units_by_id.values()
                       if u.side != side and values.on_map(u) and values.is_land_unit(state, u)}
        out = []
        ends = {hm.index(armor[0].location): []} | self._walk(state, armor)
        for end, path in sorted(ends.items()):
            labels = [hm.label(i) for i in path]
            end_label = hm.label(end)
            if labels and not all(fits_all(state, end_label, armor)):
                continue
            moved = _moved_copies(armor, end_label)
            for j in hm.neighbors[end]:
                if j < 0 or hm.label(int(j)) not in enemy_hexes:
                    continue
                t = hm.label(int(j))
                o = {"kind": "breakthrough", "units": [u.id for u in armor], "path": labels, "target": t}
                plain = target_why_not(state, side, t, moved, "breakthrough") is None
                if plain:
                    out.append(o)
                for g in gens:
                    ok = plain
                    if g.id == lead and labels and not plain:
                        # 22.2: he rides with the stack, so the hex attacked must be next to where it ends
                        ok = hm.distance(end_label, t) == 1 and target_why_not(
                            state, side, t, moved, "breakthrough", general_at=end_label) is None
                    if ok:
                        out.append({**o, "general": g.id})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        if order not in self.legal(state) and not self._subset_ok(state, order):
            if self._left(state) <= 0:
                raise IllegalOrder("ETO-28.4", "no more breakthroughs in this offensive (one, or the HQ attack "
                                   "rating, 28.6)")
            raise IllegalOrder(self.rule, "a breakthrough names activated armor of one stack not in mud (the "
                               "whole stack, or one unit of it when more than one breakthrough is left, 28.6), "
                               "a move of at most two hexes (28.1) and an adjacent enemy hex not in mud (28.4)")

    def _subset_ok(self, state: State, order: dict[str, Any]) -> bool:
        """28.6: any part of a stack's armor (legal() lists the whole stack and single units)."""
        ids = order.get("units")
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids) \
                or len(set(ids)) != len(ids):
            return False
        for _h, armor, gens in stacks(state, state.decision.side):
            part = [u for u in armor if u.id in ids]
            if len(part) == len(ids) and (self._left(state) > 1 or len(part) == len(armor)):
                return {**order, "units": [u.id for u in part]} in self._options(state, part, gens)
        return False

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.eto.reaction import intercept

        armor = [state.unit(u) for u in order["units"]]
        if order["path"] and intercept(state, self.kind, order, armor):
            return  # 26.5: the enemy armor may attack the stack before its pre-attack move
        off = command.offensive(state)
        off["bt_done"] = int(off.get("bt_done", 0)) + 1
        start = armor[0].location
        if order["path"]:
            for u in armor:
                u.location = order["path"][-1]
                pass_through(state, u, [state.map.index(h) for h in order["path"]])
            if order.get("general"):
                state.unit(order["general"]).location = order["path"][-1]
            state.emit("move", side=armor[0].side, rule="ETO-28.1",
                       text=f"{', '.join(order['units'])} move {start} → {order['path'][-1]} to break through",
                       units=order["units"], start=start, path=order["path"])
        for u in armor:
            u.props["bt_done"] = True
        if order.get("general"):
            state.unit(order["general"]).props["bt_general"] = True  # 28.5
        state.emit("breakthrough", side=armor[0].side, rule=self.rule,
                   text=f"breakthrough attack on {order['target']}", target=order["target"], units=order["units"])
        state.markers["designations"] = []
        designate(state, order["target"], order["units"], "breakthrough")
        state.push_procedure("attack-4A", mode="breakthrough")


def fits_all(state: State, label: str, units: list[Unit]) -> list[bool]:
    from workbench.rulesets.eto import stacking
    return [stacking.fits(state, label, units[0].side, units)]


def _moved_copies(units: list[Unit], label: str) -> list[Unit]:
    return [Unit(u.id, u.side, u.nation, u.type, u.size, label, u.reduced, u.props) for u in units]


def mark_exploiters(state: State, step: Any) -> None:
    """Entering Step 5 (29.1): mark eligible armor with the general they exploit with."""
    side = state.phasing
    cond = conditions(state)
    for u in state.units_by_id.values():
        u.props.pop("exploiter", None)
    for g in state.units_by_id.values():
        if g.side != side or not values.on_map(g) or values.unit_class(state, g) != "general":
            continue
        if not g.props.get("in_offensive") or g.props.get("bt_general") or values.exploitation_rating(state, g) <= 0:
            continue
        if cond[state.map.index(g.location)] != FAIR:
            continue
        for u in values.units_at(state, g.location, side):
            if values.unit_class(state, u) == "armor" and u.props.get("can_exploit") and not u.props.get("bt_done") \
                    and u.props.get("in_offensive"):
                u.props["exploiter"] = g.id
                state.emit("exploit_eligible", side=side, rule="ETO-29.1",
                           text=f"{u.id} may exploit with {g.id}", unit=u.id, general=g.id)
