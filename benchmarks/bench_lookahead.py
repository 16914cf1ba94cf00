"""The lookahead bar (issue 25 item 3): the lookahead bot against the heuristic bot, paired on
common seeds, on both sides of each scenario.

``python -m benchmarks.bench_lookahead [--games N] [--scenarios a,b] [--out DIR]``.  For each
scenario and side two configurations are played on the same games (same game seed, same seed
for the opponent's heuristic bot and for the side's own bot): the side's lookahead bot against
the heuristic opponent, and the heuristic bot in its place.  A pair counts when the lookahead
side ends strictly better (the result level first, then VP, then the contest margin:
``analysis.side_outcome``).  The bar is 60 % of pairs.  ``make bench`` runs a small N;
docs/bots.md has the figures.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from workbench.analysis import side_outcome, strength_pairs
from workbench.batch import Config, run_batch

BAR = 0.60


def measure(scenario: str, side: str, games: int, out: str, seed: int = 7, workers: int | None = 0,
            turns: int | None = None) -> dict:
    """Play the two configurations of one row and compare them pair by pair."""
    bots = ("lookahead", "heuristic") if side == "axis" else ("heuristic", "lookahead")
    cfgs = [Config(scenario, bots, name=f"{side}-lookahead", max_turns=turns),
            Config(scenario, ("heuristic", "heuristic"), name=f"{side}-heuristic", max_turns=turns)]
    t = time.perf_counter()
    df = run_batch(cfgs, games, out, seed=seed, workers=workers, progress=False)
    row = strength_pairs(df, f"{side}-lookahead", f"{side}-heuristic", side)
    rows = {c: {r["game"]: r for r in df.filter(df["config"] == c).iter_rows(named=True)}
            for c in (f"{side}-lookahead", f"{side}-heuristic")}
    a, b = rows[f"{side}-lookahead"], rows[f"{side}-heuristic"]
    common = sorted(set(a) & set(b))
    row["ties"] = sum(side_outcome(a[g], side) == side_outcome(b[g], side) for g in common)
    row["worse"] = row["pairs"] - row["better"] - row["ties"]
    row["errors"] = int(sum(r["bot_errors"] for r in a.values()))
    return {"scenario": scenario, **row, "seconds": time.perf_counter() - t}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--scenarios", default="ssa/valor-of-ignorance")
    p.add_argument("--sides", default="axis,allies")
    p.add_argument("--out", default=None, help="keep the results here (default: a temporary folder)")
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--turns", type=int, default=None)
    args = p.parse_args(argv)
    print(f"lookahead bar: lookahead vs heuristic beside heuristic vs heuristic, {args.games} paired games, "
          f"bar {BAR:.0%}")
    for sid in args.scenarios.split(","):
        for side in args.sides.split(","):
            if args.out:
                r = measure(sid, side, args.games, f"{args.out}/{sid.replace('/', '_')}-{side}", seed=args.seed,
                            workers=args.workers, turns=args.turns)
            else:
                with tempfile.TemporaryDirectory() as tmp:
                    r = measure(sid, side, args.games, tmp, seed=args.seed, workers=args.workers, turns=args.turns)
            mark = "meets" if r["lo"] >= BAR else "below" if r["hi"] < BAR else "open"
            print(f"  {sid:28s} {side:7s} better {r['better']:3d} tie {r['ties']:3d} worse {r['worse']:3d} "
                  f"of {r['pairs']:<3d} = {r['rate']:5.0%} [{r['lo']:.0%}, {r['hi']:.0%}] {mark:5s}  "
                  f"margin {r['margin_difference']:+7.1f} [{r['margin_lo']:+.1f}, {r['margin_hi']:+.1f}]  "
                  f"errors {r['errors']}  {r['seconds']:6.1f} s", flush=True)


if __name__ == "__main__":
    main()
