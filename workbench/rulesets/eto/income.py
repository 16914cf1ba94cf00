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
from workbench.rulesets.eto import (
    alternative_endings,
    convoy_routes,
    politics,
    supply,
    uk_conquest,
    values,
)
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


def soviet_war_began_before(state: State) -> bool:
    """The USSR-Axis war began before this turn: the track costs.toml [free].soviet_war_track
    (``war.SU-GE``, the month it began) lies before this seasonal turn's first month; a
    scenario with the ``soviet_income_invaded`` rule but no such track is at war from the start."""
    from workbench.rulesets.eto.construction import season_start_month

    key = state.ruleset.tables["costs"]["free"]["soviet_war_track"]
    began = str(state.tracks.get(key, "") or "")
    if not began:
        return supply.special(state, "soviet_income_invaded")
    return began < season_start_month(state.turn_label)


def base_income(state: State, nation: str) -> int:
    """ETO-36.1, 36.3: this season's base income, updating the Soviet track: invaded by the Axis,
    the USSR's 45 "jumps to 80 EPs on the following seasonal turn" and rises by 20 "every winter
    seasonal turn after the USSR is at war with the Axis" (once per winter turn, however often
    this is asked)."""
    table = state.ruleset.tables["income"]["base"].get(nation, {})
    key = f"{nation}.income_base"
    base = int(state.tracks.get(key, table.get("eps", 0)))
    if alternative_endings.frozen(state, nation):
        return base  # 47.5, 47.6: "incomes remain at their 1945 levels"
    invaded = supply.special(state, "soviet_income_invaded") or \
        politics.war_state(state).get("axis_soviet_war_by") == "axis"  # 36.3: "invaded ... by an Axis country"
    if nation == "SU" and not politics.front_open(state, "axis", "soviet") and "neutral_at_winter_1942" in table:
        from workbench.rulesets.eto.values import month_key

        if month_key(state.turn_label) >= month_key("1942-winter"):  # "still neutral during the winter 1942"
            base = max(base, int(table["neutral_at_winter_1942"]))
    if nation == "SU" and invaded and soviet_war_began_before(state):
        if base < int(table.get("after_axis_invasion", 80)):
            base = int(table.get("after_axis_invasion", 80))
        if season(state) == "winter" and state.tracks.get("SU.income_raised") != state.turn_label:
            base += int(table.get("winter_increase", 20))
            state.tracks["SU.income_raised"] = state.turn_label
    state.tracks[key] = base
    return base


def us_base_income(state: State) -> int:
    """ETO-36.1, 36.3, 40.7: the US year track from the winter 1942 seasonal turn; before it
    nothing, or 50 a season while at war after the UK's conquest (E21)."""
    from workbench.rulesets.eto.values import month_key

    base = state.ruleset.tables["income"]["base"]["US"]
    if month_key(state.turn_label) < month_key(base["first_income"]):
        ws = politics.war_state(state)
        if "UK" in ws.get("conquered", {}) and not politics.neutral(state, "US"):
            return int(base["at_war_before_1942"])
        return 0
    track = base.get("year_track", {})
    year = alternative_endings.frozen_year(state) if alternative_endings.frozen(state, "US") else state.turn_label[:4]
    row = track.get(year) or track[max(track)]  # 47.5, 47.6: held at the 1945 level
    return int(row["eps"] if isinstance(row, dict) else row)


def uk_receipts(state: State) -> int:
    """ETO-36.6 (E4): the UK's lend lease in each 1941 seasonal turn with the North Atlantic open:
    15, raised to 20 in summer and 25 in autumn while the USSR and Germany are not at war."""
    t = state.ruleset.tables["income"]["lend_lease"]
    y, _, season = state.turn_label.partition("-")
    if y != "1941" or season not in t["uk_receipts_1941"] \
            or convoy_routes.closed_now(state, "north_atlantic") is not None:
        return 0
    raised = t["uk_receipts_1941_if_no_su_ge_war"]
    if not politics.front_open(state, "axis", "soviet") and season in raised:
        return int(raised[season])
    return int(t["uk_receipts_1941"][season])


def prewar_mask(state: State) -> np.ndarray:
    """ETO-43.5: the Soviet pre-war conquests (2 EPs a resource hex to the USSR, 2 to an Axis captor)."""
    ta = terrain_arrays(state)
    row = state.ruleset.tables["units"]["nations"].get("SU", {})
    mask = np.isin(ta.country, row.get("prewar_countries", []))
    for reg, m in region_masks(state):
        if reg.get("home") == "SU":
            mask = mask | m
    if "politics" in state.markers:  # 43.2 conquests made in play
        from workbench.rulesets.eto.prewar_conquests import home

        mask = mask | home(state)
    return mask


def resource_owner(state: State, side: str) -> tuple[np.ndarray, np.ndarray]:
    """ETO-36.1: for each hex, the index (into the side's major list) of the major its
    non-home resource EPs go to, and whether it pays as a minor partner (no supply line
    needed).  Colonies pay their owner, minor partners their major, captured hexes the
    major named in income.toml [resource_owner] (else the partnership's default)."""
    hm = state.map
    ta = terrain_arrays(state)
    mine = [n for n, s in majors(state) if s == side]
    owner_tab = state.ruleset.tables["income"]["resource_owner"]
    colonies = state.ruleset.tables["income"]["resource_hexes"]["colonies_with_income"]
    default = str(owner_tab["default"].get(side, mine[0] if mine else ""))
    owner = np.full(hm.size, mine.index(default) if default in mine else -1, dtype=np.int64)
    for country, major in owner_tab.get("captured", {}).items():
        if major in mine:
            owner[ta.country == country] = mine.index(major)
    held = state.arrays.get("holder")
    if held is not None:  # politics games: a captured hex pays the major holding it (ruling P22; 40.7's US)
        from workbench.rulesets.eto import holders

        arr = holders.holders(state)
        for major in mine:
            owner[arr == holders.code(state, major)] = mine.index(major)
    partner = np.zeros(hm.size, dtype=bool)
    for country, major in owner_tab.get("partners", {}).items():
        if major in mine:
            m = ta.country == country
            owner[m] = mine.index(major)
            partner |= m
    for n in state.game.scenario.sides[side]:
        if values.nation_kind(state, n) == "minor" and values.major_of(state, n) in mine:
            m = home_mask(state, n, original=True)
            owner[m] = mine.index(values.major_of(state, n))
            partner |= m
    ws = state.markers.get("politics") or {}
    won = ws.get("conquered", {}).get(ws.get("adventure", ""))
    if won in mine:  # 47.1: "if conquered, its EPs go to Italy"
        owner[home_mask(state, ws["adventure"], original=True)] = mine.index(won)
    for major in mine:
        m = np.isin(ta.country, colonies.get(major, []))
        owner[m] = mine.index(major)
        partner &= ~m
    return owner, partner


def resource_income(state: State, nation: str, side: str) -> tuple[int, list[str]]:
    """ETO-36.1: EPs for non-home resource hexes (each pays one major, :func:`resource_owner`);
    returns (EPs, notes).  Colonies and captured hexes count only if not in enemy ZOC and
    tracing a supply line home; minor partners pay even without one."""
    hm = state.map
    ta = terrain_arrays(state)
    ctrl = control(state)
    res = np.flatnonzero((ta.resource | ta.city_resource) & (ctrl == SIDE_CODE[side]))
    table = state.ruleset.tables["income"]["resource_hexes"]
    colonies = np.isin(ta.country, table["colonies_with_income"].get(nation, []))
    mine = [n for n, s in majors(state) if s == side]
    owner, partner = resource_owner(state, side)
    me = mine.index(nation)
    ez = zoc(state, values.other(side))
    reach = supply.reach(state, nation, side)
    homes = np.zeros(hm.size, dtype=bool)
    for n in mine:
        homes |= home_mask(state, n, original=True)
    su_orig = home_mask(state, "SU", original=True) if "SU" in state.ruleset.tables["units"]["nations"] else None
    prewar = prewar_mask(state)
    total, notes = 0, []
    for i in res:
        if homes[i] or owner[i] != me:
            continue
        if partner[i]:
            total += int(table["minor_partner"])
            notes.append(f"{hm.label(int(i))} minor partner +{table['minor_partner']}")
            continue
        if ez[i] or reach[i] < 0:
            continue
        if colonies[i]:
            v = int(table["colony"])
        elif side == "axis" and su_orig is not None and su_orig[i]:
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
    fallen = {**politics.war_state(state).get("conquered", {}), **politics.war_state(state).get("liberated", {})}
    for nation, side in majors(state):
        fixed = uk_conquest.income(state, nation)  # 40.7: a conquered UK keeps 15
        if fixed is not None:
            state.tracks[f"{nation}.income_pending"] = fixed
            state.emit("income", side=side, rule="ETO-40.7", text=f"{nation} income {fixed} (conquered, 40.7)",
                       nation=nation, base=fixed, resources=0, notes=[], activation=0, lend_lease=0)
            continue
        if nation in fallen:  # 40.1, 40.3: no seasonal income, conquered or liberated
            continue
        base = us_base_income(state) if nation == "US" else base_income(state, nation)
        if nation == "US" and base == 0:
            continue  # 36.1: "the US gains no EPs until the winter 1942 seasonal turn"
        extra, notes = resource_income(state, nation, side)
        bonus = int(state.tracks.pop(f"{nation}.activation_bonus", 0))  # 35.0: minors activated this turn
        ll = uk_receipts(state) if nation == "UK" else 0  # 36.6: 1941 lend lease
        state.tracks[f"{nation}.income_pending"] = base + extra + bonus + ll
        state.emit("income", side=side, rule="ETO-36.1",
                   text=f"{nation} income {base} base + {extra} resource hexes"
                        + (f" + {bonus} for activated partners (35.0)" if bonus else "")
                        + (f" + {ll} US lend lease (36.6)" if ll else ""), nation=nation, base=base,
                   resources=extra, notes=notes, activation=bonus, lend_lease=ll)


def losses(state: State, step: Any) -> None:
    """Income phase Step 2 (ETO-36.2), then the track is marked (36.1)."""
    for nation, side in majors(state):
        if f"{nation}.income_pending" not in state.tracks:
            continue
        debit = debits(state, nation, side)
        closure = convoy_routes.debit(state, nation)  # 36.2, 36.4: routes closed last season
        debit -= closure
        income = int(state.tracks.pop(f"{nation}.income_pending")) + debit
        before = int(state.tracks.get(f"{nation}.eps", 0))
        state.tracks[f"{nation}.eps"] = before + income
        state.emit("income", side=side, rule="ETO-36.2",
                   text=f"{nation}: {debit} for home resource hexes held by the enemy; track {before} → "
                        f"{before + income}", nation=nation, debit=debit, track=before + income)
