"""Charts fed by polars from the event log and the state, the same code for every ruleset.

* **Economy** per nation per turn: numeric tracks named ``<NATION>.<metric>...``
  whose metric is an economy word (SS Amerika ``GE.mp.industrial``; ETO
  ``GE.eps`` / ``GE.reserve``), summed per nation and metric.
* **Losses** by side and unit type: events of kind ``eliminated`` and ``reduced``
  (their ``data`` names the ``unit``).
* **Objectives** held per side per turn: ``ruleset.objectives(state)`` (or the
  city-control markers) as recorded at each turn.
* **Victory points and morale**: tracks named ``*.vp`` / ``vp.*`` / ``*.morale``.

Track values per turn come from the workbench's ``track_history`` (one
snapshot per turn label, updated as the game is played or replayed); without
it only the current turn is known.  A chart whose data does not exist yet
shows an empty state with a note saying which events or tracks it waits for.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import polars as pl
from bokeh.models import ColumnDataSource, FactorRange, Label
from bokeh.palettes import Category10_10
from bokeh.plotting import figure

from workbench.engine.state import State
from workbench.ui import protocol, symbols

if TYPE_CHECKING:
    from workbench.ui.workbench import Workbench

ECONOMY = re.compile(r"^([A-Za-z]{2,4})\.(mp|ep|eps|bpp|reserve|income|ip|production)(\.|$)", re.I)
VP_MORALE = re.compile(r"(^|\.)(vp|morale)($|\.)", re.I)
W, H = 420, 260


def track_frame(history: dict[str, dict[str, Any]], state: State) -> pl.DataFrame:
    """One row per (turn, track, value) for numeric tracks, turns in calendar order."""
    cal = {t: i for i, t in enumerate(state.calendar)}
    rows = []
    snaps = dict(history)
    snaps.setdefault(state.turn_label, {"tracks": dict(state.tracks)})
    for turn, snap in snaps.items():
        for k, v in (snap.get("tracks") or {}).items():
            if isinstance(v, int | float) and not isinstance(v, bool):
                rows.append({"turn": turn, "t": cal.get(turn, -1), "track": k, "value": float(v)})
    if not rows:
        return pl.DataFrame(schema={"turn": pl.String, "t": pl.Int64, "track": pl.String, "value": pl.Float64})
    return pl.DataFrame(rows).sort("t")


def economy_frame(tracks: pl.DataFrame) -> pl.DataFrame:
    if tracks.height == 0:
        return tracks.with_columns(pl.lit("").alias("series"))
    m = tracks.with_columns(pl.col("track").str.extract(ECONOMY.pattern, 1).alias("nation"),
                            pl.col("track").str.extract(ECONOMY.pattern, 2).str.to_lowercase().alias("metric"))
    m = m.filter(pl.col("nation").is_not_null())
    return (m.group_by(["turn", "t", "nation", "metric"]).agg(pl.col("value").sum())
            .with_columns((pl.col("nation") + " " + pl.col("metric")).alias("series")).sort("t"))


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


def objectives_frame(history: dict[str, dict[str, Any]], state: State) -> pl.DataFrame:
    cal = {t: i for i, t in enumerate(state.calendar)}
    snaps = dict(history)
    snaps[state.turn_label] = {"objectives": protocol.objectives(state)}
    rows = [{"turn": turn, "t": cal.get(turn, -1), "side": s, "value": float(v)}
            for turn, snap in snaps.items() for s, v in (snap.get("objectives") or {}).items()]
    if not rows:
        return pl.DataFrame(schema={"turn": pl.String, "t": pl.Int64, "side": pl.String, "value": pl.Float64})
    return pl.DataFrame(rows).sort("t")


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

    def update(self, state: State | None = None) -> None:
        if state is not None:
            self.state = state
        st = self.state
        tracks = track_frame(self.history, st)
        eco = economy_frame(tracks)
        self.sources["economy"].data = _series(eco, "series")
        self.notes["economy"].text = "" if eco.height else (
            "no economy tracks yet (<NATION>.mp.*, <NATION>.eps, <NATION>.reserve)")
        vp = tracks.filter(pl.col("track").str.contains(VP_MORALE.pattern)) if tracks.height else tracks
        self.sources["vp"].data = _series(vp, "track")
        self.notes["vp"].text = "" if vp.height else "no victory-point or morale tracks in this game"
        obj = objectives_frame(self.history, st)
        self.sources["objectives"].data = _series(obj, "side")
        self.notes["objectives"].text = "" if obj.height else "this ruleset reports no objectives yet"
        loss = losses_frame(st)
        factors = [(s, t) for s, t in loss.select("side", "type").iter_rows()]
        self.figs["losses"].x_range.factors = factors
        self.sources["losses"].data = {"x": factors, "reduced": loss["reduced"].to_list(),
                                       "eliminated": loss["eliminated"].to_list()}
        self.notes["losses"].text = "" if loss.height else "no losses yet (events 'eliminated', 'reduced')"


class ChartsPanel:
    def __init__(self, wb: Workbench) -> None:
        self.wb = wb
        self.dirty = True
        self.charts: Charts | None = None
        self.box = widgets.VBox()
        self.widget = widgets.VBox([widgets.HTML(
            "<i>Economy, losses, objectives, victory points and morale, from the event log and the tracks.</i>"),
            self.box])

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
