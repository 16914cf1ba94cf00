"""How a game came out, in one schema for both rulesets (for batch runs and the strength bar).

* ``winner`` / ``level``: the ruleset's own result when it names a winner
  (ETO Barbarossa's victory rules do).  Otherwise, for SS Amerika, a reading
  of the victory rules from city control (SSA-20.1, 20.5, or a scenario's own
  ``[victory]`` measure such as SC0's "Japanese-controlled U.S. industrial
  hexes"); ``result_source`` says which (``ruleset`` or ``workbench``).
* ``margin_axis``: a symmetric contest score, balance-free, for comparing
  bots: enemy steps lost minus own steps lost, plus 2 × the change in
  objective value held (cities weighted as the bots weight them, or ETO VP).
* ``bot_winner``: ``winner`` when there is one, else the side with a positive
  margin (``None`` on an exact tie).  The strength bar counts this.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

ECONOMY = re.compile(r"^([A-Za-z]{2,4})\.(mp|ep|eps|bpp|reserve|income|ip|production)(\.|$)", re.I)
LOSS_KINDS = ("eliminated", "reduced", "depleted")


def steps_lost(state: Any) -> dict[str, int]:
    """Steps lost per side so far: one per ``eliminated``/``reduced``/``depleted`` event."""
    out = {s: 0 for s in state.ruleset.sides}
    for ev in state.log:
        if ev["kind"] in LOSS_KINDS and ev["side"] in out:
            out[ev["side"]] += 1
    return out


def objective_value(state: Any) -> dict[str, float]:
    """Objective value held per side now (SSA: weighted cities; ETO: Axis VP)."""
    sides = state.ruleset.sides
    out = {s: 0.0 for s in sides}
    if state.ruleset.name == "ssa":
        from workbench.bots.ssa import city_weights
        from workbench.rulesets.ssa.occupation import city_owner

        intended = intended_owners(state)
        for i, w in city_weights(state).items():
            if intended and i not in intended:
                continue  # cities of neutral or closed countries do not count
            owner = city_owner(state, i) or intended.get(i)
            if owner in out:
                out[owner] += w
    elif state.ruleset.name == "eto":
        from workbench.rulesets.eto.victory import axis_vp

        out["axis"] = float(axis_vp(state)[0])
    return out


def intended_owners(state: Any) -> dict[int, str]:
    """SSA: the side the scenario's ``[control]`` gives each city's country (SSA-17.1), used for
    a city nobody controls, so that only real captures move the contest score."""
    return state.game.cached("bot.intended_owners", lambda: _intended_owners(state))  # scenario's control


def _intended_owners(state: Any) -> dict[int, str]:
    from workbench.rulesets.ssa.occupation import city_hexes

    hm = state.map
    names = hm.hexes["country"].to_list()
    codes = state.ruleset.tables.get("countries", {}).get("codes", {})
    name_code = {n: c for c, ns in codes.items() for n in (ns if isinstance(ns, list) else [ns])}
    control = state.game.scenario.raw.get("control", {})
    out = {}
    for i in city_hexes(state):
        v = control.get(name_code.get(names[i], ""), None)
        if v in ("axis", "allies"):
            out[i] = v
    return out


def economy(state: Any) -> dict[str, float]:
    """Numeric economy tracks (``GE.eps``, ``US.mp.industrial`` ...) summed per nation.metric."""
    out: dict[str, float] = {}
    for k, v in state.tracks.items():
        m = ECONOMY.match(k)
        if m and isinstance(v, int | float) and not isinstance(v, bool):
            key = f"{m.group(1)}.{m.group(2).lower()}"
            out[key] = out.get(key, 0.0) + float(v)
    return out


def ssa_result(state: Any) -> dict[str, Any]:
    """SS Amerika victory read from city control (used while the ruleset names no winner)."""
    from workbench.rulesets.ssa import adjudicate as adj
    from workbench.rulesets.ssa.occupation import city_hexes, city_owner

    hm = state.map
    kinds = hm.hexes["city_kind"].to_list()
    names = hm.hexes["country"].to_list()
    v = state.game.scenario.raw.get("victory", {})
    if v.get("measure") == "japanese_controlled_us_industrial_hexes":
        n = sum(1 for i in city_hexes(state, "industrial")
                if names[i] == "United States" and city_owner(state, i) == "axis")
        for lv in v.get("levels", []):
            if lv.get("min", 0) <= n <= lv.get("max", 10**9):
                res = lv["result"]
                winner = "axis" if res.startswith("axis") else "allies" if res.startswith("allied") else None
                return {"winner": winner, "level": res, "vp_axis": float(n), "vp_allies": 0.0}
        return {"winner": None, "level": "draw", "vp_axis": float(n), "vp_allies": 0.0}
    t = state.ruleset.tables["victory"]["vp"]
    places = {r["name"]: r["hex"] for r in hm.places.select("name", "hex").to_dicts()}
    policy = state.markers.get("policy", {})
    vp = {"axis": 0.0, "allies": 0.0}
    for cap, key in (("Washington DC", "washington_dc"), ("Ottawa", "ottawa")):
        h = places.get(cap)
        if h and hm.has_hex(h):
            owner = city_owner(state, hm.index(h))
            if owner in vp:
                vp[owner] += float(t[owner].get(key, 0))
    for i in city_hexes(state):
        owner = city_owner(state, i)
        ind = kinds[i] == "industrial"
        if owner == "allies":
            vp["allies"] += t["allies"]["industrial_hex" if ind else "non_industrial_city"]
        elif owner == "axis":
            pol = policy.get(hm.label(i), "collaboration")
            key = ("industrial_hex_" if ind else "non_industrial_city_") + pol
            vp["axis"] += float(t["axis"].get(key, 0))
    vp["axis"] = float(math.ceil(vp["axis"]))
    hi, lo = ("axis", "allies") if vp["axis"] > vp["allies"] else ("allies", "axis")
    level = adj.victory_level(vp[hi], vp[lo], tables=state.ruleset.tables) if vp[hi] != vp[lo] else "draw"
    return {"winner": hi if level != "draw" else None, "level": level,
            "vp_axis": vp["axis"], "vp_allies": vp["allies"]}


def summarize(state: Any, start: dict[str, Any] | None = None) -> dict[str, Any]:
    """One row per game: result, VP, turn reached, losses, objectives, economy, contest margin.

    ``start`` is :func:`snapshot` of the starting position (for the objective change).
    """
    res = dict(state.result or {})
    sides = state.ruleset.sides
    out: dict[str, Any] = {"over": state.is_over, "turn_reached": state.turn_label,
                           "turns_played": int(state.turn), "orders": len(state.orders),
                           "events": len(state.log)}
    source = "ruleset"
    winner, level = res.get("winner"), res.get("level", "unfinished" if not state.is_over else "draw")
    vp_axis = res.get("axis_vp")
    vp_allies = res.get("allies_vp")
    if state.ruleset.name == "ssa" and isinstance(res.get("vp"), dict):  # SSA-20.5: the ruleset's own count
        vp_axis, vp_allies = res["vp"].get("axis"), res["vp"].get("allies")
    elif "japanese_industrial_hexes" in res:  # SC0: the Japanese count is the scenario's measure
        vp_axis = res["japanese_industrial_hexes"]
    if winner is None and state.ruleset.name == "ssa":
        r = ssa_result(state)
        winner, level, vp_axis, vp_allies = r["winner"], r["level"], r["vp_axis"], r["vp_allies"]
        source = "workbench"
    out.update(winner=winner, level=str(level), result_source=source,
               vp_axis=None if vp_axis is None else float(vp_axis),
               vp_allies=None if vp_allies is None else float(vp_allies))
    lost = steps_lost(state)
    obj = objective_value(state)
    obj0 = (start or {}).get("objectives", {s: 0.0 for s in sides})
    for s in sides:
        out[f"steps_lost_{s}"] = lost.get(s, 0)
        out[f"objectives_{s}"] = obj.get(s, 0.0)
    a, b = sides[0], sides[1]
    margin = (lost[b] - lost[a]) + 2.0 * ((obj[a] - obj0.get(a, 0.0)) - (obj[b] - obj0.get(b, 0.0)))
    out["margin_axis"] = float(margin)
    out["bot_winner"] = winner if winner is not None else (a if margin > 0 else b if margin < 0 else None)
    econ = economy(state)
    out["economy"] = json.dumps(econ, sort_keys=True)
    out["economy_total"] = float(sum(econ.values()))
    return out


def snapshot(state: Any) -> dict[str, Any]:
    """What :func:`summarize` compares against, and one row of the turn-by-turn series."""
    return {"turn": state.turn_label, "t": int(state.turn), "objectives": objective_value(state),
            "steps_lost": steps_lost(state), "economy": economy(state)}
