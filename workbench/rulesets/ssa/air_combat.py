"""Air combat in the Aerial Combat step (SSA-12.2, 12.3) and air supply (SSA-10.1h).

Orders (phasing player, Combat phase, aerial step):

* ``{"kind": "interdict", "units": [ids], "target": hex}``: the units must be in the
  air over ``target`` on the same interdiction mission (``interdict_ground``,
  ``interdict_naval`` or ``interdict_airbase``, chosen when they flew, SSA-6);
* ``{"kind": "bomb", "units": [ids], "target": hex}``: strategic bombing.

Each rolls one die (``state.roll``) on the CRT column of bombardment against the
defence (land CF with terrain shifts, naval AA, or hex AA), and applies
``crt.toml [results.<type>]``.  The attacker chooses the defender's losses
(SSA-14.X) and his own.  A unit attacks once per phase.

Air supply (SSA-10.1h): at the start of the aerial step every air cargo unit
still on an air-supply mission (it survived interception) supplies its hex for
one game turn (``markers["air_supplied"][hex] = {"side", "turn"}``).

Events: ``air_combat`` (data: type, units, defenders, attack, defense, column, die,
result), ``bombed``, ``air_supply``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import adjudicate as adj
from workbench.rulesets.ssa import chemical, leaders, values
from workbench.rulesets.ssa.air import canal_hexes, city_kinds, flying, grounded, is_air
from workbench.rulesets.ssa.casualties import choose_losses, lose, naval_aa
from workbench.rulesets.ssa.movement import other
from workbench.rulesets.ssa.supply import supply_status

INTERDICTION = {"interdict_ground": "interdiction_ground", "interdict_naval": "interdiction_naval",
                "interdict_airbase": "interdiction_airbase"}
RULES = {"interdiction_ground": "SSA-12.2a", "interdiction_naval": "SSA-12.2b",
         "interdiction_airbase": "SSA-12.2c", "strategic_bombing": "SSA-12.3"}


def hex_aa(state: State, label: str, defender: str) -> int:
    """The anti-aircraft value of a hex (gap G-08, air.toml [anti_aircraft]): industrial city 5,
    other city 3, Panama Canal hex 4, any other hex 2; scenario overrides (SC1 SR5)."""
    aa = dict(state.ruleset.tables["air"]["anti_aircraft"])
    for o in aa.get("scenario_overrides", []):
        if o.get("scenario") == state.game.scenario.raw.get("id") and o.get("side") == defender \
                and state.turn_label < o.get("until", ""):
            aa.update({k: v for k, v in o.items() if k in ("industrial_city", "non_industrial_city")})
    i = state.map.index(label)
    kind = city_kinds(state)[i]
    if kind == "industrial":
        return int(aa["industrial_city"])
    if kind:
        return int(aa["non_industrial_city"])
    if i in canal_hexes(state):
        return int(aa["panama_canal_hex"])
    return int(aa["other_hex"])


def bombardment(state: State, units: list[Unit]) -> float:
    return float(sum(float(values.value(state, u, "bombardment", 0) or 0) for u in units))


def ready(state: State, side: str, missions: tuple[str, ...]) -> dict[tuple[str, str], list[str]]:
    """``{(target, mission): [unit ids]}`` of ``side``'s air units ready to attack."""
    out: dict[tuple[str, str], list[str]] = {}
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.side == side and is_air(state, u) and flying(u) and u.props.get("mission") in missions \
                and not u.props.get("attacked") and u.location == u.props.get("target"):
            out.setdefault((u.location, u.props["mission"]), []).append(u.id)
    return out


def defenders(state: State, side: str, mission: str, target: str, attackers: list[Unit]) -> list[Unit]:
    """The units an interdiction attacks (SSA-12.2a-c, 13.6)."""
    enemy = other(side)
    here = [u for u in state.units_by_id.values() if u.location == target and u.side == enemy
            and not u.props.get("carried")]
    if mission == "interdict_ground":
        return [u for u in here if values.is_land(state, u) and not values.is_leader(state, u)
                and not values.value(state, u, "security_only", False) and not u.props.get("underground")]
    if mission == "interdict_naval":
        asw = all(u.props.get("base_kind") in ("carrier", "coastal") for u in attackers)
        return [u for u in here if values.domain(state, u) == "naval" and (asw or u.type != "submarine")]
    return [u for u in here if grounded(state, u) and not u.props.get("carrier")]


class _AirAttack(OrderKind):
    missions: tuple[str, ...] = ()

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        out = []
        for (target, _mission), ids in sorted(ready(state, side, self.missions).items()):
            if self._why_not(state, side, ids, target) is None:
                out.append({"kind": self.kind, "units": ids, "target": target})
        return out

    def _why_not(self, state: State, side: str, ids: Any, target: Any) -> Refusal | None:
        if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids) or not isinstance(target, str):
            return Refusal(self.rule, "name the attacking air units and the target hex")
        if target in state.markers.get("atomic_hexes", []):
            return Refusal("SSA-22.14f", f"{target} was hit by an atomic attack this Combat phase: nothing else "
                           "may attack it, aerial bombardment included")
        groups = ready(state, side, self.missions)
        missions = {m for (t, m), us in groups.items() if t == target and set(ids) & set(us)}
        pool = {u for (t, m), us in groups.items() if t == target for u in us}
        if not set(ids) <= pool:
            return Refusal(self.rule, f"every unit must be in the air over {target} on a "
                                      f"{' or '.join(m.replace('_', ' ') for m in self.missions)} mission "
                                      "and not have attacked yet")
        if len(missions) != 1:
            return Refusal(self.rule, "the units must fly the same mission")
        mission = missions.pop()
        if mission in INTERDICTION and not defenders(state, side, mission, target, [state.unit(u) for u in ids]):
            rule = RULES[INTERDICTION[mission]]
            if mission == "interdict_naval":
                return Refusal("SSA-13.6", f"only carrier- or coastal-based aircraft may attack the submarines in {target}")
            return Refusal(rule, f"there is nothing in {target} this interdiction can attack")
        return None

    def check(self, state: State, order: dict[str, Any]) -> None:
        why = self._why_not(state, state.decision.side, order.get("units"), order.get("target"))
        if why:
            raise IllegalOrder.of(why, self.rule)


class InterdictOrder(_AirAttack):
    """SSA-12.2: interdiction of ground units, naval units or an airbase."""

    kind = "interdict"
    rule = "SSA-12.2"
    missions = tuple(INTERDICTION)

    def check(self, state: State, order: dict[str, Any]) -> None:
        super().check(state, order)
        if order.get("chemical"):  # SSA-28.3a, 28.4b: air attacks on ground or naval units
            att = [state.unit(u) for u in order["units"]]
            if att[0].props["mission"] == "interdict_airbase":
                raise IllegalOrder("SSA-28.3a", "chemical warfare is used in air attacks on ground or naval units, "
                                   "not on an airbase")
            refusal = chemical.refusal(state, state.decision.side, att)
            if refusal:
                raise refusal

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        enemy = other(side)
        target = order["target"]
        att = [state.unit(u) for u in order["units"]]
        mission = att[0].props["mission"]
        ctype = INTERDICTION[mission]
        rule = RULES[ctype]
        dfn = defenders(state, side, mission, target, att)
        attack = bombardment(state, att)
        shifts: list[tuple[int, str]] = []
        if mission == "interdict_ground":
            sup = supply_status(state, enemy)
            defense = sum(adj.supply_strength(values.cf(state, u), sup.get(u.id, False)) for u in dfn)
            hm = state.map
            terrain = hm.hexes["terrain"][hm.index(target)]
            t = adj.terrain_shift([terrain], False, tables=state.ruleset.tables)
            if t:
                shifts.append((-t, f"terrain {terrain}"))
            city = state.ruleset.tables["terrain"].get("features", {}).get("industrial_city", {})
            if city_kinds(state)[hm.index(target)] == "industrial" and city.get("defender") not in ("*", None):
                shifts.append((-int(city["defender"]), "industrial city"))
        elif mission == "interdict_naval":
            defense = sum(naval_aa(state, u) for u in dfn)
        else:
            defense = float(hex_aa(state, target, enemy))
        if order.get("chemical"):  # SSA-28.3a, 28.4a-b
            cshift = chemical.shift(state, "naval" if mission == "interdict_naval" else "land")
            if cshift:
                shifts.append((cshift[0], f"{cshift[1]} ({cshift[2]})"))
            chemical.used(state, side, target)
        result = roll_crt(state, side, ctype, rule, att, dfn, target, attack, defense, shifts)
        effect = state.ruleset.tables["crt"]["results"][ctype][result]
        apply_air_result(state, side, ctype, rule, effect, att, dfn)


class BombOrder(_AirAttack):
    """SSA-12.3: strategic bombing of a city/industrial hex, a transportation line or the canal."""

    kind = "bomb"
    rule = "SSA-12.3"
    missions = ("bomb",)

    def check(self, state: State, order: dict[str, Any]) -> None:
        super().check(state, order)
        missiles = order.get("missiles")
        if missiles is None:
            return
        from workbench.rulesets.ssa.missiles import FireMissileOrder

        # SSA-22.13d: missiles may join the air units' strategic bombing of the same city
        FireMissileOrder().check(state, {"kind": "fire_missile", "missiles": missiles, "target": order["target"]})

    def execute(self, state: State, order: dict[str, Any]) -> None:
        att = [state.unit(u) for u in order["units"]]
        missiles = [state.unit(m) for m in order.get("missiles") or []]
        strategic_bombing(state, state.decision.side, order["target"], att, missiles)


def strategic_bombing(state: State, side: str, target: str, att: list[Unit], missiles: list[Unit]) -> None:
    """SSA-12.3: air units' (and SSA-22.13d: missiles', 10 each) bombardment against the hex's AA;
    a missile is never lost (22.13e: losses fall on the air units) and is used up either way."""
    from workbench.rulesets.ssa.missiles import bombardment as missile_bombardment
    from workbench.rulesets.ssa.missiles import fired

    defense = float(hex_aa(state, target, other(side)))
    shifts = [(1, "\"B\" bomber leader with the bombers")] if leaders.air_shift(state, att, "B") else []  # SSA-24.8-B
    attack = bombardment(state, att) + sum(missile_bombardment(state, m) for m in missiles)
    result = roll_crt(state, side, "strategic_bombing", "SSA-12.3" if att else "SSA-22.13d", att + missiles, [],
                      target, attack, defense, shifts)
    effect = state.ruleset.tables["crt"]["results"]["strategic_bombing"][result]
    if effect.get("mission") == "success":
        place_bombed(state, target, side)
    fired(state, missiles, target)
    apply_air_result(state, side, "strategic_bombing", "SSA-12.3a", effect, att, [])


def roll_crt(state: State, side: str, ctype: str, rule: str, att: list[Unit], dfn: list[Unit], target: str,
             attack: float, defense: float, shifts: list[tuple[int, str]]) -> str:
    tables = state.ruleset.tables
    base = adj.odds_column(attack, defense, tables=tables)
    column = base
    for n, _ in shifts:
        column = adj.shift(column, n, tables=tables)
    (die,) = state.roll(purpose=f"{ctype.replace('_', ' ')} {attack:g} vs {defense:g} at {target} ({column})",
                        rule=rule, side=side)
    result = adj.crt(column, die, tables=tables)
    state.emit("air_combat", side=side, rule=rule,
               text=f"{ctype.replace('_', ' ')} at {target}: {attack:g}:{defense:g} → {column}; die {die}: {result}",
               type=ctype, units=[u.id for u in att], defenders=[u.id for u in dfn], target=target,
               attack=attack, defense=defense, base_column=base, column=column,
               shifts=[[n, why] for n, why in shifts], die=die, result=result)
    for u in att:
        u.props["attacked"] = True
    hit = state.markers.setdefault("air_attacked_hexes", [])  # SSA-22.14f: an atomic attack comes first
    if target not in hit:
        hit.append(target)
    return result


def apply_air_result(state: State, side: str, ctype: str, rule: str, effect: dict[str, Any],
                     att: list[Unit], dfn: list[Unit]) -> None:
    """Apply one ``crt.toml [results.<ctype>]`` entry; the attacker chooses every loss (SSA-14.X)."""
    chooser = side if state.ruleset.tables["crt"]["results"][ctype].get("losses_chosen_by", "attacker") \
        == "attacker" else other(side)
    d = effect.get("defender", "none")
    if d == "reduce_all":
        for u in dfn:
            lose(state, u, "reduce", rule, chooser)
    elif d == "reduce_one":
        choose_losses(state, chooser, dfn, rule=rule, count=1, effect="reduce",
                      prompt="choose the defending unit to reduce (SSA-14.X: the attacker chooses)")
    elif d == "eliminate_one_reduce_rest":
        _eliminate_one_reduce_rest(state, chooser, dfn, rule)
    n = effect.get("air_defender_losses", 0)
    if n == "all":
        for u in dfn:
            lose(state, u, "eliminate", rule, chooser)
    elif n == "half_round_up":
        choose_losses(state, chooser, dfn, rule=rule, count=-(-len(dfn) // 2), effect="eliminate",
                      prompt="choose the half of the grounded air units that is destroyed")
    elif isinstance(n, int) and n > 0:
        choose_losses(state, chooser, dfn, rule=rule, count=n, effect="eliminate",
                      prompt="choose the defending air unit destroyed")
    k = effect.get("air_attacker_losses", 0)
    if isinstance(k, int) and k > 0:
        choose_losses(state, side, att, rule=rule, count=k, effect="eliminate",
                      prompt=f"choose {k} attacking air unit{'s' if k > 1 else ''} lost")


def _eliminate_one_reduce_rest(state: State, chooser: str, dfn: list[Unit], rule: str) -> None:
    if len(dfn) == 1:
        lose(state, dfn[0], "eliminate", rule, chooser)
        return
    choose_losses(state, chooser, dfn, rule=rule, count=1, effect="eliminate",
                  prompt="choose the unit eliminated (the rest are damaged)", then="ssa.reduce_rest",
                  rest=[u.id for u in dfn], rest_rule=rule, rest_chooser=chooser)


def reduce_rest(state: State, frame: dict[str, Any]) -> None:
    """Continuation: damage every survivor of an 'eliminate one, reduce the rest' result."""
    data = frame["data"]
    for uid in data["rest"]:
        u = state.unit(uid)
        if u.location != "Eliminated":
            lose(state, u, "reduce", data["rest_rule"], data.get("rest_chooser"))


def place_bombed(state: State, target: str, side: str, *, rule: str = "SSA-12.3a",
                 how: str = "strategic bombing") -> None:
    """SSA-12.3a: the strategic bombing marker (``arrays["bombed"]``, replaced, not mutated, so
    cached movement and sea graphs notice).  Scorched earth places the same marker (SSA-29.4,
    ``rule``/``how`` say so); only an enemy's bombing costs the owner morale (authored, SSA-21)."""
    hm = state.map
    old = state.arrays.get("bombed")
    new = np.zeros(hm.size, dtype=bool) if old is None else old.copy()
    new[hm.index(target)] = True
    state.arrays["bombed"] = new
    state.emit("bombed", side=side, rule=rule,
               text=f"strategic bombing marker placed in {target} ({how}): lines destroyed, no MP, no port, "
                    "canal closed, half VP", hex=target)
    if rule != "SSA-12.3a":
        return
    from workbench.rulesets.ssa import morale

    morale.city_bombed(state, target)  # SSA-21 (authored): an own city bombed costs 1


def resolve_air_supply(state: State, step: Any) -> None:
    """SSA-10.1h: surviving air cargo on air supply supplies its hex for a complete game turn."""
    side = state.phasing
    marks = dict(state.markers.get("air_supplied", {}))
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.side == side and flying(u) and u.props.get("mission") == "air_supply" and not u.props.get("attacked"):
            marks[u.location] = {"side": side, "turn": state.turn}
            u.props["attacked"] = True
            state.emit("air_supply", side=side, rule="SSA-10.1h",
                       text=f"{u.id} air-supplies the units in {u.location} for one game turn",
                       unit=u.id, hex=u.location)
    if marks:
        state.markers["air_supplied"] = marks
