"""Load-time checks of an SS Amerika scenario's own sections (``SSARuleset.validate_scenario``).

The engine (``workbench/engine/scenario.py``) has already checked what every ruleset shares:
format, ids, dates, sides, options, tracks' value types, ``[[units]]``, the shape of
``[[reinforcements]]`` (turn labels, unit types, counts, colliding ids) and the size limits.
This module checks what only SS Amerika reads, so that a scenario that loads never fails
mid-game on its own data: special rules (known ``effect`` keywords and their parameters,
docs/rulings-ssa.md "Scenario file vocabulary"), ``[control]``, ``[[deployment]]`` and their
``where`` tables, ``[[reinforcements]]``, ``[victory]``, ``[[pools]]``, ``[technologies]``,
``[tracks]`` names and the SSA unit keys.  Every failure is a
``ScenarioError(file, dotted key, why)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from workbench.engine.errors import ScenarioError
from workbench.engine.scenario import is_int, kind_of, shown
from workbench.map import load_map
from workbench.rulesets.ssa.deployment import UNPLACED, WHERE_KEYS

#: The optional rules of the rulebook (SSA-21 to SSA-30), the names ``optional_rules`` may list.
#: Rules 21-30, and the parts of rule 22 a game may choose one by one (SSA-22.G: special_units.PARTS).
OPTIONAL_RULES = frozenset({*(f"SSA-{n}" for n in range(21, 31)),
                            *(f"SSA-22.{n}" for n in (1, 2, 3, 10, 11, 12, 13, 14))})
#: Values of ``[control]`` (docs/rulings-ssa.md): a side, or a neutral / open / closed area.
CONTROL_VALUES = ("axis", "allies", "neutral", "open", "closed")
#: Regions ``where.region`` and ``[control_regions]`` may name (deployment.Geography).
REGIONS = ("alaska", "central_america", "mexico_north_of_III_IV", "mexico_south_of_III_IV")
COASTS = ("west", "east", "atlantic", "pacific", "any")
CITY_KINDS = ("any", "industrial", "non_industrial")
#: The holding areas (SSA-3.1c) a ``box`` key may name.
HOLDING_AREAS = ("Europe", "Latin America", "Pacific", "Far East")
TRIGGER_EVENTS = ("country_enters_war",)
VICTORY_MEASURES = ("japanese_controlled_us_industrial_hexes",)
VICTORY_RESULTS = ("axis_victory", "draw", "allied_victory")
LEVELS = ("marginal", "strategic", "total")
LADDER = ("allied_total", "allied_strategic", "allied_marginal", "draw", "axis_marginal", "axis_strategic",
          "axis_total")
_TRACK = re.compile(r"^(?:(axis|allies)\.morale|([A-Z]{2,3})\.mp\.(industrial|non_industrial)|([A-Z]{2,3})\.volunteer)$")


@dataclass
class Ctx:
    """What the checks need to know about the scenario being checked."""

    file: str
    sides: tuple[str, ...]
    nations: frozenset[str]
    countries: frozenset[str]
    types: dict[str, Any]
    boxes: frozenset[str]
    places: Callable[[str], bool]
    groups: frozenset[str]
    turns: int
    unit_ids: frozenset[str]

    def fail(self, key: str, why: str) -> None:
        raise ScenarioError(self.file, key, why)


# -- value checks: each returns None or what the value must be ------------------------------
Check = Callable[[Any, Ctx], str | None]


def text(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, str) else "text"


def flag(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, bool) else "true or false"


def whole(low: int = 0) -> Check:
    def check(v: Any, c: Ctx) -> str | None:
        return None if is_int(v) and v >= low else f"a whole number of at least {low}"
    return check


def number(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, int | float) and not isinstance(v, bool) else "a number"


def one_of(*values: str) -> Check:
    def check(v: Any, c: Ctx) -> str | None:
        return None if v in values else "one of " + ", ".join(repr(x) for x in values)
    return check


def side(v: Any, c: Ctx) -> str | None:
    return None if v in c.sides else "a side (" + ", ".join(repr(s) for s in c.sides) + ")"


def side_or_event(v: Any, c: Ctx) -> str | None:
    return None if v in c.sides or v == "event" else \
        "a side (" + ", ".join(repr(s) for s in c.sides) + ") or 'event'"


def box(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, str) and v in c.boxes else "a holding area (" + ", ".join(HOLDING_AREAS) + ")"


def nation(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, str) and v in c.nations else "a nation code of units.toml [nations]"


def country(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, str) and v in c.countries else "a country code of countries.toml [codes]"


def unit_type(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, str) and v in c.types else "a unit type of units.toml [types]"


def turn_number(v: Any, c: Ctx) -> str | None:
    return None if is_int(v) and 1 <= v <= c.turns else f"a game turn number from 1 to {c.turns}"


def month(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, str) and re.match(r"^\d{4}-(0[1-9]|1[0-2])$", v) else "a month like 1942-01"


def place(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, str) and c.places(v) else "a place name on the map"


def group(v: Any, c: Ctx) -> str | None:
    return None if v in c.groups else "the name of a [[deployment]] group of the scenario"


def table(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, dict) else "a table"


def listed(item: Check, *, empty: bool = True) -> Check:
    """A list whose every element passes ``item``."""
    def check(v: Any, c: Ctx) -> str | None:
        if not isinstance(v, list) or (not empty and not v):
            return "a list" + ("" if empty else " of at least one") + f" (each {item(None, c) or 'value'})"
        for x in v:
            why = item(x, c)
            if why:
                return f"a list, each {why} ({shown(repr(x))} is not)"
        return None
    return check


def one_or_list(item: Check) -> Check:
    def check(v: Any, c: Ctx) -> str | None:
        return listed(item)(v, c) if isinstance(v, list) else item(v, c)
    return check


def either(*checks: Check) -> Check:
    def check(v: Any, c: Ctx) -> str | None:
        whys = [ch(v, c) for ch in checks]
        return None if any(w is None for w in whys) else " or ".join(w for w in whys if w)
    return check


def table_of(key: Check, val: Check) -> Check:
    def check(v: Any, c: Ctx) -> str | None:
        if not isinstance(v, dict):
            return "a table"
        for k, x in v.items():
            why = key(k, c) or val(x, c)
            if why:
                return f"a table whose keys and values are each right ({k!r} = {shown(repr(x))}: {why})"
        return None
    return check


def _any(v: Any, c: Ctx) -> str | None:
    return None


def rule_ref(v: Any, c: Ctx) -> str | None:
    return None if isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)) \
        else "a rule reference (text, or a list of text)"


def check_fields(entry: dict[str, Any], fields: dict[str, Check], key: str, c: Ctx, what: str,
                 required: tuple[str, ...] = ()) -> None:
    """Every key of ``entry`` known to ``fields`` and of the right kind; ``required`` present."""
    for k in required:
        if k not in entry:
            c.fail(f"{key}.{k}", f"required key is missing ({what})")
    for k, v in entry.items():
        chk = fields.get(k)
        if chk is None:
            c.fail(f"{key}.{k}", f"unknown key for {what} (known: {', '.join(sorted(fields))})")
        why = chk(v, c)
        if why:
            c.fail(f"{key}.{k}", f"must be {why}, not {kind_of(v)} {shown(repr(v))}")


# -- special rules ----------------------------------------------------------------------------
#: Keys every special rule may carry besides its effect's parameters.
RULE_KEYS: dict[str, Check] = {"id": text, "rule": rule_ref, "text": text, "effect": text, "note": text,
                               "source": text, "rationale": text, "rule_ref": rule_ref, "see": text}

#: Every ``effect`` keyword of the scenario vocabulary (docs/rulings-ssa.md §4) with the types
#: of its parameters.  Rules code reads the effects in :data:`READ_BY_CODE`; the others record
#: a printed special rule the kernel does not play yet (or plays by another table).
EFFECTS: dict[str, dict[str, Check]] = {
    "no_optional_rules": {},
    "side_frozen": {"side": side, "turns": listed(turn_number), "no_move": flag, "no_interception": flag},
    "no_mobilization": {"except": listed(text)},
    "reinforcements": {},
    "start_reduced": {"side": side, "sizes": listed(text)},
    "panama_canal_hexes_open": {},
    "boxes_closed": {"boxes": listed(box)},
    "control_last_passed": {},
    "neutral_no_entry": {"countries": one_or_list(text)},
    "weather_forced": {"turn": turn_number, "result": text},
    "weather_forced_roll": {"turns": listed(turn_number), "roll": whole(0)},
    "surprise_attack_allowed": {},
    "surprise_attack_forbidden": {},
    "box_open": {"box": box},
    "box_closed_to": {"box": box, "side": side},
    "box_control": {"box": box, "side": side},
    "soviet_union_conquered": {"value": flag},
    "aa_override": {"side": side, "until": month, "industrial_city": whole(0), "non_industrial_city": whole(0)},
    "war_mobilization": {},
    "pacific_fall_check": {"die": text, "falls_if": text, "frozen_nation": nation, "move_to": box,
                           "eliminate_allied_in": box, "box_control_to": side},
    "pacific_withdrawal_option": {"side": side, "group": group, "to": table, "allied_morale": whole(-1000),
                                  "pacific_falls_turn": turn_number},
    "ss_substitution": {"max_ss_units": whole(0), "armor_substitute_starts_reduced": flag,
                        "forbidden_ss_types": listed(unit_type), "forbidden_for_mobilization": flag},
    "armies_removed": {"nations": listed(nation)},
    "min_victory_level": {"side": side, "level": one_of(*LEVELS), "below_becomes": one_of("draw")},
    "pregame_bombing": {"side": side, "max_markers": whole(0), "within": whole(0), "of": text, "targets": text},
    "initial_control_from_setup": {},
    "setup_order": {"first": side},
    "war_events_ignored": {"category": text},
    "neutral_box_trigger": {"box": box, "countries": listed(nation), "join": one_of("other_side", "axis", "allies")},
    "garrison_requirement": {"side": side, "box": box, "requires": table_of(text, whole(0)), "nation": nation,
                             "penalty": text, "levels": whole(0), "permanent": flag,
                             "box_control_on_breach": text},
    "mp_halved": {"side": side, "kind": one_of("industrial", "non_industrial", "all"),
                  "turns": listed(turn_number), "rounding": one_of("up", "down"), "rounding_source": text},
    "neutral_nations": {"nations": listed(nation), "placed_by": table_of(nation, side)},
}
#: The effects rules code reads today (special.py, holding.py, mobilization.py, naval.py,
#: control.py, occupation.py, war_events.py); the rest are recorded, not yet played.
READ_BY_CODE = frozenset({"no_optional_rules", "side_frozen", "no_mobilization", "start_reduced", "panama_canal_hexes_open",
                          "boxes_closed", "box_closed_to", "control_last_passed", "soviet_union_conquered",
                          "pacific_fall_check", "war_events_ignored", "neutral_box_trigger", "mp_halved",
                          "neutral_nations"})


def check_special_rules(raw: dict[str, Any], c: Ctx) -> None:
    for i, r in enumerate(raw.get("special_rules", [])):
        key = f"special_rules[{i}]" + (f" ({r['id']})" if isinstance(r.get("id"), str) else "")
        effect = r.get("effect")
        if not isinstance(effect, str):
            c.fail(f"{key}.effect", "required effect keyword is missing or not text (see docs/rulings-ssa.md, "
                   "'Scenario file vocabulary')")
        if effect not in EFFECTS:
            c.fail(f"{key}.effect", f"unknown special-rule effect {shown(effect)!r}; the SS Amerika effects are "
                   f"{', '.join(sorted(EFFECTS))}")
        check_fields(r, {**RULE_KEYS, **EFFECTS[effect]}, key, c, f"special rule effect {effect!r}")


# -- where tables, deployment groups, reinforcements ------------------------------------------
def _center(v: Any, c: Ctx) -> str | None:
    if not isinstance(v, dict):
        return "a table (chosen_by, coast, country, default)"
    for k, x in v.items():
        chk = {"chosen_by": side, "coast": one_of(*COASTS), "country": one_or_list(country),
               "default": place}.get(k)
        if chk is None:
            return f"a table of chosen_by, coast, country and default (not {k!r})"
        why = chk(x, c)
        if why:
            return f"a table whose {k} is {why}"
    return None


WHERE: dict[str, Check] = {
    "country": one_or_list(country), "coast": one_of(*COASTS), "city": one_of(*CITY_KINDS),
    "on_or_adjacent": one_of("city"), "places": listed(place), "anywhere": flag, "min_distance": whole(0),
    "max_distance": whole(0), "of": one_of("coast", "center"), "center": _center,
    "region": one_or_list(one_of(*REGIONS)), "friendly": flag, "box": one_or_list(box),
    "not_adjacent_to_enemy": flag, "except": listed(unit_type), "trace_supply": one_of("industrial_city"),
    "nations": listed(nation), "max_land": whole(0), "max_air": whole(0), "max_naval": whole(0),
    "max_per_hex": whole(1), "max_per_city": whole(1),
    "not": _any, "any_of": _any,  # checked by check_where itself
}
assert set(WHERE) == WHERE_KEYS, "deployment.WHERE_KEYS and scenario_check.WHERE must list the same keys"


def check_where(where: Any, key: str, c: Ctx) -> None:
    if not isinstance(where, dict):
        c.fail(key, f"must be a table of where keys, not {kind_of(where)}")
    check_fields(where, WHERE, key, c, "a where table (docs/rulings-ssa.md)")
    if "not" in where:
        check_where(where["not"], f"{key}.not", c)
    if "any_of" in where:
        alts = where["any_of"]
        if not isinstance(alts, list) or not alts:
            c.fail(f"{key}.any_of", "must be a list of where tables")
        for j, w in enumerate(alts):
            check_where(w, f"{key}.any_of[{j}]", c)


#: ``default`` lists places (or holding areas) to fill in turn; a name the map lacks is skipped
#: by design (deployment.place_units: units spill to the nearest legal hex), so it is only
#: checked to be text.
DEPLOYMENT: dict[str, Check] = {"name": text, "side": side, "rule": rule_ref, "text": text, "where": table,
                                "default": listed(text), "mandatory": flag, "optional": flag,
                                "max_units": whole(0), "eligible_types": listed(unit_type),
                                "eligible_nations": listed(nation), "note": text}


def check_deployment(raw: dict[str, Any], c: Ctx) -> None:
    names: dict[str, int] = {}
    for i, g in enumerate(raw.get("deployment", [])):
        name = g.get("name")
        key = f"deployment[{i}]" + (f" ({name})" if isinstance(name, str) else "")
        check_fields(g, DEPLOYMENT, key, c, "a deployment group", required=("name",))
        if name in names:
            c.fail(f"{key}.name", f"deployment group {name!r} is already named by deployment[{names[name]}]; "
                   "each group needs its own name")
        names[name] = i
        check_where(g.get("where", {}), f"{key}.where", c)


REINFORCEMENT: dict[str, Check] = {"id": text, "turn": text, "trigger": table, "side": side_or_event,
                                   "rule": rule_ref, "note": text, "text": text, "phase": text, "optional": flag,
                                   "at": box, "units": _any, "where": table,
                                   "default": listed(text)}
REINFORCEMENT_UNIT: dict[str, Check] = {"id": text, "nation": nation, "type": unit_type, "count": whole(1),
                                        "reduced": flag, "note": text, "name": text, "carrier_qualified": flag,
                                        "underground": flag}


def check_reinforcements(raw: dict[str, Any], sides: dict[str, list[str]], c: Ctx) -> None:
    on_side = {n for ns in sides.values() for n in ns}
    for i, r in enumerate(raw.get("reinforcements", [])):
        rid = r.get("id")
        key = f"reinforcements[{i}]" + (f" ({rid})" if isinstance(rid, str) else "")
        check_fields(r, REINFORCEMENT, key, c, "a reinforcement", required=("id", "units"))
        if ("turn" in r) == ("trigger" in r):
            c.fail(key, "needs exactly one of turn = \"YYYY-MM\" (arrives that turn) or trigger = {...} "
                   "(arrives when rules code fires it)")
        if "trigger" in r:
            check_fields(r["trigger"], {"event": one_of(*TRIGGER_EVENTS), "country": nation},
                         f"{key}.trigger", c, "a trigger", required=("event", "country"))
        elif r.get("side") == "event":
            c.fail(f"{key}.side", "'event' (the side is decided when the trigger fires) needs a trigger, "
                   "not a turn")
        if "where" in r:
            check_where(r["where"], f"{key}.where", c)
        for j, u in enumerate(r["units"]):
            ukey = f"{key}.units[{j}] ({u.get('id')})"
            check_fields(u, REINFORCEMENT_UNIT, ukey, c, "a reinforcement unit", required=("id", "nation", "type"))
            if "turn" in r and u["nation"] not in on_side:
                c.fail(f"{ukey}.nation", f"nation {u['nation']!r} is on no side, so a reinforcement by turn "
                       "cannot tell whose it is; declare it under [sides.<side>] nations")


# -- the other SSA sections -------------------------------------------------------------------
POOL: dict[str, Check] = {"id": text, "nation": nation, "total": whole(0),
                          "allowed": either(one_of("any"), listed(unit_type)),
                          "carrier_qualified": either(whole(0), table_of(text, whole(0))), "carrier_qualified_types": listed(unit_type),
                          "carrier_qualified_source": text, "carrier_qualified_rationale": text,
                          "rule": rule_ref, "text": text, "note": text}
VICTORY: dict[str, Check] = {
    "source": text, "rule": rule_ref, "replaces_standard": flag, "standard": text, "rationale": text,
    "measure": one_of(*VICTORY_MEASURES), "control": text, "checked_at": text, "levels": _any, "text": text,
    "note": text, "min_level": table_of(side, one_of(*LEVELS)), "below_min_level": one_of("draw"),
    "level_drop": table, "level_drop_source": text,
}


def check_victory(raw: dict[str, Any], c: Ctx) -> None:
    v = raw.get("victory", {})
    check_fields(v, VICTORY, "victory", c, "[victory]")
    if v.get("replaces_standard") and "measure" not in v:
        c.fail("victory.measure", "replaces_standard = true needs the measure that replaces SSA-20 "
               f"({', '.join(VICTORY_MEASURES)})")
    if "measure" in v:
        levels = v.get("levels")
        if not isinstance(levels, list) or not levels:
            c.fail("victory.levels", "a scenario measure needs its levels: a list of {min, max, result} tables")
    for j, lv in enumerate(v.get("levels", [])):
        if not isinstance(lv, dict):
            c.fail(f"victory.levels[{j}]", f"must be a table of min, max and result, not {kind_of(lv)}")
        check_fields(lv, {"min": whole(0), "max": whole(0), "result": one_of(*VICTORY_RESULTS)},
                     f"victory.levels[{j}]", c, "a victory level", required=("result",))
    if "level_drop" in v:
        check_fields(v["level_drop"], {"side": side, "levels": whole(1), "if": text, "flag": text,
                                       "ladder": listed(one_of(*LADDER))},
                     "victory.level_drop", c, "a victory level drop", required=("side",))


def check_bot_plan(raw: dict[str, Any], c: Ctx) -> None:
    """``[bot_plan.<side>]``: the heuristic bot's authored plan (read only by ``ssa/bot.py``)."""
    for side, plan in raw.get("bot_plan", {}).items():
        if side not in ("axis", "allies") or not isinstance(plan, dict):
            c.fail(f"bot_plan.{side}", "a [bot_plan.axis] or [bot_plan.allies] table")
        for k, v in plan.items():
            if k not in ("sea_lift", "source", "rationale"):
                c.fail(f"bot_plan.{side}.{k}", "unknown key (known: sea_lift, source, rationale)")
            if k == "sea_lift" and not isinstance(v, bool):
                c.fail(f"bot_plan.{side}.sea_lift", "must be true or false")


def check_control(raw: dict[str, Any], c: Ctx) -> None:
    for k, v in raw.get("control", {}).items():
        if k.startswith("box."):
            if k[4:] not in HOLDING_AREAS:
                c.fail(f"control.{k}", f"{k[4:]!r} is not a holding area ({', '.join(HOLDING_AREAS)})")
        elif k not in c.countries:
            c.fail(f"control.{k}", f"{k!r} is not a country code of countries.toml [codes] "
                   f"({', '.join(sorted(c.countries))}) nor box.<holding area>")
        if v not in CONTROL_VALUES:
            c.fail(f"control.{k}", f"must be one of {', '.join(CONTROL_VALUES)}, not {shown(repr(v))}")
    check_fields(raw.get("control_regions", {}), {r: side for r in REGIONS}, "control_regions", c,
                 "[control_regions] (a map region = a side)")
    for key in ("control_notes", "occupation"):
        why = table_of(text, text)(raw.get(key, {}), c)
        if why:
            c.fail(key, f"must be {why}")


def check_technologies(raw: dict[str, Any], c: Ctx, tech: dict[str, Any]) -> None:
    """SSA-23.4: developments owned at the start, per purchaser of tables/technology.toml."""
    techs = raw.get("technologies", {})
    known = [*tech["kinds"]["unit"], *tech["kinds"]["abstract"]]
    purchasers = [k for k, v in tech["purchasers"].items() if isinstance(v, dict)]
    if not isinstance(techs, dict):
        c.fail("technologies", f"must be a table of purchaser = [technologies], not {kind_of(techs)}")
    for who, owned in techs.items():
        if who not in purchasers:
            c.fail(f"technologies.{who}", "must be a purchaser of technology.toml [purchasers] ("
                   + ", ".join(purchasers) + "): the Allies once for the US and Commonwealth (SSA-23.5a), "
                   "Germany and Japan separately (SSA-23.5b)")
        why = listed(one_of(*known))(owned, c)
        if why:
            c.fail(f"technologies.{who}", f"must be {why}")


def check_tracks(raw: dict[str, Any], c: Ctx) -> None:
    for k, v in raw.get("tracks", {}).items():
        m = _TRACK.match(k)
        nation_code = m and (m.group(2) or m.group(4))
        if not m or (nation_code and nation_code not in c.nations):
            c.fail(f"tracks.{k}", "is no SS Amerika track: '<side>.morale', '<nation>.mp.industrial', "
                   "'<nation>.mp.non_industrial' or '<nation>.volunteer' (nation codes of units.toml)")
        if number(v, c):
            c.fail(f"tracks.{k}", f"must be a number, not {kind_of(v)} {shown(repr(v))}")


def table_list(raw: dict[str, Any], key: str, c: Ctx) -> list[dict[str, Any]]:
    val = raw.get(key, [])
    if not isinstance(val, list):
        c.fail(key, f"must be a list of [[{key}]] tables, not {kind_of(val)}")
    for i, e in enumerate(val):
        if not isinstance(e, dict):
            c.fail(f"{key}[{i}]", f"each entry must be a [[{key}]] table, not {kind_of(e)}")
    return val


def check_units(raw: dict[str, Any], scenario: Any, c: Ctx) -> None:
    pools = set()
    for i, p in enumerate(table_list(raw, "pools", c)):
        key = f"pools[{i}]" + (f" ({p['id']})" if isinstance(p.get("id"), str) else "")
        check_fields(p, POOL, key, c, "a force pool category", required=("id", "nation", "total", "allowed"))
        if p["id"] in pools:
            c.fail(f"{key}.id", f"pool id {p['id']!r} is used twice")
        pools.add(p["id"])
    for i, u in enumerate(raw.get("units", [])):
        key = f"units[{i}] ({u['id']})"
        for k, chk in (("carrier_qualified", flag), ("underground", flag), ("note", text),
                       ("pool", one_of(*sorted(pools)) if pools else lambda v, c: "the id of a [[pools]] entry"),
                       ("carried_by", lambda v, c: None if v in c.unit_ids else "a unit id of this scenario")):
            if k in u:
                why = chk(u[k], c)
                if why:
                    c.fail(f"{key}.{k}", f"must be {why}, not {kind_of(u[k])} {shown(repr(u[k]))}")
        if "deploy" in u and u["deploy"] not in c.groups:
            c.fail(f"{key}.deploy", f"names deployment group {u['deploy']!r}, which the scenario lacks "
                   f"(groups: {', '.join(sorted(c.groups)) or 'none'})")
        if u.get("at") == UNPLACED and "deploy" not in u:
            c.fail(f"{key}.deploy", "an unplaced unit needs deploy = the [[deployment]] group that places it")


def validate(ruleset: Any, scenario: Any) -> None:
    """Every SS Amerika-specific check of a loaded scenario (see the module doc)."""
    raw = scenario.raw
    hm = load_map(scenario.map)

    def place_ok(name: str) -> bool:
        try:
            hm.area(name)
        except KeyError:
            return False
        return True

    groups = frozenset(g.get("name") for g in raw.get("deployment", []) if isinstance(g.get("name"), str))
    tables = ruleset.tables
    c = Ctx(file=scenario.file, sides=tuple(ruleset.sides), nations=frozenset(tables["units"]["nations"]),
            countries=frozenset(tables["countries"]["codes"]), types=ruleset.unit_types,
            boxes=frozenset(HOLDING_AREAS) | frozenset(hm.boxes), places=place_ok, groups=groups,
            turns=len(ruleset.calendar(scenario.first_turn, scenario.last_turn)),
            unit_ids=frozenset(u["id"] for u in scenario.units))
    for n in (n for ns in scenario.sides.values() for n in ns):
        if n not in c.nations:
            side_of = next(s for s, ns in scenario.sides.items() if n in ns)
            c.fail(f"sides.{side_of}.nations", f"{n!r} is not a nation code of units.toml [nations] "
                   f"({', '.join(sorted(c.nations))})")
    check_tracks(raw, c)
    check_control(raw, c)
    check_technologies(raw, c, tables["technology"])
    check_deployment(raw, c)
    check_units(raw, scenario, c)
    check_reinforcements(raw, scenario.sides, c)
    check_special_rules(raw, c)
    check_victory(raw, c)
    check_bot_plan(raw, c)
