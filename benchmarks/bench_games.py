"""Seconds per game and games per second for every shipped scenario, random and heuristic bots.

``python -m benchmarks.bench_games [--games N] [--turns T] [--whole-upto W] [--full] [--scenarios a,b]``.

Each game is seeded and played in-process with :func:`workbench.bots.play` (no files
written), so the figure is the game kernel and the bots alone.  By default scenarios of
up to ``--whole-upto`` turns (valor-of-ignorance) are played whole and the longer, slower
ones are capped at ``--turns`` turns so ``make bench`` stays short; the output marks those
rows "capped".  ``--full`` plays every game to its end (minutes on 2 cores).  Both wall and CPU time are printed:
on a busy box CPU seconds compare runs more fairly.
"""

from __future__ import annotations

import argparse
import time

from workbench.bots import play
from workbench.bots.heuristic import make_policy
from workbench.engine import load_scenario
from workbench.engine.scenario import scenario_ids

BOTS = (("random", "random"), ("heuristic", "random"))  # heuristic,heuristic: see bench_batch


def time_games(scenario: str, bots: tuple[str, str], games: int, turns: int | None) -> tuple[float, float, int]:
    """Mean wall and CPU seconds per game, and orders played in all, over ``games`` seeded games."""
    game = load_scenario(scenario)
    sides = game.ruleset.sides
    wall = cpu = 0.0
    orders = 0
    for seed in range(1, games + 1):
        state = game.new_state(seed=seed)
        pols = {sides[0]: make_policy(bots[0], game.ruleset.name, sides[0], seed + 100),
                sides[1]: make_policy(bots[1], game.ruleset.name, sides[1], seed + 200)}
        t, c = time.perf_counter(), time.process_time()
        play(state, pols, until_turn=turns)
        wall += time.perf_counter() - t
        cpu += time.process_time() - c
        orders += len(state.orders)
    return wall / games, cpu / games, orders


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--turns", type=int, default=2, help="turn cap for the long scenarios (default 2)")
    p.add_argument("--whole-upto", type=int, default=5, help="play scenarios this short whole (default 5)")
    p.add_argument("--full", action="store_true", help="play every game to its end")
    p.add_argument("--scenarios", default=None)
    args = p.parse_args(argv)
    sids = args.scenarios.split(",") if args.scenarios else scenario_ids()
    print(f"games: seconds per game, {args.games} seeded game(s) each, in-process"
          + ("" if args.full else f"; scenarios longer than {args.whole_upto} turns capped at {args.turns} turns"))
    for sid in sids:
        length = len(load_scenario(sid).calendar)
        turns = None if args.full or length <= args.whole_upto else args.turns
        label = f"{sid} ({'whole game' if turns is None else f'capped {turns}/{length} turns'})"
        for bots in BOTS:
            wall, cpu, orders = time_games(sid, bots, args.games, turns)
            print(f"  {label:50s} {','.join(bots):20s} {wall:8.2f} s/game  {cpu:8.2f} cpu s/game  "
                  f"{1 / wall:7.3f} games/s  {orders / args.games:6.0f} orders/game")


if __name__ == "__main__":
    main()
