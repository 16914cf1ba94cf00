"""War events (optional rule SSA-25) and countries entering the war (SSA-18.8-18.10).

* SSA-25.G, 25.2: at the start of each game turn (step ``start/war-events``, sequence.toml,
  ``when = "optional:SSA-25"``) the player with the higher national morale rolls; the Allied
  player on a tie.  SSA-25.1: two dice, the first the tens digit, the second the ones (11-66).
* SSA-25.3: the outcome is read on the War Events Table (tables/war_events.toml ``[outcomes]``,
  authored, gap G-14) and the result applied (:data:`RESULTS`):

  - leaders (Axis / Allied): one leader of the side waiting off the map (Force pool, unplaced)
    drawn at random by a die; the owner places it (``event_place`` order, an interrupt);
  - Allied partisans: 3 / 2 / 1 new partisan units by Allied morale, underground side up; the
    Allies place them (``event_place``) on city, clear, forestation or rough hexes;
  - Revolt / Unrest / Europe Rallies (and the authored Eastern Front event): German MP of this
    turn x0 / x½ (rounded up) / x2 (``markers["war_event_mp"]``, applied to the Accrue step by
    :func:`scale_accrual`);
  - Assassination Plot: Axis morale -3 x 1d6;
  - Coup in Latin America: Axis High: the Axis chooses one of the eight countries to become
    pro-Axis; Axis Poor: the Allies choose one pro-Axis country to become pro-Allied
    (``coup_choice`` order, an interrupt; subversion.turn_country);
  - Argentina / Brazil / Chile: the country enters the war (:func:`enter_war`);
  - ULTRA / ENIGMA: ``markers["reveal_all"][side] = turn label``: every enemy stack is visible
    to that side this turn (SSA-19.X, intelligence.revealed_hexes); the mark lapses with the turn;
  - "Fuhrer order" (SC4 SR5) and no event: logged, no effect (docs/rulings-ssa.md).

* SSA-18.8-18.10 and SC5 SR2: :func:`enter_war` brings a country's ``[[reinforcements]]`` entry
  (trigger ``country_enters_war``) into the Latin America box for a permitted side
  (war_events.toml ``[entering_war]``); :func:`neutral_box_trigger` fires SC5 SR2 (a player's
  unit in the neutral Latin America box brings Argentina, Brazil and Chile in on the other side).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.flow import Step
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.occupation import city_hexes
from workbench.rulesets.ssa.reinforcements import new_units
from workbench.rulesets.ssa.special import special_rules, start_reduced
from workbench.rulesets.ssa.subversion import (
    country_mask,
    country_side,
    in_use,
    morale_level,
    subvertible,
    turn_country,
)

OPTIONAL_RULE = "SSA-25"
OTHER = {"axis": "allies", "allies": "axis"}
ABC = ("AR", "BR", "CH")


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["war_events"]


def level(state: State, side: str) -> str:
    """A side's morale level for the events (``"poor"`` is the rulebook's 'low', SSA-21.2)."""
    return morale_level(state, side) or table(state)["dice"]["default_level"]


def roller(state: State) -> str:
    """SSA-25.G, 25.2: the side with the higher national morale rolls; the Allies on a tie."""
    ax, al = state.tracks.get("axis.morale"), state.tracks.get("allies.morale")
    if ax is not None and al is not None and float(ax) > float(al):
        return "axis"
    return table(state)["dice"]["tie_roller"]


def outcome_of(dice: list[int]) -> int:
    """SSA-25.1: the first die is the tens digit, the second the ones ("4" then "1" = 41)."""
    return dice[0] * 10 + dice[1]


def start_of_turn(state: State, step: Step | None = None) -> None:
    """SSA-25.G: roll on the War Events Table and apply the result."""
    if not in_use(state, OPTIONAL_RULE):
        return
    reveal = state.markers.get("reveal_all")
    if reveal:  # SSA-19.X: last turn's ULTRA / ENIGMA has lapsed
        state.markers["reveal_all"] = {s: t for s, t in reveal.items() if t == state.turn_label}
    who = roller(state)
    dice = state.roll(2, purpose=f"war event ({who} rolls: first die tens, second ones)", rule="SSA-25.1", side=who)
    outcome = outcome_of(dice)
    name = table(state)["outcomes"][str(outcome)]
    spec = table(state)["results"][name]
    state.emit("war_event", side=who, rule="SSA-25.3", text=f"war event {outcome}: {spec['text']}",
               outcome=outcome, event=name)
    RESULTS[name](state, name, spec)


# --------------------------------------------------------------------------- results
def _no_effect(state: State, name: str, why: str, rule: str = "SSA-25.3") -> None:
    state.emit("war_event_effect", rule=rule, text=f"{name.replace('_', ' ')}: no effect ({why})", event=name,
               effect="none")


def _levels_ok(state: State, name: str, spec: dict[str, Any]) -> bool:
    for side, wanted in spec.get("when", {}).items():
        have = level(state, side)
        if have not in wanted:
            _no_effect(state, name, f"{side} morale is {have}, needs {' or '.join(wanted)}")
            return False
    return True


def _leader(state: State, name: str, spec: dict[str, Any]) -> None:
    side = spec["side"]
    pool = sorted((u for u in state.units_by_id.values() if u.side == side and values.is_leader(state, u)
                   and u.location in spec["leader_pool"]), key=lambda u: u.id)
    if not pool:
        _no_effect(state, name, f"no {side} leader is waiting off the map")
        return
    (die,) = state.roll(purpose=f"which {side} leader ({len(pool)} waiting)", rule="SSA-25.3",
                        sides=len(pool), side=side)
    chosen = pool[die - 1]
    state.emit("war_event_effect", side=side, rule="SSA-25.3", text=f"{chosen.id} drawn: {side} place it",
               event=name, unit=chosen.id)
    _ask_placement(state, side, [chosen.id], "leader", spec)


def _partisans(state: State, name: str, spec: dict[str, Any]) -> None:
    side = spec["side"]
    lvl = level(state, side)
    n = int(spec["count_by_level"].get(lvl, 0))
    if n <= 0:
        _no_effect(state, name, f"{side} morale is {lvl}")
        return
    types = state.ruleset.unit_types
    made = []
    for k in range(1, n + 1):
        uid = f"{spec['nation']}-we-{state.turn_label}-{k}"
        u = Unit(uid, side, spec["nation"], spec["type"], types[spec["type"]].get("size"), "Force pool")
        u.props["underground"] = True
        state.units_by_id[uid] = u
        made.append(uid)
    state.emit("war_event_effect", side=side, rule="SSA-25.3", event=name, units=made,
               text=f"{n} partisans ({lvl} Allied morale), underground side up: {', '.join(made)}")
    _ask_placement(state, side, made, "partisan", spec)


def _mp(state: State, name: str, spec: dict[str, Any]) -> None:
    if not _levels_ok(state, name, spec):
        return
    state.markers["war_event_mp"] = {"turn": state.turn_label, "track": spec["track"],
                                     "factor": spec["mp_factor"], "event": name}
    state.emit("war_event_effect", side="axis", rule="SSA-25.3", event=name,
               text=f"{spec['track']} mobilization points this turn x{spec['mp_factor']:g} (rounded up)")


def _eastern_front(state: State, name: str, spec: dict[str, Any]) -> None:
    rules = special_rules(state, "soviet_union_conquered")
    if not rules or rules[0].get("value") is not spec["when_soviet_union_conquered"]:
        _no_effect(state, name, "the Soviet Union is conquered, or the scenario does not say",
                   "SSA-25.3 (authored, G-14)")
        return
    _mp(state, name, spec)


def _morale(state: State, name: str, spec: dict[str, Any]) -> None:
    m = spec["morale"]
    key = f"{m['side']}.morale"
    dice = state.roll(m["dice"], purpose=f"{name.replace('_', ' ')}: morale loss", rule="SSA-25.3", side=m["side"])
    delta = sum(dice) * int(m["times"])
    if key not in state.tracks:
        _no_effect(state, name, "the scenario keeps no morale track")
        return
    before = float(state.tracks[key])
    state.tracks[key] = int(before + delta) if float(before).is_integer() else before + delta
    state.emit("morale", side=m["side"], rule="SSA-25.3", event=name, delta=delta,
               text=f"{m['side']} morale {before:g} {delta:+d} = {state.tracks[key]:g}")


def coup_options(state: State, gaining: str, spec: dict[str, Any]) -> list[str]:
    """SSA-25.3 Coup: the countries the gaining player may choose."""
    if gaining == "axis":
        codes = spec["axis_high_countries"]
        return [c for c in codes if country_mask(state, c) is not None and country_side(state, c) != "axis"]
    return [c for c in subvertible(state) if country_mask(state, c) is not None and country_side(state, c) == "axis"]


def _coup(state: State, name: str, spec: dict[str, Any]) -> None:
    if not _levels_ok(state, name, spec):
        return
    gaining = "axis" if level(state, "axis") == "high" else "allies"
    options = coup_options(state, gaining, spec)
    if not options:
        _no_effect(state, name, f"no country the {gaining} could gain")
        return
    state.push_interrupt("coup_choice", gaining, "SSA-25.3", f"coup in Latin America: choose the country "
                         f"that becomes pro-{gaining} ({', '.join(options)})", ["coup_choice"], options=options)


def _country(state: State, name: str, spec: dict[str, Any]) -> None:
    code = spec["country"]
    if spec["joins"] in ("axis", "allies"):
        if not _levels_ok(state, name, spec):
            return
        side = spec["joins"]
    else:  # Chile: the one side at High morale
        high = [s for s in ("axis", "allies") if level(state, s) == "high"]
        if len(high) != 1:
            _no_effect(state, name, "both or neither side at high morale: Chile stays neutral")
            return
        side = high[0]
    if not enter_war(state, code, side, spec["rule"][-1] if isinstance(spec["rule"], list) else spec["rule"]):
        _no_effect(state, name, f"{code} is already in the war or has no forces in this scenario")


def _reveal(state: State, name: str, spec: dict[str, Any]) -> None:
    side = spec["reveal_to"]
    state.markers.setdefault("reveal_all", {})[side] = state.turn_label
    state.emit("war_event_effect", side=side, rule="SSA-19.X", event=name,
               text=f"{side} may examine every enemy stack this turn ({state.turn_label})")


def _fuhrer(state: State, name: str, spec: dict[str, Any]) -> None:
    ignored = any(r.get("category") == spec["category"] for r in special_rules(state, "war_events_ignored"))
    _no_effect(state, name, "ignored by the scenario (SC4 SR5)" if ignored else
               "its content is not printed (authored reading)", "SSA-25.3 (authored, G-14)")


def _nothing(state: State, name: str, spec: dict[str, Any]) -> None:
    _no_effect(state, name, "quiet turn", "SSA-25.3 (authored, G-14)")


RESULTS: dict[str, Callable[[State, str, dict[str, Any]], None]] = {
    "axis_leader": _leader, "allied_leader": _leader, "allied_partisans": _partisans,
    "revolt_in_europe": _mp, "unrest_in_europe": _mp, "europe_rallies_to_germany": _mp,
    "assassination_plot_in_germany": _morale, "coup_in_latin_america": _coup,
    "argentina": _country, "brazil": _country, "chile": _country, "ultra": _reveal, "enigma": _reveal,
    "eastern_front": _eastern_front, "fuhrer_order": _fuhrer, "no_event": _nothing,
}


# --------------------------------------------------------------------------- MP multipliers
def scale_accrual(accrue: Callable[[State, Any], None]) -> Callable[[State, Any], None]:
    """SSA-25.3: Revolt / Unrest / Europe Rallies scale this turn's German income (I and NI, each
    rounded up; volunteer points untouched), after every other modifier (mobilization.toml
    ``[modifiers] order``)."""

    def run(state: State, step: Any = None) -> None:
        mark = state.markers.get("war_event_mp")
        if not mark or mark.get("turn") != state.turn_label:
            accrue(state, step)
            return
        keys = [f"{mark['track']}.mp.industrial", f"{mark['track']}.mp.non_industrial"]
        before = {k: int(state.tracks.get(k, 0)) for k in keys}
        accrue(state, step)
        for k in keys:
            got = int(state.tracks.get(k, 0)) - before[k]
            if got > 0:
                state.tracks[k] = before[k] + math.ceil(got * float(mark["factor"]))
        gained = {k.split(".")[-1]: int(state.tracks.get(k, 0)) - before[k] for k in keys}
        state.emit("income", side="axis", rule="SSA-25.3", track=mark["track"],
                   text=f"{mark['event'].replace('_', ' ')}: {mark['track']} income this turn "
                   f"x{float(mark['factor']):g} = {gained['industrial']} I + {gained['non_industrial']} NI",
                   **gained)

    return run


# --------------------------------------------------------------------------- entering the war
def enter_war(state: State, code: str, side: str, rule: str) -> list[Unit]:
    """SSA-18.8-18.10: Argentina, Brazil or Chile enters the war on ``side``: its scenario
    ``[[reinforcements]]`` entries with trigger ``country_enters_war`` arrive, owned by ``side``,
    in their box (the Latin America box).  A side the country may not join
    (war_events.toml ``[entering_war]``) leaves it neutral.  Returns the arrived units."""
    allowed = table(state)["entering_war"]["permitted"].get(code, [])
    entered = state.markers.setdefault("entered_war", [])
    if side not in allowed:
        state.emit("war_event_effect", rule=table(state)["entering_war"]["rule"].get(code, "SSA-18"),
                   text=f"{code} may not join the {side}: it stays neutral", country=code)
        return []
    if code in entered:
        return []
    arrived: list[Unit] = []
    for entry in state.game.scenario.raw.get("reinforcements", []):
        trig = entry.get("trigger") or {}
        if trig.get("event") != "country_enters_war" or trig.get("country") != code:
            continue
        if entry.get("side") not in (side, "event"):
            continue
        units = new_units(state, entry, side=side, at=entry.get("at", "Latin America"))
        start_reduced(state, units)
        for u in units:
            state.units_by_id[u.id] = u
            if u.nation not in entered:
                entered.append(u.nation)
        state.markers.setdefault("arrived", []).append(entry.get("id"))
        arrived += units
    if code not in entered:
        entered.append(code)
    state.markers.setdefault("country_side", {})[code] = side
    state.emit("enters_war", side=side, rule=rule, country=code, units=[u.id for u in arrived],
               text=f"{code} enters the war on the {side} side: {', '.join(u.id for u in arrived) or 'no units'} "
               f"arrive in the Latin America box")
    return arrived


def neutral_box_trigger(state: State, step: Any = None) -> None:
    """SC5 SR2 (special rule ``neutral_box_trigger``): once a player's unit is in the neutral
    Latin America box, Argentina, Brazil and Chile join the other side (each only if that side
    is one it may join, SSA-18.8-18.10)."""
    for r in special_rules(state, "neutral_box_trigger"):
        if state.markers.get("neutral_box_triggered"):
            return
        box = r.get("box", "Latin America")
        codes = r.get("countries", list(ABC))
        nations = {u.nation for u in state.units_by_id.values() if u.nation in codes}
        inside = sorted({u.side for u in state.units_by_id.values()
                         if u.location == box and u.nation not in nations and u.nation not in codes})
        if len(inside) != 1:
            continue  # nobody there yet (or both at once: authored, nobody is 'the other side')
        state.markers["neutral_box_triggered"] = inside[0]
        join = OTHER[inside[0]] if r.get("join", "other_side") == "other_side" else r["join"]
        for code in codes:
            enter_war(state, code, join, r.get("rule", "SSA-SC5 SR2"))


# --------------------------------------------------------------------------- placement and coup orders
def _placeable(state: State, kind: str, side: str, spec: dict[str, Any]) -> list[str]:
    """Hexes a war-event unit may be placed in: leaders 'anywhere' (a land hex with no enemy
    unit, authored); partisans any city, clear, forestation or rough hex with no enemy unit."""
    hm = state.map
    enemy = {u.location for u in state.units_by_id.values() if u.side != side}
    land = ~hm.is_water
    if kind == "partisan":
        terrain = hm.hexes["terrain"].to_list()
        cities = set(city_hexes(state))
        ok = [i for i in range(hm.size) if land[i] and (i in cities or terrain[i] in spec["terrain"])]
    else:
        country = hm.hexes["country"].to_list()
        ok = [i for i in range(hm.size) if land[i] and country[i] is not None]
    neutral = state.arrays.get("neutral")
    return [hm.label(i) for i in ok if hm.label(i) not in enemy and (neutral is None or not neutral[i])]


def _ask_placement(state: State, side: str, ids: list[str], kind: str, spec: dict[str, Any]) -> None:
    state.push_interrupt("event_place", side, "SSA-25.3", f"place {', '.join(ids)} ({spec['text'].split(':')[0]})",
                         ["event_place"], pending=list(ids), place=kind, result=spec["text"].split(":")[0])


class EventPlaceOrder(OrderKind):
    """SSA-25.3: place a unit a war event gave (a leader 'anywhere', partisans on city, clear,
    forest or rough hexes): ``{"kind": "event_place", "unit": id, "hex": label}``."""

    kind = "event_place"
    rule = "SSA-25.3"

    def _spec(self, state: State) -> dict[str, Any]:
        data = state.frames[-1]["data"]
        name = "allied_partisans" if data["place"] == "partisan" else "axis_leader"
        return table(state)["results"][name]

    def legal(self, state: State) -> list[dict[str, Any]]:
        data = state.frames[-1]["data"]
        uid = data["pending"][0]
        hexes = _placeable(state, data["place"], state.unit(uid).side, self._spec(state))
        return [{"kind": self.kind, "unit": uid, "hex": h} for h in hexes]

    def check(self, state: State, order: dict[str, Any]) -> None:
        data = state.frames[-1]["data"]
        if order.get("unit") not in data["pending"]:
            raise IllegalOrder(self.rule, f"units to place now: {', '.join(data['pending'])}")
        side = state.unit(order["unit"]).side
        if order.get("hex") not in _placeable(state, data["place"], side, self._spec(state)):
            where = ("a city, clear, forest or rough hex without enemy units" if data["place"] == "partisan"
                     else "a land hex on the map without enemy units")
            raise IllegalOrder(self.rule, f"{order.get('hex')!r}: a {data['place']} from a war event must be "
                               f"placed in {where}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f = state.frames[-1]
        u = state.unit(order["unit"])
        u.location = order["hex"]
        state.emit("deploy", side=u.side, rule=self.rule, unit=u.id, hex=u.location,
                   text=f"{u.id} placed at {u.location} ({f['data']['result']})")
        f["data"]["pending"].remove(u.id)
        if not f["data"]["pending"]:
            state.pop_interrupt()


class CoupChoiceOrder(OrderKind):
    """SSA-25.3 Coup in Latin America: the gaining player chooses the country,
    ``{"kind": "coup_choice", "country": code}``."""

    kind = "coup_choice"
    rule = "SSA-25.3"

    def legal(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": self.kind, "country": c} for c in state.frames[-1]["data"]["options"]]

    def check(self, state: State, order: dict[str, Any]) -> None:
        options = state.frames[-1]["data"]["options"]
        if order.get("country") not in options:
            raise IllegalOrder(self.rule, f"{order.get('country')!r} cannot change sides by this coup; "
                               f"choose one of {', '.join(options)}")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.frames[-1]["side"]
        state.pop_interrupt()
        turn_country(state, order["country"], side, "SSA-25.3", "coup")


ORDER_KINDS = {"event_place": EventPlaceOrder(), "coup_choice": CoupChoiceOrder()}
PROCEDURES = {"start/war-events": start_of_turn}

__all__ = ["ORDER_KINDS", "PROCEDURES", "enter_war", "register", "neutral_box_trigger", "outcome_of", "roller",
           "scale_accrual", "start_of_turn"]


def _chain(*procs: Callable[[State, Any], None] | None) -> Callable[[State, Any], None]:
    def run(state: State, step: Any) -> None:
        for p in procs:
            if p is not None:
                p(state, step)

    return run


def register(rs: Any) -> None:
    """Add the war-event (SSA-25), subversion (SSA-27) and entering-the-war (SSA-18.8-18.10,
    SC5 SR2) orders and procedures to an :class:`SSARuleset`."""
    from workbench.rulesets.ssa import subversion

    rs.order_kinds.update(ORDER_KINDS)
    rs.order_kinds.update(subversion.ORDER_KINDS)
    p = rs.procedures
    p.update(PROCEDURES)
    if "mobilization/accrue" in p:
        p["mobilization/accrue"] = scale_accrual(p["mobilization/accrue"])
    for key in ("player/initial-movement:exit", "player/mechanized-movement:exit"):
        p[key] = _chain(p.get(key), neutral_box_trigger)
