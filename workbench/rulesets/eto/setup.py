"""Set-up checks for a starting position (the workbench's set-up panel).

No ETO scenario is printed (GAP-14/16), so the set-up rules are the ones that
hold on every turn: land units within the stacking limit (ETO-24.2), and
units set up only in hexes their side controls (ETO-24.4: a land unit in a
hex makes it friendly, so an enemy-controlled hex with a unit in it is not a
position the rules can reach; docs/rulings.md, "set-up edits").
"""

from __future__ import annotations

from collections import defaultdict

from workbench.engine.state import State
from workbench.rulesets.eto import stacking, values
from workbench.rulesets.eto.control import SIDE_CODE, control


def setup_breaches(state: State) -> list[tuple[str, str]]:
    """(rule, plain words) for every stacking or control breach of the position."""
    hm = state.map
    ctrl = control(state)
    stacks: dict[tuple[str, str], list] = defaultdict(list)
    out: list[tuple[str, str]] = []
    for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
        loc = u.location
        if not (loc.isdigit() and hm.has_hex(loc)):
            continue
        if stacking.counts(state, u):
            stacks[loc, u.side].append(u)
        if values.is_land_unit(state, u) and ctrl[hm.index(loc)] not in (0, SIDE_CODE.get(u.side, 0)):
            out.append(("ETO-24.4", f"{u.id} sets up at {loc}, a hex the enemy controls"))
    for (loc, side), units in sorted(stacks.items()):
        limit = stacking.limit_for(state, loc, [u.nation for u in units])
        if len(units) > limit:
            out.append(("ETO-24.2", f"{side} has {len(units)} land units at {loc} (limit {limit})"))
    return out
