"""U-boat operations in the Strategic Warfare phase (ETO-5.0-5.5, 5.8, 5.9; 8.9, 11.0).

Step 4 of the phase: every U-boat that begins the step in the sea area of an open convoy route
(:mod:`convoys`) attacks it.  2d6 (+2 schnorkel) minus one per escort stack: 1 or more succeeds,
0 or less damages the U-boat (sinks it if damaged: removed for good).  Each route's EP loss is a
die per success, with 5.3's modifiers, divided as 4.4 says.  A success rolled as doubles also
hits an escort, applied after every attack on the board (5.5).

The German choice of which escort a doubles hit strikes (5.5) is made by the kernel for him:
the escort whose loss takes the most escort value off the route, a sinking before a damaging
(the UK's choice, when a North Atlantic escort pays for an unescorted route, is the reverse:
the least value, a damaging first).  Ruling in docs/rulings-eto.md.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_units, alternative_endings, commitment, convoys, naval_units

RULE = "ETO-5.2"


def table(state: State) -> dict[str, Any]:
    return convoys.table(state)["uboats"]


def uboats_on(state: State, route: str) -> list[Unit]:
    """ETO-5.1: U-boat counters (not tactical SS) in the route's sea area."""
    area = convoys.area_of(state, route)
    return [u for u in naval_units.naval_units(state, "axis", area) if naval_units.is_uboat(state, u)]


def deployment_why_not(state: State, u: Unit, route: str) -> Refusal | None:
    """ETO-5.8: at most half of the U-boats in play on the Arctic or the US coast route, at most
    two on the South Atlantic route (assignments only; losses force no redeployment)."""
    r = convoys.routes(state)[route]
    on = [x for x in uboats_on(state, route) if x.id != u.id]
    if "uboat_max" in r and len(on) + 1 > int(r["uboat_max"]):
        return Refusal("ETO-5.8", f"no more than {r['uboat_max']} U-boats can raid the {route.replace('_', ' ')} route")
    if "uboat_max_fraction" in r:
        in_play = [x for x in state.units_by_id.values() if naval_units.is_uboat(state, x)
                   and x.location not in ("Force pool", "Eliminated")]
        if Fraction(len(on) + 1) > Fraction(r["uboat_max_fraction"]) * len(in_play):
            return Refusal("ETO-5.8", f"no more than {r['uboat_max_fraction']} of the U-boats in play "
                                      f"({len(in_play)}) can be posted on the {route.replace('_', ' ')} route")
    return None


def attack(state: State, u: Unit, route: str, escort_stacks: int) -> dict[str, Any]:
    """ETO-5.2, 5.9: one U-boat's attack roll."""
    t = table(state)
    schnorkel = bool(u.props.get("schnorkel"))
    mod = -int(t["minus_per_escort_stack"]) * escort_stacks + (int(t["schnorkel_roll_mod"]) if schnorkel else 0)
    dice = state.roll(int(t["dice"]), purpose=f"{u.id} attacks the {route.replace('_', ' ')} convoys "
                                               f"({escort_stacks} escort stack(s){', schnorkel +2' if schnorkel else ''})",
                      rule=RULE, side="axis")
    total = sum(dice) + mod
    ok = total >= int(t["success_at"])
    return {"uboat": u.id, "dice": list(dice), "modified": total, "success": ok,
            "doubles": ok and dice[0] == dice[1], "natural": sum(dice), "damaged": naval_units.damaged(u),
            "schnorkel": schnorkel}


def route_loss(state: State, route: str, results: list[dict[str, Any]]) -> int:
    """ETO-5.3, 5.9: a die per successful attack, -1 per damaged successful U-boat, the route's
    modifier per success (South Atlantic -1, US coast +1), +1 per success in the severe zone in
    W weather, +2 per successful schnorkel U-boat."""
    t = table(state)
    wins = [r for r in results if r["success"]]
    if not wins:
        return 0
    dice = state.roll(len(wins), purpose=f"EP loss on the {route.replace('_', ' ')} route "
                                         f"({len(wins)} successful attack(s))", rule="ETO-5.3", side="axis")
    total = sum(dice)
    per = int(convoys.routes(state)[route].get("uboat_ep_mod", 0))
    winter = convoys.zone(state, route) == "severe" and state.tracks.get("weather") == "W"
    for r in wins:
        total += per
        total += int(t["damaged_success_mod"]) if r["damaged"] else 0
        total += int(t["severe_winter_mod"]) if winter else 0
        total += int(t["schnorkel_ep_mod"]) if r["schnorkel"] else 0
    return max(0, total)


def _hit_target(state: State, route: str, natural: int) -> tuple[Unit, str] | None:
    """ETO-5.5: the escort a doubles success hits: in the route's own box if it holds escorts,
    else in the North Atlantic box (then the UK picks).  A 12 may strike any escort (CV/CVE
    included); other doubles a DD or DE."""
    t = table(state)
    box_route = route if convoys.escorts(state, route) else "north_atlantic"
    kinds = None if natural >= int(t["any_escort_on"]) else ("DD", "DE")
    cands = [u for u in convoys.escorts(state, box_route) if kinds is None or naval_units.kind(state, u) in kinds]
    if not cands:
        return None
    german = box_route == route

    half = float(convoys.table(state)["escorts"]["damaged"])

    def lost(u: Unit) -> tuple[float, bool]:
        """Escort value the hit takes off, and whether it sinks the unit (9.5: damaged + hit)."""
        v = convoys.escort_value(state, u, box_route)
        if naval_units.damaged(u):
            return v, True
        return (v - half if naval_units.kind(state, u) in ("DD", "DE", "CL") else v), False

    key = (lambda u: (-lost(u)[0], not lost(u)[1], u.id)) if german else (lambda u: (lost(u)[0], lost(u)[1], u.id))
    return sorted(cands, key=key)[0], "German" if german else "UK"


def uboat_step(state: State, *_: Any) -> list[dict[str, Any]]:
    """ETO-5.0-5.5: every route's U-boat attacks, losses, then the escort hits (none in 47.5's
    Cold War clash)."""
    out: list[dict[str, Any]] = []
    if not alternative_endings.strategic_warfare_allowed(state, "uboats"):
        return out
    hits: list[tuple[str, int]] = []
    for route, boats in convoys.open_routes(state, uboats_on, "ETO-5.1", "U-boats"):
        esc = convoys.stacks(state, route)
        commit_escort_air(state, route)
        results = [attack(state, u, route, esc) for u in boats]
        for r, u in zip(results, boats, strict=True):
            if not r["success"]:
                naval_units.damage(state, u, RULE, f" attacking the {route.replace('_', ' ')} convoys")
            elif r["doubles"]:
                hits.append((route, r["natural"]))
        loss = route_loss(state, route, results)
        shares = convoys.lose_eps(state, route, loss, "ETO-5.3", f"U-boats on the {route.replace('_', ' ')} route")
        out.append({"route": route, "stacks": esc, "attacks": results, "eps": loss, "shares": shares})
    for route, natural in hits:  # 5.5: after all U-boat attacks on the board
        pick = _hit_target(state, route, natural)
        if pick is None:
            continue
        u, who = pick
        naval_units.damage(state, u, "ETO-5.5", f" by a U-boat on the {route.replace('_', ' ')} route ({who} choice)")
    return out


def commit_escort_air(state: State, route: str) -> list[str]:
    """ETO-12.2: "Convoy escort against U-boats (Allied naval air only)" is a Strategic Warfare
    mission: the naval air of the carriers counted as escorts (5.6) in the box of a route the
    U-boats attack is marked PC for the turn (3.5: already-committed interceptors still count).
    Returns the ids marked."""
    marked = []
    for cv in convoys.escorts(state, route):
        if naval_units.kind(state, cv) not in ("CV", "CVE") or not convoys.escort_value(state, cv, route):
            continue
        for u in air_units.air_units(state, cv.side):
            if u.props.get("carrier") == cv.id and u.location == cv.location and commitment.status(state, u) is None:
                commitment.mark(state, u, commitment.PC, "ETO-12.2",
                                f"it escorts the {route.replace('_', ' ')} convoys against U-boats")
                marked.append(u.id)
    return marked


# --- 11.5: converting U-boats and submarines ---------------------------------------------------

def _pool(state: State, utype: str) -> list[Unit]:
    from workbench.rulesets.eto import values

    return sorted((u for u in state.units_by_id.values() if u.location == values.FORCE_POOL and u.type == utype
                   and u.nation == "GE"), key=lambda u: u.id)


def convert_why_not(state: State, u: Unit) -> Refusal | None:
    """ETO-11.5: an on-map U-boat that has not yet done strategic warfare this turn becomes two
    SS (one if damaged), from the force pool, in its place."""
    from workbench.rulesets.eto import values

    if not naval_units.is_uboat(state, u) or u.side != "axis":
        return Refusal("ETO-11.5", f"{u.id} is not a German U-boat")
    if u.location in (values.FORCE_POOL, values.PERMANENT):
        return Refusal("ETO-11.5", f"{u.id} is not in play")
    need = 1 if naval_units.damaged(u) else 2
    if len(_pool(state, "ss")) < need:
        return Refusal("ETO-11.5", f"converting {u.id} needs {need} German SS counter(s) in the force pool")
    return None


def merge_why_not(state: State, subs: list[Unit]) -> Refusal | None:
    """ETO-11.5: in a seasonal turn, two German SS in the same port hex become a U-boat from the
    force pool ("One sub cannot be traded for a damaged U-boat")."""
    if len(subs) != 2 or len({s.id for s in subs}) != 2:
        return Refusal("ETO-11.5", "two German submarines are traded for one U-boat")
    if any(not naval_units.is_submarine(state, s) or s.nation != "GE" for s in subs):
        return Refusal("ETO-11.5", "only German SS units are traded for a U-boat")
    at = subs[0].location
    from workbench.rulesets.eto.sea_transport import is_port

    if subs[1].location != at or not is_port(state, at):
        return Refusal("ETO-11.5", "the two submarines must occupy the same port hex")
    if not _pool(state, "uboat"):
        return Refusal("ETO-11.5", "no U-boat counter is left in the force pool")
    return None


class ConvertUboatOrder(OrderKind):
    """``{"kind": "convert_uboat", "uboat": id}`` at the start of the Strategic Warfare phase
    (ETO-11.5)."""

    kind = "convert_uboat"
    rule = "ETO-11.5"

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def legal(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": self.kind, "uboat": u.id} for u in naval_units.naval_units(state, "axis")
                if naval_units.is_uboat(state, u) and convert_why_not(state, u) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        u = state.units_by_id.get(str(order.get("uboat")))
        if u is None:
            raise IllegalOrder(self.rule, f"there is no unit {order.get('uboat')!r}")
        refuse(convert_why_not(state, u))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.eto import values

        u = state.unit(order["uboat"])
        at, n = u.location, 1 if naval_units.damaged(u) else 2
        subs = _pool(state, "ss")[:n]
        for s in subs:
            s.location = at
            s.reduced = False
            s.props.pop("pool_of", None)
        u.location, u.reduced = values.FORCE_POOL, False
        u.props.pop("schnorkel", None)  # 5.9: converted schnorkels never come back as schnorkels
        u.props["pool_of"] = "GE"
        state.emit("converted", side="axis", rule=self.rule, at=at,
                   text=f"{u.id} converted into {', '.join(s.id for s in subs)} at {at}")


class MergeSubsOrder(OrderKind):
    """``{"kind": "merge_subs", "subs": [id, id]}`` in a seasonal turn's Construction (ETO-11.5)."""

    kind = "merge_subs"
    rule = "ETO-11.5"

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None or d.side != "axis":
            return []
        subs = [u for u in naval_units.naval_units(state, "axis") if naval_units.is_submarine(state, u)
                and u.nation == "GE"]
        out = []
        for i, a in enumerate(subs):
            for b in subs[i + 1:]:
                if merge_why_not(state, [a, b]) is None:
                    out.append({"kind": self.kind, "subs": [a.id, b.id]})
        return out

    def check(self, state: State, order: dict[str, Any]) -> None:
        ids = order.get("subs")
        if not isinstance(ids, list) or not all(isinstance(i, str) and i in state.units_by_id for i in ids):
            raise IllegalOrder(self.rule, "subs is a list of two German submarine ids")
        refuse(merge_why_not(state, [state.unit(i) for i in ids]))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        from workbench.rulesets.eto import values

        subs = [state.unit(i) for i in order["subs"]]
        at = subs[0].location
        boat = _pool(state, "uboat")[0]
        for s in subs:
            s.location, s.reduced = values.FORCE_POOL, False
            s.props["pool_of"] = "GE"
        boat.location, boat.reduced = at, False
        boat.props.pop("pool_of", None)
        boat.props.pop("schnorkel", None)  # 5.9: subs are never converted back into schnorkel U-boats
        boat.props["in_port"] = True
        state.emit("converted", side="axis", rule=self.rule, at=at,
                   text=f"{', '.join(s.id for s in subs)} traded for {boat.id} at {at}")
