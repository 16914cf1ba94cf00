"""Paired strength bars (issue 25): for each scenario and side, the heuristic bot against a
random opponent beside random play against the same random opponent, on common seeds.

``python -m benchmarks.bench_strength [--games N] [--scenarios a,b] [--out DIR]``.  Each pair is
one game index: the same game seed and the same seed for the opponent's random policy, so the
only difference is the side's own policy.  A pair counts when the heuristic side ends strictly
better: the result level first, then VP, then the contest margin (``analysis.side_outcome``).
The bar is 80% of pairs.  ``make bench`` runs a small N; docs/bots.md has the full table.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from workbench.analysis import strength_pairs
from workbench.batch import Config, run_batch
from workbench.engine.scenario import scenario_ids

BAR = 0.80


def measure(scenario: str, side: str, games: int, out: str, seed: int = 7, workers: int | None = 0,
            turns: int | None = None) -> dict:
    """Play the two configurations of one row and compare them pair by pair."""
    bot = ("heuristic", "random") if side == "axis" else ("random", "heuristic")
    cfgs = [Config(scenario, bot, name=f"{side}-heuristic", max_turns=turns),
            Config(scenario, ("random", "random"), name=f"{side}-baseline", max_turns=turns)]
    t = time.perf_counter()
    df = run_batch(cfgs, games, out, seed=seed, workers=workers, progress=False)
    row = strength_pairs(df, f"{side}-heuristic", f"{side}-baseline", side)
    return {"scenario": scenario, **row, "seconds": time.perf_counter() - t}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--scenarios", default="ssa/valor-of-ignorance,eto/battle-of-britain-1940")
    p.add_argument("--out", default=None, help="keep the results here (default: a temporary folder)")
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--turns", type=int, default=None)
    args = p.parse_args(argv)
    sids = scenario_ids() if args.scenarios == "all" else args.scenarios.split(",")
    print(f"strength bars: heuristic vs random beside random vs random, {args.games} paired games, bar {BAR:.0%}")
    for sid in sids:
        for side in ("axis", "allies"):
            if args.out:
                r = measure(sid, side, args.games, f"{args.out}/{sid.replace('/', '_')}-{side}",
                            workers=args.workers, turns=args.turns)
            else:
                with tempfile.TemporaryDirectory() as tmp:
                    r = measure(sid, side, args.games, tmp, workers=args.workers, turns=args.turns)
            mark = "meets" if r["lo"] >= BAR else "below" if r["hi"] < BAR else "open"
            print(f"  {sid:30s} {side:7s} {r['better']:3d}/{r['pairs']:<3d} = {r['rate']:5.0%} "
                  f"[{r['lo']:.0%}, {r['hi']:.0%}] {mark:5s}  margin {r['margin_difference']:+7.1f} "
                  f"[{r['margin_lo']:+.1f}, {r['margin_hi']:+.1f}]  {r['seconds']:6.1f} s")


if __name__ == "__main__":
    main()
