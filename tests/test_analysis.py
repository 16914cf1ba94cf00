"""Analysis helpers: Wilson intervals, win rates, fans, paired differences, CRT distributions."""

from __future__ import annotations

import math

import polars as pl
import pytest

from workbench import analysis as an


def test_wilson_known_values():
    lo, hi = an.wilson(8, 10)
    assert math.isclose(lo, 0.4902, abs_tol=1e-3) and math.isclose(hi, 0.9433, abs_tol=1e-3)
    assert an.wilson(0, 0) == (0.0, 1.0)
    lo, hi = an.wilson(0, 20)
    assert lo == 0.0 and 0.15 < hi < 0.17


def _summary():
    rows = []
    for cfg, wins in (("a", ["axis", "allies", "axis", None]), ("b", ["axis", "axis", "axis", "allies"])):
        for g, w in enumerate(wins):
            rows.append({"config": cfg, "game": g, "bot_winner": w, "winner": w, "level": "x",
                         "vp_axis": float(g), "vp_allies": 1.0, "margin_axis": float(g - 1),
                         "bot_axis": "heuristic", "bot_allies": "random"})
    return pl.DataFrame(rows)


def test_win_rates_and_levels():
    r = an.win_rates(_summary())
    a = r.filter(pl.col("config") == "a").row(0, named=True)
    assert a["games"] == 4 and a["axis_wins"] == 2 and a["allies_wins"] == 1 and a["draws"] == 1
    assert a["axis_lo"] < 0.5 < a["axis_hi"]
    assert an.level_distribution(_summary())["share"].sum() == pytest.approx(2.0)
    assert an.vp_distribution(_summary()).height == 2


def test_paired_difference_uses_common_games():
    d = an.paired_difference(_summary(), "a", "b", "axis_win")
    assert d["games"] == 4 and d["difference"] == pytest.approx(0.25)
    assert d["changed_up"] == 1 and d["changed_down"] == 0


def test_optional_rule_effects_pair_each_rule_left_out_with_the_designed_set():
    from workbench.batch import Config, optional_rule_configs

    cfgs = optional_rule_configs(Config("ssa/1941", ("heuristic", "heuristic")), ["SSA-21", "SSA-26"])
    assert [(c.name, c.options["optional_rules"]) for c in cfgs] == [
        ("designed", ["SSA-21", "SSA-26"]), ("without-SSA-21", ["SSA-26"]), ("without-SSA-26", ["SSA-21"])]
    rows = []
    for cfg, vps in (("designed", [5, 6, 7]), ("without-SSA-21", [3, 6, 4]), ("without-SSA-26", [5, 6, 7])):
        for g, vp in enumerate(vps):
            rows.append({"config": cfg, "game": g, "bot_winner": "axis" if vp > 5 else "allies",
                         "vp_axis": float(vp), "margin_axis": 0.0})
    fx = an.optional_rule_effects(pl.DataFrame(rows))
    vp = fx.filter((pl.col("rule") == "SSA-21") & (pl.col("metric") == "vp_axis")).row(0, named=True)
    assert (vp["without"], vp["with"], vp["effect"], vp["moved_up"]) == (pytest.approx(13 / 3), 6.0,
                                                                         pytest.approx(5 / 3), 2)
    win = fx.filter((pl.col("rule") == "SSA-21") & (pl.col("metric") == "axis_win")).row(0, named=True)
    assert win["effect"] == pytest.approx(1 / 3)  # game 2: 4 VP (allies) without, 7 (axis) with
    assert fx.filter(pl.col("rule") == "SSA-26")["effect"].to_list() == [0.0, 0.0, 0.0]


def test_strength_pairs_compare_level_then_vp_then_margin_game_by_game():
    def row(cfg, g, winner, level, vp, margin):
        return {"config": cfg, "game": g, "winner": winner, "level": level, "vp_axis": vp, "vp_allies": None,
                "margin_axis": margin}

    rows = [row("h", 0, "axis", "marginal", 5.0, 2.0), row("r", 0, None, "draw", 9.0, 8.0),     # level wins
            row("h", 1, "axis", "decisive", 5.0, 0.0), row("r", 1, "axis", "marginal", 9.0, 0.0),  # stronger level
            row("h", 2, None, "draw", 7.0, 0.0), row("r", 2, None, "draw", 6.0, 9.0),               # same level, VP
            row("h", 3, None, "draw", 6.0, 1.0), row("r", 3, None, "draw", 6.0, 3.0),               # margin: worse
            row("h", 4, "allies", "total", 0.0, -5.0), row("r", 4, "allies", "total", 0.0, -5.0)]   # tie: not better
    r = an.strength_pairs(pl.DataFrame(rows), "h", "r", "axis")
    assert (r["pairs"], r["better"], r["rate"]) == (5, 3, 0.6)
    assert (r["lo"], r["hi"]) == pytest.approx(an.wilson(3, 5))
    assert r["margin_difference"] == pytest.approx((-6 + 0 - 9 - 2 + 0) / 5)
    assert an.side_outcome(rows[8], "allies") == (3, 0.0, 5.0)  # the Allies won a total victory


def test_fan_carries_last_value_forward():
    rows = [{"config": "a", "game": g, "t": t, "turn": f"T{t}", "side": "axis", "metric": "steps_lost",
             "value": float(t * (g + 1))} for g in range(3) for t in range(3 if g else 2)]
    f = an.fan(pl.DataFrame(rows), "steps_lost", "axis")
    last = f.filter(pl.col("t") == 2).row(0, named=True)
    assert last["games"] == 3 and last["p10"] == 1.0  # game 0 carried its t=1 value forward
    fig = an.fan_chart(pl.DataFrame(rows), "steps_lost", "axis")
    assert fig.renderers


def test_fan_counts_a_repeated_final_turn_once():
    """Result folders written before the batch fix hold the final turn twice: the fan reads it
    once (it used to sum the two rows, doubling the last point)."""
    rows = [{"config": "a", "game": g, "t": t, "turn": f"T{t}", "side": "axis", "metric": "objectives",
             "value": float(5 + t + g)} for g in range(3) for t in range(3)]
    rows += [r for r in rows if r["t"] == 2]
    f = an.fan(pl.DataFrame(rows), "objectives", "axis")
    last = f.filter(pl.col("t") == 2).row(0, named=True)
    assert (last["p10"], last["p50"], last["p90"]) == (7.0, 8.0, 9.0)


def test_crt_distributions_sum_to_one():
    for rs in ("ssa", "eto"):
        d = an.crt_distribution(rs)
        tot = d.group_by(["column", "drm"]).agg(pl.col("probability").sum())
        assert tot["probability"].to_list() == pytest.approx([1.0] * tot.height)
    e = an.crt_expectations("ssa")
    best = e.filter(pl.col("column") == "10-1").row(0, named=True)
    worst = e.filter(pl.col("column") == "1-4").row(0, named=True)
    assert best["defender_steps"] > worst["defender_steps"]
    assert best["attacker_steps"] < worst["attacker_steps"]


def test_crt_distribution_follows_overrides():
    import workbench as wb

    g = wb.load_scenario("ssa/valor-of-ignorance", overrides={"crt.rows.1": ["DZ"] * 13})
    d = an.crt_distribution("ssa", g.ruleset.tables)
    p = d.filter((pl.col("column") == "1-4") & (pl.col("result") == "DZ"))["probability"].sum()
    assert p == pytest.approx(1 / 6)
