"""Land combat (SSA-11.0): odds, column shifts, the die, and every result of SSA-11.9.

An attack order names the attacking units and the hex(es) attacked:
``{"kind": "attack", "attackers": ["GE-1", "GE-2"], "targets": ["0905"]}``,
optionally with ``"support"`` (air units flying ground support over a target,
SSA-12.1) and ``"gunfire"`` (the attacker's fleets in a target hex, SSA-11.7).

The arithmetic is :mod:`workbench.rulesets.ssa.adjudicate`; this module checks
the order against the rules, gathers the strengths and shifts, rolls, and
applies the result.  :func:`assess` gives the same numbers without rolling,
for the attack planner and the bots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import adjudicate as adj
from workbench.rulesets.ssa import (
    assault,
    chemical,
    leaders,
    morale,
    mountain_troops,
    values,
    weather,
)
from workbench.rulesets.ssa.casualties import naval_strength
from workbench.rulesets.ssa.losses import eliminate, reduce
from workbench.rulesets.ssa.movement import other
from workbench.rulesets.ssa.retreat import start_retreats
from workbench.rulesets.ssa.supply import supply_status

FLEETS = ("battle_fleet", "carrier_fleet")


@dataclass
class Assessment:
    """Everything about an attack except the die: strengths, shifts, column, outcome odds."""

    attackers: list[str]
    defenders: list[str]
    attack: float
    defense: float
    land_attack: float
    land_defense: float
    base_column: str
    shifts: list[tuple[int, str, str]] = field(default_factory=list)  # (columns, why, rule)
    column: str = ""
    contributions: list[tuple[str, float, str]] = field(default_factory=list)

    def distribution(self, tables: dict[str, Any] | None = None) -> dict[str, Fraction]:
        return adj.outcome_distribution(self.column, tables=tables)


def _land_units_at(state: State, label: str, side: str) -> list[Unit]:
    return [u for u in state.units_by_id.values() if u.location == label and u.side == side
            and values.is_land(state, u) and not values.is_leader(state, u) and not u.props.get("carried")]


def assess(state: State, side: str, attackers: list[str], targets: list[str],
           support: list[str] = (), gunfire: list[str] = (), chemical_attack: bool = False) -> Assessment:
    """Strengths, shifts and column of an attack (SSA-11.G-11.8, 12.1; a chemical attack, SSA-28.3a,
    28.4a), without rolling."""
    hm = state.map
    tables = state.ruleset.tables
    enemy = other(side)
    supplied = {**supply_status(state, side), **supply_status(state, enemy)}
    att_units = [state.unit(u) for u in attackers]
    # SSA-3.3 brackets: without a security unit in the attack, bracketed defenders take no part
    security = any(values.value(state, u, "security", False) for u in att_units)
    dfn_units = [u for t in targets for u in _land_units_at(state, t, enemy)
                 if security or not values.value(state, u, "security_only", False)]
    contrib: list[tuple[str, float, str]] = []
    land_att = 0.0
    for u in att_units:
        v = adj.supply_strength(values.cf(state, u), supplied.get(u.id, False))
        land_att += v
        contrib.append((u.id, v, "SSA-11.5 (halved: out of supply)" if not supplied.get(u.id) else "SSA-11.G"))
    land_dfn = 0.0
    for u in dfn_units:
        v = adj.supply_strength(values.cf(state, u), supplied.get(u.id, False))
        land_dfn += v
        contrib.append((u.id, v, "SSA-11.5 (halved: out of supply)" if not supplied.get(u.id) else "SSA-11.3"))
    bomb = sum(float(values.value(state, state.unit(a), "bombardment", 0) or 0) for a in support)
    gs = adj.ground_support(land_att, bomb)
    if support:
        contrib.append(("ground support", gs, "SSA-12.1 (capped at the land strength)"))
    guns_att = sum(naval_strength(state, state.unit(f)) for f in gunfire)
    if gunfire:
        contrib.append(("naval gunfire (attacker)", guns_att, "SSA-11.7"))
    guns_dfn = sum(naval_strength(state, u) for t in targets for u in state.units_by_id.values()
                   if u.location == t and u.side == enemy and u.type in FLEETS)
    if guns_dfn:
        contrib.append(("naval gunfire (defender)", guns_dfn, "SSA-11.7"))
    attack = land_att + gs + guns_att
    defense = land_dfn + guns_dfn
    base = adj.odds_column(attack, defense, tables=tables)
    shifts: list[tuple[int, str, str]] = []
    terrains = [hm.hexes["terrain"][hm.index(t)] for t in targets]
    across = all(_across_river(state, state.unit(a).location, t) for a in attackers for t in targets) \
        and not weather.frozen_river(state, list(targets))  # SSA-26.3-F: frozen rivers
    city = tables["terrain"].get("features", {}).get("industrial_city", {})
    city_cols = int(city["defender"]) if city.get("defender") not in ("*", None) else 0
    kinds = hm.hexes["city_kind"].to_list() if "city_kind" in hm.hexes.columns else None

    def hex_shift(k: int) -> tuple[int, bool]:
        """One defending hex's columns: its terrain and its industrial city (TEC) together."""
        industrial = bool(kinds) and kinds[hm.index(targets[k])] == "industrial" and city_cols != 0
        return adj.terrain_shift([terrains[k]], False, tables=tables) + (city_cols if industrial else 0), industrial

    # 11.8: "If defending units are on multiple hexes, use the terrain type that is most favorable to
    # the defense" -- the one hex whose terrain and city give most, not the best of each added up
    best = max(range(len(targets)), key=lambda k: hex_shift(k)[0])
    industrial = hex_shift(best)[1]
    tshift = adj.terrain_shift([terrains[best]], across, tables=tables)
    if tshift:
        shifts.append((-tshift, f"terrain {', '.join(terrains)}" + (", all across a river" if across else ""),
                       "SSA-11.8, TEC"))
    if industrial:
        shifts.append((-city_cols, "industrial city", "TEC"))
    shifts += assault.defender_shifts(state, att_units)  # G-09, SSA-22.2, SSA-22.1e
    shifts += leaders.land_combat_shifts(state, side, att_units, list(targets))  # SSA-24.8-A, G
    shifts += mountain_troops.combat_shifts(state, att_units, dfn_units, list(targets))  # SSA-22.3c-d
    # SSA-26.3-F/S in the defender's hex (26.5); SSA-22.3e: mountain troops alone ignore Freeze
    wshift = weather.combat_shift(state, list(targets), mountain_troops.ignore_freeze(state, att_units))
    if wshift:
        shifts.append(wshift)
    if chemical_attack:  # SSA-28.3a, 28.4a
        cshift = chemical.shift(state, "land")
        if cshift:
            shifts.append(cshift)
    column = base
    for n, _, _ in shifts:
        column = adj.shift(column, n, tables=tables)
    return Assessment(list(attackers), [u.id for u in dfn_units], attack, defense, land_att, land_dfn,
                      base, shifts, column, contrib)


def _across_river(state: State, a: str, b: str) -> bool:
    hm = state.map
    if a == b:  # a unit that landed in the hex it attacks (G-09) crosses no hexside
        return False
    return hm.side_has(a, b, "river") or hm.side_has(a, b, "canal")


class AttackOrder(OrderKind):
    kind = "attack"
    rule = "SSA-11.0"

    def _eligible_attackers(self, state: State, side: str) -> list[Unit]:
        return [u for u in state.units_by_id.values()
                if u.side == side and u.location.isdigit() and values.is_land(state, u)
                and not values.is_leader(state, u) and not u.props.get("attacked")
                and not values.value(state, u, "defend_only", False) and values.cf(state, u) > 0
                and not u.props.get("carried")]

    def _targets(self, state: State, side: str) -> set[str]:
        """Hexes with enemy land units, none of them attacked already this phase (11.2: "No unit
        may ... be attacked, more than once per friendly combat phase" -- a unit that retreated
        into another hex still counts; a hex whose defenders all left may be attacked again)."""
        done = set(state.markers.get("attacked_units", []))
        out: set[str] = set()
        hit: set[str] = set()
        for u in state.units_by_id.values():
            if u.side != side and u.location.isdigit() and values.is_land(state, u) \
                    and not values.is_leader(state, u) and not u.props.get("carried"):
                out.add(u.location)
                if u.id in done:
                    hit.add(u.location)
        return out - hit

    def legal(self, state: State) -> list[dict[str, Any]]:
        """Every single-hex attack by every subset of eligible adjacent units (all-in and each unit
        alone when more than six could join; any valid subset is still accepted)."""
        side = state.decision.side
        hm = state.map
        attackers = [(u.id, hm.index(u.location)) for u in self._eligible_attackers(state, side)]
        out = []
        for t in sorted(self._targets(state, side)):
            near = set(hm.neighbors[hm.index(t)].tolist())  # a set: one lookup per attacker
            ti = hm.index(t)
            adjacent = sorted(uid for uid, i in attackers if i in near or i == ti)
            adjacent = [a for a in adjacent if self._why_not(state, side, [a], [t]) is None]
            if not adjacent:
                continue
            if len(adjacent) <= 6:
                groups = [list(c) for k in range(1, len(adjacent) + 1) for c in combinations(adjacent, k)]
            else:
                groups = [adjacent] + [[a] for a in adjacent]
            out += [{"kind": "attack", "attackers": g, "targets": [t]} for g in groups]
        return out

    def _why_not(self, state: State, side: str, attackers: list[str], targets: list[str]) -> Refusal | None:
        hm = state.map
        eligible = {u.id for u in self._eligible_attackers(state, side)}
        open_targets = self._targets(state, side)
        security = False
        for t in targets:
            if not t.isdigit():
                return Refusal("SSA-15.2", f"there is no combat in the holding areas ({t})")
            if t in state.markers.get("atomic_hexes", []):
                return Refusal("SSA-22.14f", f"{t} was hit by an atomic attack this Combat phase: nothing else "
                               "may attack it")
        for a in attackers:
            if a not in eligible:
                return Refusal("SSA-11.2", f"{a} cannot attack now (not a friendly land unit able to attack, "
                                           "or it attacked already)")
            security |= bool(values.value(state, state.unit(a), "security", False))
        for t in targets:
            if t not in open_targets:
                return Refusal("SSA-11.2", f"{t} holds no enemy land units that can still be attacked this phase")
            for a in attackers:
                unit = state.unit(a)
                why = assault.attack_refusal(state, unit, t, hm.index(unit.location) in hm.neighbors[hm.index(t)])
                if why:  # SSA-11.1, with the amphibious-assault exception (G-09)
                    return why
            dfn = _land_units_at(state, t, other(side))
            if dfn and all(values.value(state, u, "security_only", False) for u in dfn) and not security:
                return Refusal("SSA-3.3", f"the units in {t} can be attacked only by security combat")
        return None

    def check(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        attackers, targets = order.get("attackers"), order.get("targets")
        if not isinstance(attackers, list) or not attackers or not all(isinstance(a, str) for a in attackers) \
                or len(set(attackers)) != len(attackers):
            raise IllegalOrder(self.rule, "an attack needs a list of different attacking units")
        if not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets) \
                or len(set(targets)) != len(targets):
            raise IllegalOrder(self.rule, "an attack needs a list of target hexes")
        for a in attackers:
            if a not in state.units_by_id:
                raise IllegalOrder(self.rule, f"there is no unit {a!r}")
        why = self._why_not(state, side, attackers, targets)
        if why:
            raise IllegalOrder.of(why, self.rule)
        if order.get("fanatic"):  # SSA-21.5: only at High morale, land combat only (this order)
            refusal = morale.fanatic_refusal(state, side)
            if refusal:
                raise refusal
        for key, test, rule in (("support", self._is_support, "SSA-12.1"), ("gunfire", self._is_gunfire, "SSA-11.7")):
            given = order.get(key, [])
            if not isinstance(given, list) or not all(isinstance(g, str) for g in given) \
                    or len(set(given)) != len(given):
                raise IllegalOrder(rule, f"'{key}' lists each unit once: a unit adds its strength to an attack once")
            for uid in given:
                if not test(state, side, uid, targets):
                    raise IllegalOrder(rule, f"{uid} cannot give {key} to this attack")
        if order.get("chemical"):  # SSA-28.2, 28.5: supporting air and fleets count
            taking_part = [*attackers, *order.get("support", []), *order.get("gunfire", [])]
            refusal = chemical.refusal(state, side, [state.unit(u) for u in taking_part])
            if refusal:
                raise refusal

    def _is_support(self, state: State, side: str, uid: str, targets: list[str]) -> bool:
        u = state.units_by_id.get(uid)
        return bool(u and u.side == side and u.props.get("mission") == "ground_support"
                    and u.props.get("target") in targets)

    def _is_gunfire(self, state: State, side: str, uid: str, targets: list[str]) -> bool:
        u = state.units_by_id.get(uid)
        return bool(u and u.side == side and u.type in FLEETS and u.location in targets)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        """Before the die: the attacker's fanaticism is in the order, the defender at High morale is
        asked (SSA-21.5c); then :func:`resolve`."""
        side = state.decision.side
        att_fan = bool(order.get("fanatic"))
        enemy = other(side)
        if morale.may_be_fanatic(state, enemy):
            a = assess(state, side, order["attackers"], order["targets"], order.get("support", []),
                       order.get("gunfire", []), bool(order.get("chemical")))
            if "DR" in a.distribution(state.ruleset.tables):  # 21.5e changes only DR: ask only then
                state.push_interrupt("fanaticism", enemy, "SSA-21.5",
                                     f"{', '.join(order['targets'])} attacked at {a.column}: declare fanaticism "
                                     "(a DR result becomes EX)?", ["declare_fanaticism"],
                                     attack=dict(order), attacker_fanatic=att_fan)
                return
        resolve(state, order, att_fan, False)


def resolve(state: State, order: dict[str, Any], att_fan: bool, def_fan: bool) -> None:
    """SSA-11.G-11.9: roll and apply one attack; fanaticism changes AR / DR to EX (SSA-21.5d-e); a
    chemical attack raises the enemy's morale (SSA-28.3b, 28.4c)."""
    side = state.phasing
    a = assess(state, side, order["attackers"], order["targets"], order.get("support", []),
               order.get("gunfire", []), bool(order.get("chemical")))
    if order.get("chemical"):
        chemical.used(state, side, ", ".join(order["targets"]))
    (die,) = state.roll(purpose=f"land combat {a.attack:g} vs {a.defense:g} at "
                        f"{', '.join(order['targets'])} ({a.column})", rule="SSA-11.G", side=side)
    printed = adj.crt(a.column, die, tables=state.ruleset.tables)
    result = morale.fanatic_result(state, printed, att_fan, def_fan)
    fan = [w for w, on in (("attacker", att_fan), ("defender", def_fan)) if on]
    note = f" ({' and '.join(fan)} fanatic: {printed} becomes {result}, SSA-21.5)" if result != printed else (
        f" ({' and '.join(fan)} fanatic, SSA-21.5)" if fan else "")
    state.emit("combat", side=side, rule="SSA-11.9",
               text=f"{a.attack:g}:{a.defense:g} → {a.base_column}, shifted to {a.column}; "
                    f"die {die}: {result}{note}",
               attackers=a.attackers, defenders=a.defenders, targets=order["targets"],
               attack=a.attack, defense=a.defense, column=a.column, base_column=a.base_column,
               shifts=[[n, why, rule] for n, why, rule in a.shifts], die=die, result=result,
               **({"printed_result": printed, "fanatic": fan} if fan else {}))
    for uid in a.attackers:
        state.unit(uid).props["attacked"] = True
    state.markers.setdefault("attacked_units", []).extend(a.defenders)
    for uid in order.get("support", []):
        state.unit(uid).props["supported"] = True
    apply_result(state, result, side, a)


def _hexes(state: State, unit_ids: list[str]) -> list[str]:
    """Where the enemy units of a combat stand: what a retreat moves away from (G-10)."""
    return sorted({state.unit(u).location for u in unit_ids if state.unit(u).location.isdigit()})


def apply_result(state: State, result: str, side: str, a: Assessment) -> None:
    """SSA-11.9a-g."""
    enemy = other(side)
    rule = "SSA-11.9"
    if result == "DZ":
        for uid in a.defenders:
            eliminate(state, state.unit(uid), "SSA-11.9a")
    elif result == "DE":
        for uid in a.defenders:
            reduce(state, state.unit(uid), "SSA-11.9b")
        start_retreats(state, enemy, _surrender(state, enemy, _survivors(state, a.defenders)), "SSA-11.9b",
                       away_from=_hexes(state, a.attackers))
    elif result == "DR":
        start_retreats(state, enemy, _surrender(state, enemy, a.defenders), "SSA-11.9c",
                       away_from=_hexes(state, a.attackers))
    elif result == "AR":
        start_retreats(state, side, assault.retreat_instead(state, a.attackers, "SSA-11.9e"), "SSA-11.9e",
                       away_from=_hexes(state, a.defenders))
    elif result == "AE":
        for uid in a.attackers:
            reduce(state, state.unit(uid), "SSA-11.9f")
        start_retreats(state, side, assault.retreat_instead(state, _survivors(state, a.attackers), "SSA-11.9f"),
                       "SSA-11.9f", away_from=_hexes(state, a.defenders))
    elif result == "AZ":
        for uid in a.attackers:
            eliminate(state, state.unit(uid), "SSA-11.9g")
    elif result == "EX":
        exchange(state, side, a)
    else:  # pragma: no cover - the table only holds the seven codes
        raise ValueError(f"{rule}: unknown result {result}")


def _surrender(state: State, side: str, ids: list[str]) -> list[str]:
    """SSA-21.6 (authored): at Poor morale, defenders out of supply surrender instead of retreating;
    the others, returned, retreat."""
    gone = morale.surrendering(state, side, ids)
    for uid in gone:
        eliminate(state, state.unit(uid), "SSA-21.6", " (surrendered: Poor morale, out of supply)")
    return [u for u in ids if u not in gone]


def _survivors(state: State, ids: list[str]) -> list[str]:
    return [u for u in ids if state.unit(u).location.isdigit()]


def exchange(state: State, side: str, a: Assessment) -> None:
    """SSA-11.9d: the side with the lower land strength reduces all its units; the other side
    reduces units whose original full printed CF totals at least that strength.  With equal
    strengths the defender is the one that reduces all (docs/rulings-ssa.md)."""
    enemy = other(side)
    if a.land_attack < a.land_defense:
        lower_side, lower, higher_side, higher, strength = side, a.attackers, enemy, a.defenders, a.land_attack
    else:
        lower_side, lower, higher_side, higher, strength = enemy, a.defenders, side, a.attackers, a.land_defense
    for uid in lower:
        reduce(state, state.unit(uid), "SSA-11.9d")
    cands = [u for u in higher if state.unit(u).location.isdigit()]
    if not cands:
        return
    total = sum(values.full_cf(state, state.unit(u)) for u in cands)
    if total <= strength:
        for uid in cands:
            reduce(state, state.unit(uid), "SSA-11.9d")
        return
    state.push_interrupt("exchange_losses", higher_side, "SSA-11.9d",
                         f"exchange: reduce units totalling at least {strength:g} full-strength combat factors",
                         ["take_losses"], candidates=sorted(cands), at_least=strength, lower_side=lower_side)
