"""Write notebooks/balance-testing.ipynb (no outputs).  Run: python notebooks/make_balance_testing.py"""

from pathlib import Path

import nbformat as nbf

cells = [
    nbf.v4.new_markdown_cell(
        "# Balance testing with bot games\n\n"
        "What does raising the Axis industrial points from 15 to 18 do to the 1941 scenario?  We play the "
        "same seeded games under both values (common random numbers: the same dice stream for game *i* in "
        "both variants), then compare win rates, the paired difference and turn-by-turn fan charts.\n\n"
        "N is tiny here so the notebook runs in a minute; for real answers use "
        "`workbench batch ssa/1941 --games 200 --sweep mobilization.income.axis_fixed.GE.industrial=15,18`."),
    nbf.v4.new_code_cell(
        "from bokeh.io import output_notebook, show\n"
        "from bokeh.resources import INLINE\n"
        "output_notebook(INLINE, hide_banner=True)\n\n"
        "import tempfile\n"
        "import polars as pl\n"
        "from workbench import analysis as an\n"
        "from workbench.batch import Config, run_batch, sweep_configs, load_turns\n\n"
        "GAMES, TURNS, SEED = 2, 1, 2024   # tiny: raise GAMES to 200 and TURNS to None for a real study\n"
        "KEY = 'mobilization.income.axis_fixed.GE.industrial'\n"
        "base = Config('ssa/1941', ('random', 'random'), max_turns=TURNS, name='GE-ind-15')\n"
        "configs = sweep_configs(base, {'GE-ind-18': {KEY: 18}})\n"
        "out = tempfile.mkdtemp(prefix='balance-')\n"
        "summary = run_batch(configs, GAMES, out, seed=SEED, workers=2, progress=False)\n"
        "summary.select('config', 'game', 'winner', 'level', 'vp_axis', 'vp_allies', 'margin_axis')"),
    nbf.v4.new_markdown_cell(
        "## Win rates and their intervals\n\n"
        "Each rate comes with a 95% **Wilson** interval: the range of true win rates that would make the "
        "observed count unsurprising.  With N games the interval is roughly ±1/√N wide, so two variants "
        "whose intervals overlap widely are not shown to differ.  `bot_winner` is the scenario result, "
        "with draws broken by the contest margin (docs/bots.md)."),
    nbf.v4.new_code_cell(
        "rates = an.win_rates(summary)\n"
        "show(an.win_rate_chart(rates, 'axis'))\n"
        "rates.select('config', 'games', 'axis_wins', 'axis_lo', 'axis_hi', 'draws')"),
    nbf.v4.new_markdown_cell(
        "## The paired difference\n\n"
        "Because game *i* uses the same seeds in both variants, the difference of each game's outcome cancels "
        "most of the dice noise; the interval comes from the spread of those paired differences, so it is "
        "much narrower than comparing two independent win rates.  An interval that contains 0 means: no "
        "detectable effect at this N."),
    nbf.v4.new_code_cell(
        "an.paired_difference(summary, 'GE-ind-15', 'GE-ind-18', metric='margin_axis')"),
    nbf.v4.new_markdown_cell(
        "## Turn by turn\n\nThe band is p10-p90 across games, the line the median (p50)."),
    nbf.v4.new_code_cell(
        "turns = load_turns(out)\n"
        "show(an.fan_chart(turns, 'objectives', 'axis', title='Axis objective value held'))\n"
        "show(an.fan_chart(turns, 'steps_lost', 'allies', title='Allied steps lost'))"),
    nbf.v4.new_markdown_cell("## Is the CRT itself fair?\n\nExact result probabilities and expected step losses per column."),
    nbf.v4.new_code_cell("an.crt_expectations('ssa')"),
]
nb = nbf.v4.new_notebook(cells=cells)
nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
               "language_info": {"name": "python"}}
Path(__file__).with_name("balance-testing.ipynb").write_text(nbf.writes(nb))
