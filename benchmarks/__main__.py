"""Run every benchmark module and print its table."""

from __future__ import annotations

from benchmarks import (
    bench_batch,
    bench_bots,
    bench_eto_supply,
    bench_fuzz,
    bench_games,
    bench_hexgrid,
    bench_lookahead,
    bench_naval,
    bench_page,
    bench_strength,
    bench_ui,
)


def main() -> None:
    bench_hexgrid.main()
    bench_eto_supply.main([])
    bench_naval.main([])
    bench_ui.main(["--no-browser"])  # the page figures: bench_page
    bench_page.main(["--repeat", "2", "--load", "ssa/1941,eto/barbarossa-1941"])
    bench_batch.main([])
    bench_games.main([])
    bench_bots.main([])  # whole heuristic games against the figures before the speed-up
    bench_fuzz.main(["--orders", "200"])
    bench_strength.main(["--games", "4"])
    bench_lookahead.main(["--games", "2"])  # lookahead vs heuristic, paired (docs/bots.md)


if __name__ == "__main__":
    main()
