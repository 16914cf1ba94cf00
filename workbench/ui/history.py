"""Undo, fork and replay, and two branches side by side.

* **Undo** takes back the last order (``state.undo``); the kernel refuses to go
  back past a die roll, and the panel says so.
* **Fork** makes a what-if branch (``state.fork``) at the current position;
  branches are listed and any one can be made the live game.
* **Replay** is a slider over the game record: position *k* is
  ``wb.replay(record, upto=k)`` (built incrementally, so scrubbing forward is
  cheap) and the map redraws as it was after order *k*.  "Back to live" returns.
* **Compare** draws two branches side by side (A, the live one, and B, by
  default its parent or else the newest other branch), their maps panning
  together, and lists what differs: units, tracks, and the dice each branch
  rolled since they split.  The split is where their event logs part, so
  dice rolled before the fork count for neither.  Both branches share the
  seed and the dice state at the fork, so the same rolls in the same order
  give the same dice.

Orders are numbered from 1 everywhere (log, notes, replay, compare, the exported
page): order #k is ``state.orders[k - 1]``; see :func:`order_no`.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

import ipywidgets as widgets

from workbench.engine.errors import RecordError
from workbench.engine.record import replay as record_replay
from workbench.engine.state import State

if TYPE_CHECKING:
    from workbench.ui.workbench import Workbench


def order_no(index: int | None) -> str:
    """The number people see for the order at ``index`` of ``state.orders`` (from 1); events
    logged before any order (index -1 or None) belong to the set-up."""
    return "set-up" if index is None or index < 0 else str(index + 1)


def replay_state(state: State, upto: int) -> State:
    """The position after the first ``upto`` orders of ``state``'s game."""
    try:
        return record_replay(state.record(), upto=upto)
    except RecordError:  # an unsaved set-up: replay from the game object itself
        s = state.game.new_state(state.seed)
        for o in state.orders[:upto]:
            s.apply(o)
        return s


def diff_states(a: State, b: State) -> list[str]:
    out = []
    for uid in sorted(set(a.units_by_id) | set(b.units_by_id)):
        ua, ub = a.units_by_id.get(uid), b.units_by_id.get(uid)
        if ua is None or ub is None:
            out.append(f"{uid}: only in {'B' if ua is None else 'A'}")
        elif (ua.location, ua.reduced) != (ub.location, ub.reduced):
            out.append(f"{uid}: A {ua.location}{' (reduced)' if ua.reduced else ''} · "
                       f"B {ub.location}{' (reduced)' if ub.reduced else ''}")
    for k in sorted(set(a.tracks) | set(b.tracks)):
        if a.tracks.get(k) != b.tracks.get(k):
            out.append(f"track {k}: A {a.tracks.get(k)} · B {b.tracks.get(k)}")
    return out


def rolls_since(state: State, first_seq: int) -> list[str]:
    return [f"{'+'.join(map(str, e['dice']))} ({e['purpose']})" for e in state.log[first_seq:]
            if e["kind"] == "roll"]


def split_point(a: State, b: State) -> tuple[int, int]:
    """(events, orders) the two branches share: where their logs and order lists part.  Dice
    rolled before that belong to both and are not 'since the split'."""
    def common(x: list, y: list) -> int:
        n = min(len(x), len(y))
        i = 0
        while i < n and x[i] == y[i]:
            i += 1
        return i

    return common(a.log, b.log), common(a.orders, b.orders)


class HistoryPanel:
    def __init__(self, wb: Workbench) -> None:
        self.wb = wb
        self.branches: dict[str, State] = {"main": wb.state}
        self.fork_points: dict[str, int] = {"main": 0}
        #: the branch each one was forked from (Compare's default partner)
        self.parents: dict[str, str | None] = {"main": None}
        self._compare_for: tuple | None = None
        self.live = "main"
        self._replay_cache: tuple[int, State] | None = None
        self.replaying = False
        lay = widgets.Layout(width="auto")
        self.undo_btn = widgets.Button(description="Undo", icon="undo", layout=lay)
        self.undo_btn.on_click(lambda _=None: self.undo())
        self.fork_name = widgets.Text(placeholder="branch name", layout=widgets.Layout(width="140px"))
        self.fork_btn = widgets.Button(description="Fork here", icon="code-fork", layout=lay)
        self.fork_btn.on_click(lambda _=None: self.fork())
        self.branch = widgets.Dropdown(description="live", options=["main"], value="main",
                                       style={"description_width": "35px"}, layout=widgets.Layout(width="200px"))
        self.branch.observe(lambda ch: self.wb._guard(self.switch, ch["new"]), names="value")
        self.slider = widgets.IntSlider(description="replay", min=0, max=0, value=0, continuous_update=False,
                                        layout=widgets.Layout(width="420px"))
        self.slider.observe(lambda ch: self.wb._guard(self.show_replay, ch["new"]), names="value")
        self.live_btn = widgets.Button(description="Back to live", layout=lay)
        self.live_btn.on_click(lambda _=None: self.back_to_live())
        self.replay_info = widgets.HTML()
        self.compare_with = widgets.Dropdown(description="compare", options=[], style={"description_width": "60px"},
                                             layout=widgets.Layout(width="220px"))
        self.compare_btn = widgets.Button(description="Side by side", layout=lay)
        self.compare_btn.on_click(lambda _=None: self.compare())
        self.compare_box = widgets.HBox()
        self.compare_box.add_class("wb-compare-maps")
        self.compare_info = widgets.HTML()
        self.compare_info.add_class("wb-compare-info")
        self.compare_view = None  # B's map
        self.compare_live_view = None  # A's map
        self.compared: dict[str, object] = {}  # what the last comparison counted
        self.info = widgets.HTML()
        self.share_path = widgets.Text(placeholder="out/my-game", description="file",
                                       style={"description_width": "30px"}, layout=widgets.Layout(width="260px"))
        self.save_btn = widgets.Button(description="Save record", icon="save", layout=lay,
                                       tooltip="the game record (JSON): scenario, seed, orders, notes; replays exactly")
        self.save_btn.on_click(lambda _=None: self.wb._guard(self.save_record))
        self.export_btn = widgets.Button(description="Export page", icon="share", layout=lay,
                                         tooltip="one standalone HTML page: map, charts, log; opens offline")
        self.export_btn.on_click(lambda _=None: self.wb._guard(self.export_page))
        self.widget = widgets.VBox([
            widgets.HBox([self.undo_btn, self.fork_name, self.fork_btn, self.branch]), self.info,
            widgets.HBox([self.share_path, self.save_btn, self.export_btn]),
            widgets.HBox([self.slider, self.live_btn]), self.replay_info,
            widgets.HBox([self.compare_with, self.compare_btn]), self.compare_info, self.compare_box])
        self.widget.add_class("wb-history")

    # -- sharing ------------------------------------------------------------------------------
    def _path(self, suffix: str) -> Path:
        st = self.wb.state
        name = self.share_path.value.strip() or f"out/{st.game.scenario.id.replace('/', '-')}-seed{st.seed}"
        return Path(name).with_suffix(suffix)

    def save_record(self) -> Path:
        """Write the live game's record (atomic JSON; issue 26.8) and say where."""
        path = self._path(".json")
        path.parent.mkdir(parents=True, exist_ok=True)
        self.wb.state.record().save(path)
        self.wb.say(f"Saved the game record to {path} ({len(self.wb.state.orders)} orders, "
                    f"{len(self.wb.state.annotations)} notes): wb.replay('{path}') rebuilds it.", "ok")
        return path

    def export_page(self) -> Path:
        """Write one standalone page of the live game (issue 26.8) and say where."""
        path = self._path(".html")
        path.parent.mkdir(parents=True, exist_ok=True)
        out = self.wb.export_html(path)
        self.wb.say(f"Exported {out}: it opens in any browser, offline.", "ok")
        return out

    # -- undo / fork / switch ---------------------------------------------------------------
    def undo(self) -> bool:
        st = self.wb.state
        if self.replaying:
            self.back_to_live()
        if not st.undo():
            self.wb.say("Cannot undo: dice were rolled since the last order (the kernel never takes "
                        "back a die roll), or there is nothing to undo.", "warn")
            return False
        self.wb.changed()
        self.wb.say(f"Undone; back at {' / '.join(st.clock)}.", "ok")
        return True

    def fork(self, name: str | None = None) -> str:
        name = (name or self.fork_name.value.strip() or f"branch-{len(self.branches)}")
        while name in self.branches:
            name += "'"
        st = self.wb.state
        self.branches[name] = st.fork()
        self.fork_points[name] = len(st.log)
        self.parents[name] = self.live
        self.fork_name.value = ""
        self.refresh()
        where = f"after order #{len(st.orders)}" if st.orders else "at the start"
        self.wb.say(f"Forked '{name}' {where} ({' / '.join(st.clock)}); "
                    f"'{self.live}' stays live. Pick '{name}' under 'live' to play it.", "ok")
        return name

    def switch(self, name: str) -> None:
        if name == self.live or name not in self.branches:
            return
        self.live = name
        self.replaying = False
        self.wb.set_state(self.branches[name], message=f"Now playing branch '{name}'.")

    def keeps_something(self) -> bool:
        """Whether the live game has anything a restart would lose: orders, notes or branches."""
        st = self.wb.state
        return bool(st.orders or st.annotations or len(self.branches) > 1)

    def adopt_edit(self, state: State) -> str:
        """An edited set-up (issue 26.2): play it as a new branch and keep every old one, so an
        edit never throws a game away.  Returns the new branch's name."""
        name = f"set-up {sum(1 for n in self.branches if n.startswith('set-up')) + 1}"
        self.branches[name] = state
        self.fork_points[name] = 0
        self.parents[name] = self.live
        self.live = name
        self.replaying = False
        self._replay_cache = None
        return name

    def adopt(self, state: State, name: str = "main") -> None:
        """A new game (from the set-up panel): forget the old branches and any comparison."""
        self.branches = {name: state}
        self.fork_points = {name: 0}
        self.parents = {name: None}
        self.live = name
        self._replay_cache = None
        self.clear_compare()

    # -- replay -------------------------------------------------------------------------------
    def replay_at(self, k: int) -> State:
        st = self.branches[self.live]
        cache = self._replay_cache
        if cache and cache[0] <= k and cache[1].orders == st.orders[:cache[0]]:
            s = cache[1].fork()
            for o in st.orders[cache[0]:k]:
                s.apply(o)
        else:
            s = replay_state(st, k)
        self._replay_cache = (k, s)
        return s

    def show_replay(self, k: int) -> None:
        st = self.branches[self.live]
        if k >= len(st.orders):
            self.back_to_live()
            return
        s = self.replay_at(k)
        self.replaying = True
        self.wb.map.refresh(s, self.wb.side)
        self.wb.map.mark_past(f"REPLAY: after order {k} of {len(st.orders)} ({s.turn_label})")
        o = st.orders[k - 1] if k > 0 else None
        note = st.annotations.get(k - 1)
        self.replay_info.value = (
            f"<b>Replay</b>: after order {k} of {len(st.orders)} — {html.escape(' / '.join(s.clock))}"
            + (f"; order #{order_no(k - 1)}: <code>{html.escape(str(o))}</code>" if o else " (the start)")
            + (f"; note: {html.escape(' '.join(note.get('marks', [])))} {html.escape(note.get('comment', ''))}"
               if note else "")
            + ". The live game is unchanged; clicks are off until 'Back to live'.")
        self.wb.mode = "replay"

    def back_to_live(self) -> None:
        self.replaying = False
        self.wb.mode = "play"
        self.wb.map.mark_past(None)
        self.replay_info.value = ""
        self.slider.unobserve_all("value")
        self.slider.value = self.slider.max
        self.slider.observe(lambda ch: self.wb._guard(self.show_replay, ch["new"]), names="value")
        self.wb.changed()

    # -- compare --------------------------------------------------------------------------------
    def default_compare(self) -> str | None:
        """B's default: the live branch's parent, else the newest other branch."""
        others = [n for n in self.branches if n != self.live]
        parent = self.parents.get(self.live)
        if parent in others:
            return parent
        return others[-1] if others else None

    def clear_compare(self) -> None:
        """Forget the comparison (a new scenario: the old branches are gone)."""
        self.compare_view = self.compare_live_view = None
        self.compare_box.children = []
        self.compare_info.value = ""
        self._compare_for = None
        self.compare_with.options = []
        self.compared = {}

    def compare(self, other: str | None = None) -> list[str]:
        """Draw the live branch (A) and ``other`` (B) side by side and list what differs."""
        other = other or self.compare_with.value or self.default_compare()
        if not other or other not in self.branches or other == self.live:
            self.wb.say("Fork a branch first, then compare it with the live one.", "warn")
            return []
        a, b = self.wb.state, self.branches[other]
        from bokeh.layouts import row

        from workbench.ui.mapview import MapView

        title_a = f"A: live '{self.live}' ({len(a.orders)} orders)"
        title_b = f"B: '{other}' ({len(b.orders)} orders)"
        views = (self.compare_live_view, self.compare_view)
        if views[0] is None or views[1] is None or views[1].state.map is not b.map or views[0].state.map is not a.map:
            w, h = max(self.wb.width // 2 - 8, 200), max(int(self.wb.height * 0.6), 200)
            va = MapView(a, width=w, height=h, side=self.wb.side, title=title_a,
                         tools="pan,wheel_zoom,reset")
            live = self.wb.map.fig
            va.fig.x_range.start, va.fig.x_range.end = live.x_range.start, live.x_range.end
            va.fig.y_range.start, va.fig.y_range.end = live.y_range.start, live.y_range.end
            vb = MapView(b, width=w, height=h, side=self.wb.side, title=title_b, tools="pan,wheel_zoom,reset",
                         ranges=(va.fig.x_range, va.fig.y_range))  # one view: pan A, B follows
            self.compare_live_view, self.compare_view = va, vb
            self.compare_box.children = [self.wb._bokeh(row(va.fig, vb.fig))]
        else:
            va, vb = views
            va.fig.title.text, vb.fig.title.text = title_a, title_b
        va.refresh(a, self.wb.side)
        vb.refresh(b, self.wb.side)
        diffs = diff_states(a, b)
        split, orders = split_point(a, b)
        ra, rb = rolls_since(a, split), rolls_since(b, split)
        same = sum(1 for x, y in zip(ra, rb, strict=False) if x.split(" ")[0] == y.split(" ")[0])
        where = f"after order #{orders}" if orders else "at the start"
        self.compare_info.value = (
            f"<b>A</b> = live '{html.escape(self.live)}' ({len(a.orders)} orders) · <b>B</b> = "
            f"'{html.escape(other)}' ({len(b.orders)} orders); they split {where}. "
            f"{len(diffs)} difference(s):"
            "<ul>" + "".join(f"<li>{html.escape(d)}</li>" for d in diffs[:40]) + "</ul>"
            f"Dice since the split — A rolled {len(ra)}: {html.escape(', '.join(ra[:8]) or 'none')}"
            f"{' ...' if len(ra) > 8 else ''}; B rolled {len(rb)}: "
            f"{html.escape(', '.join(rb[:8]) or 'none')}{' ...' if len(rb) > 8 else ''} "
            f"({same} of {min(len(ra), len(rb))} paired rolls equal: same seed, same dice stream).")
        self.compared = {"a": self.live, "b": other, "split_events": split, "split_orders": orders,
                         "rolls_a": len(ra), "rolls_b": len(rb)}
        return diffs

    def refresh(self) -> None:
        st = self.wb.state
        self.undo_btn.disabled = not st.can_undo
        names = list(self.branches)
        if list(self.branch.options) != names:
            self.branch.unobserve_all("value")
            self.branch.options = names
            self.branch.value = self.live
            self.branch.observe(lambda ch: self.wb._guard(self.switch, ch["new"]), names="value")
        others = [n for n in names if n != self.live]
        if self._compare_for != (self.live, tuple(others)):  # new branches or another live one
            self._compare_for = (self.live, tuple(others))
            self.compare_with.options = others
            self.compare_with.value = self.default_compare()
        if not self.replaying:
            self.slider.unobserve_all("value")
            self.slider.max = len(st.orders)
            self.slider.value = len(st.orders)
            self.slider.observe(lambda ch: self.wb._guard(self.show_replay, ch["new"]), names="value")
        self.info.value = (f"{len(st.orders)} orders; undo {'possible' if st.can_undo else 'not possible (a die was rolled since, or nothing to undo)'}; "
                           f"branches: {', '.join(html.escape(n) for n in names)}.")
