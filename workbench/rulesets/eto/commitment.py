"""Air commitment: who may fly now, and what flying commits (ETO-12.5, 12.6, 20.0-20.3).

Status lives on the unit: ``props["commit"]`` is ``"CC"`` (committed in the current
phase) or ``"PC"`` (committed in an earlier phase), ``props["commit_turn"]`` the turn
label it was set in; a mark from an earlier turn counts as none (the markers are removed
in End phase Step 4 and :func:`new_turn` clears them at the next monthly turn).  A unit
in a strategic bombing box is PC by being there (20.1).  ``props["missions"]`` lists the
steps (``breakthrough``/``combat``/``exploitation``, ``air``, ``strategic``) a unit flew in
the current offensive (or Strategic Warfare phase): one mission a step, at most three in a
land offensive, one in an air offensive (12.5, 12.6, 20.1; ``tables/commitment.toml``).

Phases, as seen by the unit's owner (:data:`PHASES`; ``air_missions.phase_for``): ``strategic``,
``naval-air`` (own Naval and Air phase), ``enemy-naval-air``, ``own-land-offensive``,
``own-air-offensive``, ``enemy-land-offensive``, ``enemy-air-offensive``, ``end``.
In an enemy land offensive ``defending`` says what the mission defends (:data:`DEFENDING`):
``activated`` land units, ``standby`` ones, a ``mixed`` hex, or an
``unoccupied-fort-amphibious`` target (an empty hex, a fortification or an amphibious
assault, 20.2); None while the target is not known yet (then only the checks that do not
depend on it are made, and flying commits nothing).

The flight code asks :func:`may_fly` before a unit takes off and calls :func:`commit_for`
as it does (20.1: "committed immediately before they take off"); the offensive's unit-status
step calls :func:`end_offensive` (Step 6 A) and the monthly turn :func:`new_turn`.
Rulings: docs/rulings-eto.md, "Air: ground support and commitment".
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units

PHASES = ("strategic", "naval-air", "enemy-naval-air", "own-land-offensive", "own-air-offensive",
          "enemy-land-offensive", "enemy-air-offensive", "end")
DEFENDING = ("activated", "standby", "mixed", "unoccupied-fort-amphibious")
CC, PC = "CC", "PC"
#: The missions of the ``fly`` and ``intercept`` orders (air_missions, air_interception).
MISSIONS = ("ground_support", "intercept", "attack_air", "attack_naval", "bomb", "change_base", "air_transport")
#: Of those, the ones an air unit may fly in the enemy's phases (12.4, 12.6).
ENEMY_PHASE_MISSIONS = {"enemy-naval-air": ("intercept",), "enemy-air-offensive": ("intercept",),
                        "enemy-land-offensive": ("ground_support", "intercept")}


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["commitment"]


def in_bombing_box(u: Unit) -> bool:
    """ETO-20.1: "their presence in the [strategic bombing] box indicates that they are PC"."""
    return "strategic bombing" in u.location.lower()


def status(state: State, u: Unit) -> str | None:
    """ETO-20.0: None (uncommitted), "CC" or "PC".  Marks are for the current turn only: one set
    in an earlier turn counts as none (End phase Step 4 removes them)."""
    if in_bombing_box(u):
        return PC
    mark = u.props.get("commit")
    if mark in (CC, PC) and u.props.get("commit_turn") == state.turn_label:
        return str(mark)
    return None


def missions(u: Unit) -> list[str]:
    """The step keys of the missions ``u`` flew in the current offensive (12.5, 12.6, 20.1)."""
    return list(u.props.get("missions", []))


def carrier_based(u: Unit) -> bool:
    """ETO-20.0: naval air flying from a carrier (``props["carrier"]`` names it)."""
    return bool(u.props.get("carrier"))


def step_key(state: State) -> str:
    """The offensive step a mission is flown in: the attack sequence's mode (breakthrough,
    combat or exploitation), else the last part of the current step's path."""
    for f in reversed(state.frames):
        if f.get("node") == "attack-4A":
            return str(f["data"].get("mode", "combat"))
    key = state.step.key if state.step else ""
    return key.rsplit("/", 1)[-1]


def _mission_key(state: State, phase: str, step: str | None) -> str | None:
    if phase in ("own-land-offensive", "enemy-land-offensive"):
        return step or step_key(state)
    if phase in ("own-air-offensive", "enemy-air-offensive"):
        return str(table(state)["air_offensive"]["step"])
    if phase == "strategic":
        return str(table(state)["strategic_warfare"]["step"])
    return None


def _land_missions_why(state: State, u: Unit, step: str, rule: str) -> Refusal | None:
    """ETO-12.5/12.6/20.1: up to three missions in a land offensive, one in each of the
    Breakthrough, Combat and Exploitation steps (E5)."""
    lo = table(state)["land_offensive"]
    flown = missions(u)
    if step in flown:
        return Refusal(rule, f"{u.id} already flew a mission in the {step} step of this offensive; "
                             f"an air unit flies one mission a step")
    if len(flown) >= int(lo["max_missions"]):
        return Refusal(rule, f"{u.id} has flown {len(flown)} missions in this offensive, the most an air "
                             f"unit may fly in a land offensive ({lo['max_missions']})")
    return None


def may_fly(state: State, u: Unit, *, phase: str, defending: str | None = None, mission: str = "",
            amphibious: bool = False, step: str | None = None) -> Refusal | None:
    """ETO-12.5, 12.6, 20.0-20.3: why ``u`` may not fly a mission now (None if it may).
    ``defending`` (enemy land offensive): what the mission defends (:data:`DEFENDING`);
    ``mission``: the mission flown (:data:`MISSIONS`; "" or another word = not checked);
    ``amphibious``: the mission supports an amphibious assault (own offensive) or units that
    made one this turn (enemy offensive), the only Offensive-phase missions of carrier-based
    naval air (20.0); ``step``: the offensive step (default: the current one)."""
    if phase not in PHASES:
        raise ValueError(f"ETO-20.0: phase must be one of {', '.join(PHASES)}, not {phase!r}")
    if air_units.is_atp(state, u):
        return None  # ATP markers carry no commitment marker: 18.1/19.1 limit their use
    if not air_units.is_air(state, u):
        return Refusal("ETO-12.1", f"{u.id} is not an air unit")
    st = status(state, u)
    carrier = carrier_based(u)
    allowed = ENEMY_PHASE_MISSIONS.get(phase)
    if mission in MISSIONS and allowed is not None and mission not in allowed:
        rule = "ETO-12.4" if phase == "enemy-naval-air" else "ETO-12.6"
        return Refusal(rule, f"{u.id} cannot fly a {mission} mission in the enemy's phase; it may fly "
                             f"only {' or '.join(allowed)}")
    if phase == "strategic":
        if st is not None:
            return Refusal("ETO-20.1", f"{u.id} is already committed ({st}) this turn; a unit is committed "
                                       "only once per turn")
        if table(state)["strategic_warfare"]["step"] in missions(u):
            return Refusal("ETO-12.2", f"{u.id} already flew a Strategic Warfare mission this turn")
        return None
    if phase in ("naval-air", "enemy-naval-air", "end"):
        if st == PC:
            return Refusal("ETO-20.0", f"{u.id} is previously committed (PC) and may fly only as 20.2 and 20.3 "
                                       "allow, in the enemy's offensives")
        return None
    if phase == "own-land-offensive":
        if carrier and not amphibious:
            return Refusal("ETO-20.0", f"{u.id} is carrier-based naval air and flies in the Offensive phase only "
                                       "in support of units making an amphibious assault")
        if st == PC:
            return Refusal("ETO-12.5", f"{u.id} is previously committed (PC); only air units uncommitted at the "
                                       "start of the phase fly in a friendly offensive")
        return _land_missions_why(state, u, step or step_key(state), "ETO-20.1")
    if phase == "own-air-offensive":
        if carrier:
            return Refusal("ETO-21.0", f"{u.id} is carrier-based; an air offensive activates land-based air "
                                       "units only")
        if st == PC:
            return Refusal("ETO-21.1", f"{u.id} is previously committed (PC); only uncommitted air units can be "
                                       "committed for an air offensive")
        if missions(u):
            return Refusal("ETO-20.1", f"{u.id} has flown its one mission in this air offensive")
        return None
    if phase == "enemy-air-offensive":
        if not air_units.class_row(state, u).get("fighter"):
            return Refusal("ETO-12.6", f"{u.id} is not a fighter; only fighters fly against an enemy air "
                                       "offensive (committed or not, 20.2)")
        if missions(u):
            return Refusal("ETO-12.6", f"{u.id} already flew against this air offensive")
        return None
    # enemy-land-offensive
    if defending is not None and defending not in DEFENDING:
        raise ValueError(f"ETO-20.1: defending must be None or one of {', '.join(DEFENDING)}, not {defending!r}")
    if carrier and not amphibious:
        return Refusal("ETO-20.0", f"{u.id} is carrier-based naval air and defends in the Offensive phase only "
                                   "units that made an amphibious assault this turn")
    why = _land_missions_why(state, u, step or step_key(state), "ETO-12.6")
    if why:
        return why
    if defending == "standby" and st == PC:
        return Refusal("ETO-20.3", f"{u.id} is previously committed (PC) and may only defend activated land "
                                   "units, not standby ones")
    return None


def _mark(state: State, u: Unit, mark: str, rule: str, why: str) -> None:
    u.props["commit"] = mark
    u.props["commit_turn"] = state.turn_label
    state.emit("commit", side=u.side, rule=rule, text=f"{u.id} is marked {mark}: {why}", unit=u.id, status=mark)


def commit_for(state: State, u: Unit, *, phase: str, defending: str | None = None, mission: str = "",
               amphibious: bool = False, step: str | None = None) -> str | None:
    """ETO-20.1: ``u`` takes off now.  Refused (IllegalOrder) when :func:`may_fly` says no;
    else records the mission's step and marks the unit when flying commits it: CC when it first
    moves in a friendly offensive, CC when it defends activated land units in an enemy land
    offensive; never in a Naval and Air phase, an enemy air offensive, for standby, mixed or
    20.2 targets, nor carrier-based naval air (20.0).  Strategic Warfare flyers are marked PC
    at the end of the phase (:func:`end_strategic_warfare`).  Returns the unit's status."""
    why = may_fly(state, u, phase=phase, defending=defending, mission=mission, amphibious=amphibious, step=step)
    if why:
        raise IllegalOrder.of(why, "ETO-20.1")
    if air_units.is_atp(state, u):
        return None
    key = _mission_key(state, phase, step)
    if key is not None:
        u.props["missions"] = [*missions(u), key]
    st = status(state, u)
    if carrier_based(u) or st is not None:
        return st
    if phase in ("own-land-offensive", "own-air-offensive"):
        kind = "land" if phase == "own-land-offensive" else "air"
        _mark(state, u, CC, "ETO-20.1", f"committed as it first moves in a friendly {kind} offensive")
    elif phase == "enemy-land-offensive" and defending == "activated":
        _mark(state, u, CC, "ETO-20.1", "committed to defend land units activated for a previous offensive")
    return status(state, u)


def mark(state: State, u: Unit, mark_: str, rule: str, why: str) -> None:
    """Mark ``u`` CC or PC for the turn where a rule commits it outright (3.5: naval air that
    intercepted Arctic interdictors "are committed for the turn")."""
    _mark(state, u, mark_, rule, why)


def end_offensive(state: State, side: str | None = None) -> list[str]:
    """Sequence Step 6 A (ETO-20.1): "Flip all aircraft C markers to their PC sides" -- every
    CC unit, of both sides (defenders committed in the offensive too), turns PC; the missions
    flown in the offensive are forgotten.  ``side``: the side whose offensive ended (for the
    event).  Returns the ids flipped."""
    flipped = []
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if "missions" in u.props:
            u.props.pop("missions")
        if u.props.get("commit") == CC and status(state, u) == CC:
            u.props["commit"] = PC
            flipped.append(u.id)
    if flipped:
        state.emit("commit", side=side, rule="ETO-20.1",
                   text=f"end of the offensive: {', '.join(flipped)} flip from CC to PC", units=flipped, status=PC)
    return flipped


def end_strategic_warfare(state: State) -> list[str]:
    """ETO-20.1/12.2: "Any air units performing a mission during this phase are marked PC at the
    conclusion of the phase" (carrier-based naval air never is, 20.0).  Returns the ids marked."""
    key = table(state)["strategic_warfare"]["step"]
    marked = []
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if key in missions(u):
            u.props.pop("missions")
            if not carrier_based(u) and status(state, u) is None:
                u.props["commit"] = PC
                u.props["commit_turn"] = state.turn_label
                marked.append(u.id)
    if marked:
        state.emit("commit", rule="ETO-20.1", text=f"end of Strategic Warfare: {', '.join(marked)} marked PC",
                   units=marked, status=PC)
    return marked


def new_turn(state: State) -> list[str]:
    """ETO-20.0 / End phase Step 4: commitment is for the current turn only; every mark (and
    mission count) is cleared before a monthly turn's operations.  Returns the ids cleared."""
    cleared = []
    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        if any(k in u.props for k in ("commit", "commit_turn", "missions")):
            for k in ("commit", "commit_turn", "missions"):
                u.props.pop(k, None)
            cleared.append(u.id)
    if cleared:
        state.emit("commit_cleared", rule="ETO-20.0", text=f"commitment markers removed: {', '.join(cleared)}",
                   units=cleared)
    return cleared
