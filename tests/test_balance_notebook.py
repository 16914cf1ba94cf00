"""notebooks/balance-testing.ipynb teaches from a run that shows a real difference (issue 26.11).

As shipped before, it played 2 games of 1 turn: both variants were identical, the interval was
0-0.66 and the turn axis was ticked at 0.2.  Now a small precomputed run ships in
``notebooks/data/`` and the notebook loads it; running the notebook is nbval's job (CI), these
tests check, fast, what it stands on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import polars as pl

from workbench import analysis as an

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))
import make_balance_testing as mbt  # noqa: E402 - lives next to the notebook it writes


def _data() -> tuple[pl.DataFrame, pl.DataFrame]:
    return (pl.read_parquet(mbt.DATA / f"{mbt.STEM}.summary.parquet"),
            pl.read_parquet(mbt.DATA / f"{mbt.STEM}.turns.parquet"))


def test_the_shipped_run_is_small_and_shows_a_real_difference():
    summary, turns = _data()
    for path in mbt.DATA.glob(f"{mbt.STEM}.*.parquet"):
        assert path.stat().st_size < 100_000, path
    assert summary.group_by("config").len().sort("config")["len"].to_list() == [mbt.GAMES] * 3
    assert summary["error"].null_count() == summary.height  # every game played to its end
    # paired differences whose 95% intervals exclude 0, for both variants
    for variant in ("attacker-luck", "defender-luck"):
        d = an.paired_difference(summary, "printed", variant, metric="margin_axis")
        assert d["lo"] > 0 or d["hi"] < 0, d
    # and win-rate intervals that do not overlap
    rates = {r["config"]: r for r in an.win_rates(summary, winner="winner").iter_rows(named=True)}
    assert rates["attacker-luck"]["axis_hi"] < rates["printed"]["axis_lo"]
    assert rates["printed"]["axis_hi"] < rates["defender-luck"]["axis_lo"]
    assert set(turns["t"].to_list()) == set(range(6))


def test_the_notebook_loads_the_data_says_how_to_regenerate_it_and_ships_without_outputs():
    nb = json.loads(mbt.NOTEBOOK.read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    prose = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert f"{mbt.STEM}.summary.parquet" in code and "read_parquet" in code
    assert mbt.COMMAND in prose  # the exact command that regenerates the data
    assert "SEED = " in code and "seed=SEED" in code  # its own run is seeded
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            assert c["outputs"] == [] and c["execution_count"] is None
    assert "widgets" not in nb["metadata"] and nb["metadata"]["kernelspec"]["name"] == "python3"
    # the committed notebook is what the generator writes
    generated = mbt.cells()
    assert ["".join(c["source"]) for c in nb["cells"]] == [c["source"] for c in generated]


def test_fan_charts_tick_whole_turns_labelled_with_the_turn():
    _, turns = _data()
    fig = an.fan_chart(turns, "objectives", "axis")
    assert fig.xaxis[0].ticker.min_interval == 1
    assert fig.xaxis[0].major_label_overrides[0] == "1939-06"
    assert fig.yaxis[0].ticker.min_interval == 1  # objective values are whole numbers
