"""A rebuild from maps/sources/ reproduces the committed maps exactly."""

from __future__ import annotations

import json

import polars as pl
import pytest

from workbench.map import MAPS_DIR
from workbench.mapbuild import MAPS, build


@pytest.mark.slow
@pytest.mark.parametrize("name", MAPS)
def test_rebuild_reproduces_committed_map(name, tmp_path):
    build(name, tmp_path, gpkg=False)
    for part in ("hexes", "sides", "places"):
        new = pl.read_parquet(tmp_path / name / f"{part}.parquet")
        old = pl.read_parquet(MAPS_DIR / name / f"{part}.parquet")
        assert new.schema == old.schema, part
        assert new.equals(old), part
    new_meta = json.loads((tmp_path / name / "meta.json").read_text())
    old_meta = json.loads((MAPS_DIR / name / "meta.json").read_text())
    assert new_meta == old_meta
    assert (tmp_path / name / "meta.json").read_bytes() == (MAPS_DIR / name / "meta.json").read_bytes()
