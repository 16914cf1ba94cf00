"""Victory (SSA-20) and the scenario victory conditions that replace or adjust it.

At the end of the last turn each side counts victory points for the cities it
controls (SSA-20.1), halved, rounded up, where a strategic bombing marker sits
(SSA-20.2); the side with more VP wins at the level its VP ratio reaches
(SSA-20.5, :func:`workbench.rulesets.ssa.adjudicate.victory_level`).
Scenarios may replace this (SC0: Japanese-held US industrial hexes) or
require a minimum level (SC2, SC3), or lower a side's level (SC5 SR5).
"""

from __future__ import annotations

import math
from typing import Any

from workbench.engine.state import State
from workbench.rulesets.ssa import adjudicate
from workbench.rulesets.ssa.deployment import geography
from workbench.rulesets.ssa.naval import canal_bombed, canal_controlled
from workbench.rulesets.ssa.occupation import city_hexes, city_owner

LADDER = ["allies_total", "allies_strategic", "allies_marginal", "draw", "axis_marginal",
          "axis_strategic", "axis_total"]


def victory_points(state: State) -> dict[str, float]:
    """SSA-20.1-20.2: VP of each side now."""
    hm = state.map
    table = state.ruleset.tables["victory"]
    vp_a, vp_x = table["vp"]["allies"], table["vp"]["axis"]
    rules = table["rules"]
    kinds = hm.hexes["city_kind"].to_list()
    capital = hm.flag("capital")
    bombed = state.arrays.get("bombed")
    atrocity = set(state.markers.get("atrocity", []))
    policy = state.markers.get("policy", {})
    names = {h: n for n, h in zip(hm.places["name"].to_list(), hm.places["hex"].to_list(), strict=True)}
    allies = 0.0
    axis_whole = 0.0
    axis_halves = 0
    for i in city_hexes(state):
        label = hm.label(i)
        owner = city_owner(state, i)
        name = names.get(label, "")
        industrial = kinds[i] == "industrial"
        halve = bombed is not None and bool(bombed[i])

        def worth(v: float, halve: bool = halve) -> float:
            return math.ceil(v * rules["bombed_fraction"]) if halve else v

        capital_key = {"Washington DC": "washington_dc", "Ottawa": "ottawa"}.get(name)
        if owner == "allies":
            allies += worth(vp_a["industrial_hex"] if industrial else vp_a["non_industrial_city"])
            if capital_key and capital[i]:
                allies += worth(vp_a[capital_key])
        elif owner == "axis":
            if capital_key and capital[i]:
                axis_whole += worth(vp_x[capital_key])
            if label in atrocity:
                axis_whole += worth(vp_x["industrial_hex_atrocity"] if industrial else vp_x["non_industrial_city_atrocity"])
            elif policy.get(label) == "collaboration":
                if industrial:
                    axis_whole += worth(vp_x["industrial_hex_collaboration"])
                else:
                    axis_halves += 1  # SSA-20.1b: 1/2 each, the sum rounded up (A20)
    canal = hm.meta.get("panama_canal_hexes", [])
    if canal and canal_controlled(state, "allies"):  # 20.1a "Control Panama Canal"; bombed: half (20.2)
        allies += math.ceil(vp_a["panama_canal"] * rules["bombed_fraction"]) if canal_bombed(state) \
            else vp_a["panama_canal"]
    axis = axis_whole + math.ceil(axis_halves * vp_x["non_industrial_city_collaboration"])
    if "SSA-21" in state.game.options.get("optional_rules", []):  # SSA-20.3 (optional rule 21)
        ma, mx = float(state.tracks.get("allies.morale", 0)), float(state.tracks.get("axis.morale", 0))
        if ma > mx:
            allies += ma - mx
        elif mx > ma:
            axis += mx - ma
    return {"allies": allies, "axis": axis}


def standard_result(state: State) -> dict[str, Any]:
    vp = victory_points(state)
    if vp["allies"] == vp["axis"]:
        winner, level = None, "draw"
    else:
        winner = "allies" if vp["allies"] > vp["axis"] else "axis"
        loser = "axis" if winner == "allies" else "allies"
        level = adjudicate.victory_level(vp[winner], vp[loser], tables=state.ruleset.tables)
        if level == "draw":
            winner = None
    return {"winner": winner, "level": level, "vp": vp, "rule": "SSA-20.5"}


def sc0_result(state: State, spec: dict[str, Any]) -> dict[str, Any]:
    """SSA-SC0: count the US industrial hexes the Japanese control (SR8 control)."""
    hm = state.map
    geo = geography(state).country["US"]
    kinds = hm.hexes["city_kind"].to_list()
    n = sum(1 for i in city_hexes(state, "industrial") if geo[i] and city_owner(state, i) == "axis"
            and kinds[i] == "industrial")
    for band in spec["levels"]:
        if n >= band.get("min", 0) and n <= band.get("max", 10**9):
            result = band["result"]
            winner = {"axis_victory": "axis", "allied_victory": "allies"}.get(result)
            return {"winner": winner, "level": "victory" if winner else "draw",
                    "japanese_industrial_hexes": n, "rule": spec.get("rule", "SSA-SC0")}
    return {"winner": None, "level": "draw", "japanese_industrial_hexes": n, "rule": "SSA-SC0"}


def final_result(state: State) -> dict[str, Any]:
    """SSA-20 at the end of the last turn, with the scenario's own conditions."""
    spec = state.game.scenario.raw.get("victory", {})
    if spec.get("replaces_standard") and spec.get("measure") == "japanese_controlled_us_industrial_hexes":
        return sc0_result(state, spec)
    result = standard_result(state)
    minimum = spec.get("min_level", {})
    if result["winner"] in minimum:
        order = ["marginal", "strategic", "total"]
        if order.index(result["level"]) < order.index(minimum[result["winner"]]):
            result.update(winner=None, level=spec.get("below_min_level", "draw"),
                          note=f"{result['level']} is below the scenario's minimum "
                               f"({minimum[result['winner']]}) for {result['winner']}")
    drop = spec.get("level_drop")
    if drop and state.markers.get(drop.get("flag", "pacific_garrison_broken")):
        rung = "draw" if result["winner"] is None else f"{result['winner']}_{result['level']}"
        if rung in LADDER:
            step = 1 if drop["side"] == "allies" else -1
            new = LADDER[min(max(LADDER.index(rung) + step * int(drop.get("levels", 1)), 0), len(LADDER) - 1)]
            winner, _, level = new.partition("_")
            result.update(winner=None if new == "draw" else winner, level=level or "draw",
                          note="SR5: the Pacific garrison was withdrawn")
    return result


def automatic_victory(state: State) -> None:
    """SSA-20.4 (optional rule 21): morale at 0 or less loses at once; both: the phasing player wins."""
    if "SSA-21" not in state.game.options.get("optional_rules", []):
        return
    low = [s for s in ("axis", "allies") if float(state.tracks.get(f"{s}.morale", 1)) <= 0]
    if not low:
        return
    winner = state.phasing if len(low) == 2 else ("allies" if low == ["axis"] else "axis")
    state.finish(winner, "automatic", rule="SSA-20.4")
