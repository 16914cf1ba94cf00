"""Advance after combat (ETO-27.4) and breakthrough movement (ETO-28.3).

* Advance: when the defender's hex is vacated, attackers may move into it,
  ignoring enemy ZOC, within the stacking limit (``{"kind": "advance",
  "units": [..], "to": hex}``; ``"units": []`` declines).  No infantry moves
  or advances in the Breakthrough step (28.4).
* Secondary advance: activated units that attack no other hex and did not
  advance may move into hexes the advancing units left, and so on; a stack in
  enemy ZOC leaves one unit behind; a lone unit in enemy ZOC cannot; not in the
  Breakthrough step; infantry may in the Exploitation step.
* Breakthrough movement: armor that advanced after a breakthrough attack moves
  one hex ignoring ZOC, or with a general the general's exploitation rating
  with ZOC as for armor (25.3); out of supply 1, winter at most 3, never into
  mud (``{"kind": "bt_move", "unit": id, "path": [..], "general": id?}``;
  an empty path stays).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import stacking, values
from workbench.rulesets.eto.control import pass_through
from workbench.rulesets.eto.movement import Walker, generals_with
from workbench.rulesets.eto.zoc import zoc


def _combat() -> dict[str, Any]:
    raise NotImplementedError


def debarked_now(state: State, u: Unit) -> bool:
    """ETO-10.5: ``u`` debarked from an STP this turn (during an offensive: this Offensive phase)."""
    return u.props.get("debarked") == state.turn_label


def enemy_left(state: State, c: dict[str, Any]) -> bool:
    return any(values.is_land_unit(state, u) for u in values.units_at(state, c["target"], values.other(c["side"])))


def primary_candidates(state: State, c: dict[str, Any]) -> list[Unit]:
    out = []
    for a in c["attackers"]:
        u = state.unit(a)
        if not values.on_map(u) or u.location == c["target"] or u.id in c.get("advanced", []) \
                or u.id in c.get("halted", []):
            continue
        if c["mode"] == "breakthrough" and values.unit_class(state, u) != "armor":
            continue
        if debarked_now(state, u):
            continue  # 10.5: "Units that debark and attack in the same Offensive phase cannot advance"
        if stacking.fits(state, c["target"], u.side, [u]):
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def secondary_candidates(state: State, c: dict[str, Any]) -> list[tuple[Unit, str]]:
    if c["mode"] == "breakthrough" or not c.get("vacated"):
        return []
    hm = state.map
    side = c["side"]
    busy = {a for d in state.markers.get("designations", []) if not d["resolved"] for a in d["attackers"]}
    ez = zoc(state, values.other(side))
    out = []
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        activated = u.props.get("in_offensive") or c["mode"] == "reaction"  # 26.5: all count as activated
        if u.side != side or not values.on_map(u) or not activated or u.id in c.get("halted", []) \
                or not values.is_combat_unit(state, u) or u.id in busy or u.id in c.get("advanced", []) \
                or u.props.get("sec_adv"):
            continue
        if values.unit_class(state, u) == "paratroop" or (debarked_now(state, u) and u.props.get("attacked")):
            continue  # 10.5: a unit that debarked and attacked this Offensive phase does not advance
        i = hm.index(u.location)
        if ez[i]:
            mates = [o for o in values.units_at(state, u.location, side) if values.is_combat_unit(state, o)]
            if len(mates) < 2:
                continue  # lone unit in enemy ZOC
        for h in c["vacated"]:
            if h != u.location and hm.distance(u.location, h) == 1 and stacking.fits(state, h, side, [u]):
                out.append((u, h))
    return out


def offer(state: State, c: dict[str, Any]) -> bool:
    if enemy_left(state, c) or not primary_candidates(state, c):
        return False
    if not c.get("defenders", [None]) and c.get("result") != "partisans" and not c.get("affects_defender"):
        return False  # 27.4: a hex held only by its intrinsic (fortification) defence needs such a result
    state.push_interrupt("advance", c["side"], "ETO-27.4", f"advance after combat into {c['target']}?",
                         ["advance"], phase="primary")
    return True


def offer_secondary(state: State, c: dict[str, Any]) -> bool:
    if not secondary_candidates(state, c):
        return False
    state.push_interrupt("advance", c["side"], "ETO-27.4", "secondary advance into the hexes left behind?",
                         ["advance"], phase="secondary")
    return True


def offer_bt_move(state: State, c: dict[str, Any]) -> bool:
    if c["mode"] != "breakthrough":
        return False
    movers = [u for u in c.get("advanced", []) if values.on_map(state.unit(u)) and u not in c.get("halted", [])
              and values.unit_class(state, state.unit(u)) == "armor"]
    if not movers:
        return False
    # 28.3: "All units can move to the limits of the general's exploitation rating even if they do
    # not stay stacked with him" -- the rating each armor unit had when its stack advanced
    ratings = {u: max((values.exploitation_rating(state, g) for g in generals_with(state, state.unit(u))
                       if not values.is_zhukov(state, g)), default=0) for u in movers}
    state.push_interrupt("bt_move", c["side"], "ETO-28.3", "breakthrough movement", ["bt_move"],
                         pending=sorted(movers), ratings=ratings)
    return True


class AdvanceOrder(OrderKind):
    kind = "advance"
    rule = "ETO-27.4"

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = state.frames[-1]
        c = state.markers["combat"]
        out = [{"kind": "advance", "units": [], "to": c["target"]}]
        if f["data"]["phase"] == "primary":
            cands = primary_candidates(state, c)
            for u in cands:
                o = {"kind": "advance", "units": [u.id], "to": c["target"]}
                out.append(o)
                for g in generals_with(state, u):
                    if not values.is_zhukov(state, g) or c["mode"] != "breakthrough":
                        out.append({**o, "general": g.id})
            fit = []
            for u in sorted(cands, key=lambda u: (-values.strength(state, u), u.id)):
                if stacking.fits(state, c["target"], c["side"], fit + [u]):
                    fit.append(u)
            if len(fit) > 1:
                group = {"kind": "advance", "units": sorted(u.id for u in fit), "to": c["target"]}
                out.append(group)
                gens = {g.id for u in fit for g in generals_with(state, u)
                        if not values.is_zhukov(state, g) or c["mode"] != "breakthrough"}
                out += [{**group, "general": g} for g in sorted(gens)]
        else:
            out[0]["to"] = c["vacated"][0] if c.get("vacated") else c["target"]
            out += [{"kind": "advance", "units": [u.id], "to": h} for u, h in secondary_candidates(state, c)]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        f = state.frames[-1]
        c = state.markers["combat"]
        units = order.get("units")
        if not isinstance(units, list):
            raise IllegalOrder(self.rule, "advance needs a list of units (empty to decline)")
        if not units:
            return
        if f["data"]["phase"] == "primary":
            cands = {u.id for u in primary_candidates(state, c)}
            if order.get("to") != c["target"] or not set(units) <= cands:
                raise IllegalOrder(self.rule, f"only attackers of {c['target']} may advance into it "
                                   "(no infantry in the Breakthrough step, 28.4)")
            if not stacking.fits(state, c["target"], c["side"], [state.unit(u) for u in units]):
                raise IllegalOrder("ETO-24.2", f"{c['target']} cannot hold them all")
            gid = order.get("general")
            if gid is not None and not any(g.id == gid for u in units for g in generals_with(state, state.unit(u))):
                raise IllegalOrder("ETO-24.3", f"{gid} is not a general stacked with the advancing units")
        else:
            pairs = {(u.id, h) for u, h in secondary_candidates(state, c)}
            if len(units) != 1 or (units[0], order.get("to")) not in pairs:
                raise IllegalOrder(self.rule, "secondary advance: one activated unit not attacking another hex "
                                   "into an adjacent hex left by an advancing unit (a lone unit in enemy ZOC "
                                   "may not; none in the Breakthrough step)")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f = state.frames[-1]
        c = state.markers["combat"]
        units = order["units"]
        if not units:
            state.pop_interrupt()
            state.emit("advance", side=c["side"], rule=self.rule, text="no (further) advance", units=[])
            return
        from workbench.rulesets.eto.reaction import intercept

        if intercept(state, self.kind, order, [state.unit(u) for u in units]):
            return  # 26.5: advancing units may be attacked by enemy armor before they move
        to = order["to"]
        for uid in units:
            u = state.unit(uid)
            start = u.location
            u.location = to
            pass_through(state, u, [state.map.index(to)])
            c.setdefault("advanced", []).append(uid)
            if f["data"]["phase"] == "secondary":
                u.props["sec_adv"] = True
            if not [o for o in values.units_at(state, start, c["side"]) if values.is_combat_unit(state, o)]:
                c.setdefault("vacated", []).append(start)
            state.emit("advance", side=c["side"], rule=self.rule,
                       text=f"{uid} advances {start} → {to}" + (" (secondary)" if f["data"]["phase"] == "secondary" else ""),
                       unit=uid, start=start, to=to, phase=f["data"]["phase"])
        if order.get("general"):
            g = state.unit(order["general"])
            g.location = to
            state.emit("advance", side=c["side"], rule="ETO-24.3", text=f"general {g.id} goes with them",
                       unit=g.id, to=to)
        more = primary_candidates(state, c) if f["data"]["phase"] == "primary" else secondary_candidates(state, c)
        if not more:
            state.pop_interrupt()


class BTMoveOrder(OrderKind):
    kind = "bt_move"
    rule = "ETO-28.3"

    def _walker(self, state: State, u: Unit) -> Walker:
        gens = [g for g in generals_with(state, u) if not values.is_zhukov(state, g)]
        now = max((values.exploitation_rating(state, g) for g in gens), default=0)
        u.props["riding_rating"] = max(now, int(state.frames[-1]["data"].get("ratings", {}).get(u.id, 0)))
        try:
            return Walker(state, u, "bt")
        finally:
            u.props.pop("riding_rating", None)

    def legal(self, state: State) -> list[dict[str, Any]]:
        pending = state.frames[-1]["data"]["pending"]
        uid = pending[0]
        u = state.unit(uid)
        hm = state.map
        out = [{"kind": "bt_move", "unit": uid, "path": []}]
        gens = [g for g in generals_with(state, u) if not values.is_zhukov(state, g)]
        for b, path in sorted(self._walker(state, u).reach().items()):
            if stacking.fits(state, hm.label(b), u.side, [u]):
                o = {"kind": "bt_move", "unit": uid, "path": [hm.label(i) for i in path]}
                out.append(o)
                out += [{**o, "general": g.id} for g in gens]
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        pending = state.frames[-1]["data"]["pending"]
        uid = order.get("unit")
        if uid not in pending:
            raise IllegalOrder(self.rule, f"units to move now: {', '.join(pending)}")
        path = order.get("path")
        if not isinstance(path, list) or not all(isinstance(h, str) and state.map.has_hex(h) for h in path):
            raise IllegalOrder(self.rule, "bt_move needs a path of hex labels (empty to stay)")
        if path:
            u = state.unit(uid)
            why = self._walker(state, u).why_not([state.map.index(h) for h in path])
            if why:
                raise IllegalOrder.of(why, self.rule)
            if not stacking.fits(state, path[-1], u.side, [u]):
                raise IllegalOrder("ETO-24.2", f"{path[-1]} cannot hold {uid}")
        gid = order.get("general")
        if gid is not None and gid not in {g.id for g in generals_with(state, state.unit(uid))}:
            raise IllegalOrder("ETO-24.3", f"{gid} is not stacked with {uid}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.eto.movement import after_move
        from workbench.rulesets.eto.reaction import intercept

        f = state.frames[-1]
        u = state.unit(order["unit"])
        if order["path"] and intercept(state, self.kind, order, [u]):
            return  # 26.5
        f["data"]["pending"].remove(u.id)
        if order["path"]:
            start = u.location
            u.location = order["path"][-1]
            pass_through(state, u, [state.map.index(h) for h in order["path"]])
            if order.get("general"):
                g = state.unit(order["general"])
                g.location = u.location
                g.props["bt_general"] = True  # 28.5: flipped, cannot exploit
            state.emit("move", side=u.side, rule=self.rule, text=f"{u.id} breakthrough move {start} → {u.location}",
                       unit=u.id, start=start, path=order["path"], riders=[order["general"]] if order.get("general") else [])
            after_move(state, u.side)
        if not f["data"]["pending"]:
            state.pop_interrupt()
