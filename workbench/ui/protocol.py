"""What the workbench asks of a ruleset, with generic fallbacks and SS Amerika adapters.

The UI is generic: it reads ``state.decision``, ``state.legal_orders()`` /
``state.legal_orders_of(kind)``, the event log and the map.  A few panels
need numbers only the rules know (a counter's printed values, the odds of an
attack, the overlays).  Each is one optional method on the ruleset; when a
ruleset lacks it the workbench uses a generic fallback, or an adapter below
for a ruleset whose rules modules already compute it (SS Amerika today).

The protocol (all optional; ``state`` is a :class:`~workbench.engine.State`):

``ruleset.unit_card(state, unit) -> dict``
    ``{"strength": "7", "movement": "5", "note": "out of supply"}``: the
    counter's printed values on its current side.  Fallback: the ``cf`` /
    ``attack`` / ``strength`` and ``mf`` / ``movement`` keys (``*_reduced`` when
    reduced) of the unit type in ``tables/units.toml``.
``ruleset.overlays(state, side) -> dict[str, numpy array]``
    per-hex layers: ``"control"`` (int, 0 = nobody, k = ``ruleset.sides[k-1]``),
    ``"supply"`` (int per hex: 1 = a unit of ``side`` is out of supply there),
    ``"zoc"`` (int: k = in the ZOC of ``ruleset.sides[k-1]``).  ``side`` is
    ``None`` for the umpire.  Fallback: ``state.arrays["control"]`` if present.
``ruleset.air_range(state, unit) -> int | None``
    hexes an air unit may fly to a target; fallback: the type's ``range``.
``ruleset.assess_attack(state, order) -> dict``
    for an attack order, without rolling: ``contributions`` [(who, value, rule)],
    ``shifts`` [(columns or modifier, why, rule)], ``base_column``, ``column``,
    ``attack``, ``defense``, ``distribution`` {result: Fraction},
    ``results`` {result: plain words}, ``expected_losses`` {side: steps}.
``ruleset.setup_breaches(state) -> list[tuple[str, str]]``
    (rule, why) for every set-up rule the position breaks (designer mode).
``ruleset.objectives(state) -> dict[str, int]``
    objectives (e.g. cities) held per side, for the charts.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.engine.units import Unit

# ---------------------------------------------------------------------------------------------
# counters


def unit_card(state: State, unit: Unit) -> dict[str, str]:
    rs = state.ruleset
    hook = getattr(rs, "unit_card", None)
    if hook is not None:
        return dict(hook(state, unit))
    if rs.name == "ssa":
        return _ssa_card(state, unit)
    t = rs.unit_types.get(unit.type, {})

    def pick(*keys: str) -> Any:
        for k in keys:
            if unit.reduced and f"{k}_reduced" in t:
                return t[f"{k}_reduced"]
            if k in t:
                return t[k]
        return None

    s, m = pick("cf", "attack", "strength"), pick("mf", "movement")
    return {"strength": _num(s), "movement": _num(m), "note": ""}


def _num(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return str(v)


def _ssa_card(state: State, unit: Unit) -> dict[str, str]:
    from workbench.rulesets.ssa import values

    dom = values.domain(state, unit)
    if dom == "air":
        a2a = values.value(state, unit, "air_to_air")
        bomb = values.value(state, unit, "bombardment")
        rng = values.value(state, unit, "range")
        return {"strength": f"{_num(a2a)}-{_num(bomb)}" if a2a is not None else _num(bomb),
                "movement": _num(rng), "note": "air: air-to-air, bombardment, range"}
    if dom == "naval":
        return {"strength": _num(values.cf(state, unit)), "movement": _num(values.value(state, unit, "mf")),
                "note": ""}
    cf = values.cf(state, unit)
    shown = f"({_num(cf)})" if values.value(state, unit, "defend_only", False) else _num(cf)
    if values.value(state, unit, "security_only", False):
        shown = f"[{_num(cf)}]"
    return {"strength": shown, "movement": _num(values.mf(state, unit)), "note": ""}


# ---------------------------------------------------------------------------------------------
# overlays

OVERLAY_NAMES = ("control", "supply", "zoc")


def overlays(state: State, side: str | None, names: tuple[str, ...] = OVERLAY_NAMES
             ) -> dict[str, np.ndarray | None]:
    """Per-hex overlay arrays; ``None`` for a layer this ruleset cannot give yet."""
    rs = state.ruleset
    hook = getattr(rs, "overlays", None)
    if hook is not None:
        got = hook(state, side)
        return {n: got.get(n) for n in names}
    out: dict[str, np.ndarray | None] = dict.fromkeys(names)
    if "control" in names and "control" in state.arrays:
        out["control"] = np.asarray(state.arrays["control"]).astype(np.int64)
    if rs.name == "ssa":
        if "supply" in names:
            out["supply"] = _ssa_supply(state, side)
        if "zoc" in names:
            out["zoc"] = _ssa_zoc(state, side)
    return out


def _ssa_supply(state: State, side: str | None) -> np.ndarray:
    from workbench.rulesets.ssa.supply import supply_status

    hm = state.map
    out = np.zeros(hm.size, dtype=np.int64)
    for k, s in enumerate(state.ruleset.sides, start=1):
        if side is not None and s != side:
            continue
        for uid, ok in supply_status(state, s).items():
            loc = state.unit(uid).location
            if not ok and loc.isdigit():
                out[hm.index(loc)] = k
    return out


def _ssa_zoc(state: State, side: str | None) -> np.ndarray:
    from workbench.rulesets.ssa.zoc import land_zoc

    out = np.zeros(state.map.size, dtype=np.int64)
    for k, s in enumerate(state.ruleset.sides, start=1):
        if side is not None and s == side:
            continue  # a player sees the enemy's ZOC
        out[land_zoc(state, s) & (out == 0)] = k
    return out


def unit_out_of_supply(state: State) -> set[str]:
    """Unit ids out of supply (for the counter marks); empty if the ruleset cannot tell."""
    if state.ruleset.name != "ssa":
        return set()
    from workbench.rulesets.ssa.supply import supply_status

    bad: set[str] = set()
    for s in state.ruleset.sides:
        bad |= {u for u, ok in supply_status(state, s).items() if not ok}
    return bad


def air_range(state: State, unit: Unit) -> int | None:
    rs = state.ruleset
    hook = getattr(rs, "air_range", None)
    if hook is not None:
        return hook(state, unit)
    t = rs.unit_types.get(unit.type, {})
    if t.get("domain") != "air":
        return None
    if rs.name == "ssa":
        from workbench.rulesets.ssa import values

        v = values.value(state, unit, "range")
    else:
        v = t.get("range")
    return int(v) if v is not None else None


# ---------------------------------------------------------------------------------------------
# the attack planner

SSA_RESULTS = {
    "DZ": "defender eliminated", "DE": "defender reduced, then retreats", "DR": "defender retreats",
    "EX": "exchange", "AR": "attacker retreats", "AE": "attacker reduced, then retreats",
    "AZ": "attacker eliminated",
}


def can_assess(state: State) -> bool:
    rs = state.ruleset
    return getattr(rs, "assess_attack", None) is not None or rs.name == "ssa"


def assess_attack(state: State, order: dict[str, Any]) -> dict[str, Any]:
    """Strengths, shifts, column, the exact distribution and expected step losses of an attack."""
    rs = state.ruleset
    hook = getattr(rs, "assess_attack", None)
    if hook is not None:
        return dict(hook(state, order))
    if rs.name == "ssa":
        return _ssa_assess(state, order)
    raise NotImplementedError(f"the {rs.name} ruleset has no assess_attack yet")


def _steps(state: State, uid: str) -> int:
    """Steps a unit has left: 2 if full with a reduced side, else 1."""
    from workbench.rulesets.ssa import values

    u = state.unit(uid)
    return 2 if (not u.reduced and values.has_reduced_side(state, u)) else 1


def _ssa_assess(state: State, order: dict[str, Any]) -> dict[str, Any]:
    from workbench.rulesets.ssa import values
    from workbench.rulesets.ssa.combat import assess
    from workbench.rulesets.ssa.movement import other

    side = state.decision.side if state.decision else state.ruleset.sides[0]
    a = assess(state, side, list(order["attackers"]), list(order["targets"]),
               list(order.get("support", [])), list(order.get("gunfire", [])))
    dist = a.distribution(state.ruleset.tables)
    enemy = other(side)
    att_all = sum(_steps(state, u) for u in a.attackers)
    dfn_all = sum(_steps(state, u) for u in a.defenders)
    # steps lost by each result (EX: the lower side loses one step per unit; the other side
    # the fewest units whose full CF reach that strength, approximated by the strongest first)
    losses: dict[str, tuple[float, float]] = {
        "DZ": (0, dfn_all), "DE": (0, len(a.defenders)), "DR": (0, 0), "AR": (0, 0),
        "AE": (len(a.attackers), 0), "AZ": (att_all, 0),
    }
    if a.land_attack < a.land_defense:
        low, high, strength, low_is_att = a.attackers, a.defenders, a.land_attack, True
    else:
        low, high, strength, low_is_att = a.defenders, a.attackers, a.land_defense, False
    need, n = strength, 0
    for uid in sorted(high, key=lambda u: -values.full_cf(state, state.unit(u))):
        if need <= 0:
            break
        need -= values.full_cf(state, state.unit(uid))
        n += 1
    losses["EX"] = (len(low), n) if low_is_att else (n, len(low))
    exp_att = sum(float(p) * losses.get(r, (0, 0))[0] for r, p in dist.items())
    exp_dfn = sum(float(p) * losses.get(r, (0, 0))[1] for r, p in dist.items())
    return {
        "attackers": a.attackers, "defenders": a.defenders,
        "attack": a.attack, "defense": a.defense, "base_column": a.base_column, "column": a.column,
        "contributions": [(who, v, rule) for who, v, rule in a.contributions],
        "shifts": [(f"{n:+d} column{'s' if abs(n) != 1 else ''}", why, rule) for n, why, rule in a.shifts],
        "distribution": dist, "results": {r: SSA_RESULTS.get(r, r) for r in dist},
        "losses_by_result": {r: {side: losses.get(r, (0, 0))[0], enemy: losses.get(r, (0, 0))[1]}
                             for r in dist},
        "expected_losses": {side: exp_att, enemy: exp_dfn},
        "odds_rule": "SSA-11.G", "die": "1d6",
    }


def format_fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


# ---------------------------------------------------------------------------------------------
# set-up checks and objectives


def setup_breaches(state: State) -> list[tuple[str, str]]:
    """Every set-up rule the position breaks, as (rule, why): the ruleset's own check."""
    return list(state.ruleset.setup_breaches(state))


def objectives(state: State) -> dict[str, int] | None:
    rs = state.ruleset
    hook = getattr(rs, "objectives", None)
    if hook is not None:
        return dict(hook(state))
    cities = state.markers.get("city_control", state.markers.get("cities"))
    if isinstance(cities, dict):
        out = dict.fromkeys(rs.sides, 0)
        for owner in cities.values():
            if owner in out:
                out[owner] += 1
        return out
    return None
