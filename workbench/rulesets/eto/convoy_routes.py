"""Convoy routes open and closed (ETO-36.4).

The North and South Atlantic routes run unless the UK closes them; the Arctic route runs only
once the Western Allies open it (and must, to send more than 5 EPs of lend lease, 36.5); the US
coast route runs from January 1942 unless the US closes it.  Routes are closed and opened only
in the Income phase (Step 3, ``close_route`` / ``open_route``).  Each seasonal turn a route
stands closed by choice costs its printed EPs from the *next* seasonal income (the rulebook's
example: North and South Atlantic closed in winter, spring's income 45 lower).  The Arctic route
closes by itself when the Axis holds Murmansk in a winter seasonal turn, or Murmansk and
Archangel in another; the Atlantic routes when the UK is conquered.  :func:`convoys.closed`
asks :func:`closed_now` here.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.rulesets.eto import politics
from workbench.rulesets.eto.control import AXIS, control

RULE = "ETO-36.4"


def _t(state: State) -> dict[str, Any]:
    """``tables/income.toml [convoy_closure]``: per route the nation that closes it and pays,
    its EPs, when it opens, whether it opens only by choice (the Arctic)."""
    return {k: v for k, v in state.ruleset.tables["income"]["convoy_closure"].items() if isinstance(v, dict)}


def _month(state: State) -> str:
    """The month a turn stands for: a seasonal turn is the month it comes before."""
    from workbench.rulesets.eto.values import month_key

    k = month_key(state.turn_label)
    y, m = divmod(int(k + 0.5) - 1, 12)
    return f"{y:04d}-{m + 1:02d}"


def sent(state: State, a: str, b: str) -> int:
    """EPs ``a`` sent ``b`` in lend lease this season (36.5-36.9; 4.4 and 36.5's Arctic rule read
    these)."""
    return int(state.tracks.get(f"lend_lease.{a}.{b}", 0))


def to_soviet_this_season(state: State) -> int:
    return sent(state, "UK", "SU") + sent(state, "US", "SU")


def chosen_closed(state: State, route: str) -> bool:
    return bool(state.tracks.get(f"convoy.{route}.closed"))


def closed_now(state: State, route: str) -> str | None:
    """Why ``route`` is closed now by 36.4 (``None`` while it runs)."""
    row = _t(state).get(route)
    if row is None:
        return None
    if row.get("open_from") and _month(state) < row["open_from"] and not state.tracks.get(f"convoy.{route}.opened_early"):
        return f"it opens in {row['open_from']}"
    if row.get("opened_by_choice") and not state.tracks.get(f"convoy.{route}.open"):
        return "the Western Allies have not opened it"
    if chosen_closed(state, route):
        return f"{row['nation']} closed it"
    conquered = politics.war_state(state).get("conquered", {})
    if "UK" in conquered and route in ("north_atlantic", "south_atlantic") \
            and not state.tracks.get(f"convoy.{route}.reopened"):
        return "the United Kingdom is conquered"
    return None


def close_why_not(state: State, side: str, route: str, *, opening: bool = False) -> Refusal | None:
    """Why the Western Allies may not close (or open) ``route`` now (36.4)."""
    rows = _t(state)
    if route not in rows:
        return Refusal(RULE, f"{route!r} is no convoy route (known: {', '.join(sorted(rows))})")
    if side != "allies":
        return Refusal(RULE, "only the Western Allies close and open convoy routes")
    row = rows[route]
    if opening:
        if row.get("open_from") and _month(state) < row["open_from"]:
            return Refusal(RULE, f"the {route.replace('_', ' ')} route opens only in {row['open_from']}")
        if closed_now(state, route) is None:
            return Refusal(RULE, f"the {route.replace('_', ' ')} route is already open")
        if route == "arctic" and _auto_arctic_closure(state):
            return Refusal(RULE, _auto_arctic_closure(state) or "")
        if not (chosen_closed(state, route) or row.get("opened_by_choice")):
            return Refusal(RULE, f"the {route.replace('_', ' ')} route was not closed by choice")
        return None
    if closed_now(state, route) is not None:
        return Refusal(RULE, f"the {route.replace('_', ' ')} route is already closed")
    if route == "arctic" and to_soviet_this_season(state) > int(
            state.ruleset.tables["income"]["lend_lease"]["arctic_must_open_if_more_than"]):
        return Refusal("ETO-36.5", "more than 5 EPs of lend lease went to the USSR this season: the Arctic "
                       "route must stay open")
    return None


def _auto_arctic_closure(state: State) -> str | None:
    """36.4: the Axis holds Murmansk in a winter seasonal turn, or Murmansk and Archangel."""
    row = _t(state)["arctic"]
    hm = state.map
    ctrl = control(state)
    held = [p for p in (row["murmansk"], row["archangel"]) if ctrl[hm.index(hm.hex_of(p))] == AXIS]
    winter = state.turn_label.endswith("winter")
    if row["murmansk"] in held and (winter or len(held) == 2):
        return f"the Axis controls {' and '.join(held)}: the Arctic route closes"
    return None


def step(state: State, _step: Any = None) -> None:
    """Income phase Step 3 (36.4), before the players' choices: the automatic closures."""
    why = _auto_arctic_closure(state)
    if why and state.tracks.get("convoy.arctic.open"):
        state.tracks["convoy.arctic.open"] = 0
        state.emit("convoy_closed", side="allies", rule=RULE, route="arctic", text=why)


def charge(state: State, _step: Any = None) -> None:
    """End of Step 3: every route standing closed by choice costs its EPs from the next seasonal
    income (36.4, 36.2)."""
    for route, row in sorted(_t(state).items()):
        cost = int(row.get("eps", 0))
        if cost and chosen_closed(state, route):
            key = f"{row['nation']}.closure_pending"
            state.tracks[key] = int(state.tracks.get(key, 0)) + cost
            state.emit("convoy_closure_cost", side="allies", rule=RULE, route=route, eps=cost,
                       text=f"the {route.replace('_', ' ')} route stays closed: {row['nation']} loses {cost} "
                            "EPs from next season's income")


def debit(state: State, nation: str) -> int:
    """36.2: the closure EPs ``nation`` owes this Income phase (and clears them)."""
    return int(state.tracks.pop(f"{nation}.closure_pending", 0))


class CloseRouteOrder(OrderKind):
    """``{"kind": "close_route", "route": name}`` in Income Step 3 (ETO-36.4)."""

    kind = "close_route"
    rule = RULE
    opening = False

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval")) and bool(game.options.get("strategic-warfare"))

    def legal(self, state: State) -> list[dict[str, Any]]:
        d = state.decision
        if d is None:
            return []
        return [{"kind": self.kind, "route": r} for r in sorted(_t(state))
                if close_why_not(state, d.side, r, opening=self.opening) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        if d is None:
            raise IllegalOrder(self.rule, "no decision is open")
        refuse(close_why_not(state, d.side, str(order.get("route")), opening=self.opening))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        r = order["route"]
        row = _t(state)[r]
        if row.get("opened_by_choice"):
            state.tracks[f"convoy.{r}.open"] = 0
        else:
            state.tracks[f"convoy.{r}.closed"] = 1
        state.emit("convoy_closed", side="allies", rule=self.rule, route=r,
                   text=f"{row['nation']} closes the {r.replace('_', ' ')} route"
                        + (f" (costs {row['eps']} EPs from next season's income)" if row.get("eps") else ""))


class OpenRouteOrder(CloseRouteOrder):
    """``{"kind": "open_route", "route": name}``: open the Arctic route, or reopen one closed by
    choice (ETO-36.4); the same checks as a closure, read the other way."""

    kind = "open_route"
    opening = True

    def execute(self, state: State, order: dict[str, Any]) -> None:
        open_route(state, order["route"], self.rule, "the Western Allies open")


def open_route(state: State, route: str, rule: str, who: str) -> None:
    row = _t(state)[route]
    if row.get("opened_by_choice"):
        state.tracks[f"convoy.{route}.open"] = 1
    state.tracks.pop(f"convoy.{route}.closed", None)
    state.emit("convoy_opened", side="allies", rule=rule, route=route,
               text=f"{who} the {route.replace('_', ' ')} route")
