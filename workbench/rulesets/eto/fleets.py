"""Fleet markers and fleet boxes (ETO-7.9).

"All naval units in the 'British Mediterranean Fleet box', for example, are always assumed to be
wherever the Mediterranean fleet marker is for all purposes, including movement, interception,
and combat."  The kernel keeps every ship of a fleet box at its marker's space (so interception,
search and combat see it there) and marks it ``props["fleet"] = box``: the marker stands wherever
the box's ships are, and an empty box has its marker off the map.  The boxes of each nation are
``tables/naval_movement.toml [fleets]`` (authored).

``{"kind": "fleet", "box": name, "add": [ids], "remove": [ids]}`` puts ships into the box (they
must stand with the marker, in or out of port as its ships are, or anywhere together while the
box is empty) or takes them out (they stay where the marker is).  It costs no movement; a
``sail`` order with ``"fleet": box`` moves the whole box with its marker.
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal, refuse
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import naval_units, sea_spaces

RULE = "ETO-7.9"


def boxes(state: State) -> dict[str, str]:
    """Fleet box -> its nation."""
    t = state.ruleset.tables["naval_movement"].get("fleets", {})
    return {box: nation for nation, names in t.items() if isinstance(names, list) for box in names}


def ships(state: State, box: str) -> list[Unit]:
    """The ships in ``box`` (afloat, on a space)."""
    return [u for u in naval_units.naval_units(state) if u.props.get("fleet") == box
            and (sea_spaces.is_space(state, u.location) or u.location in state.map.boxes)]


def marker_space(state: State, box: str) -> str | None:
    """Where the box's fleet marker stands: its ships' space (None while the box is empty)."""
    fleet = ships(state, box)
    return fleet[0].location if fleet else None


def change_why_not(state: State, side: str, box: str, add: list[str], remove: list[str]) -> Refusal | None:
    """ETO-7.9: a nation's ships enter its own fleet boxes, and only where the marker is."""
    nation = boxes(state).get(box)
    if nation is None:
        return Refusal(RULE, f"there is no fleet box {box!r}")
    if not add and not remove:
        return Refusal(RULE, "name ships to add to the fleet box or to remove from it")
    fleet = ships(state, box)
    for i in remove:
        u = state.units_by_id.get(i)
        if u is None or u not in fleet:
            return Refusal(RULE, f"{i} is not in the {box} box")
    newcomers = []
    for i in add:
        u = state.units_by_id.get(i)
        if u is None or u.side != side or not naval_units.is_naval(state, u):
            return Refusal(RULE, f"{i} is not a naval unit of the side playing now")
        if u.nation != nation:
            return Refusal(RULE, f"the {box} box holds {nation} ships only; {i} is {u.nation}")
        if u.props.get("fleet"):
            return Refusal(RULE, f"{i} is already in the {u.props['fleet']} box")
        if naval_units.is_uboat(state, u):
            return Refusal(RULE, "U-boats do strategic warfare; they join no fleet")
        newcomers.append(u)
    staying = [u for u in fleet if u.id not in remove]
    where = {(u.location, naval_units.in_port(u)) for u in staying + newcomers}
    if len(where) > 1:
        return Refusal(RULE, "ships enter a fleet box only where its marker is (same space, in or out of port alike)")
    if any(naval_units.is_submarine(state, u) for u in newcomers):
        return Refusal("ETO-11.1", "submarines cannot be part of a fleet")
    return None


class FleetOrder(OrderKind):
    """``{"kind": "fleet", "box": name, "add": [...], "remove": [...]}`` (ETO-7.9)."""

    kind = "fleet"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return bool(game.options.get("naval"))

    @staticmethod
    def _ids(order: dict[str, Any], key: str) -> list[str]:
        ids = order.get(key) or []
        if not all(isinstance(i, str) for i in ids):
            raise IllegalOrder(RULE, f"{key} is a list of unit ids")
        return list(ids)

    def check(self, state: State, order: dict[str, Any]) -> None:
        d = state.decision
        refuse(change_why_not(state, d.side if d else "", str(order.get("box")), self._ids(order, "add"),
                              self._ids(order, "remove")))

    def execute(self, state: State, order: dict[str, Any]) -> None:
        box = str(order["box"])
        for i in self._ids(order, "remove"):
            state.units_by_id[i].props.pop("fleet", None)
        for i in self._ids(order, "add"):
            state.units_by_id[i].props["fleet"] = box
        state.emit("fleet", side=state.decision.side, rule=RULE, box=box, at=marker_space(state, box),
                   units=[u.id for u in ships(state, box)],
                   text=f"the {box} box now holds {', '.join(u.id for u in ships(state, box)) or 'no ships'}"
                        + (f" (marker at {marker_space(state, box)})" if marker_space(state, box) else ""))

    def legal(self, state: State) -> list[dict[str, Any]]:
        """Fleet bookkeeping is offered where the box's nation has ships with the marker (or, for
        an empty box, every stack of that nation): adding them all, or emptying the box."""
        d = state.decision
        if d is None:
            return []
        out = []
        for box, nation in sorted(boxes(state).items()):
            fleet = ships(state, box)
            if fleet:
                out.append({"kind": self.kind, "box": box, "remove": [u.id for u in fleet]})
            stacks: dict[tuple[str, bool], list[str]] = {}
            for u in naval_units.naval_units(state, d.side):
                if u.nation == nation and not u.props.get("fleet") and sea_spaces.is_space(state, u.location):
                    stacks.setdefault((u.location, naval_units.in_port(u)), []).append(u.id)
            for (space, port), ids in sorted(stacks.items()):
                if fleet and (space, port) != (fleet[0].location, naval_units.in_port(fleet[0])):
                    continue
                if change_why_not(state, d.side, box, ids, []) is None:
                    out.append({"kind": self.kind, "box": box, "add": ids})
        return out

