"""The war-at-sea planner of the ETO heuristic brain (ETO-7.0-10.9, 32.4-32.5).

* **Convoys** (``load_supply``, ``sail``): a port the side holds that has no land supply line and
  room for supply markers (Tripoli and Benghazi for the Axis in Africa, Malta or a besieged Tobruk
  for the British) is a *needy port*.  STP markers in a port with a land line load one marker per
  needy-port slot they can reach, then sail there *with every warship of their port as escort*
  (7.0: one stack), into the port.
* **Interception** (``intercept_naval``, 8.2) and **attacks on ships at rest** (``naval_search``,
  8.3): only when the stack's gunnery is more than the target's (:data:`EDGE`), or the target
  carries STPs (a convoy) and the stack is not outgunned: fight when the odds favour it.
* **Upkeep** (7.6): in the End phase ships at sea sail home to the nearest friendly port.
Everything else stays in port: ships at sea cost EPs (7.6) and invite air attack (16.0).
"""

from __future__ import annotations

from typing import Any

from workbench.bots.heuristic import Context
from workbench.engine.units import Unit
from workbench.rulesets.eto import naval_units, ports, sea_spaces, sea_supply, values
from workbench.rulesets.eto.naval_movement import phase

#: How much more gunnery a stack wants than its target before it attacks.
EDGE = 1.25


def gunnery(ctx: Context, units: list[Unit]) -> int:
    return sum(int(naval_units.gunnery(ctx.state, u) or 0) for u in units)


def needy_ports(ctx: Context) -> dict[str, int]:
    """Friendly ports without a land supply line, with room for supply markers: port -> room."""
    st = ctx.state
    out: dict[str, int] = {}
    nation = next((n for n in st.game.scenario.sides[ctx.side] if values.nation_kind(st, n) == "major"), None)
    if nation is None:
        return out
    for i in range(st.map.size):
        label = st.map.label(i)
        if ports.size(st, label) not in ("minor", "major") or not ports.friendly(st, ctx.side, label):
            continue
        if sea_supply.land_line(st, nation, ctx.side, label):
            continue
        room = sea_supply.port_capacity(st, label) - sea_supply.markers_at(st, label) - sum(
            sea_supply.aboard(u) for u in naval_units.naval_units(st, ctx.side, label))
        if room > 0:
            out[label] = room
    return out


def _needy_ports_cached(ctx: Context) -> dict[str, int]:
    key = "needy_ports"
    if key not in ctx.memo:
        ctx.memo[key] = needy_ports(ctx)
    return ctx.memo[key]


def load(ctx: Context) -> dict[str, Any] | None:
    """Load one supply marker on STPs that can reach a needy port this phase."""
    needy = _needy_ports_cached(ctx)
    if not needy:
        return None
    for o in ctx.legal("load_supply"):
        carriers = [ctx.state.units_by_id[i] for i in o["carriers"]]
        start = carriers[0].location
        if any(sea_supply.aboard(c) for c in carriers):
            continue  # one marker a convoy: the rest of the lift stays for the next month
        costs, _ = sea_spaces.reach(ctx.state, ctx.side, start, naval_units.speed(ctx.state, carriers[0]))
        if any(p in costs for p in needy):
            return ctx.first_ok([o])
    return None


def sail(ctx: Context) -> dict[str, Any] | None:
    """Loaded convoys sail to a needy port with their port's warships; in the End phase ships
    at sea go home."""
    st = ctx.state
    needy = _needy_ports_cached(ctx)
    if phase(st) == "naval-air":
        for u in naval_units.naval_units(st, ctx.side):
            if not sea_supply.aboard(u) or u.props.get("sailed_phase"):
                continue
            escorts = [e for e in naval_units.naval_units(st, ctx.side, u.location)
                       if e is not u and not e.props.get("sailed_phase") and naval_units.gunnery(st, e) is not None
                       and not naval_units.is_submarine(st, e)]
            group = [u, *escorts]
            speed = min(naval_units.speed(st, x) for x in group)
            costs, paths = sea_spaces.reach(st, ctx.side, u.location, speed)
            for port in sorted(needy, key=lambda p: costs.get(p, 10**6)):
                if port in paths:
                    order = {"kind": "sail", "units": [x.id for x in group], "path": paths[port], "port": True}
                    got = ctx.first_ok([order, {**order, "units": [u.id]}])
                    if got:
                        return got
        return None
    if phase(st) == "end":
        for u in naval_units.naval_units(st, ctx.side):
            if naval_units.in_port(u) or u.props.get("sailed_phase") or not sea_spaces.is_space(st, u.location):
                continue
            costs, paths = sea_spaces.reach(st, ctx.side, u.location, naval_units.speed(st, u))
            homes = sorted((c, p) for p, c in costs.items() if ports.size(st, p) and ports.friendly(st, ctx.side, p))
            for _, port in homes[:3]:
                got = ctx.first_ok([{"kind": "sail", "units": [u.id], "path": paths[port], "port": True}])
                if got:
                    return got
    return None


def _worth_it(ctx: Context, mine: list[Unit], theirs: list[Unit]) -> bool:
    g_mine, g_theirs = gunnery(ctx, mine), gunnery(ctx, theirs)
    convoy = any(naval_units.is_stp(ctx.state, t) for t in theirs)
    return g_mine > EDGE * g_theirs or (convoy and g_mine >= g_theirs and g_mine > 0)


def intercept(ctx: Context) -> dict[str, Any] | None:
    """8.2: intercept a passing stack when the odds favour it (or it is a convoy)."""
    from workbench.rulesets.eto.naval_interception import _target

    f = ctx.state.frames[-1]
    target = _target(ctx.state, f["data"]["space"])
    for o in ctx.legal("intercept_naval"):
        mine = [ctx.state.units_by_id[i] for i in o["units"]]
        if _worth_it(ctx, mine, target):
            return ctx.first_ok([o])
    return None


def search(ctx: Context) -> dict[str, Any] | None:
    """8.3: attack enemy ships at rest within range when the odds favour it."""
    st = ctx.state
    for o in ctx.legal("naval_search"):
        mine = [st.units_by_id[i] for i in o["units"]]
        theirs = [u for u in naval_units.naval_units(st, values.other(ctx.side), o["target"])]
        if _worth_it(ctx, mine, theirs):
            return ctx.first_ok([o])
    return None
