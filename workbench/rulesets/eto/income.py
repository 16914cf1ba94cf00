"""Seasonal income (ETO-36.0-36.3; Soviet pre-war conquests 43.5).

Step 1, EP collection (36.1): each major at war collects its base income
(``tables/income.toml``; Italy 30 at war; the USSR 80 from the seasonal turn
after the Axis invasion and +20 every winter seasonal turn at war, 36.3), plus
2 EPs per resource hex (city resource hexes included) it holds in a colony,
a minor partner, or captured from an enemy, if not in enemy ZOC and tracing a
supply line home (minor partners pay even without one).  The Axis gets only 1
for a captured hex inside the USSR's original borders, 2 for one in the Soviet
pre-war conquests; the USSR gets 2 for each in its pre-war conquests.  Home
resource hexes are in the base already.

Step 2, EP losses (36.2): -3 per home resource hex the enemy controls (USSR -1).

The track may be negative (strategic warfare): the income is added to it
(36.1: 132 with -20 gives 112).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.rulesets.eto import supply, values
from workbench.rulesets.eto.control import SIDE_CODE, control, home_mask, region_masks
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.zoc import zoc


def majors(state: State) -> list[tuple[str, str]]:
    out = []
    for side, nations in state.game.scenario.sides.items():
        out += [(n, side) for n in nations if values.nation_kind(state, n) == "major"]
    return out


def season(state: State) -> str:
    return state.turn_label[5:]


def base_income(state: State, nation: str) -> int:
    """ETO-36.1, 36.3: this season's base income, updating the Soviet track."""
    table = state.ruleset.tables["income"]["base"].get(nation, {})
    key = f"{nation}.income_base"
    base = int(state.tracks.get(key, table.get("eps", 0)))
    if nation == "SU" and supply.special(state, "soviet_income_invaded"):
        if base < int(table.get("after_axis_invasion", 80)):
            base = int(table.get("after_axis_invasion", 80))
        if season(state) == "winter":
            base += int(table.get("winter_increase", 20))
    state.tracks[key] = base
    return base


def prewar_mask(state: State) -> np.ndarray:
    ta = terrain_arrays(state)
    row = state.ruleset.tables["units"]["nations"].get("SU", {})
    mask = np.isin(ta.country, row.get("prewar_countries", []))
    for reg, m in region_masks(state):
        if reg.get("home") == "SU":
            mask = mask | m
    return mask


def resource_income(state: State, nation: str, side: str) -> tuple[int, list[str]]:
    """ETO-36.1: EPs for non-home resource hexes; returns (EPs, notes)."""
    hm = state.map
    ta = terrain_arrays(state)
    ctrl = control(state)
    res = np.flatnonzero((ta.resource | ta.city_resource) & (ctrl == SIDE_CODE[side]))
    table = state.ruleset.tables["income"]["resource_hexes"]
    home = home_mask(state, nation, original=True)
    ez = zoc(state, values.other(side))
    reach = supply.reach(state, nation, side)
    partners = [n for n in state.game.scenario.sides[side]
                if values.nation_kind(state, n) == "minor" and values.major_of(state, n) == nation]
    partner_home = np.zeros(hm.size, dtype=bool)
    for p in partners:
        partner_home |= home_mask(state, p, original=True)
    other_homes = np.zeros(hm.size, dtype=bool)
    for n, s in majors(state):
        if s == side and n != nation:
            other_homes |= home_mask(state, n, original=True)
    su_orig = home_mask(state, "SU", original=True) if "SU" in state.ruleset.tables["units"]["nations"] else None
    prewar = prewar_mask(state)
    total, notes = 0, []
    for i in res:
        if home[i] or other_homes[i]:
            continue
        if partner_home[i]:
            total += int(table["minor_partner"])
            notes.append(f"{hm.label(int(i))} minor partner +{table['minor_partner']}")
            continue
        if ez[i] or reach[i] < 0:
            continue
        if side == "axis" and su_orig is not None and su_orig[i]:
            v = int(table["captured_soviet_original_by_axis"])
        elif side == "axis" and prewar[i]:
            v = int(table["soviet_prewar_conquest_captured_by_axis"])
        elif nation == "SU" and prewar[i]:
            v = int(table["soviet_prewar_conquest_to_su"])
        else:
            v = int(table["captured"])
        total += v
        notes.append(f"{hm.label(int(i))} +{v}")
    return total, notes


def debits(state: State, nation: str, side: str) -> int:
    """ETO-36.2: home resource hexes held by the enemy."""
    ta = terrain_arrays(state)
    table = state.ruleset.tables["income"]["resource_hexes"]
    per = int(table["home_hex_enemy_controlled_su"] if nation == "SU" else table["home_hex_enemy_controlled"])
    enemy = SIDE_CODE[values.other(side)]
    n = int((home_mask(state, nation, original=True) & (ta.resource | ta.city_resource) & (control(state) == enemy)).sum())
    return n * per


def collection(state: State, step: Any) -> None:
    """Income phase Step 1 (ETO-36.1)."""
    for nation, side in majors(state):
        if nation == "US":
            continue
        base = base_income(state, nation)
        extra, notes = resource_income(state, nation, side)
        state.tracks[f"{nation}.income_pending"] = base + extra
        state.emit("income", side=side, rule="ETO-36.1",
                   text=f"{nation} income {base} base + {extra} resource hexes", nation=nation, base=base,
                   resources=extra, notes=notes)


def losses(state: State, step: Any) -> None:
    """Income phase Step 2 (ETO-36.2), then the track is marked (36.1)."""
    for nation, side in majors(state):
        if f"{nation}.income_pending" not in state.tracks:
            continue
        debit = debits(state, nation, side)
        income = int(state.tracks.pop(f"{nation}.income_pending")) + debit
        before = int(state.tracks.get(f"{nation}.eps", 0))
        state.tracks[f"{nation}.eps"] = before + income
        state.emit("income", side=side, rule="ETO-36.2",
                   text=f"{nation}: {debit} for home resource hexes held by the enemy; track {before} → "
                        f"{before + income}", nation=nation, debit=debit, track=before + income)
