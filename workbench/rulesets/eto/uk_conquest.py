"""The conquest of the United Kingdom (ETO-40.7).

Conquered, the UK hands its ships, STPs, the units in the Canada box or aboard ships in the North
Atlantic and the 8 E.F. HQ to the United States; its other land units are eliminated; each of its
air units with a range of 12 or more escapes to the Canada box on a 4-6; its force pool and Suez
Adds are gone but for one armor and one infantry unit (the Canadians); it keeps 15 EPs of income
a season.  Every convoy route but the US coast closes (the US coast opens at once); a US still at
peace enters the war at the next seasonal turn.  :func:`conquest.conquer` calls this for the UK.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, naval_units, politics, sea_transport, values
from workbench.rulesets.eto.terrain import terrain_arrays

RULE = "ETO-40.7"


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["uk_conquest"]


def applies(state: State, nation: str) -> bool:
    return nation == _t(state)["nation"]


def income(state: State, nation: str) -> int | None:
    """40.7: a conquered UK's 15 EPs a season (None for any other nation)."""
    if applies(state, nation) and nation in politics.war_state(state).get("conquered", {}):
        return int(_t(state)["income"])
    return None


def winter_additions(state: State, adds: dict[str, Any]) -> dict[str, Any]:
    """40.7: "During each subsequent winter seasonal turn, the UK player can add one armor and one
    infantry unit to the force pool" -- instead of the year's British additions."""
    t = _t(state)
    uk = t["nation"]
    if uk not in politics.war_state(state).get("conquered", {}):
        return adds
    return {**adds, uk: dict(t["winter_additions"])}


def kept(state: State) -> np.ndarray:
    """The UK and the colonies 40.7 names (Egypt, Palestine, Transjordan, Iraq): what the conqueror
    takes (40.1); the rest of the Empire's hexes become American."""
    t = _t(state)
    ta = terrain_arrays(state)
    return np.isin(ta.country, [*politics.nations(state)[t["nation"]].get("countries", []), *t["colonies_kept"]])


def hexes_abroad(state: State) -> None:
    """40.7: "Any friendly hexes and installations outside of the United Kingdom and its colonies
    (Egypt, Palestine, Transjordan, and Iraq) become US territory (including Malta and
    Gibraltar)": the US holds them (their income and their holder, ruling P22)."""
    from workbench.rulesets.eto import control as ctl
    from workbench.rulesets.eto import holders

    t = _t(state)
    ta = terrain_arrays(state)
    keep = kept(state)
    allied = ctl.control(state) == ctl.SIDE_CODE["allies"]
    theirs = (holders.holders(state) == holders.code(state, t["nation"])) | np.isin(ta.country, t["abroad_always"])
    holders.assign(state, theirs & allied & ~keep & ta.land, t["heir"])


def _to_heir(state: State, u: Unit, heir: str) -> None:
    u.props.setdefault("captured_from", u.nation)
    u.nation = heir
    u.props.pop("pool_of", None)


def conquer(state: State, conqueror: str) -> list[str]:
    """40.7's transfers and losses; returns the ids that left play."""
    t = _t(state)
    uk, heir = t["nation"], t["heir"]
    gone: list[str] = []
    keep = dict(t["pool_keeps"])
    heirs, to_canada = [], []
    for u in sorted(list(state.units_by_id.values()), key=lambda u: u.id):
        if u.nation != uk:
            continue
        where = sea_transport.space_of(state, u) if sea_transport.is_aboard(u) else u.location
        if naval_units.is_naval(state, u) or u.location == t["canada_box"] or where == t["north_atlantic"] \
                or u.props.get("name") in t["heir_hqs"]:
            _to_heir(state, u, heir)
            heirs.append(u.id)
            continue
        if u.location in t["pool_boxes"] or (u.location or "").startswith(tuple(t["pool_boxes"])):
            cls = values.unit_class(state, u)
            if keep.get(cls, 0) > 0:
                keep[cls] -= 1
                continue
            gone.append(u.id)
            del state.units_by_id[u.id]
            continue
        if values.is_air_counter(state, u) and air_units.air_range(state, u) >= int(t["air_range_at_least"]):
            (die,) = state.roll(1, purpose=f"{u.id} escapes the fall of Britain: 4-6 to the Canada box", rule=RULE,
                                side="allies")
            if die in t["air_to_canada_on"]:
                u.location = t["canada_box"]
                u.props.pop("base", None)
                to_canada.append(u.id)
                continue
        gone.append(u.id)
        del state.units_by_id[u.id]
    hexes_abroad(state)
    state.tracks["convoy.arctic.open"] = 0  # "All convoy routes except the US coast are automatically closed"
    if politics.neutral(state, heir):
        state.tracks["convoy.us_coast.opened_early"] = 1  # "the US coast automatically opens"
        politics.writable(state)["us_entry_at"] = _next_season(state.turn_label)
    state.emit("uk_conquered", side="allies", rule=RULE, heirs=heirs, canada=to_canada,
               text=f"The United Kingdom falls to {conqueror}: {len(heirs)} units become American, "
                    f"{len(to_canada)} air units reach Canada, {len(gone)} are lost; the UK keeps "
                    f"{t['income']} EPs a season")
    return gone


_SEASONS = ("winter", "spring", "summer", "autumn")


def _next_season(label: str) -> str:
    """The seasonal turn after ``label`` (a month or a season)."""
    from workbench.rulesets.eto.values import month_key

    y = int(label[:4])
    k = month_key(label)
    for year in (y, y + 1):
        for s in _SEASONS:
            cand = f"{year}-{s}"
            if month_key(cand) > k:
                return cand
    return f"{y + 1}-winter"
