"""Load-time checks of an ETO scenario's own sections (``ETORuleset.validate_scenario``).

The engine (``workbench/engine/scenario.py``) has already checked what every ruleset shares
(format, ids, dates, sides, options, ``[[units]]``, the shape of ``[[reinforcements]]`` and
``[[force_pool]]``, the size limits).  This module checks what only ETO reads, so that a
scenario that loads never fails mid-game on its own data: special rules (known ``effect``
keywords and their parameters), ``[control]`` and ``[[control_regions]]``,
``[[reinforcements]]``, ``[[force_pool]]``, ``[victory]``, ``seasonal_turns``, ``[tracks]``
and ``[bot_plan]``.  Every failure is a ``ScenarioError(file, dotted key, why)``.
"""

from __future__ import annotations

import re
from typing import Any

from workbench.engine.errors import ScenarioError
from workbench.engine.scenario import is_int, kind_of, shown
from workbench.map import HexMap, load_map
from workbench.rulesets.eto.values import month_key

#: The rulebook's optional rules: historical restrictions (46) and ahistorical options (47).
OPTIONAL_RULES = frozenset({"ETO-46", "ETO-47", *(f"ETO-46.{n}" for n in range(0, 7)),
                            *(f"ETO-47.{n}" for n in range(0, 7))})
#: Keys every special rule may carry besides its effect's parameters.
RULE_KEYS = {"id", "rule", "text", "effect", "source", "rationale", "note"}
#: Every ``effect`` keyword with the parameters it takes.  Rules code reads those in
#: :data:`READ_BY_CODE`; ``hanko_evacuation`` and ``reinforcement_entry`` record authored rules
#: the kernel plays by its tables (or not yet), ``none`` a note that changes nothing.
EFFECTS: dict[str, frozenset[str]] = {
    "land_only": frozenset(), "minors_active": frozenset(), "blitzkrieg_available": frozenset({"nation"}),
    "soviet_income_invaded": frozenset(), "siberian_transfers": frozenset(),
    "soviet_winter_proficiency": frozenset(), "no_improved_hq_draw": frozenset(),
    "finnish_halt_line": frozenset(), "ladoga_ice_road": frozenset(), "hanko_evacuation": frozenset(),
    "reinforcement_entry": frozenset(), "finland_sea_supply": frozenset(), "none": frozenset(),
}
READ_BY_CODE = frozenset({"land_only", "minors_active", "blitzkrieg_available", "soviet_income_invaded",
                          "siberian_transfers", "soviet_winter_proficiency", "no_improved_hq_draw",
                          "finnish_halt_line", "ladoga_ice_road", "finland_sea_supply"})
CONTROL_VALUES = ("axis", "allies", "neutral")
FORCE_POOL_BOXES = ("Force pool", "Siberian Transfers")
_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
#: Tracks whose values must be whole numbers, per nation (``GE.eps``).
NUMBER_TRACKS = ("eps", "reserve", "offensives", "income_base", "free_rebuilds", "minor_offensives_used",
                 "rail_used", "income_pending", "activation_bonus")


class Check:
    """The scenario under check, and the words of a refusal."""

    def __init__(self, ruleset: Any, scenario: Any, hm: HexMap) -> None:
        self.file = scenario.file
        self.scenario = scenario
        self.ruleset = ruleset
        self.hm = hm
        self.nations = frozenset(ruleset.tables["units"]["nations"])
        self.side_of = {n: s for s, ns in scenario.sides.items() for n in ns}
        self.calendar = ruleset.calendar(scenario.first_turn, scenario.last_turn)
        self.countries = frozenset(c for c in hm.hexes["country"].to_list() if c)

    def fail(self, key: str, why: str) -> None:
        raise ScenarioError(self.file, key, why)

    def place_ok(self, p: Any) -> bool:
        if not isinstance(p, str):
            return False
        if p.isdigit():
            return self.hm.has_hex(p)
        try:
            self.hm.hex_of(p)
        except KeyError:
            return False
        return True

    def tables(self, key: str) -> list[dict[str, Any]]:
        val = self.scenario.raw.get(key, [])
        if not isinstance(val, list):
            self.fail(key, f"must be a list of [[{key}]] tables, not {kind_of(val)}")
        for i, e in enumerate(val):
            if not isinstance(e, dict):
                self.fail(f"{key}[{i}]", f"each entry must be a [[{key}]] table, not {kind_of(e)}")
        return val

    def known(self, entry: dict[str, Any], keys: set[str] | frozenset[str], key: str, what: str) -> None:
        for k in entry:
            if k not in keys:
                self.fail(f"{key}.{k}", f"unknown key for {what} (known: {', '.join(sorted(keys))})")

    def text(self, entry: dict[str, Any], k: str, key: str, required: bool = False) -> None:
        if k not in entry:
            if required:
                self.fail(f"{key}.{k}", "required key is missing")
            return
        if not isinstance(entry[k], str):
            self.fail(f"{key}.{k}", f"must be text, not {kind_of(entry[k])} {shown(repr(entry[k]))}")

    def whole(self, entry: dict[str, Any], k: str, key: str, low: int | None = 0, required: bool = False) -> None:
        if k not in entry:
            if required:
                self.fail(f"{key}.{k}", "required key is missing (a whole number)")
            return
        v = entry[k]
        if not is_int(v) or (low is not None and v < low):
            self.fail(f"{key}.{k}", f"must be a whole number{'' if low is None else f' of at least {low}'}, "
                      f"not {kind_of(v)} {shown(repr(v))}")


def check_special_rules(c: Check) -> None:
    for i, r in enumerate(c.tables("special_rules")):
        key = f"special_rules[{i}]" + (f" ({r['id']})" if isinstance(r.get("id"), str) else "")
        effect = r.get("effect")
        if not isinstance(effect, str):
            c.fail(f"{key}.effect", "required effect keyword is missing or not text")
        if effect not in EFFECTS:
            c.fail(f"{key}.effect", f"unknown special-rule effect {shown(effect)!r}; the ETO effects are "
                   f"{', '.join(sorted(EFFECTS))}")
        c.known(r, RULE_KEYS | EFFECTS[effect], key, f"special rule effect {effect!r}")
        for k in ("id", "text", "source", "rationale", "note"):
            c.text(r, k, key)
        rule = r.get("rule", "")
        if not (isinstance(rule, str) or (isinstance(rule, list) and all(isinstance(x, str) for x in rule))):
            c.fail(f"{key}.rule", f"must be a rule reference (text, or a list of text), not {kind_of(rule)}")
        if "nation" in r and r["nation"] not in c.nations:
            c.fail(f"{key}.nation", f"{shown(repr(r['nation']))} is not a nation code of units.toml [nations]")


def check_control(c: Check) -> None:
    for country, who in c.scenario.raw.get("control", {}).items():
        if country not in c.countries:
            c.fail(f"control.{country}", f"{country!r} is no country of map {c.hm.name}")
        if who not in CONTROL_VALUES:
            c.fail(f"control.{country}", f"must be one of {', '.join(CONTROL_VALUES)}, not {shown(repr(who))}")
    keys = {"name", "country", "side", "home", "bounds", "polygon", "polygon_source", "hexes", "exclude"}
    for i, reg in enumerate(c.tables("control_regions")):
        key = f"control_regions[{i}]"
        c.known(reg, keys, key, "a control region")
        if reg.get("side") not in (*c.ruleset.sides, "neutral"):
            c.fail(f"{key}.side", "needs side = 'axis', 'allies' or 'neutral' (a neutral's annexed zone)")
        if reg.get("side") == "neutral" and not (c.scenario.options.get("politics") and reg.get("home")):
            c.fail(f"{key}.side", "a neutral region needs options.politics on and the `home` nation that holds it")
        for k in ("name", "bounds", "polygon_source"):
            c.text(reg, k, key)
        if "country" in reg and reg["country"] not in c.countries:
            c.fail(f"{key}.country", f"{shown(repr(reg['country']))} is no country of map {c.hm.name}")
        if "home" in reg and reg["home"] not in c.nations:
            c.fail(f"{key}.home", f"{shown(repr(reg['home']))} is not a nation code of units.toml [nations]")
        poly = reg.get("polygon", [])
        if not isinstance(poly, list) or (poly and len(poly) < 3) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, int | float) and not isinstance(x, bool)
                                                          for x in p) for p in poly):
            c.fail(f"{key}.polygon", "must be a polygon: a list of at least three [lon, lat] points")
        for k in ("hexes", "exclude"):
            hexes = reg.get(k, [])
            if not isinstance(hexes, list) or not all(isinstance(h, str) and c.hm.has_hex(h) for h in hexes):
                c.fail(f"{key}.{k}", f"must be a list of hex labels of map {c.hm.name}")


def check_politics(c: Check) -> None:
    """``[politics]`` (ETO-39.0, 42.0): the war state at the start -- belligerents and their
    partnerships, open fronts between partnerships, wars between two nations alone."""
    spec = c.scenario.raw.get("politics")
    if spec is None:
        return
    if not isinstance(spec, dict):
        c.fail("politics", f"must be a table, not {kind_of(spec)}")
    c.known(spec, {"members", "fronts", "wars", "axis_invaded", "winter_war", "vichy", "note", "source", "rationale"},
            "politics",
            "the war state")
    parts = set(c.ruleset.tables["politics"]["partnerships"])
    members = spec.get("members", {})
    if not isinstance(members, dict):
        c.fail("politics.members", f"must be a table nation = partnership, not {kind_of(members)}")
    for n, p in members.items():
        if n not in c.nations:
            c.fail(f"politics.members.{n}", f"{n!r} is not a nation code of units.toml [nations]")
        if p not in parts:
            c.fail(f"politics.members.{n}", f"must be one of the partnerships {', '.join(sorted(parts))}, "
                   f"not {shown(repr(p))}")
        side = c.ruleset.tables["politics"]["partnerships"][p]
        if c.side_of.get(n) not in (None, side):
            c.fail(f"politics.members.{n}", f"{n} is listed under [sides.{c.side_of[n]}] but its partnership "
                   f"{p!r} fights for {side}")
    for k, names in (("fronts", parts), ("wars", c.nations)):
        pairs = spec.get(k, [])
        if not isinstance(pairs, list) or not all(isinstance(x, list) and len(x) == 2 for x in pairs):
            c.fail(f"politics.{k}", "must be a list of pairs, e.g. [[\"axis\", \"western\"]]" if k == "fronts"
                   else "must be a list of nation pairs, e.g. [[\"SU\", \"FI\"]]")
        for pair in pairs:
            for x in pair:
                if x not in names:
                    c.fail(f"politics.{k}", f"{shown(repr(x))} is no {'partnership' if k == 'fronts' else 'nation code'}"
                           f" (known: {', '.join(sorted(names))})")
    for k in ("axis_invaded", "winter_war", "vichy"):
        if k in spec and not isinstance(spec[k], bool):
            c.fail(f"politics.{k}", "must be true or false")


def check_reinforcements(c: Check) -> None:
    for i, r in enumerate(c.tables("reinforcements")):
        key = f"reinforcements[{i}]"
        c.known(r, {"turn", "nation", "units", "where", "note", "id", "rule"}, key, "an ETO reinforcement")
        turn = r.get("turn")
        if not isinstance(turn, str) or not _MONTH.match(turn) or turn not in c.calendar:
            c.fail(f"{key}.turn", f"{shown(repr(turn))} is not a monthly turn of this scenario "
                   f"({c.calendar[0]} to {c.calendar[-1]}): reinforcements arrive as a monthly turn begins")
        if r.get("nation") not in c.side_of:
            c.fail(f"{key}.nation", f"{shown(repr(r.get('nation')))} is a nation on no side; declare it under "
                   "[sides.<side>] nations")
        escort_box = isinstance(r.get("where"), str) and r["where"].endswith("convoy escort box") \
            and r["where"] in c.hm.boxes
        if not c.place_ok(r.get("where")) and not escort_box:
            c.fail(f"{key}.where", f"{shown(repr(r.get('where')))} is no hex label or place on map {c.hm.name}")
        c.text(r, "note", key)
        for j, u in enumerate(r.get("units", [])):
            c.known(u, {"id", "type", "note", "name", "usll"}, f"{key}.units[{j}]", "an ETO reinforcement unit "
                    "(one unit each: ETO reinforcements take no count)")
            if escort_box and not u.get("usll"):
                c.fail(f"{key}.units[{j}]", "only USLL destroyers (usll = true) arrive straight in a convoy escort "
                       "box (36.6)")


def check_force_pool(c: Check) -> None:
    made: dict[str, str] = {u["id"]: "units" for u in c.scenario.units}
    for r in c.scenario.raw.get("reinforcements", []):
        for u in r.get("units", []):
            made[u["id"]] = "reinforcements"
    for i, e in enumerate(c.tables("force_pool")):
        key = f"force_pool[{i}]"
        c.known(e, {"nation", "type", "count", "box", "rule", "note"}, key, "a force pool entry")
        if e.get("nation") not in c.side_of:
            c.fail(f"{key}.nation", f"{shown(repr(e.get('nation')))} is a nation on no side; declare it under "
                   "[sides.<side>] nations")
        if e.get("type") not in c.ruleset.unit_types:
            c.fail(f"{key}.type", f"unknown unit type {shown(repr(e.get('type')))} for the eto ruleset "
                   "(see its tables/units.toml)")
        box = e.get("box", FORCE_POOL_BOXES[0])
        if not isinstance(box, str) or box.replace(" box", "") not in FORCE_POOL_BOXES:
            c.fail(f"{key}.box", f"must be one of {', '.join(FORCE_POOL_BOXES)}, not {shown(repr(box))}")
        tag = "sib" if box.replace(" box", "") != FORCE_POOL_BOXES[0] else "pool"
        for k in range(e.get("count", 1)):  # ruleset.setup names them so
            uid = f"{e['nation']}-{tag}-{e['type']}-{k + 1}"
            if uid in made:
                c.fail(f"{key}", f"its unit {uid} collides with one of {made[uid]}; give each nation, type "
                       "and box one entry")
            made[uid] = key


def check_victory(c: Check) -> None:
    v = c.scenario.raw.get("victory", {})
    c.known(v, {"source", "rule", "rationale", "checked", "counting", "objectives", "resource_hexes", "levels",
                "sudden_death", "text", "note", "air_war", "naval_war"}, "victory", "ETO [victory]")
    for k in ("source", "rationale", "checked", "counting", "text", "note"):
        c.text(v, k, "victory")
    for i, o in enumerate(v.get("objectives", [])):
        key = f"victory.objectives[{i}]"
        if not isinstance(o, dict):
            c.fail(key, "must be a table: place, vp, why")
        c.known(o, {"place", "vp", "why"}, key, "a victory objective")
        if not c.place_ok(o.get("place")):
            c.fail(f"{key}.place", f"{o.get('place')!r} is no hex label or place on map {c.hm.name}")
        c.whole(o, "vp", key, required=True)
    res = v.get("resource_hexes", {})
    if not isinstance(res, dict):
        c.fail("victory.resource_hexes", f"must be a table, not {kind_of(res)}")
    c.known(res, {"vp_each", "counts", "excludes", "control"}, "victory.resource_hexes", "resource hex VP")
    c.whole(res, "vp_each", "victory.resource_hexes")
    for i, lv in enumerate(v.get("levels", [])):
        key = f"victory.levels[{i}]"
        if not isinstance(lv, dict):
            c.fail(key, "must be a table: result, min, max")
        c.known(lv, {"result", "min", "max"}, key, "a victory level")
        c.text(lv, "result", key, required=True)
        c.whole(lv, "min", key, low=None)
        c.whole(lv, "max", key, low=None)
    for i, sd in enumerate(v.get("sudden_death", [])):
        key = f"victory.sudden_death[{i}]"
        if not isinstance(sd, dict):
            c.fail(key, "must be a table: side, result, condition")
        c.known(sd, {"side", "result", "condition", "when", "places", "nations", "place", "radius", "classes", "rule"},
                key, "a sudden-death condition")
        if sd.get("side") not in c.ruleset.sides:
            c.fail(f"{key}.side", "needs side = 'axis' or 'allies'")
        when = sd.get("when")
        if when not in (None, "controls", "unit_in_city_resource", "no_air_near"):
            c.fail(f"{key}.when", f"{when!r} is not a sudden-death test (controls, unit_in_city_resource, no_air_near)")
        for p in [*sd.get("places", []), *([sd["place"]] if "place" in sd else [])]:
            if not c.place_ok(p):
                c.fail(f"{key}.place", f"{p!r} is no hex label or place on map {c.hm.name}")
    aw = v.get("air_war", {})
    if not isinstance(aw, dict):
        c.fail("victory.air_war", f"must be a table, not {kind_of(aw)}")
    c.known(aw, {"source", "rationale", "steps_lost", "destroyed_bases"}, "victory.air_war", "air-war VP")
    for i, e in enumerate(aw.get("steps_lost", [])):
        key = f"victory.air_war.steps_lost[{i}]"
        if not isinstance(e, dict) or e.get("side") not in c.ruleset.sides:
            c.fail(key, "must be a table with side = 'axis' or 'allies', classes, vp, per")
        c.known(e, {"side", "classes", "vp", "per", "label"}, key, "an air-steps VP entry")
        c.whole(e, "vp", key, low=None)
        c.whole(e, "per", key, low=1)
    db = aw.get("destroyed_bases")
    if db is not None:
        c.known(db, {"near", "radius", "side", "vp_each", "label"}, "victory.air_war.destroyed_bases", "destroyed-base VP")
        if not c.place_ok(db.get("near")):
            c.fail("victory.air_war.destroyed_bases.near", f"{db.get('near')!r} is no hex label or place on map {c.hm.name}")
    nw = v.get("naval_war", {})
    if not isinstance(nw, dict):
        c.fail("victory.naval_war", f"must be a table, not {kind_of(nw)}")
    c.known(nw, {"source", "rationale", "ships_lost"}, "victory.naval_war", "naval-war VP")
    kinds = {"BB", "CA", "CV", "CL", "DD", "DE", "CVE", "SS", "UBOAT", "STP"}
    for i, e in enumerate(nw.get("ships_lost", [])):
        key = f"victory.naval_war.ships_lost[{i}]"
        if not isinstance(e, dict) or e.get("side") not in c.ruleset.sides:
            c.fail(key, "must be a table with side = 'axis' or 'allies', kinds, vp, per")
        c.known(e, {"side", "kinds", "vp", "per", "label"}, key, "a ships-sunk VP entry")
        bad = [k for k in e.get("kinds", []) if k not in kinds]
        if bad:
            c.fail(f"{key}.kinds", f"{bad[0]!r} is no naval unit type (known: {', '.join(sorted(kinds))})")
        c.whole(e, "vp", key, low=None)
        c.whole(e, "per", key, low=1)
    sm = c.scenario.raw.get("supply_markers", [])
    if not isinstance(sm, list):
        c.fail("supply_markers", f"must be a list of tables, not {kind_of(sm)}")
    for i, m in enumerate(sm):
        key = f"supply_markers[{i}]"
        if not isinstance(m, dict):
            c.fail(key, "must be a table: place, side, markers")
        c.known(m, {"place", "side", "markers", "why"}, key, "a supply-marker stockpile")
        if not c.place_ok(m.get("place")):
            c.fail(f"{key}.place", f"{m.get('place')!r} is no hex label or place on map {c.hm.name}")
        if m.get("side") not in c.ruleset.sides:
            c.fail(f"{key}.side", "needs side = 'axis' or 'allies'")
        c.whole(m, "markers", key, required=True, low=1)
    for k in ("objectives", "levels", "sudden_death"):
        if not isinstance(v.get(k, []), list):
            c.fail(f"victory.{k}", f"must be a list of tables, not {kind_of(v[k])}")


def check_seasonal_turns(c: Check) -> None:
    raw = c.scenario.raw
    if "seasonal_turns" not in raw:
        return
    seasons = [t for t in c.calendar if not _MONTH.match(t)]
    got = raw["seasonal_turns"]
    if not isinstance(got, list) or any(t not in seasons for t in got):
        c.fail("seasonal_turns", f"must list seasonal turns of this scenario's calendar ({', '.join(seasons)})")


def check_tracks(c: Check) -> None:
    for k, v in c.scenario.raw.get("tracks", {}).items():
        nation, _, field = k.partition(".")
        if field in NUMBER_TRACKS and nation in c.nations and (not is_int(v) or v < 0):
            c.fail(f"tracks.{k}", f"must be a whole number of at least 0, not {kind_of(v)} {shown(repr(v))}")
        if nation == "war" and not (isinstance(v, str) and _MONTH.match(v)):
            c.fail(f"tracks.{k}", f"must be the month the war began, like 1941-06, not {shown(repr(v))}")


def check_bot_plan(c: Check) -> None:
    """Hints for the heuristic bots (rulesets/eto/bot/): each lane an HQ of the scenario
    driving on one of its victory objectives."""
    raw = c.scenario.raw
    objectives = {str(o.get("place")) for o in raw.get("victory", {}).get("objectives", [])}
    unit_ids = {u["id"] for u in c.scenario.units}
    for side, plan in raw.get("bot_plan", {}).items():
        if side not in c.ruleset.sides or not isinstance(plan, dict):
            c.fail(f"bot_plan.{side}", f"{side!r} is no side of this ruleset ({', '.join(c.ruleset.sides)})")
        lanes = plan.get("lanes", {})
        if not isinstance(lanes, dict):
            c.fail(f"bot_plan.{side}.lanes", "needs a table of HQ unit id = victory objective place")
        for i, entry in enumerate(plan.get("invasions", []) if isinstance(plan, dict) else []):
            if not isinstance(entry, dict) or not {"nation", "target", "from"} <= set(entry) \
                    or not all(isinstance(entry[k], str) for k in ("nation", "target", "from")):
                c.fail(f"bot_plan.{side}.invasions[{i}]", "needs nation, target and from (a month, e.g. \"1940-04\")")
            elif entry["nation"] not in c.nations or entry["target"] not in c.nations:
                c.fail(f"bot_plan.{side}.invasions[{i}]", f"{entry['nation']!r} or {entry['target']!r} is no nation code")
            else:
                try:
                    month_key(entry["from"])
                except (ValueError, KeyError, IndexError):
                    c.fail(f"bot_plan.{side}.invasions[{i}].from", f"{entry['from']!r} is not a month like 1940-04")
        if isinstance(plan, dict) and not isinstance(plan.get("exchange_to_italy", False), bool):
            c.fail(f"bot_plan.{side}.exchange_to_italy", "needs true or false")
        ww = plan.get("winter_war") if isinstance(plan, dict) else None
        if ww is not None and not isinstance(ww, str):
            c.fail(f"bot_plan.{side}.winter_war", "needs a month, e.g. \"1939-11\"")
        for hid, place in lanes.items():
            if hid not in unit_ids:
                c.fail(f"bot_plan.{side}.lanes", f"{hid!r} is no unit id of this scenario")
            if place not in objectives:
                c.fail(f"bot_plan.{side}.lanes",
                       f"{place!r} is not a victory objective place ({', '.join(sorted(objectives))})")


def validate(ruleset: Any, scenario: Any) -> None:
    """Every ETO-specific check of a loaded scenario (see the module doc)."""
    c = Check(ruleset, scenario, load_map(scenario.map))
    for side, nations in scenario.sides.items():
        for n in nations:
            if n not in c.nations:
                c.fail(f"sides.{side}.nations", f"{n!r} is not a nation code of units.toml [nations] "
                       f"({', '.join(sorted(c.nations))})")
    check_tracks(c)
    check_control(c)
    check_politics(c)
    check_special_rules(c)
    check_reinforcements(c)
    check_force_pool(c)
    check_victory(c)
    check_seasonal_turns(c)
    check_bot_plan(c)
