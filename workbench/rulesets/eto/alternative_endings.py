"""The alternative endings (optional ahistorical rules ETO-47.5 Cold War Clash, 47.6 Extended
Game), for a game that would end with the June 1945 turn (``tables/politics.toml [endings]``).

* 47.5: play goes on to December 1946; US and Soviet base incomes stay at their 1945 levels and
  their force pools get no additions; strategic bombing is the only strategic warfare after
  June 1945; at the end, the partnership holding twice the city resource hexes of the other
  (Western Allies against the USSR) is the grand strategic victor, else both lose.
* 47.6: play goes on until Germany, the UK or the USSR is conquered (checked at the end of each
  monthly turn after June 1945; an authored horizon bounds the calendar); every base income stays
  at its 1945 level, no force pool additions; the side holding more of Germany's city resource
  hexes wins, a tie is a draw.
* With both switched on, the Cold War clash governs (ruling).

Not modelled: the clash itself -- the kernel plays two sides, so the Western Allies and the USSR
still cannot attack each other (docs/rulings-eto.md); the 47.5 count gives each Allied-held city
resource hex to the partnership of the nearest Allied land unit (ruling).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.rulesets.eto import politics, values
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.values import month_key

COLD_WAR = "ETO-47.5"
EXTENDED = "ETO-47.6"


def _t(game: Any) -> dict[str, Any]:
    return game.ruleset.tables["politics"]["endings"]


def mode(game: Any) -> str | None:
    """``"cold_war"``, ``"extended"`` or None: the ending this game plays (47.5 over 47.6)."""
    if str(game.scenario.last_turn) != _t(game)["standard_last_turn"]:
        return None  # only a game that would end with the June 1945 turn goes on
    if game.optional_rule(COLD_WAR):
        return "cold_war"
    if game.optional_rule(EXTENDED):
        return "extended"
    return None


def last_turn(game: Any) -> str:
    """The calendar's end: December 1946 for 47.5, the authored horizon for 47.6."""
    m = mode(game)
    return str(_t(game)[m]["last_turn"]) if m else str(game.scenario.last_turn)


def beyond(state: State) -> bool:
    """This turn lies after the June 1945 turn, in an extended game."""
    return mode(state.game) is not None and month_key(state.turn_label) > month_key(_t(state.game)["standard_last_turn"])


def frozen(state: State, nation: str) -> bool:
    """47.5/47.6: ``nation``'s income stays at its 1945 level and its force pool gets nothing new
    (from 1946, the first year after 1945)."""
    m = mode(state.game)
    if m is None or int(state.turn_label[:4]) <= int(_t(state.game)["frozen_year"]):
        return False
    who = _t(state.game)[m]["frozen"]
    return who == "all" or nation in who


def frozen_year(state: State) -> str:
    return str(_t(state.game)["frozen_year"])


def strategic_warfare_allowed(state: State, kind: str) -> bool:
    """47.5: after June 1945 "Strategic bombing is the only type of strategic warfare permitted"
    (asked by the raider, U-boat and iron-route steps, which then do nothing)."""
    if mode(state.game) != "cold_war" or not beyond(state):
        return True
    if kind in _t(state.game)["cold_war"]["strategic_warfare"]:
        return True
    words = {"raiders": "surface raiding", "uboats": "U-boat warfare", "iron_route": "iron route interdiction"}
    state.emit("no_strategic_warfare", rule=COLD_WAR, text=f"no {words.get(kind, kind)} in the Cold War clash: "
               "strategic bombing is the only strategic warfare permitted")
    return False


def _result(winner: str | None, level: str, rule: str, **detail: Any) -> dict[str, Any]:
    return {"winner": winner, "level": level, "rule": rule, **detail}


def german_count(state: State) -> dict[str, int]:
    """47.6: Germany's (original) city resource hexes held by each side."""
    ta = terrain_arrays(state)
    ge = _t(state.game)["extended"]["counted"]
    mask = home_mask(state, ge, original=True) & ta.city_resource
    ctrl = control(state)
    return {side: int((mask & (ctrl == code)).sum()) for side, code in SIDE_CODE.items() if side in ("axis", "allies")}


def extended_result(state: State, why: str) -> dict[str, Any]:
    """47.6: "The winner is the player or partnership that controls the most city resource hexes
    of Germany. If the totals are tied, the game is a draw."."""
    n = german_count(state)
    if n["axis"] == n["allies"]:
        return _result(None, "draw", EXTENDED, why=why, german_city_resource_hexes=n)
    w = max(n, key=lambda k: n[k])
    return _result(w, f"{'Axis' if w == 'axis' else 'Allies'} victory (extended game)", EXTENDED, why=why,
                   german_city_resource_hexes=n)


def partnership_counts(state: State) -> dict[str, int]:
    """47.5: city resource hexes friendly to the Western Allies and to the USSR.  The two share the
    Allied side's control, so each Allied-held hex goes to the partnership of the nearest Allied
    land unit (ties: a Soviet home hex to the USSR, others to the Western Allies) (ruling)."""
    hm = state.map
    ta = terrain_arrays(state)
    ctrl = control(state)
    su_home = home_mask(state, "SU", original=True)
    units = [(u.location, politics.partnership(state, u.nation) or politics.natural_partnership(state, u.nation))
             for u in sorted(state.units_by_id.values(), key=lambda u: u.id)
             if u.side == "allies" and values.on_map(u) and values.is_land_unit(state, u)]
    out = {"western": 0, "soviet": 0}
    for i in np.flatnonzero(ta.city_resource & (ctrl == SIDE_CODE["allies"])):
        label = hm.label(int(i))
        home = "soviet" if su_home[i] else "western"
        if units:
            d = {p: min((hm.distance(label, at) for at, q in units if q == p), default=10**9) for p in out}
            p = home if d["western"] == d["soviet"] else min(d, key=lambda k: d[k])
        else:
            p = home
        out[p] += 1
    return out


def cold_war_result(state: State) -> dict[str, Any]:
    """47.5: "If one player has twice as many as his opponent, that player is the grand strategic
    victor. If neither player has enough for a victory, both players suffer utter defeat"."""
    n = partnership_counts(state)
    k = int(_t(state.game)["cold_war"]["ratio"])
    for p, q in (("western", "soviet"), ("soviet", "western")):
        if n[p] > 0 and n[p] >= k * n[q]:
            name = "Western Allies" if p == "western" else "Soviet Union"
            return _result("allies", f"{name} grand strategic victory", COLD_WAR, partnership=p,
                           city_resource_hexes=n)
    return _result(None, "utter defeat for both (a world exhausted by war)", COLD_WAR, city_resource_hexes=n)


def sudden_end(state: State) -> dict[str, Any] | None:
    """47.6: after June 1945 the game ends as soon as Germany, the UK or the USSR is conquered."""
    if mode(state.game) != "extended" or not beyond(state):
        return None
    conquered = politics.war_state(state).get("conquered", {})
    for n in _t(state.game)["extended"]["ends_on_conquest_of"]:
        if n in conquered:
            return extended_result(state, f"{politics.nations(state)[n]['name']} is conquered")
    return None


def final(state: State) -> dict[str, Any] | None:
    """The result at the extended calendar's end (None: the standard ending applies)."""
    m = mode(state.game)
    if m == "cold_war":
        return cold_war_result(state)
    if m == "extended":
        return extended_result(state, "the extended calendar ends")
    return None
