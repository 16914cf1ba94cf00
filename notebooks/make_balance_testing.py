"""Write notebooks/balance-testing.ipynb (no outputs) and, with ``--data``, its precomputed run.

    .venv/bin/python notebooks/make_balance_testing.py          # the notebook only (instant)
    .venv/bin/python notebooks/make_balance_testing.py --data   # also replay the batch (~2 min, 1 core)

The notebook teaches from a run that shows a real difference, so it ships one: three CRT
variants of the Valor of Ignorance, 40 seeded heuristic-against-heuristic games each, saved
as two small Parquet files in ``notebooks/data/`` (the per-game summaries and the turn-by-turn
series; the event logs are left out to keep them small).  The same command and seed give
the same files.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
NOTEBOOK = HERE / "balance-testing.ipynb"
SCENARIO = "ssa/valor-of-ignorance"
GAMES, SEED, BOTS = 40, 2024, ("heuristic", "heuristic")
STEM = "balance-crt"
COMMAND = ".venv/bin/python notebooks/make_balance_testing.py --data"


def configs() -> list:
    """The printed CRT, and the same game with every die read on the attacker's best row (1) or
    worst row (6): how much does combat luck decide this scenario?"""
    from workbench.batch import Config, sweep_configs
    from workbench.engine import load_scenario

    rows = load_scenario(SCENARIO).ruleset.tables["crt"]["rows"]
    base = Config(SCENARIO, BOTS, name="printed")
    return sweep_configs(base, {
        "attacker-luck": {"overrides": {f"crt.rows.{k}": rows["1"] for k in rows if k != "1"}},
        "defender-luck": {"overrides": {f"crt.rows.{k}": rows["6"] for k in rows if k != "6"}},
    })


def make_data(games: int = GAMES, workers: int = 1) -> list[Path]:
    """Play the batch in a temporary folder and keep its summaries and turn series."""
    import polars as pl

    from workbench.batch import load_turns, run_batch

    DATA.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="balance-") as out:
        summary = run_batch(configs(), games, out, seed=SEED, workers=workers, progress=False)
        turns = load_turns(out)
    summary = summary.drop("seconds").sort("config", "game")  # wall time: not part of the result
    turns = turns.sort("config", "game", "t", "side", "metric")
    paths = [DATA / f"{STEM}.summary.parquet", DATA / f"{STEM}.turns.parquet"]
    for df, path in zip((summary, turns), paths, strict=True):
        df.write_parquet(path, statistics=False)
    print(pl.read_parquet(paths[0]).group_by("config").len())
    return paths


def cells() -> list:
    import nbformat as nbf

    md, code = nbf.v4.new_markdown_cell, nbf.v4.new_code_cell
    return [
        md("# Balance testing with bot games\n\n"
           "How much does combat luck decide *The Valor of Ignorance*?  We compare three versions of the "
           "SS Amerika CRT: the **printed** table, **attacker-luck** (every die is read on row 1, the "
           "attacker's best) and **defender-luck** (every die on row 6, the attacker's worst).  Each version "
           f"played the same {GAMES} seeded games, heuristic bot against heuristic bot (common random "
           "numbers: game *i* gets the same dice stream and bot seeds in every version), so a difference "
           "between versions comes from the rule, not from the dice.\n\n"
           "The run is precomputed and ships with the notebook as two small Parquet files in "
           "`notebooks/data/`. To regenerate them (about two minutes on one core; same seed, same files), "
           "from the repository root:\n\n"
           f"```bash\n{COMMAND}\n```\n\n"
           "The same study from the command line, one variant per `--sweep` value, is "
           "`workbench batch ssa/valor-of-ignorance --games 40 --bots heuristic,heuristic --seed 2024 "
           "--sweep TABLE.KEY=V1,V2`."),
        code("from pathlib import Path\n\n"
             "import polars as pl\n"
             "from bokeh.io import output_notebook, show\n"
             "from bokeh.resources import INLINE\n\n"
             "from workbench import analysis as an\n\n"
             "output_notebook(INLINE, hide_banner=True)\n"
             "SEED = 2024  # the seed of the shipped run, and of the small live run below\n"
             f"DATA = Path('data') if Path('data', '{STEM}.summary.parquet').exists() else Path('notebooks', 'data')\n"
             f"summary = pl.read_parquet(DATA / '{STEM}.summary.parquet')\n"
             f"turns = pl.read_parquet(DATA / '{STEM}.turns.parquet')\n"
             "summary.group_by('config', maintain_order=True).agg(\n"
             "    pl.len().alias('games'), pl.col('turns_played').mean(), pl.col('steps_lost_axis').mean(),\n"
             "    pl.col('steps_lost_allies').mean(), pl.col('objectives_axis').mean())"),
        md("## How the games ended\n\n"
           "`winner` is the scenario's own verdict (a draw when the Japanese hold too little at the end). "
           "Each win rate comes with a 95% **Wilson** interval: the range of true win rates that would make "
           "the observed count unsurprising.  With N games it is roughly ±1/√N wide, so two versions whose "
           "intervals overlap widely are not shown to differ; these do not overlap."),
        code("rates = an.win_rates(summary, winner='winner')\n"
             "show(an.win_rate_chart(rates, 'axis'))\n"
             "rates.select('config', 'games', 'axis_wins', 'axis_lo', 'axis_hi', 'draws')"),
        code("an.level_distribution(summary).sort('config', 'level')"),
        md("## The paired difference\n\n"
           "Game *i* used the same seeds in every version, so the per-game difference cancels most of the "
           "dice noise; the interval comes from the spread of those paired differences.  An interval that "
           "contains 0 means *no detectable effect at this N*.  Here neither interval contains 0: both "
           "variants move the Axis margin (its objective value held minus what it needed) and both sides' "
           "losses, in opposite directions.\n\n"
           "A question for the class: luck for *the attacker* costs the Japanese, who came to attack.  "
           "The losses hint why: the bots attack when the odds look good, so a kinder table makes the "
           "Americans attack too.  Check it in the turn-by-turn charts below, or replay a game."),
        code("pl.DataFrame([an.paired_difference(summary, 'printed', variant, metric=metric)\n"
             "              for variant in ('attacker-luck', 'defender-luck')\n"
             "              for metric in ('margin_axis', 'steps_lost_axis', 'steps_lost_allies')])"
             ".select('b', 'metric', 'games', 'mean_a', 'mean_b', 'difference', 'lo', 'hi')"),
        md("## Turn by turn\n\nThe band is p10-p90 across games, the line the median (p50); the turn axis "
           "counts whole turns, labelled with the game month."),
        code("show(an.fan_chart(turns, 'objectives', 'axis', title='Axis objective value held'))\n"
             "show(an.fan_chart(turns, 'steps_lost', 'allies', title='Allied steps lost'))"),
        md("## Run your own\n\n"
           "The same batch runner, tiny here so the notebook stays quick: two games of one turn per "
           "version, in this process.  Results land in a folder of Parquet files (resumable; "
           "`docs/batch.md` has the layout); raise the numbers for a real study."),
        code("import tempfile\n\n"
             "from workbench.batch import Config, run_batch, sweep_configs\n\n"
             "base = Config('ssa/valor-of-ignorance', ('heuristic', 'heuristic'), max_turns=1, name='printed')\n"
             "row1 = ['AR', 'EX', 'DR', 'DR', 'DE', 'DE', 'DZ', 'DZ', 'DZ', 'DZ', 'DZ', 'DZ', 'DZ']\n"
             "mine = sweep_configs(base, {'attacker-luck': {'overrides': {f'crt.rows.{k}': row1 for k in '23456'}}})\n"
             "small = run_batch(mine, 2, tempfile.mkdtemp(prefix='balance-'), seed=SEED, workers=0, progress=False)\n"
             "small.select('config', 'game', 'seed', 'winner', 'level', 'margin_axis', 'steps_lost_axis')"),
        md("## Is the CRT itself fair?\n\nExact result probabilities and expected step losses per column."),
        code("an.crt_expectations('ssa')"),
    ]


def write() -> Path:
    import nbformat as nbf

    nb = nbf.v4.new_notebook(cells=cells())
    for i, cell in enumerate(nb.cells):  # stable ids: regenerating gives the same file
        cell["id"] = f"balance-{i:02d}"
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                   "language_info": {"name": "python"}}
    NOTEBOOK.write_text(nbf.writes(nb))
    return NOTEBOOK


if __name__ == "__main__":
    if "--data" in sys.argv[1:]:
        make_data()
    print(write())
