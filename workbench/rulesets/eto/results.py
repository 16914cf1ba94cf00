"""Combat results (ETO-27.1-27.6, 28.3) as steps of the sequence of play.

A rolled attack (:func:`workbench.rulesets.eto.combat.resolve`) keeps its numbers in
``markers["combat"]`` and runs the sub-procedure ``combat-result`` of ``sequence.toml``: the
attacker's losses, the defender's result, retreats, installations, advance after combat,
secondary advance and breakthrough movement, one automatic step each.  A step that needs a
player's choice pushes an interrupt (``attacker_losses``, ``defender_losses``, ``retreat``,
``advance``, ``bt_move``); its order pops the interrupt and the flow moves on to the next step,
so no order handler calls back into the combat code.  When the procedure closes, the combat
is finished (:func:`done`); an armor reaction attack (26.5) then lets the move it interrupted
go on.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.flow import Step
from workbench.engine.state import State
from workbench.rulesets.eto import advance, losses, retreat, values
from workbench.rulesets.eto.amphibious import is_assaulting

ROOT = "combat-result"


def _combat(state: State) -> dict[str, Any] | None:
    c = state.markers.get("combat")
    return None if c is None or c.get("result") == "partisans" else c


def attacker_losses(state: State, step: Step) -> None:
    """ETO-27.1/27.2: AE eliminates every attacker; x/xx: the attacker picks his step losses
    (forced when one unit or every step is needed).  19.4/28.7 ruling: where the result cannot
    vacate the hex, dropped paratroops are lost anyway and each counts as one of those steps."""
    from workbench.rulesets.eto.paradrop import dropped_attackers

    c = _combat(state)
    if c is None:
        return
    alive = [a for a in c["attackers"] if values.on_map(state.unit(a)) or is_assaulting(state.unit(a))]
    if c["attacker_eliminated"]:
        for a in alive:
            losses.eliminate(state, state.unit(a), "ETO-27.1", " (AE)")
        return
    n = c["attacker_steps"]
    if n and alive and not c["affects_defender"]:
        for p in dropped_attackers(state, c)[:n]:
            losses.eliminate(state, p, "ETO-28.7" if c["mode"] in ("breakthrough", "exploitation")
                             else "ETO-19.4", f" ({c['target']} cannot be vacated: one attacker step loss)")
            n -= 1
        alive = [a for a in alive if values.on_map(state.unit(a)) or is_assaulting(state.unit(a))]
    if n and alive:
        if losses_forced(state, alive, n):
            apply_steps(state, alive, n, "ETO-27.2")
        else:
            state.push_interrupt("attacker_losses", c["side"], "ETO-27.2",
                                 f"{c['result']}: choose {n} step loss(es) among the attackers",
                                 ["take_losses"], role="attacker", steps=n, units=sorted(alive))


def defender_result(state: State, step: Step) -> None:
    """ETO-27.1: DE eliminates the stack; (D2) retreats every unit; D1-D3 are steps or hexes of
    retreat, the defender's choice.  27.3: units that retreated into the hex this step share a
    DE, a (D2) or a stack retreat."""
    c = _combat(state)
    if c is None:
        return
    enemy = values.other(c["side"])
    dfn = [u for u in c["defenders"] if values.on_map(state.unit(u)) and state.unit(u).location == c["target"]]
    late = sorted(u.id for u in values.combat_units_at(state, c["target"], enemy) if u.id not in c["defenders"])
    if c["defender_eliminated"]:
        for u in dfn:
            losses.eliminate(state, state.unit(u), "ETO-27.1", " (DE)")
        for u in late:
            losses.eliminate(state, state.unit(u), "ETO-27.3", " (DE: retreated into the hex this step)")
        return
    if c["retreat"]:
        c["retreat_hexes"] = {u: c["retreat"] for u in [*dfn, *late]}
        return
    if c["flex"] and dfn:
        state.push_interrupt("defender_losses", enemy, "ETO-27.1",
                             f"{c['result']}: lose steps or retreat the stack ({c['flex']} in all)",
                             ["take_losses"], role="defender", steps=c["flex"], units=sorted(dfn),
                             reserve=late)


def retreats(state: State, step: Step) -> None:
    """ETO-27.3: the defender retreats the units the result moves, unit by unit."""
    c = _combat(state)
    if c is None:
        return
    pending = {u: n for u, n in c.get("retreat_hexes", {}).items() if values.on_map(state.unit(u)) and n > 0}
    if pending:
        retreat.start(state, c, pending)


def installations(state: State, step: Step) -> None:
    """ETO-27.6, the step: see :func:`destroy_installations`."""
    c = _combat(state)
    if c is not None:
        destroy_installations(state, c)


def destroy_installations(state: State, c: dict[str, Any]) -> None:
    """ETO-27.6: installation markers in the defender's hex are destroyed if every defender
    retreated or was eliminated.  The marker leaves play as a fortification and is marked
    Destroyed in ``state.markers["destroyed"]`` (by hex: kind, the side that held it, turn), so
    the capturing player may repair it (37.5, ``construction.repair``)."""
    if values.combat_units_at(state, c["target"], values.other(c["side"])):
        return
    if "defenders" in c and not c["defenders"] and not c.get("affects_defender"):
        return  # 27.4: an empty fortification falls only to a result that affects the defender
    forts = state.markers.get("forts", {})
    if c["target"] in forts and forts[c["target"]].get("side") != c["side"]:
        old = forts.pop(c["target"])
        kind = str(old.get("kind", "fortification"))
        state.markers.setdefault("destroyed", {})[c["target"]] = {
            "kind": kind, "side": old.get("side"), "turn": state.turn_label}
        state.emit("installation_destroyed", side=c["side"], rule="ETO-27.6",
                   text=f"{kind} at {c['target']} destroyed", hex=c["target"], installation=kind)


def advance_after_combat(state: State, step: Step) -> None:
    """ETO-27.4: attackers may advance into the vacated hex; 10.6: a successful amphibious
    assault's survivors must land there first (that is their advance)."""
    from workbench.rulesets.eto.amphibious import land_survivors  # noqa: I001

    c = _combat(state)
    if c is not None:
        land_survivors(state, c)
    advance.offer(state, state.markers["combat"])


def secondary_advance(state: State, step: Step) -> None:
    """ETO-27.4: one activated unit may follow into a hex an advancing unit left."""
    advance.offer_secondary(state, state.markers["combat"])


def breakthrough_move(state: State, step: Step) -> None:
    """ETO-28.3: armor that advanced after a breakthrough attack moves its general's rating."""
    advance.offer_bt_move(state, state.markers["combat"])


def done(state: State, step: Step) -> None:
    """The procedure has closed: finish the combat (exploitation and repeat marks, 29.1, 28.4),
    then, after an armor reaction attack, let the interrupted move go on (26.5)."""
    c = state.markers["combat"]
    finish(state, c)
    if c["mode"] == "reaction":
        from workbench.rulesets.eto.reaction import after

        after(state, c)


def finish(state: State, c: dict[str, Any]) -> None:
    """ETO-27.0: the combat is over: dropped paratroops hold or are lost (19.4), armor that
    vacated the hex may exploit (29.1), failed breakthrough armor must repeat (28.4), and lone
    commanders in the enemy's new ZOC withdraw (23.3)."""
    from workbench.rulesets.eto import paradrop
    from workbench.rulesets.eto.control import pass_through
    from workbench.rulesets.eto.movement import lone_commanders_in_zoc

    paradrop.not_vacated(state, c)  # 19.4, 28.7, 29.4
    vacated = not values.combat_units_at(state, c["target"], values.other(c["side"]))
    if "defenders" in c and not c["defenders"] and c.get("result") != "partisans":
        vacated = bool(c.get("affects_defender"))  # an empty fort falls only to such a result (27.4)
    for p in paradrop.dropped_attackers(state, c) if vacated else []:
        pass_through(state, p, [state.map.index(c["target"])])  # 24.4: the para holds the hex
    if c["mode"] == "combat" and vacated:
        for a in c["attackers"]:
            u = state.unit(a)
            if values.on_map(u) and values.unit_class(state, u) == "armor":
                u.props["can_exploit"] = True  # 29.1: eligible to advance after combat in Step 4
        for g in state.units_by_id.values():
            if g.side == c["side"] and values.unit_class(state, g) == "general" and values.on_map(g) \
                    and any(state.unit(a).location == g.location for a in c["attackers"]):
                g.props["can_exploit"] = True
    if c["mode"] == "breakthrough":
        for a in c["attackers"]:
            u = state.unit(a)
            u.props["bt_done"] = True
            if not vacated and values.on_map(u):
                u.props["must_attack"] = c["target"]  # 28.4: enforced by repeat_why
    lone_commanders_in_zoc(state, c["side"])
    state.markers.pop("combat", None)
    state.emit("combat_done", side=c["side"], rule="ETO-27.0", text=f"combat at {c['target']} done",
               target=c["target"])




def losses_forced(state: State, units: list[str], n: int) -> bool:
    """The attacker has no real choice: one unit, or every step of every unit is needed."""
    total = sum(values.steps_left(state, state.unit(u)) for u in units)
    return len(units) == 1 or total <= n


def apply_steps(state: State, units: list[str], n: int, rule: str) -> None:
    """Take ``n`` steps from ``units`` (used only when forced: one unit, or all steps)."""
    from workbench.rulesets.eto.losses import step_loss

    left = n
    for uid in units * 2:
        u = state.unit(uid)
        if left <= 0:
            break
        if values.on_map(u) or is_assaulting(u):
            step_loss(state, u, rule)
            left -= 1


PROCEDURES = {
    "attacker-losses": attacker_losses,
    "defender-result": defender_result,
    "retreats": retreats,
    "installations": installations,
    "advance-after-combat": advance_after_combat,
    "secondary-advance": secondary_advance,
    "breakthrough-move": breakthrough_move,
    f"{ROOT}:exit": done,
}
