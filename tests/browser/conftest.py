"""Browser-test fixtures: JupyterLab on a free loopback port, Debian Chromium through Playwright.

* The lab (``workbench.ui.labdriver.JupyterLab``) runs in a temporary root with its own
  config, runtime, settings and workspaces directories (no news toast, no update check); it is
  started once per session and killed at the end (its kernels first).
* Playwright drives ``/usr/bin/chromium`` (never ``playwright install``) with the flags from
  ``../shared/notes/jupyter-stack.md``.
* ``lab_notebook`` copies the start notebook into the lab root, pointed at a small SS Amerika
  scenario on the test map (so clicks land on known hexes), opens it and runs all cells.
  ``WORKBENCH_SHOTS=<dir>`` keeps the screenshots.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from workbench.ui.labdriver import CHROMIUM, JupyterLab, launch_chromium, open_notebook
from workbench.ui.notebook import DONE_MARK

#: The browser-test position: German infantry around a US division, a convoy supplying them.
UNITS = [
    {"id": "GE-0404", "nation": "GE", "type": "infantry_division", "at": "0404"},
    {"id": "GE-0405", "nation": "GE", "type": "infantry_division", "at": "0405"},
    {"id": "GE-0506", "nation": "GE", "type": "infantry_division", "at": "0506"},
    {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"},
    {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0505"},
    {"id": "US-arm", "nation": "US", "type": "armor_division", "at": "1105"},
]


def _skip_without_browser() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (.ci/run installs it)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:  # pragma: no cover
        pytest.skip("playwright is not installed")


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory, ssa_map_dir) -> Path:
    from ssa_kit import scenario_text

    from workbench.ui.notebook import write

    root = tmp_path_factory.mktemp("lab")
    scen = root / "browser-test.toml"
    scen.write_text(scenario_text(ssa_map_dir, UNITS).replace('id = "test/ssa"', 'id = "test/browser"'))
    write(root / "00-start-here.ipynb", scenario=str(scen))
    write(root / "default-start-here.ipynb")  # the start notebook as shipped
    return root


@pytest.fixture(scope="session")
def lab(lab_root, tmp_path_factory):
    """A running JupyterLab: yields its base URL; kills it (and its kernels) afterwards."""
    _skip_without_browser()
    with JupyterLab(lab_root, tmp_path_factory.mktemp("jupyter")) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    _skip_without_browser()
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    b = launch_chromium(pw)
    try:
        yield b
    finally:
        b.close()
        pw.stop()


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> Path:
    path = Path(os.environ.get("WORKBENCH_SHOTS") or tmp_path_factory.mktemp("shots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def lab_notebook(lab, browser, shots):
    ctx = browser.new_context(viewport={"width": 1500, "height": 1200})
    page = ctx.new_page()
    t0 = time.perf_counter()
    nb = open_notebook(page, lab, "00-start-here.ipynb", done_text=DONE_MARK)
    page.locator(".wb-map canvas").first.wait_for(timeout=60_000)
    nb.wait_fitted()  # the map sized to the window: clicks land where the page draws
    nb.shots = shots
    nb.timings = {"open_and_run_all": time.perf_counter() - t0}
    try:
        yield nb
    finally:
        ctx.close()
