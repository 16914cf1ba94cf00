"""Naval interception: offers as a voyage enters each space, the interception attempt, searches
by the non-moving side, evasion and the battles that follow (ETO-8.0-8.3, 8.5-8.7).

* **Moving stacks** (8.2): as a voyage (:mod:`naval_movement`) enters a space, the other side is
  offered an interception by every eligible stack whose interception range (8.1) covers that
  space: an interrupt ``naval_intercept`` with ``intercept_naval`` orders and ``pass``.  Each
  ``intercept_naval`` sends one stack: it moves into the space at no MP cost (8.0), searches in its
  groups fastest first (8.4), and each group that finds the stack fights it at once (9.0) unless
  the mover evades (8.7).  ``pass`` lets the voyage go on (8.7: a survivor may continue).
* **Stacks at rest** (8.3): in its own Naval Attacks step a side may send a stack against enemy
  ships in a space within its range: ``naval_search``.

* **Counter-interception** (8.0, 8.2, 8.3): a stack declared to intercept (or to search for ships
  at rest) moves into the target's space and, before it searches, the other side is offered to
  intercept *it* there (:func:`counter_offer`: a ``naval_intercept`` interrupt whose ``target`` is
  the moving stack), and so on up the chain.  Each declared attempt waits in its interrupt's
  ``pending`` and is made when the chain above it is settled, by the survivors that did not
  withdraw (ruling: they go on to their original target).  A stack that is the target of an
  attempt, or is moving to make one, cannot intercept until that is resolved.

The mover's evasion is the kernel's choice for it: it evades when allowed and the finding group's
gunnery outweighs its own (ruling).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    italian_restrictions,
    naval_combat,
    naval_movement,
    naval_search,
    naval_units,
    ports,
    sea_spaces,
    submarines,
    values,
)

RULE = "ETO-8.2"
INTERRUPT = "naval_intercept"
SETTLE = "naval/intercepted"
COUNTER_SETTLE = "naval/counter-intercepted"


def _step(state: State) -> str:
    return f"{state.turn_label}/{state.step.key if state.step else ''}"


def interceptor_why_not(state: State, u: Unit, space: str, side: str) -> Refusal | None:
    """Why ``u`` cannot try to intercept in ``space`` now (8.1, 8.5, 8.8, 8.9, 9.6, 33.8)."""
    if u.side != side or not naval_units.is_naval(state, u):
        return Refusal("ETO-8.0", f"{u.id} is not a naval unit of the intercepting side")
    if naval_units.is_uboat(state, u):
        return Refusal("ETO-8.9", "U-boats never intercept")
    why = italian_restrictions.attack_why_not(state, u, "a naval attack")  # 46.1 (optional)
    if why:
        return why
    if u.location in state.map.boxes and "convoy escort" in u.location:
        return Refusal("ETO-8.8", "units in a convoy escort box cannot intercept Axis units")
    if u.location in naval_movement.weather_icebound(state) and naval_units.in_port(u):
        return Refusal("ETO-8.5", f"{u.location} is icebound")
    if u.props.get("oos"):
        return Refusal("ETO-33.8", f"{u.id} is marked out of supply: it cannot intercept enemy naval units")
    if u.props.get("withdrew_step") == _step(state):
        return Refusal("ETO-9.6", f"{u.id} withdrew from a naval battle this step")
    rec = state.markers.get("naval", {}).get("searches", {})
    if u.id in rec.get("found", []):
        return Refusal("ETO-8.5", f"{u.id} already found an enemy stack this step")
    if space not in sea_spaces.interception_range(state, u.location):
        return Refusal("ETO-8.1", f"{space} is not within {u.id}'s interception range from {u.location}")
    return None


def _stack_key(state: State, u: Unit) -> str:
    """ETO-11.1/11.3: "An SS unit always intercepts by itself": a submarine is an intercepting
    stack of its own, even in an area or a port it shares with other friendly ships; everything
    else in a space is one stack."""
    if naval_units.is_submarine(state, u):
        return f"{u.location} / {u.id}"
    return u.location


def stacks_able(state: State, side: str, space: str) -> dict[str, list[Unit]]:
    """Each stack of the side's ships that may try to intercept in ``space`` (11.3: a submarine
    always intercepts by itself)."""
    out: dict[str, list[Unit]] = {}
    for u in naval_units.naval_units(state, side):
        if interceptor_why_not(state, u, space, side) is None:
            out.setdefault(_stack_key(state, u), []).append(u)
    return {k: v for k, v in out.items() if any(naval_units.gunnery(state, u) is not None for u in v)}


def offer(state: State, voyage: dict[str, Any]) -> bool:
    """ETO-8.2: the voyage entered ``voyage["at"]``: if the other side could intercept there, ask
    it and make the voyage wait (True).  Only in the mover's Naval and Air phase (7.6: no naval
    interception in the End phase) and not into a convoy escort box (8.8)."""
    if voyage["phase"] != "naval-air" or voyage["escorting"]:
        return False
    movers = [state.units_by_id[i] for i in voyage["units"] if state.units_by_id[i].location == voyage["at"]]
    if not movers:
        return False
    space = voyage["at"]
    entering_port = voyage["port"] and not voyage["left"] and voyage["path"][-1] == space and len(voyage["path"]) > 1
    if naval_search.target_why_not(state, movers, space) is not None:
        return False
    enemy = values.other(voyage["side"])
    able = {k: us for k, us in stacks_able(state, enemy, space).items()
            if naval_search.may_search_why_not(state, us, movers) is None
            and submarines.moving_sub_why_not(state, _sub_hunters(state, us, movers), movers) is None}
    if not able:
        return False
    state.push_interrupt(INTERRUPT, enemy, RULE,
                         f"intercept {', '.join(voyage['units'])} in {space}? ({len(able)} stack(s) in range)",
                         ["intercept_naval", "pass"], space=space, on_pass=SETTLE, entering_port=entering_port,
                         assault=assault_hex(state, voyage, space))
    return True


def busy(state: State) -> set[str]:
    """ETO-8.0/8.2: units that may not declare an interception now: the target of an attempt
    not yet resolved (the waiting voyage, a stack moving to intercept) and the stacks moving to
    make one."""
    ids: set[str] = set()
    voyage = naval_movement.voyage_record(state)
    if voyage is not None:
        ids |= set(voyage["units"])
    for f in state.frames:
        if f.get("interrupt") == INTERRUPT:
            ids |= set(f["data"].get("target") or [])
            ids |= set((f["data"].get("pending") or {}).get("units") or [])
    return ids


def counter_offer(state: State, pending: dict[str, Any]) -> bool:
    """ETO-8.0/8.2: "Naval units intercepting an enemy stack can be counter-intercepted
    themselves (by enemy naval units not in the target stack) as they move to intercept."  The
    stack of ``pending`` (``side``, ``units``, ``space``, ...) has moved into the target's space;
    if the other side has a stack able to intercept it there, ask (True): the attempt waits in
    the interrupt's ``pending`` until the chain above it is settled (:func:`counter_settle`)."""
    side, space = pending["side"], pending["space"]
    movers = [state.units_by_id[i] for i in pending["units"]]
    enemy = values.other(side)
    taken = busy(state) | set(pending["target"])
    able = {}
    for k, us in stacks_able(state, enemy, space).items():
        us = [u for u in us if u.id not in taken]
        if us and any(naval_units.gunnery(state, u) is not None for u in us) \
                and naval_search.may_search_why_not(state, us, movers) is None \
                and submarines.moving_sub_why_not(state, _sub_hunters(state, us, movers), movers) is None:
            able[k] = us
    if not able or naval_search.target_why_not(state, movers, space) is not None:
        return False
    state.push_interrupt(INTERRUPT, enemy, "ETO-8.0",
                         f"counter-intercept {', '.join(pending['units'])} moving to intercept in {space}? "
                         f"({len(able)} stack(s) in range)", ["intercept_naval", "pass"], space=space,
                         target=list(pending["units"]), pending=pending, on_pass=COUNTER_SETTLE)
    return True


def counter_settle(state: State, frame: dict[str, Any]) -> None:
    """ETO-8.2: the counter-interceptions of a moving interceptor are over: "If the target of a
    counter-interception survives, it can either continue to its original target or break off";
    the kernel sends on the survivors that did not withdraw from a battle (ruling)."""
    p = frame["data"]["pending"]
    space = p["space"]
    here = [state.units_by_id[i] for i in p["units"]]
    live = [u for u in here if u.location == space and naval_units.is_naval(state, u)
            and u.props.get("withdrew_step") != _step(state)]
    target = [state.units_by_id[i] for i in p["target"] if state.units_by_id[i].location == space]
    if not live or not target:
        state.emit("break_off", side=p["side"], rule="ETO-8.2", at=space,
                   text=f"{', '.join(p['units'])} break off: " + ("none is left to go on" if not live
                                                                  else "the target is gone"))
        return
    groups = [[u for u in (state.units_by_id[i] for i in g) if u in live] for g in p["groups"]]
    groups = [g for g in groups if g]
    if naval_search.groups_why_not(state, live, groups) is not None:
        groups = [live]
    plans = {p["side"]: naval_combat.plan_from(p.get("plan")),
             values.other(p["side"]): naval_combat.plan_from(p.get("target_plan"))}
    attempt(state, p["side"], live, space, target, groups=groups, automatic=bool(p.get("auto")),
            plans=plans, strict=False)


def _declare(state: State, side: str, units: list[Unit], space: str, target: list[Unit], groups: list[list[Unit]],
             *, auto: bool, plan: dict[str, Any], target_plan: dict[str, Any] | None) -> None:
    """An interception (or a search for ships at rest) is declared: the stack moves into the
    target's space at no MP cost (8.0) and, unless the other side counter-intercepts it there
    first (:func:`counter_offer`), makes its attempt at once."""
    for u in units:
        u.location = space
        u.props.pop("in_port", None)
    ph = naval_movement.phase(state)
    voyage = naval_movement.voyage_record(state)
    if voyage is not None and voyage["side"] == side and ph is not None:
        for u in units:  # 8.3: counter-interceptors in their own naval movement step move no more
            u.props["sailed_phase"] = f"{state.turn_label}/{ph}"
    pending = {"side": side, "units": [u.id for u in units], "space": space, "target": [u.id for u in target],
               "groups": [[u.id for u in g] for g in groups], "auto": auto, "plan": plan,
               "target_plan": target_plan}
    if counter_offer(state, pending):
        return
    plans = {side: naval_combat.plan_from(plan), values.other(side): naval_combat.plan_from(target_plan)}
    attempt(state, side, units, space, target, groups=groups, automatic=auto, plans=plans, strict=False)


def assault_hex(state: State, voyage: dict[str, Any], space: str) -> bool:
    """ETO-8.6: "Enemy naval units performing an amphibious assault can be automatically
    intercepted in the coastal hex where the assault will take place": ``space`` is the coastal
    hex where the voyage ends (not in a port) and its ships carry an assault force (10.6)."""
    from workbench.rulesets.eto import amphibious

    if voyage["port"] or voyage["left"] or not voyage["path"] or voyage["path"][-1] != space \
            or not values.on_map_label(space):
        return False
    ships = set(voyage["units"])
    return any(amphibious.is_assaulting(u) and u.props.get("aboard") in ships for u in state.units_by_id.values())


def settle(state: State, frame: dict[str, Any]) -> None:
    """The intercepting side is done: the waiting voyage goes on (8.7)."""
    voyage = naval_movement.voyage_record(state)
    if voyage is not None:
        naval_movement.continue_voyage(state, voyage)


def _evades(state: State, group: list[Unit], target: list[Unit], *, automatic: bool, evaded: bool) -> bool:
    if naval_search.may_evade_why_not(state, group, target, automatic=automatic, evaded_already=evaded):
        return False
    mine = sum(int(naval_units.gunnery(state, u) or 0) for u in target)
    theirs = sum(int(naval_units.gunnery(state, u) or 0) for u in group)
    return theirs > mine


def attempt(state: State, side: str, units: list[Unit], space: str, target: list[Unit], *,
            groups: list[list[Unit]] | None = None, automatic: bool = False,
            plans: dict[str, naval_combat.Plan | None] | None = None, strict: bool = True) -> dict[str, Any]:
    """ETO-8.0, 8.4-8.7: the stack moves to ``space`` (no MP), searches in groups fastest first;
    each finding group fights the target at once unless it evades (9.0; a submarine's own
    combat, 11.2/11.3).  ``plans``: each side's battle choices; ``strict`` False for plans given
    as standing orders (the kernel fixes what 9.1/9.6 would refuse)."""
    plans = {k: v for k, v in (plans or {}).items() if v is not None}
    groups = groups or [units]
    refuse(naval_search.groups_why_not(state, units, groups))
    for u in units:
        u.location = space
        u.props.pop("in_port", None)
    out: dict[str, Any] = {"space": space, "searches": [], "battles": []}
    evaded = False
    n = len(groups)
    for grp in naval_search.in_search_order(state, groups):
        live_t = [u for u in target if u.location == space]
        grp = [u for u in grp if u.location == space]
        if not live_t or not grp:
            break
        if naval_search.may_search_why_not(state, grp, live_t):
            continue
        if automatic:
            naval_search.note_search(state, grp, live_t, True)
            found = True
        else:
            found = naval_search.search(state, side, grp, live_t, space, groups=n)
        out["searches"].append({"group": [u.id for u in grp], "found": found})
        if not found:
            continue
        if _evades(state, grp, live_t, automatic=automatic, evaded=evaded):
            evaded = True
            state.emit("evaded", side=live_t[0].side, rule="ETO-8.7", at=space,
                       text=f"{', '.join(u.id for u in live_t)} evade {', '.join(u.id for u in grp)}")
            out["air"] = out.get("air", []) + evaded_air_strikes(state, side, grp, live_t, space, plans=plans)
            continue
        res = submarines.battle(state, space, side, grp, live_t, plans=plans, strict=strict)  # 9.0, 11.2, 11.3
        for uid_list in res["withdrew"].values():
            for uid in uid_list:
                state.units_by_id[uid].props["withdrew_step"] = _step(state)
        out["battles"].append(res)
    return out


def evaded_air_strikes(state: State, side: str, group: list[Unit], target: list[Unit], space: str, *,
                       plans: dict[str, naval_combat.Plan] | None = None) -> list[dict[str, Any]]:
    """ETO-8.7, 16.5: "If the interception is taking place in a sea space without a hex grid and the
    evaded group contains any naval air units, those air units can still attack the evading
    stack"; "Carrier-based air units can attack even if the enemy (or their own carrier) evades"
    (16.5, of spaces without a hex grid): the air on both sides' undamaged carriers strikes, as
    in 9.0; the evasion stands whatever damage they do.  In a gridded space nothing follows."""
    area = state.map.sea_areas.get(space)
    if area is None or area.gridded:
        return []
    return naval_combat.carrier_strikes(state, {side: group, target[0].side: target}, plans=plans, space=space)


def _sub_hunters(state: State, stack: list[Unit], target: list[Unit]) -> list[Unit]:
    """ETO-11.2: the part of ``stack`` that may go after a moving submarine (its CVE and DD/DE);
    the whole stack against anything else."""
    if submarines.lone_sub(state, target) is None:
        return stack
    keep = set(submarines.rules(state)["hunters"]) | {str(submarines.rules(state).get("moving_sub_needs", "CVE"))}
    return [u for u in stack if naval_units.kind(state, u) in keep] or stack


def _target(state: State, space: str) -> list[Unit]:
    """The stack the open ``naval_intercept`` interrupt is about, still in ``space``: a stack
    moving to intercept (8.2's counter-interception), else the waiting voyage's units."""
    f = state.frames[-1] if state.frames else None
    ids = f["data"].get("target") if f and f.get("interrupt") == INTERRUPT else None
    if ids is None:
        ids = (naval_movement.voyage_record(state) or {}).get("units", [])
    return [state.units_by_id[i] for i in ids if state.units_by_id[i].location == space]


def _target_plan(state: State) -> dict[str, Any] | None:
    """The battle plan of the stack being intercepted: its own declared attempt's, or the
    voyage's (9.6, GAP-24)."""
    f = state.frames[-1] if state.frames else None
    pending = f["data"].get("pending") if f and f.get("interrupt") == INTERRUPT else None
    if pending is not None:
        return pending.get("plan")
    return (naval_movement.voyage_record(state) or {}).get("plan")


class InterceptNavalOrder(OrderKind):
    """``{"kind": "intercept_naval", "units": [ids], "groups": [[ids], ...]}`` answering a
    ``naval_intercept`` interrupt (ETO-8.2)."""

    kind = "intercept_naval"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def _frame(self, state: State) -> dict[str, Any]:
        f = state.frames[-1] if state.frames else None
        if not f or f.get("interrupt") != INTERRUPT:
            raise IllegalOrder(RULE, "no enemy naval stack is waiting to be intercepted")
        return f

    def legal(self, state: State) -> list[dict[str, Any]]:
        f = state.frames[-1] if state.frames else None
        if not f or f.get("interrupt") != INTERRUPT:
            return []
        able = stacks_able(state, f["side"], f["data"]["space"])
        target = _target(state, f["data"]["space"])
        taken = busy(state)
        out = []
        for _, us in sorted(able.items()):
            us = [u for u in us if u.id not in taken]  # 8.0: targets and movers wait their turn
            if not us or all(naval_units.gunnery(state, u) is None for u in us):
                continue
            us = _sub_hunters(state, us, target)  # 11.2: against a moving sub, the CVE's DD/DE only
            if naval_search.may_search_why_not(state, us, target) is None \
                    and submarines.moving_sub_why_not(state, us, target) is None:
                out.append({"kind": self.kind, "units": [u.id for u in us]})
        return out

    def _plan(self, state: State, order: dict[str, Any]) -> tuple[dict[str, Any], list[Unit], list[list[Unit]]]:
        f = self._frame(state)
        ids = order.get("units")
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i in state.units_by_id for i in ids):
            raise IllegalOrder(RULE, "units is a list of naval unit ids")
        units = [state.units_by_id[i] for i in ids]
        if len({u.location for u in units}) != 1:
            raise IllegalOrder("ETO-8.4", "the intercepting units must form one stack (one space)")
        taken = busy(state)
        for u in units:
            refuse(interceptor_why_not(state, u, f["data"]["space"], f["side"]))
            if u.id in taken:
                raise IllegalOrder("ETO-8.0", f"{u.id} is the target of an interception, or moving to make one: it "
                                              "cannot declare another until that is resolved")
        raw = order.get("groups") or [ids]
        if not isinstance(raw, list) or not all(isinstance(g, list) and all(i in ids for i in g) for g in raw):
            raise IllegalOrder("ETO-8.4", "groups is a list of lists of the intercepting units")
        groups = [[state.units_by_id[i] for i in g] for g in raw]
        refuse(naval_search.groups_why_not(state, units, groups))
        refuse(naval_search.may_search_why_not(state, units, _target(state, f["data"]["space"])))
        refuse(submarines.moving_sub_why_not(state, units, _target(state, f["data"]["space"])))  # 11.2
        refuse(naval_combat.plan_why_not(order, ids))
        return f, units, groups

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def execute(self, state: State, order: dict[str, Any]) -> None:
        f, units, groups = self._plan(state, order)
        space = f["data"]["space"]
        target = _target(state, space)
        auto = ports.size(state, units[0].location) is not None and units[0].location == space \
            and any(naval_units.in_port(u) for u in units)  # 8.6: from the port of the hex entered
        auto = auto or bool(f["data"].get("assault"))  # 8.6: in the hex where the assault will take place
        state.emit("intercept_naval", side=f["side"], rule=RULE, at=space,
                   text=f"{', '.join(u.id for u in units)} move to intercept {', '.join(u.id for u in target)} in {space}")
        _declare(state, f["side"], units, space, target, groups, auto=auto, plan=naval_combat.plan_of(order),
                 target_plan=_target_plan(state))


class NavalSearchOrder(OrderKind):
    """``{"kind": "naval_search", "units": [ids], "target": space}``: the friendly Naval Attacks
    step's attack on enemy ships at rest (ETO-8.3); ``"sub": id`` goes after an enemy submarine at
    sea in that space, a stack of its own (11.1, 11.2)."""

    kind = "naval_search"
    rule = "ETO-8.3"

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def _targets(self, state: State, side: str, space: str) -> list[Unit]:
        enemy = [u for u in naval_units.naval_units(state, values.other(side), space) if not naval_units.is_uboat(state, u)]
        if ports.size(state, space) and not ports.friendly(state, side, space):
            return enemy  # 8.6: ships able to enter the enemy port intercept those in it automatically
        return [u for u in enemy if not naval_units.in_port(u)]

    def _stacks(self, state: State, side: str, space: str) -> dict[str | None, list[Unit]]:
        """The enemy stacks in ``space``: a submarine outside port is its own (11.1: it shares an
        area with other ships but never stacks with them), keyed by its id; the rest under None."""
        out: dict[str | None, list[Unit]] = {}
        for u in self._targets(state, side, space):
            key = u.id if naval_units.is_submarine(state, u) and not naval_units.in_port(u) else None
            out.setdefault(key, []).append(u)
        return out

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        out = []
        spaces = {u.location for u in naval_units.naval_units(state, values.other(d.side))}
        for space in sorted(spaces):
            if not sea_spaces.is_space(state, space):
                continue
            for sub, targets in sorted(self._stacks(state, d.side, space).items(), key=lambda kv: kv[0] or ""):
                if naval_search.target_why_not(state, targets, space):
                    continue
                for _, us in sorted(stacks_able(state, d.side, space).items()):
                    if naval_search.may_search_why_not(state, us, targets) is None:
                        o = {"kind": self.kind, "units": [u.id for u in us], "target": space}
                        out.append({**o, "sub": sub} if sub else o)
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        self._plan(state, order)

    def _plan(self, state: State, order: dict[str, Any]) -> tuple[list[Unit], str, list[Unit]]:
        d = state.decision
        ids, space = order.get("units"), order.get("target")
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i in state.units_by_id for i in ids):
            raise IllegalOrder(self.rule, "units is a list of naval unit ids")
        if not isinstance(space, str) or not sea_spaces.is_space(state, space):
            raise IllegalOrder(self.rule, "target is the space of the enemy ships")
        units = [state.units_by_id[i] for i in ids]
        if len({u.location for u in units}) != 1:
            raise IllegalOrder("ETO-8.4", "the searching units must form one stack (one space)")
        for u in units:
            refuse(interceptor_why_not(state, u, space, d.side if d else ""))
        stacks = self._stacks(state, d.side, space) if d else {}
        sub = order.get("sub")
        targets = stacks.get(sub if isinstance(sub, str) else None, [])
        if not targets:
            if sub is not None:
                raise IllegalOrder("ETO-11.1", f"there is no enemy submarine {sub!r} at sea in {space}")
            raise IllegalOrder(self.rule, f"there are no enemy ships to search for in {space}"
                               + (" but submarines, each a stack of its own: name one with sub" if stacks else ""))
        refuse(naval_search.target_why_not(state, targets, space))
        refuse(naval_search.may_search_why_not(state, units, targets))
        refuse(naval_combat.plan_why_not(order, ids))
        return units, space, targets

    def execute(self, state: State, order: dict[str, Any]) -> None:
        units, space, targets = self._plan(state, order)
        auto = any(naval_units.in_port(u) for u in targets)
        state.emit("naval_search_order", side=units[0].side, rule=self.rule, at=space,
                   text=f"{', '.join(u.id for u in units)} search for the enemy ships in {space}")
        _declare(state, units[0].side, units, space, targets, [units], auto=auto, plan=naval_combat.plan_of(order),
                 target_plan=None)


if offer not in naval_movement.OFFER_HOOKS:
    naval_movement.OFFER_HOOKS.append(offer)
