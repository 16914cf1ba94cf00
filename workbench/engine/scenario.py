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

from workbench.engine import limits
from workbench.engine.errors import ScenarioError
from workbench.engine.ruleset import Ruleset, get_ruleset, known_rulesets
from workbench.map import HexMap, load_map

SCENARIOS_DIR = Path(os.environ.get("WORKBENCH_SCENARIOS",
                                    Path(__file__).resolve().parents[2] / "scenarios"))
_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
#: A scenario id: ``<ruleset>/<name>``-like words of letters, digits, ``_``, ``.`` and ``-``
#: joined by ``/``; no part starts with a dot, so ``..`` and absolute paths are never ids.
SCENARIO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)*$")
#: Scenario file format versions this workbench reads (``format = 1``; absent means 1).
FORMATS = (1,)
REQUIRED = ("id", "title", "ruleset", "map", "first_turn", "last_turn", "sides", "units")
KNOWN_KEYS = {"format", "id", "title", "ruleset", "map", "rule", "source", "rationale",
              "first_turn", "last_turn", "description", "sides", "units", "tracks", "options",
              "control", "special_rules", "victory", "deployment", "reinforcements",
              "force_pool", "expects_optional_rules", "markers", "overrides",
              "bot_plan",  # bot_plan: hints read only by the heuristic bots (workbench/bots)
              "designer_mode"}  # designer_mode: the starting position may break set-up rules
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
    #: expanded unit id -> index of its ``[[units]]`` entry (for error keys)
    unit_index: dict[str, int] = field(default_factory=dict)

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


def is_scenario_id(text: Any) -> bool:
    """Whether ``text`` is a well-formed scenario id (never a path: no ``..``, no leading ``/``)."""
    return isinstance(text, str) and len(text) <= limits.MAX_ID_LENGTH and bool(SCENARIO_ID.match(text)) \
        and not text.endswith(".toml")


def shown(text: Any) -> str:
    """A name for a message, cut short if it is very long."""
    s = str(text)
    return s if len(s) <= 80 else s[:77] + "..."


def scenario_path(id_or_path: str | Path) -> Path:
    """The file of a scenario.

    A :class:`~pathlib.Path`, or a string ending in ``.toml``, is a file the caller names
    explicitly and is used as given.  Anything else is a scenario id (``ssa/1941``), which
    resolves only to a ``.toml`` file inside ``scenarios/`` (see :func:`scenario_id_path`).
    """
    if isinstance(id_or_path, Path) or (isinstance(id_or_path, str) and id_or_path.endswith(".toml")):
        p = Path(id_or_path)
        try:
            ok = p.is_file()
        except (OSError, ValueError) as exc:
            raise ScenarioError(shown(p), "(file)", f"cannot be read: {_why(exc)}") from None
        if not ok:
            what = "is a folder, not a scenario file" if _is_dir(p) else "no such scenario file"
            raise ScenarioError(shown(p), "(file)", what)
        return p
    return scenario_id_path(id_or_path)


def scenario_id_path(sid: Any) -> Path:
    """The file of a scenario id: ``scenarios/<id>.toml``, never a file outside ``scenarios/``."""
    if not is_scenario_id(sid):
        raise ScenarioError(shown(sid), "(id)",
                            f"{shown(sid)!r} is not a scenario id: an id is words of letters, digits, "
                            f"'_', '.' and '-' joined by '/', at most {limits.MAX_ID_LENGTH} characters "
                            f"(e.g. 'ssa/1941'); to read a file, pass its path")
    root = SCENARIOS_DIR.resolve()
    candidate = (root / f"{sid}.toml").resolve()
    if candidate.is_relative_to(root) and candidate.is_file():
        return candidate
    raise ScenarioError(str(sid), "(file)",
                        f"no scenario file or id {str(sid)!r}; known ids: "
                        f"{', '.join(scenario_ids()) or 'none'}")


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except (OSError, ValueError):
        return False


def _why(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


def read_scenario(id_or_path: str | Path) -> Scenario:
    """Read and validate a scenario file; never returns a half-valid scenario.

    Every failure is a :class:`ScenarioError`: a file that is too big, unreadable, not
    TOML, nested too deeply (``workbench.engine.limits``) or wrong in any key."""
    path = scenario_path(id_or_path)
    file = str(path)
    try:
        size = path.stat().st_size
        if size > limits.MAX_SCENARIO_BYTES:
            raise ScenarioError(file, "(file)", f"is {size:,} bytes; a scenario file may have at most "
                                f"{limits.MAX_SCENARIO_BYTES:,} (docs/limits.md)")
        with open(path, "rb") as fh:
            data = fh.read(limits.MAX_SCENARIO_BYTES + 1)
        if len(data) > limits.MAX_SCENARIO_BYTES:
            raise ScenarioError(file, "(file)", f"has more than {limits.MAX_SCENARIO_BYTES:,} bytes "
                                "(docs/limits.md)")
        raw = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(file, "(file)", f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ScenarioError(file, "(file)", f"tables or lists nest deeper than {limits.MAX_DEPTH} "
                            "levels (docs/limits.md)") from None
    except OSError as exc:
        raise ScenarioError(file, "(file)", f"cannot be read: {_why(exc)}") from None
    if limits.depth_over(raw):
        raise ScenarioError(file, "(file)", f"tables or lists nest deeper than {limits.MAX_DEPTH} "
                            "levels (docs/limits.md)")
    sc = validate(raw, file)
    if not isinstance(id_or_path, Path) and not str(id_or_path).endswith(".toml") and sc.id != id_or_path:
        raise ScenarioError(file, "id", f"is {sc.id!r}, but the file is found by the id {id_or_path!r}; "
                            f"a scenario's id is its place under scenarios/")
    return sc


def _need(raw: dict[str, Any], key: str, typ: type | tuple[type, ...], file: str, what: str) -> Any:
    if key not in raw:
        raise ScenarioError(file, key, f"required key is missing ({what})")
    val = raw[key]
    if not isinstance(val, typ) or (typ is int and isinstance(val, bool)):
        names = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
        raise ScenarioError(file, key, f"must be a {_plain(names)}, not {type(val).__name__} {shown(repr(val))}")
    return val


def _plain(names: str) -> str:
    return names.replace("str", "text string").replace("dict", "table").replace("list", "list")


def kind_of(val: Any) -> str:
    """A value's kind in the scenario file's words (for messages)."""
    if isinstance(val, bool):
        return "true/false"
    return {int: "whole number", float: "number", str: "text", list: "list", dict: "table"}.get(
        type(val), type(val).__name__)


def is_int(val: Any) -> bool:
    return isinstance(val, int) and not isinstance(val, bool)


def validate(raw: dict[str, Any], file: str = "<scenario>") -> Scenario:
    """Check every key of a parsed scenario against its ruleset and map.

    The checks every ruleset shares live here (format, ids, dates, sides, options, tracks,
    units and their counts, the shape of reinforcements, special rules and victory); the
    ruleset's own ``validate_scenario`` then checks what only it understands."""
    if not isinstance(raw, dict):
        raise ScenarioError(file, "(file)", "a scenario is a TOML table of keys")
    for key in REQUIRED:
        if key not in raw:
            raise ScenarioError(file, key, "required key is missing")
    rs_name = _need(raw, "ruleset", str, file, "the name of a ruleset (" + ", ".join(known_rulesets()) + ")")
    try:
        ruleset = get_ruleset(rs_name)
    except KeyError:
        raise ScenarioError(file, "ruleset", f"unknown ruleset {shown(rs_name)!r}; known: "
                            f"{', '.join(known_rulesets())}") from None
    known = KNOWN_KEYS | ruleset.scenario_keys
    unknown = sorted(set(raw) - known, key=str)
    if unknown:
        raise ScenarioError(file, str(unknown[0]), f"unknown key (known keys: {', '.join(sorted(known))})")
    fmt = raw.get("format", FORMATS[0])
    if not is_int(fmt) or fmt not in FORMATS:
        raise ScenarioError(file, "format", f"scenario format {shown(repr(fmt))} is unknown; this workbench "
                            f"reads format {', '.join(map(str, FORMATS))}")
    sid = _need(raw, "id", str, file, "the scenario id, e.g. 'ssa/1941'")
    if not is_scenario_id(sid):
        raise ScenarioError(file, "id", f"{shown(sid)!r} is not a scenario id: words of letters, digits, "
                            f"'_', '.' and '-' joined by '/', at most {limits.MAX_ID_LENGTH} characters "
                            "(e.g. 'ssa/1941')")
    title = _need(raw, "title", str, file, "a title")
    for key in ("description", "source", "rationale"):
        if key in raw and not isinstance(raw[key], str):
            raise ScenarioError(file, key, f"must be text, not {kind_of(raw[key])}")
    if "designer_mode" in raw and not isinstance(raw["designer_mode"], bool):
        raise ScenarioError(file, "designer_mode", f"must be true or false, not {shown(repr(raw['designer_mode']))}")
    map_name = _need(raw, "map", str, file, "a map name")
    hexmap = _map(map_name, file)
    first = _need(raw, "first_turn", str, file, "YYYY-MM")
    last = _need(raw, "last_turn", str, file, "YYYY-MM")
    for key, val in (("first_turn", first), ("last_turn", last)):
        if not _MONTH.match(val):
            raise ScenarioError(file, key, f"must look like 1941-09 (YYYY-MM), not {shown(val)!r}")
    if last < first:
        raise ScenarioError(file, "last_turn", f"{last} comes before first_turn {first}")
    months = (int(last[:4]) - int(first[:4])) * 12 + int(last[5:]) - int(first[5:]) + 1
    if months > limits.MAX_TURNS:
        raise ScenarioError(file, "last_turn", f"{first} to {last} is {months:,} monthly turns; a scenario "
                            f"may span at most {limits.MAX_TURNS:,} (docs/limits.md)")

    sides = _sides(raw, file, ruleset)
    tracks = raw.get("tracks", {})
    if not isinstance(tracks, dict):
        raise ScenarioError(file, "tracks", "must be a table of track = value")
    for k, v in tracks.items():
        if not isinstance(v, int | float | str | bool):
            raise ScenarioError(file, f"tracks.{k}", f"must be a number or text, not {type(v).__name__}")
    if "initiative" in tracks and tracks["initiative"] not in ruleset.sides:
        raise ScenarioError(file, "tracks.initiative", f"must be a side ({', '.join(ruleset.sides)}), "
                            f"not {shown(repr(tracks['initiative']))}")
    options = raw.get("options", {})
    check_options(options, file, ruleset)
    expects = raw.get("expects_optional_rules", [])
    _optional_rule_names(expects, file, "expects_optional_rules", ruleset)
    for key in ("overrides", "control", "victory", "bot_plan"):
        if key in raw and not isinstance(raw[key], dict):
            raise ScenarioError(file, key, f"must be a table, not {kind_of(raw[key])}")

    units, index = _units(raw, file, ruleset, hexmap, sides)
    calendar = ruleset.calendar(first, last)
    _entries(raw, file, ruleset, units, calendar)
    sc = Scenario(id=sid, title=title, ruleset=rs_name, map=map_name, first_turn=first,
                  last_turn=last, sides=sides, units=units, file=file,
                  description=str(raw.get("description", "")), tracks=dict(tracks),
                  options=dict(options), raw=raw, unit_index=index)
    ruleset.validate_scenario(sc)
    return sc


def _map(map_name: str, file: str) -> HexMap:
    """The scenario's map; a missing or broken map folder is a ScenarioError on ``map``."""
    try:
        return load_map(map_name)
    except KeyError as exc:
        raise ScenarioError(file, "map", str(exc.args[0])) from None
    except Exception as exc:  # noqa: BLE001 - any damage in a map folder (JSON, Parquet, files) is a refusal
        raise ScenarioError(file, "map", f"the map {shown(map_name)!r} cannot be read: "
                            f"{type(exc).__name__}: {shown(_why(exc))}") from None


def _sides(raw: dict[str, Any], file: str, ruleset: Ruleset) -> dict[str, list[str]]:
    """Exactly the ruleset's sides, each a list of nation codes; no nation on two sides."""
    rs_name = ruleset.name
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
    seen: dict[str, str] = {}
    for side, nations in sides.items():
        for n in nations:
            if n in seen:
                where = "twice on that side" if seen[n] == side else f"on both sides ({seen[n]} and {side})"
                raise ScenarioError(file, f"sides.{side}.nations", f"nation {shown(n)!r} is {where}; "
                                    "a nation belongs to one side")
            seen[n] = side
    return sides


def check_options(options: Any, file: str, ruleset: Ruleset, key: str = "options") -> None:
    """Game options: a table; ``optional_rules`` a list of the ruleset's optional rule names."""
    if not isinstance(options, dict):
        raise ScenarioError(file, key, f"must be a table, not {kind_of(options)}")
    for k in options:
        if not isinstance(k, str):
            raise ScenarioError(file, key, f"option names are text, not {kind_of(k)} {shown(repr(k))}")
    if "optional_rules" in options:
        _optional_rule_names(options["optional_rules"], file, f"{key}.optional_rules", ruleset)


def _optional_rule_names(names: Any, file: str, key: str, ruleset: Ruleset) -> None:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ScenarioError(file, key, f"must be a list of optional rule names (e.g. [\"SSA-21\"]), "
                            f"not {kind_of(names)} {shown(repr(names))}")
    known = ruleset.optional_rules
    for n in names:
        if known is not None and n not in known:
            raise ScenarioError(file, key, f"{shown(n)!r} is not an optional rule of the {ruleset.name} "
                                f"ruleset (known: {', '.join(sorted(known)) or 'none'})")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ScenarioError(file, key, f"{dup[0]!r} is listed twice")


def _units(raw: dict[str, Any], file: str, ruleset: Ruleset, hexmap: HexMap,
           sides: dict[str, list[str]]) -> tuple[list[dict[str, Any]], dict[str, int]]:
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
        check_id(uid, file, f"{key}.id", "unit id")
        key = f"units[{i}] ({uid})"
        nation = u.get("nation")
        if not isinstance(nation, str):
            raise ScenarioError(file, f"{key}.nation", "required nation code is missing or not text")
        if nation not in nation_side:
            raise ScenarioError(file, f"{key}.nation", f"nation {shown(nation)!r} is on no side; "
                                f"declare it under [sides.<side>] nations")
        utype = u.get("type")
        if not isinstance(utype, str):
            raise ScenarioError(file, f"{key}.type", "required unit type is missing or not text")
        if utype not in types:
            raise ScenarioError(file, f"{key}.type", f"unknown unit type {shown(utype)!r} for the "
                                f"{ruleset.name} ruleset (see its tables/units.toml)")
        at = u.get("at")
        if not isinstance(at, str):
            raise ScenarioError(file, f"{key}.at", "required location (hex label, place or box) is missing or not text")
        reduced = u.get("reduced", False)
        if not isinstance(reduced, bool):
            raise ScenarioError(file, f"{key}.reduced", f"must be true or false, not {shown(repr(reduced))}")
        count = u.get("count", 1)
        if not is_int(count) or count < 1:
            raise ScenarioError(file, f"{key}.count", f"must be a whole number of at least 1, not {shown(repr(count))}")
        if len(out) + count > limits.MAX_UNITS:
            raise ScenarioError(file, f"{key}.count", f"brings the scenario's units past {limits.MAX_UNITS:,}, "
                                "the most a scenario may have (docs/limits.md)")
        for opt in ("name", "deploy", "notes"):
            if opt in u and not isinstance(u[opt], str):
                raise ScenarioError(file, f"{key}.{opt}", f"must be text, not {kind_of(u[opt])}")
        props = u.get("props", {})
        if not isinstance(props, dict):
            raise ScenarioError(file, f"{key}.props", f"must be a table of name = value, not {kind_of(props)}")
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
                        "props": {**dict(props), **extra}, "name": u.get("name"),
                        "deploy": u.get("deploy")})
    return out, seen


def check_id(val: Any, file: str, key: str, what: str = "id") -> str:
    """An id: non-empty text of at most ``MAX_ID_LENGTH`` characters, no control characters."""
    if not isinstance(val, str):
        raise ScenarioError(file, key, f"the {what} must be text, not {kind_of(val)} {shown(repr(val))}")
    if not val or len(val) > limits.MAX_ID_LENGTH or not val.isprintable():
        raise ScenarioError(file, key, f"the {what} {shown(val)!r} must be 1 to {limits.MAX_ID_LENGTH} "
                            "printable characters (docs/limits.md)")
    return val


def _table_list(raw: dict[str, Any], key: str, file: str) -> list[dict[str, Any]]:
    """``raw[key]`` as a list of tables (``[[key]]``), or a ScenarioError."""
    val = raw.get(key, [])
    if not isinstance(val, list):
        raise ScenarioError(file, key, f"must be a list of [[{key}]] tables, not {kind_of(val)}")
    for i, e in enumerate(val):
        if not isinstance(e, dict):
            raise ScenarioError(file, f"{key}[{i}]", f"each entry must be a [[{key}]] table, not {kind_of(e)}")
    return val


def _entries(raw: dict[str, Any], file: str, ruleset: Ruleset, units: list[dict[str, Any]],
             calendar: list[str]) -> None:
    """The shared shape of ``[[reinforcements]]``, ``[[force_pool]]``, ``[[special_rules]]`` and
    ``[[deployment]]``: tables; reinforcement turns on the calendar; ids unique; every unit a
    known type with a sane ``count``; the scenario's unit total within ``MAX_UNITS``."""
    types = ruleset.unit_types
    total = len(units)
    unit_ids = {u["id"]: "units" for u in units}
    entry_ids: dict[str, int] = {}
    for i, r in enumerate(_table_list(raw, "reinforcements", file)):
        key = f"reinforcements[{i}]"
        if "id" in r:
            rid = check_id(r["id"], file, f"{key}.id", "reinforcement id")
            if rid in entry_ids:
                raise ScenarioError(file, f"{key}.id", f"reinforcement id {rid!r} is already used by "
                                    f"reinforcements[{entry_ids[rid]}]; each entry needs its own id")
            entry_ids[rid] = i
            key = f"reinforcements[{i}] ({rid})"
        if "turn" in r:
            turn = r["turn"]
            if not isinstance(turn, str) or turn not in calendar:
                raise ScenarioError(file, f"{key}.turn", f"{shown(repr(turn))} is not a turn of this scenario "
                                    f"(turn labels run {calendar[0]} to {calendar[-1]}, like 1941-09)")
        specs = r.get("units", [])
        if not isinstance(specs, list) or not all(isinstance(s, dict) for s in specs):
            raise ScenarioError(file, f"{key}.units", "must be a list of unit tables")
        brought = 0
        for j, spec in enumerate(specs):
            ukey = f"{key}.units[{j}]"
            uid = check_id(spec.get("id"), file, f"{ukey}.id", "unit id")
            ukey = f"{key}.units[{j}] ({uid})"
            utype = spec.get("type")
            if not isinstance(utype, str) or utype not in types:
                raise ScenarioError(file, f"{ukey}.type", f"unknown unit type {shown(repr(utype))} for the "
                                    f"{ruleset.name} ruleset (see its tables/units.toml)")
            count = spec.get("count", 1)
            if not is_int(count) or count < 1:
                raise ScenarioError(file, f"{ukey}.count", "must be a whole number of at least 1, "
                                    f"not {shown(repr(count))}")
            brought += count
            if brought > limits.MAX_REINFORCEMENT_UNITS:
                raise ScenarioError(file, f"{ukey}.count", f"brings this reinforcement past "
                                    f"{limits.MAX_REINFORCEMENT_UNITS:,} units, the most one entry may bring "
                                    "(docs/limits.md)")
            if total + count > limits.MAX_UNITS:
                raise ScenarioError(file, f"{ukey}.count", f"brings the scenario's units past "
                                    f"{limits.MAX_UNITS:,}, the most a scenario may have (docs/limits.md)")
            total += count
            for one in [uid] if count == 1 else [f"{uid}-{n}" for n in range(1, count + 1)]:
                if unit_ids.get(one, key) != key:
                    raise ScenarioError(file, f"{ukey}.id", f"unit id {one!r} is already used by "
                                        f"{unit_ids[one]}; a reinforcement brings new units")
                unit_ids[one] = key
    for i, e in enumerate(_table_list(raw, "force_pool", file)):
        count = e.get("count", 1)
        if not is_int(count) or count < 1:
            raise ScenarioError(file, f"force_pool[{i}].count", f"must be a whole number of at least 1, "
                                f"not {shown(repr(count))}")
        if total + count > limits.MAX_UNITS:
            raise ScenarioError(file, f"force_pool[{i}].count", f"brings the scenario's units past "
                                f"{limits.MAX_UNITS:,}, the most a scenario may have (docs/limits.md)")
        total += count
    for key in ("special_rules", "deployment"):
        seen: dict[str, int] = {}
        for i, e in enumerate(_table_list(raw, key, file)):
            if "id" in e:
                eid = check_id(e["id"], file, f"{key}[{i}].id", "id")
                if eid in seen:
                    raise ScenarioError(file, f"{key}[{i}].id", f"id {eid!r} is already used by "
                                        f"{key}[{seen[eid]}]")
                seen[eid] = i


def _locate(at: str, file: str, key: str, hexmap: HexMap, boxes: set[str]) -> str:
    """A hex label, a box name, a sea area (where ships stand, ETO-7.2) or a place name, to a hex
    label, box or sea area name."""
    if at in boxes or at in hexmap.sea_areas:
        return at
    if at.isdigit():
        if not hexmap.has_hex(at):
            raise ScenarioError(file, key, f"unknown hex label {shown(at)!r} on map {hexmap.name} "
                                f"(labels there look like {hexmap.label(0)})")
        return at
    try:
        return hexmap.hex_of(at)
    except KeyError:
        raise ScenarioError(file, key, f"{shown(at)!r} is no hex label, box, sea area or place on map "
                            f"{hexmap.name}") from None
