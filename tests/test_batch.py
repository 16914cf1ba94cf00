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


ORPHAN_SCRIPT = """
import sys
from workbench.batch import Config, run_batch
run_batch(Config(sys.argv[2], ("heuristic", "random"), max_turns=1, name="tiny"), 4, sys.argv[1], seed=3,
          workers=2, progress=False)
"""


@pytest.mark.slow
def test_orphaned_workers_exit_when_the_batch_is_killed(tmp_path):
    """kill -9 of a batch used to leave its pool workers running: they finished their games and
    then waited for work forever.  Now each worker dies with its parent."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    psutil = pytest.importorskip("psutil")
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("needs kill -9")
    root = Path(__file__).resolve().parents[1]
    batch = subprocess.Popen([sys.executable, "-c", ORPHAN_SCRIPT, str(tmp_path), SMALL], cwd=root,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids: list = []
    try:
        parent = psutil.Process(batch.pid)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # wait until the workers are playing (a game file appears)
            if batch.poll() is not None:
                pytest.fail("the batch ended before it could be killed")
            kids = [k for k in parent.children(recursive=True) if "resource_tracker" not in " ".join(k.cmdline())]
            if len(kids) >= 2 and any((tmp_path / "games").glob("*/*")):  # playing: a game file appears
                break
            time.sleep(0.01)
        else:
            pytest.fail("the batch's workers never started a game")
        os.kill(batch.pid, signal.SIGKILL)
        batch.wait()
        deadline = time.monotonic() + 10
        alive = kids
        while alive and time.monotonic() < deadline:
            time.sleep(0.05)
            alive = [k for k in alive if k.is_running() and k.status() != psutil.STATUS_ZOMBIE]
        assert not alive, f"workers left running after the batch was killed: {[k.pid for k in alive]}"
    finally:
        for k in kids:  # only the processes this test started
            with _suppress():
                k.kill()
        if batch.poll() is None:
            batch.kill()


def _suppress():  # noqa: ANN202
    import contextlib

    import psutil

    return contextlib.suppress(psutil.Error)


def test_leftover_tmp_files_are_cleaned_on_the_next_run(tmp_path):
    """A killed run leaves the temp files of its unfinished writes; the next run removes them."""
    games = tmp_path / "games" / "tiny"
    games.mkdir(parents=True)
    stray = [games / ".000000.events.parquet.1a2b3c4d.tmp", games / ".000009.record.json.x.tmp",
             tmp_path / ".manifest.json.0f0f0f0f.tmp"]
    for f in stray:
        f.write_text("half a file")
    keep = games / "notes.txt"
    keep.write_text("mine")
    run_batch(_tiny(), 2, tmp_path, seed=3, workers=0, progress=False)
    assert not [f for f in stray if f.exists()]
    assert not list(tmp_path.rglob("*.tmp"))
    assert keep.read_text() == "mine"


def test_written_files_respect_the_umask(tmp_path):
    """Atomic writes went through mkstemp, so every result file was 0600 whatever the umask: a
    shared results folder was unreadable to the group."""
    import os
    import stat

    old = os.umask(0o002)
    try:
        run_batch(_tiny(), 2, tmp_path, seed=3, workers=0, progress=False)
    finally:
        os.umask(old)
    files = [tmp_path / "manifest.json", tmp_path / "summary.parquet", *(tmp_path / "games" / "tiny").iterdir()]
    assert len(files) == 10
    assert {oct(stat.S_IMODE(f.stat().st_mode)) for f in files} == {oct(0o664)}


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


def test_resume_replays_games_whose_files_are_corrupt(tmp_path):
    """Resume trusted any per-game summary Parquet that existed: a corrupt one broke every later
    run of the batch.  Now each finished game's files are read back; a game whose files do not
    read is played again, and the batch summary is rebuilt from the per-game files."""
    cfg = _tiny()
    first = run_batch(cfg, 3, tmp_path, seed=3, workers=0, progress=False)
    d = tmp_path / "games" / "tiny"
    stamp = (d / "000002.summary.parquet").stat().st_mtime_ns
    data = (d / "000000.summary.parquet").read_bytes()
    (d / "000000.summary.parquet").write_bytes(data[: len(data) // 2])  # truncated
    (d / "000001.events.parquet").write_bytes(b"PAR1 not parquet PAR1")  # garbage
    (d / "000002.record.json").unlink()  # lost: game 2 is played again too
    (tmp_path / "summary.parquet").write_bytes(b"junk")
    again = run_batch(cfg, 3, tmp_path, seed=3, workers=0, progress=False)
    assert again.drop("seconds").equals(first.drop("seconds"))
    assert (d / "000002.summary.parquet").stat().st_mtime_ns != stamp
    assert pl.read_parquet(tmp_path / "summary.parquet").drop("seconds").equals(first.drop("seconds"))
    for g in range(3):
        assert pl.read_parquet(d / f"{g:06d}.events.parquet").height > 0
    assert json.loads((d / "000002.record.json").read_text())["seed"] == first["seed"][2]


def test_a_second_batch_in_the_same_folder_is_refused(tmp_path):
    """Two runs in one folder would remove each other's temp files; the second is refused."""
    from workbench.batch import BatchError, _folder_lock

    pytest.importorskip("fcntl")
    with _folder_lock(tmp_path), pytest.raises(BatchError, match="another batch is running"):
        run_batch(_tiny(), 1, tmp_path, seed=3, workers=0, progress=False)


CTRL_C_SCRIPT = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job may inherit SIGINT ignored
from workbench.cli import main
sys.exit(main(["batch", sys.argv[2], "--games", "4", "--turns", "1", "--workers", "2", "--quiet",
               "--out", sys.argv[1]]))
"""


@pytest.mark.slow
def test_ctrl_c_stops_the_batch_and_its_workers(tmp_path):
    """Ctrl-C printed a traceback per process and the pool went on with the games it held; now
    the batch prints one line, exits 130 and takes its workers down with it."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    psutil = pytest.importorskip("psutil")
    root = Path(__file__).resolve().parents[1]
    batch = subprocess.Popen([sys.executable, "-c", CTRL_C_SCRIPT, str(tmp_path), SMALL], cwd=root,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    kids: list = []
    try:
        parent = psutil.Process(batch.pid)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if batch.poll() is not None:
                pytest.fail("the batch ended before it could be interrupted")
            kids = [k for k in parent.children(recursive=True) if "resource_tracker" not in " ".join(k.cmdline())]
            if len(kids) >= 2 and any((tmp_path / "games").glob("*/*")):  # playing: a game file appears
                break
            time.sleep(0.01)
        else:
            pytest.fail("the batch's workers never started a game")
        batch.send_signal(signal.SIGINT)
        _, err = batch.communicate(timeout=20)
        assert batch.returncode == 130, err
        assert "Traceback" not in err
        assert err.strip().splitlines()[-1] == "interrupted; run the same command again to resume"
        deadline = time.monotonic() + 10
        alive = kids
        while alive and time.monotonic() < deadline:
            time.sleep(0.05)
            alive = [k for k in alive if k.is_running() and k.status() != psutil.STATUS_ZOMBIE]
        assert not alive
    finally:
        for k in kids:
            with _suppress():
                k.kill()
        if batch.poll() is None:
            batch.kill()
