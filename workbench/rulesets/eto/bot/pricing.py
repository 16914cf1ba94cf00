"""Attack pricing for the ETO heuristic brain, shared by the command, movement and combat planners.

An attack is worth its expected result over the six rows of the CRT (ETO-26.1 odds column,
``RESULT_VALUE`` per result, attacker's view) with the DRMs (26.4) guessed before the
attackers stand next to the target (+1 for German attackers while the blitzkrieg lasts, -1 in
rough terrain, -1 in mud, 1.2), less a little for the target's distance to the goal.  An
attack must clear a bar, lower on a victory hex the Axis does not hold (27.1: there even a
weak attack may make the defender retreat out of it).  :func:`assign_targets` is the greedy
attack plan of an HQ offensive (22.1: up to the HQ's attack rating, one attack per hex,
26.0); :func:`one_attack` the best single attack of a general's or a stack offensive (22.2,
22.3).
"""

from __future__ import annotations

from typing import Any

from workbench.bots.heuristic import Context
from workbench.rulesets.eto import adjudicate as adj
from workbench.rulesets.eto import values
from workbench.rulesets.eto.bot.plan import position_info
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.weather import MUD, conditions

RESULT_VALUE = {"DE": 3.0, "D3": 2.5, "(D2)": 2.0, "D2": 1.8, "D2x": 1.3, "D1": 1.0, "D1x": 0.6,
                "x": -0.4, "xx": -0.9, "AE": -2.5}


def expected_value(column: str, drm: int, tables: dict[str, Any]) -> float:
    """Expected value of one attack over the six die rolls (attacker's view)."""
    return sum(RESULT_VALUE.get(adj.crt(column, die + drm, tables=tables), 0.0) for die in range(1, 7)) / 6


def drm_guess(ctx: Context, attackers: list[Any], target: str) -> int:
    """The DRMs an attack on ``target`` will likely get: +1 for German attackers while the
    blitzkrieg is on, -1 in rough terrain."""
    st = ctx.state
    drm = 0
    v = str(st.tracks.get("blitzkrieg.SU", ""))
    if any(u.nation == "GE" for u in attackers) and (v == "unused" or v == f"active:{st.turn_label}"):
        drm += 1
    if terrain_arrays(st).rough[st.map.index(target)]:
        drm -= 1
    return drm


def prize_bar(info: dict[str, Any], target: int, bar: float) -> float:
    """The expected result an attack must beat: lower on an objective or resource hex the Axis
    does not hold (the hex it must take for victory points) -- there even a weak attack may
    make the defender retreat out of it (27.1) -- than elsewhere."""
    prize = info.get("prize")
    return min(bar, 0.15) if prize is not None and prize[target] else bar


def one_attack(ctx: Context, info: dict[str, Any], at: int, attack: Any) -> float | None:
    """The worth of the best single attack from hex ``at`` on an enemy hex next to it, for a
    one-attack offensive (22.2, 22.3): ``attack(j)`` gives the attackers on hex ``j`` and their
    strength.  None when no attack's expected result clears the bar."""
    hm, tables = ctx.state.map, ctx.state.ruleset.tables
    best = None
    for j in hm.neighbors[at]:
        j = int(j)
        if j < 0 or info["enemy"][j] <= 0:
            continue
        units, att = attack(j)
        if not att:
            continue
        dfn = max(float(info["enemy_sp"][j]), 1.0)
        ev = expected_value(adj.odds_column(int(att), int(dfn), tables=tables),
                            drm_guess(ctx, units, hm.label(j)), tables)
        if ev >= prize_bar(info, j, 1.0):
            v = ev - 0.15 * float(info["goal"][j])
            best = v if best is None else max(best, v)
    return best


def assign_targets(ctx: Context, targets: list[int], reach: dict[str, Any], units: dict[str, Any],
                   limit: int, taken: set[str], order: Any, mud: bool = False) -> list[tuple[int, list[str]]]:
    """Greedy attack plan: ``limit`` times, the target hex (one attack per hex, 26.0) whose best
    attack is worth most, made by up to six untaken units that reach it (in ``order``) until
    6:1.  Worth: the expected result (over the CRT row, DRMs guessed, -1 in mud if ``mud``)
    less the distance to the goal.  ``taken`` gains the units used."""
    st, hm = ctx.state, ctx.state.map
    tables = st.ruleset.tables
    info = position_info(ctx)
    cond = conditions(st) if mud else None
    planned: set[int] = set()
    out: list[tuple[int, list[str]]] = []
    for _ in range(max(limit, 0)):
        best = None
        for t in targets:
            if t in planned:
                continue
            pool = sorted((uid for uid, r in reach.items() if t in r and uid not in taken),
                          key=lambda uid, t=t: order(uid, t))
            if not pool:
                continue
            dfn = max(float(info["enemy_sp"][t]), 1.0)
            pick, att = [], 0
            for uid in pool[:6]:
                pick.append(uid)
                att += values.strength(st, units[uid])
                if att >= 6 * dfn:
                    break
            drm = drm_guess(ctx, [units[u] for u in pick], hm.label(t))
            if cond is not None and cond[t] == MUD:
                drm -= 1
            ev = expected_value(adj.odds_column(int(att), int(dfn), tables=tables), drm, tables)
            v = ev - 0.15 * float(info["goal"][t])
            if ev > prize_bar(info, t, 0.5) and (best is None or v > best[0]):
                best = (v, t, pick)
        if best is None:
            break
        planned.add(best[1])
        taken.update(best[2])
        out.append((best[1], best[2]))
    return out
