"""Batch runs: seeds, Parquet output, resumability, sweeps, and Dask = local pool."""

from __future__ import annotations

import json

import polars as pl
import pytest

from workbench.batch import Config, collect, game_seeds, run_batch, sweep_configs

SMALL = "ssa/valor-of-ignorance"


def test_game_seeds_are_spawned_and_stable():
    a = game_seeds(7, 5)
    assert a == game_seeds(7, 5) and len(set(a)) == 5
    assert game_seeds(7, 3) == a[:3]  # growing N keeps the earlier games' seeds


def test_config_ids_and_sweeps():
    base = Config(SMALL, ("heuristic", "random"), max_turns=1)
    assert base.id == Config(SMALL, ("heuristic", "random"), max_turns=1).id
    cfgs = sweep_configs(base, {"hard": {"crt.rows.1": ["AZ"] * 13}})
    assert [c.id for c in cfgs] == ["base", "hard"]
    assert cfgs[1].overrides == {"crt.rows.1": ["AZ"] * 13}


@pytest.mark.slow
def test_batch_writes_parquet_and_resumes(tmp_path):
    cfg = Config(SMALL, ("heuristic", "random"), max_turns=1, name="tiny")
    df = run_batch(cfg, 2, tmp_path, seed=3, workers=0, progress=False)
    assert df.height == 2 and set(df["game"]) == {0, 1}
    files = sorted(p.name for p in (tmp_path / "games" / "tiny").iterdir())
    assert "000000.events.parquet" in files and "000001.summary.parquet" in files
    ev = pl.read_parquet(tmp_path / "games" / "tiny" / "000000.events.parquet")
    assert {"seq", "kind", "turn", "config", "game"} <= set(ev.columns)
    assert json.loads((tmp_path / "manifest.json").read_text())["seed"] == 3
    # simulate an interruption: lose one game's summary (the "finished" mark) and leave a stray temp file
    stamp = (tmp_path / "games" / "tiny" / "000000.summary.parquet").stat().st_mtime_ns
    (tmp_path / "games" / "tiny" / "000001.summary.parquet").unlink()
    (tmp_path / "games" / "tiny" / ".000001.events.parquet.x.tmp").write_text("junk")
    again = run_batch(cfg, 3, tmp_path, seed=3, workers=0, progress=False)
    assert again.height == 3
    assert (tmp_path / "games" / "tiny" / "000000.summary.parquet").stat().st_mtime_ns == stamp  # skipped
    assert again.filter(pl.col("game") < 2).drop("seconds").equals(df.drop("seconds"))  # same seeds, same games
    assert collect(tmp_path).height == 3


@pytest.mark.slow
def test_a_finished_game_has_one_turn_row_per_turn_side_and_metric(tmp_path):
    """The final position replaces the snapshot taken when the last turn began (it was written
    twice, and the fan charts summed the two); the last objectives row is the end state's."""
    from workbench.batch import load_turns

    run_batch(Config(SMALL, ("heuristic", "random"), name="whole"), 1, tmp_path, seed=3, workers=0,
              progress=False)
    t = load_turns(tmp_path)
    assert t.group_by(["game", "t", "side", "metric"]).len()["len"].max() == 1
    last = t.filter((pl.col("metric") == "objectives") & (pl.col("side") == "axis")).sort("t")
    assert last["value"][-1] > 0.0 and last["t"].is_sorted() and last["t"].n_unique() == last.height


@pytest.mark.slow
def test_sweep_runs_on_common_random_numbers(tmp_path):
    base = Config(SMALL, ("random", "random"), max_turns=1)
    cfgs = sweep_configs(base, {"same": {"crt.rows.1": ["AR", "EX", "DR", "DR", "DE", "DE", "DZ", "DZ",
                                                         "DZ", "DZ", "DZ", "DZ", "DZ"]}})
    df = run_batch(cfgs, 2, tmp_path, seed=1, workers=0, progress=False)
    a = df.filter(pl.col("config") == "base").sort("game")
    b = df.filter(pl.col("config") == "same").sort("game")
    assert a["seed"].to_list() == b["seed"].to_list()
    # the override repeats the shipped row, so the games are identical
    assert a["orders"].to_list() == b["orders"].to_list()


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_results_as_the_local_pool(tmp_path):
    from dask.distributed import Client, LocalCluster

    cfg = Config(SMALL, ("heuristic", "random"), max_turns=1, name="tiny")
    local = run_batch(cfg, 2, tmp_path / "local", seed=11, workers=2, progress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        remote = run_batch(cfg, 2, tmp_path / "dask", seed=11, scheduler=client, progress=False)
    cols = [c for c in local.columns if c != "seconds"]
    assert local.select(cols).equals(remote.select(cols))
    for g in range(2):
        a = pl.read_parquet(tmp_path / "local" / "games" / "tiny" / f"{g:06d}.events.parquet")
        b = pl.read_parquet(tmp_path / "dask" / "games" / "tiny" / f"{g:06d}.events.parquet")
        assert a.equals(b)


# == hard edges (issue 20, item 10): orphaned workers, temp files, file modes, corrupt files ========
def _tiny(name: str = "tiny") -> Config:
    return Config(SMALL, ("heuristic", "random"), max_turns=1, name=name)


def test_atomic_write_respects_the_umask_and_fsyncs_the_folder_after_the_rename(tmp_path, monkeypatch):
    import os
    import stat

    from workbench.engine.record import atomic_write_text

    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(("fsync", stat.S_ISDIR(os.fstat(fd).st_mode))),
                                                 real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append(("replace", None)), real_replace(a, b))[1])
    old = os.umask(0o027)
    try:
        atomic_write_text(tmp_path / "a.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o640
    assert calls == [("fsync", False), ("replace", None), ("fsync", True)]  # file, rename, folder
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]
