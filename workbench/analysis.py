"""Balance analytics over batch results, with polars (and bokeh charts).

* :func:`wilson` / :func:`win_rates`: win rates per configuration and side
  with Wilson score intervals.
* :func:`vp_distribution` / :func:`level_distribution`: how games end.
* :func:`fan` / :func:`fan_chart`: turn-by-turn p10/p50/p90 of any series in
  the batch's ``turns`` files (objectives, steps lost, ``economy:<NATION>.<metric>``).
* :func:`paired_difference`: two rule variants played on the same seeds
  (common random numbers) — the difference of a per-game outcome and its
  interval, from the paired differences.
* :func:`strength_pairs`: a bot beside random play on the same seeds, pair by pair
  (result level, then VP, then margin), with the pair win rate's Wilson interval.
* :func:`crt_distribution`: the exact result distribution of every CRT
  column under each die modifier, with expected step losses (SSA and ETO).
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_rates(summary: pl.DataFrame, by: str = "config", winner: str = "bot_winner") -> pl.DataFrame:
    """Per configuration: games, wins per side, draws, and each side's win rate with its interval."""
    rows = []
    for key, g in summary.group_by(by, maintain_order=True):
        n = g.height
        cfg = key[0] if isinstance(key, tuple) else key
        row: dict[str, Any] = {by: cfg, "games": n}
        for cols in (("bot_axis", "bot_allies"),):
            if all(c in g.columns for c in cols):
                row["bots"] = f"{g[cols[0]][0]},{g[cols[1]][0]}"
        wins = g[winner].fill_null("none").value_counts()
        counts = dict(zip(wins[winner].to_list(), wins["count"].to_list(), strict=True))
        for side in ("axis", "allies"):
            k = int(counts.get(side, 0))
            lo, hi = wilson(k, n)
            row.update({f"{side}_wins": k, f"{side}_rate": k / n if n else float("nan"),
                        f"{side}_lo": lo, f"{side}_hi": hi})
        row["draws"] = n - row["axis_wins"] - row["allies_wins"]
        rows.append(row)
    return pl.DataFrame(rows)


def level_distribution(summary: pl.DataFrame, by: str = "config") -> pl.DataFrame:
    """Share of games ending at each victory level (``winner`` + ``level``)."""
    return (summary.group_by([by, "winner", "level"]).len()
            .with_columns((pl.col("len") / pl.col("len").sum().over(by)).alias("share"))
            .sort([by, "len"], descending=[False, True]))


def vp_distribution(summary: pl.DataFrame, by: str = "config") -> pl.DataFrame:
    """Quantiles of VP and of the contest margin per configuration."""
    aggs = []
    for col in ("vp_axis", "vp_allies", "margin_axis"):
        if col in summary.columns:
            for q in (0.1, 0.5, 0.9):
                aggs.append(pl.col(col).cast(pl.Float64).quantile(q, "nearest").alias(f"{col}_p{int(q * 100)}"))
            aggs.append(pl.col(col).cast(pl.Float64).mean().alias(f"{col}_mean"))
    return summary.group_by(by).agg(aggs).sort(by)


def fan(turns: pl.DataFrame, metric: str, side: str | None = None, by: str = "config") -> pl.DataFrame:
    """p10/p50/p90 of a per-turn series across games: columns by, t, turn, p10, p50, p90, games.

    A game that ended early carries its last value forward, so late turns are
    not biased toward long games.
    """
    f = turns.filter(pl.col("metric") == metric)
    if side is not None:
        f = f.filter(pl.col("side") == side)
    if f.height == 0:
        return pl.DataFrame(schema={by: pl.String, "t": pl.Int64, "turn": pl.String, "p10": pl.Float64,
                                    "p50": pl.Float64, "p90": pl.Float64, "games": pl.UInt32})
    # one value per game, turn, side and metric (the last written: result folders from before
    # the batch writer stopped repeating the final turn hold it twice), then summed over sides
    f = f.unique([by, "game", "t", "side", "metric"], keep="last", maintain_order=True)
    f = f.group_by([by, "game", "t"]).agg(pl.col("value").sum(), pl.col("turn").last())
    grid = f.select(by, "t", "turn").unique([by, "t"]).join(f.select(by, "game").unique(), on=by)
    full = (grid.join(f.drop("turn"), on=[by, "game", "t"], how="left").sort([by, "game", "t"])
            .with_columns(pl.col("value").forward_fill().over([by, "game"])))
    return (full.group_by([by, "t", "turn"]).agg(
        pl.col("value").quantile(0.1, "nearest").alias("p10"),
        pl.col("value").quantile(0.5, "nearest").alias("p50"),
        pl.col("value").quantile(0.9, "nearest").alias("p90"),
        pl.col("value").drop_nulls().len().alias("games")).sort([by, "t"]))


def fan_chart(turns: pl.DataFrame, metric: str, side: str | None = None, by: str = "config",
              title: str | None = None):  # noqa: ANN201 - bokeh figure
    """A bokeh fan chart (p10-p90 band, p50 line) per configuration."""
    from bokeh.models import BasicTicker, ColumnDataSource, HoverTool
    from bokeh.palettes import Category10_10
    from bokeh.plotting import figure

    fr = fan(turns, metric, side, by)
    fig = figure(height=280, width=560, title=title or f"{metric}{' ' + side if side else ''}: p10-p90, p50",
                 x_axis_label="turn", toolbar_location=None)
    # turns are whole: ticks on whole turns only, labelled with the game's turn (not 0.2, 0.4 ...);
    # counted series (objectives, steps) get whole-number ticks too
    fig.xaxis.ticker = BasicTicker(min_interval=1)
    fig.xaxis.major_label_overrides = {int(t): str(lab) for t, lab in fr.select("t", "turn").unique().iter_rows()}
    values = fr.select("p10", "p50", "p90").to_numpy()
    if values.size and (values == values.round()).all():
        fig.yaxis.ticker = BasicTicker(min_interval=1)
    for k, (key, g) in enumerate(fr.group_by(by, maintain_order=True)):
        name = key[0] if isinstance(key, tuple) else key
        src = ColumnDataSource({c: g[c].to_list() for c in ("t", "turn", "p10", "p50", "p90")})
        color = Category10_10[k % 10]
        fig.varea(x="t", y1="p10", y2="p90", source=src, fill_alpha=0.2, fill_color=color)
        fig.line(x="t", y="p50", source=src, line_color=color, line_width=2, legend_label=str(name))
    fig.add_tools(HoverTool(tooltips=[("turn", "@turn"), ("p10", "@p10"), ("p50", "@p50"), ("p90", "@p90")]))
    if fig.legend:
        fig.legend.location = "top_left"
    return fig


def win_rate_chart(rates: pl.DataFrame, side: str = "axis", by: str = "config"):  # noqa: ANN201
    """Win rate of ``side`` per configuration with its Wilson interval (whiskers)."""
    from bokeh.models import ColumnDataSource, Whisker
    from bokeh.plotting import figure

    names = [str(x) for x in rates[by].to_list()]
    src = ColumnDataSource({"x": names, "rate": rates[f"{side}_rate"].to_list(),
                            "lo": rates[f"{side}_lo"].to_list(), "hi": rates[f"{side}_hi"].to_list()})
    fig = figure(x_range=names, height=280, width=560, y_range=(0, 1), toolbar_location=None,
                 title=f"{side} win rate (95% Wilson interval)")
    fig.scatter(x="x", y="rate", source=src, size=9)
    fig.add_layout(Whisker(source=src, base="x", upper="hi", lower="lo"))
    return fig


def paired_difference(summary: pl.DataFrame, a: str, b: str, metric: str = "axis_win",
                      by: str = "config", z: float = Z95) -> dict[str, Any]:
    """Variant ``b`` minus variant ``a`` on the games they share (same game index = same seeds).

    ``metric`` is a summary column, or ``"axis_win"`` / ``"allies_win"`` (1 if that side is
    the ``bot_winner``).  Returns the mean difference, its normal-approximation interval
    from the paired differences, and how many games changed outcome each way.
    """
    def values(cfg: str) -> pl.DataFrame:
        g = summary.filter(pl.col(by) == cfg)
        if metric.endswith("_win"):
            side = metric[: -len("_win")]
            col = (pl.col("bot_winner") == side).fill_null(False).cast(pl.Float64)
        else:
            col = pl.col(metric).cast(pl.Float64)
        return g.select("game", col.alias("v"))

    j = values(a).join(values(b), on="game", suffix="_b")
    n = j.height
    if n == 0:
        raise ValueError(f"no common games between {a!r} and {b!r}")
    d = (j["v_b"] - j["v"]).to_list()
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else float("nan")
    half = z * sd / math.sqrt(n) if n > 1 else float("nan")
    return {"a": a, "b": b, "metric": metric, "games": n, "mean_a": float(j["v"].mean()),
            "mean_b": float(j["v_b"].mean()), "difference": mean, "lo": mean - half, "hi": mean + half,
            "changed_up": sum(1 for x in d if x > 0), "changed_down": sum(1 for x in d if x < 0)}


def optional_rule_effects(summary: pl.DataFrame, base: str = "designed",
                          metrics: tuple[str, ...] = ("axis_win", "vp_axis", "margin_axis")) -> pl.DataFrame:
    """What each optional rule does to the balance: for every ``without-<rule>`` configuration of
    :func:`batch.optional_rule_configs`, the paired difference *with* the rule minus *without* it
    on the same seeds, per metric (mean, 95% interval, games that moved each way)."""
    rows = []
    configs = sorted(c for c in summary["config"].unique().to_list() if c.startswith("without-"))
    for cfg in configs:
        for m in metrics:
            if m not in ("axis_win", "allies_win") and (m not in summary.columns
                                                       or summary[m].null_count() == summary.height):
                continue
            d = paired_difference(summary, cfg, base, metric=m)
            rows.append({"rule": cfg[len("without-"):], "metric": m, "games": d["games"],
                         "without": d["mean_a"], "with": d["mean_b"], "effect": d["difference"],
                         "lo": d["lo"], "hi": d["hi"], "moved_up": d["changed_up"],
                         "moved_down": d["changed_down"]})
    return pl.DataFrame(rows)


#: How strong a result level is, read from the level's words (SS Amerika 20.5: draw, marginal,
#: strategic, total; ETO scenarios: marginal, decisive ...).  Unknown words count 1.
LEVEL_WEIGHT = {"draw": 0, "marginal": 1, "minor": 1, "substantial": 2, "strategic": 2, "major": 2,
                "decisive": 3, "total": 3, "automatic": 4, "capitulation": 4, "sudden": 4}


def side_outcome(row: dict[str, Any], side: str, sides: tuple[str, str] = ("axis", "allies")) -> tuple:
    """A game's result for ``side`` as a sortable tuple: the result level first (a win counts
    its level's weight, a loss the negative, a draw 0), then its VP, then the contest margin."""
    other = sides[1] if side == sides[0] else sides[0]
    words = str(row.get("level") or "").lower().replace("_", " ").split()
    weight = max((LEVEL_WEIGHT[w] for w in words if w in LEVEL_WEIGHT), default=1)
    winner = row.get("winner")
    level = weight if winner == side else -weight if winner == other else 0
    vp_own, vp_other = row.get(f"vp_{side}"), row.get(f"vp_{other}")
    vp = vp_own if vp_own is not None else (-vp_other if vp_other is not None else 0.0)
    margin = float(row.get("margin_axis") or 0.0) * (1 if side == sides[0] else -1)
    return (level, float(vp), margin)


def strength_pairs(summary: pl.DataFrame, bot: str, baseline: str, side: str, z: float = Z95) -> dict[str, Any]:
    """The paired strength bar (issue 25): configuration ``bot`` (the side's heuristic against a
    random opponent) beside ``baseline`` (random against the same random opponent) on the same
    games.  A pair counts when the bot's side ends strictly better (:func:`side_outcome`).
    Returns the pair win rate with its Wilson interval and the mean margin difference with its
    interval (``margin_axis`` read for ``side``)."""
    def rows(cfg: str) -> dict[int, dict[str, Any]]:
        return {r["game"]: r for r in summary.filter(pl.col("config") == cfg).iter_rows(named=True)}

    a, b = rows(bot), rows(baseline)
    games = sorted(set(a) & set(b))
    if not games:
        raise ValueError(f"no common games between {bot!r} and {baseline!r}")
    better = sum(side_outcome(a[g], side) > side_outcome(b[g], side) for g in games)
    lo, hi = wilson(better, len(games), z)
    d = [side_outcome(a[g], side)[2] - side_outcome(b[g], side)[2] for g in games]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else float("nan")
    half = z * sd / math.sqrt(n) if n > 1 else float("nan")
    return {"side": side, "pairs": n, "better": better, "rate": better / n, "lo": lo, "hi": hi,
            "margin_difference": mean, "margin_lo": mean - half, "margin_hi": mean + half}


# == the CRT itself ===========================================================================
def crt_distribution(ruleset: Any, tables: dict[str, Any] | None = None,
                     modifiers: range | list[int] | None = None) -> pl.DataFrame:
    """Exact result probabilities of every CRT column under each die modifier.

    ``ruleset`` is a ruleset or its name; the table comes from its face
    (:meth:`~workbench.engine.face.Face.crt_table`).  Columns: column, drm, result,
    probability (exact, as a float; ``p_exact`` as a fraction string), attacker_steps and
    defender_steps (expected step losses of a one-unit stack on each side).  A game whose
    shifts move the column instead of the die (SS Amerika) has ``drm`` 0.
    """
    from workbench.engine.ruleset import get_ruleset

    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    table = rs.crt_table(tables, modifiers)
    if table is None:
        raise ValueError(f"the {rs.name} ruleset has no combat results table")
    return table


def crt_expectations(ruleset: Any, tables: dict[str, Any] | None = None) -> pl.DataFrame:
    """Per column and modifier: expected attacker and defender step losses, and their ratio."""
    d = crt_distribution(ruleset, tables)
    return (d.group_by(["column", "drm"], maintain_order=True)
            .agg(pl.col("attacker_steps").sum(), pl.col("defender_steps").sum())
            .with_columns((pl.col("defender_steps") / pl.col("attacker_steps")).alias("exchange_ratio")))
