"""Charts fed by polars from the ruleset's metrics and the event log, the same code for every ruleset.

Every chart reads :meth:`ruleset.metrics <workbench.engine.face.Face.metrics>`, one snapshot
per turn label kept in the workbench's ``track_history`` (updated as the game is played or
replayed; without it only the current turn is known):

* **Economy** per nation per turn: ``metrics.economy`` (SS Amerika ``GE.mp``, ETO ``GE.eps``
  and ``GE.reserve``).
* **Losses** by side and unit type: events of kind ``eliminated`` and ``reduced`` (their
  ``data`` names the ``unit``).
* **Objectives** held per side per turn: ``metrics.objectives``.
* **Victory points and morale**: ``metrics.vp`` and ``metrics.morale``.

A chart whose data does not exist yet shows an empty state with a note saying what it waits for.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import polars as pl
from bokeh.models import ColumnDataSource, FactorRange, Label
from bokeh.palettes import Category10_10
from bokeh.plotting import figure

from workbench.engine.state import State
from workbench.ui import symbols

if TYPE_CHECKING:
    from workbench.ui.workbench import Workbench

W, H = 420, 260
_SCHEMA = {"turn": pl.String, "t": pl.Int64, "series": pl.String, "value": pl.Float64}


def snapshots(history: dict[str, dict[str, Any]], state: State) -> dict[str, dict[str, Any]]:
    """The per-turn snapshots with the current turn's metrics as they are now."""
    return {**history, state.turn_label: {"metrics": state.ruleset.metrics(state).as_dict()}}


def metrics_frame(snaps: dict[str, dict[str, Any]], state: State, *groups: str) -> pl.DataFrame:
    """One row per (turn, series, value) from the metrics snapshots (:func:`snapshots`), turns in
    calendar order.  ``groups`` picks metrics (``"economy"``, ``"vp"`` ...); a series is named
    by its key, with the group as a suffix when several groups are asked for (``"axis vp"``)."""
    cal = {t: i for i, t in enumerate(state.calendar)}
    rows = []
    for turn, snap in snaps.items():
        m = snap.get("metrics") or {}
        for g in groups:
            for k, v in (m.get(g) or {}).items():
                name = f"{k} {g}" if len(groups) > 1 and g not in k.lower() else k
                rows.append({"turn": turn, "t": cal.get(turn, -1), "series": name, "value": float(v)})
    if not rows:
        return pl.DataFrame(schema=_SCHEMA)
    return pl.DataFrame(rows, schema=_SCHEMA).sort("t")


def economy_frame(snaps: dict[str, dict[str, Any]], state: State) -> pl.DataFrame:
    """Economy tracks per nation and metric (``GE.eps`` shows as ``GE eps``)."""
    df = metrics_frame(snaps, state, "economy")
    return df.with_columns(pl.col("series").str.replace(".", " ", literal=True))


def losses_frame(state: State) -> pl.DataFrame:
    ev = state.events().filter(pl.col("kind").is_in(["eliminated", "reduced"]))
    rows = []
    for kind, side, data in ev.select("kind", "side", "data").iter_rows():
        uid = json.loads(data).get("unit") if data else None
        u = state.units_by_id.get(uid) if uid else None
        utype = symbols.classify(u.type, state.ruleset.unit_types.get(u.type, {})) if u else "?"
        rows.append({"kind": kind, "side": side or (u.side if u else "?"), "type": utype})
    if not rows:
        return pl.DataFrame(schema={"side": pl.String, "type": pl.String, "reduced": pl.Int64,
                                    "eliminated": pl.Int64})
    df = pl.DataFrame(rows)
    return (df.group_by(["side", "type"]).agg(
        (pl.col("kind") == "reduced").sum().cast(pl.Int64).alias("reduced"),
        (pl.col("kind") == "eliminated").sum().cast(pl.Int64).alias("eliminated")).sort(["side", "type"]))


def objectives_frame(snaps: dict[str, dict[str, Any]], state: State) -> pl.DataFrame:
    return metrics_frame(snaps, state, "objectives")


def _series(df: pl.DataFrame, key: str) -> dict[str, list]:
    xs, ys, names, colours = [], [], [], []
    for i, name in enumerate(sorted(set(df[key].to_list())) if df.height else []):
        part = df.filter(pl.col(key) == name).sort("t")
        xs.append(part["turn"].to_list())
        ys.append(part["value"].to_list())
        names.append(name)
        colours.append(Category10_10[i % 10])
    return {"xs": xs, "ys": ys, "name": names, "colour": colours}


class Charts:
    """The chart figures of one state (built once; :meth:`update` re-feeds their sources)."""

    def __init__(self, state: State, history: dict[str, dict[str, Any]] | None = None) -> None:
        self.state = state
        self.history = history or {}
        turns = list(state.calendar)
        self.sources: dict[str, ColumnDataSource] = {}
        self.notes: dict[str, Label] = {}
        self.figs: dict[str, Any] = {}
        for key, title in (("economy", "Economy per nation per turn"),
                           ("objectives", "Objectives held per side"),
                           ("vp", "Victory points and morale")):
            f = figure(width=W, height=H, title=title, x_range=FactorRange(*turns),
                       toolbar_location=None, name=f"chart-{key}")
            f.xaxis.major_label_orientation = 0.8
            src = ColumnDataSource({"xs": [], "ys": [], "name": [], "colour": []})
            f.multi_line(xs="xs", ys="ys", line_color="colour", line_width=2, source=src,
                         legend_field="name")
            f.legend.location = "top_left"
            f.legend.label_text_font_size = "8pt"
            self._note(f, key)
            self.sources[key], self.figs[key] = src, f
        f = figure(width=W, height=H, title="Losses by side and unit type (steps)",
                   x_range=FactorRange(), toolbar_location=None, name="chart-losses")
        f.xaxis.major_label_orientation = 0.9
        src = ColumnDataSource({"x": [], "reduced": [], "eliminated": []})
        f.vbar_stack(["reduced", "eliminated"], x="x", width=0.8, source=src,
                     color=["#f2a541", "#c0392b"], legend_label=["reduced", "eliminated"])
        f.legend.location = "top_left"
        f.legend.label_text_font_size = "8pt"
        self._note(f, "losses")
        self.sources["losses"], self.figs["losses"] = src, f
        self.update()

    def _note(self, f: Any, key: str) -> None:
        lab = Label(x=10, y=H - 90, x_units="screen", y_units="screen", text="", text_font_size="9pt",
                    text_color="#777777", name=f"note-{key}")
        f.add_layout(lab)
        self.notes[key] = lab

    def figures(self) -> list[Any]:
        return [self.figs[k] for k in ("economy", "losses", "objectives", "vp")]

    def _say(self, key: str, note: str) -> None:
        """An empty chart shows its note and no legend (they used to overlap)."""
        self.notes[key].text = note
        self.figs[key].legend.visible = not note

    def update(self, state: State | None = None) -> None:
        if state is not None:
            self.state = state
        st = self.state
        snaps = snapshots(self.history, st)
        eco = economy_frame(snaps, st)
        self.sources["economy"].data = _series(eco, "series")
        self._say("economy", "" if eco.height else "this game keeps no economy tracks")
        vp = metrics_frame(snaps, st, "vp", "morale")
        self.sources["vp"].data = _series(vp, "series")
        self._say("vp", "" if vp.height else "no victory points or morale in this game")
        obj = objectives_frame(snaps, st)
        self.sources["objectives"].data = _series(obj, "series")
        self._say("objectives", "" if obj.height else "this game reports no objectives")
        loss = losses_frame(st)
        factors = [(s, t) for s, t in loss.select("side", "type").iter_rows()]
        self.figs["losses"].x_range.factors = factors
        self.sources["losses"].data = {"x": factors, "reduced": loss["reduced"].to_list(),
                                       "eliminated": loss["eliminated"].to_list()}
        self._say("losses", "" if loss.height else "no losses yet (events 'eliminated', 'reduced')")


class ChartsPanel:
    def __init__(self, wb: Workbench) -> None:
        self.wb = wb
        self.dirty = True
        self.charts: Charts | None = None
        self.box = widgets.VBox()
        self.box.add_class("wb-charts")
        self.widget = widgets.VBox([widgets.HTML(
            "<i>Economy, losses, objectives, victory points and morale, from the event log and the tracks.</i>"),
            self.box])

    def reset(self) -> None:
        """Another game: build the figures again on its calendar at the next refresh."""
        self.charts = None
        self.box.children = []
        self.dirty = True

    def build(self, fresh: bool = False) -> Charts:
        if fresh:
            return Charts(self.wb.state, self.wb.track_history)
        if self.charts is None:
            from bokeh.layouts import gridplot
            from jupyter_bokeh.widgets import BokehModel

            self.charts = Charts(self.wb.state, self.wb.track_history)
            grid = gridplot(self.charts.figures(), ncols=2, toolbar_location=None)
            self.box.children = [BokehModel(grid)]
        return self.charts

    def refresh(self) -> None:
        c = self.build()
        c.history = self.wb.track_history
        c.update(self.wb.state)
        self.dirty = False
