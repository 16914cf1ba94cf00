"""Construction planner of the ETO heuristic brain (ETO-37, seasonal).

Rebuilds first, then HQs and generals back from the force pool (23.1, 27.5), then new units
(not depleted ones), at most 40 a phase.  The Axis keeps the EPs for the season's offensives,
which are bought after construction (38.2/38.3, ``command.offensive_budget``), and places a
returning HQ or general where it is worth most, as in the Movement phase
(``movement.hq_value``, ``movement.general_value``), near the front.
"""

from __future__ import annotations

from typing import Any

from workbench.bots.heuristic import Context
from workbench.rulesets.eto import values
from workbench.rulesets.eto.bot.command import offensive_budget
from workbench.rulesets.eto.bot.movement import general_value, hq_value
from workbench.rulesets.eto.bot.plan import goal_of, position_info
from workbench.rulesets.eto.command import spendable


def build(ctx: Context) -> dict[str, Any] | None:
    """A ``build``, ``rebuild`` or ``place_hq`` decision: rebuilds, then force-pool placements, then
    builds, the first legal order of the first three offered (placements ranked by worth)."""
    n = ctx.memo.get("built", 0)
    if n >= 40:
        return None
    if ctx.side == "axis" and spendable(ctx.state, "GE") < offensive_budget(ctx, "GE"):
        return None  # keep EPs for the season's offensives (bought after construction, 38.2)
    for kind in ("rebuild", "place_hq", "build"):
        opts = ctx.legal(kind)
        if kind == "build":
            opts = [o for o in opts if not o.get("depleted")]
        if kind == "place_hq" and ctx.side == "axis" and opts:
            opts = placements(ctx, opts)
        if opts:
            o = ctx.first_ok(opts[:3])
            if o is not None:
                ctx.memo["built"] = n + 1
                return o
    return None


def placements(ctx: Context, opts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """23.1/27.5: the HQ or general back from the force pool is placed where it is worth most
    (as in the Movement phase), not on the first legal hex -- the first in label order is a
    far corner of the map, from which an army group's HQ walked back for months."""
    st = ctx.state
    uid = opts[0]["unit"]
    u = st.units_by_id.get(uid)
    if u is None:
        return opts
    info = position_info(ctx)
    goal = goal_of(ctx, info, uid)
    value = (hq_value if values.unit_class(st, u) == "hq" else general_value)(ctx, u, goal)
    hm = st.map
    mine = [o for o in opts if o["unit"] == uid]
    near = [o for o in mine if hm.has_hex(o["at"]) and info["to_enemy"][hm.index(o["at"])] <= 6]
    return sorted(near or mine, key=lambda o: value(o["at"]), reverse=True)


def recover(ctx: Context) -> dict[str, Any] | None:
    """34.3: recover pilots whenever it is offered (5 EPs buy back a whole air step), at most a
    few a step."""
    n = ctx.memo.get("recovered", 0)
    if n >= 6:
        return None
    o = ctx.first_ok(ctx.legal("recover_pilots")[:3])
    if o is not None:
        ctx.memo["recovered"] = n + 1
    return o


def maginot_fort(ctx: Context) -> dict[str, Any] | None:
    """40.5: the season's free coastal fort goes on a port (where an invasion would want to land),
    the one nearest Britain's coast -- else on the first coastal hex offered."""
    opts = ctx.legal("place_maginot_fort")
    if not opts:
        return None
    hm = ctx.state.map
    try:
        london = hm.hex_of("London")
    except KeyError:
        return ctx.first_ok(opts[:1])
    port = hm.hexes["port"].to_list()
    ranked = sorted(opts, key=lambda o: (port[hm.index(o["hex"])] not in ("minor", "major"),
                                         hm.distance(london, o["hex"]), o["hex"]))
    return ctx.first_ok(ranked[:3])
