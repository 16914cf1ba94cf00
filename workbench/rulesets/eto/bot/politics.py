"""Politics for the heuristic brain (ETO-35, 36.5, 39, 40.4, 43.2, 43.3).

Declarations of war follow the scenario's authored timetable (``[bot_plan.<side>] invasions =
[{nation, target, from}]``, ``winter_war = "1939-11"``): when a war starts is the designer's
what-if, not something a beginner should improvise.  Everything the rules offer for free is
taken when legal: minor activations (35.0: a roll costs nothing), the Soviet pre-war claims
(43.2), Vichy France (40.4); lend lease ships the largest offer (36.5).
"""

from __future__ import annotations

from typing import Any

from workbench.bots.heuristic import Context
from workbench.rulesets.eto.values import month_key


def _plan(ctx: Context) -> dict[str, Any]:
    return ctx.state.game.scenario.raw.get("bot_plan", {}).get(ctx.side, {})


def _due(ctx: Context, when: Any) -> bool:
    return isinstance(when, str) and month_key(ctx.state.turn_label) >= month_key(when)


def declare(ctx: Context) -> dict[str, Any] | None:
    """ETO-39.2: the invasions of the plan whose month has come, in the plan's order."""
    legal = ctx.legal("declare_war")
    for entry in _plan(ctx).get("invasions", []):
        order = {"kind": "declare_war", "nation": entry.get("nation"), "target": entry.get("target")}
        if _due(ctx, entry.get("from")) and order in legal:
            return order
    return None


def winter_war(ctx: Context) -> dict[str, Any] | None:
    """ETO-43.3: the Winter War in the plan's month."""
    if _due(ctx, _plan(ctx).get("winter_war")) and ctx.legal("winter_war"):
        return {"kind": "winter_war"}
    return None


def claim(ctx: Context) -> dict[str, Any] | None:
    """ETO-43.2: every territory the USSR may claim (the plan's ``claims`` list, if given, limits it)."""
    only = _plan(ctx).get("claims")
    for o in ctx.legal("claim_territory"):
        if only is None or o["zone"] in only:
            return o
    return None


def activate(ctx: Context) -> dict[str, Any] | None:
    """ETO-35.0: a roll to activate a minor costs nothing: always roll."""
    opts = ctx.legal("activate_partner")
    return opts[0] if opts else None


def lend_lease(ctx: Context) -> dict[str, Any] | None:
    """ETO-36.5, 36.7: the Western Allies ship the largest amount offered to the USSR (and the US
    to Britain), once a decision; Germany's EP exchange with Italy (36.9) is left to the player
    (the plan's ``exchange_to_italy = true`` lets the bot make it)."""
    receivers = {"SU", "UK"} | ({"IT"} if _plan(ctx).get("exchange_to_italy") else set())
    opts = [o for o in ctx.legal("lend_lease") if o["to"] in receivers]
    if not opts or ctx.memo.get("lend_lease_done"):
        return None
    best = max(opts, key=lambda o: (o["eps"], o["from"], o["to"]))
    ctx.memo["lend_lease_done"] = True
    return best


def vichy(ctx: Context) -> dict[str, Any] | None:
    """ETO-40.4: create Vichy France when offered (the historical choice: it keeps the French fleet
    and colonies out of the war)."""
    return {"kind": "create_vichy"} if ctx.legal("create_vichy") else None
