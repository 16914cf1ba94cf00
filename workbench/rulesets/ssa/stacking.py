"""Stacking (SSA-9.0), checked when a side ends a phase, not while it moves (SSA-9.G).

Land: 3 division-equivalents a hex (corps = division = 1, brigade/regiment =
1/3, a reduced division still 1; leaders and markers nothing), plus up to 3
underground partisans.  Naval: 6 a hex.  Enemy units never count against each
other, units being carried never count, holding areas have no limit.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np

from workbench.engine.errors import IllegalOrder
from workbench.engine.state import State
from workbench.rulesets.ssa import values


def overstacked(state: State, side: str) -> list[str]:
    """Plain-words descriptions of every overstacked hex of ``side``."""
    st = state.ruleset.tables["stacking"]
    land_limit = Fraction(st["land"]["limit_per_hex"])
    naval_limit = int(st["naval"]["limit_per_hex"])
    under_limit = int(st["land"]["partisan_underground_extra_limit"])
    land: dict[str, Fraction] = defaultdict(Fraction)
    naval: dict[str, int] = defaultdict(int)
    under: dict[str, int] = defaultdict(int)
    for u in state.units_by_id.values():
        if u.side != side or not u.location.isdigit() or u.props.get("carried"):
            continue
        dom = values.domain(state, u)
        if dom == "land":
            if u.props.get("underground"):
                under[u.location] += 1
            else:
                land[u.location] += values.division_equivalents(state, u)
        elif dom == "naval":
            naval[u.location] += 1
    out = [f"{h} holds {float(v):g} land division-equivalents (limit {land_limit})"
           for h, v in sorted(land.items()) if v > land_limit]
    out += [f"{h} holds {n} naval units (limit {naval_limit})" for h, n in sorted(naval.items())
            if n > naval_limit]
    out += [f"{h} holds {n} underground partisans (limit {under_limit})"
            for h, n in sorted(under.items()) if n > under_limit]
    return out


def land_thirds(state: State, side: str) -> np.ndarray:
    """``int[N]``: ``side``'s land stacking per hex in thirds of a division (exact, SSA-9.1)."""
    def compute() -> np.ndarray:
        out = np.zeros(state.map.size, dtype=np.int64)
        thirds: dict[str | None, int] = {}  # per size: Fraction arithmetic once, not per unit
        for u in state.units_by_id.values():
            if u.side == side and u.location.isdigit() and values.domain(state, u) == "land" \
                    and not u.props.get("underground") and not u.props.get("carried"):
                t = thirds.get(u.size)
                if t is None:
                    t = thirds[u.size] = int(values.division_equivalents(state, u) * 3)
                out[state.map.index(u.location)] += t
        return out

    return state.derived(("ssa.land_thirds", side), compute, side=side)  # its units alone


def land_room(state: State, side: str, label: str, unit) -> IllegalOrder | None:  # noqa: ANN001
    """SSA-9.1 for a move's last hex: units may pass through a full stack but not stop in it
    (docs/rulings-ssa.md: the end-of-phase limit is enforced at the end of each move, so a
    phase can always end)."""
    if values.domain(state, unit) != "land" or unit.props.get("underground"):
        return None
    limit = Fraction(state.ruleset.tables["stacking"]["land"]["limit_per_hex"])
    own = values.division_equivalents(state, unit)
    here = Fraction(int(land_thirds(state, side)[state.map.index(label)]), 3)
    if unit.location == label and not unit.props.get("carried"):
        here -= own
    total = here + own
    if total > limit:
        return IllegalOrder("SSA-9.1", f"{unit.id} cannot end its move in {label}: the stack would hold "
                            f"{float(total):g} land division-equivalents (limit {limit})")
    return None


def resolve_overstacks(state: State, side: str) -> None:
    """SSA-9.G / tables/stacking.toml [overstack_penalty]: a hex still over the limit when a
    phase ends (after retreats, arrivals or builds; moves can never end overstacked) loses
    its weakest units until it fits (authored: docs/rulings-ssa.md)."""
    from workbench.rulesets.ssa.losses import eliminate

    limit = Fraction(state.ruleset.tables["stacking"]["land"]["limit_per_hex"])
    stacks: dict[str, list] = defaultdict(list)
    for u in state.units_by_id.values():
        if u.side == side and u.location.isdigit() and values.domain(state, u) == "land" \
                and not u.props.get("underground") and not u.props.get("carried"):
            stacks[u.location].append(u)
    for label, units in sorted(stacks.items()):
        total = sum((values.division_equivalents(state, u) for u in units), Fraction(0))
        for u in sorted(units, key=lambda u: (values.cf(state, u), u.id)):
            if total <= limit:
                break
            if values.division_equivalents(state, u) > 0:
                total -= values.division_equivalents(state, u)
                eliminate(state, u, "SSA-9.1", f" (over the stacking limit in {label} at the end of the phase)")
