"""The log panel: the event log as a filterable table, every die roll with its purpose and rule,
and the game-record annotation box (comment and marks on the current order)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as widgets
import polars as pl

from workbench.ui.history import order_no

if TYPE_CHECKING:
    from workbench.ui.workbench import Workbench

MARKS = ("!", "?", "!!", "?!", "key moment")
SHOW = 200


def filter_events(ev: pl.DataFrame, *, kind: str = "", side: str = "", text: str = "",
                  rolls_only: bool = False, turn: str = "") -> pl.DataFrame:
    """The rows of the log that pass the panel's filters (polars, so it scales to long games)."""
    if kind:
        ev = ev.filter(pl.col("kind") == kind)
    if side:
        ev = ev.filter(pl.col("side") == side)
    if turn:
        ev = ev.filter(pl.col("turn") == turn)
    if rolls_only:
        ev = ev.filter(pl.col("kind") == "roll")
    if text:
        t = text.lower()
        ev = ev.filter(pl.col("text").str.to_lowercase().str.contains(t, literal=True)
                       | pl.col("rule").str.to_lowercase().str.contains(t, literal=True)
                       | pl.col("purpose").fill_null("").str.to_lowercase().str.contains(t, literal=True))
    return ev


def table_html(ev: pl.DataFrame, annotations: dict[int, dict], limit: int = SHOW) -> str:
    rows = []
    for e in ev.tail(limit).reverse().iter_rows(named=True):
        dice = "" if e["dice"] is None else "+".join(map(str, e["dice"])) + f" = {e['total']}"
        note = annotations.get(e["order"]) if e["order"] is not None else None
        raw_mark = ""
        if note and e["kind"] not in ("roll",):
            raw_mark = " ".join(note.get("marks", [])) + (" " + note["comment"] if note.get("comment") else "")
        mark = html.escape(raw_mark)
        what = html.escape(e["text"] or "")
        if e["kind"] == "roll":
            what = f"🎲 <b>{html.escape(e['purpose'] or '')}</b>: {html.escape(dice)}"
        full = (e["text"] or "") if e["kind"] != "roll" else f"{e['purpose'] or ''}: {dice}"
        # one line per event (issue 26.10): long texts are cut with an ellipsis, the whole text
        # is the cell's tooltip
        rows.append(
            f"<tr class='wb-ev-{html.escape(e['kind'])}'><td>{e['seq']}</td><td>{order_no(e['order'])}</td>"
            f"<td>{html.escape(e['turn'] or '')}</td><td>{html.escape(e['kind'])}</td>"
            f"<td>{html.escape(e['side'] or '')}</td><td class='wb-rule'>{html.escape(e['rule'] or '')}</td>"
            f"<td class='wb-what' title='{html.escape(full + (' — ' + raw_mark if raw_mark else ''))}'>"
            f"{what}{(' <i>' + mark + '</i>') if mark else ''}</td>"
            f"<td class='wb-step' title='{html.escape(e['step'] or '')}'>{html.escape(e['step'] or '')}</td></tr>")
    head = ("<tr><th>#</th><th>order #</th><th>turn</th><th>kind</th><th>side</th><th>rule</th>"
            "<th>what happened</th><th>step</th></tr>")
    return (f"<div style='max-height:320px;overflow:auto'><table class='wb-log-table'>{head}"
            + "".join(rows) + "</table></div>")


class LogPanel:
    def __init__(self, wb: Workbench) -> None:
        self.wb = wb
        self.dirty = True
        lay = widgets.Layout(width="150px")
        self.kind = widgets.Dropdown(description="kind", options=[("all", "")], layout=lay,
                                     style={"description_width": "35px"})
        self.side = widgets.Dropdown(description="side", options=[("all", "")] +
                                     [(s, s) for s in wb.state.ruleset.sides], layout=lay,
                                     style={"description_width": "35px"})
        self.text = widgets.Text(placeholder="search text or rule", layout=widgets.Layout(width="200px"))
        self.rolls = widgets.Checkbox(description="die rolls only", indent=False, layout=lay)
        self.this_turn = widgets.Checkbox(description="this turn only", indent=False, layout=lay)
        self.count = widgets.HTML()
        self.table = widgets.HTML()
        self.table.add_class("wb-log")
        for w in (self.kind, self.side, self.text, self.rolls, self.this_turn):
            w.observe(lambda _ch: self.refresh(), names="value")
        # annotation box
        self.comment = widgets.Textarea(placeholder="comment on the current (last) order",
                                        layout=widgets.Layout(width="95%", height="48px"))
        self.marks = [widgets.ToggleButton(description=m, layout=widgets.Layout(width="auto")) for m in MARKS]
        self.annotate_btn = widgets.Button(description="Annotate", button_style="primary")
        self.annotate_btn.on_click(lambda _=None: self.annotate())
        self.notes = widgets.HTML()
        note_box = widgets.VBox([self.comment, widgets.HBox([*self.marks, self.annotate_btn],
                                                            layout=widgets.Layout(flex_flow="row wrap"))])
        note_box.add_class("wb-log-note")
        self.widget = widgets.VBox([
            widgets.HBox([self.kind, self.side, self.text, self.rolls, self.this_turn]),
            self.count, self.table,
            widgets.HTML("<b>Game record annotation</b>"),
            note_box,
            self.notes])

    def filtered(self) -> pl.DataFrame:
        st = self.wb.state
        return filter_events(st.events(), kind=self.kind.value, side=self.side.value,
                             text=self.text.value.strip(), rolls_only=self.rolls.value,
                             turn=st.turn_label if self.this_turn.value else "")

    def refresh(self) -> None:
        self.dirty = False
        st = self.wb.state
        ev = st.events()
        kinds = sorted(set(ev["kind"].to_list()))
        opts = [("all", "")] + [(k, k) for k in kinds]
        if list(self.kind.options) != opts:
            keep = self.kind.value
            self.kind.options = opts
            self.kind.value = keep if keep in kinds else ""
        shown = self.filtered()
        rolls = ev.filter(pl.col("kind") == "roll").height
        self.count.value = (f"{shown.height} of {ev.height} events ({rolls} die rolls); newest first"
                            + (f", last {SHOW} shown" if shown.height > SHOW else ""))
        self.table.value = table_html(shown, st.annotations)
        self.notes.value = self._notes_html()

    def _notes_html(self) -> str:
        st = self.wb.state
        if not st.annotations:
            return "<i>No annotations yet.</i>"
        items = []
        for k, a in sorted(st.annotations.items()):
            o = st.orders[k] if k < len(st.orders) else {}
            items.append(f"<li>order #{order_no(k)} <code>{html.escape(o.get('kind', ''))}</code>: "
                         f"<b>{html.escape(' '.join(a.get('marks', [])))}</b> "
                         f"{html.escape(a.get('comment', ''))}</li>")
        return "<ul class='wb-annotations'>" + "".join(items) + "</ul>"

    def annotate(self) -> bool:
        st = self.wb.state
        marks = [b.description for b in self.marks if b.value]
        try:
            st.annotate(self.comment.value, marks)
        except IndexError as exc:
            self.wb.say(f"Nothing to annotate yet: {exc}", "warn")
            return False
        self.comment.value = ""
        for b in self.marks:
            b.value = False
        self.refresh()
        self.wb.say(f"Order #{order_no(len(st.orders) - 1)} annotated.", "ok")
        return True
