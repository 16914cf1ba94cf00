"""Game records: the shareable artefact of a game, like a chess PGN.

A record holds what is needed to rebuild a game exactly (scenario id, ruleset
version, options, table overrides, seed and orders) plus annotations and
branches.  Replaying it re-rolls the same dice, so :func:`replay` reproduces
the state digest.  Reading never trusts the file: anything truncated,
corrupted, too big (``workbench.engine.limits``), of the wrong type or from an
unknown version raises :class:`RecordError`.

Two digests guard a record: ``digest`` is the state digest after the last
order (checked when the whole record is replayed), ``notes_digest`` covers the
annotations and branches, which change no position (checked on every replay).
A record names its scenario by id only (``ssa/1941``), which resolves inside
``scenarios/``; a record of a scenario loaded from another file replays only
when the caller passes that file: ``replay(record, scenario=path)``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.engine import limits
from workbench.engine.errors import IllegalOrder, RecordError, ScenarioError

if TYPE_CHECKING:
    from workbench.engine.game import Game
    from workbench.engine.state import State

FORMAT = "wargame-workbench/record"
VERSION = 1
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass
class GameRecord:
    scenario: str
    ruleset: str
    ruleset_version: str
    seed: int
    orders: list[dict[str, Any]]
    options: dict[str, Any] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)
    annotations: dict[int, dict[str, Any]] = field(default_factory=dict)
    branches: list[dict[str, Any]] = field(default_factory=list)
    digest: str | None = None
    #: the notes digest a record file carried (``to_json`` always writes the current one)
    notes_digest: str | None = None
    #: the Game a record made by :meth:`of` came from: in memory only, never written, so
    #: ``replay(state.record())`` replays on the same game without reading any file
    game: Game | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, state: State) -> GameRecord:
        g = state.game
        return cls(scenario=g.scenario.id,
                   ruleset=g.ruleset.name, ruleset_version=g.ruleset.version, seed=state.seed,
                   orders=[dict(o) for o in state.orders], options=dict(g.options),
                   overrides=dict(g.overrides), annotations=dict(state.annotations),
                   digest=state.digest(), game=g)

    def _annotations_json(self) -> dict[str, Any]:
        return {str(k): v for k, v in sorted(self.annotations.items())}

    def current_notes_digest(self) -> str:
        """SHA-256 of the annotations and branches (canonical JSON)."""
        return notes_digest(self._annotations_json(), self.branches)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "scenario": self.scenario,
                "ruleset": self.ruleset, "ruleset_version": self.ruleset_version,
                "seed": self.seed, "options": self.options, "overrides": self.overrides,
                "orders": self.orders,
                "annotations": self._annotations_json(),
                "branches": self.branches, "digest": self.digest,
                "notes_digest": self.current_notes_digest()}

    def save(self, path: str | Path) -> Path:
        """Write atomically: a crash mid-write never leaves a half file behind."""
        path = Path(path)
        text = json.dumps(self.to_json(), indent=1, sort_keys=False) + "\n"
        atomic_write_text(path, text)
        return path

    @classmethod
    def from_json(cls, data: Any, source: str = "<record>") -> GameRecord:
        """A record from its JSON data; every field is checked (types, ranges, sizes)."""
        if not isinstance(data, dict):
            raise RecordError(f"{source}: a game record is a JSON object")
        if limits.depth_over(data):
            raise RecordError(f"{source}: objects and lists nest deeper than {limits.MAX_DEPTH} levels "
                              "(docs/limits.md)", "(file)")
        if data.get("format") != FORMAT:
            raise RecordError(f"{source}: not a Wargame Workbench game record", "format")
        version = data.get("version")
        if not _is_int(version) or version != VERSION:
            raise RecordError(f"{source}: record version {_shown(version)} is unknown "
                              f"(this workbench reads version {VERSION})", "version")
        try:
            rec = cls(scenario=_typed(data, "scenario", str), ruleset=_typed(data, "ruleset", str),
                      ruleset_version=_typed(data, "ruleset_version", str),
                      seed=_typed(data, "seed", int), orders=_typed(data, "orders", list),
                      options=_typed(data, "options", dict), overrides=_typed(data, "overrides", dict, {}),
                      annotations=_annotations(_typed(data, "annotations", dict)),
                      branches=_typed(data, "branches", list), digest=data.get("digest"),
                      notes_digest=data.get("notes_digest"))
        except _FieldError as exc:
            raise RecordError(f"{source}: {exc.why}", exc.key) from None
        _check(rec, source)
        return rec

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file (at most ``MAX_RECORD_BYTES``); any damage is a RecordError."""
        try:
            path = Path(path)
            if not path.exists():
                raise RecordError(f"{_shown(path)}: no such file", "(file)")
            if not path.is_file():
                raise RecordError(f"{_shown(path)}: is a folder or a device, not a record file", "(file)")
            size = path.stat().st_size
            if size > limits.MAX_RECORD_BYTES:
                raise RecordError(f"{path}: is {size:,} bytes; a record may have at most "
                                  f"{limits.MAX_RECORD_BYTES:,} (docs/limits.md)", "(file)")
            with open(path, "rb") as fh:
                blob = fh.read(limits.MAX_RECORD_BYTES + 1)
        except RecordError:
            raise
        except (OSError, ValueError) as exc:
            raise RecordError(f"{_shown(path)}: cannot be read: {getattr(exc, 'strerror', None) or exc}",
                              "(file)") from None
        if len(blob) > limits.MAX_RECORD_BYTES:
            raise RecordError(f"{path}: has more than {limits.MAX_RECORD_BYTES:,} bytes (docs/limits.md)", "(file)")
        try:
            data = json.loads(blob.decode("utf-8"))
        except RecursionError:
            raise RecordError(f"{path}: objects and lists nest deeper than {limits.MAX_DEPTH} levels "
                              "(docs/limits.md)", "(file)") from None
        except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError, or a number too long to read
            raise RecordError(f"{path}: truncated or corrupted ({_shown(exc)})", "(file)") from None
        return cls.from_json(data, str(path))


class _FieldError(Exception):
    def __init__(self, key: str, why: str) -> None:
        self.key = key
        self.why = why
        super().__init__(why)


_MISSING = object()


def _typed(data: dict[str, Any], key: str, typ: type, default: Any = _MISSING) -> Any:
    if key not in data:
        if default is not _MISSING:
            return default
        raise _FieldError(key, f"missing {key!r}")
    val = data[key]
    if not isinstance(val, typ) or (typ is int and isinstance(val, bool)):
        raise _FieldError(key, f"{key!r} must be {typ.__name__}, not {type(val).__name__}")
    return val


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _shown(v: Any) -> str:
    s = repr(v) if not isinstance(v, str | Path | BaseException) else str(v)
    return s if len(s) <= 80 else s[:77] + "..."


def _annotations(raw: dict[Any, Any]) -> dict[int, dict[str, Any]]:
    """``{"3": {"comment": "...", "marks": ["!"]}}``: order index -> comment and marks."""
    out: dict[int, dict[str, Any]] = {}
    for k, v in raw.items():
        key = f"annotations.{_shown(k)}"
        if _is_int(k):
            idx = k
        elif isinstance(k, str) and k.isdigit() and len(k) <= 12:
            idx = int(k)
        else:
            raise _FieldError(key, f"annotation key {_shown(k)} is not an order number")
        if not isinstance(v, dict) or set(v) != {"comment", "marks"}:
            raise _FieldError(key, "an annotation is an object with exactly 'comment' (text) and 'marks' "
                              "(a list of text)")
        comment, marks = v["comment"], v["marks"]
        if not isinstance(comment, str) or len(comment) > limits.MAX_COMMENT_CHARS:
            raise _FieldError(f"{key}.comment", f"must be text of at most {limits.MAX_COMMENT_CHARS:,} "
                              f"characters, not {type(comment).__name__}")
        if not isinstance(marks, list) or len(marks) > limits.MAX_MARKS or not all(
                isinstance(m, str) and len(m) <= limits.MAX_MARK_CHARS for m in marks):
            raise _FieldError(f"{key}.marks", f"must be a list of at most {limits.MAX_MARKS} texts of at most "
                              f"{limits.MAX_MARK_CHARS} characters")
        out[idx] = {"comment": comment, "marks": list(marks)}
    return out


def _check(rec: GameRecord, source: str) -> None:
    """Ranges and sizes of a record's fields (types are checked as they are read)."""
    from workbench.engine.scenario import is_scenario_id

    def bad(key: str, why: str) -> RecordError:
        return RecordError(f"{source}: [{key}] {why}", key)

    if not is_scenario_id(rec.scenario):
        raise bad("scenario", f"{_shown(rec.scenario)} is not a scenario id: a record names its scenario "
                  f"by id (like 'ssa/1941', at most {limits.MAX_ID_LENGTH} characters), never by a path")
    for key, val in (("ruleset", rec.ruleset), ("ruleset_version", rec.ruleset_version)):
        if not val or len(val) > limits.MAX_ID_LENGTH or not val.isprintable():
            raise bad(key, f"must be 1 to {limits.MAX_ID_LENGTH} printable characters")
    if not 0 <= rec.seed <= limits.MAX_SEED:
        raise bad("seed", f"the seed must be a whole number from 0 to {limits.MAX_SEED}")
    if len(rec.orders) > limits.MAX_ORDERS:
        raise bad("orders", f"{len(rec.orders):,} orders; a record may have at most {limits.MAX_ORDERS:,}")
    for i, o in enumerate(rec.orders):
        if not isinstance(o, dict) or not isinstance(o.get("kind"), str):
            raise RecordError(f"{source}: every order must be an object with a 'kind'", f"orders.{i}")
        if not all(isinstance(k, str) for k in o):
            raise bad(f"orders.{i}", "order fields are named by text")
        try:
            size = len(json.dumps(o, separators=(",", ":"), allow_nan=False))
        except (TypeError, ValueError):
            raise bad(f"orders.{i}", "an order holds only JSON values (text, numbers, lists, objects)") from None
        if size > limits.MAX_ORDER_CHARS:
            raise bad(f"orders.{i}", f"is {size:,} characters of JSON; an order may have at most "
                      f"{limits.MAX_ORDER_CHARS:,}")
    for key, table in (("options", rec.options), ("overrides", rec.overrides)):
        if not all(isinstance(k, str) for k in table):
            raise bad(key, "keys must be text")
    for idx in rec.annotations:
        if not 0 <= idx < len(rec.orders):
            raise bad(f"annotations.{idx}", f"annotates order #{idx}, but the record has {len(rec.orders)} orders")
    if len(rec.branches) > limits.MAX_BRANCHES or not all(isinstance(b, dict) for b in rec.branches):
        raise bad("branches", f"must be a list of at most {limits.MAX_BRANCHES:,} objects")
    for key, val in (("digest", rec.digest), ("notes_digest", rec.notes_digest)):
        if val is not None and not (isinstance(val, str) and _HEX64.match(val)):
            raise bad(key, "a digest is 64 lowercase hex digits (SHA-256) or null")


def notes_digest(annotations: dict[str, Any], branches: list[Any]) -> str:
    """SHA-256 of a record's annotations (keyed by order number as text) and branches."""
    blob = json.dumps({"annotations": annotations, "branches": branches}, sort_keys=True,
                      separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def atomic_write(path: Path, write) -> None:  # noqa: ANN001 - write(tmp_path: str)
    """Have ``write`` fill a temp file beside ``path``, fsync it, rename it over ``path`` and fsync
    the folder: a crash mid-write never leaves a half file, the old file survives any failure, and
    the rename itself survives a power cut.

    The file gets the mode a new file made by ``open(path, "w")`` gets: 0666 less the umask (or
    the folder's default ACL), not the 0600 of ``mkstemp``, so a shared results folder stays
    shared.  A process killed mid-write can leave its temp file behind: it is named
    ``.<name>.<random>.tmp`` (:data:`TEMP_GLOB`) so a later run can find and remove it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(tempfile.TMP_MAX):
        tmp = str(path.parent / f".{path.name}.{os.urandom(4).hex()}.tmp")
        try:  # O_EXCL with 0666: the kernel applies the umask (mkstemp would make it 0600)
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666))
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"no free temp file name beside {path}")
    try:
        write(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


#: The names :func:`atomic_write` gives its temp files (``glob`` pattern, in the target's folder).
TEMP_GLOB = ".*.tmp"


def _fsync_dir(folder: Path) -> None:
    """Flush a folder's entries (a rename) to disk; a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse fsync on a folder
        pass
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str) -> None:
    """Write text atomically (see :func:`atomic_write`)."""
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def replay(record: GameRecord | dict[str, Any] | str | Path, *, upto: int | None = None,
           scenario: str | Path | Game | None = None) -> State:
    """Rebuild the state of a record by replaying its orders (the first ``upto`` only, if given).

    The scenario is the record's id, resolved inside ``scenarios/``.  A record of a scenario
    from another file replays only when the caller passes it: ``scenario=`` a path (or a
    loaded :class:`~workbench.engine.game.Game`) whose scenario has the record's id.  A record
    made in memory by ``state.record()`` replays on the game it came from."""
    from workbench.engine.game import Game
    from workbench.engine.ruleset import get_ruleset

    if isinstance(record, str | Path):
        record = GameRecord.load(record)
    elif isinstance(record, dict):
        record = GameRecord.from_json(record)
    elif not isinstance(record, GameRecord):
        raise RecordError(f"replay takes a GameRecord, its JSON object or a record file, not "
                          f"{type(record).__name__}")
    if upto is not None and (not _is_int(upto) or upto < 0):
        raise ValueError(f"upto must be a whole number of orders, not {upto!r}")
    try:
        rs = get_ruleset(record.ruleset)
    except KeyError as exc:
        raise RecordError(str(exc.args[0]), "ruleset") from None
    if rs.version != record.ruleset_version:
        raise RecordError(f"record made with {record.ruleset} ruleset version "
                          f"{record.ruleset_version}, this is version {rs.version}", "ruleset_version")
    game = scenario if isinstance(scenario, Game) else _game_of(record, scenario)
    if game.scenario.id != record.scenario:
        raise RecordError(f"the record is of scenario {record.scenario!r}, but the scenario given is "
                          f"{game.scenario.id!r} ({game.scenario.file})", "scenario")
    if game.scenario.ruleset != record.ruleset:
        raise RecordError(f"the record says ruleset {record.ruleset!r}, but its scenario "
                          f"{record.scenario!r} is played with {game.scenario.ruleset!r}", "ruleset")
    if record.notes_digest is not None and record.notes_digest != record.current_notes_digest():
        raise RecordError("the annotations or branches do not match the record's notes digest "
                          "(they were edited after the record was saved)", "notes_digest")
    state = game.new_state(record.seed)
    orders = record.orders if upto is None else record.orders[:upto]
    for i, order in enumerate(orders):
        try:
            state.apply(order)
        except IllegalOrder as exc:
            raise RecordError(f"order #{i} {_shown(order)} does not replay: {exc}", f"orders.{i}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise RecordError(f"order #{i} {_shown(order)} does not replay: a malformed order "
                              f"({type(exc).__name__}: {_shown(exc)})", f"orders.{i}") from None
    state.annotations = {k: dict(v) for k, v in record.annotations.items() if k < len(orders)}
    if upto is None and record.digest and state.digest() != record.digest:
        raise RecordError("replay does not reproduce the recorded digest "
                          "(the record was edited or the rules changed)", "digest")
    return state


def _game_of(record: GameRecord, scenario: str | Path | None) -> Game:
    """The game to replay on: the caller's scenario file, the record's own in-memory game, or
    the record's scenario id inside ``scenarios/``."""
    from workbench.engine.game import load_scenario
    from workbench.engine.scenario import scenario_id_path

    g = record.game
    if scenario is None and g is not None and g.options == record.options and g.overrides == record.overrides:
        return g
    try:
        where = scenario if scenario is not None else scenario_id_path(record.scenario)
        return load_scenario(where, options=record.options, overrides=record.overrides)
    except ScenarioError as exc:
        hint = "" if scenario is not None else (
            "; a record names its scenario by id, resolved inside scenarios/: to replay a record of "
            "another scenario file, pass it: replay(record, scenario=path)")
        key = next((k for k in ("options", "overrides") if exc.key.startswith(k)), "scenario")
        raise RecordError(f"cannot load the record's scenario: {exc}{hint if key == 'scenario' else ''}",
                          key) from None
