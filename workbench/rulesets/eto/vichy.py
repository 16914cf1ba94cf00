"""Creating Vichy France (ETO-40.4).

As soon as German units have taken Paris and two of Lyons, Marseilles, Bordeaux and St. Nazaire,
the German player decides at once (an interrupt): ``create_vichy``, or ``pass`` and forgo it for
good.  Created, France is conquered as far as its forces go (units out, ships diced, 40.1/40.2),
its territory north of the temporary border becomes German-conquered, and the rest of France
with every French colony becomes Vichy France: neutral territory (``zone.VF``), inviolate until
the next winter seasonal turn, then invadable like any neutral (39.3).  Vichy never has forces.
If the rest of France is liberated while Vichy is neutral, Vichy's territory turns Allied at once.
The zone south of the border is an authored polygon (``tables/politics.toml [vichy]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import conquest, holders, politics, values
from workbench.rulesets.eto import control as ctl
from workbench.rulesets.eto.terrain import hex_lonlat, terrain_arrays

RULE = "ETO-40.4"
INTERRUPT = "vichy"
DECLINED = "vichy-declined"


def _t(state: State) -> dict[str, Any]:
    return politics.table(state)["vichy"]


def south_zone(state: State) -> np.ndarray:
    """French home hexes south of the temporary border (the authored polygon)."""
    def make() -> np.ndarray:
        import shapely

        lon, lat = hex_lonlat(state)
        inside = shapely.contains_xy(shapely.Polygon(_t(state)["zone"]), lon, lat)
        return inside & ctl.home_mask(state, _t(state)["france"], original=True)
    return state.game.cached(("eto.vichy_zone",), make)


def conditions_met(state: State) -> bool:
    """Paris and any two of the four cities captured or occupied by German units (held by the
    Axis, taken by a German unit)."""
    t = _t(state)
    hm = state.map
    ctrl = ctl.control(state)

    def held(place: str) -> bool:
        return bool(ctrl[hm.index(hm.hex_of(place))] == ctl.AXIS)
    return held(t["paris"]) and sum(held(c) for c in t["cities"]) >= int(t["of_cities"])


def on_capture(state: State, unit: Unit, _taken: np.ndarray) -> None:
    """The moment the conditions are first met by a German capture: the German player decides."""
    t = _t(state)
    if not politics.on(state.game) or unit.nation != t["creator"]:
        return
    ws = politics.war_state(state)
    if ws.get("vichy") or ws.get("vichy_declined") or t["france"] in ws.get("conquered", {}):
        return
    if politics.partnership(state, t["france"]) is None or not conditions_met(state):
        return
    state.push_interrupt(INTERRUPT, "axis", RULE, "create Vichy France now, or forgo it for good?",
                         ["create_vichy", "pass"], on_pass=DECLINED)


def declined(state: State, _frame: Any = None) -> None:
    """40.4: "or forever forego the opportunity"."""
    politics.writable(state)["vichy_declined"] = True
    state.emit("vichy_declined", side="axis", rule=RULE, text="Germany forgoes Vichy France for good")


def next_winter(label: str) -> str:
    """The next winter seasonal turn after ``label`` (it comes before January)."""
    return f"{int(label[:4]) + 1}-winter"


def create(state: State) -> None:
    """ETO-40.4's effects, at once."""
    t = _t(state)
    fr, vf = t["france"], t["nation"]
    conquest.conquer(state, fr, t["creator"])  # "treat French units as if the country had been conquered"
    ta = terrain_arrays(state)
    zone = (south_zone(state) | (politics.territory(state, fr) & ~ctl.home_mask(state, fr, original=True))) & ta.land
    state.arrays[f"zone.{vf}"] = zone.astype(np.int8)
    ctl.control(state)[zone] = ctl.NEUTRAL
    holders.assign(state, zone, vf)  # neutral Vichy's own hexes (ruling P22)
    ws = politics.writable(state)
    ws["vichy"] = True
    inside = sorted(u.id for u in departing(state))
    if inside:
        ws["vichy_departure"] = True  # 40.4: they must leave first; the inviolate year starts after
    ws["vichy_inviolate_until"] = next_winter(state.turn_label)
    state.emit("vichy_created", side="axis", rule=RULE, units_inside=inside,
               text="Vichy France created: northern France German-conquered; southern France and the French "
                    f"colonies neutral until {ws['vichy_inviolate_until']}"
                    + (f"; {len(inside)} units must leave Vichy territory" if inside else ""))


def zone(state: State) -> np.ndarray | None:
    z = state.arrays.get(f"zone.{_t(state)['nation']}")
    return None if z is None else z.astype(bool)


def departing(state: State) -> list[Unit]:
    """ETO-40.4: the land units still in Vichy territory ("Allied and Axis units must leave Vichy
    territory as soon as possible")."""
    z = zone(state)
    if z is None:
        return []
    hm = state.map
    return [u for u in state.units_by_id.values() if values.on_map(u) and values.is_land_unit(state, u)
            and u.nation != _t(state)["nation"] and hm.has_hex(u.location) and z[hm.index(u.location)]]


def open_to(state: State, unit: Unit) -> np.ndarray | None:
    """``holders.OPEN_HOOKS``: during the departure a unit inside may cross Vichy territory to leave."""
    if not politics.war_state(state).get("vichy_departure"):
        return None
    z = zone(state)
    if z is None or not values.on_map(unit) or not z[state.map.index(unit.location)]:
        return None
    return z


def move_why_not(state: State, unit: Unit, path: list[str], reach: Any) -> Refusal | None:
    """``movement.MOVE_CHECKS``: a unit in Vichy territory leaves it "as soon as possible": its move
    may not end inside when a hex outside is in its reach (ruling P27)."""
    if not politics.war_state(state).get("vichy_departure") or not path:
        return None
    z = zone(state)
    hm = state.map
    if z is None or not values.on_map(unit) or not z[hm.index(unit.location)] or not z[hm.index(path[-1])]:
        return None
    if any(not z[b] for b in reach()):
        return Refusal(RULE, f"{unit.id} must leave Vichy territory as soon as possible: it can reach a hex outside it")
    return None


def after_entry(state: State, unit: Unit, labels: list[str]) -> None:
    """``control.ENTRY_HOOKS``: the departure ends when the last unit is out; the year of inviolate
    neutrality runs from then to the next winter seasonal turn (40.4)."""
    ws = politics.war_state(state)
    if not ws.get("vichy_departure") or departing(state):
        return
    w = politics.writable(state)
    w.pop("vichy_departure", None)
    w["vichy_inviolate_until"] = next_winter(state.turn_label)
    state.emit("vichy_departed", side="axis", rule=RULE,
               text=f"every unit has left Vichy territory: its neutrality is inviolate until {w['vichy_inviolate_until']}")


def invasion_why_not(state: State, target: str) -> str | None:
    """Vichy's neutrality is inviolate until the next winter seasonal turn (40.4)."""
    ws = politics.war_state(state)
    if target != _t(state)["nation"]:
        return None
    if not ws.get("vichy"):
        return "Vichy France does not exist"
    from workbench.rulesets.eto.values import month_key

    until = ws.get("vichy_inviolate_until")
    if until and month_key(state.turn_label) < month_key(until):
        return f"Vichy France's neutrality is inviolate until the {until} seasonal turn"
    return None


def on_liberation(state: State, nation: str) -> None:
    """40.4: France liberated while Vichy is neutral: Vichy territory is Allied at once."""
    vf = _t(state)["nation"]
    if nation != _t(state)["france"] or not politics.war_state(state).get("vichy") or not politics.neutral(state, vf):
        return
    politics.join(state, vf, "western")
    state.emit("vichy_joins", side="allies", rule=RULE, text="France liberated: Vichy territory becomes Allied")


class CreateVichyOrder(OrderKind):
    """``{"kind": "create_vichy"}`` in the interrupt that opens when 40.4's conditions are met."""

    kind = "create_vichy"
    rule = RULE

    def in_game(self, game: Any) -> bool:
        return politics.on(game)

    def legal(self, state: State) -> list[dict[str, Any]]:
        return [{"kind": self.kind}]

    def check(self, state: State, order: dict[str, Any]) -> None:
        f = state.frames[-1] if state.frames else {}
        if f.get("interrupt") != INTERRUPT:
            raise IllegalOrder(self.rule, "Vichy France can be created only the moment its conditions are met")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        state.pop_interrupt()
        create(state)


if on_capture not in ctl.CAPTURE_HOOKS:
    ctl.CAPTURE_HOOKS.append(on_capture)
if on_liberation not in conquest.LIBERATION_HOOKS:
    conquest.LIBERATION_HOOKS.append(on_liberation)
if open_to not in holders.OPEN_HOOKS:
    holders.OPEN_HOOKS.append(open_to)
if move_why_not not in holders.MOVE_CHECKS:
    holders.MOVE_CHECKS.append(move_why_not)
if after_entry not in ctl.ENTRY_HOOKS:
    ctl.ENTRY_HOOKS.append(after_entry)
