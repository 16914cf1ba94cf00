"""Command and activation (ETO-22.0-22.6, combined offensives 23.6).

An offensive is recorded in ``state.markers["offensive"]`` from its Command
step to its Unit-status step: who performs it, how units were activated (by
HQ, general, stack or minor country, one kind per offensive, 22.0), which units
are activated, and how many hexes each step may still attack.

Orders (Command step, and until the end of Step 3 for ``activate``):

* ``{"kind": "activate_hq", "hqs": [..], "pay": {nation: eps}?}``: 22.1 (one offensive per
  HQ; two or more HQs within 20 hexes of each other make a combined offensive costing
  2 EPs per extra HQ, 4 in a W turn except the USSR, paid by any of the participating
  partners -- as ``pay`` splits it, else the first HQ's nation first, 23.6);
* ``{"kind": "impromptu", "mode": "hq"|"general"|"stack", ...}``: 22.6, when
  the nation's offensives track is empty, paying 2x the offensive cost (2x the
  winter-seasonal cost in a W turn) from EPs or the economic reserve;
* ``{"kind": "activate", "mode": "general", "general": id}``,
  ``{"mode": "stack", "hex": h}``, ``{"mode": "minor", "nation": n, "form":
  "home"|"stack", "hex": h?}`` start the other kinds of offensive; each may name
  its ``"units"`` (22.0 "A player must specify the units he activates": some of
  those it could activate; without the list, all it may);
  ``{"kind": "activate", "unit": id}`` then activates one more unit in an
  activated HQ's radius, and ``{"kind": "activate", "all": true}`` every
  eligible one.  At least half the land units activated by a major nation
  must be its own (22.0, 23.0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import cooperation, italian_restrictions, supply, values
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.hq import box_allows_hq, in_radius
from workbench.rulesets.eto.movement import transit_box
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.values import offensive, track  # noqa: F401 - here and for callers

ACTIVATION_STEPS = ("offensive/command", "offensive/breakthrough", "offensive/movement")


def w_turn(state: State) -> bool:
    return state.tracks.get("weather") == "W"


def spendable(state: State, nation: str) -> int:
    """EPs a nation may spend on offensives: its (non-negative) track plus its reserve (37.8)."""
    return max(track(state, f"{nation}.eps"), 0) + track(state, f"{nation}.reserve")


def pay_eps(state: State, nation: str, amount: int, rule: str, what: str) -> None:
    """Pay from the EP track first, then the economic reserve (22.6, 23.6, 37.8)."""
    eps = max(track(state, f"{nation}.eps"), 0)
    from_track = min(eps, amount)
    state.tracks[f"{nation}.eps"] = track(state, f"{nation}.eps") - from_track
    state.tracks[f"{nation}.reserve"] = track(state, f"{nation}.reserve") - (amount - from_track)
    state.emit("pay", rule=rule, text=f"{nation} pays {amount} EPs for {what}", nation=nation, eps=amount)


def majors_of_side(state: State, side: str) -> list[str]:
    return [n for n in state.game.scenario.sides[side] if values.nation_kind(state, n) == "major"]


def begin_offensive(state: State, side: str) -> None:
    """Entering Step 1: a fresh offensive record."""
    state.markers["offensive"] = {"side": side, "mode": None, "nation": None, "hqs": [], "general": None,
                                  "units": [], "attacks": {}, "bt_done": 0}


def is_active(state: State) -> bool:
    off = state.markers.get("offensive") or {}
    return bool(off.get("mode"))


def attack_limit(state: State, step: str) -> int:
    """Hexes that may be attacked this step (22.1-22.4, 28.6, 29.3)."""
    off = offensive(state)
    mode = off.get("mode")
    if mode == "hq":
        rating = sum(values.attack_rating(state, state.unit(h)) for h in off["hqs"])
        return rating
    if mode == "minor":
        return 1 if step == "combat" else 0
    return 1 if mode else 0


def attacks_left(state: State, step: str) -> int:
    off = offensive(state)
    return attack_limit(state, step) - int(off.get("attacks", {}).get(step, 0))


def mark_active(unit: Unit) -> None:
    """ETO-22.0: activated once a turn (``activated``, kept to the turn's end) and acting only in
    this offensive (``in_offensive``, cleared when the offensive's unit-status step ends), so an
    earlier offensive's units cannot move or attack again in a later one."""
    unit.props["activated"] = True
    unit.props["in_offensive"] = True


def activated_units(state: State) -> list[Unit]:
    return [state.unit(u) for u in offensive(state).get("units", [])]


def _counts(state: State, units: list[Unit], major: str) -> tuple[int, int]:
    land = [u for u in units if values.is_combat_unit(state, u)]
    mine = sum(1 for u in land if u.nation == major or u.nation in offensive(state).get("nations", []))
    return mine, len(land) - mine


def half_rule_ok(state: State, adding: list[Unit]) -> bool:
    """ETO-22.0 / 22.2 / 23.0: at least half of the land units activated are the major's own."""
    off = offensive(state)
    major = off.get("nation")
    if off.get("mode") == "minor" or major is None:
        return True
    mine, others = _counts(state, activated_units(state) + adding, major)
    return mine >= others


def air_half_why_not(state: State, side: str, units: list[Unit]) -> Refusal | None:
    """ETO-42.0: "One offensive can activate land and air units from different partner nations (as
    long as half the land and half the air units belong to the nation spending the offensive)" --
    the air units flying ground support in a land offensive, counted as the land units are
    (a combined offensive's nations all count as the spender's, 23.6)."""
    off = offensive(state)
    major = off.get("nation")
    if off.get("side") != side or off.get("mode") in (None, "air", "minor") or major is None:
        return None
    own = set(off.get("nations") or [major])
    flown = [state.unit(u) for u in off.get("air_units", []) if u in state.units_by_id]
    every = flown + [u for u in units if u.id not in off.get("air_units", [])]
    mine = sum(1 for u in every if u.nation in own)
    if mine < len(every) - mine:
        return Refusal("ETO-42.0", f"at least half the air units of {major}'s offensive must be its own: "
                                   f"{mine} of {len(every)} would be")
    return None


def minor_air_why_not(state: State, side: str, units: list[Unit]) -> Refusal | None:
    """ETO-22.4: "air units of one major partner can be committed for a minor country offensive;
    this requires the major power to pay for one offensive" -- once per minor offensive, by the one
    major whose air flies its ground support."""
    off = offensive(state)
    if off.get("side") != side or off.get("mode") != "minor":
        return None
    majors = {u.nation for u in units if values.nation_kind(state, u.nation) == "major"}
    paid = off.get("major_air")
    if paid:
        majors.discard(paid)
        if majors:
            return Refusal("ETO-22.4", f"only one major's air may fly in this minor offensive ({paid}'s)")
        return None
    if len(majors) > 1:
        return Refusal("ETO-22.4", "only one major partner's air units may fly in a minor offensive")
    for n in majors:
        if track(state, f"{n}.offensives") <= 0:
            return Refusal("ETO-22.4", f"{n}'s air in a minor offensive costs one offensive; {n} has none left")
    return None


def pay_minor_air(state: State, side: str, units: list[Unit]) -> None:
    """ETO-22.4: the major pays its one offensive as its air first flies in the minor offensive."""
    off = offensive(state)
    if off.get("side") != side or off.get("mode") != "minor" or off.get("major_air"):
        return
    for n in sorted({u.nation for u in units if values.nation_kind(state, u.nation) == "major"}):
        state.tracks[f"{n}.offensives"] = track(state, f"{n}.offensives") - 1
        off["major_air"] = n
        state.emit("offensive_paid", side=side, rule="ETO-22.4", nation=n,
                   text=f"{n} spends an offensive to commit its air to {off.get('nation')}'s minor offensive")


def can_activate(state: State, unit: Unit, side: str) -> bool:
    """Not yet activated this turn (22.0), on the map or in a transit box (24.1: the Iraq box's
    units answer to HQs in the box or in Iraq), friendly, not a partisan (45.5), HQ or air unit."""
    from workbench.rulesets.eto.sea_transport import is_aboard, space_of

    if unit.side != side or unit.props.get("activated"):
        return False  # the cheap tests first: this runs for every unit of every eligibility scan
    vz = supply.vichy_departure_zone(state)  # 40.4: "No units can be activated for offensives in Vichy territory"
    if vz is not None and values.on_map(unit) and vz[state.map.index(unit.location)]:
        return False
    placed = values.on_map(unit) or transit_box(state, unit.location) is not None \
        or (is_aboard(unit) and values.on_map_label(space_of(state, unit)))  # 10.5, 10.6: aboard ships
    return (unit.side == side and placed and not unit.props.get("activated")
            and values.unit_class(state, unit) not in ("partisan", "hq")
            and not values.is_air_counter(state, unit)  # air units are committed, not activated (20.0)
            and not values.is_naval_counter(state, unit))  # ships are never activated (7.0, 22.0)


def eligible_now(state: State) -> list[Unit]:
    """Units the current offensive may still activate (22.1-22.4); units aboard ships count
    where their ships are (10.5, 10.6)."""
    from workbench.rulesets.eto.sea_transport import space_of

    off = offensive(state)
    side = off.get("side")
    mode = off.get("mode")
    if mode != "hq":
        return []
    hqs = [state.unit(h) for h in off["hqs"]]
    out = []
    for u in state.units_by_id.values():
        if not can_activate(state, u, side):
            continue
        # 23.0: "Activated HQs can activate all generals and units within the HQ's command radius"
        # -- a partner's general too (generals are not land units, so the half rule leaves them be)
        # 42.4, 42.5: a French HQ never activates British units, nor a British HQ French ones
        if any(in_radius(state, h, space_of(state, u)) and cooperation.activation_why_not(state, h, u) is None
               for h in hqs):
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def activate_units(state: State, units: list[Unit], rule: str) -> None:
    off = offensive(state)
    for u in units:
        mark_active(u)
        supply.restore_from_marker(state, u, "activated for an offensive")  # 33.4
        if values.unit_class(state, u) == "armor" and supply.traces(state, u) and not u.props.get("oos"):
            u.props["supplied_offensive"] = True  # 33.6
        off["units"].append(u.id)
    if units:
        state.emit("activate", side=off["side"], rule=rule,
                   text=f"activated: {', '.join(u.id for u in units)}", units=[u.id for u in units])


def _greedy(state: State, cands: list[Unit], major: str | None) -> list[Unit]:
    """The largest set of candidates that keeps the half rule: own units first."""
    if major is None:
        return cands
    chosen: list[Unit] = []
    own = [u for u in cands if u.nation == major or not values.is_combat_unit(state, u)]
    rest = [u for u in cands if u not in own]
    chosen += own
    for u in rest:
        if half_rule_ok(state, chosen + [u]):
            chosen.append(u)
    return chosen


def minor_offensives_allowed(state: State, nation: str) -> int:
    """ETO-22.4: one a month per home city resource hex the minor controls, at least two."""
    ta = terrain_arrays(state)
    side = "axis" if state.ruleset.tables["units"]["nations"][nation].get("partnership") == "axis" else "allies"
    n = int((home_mask(state, nation, original=True) & ta.city_resource & (control(state) == SIDE_CODE[side])).sum())
    return max(n, 2)


def _offensive_nation(state: State, units: list[Unit], side: str) -> str | None:
    """The major that pays for a stack's offensive: the one with most unactivated combat units in it.  It
    need not be half the stack -- only half the units it activates (22.0), so with one German and
    two Rumanian units Germany activates its unit and one Rumanian."""
    land = [u for u in units if values.is_combat_unit(state, u) and not u.props.get("activated")]
    best, most = None, 0
    for n in majors_of_side(state, side):
        mine = sum(1 for u in land if u.nation == n)
        if mine > most:
            best, most = n, mine
    return best


def general_group(state: State, gen: Unit) -> list[Unit]:
    """ETO-22.2: units stacked with or adjacent to the general."""
    hm = state.map
    i = hm.index(gen.location)
    near = {hm.label(int(j)) for j in hm.neighbors[i] if j >= 0} | {gen.location}
    return sorted((u for u in state.units_by_id.values() if u.location in near and can_activate(state, u, gen.side)
                   and values.unit_class(state, u) != "general"
                   and cooperation.activation_why_not(state, gen, u) is None), key=lambda u: u.id)  # 42.4


def hq_places(state: State, hq: Unit) -> list[str]:
    """Where an HQ is for distances: its hex, or the map links of the transit box it stands in
    (24.1: the Iraq box is next to its Iraq edge hexes)."""
    if values.on_map(hq):
        return [hq.location]
    box = state.map.boxes.get(hq.location)
    return [h for h in (box.links if box else []) if state.map.has_hex(h)]


def hq_distance(state: State, a: Unit, b: Unit) -> float:
    """ETO-23.6: hexes between two HQs (a boxed HQ measured from the nearest of its box's links)."""
    hm = state.map
    pa, pb = hq_places(state, a), hq_places(state, b)
    if not pa or not pb:
        return float("inf")
    return min(hm.distance(x, y) for x in pa for y in pb)


class ActivateHQOrder(OrderKind):
    kind = "activate_hq"
    rule = "ETO-22.1"

    def _hqs(self, state: State, side: str) -> list[Unit]:
        return sorted((u for u in state.units_by_id.values() if u.side == side
                       and (values.on_map(u) or box_allows_hq(state, u, u.location))  # 23.5, 24.1
                       and values.unit_class(state, u) == "hq" and not u.props.get("activated")
                       and values.nation_kind(state, u.nation) == "major"), key=lambda u: u.id)

    def _why_not(self, state: State, side: str, hqs: list[str], pay: Any = None) -> Refusal | None:
        if is_active(state):
            return Refusal("ETO-22.0", "this offensive already has its activation")
        if not hqs or len(set(hqs)) != len(hqs):
            return Refusal("ETO-22.1", "name one or more different HQs")
        avail = {u.id: u for u in self._hqs(state, side)}
        for h in hqs:
            if h not in avail:
                return Refusal("ETO-22.0", f"{h} is not an unactivated HQ of yours on the map")
        units = [avail[h] for h in hqs]
        why = cooperation.combine_why_not(state, units)  # 42.5
        if why:
            return why
        need: dict[str, int] = {}
        for u in units:
            need[u.nation] = need.get(u.nation, 0) + 1
        for n, k in need.items():
            why = italian_restrictions.offensive_why_not(state, n)  # 46.1 (optional)
            if why:
                return why
            if track(state, f"{n}.offensives") < k:
                return Refusal("ETO-22.1", f"{n} has {track(state, f'{n}.offensives')} offensives on its track, needs {k}")
        if len(units) > 1:
            lim = int(state.ruleset.tables["costs"]["offensives"]["combined_max_hq_distance"])
            for a in units:
                for b in units:
                    if a.id < b.id and hq_distance(state, a, b) > lim:
                        return Refusal("ETO-23.6", f"{a.id} and {b.id} are more than {lim} hexes apart")
            eps = adj.combined_offensive_eps(len(units), units[0].nation, w_turn(state),
                                             tables=state.ruleset.tables)
            payers = sorted({u.nation for u in units}, key=lambda n: [u.nation for u in units].index(n))
            if sum(spendable(state, n) for n in payers) < eps:
                return Refusal("ETO-23.6", f"a combined offensive of {len(units)} HQs costs {eps} EPs, more than "
                                           f"{' and '.join(payers)} can pay")
            if pay is not None and not self._pay_ok(state, pay, payers, eps):
                return Refusal("ETO-23.6", f"'pay' splits the {eps} EPs among {', '.join(payers)}, "
                                           "each within what it can spend")
        return None

    @staticmethod
    def _pay_ok(state: State, pay: Any, payers: list[str], eps: int) -> bool:
        return isinstance(pay, dict) and not set(pay) - set(payers) and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= spendable(state, n)
            for n, v in pay.items()) and sum(pay.values()) == eps

    @staticmethod
    def _split(state: State, units: list[Unit], eps: int, pay: dict[str, int] | None) -> dict[str, int]:
        """23.6: "The extra EP cost can be paid by any or several participating partners" -- as the
        order's ``pay`` says, else by the first HQ's nation, then the next, as far as each can."""
        if pay:
            return {n: v for n, v in pay.items() if v}
        out: dict[str, int] = {}
        for n in dict.fromkeys(u.nation for u in units):
            part = min(eps, spendable(state, n))
            if part:
                out[n] = part
                eps -= part
        return out

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        hqs = self._hqs(state, side)
        out = []
        for h in hqs:
            if self._why_not(state, side, [h.id]) is None:
                out.append({"kind": "activate_hq", "hqs": [h.id]})
        for i, a in enumerate(hqs):
            for b in hqs[i + 1:]:
                if self._why_not(state, side, [a.id, b.id]) is None:
                    out.append({"kind": "activate_hq", "hqs": [a.id, b.id]})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        hqs = order.get("hqs")
        if not isinstance(hqs, list) or not all(isinstance(h, str) for h in hqs):
            raise IllegalOrder(self.rule, "activate_hq needs a list of HQ ids")
        why = self._why_not(state, state.decision.side, hqs, order.get("pay"))
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        off = offensive(state)
        units = [state.unit(h) for h in order["hqs"]]
        for u in units:
            state.tracks[f"{u.nation}.offensives"] = track(state, f"{u.nation}.offensives") - 1
            mark_active(u)
        if len(units) > 1:
            eps = adj.combined_offensive_eps(len(units), units[0].nation, w_turn(state), tables=state.ruleset.tables)
            for n, part in self._split(state, units, eps, order.get("pay")).items():
                pay_eps(state, n, part, "ETO-23.6", f"a combined offensive of {len(units)} HQs")
        off.update(mode="hq", nation=units[0].nation, nations=sorted({u.nation for u in units}),
                   hqs=[u.id for u in units])
        state.emit("offensive", side=off["side"], rule="ETO-23.6" if len(units) > 1 else self.rule,
                   text=f"{units[0].nation} offensive by {', '.join(u.id for u in units)}",
                   mode="hq", hqs=off["hqs"])


class ImpromptuOrder(OrderKind):
    """ETO-22.6: an offensive paid in EPs when the offensives track is empty."""

    kind = "impromptu"
    rule = "ETO-22.6"

    def _options(self, state: State, side: str) -> list[dict[str, Any]]:
        if is_active(state):
            return []
        out = []
        for n in majors_of_side(state, side):
            if track(state, f"{n}.offensives") > 0 or italian_restrictions.offensive_why_not(state, n):
                continue  # 46.1: a restricted Italy uses no offensive
            cost = adj.impromptu_cost(n, w_turn(state), tables=state.ruleset.tables)
            if spendable(state, n) < cost:
                continue
            for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
                if u.side != side or u.nation != n or u.props.get("activated"):
                    continue
                cls = values.unit_class(state, u)
                if not values.on_map(u) and not (cls == "hq" and box_allows_hq(state, u, u.location)):
                    continue  # 23.5, 24.1: the Middle East HQ may command from the Iraq box
                if cls == "hq":
                    out.append({"kind": "impromptu", "mode": "hq", "hq": u.id})
                elif cls == "general":
                    out.append({"kind": "impromptu", "mode": "general", "general": u.id})
            for h in _stack_hexes(state, side):
                if _offensive_nation(state, values.units_at(state, h, side), side) == n:
                    out.append({"kind": "impromptu", "mode": "stack", "hex": h})
        return out

    def legal(self, state: State) -> list[dict[str, Any]]:
        return self._options(state, state.decision.side)

    def check(self, state: State, order: dict[str, Any]) -> None:
        nation = _order_nation(state, order, state.decision.side if state.decision else "")
        if nation:
            why = italian_restrictions.offensive_why_not(state, nation)  # 46.1 (optional)
            if why:
                raise IllegalOrder.of(why, self.rule)
        super().check(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        off = offensive(state)
        side = off["side"]
        mode = order["mode"]
        if mode == "hq":
            who = state.unit(order["hq"])
        elif mode == "general":
            who = state.unit(order["general"])
        else:
            who = None
        nation = who.nation if who else _offensive_nation(state, values.units_at(state, order["hex"], side), side)
        cost = adj.impromptu_cost(nation, w_turn(state), tables=state.ruleset.tables)
        pay_eps(state, nation, cost, self.rule, "an impromptu offensive")
        off["impromptu"] = True
        if mode == "hq":
            mark_active(who)
            off.update(mode="hq", nation=nation, nations=[nation], hqs=[who.id])
        elif mode == "general":
            start_general(state, who, nation)
        else:
            start_stack(state, order["hex"], nation)
        state.emit("offensive", side=side, rule=self.rule, text=f"{nation} impromptu offensive ({mode})",
                   mode=mode, impromptu=True)


def _order_nation(state: State, order: dict[str, Any], side: str) -> str | None:
    """The nation whose offensive an activation order would spend (22.1-22.3), if it names one."""
    who = state.units_by_id.get(str(order.get("hq") or order.get("general") or ""))
    if who is not None:
        return who.nation
    if order.get("mode") == "stack" and isinstance(order.get("hex"), str) and state.map.has_hex(order["hex"]):
        return _offensive_nation(state, values.units_at(state, order["hex"], side), side)
    return None


def _stack_hexes(state: State, side: str) -> list[str]:
    """Hexes with unactivated friendly combat units: any of them may be a stack offensive (22.3
    asks for "a single stack of friendly units", not one already next to the enemy -- the stack
    may move up and then attack)."""
    return sorted({u.location for u in state.units_by_id.values()
                   if u.side == side and values.on_map(u) and values.is_combat_unit(state, u)
                   and not u.props.get("activated")})


def start_general(state: State, gen: Unit, nation: str, units: list[Unit] | None = None) -> None:
    """ETO-22.2: the general activates the units stacked with or adjacent to him: all eligible ones
    (own nation first, partners while the half rule holds) or the ``units`` the player names."""
    off = offensive(state)
    off.update(mode="general", nation=nation, nations=[nation], general=gen.id)
    mark_active(gen)
    chosen = units if units is not None else _greedy(state, general_group(state, gen), nation)
    activate_units(state, chosen, "ETO-22.2")


def general_subset_why_not(state: State, order: dict[str, Any]) -> Refusal | None:
    """ETO-22.2 / 22.0: a general activation naming its units ("A player must specify the units he
    activates"): a non-empty subset of the units stacked with or adjacent to him, at least half of
    the land units of his nation."""
    gen = state.units_by_id.get(str(order.get("general", "")))
    side = state.decision.side
    if gen is None or values.unit_class(state, gen) != "general" or gen.side != side or not values.on_map(gen) \
            or gen.props.get("activated"):
        return Refusal("ETO-22.2", "name an unactivated general of yours on the map")
    why = italian_restrictions.offensive_why_not(state, gen.nation)  # 46.1 (optional)
    if why:
        return why
    if track(state, f"{gen.nation}.offensives") <= 0:
        return Refusal("ETO-22.2", f"{gen.nation} has no offensive on its track")
    ids = order.get("units")
    group = {u.id: u for u in general_group(state, gen)}
    if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids) or not set(ids) <= set(group):
        return Refusal("ETO-22.2", f"the units must be stacked with or adjacent to {gen.id} and not yet activated")
    land = [group[i] for i in ids if values.is_combat_unit(state, group[i])]
    mine = sum(1 for u in land if u.nation == gen.nation)
    if mine * 2 < len(land):
        return Refusal("ETO-22.2", f"at least half the activated land units must be {gen.nation}")
    return None


def start_stack(state: State, label: str, nation: str | None, named: list[Unit] | None = None) -> None:
    """22.3: the stack's units (those ``named``, else as many as the half rule allows)."""
    off = offensive(state)
    off.update(mode="stack", nation=nation, nations=[nation] if nation else [], stack_hex=label)
    units = [u for u in values.units_at(state, label, off["side"]) if can_activate(state, u, off["side"])]
    activate_units(state, named if named is not None else _greedy(state, units, nation), "ETO-22.3")


def _minor_units(state: State, order: dict[str, Any], side: str) -> list[Unit]:
    """22.4: the minor's units an offensive of this form may activate: those inside its original
    borders ("home"), or those of one stack outside them ("stack")."""
    n = order["nation"]
    if order["form"] == "home":
        home = home_mask(state, n, original=True)
        return [u for u in state.units_by_id.values() if u.nation == n and can_activate(state, u, side)
                and home[state.map.index(u.location)]]
    return [u for u in values.units_at(state, order["hex"], side) if u.nation == n and can_activate(state, u, side)]


def _named_why_not(state: State, order: dict[str, Any], side: str) -> Refusal | None:
    """22.0 "A player must specify the units he activates": a stack (22.3) or minor (22.4)
    offensive naming its units -- some of those it could activate, at least half the major's."""
    ids = order.get("units")
    if order["mode"] == "stack":
        pool = [u for u in values.units_at(state, order["hex"], side) if can_activate(state, u, side)]
    else:
        pool = _minor_units(state, order, side)
    by_id = {u.id: u for u in pool}
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids) \
            or len(set(ids)) != len(ids) or not set(ids) <= set(by_id):
        where = f"in {order['hex']}" if order["mode"] == "stack" else "that this offensive may activate"
        return Refusal("ETO-22.0", f"name some of the unactivated units {where}")
    if order["mode"] == "stack":
        nation = _offensive_nation(state, values.units_at(state, order["hex"], side), side)
        land = [by_id[i] for i in ids if values.is_combat_unit(state, by_id[i])]
        if nation is not None and 2 * sum(u.nation == nation for u in land) < len(land):
            return Refusal("ETO-22.0", f"at least half the activated land units must be {nation}")
    return None


class ActivateOrder(OrderKind):
    kind = "activate"
    rule = "ETO-22.0"

    def _start_options(self, state: State, side: str) -> list[dict[str, Any]]:
        out = []
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            if u.side == side and values.on_map(u) and values.unit_class(state, u) == "general" \
                    and not u.props.get("activated") and track(state, f"{u.nation}.offensives") > 0 \
                    and italian_restrictions.offensive_why_not(state, u.nation) is None:
                out.append({"kind": "activate", "mode": "general", "general": u.id})
        for h in _stack_hexes(state, side):
            n = _offensive_nation(state, values.units_at(state, h, side), side)
            if n and track(state, f"{n}.offensives") > 0 and italian_restrictions.offensive_why_not(state, n) is None:
                out.append({"kind": "activate", "mode": "stack", "hex": h})
        for n in state.game.scenario.sides[side]:
            if values.nation_kind(state, n) != "minor":
                continue
            if track(state, f"{n}.minor_offensives_used") >= minor_offensives_allowed(state, n):
                continue
            mine = [u for u in state.units_by_id.values() if u.nation == n and can_activate(state, u, side)
                    and values.is_combat_unit(state, u)]
            home = home_mask(state, n, original=True)
            if any(home[state.map.index(u.location)] for u in mine):
                out.append({"kind": "activate", "mode": "minor", "nation": n, "form": "home"})
            for h in sorted({u.location for u in mine if not home[state.map.index(u.location)]}):
                out.append({"kind": "activate", "mode": "minor", "nation": n, "form": "stack", "hex": h})
        return out

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        if not is_active(state):
            key = state.step.key if state.step else ""
            return self._start_options(state, side) if key == "offensive/command" else []
        elig = eligible_now(state)
        out = [{"kind": "activate", "unit": u.id} for u in elig if half_rule_ok(state, [u])]
        if len(out) > 1:
            out.append({"kind": "activate", "all": True})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        key = state.step.key if state.step else ""
        if key not in ACTIVATION_STEPS:
            raise IllegalOrder("ETO-22.0", "units are activated only in Steps 1-3 of an offensive")
        if order.get("mode") in ("general", "stack") and not is_active(state):
            nation = _order_nation(state, order, state.decision.side)
            why = italian_restrictions.offensive_why_not(state, nation) if nation else None  # 46.1 (optional)
            if why:
                raise IllegalOrder.of(why, self.rule)
        if order.get("mode") == "general" and "units" in order and not is_active(state) \
                and key == "offensive/command":
            why = general_subset_why_not(state, order)
            if why:
                raise IllegalOrder.of(why, "ETO-22.2")
            return
        if order.get("mode") in ("stack", "minor") and "units" in order and not is_active(state) \
                and key == "offensive/command":
            base = {k: v for k, v in order.items() if k != "units"}
            if base not in self.legal(state):
                raise IllegalOrder(self.rule, "that activation is not open now (one kind of activation per "
                                   "offensive, 22.0; an offensive on the track is needed, 22.1-22.3)")
            why = _named_why_not(state, order, state.decision.side)
            if why:
                raise IllegalOrder.of(why, "ETO-22.0")
            return
        if order not in self.legal(state):
            if "unit" in order and is_active(state):
                u = state.units_by_id.get(order["unit"])
                if u is not None and u in eligible_now(state) and not half_rule_ok(state, [u]):
                    raise IllegalOrder("ETO-22.0", f"activating {u.id} would leave fewer than half the "
                                       f"activated land units {offensive(state)['nation']}")
                raise IllegalOrder("ETO-23.0", f"{order['unit']} is not an unactivated unit in the radius "
                                   "of an activated HQ")
            raise IllegalOrder(self.rule, "that activation is not open now (one kind of activation per "
                               "offensive, 22.0; an offensive on the track is needed, 22.1-22.3)")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        off = offensive(state)
        side = off["side"]
        if "unit" in order:
            activate_units(state, [state.unit(order["unit"])], "ETO-23.0")
            return
        if order.get("all"):
            activate_units(state, _greedy(state, eligible_now(state), off.get("nation")), "ETO-23.0")
            return
        mode = order["mode"]
        if mode == "general":
            gen = state.unit(order["general"])
            state.tracks[f"{gen.nation}.offensives"] = track(state, f"{gen.nation}.offensives") - 1
            named = [state.unit(u) for u in order["units"]] if "units" in order else None
            start_general(state, gen, gen.nation, named)
        elif mode == "stack":
            n = _offensive_nation(state, values.units_at(state, order["hex"], side), side)
            state.tracks[f"{n}.offensives"] = track(state, f"{n}.offensives") - 1
            named = [state.unit(u) for u in order["units"]] if "units" in order else None
            start_stack(state, order["hex"], n, named)
        else:
            n = order["nation"]
            state.tracks[f"{n}.minor_offensives_used"] = track(state, f"{n}.minor_offensives_used") + 1
            off.update(mode="minor", nation=n, nations=[n], minor_form=order["form"])
            units = _minor_units(state, order, side)
            if "units" in order:
                units = [u for u in units if u.id in set(order["units"])]
            activate_units(state, sorted(units, key=lambda u: u.id), "ETO-22.4")
        state.emit("offensive", side=side, rule={"general": "ETO-22.2", "stack": "ETO-22.3",
                                                 "minor": "ETO-22.4"}[mode],
                   text=f"{off.get('nation')} offensive by {mode}", mode=mode)


def _unused() -> np.ndarray:  # pragma: no cover
    return np.zeros(0)
