"""ETO in a real browser: the Barbarossa start notebook in JupyterLab, driven by Chromium.

The ETO half gets what SS Amerika has, through the ruleset face: the attack planner's exact
odds and expected losses for a designation (ETO-26.1), the control, supply and ZOC overlays,
and charts that fill with EPs, losses and VP after a bot turn.  The position is reached the way
a teacher prepares one: the heuristic Axis plays Barbarossa's first moves in the kernel up to
its first designation (4A-C); everything after that is real clicks.
"""

from __future__ import annotations

import time

import pytest

from workbench.ui.labdriver import open_notebook
from workbench.ui.notebook import DONE_MARK, write

pytestmark = [pytest.mark.slow, pytest.mark.browser]

TO_DESIGNATE = """
from workbench.bots.heuristic import make_policy
st = game.new_state(seed=SEED)
pols = {s: make_policy('heuristic' if s == 'axis' else 'random', st.ruleset, s, SEED) for s in st.ruleset.sides}
while st.decision.kind != 'designate':
    st.apply(pols[st.decision.side].choose_in(st, st.decision.side))
bench.set_state(st)
target = st.legal_orders_of('designate')[0]['target']
x, y = bench.map.xy(target)
w = bench.map.fig.x_range.end - bench.map.fig.x_range.start
h = bench.map.fig.y_range.end - bench.map.fig.y_range.start
bench.map.fig.x_range.start, bench.map.fig.x_range.end = x - w / 2, x + w / 2
bench.map.fig.y_range.start, bench.map.fig.y_range.end = y - h / 2, y + h / 2
print(target)
"""


@pytest.fixture(scope="module")
def eto_notebook(lab, lab_root, browser, shots):
    write(lab_root / "eto-barbarossa.ipynb", scenario="eto/barbarossa-1941")
    ctx = browser.new_context(viewport={"width": 1500, "height": 1200})
    t0 = time.perf_counter()
    nb = open_notebook(ctx.new_page(), lab, "eto-barbarossa.ipynb", done_text=DONE_MARK)
    nb.page.locator(".wb-map canvas").first.wait_for(timeout=60_000)
    nb.wait_fitted()
    nb.shots = shots
    nb.timings = {"open_and_run_all": time.perf_counter() - t0}
    try:
        yield nb
    finally:
        ctx.close()


def test_eto_planner_shows_exact_odds_and_expected_losses(eto_notebook):
    nb = eto_notebook
    page = nb.page
    target = nb.kernel(TO_DESIGNATE).splitlines()[-1]
    assert nb.kernel("print(bench.state.decision.kind, bench.state.decision.side)") == "designate axis"
    page.wait_for_timeout(500)
    nb.click_hex(target)  # an enemy stack while a designation is open: the planner's target
    page.locator(".wb-planner-result", has_text="final column").wait_for(timeout=20_000)
    text = page.locator(".wb-planner-result").inner_text()
    assert "ETO-26.1" in text and "/6" in text and "Expected step losses" in text and "ETO-26.2" in text
    column = nb.kernel("a = bench.planner.assess(); print(a.column, sum(a.distribution.values()))")
    assert column.endswith(" 1") and column.split()[0] in text
    page.locator(".wb-planner-result").scroll_into_view_if_needed()
    nb.screenshot("eto-01-planner")
    page.get_by_role("button", name="Commit attack").click()
    nb.wait_message("Attack committed")
    assert nb.kernel("print(bench.state.markers['designations'][0]['target'])") == target


def test_eto_overlays_show_control_supply_and_zoc(eto_notebook):
    nb = eto_notebook
    page = nb.page
    for label in ("control", "enemy ZOC", "out of supply"):
        box = page.locator(".widget-checkbox", has_text=label).first.locator("input")
        box.scroll_into_view_if_needed()  # JupyterLab skips painting cells out of view
        if not box.is_checked():
            box.click(timeout=90_000)  # the previous overlay may still be drawing on a loaded box
    page.wait_for_timeout(800)
    shown = nb.kjson("{n: len(bench.map.overlay_hexes(n)) for n in ('control', 'zoc')}")
    assert shown["control"] > 1000 and shown["zoc"] > 50
    assert nb.kjson("bench.overlay_on")["supply"] is True
    nb.screenshot("eto-02-overlays")


def test_eto_charts_fill_after_a_bot_turn(eto_notebook):
    nb = eto_notebook
    page = nb.page
    before = nb.kernel("print(bench.state.turn_label)")
    page.get_by_role("button", name="Bot: end of turn").click()
    for _ in range(240):
        page.wait_for_timeout(500)
        if nb.kernel("print(bench.state.turn_label)") != before:
            break
    assert nb.kernel("print(bench.state.turn_label)") != before
    page.locator(".lm-TabBar-tab", has_text="Charts").first.click()
    for _ in range(60):
        if nb.kernel("print(bench.charts.charts is not None and not bench.charts.dirty)") == "True":
            break
        page.wait_for_timeout(500)
    page.wait_for_timeout(1500)
    series = nb.kjson("{k: list(v.data['name']) for k, v in bench.charts.charts.sources.items() if 'name' in v.data}")
    assert "GE eps" in series["economy"] and "SU eps" in series["economy"]
    assert series["vp"] == ["axis vp"] and set(series["objectives"]) == {"axis", "allies"}
    losses = nb.kjson("list(bench.charts.charts.sources['losses'].data['x'])")
    assert losses, "a bot turn of Barbarossa with combat leaves losses to chart"
    assert nb.kjson("[n.text for n in bench.charts.charts.notes.values()]") == ["", "", "", ""]
    page.locator(".lm-TabBar-tab", has_text="Charts").first.scroll_into_view_if_needed()
    nb.screenshot("eto-03-charts")
