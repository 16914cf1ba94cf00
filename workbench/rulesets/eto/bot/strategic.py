"""Strategic bombing planner of the ETO heuristic brain (ETO-2.0-2.5).

* **Raid** (``raid``, 2.2): :data:`RAID_SHARE` of the eligible bombers (the strongest; the rest
  stay for air offensives and ground support, since units in the box fly nothing else that turn,
  13.7) go in against the enemy country most of them can reach (fewest defending fighters on
  a tie), with as many eligible escorts as the defender can send, plus one, when the
  raider has more fighters than the defender can send, none otherwise (escorts against a
  stronger defence only feed it).  No rail raids; all of 2.5's US +1s are used.
* **Additions** (``reinforce_box``, 2.2): the defender sends fighters, up to two more than the
  raid's escorts, when the raid has no more escorts than it has fighters; the raider adds escorts while the defenders in the
  box outnumber its escorts.
* **Units in the box** (``leave_box``, 2.3): kept for the raid (the default: end the step).
* **Arctic interdiction** (``interdict_convoy``, 3.2): while the Arctic route is open, every
  base's eligible bombers (with its fighters as escort when they reach) fly to the nearest hex
  of the route; the Allies keep the default route (``trace_route``: end the step) and send
  every naval air unit of the escort box they may (``escort_intercept``, 3.5).
"""

from __future__ import annotations

from typing import Any

from workbench.bots.heuristic import Context
from workbench.rulesets.eto import air_units, values
from workbench.rulesets.eto import strategic_bombing as sb

#: The share of its eligible bombers a side sends on a strategic raid (the strongest first).
RAID_SHARE = 0.5


def _pure_bombers(ctx: Context, nation: str) -> list[Any]:
    st = ctx.state
    return [u for u in sb.eligible(st, ctx.side, nation, "bomber") if not air_units.class_row(st, u).get("fighter")]


def place(ctx: Context) -> dict[str, Any] | None:
    """The raider's ``raid`` order, or None (end the step: nothing worth bombing)."""
    st = ctx.state
    if not ctx.legal("raid"):
        return None
    enemy = values.other(ctx.side)
    box = sb.box_of(ctx.side)
    held = sb.kept(st, box, ctx.side)
    fixed = {str(u.props.get("sb_target")) for u in held}
    best: tuple[tuple[int, int, str], dict[str, Any]] | None = None
    for nation in sb.targets(st, ctx.side):
        if fixed and nation not in fixed:
            continue
        pure = sorted(_pure_bombers(ctx, nation), key=lambda u: (-air_units.strength(st, u), u.id))
        bombers = [u.id for u in pure[:max(1, -(-len(pure) * int(RAID_SHARE * 100) // 100))]] if pure else []
        if not bombers and not any(u.props.get("sb_mission") in ("eps", "rail") for u in held):
            continue
        escorts = [u.id for u in sb.eligible(st, ctx.side, nation, "fighter")]  # fighter-bombers escort
        defenders = sb.eligible(st, enemy, nation, "defend")
        order: dict[str, Any] = {"kind": "raid", "target": nation}
        if bombers:
            order["bombers"] = bombers
        mine = len(escorts) + sum(1 for u in held if u.props.get("sb_mission") == "escort")
        if escorts and mine > len(defenders):
            order["escorts"] = escorts[:len(defenders) + 1]
        key = (-len(bombers), len(defenders), nation)
        if best is None or key < best[0]:
            best = (key, order)
    return ctx.first_ok([best[1]]) if best else None


def defend(ctx: Context) -> dict[str, Any] | None:
    """A ``reinforce_box`` order in the 2.2 alternation, or None (pass)."""
    st = ctx.state
    raid = sb.current_raid(st)
    if raid is None or not ctx.legal("reinforce_box"):
        return None
    box = raid["box"]
    addable = [u.id for u in sb.addable(st, raid, ctx.side)]
    if not addable:
        return None
    escorts = [u for u in sb.box_units(st, box, raid["side"]) if u.props.get("sb_mission") == "escort"]
    defenders = sb.box_units(st, box, raid["defender"])
    if ctx.side == raid["defender"]:
        if len(escorts) > len(defenders) + len(addable):
            return None  # outnumbered: keep the fighters for the rest of the turn
        room = len(escorts) + 2 - len(defenders)
        return ctx.first_ok([{"kind": "reinforce_box", "units": addable[:room]}]) if room > 0 else None
    if len(defenders) > len(escorts):
        return ctx.first_ok([{"kind": "reinforce_box", "units": addable}])
    return None


def interdict(ctx: Context) -> dict[str, Any] | None:
    """ETO-3.2: the largest legal interdiction (one base's bombers and escorts), or None."""
    orders = ctx.legal("interdict_convoy")
    if not orders:
        return None
    return ctx.first_ok(sorted(orders, key=lambda o: -len(o["units"])))


def escort_intercept(ctx: Context) -> dict[str, Any] | None:
    """ETO-3.5: every naval air unit that may intercept the interdictors does."""
    orders = ctx.legal("escort_intercept")
    return ctx.first_ok(sorted(orders, key=lambda o: -len(o["units"]))) if orders else None
