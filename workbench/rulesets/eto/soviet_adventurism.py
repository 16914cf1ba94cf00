"""Soviet adventurism (optional ETO-47.2).

With the option, the USSR may invade any minor country (a prospective Axis partner too) without
war with Germany: it is a war of the two, and Germany and the USSR fight a *limited war* inside the
minor.  Upon the invasion every hex of the minor is friendly to Germany and German units may enter
it; inside its borders German and Soviet units may attack each other, and right after each land
combat in which a Soviet land unit attacks a stack with a German land unit (or a German land unit
attacks Soviet units), the attacker's player rolls a die: on a 6 the general war begins (by the
attacker).  Outside the minor every act of war between them is still an invasion (43.6,
:mod:`holders`).  If the USSR conquers the minor, every hex of it not occupied by German units
becomes Soviet.  The limited war lasts until the general war.  This case supersedes 43.6
(:mod:`soviet_aggression`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import (
    combat,
    conquest,
    holders,
    invasion,
    politics,
    prewar_conquests,
    values,
)
from workbench.rulesets.eto import control as ctl

RULE = "ETO-47.2"
GERMANY = "GE"


def on(state: State) -> bool:
    return politics.on(state.game) and state.game.optional_rule(RULE)


def adventures(state: State) -> list[str]:
    """The minors the USSR invaded under 47.2 and has not conquered, while the limited war lasts."""
    ws = politics.war_state(state)
    if not prewar_conquests.prewar(state):
        return []
    return [n for n in ws.get("soviet_adventures", []) if n not in ws.get("conquered", {})]


def zone(state: State) -> np.ndarray:
    out = np.zeros(state.map.size, bool)
    for n in adventures(state):
        out |= politics.territory(state, n)
    return out


def limited(state: State, invader: str, target: str) -> bool:
    """``invasion.LIMITED_HOOKS``: the invasion of a minor, any minor, by a USSR at peace with Germany."""
    rows = politics.nations(state)
    zones = {z.get("nation") for z in prewar_conquests.zones(state)}
    if not on(state) or invader != prewar_conquests.claimant(state) or not politics.neutral(state, invader) \
            or not prewar_conquests.prewar(state) or rows.get(target, {}).get("kind") != "minor" or target in zones:
        return False
    ws = politics.writable(state)
    politics.open_war(state, invader, target)
    ws["soviet_adventures"] = [*ws.get("soviet_adventures", []), target]
    placed = invasion.deploy(state, target)
    for u in state.units_by_id.values():
        if u.nation == target:
            u.side = "axis"
    terr = politics.territory(state, target)
    ctl.control(state)[terr & (ctl.control(state) == ctl.NEUTRAL)] = ctl.AXIS  # "friendly to Germany"
    politics.record(state, invader=invader, by="soviet", nation=target, joined="limited")
    name = rows[target]["name"]
    state.emit("invaded", side="axis", rule=RULE, nation=target, invader=invader, partnership=None, how="limited",
               text=f"the Soviet Union invades {name} (47.2): a limited war with Germany inside {name}, whose "
                    f"hexes are friendly to Germany; {len(placed)} units placed")
    return True


def open_to(state: State, unit: Unit) -> np.ndarray | None:
    """``holders.OPEN_HOOKS``: German and Soviet units may enter the minor's hexes, whoever holds them."""
    if unit.nation not in (GERMANY, prewar_conquests.claimant(state)) or not adventures(state):
        return None
    return zone(state)


def inside(state: State, attackers: list[Unit], target: str) -> bool:
    """``combat.LIMITED_WAR_ZONES``: an attack inside the minor, between Germans and Soviets."""
    if not adventures(state) or not state.map.has_hex(target):
        return False
    return bool(zone(state)[state.map.index(target)])


def after_roll(state: State, side: str, attackers: list[str], defenders: list[str], target: str) -> None:
    """``combat.AFTER_ROLL_HOOKS``: the die for the general war (47.2: a 6)."""
    if not adventures(state) or not inside(state, [], target):
        return
    su = prewar_conquests.claimant(state)
    att = [state.unit(a) for a in attackers]
    dfn = [state.unit(d) for d in defenders]
    soviet_on_german = any(u.nation == su and values.is_land_unit(state, u) for u in att) \
        and any(u.nation == GERMANY and values.is_land_unit(state, u) for u in dfn)
    german_on_soviet = any(u.nation == GERMANY for u in att) and any(u.nation == su for u in dfn)
    if not (soviet_on_german or german_on_soviet):
        return
    by = "soviet" if soviet_on_german else "axis"
    (die,) = state.roll(1, purpose=f"47.2: does the clash at {target} start the war of Germany and the USSR? (6: war)",
                        rule=RULE)
    if die == 6:
        if politics.neutral(state, su):
            politics.join(state, su, politics.natural_partnership(state, su))
        politics.open_front(state, by, "axis" if by == "soviet" else "soviet")
        state.emit("war", side="allies" if by == "soviet" else "axis", rule=RULE, target=target,
                   text=f"the clash at {target} (die {die}) starts the war between Germany and the Soviet Union (47.2)")


def on_capture(state: State, unit: Unit, taken: np.ndarray) -> None:
    """``control.CAPTURE_HOOKS``: conquered by the USSR, the minor's hexes not occupied by German
    units become Soviet (47.2)."""
    if unit.nation != prewar_conquests.claimant(state):
        return
    for n in adventures(state):
        keys = conquest.key_hexes(state, n)
        if not (ctl.control(state)[keys] == ctl.ALLIES).all():
            continue
        politics.writable(state).setdefault("conquered", {})[n] = unit.nation
        terr = politics.territory(state, n).copy()
        for u in state.units_by_id.values():
            if u.nation == GERMANY and values.on_map(u) and values.is_land_unit(state, u):
                terr[state.map.index(u.location)] = False
        ctl.control(state)[terr] = ctl.ALLIES
        holders.assign(state, terr, unit.nation)
        for u in [u for u in state.units_by_id.values() if u.nation == n]:
            del state.units_by_id[u.id]
        state.emit("conquered", side="allies", rule=RULE, nation=n, conqueror=unit.nation,
                   text=f"{politics.nations(state)[n]['name']} is conquered by the Soviet Union (47.2): its hexes "
                        "not occupied by German units are Soviet")


def _register(hooks: list, f: Any) -> None:
    if f not in hooks:
        hooks.append(f)


_register(invasion.LIMITED_HOOKS, limited)
_register(holders.OPEN_HOOKS, open_to)
_register(combat.LIMITED_WAR_ZONES, inside)
_register(combat.AFTER_ROLL_HOOKS, after_roll)
_register(ctl.CAPTURE_HOOKS, on_capture)
