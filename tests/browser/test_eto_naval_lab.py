"""ETO war at sea in a real browser: a battleship of the Mediterranean Fleet selected by a click on
Alexandria and sailed by a click on the open sea of the Eastern Mediterranean (ETO-7.0, 7.2)."""

from __future__ import annotations

import pytest

from workbench.ui.labdriver import scenario_notebook

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
bench.map.centre_on([alex, sea])
print(alex, sea)
"""


@pytest.fixture(scope="module")
def naval_notebook(lab, lab_root, browser, shots):
    with scenario_notebook(browser, lab, lab_root, "eto-naval.ipynb", "eto/mediterranean-1941") as nb:
        nb.shots = shots
        yield nb


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
