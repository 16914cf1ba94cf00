"""SS Amerika rules arithmetic as pure functions, for notebooks, tests and the rules modules.

Each function takes explicit numbers (and dice), cites its rule, and reads its
numbers from the ruleset's tables (``tables/*.toml``), so a designer's table
override changes the answer without touching this code.  Pass ``tables=`` to
use a game's overridden tables; the default is the shipped tables.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from workbench.engine.tables import TableSource

TABLES_DIR = Path(__file__).parent / "tables"

_table = TableSource(TABLES_DIR)
_shipped = _table.shipped


def columns(tables: dict[str, Any] | None = None) -> list[str]:
    """The CRT columns, weakest first: ``"1-4"`` ... ``"10-1"`` (SSA-3.2)."""
    return list(_table("crt", tables)["columns"])


def odds_column(attack: float, defense: float, *, tables: dict[str, Any] | None = None) -> str:
    """SSA-11.G: attack ÷ defence with fractions dropped, clamped to the 1-4(-) and 10-1(+) columns.

    ``odds_column(11, 5) == "2-1"``; ``odds_column(5, 11) == "1-2"`` (the literal
    reading of "drop any fractions", docs/rulings-ssa.md; the table option
    ``odds.weaker_attacker_rounding = "ceil_defence_ratio"`` gives ``"1-3"``).
    """
    crt = _table("crt", tables)
    cols = crt["columns"]
    odds = crt.get("odds", {})
    if attack <= 0:
        raise ValueError("SSA-11.G: an attack needs a strength above 0")
    if defense <= 0:
        return odds.get("zero_defence", cols[-1])
    if attack >= defense:
        n = math.floor(Fraction(attack) / Fraction(defense))
        label = f"{n}-1"
        top = int(cols[-1].split("-")[0])
        return label if n <= top else cols[-1]
    ratio = Fraction(defense) / Fraction(attack)
    if odds.get("weaker_attacker_rounding", "floor_defence_ratio") == "ceil_defence_ratio":
        n = math.ceil(ratio)
    else:
        n = math.floor(ratio)
    bottom = int(cols[0].split("-")[1])
    return f"1-{n}" if n <= bottom else cols[0]


def shift(column: str, n: int, *, tables: dict[str, Any] | None = None) -> str:
    """Shift a CRT column ``n`` places; positive moves toward the attacker (10-1), clamped (SSA-11.8)."""
    cols = columns(tables)
    i = cols.index(column) + int(n)
    return cols[min(max(i, 0), len(cols) - 1)]


def crt(column: str, die: int, *, tables: dict[str, Any] | None = None) -> str:
    """The CRT result for a column and a 1d6 roll: AR, EX, DR, DE, DZ, AE or AZ (SSA-11.9)."""
    table = _table("crt", tables)
    if not 1 <= int(die) <= 6:
        raise ValueError(f"SSA-11.G: the CRT is read with one die, 1-6, not {die}")
    return table["rows"][str(int(die))][table["columns"].index(column)]


def _shift_value(v: Any) -> int:
    return 0 if v in ("*", None, "") else int(v)


def terrain_shift(defender_terrains: list[str], all_attackers_across_river: bool, *,
                  tables: dict[str, Any] | None = None) -> int:
    """SSA-11.8 and the TEC: columns toward the defender (negative helps the attacker).

    The hex terrain gives "defender N" columns left or "attacker N" right;
    with several defending hexes the one best for the defender counts.  A
    river adds 2 more (†) only when every attacker attacks across it.
    """
    tec = _table("terrain", tables)
    best = None
    for t in defender_terrains:
        row = tec["terrain"].get(t) or tec.get("features", {}).get(t)
        if row is None:
            raise KeyError(f"SSA-11.8: no terrain {t!r} in the Terrain Effects Chart")
        value = _shift_value(row.get("defender")) - _shift_value(row.get("attacker"))
        best = value if best is None else max(best, value)
    total = best or 0
    if all_attackers_across_river:
        total += _shift_value(tec["hexsides"]["river"]["defender"])
    return total


def movement_cost(terrain: str, mechanized: bool, *, tables: dict[str, Any] | None = None) -> int | None:
    """SSA-5.3 and the TEC: MF to enter a hex of ``terrain``; ``None`` means prohibited."""
    tec = _table("terrain", tables)
    row = tec["terrain"].get(terrain)
    if row is None:
        raise KeyError(f"SSA-5.3: no terrain {terrain!r} in the Terrain Effects Chart")
    v = row["mech" if mechanized else "nonmech"]
    return None if v == "P" else int(v)


def river_cost(mechanized: bool, *, tables: dict[str, Any] | None = None) -> int:
    """TEC: extra MF to cross a river hexside (+2 mechanized, +1 non-mechanized)."""
    return int(_table("terrain", tables)["hexsides"]["river"]["mech" if mechanized else "nonmech"])


def stack_value(units: list[str], *, tables: dict[str, Any] | None = None) -> Fraction:
    """SSA-9.1: division-equivalents of a stack, given unit sizes (corps = division = 1,
    brigade/battlegroup/regiment = 1/3).  Exact, so three regiments are exactly one."""
    values = {k: Fraction(v) for k, v in _table("stacking", tables)["land"]["value"].items()}
    try:
        return sum((values[s] for s in units), Fraction(0))
    except KeyError as exc:
        raise KeyError(f"SSA-9.1: unknown unit size {exc.args[0]!r}") from None


def stack_ok(units: list[str], *, tables: dict[str, Any] | None = None) -> bool:
    """SSA-9.1a: at most 3 division-equivalents of land units in a hex."""
    return stack_value(units, tables=tables) <= stack_limit(tables)


def stack_limit(tables: dict[str, Any] | None = None) -> Fraction:
    """SSA-9.1a: the land stacking limit in division-equivalents."""
    return Fraction(_table("stacking", tables)["land"]["limit_per_hex"])


def ground_support(land_strength: float, bombardment: float) -> float:
    """SSA-12.1: ground support may not exceed the land units' (supply-modified) strength."""
    return float(min(max(bombardment, 0.0), max(land_strength, 0.0)))


def supply_strength(cf: float, in_supply: bool) -> float:
    """SSA-11.5: an out-of-supply land unit fights at half strength, fractions kept (5 → 2.5)."""
    return float(cf) if in_supply else float(cf) / 2


def victory_level(winner_vp: float, loser_vp: float, *, tables: dict[str, Any] | None = None) -> str:
    """SSA-20.5: the ratio winner ÷ loser, truncated to 3 decimals, read on the bands
    1–1.333 draw, 1.334–1.999 marginal, 2–2.999 strategic, 3+ total.
    A loser with 0 VP: total victory if the winner has any, else a draw (docs/rulings-ssa.md)."""
    if winner_vp < loser_vp:
        raise ValueError("SSA-20.5: the winner is the side with more VP")
    levels = _table("victory", tables)["levels"]
    if loser_vp <= 0:
        zero = levels.get("loser_zero", {})
        return zero.get("winner_positive", "total") if winner_vp > 0 else zero.get("both_zero", "draw")
    ratio = Fraction(math.floor(Fraction(winner_vp) / Fraction(loser_vp) * 1000), 1000)
    level = "draw"
    for band in levels["bands"]:
        if ratio >= Fraction(str(band["min"])):
            level = band["level"]
    return level


def outcome_distribution(column: str, *, tables: dict[str, Any] | None = None) -> dict[str, Fraction]:
    """Exact probability of each result on a column: each die face is 1/6 (SSA-11.G)."""
    out: dict[str, Fraction] = {}
    for die in range(1, 7):
        r = crt(column, die, tables=tables)
        out[r] = out.get(r, Fraction(0)) + Fraction(1, 6)
    return out
