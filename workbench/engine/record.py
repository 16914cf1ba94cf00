"""Game records: the shareable artefact of a game, like a chess PGN.

A record holds what is needed to rebuild a game exactly (scenario, ruleset
version, options, table overrides, seed and orders) plus annotations and
branches.  Replaying it re-rolls the same dice, so :func:`replay` reproduces
the state digest.  Reading never trusts the file: anything truncated,
corrupted or from an unknown version raises :class:`RecordError`.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.engine.errors import IllegalOrder, RecordError, ScenarioError

if TYPE_CHECKING:
    from workbench.engine.state import State

FORMAT = "wargame-workbench/record"
VERSION = 1


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

    @classmethod
    def of(cls, state: State) -> GameRecord:
        g = state.game
        return cls(scenario=_scenario_ref(g.scenario),
                   ruleset=g.ruleset.name, ruleset_version=g.ruleset.version, seed=state.seed,
                   orders=[dict(o) for o in state.orders], options=dict(g.options),
                   overrides=dict(g.overrides), annotations=dict(state.annotations),
                   digest=state.digest())

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "scenario": self.scenario,
                "ruleset": self.ruleset, "ruleset_version": self.ruleset_version,
                "seed": self.seed, "options": self.options, "overrides": self.overrides,
                "orders": self.orders,
                "annotations": {str(k): v for k, v in sorted(self.annotations.items())},
                "branches": self.branches, "digest": self.digest}

    def save(self, path: str | Path) -> Path:
        """Write atomically: a crash mid-write never leaves a half file behind."""
        path = Path(path)
        text = json.dumps(self.to_json(), indent=1, sort_keys=False) + "\n"
        atomic_write_text(path, text)
        return path

    @classmethod
    def from_json(cls, data: Any, source: str = "<record>") -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError(f"{source}: a game record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"{source}: not a Wargame Workbench game record")
        if data.get("version") != VERSION:
            raise RecordError(f"{source}: record version {data.get('version')!r} is unknown "
                              f"(this workbench reads version {VERSION})")
        try:
            rec = cls(scenario=_typed(data, "scenario", str), ruleset=_typed(data, "ruleset", str),
                      ruleset_version=_typed(data, "ruleset_version", str),
                      seed=_typed(data, "seed", int), orders=_typed(data, "orders", list),
                      options=_typed(data, "options", dict), overrides=data.get("overrides", {}),
                      annotations={int(k): v for k, v in _typed(data, "annotations", dict).items()},
                      branches=_typed(data, "branches", list), digest=data.get("digest"))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"{source}: {exc}") from None
        if not all(isinstance(o, dict) and isinstance(o.get("kind"), str) for o in rec.orders):
            raise RecordError(f"{source}: every order must be an object with a 'kind'")
        return rec

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise RecordError(f"{path}: no such file") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(f"{path}: truncated or corrupted ({exc})") from None
        return cls.from_json(data, str(path))


def _typed(data: dict[str, Any], key: str, typ: type) -> Any:
    if key not in data:
        raise KeyError(f"missing {key!r}")
    val = data[key]
    if not isinstance(val, typ) or (typ is int and isinstance(val, bool)):
        raise TypeError(f"{key!r} must be {typ.__name__}")
    return val


def _scenario_ref(scenario) -> str:  # noqa: ANN001 - Scenario
    """The shipped id when the scenario is the shipped file, else the file's path."""
    from workbench.engine.scenario import scenario_path

    try:
        if scenario_path(scenario.id).resolve() == Path(scenario.file).resolve():
            return scenario.id
    except ScenarioError:
        pass
    return str(Path(scenario.file).resolve())


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


def replay(record: GameRecord | dict[str, Any] | str | Path, *, upto: int | None = None) -> State:
    """Rebuild the state of a record by replaying its orders (the first ``upto`` only, if given)."""
    from workbench.engine.game import load_scenario
    from workbench.engine.ruleset import get_ruleset

    if isinstance(record, str | Path):
        record = GameRecord.load(record)
    elif isinstance(record, dict):
        record = GameRecord.from_json(record)
    try:
        rs = get_ruleset(record.ruleset)
    except KeyError as exc:
        raise RecordError(str(exc.args[0])) from None
    if rs.version != record.ruleset_version:
        raise RecordError(f"record made with {record.ruleset} ruleset version "
                          f"{record.ruleset_version}, this is version {rs.version}")
    try:
        game = load_scenario(record.scenario, options=record.options, overrides=record.overrides)
    except ScenarioError as exc:
        raise RecordError(f"cannot load the record's scenario: {exc}") from None
    state = game.new_state(record.seed)
    orders = record.orders if upto is None else record.orders[:upto]
    for i, order in enumerate(orders):
        try:
            state.apply(order)
        except IllegalOrder as exc:
            raise RecordError(f"order #{i} {order} does not replay: {exc}") from None
    state.annotations = {k: v for k, v in record.annotations.items() if k < len(orders)}
    if upto is None and record.digest and state.digest() != record.digest:
        raise RecordError("replay does not reproduce the recorded digest "
                          "(the record was edited or the rules changed)")
    return state
