"""Subversion of Latin America (optional rule SSA-27) and the country side-changes it shares
with the war events (SSA-25.3 coups, SSA-18.8-18.10 countries entering the war).

* SSA-27.G, 27.1: in his Special Action Phase (SSA-4.2a) a player may order
  ``{"kind": "subvert", "country": "HN"}`` against a country of SSA-27.2 that is neutral or
  Allied (Axis), or that the Axis made pro-Axis by subversion or a coup (Allies, SSA-27.5).
* SSA-27.3: the attempt is made by the player's special-operations units in a city of the
  country (anywhere in it if it has no city on the map).  Their number (1, 2, 3 or more) picks
  the column of the Subversion Table (tables/subversion.toml ``[chart]``, authored, gap G-16);
  one die, +1 at High morale, -1 at Poor (morale.toml ``[levels]``).  ``units`` may list the
  units taking part; by default all that qualify do.
* SSA-27.3a, 27.4, 27.5: "P": the country turns to the subverting side with its armed forces
  (:func:`turn_country`).  SSA-27.3b: no effect: attempting units sharing a hex with enemy
  units are eliminated.
* SSA-27.6: one attempt per player per country per turn (``markers["subversion_attempts"]``).

Country state: ``markers["country_side"][code]`` overrides the scenario's ``[control]`` (or
countries.toml ``[default_control]``) for a country that changed sides in play;
``markers["pro_axis_by"][code]`` records an Axis subversion or coup (what the Allies may undo).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.ruleset import OrderKind
from workbench.engine.state import State
from workbench.engine.units import Unit
from workbench.rulesets.ssa import values
from workbench.rulesets.ssa.control import SIDE_CODE, control_array
from workbench.rulesets.ssa.losses import ELIMINATED, eliminate
from workbench.rulesets.ssa.occupation import city_hexes, coup

OPTIONAL_RULE = "SSA-27"


def table(state: State) -> dict[str, Any]:
    return state.ruleset.tables["subversion"]


def in_use(state: State, rule: str) -> bool:
    """Whether optional rule ``rule`` (``"SSA-25"``, ``"SSA-27"``) is switched on for this game."""
    return rule in state.game.options.get("optional_rules", [])


def morale_level(state: State, side: str) -> str | None:
    """SSA-21.2: ``"high"``, ``"average"``, ``"poor"`` (``"low"`` in 25.3) or ``"capitulation"`` from
    the side's morale track and morale.toml ``[levels]``; ``None`` if the scenario keeps no track."""
    key = f"{side}.morale"
    if key not in state.tracks:
        return None
    level = float(state.tracks[key])
    levels = state.ruleset.tables["morale"]["levels"]
    for name, bounds in levels.items():
        if isinstance(bounds, list) and bounds[0] <= level <= bounds[1]:
            return name
    return "capitulation" if level <= levels.get("capitulation", 0) else "high"


def country_mask(state: State, code: str) -> np.ndarray | None:
    """``bool[N]``: the country's hexes on the map (``None`` if it has none)."""
    from workbench.rulesets.ssa.deployment import geography

    mask = geography(state).country.get(code)
    return mask if mask is not None and mask.any() else None


def country_side(state: State, code: str) -> str | None:
    """Who a country belongs to now: ``"axis"``, ``"allies"``, ``"neutral"`` or ``None`` (unknown)."""
    changed = state.markers.get("country_side", {})
    if code in changed:
        return changed[code]
    given = state.game.scenario.raw.get("control", {})
    default = state.ruleset.tables.get("countries", {}).get("default_control", {})
    val = given.get(code, default.get(code))
    return val if val in ("axis", "allies", "neutral") else None


def subvertible(state: State) -> dict[str, str]:
    """SSA-27.2: map country code -> nation code of its units (tables/subversion.toml)."""
    return {k: v for k, v in table(state)["countries"].items() if k not in ("source", "rule")}


def nation_of(state: State, code: str) -> str | None:
    """The nation code of a country's units (SSA-27.2 countries; also used for coups, SSA-25.3)."""
    return subvertible(state).get(code)


def turn_country(state: State, code: str, side: str, rule: str, how: str) -> None:
    """SSA-27.4, 27.5, 17.2: country ``code`` turns to ``side`` with its armed forces.

    Its cities change hands as in a coup (occupation.coup: pro-Axis cities are retaken and held
    by the Allies only with a Military Government, SSA-17.4c), its hexes become ``side``'s
    (line control, SSA-5.7e) and stop being neutral, and its units join ``side`` and may move
    (they count as having entered the war, special.frozen)."""
    coup(state, code, side)
    mask = country_mask(state, code)
    if mask is not None:
        control_array(state)[mask] = SIDE_CODE[side]
        neutral = state.arrays.get("neutral")
        if neutral is not None and (neutral & mask).any():
            state.arrays["neutral"] = neutral & ~mask  # a new array: movement caches key on its id
    state.markers.setdefault("country_side", {})[code] = side
    pro_axis = state.markers.setdefault("pro_axis_by", {})
    if side == "axis":
        pro_axis[code] = how
    else:
        pro_axis.pop(code, None)
    nation = nation_of(state, code)
    moved = []
    if nation is not None:
        for u in state.units_by_id.values():
            if u.nation == nation and u.side != side:
                u.side = side
                moved.append(u.id)
        entered = state.markers.setdefault("entered_war", [])
        if nation not in entered:
            entered.append(nation)
    state.emit("country_side", side=side, rule=rule, country=code, units=moved,
               text=f"{code} is now pro-{side} ({how}); its forces join the {side}: {', '.join(moved) or 'none'}")


def _hex_countries(state: State, code: str) -> tuple[np.ndarray, bool]:
    """Where attempting units may stand (SSA-27.3): the country's cities on the map, or the
    whole country if it has none there.  Returns (mask, has_cities)."""
    mask = country_mask(state, code)
    if mask is None:
        return np.zeros(state.map.size, dtype=bool), False
    cities = np.zeros(state.map.size, dtype=bool)
    cities[np.asarray([i for i in city_hexes(state) if mask[i]], dtype=np.int64)] = True
    return (cities, True) if cities.any() else (mask, False)


def attempting_units(state: State, side: str, code: str) -> list[Unit]:
    """SSA-27.3: ``side``'s special-operations units in a city of the country (anywhere in it if
    it has no city)."""
    where, _ = _hex_countries(state, code)
    out = []
    for u in state.units_by_id.values():
        if u.side == side and u.location.isdigit() and values.value(state, u, "special_operations", False) \
                and where[state.map.index(u.location)]:
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def _coup_country(state: State, code: str) -> bool:
    """A country made pro-Axis by a coup (a war event, or the scenario's ``[occupation]`` "coup"):
    one of its cities carries the coup mark (SSA-17.4c)."""
    mask = country_mask(state, code)
    hm = state.map
    return mask is not None and any(hm.has_hex(h) and bool(mask[hm.index(h)])
                                    for h in state.markers.get("coup_origin", []))


def may_target(state: State, side: str, code: str) -> Refusal | None:
    """Why ``side`` may not subvert ``code`` now (``None`` if it may): SSA-27.1, 27.2, 27.5, 27.6."""
    if nation_of(state, code) is None:
        names = ", ".join(subvertible(state))
        return Refusal("SSA-27.2", f"{code} cannot be subverted; only {names} can")
    if country_mask(state, code) is None:
        return Refusal("SSA-27.2", f"{code} is not on the map")
    now = country_side(state, code)
    proc = table(state)["procedure"]
    if side == "axis" and now not in proc["axis_targets"]:
        return Refusal("SSA-27.1", f"{code} is already {now}: the Axis may subvert only neutral or Allied countries")
    if side == "allies" and not (now == "axis" and (code in state.markers.get("pro_axis_by", {})
                                                    or _coup_country(state, code))):
        return Refusal("SSA-27.5", f"{code} is {now}: the Allies may only re-subvert a country the Axis "
                       "made pro-Axis by subversion or a coup")
    done = state.markers.get("subversion_attempts", {}).get(side, {})
    if done.get(code) == state.turn_label:
        return Refusal("SSA-27.6", f"{side} has already made its one subversion attempt against {code} this turn")
    return None


class SubvertOrder(OrderKind):
    """SSA-27.1-27.6: one subversion attempt against one Latin American country."""

    kind = "subvert"
    rule = "SSA-27.1"

    def legal(self, state: State) -> list[dict[str, Any]]:
        if not in_use(state, OPTIONAL_RULE):
            return []
        side = state.decision.side
        return [{"kind": self.kind, "country": code} for code in subvertible(state)
                if may_target(state, side, code) is None and attempting_units(state, side, code)]

    def check(self, state: State, order: dict[str, Any]) -> None:
        if not in_use(state, OPTIONAL_RULE):
            raise IllegalOrder("SSA-27.G", "subversion is an optional rule this game does not use")
        side = state.decision.side
        code = order.get("country")
        if not isinstance(code, str):
            raise IllegalOrder("SSA-27.2", "name the country to subvert, e.g. {'country': 'CO'}")
        why = may_target(state, side, code)
        if why is not None:
            raise IllegalOrder.of(why, self.rule)
        units = attempting_units(state, side, code)
        _, has_cities = _hex_countries(state, code)
        if not units:
            where = "in a city of" if has_cities else "in"
            raise IllegalOrder("SSA-27.3", f"{side} has no special operations unit {where} {code} to make the attempt")
        named = order.get("units")
        if named is not None:
            ok = {u.id for u in units}
            bad = [x for x in named if x not in ok] if isinstance(named, list) else [named]
            if bad or not named:
                raise IllegalOrder("SSA-27.3", f"{', '.join(map(str, bad)) or 'no unit'}: only special operations "
                                   f"units {'in a city of' if has_cities else 'in'} {code} may make the attempt "
                                   f"({', '.join(sorted(ok))})")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        side, code = state.decision.side, order["country"]
        units = attempting_units(state, side, code)
        if order.get("units"):
            units = [u for u in units if u.id in order["units"]]
        state.markers.setdefault("subversion_attempts", {}).setdefault(side, {})[code] = state.turn_label
        tab = table(state)
        chart, proc = tab["chart"], tab["procedure"]
        column = min(len(units), int(chart["max_units_column"]))
        level = morale_level(state, side)
        mod = int(proc["morale_modifier"].get(level, 0)) if level else 0
        (die,) = state.roll(purpose=f"subversion of {code} by {len(units)} special operations unit(s)",
                            rule="SSA-27.3", side=side)
        lo, hi = chart["die_range"]
        modified = max(lo, min(hi, die + mod))
        result = chart[str(column)][modified - lo]
        text = (f"subversion of {code}: {len(units)} unit(s) ({', '.join(u.id for u in units)}), die {die}"
                f"{f' {mod:+d} ({level} morale)' if mod else ''} = {modified}: "
                f"{'P, subverted' if result == 'P' else 'no effect'}")
        state.emit("subversion", side=side, rule="SSA-27.3a" if result == "P" else "SSA-27.3b", text=text,
                   country=code, units=[u.id for u in units], die=die, modifier=mod, result=result)
        if result == "P":
            turn_country(state, code, side, "SSA-27.4" if side == "axis" else "SSA-27.5", "subversion")
            return
        for u in units:  # SSA-27.3b
            if any(o.side != side and o.location == u.location for o in state.units_by_id.values()
                   if o.location != ELIMINATED):
                eliminate(state, u, "SSA-27.3b", " (failed subversion among enemy units)")


ORDER_KINDS = {"subvert": SubvertOrder()}

__all__ = ["ORDER_KINDS", "SubvertOrder", "attempting_units", "country_side", "morale_level", "turn_country"]
