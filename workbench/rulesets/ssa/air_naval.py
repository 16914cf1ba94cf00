"""Wiring of the air, naval-combat, overrun and intelligence rules into the SS Amerika ruleset.

:func:`register` is called once from ``SSARuleset.__init__``.  It adds the order
kinds (``fly``, ``land``, ``intercept``, ``interdict``, ``bomb``, ``naval_attack``,
``naval_retreat``, ``overrun``, ``recon``, ``choose_losses``), hooks SSA-6.3c into
land moves and SSA-6.3d into sailing, and chains the step procedures:

* start of each Initial Movement phase: air supply that ran its game turn ends (SSA-10.1h);
* start of the aerial combat step: surviving air supply missions take effect (SSA-10.1h);
* end of each movement phase: overrun stacks are released (SSA-11.10c);
* end of the Mechanized Movement phase: aircraft come home or are lost (SSA-6.4, 6.5);
* end of the naval combat step: the once-per-phase marks are cleared (SSA-13).
"""

from __future__ import annotations

from typing import Any

from workbench.rulesets.ssa import air, air_combat, naval_combat
from workbench.rulesets.ssa.casualties import ChooseLossesOrder
from workbench.rulesets.ssa.intelligence import ReconOrder, SideView
from workbench.rulesets.ssa.interception import InterceptOrder
from workbench.rulesets.ssa.naval_combat import NavalAttackOrder, NavalRetreatOrder
from workbench.rulesets.ssa.overrun import OverrunOrder


def _chain(*procs: Any) -> Any:
    procs = tuple(p for p in procs if p is not None)

    def run(state: Any, step: Any) -> None:
        for p in procs:
            p(state, step)

    return run


def _release_overrun(state: Any, step: Any) -> None:
    """SSA-11.10c: the stack binding lasts one movement phase."""
    for u in state.units_by_id.values():
        u.props.pop("overrun_stack", None)


def _end_naval_combat(state: Any, step: Any) -> None:
    state.markers.pop("naval_attacked_hexes", None)
    for u in state.units_by_id.values():
        u.props.pop("naval_attacked", None)


def register(rs: Any) -> None:
    """Add this package's order kinds and procedures to an :class:`SSARuleset`."""
    rs.order_kinds.update({
        "fly": air.FlyOrder(), "land": air.LandOrder(), "intercept": InterceptOrder(),
        "interdict": air_combat.InterdictOrder(), "bomb": air_combat.BombOrder(),
        "naval_attack": NavalAttackOrder(), "naval_retreat": NavalRetreatOrder(),
        "overrun": OverrunOrder(), "recon": ReconOrder(), "choose_losses": ChooseLossesOrder(),
    })
    if "move" in rs.order_kinds and hasattr(rs.order_kinds["move"], "rules"):
        air.hook_movement(rs.order_kinds["move"].rules)
    if "sail" in rs.order_kinds:
        air.hook_sail(rs.order_kinds["sail"])
    if "rail" in rs.order_kinds:  # SSA-6.3c also for rail moves and retreats
        rail = rs.order_kinds["rail"]
        air.hook_entry(rail, lambda state, o: o.get("path") or rail._path(state, state.unit(o["unit"]), o["to"]))
    if "retreat" in rs.order_kinds:
        air.hook_entry(rs.order_kinds["retreat"], lambda state, o: [o["to"]])
    p = rs.procedures
    p["player/initial-movement"] = _chain(p.get("player/initial-movement"),
                                          lambda state, step: air.air_supply_expiry(state))
    p["player/combat/air"] = _chain(p.get("player/combat/air"), air_combat.resolve_air_supply)
    p["player/initial-movement:exit"] = _chain(p.get("player/initial-movement:exit"), _release_overrun)
    p["player/mechanized-movement:exit"] = _chain(air.end_of_mechanized_phase, _release_overrun,
                                                  p.get("player/mechanized-movement:exit"))
    p["player/combat/naval:exit"] = _chain(p.get("player/combat/naval:exit"), _end_naval_combat)
    p[naval_combat.RESOLVE] = naval_combat.resolve
    p["ssa.reduce_rest"] = air_combat.reduce_rest


def view(state: Any, side: str | None) -> Any:
    """SSA-19: the per-side view (``None`` = the umpire: the state itself)."""
    if side is None:
        return state
    return SideView(state, side)
