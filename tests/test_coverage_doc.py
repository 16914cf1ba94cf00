"""docs/rules-coverage.md is generated: it must equal what docs/coverage/build.py makes from
the inventories and the row files, so an edit to the generated file alone cannot drift."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_rules_coverage_is_generated_from_its_row_files():
    if not (ROOT.parent / "shared/rulebooks/eto-inventory.md").exists():
        pytest.skip("the rule inventories (../shared/rulebooks) are not beside this checkout")
    spec = importlib.util.spec_from_file_location("coverage_build", ROOT / "docs/coverage/build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert (ROOT / "docs/rules-coverage.md").read_text() == build.render(), (
        "edit the row files (docs/coverage/*.md, docs/rules-coverage-*.md), then run "
        ".venv/bin/python docs/coverage/build.py")
