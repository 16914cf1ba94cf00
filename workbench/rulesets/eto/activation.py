"""Activation of minor partners in the seasonal turn's Phase one (ETO-35.0-35.3).

Hungary, Rumania and Bulgaria join the Axis automatically as the spring 1941 seasonal turn
begins, unless one of 35.1's events came first; before (or then), the Axis player may roll once
per country per seasonal turn (``{"kind": "activate_partner", "nation": "HU"}``), activating on
a modified 0 or less.  Finland rolls only with the Axis at war with the USSR (35.2); the British
player rolls for Lebanon-Syria once Vichy exists (35.3).  An activated minor's units go on the
map at once and its major gains 2 EPs per resource hex in this turn's Income phase (35.0).
Invasion activations are :mod:`invasion`'s (39.0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import invasion, politics, values
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.values import month_key

RULE = "ETO-35.0"


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["activation"]


def _side_of_major(state: State, major: str) -> str:
    return politics.table(state)["partnerships"][politics.natural_partnership(state, major)]


def group_of(state: State, nation: str) -> dict[str, Any] | None:
    for key in ("balkans", "finland", "lebanon_syria"):
        g = _t(state)[key]
        if nation in g["nations"]:
            return g
    return None


def _events_before(state: State, label: str) -> list[str]:
    """35.1's modifier events that happened before turn ``label`` (their names in the table)."""
    ws = politics.war_state(state)
    out = []
    hist = ws.get("history", [])
    if any(h["nation"] == "YU" and h["invader"] == "GE" and month_key(h["turn"]) < month_key(label) for h in hist):
        out.append("yugoslavia_invaded_by_germany")
    if any(h["nation"] == "SP" and h["by"] == "axis" and month_key(h["turn"]) < month_key(label) for h in hist):
        out.append("spain_invaded_by_axis")
    if any(h["nation"] == "TU" and h["joined"] in ("western", "soviet") and month_key(h["turn"]) < month_key(label)
           for h in hist):
        out.append("turkey_allied_partner")
    if ws.get("axis_soviet_war_began") and month_key(ws["axis_soviet_war_began"]) < month_key(label):
        out.append("axis_at_war_with_ussr")
    return out


def modifiers(state: State, nation: str) -> list[tuple[int, str]]:
    """ETO-35.1, 35.2: the die modifiers that apply now (value, why)."""
    g = group_of(state, nation)
    if g is None or "drm" not in g:
        return []
    now = _events_before(state, "9999-12")
    if politics.front_open(state, "axis", "soviet") and "axis_at_war_with_ussr" not in now:
        now.append("axis_at_war_with_ussr")
    words = {"yugoslavia_invaded_by_germany": "Germany has invaded Yugoslavia",
             "spain_invaded_by_axis": "the Axis has invaded Spain",
             "turkey_allied_partner": "Turkey is or has been an Allied minor partner",
             "axis_at_war_with_ussr": "the Axis is at war with the Soviet Union"}
    return [(int(g["drm"][k]), words[k]) for k in g["drm"] if k in now]


def lebanon_modifier(state: State) -> tuple[int, str]:
    """ETO-35.3: +1 per three SP of British infantry and armor adjacent to Lebanon-Syria."""
    g = _t(state)["lebanon_syria"]
    hm = state.map
    ls = politics.territory(state, "LS")
    near = np.zeros(hm.size, dtype=bool)
    nb = hm.neighbors
    for i in np.flatnonzero(ls):
        row = nb[i]
        near[row[row >= 0]] = True
    near &= ~ls
    sp = sum(values.strength(state, u) for u in state.units_by_id.values()
             if u.nation == "UK" and values.on_map(u) and hm.has_hex(u.location) and near[hm.index(u.location)]
             and values.unit_class(state, u) in g["classes"])
    return sp // int(g["sp_per_plus_one"]), f"{sp} SP of British infantry and armor adjacent"


def automatic(state: State, nation: str) -> bool:
    """35.1 (and 35.2 after a Winter War): automatic at the spring 1941 seasonal turn unless a
    modifier event happened before it."""
    g = group_of(state, nation)
    ws = politics.war_state(state)
    if g is None or "automatic_at" not in g and not (nation == "FI" and ws.get("winter_war")):
        return False
    at = g.get("automatic_at") or _t(state)["balkans"]["automatic_at"]
    return month_key(state.turn_label) >= month_key(at) and not _events_before(state, at)


def try_why_not(state: State, side: str, nation: str) -> Refusal | None:
    """Why ``side`` may not roll to activate ``nation`` now (35.0-35.3)."""
    g = group_of(state, nation)
    if not politics.on(state.game):
        return Refusal(RULE, "this scenario fixes the political situation: no activations")
    if g is None:
        return Refusal(RULE, f"{nation!r} is not a country activated in this phase (Hungary, Rumania, "
                       "Bulgaria, Finland; Lebanon-Syria for the British)")
    if not politics.neutral(state, nation):
        return Refusal(g["rule"], f"{politics.nations(state)[nation]['name']} is already at war")
    if _side_of_major(state, g["major"]) != side:
        return Refusal(g["rule"], f"only the player of {g['major']} rolls for "
                       f"{politics.nations(state)[nation]['name']}")
    ws = politics.war_state(state)
    if state.turn_label in ws.get("activation_tried", {}).get(nation, []):
        return Refusal(g["rule"], "one roll per country per seasonal turn")
    if nation == "FI" and not ws.get("winter_war") and not politics.front_open(state, "axis", "soviet"):
        return Refusal(g["rule"], "without a Winter War Finland is rolled for only once the Axis and the "
                       "Soviet Union are at war")
    if nation == "LS":
        if not ws.get("vichy"):
            return Refusal(g["rule"], "Lebanon-Syria can be activated only once Vichy France exists (40.4)")
        if ws.get("conquered", {}).get("UK"):
            return Refusal(g["rule"], "the United Kingdom has been conquered")
    return None


def activate(state: State, nation: str, why: str) -> None:
    """ETO-35.0: the minor joins its major's partnership; units placed at once; the bonus EPs
    wait for this turn's Income phase."""
    g = group_of(state, nation)
    major = g["major"] if g else values.major_of(state, nation)
    p = politics.natural_partnership(state, major)
    zone = state.arrays.get("zone.VF")
    if zone is not None:  # 35.3: Lebanon-Syria leaves Vichy's zone
        zone[politics.territory(state, nation)] = 0
    politics.join(state, nation, p)
    placed = invasion.deploy(state, nation)
    ta = terrain_arrays(state)
    n_res = int((politics.territory(state, nation) & (ta.resource | ta.city_resource)).sum())
    bonus = n_res * int(_t(state)["bonus_per_resource_hex"])
    key = f"{major}.activation_bonus"
    state.tracks[key] = int(state.tracks.get(key, 0)) + bonus
    name = politics.nations(state)[nation]["name"]
    state.emit("activated", side=politics.side_of(state, nation), rule=g["rule"] if g else RULE, nation=nation,
               text=f"{name} activated ({why}): a {major} minor partner; {len(placed)} units placed; "
                    f"+{bonus} EPs to {major} this Income phase ({n_res} resource hexes)")


def phase(state: State, _step: Any = None) -> None:
    """Phase one of the seasonal turn: the automatic activations of 35.1/35.2."""
    if not politics.on(state.game):
        return
    for key in ("balkans", "finland"):
        for n in _t(state)[key]["nations"]:
            if n in politics.nations(state) and politics.neutral(state, n) and automatic(state, n):
                activate(state, n, f"automatic at the {_t(state)['balkans']['automatic_at']} seasonal turn, 35.1")


class ActivatePartnerOrder(OrderKind):
    """``{"kind": "activate_partner", "nation": code}``: one activation roll (ETO-35.1-35.3)."""

    kind = "activate_partner"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return politics.on(game)

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        return [{"kind": self.kind, "nation": n} for key in ("balkans", "finland", "lebanon_syria")
                for n in _t(state)[key]["nations"] if n in politics.nations(state)
                and try_why_not(state, d.side, n) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(self.rule, "no decision is open")
        refuse(try_why_not(state, d.side, str(order.get("nation"))))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        nation = order["nation"]
        g = group_of(state, nation)
        ws = politics.writable(state)
        ws.setdefault("activation_tried", {}).setdefault(nation, []).append(state.turn_label)
        name = politics.nations(state)[nation]["name"]
        if nation == "LS":
            mod, why = lebanon_modifier(state)
            (die,) = state.roll(1, purpose=f"activate {name}: 6 or more with +1 per 3 SP adjacent", rule=g["rule"])
            total = die + mod
            ok = total >= int(g["activate_at_least"])
            words = f"{die} + {mod} ({why}) = {total}"
        else:
            mods = modifiers(state, nation)
            (die,) = state.roll(1, purpose=f"activate {name}: a modified 0 or less", rule=g["rule"])
            total = die + sum(v for v, _ in mods)
            ok = total <= int(g["activate_at_most"])
            words = f"{die} {' '.join(f'{v:+d} ({w})' for v, w in mods)} = {total}".replace("  ", " ")
        if ok:
            activate(state, nation, f"roll {words}")
        else:
            state.emit("activation_failed", side=_side_of_major(state, g["major"]), rule=g["rule"],
                       nation=nation, text=f"{name} stays neutral: roll {words}")
