"""``wb.ui.Workbench``: one ipywidgets layout with the map, the panels and the charts.

The workbench is generic over rulesets.  It reads ``state.decision``,
``state.legal_orders()`` / ``state.legal_orders_of(kind)``, the event log and
the map, and sends orders through ``state.apply``; the few numbers only the
rules know come from the ruleset's face (:mod:`workbench.engine.face`).

Layout::

    title · view (umpire / one side) · message line (refusals name their rule)
    ┌ map (bokeh, patched) ───────────────┐ ┌ phase outline + play buttons ┐
    │ overlays: control supply ZOC air fog │ │ order entry (clicks, widgets)│
    └──────────────────────────────────────┘ └──────────────────────────────┘
    tabs: Attack planner · Log · Undo, fork & replay · Set-up · Charts
    output (tracebacks of callbacks, never bare prints)
"""

from __future__ import annotations

import html
import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import numpy as np

from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.game import Game
from workbench.engine.state import State
from workbench.ui.charts import ChartsPanel
from workbench.ui.history import HistoryPanel
from workbench.ui.legend import legend_html
from workbench.ui.log import LogPanel
from workbench.ui.mapview import MARK_COLOURS, MapView
from workbench.ui.orders import OrderEntry
from workbench.ui.outline import Outline
from workbench.ui.planner import Planner
from workbench.ui.setup import SetupPanel

CSS = """
<style>
.wb-rule { color:#7a4b00; font-family:monospace; font-size:90%; }
.wb-msg { padding:4px 8px; border-radius:4px; min-height:1.6em; }
.wb-title h3, .wb-title div { white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
.wb-msg-ok { background:#e6f4ea; } .wb-msg-info { background:#eef3fb; }
.wb-msg-warn { background:#fff4d6; } .wb-msg-refused { background:#fde7e7; border:1px solid #d93025; }
.wb-you-are-here { background:#ffd400; padding:0 4px; border-radius:3px; font-size:85%; }
.wb-here { background:#fff8cc; }
.wb-outline { font-size:12px; line-height:1.35; max-height:330px; overflow:auto; }
.wb-decision { background:#f3f3f3; padding:4px 6px; border-left:4px solid #1f77b4; font-size:12.5px; }
.wb-table { border-collapse:collapse; font-size:12px; margin:4px 0; }
.wb-table td, .wb-table th { border:1px solid #ddd; padding:1px 6px; }
.wb-log-table { border-collapse:collapse; font-size:11.5px; }
.wb-log-table td, .wb-log-table th { border-bottom:1px solid #eee; padding:1px 5px; text-align:left;
  white-space:nowrap; }
.wb-log-table td.wb-what { max-width:560px; overflow:hidden; text-overflow:ellipsis; }
.wb-log-table td.wb-step { max-width:160px; overflow:hidden; text-overflow:ellipsis; color:#888; font-size:85%; }
.wb-order-group { font-weight:bold; color:#1f4e79; border-bottom:1px solid #c8d6e5; margin-top:6px; }
.wb-kind-row { margin:2px 0 4px 0; }
.wb-orders .widget-button, .wb-outline-panel .widget-button { overflow:visible; }
.wb-ev-roll td { background:#fffbe6; }
.wb-interrupt { color:#b00020; }
</style>
"""
#: The tabs beside the map (what a click on the map works with) and the tabs under it (the wide
#: panels).  The map and the planner or the log are on screen together at 1366x768 (issue 26.6).
SIDE_TABS = ("Orders", "Attack planner", "Log")
TABS = ("Undo, fork & replay", "Set-up", "Charts")
#: the panels behind the tabs, built (widgets and all) when first used, so the browser gets a
#: third of the widget models when the workbench first shows: (tab bar, index, class)
LAZY_PANELS = {"log": ("side", 2, LogPanel), "history": ("bottom", 0, HistoryPanel),
               "setup": ("bottom", 1, SetupPanel), "charts": ("bottom", 2, ChartsPanel)}
#: The right-hand column's width, and the smallest map frame a fitted layout uses (px).
SIDE_W = 440
MIN_MAP_W, MIN_MAP_H = 420, 300
#: Vertical room the map's toolbar, title and borders take, and what JupyterLab and the
#: workbench's own lines above the map take, when the map is fitted to the window (px).
MAP_CHROME_H, PAGE_CHROME_H = 60, 170

#: In the page, on the map's first layout and on every window resize: report the room the
#: workbench has (its width, the window's height) to the kernel, which fits the map to it.
VIEWPORT_JS = """
const report = () => {
  let width = window.innerWidth - 360;
  try {
    const view = Bokeh.index.find_one(fig);
    const host = view != null ? view.el.closest('.wb-workbench') : null;
    if (host != null && host.clientWidth > 0) { width = host.clientWidth; }
  } catch (e) {}
  const w = Math.round(width), h = Math.round(window.innerHeight);
  if (probe.data.w[0] !== w || probe.data.h[0] !== h) { probe.data = {w: [w], h: [h]}; }
};
if (!probe.tags.includes('listening')) {
  probe.tags = [...probe.tags, 'listening'];
  let timer = null;
  window.addEventListener('resize', () => { clearTimeout(timer); timer = setTimeout(report, 250); });
}
report();
"""


#: The static map's loader: draws the map where no live workbench runs (nbconvert's HTML), and
#: hides its output where one does (JupyterLab; the cell's live workbench).
STATIC_JS = """<script type="text/javascript">
(function () {
  const el = document.getElementById('DIV');
  if (el == null) { return; }
  const cell = el.closest('.jp-Cell, .cell');
  if (document.querySelector('.jp-LabShell') || (cell && cell.querySelector('.wb-workbench'))) {
    const out = el.closest('.jp-OutputArea-child, .output_area');
    if (out) { out.style.display = 'none'; }
    return;
  }
  const item = ITEM;
  let tries = 0;
  const draw = () => {
    if (window.Bokeh && window.Bokeh.embed) { window.Bokeh.embed.embed_item(item, 'DIV'); }
    else if (tries++ < 200) { setTimeout(draw, 50); }
  };
  draw();
})();
</script>"""


def _lazy_panel(name: str) -> property:
    def get(self: Workbench) -> Any:
        panel = self._built.get(name)
        if panel is None:
            bar, k, cls = LAZY_PANELS[name]
            panel = self._built[name] = cls(self)
            self._slots[bar][k].children = [panel.widget]
            if name == "history":
                panel.refresh()
        return panel
    return property(get, doc=f"The {name} panel (built on first use).")


class Workbench:
    """The JupyterLab workbench around one game state (or a game: a fresh state is made).

    ``side=None`` is the umpire view; a side name shows that side's view with
    the fog-of-war rules (``ruleset.view``) and lets clicks command only it.
    """

    def __init__(self, state_or_game: State | Game, *, seed: int = 0, side: str | None = None,
                 width: int = 860, height: int = 600, fit: bool = True) -> None:
        """``width`` x ``height`` is the map frame; with ``fit`` the page may shrink it (never
        grow it) to the window, so the map and the panels beside it fit on a laptop screen."""
        if isinstance(state_or_game, Game):
            state_or_game = state_or_game.new_state(seed)
        self.state: State = state_or_game
        self.side = side
        self.width, self.height = width, height
        self.max_size = (width, height)
        self.fit = fit
        self.viewport: tuple[int, int] | None = None  # what the page last reported (fit_to)
        self.timings: dict[str, float] = {}
        #: add a static picture of the map to the notebook output (see _repr_mimebundle_)
        self.static_fallback = True
        self.track_history: dict[str, dict[str, Any]] = {}
        #: order kinds the map click handles (orders with a unit and a destination hex)
        self.clickable_kinds = {"move", "rail", "retreat", "sail", "fly", "advance", "deploy", "redeploy"}
        #: kinds whose legal orders can run to thousands: listed in a drop-down only on request
        self.big_kinds = {"move", "rail", "sail"}
        self.out = widgets.Output(layout=widgets.Layout(max_height="200px", overflow="auto"))
        self.message = widgets.HTML(value="<div class='wb-msg wb-msg-info'>Ready.</div>")
        self.message.add_class("wb-message")
        self.message.layout = widgets.Layout(height="58px", overflow="auto")  # never moves the map
        self.last_message = ("", "info")
        self._oos: set[str] | None = None
        self.overlay_on = {"control": False, "supply": False, "zoc": False, "airrange": True, "fog": True}

        self.map = MapView(self.state, width=width, height=height, side=side)
        self.map.on_click(self._on_click)
        self._watch_viewport(self.map)
        self.map_box = widgets.Box([self._bokeh(self.map.fig)])
        self.map_box.add_class("wb-map")
        self.orders = OrderEntry(self)
        self.planner = Planner(self)
        self.outline = Outline(self, seed=seed)
        self._built: dict[str, Any] = {}  # log, history, setup, charts: see LAZY_PANELS
        self._slots = {"side": [widgets.VBox(), widgets.VBox([self.planner.widget]), widgets.VBox()],
                       "bottom": [widgets.VBox() for _ in TABS]}
        self.mode = "play"  # or "setup": clicks edit the position

        sides = [("umpire", "umpire")] + [(s, s) for s in self.state.ruleset.sides]
        self.view_toggle = widgets.ToggleButtons(options=sides, value=side or "umpire",
                                                 description="view", style={"button_width": "70px"})
        self.view_toggle.observe(lambda ch: self._guard(self.set_side, None if ch["new"] == "umpire" else ch["new"]),
                                 names="value")
        self.overlay_boxes = {}
        for name, label in (("control", "control"), ("supply", "out of supply"), ("zoc", "enemy ZOC"),
                            ("airrange", "air range"), ("fog", "fog of war")):
            cb = widgets.Checkbox(value=self.overlay_on[name], description=label, indent=False,
                                  layout=widgets.Layout(width="120px"))
            cb.observe(lambda ch, n=name: self._guard(self.toggle_overlay, n, ch["new"]), names="value")
            self.overlay_boxes[name] = cb
        self.title = widgets.HTML()
        self.title.add_class("wb-title")
        # a tab's panel is built and put in its slot when the tab is first opened (or the panel is
        # first used): the browser then gets and builds the first tab only, which shortens the time
        # to a visible map
        self._slots["side"][0].children = [self.orders.widget, widgets.HTML("<b>Phase outline</b>"),
                                           self.outline.widget]
        self.side_tabs = widgets.Tab(children=self._slots["side"],
                                     layout=widgets.Layout(width="100%", flex="0 0 auto"))
        self.side_tabs.titles = SIDE_TABS
        self.side_tabs.add_class("wb-side-tabs")
        self.side_tabs.observe(lambda ch: self._guard(self._tab_changed), names="selected_index")
        self.tabs = widgets.Tab(children=self._slots["bottom"], selected_index=0)
        self.tabs.titles = TABS
        self.tabs.observe(lambda ch: self._guard(self._tab_changed), names="selected_index")
        # beside the map, as tall as the map: the orders, the planner and the log stay in view with it
        self.right = widgets.VBox([self.outline.controls, self.side_tabs], layout=widgets.Layout(
            min_width=f"{SIDE_W - 40}px", width=f"{SIDE_W}px", overflow="auto"))
        self.right.add_class("wb-right")
        right = self.right
        self.fit_btn = widgets.Button(description="Whole map", layout=widgets.Layout(width="auto"),
                                      tooltip="show the whole map with its off-map boxes")
        self.fit_btn.on_click(lambda _=None: self._guard(self.view_whole_map))
        self.units_btn = widgets.Button(description="Go to units", layout=widgets.Layout(width="auto"),
                                        tooltip="centre on the units of the side that decides now")
        self.units_btn.on_click(lambda _=None: self._guard(self.view_units))
        self.legend = widgets.Accordion(children=[widgets.HTML(legend_html(self.state))], selected_index=None)
        self.legend.set_title(0, "Legend")
        self.legend.add_class("wb-legend-box")
        self.left = widgets.VBox([self.map_box, widgets.HBox([*self.overlay_boxes.values(), self.fit_btn,
                                                              self.units_btn],
                                                             layout=widgets.Layout(flex_flow="row wrap")),
                                  self.legend])
        self.left.add_class("wb-left")
        self.widget = widgets.VBox([
            widgets.HTML(CSS), self.title, widgets.HBox([self.view_toggle]), self.message,
            widgets.HBox([self.left, right], layout=widgets.Layout(flex_flow="row nowrap", align_items="flex-start")),
            self.tabs, self.out])
        self.widget.add_class("wb-workbench")
        self._size_columns()
        self.history  # noqa: B018 - the open tab under the map: built now (the others when opened)
        self.changed()

    log = _lazy_panel("log")
    history = _lazy_panel("history")
    setup = _lazy_panel("setup")
    charts = _lazy_panel("charts")

    # -- jupyter display ---------------------------------------------------------------------------
    @staticmethod
    def _bokeh(fig: Any) -> widgets.Widget:
        from jupyter_bokeh.widgets import BokehModel

        return BokehModel(fig)

    def _ipython_display_(self) -> None:
        """Two outputs: the live widget (sent at once, so the map shows as soon as it can), then a
        static picture of the map for readers without a kernel (built after the widget went out;
        it hides itself where the live workbench runs)."""
        from IPython.display import display

        for bundle in self.display_outputs():
            display(bundle, raw=True)

    def display_outputs(self) -> Iterator[dict[str, Any]]:
        """The notebook outputs of the workbench (see :meth:`_ipython_display_`); lazily, so the
        widget's output is published before the static map is computed."""
        yield self._repr_mimebundle_(static=False)
        if self.static_fallback:
            yield {"text/html": self.static_html()}

    def _repr_mimebundle_(self, static: bool = True, **kw: Any) -> dict[str, Any]:
        """The live widget for JupyterLab and, with ``static``, a static map of the current
        position for everything that has no kernel or widget state (``nbconvert``, GitHub, a
        saved notebook): they show the map and the game's name, not ``VBox(...)``."""
        data = dict(self.widget._repr_mimebundle_(**kw) or {})
        data["text/plain"] = self.summary()
        if static and self.static_fallback:
            data["text/html"] = self.static_html()
        return data

    def summary(self) -> str:
        st = self.state
        return (f"Wargame Workbench: {st.game.scenario.title} ({st.ruleset.name}, seed {st.seed}), "
                f"{' / '.join(st.clock)}; {len(st.orders)} orders")

    def static_html(self) -> str:
        """A kernel-free bokeh picture of the map as it is now, with the game's name.  It needs
        BokehJS on the page (``output_notebook(INLINE)`` puts it there).  Where the live
        workbench is on the page (JupyterLab), it hides itself instead of drawing a second map."""
        from bokeh.embed import json_item

        t0 = time.perf_counter()
        item = json.dumps(json_item(self.map.static_twin().fig)).replace("</", "<\\/")
        self.timings["static_html"] = time.perf_counter() - t0
        div = f"wb-static-{uuid.uuid4().hex}"
        return (f"<div class='wb-static'><p><b>{html.escape(self.summary())}</b></p><div id='{div}'></div>"
                "<p><small>A picture of the workbench's map; run the notebook in JupyterLab for the live "
                f"workbench.</small></p></div>{STATIC_JS.replace('DIV', div).replace('ITEM', item)}")

    # -- messages ------------------------------------------------------------------------------------
    def say(self, text: str, level: str = "info") -> None:
        self.last_message = (text, level)
        self.message.value = f"<div class='wb-msg wb-msg-{level}'>{html.escape(text)}</div>"

    def refuse(self, refusal: Refusal | IllegalOrder, what: str = "") -> None:
        """Show the kernel's refusal: the rule and why, nothing changed."""
        rule, why = refusal.refusal if isinstance(refusal, IllegalOrder) else refusal
        self.last_message = (f"{rule}: {why}", "refused")
        self.message.value = (f"<div class='wb-msg wb-msg-refused'><b>Refused</b>{(' (' + html.escape(what) + ')') if what else ''}: "
                              f"{html.escape(why)} <span class='wb-rule'>[rule {html.escape(rule)}]</span>"
                              f"<br><small>Nothing was changed.</small></div>")

    def _guard(self, fn: Any, *args: Any) -> Any:
        """Run a callback with its output (and any traceback) captured in the Output widget."""
        with self.out:
            try:
                return fn(*args)
            except Exception as exc:  # noqa: BLE001 - the widget must keep working
                self.say(f"Internal error: {type(exc).__name__}: {exc}", "refused")
                raise

    # -- the state -------------------------------------------------------------------------------
    def may_command(self, side: str) -> bool:
        return self.side is None or self.side == side

    def may_act(self) -> bool:
        """Whether this view may act on the decision owed now; if not, say who owes it (a
        side's view acts only for that side, issue 26.3)."""
        d = self.state.decision
        if d is not None and not self.may_command(d.side):
            self.say(f"This is the {self.side} view; {d.side} owes the decision ('{d.prompt}').", "warn")
            return False
        return True

    def apply(self, order: dict[str, Any]) -> bool:
        """Send one order to the kernel; show its refusal, or refresh everything."""
        if not self.may_act():
            return False
        refusal = self.state.check(order)
        if refusal is not None:
            self.refuse(refusal, order.get("kind", "") if isinstance(order, dict) else "")
            return False
        self.state.apply(order)
        self.changed()
        return True

    def set_state(self, state: State, *, message: str = "") -> None:
        """Switch the workbench to another state (a fork, a replay, a new set-up)."""
        same_map = state.map is self.state.map
        old = self.state.game
        if state.game is not old and (state.game.scenario.id != old.scenario.id or state.calendar != old.calendar):
            self.track_history = {}  # another game: its charts start afresh
            if "charts" in self._built:
                self.charts.reset()
        self.state = state
        self.orders.selected = None
        self.map.selected_unit = None
        if same_map:
            self.map.state = state
            self.map.mark_past(None)  # the title follows the loaded scenario (issue 26.6)
        else:
            self.map = MapView(state, width=self.width, height=self.height, side=self.side)
            self._watch_viewport(self.map)
            self.legend.children = [widgets.HTML(legend_html(state))]
            self.map.on_click(self._on_click)
            self.map_box.children = [self._bokeh(self.map.fig)]
        self.outline.set_bot(self.outline.bot_name)  # the bot of the loaded game's ruleset
        self.changed()
        if message:
            self.say(message, "ok")

    def snapshot_turn(self, st: State | None = None) -> None:
        """Keep this turn's metrics for the charts (one snapshot per turn label, the latest)."""
        st = st or self.state
        self.track_history[st.turn_label] = {
            "tracks": dict(st.tracks), "metrics": st.ruleset.metrics(st).as_dict(), "turn": st.turn}

    def view_whole_map(self) -> None:
        """Frame the whole map and its off-map boxes (issue 26.6)."""
        self.map.set_focus(whole=True)
        self.say("The whole map.", "info")

    def view_units(self) -> None:
        """Centre the map where the deciding side's units stand (issue 26.6)."""
        self.map.set_focus()
        d = self.state.decision
        self.say(f"Centred on the {d.side if d else 'remaining'} units.", "info")

    def set_side(self, side: str | None) -> None:
        self.side = side
        self.orders.select(None)
        self.changed()
        self.say(f"Showing the {'umpire' if side is None else side} view.", "info")

    def changed(self) -> None:
        """Refresh everything after the state changed (patching sources, never rebuilding the map)."""
        t0 = time.perf_counter()
        st = self.state
        self.orders.invalidate()
        self.snapshot_turn(st)
        self._oos = st.ruleset.out_of_supply(st) if self.overlay_on["supply"] else None
        self.map.state = st
        with self.map.batch():
            self.refresh_overlays()
            self.show_selection()  # redraws the counters once
        d = st.decision
        self.title.value = (f"<h3 style='margin:2px 0'>{html.escape(st.game.scenario.title)} "
                            f"<small>({html.escape(st.ruleset.name)}, seed {st.seed})</small></h3>"
                            f"<div><b>{html.escape(' / '.join(st.clock))}</b> — "
                            + (html.escape(str(d)) if d else f"game over: {html.escape(str(st.result))}")
                            + "</div>")
        self.outline.refresh()
        self.orders.refresh()
        self.planner.refresh()
        if self.is_open("Attack planner") and self.planner.open_kind() is None:
            self.focus_tab("Orders")  # the attack is over: back to what is open now
        if "history" in self._built:
            self.history.refresh()
        if "log" in self._built:
            self.log.dirty = True
            if self.is_open("Log"):
                self.log.refresh()
        if "charts" in self._built:
            self.charts.dirty = True
            if self.is_open("Charts"):
                self.charts.refresh()
        self.timings["refresh"] = time.perf_counter() - t0

    def refresh_overlays(self) -> None:
        st, m = self.state, self.map
        names = tuple(n for n in ("control", "supply", "zoc") if self.overlay_on[n])
        layers = st.ruleset.overlays(st, self.side) if names else {}
        for n in ("control", "supply", "zoc"):
            if self.overlay_on[n]:
                m.set_overlay_codes(n, layers.get(n), skip_water=(n == "control"))
            else:
                m.set_overlay(n, [])
        fog = []
        if self.overlay_on["fog"] and self.side is not None:
            view = st.ruleset.view(st, self.side)
            fog = list(getattr(view, "hidden_hexes", []) or [])
        m.set_overlay("fog", fog, MARK_COLOURS["fog"])

    def toggle_overlay(self, name: str, on: bool) -> None:
        self.overlay_on[name] = on
        if name == "supply":
            self._oos = self.state.ruleset.out_of_supply(self.state) if on else None
        with self.map.batch():
            self.refresh_overlays()
            self.show_selection()

    def show_selection(self) -> None:
        with self.map.batch():
            self._show_selection()

    def _show_selection(self) -> None:
        m, o = self.map, self.orders
        uid = o.selected
        if uid is None:
            m.set_overlay("reach", [])
            m.set_overlay("selected", [])
            m.set_overlay("airrange", [])
            m.refresh(self.state, self.side, oos=self._oos, ready=self.orders.ready_units())
            return
        u = self.state.unit(uid)
        m.set_overlay("reach", list(o.reach), MARK_COLOURS["reach"])
        m.set_overlay("selected", [u.location], MARK_COLOURS["selected"])
        rng = self.state.ruleset.air_range(self.state, u) if self.overlay_on["airrange"] else None
        if rng and u.location.isdigit():
            hm = self.state.map
            d = hm.grid.distance(np.full(hm.size, hm.index(u.location)), np.arange(hm.size))
            m.set_overlay("airrange", np.nonzero(d <= rng)[0], MARK_COLOURS["airrange"])
        else:
            m.set_overlay("airrange", [])
        m.refresh(self.state, self.side, oos=self._oos, ready=self.orders.ready_units())

    def show_targets(self, hexes: list[str]) -> None:
        self.map.set_overlay("targets", hexes, MARK_COLOURS["targets"])

    def focus_tab(self, title: str) -> None:
        """Open the tab called ``title`` (beside the map or under it)."""
        if title in SIDE_TABS:
            self.side_tabs.selected_index = SIDE_TABS.index(title)
        else:
            self.tabs.selected_index = TABS.index(title)

    def is_open(self, title: str) -> bool:
        if title in SIDE_TABS:
            return self.side_tabs.selected_index == SIDE_TABS.index(title)
        return self.tabs.selected_index == TABS.index(title)

    def _tab_changed(self) -> None:
        for name, (bar, slot, _cls) in LAZY_PANELS.items():
            tabs = self.side_tabs if bar == "side" else self.tabs
            if tabs.selected_index == slot:
                getattr(self, name)  # builds the panel into its slot on first opening
        if self.is_open("Charts") and self.charts.dirty:
            self.charts.refresh()
        if self.is_open("Log") and self.log.dirty:
            self.log.refresh()

    # -- fitting the map to the window ---------------------------------------------------------------
    def _watch_viewport(self, view: MapView) -> None:
        """Let the page tell the kernel how much room the workbench has (on the map's first
        layout and on each window resize), so :meth:`fit_to` can size the map."""
        from bokeh.models import ColumnDataSource, CustomJS

        probe = ColumnDataSource({"w": [0], "h": [0]}, name="wb-viewport")
        probe.on_change("data", lambda _a, _o, new: self._guard(self.fit_to, new["w"][0], new["h"][0]))
        view.fig.js_on_change("inner_width", CustomJS(args={"probe": probe, "fig": view.fig}, code=VIEWPORT_JS))
        self.viewport_probe = probe

    def fit_to(self, width: int, height: int) -> tuple[int, int]:
        """Size the map frame for a workbench ``width`` px wide in a window ``height`` px tall:
        the map, with the orders, planner and log beside it, fills the width, and the map's
        height leaves JupyterLab's bars and the lines above the map on screen.  Never larger
        than the size the workbench was made with; the view keeps its centre and zoom."""
        self.viewport = (int(width), int(height))
        if not self.fit or width <= 0 or height <= 0:
            return self.width, self.height
        mw, mh = self.max_size
        fw = int(max(MIN_MAP_W, min(mw, width - SIDE_W - 30)))
        fh = int(max(MIN_MAP_H, min(mh, height - PAGE_CHROME_H - MAP_CHROME_H)))
        if (fw, fh) != (self.width, self.height):
            self.resize_map(fw, fh)
        return fw, fh

    def resize_map(self, width: int, height: int) -> None:
        """A new frame size for the map, same centre, same scale (data units per pixel)."""
        fig = self.map.fig
        xr, yr = fig.x_range, fig.y_range
        sx = (xr.end - xr.start) / max(fig.frame_width, 1)
        sy = (yr.end - yr.start) / max(fig.frame_height, 1)
        cx, cy = (xr.start + xr.end) / 2, (yr.start + yr.end) / 2
        self.width, self.height = width, height
        self.map.width, self.map.height = width, height
        fig.frame_width, fig.frame_height = width, height
        xr.start, xr.end = cx - sx * width / 2, cx + sx * width / 2
        yr.start, yr.end = cy - sy * height / 2, cy + sy * height / 2
        self._size_columns()

    def _size_columns(self) -> None:
        """The column beside the map is as tall as the map (it scrolls inside)."""
        self.right.layout.height = f"{self.height + MAP_CHROME_H}px"
        self.right.layout.max_height = f"{self.height + MAP_CHROME_H}px"
        self.left.layout.min_width = f"{self.width + 12}px"

    def hex_info(self, label: str) -> str:
        hm = self.state.map
        box = hm.boxes.get(label)
        if box is not None:
            tip = self.map.stack_tip(label)
            return (f"{label}: an off-map {box.kind.replace('_', ' ')} box, linked to "
                    f"{', '.join(box.links[:6])}{' ...' if len(box.links) > 6 else ''}"
                    + (f"; {tip}" if tip else "; empty") + ".")
        i = hm.index(label)
        m = self.map
        bits = [f"{label}: {hm.hexes['terrain'][i]}"]
        if "country" in hm.hexes.columns and hm.hexes["country"][i]:
            bits.append(hm.hexes["country"][i])
        if m.places_text[i]:
            bits.append(m.places_text[i])
        if m.features[i]:
            bits.append(m.features[i])
        if m.stack_tip(label):
            bits.append(m.stack_tip(label))
        return ", ".join(bits) + "."

    # -- clicks ------------------------------------------------------------------------------------
    def _on_click(self, label: str) -> None:
        self._guard(self.click, label)

    def click(self, label: str) -> None:
        """A tap on hex ``label`` (the browser calls this through the map; tests call it directly)."""
        t0 = time.perf_counter()
        if self.mode == "setup":
            self.setup.click(label)
        elif self.mode == "replay":
            self.say("Replaying: press 'Back to live' (Undo, fork & replay tab) to give orders again.", "warn")
        else:
            self.orders.click(label)
        self.timings["click"] = time.perf_counter() - t0

    # -- sharing -----------------------------------------------------------------------------------
    def export_html(self, path: str | Path) -> Path:
        """One standalone page with the map (framed as it is now), a move list that steps it
        through the game, the notes, the charts and the log; opens offline, no kernel."""
        from workbench.ui.export import workbench_page

        return workbench_page(self.state, path, side=self.side, view=self.map.static_twin(marks=False),
                              charts=self.charts.build(fresh=True).figures())
