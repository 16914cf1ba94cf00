"""``python -m workbench.mapbuild``: rebuild both maps (or the ones named)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from workbench.mapbuild import MAPS, build
from workbench.mapbuild.sources import MAPS_DIR


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m workbench.mapbuild", description=__doc__)
    ap.add_argument("maps", nargs="*", metavar="MAP",
                    help=f"maps to build (default: all of {', '.join(MAPS)})")
    ap.add_argument("--out", type=Path, default=MAPS_DIR, help="output root (default maps/)")
    ap.add_argument("--no-gpkg", action="store_true", help="skip the GeoPackage export")
    ap.add_argument("-v", "--verbose", action="store_true", help="print place adjustments")
    args = ap.parse_args(argv)
    unknown = [m for m in args.maps if m not in MAPS]
    if unknown:
        ap.error(f"unknown map(s) {', '.join(unknown)}; choose from {', '.join(MAPS)}")
    for name in args.maps or MAPS:
        t0 = time.perf_counter()
        b = build(name, args.out, gpkg=not args.no_gpkg)
        dt = time.perf_counter() - t0
        print(f"{name}: {b.grid.cols}x{b.grid.rows} = {b.grid.size} hexes, "
              f"{len(set(b.side_rows))} hexside features, "
              f"{sum(p.hex >= 0 for p in b.places)} places in {dt:.1f} s")
        if args.verbose:
            for line in b.log:
                print("   ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
