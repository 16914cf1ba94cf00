"""Bombing installations (ETO-21.5) on the authored Bombing Table (GAP-06, E22).

:func:`threshold` is 21.5 A (the air units the hex can base without overstacking, plus 1 if
fortified, at most 4), :func:`bombing_result` reads ``tables/bombing.toml`` (the same table
serves 2.2 strategic bombing and 2.4 rail bombing), and :func:`bomb` makes the attack: 2d6,
all the hex's installations destroyed or none, and the asterisk's step loss.

A destroyed hex is recorded like 27.6's (``state.markers["destroyed"][hex]`` = ``{"kind",
"side", "turn"}``, plus ``"installations"`` and ``"rule"``), so 37.5 and 34.4 repair it.  Unlike
27.6 the airfield or fortification marker stays in ``state.markers["forts"]`` (21.5: "Do not
remove an airfield or fortification marker").
"""

from __future__ import annotations

from typing import Any, NamedTuple

from workbench.engine.errors import IllegalOrder
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.eto import air_combat, air_units, values
from workbench.rulesets.eto.construction import DESTROYED, destroyed_installations
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.terrain import terrain_arrays


class BombingResult(NamedTuple):
    column: str
    result: int
    asterisk: bool


def table(tables: dict[str, Any]) -> dict[str, Any]:
    return tables["bombing"]


def column(tables: dict[str, Any], strength: int) -> dict[str, Any]:
    """GAP-06: the Bombing Table column for a total bomber strength (2.2, 2.4, 21.5 B-C)."""
    if strength < 1:
        raise IllegalOrder("ETO-21.5", "no bomber strength to bomb with")
    for col in table(tables)["columns"]:
        if strength >= int(col["min"]) and ("max" not in col or strength <= int(col["max"])):
            return col
    raise IllegalOrder("GAP-06", f"no Bombing Table column for strength {strength}")


def bombing_result(tables: dict[str, Any], strength: int, dice_total: int) -> BombingResult:
    """ETO-21.5 C / 2.2 / 2.4: "rolls two dice and consults the column on the Bombing Table ...
    that corresponds to his bombing strength points"; a roll off the table (2.5's US bonus) reads
    the nearest row.  The asterisk (E22) marks the rolls listed in ``asterisk``."""
    t = table(tables)
    rows = [int(r) for r in t["rows"]]
    roll = min(max(dice_total, rows[0]), rows[-1])
    col = column(tables, strength)
    return BombingResult(str(col["label"]), int(col["results"][rows.index(roll)]), roll in t["asterisk"])


def _marker(state: State, label: str) -> dict[str, Any]:
    return state.markers.get("forts", {}).get(label) or {}


def installations(state: State, label: str) -> list[str]:
    """ETO-21.5: "fortification and airfield markers ... (even if uncompleted), permanent
    fortifications, ports, and any hex that can serve as an airbase (including cities, city
    resource hexes, and resource hexes)" in the hex."""
    ta = terrain_arrays(state)
    i = state.map.index(label)
    out = []
    kind = _marker(state, label).get("kind")
    if kind in ("airfield", "fortification"):
        out.append(f"{kind} marker")
    if ta.fort_hex[i]:
        out.append("permanent fortification")
    if state.map.flag("port")[i]:
        out.append("port")
    if ta.city_resource[i]:
        out.append("city resource hex")
    else:
        out += [n for n, on in (("city", ta.city[i]), ("resource hex", ta.resource[i])) if on]
    return out


def threshold(state: State, label: str) -> int:
    """ETO-21.5 A: "the number of air units that could base in the hex (without over-stacking),
    plus 1 if the hex is fortified", at most 4.  13.2 bases: a resource hex or a city 1 (ports are
    cities: a port that is not a city adds nothing), a city resource hex 2 (so does a city in a
    resource hex: two features), an airfield marker 1 more.  Fortified: a permanent fortification
    or a fortification marker.  Never below 1 (ruling: a table result of 0 destroys nothing)."""
    ta = terrain_arrays(state)
    i = state.map.index(label)
    basing = state.ruleset.tables["air"]["basing"]
    thr = table(state.ruleset.tables)["threshold"]
    if ta.city_resource[i]:
        bases = int(basing["city_resource_bases"])
    else:
        bases = int(basing["bases_per_feature"]) * (int(bool(ta.city[i])) + int(bool(ta.resource[i])))
    kind = _marker(state, label).get("kind")
    if kind == "airfield":
        bases += int(basing["bases_per_feature"])
    fortified = bool(ta.fort_hex[i]) or kind == "fortification"
    n = bases + (int(thr["fortified"]) if fortified else 0)
    return max(int(thr["min"]), min(n, int(thr["max"])))


def _owner(state: State, label: str) -> str | None:
    code = int(control(state)[state.map.index(label)])
    return next((s for s, c in SIDE_CODE.items() if c == code), None)


def default_loser(state: State, bombers: list[Unit]) -> Unit:
    """ETO-21.5 "to a unit selected by the owner": when the owner names none, the bomber whose
    loss costs least: a full two-step unit (it flips) before a one-step or depleted one (it would
    be eliminated), then the lowest strength, then by id."""
    return min(bombers, key=lambda u: (air_units.steps_left(state, u) < 2, air_units.strength(state, u), u.id))


def bomb(state: State, label: str, bombers: list[Unit], *, loser: str | None = None) -> dict[str, Any]:
    """ETO-21.5: the unaborted bombers in ``label`` attack its installations.  B: total their
    strength; C: 2d6 on that column; all installations are destroyed if the result is at least
    the :func:`threshold`, else none; an asterisk costs the bombers one step (``loser``: the
    owner's choice, else :func:`default_loser`).  The US daylight bonus (2.5) does not apply, nor
    the blitzkrieg bonus (44.3)."""
    if not values.on_map_label(label) or not state.map.has_hex(label):
        raise IllegalOrder("ETO-21.5", f"{label!r} is not a map hex")
    if not bombers:
        raise IllegalOrder("ETO-21.5", "no bombers")
    side = bombers[0].side
    for u in bombers:
        if u.side != side:
            raise IllegalOrder("ETO-21.5", f"{u.id} is not on the same side as {bombers[0].id}")
        if u.location != label:
            raise IllegalOrder("ETO-21.5", f"{u.id} is at {u.location}, not over {label}")
        if not air_units.is_air(state, u) or not air_units.is_bomber(state, u):
            raise IllegalOrder("ETO-21.5", f"{u.id} is not flying as a bomber")
        if air_combat.aborted(u):
            raise IllegalOrder("ETO-15.6", f"{u.id} is aborted and cannot bomb installations")
    what = installations(state, label)
    if not what:
        raise IllegalOrder("ETO-21.5", f"there is no installation at {label}")
    owner = _owner(state, label)
    if owner != values.other(side):
        raise IllegalOrder("ETO-21.5", f"the installations at {label} are not the enemy's")
    if label in destroyed_installations(state):
        raise IllegalOrder("ETO-21.5", f"the installations at {label} are already destroyed")
    chosen = None
    if loser is not None:
        chosen = next((u for u in bombers if u.id == loser), None)
        if chosen is None:
            raise IllegalOrder("ETO-21.5", f"{loser!r} is not one of the bombers")
    tables = state.ruleset.tables
    strength = sum(air_units.strength(state, u) for u in bombers)
    need = threshold(state, label)
    col = column(tables, strength)["label"]
    dice = state.roll(2, purpose=f"bombing the installations at {label} ({strength} bomber SP, column {col}; "
                      f"{need} needed)", rule="ETO-21.5", side=side)
    total = int(sum(dice))
    res = bombing_result(tables, strength, total)
    destroyed = res.result >= need
    out: dict[str, Any] = {"hex": label, "strength": strength, "column": res.column, "dice": list(dice),
                           "result": res.result, "asterisk": res.asterisk, "threshold": need,
                           "destroyed": destroyed, "installations": what, "loser": None, "loss": None}
    state.emit("installation_bombing", side=side, rule="ETO-21.5",
               text=f"bombing {label}: {strength} SP, column {res.column}, roll {total}: {res.result}"
                    f"{'*' if res.asterisk else ''} against {need}: "
                    f"{'all installations destroyed' if destroyed else 'no effect'}",
               bombers=[u.id for u in bombers], **{k: v for k, v in out.items() if k not in ("loser", "loss")})
    if destroyed:
        kind = str(_marker(state, label).get("kind") or "installation")
        state.markers.setdefault(DESTROYED, {})[label] = {
            "kind": kind, "side": owner, "turn": state.turn_label, "installations": what, "rule": "ETO-21.5"}
        state.emit("installation_destroyed", side=side, rule="ETO-21.5",
                   text=f"installations at {label} destroyed ({', '.join(what)})", hex=label, installation=kind,
                   installations=what)
    if res.asterisk:
        u = chosen or default_loser(state, bombers)
        out["loser"] = u.id
        out["loss"] = air_combat.lose_step(state, u, "ETO-21.5", f" (anti-aircraft fire over {label})")
    return out
