"""German surface raiders in the Strategic Warfare phase (ETO-4.0-4.3).

Step 3: German BB, CA and CL (and a CV carrying naval air) that begin the step in the sea area
of an open North Atlantic, South Atlantic or Arctic route raid it: per area 1d6 + the raiders'
gunnery, +4 with a CV, -1 per raider in the South Atlantic; the sum is the Allies' EP loss,
divided as 4.4 says (:func:`convoys.lose_eps`).  4.3: raiders stay in the area, subject to the
naval rules there (interception, combat) like any ship.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import alternative_endings, convoys, naval_units

RULE = "ETO-4.2"


def raiders_on(state: State, route: str) -> list[Unit]:
    """ETO-4.1: German BB, CA, CL in the route's area, and a German CV there carrying naval air
    (none on a route raiders cannot reach: the US coast)."""
    if not convoys.routes(state)[route].get("raiders"):
        return []
    classes = convoys.table(state)["raiders"]["classes"]
    out = []
    for u in naval_units.naval_units(state, "axis", convoys.area_of(state, route)):
        if u.nation != "GE":
            continue
        k = naval_units.kind(state, u)
        if k in classes or (k == "CV" and convoys.has_air(state, u)):
            out.append(u)
    return out


def raid(state: State, route: str, raiders: list[Unit]) -> int:
    """ETO-4.2: 1d6 + total gunnery of the raiders, +4 if a CV participates, -1 per raider in the
    South Atlantic: the Allies' EP loss (never below 0)."""
    t = convoys.table(state)["raiders"]
    r = convoys.routes(state)[route]
    gunnery = sum(int(naval_units.gunnery(state, u) or 0) for u in raiders)
    cv = any(naval_units.kind(state, u) == "CV" for u in raiders)
    per = int(r.get("raider_mod_per_raider", 0)) * len(raiders)
    (die,) = state.roll(int(t["dice"]), purpose=f"surface raiders {', '.join(u.id for u in raiders)} on the "
                                               f"{route.replace('_', ' ')} route (gunnery {gunnery}"
                                               + (", CV +4" if cv else "") + (f", {per}" if per else "") + ")",
                        rule=RULE, side="axis")
    return max(0, die + gunnery + (int(t["carrier_bonus"]) if cv else 0) + per)


def raider_step(state: State, *_: Any) -> list[dict[str, Any]]:
    """ETO-4.0-4.4: every raided route's EP loss (none in 47.5's Cold War clash)."""
    out: list[dict[str, Any]] = []
    if not alternative_endings.strategic_warfare_allowed(state, "raiders"):
        return out
    for route, raiders in convoys.open_routes(state, raiders_on, "ETO-4.1", "surface raiders"):
        loss = raid(state, route, raiders)
        shares = convoys.lose_eps(state, route, loss, RULE, f"surface raiders on the {route.replace('_', ' ')} route")
        out.append({"route": route, "raiders": [u.id for u in raiders], "eps": loss, "shares": shares})
    return out
