"""Map builder: Natural Earth + authored sources -> the committed hex maps.

``python -m workbench.mapbuild [europe|north-america] [--out DIR] [--no-gpkg]``
rebuilds the maps under ``maps/``.  See ``docs/maps.md`` for every choice made.
"""

from __future__ import annotations

from pathlib import Path

from workbench.mapbuild.sources import MAPS_DIR

MAPS = ("europe", "north-america")


def build(name: str, out_root: Path = MAPS_DIR, gpkg: bool = True):
    """Build one map into ``out_root/<name>/`` (and ``out_root/<name>.gpkg``)."""
    if name == "europe":
        from workbench.mapbuild import europe as mod
    elif name == "north-america":
        from workbench.mapbuild import north_america as mod
    else:
        raise KeyError(f"unknown map {name!r}; known: {', '.join(MAPS)}")
    out_root = Path(out_root)
    return mod.build(out_root / name, out_root / f"{name}.gpkg" if gpkg else None)
