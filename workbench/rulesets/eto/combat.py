"""Land combat (ETO-26.0-26.4) through attack sequence 4A, and its results (ETO-27.1).

Flow.  In the Combat and Exploitation steps the ``{"kind": "attack"}`` order
opens attack sequence 4A (``state.push_procedure("attack-4A")``); a
breakthrough order opens it with its one attack already designated (28.2).
4A-C ``designate`` orders name a target hex and its attackers; 4A-F
``resolve`` orders roll and apply one designated attack each.  The 4A slots
for paratroops, ground-support air and paradrops stay in ``sequence.toml``
(``when = "option:air"``) and enter here through :data:`EXTRA_TERMS`.

The strength and DRM pipeline (:func:`assess`) gathers every contribution as
``(who, SP, rule)`` and every modifier as ``(value, why, rule)``: land SP,
generals (one per stack, one unit of his nationality, 26.2), Zhukov's HQ bonus
(43.7), fortifications (26.2), then the additions cap (never more than the
basic strength); DRMs from :func:`adjudicate.combat_drm_terms`.  Air
superiority and bombers (:mod:`ground_support`, 17.2/17.3), paradrops and naval
bombardment are further terms that other modules register in :data:`EXTRA_TERMS`.

Results (27.1) are steps of the sequence (:mod:`results`, the ``combat-result``
procedure): attacker losses first, then the defender's steps-or-hexes choice,
retreats, installations, advance after combat, secondary advance, breakthrough
movement, each asking its owner through an interrupt.  Armor reaction attacks
(26.5, :mod:`reaction`) run the same steps with mode ``"reaction"``; a
breakthrough attack that fails must be repeated in the Combat step (28.4,
:func:`repeat_why`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import amphibious, command, sea_transport, supply, values
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.hq import in_radius
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import MUD, WINTER, conditions
from workbench.rulesets.eto.zoc import can_attack_across, side_dir  # noqa: F401 - here and for callers

#: Hooks for later issues (air, naval): ``f(state, ctx) -> dict`` with optional keys
#: attack_add, defense_add (SP additions), defending_bombers (how many unaborted defending
#: bombers are over the hex: 17.3 turns the count into SP), drm_kwargs (for
#: combat_drm_terms) and terms (contributions as ``(who, SP, rule)``).  ``ctx``: side (the
#: attacker), target, attackers and defenders (unit ids).
EXTRA_TERMS: list[Callable[[State, dict[str, Any]], dict[str, Any]]] = [amphibious.combat_terms]
#: Other ways to open an attack sequence: ``f(state, side) -> True`` when ``side`` could attack
#: without a ground attacker (19.1: a paratroop activated alone for a one-unit offensive drops).
ATTACK_OPENERS: list[Callable[[State, str], bool]] = []
#: The sub-procedure of sequence.toml that applies a combat's results (:mod:`results`).
RESULTS = "combat-result"


@dataclass
class Assessment:
    target: str
    attackers: list[str]
    defenders: list[str]
    land_attack: int
    land_defense: int
    attack: int
    defense: int
    column: str
    drms: list[tuple[int, str, str]] = field(default_factory=list)
    contributions: list[tuple[str, int, str]] = field(default_factory=list)
    fort: str | None = None

    @property
    def drm(self) -> int:
        return sum(v for v, _, _ in self.drms)


combat_units_at = values.combat_units_at


def general_bonus(state: State, stack_units: list[Unit], side: str, label: str) -> tuple[int, str | None]:
    """ETO-26.2: one general per stack adds his rating if a unit of his nationality is in it."""
    gens = [g for g in values.units_at(state, label, side) if values.unit_class(state, g) == "general"]
    best, who = 0, None
    for g in gens:
        if any(u.nation == g.nation for u in stack_units):
            r = values.combat_rating(state, g)
            if r > best:
                best, who = r, g.id
    return best, who


def zhukov_bonus(state: State, side: str, stacks: list[str], *, attacking: bool) -> int:
    """ETO-43.7: with Zhukov stacked with an HQ, +1 SP per friendly stack in its radius (attacking:
    only units activated by that HQ)."""
    out = 0
    for hq in state.units_by_id.values():
        if hq.side != side or not values.on_map(hq) or values.unit_class(state, hq) != "hq":
            continue
        if not any(values.is_zhukov(state, g) for g in values.units_at(state, hq.location, side)
                   if values.unit_class(state, g) == "general"):
            continue
        if attacking and hq.id not in command.offensive(state).get("hqs", []):
            continue
        out += sum(1 for s in stacks if in_radius(state, hq, s))
    return out


def blitzkrieg_active(state: State, enemy_nation: str) -> bool:
    v = str(state.tracks.get(f"blitzkrieg.{enemy_nation}", ""))
    return v == f"active:{state.turn_label}"


def blitzkrieg_rules(state: State) -> dict[str, Any]:
    """The blitzkrieg restrictions and exceptions (``crt.toml`` ``[blitzkrieg]``, 44.1-44.5)."""
    return state.ruleset.tables["crt"].get("blitzkrieg", {})


def blitzkrieg_applies(state: State, kind: str, attackers: list[Unit], defenders: list[Unit]) -> bool:
    """ETO-44.2-44.4: whether the +1 applies to a combat of ``kind`` ("land", "air-naval",
    "installation-bombing", "strategic-warfare", ...).  44.3: only the kinds in ``applies_to``
    (the land core has only land attacks); 44.2: a German land unit must take part; 44.4: never
    against an all-British defending stack; then the bonus must be active against a defending
    unit's nation (44.1, 44.5)."""
    b = blitzkrieg_rules(state)
    if kind not in b.get("applies_to", ["land"]):
        return False
    if not any(u.nation == b.get("attacker_nation", "GE") for u in attackers):
        return False
    never = set(b.get("never_vs_all", []))
    if defenders and all(u.nation in never for u in defenders):
        return False
    return any(blitzkrieg_active(state, n) for n in {u.nation for u in defenders})


def soviet_winter_term(state: State, side: str, attackers: list[Unit], defenders: list[Unit], target: str) -> str | None:
    """ETO-43.4: W-weather turns while the proficiency window is open."""
    if state.tracks.get("soviet_winter") != "active" or state.tracks.get("weather") != "W":
        return None
    su_home = home_mask(state, "SU")
    inside = bool(su_home[state.map.index(target)])
    if not inside:
        return None
    if side == "allies" and any(u.nation == "SU" for u in attackers) and defenders:
        return "soviet_attack"
    if side == "axis" and any(u.nation == "SU" for u in defenders):
        return "axis_attack"
    return None


def retreated_this_step(state: State, u: Unit) -> bool:
    """ETO-27.3: the unit retreated into its hex during the current step (it neither adds its
    strength nor absorbs losses there unless every other defender is eliminated)."""
    v = u.props.get("retreated_into")
    return v is True or (bool(v) and v == current_mode(state))


def assess(state: State, side: str, attacker_ids: list[str], target: str, *, reaction: bool = False) -> Assessment:
    """Strengths, DRMs and odds column of one attack, without rolling (26.1-26.4).  ``reaction``:
    an armor reaction attack in the enemy's offensive (26.5; Zhukov's bonus as on defence, 43.7)."""
    hm = state.map
    tables = state.ruleset.tables
    ta = terrain_arrays(state)
    enemy = values.other(side)
    attackers = [state.unit(a) for a in attacker_ids]
    defenders = [u for u in combat_units_at(state, target, enemy) if not retreated_this_step(state, u)] \
        or combat_units_at(state, target, enemy)
    contrib: list[tuple[str, int, str]] = []
    land_att = 0
    for u in attackers:
        sp = values.strength(state, u)
        land_att += sp
        contrib.append((u.id, sp, "ETO-26.2"))
    att_add = 0
    stacks = sorted({u.location for u in attackers})
    for s in stacks:
        bonus, who = general_bonus(state, [u for u in attackers if u.location == s], side, s)
        if bonus:
            att_add += bonus
            contrib.append((f"general {who}", bonus, "ETO-26.2"))
    z = zhukov_bonus(state, side, [s for s in stacks if values.on_map_label(s)], attacking=not reaction)
    if z:
        att_add += z
        contrib.append(("Zhukov with HQ", z, "ETO-43.7"))
    land_dfn = 0
    for u in defenders:
        sp = values.strength(state, u)
        land_dfn += sp
        contrib.append((u.id, sp, "ETO-26.2"))
    if not defenders and amphibious.assault_units(state, attacker_ids):
        land_dfn = amphibious.intrinsic_strength(state, side, target)  # 26.2: the empty coastal hex
        contrib.append((f"{target} intrinsic coastal defence", land_dfn, "ETO-26.2"))
    dfn_add = 0
    bonus, who = general_bonus(state, defenders, enemy, target)
    if bonus:
        dfn_add += bonus
        contrib.append((f"general {who}", bonus, "ETO-26.2"))
    z = zhukov_bonus(state, enemy, [target], attacking=False) if defenders else 0
    if z:
        dfn_add += z
        contrib.append(("Zhukov with HQ", z, "ETO-43.7"))
    ti = hm.index(target)
    fort = None
    across_fortress = False
    marker = state.markers.get("forts", {}).get(target)
    wrecked = target in state.markers.get("destroyed", {})  # 21.5: no fortification until repaired
    if wrecked:
        marker = None
    if ta.fort_hex[ti] and control(state)[ti] == SIDE_CODE[enemy] and not wrecked:
        fort = "permanent"
        across_fortress = all(ta.fortress_side[hm.index(u.location), side_dir(state, u.location, target)]
                              for u in attackers)
    elif marker and marker.get("side") == enemy and marker.get("kind") == "fortification":
        fort = "marker"
    ctx = {"side": side, "target": target, "attackers": attacker_ids, "defenders": [u.id for u in defenders]}
    drm_kwargs: dict[str, Any] = {}
    dfn_bombers = 0
    for hook in EXTRA_TERMS:
        extra = hook(state, ctx)
        att_add += int(extra.get("attack_add", 0))
        dfn_add += int(extra.get("defense_add", 0))
        dfn_bombers += int(extra.get("defending_bombers", 0))
        drm_kwargs.update(extra.get("drm_kwargs", {}))
        contrib += extra.get("terms", [])
    attack = adj.capped(land_att, att_add)
    defense = adj.defense_strength(land_dfn, fort=fort, all_across_fortress_hexsides=across_fortress,
                                   defending_bombers=dfn_bombers, general=dfn_add, tables=tables)
    if fort:
        base = adj.defense_strength(land_dfn, fort=fort, all_across_fortress_hexsides=across_fortress, tables=tables)
        contrib.append((f"{fort} fortification", base - land_dfn, "ETO-26.2"))
    # DRMs (26.4)
    cond = conditions(state)
    defender_weather = {MUD: "mud", WINTER: "winter"}.get(int(cond[ti]), "fair")
    blitz = blitzkrieg_applies(state, "land", attackers, defenders)
    # paratroops that dropped into the hex (19.3) neither negate nor cause river DRMs, and their
    # supply was judged at the airbase (19.1)
    ground = [u for u in attackers if u.location != target and not sea_transport.is_aboard(u)]
    # 32.7: units making an amphibious assault this turn take no attacker-OOS DRM
    att_oos = any(not supply.in_supply_for_effects(state, u) for u in ground
                  if u.props.get("assaulted") != state.turn_label)
    from workbench.rulesets.eto.drops import paras_lifted

    with paras_lifted(state, target):
        dfn_oos = bool(defenders) and (any(u.props.get("oos") for u in defenders)
                                       or not any(supply.in_supply_for_effects(state, u) for u in defenders))
    # 26.4: amphibious attackers negate the river DRM only when they are half the land SP or more
    river = bool(ground) and not amphibious.amphibious_half(state, attacker_ids) and all(ta.river_side[hm.index(u.location), side_dir(state, u.location, target)]
                                 or ta.lake_side[hm.index(u.location), side_dir(state, u.location, target)]
                                 for u in ground)
    lake = any(ta.lake_side[hm.index(u.location), side_dir(state, u.location, target)] for u in ground)
    all_severe = all(ta.severe[hm.index(sea_transport.space_of(state, u))] for u in [*attackers, *defenders])
    frozen = state.tracks.get("weather") == "W" and (all_severe or lake)
    terms = adj.combat_drm_terms(defender_weather=defender_weather, blitzkrieg=blitz,
                                 attacker_unsupplied=att_oos, defender_unsupplied=dfn_oos,
                                 all_across_river=river, river_frozen=frozen,
                                 defender_rough=bool(ta.rough[ti]),
                                 soviet_winter=soviet_winter_term(state, side, attackers, defenders, target),
                                 tables=tables, **drm_kwargs)
    column = adj.odds_column(attack, defense, tables=tables)
    return Assessment(target, list(attacker_ids), [u.id for u in defenders], land_att, land_dfn, attack,
                      defense, column, terms, contrib, fort)


# == 4A-C: designation ==========================================================================
def designations(state: State) -> list[dict[str, Any]]:
    return state.markers.setdefault("designations", [])


def current_mode(state: State) -> str:
    """combat, breakthrough or exploitation: which offensive step 4A serves."""
    for f in reversed(state.frames):
        if "node" in f and f["node"] == "attack-4A":
            return f["data"].get("mode", "combat")
    key = state.step.key if state.step else ""
    return key.rsplit("/", 1)[-1]


def eligible_attackers(state: State, side: str, mode: str) -> list[Unit]:
    """26.3: activated combat units (not paratroops, which attack only by paradrop) that are not
    already designated this step; in exploitation only exploiting armor (29.2)."""
    used = {a for d in designations(state) for a in d["attackers"]}
    out = []
    for u in state.units_by_id.values():
        if u.side != side or u.id in used or not (values.on_map(u) or amphibious.is_assaulting(u)):
            continue
        cls = values.unit_class(state, u)
        if cls not in ("infantry", "armor") or not u.props.get("in_offensive"):
            continue
        if mode == "exploitation" and not u.props.get("exploiter"):
            continue
        out.append(u)
    return out


def enemy_fort(state: State, side: str, target: str) -> bool:
    """26.0: "Attacks are made against hexes containing enemy land units or fortifications" -- an
    enemy fortification marker, or a permanent fortification the enemy holds (an empty one defends
    with 2, 26.2)."""
    if target in state.markers.get("destroyed", {}):
        return False  # 21.5: a destroyed fortification is none until repaired
    marker = state.markers.get("forts", {}).get(target) or {}
    if marker.get("kind") == "fortification" and marker.get("side") != side:
        return True
    i = state.map.index(target)
    return bool(terrain_arrays(state).fort_hex[i]) and control(state)[i] == SIDE_CODE[values.other(side)]


def target_why_not(state: State, side: str, target: str, attackers: list[Unit], mode: str,
                   general_at: str | None = None) -> Refusal | None:
    """Why the attackers may not attack ``target`` in this step (None if they may);
    ``general_at``: where the general leading a 22.2 offensive will be (riding a breakthrough)."""
    hm = state.map
    enemy = values.other(side)
    if not hm.has_hex(target):
        return Refusal("ETO-26.0", f"no hex {target!r}")
    amph = [u for u in attackers if sea_transport.is_aboard(u)]
    if not amph and not [u for u in values.units_at(state, target, enemy) if values.is_land_unit(state, u)] \
            and not enemy_fort(state, side, target):
        return Refusal("ETO-26.0", f"{target} holds no enemy land unit or fortification")
    why = amphibious.assault_why_not(state, side, target, amph)  # 10.6: even an empty hex
    if why:
        return why
    if any(d["target"] == target for d in designations(state)):
        return Refusal("ETO-26.3", f"{target} is already attacked this step")
    if command.attacks_left(state, mode) <= 0:
        return Refusal("ETO-22.1", f"this offensive may attack no more hexes in the {mode} step")
    ti = hm.index(target)
    if mode in ("breakthrough", "exploitation") and conditions(state)[ti] == MUD:
        return Refusal("ETO-28.4", f"{target} is in mud and cannot be attacked in the {mode} step")
    off = command.offensive(state)
    if off.get("mode") == "general":
        gen = state.unit(off["general"])
        where = general_at or gen.location
        if not values.on_map_label(where) or hm.distance(where, target) > 1:
            return Refusal("ETO-22.2", f"{target} is not adjacent to general {gen.id}")
    rules = {r.get("effect") for r in state.game.scenario.raw.get("special_rules", []) if isinstance(r, dict)}
    for u in attackers:
        at = sea_transport.space_of(state, u)
        if u not in amph and (hm.distance(u.location, target) != 1 or not can_attack_across(state, u.location, target)):
            return Refusal("ETO-26.0", f"{u.id} is not adjacent to {target} across a hexside it could cross")
        if mode in ("breakthrough", "exploitation") and sea_transport.debarked_this_turn(state, u):
            return Refusal("ETO-10.5", f"{u.id} debarked this Offensive phase: debarking units make regular attacks, "
                                       f"not {mode} attacks")
        if off.get("mode") == "hq" and values.unit_class(state, u) == "infantry" and \
                not any(in_radius(state, state.unit(h), at) for h in off["hqs"]):
            return Refusal("ETO-26.3", f"infantry {u.id} is outside the command radius of the activated HQ")
        if u.nation == "FI" and "finnish_halt_line" in rules:
            from workbench.rulesets.eto.movement import banned_hexes
            if banned_hexes(state, u)[ti]:
                return Refusal("ETO-22.4", f"Finnish units may not attack {target} (scenario rule finnish_halt_line)")
    for hook in ATTACK_CHECKS:  # 43.3: not across the Finnish temporary border
        why = hook(state, attackers, target)
        if why:
            return why
    return peace_why_not(state, attackers, target, enemy)


#: ``f(state, attackers, target) -> Refusal | None``: more reasons an attack is refused (43.3).
ATTACK_CHECKS: list = []
#: ``f(state, attackers, target) -> bool``: the attack is inside a limited war's country, where
#: nations not at war may fight (47.2).
LIMITED_WAR_ZONES: list = []
#: ``f(state, side, attackers, defenders, target)`` run right after a land combat's roll (47.2's 6).
AFTER_ROLL_HOOKS: list = []


def peace_why_not(state: State, attackers: list[Unit], target: str, enemy: str) -> Refusal | None:
    """ETO-39.1, 43.6: "any attack by a Soviet unit against a German unit constitutes a Soviet
    invasion of Germany, and vice versa" -- in games that play politics, an attack on a unit of a
    nation the attacker is not at war with is an invasion, announced first (39.2)."""
    if not state.game.options.get("politics"):
        return None
    from workbench.rulesets.eto import politics

    rows = politics.nations(state)
    if any(hook(state, attackers, target) for hook in LIMITED_WAR_ZONES):  # 47.2: inside the invaded minor
        return None
    for d in values.units_at(state, target, enemy):
        for u in attackers:
            if not politics.at_war(state, u.nation, d.nation):
                return Refusal("ETO-39.1", f"{rows.get(u.nation, {}).get('name', u.nation)} is not at war with "
                               f"{rows.get(d.nation, {}).get('name', d.nation)} ({d.id} in {target}): attacking it is "
                               "an invasion -- announce it first (ETO-39.2, declare_war)")
    return None


class AttackOrder(OrderKind):
    """``{"kind": "attack"}``: open attack sequence 4A for the Combat or Exploitation step."""

    kind = "attack"
    rule = "ETO-26.0"

    def legal(self, state: State) -> list[dict[str, Any]]:
        key = state.step.key.rsplit("/", 1)[-1] if state.step else ""
        off = command.offensive(state)
        if off.get("opened", {}).get(key) or command.attacks_left(state, key) <= 0:
            return []
        side = state.decision.side
        if not DesignateOrder().options(state, side, key) and not any(f(state, side) for f in ATTACK_OPENERS):
            return []
        return [{"kind": "attack"}]

    def execute(self, state: State, order: dict[str, Any]) -> None:
        key = state.step.key.rsplit("/", 1)[-1]
        off = command.offensive(state)
        off.setdefault("opened", {})[key] = True
        if key == "exploitation":
            state.markers["exploit_attacks_begun"] = True
        state.markers["designations"] = []
        state.emit("attack_sequence", side=state.decision.side, rule="ETO-4A",
                   text=f"attack sequence 4A for the {key} step", mode=key)
        state.push_procedure("attack-4A", mode=key)


class DesignateOrder(OrderKind):
    """4A-C: ``{"kind": "designate", "target": hex, "attackers": [ids]}`` (26.0, 26.3)."""

    kind = "designate"
    rule = "ETO-26.3"

    def options(self, state: State, side: str, mode: str) -> list[dict[str, Any]]:
        hm = state.map
        elig = eligible_attackers(state, side, mode)
        by_target: dict[str, list[Unit]] = {}
        enemy_hexes = {u.location for u in state.units_by_id.values()
                       if u.side != side and values.on_map(u) and values.is_land_unit(state, u)}
        for u in elig:
            if not values.on_map(u):
                continue  # aboard an assault fleet: its target is its own hex (below)
            i = hm.index(u.location)
            for j in hm.neighbors[i]:
                if j >= 0 and (hm.label(int(j)) in enemy_hexes or enemy_fort(state, side, hm.label(int(j)))):
                    by_target.setdefault(hm.label(int(j)), []).append(u)
        out = []
        assaults: dict[str, list[Unit]] = {}
        for u in elig:
            if amphibious.is_assaulting(u):
                assaults.setdefault(sea_transport.space_of(state, u), []).append(u)
        for t, amph in sorted(assaults.items()):  # 10.6: the whole assault group, with or without help
            amph = sorted(amph, key=lambda u: u.id)
            helpers = [u for u in by_target.pop(t, []) if target_why_not(state, side, t, [*amph, u], mode) is None]
            for group in ([*amph, *helpers], amph) if helpers else (amph,):
                if target_why_not(state, side, t, group, mode) is None:
                    out.append({"kind": "designate", "target": t, "attackers": [u.id for u in group]})
        for t in sorted(by_target):
            group = sorted((u for u in by_target[t] if target_why_not(state, side, t, [u], mode) is None),
                           key=lambda u: u.id)
            if not group:
                continue
            out.append({"kind": "designate", "target": t, "attackers": [u.id for u in group]})
            hexes = sorted({u.location for u in group})
            if len(hexes) > 1:
                for h in hexes:
                    out.append({"kind": "designate", "target": t,
                                "attackers": [u.id for u in group if u.location == h]})
        return out

    def legal(self, state: State) -> list[dict[str, Any]]:
        mode = current_mode(state)
        if mode == "breakthrough":
            return []  # 28.2: the breakthrough order designated its one attack
        return self.options(state, state.decision.side, mode)

    def check(self, state: State, order: dict[str, Any]) -> None:
        side = state.decision.side
        mode = current_mode(state)
        ids = order.get("attackers")
        target = order.get("target")
        if not isinstance(ids, list) or not ids or len(set(ids)) != len(ids) or not isinstance(target, str):
            raise IllegalOrder(self.rule, "designate a target hex and a list of different attacking units")
        elig = {u.id for u in eligible_attackers(state, side, mode)}
        for a in ids:
            if a not in elig:
                raise IllegalOrder("ETO-26.3", f"{a} cannot attack now: attackers must be activated infantry "
                                   "or armor (in exploitation: exploiting armor), designated once a step")
        why = target_why_not(state, side, target, [state.unit(a) for a in ids], mode)
        if why:
            raise IllegalOrder.of(why, self.rule)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        mode = current_mode(state)
        designate(state, order["target"], order["attackers"], mode)


def owed_repeats(state: State, side: str) -> dict[str, list[str]]:
    """ETO-28.4: target -> surviving armor whose breakthrough attack did not vacate it (or was
    cancelled) and that must repeat the attack in this offensive's Combat step."""
    out: dict[str, list[str]] = {}
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        t = u.props.get("must_attack")
        if u.side == side and t and values.on_map(u) and \
                any(values.is_land_unit(state, o) for o in values.units_at(state, t, values.other(side))):
            out.setdefault(t, []).append(u.id)
    return out


def _can_repeat(state: State, side: str, target: str, ids: list[str]) -> bool:
    elig = {u.id for u in eligible_attackers(state, side, "combat")}
    units = [state.unit(i) for i in ids if i in elig]
    return bool(units) and target_why_not(state, side, target, units, "combat") is None


def repeat_why(state: State, side: str, key: str) -> str | None:
    """ETO-28.4: why ``side`` may not end this step yet (the forced repeat attack), or None.  Only
    attacks the armor can still legally make are forced (attack limit, adjacency, 26.3)."""
    owed = owed_repeats(state, side)
    if not owed or current_mode(state) != "combat":
        return None
    off = command.offensive(state)
    if key == "offensive/combat":
        if off.get("opened", {}).get("combat"):
            return None
        for t, ids in owed.items():
            if _can_repeat(state, side, t, ids):
                return (f"{', '.join(ids)} broke through against {t} without vacating it and must repeat "
                        "the attack in the Combat step: open the attack sequence")
    if key == "designate":
        for t, ids in owed.items():
            done = any(d["target"] == t and set(ids) & set(d["attackers"]) for d in designations(state))
            if not done and _can_repeat(state, side, t, ids):
                return f"{', '.join(ids)} must repeat the breakthrough attack on {t}: designate it"
    if key == "resolve":
        for d in designations(state):
            if not d["resolved"] and set(owed.get(d["target"], [])) & set(d["attackers"]):
                return f"the repeat attack on {d['target']} may not be cancelled: resolve it"
    return None


def designate(state: State, target: str, attackers: list[str], mode: str) -> None:
    off = command.offensive(state)
    off.setdefault("attacks", {})[mode] = int(off.get("attacks", {}).get(mode, 0)) + 1
    designations(state).append({"target": target, "attackers": list(attackers), "resolved": False, "mode": mode})
    state.emit("designate", side=off.get("side"), rule="ETO-26.3",
               text=f"{', '.join(attackers)} will attack {target}", target=target, attackers=list(attackers))


# == 4A-F: resolution ===========================================================================
class ResolveOrder(OrderKind):
    """4A-F: ``{"kind": "resolve", "target": hex}``: roll and apply one designated attack (26.1)."""

    kind = "resolve"
    rule = "ETO-26.1"

    def legal(self, state: State) -> list[dict[str, Any]]:
        if state.markers.get("combat"):
            return []
        return [{"kind": "resolve", "target": d["target"]} for d in designations(state) if not d["resolved"]]

    def execute(self, state: State, order: dict[str, Any]) -> None:
        d = next(x for x in designations(state) if x["target"] == order["target"] and not x["resolved"])
        d["resolved"] = True
        resolve(state, d)


def _trigger_blitzkrieg(state: State, side: str, attackers: list[Unit], target: str) -> None:
    """ETO-44.1: the first German attack on a unit of a nation inside its home country turns the
    bonus on for the rest of the turn (once per nation per game).  ETO-44.5: against US units
    the first German attack anywhere on the map does so (no scenario switch needed)."""
    b = blitzkrieg_rules(state)
    if side != "axis" or not any(u.nation == b.get("attacker_nation", "GE") for u in attackers):
        return
    anywhere = set(b.get("anywhere_first_turn", []))
    for u in combat_units_at(state, target, "allies"):
        key = f"blitzkrieg.{u.nation}"
        status = state.tracks.get(key, "unused" if u.nation in anywhere else None)
        if status != "unused":
            continue
        if u.nation in anywhere or home_mask(state, u.nation)[state.map.index(target)]:
            state.tracks[key] = f"active:{state.turn_label}"
            state.emit("blitzkrieg", side=side, rule="ETO-44.5" if u.nation in anywhere else "ETO-44.1",
                       text=f"blitzkrieg bonus against {u.nation} for {state.turn_label}", nation=u.nation)


def resolve(state: State, d: dict[str, Any]) -> bool:
    """ETO-26.1: roll one designated attack (or an armor reaction attack, 26.5: ``d["side"]``
    and ``d["reaction"]``) and start its result steps (27.1).  False: cancelled before the roll
    (no attacker left, or the hex is vacant)."""
    side = d.get("side") or command.offensive(state).get("side") or state.phasing
    target = d["target"]
    enemy = values.other(side)
    attackers = [a for a in d["attackers"] if values.on_map(state.unit(a)) or amphibious.is_assaulting(state.unit(a))]
    if not attackers:
        state.emit("cancelled", side=side, rule="ETO-26.3", text=f"attack on {target} cancelled: no attackers left")
        return False
    defenders_all = [u for u in values.units_at(state, target, enemy) if values.is_land_unit(state, u)]
    if not defenders_all and not enemy_fort(state, side, target) and not amphibious.assault_units(state, attackers):
        state.emit("cancelled", side=side, rule="ETO-26.3", text=f"attack on {target} cancelled: hex vacant")
        return False
    from workbench.rulesets.eto.losses import eliminate

    if defenders_all and all(values.unit_class(state, u) == "partisan" for u in defenders_all):
        for p in defenders_all:
            eliminate(state, p, "ETO-45.5", " (partisans are destroyed when attacked)")
        return _results(state, {"target": target, "side": side, "mode": d["mode"], "attackers": attackers,
                                "defenders": [], "result": "partisans"})
    _trigger_blitzkrieg(state, side, [state.unit(a) for a in attackers], target)
    from workbench.rulesets.eto.drops import paras_lifted

    with paras_lifted(state, target):  # 19.3 ruling: a para in the hex cuts no defender's line
        for u in defenders_all:
            supply.restore_from_marker(state, u, "attacked")  # 33.4
    a = assess(state, side, attackers, target, reaction=d["mode"] == "reaction")

    with paras_lifted(state, target):
        dfn_supplied = {u: supply.traces(state, state.unit(u)) for u in a.defenders}
    (die,) = state.roll(purpose=f"land combat {a.attack} vs {a.defense} at {target} ({a.column}, DRM {a.drm:+d})",
                        rule="ETO-26.1", side=side)
    modified = die + a.drm
    code = adj.crt(a.column, modified, tables=state.ruleset.tables)
    original = code
    if a.fort:  # 27.1: "(D2) ... against any type of enemy fortification" -- an airfield marker is none
        code = adj.against_fortification(code, tables=state.ruleset.tables)
    state.emit("combat", side=side, rule="ETO-27.1",
               text=f"{a.attack}:{a.defense} at {target} → {a.column}; die {die} {a.drm:+d} = {modified}: {code}",
               target=target, attackers=a.attackers, defenders=a.defenders, attack=a.attack, defense=a.defense,
               land_attack=a.land_attack, land_defense=a.land_defense, column=a.column, die=die,
               drm=a.drm, drms=[[v, why, rule] for v, why, rule in a.drms], modified=modified, result=code,
               printed_result=original, mode=d["mode"],
               contributions=[[w, v, r] for w, v, r in a.contributions])
    for hook in AFTER_ROLL_HOOKS:
        hook(state, side, a.attackers, a.defenders, target)
    if amphibious.assault_units(state, attackers):
        amphibious.after_roll(state, side, target, attackers)  # 10.6: STPs lost whatever the result
        attackers = [a for a in attackers if values.on_map(state.unit(a)) or amphibious.is_assaulting(state.unit(a))]
    spec = adj.result_code(code, tables=state.ruleset.tables)
    for uid in attackers:
        state.unit(uid).props["attacked"] = True
        if d["mode"] == "combat" and state.unit(uid).props.get("must_attack") == target:
            state.unit(uid).props.pop("must_attack")  # 28.4: the repeat attack is made
    c = {
        "target": target, "side": side, "mode": d["mode"], "attackers": attackers,
        "defenders": a.defenders, "result": code, "attacker_steps": int(spec["attacker_steps"]),
        "attacker_eliminated": bool(spec["attacker_eliminated"]), "flex": int(spec["defender_flex"]),
        "retreat": int(spec["defender_retreat"]), "defender_eliminated": bool(spec["defender_eliminated"]),
        "affects_defender": bool(spec.get("affects_defender")), "vacated": [],
        "dfn_supplied": dfn_supplied,
    }
    if d.get("reaction"):
        c["reaction"] = d["reaction"]
    return _results(state, c)


def _results(state: State, c: dict[str, Any]) -> bool:
    """Start the combat's result steps: the ``combat-result`` procedure of the sequence
    (:mod:`results`), named as data so this module never calls into it."""
    state.markers["combat"] = c
    state.push_procedure(RESULTS)
    return True


def loss_options(state: State, units: list[str], n: int, exact: bool) -> list[list[str]]:
    """Multisets of ``n`` (or, if not exact, 0..n) step assignments among units (27.2)."""
    caps = {u: (1 if values.unit_class(state, state.unit(u)) == "paratroop" else values.steps_left(state, state.unit(u)))
            for u in units}
    total = sum(caps.values())
    top = min(n, total)
    sizes = {top} if exact else set(range(0, top + 1))
    out: list[list[str]] = []

    def rec(i: int, taken: int, acc: list[str]) -> None:
        if i == len(units):
            if taken in sizes:
                out.append(list(acc))
            return
        u = units[i]
        for k in range(0, min(caps[u], top - taken) + 1):
            rec(i + 1, taken + k, acc + [u] * k)

    rec(0, 0, [])
    return sorted(out, key=lambda x: (len(x), x))


class TakeLossesOrder(OrderKind):
    """``{"kind": "take_losses", "units": [ids]}``: each id listed once per step it loses (27.2).
    For the defender's D1/D2/D3 choice, the steps not taken are hexes of retreat (27.1)."""

    kind = "take_losses"
    rule = "ETO-27.2"

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = state.frames[-1]
        data = f["data"]
        exact = data["role"] == "attacker"
        reserve = list(data.get("reserve", []))
        opts = loss_options(state, [*data["units"], *reserve], data["steps"], exact)
        if reserve:  # 27.3: a unit that retreated in this step loses steps only after all the others
            full = {u: values.steps_left(state, state.unit(u)) for u in data["units"]}
            opts = [o for o in opts if not set(o) & set(reserve) or all(o.count(u) == n for u, n in full.items())]
        return [{"kind": "take_losses", "units": opt} for opt in opts]

    def check(self, state: State, order: dict[str, Any]) -> None:
        units = order.get("units")
        if not isinstance(units, list) or sorted(units) not in [sorted(o["units"]) for o in self.legal(state)]:
            data = state.frames[-1]["data"]
            raise IllegalOrder(self.rule, f"assign {data['steps']} step(s) among {', '.join(data['units'])}"
                               + (" (or fewer, retreating for the rest)" if data["role"] == "defender" else ""))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.eto.losses import step_loss

        f = state.pop_interrupt()
        data = f["data"]
        c = state.markers["combat"]
        for uid in order["units"]:
            u = state.unit(uid)
            if values.on_map(u) or amphibious.is_assaulting(u):  # 10.6: an assault force loses steps aboard
                step_loss(state, u, "ETO-27.2")
        if data["role"] == "defender":
            hexes = data["steps"] - len(order["units"])
            survivors = [u for u in [*data["units"], *data.get("reserve", [])] if values.on_map(state.unit(u))]
            c["retreat_hexes"] = {u: hexes for u in survivors} if hexes else {}
            state.emit("defender_choice", side=f["side"], rule="ETO-27.1",
                       text=f"{len(order['units'])} step(s) lost, retreat {hexes} hex(es)",
                       steps=len(order["units"]), hexes=hexes)
