"""Run every benchmark module and print its table."""

from __future__ import annotations

from benchmarks import bench_batch, bench_eto_supply, bench_games, bench_hexgrid, bench_ui


def main() -> None:
    bench_hexgrid.main()
    bench_eto_supply.main([])
    bench_ui.main([])
    bench_batch.main([])
    bench_games.main([])


if __name__ == "__main__":
    main()
