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
exist.  A run that is interrupted and started again skips finished games.

Scale-out: by default a local process pool with one worker per core;
``scheduler="tcp://host:8786"`` (or a ``dask.distributed.Client``) runs the
same function on a Dask cluster.  Results do not depend on where a game runs.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

SUMMARY = "summary.parquet"


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
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(names) != 2:
        raise ValueError("bots are two names, axis first: e.g. heuristic,random")
    return names[0], names[1]


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


def run_batch(configs: Config | list[Config], games: int, out: str | Path, *, seed: int = 0,
              workers: int | None = None, scheduler: Any = None, progress: bool = True) -> pl.DataFrame:
    """Play ``games`` seeded games of each configuration; write Parquet under ``out``; return summaries.

    ``workers``: local processes (default: every core; 0 = in this process).
    ``scheduler``: a Dask scheduler address (``"tcp://host:8786"``) or a ``dask.distributed.Client``.
    Finished games (their summary file exists) are skipped, so an interrupted run resumes.
    """
    from workbench.engine.record import atomic_write_text

    configs = [configs] if isinstance(configs, Config) else list(configs)
    ids = [c.id for c in configs]
    if len(set(ids)) != len(ids):
        raise ValueError("two configurations share an id; give them different names")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"format": "wargame-workbench/batch", "version": 1, "games": games, "seed": seed,
                "configs": {c.id: c.to_json() for c in configs}}
    mpath = out / "manifest.json"
    if mpath.exists():
        old = json.loads(mpath.read_text())
        if old.get("seed") != seed:
            raise ValueError(f"{out} holds a batch with seed {old.get('seed')}; use another folder")
        manifest["configs"] = {**old.get("configs", {}), **manifest["configs"]}
        manifest["games"] = max(games, int(old.get("games", 0)))
    atomic_write_text(mpath, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    seeds = game_seeds(seed, games)
    todo = [(c.to_json(), i, seeds[i]) for c in configs for i in range(games)
            if not (out / "games" / c.id / f"{i:06d}.summary.parquet").exists()]
    bar = _bar(len(todo), progress)
    try:
        if scheduler is not None:
            _run_dask(todo, str(out), scheduler, bar)
        elif workers == 0 or len(todo) <= 1:
            for cfg, i, s in todo:
                run_game_to_files(cfg, i, s, str(out))
                bar.update(1)
        else:
            n = workers or os.cpu_count() or 1
            # spawn, not fork: forking a process whose polars/numpy thread pools are running can deadlock
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=min(n, len(todo)), mp_context=ctx) as pool:
                futs = [pool.submit(run_game_to_files, cfg, i, s, str(out)) for cfg, i, s in todo]
                for f in as_completed(futs):
                    f.result()
                    bar.update(1)
    finally:
        bar.close()
    return collect(out, configs=ids)


def _run_dask(todo: list, out: str, scheduler: Any, bar) -> None:  # noqa: ANN001
    from dask.distributed import Client
    from dask.distributed import as_completed as dask_completed

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        futs = [client.submit(run_game_to_files, cfg, i, s, out, pure=False) for cfg, i, s in todo]
        for f in dask_completed(futs):
            f.result()
            bar.update(1)
    finally:
        if client is not scheduler:
            client.close()


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
    df = pl.concat([pl.read_parquet(f) for f in files], how="diagonal_relaxed").sort(["config", "game"])
    if configs is None:
        _atomic_parquet(df, out / SUMMARY)
    else:
        allrows = pl.concat([pl.read_parquet(f) for f in sorted((out / "games").glob("*/*.summary.parquet"))],
                            how="diagonal_relaxed").sort(["config", "game"])
        _atomic_parquet(allrows, out / SUMMARY)
    return df


def load_events(out: str | Path, config: str | None = None) -> pl.LazyFrame:
    """The event logs of a batch as one lazy frame (columns of docs/events.md + config, game)."""
    pat = f"{Path(out)}/games/{config or '*'}/*.events.parquet"
    return pl.scan_parquet(pat)


def load_turns(out: str | Path, config: str | None = None) -> pl.DataFrame:
    files = sorted(Path(out).glob(f"games/{config or '*'}/*.turns.parquet"))
    return pl.concat([pl.read_parquet(f) for f in files]) if files else pl.DataFrame(schema=TURN_SCHEMA)
