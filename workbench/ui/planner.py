"""The attack planner: pick a target and attackers, see every number, then commit.

Generic over rulesets: the attack kinds are the open order kinds named in
``ruleset.attack_kinds`` (default ``("attack",)``) whose orders carry
``"attackers"`` and ``"targets"``; the choices come from
``state.legal_orders_of(kind)``; the numbers from
:func:`workbench.ui.protocol.assess_attack` (``ruleset.assess_attack`` or an
adapter): strength contributions with their rules, column shifts or die
modifiers with their rules, the odds column, the exact probability of every
result (fractions), and the expected step losses of each side.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.ui import protocol

if TYPE_CHECKING:
    from workbench.ui.workbench import Workbench


class Planner:
    def __init__(self, wb: Workbench) -> None:
        self.wb = wb
        self.target = widgets.Dropdown(description="target", options=[], style={"description_width": "50px"},
                                       layout=widgets.Layout(width="260px"))
        self.target.add_class("wb-planner-target")
        self.attackers = widgets.VBox()
        self.result = widgets.HTML()
        self.result.add_class("wb-planner-result")
        self.commit_btn = widgets.Button(description="Commit attack", button_style="danger")
        self.commit_btn.on_click(lambda _=None: self.commit())
        self.all_btn = widgets.Button(description="all adjacent", layout=widgets.Layout(width="auto"))
        self.all_btn.on_click(lambda _=None: self._check_all())
        self.info = widgets.HTML()
        self._boxes: dict[str, widgets.Checkbox] = {}
        self._mute = False
        self.target.observe(lambda _ch: self._target_changed(), names="value")
        self.widget = widgets.VBox([self.info, widgets.HBox([self.target, self.all_btn]),
                                    widgets.HTML("<b>Attackers</b>"), self.attackers,
                                    self.result, self.commit_btn])
        self.widget.add_class("wb-planner")

    # -- which kinds, which orders ----------------------------------------------------------
    def kinds(self) -> tuple[str, ...]:
        return tuple(getattr(self.wb.state.ruleset, "attack_kinds", ("attack",)))

    def open_kind(self) -> str | None:
        d = self.wb.state.decision
        if d is None:
            return None
        for k in self.kinds():
            if k in d.kinds:
                return k
        return None

    def legal(self) -> list[dict[str, Any]]:
        kind = self.open_kind()
        return self.wb.orders.legal(kind) if kind else []

    def targets(self) -> list[str]:
        return sorted({t for o in self.legal() for t in o.get("targets", [])})

    def candidates(self, target: str) -> list[str]:
        return sorted({a for o in self.legal() if target in o.get("targets", []) for a in o.get("attackers", [])})

    # -- widgets ---------------------------------------------------------------------------------
    def refresh(self) -> None:
        kind = self.open_kind()
        if kind is None:
            d = self.wb.state.decision
            self.info.value = ("<i>No attack is open now" + (f" ({html.escape(d.prompt)})" if d else "")
                               + ". The planner opens in a combat step.</i>")
            self._set_targets([])
            self.commit_btn.disabled = True
            return
        self.info.value = f"<b>{html.escape(kind)}</b> is open: pick a target (or click an enemy stack)."
        self._set_targets(self.targets())

    def _set_targets(self, targets: list[str]) -> None:
        keep = self.target.value
        self._mute = True
        self.target.options = targets
        self.target.value = keep if keep in targets else (targets[0] if targets else None)
        self._mute = False
        self._target_changed()

    def set_target(self, label: str) -> None:
        if label not in self.target.options:
            self.refresh()
        if label in self.target.options:
            self.target.value = label

    def _target_changed(self) -> None:
        if self._mute:
            return
        t = self.target.value
        self._boxes = {}
        if not t:
            self.attackers.children = []
            self.result.value = ""
            self.commit_btn.disabled = True
            return
        for a in self.candidates(t):
            u = self.wb.state.unit(a)
            card = protocol.unit_card(self.wb.state, u)
            cb = widgets.Checkbox(value=True, description=f"{a} ({card.get('strength', '')}) at {u.location}",
                                  indent=False, layout=widgets.Layout(width="auto"))
            cb.observe(lambda _ch: self.assess(), names="value")
            self._boxes[a] = cb
        self.attackers.children = list(self._boxes.values())
        self.wb.show_targets([t])
        self.assess()

    def _check_all(self) -> None:
        for cb in self._boxes.values():
            cb.value = True

    def order(self) -> dict[str, Any] | None:
        t = self.target.value
        chosen = [a for a, cb in self._boxes.items() if cb.value]
        if not t or not chosen:
            return None
        return {"kind": self.open_kind(), "attackers": chosen, "targets": [t]}

    def assess(self) -> dict[str, Any] | None:
        order = self.order()
        self.commit_btn.disabled = order is None
        if order is None:
            self.result.value = "<i>Choose at least one attacker.</i>"
            return None
        if not protocol.can_assess(self.wb.state):
            self.result.value = (f"<i>The {self.wb.state.ruleset.name} ruleset has no assess_attack yet: "
                                 "the odds cannot be shown, but the attack can be committed.</i>")
            return None
        try:
            a = protocol.assess_attack(self.wb.state, order)
        except Exception as exc:  # noqa: BLE001 - shown, never raised into the widget
            self.result.value = f"<span class='wb-refused'>cannot assess: {html.escape(str(exc))}</span>"
            return None
        self.result.value = assessment_html(a)
        return a

    def commit(self) -> bool:
        order = self.order()
        if order is None:
            self.wb.say("Choose a target and at least one attacker first.", "warn")
            return False
        if self.wb.apply(order):
            ev = [e for e in self.wb.state.log if e["kind"] == "combat"][-1:]
            self.wb.say("Attack resolved: " + (ev[0]["text"] if ev else "done") + ".", "ok")
            return True
        return False


def assessment_html(a: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>{html.escape(str(w))}</td><td style='text-align:right'>{v:g}</td>"
                   f"<td class='wb-rule'>{html.escape(str(r))}</td></tr>" for w, v, r in a.get("contributions", []))
    shifts = "".join(f"<tr><td>{html.escape(str(n))}</td><td>{html.escape(str(w))}</td>"
                     f"<td class='wb-rule'>{html.escape(str(r))}</td></tr>" for n, w, r in a.get("shifts", []))
    shifts = shifts or "<tr><td colspan=3><i>no column shifts or die modifiers</i></td></tr>"
    dist = a.get("distribution", {})
    names = a.get("results", {})
    by = a.get("losses_by_result", {})
    sides = list(a.get("expected_losses", {}))
    res_rows = "".join(
        f"<tr><td><b>{html.escape(r)}</b></td><td>{html.escape(names.get(r, ''))}</td>"
        f"<td class='wb-prob'>{protocol.format_fraction(p)}</td><td>{float(p) * 100:.1f}%</td>"
        + "".join(f"<td>{by.get(r, {}).get(s, 0):g}</td>" for s in sides) + "</tr>"
        for r, p in sorted(dist.items(), key=lambda kv: -kv[1]))
    exp = ", ".join(f"{html.escape(s)} {v:.2f}" for s, v in a.get("expected_losses", {}).items())
    return (
        f"<div class='wb-odds'><b>{a.get('attack', 0):g} : {a.get('defense', 0):g}</b> &rarr; base column "
        f"<b>{html.escape(str(a.get('base_column', '')))}</b> &rarr; final column "
        f"<b class='wb-column'>{html.escape(str(a.get('column', '')))}</b> "
        f"<span class='wb-rule'>{html.escape(a.get('odds_rule', ''))}</span> ({html.escape(a.get('die', ''))})</div>"
        f"<table class='wb-table'><tr><th>strength</th><th>value</th><th>rule</th></tr>{rows}</table>"
        f"<table class='wb-table'><tr><th>shift</th><th>why</th><th>rule</th></tr>{shifts}</table>"
        f"<table class='wb-table wb-dist'><tr><th>result</th><th>meaning</th><th>exact</th><th>%</th>"
        + "".join(f"<th>{html.escape(s)} steps lost</th>" for s in sides) + f"</tr>{res_rows}</table>"
        f"<div>Expected step losses: <b class='wb-expected'>{exp}</b></div>")
