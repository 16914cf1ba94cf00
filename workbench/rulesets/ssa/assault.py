"""Amphibious assault (gap G-09, authored; SSA-7.7g, 10.1g, 22.2).

The rulebook names the amphibious assault three times but never gives its
rules: units "may not debark in hexes containing enemy land or naval units,
except by amphibious assault" (SSA-7.7g), assaulting units "are in supply
during that combat phase" (SSA-10.1g), and the defender's "usual 1-column
amphibious defence shift" is lost when marines take part (SSA-22.2).  The
procedure filled in here (docs/rulings-ssa.md, "Amphibious assault"; numbers
in ``tables/assault.toml``) follows the airborne assault the rulebook does
give (SSA-22.1e):

* In the Initial Movement phase, cargo of a convoy in a coastal hex holding
  enemy land units (never enemy fleets: a convoy cannot sail there) lands in
  that hex with an ``amphibious_assault`` order, within the friendly stacking
  limit (SSA-9.1).
* In the Land Combat step the landed units attack only the defenders of their
  own hex; friendly units next to the hex may join.  The defender gains one
  column unless a marine unit attacks (SSA-22.2); the landed units are in
  supply (SSA-10.1g).
* A landed unit told to retreat has only the sea behind it and is eliminated;
  landed units that have not cleared every defender from the hex when the
  Land Combat step ends are eliminated.  Once the hex is clear, the landing
  gives the hex's line control as a move through it would (SSA-5.7e).
"""

from __future__ import annotations

from typing import Any

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.special_units import is_special
from workbench.rulesets.ssa.stacking import land_room

#: ``unit.props`` key: the hex a unit landed in by amphibious (or airborne) assault this player turn.
LANDED = "assault_hex"
#: ``unit.props`` key: ``"airborne"`` for an airborne assault (SSA-22.1e); absent: amphibious.
KIND = "assault_kind"


def settings(state: State, unit: Unit | None = None) -> dict[str, Any]:
    """``tables/assault.toml``: the section of ``unit``'s kind of landing (amphibious by default)."""
    kind = unit.props.get(KIND, "amphibious") if unit is not None else "amphibious"
    return state.ruleset.tables["assault"][kind]


def _rule(unit: Unit) -> str:
    return "SSA-22.1e" if unit.props.get(KIND) == "airborne" else "SSA-7.7g"


def _what(unit: Unit) -> str:
    return "airborne assault" if unit.props.get(KIND) == "airborne" else "amphibious assault"


def landed_at(unit: Unit) -> str | None:
    """The hex ``unit`` assaulted this turn, or ``None`` (SSA-10.1g, G-09)."""
    return unit.props.get(LANDED)


def _enemy_here(state: State, side: str, label: str) -> tuple[list[Unit], list[Unit]]:
    """(enemy land units, enemy fleets) in ``label``."""
    land, fleets = [], []
    for u in state.units_by_id.values():
        if u.location != label or u.side == side or u.props.get("carried"):
            continue
        if values.is_land(state, u) and not values.is_leader(state, u):
            land.append(u)
        elif values.domain(state, u) == "naval":
            fleets.append(u)
    return land, fleets


def defender_shifts(state: State, attackers: list[Unit]) -> list[tuple[int, str, str]]:
    """The defender's column shifts against units that landed in its hex this turn: one against an
    amphibious assault unless a marine attacks (SSA-22.2), one against an airborne assault (22.1e)."""
    shifts = state.ruleset.tables["crt"]["shifts"]
    out: list[tuple[int, str, str]] = []
    if any(landed_at(u) and u.props.get(KIND) != "airborne" for u in attackers) \
            and not any(is_special(state, u, "SSA-22.2") for u in attackers):  # marines only with 22.2 (22.G)
        s = shifts["amphibious_assault"]
        out.append((int(s["columns"]), "amphibious assault (no marines)", str(s["rule"])))
    if any(landed_at(u) and u.props.get(KIND) == "airborne" for u in attackers):
        s = shifts["airborne_assault_onto_enemy"]
        out.append((int(s["columns"]), "airborne assault onto enemy units", str(s["rule"])))
    return out


class AmphibiousAssaultOrder(OrderKind):
    """G-09 (authored), SSA-7.7g: cargo lands in a coastal hex held by enemy land units.

    ``{"kind": "amphibious_assault", "convoy": id, "units": [ids]}``."""

    kind = "amphibious_assault"
    rule = "SSA-7.7g"

    def _why_not(self, state: State, convoy: Unit, unit: Unit) -> Refusal | None:
        here = convoy.location
        cfg = settings(state)
        if not here.isdigit():
            return Refusal("SSA-7.7g", "an amphibious assault lands in a map hex, not in a holding area")
        if not state.map.flag("coastal")[state.map.index(here)]:
            return Refusal("SSA-7.7e", "cargo lands only in a coastal hex")
        land, fleets = _enemy_here(state, unit.side, here)
        if fleets:
            return Refusal("SSA-7.7g", "no landing among enemy naval units, not even by assault")
        if not land:
            return Refusal("SSA-7.7g", f"{here} holds no enemy land units; debark there instead of assaulting")
        if not values.is_land(state, unit) or values.is_leader(state, unit):
            return Refusal("SSA-7.7g", f"only land combat units make an amphibious assault ({unit.id} is not one)")
        if unit.type in cfg.get("barred_types", []):
            return Refusal("SSA-7.7g", f"{unit.type.replace('_', ' ')} units do not assault (tables/assault.toml)")
        return None

    def _cargo(self, state: State, side: str) -> list[tuple[Unit, Unit]]:
        out = []
        for u in state.units_by_id.values():
            carrier = u.props.get("carried")
            if u.side == side and carrier and carrier in state.units_by_id \
                    and values.domain(state, state.unit(carrier)) == "naval":  # not troops aloft (SSA-22.1)
                out.append((state.unit(carrier), u))
        return out

    def legal(self, state: State) -> list[dict[str, Any]]:
        side = state.decision.side
        return [{"kind": self.kind, "convoy": c.id, "units": [u.id]} for c, u in self._cargo(state, side)
                if self._why_not(state, c, u) is None and land_room(state, side, c.location, u) is None]

    def check(self, state: State, order: dict[str, Any]) -> None:
        units = order.get("units")
        if not isinstance(units, list) or not units or not all(isinstance(x, str) for x in units):
            raise IllegalOrder(self.rule, "name the units that land")
        convoy = state.units_by_id.get(order.get("convoy"))  # type: ignore[arg-type]
        if convoy is None or convoy.side != state.decision.side or values.domain(state, convoy) != "naval":
            raise IllegalOrder(self.rule, f"{order.get('convoy')!r} is not one of your convoys")
        for uid in units:
            u = state.units_by_id.get(uid)
            if u is None or u.side != convoy.side or u.props.get("carried") != convoy.id:
                raise IllegalOrder(self.rule, f"{uid!r} is not aboard {convoy.id}")
            why = self._why_not(state, convoy, u)
            if why:
                raise IllegalOrder.of(why, self.rule)
            refusal = land_room(state, convoy.side, convoy.location, u)
            if refusal is not None:
                raise refusal

    def execute(self, state: State, order: dict[str, Any]) -> None:
        convoy = state.unit(order["convoy"])
        for uid in order["units"]:
            u = state.unit(uid)
            u.flag("carried", None)
            u.location = convoy.location
            u.props["moved"] = state.step.path if state.step else "assault"
            u.props["mf_spent"] = 10**6  # landed units move no further this phase
            u.flag(LANDED, convoy.location)  # a status that changes supply (SSA-10.1g)
        state.emit("amphibious_assault", side=convoy.side, rule="SSA-7.7g",
                   text=f"{', '.join(order['units'])} storm ashore at {convoy.location}",
                   convoy=convoy.id, units=order["units"], at=convoy.location)


def retreat_instead(state: State, unit_ids: list[str], rule: str) -> list[str]:
    """G-09: a landed unit told to retreat has only the sea behind it; it is eliminated.

    Returns the units that retreat normally."""
    from workbench.rulesets.ssa.losses import eliminate

    rest = []
    for uid in unit_ids:
        u = state.unit(uid)
        if landed_at(u) and u.location == landed_at(u) and settings(state, u).get("retreat_means_elimination", True):
            eliminate(state, u, rule, " (amphibious assault: no retreat but into the sea)"
                      if u.props.get(KIND) != "airborne" else " (airborne assault: the hex was not cleared)")
        else:
            rest.append(uid)
    return rest


def end_of_land_combat(state: State, side: str) -> None:
    """G-09, SSA-10.1g: the assault succeeds only if the landed units cleared the hex.

    Landed units sharing a hex with enemy land units when the Land Combat step
    ends are eliminated; a cleared hex gets the lander's line control (SSA-5.7e)."""
    from workbench.rulesets.ssa.control import pass_through
    from workbench.rulesets.ssa.losses import eliminate

    for u in sorted(state.units_by_id.values(), key=lambda x: x.id):
        at = landed_at(u)
        if u.side != side or at is None:
            continue
        cfg, rule, what = settings(state, u), _rule(u), _what(u)
        u.flag(LANDED, None)
        u.flag(KIND, None)
        if u.location != at:
            continue
        land, _ = _enemy_here(state, side, at)
        if land and cfg.get("eliminated_if_not_cleared", True):
            eliminate(state, u, rule, f" ({what} at {at} did not clear the hex)")
        elif not land:
            pass_through(state, u, [state.map.index(at)])


def in_supply(state: State, unit: Unit) -> bool:
    """SSA-10.1g: a unit that landed by assault this player turn is in supply in its hex."""
    return landed_at(unit) == unit.location and bool(settings(state, unit).get("in_supply_during_combat", True))


def attack_refusal(state: State, attacker: Unit, target: str, adjacent: bool) -> Refusal | None:
    """G-09: who may attack what when a landing is involved (the SSA-11.1 adjacency test's exception).

    A landed unit attacks only its own hex; others attack adjacent hexes as usual,
    and may join an attack on a landing hex unless the table forbids it."""
    at = landed_at(attacker)
    cfg = settings(state, attacker)
    if at is not None and attacker.location == at:
        if target != at and cfg.get("attack_only_own_hex", True):
            return Refusal(_rule(attacker), f"{attacker.id} landed by {_what(attacker)} at {at} and may attack "
                           "only the defenders there")
        if target == at:
            return None
    if not adjacent:
        return Refusal("SSA-11.1", f"{attacker.id} is not adjacent to {target}; every attacker must be adjacent "
                                   "to every hex it attacks")
    if any(landed_at(u) == target and u.location == target and u.side == attacker.side
           and not settings(state, u).get("adjacent_units_may_join", True) for u in state.units_by_id.values()):
        return Refusal("SSA-7.7g", f"only the units that landed at {target} attack it this turn (tables/assault.toml)")
    return None
