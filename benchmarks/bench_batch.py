"""Batch throughput: games per second per scenario with random and heuristic bots, and the
speed-up of the local process pool from 1 to 2 workers.

``python -m benchmarks.bench_batch [--games N] [--turns T] [--scenarios a,b]``.  Games are
seeded (SeedSequence), so figures compare like with like; ``--turns`` caps each game for a
quick run (the default plays whole games, which takes minutes on 2 cores).  The pool
speed-up plays whole short games (valor-of-ignorance) on a pool started once and reused.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from workbench.batch import Config, close_pools, run_batch
from workbench.engine.scenario import scenario_ids


def games_per_second(scenario: str, bots: tuple[str, str], games: int, turns: int | None,
                     workers: int = 0) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        run_batch(Config(scenario, bots, max_turns=turns), games, tmp, seed=1, workers=workers, progress=False)
        return games / (time.perf_counter() - t)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--scenarios", default=None)
    p.add_argument("--scaling-scenario", default="ssa/valor-of-ignorance")
    p.add_argument("--scaling-turns", type=int, default=None, help="turn cap of the pool games (default: whole)")
    args = p.parse_args(argv)
    sids = args.scenarios.split(",") if args.scenarios else scenario_ids()
    print(f"batch: games/s, {args.games} games each, turns capped at {args.turns} (in-process)")
    for sid in sids:
        for bots in (("random", "random"), ("heuristic", "heuristic")):
            gps = games_per_second(sid, bots, args.games, args.turns)
            print(f"  {sid:32s} {','.join(bots):20s} {gps:8.3f} games/s")
    n = max(8, args.games * 4)
    rate, start = {}, {}
    for w in (1, 2):  # the pool is started once (timed apart) and reused, as in a notebook session
        t = time.perf_counter()
        games_per_second(args.scaling_scenario, ("heuristic", "random"), 2, args.scaling_turns, workers=w)
        start[w] = time.perf_counter() - t
        rate[w] = games_per_second(args.scaling_scenario, ("heuristic", "random"), n, args.scaling_turns, workers=w)
    close_pools()
    print(f"  local pool {args.scaling_scenario}, {n} whole heuristic-vs-random games: "
          f"1 worker {rate[1]:.3f} games/s, 2 workers {rate[2]:.3f} games/s, speed-up {rate[2] / rate[1]:.2f}x "
          f"(pool start-up, once: {start[1]:.1f} s / {start[2]:.1f} s, first games included)")


if __name__ == "__main__":
    main()
