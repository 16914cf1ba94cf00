"""The war state: which nations are at war, in which partnership (ETO-39.0, 41.0, 42.0-42.3).

ETO's two players command three partnerships (42.0): the Axis, the Western Allies and the Soviet
Union, the last two on the Allied side.  A nation is *neutral* until it is invaded or invades
(39.0); then it belongs to a partnership (a minor as a partner of a major, 39.3).  Two
belligerents are at war when their partnerships face each other on an open *front* (Axis /
Western Allies, Axis / Soviet Union; the Western Allies and the USSR never fight, 42.6), or
when a war was opened between the two nations alone (the Soviet pre-war conquests, 43.2-43.6).

The state lives in ``state.markers["politics"]``:
``{"members": {nation: partnership}, "fronts": ["axis|western", ...], "wars": ["FI|SU", ...],
"axis_invaded": bool, "history": [...], ...}`` (39.4 counts the Axis's first invasion; 35.1
reads the history of invasions), plain JSON so it saves, forks and hashes like every marker.  A
scenario sets the start in ``[politics]`` (``members``, ``fronts``, ``wars``); without one, every
nation of ``sides.axis`` is at war with every nation of ``sides.allies`` (the slice scenarios).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto.terrain import terrain_arrays


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["politics"]


def nations(state: State) -> dict[str, dict[str, Any]]:
    return state.ruleset.tables["units"]["nations"]


def on(game: Any) -> bool:
    """ETO-39.0: the politics rules (invasions, declarations, activation) are played in
    scenarios that switch ``options.politics`` on; the slice scenarios fix the political
    situation of their months (docs/rulings-eto.md, P1)."""
    return bool(game.options.get("politics"))


def _pair(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def initial(state: State) -> dict[str, Any]:
    """The war state at the start (ETO-39.0): the scenario's ``[politics]``, or its two sides
    all at war with each other."""
    sc = state.game.scenario
    spec = sc.raw.get("politics")
    rows = nations(state)
    if spec is None:
        members = {n: rows.get(n, {}).get("partnership") or ("axis" if side == "axis" else "western")
                   for side, ns in sc.sides.items() for n in ns}
        fronts = sorted({_pair(members[a], members[b]) for a in sc.sides.get("axis", [])
                         for b in sc.sides.get("allies", []) if members[a] != members[b]})
        return {"members": members, "fronts": fronts, "wars": [], "axis_invaded": bool(fronts),
                **({"axis_soviet_war_began": sc.first_turn} if "axis|soviet" in fronts else {})}
    return {"members": dict(spec.get("members", {})),
            "fronts": sorted(_pair(*f) for f in spec.get("fronts", [])),
            "wars": sorted(_pair(*w) for w in spec.get("wars", [])),
            "axis_invaded": bool(spec.get("axis_invaded", any("axis" in f for f in spec.get("fronts", [])))),
            **({"axis_soviet_war_began": sc.first_turn} if ["axis", "soviet"] in [sorted(f) for f in spec.get("fronts", [])]
               else {}),
            **{k: spec[k] for k in ("winter_war", "vichy") if k in spec}}


def war_state(state: State) -> dict[str, Any]:
    """The war state to read.  Games that play politics keep it in the markers from set-up;
    the others read their scenario's fixed start (never written, so reading it changes no
    hash)."""
    ws = state.markers.get("politics")
    if ws is None:
        return state.game.cached(("eto.politics.initial",), lambda: initial(state))
    return ws


def writable(state: State) -> dict[str, Any]:
    ws = state.markers.get("politics")
    if ws is None:
        ws = copy.deepcopy(war_state(state))
        state.markers["politics"] = ws
    return ws


def partnership(state: State, nation: str) -> str | None:
    """The partnership a belligerent nation fights in (42.1-42.3); ``None`` while neutral."""
    return war_state(state)["members"].get(nation)


def side_of(state: State, nation: str) -> str | None:
    """The game side of a belligerent (``axis`` / ``allies``), ``None`` while neutral."""
    p = partnership(state, nation)
    return None if p is None else table(state)["partnerships"][p]


def neutral(state: State, nation: str) -> bool:
    """ETO-39.0: a nation not at war is neutral."""
    return partnership(state, nation) is None


def at_peace(state: State, nation: str) -> bool:
    """ETO-39.0 in a game that plays politics: ``nation`` is neutral, so its units stay on its own
    soil, need no supply line and exert no ZOC until it enters the war (docs/rulings-eto.md, the
    1939 campaign).  Always false in the slice scenarios, whose sides are all at war."""
    return on(state.game) and neutral(state, nation)


def at_war(state: State, a: str, b: str) -> bool:
    """Two nations at war: their partnerships face each other on an open front, or a war was
    opened between the two alone (43.2-43.6)."""
    ws = war_state(state)
    if _pair(a, b) in ws["wars"]:
        return True
    pa, pb = ws["members"].get(a), ws["members"].get(b)
    return pa is not None and pb is not None and pa != pb and _pair(pa, pb) in ws["fronts"]


def front_open(state: State, pa: str, pb: str) -> bool:
    return _pair(pa, pb) in war_state(state)["fronts"]


def natural_partnership(state: State, nation: str) -> str:
    """A major's own partnership (42.1-42.3: Italy is Axis, the US Western Allied)."""
    return nations(state).get(nation, {}).get("partnership") or "western"


def enemy_partnership(partnership_: str) -> str:
    """39.3: the invaded joins the invader's enemy: Allied invaders make German minor partners,
    Axis invaders Western Allies partners (the Soviet exceptions are invasion.py's)."""
    return "western" if partnership_ == "axis" else "axis"


def join(state: State, nation: str, partnership_: str) -> None:
    """ETO-39.3, 41.1: a nation enters the war in ``partnership_``; its territory (home country
    and colonies) becomes friendly to its side at once."""
    ws = writable(state)
    ws["members"][nation] = partnership_
    side = table(state)["partnerships"][partnership_]
    mask = territory(state, nation) & (ctl.control(state) == ctl.NEUTRAL)
    ctl.control(state)[mask] = ctl.SIDE_CODE[side]


def open_front(state: State, pa: str, pb: str) -> None:
    """Open the war between partnerships ``pa`` (the invader's) and ``pb``."""
    ws = writable(state)
    key = _pair(pa, pb)
    if pa != pb and key not in ws["fronts"]:
        ws["fronts"] = sorted([*ws["fronts"], key])
        if key == _pair("axis", "soviet"):
            ws.setdefault("axis_soviet_war_began", state.turn_label)  # 35.1's -2, and its "before spring 1941"
            ws.setdefault("axis_soviet_war_by", pa)  # 36.5: no lend lease if the USSR began it
            key = state.ruleset.tables["costs"]["free"]["soviet_war_track"]  # 36.3, 43.9, 45.2 read the month
            if not state.tracks.get(key) and not state.turn_label[5:].isalpha():
                state.tracks[key] = state.turn_label
        for hook in FRONT_HOOKS:  # 43.6: the USSR's unconquered victims join Germany
            hook(state, pa, pb)


#: ``f(state, pa, pb)`` run when a front opens between partnerships ``pa`` and ``pb``.
FRONT_HOOKS: list = []


def record(state: State, **entry: str) -> None:
    """Keep an invasion in the war's history (35.1 asks what happened before spring 1941)."""
    ws = writable(state)
    ws["history"] = [*ws.get("history", []), {"turn": state.turn_label, **entry}]


def open_war(state: State, a: str, b: str) -> None:
    ws = writable(state)
    key = _pair(a, b)
    if key not in ws["wars"]:
        ws["wars"] = sorted([*ws["wars"], key])


def mark_axis_invasion(state: State) -> None:
    """39.4 counts only the Axis's *first* invasion of a neutral."""
    writable(state)["axis_invaded"] = True


def countries(state: State, nation: str) -> list[str]:
    """A nation's map countries: home country and colonies (39.1: "The invasion of a colony is
    considered the same as an invasion of a home country")."""
    row = nations(state).get(nation, {})
    home = list(row.get("countries", []))

    def compute() -> list[str]:
        hexes = state.map.hexes
        if "colony_of" not in hexes.columns or not row.get("name"):
            return []
        col = hexes.filter(hexes["colony_of"] == row["name"])["country"].unique().to_list()
        return sorted(c for c in col if c)

    return home + state.game.cached(("eto.colonies", nation), compute)


def territory(state: State, nation: str) -> np.ndarray:
    """Land hexes of a nation's home country and colonies, and the scenario's control regions it
    holds as home (``home``: the USSR's 1939-40 annexations); a nation made in play (Vichy France,
    40.4) has its zone in ``state.arrays["zone.<nation>"]``."""
    zone = state.arrays.get(f"zone.{nation}")
    if zone is not None:
        return zone.astype(bool)
    ta = terrain_arrays(state)
    # with the scenario's regions held as home (the USSR's 1939-40 annexations, 43.2-43.5)
    return np.isin(ta.country, countries(state, nation)) & ta.land | ctl.home_mask(state, nation)


def nation_of_country(state: State, country: str) -> str | None:
    """The nation whose home country or colony ``country`` is (``None`` for countries no nation
    row names, e.g. Persia)."""
    for code in nations(state):
        if country in countries(state, code):
            return code
    return None


def neutral_nation_at(state: State, label: str) -> str | None:
    """The neutral nation owning hex ``label``, if any (39.1's neutral border)."""
    if not state.map.has_hex(label):
        return None
    country = terrain_arrays(state).country[state.map.index(label)]
    n = nation_of_country(state, country) if country else None
    return n if n is not None and neutral(state, n) else None


def summary(state: State) -> list[dict[str, Any]]:
    """One row per nation of the units table: its partnership or 'neutral', and whom it is at
    war with (the planner's and the notebooks' table)."""
    rows = []
    codes = sorted(nations(state))
    for n in codes:
        rows.append({"nation": n, "name": nations(state)[n].get("name", n),
                     "partnership": partnership(state, n) or "neutral",
                     "at_war_with": ", ".join(m for m in codes if m != n and at_war(state, n, m))})
    return rows
