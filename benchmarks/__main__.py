"""Run every benchmark module and print its table."""

from __future__ import annotations

from benchmarks import bench_hexgrid


def main() -> None:
    bench_hexgrid.main()


if __name__ == "__main__":
    main()
