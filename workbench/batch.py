"""Seeded batch runs and parameter sweeps: many bot games, Parquet results, resumable.

A *configuration* is a scenario, its options and table overrides, and the two
bots (axis first).  A *sweep* is a list of configurations (a base plus
variants that differ by overrides).  Every game is identified by
``(config id, game index)``; its seeds come from
``numpy.random.SeedSequence(root_seed).spawn(n)`` — the same ``root_seed``
gives every configuration the *same* game seeds and bot seeds, so two rule
variants are compared on common random numbers (same dice stream per game).

Output layout (``out/``)::

    manifest.json                       what was asked (configs, N, seed), written atomically
    games/<config>/<index>.summary.parquet   one row: winner, level, VP, turn, losses, economy
    games/<config>/<index>.events.parquet    the full event log (docs/events.md schema)
    games/<config>/<index>.turns.parquet     turn-by-turn objectives, losses, economy
    games/<config>/<index>.record.json       the game record (replayable)
    summary.parquet                     every summary row, rebuilt at the end

Each file is written to a temp file and renamed (``os.replace``); the summary
file is written *last*, so a game counts as finished only when all its files
exist.  A run that is interrupted and started again skips finished games: it
first removes the temp files a killed run left behind, then reads every finished
game's files back and plays again any game whose files do not read (truncated,
corrupted, or not this game's).  The manifest must agree with the run (same
seed, same settings for a configuration of the same id); a folder holds one
batch, and one run at a time (``.lock``).  Bad settings raise :class:`BatchError`
before anything is written.

Pool workers die with the batch: a worker whose parent process is gone (killed
with ``kill -9``, say) exits at once instead of finishing its game.

Scale-out: by default a local process pool with one worker per core;
``scheduler="tcp://host:8786"`` (or a ``dask.distributed.Client``) runs the
same function on a Dask cluster.  Results do not depend on where a game runs.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

SUMMARY = "summary.parquet"
MANIFEST = "manifest.json"
MANIFEST_FORMAT = "wargame-workbench/batch"
MANIFEST_VERSION = 1

# limits (docs/limits.md)
MAX_GAMES = 1_000_000  # games per configuration (the seeds of 10^6 games take about 20 s to spawn)
MAX_SEED = 2**63 - 1  # root seeds and game seeds (a signed 64-bit integer)
MAX_WORKERS = 1024  # local processes
MAX_NAME = 100  # characters of a configuration id (it names a folder)
SCHEDULER_TIMEOUT = 10.0  # seconds to reach a Dask scheduler
PARENT_POLL = 0.5  # seconds between a pool worker's checks that its parent is alive


class BatchError(ValueError):
    """Bad batch settings, or an output folder that does not hold this batch: the message says
    what and why.  Raised before any game is played or any file written."""


@dataclass(frozen=True)
class Config:
    """One configuration of a batch: scenario, bots, options, table overrides."""

    scenario: str
    bots: tuple[str, str] = ("heuristic", "random")
    options: dict[str, Any] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    max_turns: int | None = None  # stop after this many turns (None: play to the end)

    @property
    def id(self) -> str:
        """A stable, file-safe id: the name if given, else a hash of the content."""
        if self.name:
            return "".join(c if c.isalnum() or c in "-_." else "_" for c in self.name)
        blob = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["bots"] = list(self.bots)
        return d


def parse_bots(spec: str | Iterable[str]) -> tuple[str, str]:
    """Two known bot names, axis first, from ``"heuristic,random"`` or a pair; else :class:`BatchError`."""
    from workbench.bots.heuristic import BOTS

    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(names) != 2:
        raise BatchError("bots are two names, axis first: e.g. heuristic,random")
    for name in names:
        if name not in BOTS:
            raise BatchError(f"unknown bot {name!r}; available: {', '.join(BOTS)}")
    return names[0], names[1]


def _whole(value: Any, what: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        top = f" to {high}" if high is not None else " or more"
        raise BatchError(f"{what} must be a whole number from {low}{top}, not {value!r}")
    return value


# == checking a configuration against its scenario's tables =========================================
def check_config(cfg: Config, tables: dict[str, Any] | None = None) -> None:
    """Raise :class:`BatchError` (or ``ScenarioError``) for a configuration that cannot run: unknown
    bots, a bad turn limit, an id that cannot name a folder, table overrides naming no table entry
    or of another type than the entry (``tables``: the scenario's rule tables; loaded if not given)."""
    if not isinstance(cfg.scenario, str) or not cfg.scenario:
        raise BatchError(f"a configuration's scenario is an id or path, not {cfg.scenario!r}")
    parse_bots(cfg.bots)
    if cfg.max_turns is not None:
        _whole(cfg.max_turns, "max_turns", 0)
    for what, val in (("options", cfg.options), ("overrides", cfg.overrides)):
        if not isinstance(val, dict):
            raise BatchError(f"a configuration's {what} are a table, not {type(val).__name__}")
    try:
        cid = cfg.id
    except (TypeError, ValueError) as exc:  # options or overrides that are not JSON
        raise BatchError(f"a configuration's options and overrides must be JSON data: {exc}") from None
    if not cid.strip("."):
        raise BatchError(f"configuration name {cfg.name!r} cannot be a folder name; give another")
    if len(cid) > MAX_NAME:
        raise BatchError(f"configuration name {cfg.name[:20]!r}... is longer than {MAX_NAME} characters")
    if tables is None:
        from workbench.engine import load_scenario

        tables = load_scenario(cfg.scenario, options=cfg.options or None).ruleset.tables
    check_overrides(tables, cfg.overrides)


def check_overrides(tables: dict[str, Any], overrides: dict[str, Any]) -> None:
    """Each ``"table.key.0" = value`` must name an existing table entry and match its type: a list
    for a list (item by item, when the table's items are of one type), a table for a table (key by
    key, none left out), a whole number for a whole number, a number for a number, a text for a text."""
    for dotted, value in overrides.items():
        node: Any = tables
        for part in str(dotted).split("."):
            if isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
                node = node[int(part)]
            elif isinstance(node, dict) and part in node:
                node = node[part]
            else:
                raise BatchError(f"no table entry {dotted!r} to override")
        problem = _mismatch(node, value, str(dotted))
        if problem:
            raise BatchError(problem)


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, int):
        return "a whole number"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "a text"
    if isinstance(v, list | tuple):
        return "a list"
    if isinstance(v, dict):
        return "a table"
    return f"a {type(v).__name__}"


def _mismatch(old: Any, new: Any, where: str) -> str | None:
    """Why ``new`` cannot replace the table value ``old`` (None if it can)."""
    ko, kn = _kind(old), _kind(new)
    if ko == "a number" and kn == "a whole number":
        kn = "a number"  # 3 stands for 3.0
    if ko != kn:
        if ko == "a whole number" and kn == "a number":
            kn = "a decimal number"
        elif kn == "a whole number":
            kn = "a number"
        shown = json.dumps(new, default=str)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return f"override {where!r}: the table holds {ko}, not {kn} ({shown})"
    if isinstance(new, float) and not math.isfinite(new):
        return f"override {where!r}: {new} is not a finite number"
    if isinstance(old, list) and old and len({_kind(x) for x in old}) == 1:
        for i, item in enumerate(new):
            problem = _mismatch(old[0], item, f"{where}.{i}")
            if problem:
                return problem
    elif isinstance(old, list) and old:
        kinds = {_kind(x) for x in old}
        for i, item in enumerate(new):
            if _kind(item) not in kinds:
                return f"override '{where}.{i}': the table holds {' or '.join(sorted(kinds))}, not {_kind(item)}"
    elif isinstance(old, dict):
        lost = sorted(old.keys() - new.keys())
        if lost:
            return f"override {where!r}: the new table leaves out {', '.join(map(repr, lost[:5]))}"
        for k in old.keys() & new.keys():
            problem = _mismatch(old[k], new[k], f"{where}.{k}")
            if problem:
                return problem
    return None


def path_problem(path: str | Path, *, folder: bool) -> str | None:
    """Why ``path`` cannot be written as a folder (``folder=True``) or as a file; None if it can."""
    path = Path(path)
    if path.exists():
        if folder and not path.is_dir():
            return f"{path} is a file, not a folder"
        if not folder and path.is_dir():
            return f"{path} is a folder, not a file"
        return None
    for up in path.parents:
        if up.exists():
            return None if up.is_dir() else f"{path}: {up} is a file, not a folder"
    return None


def game_seeds(root_seed: int, n: int) -> list[tuple[int, int, int]]:
    """``(game seed, axis bot seed, allies bot seed)`` for games 0..n-1, from SeedSequence.spawn."""
    out = []
    for child in np.random.SeedSequence(root_seed).spawn(n):
        a, b, c = (int(x) for x in child.generate_state(3, dtype=np.uint32))
        out.append((a, b, c))
    return out


# == one game (runs in a worker) ====================================================================
def play_game(config: dict[str, Any], index: int, seeds: tuple[int, int, int]) -> dict[str, Any]:
    """Play one game; return its summary row, event log rows and turn rows (plain data)."""
    from workbench.bots import play
    from workbench.bots.heuristic import make_policy
    from workbench.bots.score import snapshot, summarize
    from workbench.engine import load_scenario

    cfg = Config(**{**config, "bots": tuple(config["bots"])})
    game = _game(cfg)
    game_seed, sa, sb = seeds
    state = game.new_state(seed=game_seed)
    sides = game.ruleset.sides
    pols = {sides[0]: make_policy(cfg.bots[0], game.ruleset, sides[0], sa),
            sides[1]: make_policy(cfg.bots[1], game.ruleset, sides[1], sb)}
    start = snapshot(state)
    turns = [start]

    def on_order(st, order):  # noqa: ANN001
        if st.turn != turns[-1]["t"]:
            turns.append(snapshot(st))

    t0 = time.perf_counter()
    error = None
    try:
        play(state, pols, until_turn=cfg.max_turns, on_order=on_order)
    except Exception as exc:  # noqa: BLE001 - one broken game must not sink a batch; it is reported
        error = f"{type(exc).__name__}: {exc} at {' / '.join(state.clock)}"
    took = time.perf_counter() - t0
    # the final position: it replaces a snapshot of the same turn (taken when the turn began),
    # so each game has one row per turn, side and metric
    final = snapshot(state)
    if turns[-1]["t"] == final["t"]:
        turns[-1] = final
    else:
        turns.append(final)
    row = {"config": cfg.id, "game": index, "scenario": cfg.scenario, "bot_axis": cfg.bots[0],
           "bot_allies": cfg.bots[1], "seed": game_seed, "seed_axis": sa, "seed_allies": sb,
           **summarize(state, start), "seconds": took, "error": error,
           "bot_errors": int(sum(getattr(p, "errors", 0) for p in pols.values()))}
    trows = []
    for snap in turns:
        for side in sides:
            trows.append({"config": cfg.id, "game": index, "t": snap["t"], "turn": snap["turn"], "side": side,
                          "metric": "objectives", "value": float(snap["objectives"].get(side, 0.0))})
            trows.append({"config": cfg.id, "game": index, "t": snap["t"], "turn": snap["turn"], "side": side,
                          "metric": "steps_lost", "value": float(snap["steps_lost"].get(side, 0))})
        for k, v in snap["economy"].items():
            trows.append({"config": cfg.id, "game": index, "t": snap["t"], "turn": snap["turn"],
                          "side": _side_of(game, k.split(".")[0]), "metric": "economy:" + k, "value": float(v)})
    del load_scenario
    return {"summary": row, "events": state.log, "turns": trows, "record": state.record().to_json()}


_GAMES: dict[str, Any] = {}


def _game(cfg: Config):  # noqa: ANN202
    """Scenario loading is cached per worker process (maps and tables are read once)."""
    key = json.dumps([cfg.scenario, cfg.options, cfg.overrides], sort_keys=True)
    if key not in _GAMES:
        from workbench.engine import load_scenario

        _GAMES[key] = load_scenario(cfg.scenario, options=cfg.options or None, overrides=cfg.overrides or None)
    return _GAMES[key]


def _side_of(game, nation: str) -> str | None:  # noqa: ANN001
    for side, spec in game.scenario.raw.get("sides", {}).items():
        if isinstance(spec, dict) and nation in spec.get("nations", []):
            return side
    for side, spec in game.scenario.raw.get("sides", {}).items():  # SSA tracks use country codes
        if isinstance(spec, dict) and any(nation.startswith(n[:2]) for n in spec.get("nations", [])):
            return side
    return None


def run_game_to_files(config: dict[str, Any], index: int, seeds: tuple[int, int, int], out: str) -> dict[str, Any]:
    """Play one game and write its files atomically (the summary last); return the summary row."""
    from workbench.engine.events import events_frame
    from workbench.engine.record import atomic_write_text

    res = play_game(config, index, seeds)
    d = Path(out) / "games" / res["summary"]["config"]
    d.mkdir(parents=True, exist_ok=True)
    stem = f"{index:06d}"
    ev = events_frame(res["events"]).with_columns(pl.lit(res["summary"]["config"]).alias("config"),
                                                  pl.lit(index).cast(pl.Int64).alias("game"))
    _atomic_parquet(ev, d / f"{stem}.events.parquet")
    _atomic_parquet(_turns_frame(res["turns"]), d / f"{stem}.turns.parquet")
    atomic_write_text(d / f"{stem}.record.json", json.dumps(res["record"]) + "\n")
    _atomic_parquet(pl.DataFrame([res["summary"]]), d / f"{stem}.summary.parquet")
    return res["summary"]


TURN_SCHEMA = {"config": pl.String, "game": pl.Int64, "t": pl.Int64, "turn": pl.String, "side": pl.String,
               "metric": pl.String, "value": pl.Float64}


def _turns_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=TURN_SCHEMA) if rows else pl.DataFrame(schema=TURN_SCHEMA)


def _atomic_parquet(df: pl.DataFrame, path: Path) -> None:
    from workbench.engine.record import atomic_write

    atomic_write(path, df.write_parquet)


# == the batch ======================================================================================
def sweep_configs(base: Config, variants: dict[str, dict[str, Any]]) -> list[Config]:
    """The base configuration plus one per named variant of table overrides (or options).

    ``variants = {"ind18": {"overrides": {"mobilization.income.axis_fixed.GE.industrial": 18}}}``;
    a variant may also give ``options`` or ``bots``.  A plain ``{dotted: value}`` dict is read
    as overrides.
    """
    out = [base if base.name else Config(**{**asdict(base), "bots": base.bots, "name": "base"})]
    for name, v in variants.items():
        if not {"overrides", "options", "bots"} & set(v):
            v = {"overrides": v}
        out.append(Config(scenario=base.scenario, bots=tuple(v.get("bots", base.bots)),
                          options={**base.options, **v.get("options", {})},
                          overrides={**base.overrides, **v.get("overrides", {})}, name=name,
                          max_turns=base.max_turns))
    return out


def optional_rule_configs(base: Config, rules: list[str]) -> list[Config]:
    """``designed`` (the scenario's own optional rules) and one ``without-<rule>`` configuration
    per rule, for paired comparisons on the same seeds (:func:`analysis.optional_rule_effects`)."""
    out = [Config(**{**asdict(base), "bots": base.bots, "name": "designed",
                     "options": {**base.options, "optional_rules": list(rules)}})]
    for r in rules:
        out.append(Config(**{**asdict(base), "bots": base.bots, "name": f"without-{r}",
                             "options": {**base.options, "optional_rules": [x for x in rules if x != r]}}))
    return out


def run_batch(configs: Config | list[Config], games: int, out: str | Path, *, seed: int = 0,
              workers: int | None = None, scheduler: Any = None, progress: bool = True,
              scheduler_timeout: float = SCHEDULER_TIMEOUT) -> pl.DataFrame:
    """Play ``games`` seeded games of each configuration; write Parquet under ``out``; return summaries.

    ``workers``: local processes (default: every core; 0 = in this process).
    ``scheduler``: a Dask scheduler address (``"tcp://host:8786"``) or a ``dask.distributed.Client``;
    an address that does not answer within ``scheduler_timeout`` seconds is a :class:`BatchError`.
    Finished games (their files read back) are skipped, so an interrupted run resumes.
    Bad settings, and a folder holding another batch, raise :class:`BatchError` before any game.
    """
    from workbench.engine.record import atomic_write_text

    configs = [configs] if isinstance(configs, Config) else list(configs)
    if not configs or not all(isinstance(c, Config) for c in configs):
        raise BatchError("a batch runs one or more Config objects")
    games = _whole(games, "games", 0, MAX_GAMES)
    seed = _whole(seed, "seed", 0, MAX_SEED)
    if workers is not None:
        workers = _whole(workers, "workers", 0, MAX_WORKERS)
    if isinstance(scheduler_timeout, bool) or not isinstance(scheduler_timeout, int | float) \
            or not 0 < scheduler_timeout < math.inf:
        raise BatchError(f"scheduler_timeout must be a number of seconds above 0, not {scheduler_timeout!r}")
    tables: dict[str, Any] = {}
    for c in configs:
        key = json.dumps([c.scenario, c.options], sort_keys=True, default=str)
        if key not in tables:
            from workbench.engine import load_scenario

            parse_bots(c.bots)  # the cheap checks first
            tables[key] = load_scenario(c.scenario, options=c.options or None).ruleset.tables
        check_config(c, tables[key])
    ids = [c.id for c in configs]
    if len(set(ids)) != len(ids):
        raise BatchError("two configurations share an id; give them different names")
    out = Path(out)
    for folder in (out, out / "games", *(out / "games" / i for i in ids)):
        problem = path_problem(folder, folder=True)
        if problem:
            raise BatchError(problem)
    manifest = {"format": MANIFEST_FORMAT, "version": MANIFEST_VERSION, "games": games, "seed": seed,
                "configs": {c.id: c.to_json() for c in configs}}
    client = _dask_client(scheduler, scheduler_timeout) if scheduler is not None else None
    try:
        out.mkdir(parents=True, exist_ok=True)
        with _folder_lock(out):
            old = _read_manifest(out / MANIFEST)
            if old is not None:
                _check_resume(out, old, manifest)
                manifest["configs"] = {**old["configs"], **manifest["configs"]}
                manifest["games"] = max(games, old["games"])
            atomic_write_text(out / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
            _clean_temp_files(out)
            seeds = game_seeds(seed, games)
            todo = [(c.to_json(), i, seeds[i]) for c in configs for i in range(games)
                    if not _finished(out / "games" / c.id, i, c.id)]
            bar = _bar(len(todo), progress)
            try:
                if client is not None:
                    _run_dask(todo, str(out), client, bar)
                elif workers == 0 or len(todo) <= 1:
                    for cfg, i, s in todo:
                        run_game_to_files(cfg, i, s, str(out))
                        bar.update(1)
                else:
                    _run_pool(todo, str(out), min(workers or os.cpu_count() or 1, len(todo)), bar)
            finally:
                bar.close()
            return collect(out, configs=ids)
    finally:
        if client is not None and client is not scheduler:
            client.close()


#: The local worker pools, by size: started once per process and reused by every later batch, so a
#: short batch pays no start-up (spawning, importing, loading the scenario: ~2 s a worker).
_POOLS: dict[int, ProcessPoolExecutor] = {}


def local_pool(n: int) -> ProcessPoolExecutor:
    """The pool of ``n`` local workers, started on first use and kept for later batches.  Only a
    game's configuration, index and seeds travel to a worker (never a state); each worker loads a
    scenario once (:func:`_game`) and plays every game it is given of it."""
    pool = _POOLS.get(n)
    if pool is not None and not getattr(pool, "_broken", False) and not getattr(pool, "_shutdown_thread", False):
        return pool
    # spawn, not fork: forking a process whose polars/numpy thread pools are running can deadlock
    ctx = multiprocessing.get_context("spawn")
    pool = _POOLS[n] = ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_worker_init,
                                           initargs=(os.getpid(),))
    return pool


def close_pools() -> None:
    """Stop the kept worker pools (at exit, or to free their memory)."""
    while _POOLS:
        _, pool = _POOLS.popitem()
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(close_pools)


def _run_pool(todo: list, out: str, n: int, bar) -> None:  # noqa: ANN001
    """Play ``todo`` on ``n`` local processes (kept for the next batch).  If anything goes wrong
    here (a game's error, Ctrl-C), the workers are killed rather than left to finish their games."""
    pool = local_pool(n)
    try:
        futs = [pool.submit(run_game_to_files, cfg, i, s, out) for cfg, i, s in todo]
        for f in as_completed(futs):
            f.result()
            bar.update(1)
    except BaseException:
        if _POOLS.get(n) is pool:
            del _POOLS[n]
        _kill_pool(pool)
        raise


def _kill_pool(pool: ProcessPoolExecutor) -> None:
    procs = list((getattr(pool, "_processes", None) or {}).values())  # before shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.kill()
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(5)


def _worker_init(parent: int) -> None:
    """A pool worker's start: leave Ctrl-C to the parent (which stops the pool) and die with the
    parent.  On Linux the kernel kills the worker when its parent dies (``PR_SET_PDEATHSIG``);
    everywhere a daemon thread checks ``os.getppid()`` every :data:`PARENT_POLL` seconds."""
    with contextlib.suppress(ValueError, OSError):  # not the main thread / no such signal
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the watch began
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="workbench-watch-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != parent:
            os._exit(1)  # orphaned: the batch is gone, so is the point of this game


@contextlib.contextmanager
def _folder_lock(out: Path) -> Iterator[None]:
    """Hold ``out/.lock`` for the run: a second batch in the same folder is a :class:`BatchError`
    (it would remove the first one's temp files).  No-op where ``fcntl`` or locks are missing."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(out / ".lock", "a") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BatchError(f"another batch is running in {out}; wait for it or use another folder") from None
        except OSError:  # a file system without locks
            pass
        yield


def _read_manifest(path: Path) -> dict[str, Any] | None:
    if not path.exists():
        return None
    if path.is_dir():
        raise BatchError(f"{path} is a folder, not a batch manifest; use another output folder")
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise BatchError(f"{path} is truncated or corrupted ({exc}); restore it or use another "
                         f"output folder") from None
    if isinstance(old, dict) and old.get("format") == MANIFEST_FORMAT and old.get("version") != MANIFEST_VERSION:
        raise BatchError(f"{path} has batch version {old.get('version')!r}; this workbench reads version "
                         f"{MANIFEST_VERSION}")
    if not (isinstance(old, dict) and old.get("format") == MANIFEST_FORMAT
            and isinstance(old.get("configs"), dict) and all(isinstance(v, dict) for v in old["configs"].values())
            and not isinstance(old.get("games"), bool) and isinstance(old.get("games"), int)
            and not isinstance(old.get("seed"), bool) and isinstance(old.get("seed"), int)):
        raise BatchError(f"{path} is not a batch manifest (format {MANIFEST_FORMAT}, version "
                         f"{MANIFEST_VERSION}); use another output folder")
    return old


def _check_resume(out: Path, old: dict[str, Any], new: dict[str, Any]) -> None:
    """A folder resumes only the batch it holds: the same root seed, and a configuration id that
    is already there must mean the same settings (more games, more configurations are fine)."""
    if old["seed"] != new["seed"]:
        raise BatchError(f"{out} holds a batch with seed {old['seed']}, not {new['seed']}; use another folder")
    for cid, cfg in new["configs"].items():
        was = old["configs"].get(cid)
        if was is None:
            continue
        was, cfg = _plain(was), _plain(cfg)
        if was != cfg:
            keys = sorted(k for k in was.keys() | cfg.keys() if was.get(k) != cfg.get(k))
            raise BatchError(f"{out} holds configuration {cid!r} with other settings ({', '.join(keys)}); "
                             f"use another name or folder")


def _plain(data: Any) -> Any:
    return json.loads(json.dumps(data, sort_keys=True, default=str))


def _clean_temp_files(out: Path) -> None:
    """Remove the temp files of writes that never finished (a killed run's): they are
    :func:`~workbench.engine.record.atomic_write`'s, named ``.<name>.<random>.tmp``."""
    from workbench.engine.record import TEMP_GLOB

    for f in [*out.glob(TEMP_GLOB), *out.glob(f"games/*/{TEMP_GLOB}")]:
        if f.is_file():
            with contextlib.suppress(FileNotFoundError):
                f.unlink()


GAME_FILES = ("summary.parquet", "events.parquet", "turns.parquet", "record.json")


def _finished(folder: Path, index: int, config_id: str) -> bool:
    """Whether game ``index`` is finished: its summary exists, and all its files read back and are
    this game's.  A game whose files do not read loses them (the summary first) and is played again."""
    stem = f"{index:06d}"
    summary = folder / f"{stem}.summary.parquet"
    if not summary.exists():
        return False
    try:
        row = pl.read_parquet(summary)
        ok = (row.height == 1 and {"config", "game"} <= set(row.columns)
              and row["config"][0] == config_id and row["game"][0] == index)
        if ok:
            pl.read_parquet(folder / f"{stem}.events.parquet")
            pl.read_parquet(folder / f"{stem}.turns.parquet")
            _read_record(folder / f"{stem}.record.json")
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - polars raises several kinds (a Rust panic is a BaseException)
        ok = False
    if not ok:
        for name in GAME_FILES:  # the summary first: a crash in between leaves the game unfinished
            path = folder / f"{stem}.{name}"
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:  # a folder in the way, say: not ours to remove
                raise BatchError(f"{path} does not read as a game file and cannot be removed ({exc}); "
                                 f"remove it to play the game again") from None
    return ok


def _read_record(path: Path) -> None:
    from workbench.engine.record import GameRecord

    GameRecord.from_json(json.loads(path.read_text(encoding="utf-8")), str(path))


def _dask_client(scheduler: Any, timeout: float):  # noqa: ANN202
    """A ``dask.distributed`` client for ``scheduler`` (an address or a client), or :class:`BatchError`."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise BatchError("a Dask scheduler needs dask.distributed: pip install 'wargame-workbench[scale]'") from None
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler, timeout=timeout)
    except Exception as exc:  # noqa: BLE001 - OSError (timeout, refused), ValueError (address), ...
        raise BatchError(f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s: {exc}") from None


def _run_dask(todo: list, out: str, client: Any, bar) -> None:  # noqa: ANN001
    from dask.distributed import as_completed as dask_completed

    futs = [client.submit(run_game_to_files, cfg, i, s, out, pure=False) for cfg, i, s in todo]
    try:
        for f in dask_completed(futs):
            f.result()
            bar.update(1)
    except BaseException:
        client.cancel(futs)
        raise


def _bar(total: int, enabled: bool):  # noqa: ANN202
    from tqdm.auto import tqdm

    return tqdm(total=total, disable=not enabled, unit="game", desc="games")


def collect(out: str | Path, configs: list[str] | None = None) -> pl.DataFrame:
    """Every finished game's summary row (and rewrite ``summary.parquet``)."""
    out = Path(out)
    files = sorted((out / "games").glob("*/*.summary.parquet"))
    if configs is not None:
        files = [f for f in files if f.parent.name in set(configs)]
    if not files:
        return pl.DataFrame()
    df = _read_summaries(files)
    if configs is None:
        allrows = df
    else:
        allrows = _read_summaries(sorted((out / "games").glob("*/*.summary.parquet")))
    if allrows.height:
        _atomic_parquet(allrows, out / SUMMARY)
    return df


def _read_summaries(files: list[Path]) -> pl.DataFrame:
    """The summary rows of ``files``; one that does not read is left out with a warning (running
    its batch again plays that game again)."""
    frames = []
    for f in files:
        try:
            frames.append(pl.read_parquet(f))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - see _finished
            warnings.warn(f"{f} does not read ({exc}); left out: run its batch again to replay the game",
                          stacklevel=3)
    if not frames:
        return pl.DataFrame()
    return pl.concat(frames, how="diagonal_relaxed").sort(["config", "game"])


def load_events(out: str | Path, config: str | None = None) -> pl.LazyFrame:
    """The event logs of a batch as one lazy frame (columns of docs/events.md + config, game)."""
    pat = f"{Path(out)}/games/{config or '*'}/*.events.parquet"
    return pl.scan_parquet(pat)


def load_turns(out: str | Path, config: str | None = None) -> pl.DataFrame:
    files = sorted(Path(out).glob(f"games/{config or '*'}/*.turns.parquet"))
    return pl.concat([pl.read_parquet(f) for f in files]) if files else pl.DataFrame(schema=TURN_SCHEMA)
