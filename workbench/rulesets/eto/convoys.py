"""Convoy routes and their escorts: who is on a route, escort stacks, the North Atlantic's
projection, closed routes and who loses the EPs (ETO-4.4, 5.4, 5.6, 5.7, 36.4).

The four routes and their boxes are ``tables/convoys.toml``.  Escorts stand *in* the route's
convoy escort box (``location`` = the box name, 7.5); U-boats and surface raiders stand in the sea
area that holds the box (the map's box ``sea_area``: the North Atlantic, the South Atlantic, the
Barents Sea, the US coastal box).

Lend lease (36.5-36.9, :mod:`lend_lease`) decides 4.4's division: the tracks
``lend_lease.US.UK``, ``lend_lease.US.SU`` and ``lend_lease.UK.SU`` hold the EPs sent this season.
Whether a route runs at all is 36.4's (:mod:`convoy_routes`).
"""

from __future__ import annotations

import math
from typing import Any

from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, naval_units, values

RULE = "ETO-5.6"


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["convoys"]


def routes(state: State) -> dict[str, dict[str, Any]]:
    return table(state)["routes"]


def box_of(state: State, route: str) -> str:
    return str(routes(state)[route]["box"])


def area_of(state: State, route: str) -> str:
    """The sea area (or sea box) that holds the route's escort box: where U-boats and raiders
    stand to attack it (4.1, 5.1)."""
    box = state.map.boxes[box_of(state, route)]
    return str(box.attrs.get("sea_area", box.name))


def route_at(state: State, space: str) -> str | None:
    """The route whose escort box lies in ``space``, if any."""
    for r in routes(state):
        if area_of(state, r) == space:
            return r
    return None


def closed(state: State, route: str) -> bool:
    """ETO-36.4: a closed route cannot be raided or attacked by U-boats (4.1, 5.1).  Closed while
    the track ``convoy.<route>.closed_until`` names a month after this one (5.6), or while 36.4
    keeps it closed (:func:`convoy_routes.closed_now`: not yet open, closed by choice, ...)."""
    until = state.tracks.get(f"convoy.{route}.closed_until")
    if bool(until) and str(until) > state.turn_label[:7]:
        return True
    from workbench.rulesets.eto.convoy_routes import closed_now

    return closed_now(state, route) is not None


def zone(state: State, route: str) -> str:
    """The weather zone of a route: severe for the North Atlantic, Arctic and US coast (5.3)."""
    if routes(state)[route].get("severe"):
        return "severe"
    area = state.map.sea_areas.get(area_of(state, route))
    return str(area.attrs.get("weather_zone", "moderate")) if area else "moderate"


def air_flies(state: State, route: str) -> bool:
    """Weather lets air units fly in the route's zone (1.4 grounding), for 5.6's carriers."""
    return not state.tracks.get(f"grounded.{zone(state, route)}")


def open_routes(state: State, attackers: Any, rule: str, who: str) -> list[tuple[str, list[Unit]]]:
    """The routes ``attackers(state, route)`` finds units on, with those units; a closed route
    (36.4) is skipped with its event (4.1, 5.1)."""
    out = []
    for route in routes(state):
        units = attackers(state, route)
        if not units:
            continue
        if closed(state, route):
            state.emit("route_closed", side="axis", rule=rule,
                       text=f"the {route.replace('_', ' ')} route is closed: {who} cannot attack it")
            continue
        out.append((route, units))
    return out


# --- escorts (5.6, 5.7) ----------------------------------------------------------------------

def has_air(state: State, carrier: Unit) -> bool:
    """A CV/CVE "carrying a naval air unit" (a naval air unit whose ``carrier`` is this one)."""
    return any(u.props.get("carrier") == carrier.id and u.location != "Force pool"
               for u in air_units.air_units(state, carrier.side))


def escort_value(state: State, u: Unit, route: str) -> float:
    """ETO-5.6: an undamaged DD, DE or CL counts 1, a damaged one (or a one-step DD) 1/2; an
    undamaged CV/CVE carrying naval air counts 4 unless weather grounds air in the route's zone;
    a damaged carrier or one without air counts nothing."""
    e = table(state)["escorts"]
    k = naval_units.kind(state, u)
    if k in ("DD", "DE", "CL"):
        one_step = k == "DD" and int(values.value(state, u, "steps", 2) or 2) < 2
        return float(e["damaged"] if naval_units.damaged(u) or one_step else e["undamaged"])
    if k in ("CV", "CVE"):
        if naval_units.damaged(u) or not has_air(state, u) or not air_flies(state, route):
            return 0.0
        return float(e["carrier"])
    return 0.0


def escorts(state: State, route: str) -> list[Unit]:
    """The Allied naval units in the route's convoy escort box."""
    return naval_units.naval_units(state, None, box_of(state, route))


def own_stacks(state: State, route: str, *, minus: dict[str, float] | None = None) -> int:
    """Whole stacks of eight escort units in the route's own box (5.6)."""
    total = sum(escort_value(state, u, route) for u in escorts(state, route))
    total -= (minus or {}).get(route, 0.0)
    return int(math.floor(total / float(table(state)["escorts"]["stack"]) + 1e-9))


def stacks(state: State, route: str, *, minus: dict[str, float] | None = None) -> int:
    """ETO-5.7: the route's own stacks plus one per two (South Atlantic, US coast) or three
    (Arctic) North Atlantic stacks.  The text's example: 24 DD + 2 CV in the North Atlantic = 4
    stacks; 4 DD + 1 CV in the South Atlantic = 1 + 4 // 2 = 3."""
    own = own_stacks(state, route, minus=minus)
    per = table(state)["escorts"]["projection"].get(route)
    if not per:
        return own
    return own + own_stacks(state, "north_atlantic", minus=minus) // int(per)


#: The month each seasonal turn comes before (ETO-SOP).
SEASON_MONTH = {"winter": 1, "spring": 4, "summer": 7, "autumn": 10}


def seasonal_check(state: State, *_: Any) -> None:
    """ETO-5.6: "At least two stacks (16 units) of convoy escorts must occupy the North Atlantic
    convoy escort box during a seasonal turn or the North and South Atlantic routes are
    automatically closed for the next three months" (36.4)."""
    e = table(state)["escorts"]
    if not naval_units.in_play(state) or not state.game.options.get("strategic-warfare"):
        return  # no convoy war in this game
    have = own_stacks(state, "north_atlantic")
    if have >= int(e["na_minimum_stacks"]):
        return
    tail = state.turn_label[5:]  # a seasonal turn is "1941-autumn": it comes before October
    y, m = int(state.turn_label[:4]), SEASON_MONTH[tail] if tail in SEASON_MONTH else int(tail[:2])
    m += int(e["na_closure_months"])
    y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
    until = f"{y:04d}-{m:02d}"
    for r in e["closes"]:
        state.tracks[f"convoy.{r}.closed_until"] = until
    state.emit("convoy_closed", side="allies", rule=RULE,
               text=f"only {have} escort stack(s) in the North Atlantic box (2 needed): the "
                    f"{' and '.join(e['closes'])} routes close until {until}", until=until)


# --- who pays (4.4, 5.4) -----------------------------------------------------------------------

def division(state: State, route: str, eps: int) -> dict[str, int]:
    """ETO-4.4: Atlantic losses fall on the UK, or from 1942 on the US and UK equally while the
    US sends lend lease to the UK; Arctic losses are shared by the Western Allies and the USSR
    (the Western Allies take the larger half), the Western share split US/UK when both send lend
    lease to the Soviets.  Britain takes the odd EP of a UK/US split."""
    d = table(state)["division"]
    if eps <= 0:
        return {}

    def uk_us(n: int, shared: bool) -> dict[str, int]:
        if not shared:
            return {"UK": n}
        return {"UK": n - n // 2, "US": n // 2}

    t = state.tracks
    if routes(state)[route]["division"] == "atlantic":
        shared = state.turn_label[:7] >= str(d["atlantic_us_shares_from"]) and bool(t.get("lend_lease.US.UK"))
        out = uk_us(eps, shared)
    else:
        western = eps - eps // 2
        out = {**uk_us(western, bool(t.get("lend_lease.US.SU")) and bool(t.get("lend_lease.UK.SU"))),
               "SU": eps // 2}
    return {k: v for k, v in out.items() if v}


def tally(state: State, what: str, nation: str, n: int) -> None:
    """The war's running totals the charts read (``sw.<what>.<nation>``: convoy losses, bombing
    damage, lend lease sent), kept as tracks so they save, fork and replay with the game."""
    key = f"sw.{what}.{nation}"
    state.tracks[key] = int(state.tracks.get(key, 0)) + int(n)


def lose_eps(state: State, route: str, eps: int, rule: str, what: str) -> dict[str, int]:
    """Take a route's EP loss from the nations 4.4 names (the track may go below 0, 36.1)."""
    shares = division(state, route, eps)
    for nation, n in shares.items():
        key = f"{nation}.eps"
        before = int(state.tracks.get(key, 0))
        state.tracks[key] = before - n
        tally(state, "convoy_losses", nation, n)
        state.emit("ep_loss", side="allies", rule=rule, nation=nation, eps=n, route=route,
                   text=f"{what}: {nation} loses {n} EPs (track {before} -> {before - n})")
    return shares
