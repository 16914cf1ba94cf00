"""Standalone pages for sharing: the map, the notes, a move list, the charts and the log.

Bokeh's ``file_html`` with INLINE resources: BokehJS is embedded, so the page
opens offline and without a kernel.  The live figures belong to the notebook's
document, so the page is built from fresh models (a new :class:`MapView` of
the same state, a log table and the charts), never by moving the live ones.

The move list steps the map through the game without a server: every position
is computed here (the game replayed order by order) and the page carries the
counter layer of each one.  Positions share most of their stacks, so the page
holds a *pool* of distinct counter rows and, per position, the indices of its
rows; a click on a move runs a few lines of JavaScript that rebuild the
counter source from them.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bokeh.embed import file_html
from bokeh.layouts import column, row
from bokeh.models import ColumnDataSource, CustomJS, DataTable, Div, TableColumn
from bokeh.resources import INLINE

from workbench.engine.record import atomic_write_text

if TYPE_CHECKING:
    from workbench.engine.state import State
    from workbench.ui.mapview import MapView

#: Positions a page carries at most (the move list still lists every order; later ones
#: show their text but do not move the map).
MAX_POSITIONS = 2000

STEP_JS = """
const i = moves.selected.indices.length ? moves.selected.indices[0] : null;
if (i === null || i >= rows.length) { return; }
const data = {};
for (const col of cols) {
  const p = pool[col];
  data[col] = rows[i].map((j) => p[j]);
}
units.data = data;
caption.text = captions[i];
fig.title.text = titles[i];
"""


def write_page(models: list[Any], path: str | Path, title: str) -> Path:
    path = Path(path)
    page = file_html(column(*models) if len(models) > 1 else models[0], INLINE, title)
    atomic_write_text(path, page)
    return path


def log_table(state: State, *, width: int = 860, height: int = 320, limit: int = 2000) -> DataTable:
    """The event log as a bokeh table (the last ``limit`` events), numbered like the workbench."""
    from workbench.ui.history import order_no

    ev = state.events().tail(limit)
    data = {
        "seq": ev["seq"].to_list(), "order": [order_no(k) for k in ev["order"].to_list()],
        "turn": ev["turn"].to_list(), "step": ev["step"].to_list(),
        "kind": ev["kind"].to_list(), "side": [s or "" for s in ev["side"].to_list()],
        "rule": ev["rule"].to_list(), "text": ev["text"].to_list(),
        "dice": ["" if d is None else "+".join(map(str, d)) for d in ev["dice"].to_list()],
    }
    cols = [TableColumn(field="seq", title="#", width=40), TableColumn(field="order", title="order #", width=55),
            TableColumn(field="turn", title="turn", width=70),
            TableColumn(field="kind", title="kind", width=80), TableColumn(field="side", title="side", width=55),
            TableColumn(field="rule", title="rule", width=80), TableColumn(field="dice", title="dice", width=45),
            TableColumn(field="text", title="what happened", width=420),
            TableColumn(field="step", title="step", width=220)]
    return DataTable(source=ColumnDataSource(data), columns=cols, width=width, height=height,
                     index_position=None, name="log-table")


def note_text(note: dict[str, Any]) -> str:
    return " ".join([*note.get("marks", []), note.get("comment", "")]).strip()


@dataclass
class Moves:
    """The game order by order: one row per position (0 = the start), the counter rows of
    each position as indices into a pool of distinct rows."""

    number: list[str] = field(default_factory=list)
    turn: list[str] = field(default_factory=list)
    side: list[str] = field(default_factory=list)
    order: list[str] = field(default_factory=list)
    note: list[str] = field(default_factory=list)
    captions: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    rows: list[list[int]] = field(default_factory=list)
    pool: dict[str, list] = field(default_factory=dict)

    def table(self) -> dict[str, list]:
        return {"number": self.number, "turn": self.turn, "side": self.side, "order": self.order,
                "note": self.note}

    def position(self, k: int) -> dict[str, list]:
        """The counter columns of position ``k``, as the page's JavaScript rebuilds them."""
        return {c: [p[j] for j in self.rows[k]] for c, p in self.pool.items()}


def game_moves(state: State, view: MapView, *, side: str | None = None,
               limit: int = MAX_POSITIONS) -> Moves:
    """Replay ``state``'s game order by order and keep each position's counters as ``view``
    draws them (``side``'s view: the fog of war of the page is the workbench's)."""
    from workbench.ui import counters as counters_mod
    from workbench.ui.history import order_no, replay_state
    from workbench.ui.orders import describe

    m = Moves(pool={k: [] for k in view.unit_source.data})
    seen: dict[str, int] = {}
    cols = list(m.pool)
    title = state.game.scenario.title

    def keep(st: State, k: int) -> None:
        data = view.counter_data(counters_mod.stacks(st, side))
        idx = []
        for i in range(len(data[cols[0]]) if cols else 0):
            r = [data[c][i] for c in cols]
            key = json.dumps(r, default=str)
            j = seen.get(key)
            if j is None:
                j = seen[key] = len(m.pool[cols[0]])
                for c, v in zip(cols, r, strict=True):
                    m.pool[c].append(v)
            idx.append(j)
        m.rows.append(idx)
        where = " / ".join(st.clock)
        m.captions.append(f"<b>{'The start' if k == 0 else 'After order #' + order_no(k - 1)}</b> of "
                          f"{len(state.orders)} &mdash; {html.escape(where)}"
                          + (f" &mdash; <i>{html.escape(m.note[k])}</i>" if m.note[k] else ""))
        m.titles.append(f"{title}: {where}" + ("" if k == len(state.orders) else
                                              f" (after order #{k})" if k else " (the start)"))

    s = replay_state(state, 0)
    m.number.append("start")
    m.turn.append(s.turn_label)
    m.side.append("")
    m.order.append("the set-up")
    m.note.append("")
    keep(s, 0)
    for k, order in enumerate(state.orders):
        d = s.decision
        m.number.append(order_no(k))
        m.turn.append(s.turn_label)
        m.side.append(d.side if d else "")
        m.order.append(describe(order))
        m.note.append(note_text(state.annotations.get(k, {})))
        if k < limit:
            s.apply(order)
            keep(s, k + 1)
    return m


def notes_html(state: State) -> str:
    """The game record's annotations, by order, for the page."""
    from workbench.ui.history import order_no
    from workbench.ui.orders import describe

    if not state.annotations:
        return "<h3>Notes</h3><p><i>No notes in this game.</i></p>"
    items = []
    for k, a in sorted(state.annotations.items()):
        o = state.orders[k] if k < len(state.orders) else {}
        items.append(f"<li><b>order #{order_no(k)}</b> <code>{html.escape(describe(o) if o else '')}</code>: "
                     f"<b>{html.escape(' '.join(a.get('marks', [])))}</b> {html.escape(a.get('comment', ''))}</li>")
    return "<h3>Notes</h3><ul class='wb-notes'>" + "".join(items) + "</ul>"


def move_list(moves: Moves, view: MapView, *, width: int = 860) -> tuple[Div, DataTable]:
    """The caption over the map and the move table; a click on a move shows its position."""
    src = ColumnDataSource(moves.table(), name="move-list-source")
    caption = Div(text=moves.captions[-1], width=width, name="move-position")
    cols = [TableColumn(field="number", title="order #", width=55), TableColumn(field="turn", title="turn", width=70),
            TableColumn(field="side", title="side", width=55), TableColumn(field="order", title="order", width=430),
            TableColumn(field="note", title="note", width=250)]
    table = DataTable(source=src, columns=cols, width=width, height=min(300, 28 + 25 * len(moves.number)),
                      index_position=None, name="move-list", selectable=True)
    src.selected.js_on_change("indices", CustomJS(
        args={"moves": src, "units": view.unit_source, "pool": moves.pool, "rows": moves.rows,
              "cols": list(moves.pool), "captions": moves.captions, "titles": moves.titles,
              "caption": caption, "fig": view.fig},
        code=STEP_JS))
    return caption, table


def workbench_page(state: State, path: str | Path, *, title: str | None = None, side: str | None = None,
                   charts: list[Any] | None = None, notes: str = "", view: MapView | None = None) -> Path:
    """The shareable page: header, the map with a move list that steps it through the game,
    the notes, the charts and the log of ``state``.  ``view``: a kernel-free map to show (the
    workbench passes a twin of its live map, so the page opens on what the teacher sees)."""
    from workbench.ui.charts import Charts
    from workbench.ui.mapview import MapView

    game = state.game
    title = title or game.scenario.title
    if view is None:
        view = MapView(state, side=side, title=f"{title}: {' / '.join(state.clock)}", interactive=False)
    else:
        view.fig.title.text = f"{title}: {' / '.join(state.clock)}"
    d = state.decision
    owed = html.escape(str(d)) if d else html.escape(str(state.result))
    head = Div(text=(f"<h2>{html.escape(title)}</h2><p><b>{html.escape(' / '.join(state.clock))}</b>"
                     f" &mdash; {owed}</p><p>{len(state.orders)} orders, {len(state.log)} events, "
                     f"{len(state.annotations)} notes, seed {state.seed}, digest "
                     f"<code>{state.digest()[:16]}</code></p>"
                     + (f"<p>{html.escape(notes)}</p>" if notes else "")), width=860)
    moves = game_moves(state, view, side=side)
    caption, table = move_list(moves, view)
    chart_models = charts if charts is not None else Charts(state).figures()
    body = [head, caption, view.fig,
            Div(text="<h3>Moves</h3><p>Click a move: the map shows the position after it.</p>"), table,
            Div(text=notes_html(state), width=860, name="notes"),
            Div(text="<h3>Charts</h3>"),
            *[row(*chart_models[i:i + 2]) for i in range(0, len(chart_models), 2)],
            Div(text="<h3>Event log</h3>"), log_table(state)]
    path = Path(path)
    atomic_write_text(path, file_html(column(*body), INLINE, title))
    return path
