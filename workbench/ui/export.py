"""Standalone pages for sharing: the map, the log and the charts in one HTML file.

Bokeh's ``file_html`` with INLINE resources: BokehJS is embedded, so the page
opens offline and without a kernel.  The live figures belong to the notebook's
document, so the page is built from fresh models (a new :class:`MapView` of
the same state, a log table and the charts), never by moving the live ones.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bokeh.embed import file_html
from bokeh.layouts import column, row
from bokeh.models import ColumnDataSource, DataTable, Div, TableColumn
from bokeh.resources import INLINE

from workbench.engine.record import atomic_write_text

if TYPE_CHECKING:
    from workbench.engine.state import State


def write_page(models: list[Any], path: str | Path, title: str) -> Path:
    path = Path(path)
    page = file_html(column(*models) if len(models) > 1 else models[0], INLINE, title)
    atomic_write_text(path, page)
    return path


def log_table(state: State, *, width: int = 860, height: int = 320, limit: int = 2000) -> DataTable:
    """The event log as a bokeh table (the last ``limit`` events)."""
    ev = state.events().tail(limit)
    data = {
        "seq": ev["seq"].to_list(), "turn": ev["turn"].to_list(), "step": ev["step"].to_list(),
        "kind": ev["kind"].to_list(), "side": [s or "" for s in ev["side"].to_list()],
        "rule": ev["rule"].to_list(), "text": ev["text"].to_list(),
        "dice": ["" if d is None else "+".join(map(str, d)) for d in ev["dice"].to_list()],
    }
    cols = [TableColumn(field="seq", title="#", width=40), TableColumn(field="turn", title="turn", width=70),
            TableColumn(field="kind", title="kind", width=80), TableColumn(field="side", title="side", width=55),
            TableColumn(field="rule", title="rule", width=80), TableColumn(field="dice", title="dice", width=45),
            TableColumn(field="text", title="what happened", width=420),
            TableColumn(field="step", title="step", width=220)]
    return DataTable(source=ColumnDataSource(data), columns=cols, width=width, height=height,
                     index_position=None, name="log-table")


def workbench_page(state: State, path: str | Path, *, title: str | None = None, side: str | None = None,
                   charts: list[Any] | None = None, notes: str = "") -> Path:
    """The shareable page: header, map, charts and log of ``state``."""
    from workbench.ui.charts import Charts
    from workbench.ui.mapview import MapView

    game = state.game
    title = title or game.scenario.title
    view = MapView(state, side=side, title=f"{title}: {' / '.join(state.clock)}", interactive=False)
    d = state.decision
    owed = html.escape(str(d)) if d else html.escape(str(state.result))
    head = Div(text=(f"<h2>{html.escape(title)}</h2><p><b>{html.escape(' / '.join(state.clock))}</b>"
                     f" &mdash; {owed}</p><p>{len(state.orders)} orders, {len(state.log)} events, "
                     f"seed {state.seed}, digest <code>{state.digest()[:16]}</code></p>"
                     + (f"<p>{html.escape(notes)}</p>" if notes else "")), width=860)
    chart_models = charts if charts is not None else Charts(state).figures()
    body = [head, view.fig, Div(text="<h3>Charts</h3>"),
            *[row(*chart_models[i:i + 2]) for i in range(0, len(chart_models), 2)],
            Div(text="<h3>Event log</h3>"), log_table(state)]
    path = Path(path)
    atomic_write_text(path, file_html(column(*body), INLINE, title))
    return path
