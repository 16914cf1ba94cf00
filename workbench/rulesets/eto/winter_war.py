"""The Winter War against Finland (ETO-43.3).

In 1939 or 1940 the USSR may declare a limited invasion of Finland (``{"kind": "winter_war"}``).
Finland does not become an Axis partner: its units are placed (39.2) and fight the USSR alone,
neutral to every other nation, while the Soviet units stay east of the Finnish temporary border
(``politics.toml [winter_war]``: the eastern Finland zone).  Crossing the border, by move or
attack, would invade Germany: the kernel refuses it until Germany's invasion is announced
(ruling P23).  The war is won when no Finnish unit is left east of the border: the Finnish units
are removed as if Finland were conquered (all of them return if Finland is later activated,
35.2), eastern Finland becomes a Soviet pre-war conquest (43.2) and 43.4's winter proficiency is
earned (``tracks["winter_war"] = "won"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import combat, holders, invasion, politics, prewar_conquests, values
from workbench.rulesets.eto import control as ctl

RULE = "ETO-43.3"
UNPLACED = invasion.UNPLACED


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["winter_war"]


def status(state: State) -> str | None:
    """``None`` (not fought), ``"on"`` or ``"won"``."""
    return politics.war_state(state).get("winter_war")


def zone_mask(state: State) -> np.ndarray:
    return prewar_conquests.mask(state, _t(state)["zone"])


def why_not(state: State, side: str) -> Refusal | None:
    """Why ``side`` may not begin the Winter War now."""
    su, fi = prewar_conquests.claimant(state), str(_t(state)["target"])
    if not politics.on(state.game):
        return Refusal(RULE, "this scenario fixes the political situation: no Winter War")
    if su not in invasion.commanded(state, side):
        return Refusal(RULE, f"{side} does not command the Soviet Union")
    if not invasion.open_now(state):
        return Refusal("ETO-39.0", "a limited invasion is announced in the Strategic Warfare, Naval and Air or "
                                   "Offensive phase")
    if status(state):
        return Refusal(RULE, "the Winter War has already been fought")
    if int(state.turn_label[:4]) not in [int(y) for y in _t(state)["years"]]:
        return Refusal(RULE, "the USSR can initiate the Winter War only during 1939 or 1940")
    if not politics.neutral(state, fi):
        return Refusal(RULE, "Finland is already at war: the Winter War is a limited invasion of a neutral Finland")
    return None


def begin(state: State) -> list[str]:
    """ETO-43.3: the limited invasion: a war of the USSR and Finland alone; Finland's units are
    placed and its hexes held for it by its player (its units trace supply home)."""
    su, fi = prewar_conquests.claimant(state), str(_t(state)["target"])
    ws = politics.writable(state)
    ws["winter_war"] = "on"
    politics.open_war(state, su, fi)
    placed = invasion.deploy(state, fi)
    side = next((u.side for u in state.units_by_id.values() if u.nation == fi), None)
    for u in state.units_by_id.values():
        if u.nation == fi and u.id in placed:
            u.props["winter_war_deploy"] = u.location  # 43.3: all return if Finland is activated later
    if side:
        terr = politics.territory(state, fi) & (ctl.control(state) == ctl.NEUTRAL)
        ctl.control(state)[terr] = ctl.SIDE_CODE[side]
    politics.record(state, invader=su, by="soviet", nation=fi, joined="winter_war")
    state.emit("invaded", side=side or "axis", rule=RULE, nation=fi, invader=su, partnership=None, how="limited",
               text=f"the Soviet Union begins the Winter War (43.3): Finland fights alone, neutral to all others; "
                    f"{len(placed)} Finnish units placed")
    return placed


def closed(state: State, unit: Unit) -> tuple[np.ndarray, str] | None:
    """``holders.CLOSED_HOOKS``: while the Winter War is fought and the USSR is not at war with the
    Axis, Soviet units stay east of the temporary border."""
    if status(state) != "on" or unit.nation != prewar_conquests.claimant(state) or not prewar_conquests.prewar(state):
        return None
    west = politics.territory(state, str(_t(state)["target"])) & ~zone_mask(state)
    return west, ("ETO-43.3: crossing the Finnish temporary border invades Germany: announce it first "
                  "(declare_war on GE)")


def attack_why_not(state: State, attackers: list[Unit], target: str) -> Refusal | None:
    """43.3: an attack across the temporary border is an invasion of Germany too."""
    if status(state) != "on" or not prewar_conquests.prewar(state):
        return None
    if any(u.nation == prewar_conquests.claimant(state) for u in attackers) \
            and politics.territory(state, str(_t(state)["target"]))[state.map.index(target)] \
            and not zone_mask(state)[state.map.index(target)]:
        return Refusal(RULE, f"{target} is west of the Finnish temporary border: attacking it invades Germany -- "
                             "announce it first (declare_war on GE)")
    return None


def check(state: State) -> None:
    """ETO-43.3: the war is won when every Finnish unit is out of the hexes east of the border."""
    if status(state) != "on":
        return
    fi = str(_t(state)["target"])
    z = zone_mask(state)
    hm = state.map
    if any(u.nation == fi and values.on_map(u) and values.is_land_unit(state, u) and z[hm.index(u.location)]
           for u in state.units_by_id.values()):
        return
    win(state)


def win(state: State) -> None:
    """Finnish units removed as if conquered (all may return), eastern Finland Soviet, Finland
    neutral again, and 43.4's proficiency earned."""
    su, fi = prewar_conquests.claimant(state), str(_t(state)["target"])
    ws = politics.writable(state)
    ws["winter_war"] = "won"
    ws["wars"] = [w for w in ws["wars"] if w != "|".join(sorted((su, fi)))]
    state.tracks["winter_war"] = "won"
    back = 0
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        if u.nation == fi and values.is_land_unit(state, u) and u.location != UNPLACED:
            u.props = {"deploy": u.props.get("winter_war_deploy") or u.props.get("deploy") or u.location}
            u.location = UNPLACED
            back += 1
    terr = politics.territory(state, fi) & ~zone_mask(state)
    ctl.control(state)[terr] = ctl.NEUTRAL
    name = str(_t(state)["zone"])
    ws.setdefault("claims", {})[name] = {"turn": state.turn_label, "crossed": True}
    prewar_conquests.conquer(state, name)
    holders.assign(state, terr, fi)
    state.emit("winter_war_won", side="allies", rule=RULE, nation=fi,
               text=f"the Winter War is won (43.3): {back} Finnish units removed (they return if Finland is "
                    f"activated); eastern Finland is Soviet; 43.4's winter proficiency is earned")


class WinterWarOrder(OrderKind):
    """``{"kind": "winter_war"}`` (ETO-43.3)."""

    kind = "winter_war"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return politics.on(game)

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        return [{"kind": self.kind}] if d is not None and why_not(state, d.side) is None else []

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(self.rule, "no decision is open")
        refuse(why_not(state, d.side))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        begin(state)


def _after_capture(state: State, unit: Unit, taken: np.ndarray) -> None:
    check(state)


if closed not in holders.CLOSED_HOOKS:
    holders.CLOSED_HOOKS.append(closed)
if attack_why_not not in combat.ATTACK_CHECKS:
    combat.ATTACK_CHECKS.append(attack_why_not)
if _after_capture not in ctl.CAPTURE_HOOKS:
    ctl.CAPTURE_HOOKS.append(_after_capture)
