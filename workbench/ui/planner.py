"""The attack planner: pick a target and attackers, see every number, then commit.

Generic over rulesets: the attack kinds are the open order kinds named in
``ruleset.attack_kinds`` (SS Amerika ``attack``, ETO ``designate``) whose orders carry
``"attackers"`` and a ``"target"`` or ``"targets"``; the choices come from
``state.legal_orders_of(kind)``; the numbers from the ruleset's
:meth:`~workbench.engine.face.Face.assess_attack`, an
:class:`~workbench.engine.face.Assessment`: strength contributions with their rules,
column shifts or die modifiers with their rules, the odds column, the exact probability
of every result (fractions), and the expected step losses of each side.
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.engine.face import Assessment

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
        return tuple(self.wb.state.ruleset.attack_kinds)

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
        return sorted({t for o in self.legal() for t in _targets(o)})

    def candidates(self, target: str) -> list[str]:
        return sorted({a for o in self.legal() if target in _targets(o) for a in o.get("attackers", [])})

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
            card = self.wb.state.ruleset.unit_card(self.wb.state, u)
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
        single = any("target" in o for o in self.legal())  # ETO designates one hex
        return {"kind": self.open_kind(), "attackers": chosen, **({"target": t} if single else {"targets": [t]})}

    def assess(self) -> Assessment | None:
        order = self.order()
        self.commit_btn.disabled = order is None
        if order is None:
            self.result.value = "<i>Choose at least one attacker.</i>"
            return None
        rs = self.wb.state.ruleset
        if not rs.can_assess:
            self.result.value = (f"<i>The {html.escape(rs.name)} ruleset cannot price an attack before the roll: "
                                 "the odds cannot be shown, but the attack can be committed.</i>")
            return None
        try:
            a = rs.assess_attack(self.wb.state, order)
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
        first = len(self.wb.state.log)
        if self.wb.apply(order):
            ev = [e for e in self.wb.state.log[first:] if e["kind"] == "combat"][-1:]
            self.wb.say(("Attack resolved: " + ev[0]["text"]) if ev else
                        f"Attack committed ({order['kind']}): it is resolved when its step comes.", "ok")
            return True
        return False


def _targets(order: dict[str, Any]) -> list[str]:
    return list(order.get("targets") or ([order["target"]] if order.get("target") else []))


def format_fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def assessment_html(a: Assessment) -> str:
    rows = "".join(f"<tr><td>{html.escape(str(w))}</td><td style='text-align:right'>{v:g}</td>"
                   f"<td class='wb-rule'>{html.escape(str(r))}</td></tr>" for w, v, r in a.contributions)
    shifts = "".join(f"<tr><td>{html.escape(str(n))}</td><td>{html.escape(str(w))}</td>"
                     f"<td class='wb-rule'>{html.escape(str(r))}</td></tr>" for n, w, r in a.shifts)
    shifts = shifts or "<tr><td colspan=3><i>no column shifts or die modifiers</i></td></tr>"
    sides = list(a.expected_losses)
    res_rows = "".join(
        f"<tr><td><b>{html.escape(r)}</b></td><td>{html.escape(a.results.get(r, ''))}</td>"
        f"<td class='wb-prob'>{format_fraction(p)}</td><td>{float(p) * 100:.1f}%</td>"
        + "".join(f"<td>{a.losses_by_result.get(r, {}).get(s, 0):g}</td>" for s in sides) + "</tr>"
        for r, p in sorted(a.distribution.items(), key=lambda kv: -kv[1]))
    exp = ", ".join(f"{html.escape(s)} {v:.2f}" for s, v in a.expected_losses.items())
    return (
        f"<div class='wb-odds'><b>{a.attack:g} : {a.defense:g}</b> &rarr; base column "
        f"<b>{html.escape(str(a.base_column))}</b> &rarr; final column "
        f"<b class='wb-column'>{html.escape(str(a.column))}</b> "
        f"<span class='wb-rule'>{html.escape(a.odds_rule)}</span> ({html.escape(a.die)})</div>"
        f"<table class='wb-table'><tr><th>strength</th><th>value</th><th>rule</th></tr>{rows}</table>"
        f"<table class='wb-table'><tr><th>shift</th><th>why</th><th>rule</th></tr>{shifts}</table>"
        f"<table class='wb-table wb-dist'><tr><th>result</th><th>meaning</th><th>exact</th><th>%</th>"
        + "".join(f"<th>{html.escape(s)} steps lost</th>" for s in sides) + f"</tr>{res_rows}</table>"
        f"<div>Expected step losses: <b class='wb-expected'>{exp}</b></div>")
