"""ETO war at sea in a real browser: a battleship of the Mediterranean Fleet selected by a click on
Alexandria and sailed by a click on the open sea of the Eastern Mediterranean (ETO-7.0, 7.2)."""

from __future__ import annotations

import pytest

from workbench.ui.labdriver import open_notebook
from workbench.ui.notebook import DONE_MARK, write

pytestmark = [pytest.mark.slow, pytest.mark.browser]

TO_NAVAL_STEP = """
st = game.new_state(seed=SEED)
for _ in range(40):
    d = st.decision
    if d.kind == 'naval-air/sides/first-naval-movement' and d.side == 'allies':
        break
    st.apply({'kind': 'choose_first', 'side': 'allies'} if 'choose_first' in d.kinds else {'kind': 'end_step'})
bench.set_state(st)
alex = st.map.hex_of('Alexandria')
hm = st.map
cands = [hm.label(i) for i in range(hm.size) if bench.map.sea_area_at(hm.label(i)) == 'Eastern Mediterranean'
         and not st.units_at(hm.label(i))]
sea = min(cands, key=lambda h: hm.distance(h, alex))
xs = [bench.map.xy(h) for h in (alex, sea)]
x, y = sum(p[0] for p in xs) / 2, sum(p[1] for p in xs) / 2
w = bench.map.fig.x_range.end - bench.map.fig.x_range.start
h = bench.map.fig.y_range.end - bench.map.fig.y_range.start
bench.map.fig.x_range.start, bench.map.fig.x_range.end = x - w / 2, x + w / 2
bench.map.fig.y_range.start, bench.map.fig.y_range.end = y - h / 2, y + h / 2
print(alex, sea)
"""


@pytest.fixture(scope="module")
def naval_notebook(lab, lab_root, browser, shots):
    write(lab_root / "eto-naval.ipynb", scenario="eto/mediterranean-1941")
    ctx = browser.new_context(viewport={"width": 1500, "height": 1200})
    nb = open_notebook(ctx.new_page(), lab, "eto-naval.ipynb", done_text=DONE_MARK)
    nb.page.locator(".wb-map canvas").first.wait_for(timeout=60_000)
    nb.wait_fitted()
    nb.shots = shots
    try:
        yield nb
    finally:
        ctx.close()


def test_eto_a_fleet_sails_by_clicking(naval_notebook):
    nb = naval_notebook
    page = nb.page
    alex, sea = nb.kernel(TO_NAVAL_STEP).splitlines()[-1].split()
    page.wait_for_timeout(500)
    for _ in range(8):  # a click on the port selects one of its units; the next one walks the stack
        nb.click_hex(alex)
        page.wait_for_timeout(300)
        if nb.kernel("print(bench.orders.selected)") == "UK-BB1":
            break
    assert nb.kernel("print(bench.orders.selected)") == "UK-BB1"
    assert nb.kernel("print('Eastern Mediterranean' in bench.orders.reach)") == "True"
    nb.click_hex(sea)  # open sea: the Eastern Mediterranean space
    nb.wait_message("done")
    assert nb.kernel("print(bench.state.unit('UK-BB1').location)") == "Eastern Mediterranean"
    assert nb.kernel("print(bench.state.orders[-1]['kind'])") == "sail"
