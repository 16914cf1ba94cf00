"""Tactical submarines' own procedures: hunting a submarine, and a submarine's attack (ETO-11.2, 11.3).

A submarine (SS) fights by rules of its own (11.0: one step, a hit sinks it; 11.4: its gunnery
counts only against named ships, :func:`naval_units.gunnery_against`):

* **Air hunting** (11.2): bombers and fighter-bombers in the sub's space roll one die plus their
  number (-2 in the severe zone in winter); 7 or more finds it (:func:`air_search`).  A found
  submarine is attacked once by one air unit (:func:`air_attack`, air-naval combat 16.2).
* **DD/DE hunting** (11.2): DDs and DEs search as any group (8.4, with the -1 against a sub) and
  fight the sub in an ordinary battle in which a sub that withdraws is never pursued
  (:func:`hunt`).
* **A submarine's attack** (11.3): against a stack without DDs or DEs it attacks twice and the
  combat ends; against escorts the intercepted player rolls one die for detection, then the sub
  attacks once and either withdraws or fights a simultaneous second round (:func:`attack`).

:func:`battle` picks the procedure for an interception: the naval interception code calls it for
every group that found its target.  Every die goes through ``state.roll`` with its rule; every
step is an event.  Numbers: ``tables/naval_search.toml [submarines]``.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    air_naval,
    air_units,
    naval_combat,
    naval_damage,
    naval_search,
    naval_units,
    values,
)

RULE = "ETO-11.3"


def rules(state: State) -> dict[str, Any]:
    return state.ruleset.tables["naval_search"]["submarines"]


def _step(state: State) -> str:
    return f"{state.turn_label}/{state.step.key if state.step else ''}"


def lone_sub(state: State, units: list[Unit]) -> Unit | None:
    """The submarine when ``units`` is one (11.1: a sub never stacks at sea), else None."""
    live = [u for u in units if naval_damage.afloat(u)]
    return live[0] if len(live) == 1 and naval_units.is_submarine(state, live[0]) else None


def escorts(state: State, stack: list[Unit]) -> list[Unit]:
    """ETO-11.2/11.3: the DD and DE units afloat in a stack, the only ships that fire at a sub."""
    hunters = set(rules(state)["hunters"])
    return [u for u in stack if naval_damage.afloat(u) and naval_units.kind(state, u) in hunters]


def moving_sub_why_not(state: State, units: list[Unit], target: list[Unit]) -> Refusal | None:
    """ETO-11.2: "SS units can't be intercepted while they are moving (exception: CVE based naval
    air, and DD/DE stacked with a CVE)": against a moving submarine only the DD/DE of a stack
    that holds a CVE search (with the CVE)."""
    if lone_sub(state, target) is None:
        return None
    need = str(rules(state).get("moving_sub_needs", "CVE"))
    kinds = {naval_units.kind(state, u) for u in units}
    if need not in kinds:
        return Refusal("ETO-11.2", f"a submarine cannot be intercepted while it moves, except by DD/DE stacked with "
                       f"a {need} (or {need}-based naval air)")
    allowed = set(rules(state)["hunters"]) | {need}
    if kinds - allowed:
        return Refusal("ETO-11.2", f"only DD/DE stacked with a {need} intercept a moving submarine; "
                       f"{', '.join(sorted(kinds - allowed))} cannot take part")
    if not kinds & set(rules(state)["hunters"]):
        return Refusal("ETO-11.2", f"a {need} alone does not intercept a moving submarine: it needs DD/DE with it")
    return None


# --- 11.2: air units hunting a submarine at sea ------------------------------------------------

def air_hunters(state: State, side: str, space: str, air: list[Unit] | None = None) -> list[Unit]:
    """ETO-11.2: "The air unit must be a bomber or a fighter-bomber and it must be in the same
    space as the enemy SS unit" (the classes are ``[submarines.air_classes]``).  ``air``: the
    caller's flying units, else every such unit of ``side`` standing in the space."""
    classes = set(rules(state)["air_classes"]["classes"])
    hexes = {state.map.label(int(i)) for i in naval_search.space_hexes(state, space)} | {space}
    pool = air if air is not None else air_units.air_units(state, side)
    return [u for u in pool if u.side == side and values.unit_class(state, u) in classes
            and u.location in hexes and not u.props.get("aborted")]


def air_search(state: State, side: str, sub: Unit, *, air: list[Unit] | None = None) -> bool:
    """ETO-11.2: one die + the number of bomber / fighter-bomber units in the space, -2 in the
    severe weather zone in winter; 7 or more intercepts the submarine.  One air search per sub
    per step (as 8.5's once a step for a group)."""
    if not naval_units.is_submarine(state, sub) or not naval_damage.afloat(sub):
        raise IllegalOrder("ETO-11.2", f"{sub.id} is not a submarine at sea")
    if naval_units.in_port(sub):
        raise IllegalOrder("ETO-11.2", f"{sub.id} is in port: ships in port are intercepted automatically, "
                                       "not searched for by air")
    space = sub.location
    hunters = air_hunters(state, side, space, air)
    if not hunters:
        raise IllegalOrder("ETO-11.2", f"no bomber or fighter-bomber of {side} is in {space} with {sub.id}")
    if sub.props.get("air_searched") == _step(state):
        raise IllegalOrder("ETO-11.2", f"{sub.id} was already searched for by air this step")
    t = rules(state)
    mods = [(len(hunters), "bomber/fighter-bomber units in the space")]
    if naval_search.winter_in(state, space):  # W weather is winter only in the severe zone (1.1)
        mods.append((int(t["air_severe_winter"]), "severe zone in winter"))
    drm = sum(v for v, _ in mods)
    shown = ", ".join(f"{v:+d} {why}" for v, why in mods)
    (die,) = state.roll(1, purpose=f"air search by {', '.join(u.id for u in hunters)} for {sub.id} in {space} "
                                   f"({shown}; {t['air_find_at']}+ intercepts)", rule="ETO-11.2", side=side)
    ok = die + drm >= int(t["air_find_at"])
    sub.props["air_searched"] = _step(state)
    if ok:
        sub.props["air_found"] = _step(state)
    state.emit("sub_air_search", side=side, rule="ETO-11.2", at=space, found=ok, sub=sub.id,
               air=[u.id for u in hunters],
               text=f"air search for {sub.id}: {die}{drm:+d} = {die + drm}: {'intercepted' if ok else 'not found'}")
    return ok


def air_attack(state: State, bomber: Unit, sub: Unit) -> dict[str, Any]:
    """ETO-11.2: "An intercepted submarine can be attacked once by only one air unit, regardless
    of how many were involved in the search": one air-naval attack (16.2) by ``bomber``."""
    step = _step(state)
    if sub.props.get("air_found") != step:
        raise IllegalOrder("ETO-11.2", f"{sub.id} was not intercepted by air this step")
    if sub.props.get("air_attacked") == step:
        raise IllegalOrder("ETO-11.2", f"{sub.id} was already attacked by an air unit; only one may attack it")
    if bomber not in air_hunters(state, bomber.side, sub.location, [bomber]):
        raise IllegalOrder("ETO-11.2", f"{bomber.id} is not a bomber or fighter-bomber in {sub.location}")
    bomber.props["role"] = "bomber"
    sub.props["air_attacked"] = step
    n = int(rules(state)["air_attacks"])
    return air_naval.bomb_ships(state, bomber, [sub], targets=[sub.id] * n, carrier=bool(bomber.props.get("carrier")))


def strike_subs_at_sea(state: State, *_: Any) -> None:
    """ETO-11.2 in Naval and Air Step 2: the bombers and fighter-bombers of each arrived
    ``attack_naval`` flight search for every enemy submarine at sea in the target space (1d6 +
    their number, 7+); a found sub is attacked once, by one air unit (the strongest), which
    attacks nothing else (``props["struck_sub"]``, read by air_naval.strike_flights).  Subs in
    port are ordinary targets ("attacked as ships in port")."""
    from workbench.rulesets.eto import air_combat, air_flights

    for fl in sorted(air_flights.flights(state).values(), key=lambda f: f["id"]):
        if fl["mission"] != "attack_naval" or not fl["arrived"] or fl["ended"]:
            continue
        left = [u for u in air_flights.live_units(state, fl) if air_units.is_bomber(state, u)
                and not air_combat.aborted(u)]
        for sub in air_naval.naval_targets(state, fl["side"], fl["at"]):
            if not naval_units.is_submarine(state, sub) or naval_units.in_port(sub):
                continue
            hunters = air_hunters(state, fl["side"], sub.location, left)
            if not hunters or sub.props.get("air_searched") == _step(state):
                continue
            if air_search(state, fl["side"], sub, air=hunters):
                striker = max(hunters, key=lambda u: (air_units.strength(state, u), u.id))
                air_attack(state, striker, sub)
                striker.props["struck_sub"] = True
                left.remove(striker)


# --- 11.2: DDs and DEs hunting a submarine ------------------------------------------------------

def hunt(state: State, space: str, group: list[Unit], sub: Unit, *,
         plans: dict[str, naval_combat.Plan] | None = None, strict: bool = True) -> dict[str, Any]:
    """ETO-11.2: "If the sub is found, naval combat occurs between the intercepting group of
    DD/DEs and the submarine.  If the sub survives the first round and withdraws, the enemy
    cannot pursue."  An ordinary battle (9.0-9.6) with the hunters' pursuit off."""
    if len(escorts(state, group)) != len([u for u in group if naval_damage.afloat(u)]):
        raise IllegalOrder("ETO-11.2", "only DD and DE units hunt a submarine at sea")
    side = group[0].side
    plans = dict(plans or {})
    mine = plans.get(side) or naval_combat.Plan()
    plans[side] = naval_combat.Plan(hold_out=mine.hold_out, targets=mine.targets, withdraw=mine.withdraw,
                                    pursue=False)
    return naval_combat.resolve(state, space, {side: group, sub.side: [sub]}, plans=plans, strict=strict)


# --- 11.3: a submarine attacks a stack ---------------------------------------------------------

def _sub_shot(state: State, sub: Unit, stack: list[Unit], plan: naval_combat.Plan, what: str) -> dict[str, Any] | None:
    """One submarine attack on "any ship or STP marker in the enemy stack" (11.3): the plan's
    target for this attack (``targets`` in turn) while afloat, else the kernel's choice
    (:func:`naval_combat.pick_target`)."""
    live = [u for u in stack if naval_damage.afloat(u) and naval_units.is_naval(state, u)]
    k = int(sub.props.get("sub_attacks", 0))
    sub.props["sub_attacks"] = k + 1
    t = naval_combat.pick_target(state, sub, live, {}, plan.targets[k:k + 1])
    return None if t is None else naval_combat.roll_hit(state, sub, t, sub.side, what)


def attack(state: State, space: str, sub: Unit, stack: list[Unit], *,
           plan: naval_combat.Plan | None = None) -> dict[str, Any]:
    """ETO-11.3: an SS that found an enemy stack attacks it.

    Without DD/DE in the stack: two attacks, one after the other, then the combat is over (no
    other surface ship may fire at the sub).  With DD/DE: the intercepted player rolls one die; at
    most the number of DD and DE units, they all fire at the sub first.  A sub that survives (or
    was not detected) makes one attack; then it withdraws (no pursuit) or fights a second round:
    one more attack while every DD and DE fires at it, all at once (hits applied together).
    ``plan``: the sub's targets in turn; any ``withdraw`` leaves after the first attack (the
    default fights the second round, as no side withdraws by default in 9.6)."""
    plan = plan or naval_combat.Plan()
    if not naval_units.is_submarine(state, sub):
        raise IllegalOrder(RULE, f"{sub.id} is not a submarine")
    sub.props["sub_attacks"] = 0
    t = rules(state)
    other = next((u.side for u in stack), values.other(sub.side))
    units = {u.id: u for u in [sub, *stack]}
    out: dict[str, Any] = {"space": space, "rounds": [], "withdrew": {sub.side: [], other: []},
                           "detected": None, "submarine": sub.id}
    state.emit("naval_battle", rule=RULE, at=space,
               text=f"submarine attack at {space}: {sub.id} against {', '.join(u.id for u in stack)}")

    def fire(shots: list[dict[str, Any] | None], rnd: int, what: str) -> None:
        real = [s for s in shots if s is not None]
        naval_combat.apply_shots(state, real, units)
        out["rounds"].append(real)
        state.emit("naval_round", rule=RULE, at=space, round=rnd, shots=real,
                   text=f"{what} at {space}: {sum(s['hit'] for s in real)} hit(s) in {len(real)} shot(s)")

    dd = escorts(state, stack)
    if not dd:
        for k in range(int(t["unescorted_attacks"])):
            fire([_sub_shot(state, sub, stack, plan, f"attack {k + 1} on a stack without DD/DE")], 1,
                 f"{sub.id}'s attack {k + 1}")
        return _done(state, out, sub, stack)
    (die,) = state.roll(1, purpose=f"does the {len(dd)} DD/DE of the stack detect {sub.id}? "
                                   f"(1d6 <= {len(dd)}: they fire first)", rule=RULE, side=other)
    out["detected"] = die <= len(dd)
    state.emit("sub_detection", side=other, rule=RULE, at=space, detected=out["detected"],
               text=f"{die} against {len(dd)} DD/DE: {sub.id} "
                    f"{'detected: the escorts fire first' if out['detected'] else 'undetected until its first attack'}")
    if out["detected"]:
        fire([naval_combat.roll_hit(state, e, sub, other, "round 1, escorts before the submarine") for e in dd], 1,
             "escorts fire at the submarine")
        if not naval_damage.afloat(sub):
            return _done(state, out, sub, stack)
    fire([_sub_shot(state, sub, stack, plan, "round 1")], 1, f"{sub.id}'s first attack")
    if plan.withdraw:
        sub.props["withdrew"] = state.turn_label
        out["withdrew"][sub.side] = [sub.id]
        state.emit("naval_withdrawal", rule="ETO-11.3", at=space, text=f"{sub.id} withdraws; no pursuit")
        return _done(state, out, sub, stack)
    dd = escorts(state, stack)
    shots = [_sub_shot(state, sub, stack, plan, "round 2") for _ in range(int(t["second_round_attacks"]))]
    shots += [naval_combat.roll_hit(state, e, sub, other, "round 2") for e in dd]
    fire(shots, 2, "round 2 (simultaneous)")
    return _done(state, out, sub, stack)


def _done(state: State, out: dict[str, Any], sub: Unit, stack: list[Unit]) -> dict[str, Any]:
    sub.props.pop("sub_attacks", None)
    out["survivors"] = {sub.side: [sub.id] if naval_damage.afloat(sub) else [],
                        **{s: [u.id for u in stack if naval_damage.afloat(u)] for s in {u.side for u in stack}}}
    return out


def battle(state: State, space: str, side: str, group: list[Unit], target: list[Unit], *,
           plans: dict[str, naval_combat.Plan] | None = None, strict: bool = True) -> dict[str, Any]:
    """The combat after ``group`` (of ``side``) found ``target`` in ``space``: a submarine's attack
    (11.3), DDs/DEs against a lone submarine (11.2), else an ordinary naval battle (9.0)."""
    sub = lone_sub(state, group)
    if sub is not None:
        return attack(state, space, sub, target, plan=(plans or {}).get(side))
    prey = lone_sub(state, target)
    if prey is not None:
        hunters = escorts(state, group)
        if not hunters:  # 11.3: "No surface units other than DDs and DEs can fire at the sub"
            state.emit("naval_battle", rule="ETO-11.2", at=space,
                       text=f"{prey.id} is found, but only DDs and DEs fight a submarine: no combat")
            return {"space": space, "rounds": [], "withdrew": {side: [], prey.side: []},
                    "survivors": {side: [u.id for u in group], prey.side: [prey.id]}}
        return hunt(state, space, hunters, prey, plans=plans, strict=strict)
    return naval_combat.resolve(state, space, {side: group, target[0].side: target}, plans=plans, strict=strict)
