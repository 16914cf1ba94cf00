"""The workbench's layout on a laptop and on a desktop screen (issue 26.6).

At 1366x768 the 860x600 map and the panels under it did not fit: the planner and the log were a
page below the map.  The page now reports the room it has, the kernel fits the map to it, and
the orders, the attack planner and the log sit in a column beside the map, as tall as the map.
One JupyterLab page is resized between the two screens (the map follows the window).
"""

from __future__ import annotations

import pytest

from workbench.ui.labdriver import open_notebook
from workbench.ui.notebook import DONE_MARK

pytestmark = [pytest.mark.slow, pytest.mark.browser]

SCREENS = ((1366, 768), (1920, 1080))


def inside(box: dict, w: int, h: int) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= w + 1 and box["y"] + box["height"] <= h + 1


@pytest.fixture(scope="module")
def small_screen_notebook(lab, browser, shots):
    w, h = SCREENS[0]
    ctx = browser.new_context(viewport={"width": w, "height": h})
    nb = open_notebook(ctx.new_page(), lab, "00-start-here.ipynb", done_text=DONE_MARK)
    nb.page.locator(".wb-map canvas").first.wait_for(timeout=60_000)
    nb.shots = shots
    try:
        yield nb
    finally:
        ctx.close()


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_map_and_the_planner_or_the_log_are_on_screen_together(small_screen_notebook, screen):
    nb = small_screen_notebook
    page = nb.page
    w, h = screen
    page.set_viewport_size({"width": w, "height": h})
    got = nb.wait_fitted(h)
    nb.scroll_to_top(".wb-map")
    canvas = page.locator(".wb-map canvas").first.bounding_box()
    assert inside(canvas, w, h), (canvas, got)
    for tab, panel in (("Attack planner", ".wb-planner"), ("Log", ".wb-log")):
        page.locator(".wb-side-tabs .lm-TabBar-tab", has_text=tab).first.click()
        page.locator(panel).first.wait_for(state="visible", timeout=20_000)
        page.wait_for_timeout(300)
        box = page.locator(panel).first.bounding_box()
        assert box["x"] >= canvas["x"] + canvas["width"] - 1, f"{tab} is not beside the map"
        top = {**box, "height": min(box["height"], 150)}  # its first lines at least
        assert inside(top, w, h), (tab, box, canvas)
        assert inside(page.locator(".wb-map canvas").first.bounding_box(), w, h)  # the map did not move
    # nothing is cut off: the buttons of the orders column show their whole text
    page.locator(".wb-side-tabs .lm-TabBar-tab", has_text="Orders").first.click()
    page.wait_for_timeout(300)
    cut = page.evaluate("""() => [...document.querySelectorAll('.wb-right button')]
        .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)""")
    assert cut == []
    # the static map (for nbconvert) hides itself where the live workbench runs
    assert page.locator(".wb-static").count() == 1 and not page.locator(".wb-static").first.is_visible()
    page.screenshot(path=str(nb.shots / f"layout-{w}x{h}.png"))


def test_log_rows_are_one_line_each(small_screen_notebook):
    """Issue 26.10: every log row is one line, however long its text."""
    nb = small_screen_notebook
    page = nb.page
    page.get_by_role("button", name="Bot: end of step").first.click()
    nb.wait_message("")
    page.locator(".wb-side-tabs .lm-TabBar-tab", has_text="Log").first.click()
    page.locator(".wb-log-table tr").nth(2).wait_for(timeout=20_000)
    heights = page.evaluate("() => [...document.querySelectorAll('.wb-log-table tr')].map(r => r.getBoundingClientRect().height)")
    assert len(heights) > 3 and max(heights) <= min(heights) + 2, heights
