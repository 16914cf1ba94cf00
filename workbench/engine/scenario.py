"""Scenario files: TOML in, a validated :class:`Scenario` out, or a plain-words ScenarioError.

The format is documented in ``docs/scenario-format.md``.  Validation runs
completely before anything is built, and names the file, the key and the
problem, so a designer can fix a file from the message alone.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.engine.errors import ScenarioError
from workbench.engine.ruleset import Ruleset, get_ruleset, known_rulesets
from workbench.map import HexMap, load_map

SCENARIOS_DIR = Path(os.environ.get("WORKBENCH_SCENARIOS",
                                    Path(__file__).resolve().parents[2] / "scenarios"))
_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
REQUIRED = ("id", "title", "ruleset", "map", "first_turn", "last_turn", "sides", "units")
KNOWN_KEYS = {"format", "id", "title", "ruleset", "map", "rule", "source", "rationale",
              "first_turn", "last_turn", "description", "sides", "units", "tracks", "options",
              "control", "special_rules", "victory", "deployment", "reinforcements",
              "force_pool", "expects_optional_rules", "markers", "overrides",
              "bot_plan"}  # bot_plan: hints read only by the heuristic bots (workbench/bots)
UNIT_KEYS = {"id", "nation", "type", "at", "reduced", "count", "name", "deploy", "props", "notes"}


@dataclass
class Scenario:
    """A validated scenario.  ``units`` are expanded (``count``) and located (``location``)."""

    id: str
    title: str
    ruleset: str
    map: str
    first_turn: str
    last_turn: str
    sides: dict[str, list[str]]
    units: list[dict[str, Any]]
    file: str = ""
    description: str = ""
    tracks: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)

    def side_of(self, nation: str) -> str:
        for side, nations in self.sides.items():
            if nation in nations:
                return side
        raise KeyError(nation)


def scenario_ids() -> list[str]:
    """Ids of the scenarios shipped under ``scenarios/`` (``ssa/1941``, ``eto/barbarossa-1941``)."""
    if not SCENARIOS_DIR.exists():
        return []
    return sorted(p.relative_to(SCENARIOS_DIR).with_suffix("").as_posix()
                  for p in SCENARIOS_DIR.glob("*/*.toml"))


def scenario_path(id_or_path: str | Path) -> Path:
    p = Path(id_or_path)
    if p.suffix == ".toml" and p.exists():
        return p
    candidate = SCENARIOS_DIR / f"{id_or_path}.toml"
    if candidate.exists():
        return candidate
    raise ScenarioError(str(id_or_path), "(file)",
                        f"no scenario file or id {str(id_or_path)!r}; known ids: "
                        f"{', '.join(scenario_ids()) or 'none'}")


def read_scenario(id_or_path: str | Path) -> Scenario:
    """Read and validate a scenario file; never returns a half-valid scenario."""
    path = scenario_path(id_or_path)
    file = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(file, "(file)", f"not valid TOML: {exc}") from None
    return validate(raw, file)


def _need(raw: dict[str, Any], key: str, typ: type | tuple[type, ...], file: str, what: str) -> Any:
    if key not in raw:
        raise ScenarioError(file, key, f"required key is missing ({what})")
    val = raw[key]
    if not isinstance(val, typ) or (typ is int and isinstance(val, bool)):
        names = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
        raise ScenarioError(file, key, f"must be a {_plain(names)}, not {type(val).__name__} {val!r}")
    return val


def _plain(names: str) -> str:
    return names.replace("str", "text string").replace("dict", "table").replace("list", "list")


def validate(raw: dict[str, Any], file: str = "<scenario>") -> Scenario:
    """Check every key of a parsed scenario against its ruleset and map."""
    for key in REQUIRED:
        if key not in raw:
            raise ScenarioError(file, key, "required key is missing")
    rs_name = _need(raw, "ruleset", str, file, "the name of a ruleset (" + ", ".join(known_rulesets()) + ")")
    try:
        ruleset = get_ruleset(rs_name)
    except KeyError:
        raise ScenarioError(file, "ruleset", f"unknown ruleset {rs_name!r}; known: "
                            f"{', '.join(known_rulesets())}") from None
    known = KNOWN_KEYS | ruleset.scenario_keys
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ScenarioError(file, unknown[0], f"unknown key (known keys: {', '.join(sorted(known))})")
    sid = _need(raw, "id", str, file, "the scenario id, e.g. 'ssa/1941'")
    title = _need(raw, "title", str, file, "a title")
    map_name = _need(raw, "map", str, file, "a map name")
    try:
        hexmap = load_map(map_name)
    except KeyError as exc:
        raise ScenarioError(file, "map", str(exc.args[0])) from None
    first = _need(raw, "first_turn", str, file, "YYYY-MM")
    last = _need(raw, "last_turn", str, file, "YYYY-MM")
    for key, val in (("first_turn", first), ("last_turn", last)):
        if not _MONTH.match(val):
            raise ScenarioError(file, key, f"must look like 1941-09 (YYYY-MM), not {val!r}")
    if last < first:
        raise ScenarioError(file, "last_turn", f"{last} comes before first_turn {first}")

    sides_raw = _need(raw, "sides", dict, file, "one table per side")
    sides: dict[str, list[str]] = {}
    for side in ruleset.sides:
        if side not in sides_raw:
            raise ScenarioError(file, f"sides.{side}", f"the {rs_name} ruleset needs side {side!r}")
        nations = _need(sides_raw[side], "nations", list, file, "nation codes") \
            if isinstance(sides_raw[side], dict) else None
        if nations is None or not all(isinstance(n, str) for n in nations):
            raise ScenarioError(file, f"sides.{side}.nations", "must be a list of nation codes")
        sides[side] = list(nations)
    extra = sorted(set(sides_raw) - set(ruleset.sides))
    if extra:
        raise ScenarioError(file, f"sides.{extra[0]}",
                            f"unknown side; the {rs_name} ruleset has {', '.join(ruleset.sides)}")

    tracks = raw.get("tracks", {})
    if not isinstance(tracks, dict):
        raise ScenarioError(file, "tracks", "must be a table of track = value")
    for k, v in tracks.items():
        if not isinstance(v, int | float | str | bool):
            raise ScenarioError(file, f"tracks.{k}", f"must be a number or text, not {type(v).__name__}")
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise ScenarioError(file, "options", "must be a table")

    units = _units(raw, file, ruleset, hexmap, sides)
    sc = Scenario(id=sid, title=title, ruleset=rs_name, map=map_name, first_turn=first,
                  last_turn=last, sides=sides, units=units, file=file,
                  description=str(raw.get("description", "")), tracks=dict(tracks),
                  options=dict(options), raw=raw)
    ruleset.validate_scenario(sc)
    return sc


def _units(raw: dict[str, Any], file: str, ruleset: Ruleset, hexmap: HexMap,
           sides: dict[str, list[str]]) -> list[dict[str, Any]]:
    entries = _need(raw, "units", list, file, "a list of [[units]] tables")
    nation_side = {n: s for s, ns in sides.items() for n in ns}
    types = ruleset.unit_types
    boxes = set(hexmap.boxes) | set(ruleset.boxes)
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for i, u in enumerate(entries):
        key = f"units[{i}]"
        if not isinstance(u, dict):
            raise ScenarioError(file, key, "each unit must be a [[units]] table")
        bad = sorted(set(u) - UNIT_KEYS - ruleset.unit_keys)
        if bad:
            raise ScenarioError(file, f"{key}.{bad[0]}", "unknown unit key (known: "
                                f"{', '.join(sorted(UNIT_KEYS | ruleset.unit_keys))})")
        uid = _need(u, "id", str, file, "a unique unit id") if "id" in u else None
        if uid is None:
            raise ScenarioError(file, f"{key}.id", "required key is missing")
        key = f"units[{i}] ({uid})"
        nation = u.get("nation")
        if not isinstance(nation, str):
            raise ScenarioError(file, f"{key}.nation", "required nation code is missing or not text")
        if nation not in nation_side:
            raise ScenarioError(file, f"{key}.nation", f"nation {nation!r} is on no side; "
                                f"declare it under [sides.<side>] nations")
        utype = u.get("type")
        if not isinstance(utype, str):
            raise ScenarioError(file, f"{key}.type", "required unit type is missing or not text")
        if utype not in types:
            raise ScenarioError(file, f"{key}.type", f"unknown unit type {utype!r} for the "
                                f"{ruleset.name} ruleset (see its tables/units.toml)")
        at = u.get("at")
        if not isinstance(at, str):
            raise ScenarioError(file, f"{key}.at", "required location (hex label, place or box) is missing or not text")
        reduced = u.get("reduced", False)
        if not isinstance(reduced, bool):
            raise ScenarioError(file, f"{key}.reduced", f"must be true or false, not {reduced!r}")
        count = u.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ScenarioError(file, f"{key}.count", f"must be a whole number of at least 1, not {count!r}")
        location = _locate(at, file, f"{key}.at", hexmap, boxes)
        domain = types[utype].get("domain", "land")
        if location in hexmap.labels_set and domain == "land" and \
                hexmap.is_water[hexmap.index(location)]:
            terrain = hexmap.hexes["terrain"][hexmap.index(location)]
            raise ScenarioError(file, f"{key}.at", f"a land unit cannot be placed on hex {location}, "
                                f"which is {terrain}")
        ids = [uid] if count == 1 else [f"{uid}-{n}" for n in range(1, count + 1)]
        for one in ids:
            if one in seen:
                raise ScenarioError(file, f"{key}.id", f"duplicate unit id {one!r} "
                                    f"(already used by units[{seen[one]}])")
            seen[one] = i
            extra = {k: u[k] for k in ruleset.unit_keys if k in u}
            out.append({"id": one, "side": nation_side[nation], "nation": nation, "type": utype,
                        "size": types[utype].get("size"), "location": location, "reduced": reduced,
                        "props": {**dict(u.get("props", {})), **extra}, "name": u.get("name"),
                        "deploy": u.get("deploy")})
    return out


def _locate(at: str, file: str, key: str, hexmap: HexMap, boxes: set[str]) -> str:
    """A hex label, a box name or a place name, to a hex label or box name."""
    if at in boxes:
        return at
    if at.isdigit():
        if not hexmap.has_hex(at):
            raise ScenarioError(file, key, f"unknown hex label {at!r} on map {hexmap.name} "
                                f"(labels there look like {hexmap.label(0)})")
        return at
    try:
        return hexmap.hex_of(at)
    except KeyError:
        raise ScenarioError(file, key, f"{at!r} is no hex label, box or place on map "
                            f"{hexmap.name}") from None
