"""The teacher's path through the workbench, on both games, with real clicks (issue 26, "done when").

Load the scenario, move a unit, attack with the odds shown, undo, fork, compare the branches,
annotate, export the page, and reopen the exported page offline (``file://``, every network
request refused) with the notes in it and a move list that steps the map.  SS Amerika runs on
the small test map; ETO on Barbarossa, with a German stack offensive (22.3) that moves and
attacks.  The kernel is asked only where the eye would look (where is the unit now, which hex is
a legal destination); every action is a click in the page.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import numpy as np
import pytest

from workbench.ui.labdriver import open_notebook
from workbench.ui.notebook import DONE_MARK, write
from workbench.ui.orders import describe

pytestmark = [pytest.mark.slow, pytest.mark.browser]

NOTE = "the key move: watch the flank"


def pixels(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def terrain_pixels(png: bytes) -> int:
    img = pixels(png)
    clear = (np.abs(img - np.array([0xE8, 0xE4, 0xC9])).sum(axis=2) < 40).sum()
    return int(clear)


@pytest.fixture
def teacher(lab, lab_root, browser, shots):
    """``teacher(scenario)`` opens a fresh start notebook on ``scenario`` (None: the browser-test
    scenario) in a 1500x1000 window and returns the driven notebook."""
    contexts = []

    def open_(name: str, scenario: str) -> object:
        write(lab_root / name, scenario=scenario)
        ctx = browser.new_context(viewport={"width": 1500, "height": 1000})
        contexts.append(ctx)
        nb = open_notebook(ctx.new_page(), lab, name, done_text=DONE_MARK)
        nb.page.locator(".wb-map canvas").first.wait_for(timeout=60_000)
        nb.wait_fitted()
        nb.shots = shots
        return nb

    yield open_
    for ctx in contexts:
        ctx.close()


# -- steps shared by both games ------------------------------------------------------------------

def side_tab(nb, title: str) -> None:
    nb.page.locator(".wb-side-tabs .lm-TabBar-tab", has_text=title).first.click()
    nb.page.wait_for_timeout(300)


def bottom_tab(nb, title: str) -> None:
    nb.page.locator(".wb-workbench .lm-TabBar-tab", has_text=title).first.click()
    nb.page.wait_for_timeout(300)


def focus(nb, *hexes: str) -> None:
    """Frame the map on ``hexes`` (what a teacher does with pan and zoom before the class)."""
    nb.kernel(f"bench.map.set_focus({list(hexes)!r})")
    nb.page.wait_for_timeout(600)
    nb.scroll_to_top(".wb-map")


def advance_until(nb, test: str, limit: int = 12) -> None:
    """Click 'Advance / pass' until the kernel's decision satisfies ``test`` (Python, on ``d``)."""
    side_tab(nb, "Orders")
    for _ in range(limit):
        if nb.kernel(f"d = bench.state.decision; print(bool({test}))") == "True":
            return
        before = nb.kernel("print(len(bench.state.log))")
        if nb.kernel("print('choose_first' in bench.state.decision.kinds)") == "True":
            nb.page.locator(".wb-apply-choose_first").click()  # who goes first: the first choice
        else:
            nb.page.get_by_role("button", name="Advance / pass").click()
        for _ in range(40):
            if nb.kernel("print(len(bench.state.log))") != before:
                break
            nb.page.wait_for_timeout(250)
    raise AssertionError(f"never reached {test}: {nb.kernel('print(bench.state.decision)')}")


def click_move(nb, unit: str, dest: str) -> None:
    at = nb.kernel(f"print(bench.state.unit({unit!r}).location)")
    for _ in range(6):  # a click on a stack selects its units in turn
        nb.click_hex(at)
        nb.wait_message("selected")
        if nb.kernel("print(bench.orders.selected)") == unit:
            break
    assert nb.kernel("print(bench.orders.selected)") == unit
    nb.click_hex(dest)
    nb.wait_message("done")
    assert nb.kernel(f"print(bench.state.unit({unit!r}).location)") == dest


def undo(nb, unit: str, back_to: str) -> None:
    bottom_tab(nb, "Undo, fork & replay")
    nb.page.get_by_role("button", name="Undo").click()
    nb.wait_message("Undone")
    assert nb.kernel(f"print(bench.state.unit({unit!r}).location)") == back_to


def annotate(nb) -> int:
    side_tab(nb, "Log")
    nb.page.locator(".wb-log-note textarea").fill(NOTE)
    nb.page.locator(".wb-log-note button", has_text="!").first.click()
    nb.page.get_by_role("button", name="Annotate").click()
    text = nb.wait_message("annotated")
    n = int(nb.kernel("print(len(bench.state.orders))"))
    assert f"Order #{n} annotated" in text
    assert NOTE in nb.page.locator(".wb-annotations").inner_text()
    return n


def planner_attack(nb, target: str, rule: str, committed: str) -> None:
    nb.click_hex(target)  # an enemy stack while an attack is open: the planner's target
    res = nb.page.locator(".wb-planner-result", has_text="final column")
    res.wait_for(timeout=20_000)
    text = res.inner_text()
    assert "/6" in text and rule in text and "Expected step losses" in text  # the odds, exactly
    nb.screenshot(f"teacher-{rule}-planner")
    nb.page.get_by_role("button", name="Commit attack").click()
    nb.wait_message(committed)


def fork_and_compare(nb) -> None:
    bottom_tab(nb, "Undo, fork & replay")
    nb.page.get_by_placeholder("branch name").fill("what-if")
    nb.page.get_by_role("button", name="Fork here").click()
    nb.wait_message("Forked 'what-if'")
    nb.page.get_by_role("button", name="Side by side").click()
    info = nb.page.locator(".wb-compare-info", has_text="split")
    info.wait_for(timeout=20_000)
    assert "A = live 'main'" in info.inner_text() and "B = 'what-if'" in info.inner_text()
    maps = nb.page.locator(".wb-compare-maps canvas")
    maps.first.wait_for(timeout=20_000)
    nb.page.wait_for_timeout(1000)
    boxes = [maps.nth(i).bounding_box() for i in range(maps.count())]
    lefts = sorted({round(b["x"]) for b in boxes if b and b["width"] > 150})
    assert len(lefts) >= 2 and lefts[-1] - lefts[0] > 150, boxes  # A and B side by side
    drawn = nb.kjson("[len(v.hex_source.data['q']) for v in (bench.history.compare_live_view, "
                     "bench.history.compare_view)]")
    assert all(drawn), drawn  # both maps have their terrain (big maps send the hexes in view)


def export(nb, path: Path) -> Path:
    bottom_tab(nb, "Undo, fork & replay")
    box = nb.page.get_by_placeholder("out/my-game")
    box.fill(str(path.with_suffix("")))
    box.press("Tab")
    nb.page.get_by_role("button", name="Export page").click()
    nb.wait_message("Exported", timeout=120_000)
    assert path.exists()
    return path


def reopen_offline(browser, page_path: Path, shots: Path, name: str, expect: dict) -> None:
    """Open the exported page from disk with the network cut: the notes are there, the map is
    drawn, and a click on the first move of the list shows the starting position."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 1400}, offline=True)
    asked: list[str] = []
    ctx.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
              else (asked.append(route.request.url), route.abort()))
    try:
        page = ctx.new_page()
        page.goto(page_path.as_uri())
        page.get_by_text(NOTE).first.wait_for(timeout=60_000)
        canvas = page.locator("canvas").first
        for _ in range(40):
            if terrain_pixels(canvas.screenshot()) > 5_000:
                break
            page.wait_for_timeout(250)
        assert terrain_pixels(canvas.screenshot()) > 5_000, "the exported map was not drawn offline"
        counters = "() => Bokeh.documents[0].get_model_by_name('counters').data_source.data.hex.slice()"
        now = sorted(page.evaluate(counters))
        assert now == sorted(expect["final"])
        page.locator(".slick-row", has_text="start").first.click()
        page.locator("text=The start").first.wait_for(timeout=10_000)
        assert sorted(page.evaluate(counters)) == sorted(expect["start"])
        page.screenshot(path=str(shots / f"{name}-export-offline.png"), full_page=True)
        assert not [u for u in asked if not u.startswith(("data:", "blob:", "about:"))], asked
    finally:
        ctx.close()


def positions(nb) -> dict:
    """The hexes of the counters at the start and now, as the workbench draws them (umpire)."""
    return nb.kjson("dict(final=list(bench.map.unit_source.data['hex']), start=[c.hex for c in "
                    "__import__('workbench.ui.counters', fromlist=['x']).stacks("
                    "__import__('workbench.ui.history', fromlist=['x']).replay_state(bench.state, 0), None)])")


# -- SS Amerika -------------------------------------------------------------------------------------


def share_and_reopen(nb, browser, tmp_path, shots, game: str, n: int) -> None:  # noqa: ANN001
    """The path's end on either game: fork and compare, export the page (the note and the move
    list with the annotated order in it), and reopen it offline at the same positions."""
    fork_and_compare(nb)
    expect = positions(nb)
    out = export(nb, tmp_path / f"{game}-lesson.html")
    html = out.read_text()
    assert NOTE in html and "move-list" in html and f"order #{n}" in html
    nb.screenshot(f"teacher-{game}-workbench")
    reopen_offline(browser, out, shots, f"teacher-{game}", expect)

def test_the_teachers_path_on_ss_amerika(teacher, lab_root, browser, shots, tmp_path):
    t0 = time.perf_counter()
    nb = teacher("teacher-ssa.ipynb", str(lab_root / "browser-test.toml"))
    page = nb.page
    assert nb.kernel("print(bench.state.decision.kind)") == "player/initial-movement"
    focus(nb, "0404", "0505", "0306")
    dest = nb.kjson("sorted(o['to'] for o in bench.state.legal_orders_of('move') if o['unit'] == 'GE-0404' "
                    "and bench.state.map.distance(o['to'], '0404') == 1 and not bench.state.units_at(o['to']) "
                    "and bench.state.map.distance(o['to'], '0505') == 1)")[0]
    click_move(nb, "GE-0404", dest)
    undo(nb, "GE-0404", "0404")
    click_move(nb, "GE-0404", dest)
    n = annotate(nb)
    advance_until(nb, "d.kind == 'player/combat/land'")
    planner_attack(nb, "0505", "SSA-11.G", "Attack resolved")
    assert nb.kernel("print(bench.state.events().filter(kind='combat').height)") == "1"
    share_and_reopen(nb, browser, tmp_path, shots, "ssa", n)
    print(f"SS Amerika teacher's path: {time.perf_counter() - t0:.1f} s")
    del page


# -- ETO ----------------------------------------------------------------------------------------------

STACK, TARGET = "06441", "06442"  # GE-V and GE-VI face the Soviet line (Barbarossa, seed 2024)


def test_the_teachers_path_on_eto_barbarossa(teacher, browser, shots, tmp_path):
    t0 = time.perf_counter()
    nb = teacher("teacher-eto.ipynb", "eto/barbarossa-1941")
    page = nb.page
    # load: the notebook skipped to the first movement step; the Set-up tab loads the scenario
    # afresh, at its first decision (the Axis may begin an offensive)
    bottom_tab(nb, "Set-up")
    page.locator(".wb-setup select").first.select_option("eto/barbarossa-1941")
    page.get_by_role("button", name="Load scenario").click()
    nb.wait_message("Loaded", timeout=120_000)
    advance_until(nb, "'begin' in d.kinds and d.side == 'axis'")
    side_tab(nb, "Orders")
    page.locator(".wb-apply-begin").click()  # Begin an offensive (22.0)
    nb.wait_message("done")
    order = {"kind": "activate", "mode": "stack", "hex": STACK}  # a stack offensive (22.3)
    page.locator(".wb-choices-activate select").select_option(label=describe(order))
    page.locator(".wb-apply-activate").click()
    nb.wait_message("done")
    units = nb.kjson("sorted(u.id for u in bench.state.units_by_id.values() if u.props.get('activated'))")
    assert units == ["GE-V", "GE-VI"]
    advance_until(nb, "'move' in d.kinds")
    moves = nb.kjson("sorted({o['path'][-1] for o in bench.state.legal_orders_of('move') if o['unit'] == 'GE-V'})")
    near = nb.kjson(f"[h for h in {moves!r} if bench.state.map.distance(h, {TARGET!r}) == 1 "
                    "and not bench.state.units_at(h)]")
    away = [h for h in moves if h not in near and h != STACK]
    focus(nb, STACK, TARGET, near[0], away[0])
    click_move(nb, "GE-V", away[0])
    undo(nb, "GE-V", STACK)
    click_move(nb, "GE-V", near[0])
    n = annotate(nb)
    advance_until(nb, "'attack' in d.kinds")
    side_tab(nb, "Orders")
    page.locator(".wb-apply-attack").click()  # open the attack sequence (4A)
    nb.wait_message("done")
    advance_until(nb, "'designate' in d.kinds")  # past any steps before 4A-C (ground-support air)
    planner_attack(nb, TARGET, "ETO-26.1", "Attack committed")
    attackers = nb.kjson("bench.state.markers['designations'][0]['attackers']")
    assert sorted(attackers) == ["GE-V", "GE-VI"]
    advance_until(nb, "'resolve' in d.kinds")
    for _ in range(12):  # resolve the attack and what it asks for, each by its row's Apply
        kinds = nb.kjson("[k for k in ('resolve', 'take_losses', 'retreat', 'advance') "
                         "if k in bench.state.decision.kinds and bench.orders.legal(k)]")
        if not kinds:
            break
        side_tab(nb, "Orders")
        before = nb.kernel("print(len(bench.state.orders))")
        page.locator(f".wb-apply-{kinds[0]}").click()
        for _ in range(40):
            if nb.kernel("print(len(bench.state.orders))") != before:
                break
            page.wait_for_timeout(250)
    assert nb.kernel("print(bench.state.events().filter(kind='roll').height > 0)") == "True"
    share_and_reopen(nb, browser, tmp_path, shots, "eto", n)
    print(f"ETO teacher's path: {time.perf_counter() - t0:.1f} s")


# -- a notebook shared as HTML ------------------------------------------------------------------------

def test_a_notebook_exported_with_nbconvert_shows_the_map_offline(lab_root, browser, shots, tmp_path):
    """Issue 26.8: ``jupyter nbconvert --execute --to html`` of the start notebook showed
    ``VBox(...)`` where the workbench was.  The page now shows the static map of the position
    (BokehJS comes inline from the notebook's first cell), offline."""
    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    write(tmp_path / "shared.ipynb", scenario=str(lab_root / "browser-test.toml"))
    nb = nbformat.read(tmp_path / "shared.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,  # the last cell replays a file
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    body, _ = HTMLExporter().from_notebook_node(nb)
    out = tmp_path / "shared.html"
    out.write_text(body, encoding="utf-8")
    assert "VBox(" not in body
    ctx = browser.new_context(viewport={"width": 1200, "height": 1000}, offline=True)
    ctx.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    try:
        page = ctx.new_page()
        page.goto(out.as_uri())
        static = page.locator(".wb-static")
        static.first.wait_for(timeout=60_000)
        assert "Wargame Workbench: SSA rules test" in static.first.inner_text()
        canvas = page.locator(".wb-static canvas").first
        canvas.wait_for(timeout=60_000)
        canvas.scroll_into_view_if_needed()
        for _ in range(40):
            if terrain_pixels(canvas.screenshot()) > 5_000:
                break
            page.wait_for_timeout(250)
        assert terrain_pixels(canvas.screenshot()) > 5_000, "the static map was not drawn"
        canvas.screenshot(path=str(shots / "nbconvert-static-map.png"))
    finally:
        ctx.close()
