"""ETO air war in a real browser: a ground-support mission flown by two clicks (ETO-17.0), and the
attack planner showing the bomber's strength (17.3) and the +1 air superiority DRM (17.2).

The position is reached the way a teacher prepares one: seeded bots play Barbarossa with its air
forces up to the German attacker's ground-support step (4A-B) in the kernel; the mission and the
planner are real clicks in JupyterLab."""

from __future__ import annotations

import pytest

from workbench.ui.labdriver import scenario_notebook

pytestmark = [pytest.mark.slow, pytest.mark.browser]

TO_GROUND_SUPPORT = """
from workbench.bots.heuristic import make_policy
st = game.new_state(seed=SEED)
pols = {s: make_policy('heuristic' if s == 'axis' else 'random', st.ruleset, s, SEED) for s in st.ruleset.sides}
def attackable(st):
    mine = [u.location for u in st.units_by_id.values() if u.side == 'axis' and u.props.get('in_offensive')]
    return [o for o in st.legal_orders_of('fly') if o['mission'] == 'ground_support'
            and any(st.map.distance(m, o['to']) == 1 for m in mine)]
from workbench.rulesets.eto.combat import current_mode
while not (st.decision.kind == 'ground-support' and st.decision.side == 'axis' and current_mode(st) == 'combat'
           and attackable(st)):
    st.apply(pols[st.decision.side].choose_in(st, st.decision.side))
bench.set_state(st)
o = attackable(st)[0]
uid, target = o['units'][0], o['to']
base = st.unit(uid).location
bench.map.centre_on([base, target])
print(uid, base, target)
"""


@pytest.fixture(scope="module")
def air_notebook(lab, lab_root, browser, shots):
    with scenario_notebook(browser, lab, lab_root, "eto-air.ipynb", "eto/barbarossa-1941") as nb:
        nb.shots = shots
        yield nb


def test_eto_ground_support_by_clicking_shows_the_air_drm_in_the_planner(air_notebook):
    nb = air_notebook
    page = nb.page
    uid, base, target = nb.kernel(TO_GROUND_SUPPORT).splitlines()[-1].split()
    page.wait_for_timeout(500)
    for _ in range(6):  # a click on the base selects one of its units; the next one walks the stack
        nb.click_hex(base)
        page.wait_for_timeout(300)
        if nb.kernel("print(bench.orders.selected)") == uid:
            break
    assert nb.kernel("print(bench.orders.selected)") == uid
    assert nb.kernel(f"print(bench.orders.reach['{target}']['mission'])") == "ground_support"
    nb.click_hex(target)  # the lit target hex: the bomber flies the mission
    nb.wait_message("done")
    # the Soviets may intercept it in every hex it enters within their fighters' range (14.1): they decline
    nb.kernel("""
while bench.state.decision.kind == 'air_intercept':
    bench.state.apply({'kind': 'pass'})
bench.set_state(bench.state)
""")
    assert nb.kernel(f"print(bench.state.unit('{uid}').location)") == target
    nb.kernel("""
while bench.state.decision.kind != 'designate':
    bench.state.advance()
bench.set_state(bench.state)
print(bench.state.decision.kind)
""")
    page.wait_for_timeout(500)
    nb.click_hex(target)  # an enemy stack while a designation is open: the planner's target
    page.locator(".wb-planner-result", has_text="ETO-17.2").wait_for(timeout=20_000)
    text = page.locator(".wb-planner-result").inner_text()
    assert "air superiority" in text and "ETO-17.3" in text
    nb.screenshot("eto-air-01-ground-support-in-the-planner")
