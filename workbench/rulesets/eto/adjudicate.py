"""ETO rules arithmetic as pure functions, for notebooks, tests and the rules modules.

Each function takes explicit numbers, cites its rule and reads its numbers
from the ruleset's tables (``tables/*.toml``), so a designer's override
changes the answer without touching code.  Pass ``tables=`` to use a game's
overridden tables; the default is the shipped tables.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from workbench.engine.tables import TableSource

TABLES_DIR = Path(__file__).parent / "tables"

#: Weather spellings accepted for a hex condition: the month letters and the condition names.
_COND = {"F": "fair", "M": "mud", "W": "winter", "fair": "fair", "mud": "mud", "winter": "winter"}


_table = TableSource(TABLES_DIR)
_shipped = _table.shipped


# -- 26.1 odds -------------------------------------------------------------------------
def columns(tables: dict[str, Any] | None = None) -> list[str]:
    """The CRT columns, weakest first: 1:3 ... 6:1 (ETO-26.1)."""
    return list(_table("crt", tables)["odds"]["columns"])


def odds_column(attack_sp: int, defense_sp: int, *, tables: dict[str, Any] | None = None) -> str:
    """ETO-26.1 C: attack ÷ defence rounded in the defender's favour; worse than 1:3 is 1:3,
    better than 6:1 is 6:1, and 5:1 is read as 4:1.  ``odds_column(10, 4) == "2:1"``."""
    odds = _table("crt", tables)["odds"]
    cols = odds["columns"]
    a, d = int(attack_sp), int(defense_sp)
    if a <= 0:
        return odds["worst_column"]
    if d <= 0:
        return odds["best_column"]
    if a >= d:
        n = a // d
        label = f"{n}:1"
        label = odds.get("remap", {}).get(label, label)
        if label in cols:
            return label
        best = odds["best_column"]
        return best if n >= int(best.split(":")[0]) else cols[cols.index("1:1")]
    n = math.ceil(d / a)
    label = f"1:{n}"
    if label in cols:
        return label
    return odds["worst_column"]


# -- 26.2 strengths ---------------------------------------------------------------------
def capped(base: int, additions: int) -> int:
    """ETO-26.2 NOTE: additions (bombers, generals, naval bombardment) never exceed the
    basic strength: the final total is at most twice the base."""
    return int(base) + min(max(int(additions), 0), max(int(base), 0))


def naval_bombardment_sp(gunnery: int) -> int:
    """ETO-26.2: 1 SP for every 4 gunnery points in the naval stack, fractions dropped."""
    return max(int(gunnery), 0) // 4


def attack_strength(land_sp: int, *, bomber_sp: int = 0, general: int = 0, naval_gunnery: int = 0,
                    tables: dict[str, Any] | None = None) -> int:
    """ETO-26.1 A, 26.2: land SP plus bombers, a general's combat rating and naval bombardment
    (gunnery ÷ 4, rounded down), the additions never more than doubling the land SP."""
    return capped(land_sp, int(bomber_sp) + int(general) + naval_bombardment_sp(naval_gunnery))


def defending_bomber_sp(bombers: int, *, tables: dict[str, Any] | None = None) -> int:
    """ETO-17.3: "Each unaborted bomber unit friendly to the defending player adds 1 point to the
    defense, to a maximum of 2 additional strength points" (``air.toml [ground_support]``)."""
    gs = _table("air", tables)["ground_support"]
    return min(max(int(bombers), 0) * int(gs["defending_bomber_sp"]), int(gs["defending_bomber_max"]))


def defense_strength(land_sp: int, *, fort: str | None = None, all_across_fortress_hexsides: bool = False,
                     defending_bombers: int = 0, general: int = 0, naval_gunnery: int = 0,
                     tables: dict[str, Any] | None = None) -> int:
    """ETO-26.1 B, 26.2: the basic strength is the land SP, doubled by a permanent fortification
    when every attacker attacks across fortress hexsides, or +2 for a fortification marker; an
    unoccupied fort defends with 2.  Bombers, a general and naval bombardment are then added,
    never more than doubling the basic strength.  ``fort``: None, "permanent" or "marker";
    ``defending_bombers``: the number of unaborted defending bombers over the hex (17.3: 1 SP
    each, at most 2)."""
    terrain = _table("terrain", tables)
    base = int(land_sp)
    if fort == "permanent":
        fs = terrain["hexside"]["fortress"]
        if all_across_fortress_hexsides:
            base = base * int(fs["defender_strength_multiplier"]) if base > 0 else int(fs["unoccupied_strength"])
    elif fort == "marker":
        fm = terrain["features"]["fortification_marker"]
        base = base + int(fm["defender_strength_bonus"]) if base > 0 else int(fm["unoccupied_strength"])
    elif fort is not None:
        raise ValueError(f"ETO-26.2: fort must be None, 'permanent' or 'marker', not {fort!r}")
    bombers = defending_bomber_sp(defending_bombers, tables=tables)
    return capped(base, bombers + int(general) + naval_bombardment_sp(naval_gunnery))


def coastal_intrinsic_strength(zoc_sp: list[int] | None = None, *, fort_marker: bool = False,
                               tables: dict[str, Any] | None = None) -> int:
    """ETO-26.2: an empty coastal hex attacked by amphibious assault defends with 1, or half the
    SP of the enemy units exerting ZOC into it (rounded up); +2 for a fort or coastal fort marker."""
    flags = _table("terrain", tables)["hex_flags"]["coastal"]
    base = math.ceil(sum(zoc_sp) / 2) if zoc_sp else int(flags["intrinsic_defence_alone"])
    return base + (int(flags["intrinsic_fort_bonus"]) if fort_marker else 0)


# -- 26.4 die-roll modifiers -------------------------------------------------------------
def _drm(tables: dict[str, Any] | None, drm_id: str) -> int:
    for d in _table("crt", tables)["drm"]:
        if d["id"] == drm_id:
            return int(d["value"])
    raise KeyError(f"ETO-26.4: no DRM {drm_id!r} in crt.toml")


def combat_drm_terms(*, air_superiority: str | None = None, defender_weather: str = "F",
                     paratroop: bool = False, blitzkrieg: bool = False, attacker_unsupplied: bool = False,
                     defender_unsupplied: bool = False, all_across_river: bool = False,
                     river_frozen: bool = False, defender_rough: bool = False, amphibious_half: bool = False,
                     soviet_winter: str | None = None,
                     tables: dict[str, Any] | None = None) -> list[tuple[int, str, str]]:
    """Every applicable DRM as ``(value, why, rule)`` (ETO-26.4, cumulative).  This is the one
    pipeline: air superiority, paratroops and amphibious assault enter here beside the land ones.
    ``soviet_winter``: None, "soviet_attack" (+1) or "axis_attack" (-1) under ETO-43.4."""
    out: list[tuple[int, str, str]] = []
    if air_superiority == "attacker":
        out.append((_drm(tables, "air_superiority_attacker"), "attacker air superiority", "ETO-17.2"))
    elif air_superiority == "defender":
        out.append((_drm(tables, "air_superiority_defender"), "defender air superiority", "ETO-17.2"))
    elif air_superiority not in (None, "contested"):
        raise ValueError(f"ETO-17.2: air_superiority must be None, attacker, defender or contested, "
                         f"not {air_superiority!r}")
    cond = _COND.get(defender_weather)
    if cond is None:
        raise ValueError(f"ETO-1.0: unknown weather {defender_weather!r}")
    if cond == "mud":
        out.append((_drm(tables, "mud_in_defender_hex"), "mud in the defender's hex", "ETO-1.2"))
    if paratroop:
        out.append((_drm(tables, "paratroop_dropped"), "paratroop dropped", "ETO-19.3"))
    if blitzkrieg:
        out.append((_drm(tables, "blitzkrieg"), "blitzkrieg bonus", "ETO-44.2"))
    if defender_unsupplied:
        out.append((_drm(tables, "defender_out_of_supply"), "defender out of supply", "ETO-33.2"))
    if attacker_unsupplied:
        out.append((_drm(tables, "attacker_out_of_supply"), "attacker out of supply", "ETO-33.2"))
    if all_across_river:
        if river_frozen:
            out.append((_drm(tables, "river_frozen"), "all attack across a frozen river", "ETO-1.5"))
        else:
            out.append((_drm(tables, "river"), "all attack across a river", "ETO-26.4"))
    if defender_rough:
        out.append((_drm(tables, "rough"), "defender in rough terrain", "ETO-26.4"))
    if amphibious_half:
        out.append((_drm(tables, "amphibious_vs_coastal"), "amphibious assault", "ETO-26.4"))
    if soviet_winter == "soviet_attack":
        out.append((_drm(tables, "soviet_winter_attack"), "Soviet winter proficiency", "ETO-43.4"))
    elif soviet_winter == "axis_attack":
        out.append((_drm(tables, "soviet_winter_defence"), "Soviet winter proficiency", "ETO-43.4"))
    return out


def combat_drm(*, air_superiority: str | None = None, defender_weather: str = "F", paratroop: bool = False,
               blitzkrieg: bool = False, attacker_unsupplied: bool = False, defender_unsupplied: bool = False,
               all_across_river: bool = False, river_frozen: bool = False, defender_rough: bool = False,
               amphibious_half: bool = False) -> int:
    """ETO-26.4: the sum of every applicable die modifier (air ±1, mud -1, paratroop +1,
    blitzkrieg +1, defender OOS +1, attacker OOS -2, river -2 or frozen -1, rough -1,
    amphibious -3)."""
    return sum(v for v, _, _ in combat_drm_terms(
        air_superiority=air_superiority, defender_weather=defender_weather, paratroop=paratroop,
        blitzkrieg=blitzkrieg, attacker_unsupplied=attacker_unsupplied,
        defender_unsupplied=defender_unsupplied, all_across_river=all_across_river,
        river_frozen=river_frozen, defender_rough=defender_rough, amphibious_half=amphibious_half))


# -- the CRT ------------------------------------------------------------------------------
def crt_row(modified: int, *, tables: dict[str, Any] | None = None) -> dict[str, Any]:
    """The CRT row for a modified die, clamped onto the end rows (GAP-05, crt.toml [roll])."""
    t = _table("crt", tables)
    m = min(max(int(modified), int(t["roll"]["row_floor"])), int(t["roll"]["row_ceiling"]))
    for row in t["rows"]:
        if row.get("min", -10**6) <= m <= row.get("max", 10**6):
            return row
    raise ValueError(f"ETO-26.1: no CRT row for {modified}")


def crt(column: str, modified: int, *, tables: dict[str, Any] | None = None) -> str:
    """ETO-26.1 D: the result for an odds column and a modified 1d6."""
    return crt_row(modified, tables=tables)["results"][columns(tables).index(column)]


def result_code(code: str, *, tables: dict[str, Any] | None = None) -> dict[str, Any]:
    """The meaning of a result code as data (ETO-27.1, crt.toml [codes])."""
    return _table("crt", tables)["codes"][code]


def against_fortification(code: str, *, tables: dict[str, Any] | None = None) -> str:
    """ETO-27.1: (D2) against any fortification is read as x."""
    return result_code(code, tables=tables).get("vs_fortification", code)


# -- 24.2 stacking ------------------------------------------------------------------------
def stacking_limit(city_resource_hex: bool, all_soviet: bool, *, tables: dict[str, Any] | None = None) -> int:
    """ETO-24.2: 3 land units in a city resource hex, 2 elsewhere; +1 for an all-Soviet stack."""
    lim = _table("stacking", tables)["limits"]
    n = int(lim["city_resource"] if city_resource_hex else lim["other_land"])
    return n + (int(lim["all_soviet_bonus"]) if all_soviet else 0)


# -- 24.0 / 1.2 / 1.3 / 33.1 movement allowance -------------------------------------------
def movement_allowance(printed_ma: int, unit_type: str, weather: str, in_supply: bool, *,
                       tables: dict[str, Any] | None = None) -> int:
    """ETO-24.0, 1.2-1.3, 33.1: the printed MA, halved (rounded up) for infantry and armor in mud
    or winter (paratroops move as infantry, 30.1); out of supply, infantry and paratroops have at
    most 2 (1 in mud or winter) and armor at most 1.  ``weather`` is the condition: F/M/W or
    fair/mud/winter.  ``unit_type``: infantry, armor or paratroop."""
    cond = _COND.get(weather)
    if cond is None:
        raise ValueError(f"ETO-1.0: unknown weather {weather!r}")
    if unit_type not in ("infantry", "armor", "paratroop"):
        raise ValueError(f"ETO-24.0: unit_type must be infantry, armor or paratroop, not {unit_type!r}")
    ma = int(printed_ma)
    eff = _table("weather", tables)["effects"][cond]
    bad = cond != "fair"
    if bad and ("infantry" if unit_type == "paratroop" else unit_type) in eff.get("ma_halved", []):
        ma = math.ceil(ma / 2)
    if not in_supply:
        classes = _table("units", tables)["classes"]
        if unit_type == "armor":
            ma = min(ma, int(classes["armor"]["oos_ma"]))
        else:
            cap = int(eff.get("oos_infantry_ma", 1)) if bad else int(classes["infantry"]["oos_ma"])
            ma = min(ma, cap)
    return ma


# -- 23.4 / 23.6 HQs --------------------------------------------------------------------------
def hq_interval_ok(radius_a: int, radius_b: int, distance: int, sea_between: bool = False) -> bool:
    """ETO-23.4: two friendly HQs may never be closer than the larger of their command radii,
    unless at least one all-sea hex or hexside separates them (radii 2 and 5: at least 5 apart)."""
    return bool(sea_between) or int(distance) >= max(int(radius_a), int(radius_b))


def combined_offensive_eps(hqs: int, nation: str, w_weather: bool, *, tables: dict[str, Any] | None = None) -> int:
    """ETO-23.6, 1.3: EPs for a combined offensive: per activated HQ beyond the first, 2 EPs
    (4 in a W-weather turn, except the Soviet Union: always 2).  Three HQs cost 4 EPs."""
    off = _table("costs", tables)["offensives"]
    per = off["combined_extra_hq_w_turn" if w_weather else "combined_extra_hq"].get(nation, 2)
    return max(int(hqs) - 1, 0) * int(per)


def offensive_cost(nation: str, *, winter_seasonal: bool = False, tables: dict[str, Any] | None = None) -> int:
    """ETO-38.3: 2 EPs (GE, IT, SU) or 3 (FR, UK, US); doubled in the winter seasonal turn except SU."""
    off = _table("costs", tables)["offensives"]
    return int(off["cost_winter_seasonal" if winter_seasonal else "cost"][nation])


def impromptu_cost(nation: str, w_weather: bool, *, tables: dict[str, Any] | None = None) -> int:
    """ETO-22.6, 1.3: twice the offensive cost; in a W turn twice the winter-seasonal cost."""
    off = _table("costs", tables)["offensives"]
    return int(off["impromptu_w_turn" if w_weather else "impromptu"][nation])


# -- 27.5 generals --------------------------------------------------------------------------
def general_fate(die: int, zhukov: bool = False, *, tables: dict[str, Any] | None = None) -> str:
    """ETO-27.5, 43.7: a general whose whole stack is eliminated is permanently eliminated on a
    1-2 (Zhukov: only on a 1), otherwise he goes to the force pool."""
    if not 1 <= int(die) <= 6:
        raise ValueError(f"ETO-27.5: one die, 1-6, not {die}")
    worst = 1 if zhukov else 2
    return "eliminated" if int(die) <= worst else "force_pool"


# -- 36 income ---------------------------------------------------------------------------------
def net_income(income: int, track: int) -> int:
    """ETO-36.1: a negative track is subtracted from the income (132 with -20 → 112)."""
    return int(track) + int(income)


def rebuild_cost(full_cost: int) -> int:
    """ETO-37.3: rebuilding a depleted unit costs half its build cost (rounded up, authored)."""
    return math.ceil(int(full_cost) / 2)
