"""Kernel-side tests of the workbench: click handlers driven in Python, assertions on the state
and on the bokeh data sources (what the browser would draw)."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction

import pytest
from test_ssa_movement import to_step

from workbench.engine import load_scenario
from workbench.ui import Workbench
from workbench.ui.tomlw import dumps


def to_kind(wb: Workbench, kind: str, limit: int = 40) -> None:
    for _ in range(limit):
        if kind in wb.state.decision.kinds:
            return
        wb.outline.advance()
    raise AssertionError(f"never reached a decision with {kind}")


def test_click_unit_lights_its_legal_destinations_and_click_moves_it(toy_state):
    wb = Workbench(toy_state)
    fig, units = wb.map.fig, wb.map.unit_source
    to_kind(wb, "move")
    wb.click("0503")  # GE-pz at Midtown
    assert wb.orders.selected == "GE-pz"
    legal = {o["to"] for o in toy_state.legal_orders_of("move") if o["unit"] == "GE-pz"}
    assert set(wb.map.overlay_hexes("reach")) == legal and "0604" in legal
    assert wb.map.overlay_hexes("selected") == ["0503"]
    wb.click("0604")
    assert toy_state.unit("GE-pz").location == "0604"
    assert toy_state.events()["kind"].to_list()[-1] == "move"
    # the same figure and sources, patched
    assert wb.map.fig is fig and wb.map.unit_source is units
    assert "0604" in units.data["hex"] and "0503" not in units.data["hex"]
    assert wb.map.overlay_hexes("reach") == []
    assert "GE-pz" in wb.map.stack_tip("0604")
    assert "GE-pz" in wb.hex_info("0604")


def test_an_illegal_click_shows_the_rule_and_changes_nothing(toy_state):
    wb = Workbench(toy_state)
    to_kind(wb, "move")
    wb.click("0504")  # two infantry: the first is selected
    assert wb.orders.selected == "GE-inf-1"
    before = toy_state.digest()
    wb.click("0705")  # the lake
    assert toy_state.digest() == before
    text, level = wb.last_message
    assert level == "refused" and "TOY-3.1" in text and "water" in text
    assert "TOY-3.1" in wb.message.value and "Nothing was changed" in wb.message.value
    wb.click("0504")  # clicking the stack again walks through it
    assert wb.orders.selected == "GE-inf-2"


def test_other_decisions_are_offered_as_widgets_from_legal_orders(toy_state):
    wb = Workbench(toy_state)
    to_kind(wb, "fly")
    row = wb.orders.rows["fly"]
    assert [json.loads(v) for _, v in row.dropdown.options] == toy_state.legal_orders_of("fly")
    row.apply.click()
    assert toy_state.decision.kind == "interception"
    wb.orders.rows["intercept"].apply.click()
    assert toy_state.decision.kind == "counter-interception"
    assert "⚡" in wb.outline.tree.value and "counter-interception" in wb.outline.tree.value


def test_outline_marks_you_are_here_and_bots_play_to_the_end_of_the_step(toy_state):
    wb = Workbench(toy_state)
    assert "you are here" in wb.outline.tree.value
    assert "TOY-3.1" in wb.outline.decision.value  # who owes what, with its rule
    step = toy_state.step.path
    n = wb.outline.bot("step")
    assert n >= 1 and toy_state.step.path != step
    turn = toy_state.turn
    wb.outline.bot("turn")
    assert toy_state.turn == turn + 1


def test_log_filters_and_annotation(toy_state):
    wb = Workbench(toy_state)
    to_kind(wb, "fire")  # combat step of the toy: fire rolls a die
    wb.outline.bot("turn")
    ev = toy_state.events()
    wb.log.rolls.value = True
    rolls = ev.filter(kind="roll").height
    assert wb.log.filtered().height == rolls
    if rolls:
        assert "🎲" in wb.log.table.value
    wb.log.rolls.value = False
    wb.log.kind.value = "end_step"
    assert set(wb.log.filtered()["kind"].to_list()) == {"end_step"}
    wb.log.comment.value = "the key move"
    wb.log.marks[0].value = True
    assert wb.log.annotate()
    assert toy_state.annotations[len(toy_state.orders) - 1] == {"comment": "the key move", "marks": ["!"]}


def test_undo_fork_replay_and_compare(toy_state):
    wb = Workbench(toy_state)
    to_kind(wb, "move")
    wb.click("0503")
    wb.click("0604")
    assert wb.history.undo() and toy_state.unit("GE-pz").location == "0503"
    name = wb.history.fork("what-if")
    wb.history.branch.value = name  # play the branch
    branch = wb.state
    assert branch is not toy_state
    wb.click("0503")
    wb.click("0603")
    assert branch.unit("GE-pz").location == "0603" and toy_state.unit("GE-pz").location == "0503"
    diffs = wb.history.compare("main")
    assert any("GE-pz" in d for d in diffs)
    assert wb.history.compare_view.unit_source.data["hex"].count("0503") == 1
    # replay: order k redraws the map as it was
    k = len(branch.orders)
    wb.history.slider.value = k - 1
    assert "0503" in wb.map.unit_source.data["hex"] and branch.unit("GE-pz").location == "0603"
    before = branch.digest()
    wb.click("0504")  # clicks are off while replaying
    assert branch.digest() == before
    wb.history.back_to_live()
    assert "0603" in wb.map.unit_source.data["hex"]


def test_same_seed_gives_same_dice_in_forks(toy_state):
    wb = Workbench(toy_state)
    to_kind(wb, "fire")
    wb.history.fork("b")
    a, b = toy_state, wb.history.branches["b"]
    for s in (a, b):
        orders = s.legal_orders_of("fire")
        if orders:
            s.apply(orders[0])
    assert [e["dice"] for e in a.log if e["kind"] == "roll"] == [e["dice"] for e in b.log if e["kind"] == "roll"]


def test_side_view_hides_enemy_stack_contents(toy_state):
    wb = Workbench(toy_state, side="allies")
    data = wb.map.unit_source.data
    i = data["hex"].index("0504")  # the German infantry stack
    assert data["glyph"][i] == "?" and "hidden" in data["stack"][i] and "GE-inf" not in data["stack"][i]
    j = data["hex"].index("0804")
    assert "SU-inf-1" in data["stack"][j]
    wb.view_toggle.value = "umpire"
    i = wb.map.unit_source.data["hex"].index("0504")
    assert "GE-inf-1" in wb.map.unit_source.data["stack"][i]


def test_setup_move_save_and_reload_same_digest(toy_state, tmp_path):
    wb = Workbench(toy_state)
    s = wb.setup
    s.edit.value = True
    s.tool.value = "move"
    wb.click("0503")
    wb.click("0707")
    assert wb.state.unit("GE-pz").location == "0707"
    out = s.save(tmp_path / "variant.toml", "toy/variant", "Variant")
    assert out is not None and "same state digest" in s.saved.value
    again = load_scenario(out).new_state(wb.state.seed)
    assert again.unit("GE-pz").location == "0707" and again.digest() == wb.state.digest()


def test_setup_refuses_a_bad_edit_and_keeps_everything(toy_state):
    wb = Workbench(toy_state)
    s = wb.setup
    s.edit.value = True
    before = wb.state.digest()
    assert not s.move_unit("GE-pz", "0105")  # sea
    assert wb.state.digest() == before and wb.last_message[1] == "refused"
    assert "sea" in wb.last_message[0]
    assert not s.add_override("no.such.table", 3)
    assert wb.state.digest() == before
    assert s.add_unit("GE", "armor", "0606")
    assert "GE-armor-1" in wb.state.units_by_id
    assert s.set_reduced("GE-armor-1", True) and wb.state.unit("GE-armor-1").reduced
    assert s.remove_unit("GE-armor-1") and "GE-armor-1" not in wb.state.units_by_id
    assert s.set_tracks({"initiative": "allies"}) and wb.state.tracks["initiative"] == "allies"


def test_toml_writer_round_trips():
    data = {"a": 1, "b": "x\"y", "c.d": [1, 2], "t": {"u": 1.5, "v": {"w": True}},
            "units": [{"id": "A", "props": {"k": [1, {"z": "q"}]}}, {"id": "B"}]}
    assert tomllib.loads(dumps(data)) == data


# -- SS Amerika through the same code -----------------------------------------------------------

GE = [{"id": f"GE-{h}", "nation": "GE", "type": "infantry_division", "at": h} for h in ("0404", "0405", "0506")]
CONVOY = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
US = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0505"}


@pytest.fixture
def ssa_combat(ssa_game):
    state = ssa_game([*GE, CONVOY, US]).new_state(seed=1)
    return to_step(state, "player/combat/land", "axis")


def test_attack_planner_shows_exact_odds_and_commits(ssa_combat):
    wb = Workbench(ssa_combat)
    wb.click("0505")  # an enemy stack while an attack is open: the planner's target
    assert wb.planner.target.value == "0505"
    assert wb.is_open("Attack planner")
    assert set(wb.planner._boxes) == {"GE-0404", "GE-0405", "GE-0506"}
    a = wb.planner.assess()
    assert (a.attack, a.defense, a.column) == (24, 7, "3-1")
    assert sum(a.distribution.values()) == 1
    assert all(isinstance(p, Fraction) for p in a.distribution.values())
    assert "3-1" in wb.planner.result.value and "/6" in wb.planner.result.value
    assert "SSA-11.G" in wb.planner.result.value
    assert set(a.expected_losses) == {"axis", "allies"}
    wb.planner._boxes["GE-0506"].value = False
    a2 = wb.planner.assess()
    assert a2.attack == 16
    assert wb.planner.commit()
    assert ssa_combat.events().filter(kind="combat").height == 1
    assert ssa_combat.events().filter(kind="roll").height == 1


def test_ssa_movement_clicks_and_counter_values(ssa_game):
    state = ssa_game([*GE, CONVOY, US]).new_state(seed=1)
    state = to_step(state, "player/initial-movement", "axis")
    wb = Workbench(state)
    data = wb.map.unit_source.data
    i = data["hex"].index("0404")
    assert data["values"][i] == "8-5" and data["size"][i] == "XX"
    wb.click("0404")
    assert wb.orders.selected == "GE-0404" and wb.map.overlay_hexes("reach")
    dest = sorted(wb.orders.reach)[0]
    wb.click(dest)
    assert state.unit("GE-0404").location == dest
    wb.overlay_boxes["zoc"].value = True
    assert wb.map.overlay_hexes("zoc")  # the US division's ZOC
    wb.overlay_boxes["control"].value = True
    assert wb.map.overlay_hexes("control")


def test_charts_losses_and_empty_state_notes(ssa_combat, toy_state):
    wb = Workbench(toy_state)
    wb.charts.refresh()
    assert "no losses yet" in wb.charts.charts.notes["losses"].text
    assert wb.charts.charts.notes["economy"].text  # the toy has no economy tracks
    wb = Workbench(ssa_combat)
    wb.planner.set_target("0505")
    wb.planner.commit()
    wb.focus_tab("Charts")
    losses = wb.charts.charts.sources["losses"].data
    ev = ssa_combat.events().filter(pl_kind_in(["eliminated", "reduced"]))
    assert sum(losses["reduced"]) + sum(losses["eliminated"]) == ev.height


def pl_kind_in(kinds):
    import polars as pl

    return pl.col("kind").is_in(kinds)


def test_export_html_has_map_log_and_charts(toy_state, tmp_path):
    wb = Workbench(toy_state)
    wb.outline.bot("step")
    page = wb.export_html(tmp_path / "page.html").read_text()
    assert "cdn.bokeh.org" not in page and len(page) > 500_000
    for name in ("terrain", "counters", "log-table", "chart-losses", "chart-economy"):
        assert name in page


def test_a_side_view_acts_only_for_that_side(toy_state):
    """Issue 26.3: in one side's view, Advance / pass and the bot buttons act only for that side;
    the umpire acts for all.  The toy game opens with the Axis to move."""
    wb = Workbench(toy_state)
    assert toy_state.decision.side == "axis"
    wb.set_side("allies")
    digest = toy_state.digest()
    buttons = (wb.outline.advance_btn, wb.outline.bot_step, wb.outline.bot_phase, wb.outline.bot_turn)
    assert all(b.disabled for b in buttons)
    wb.outline.advance()
    assert "axis owes the decision" in wb.message.value
    assert wb.outline.bot("turn") == 0
    assert toy_state.digest() == digest
    wb.set_side("axis")
    assert not any(b.disabled for b in buttons)
    n = wb.outline.bot("turn")
    assert n > 0 and toy_state.decision is not None and toy_state.decision.side == "allies"
    assert "allies owes the next decision" in wb.message.value
    wb.set_side(None)
    assert wb.outline.bot("step") > 0


def test_the_message_line_has_a_fixed_height_so_the_map_never_moves(toy_state):
    """Issue 26.4: a two-line refusal pushed the map down 31 px.  The message slot has a fixed
    height and scrolls; the title lines do not wrap."""
    wb = Workbench(toy_state)
    assert wb.message.layout.height == "58px" and wb.message.layout.overflow == "auto"
    assert "wb-title" in wb.title._dom_classes


def test_a_click_on_ones_own_stack_selects_and_offers_a_stack_picker(toy_state):
    """Issue 26.5: picking a unit out of a stack took a click per unit, and one's own stack with
    nothing to move answered with a red refusal.  Now the click selects the first unit that can
    act and lists the whole stack with what each unit may still do; one click picks any of them.
    A stack with nothing to do gets a plain answer, not a refusal."""
    wb = Workbench(toy_state)
    wb.click("0504")  # the two German infantry divisions
    assert wb.orders.selected == "GE-inf-1"
    buttons = [c.children[0] for c in wb.orders.stack_box.children[1:]]
    assert [b.description.split()[0] for b in buttons] == ["GE-inf-1", "GE-inf-2"]
    assert all(not b.disabled and b.tooltip == "move" for b in buttons)
    buttons[1].click()
    assert wb.orders.selected == "GE-inf-2" and wb.map.overlay_hexes("reach")
    far = max(wb.orders.reach, key=lambda h: toy_state.map.distance(h, "0504"))
    wb.click(far)
    assert toy_state.unit("GE-inf-2").location == far
    wb.click("0504")
    wb.click(far)  # GE-inf-1 joins it: both have spent their movement
    assert toy_state.unit("GE-inf-1").location == far
    assert not wb.orders.unit_orders("GE-inf-1") and not wb.orders.unit_orders("GE-inf-2")
    wb.click(far)
    assert "wb-msg-refused" not in wb.message.value and "has no map order now" in wb.message.value
    buttons = [c.children[0] for c in wb.orders.stack_box.children[1:]]
    assert len(buttons) == 2 and all(b.disabled for b in buttons)


def test_counters_mark_the_units_that_can_still_act(toy_state):
    """Issue 26.5: a green mark on every stack with a unit that may still be given a map order,
    for the deciding side only; it goes when the unit has spent its movement."""
    wb = Workbench(toy_state)
    data = wb.map.unit_source.data
    marked = {h for h, a, s in zip(data["hex"], data["ra"], data["side"], strict=True) if a}
    assert "0504" in marked and "0804" not in marked  # German infantry yes, Soviet (not deciding) no
    wb.set_side("allies")
    assert not any(wb.map.unit_source.data["ra"])
    wb.set_side(None)
    wb.click("0504")
    far = max(wb.orders.reach, key=lambda h: toy_state.map.distance(h, "0504"))
    wb.click(far)
    data = wb.map.unit_source.data
    assert data["ra"][data["hex"].index(far)] == 0.0 and data["ra"][data["hex"].index("0504")] == 1.0


def test_a_setup_edit_keeps_the_game_it_replaces_as_a_branch(toy_state):
    """Issue 26.2: a designer-mode edit (or a table override) restarted the game and dropped
    its orders, notes and branches.  The edited set-up now plays as a new branch; the old game,
    with its orders and notes, stays a branch to switch back to.  A game with nothing to lose is
    simply replaced."""
    wb = Workbench(toy_state)
    wb.setup.edit.value = True
    assert wb.setup.move_unit("GE-pz", "0707")  # nothing played yet: replaced, no extra branch
    assert list(wb.history.branches) == ["main"]
    wb.setup.edit.value = False
    played = wb.state
    wb.click("0504")
    wb.click(sorted(wb.orders.reach)[0])
    played.annotate("before the edit", ["!"])
    n, digest = len(played.orders), played.digest()
    wb.setup.edit.value = True
    assert wb.setup.move_unit("GE-pz", "0606")
    assert wb.history.live == "set-up 1" and wb.state is not played and not wb.state.orders
    assert "kept as branch &#x27;main&#x27;" in wb.message.value
    assert wb.history.branches["main"] is played and len(played.orders) == n and played.digest() == digest
    wb.history.switch("main")
    assert wb.state is played and played.annotations


def test_the_opening_view_shows_the_acting_sides_army_and_the_whole_map_is_one_click(ssa_1941_bench):
    """Issue 26.6: in ssa/1941 the Axis army (86 units in Iceland) was off-screen when the game
    opened.  The view centres where most units of the deciding side stand; "Whole map" frames
    everything and "Go to units" comes back."""
    wb = ssa_1941_bench
    st = wb.state
    hm = st.map
    fig = wb.map.fig

    def shown(label: str) -> bool:
        x, y = wb.map.xy(label)
        return fig.x_range.start <= x <= fig.x_range.end and fig.y_range.start <= y <= fig.y_range.end

    iceland = [u.location for u in st.units_by_id.values() if u.side == "axis" and u.location.isdigit()
               and hm.hexes["country"][hm.index(u.location)] == "Iceland"]
    assert st.decision.side == "axis" and len(iceland) > 50 and all(shown(h) for h in iceland)
    width = fig.x_range.end - fig.x_range.start
    wb.fit_btn.click()
    assert fig.x_range.end - fig.x_range.start > 3 * width
    assert shown(hm.label(0)) and shown(hm.label(hm.size - 1))
    wb.units_btn.click()
    assert all(shown(h) for h in iceland)


@pytest.fixture(scope="module")
def ssa_1941_bench():
    import workbench as wbk

    return Workbench(wbk.load_scenario("ssa/1941").new_state(0))


def test_the_map_has_a_legend_of_what_this_map_draws(toy_state, ssa_1941_bench):
    """Issue 26.6: a legend for terrain, hexside features and lines, places, counter marks and
    overlays, built from the styles the map draws with and only for what the map has.  Control
    is a hatch in the side's colour, so a controlled land hex never reads as sea."""
    from workbench.ui import mapview
    from workbench.ui.legend import legend_html

    toy = legend_html(toy_state)
    assert "forest" in toy and "lake" in toy and "river" in toy and "mountains" not in toy
    assert "controlled by axis" in toy and "allies ZOC" in toy and "can still be given an order" in toy
    na = ssa_1941_bench.legend.children[0].value
    assert "industrial city" in na and "fog of war" in na and "legal destination" in na
    assert mapview.OVERLAY_STYLE["control"][3] == "/"
    assert ssa_1941_bench.map.overlay_renderers["control"].glyph.hatch_pattern == "/"


@pytest.mark.slow
def test_charts_get_a_point_for_every_turn_the_bots_play_through(ssa_game):
    """Issue 26.1: after the bots played three turns in one click the economy chart was one short
    segment (only the turns the workbench had shown had a snapshot), and the empty-chart notes sat
    on top of empty legends.  Now each turn the bots play through gets its point; an empty chart
    shows its note and no legend."""
    import workbench as wbk

    st = wbk.load_scenario("ssa/valor-of-ignorance").new_state(1)
    wb = Workbench(st)
    start = st.turn
    for _ in range(3):
        wb.outline.bot("turn")
    assert st.turn == start + 3
    wb.focus_tab("Charts")
    assert list(wb.track_history) == st.calendar[start:start + 4]  # the start and three more turns
    obj = wb.charts.charts.sources["objectives"].data
    assert obj["xs"] and all(xs == st.calendar[start:start + 4] for xs in obj["xs"])
    eco = wb.charts.charts.sources["economy"].data  # US.mp exists from 1939-08 on
    assert eco["name"] == ["US mp"] and eco["xs"] == [["1939-08", "1939-09"]]
    assert wb.charts.charts.figs["objectives"].legend.visible
    toy = Workbench(ssa_game([]).new_state(0))
    toy.charts.refresh()
    c = toy.charts.charts
    assert c.notes["losses"].text and not c.figs["losses"].legend.visible


def test_save_and_export_buttons_share_the_game(toy_state, tmp_path):
    """Issue 26.8: Save and Export in the workbench: the record replays to the same digest with
    its notes, and the exported page stands alone."""
    import workbench as wbk

    wb = Workbench(toy_state)
    wb.click("0504")
    wb.click(sorted(wb.orders.reach)[0])
    toy_state.annotate("a note for the class", ["!"])
    wb.history.share_path.value = str(tmp_path / "lesson")
    wb.history.save_btn.click()
    rec = tmp_path / "lesson.json"
    assert rec.exists() and "Saved the game record" in wb.message.value
    again = wbk.replay(rec, scenario=toy_state.game.scenario.file)  # a test scenario, not in scenarios/
    assert again.digest() == toy_state.digest() and again.annotations[0]["comment"] == "a note for the class"
    wb.history.export_btn.click()
    page = (tmp_path / "lesson.html").read_text()
    assert "cdn.bokeh.org" not in page and "Exported" in wb.message.value


def test_fog_hides_a_hidden_stacks_count_and_replay_is_marked_as_the_past(toy_state):
    """Issue 26.6/26.7: in a side's view an enemy stack showed how many units it held (badge,
    shadows, tooltip); it shows none of that now.  A replay position is marked plainly on the
    map (title and frame), and the live title comes back with 'Back to live'."""
    wb = Workbench(toy_state, side="allies")
    d = wb.map.unit_source.data
    i = d["hex"].index("0504")  # two German infantry, hidden from the Allies
    assert (d["btext"][i], d["ba"][i], d["s1a"][i], d["count"][i], d["label"][i]) == ("", 0.0, 0.0, 0, "?")
    assert "2" not in d["stack"][i]
    wb.set_side(None)
    d = wb.map.unit_source.data
    assert d["btext"][d["hex"].index("0504")] == "2"
    wb.click("0504")
    wb.click(sorted(wb.orders.reach)[0])
    wb.history.refresh()
    wb.history.show_replay(0)
    assert wb.map.fig.title.text.startswith("REPLAY: after order 0 of 1")
    wb.history.back_to_live()
    assert wb.map.fig.title.text == toy_state.game.scenario.title


# -- issue 26.7: history ------------------------------------------------------------------------

US2 = {"id": "US-inf2", "nation": "US", "type": "infantry_division", "at": "0406"}


def _attack(wb: Workbench, target: str, attackers: list[str]) -> None:
    """Commit an attack with exactly ``attackers``, then let the defender take what it must."""
    wb.planner.set_target(target)
    for a, cb in wb.planner._boxes.items():
        cb.value = a in attackers
    assert wb.planner.commit(), wb.last_message
    st = wb.state
    while st.decision is not None and st.decision.side != "axis":
        st.apply(next(o for o in st.legal_orders() if o["kind"] != "end_step"))
    wb.changed()


def test_compare_defaults_to_the_parent_shows_both_and_counts_only_dice_after_the_split(ssa_game):
    """Issue 26.7: Compare picked no sensible partner, drew only B (half size, under the tabs),
    and counted every die since the start of the game when one branch was 'main' (its fork
    point was 0).  Now B defaults to the live branch's parent (else the newest other branch),
    A and B are drawn side by side on one pan, and only dice rolled after the split count."""
    from bokeh.layouts import Row

    st = to_step(ssa_game([*GE, CONVOY, US, US2]).new_state(seed=1), "player/combat/land", "axis")
    wb = Workbench(st)
    _attack(wb, "0505", ["GE-0404"])  # a die rolled before the fork
    before = sum(e["kind"] == "roll" for e in st.log)
    assert before == 1
    n_orders = len(st.orders)
    h = wb.history
    h.fork("a-lone")
    h.fork("both")
    assert h.compare_with.value == "both"  # main has no parent: the newest other branch
    _attack(wb, "0406", ["GE-0405"])  # main
    h.switch("a-lone")
    assert h.compare_with.value == "main"  # its parent
    h.switch("both")
    _attack(wb, "0406", ["GE-0405", "GE-0506"])
    diffs = h.compare()
    assert h.compared["a"] == "both" and h.compared["b"] == "main"
    assert h.compared["split_orders"] == n_orders
    assert (h.compared["rolls_a"], h.compared["rolls_b"]) == (1, 1)  # not 2: the first die is shared
    assert "A rolled 1" in h.compare_info.value and "B rolled 1" in h.compare_info.value
    assert f"split after order #{n_orders}" in h.compare_info.value and diffs
    (widget,) = h.compare_box.children  # one bokeh row: A | B
    va, vb = h.compare_live_view, h.compare_view
    assert isinstance(widget._model, Row) and list(widget._model.children) == [va.fig, vb.fig]
    assert va.state is wb.state and vb.state is h.branches["main"]
    assert va.fig.x_range is vb.fig.x_range and va.fig.y_range is vb.fig.y_range  # they pan together
    assert va.fig.title.text.startswith("A: live 'both'") and vb.fig.title.text.startswith("B: 'main'")
    assert va.unit_source.data != vb.unit_source.data


def test_compare_is_cleared_when_another_scenario_is_loaded(toy_state):
    """Issue 26.7: the old game's comparison (its maps, its text, its branch names) stayed on
    the history tab after a new scenario was loaded."""
    wb = Workbench(toy_state)
    wb.click("0504")
    wb.click(sorted(wb.orders.reach)[0])
    wb.history.fork("what-if")
    assert wb.history.compare() is not None and wb.history.compare_box.children
    assert wb.setup.load(str(toy_state.game.scenario.file), seed=3)
    h = wb.history
    assert h.compare_box.children == () or list(h.compare_box.children) == []
    assert h.compare_info.value == "" and h.compared == {} and list(h.compare_with.options) == []
    assert h.compare_view is None and list(h.branches) == ["main"]


def test_orders_are_numbered_from_one_in_the_log_notes_replay_and_export(toy_state, tmp_path):
    """Issue 26.7: the log numbered orders from 0 and the history from 1, so 'order #1' meant
    two different orders.  Order #k is the k-th order everywhere."""
    wb = Workbench(toy_state)
    wb.click("0503")
    wb.click(sorted(wb.orders.reach)[0])
    wb.click("0504")
    wb.click(sorted(wb.orders.reach)[0])
    assert len(toy_state.orders) == 2
    wb.log.comment.value = "second move"
    assert wb.log.annotate() and "Order #2 annotated" in wb.message.value
    assert "order #2" in wb.log.notes.value
    second_move = toy_state.events().filter(kind="move").row(1, named=True)
    assert second_move["order"] == 1  # the kernel's index
    row = next(r for r in wb.log.table.value.split("<tr") if f"<td>{second_move['seq']}</td>" in r)
    assert f"<td>{second_move['seq']}</td><td>2</td>" in row
    wb.history.show_replay(2)  # the end: back to live
    wb.history.show_replay(1)
    assert "after order 1 of 2" in wb.history.replay_info.value and "order #1:" in wb.history.replay_info.value
    wb.history.back_to_live()
    wb.history.fork("b")
    assert "after order #2" in wb.message.value
    from workbench.ui.export import game_moves

    moves = game_moves(toy_state, wb.map.static_twin(marks=False))
    assert moves.number == ["start", "1", "2"] and moves.note == ["", "", "second move"]


# -- issue 26.8: sharing --------------------------------------------------------------------------

def test_the_exported_page_has_the_notes_and_a_move_list_that_steps_the_map(toy_state, tmp_path):
    """Issue 26.8: the page had the map, charts and log only.  It now lists every order with its
    note, and a click on one shows that position: the page carries each position's counters
    (a pool of distinct rows and each position's indices into it) and a small script."""
    from bokeh.models import CustomJS, DataTable

    from workbench.engine.record import replay
    from workbench.ui import counters
    from workbench.ui.export import STEP_JS, game_moves

    wb = Workbench(toy_state)
    for unit in ("0503", "0504"):
        wb.click(unit)
        wb.click(max(wb.orders.reach, key=lambda h: toy_state.map.distance(h, unit)))
    toy_state.annotate("the pincer closes", ["!"])
    page = wb.export_html(tmp_path / "game.html").read_text()
    assert "the pincer closes" in page and "move-list" in page and "move-position" in page
    assert "units.data = data" in page  # the step script travels with the page
    view = wb.map.static_twin(marks=False)
    moves = game_moves(toy_state, view)
    assert len(moves.rows) == len(toy_state.orders) + 1 == 3
    for k in range(3):  # each position, rebuilt as the page's script does, is the replayed game
        st = replay(toy_state.record(), upto=k)
        assert moves.position(k) == view.counter_data(counters.stacks(st, None))
    assert moves.position(0)["hex"] != moves.position(2)["hex"]
    assert sum(len(r) for r in moves.rows) > len(moves.pool["hex"])  # positions share their rows
    from workbench.ui.export import move_list

    _, table = move_list(moves, view)
    assert isinstance(table, DataTable) and table.source.data["note"][2] == "! the pincer closes"
    (cb,) = table.source.selected.js_property_callbacks["change:indices"]
    assert isinstance(cb, CustomJS) and cb.code == STEP_JS and cb.args["units"] is view.unit_source


def test_a_notebook_exported_with_nbconvert_shows_the_map_not_vbox_text(toy_state):
    """Issue 26.8: nbconvert (no kernel, no widget state) printed 'VBox(children=...)'.  The
    workbench now puts two outputs in the notebook: the live widget (its text form names the
    game) and, computed after the widget went out, a static bokeh map of the current position,
    which draws itself where no live workbench runs and hides itself in JupyterLab."""
    import nbformat
    from nbconvert import HTMLExporter

    wb = Workbench(toy_state)
    wb.click("0503")
    widget, static = list(wb.display_outputs())
    assert "application/vnd.jupyter.widget-view+json" in widget and "text/html" not in widget
    assert "VBox" not in widget["text/plain"] and toy_state.game.scenario.title in widget["text/plain"]
    page = static["text/html"]
    assert "embed_item" in page and '"counters"' in page and "jp-LabShell" in page
    assert "</script>" not in page.split("const item = ")[1].split(";\n")[0]  # the JSON cannot end the script
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("bench", outputs=[
        nbformat.v4.new_output("display_data", data=widget), nbformat.v4.new_output("display_data", data=static)])])
    out, _ = HTMLExporter().from_notebook_node(nb)
    assert "VBox(" not in out and "wb-static" in out and '"counters"' in out
    assert toy_state.game.scenario.title in out
    assert "text/html" in wb._repr_mimebundle_()  # one bundle for callers that want it whole


def test_saved_and_exported_files_honour_the_umask(toy_state, tmp_path):
    """Issue 26.8: the record and the page are written atomically, with the mode a plain
    ``open(path, 'w')`` would give under the user's umask (mkstemp's 0600 would hide them
    from a class server's web root)."""
    import os
    import stat

    wb = Workbench(toy_state)
    wb.click("0504")
    wb.click(sorted(wb.orders.reach)[0])
    for umask, mode in ((0o022, 0o644), (0o002, 0o664), (0o077, 0o600)):
        old = os.umask(umask)
        try:
            wb.history.share_path.value = str(tmp_path / f"shared-{umask:o}")
            wb.history.save_btn.click()
            wb.history.export_btn.click()
        finally:
            os.umask(old)
        for suffix in (".json", ".html"):
            path = tmp_path / f"shared-{umask:o}{suffix}"
            assert stat.S_IMODE(path.stat().st_mode) == mode, (path, oct(path.stat().st_mode))


# -- issue 26.10: the orders panel --------------------------------------------------------------

@pytest.fixture(scope="module")
def eto_offensive():
    """Barbarossa, the Axis offensive's command step with one HQ activated."""
    import workbench as wbk

    st = wbk.load_scenario("eto/barbarossa-1941").new_state(1)
    for _ in range(60):  # past any steps before the offensives (the air and naval steps' order)
        d = st.decision
        if "begin" in d.kinds and d.side == "axis":
            break
        if "choose_first" in d.kinds:
            st.apply({"kind": "choose_first", "side": "axis"})
        else:
            st.advance()
    st.apply({"kind": "begin"})
    st.apply(st.legal_orders_of("activate_hq")[0])
    return st


def test_the_orders_panel_groups_kinds_by_meaning_hides_what_is_not_legal_and_cuts_nothing(eto_offensive):
    """Issue 26.10: one row per open kind, named by its code ('activate_hq'), kinds with nothing
    legal offered anyway, drop-down labels cut at 110 px and Apply buttons squeezed.  Now the
    kinds are grouped by meaning with readable names and rule IDs, a kind with no legal order
    has no row (it is named in a footnote), and every button is as wide as its text."""
    st = eto_offensive.fork()
    wb = Workbench(st)
    o = wb.orders
    texts = [getattr(w, "value", "") for w in o.kind_box.children]
    assert any("Offensives and command" in t for t in texts)
    assert {"activate", "move_hq", "remove_hq"} <= set(o.rows)
    assert all(o.legal(k) for k in o.rows)  # a row only for a kind with a legal order now
    assert {"activate_hq", "impromptu"} <= set(o.hidden_kinds) and not set(o.hidden_kinds) & set(o.rows)
    assert "Activate an HQ" in texts[-1] and "Nothing legal now" in texts[-1]
    head = o.rows["activate"].widget.children[0].value
    assert "Activate units" in head and "[ETO-22.0]" in head and "(3 legal)" in head

    def buttons(w):
        if isinstance(w, __import__("ipywidgets").Button):
            yield w
        for c in getattr(w, "children", ()):
            yield from buttons(c)

    for b in buttons(wb.widget):
        assert b.layout.width in (None, "auto"), (b.description, b.layout.width)
    for row in o.rows.values():
        assert not row.dropdown.description and row.dropdown.layout.flex == "1 1 auto"
        assert row.apply.description == "Apply"


def test_eto_activation_offers_all_in_radius_up_front(eto_offensive):
    """Issue 26.10: activating an HQ's units took one drop-down pick per unit.  The panel now
    puts 'Activate all in HQ radius' ({"kind": "activate", "all": true}, ETO-23.0) first; the
    drop-down keeps the single units."""
    st = eto_offensive.fork()
    wb = Workbench(st)
    o = wb.orders
    rows = list(o.kind_box.children)
    first = next(i for i, w in enumerate(rows) if o.activate_all_btn in getattr(w, "children", ()))
    assert first < rows.index(o.rows["activate"].widget)  # up front, before the single units
    singles = [json.loads(v) for _, v in o.rows["activate"].dropdown.options]
    assert all("unit" in x for x in singles) and len(singles) == 3
    expected = st.fork()
    expected.apply({"kind": "activate", "all": True})
    o.activate_all_btn.click()
    active = sorted(u.id for u in st.units_by_id.values() if u.props.get("activated"))
    assert active == sorted(u.id for u in expected.units_by_id.values() if u.props.get("activated"))
    assert st.orders[-1] == {"kind": "activate", "all": True} and "Activated" in wb.message.value


def test_log_rows_are_one_line_each(toy_state):
    """Issue 26.10: long event texts wrapped a log row over several lines.  Cells do not wrap;
    a long text ends in an ellipsis and shows whole as the cell's tooltip."""
    from workbench.ui.log import table_html
    from workbench.ui.workbench import CSS

    wb = Workbench(toy_state)
    wb.outline.bot("turn")
    table = table_html(toy_state.events(), toy_state.annotations)
    assert "white-space:nowrap" in CSS.split(".wb-log-table td, .wb-log-table th")[1].split("}")[0]
    assert "text-overflow:ellipsis" in CSS.split(".wb-log-table td.wb-what")[1].split("}")[0]
    ev = toy_state.events().row(-1, named=True)
    assert f"class='wb-what' title='{ev['text']}" in table.replace("&#x27;", "'")


# -- issue 26.6: the layout ----------------------------------------------------------------------

def test_the_map_is_fitted_to_the_window_and_the_planner_and_log_sit_beside_it(toy_state):
    """Issue 26.6: at 1366x768 the 860x600 map and the panels under it did not fit on the screen
    together.  The page reports the room it has (a CustomJS on the map's first layout and on
    window resizes); the kernel shrinks the map to it, same centre and zoom, never beyond the
    size asked for; the orders, the attack planner and the log are tabs of a column beside the
    map, as tall as the map."""
    from bokeh.models import CustomJS

    from workbench.ui.workbench import MAP_CHROME_H, SIDE_TABS

    wb = Workbench(toy_state)
    (cb,) = wb.map.fig.js_property_callbacks["change:inner_width"]
    assert isinstance(cb, CustomJS) and cb.args["probe"] is wb.viewport_probe
    assert SIDE_TABS == ("Orders", "Attack planner", "Log")
    assert wb.right.children == (wb.outline.controls, wb.side_tabs)  # Advance / bots always in view
    fig = wb.map.fig
    cx, cy = (fig.x_range.start + fig.x_range.end) / 2, (fig.y_range.start + fig.y_range.end) / 2
    scale = (fig.x_range.end - fig.x_range.start) / fig.frame_width
    wb.viewport_probe.data = {"w": [1000], "h": [768]}  # what the page sends on a laptop
    assert wb.viewport == (1000, 768)
    assert (fig.frame_width, fig.frame_height) == (wb.width, wb.height) == (530, 538)
    assert abs((fig.x_range.start + fig.x_range.end) / 2 - cx) < 1e-9
    assert abs((fig.y_range.start + fig.y_range.end) / 2 - cy) < 1e-9
    assert abs((fig.x_range.end - fig.x_range.start) / fig.frame_width - scale) < 1e-9
    assert wb.right.layout.height == f"{538 + MAP_CHROME_H}px"
    wb.fit_to(2400, 1400)  # a big screen: back to the size asked for, not beyond
    assert (fig.frame_width, fig.frame_height) == (860, 600)
    wb.fit_to(600, 400)  # a tiny window: the smallest useful map
    assert (fig.frame_width, fig.frame_height) == (420, 300)
    fixed = Workbench(toy_state, fit=False)
    fixed.fit_to(1000, 768)
    assert (fixed.map.fig.frame_width, fixed.map.fig.frame_height) == (860, 600)


def test_setup_lists_every_optional_rule_with_its_id_and_summary_and_toggles_it():
    """The set-up panel shows SS Amerika's ten optional rules (21.0-30.0), and the parts of 22 one by
    one, with their IDs and one line each (tables/optional_rules.toml); unticking one starts the game again without it."""
    from ipywidgets import Checkbox

    wb = Workbench(load_scenario("ssa/1941").new_state(1))
    rows = [c for c in wb.setup.options_box.children if hasattr(c, "children") and c.children
            and isinstance(c.children[0], Checkbox) and "wb-optional-rule" in c.children[0]._dom_classes]
    names = [r.children[0].description for r in rows]
    parts = [f"SSA-22.{n}" for n in (1, 2, 3, 10, 11, 12, 13, 14)]  # 22.G: the players choose which
    assert [n.split()[0] for n in names] == ["SSA-21", "SSA-22", *parts] + [f"SSA-{n}" for n in range(23, 31)]
    k = names.index("SSA-26 Weather")
    assert "storms" in rows[k].children[1].value
    assert "2 in mountains" in rows[names.index("SSA-22.3 Mountain troops")].children[1].value
    ticked = {r.children[0].description.split()[0] for r in rows if r.children[0].value}
    assert ticked == set(wb.state.game.options["optional_rules"])
    assert wb.setup.set_optional("SSA-26", False)
    assert "SSA-26" not in wb.state.game.options["optional_rules"]


def test_eto_optional_rules_catalog_lists_46_and_47():
    """ETO's optional rules: the historical restrictions 46.1-46.6 and ahistorical options 47.1-47.6,
    each set also whole (46.0, the recommended set; 47.0)."""
    from workbench.engine import get_ruleset

    ids = [r["id"] for r in get_ruleset("eto").optional_rules_catalog()]
    assert ids == [f"ETO-46.{n}" for n in range(0, 7)] + [f"ETO-47.{n}" for n in range(0, 7)]
