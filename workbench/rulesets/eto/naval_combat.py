"""Naval combat: commitment, gunfire by sub-rounds, hits, withdrawal (ETO-9.0-9.6, 10.9, 11.4).

:func:`resolve` fights one battle between two sides' naval units in one space and returns what
happened, round by round; every die is rolled through ``state.roll`` and every round is an event,
so the log shows the battle as it went.  The players' choices come in a :class:`Plan` per side:

* ``hold_out``: units kept out of round 1 / round 2 (9.1: only as far as the rule allows);
* ``targets``: preferred targets in order; each firing unit takes the first one it may attack
  under 9.4's spreading, else the default choice;
* ``withdraw``: units withdrawn after round 1 ("all", a list of at most half rounded up, or
  none; 9.6); ``pursue``: fight round 2 against an enemy that withdrew entirely (default yes).

Both plans are given before the battle, so the withdrawals are secret and simultaneous (9.6,
GAP-24).  The default choices (no plan) are the kernel's: commit everything, fire at the most
valuable hittable target, never withdraw.  A carrier's naval air strikes before the gunfire
(9.0) through :mod:`air_naval`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import naval_units
from workbench.rulesets.eto.naval_damage import afloat, hit_unit

RULE = "ETO-9.0"
#: 9.3: round 1's six sub-rounds, by current gunnery
SUB_ROUNDS = (5, 4, 3, 2, 1, 0)
#: The default choice of target: named capital ships first, then the rest (9.2 leaves it free).
VALUE = {"BB": 6, "CV": 6, "CA": 4, "CVE": 3, "STP": 3, "CL": 2, "DD": 1, "DE": 1, "SS": 1}


@dataclass
class Plan:
    """One side's choices for a battle (see the module docstring).  A submarine's attack (11.3)
    reads ``targets`` as the target of each attack in turn and ``withdraw`` (any) as leaving
    after its first attack instead of fighting the second round."""

    hold_out: dict[int, list[str]] = field(default_factory=dict)
    targets: list[str] = field(default_factory=list)
    withdraw: str | list[str] | None = None
    pursue: bool = True
    air_roles: dict[str, str] = field(default_factory=dict)


#: Order fields that carry a side's battle plan (``sail``, ``intercept_naval``, ``naval_search``).
PLAN_FIELDS = ("targets", "hold_out", "withdraw", "withdraw_all", "pursue", "air_roles")


def plan_of(order: dict[str, Any]) -> dict[str, Any]:
    """The battle-plan fields of an order, as stored with a voyage (plain JSON)."""
    return {k: order[k] for k in PLAN_FIELDS if k in order}


def plan_why_not(order: dict[str, Any], units: list[str]) -> Refusal | None:
    """The plan fields of an order name only the order's own units in ``hold_out`` and
    ``withdraw`` (9.1, 9.6); targets are enemy units, checked when the battle picks them."""
    for key, rule in (("hold_out", "ETO-9.1"), ("withdraw", "ETO-9.6")):
        bad = [i for i in order.get(key) or [] if i not in units]
        if bad:
            return Refusal(rule, f"{key} names units not in this stack: {', '.join(map(str, bad))}")
    if order.get("withdraw") and order.get("withdraw_all"):
        return Refusal("ETO-9.6", "give either withdraw (some units) or withdraw_all, not both")
    bad = [r for r in (order.get("air_roles") or {}).values() if r not in ("fighter", "bomber")]
    if bad:
        return Refusal("ETO-16.5", f"a carrier air unit flies as \"fighter\" (against the enemy's carrier air) or "
                                   f"\"bomber\" (against its ships), not {bad[0]!r}")
    return None


def plan_from(fields: dict[str, Any] | None) -> Plan | None:
    """ETO-9.1/9.4/9.6: a :class:`Plan` from an order's fields: ``targets`` (preferred, in order),
    ``hold_out`` (units kept out of round 1), ``withdraw`` (units leaving after round 1) or
    ``withdraw_all``, ``pursue`` (fight on against an enemy withdrawing entirely)."""
    if not fields:
        return None
    return Plan(hold_out={1: list(fields.get("hold_out") or [])}, targets=list(fields.get("targets") or []),
                withdraw="all" if fields.get("withdraw_all") else (list(fields.get("withdraw") or []) or None),
                pursue=bool(fields.get("pursue", True)), air_roles=dict(fields.get("air_roles") or {}))


def committed_why_not(state: State, mine: list[Unit], theirs: list[Unit], held: list[str]) -> str | None:
    """ETO-9.1: the side with fewer naval units commits all; the side with more commits at least one
    unit per enemy unit with a gunnery rating (STP markers count as one unit, 10.3)."""
    if not held:
        return None
    n_mine, n_theirs = naval_units.unit_count(state, mine), naval_units.unit_count(state, theirs)
    if n_mine <= n_theirs:
        return "the side with the fewer naval units must commit its entire stack"
    left = [u for u in mine if u.id not in held]
    need = sum(1 for u in theirs if naval_units.gunnery(state, u) is not None)
    if naval_units.unit_count(state, left) < need:
        return f"at least one unit per enemy unit with a gunnery rating ({need}) must be committed"
    return None


def roll_hit(state: State, shooter: Unit, target: Unit, side: str, rnd: str) -> dict[str, Any]:
    """ETO-9.2/9.5/11.4: 2d6 + gunnery against the target's armor; a natural 12 always hits;
    doubles that hit sink (a 12 that was needed, armor - gunnery >= 12, is a plain hit)."""
    g = int(naval_units.gunnery_against(state, shooter, target) or 0)
    armor = naval_units.armor(state, target)
    needed = armor - g
    dice = state.roll(2, purpose=f"{shooter.id} fires at {target.id} (gunnery {g} against armor {armor}; {rnd})",
                      rule="ETO-9.2", side=side)
    total = sum(dice)
    hit = total >= needed or total == 12
    doubles = dice[0] == dice[1]
    sink = hit and doubles and not (total == 12 and needed >= 12)
    return {"shooter": shooter.id, "target": target.id, "dice": list(dice), "gunnery": g, "armor": armor,
            "hit": hit, "sink": sink}


def pick_target(state: State, shooter: Unit, enemies: list[Unit], attacked: dict[str, int], prefs: list[str]) -> Unit | None:
    """ETO-9.4: no unit is attacked k+1 times in a round before every enemy unit in the battle
    was attacked k times.  Among those allowed: the plan's first preference, else the most
    valuable target weighted by the chance to hit it."""
    live = [e for e in enemies if naval_units.is_naval(state, e) and e.location not in ("Force pool", "Eliminated")]
    if not live:
        return None
    low = min(attacked.get(e.id, 0) for e in live)
    allowed = [e for e in live if attacked.get(e.id, 0) == low]
    for p in prefs:
        for e in allowed:
            if e.id == p:
                return e

    def score(e: Unit) -> tuple[float, str]:
        g = int(naval_units.gunnery_against(state, shooter, e) or 0)
        need = naval_units.armor(state, e) - g
        p_hit = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need or a + b == 12) / 36
        return (-p_hit * VALUE.get(naval_units.kind(state, e), 1) * (2 if naval_units.damaged(e) else 1), e.id)

    return sorted(allowed, key=score)[0]


def apply_shots(state: State, shots: list[dict[str, Any]], units: dict[str, Unit]) -> None:
    """ETO-9.5/10.9: hits take effect together at the end of a (sub-)round (:func:`hit_unit`)."""
    for s in shots:
        if s["hit"]:
            hit_unit(state, units[s["target"]], sink=s["sink"], by=s["shooter"])


def _afloat(state: State, units: list[Unit]) -> list[Unit]:
    return [u for u in units if afloat(u)]


def _fire(state: State, firing: dict[str, list[Unit]], targets: dict[str, list[Unit]], plans: dict[str, Plan],
          attacked: dict[str, int], rnd: str) -> list[dict[str, Any]]:
    shots = []
    for side, ships in firing.items():
        for u in ships:
            if naval_units.gunnery(state, u) is None:
                continue
            t = pick_target(state, u, targets[side], attacked, plans[side].targets)
            if t is None:
                continue
            attacked[t.id] = attacked.get(t.id, 0) + 1
            shots.append(roll_hit(state, u, t, side, rnd))
    return shots


def _withdrawals(state: State, side: str, ships: list[Unit], plan: Plan, strict: bool = True) -> list[Unit]:
    """ETO-9.6: "any number up to half (rounded up) of his units, or all of them".  A plan given
    before the battle (standing orders, ``strict`` False) that names too many of the survivors
    withdraws the first half of them, rounded up."""
    w = plan.withdraw
    if not w:
        return []
    if w == "all":
        return list(ships)
    chosen = [u for u in ships if u.id in set(w)]
    most = math.ceil(len(ships) / 2)
    if len(chosen) > most and len(chosen) != len(ships):
        if strict:
            raise IllegalOrder("ETO-9.6", f"{side} may withdraw at most half its {len(ships)} units (rounded up), "
                                          f"or all of them, not {len(chosen)}")
        chosen = chosen[:most]
        state.emit("naval_plan", side=side, rule="ETO-9.6",
                   text=f"{side} may withdraw at most {most} of its {len(ships)} units: "
                        f"{', '.join(u.id for u in chosen)} withdraw")
    return chosen


def carrier_strikes(state: State, sides: dict[str, list[Unit]], *, only: str | None = None,
                    plans: dict[str, Plan] | None = None, space: str | None = None) -> list[dict[str, Any]]:
    """ETO-9.0, 16.5: the naval air on an undamaged CV in the battle attacks the enemy ships before
    any gunfire (air-naval combat, 16.0).  16.5: carrier air "can attack enemy naval (or naval air)
    units": each unit flies as a bomber unless its side's plan (``air_roles``) makes it a fighter;
    when fighters are among the carrier air of the two sides, the air-to-air combat (15.0) over the
    battle's space comes first, and only unaborted bombers then strike (16.0).  ``only``: just that
    side's air strikes (8.7: the air of an evaded group in an ungridded space) -- the enemy's
    carrier air still defends."""
    from workbench.rulesets.eto import air_combat, air_naval, air_units, carriers

    plans = plans or {}
    flying: dict[str, list[Unit]] = {}
    for side, ships in sides.items():
        cvs = [u for u in ships if naval_units.kind(state, u) in ("CV", "CVE") and not naval_units.damaged(u)
               and u.location not in ("Force pool", "Eliminated")]
        air = [a for cv in cvs for a in carriers.aboard(state, cv) if not air_units.airborne(a)]
        roles = plans[side].air_roles if side in plans and plans[side] else {}
        for a in air:
            a.props["role"] = roles.get(a.id, "bomber")
        flying[side] = air
    where = space or next((u.location for us in sides.values() for u in us), "")
    if sum(1 for us in flying.values() if us) == 2 \
            and any(air_units.is_fighter(state, a) for us in flying.values() for a in us):
        for us in flying.values():
            for a in us:
                a.location = where  # the carrier air meets over the battle's space
        first = only or next(iter(sides))
        state.emit("air_battle", rule="ETO-16.5", at=where,
                   text=f"carrier air meets carrier air over {where}: "
                        + "; ".join(f"{s} {', '.join(a.id for a in us)}" for s, us in flying.items()))
        air_combat.fight(state, where, flying, first=first)
    out = []
    for side, air in flying.items():
        if only is not None and side != only:
            continue
        enemy = [u for s, us in sides.items() if s != side for u in _afloat(state, us)]
        for a in air:
            if not _afloat(state, enemy) or a.location in ("Force pool", "Eliminated") or air_combat.aborted(a) \
                    or not air_units.is_bomber(state, a):
                continue
            out.append(air_naval.bomb_ships(state, a, _afloat(state, enemy), carrier=True))
    for us in flying.values():
        for a in us:
            a.props.pop("aborted", None)  # back on the carrier: an abort ends the mission only (15.6)
            carriers.sync(state, a)
    return out


def resolve(state: State, space: str, sides: dict[str, list[Unit]], *, plans: dict[str, Plan] | None = None,
            port: bool = False, strict: bool = True) -> dict[str, Any]:
    """ETO-9.0-9.6: one naval battle in ``space`` between the two ``sides`` (the intercepting
    group and the intercepted stack); ``port``: a battle for a port (7.7), no withdrawal.
    ``strict``: a plan breaking 9.1 or 9.6 is refused; otherwise (plans given with orders before
    the enemy was known) the kernel commits everything / withdraws the most allowed, and says so."""
    plans = {s: (plans or {}).get(s) or Plan() for s in sides}
    a, b = list(sides)
    units = {u.id: u for us in sides.values() for u in us}
    out: dict[str, Any] = {"space": space, "rounds": [], "withdrew": {a: [], b: []}}
    state.emit("naval_battle", rule=RULE, at=space,
               text=f"naval battle at {space}: " + "; ".join(f"{s} {', '.join(u.id for u in us)}" for s, us in sides.items()))
    out["air"] = carrier_strikes(state, sides, plans=plans, space=space)
    fighting = {s: _afloat(state, us) for s, us in sides.items()}
    for rnd in (1, 2):
        committed = {}
        for s in sides:
            other = b if s == a else a
            held = plans[s].hold_out.get(rnd, [])
            why = committed_why_not(state, fighting[s], fighting[other], held)
            if why and strict:
                raise IllegalOrder("ETO-9.1", f"{s}: {why}")
            if why:
                held = []
                state.emit("naval_plan", side=s, rule="ETO-9.1", at=space, text=f"{s}: {why}; everything is committed")
            committed[s] = [u for u in fighting[s] if u.id not in held]
        attacked: dict[str, int] = {}
        shots_all: list[dict[str, Any]] = []
        if rnd == 1:
            fired: set[str] = set()
            for g in SUB_ROUNDS:  # 9.3: by current gunnery; damage applied at each sub-round's end
                firing = {s: [u for u in _afloat(state, committed[s]) if u.id not in fired
                              and naval_units.gunnery(state, u) == g] for s in sides}
                targets = {s: _afloat(state, committed[b if s == a else a]) for s in sides}
                shots = _fire(state, firing, targets, plans, attacked, f"round 1, gunnery-{g} sub-round")
                fired |= {u.id for us in firing.values() for u in us}
                apply_shots(state, shots, units)
                shots_all += shots
        else:
            firing = {s: _afloat(state, committed[s]) for s in sides}
            targets = {s: _afloat(state, committed[b if s == a else a]) for s in sides}
            shots_all = _fire(state, firing, targets, plans, attacked, "round 2")
            apply_shots(state, shots_all, units)
        out["rounds"].append(shots_all)
        state.emit("naval_round", rule="ETO-9.3", at=space, round=rnd,
                   text=f"round {rnd} at {space}: {sum(s['hit'] for s in shots_all)} hit(s) in {len(shots_all)} shot(s)",
                   shots=shots_all)
        fighting = {s: _afloat(state, fighting[s]) for s in sides}
        if rnd == 2 or not all(fighting.values()):
            break
        # 9.6: withdrawal, chosen secretly before the battle, revealed together
        if port:
            continue
        w = {s: _withdrawals(state, s, fighting[s], plans[s], strict) for s in sides}
        for s, us in w.items():
            for u in us:
                u.props["withdrew"] = state.turn_label
            out["withdrew"][s] = [u.id for u in us]
        stay = {s: [u for u in fighting[s] if u not in w[s]] for s in sides}
        if all(not stay[s] for s in sides):
            break
        whole = [s for s in sides if fighting[s] and not stay[s]]
        if whole:  # one side withdrew entirely: the other's remaining ships may fight its whole force
            (gone,) = whole
            chaser = b if gone == a else a
            if not plans[chaser].pursue:
                break
            fighting = {gone: fighting[gone], chaser: stay[chaser]}
        else:
            fighting = stay
        state.emit("naval_withdrawal", rule="ETO-9.6", at=space,
                   text="withdrawn: " + "; ".join(f"{s} {', '.join(out['withdrew'][s]) or 'none'}" for s in sides))
    out["survivors"] = {s: [u.id for u in _afloat(state, us)] for s, us in sides.items()}
    return out
