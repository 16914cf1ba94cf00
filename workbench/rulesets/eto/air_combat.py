"""Air-to-air combat (ETO-15.0-15.7), with 13.4's attacks on overstacked units on the ground
and 18.1's protection of ATP markers.

One combat in one hex (or strategic bombing box) is :func:`fight`: round 1 (every fighter
attacks), the results, voluntary aborts, round 2 (unaborted fighters of strength 3 or more),
the results (15.2 C-F).  Each round is :func:`fight_round`, so a caller that asks the players
for voluntary aborts between the rounds may run the two rounds itself.

Per attack: :func:`assign_targets` picks the targets each side's fighters attack (15.5 doubling
up, 18.1 ATPs, 13.4 overstacked units; the owner's declared preferences where the rules allow),
:func:`escort_bonus_applies` and :func:`own_base` give the 15.4 bonuses, :func:`target_number`
the 15.3 target number and :func:`outcome` the result of the die (15.3 and 15.7).  Results take
effect at the end of the round (15.2 D, F): :func:`lose_step` flips or eliminates, ``aborted``
is set.  The numbers are ``tables/air.toml [air_to_air]``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, pilot_recovery, values
from workbench.rulesets.eto.values import FORCE_POOL

Pair = tuple[str, str]


def rules(tables: dict[str, Any]) -> dict[str, Any]:
    return tables["air"]["air_to_air"]


# ---------------------------------------------------------------------------
# One attack: target number and result
# ---------------------------------------------------------------------------
def target_number(strength: int, quality: int, target_quality: int, *, own_base: bool = False,
                  escort: bool = False, blitzkrieg: bool = False, tables: dict[str, Any]) -> int:
    """ETO-15.3: "add the quality rating and combat strength of the attacking fighter. Subtract
    the quality rating of the target unit (0 if it is a bomber)"; ETO-15.4 adds 1 to the
    strength over the fighter's own base and 1 for the escort bonus; ETO-44.2 adds 1 to the
    strength of air units attacking air units of a country under the blitzkrieg bonus."""
    a = rules(tables)
    s = strength + (int(a["own_base_bonus"]) if own_base else 0) + (int(a["escort_bonus"]) if escort else 0)
    s += 1 if blitzkrieg else 0
    return quality + s - target_quality


def outcome(die: int, target_number: int, tables: dict[str, Any]) -> str:
    """ETO-15.3 with the automatic results of ETO-15.7: a 1 always depletes (and aborts), a 6
    never affects the target, a 5 never depletes (it aborts if the target number is 5 or more);
    otherwise a roll below the target number depletes, equal aborts, above misses."""
    a = rules(tables)
    if die == int(a["natural_hit"]):
        return "deplete"
    if die == int(a["natural_miss"]):
        return "none"
    if die == int(a["abort_only"]):
        return "abort" if target_number >= die else "none"
    if die < target_number:
        return "deplete"
    return "abort" if die == target_number else "none"


# ---------------------------------------------------------------------------
# Who attacks whom
# ---------------------------------------------------------------------------
def overstacked(u: Unit) -> bool:
    """ETO-13.4: an air unit below its base's capacity, idle on the ground (airbases.py marks
    it ``props["overstacked"]``).  It is attacked on the ground with quality 0 and never flies."""
    return bool(u.props.get("overstacked")) and not air_units.airborne(u)


def aborted(u: Unit) -> bool:
    """ETO-15.6: an aborted unit "can neither attack nor be attacked in subsequent rounds"."""
    return bool(u.props.get("aborted"))


def can_attack(state: State, u: Unit, round_no: int = 1) -> bool:
    """ETO-15.1: a fighter (a fighter-bomber or naval air unit flying as a fighter) attacks;
    bombers and ATPs cannot.  ETO-15.2 E: in round 2 only unaborted fighters whose printed
    strength on their current side is 3 or more (air.toml ``round_two_min_strength``).  An
    overstacked unit never fights back (13.4)."""
    if not air_units.is_air(state, u) or not air_units.is_fighter(state, u):
        return False
    if aborted(u) or overstacked(u) or u.location == FORCE_POOL:
        return False
    if round_no >= 2:
        return air_units.strength(state, u) >= int(rules(state.ruleset.tables)["round_two_min_strength"])
    return True


def can_be_attacked(u: Unit) -> bool:
    """ETO-15.6: not aborted (13.4: overstacked units ignore aborts) and not eliminated."""
    if u.location == FORCE_POOL:
        return False
    return overstacked(u) or not aborted(u)


def _legal(tid: str, counts: dict[str, int], flying: list[str], atps: set[str], escorts: list[str],
           ground: list[str]) -> str | None:
    """Why ``tid`` may not be attacked next (a rule and reason), or None when it may."""
    open_atps = all(counts[e] >= 1 for e in escorts)
    avail = [t for t in flying if t not in atps or open_atps]
    low = min((counts[t] for t in avail), default=None)
    if tid in atps and not open_atps:
        return "ETO-18.1: an ATP marker cannot be attacked unless every escorting fighter is also attacked"
    if tid in avail:
        if counts[tid] > (low or 0):
            return "ETO-15.5: every unaborted enemy air unit must be attacked once before any is attacked twice"
        return None
    if tid in ground:
        if low is not None and low < 1:
            return "ETO-13.4: overstacked units may be attacked only by fighters in excess of the flying defenders"
        if counts[tid] > min(counts[g] for g in ground):
            return "ETO-15.5: every overstacked unit must be attacked once before any is attacked twice"
        return None
    return "ETO-15.6: not an enemy air unit that may be attacked in this combat"


def assign_targets(state: State, attackers: list[Unit], targets: list[Unit],
                   preferences: dict[str, list[str]] | None = None) -> list[Pair]:
    """ETO-15.3/15.5/18.1/13.4: the target of every attacker, as ``(attacker_id, target_id)``.

    15.5: in a round every unaborted enemy air unit is attacked once before any is attacked
    twice (and so on).  18.1: an ATP marker cannot be attacked until every escorting fighter
    (every enemy fighter in the combat) is attacked.  13.4: fighters left over once every flying
    defender is attacked may attack overstacked units on the ground instead (each once before any
    twice).  ``preferences`` are the owner's declared targets per attacker, best first; they are
    honoured where the rules allow (an attacker whose first choice is open is served before one
    who must take a lower choice).  Where none of an attacker's choices is open, or it declared
    none, the kernel picks: the open target attacked least so far, flying before ground, then by
    id, and says so in the log."""
    prefs = preferences or {}
    flying = [t.id for t in targets if not overstacked(t)]
    ground = [t.id for t in targets if overstacked(t)]
    atps = {t.id for t in targets if air_units.is_atp(state, t) and not overstacked(t)}
    escorts = [t.id for t in targets if t.id in flying and air_units.is_fighter(state, t)
               and air_units.is_air(state, t)]
    counts = dict.fromkeys(flying + ground, 0)
    order = [a.id for a in attackers]
    todo = list(order)
    got: dict[str, str] = {}
    while todo:
        pick = None
        depth = max((len(prefs.get(a, [])) for a in todo), default=0)
        for k in range(depth):
            for a in todo:
                p = prefs.get(a, [])
                if k < len(p) and p[k] in counts and _legal(p[k], counts, flying, atps, escorts, ground) is None:
                    pick = (a, p[k], k)
                    break
            if pick:
                break
        if pick is None:
            a = todo[0]
            open_ = [t for t in counts if _legal(t, counts, flying, atps, escorts, ground) is None]
            if not open_:
                todo.remove(a)
                continue
            t = min(open_, key=lambda t: (counts[t], t in ground, t))
            pick = (a, t, None)
        a, t, k = pick
        wanted = prefs.get(a, [])
        if k != 0 and wanted:
            first = wanted[0]
            why = (_legal(first, counts, flying, atps, escorts, ground) if first in counts
                   else "ETO-15.6: not an enemy air unit that may be attacked in this combat")
            how = "its next declared choice" if k is not None else "the kernel's pick"
            state.emit("air_target", side=state.unit(a).side, rule="ETO-15.5",
                       text=f"{a} cannot attack {first} ({why}); it attacks {t}, {how}",
                       attacker=a, target=t, wanted=first, why=why,
                       chosen_by="owner" if k is not None else "kernel")
        elif k is None:
            state.emit("air_target", side=state.unit(a).side, rule="ETO-15.5",
                       text=f"{a} declared no target; the kernel picks {t} (attacked least so far, then by id)",
                       attacker=a, target=t, chosen_by="kernel")
        got[a] = t
        counts[t] += 1
        todo.remove(a)
    return [(a, got[a]) for a in order if a in got]


def escort_bonus_applies(state: State, attacker_id: str, target_id: str, assignments: Iterable[Pair]) -> bool:
    """ETO-15.4 "Fighter Escorting Bombers": +1 to a fighter "that is not itself being attacked,
    if its target is an enemy fighter that is attacking a bomber" (an ATP counts, 18.1: it is
    treated like a bomber).  ``assignments`` are both sides' attacks of the round.  The 15.4
    example: a Spitfire intercepting an Me109 and a Ju52 attacks the bomber, so the Me109
    attacking the Spitfire gets +1; a second Spitfire must attack the Me109 (15.5), so it never
    would."""
    pairs = list(assignments)
    if any(t == attacker_id for _, t in pairs):
        return False
    target = state.unit(target_id)
    if not air_units.is_fighter(state, target) or air_units.is_atp(state, target):
        return False
    return any(a == target_id and air_units.role(state, state.unit(t)) == "bomber" for a, t in pairs)


def own_base(state: State, u: Unit, hex_label: str, bases_on_route: Iterable[str] = ()) -> bool:
    """ETO-15.4 "Fighting Over Own Base": the combat is in the fighter's base hex (``props["base"]``);
    a unit changing base gets it at its intermediate bases and its destination too
    (``bases_on_route``).  Naval air units do not get it over their CV (based on a carrier:
    ``props["carrier"]``, or a base that is not a map hex)."""
    if values.unit_class(state, u) == "naval_air" and u.props.get("carrier"):
        return False
    return air_units.base_of(u) == hex_label or hex_label in set(bases_on_route)


def _blitzkrieg(state: State, attacker: Unit, target: Unit, hex_label: str) -> bool:
    """ETO-44.2: "Air units attacking air units of that country receive a +1 modifier to their
    combat strength"; never in the Strategic Warfare phase (44.3: a strategic bombing box is not a
    map hex).  ``combat.blitzkrieg_applies`` decides (crt.toml [blitzkrieg].applies_to must list
    "air-to-air")."""
    if not values.on_map_label(hex_label):
        return False
    from workbench.rulesets.eto.combat import blitzkrieg_applies

    return blitzkrieg_applies(state, "air-to-air", [attacker], [target])


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------
eliminate = air_units.eliminate  # ETO-15.6 (air_units.py: one elimination for every air loss)


def lose_step(state: State, u: Unit, rule: str, why: str = "") -> str:
    """ETO-15.6: "A depleted air unit is flipped to its back (depleted) side ... If the unit has
    already been depleted, or if the backside is blank, it is eliminated."  ETO-18.1: an ATP
    marker hit loses one ATP; a one-point marker is destroyed.  Returns "depleted",
    "eliminated" or "point lost".  Aborting is the caller's business (15.3, 16.4)."""
    if air_units.is_atp(state, u):
        pts = air_units.atp_points(u)
        if pts > 1:
            u.props["points"] = pts - 1
            state.emit("atp_lost", side=u.side, rule="ETO-18.1", text=f"{u.id} loses one ATP{why} ({pts - 1} left)",
                       unit=u.id, at=u.location, points=pts - 1)
            return "point lost"
        eliminate(state, u, "ETO-18.1", why)
        return "eliminated"
    pilot_recovery.note_loss(state, u)  # 34.3: over home ground, rebuilt at the turn's end
    if air_units.steps_left(state, u) >= 2:
        u.reduced = True
        air_units.record_loss(state, u, 1)
        state.emit("depleted", side=u.side, rule=rule, text=f"{u.id} loses a step{why}", unit=u.id, at=u.location)
        return "depleted"
    home = bool(u.props.get(pilot_recovery.MARK) == state.turn_label)
    eliminate(state, u, rule, why)
    pilot_recovery.after_elimination(state, u, home)
    return "eliminated"


def _abort(state: State, u: Unit, why: str) -> None:
    if u.location == FORCE_POOL or overstacked(u) or aborted(u):
        return
    u.props["aborted"] = True
    state.emit("aborted", side=u.side, rule="ETO-15.6", text=f"{u.id} aborted{why}", unit=u.id, at=u.location)


def _apply(state: State, attacks: list[dict[str, Any]], report: dict[str, dict[str, Any]]) -> None:
    """ETO-15.2 D/F: the round's results take effect together, after every attack of the round.
    A step loss that does not eliminate the target also aborts it (15.3); overstacked units ignore
    aborts (13.4)."""
    for att in attacks:
        t = state.unit(att["target"])
        if t.location == FORCE_POOL or att["result"] == "none":
            continue
        r = report[t.id]
        why = f" (attacked by {att['attacker']}, round {att['round']})"
        if att["result"] == "deplete":
            what = lose_step(state, t, "ETO-15.6", why)
            if what == "eliminated":
                r["eliminated"] = True
            elif what == "depleted":
                r["steps_lost"] += 1
            else:
                r["points_lost"] += 1
        if t.location != FORCE_POOL and not overstacked(t):
            if not aborted(t):
                _abort(state, t, why)
            r["aborted"] = True


# ---------------------------------------------------------------------------
# The combat
# ---------------------------------------------------------------------------
def _present(u: Unit, hex_label: str) -> bool:
    return u.location == hex_label


def _combatants(state: State, hex_label: str, sides_units: dict[str, list[Unit]]) -> dict[str, list[Unit]]:
    """The air units of each side in the combat: those given, plus each side's overstacked units
    on the ground in the hex (13.4), by id."""
    out: dict[str, list[Unit]] = {}
    for side, units in sides_units.items():
        for u in units:
            if not air_units.flies(state, u):
                raise IllegalOrder("ETO-15.0", f"{u.id} is not an air unit or ATP marker")
            if u.side != side:
                raise IllegalOrder("ETO-15.0", f"{u.id} belongs to {u.side}, not {side}")
            if not _present(u, hex_label):
                raise IllegalOrder("ETO-15.0", f"{u.id} is at {u.location}, not in the combat at {hex_label}")
        ids = {u.id for u in units}
        extra = [u for u in state.units_by_id.values()
                 if u.side == side and u.id not in ids and _present(u, hex_label) and overstacked(u)
                 and air_units.flies(state, u)]
        out[side] = sorted([*units, *extra], key=lambda u: u.id)
    return out


def fight_round(state: State, hex_label: str, sides_units: dict[str, list[Unit]], round_no: int, *,
                first: str, preferences: dict[str, list[str]] | None = None,
                bases_on_route: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """ETO-15.2 C/E and 15.3: one round.  Each side's eligible fighters (``can_attack``) attack
    the other side's air units that may be attacked (``assign_targets``; ``first`` declares
    first, 15.2 B); every attack is rolled (``first``'s attacks first) and the results are
    returned, not applied (:func:`fight` applies them at the end of the round, 15.2 D/F)."""
    tables = state.ruleset.tables
    routes = bases_on_route or {}
    order = [first, *sorted(s for s in sides_units if s != first)]
    pairs: dict[str, list[Pair]] = {}
    for side in order:
        attackers = [u for u in sides_units.get(side, []) if _present(u, hex_label) and can_attack(state, u, round_no)]
        targets = [u for other in order if other != side for u in sides_units.get(other, [])
                   if _present(u, hex_label) and can_be_attacked(u)]
        pairs[side] = assign_targets(state, attackers, targets, preferences) if attackers and targets else []
    every = [p for side in order for p in pairs[side]]
    attacks: list[dict[str, Any]] = []
    for side in order:
        for aid, tid in pairs[side]:
            a, t = state.unit(aid), state.unit(tid)
            home = own_base(state, a, hex_label, routes.get(aid, ()))
            escort = escort_bonus_applies(state, aid, tid, every)
            blitz = _blitzkrieg(state, a, t, hex_label)
            tq = 0 if overstacked(t) else air_units.quality(state, t)
            tn = target_number(air_units.strength(state, a), air_units.quality(state, a), tq, own_base=home,
                               escort=escort, blitzkrieg=blitz, tables=tables)
            (die,) = state.roll(1, purpose=f"{aid} attacks {tid} (target number {tn})", rule="ETO-15.3", side=side)
            result = outcome(die, tn, tables)
            bonuses = [b for b, on in (("own base", home), ("escort", escort), ("blitzkrieg", blitz)) if on]
            att = {"attacker": aid, "target": tid, "target_number": tn, "die": die, "result": result,
                   "round": round_no, "bonuses": bonuses, "ground": overstacked(t)}
            state.emit("air_combat", side=side, rule="ETO-15.3",
                       text=f"round {round_no}: {aid} attacks {tid}, target number {tn}"
                            f"{' (' + ', '.join(bonuses) + ' +1)' if bonuses else ''}, die {die}: {result}",
                       hex=hex_label, **att)
            attacks.append(att)
    return attacks


def fight(state: State, hex_label: str, sides_units: dict[str, list[Unit]], *, first: str,
          preferences: dict[str, list[str]] | None = None,
          voluntary_aborts: dict[str, list[str]] | None = None,
          bases_on_route: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """ETO-15.0/15.2: an air-to-air combat in ``hex_label`` (a map hex or a strategic bombing
    box) among ``sides_units`` (each side's air units and ATP markers there; each side's
    overstacked units on the ground in the hex join automatically, 13.4).  It happens only if at
    least one of them is a fighter (15.0).  Round 1, its results, the ``voluntary_aborts``
    (15.2 D), round 2 and its results.  ``preferences``: each attacker's declared targets, best
    first (both rounds).  ``bases_on_route``: bases on the route of a unit changing base (15.4).

    Returns ``{"hex", "fought", "rounds": [[attack, ...], ...], "units": {id: {"side",
    "aborted", "steps_lost", "points_lost", "eliminated"}}, "survivors": {side: [ids neither
    aborted nor eliminated nor overstacked]}}`` so interception, air-naval attacks, ground
    support and bombing can go on with the survivors."""
    if first not in sides_units:
        raise IllegalOrder("ETO-15.2", f"{first!r} has no air units in this combat")
    sides = _combatants(state, hex_label, sides_units)
    ids = {u.id for units in sides.values() for u in units}
    for side, vol in (voluntary_aborts or {}).items():
        for uid in vol:
            if uid not in ids or state.unit(uid).side != side:
                raise IllegalOrder("ETO-15.2", f"{uid} is not a {side} air unit in this combat")
    report = {u.id: {"side": u.side, "aborted": False, "steps_lost": 0, "points_lost": 0, "eliminated": False}
              for units in sides.values() for u in units}
    out: dict[str, Any] = {"hex": hex_label, "fought": False, "rounds": [], "units": report}
    fighters = any(air_units.is_air(state, u) and air_units.is_fighter(state, u) and not overstacked(u)
                   for units in sides.values() for u in units)
    if fighters and sum(1 for units in sides.values() if units) >= 2:
        out["fought"] = True
        rounds = int(rules(state.ruleset.tables)["rounds"])
        for n in range(1, rounds + 1):
            attacks = fight_round(state, hex_label, sides, n, first=first, preferences=preferences,
                                  bases_on_route=bases_on_route)
            _apply(state, attacks, report)
            out["rounds"].append(attacks)
            if n == 1:
                for side, ids in (voluntary_aborts or {}).items():
                    for uid in ids:
                        u = state.unit(uid)
                        if u.location == hex_label and not aborted(u) and not overstacked(u):
                            u.props["aborted"] = True
                            report[uid]["aborted"] = True
                            state.emit("aborted", side=side, rule="ETO-15.2", unit=uid, at=hex_label,
                                       text=f"{uid} aborts voluntarily after round 1", voluntary=True)
    out["survivors"] = {side: [u.id for u in units if u.location == hex_label and not aborted(u) and not overstacked(u)]
                        for side, units in sides.items()}
    if out["fought"]:
        gone = [f"{uid} {'eliminated' if r['eliminated'] else 'aborted' if r['aborted'] else 'hit'}"
                for uid, r in report.items() if r["eliminated"] or r["aborted"] or r["steps_lost"]]
        state.emit("air_combat_summary", rule="ETO-15.2",
                   text=f"air-to-air combat at {hex_label}: {', '.join(gone) if gone else 'no losses'}",
                   hex=hex_label, units=report, survivors=out["survivors"])
    return out
