"""Order entry: clicks on the map, and a widget for every other kind of decision.

Everything comes from the kernel: the open kinds from ``state.decision``, the
choices from ``state.legal_orders_of(kind)``, and the reason for a refusal
from the :class:`~workbench.IllegalOrder` that ``state.apply`` raises.

Map clicks
----------
* a click on a hex holding a unit with legal orders that name a destination
  (``{"unit": .., "path": [..]}`` or ``{"unit": .., "to": ..}``: moves, rail
  moves, retreats) selects it, and its legal destinations light up;
  clicking the same hex again walks through the stack;
* a click on a lit hex applies that legal order;
* a click on any other hex sends the order the player evidently meant (a
  straight path there) to the kernel, which refuses it and says which rule
  forbids it; the panel shows that message and the state is untouched;
* a click on an enemy stack while an attack is open picks it as the target
  of the attack planner.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.engine.state import FLOW_ORDERS
from workbench.ui.mapview import hex_line, neighbour_labels

if TYPE_CHECKING:
    from workbench.ui.workbench import Workbench

MAX_CHOICES = 300

#: Order kinds grouped by what they mean, in the order a player meets them (both games; a
#: kind of neither list goes under "Other").  The panel shows a group only when one of its
#: kinds has a legal order now.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Offensives and command", ("begin", "activate", "activate_hq", "impromptu", "move_hq", "place_hq",
                                "remove_hq", "buy_offensives", "choose_first", "air_offensive")),
    ("Set-up", ("deploy", "redeploy", "event_place")),
    ("Movement", ("move", "rail", "sail", "embark", "debark", "fly", "land", "box_march", "box_flight",
                  "bt_move", "paradrop_move", "air_transport", "restack", "leave_box")),
    ("Combat", ("attack", "designate", "resolve", "react", "overrun", "amphibious_assault", "naval_attack",
                "intercept", "interdict", "bomb", "recon", "breakthrough", "fire", "raid", "reinforce_box",
                "interdict_convoy", "escort_intercept", "trace_route")),
    ("After combat", ("take_losses", "choose_losses", "retreat", "naval_retreat", "advance")),
    ("Production and repair", ("mobilize", "replace", "rebuild", "build", "reserve", "repair", "demobilize",
                               "latin_america_step", "place_maginot_fort")),
    ("Politics and events", ("coup_choice", "subvert", "declare_war", "limited_war", "activate_partner",
                             "claim_territory", "winter_war", "lend_lease", "close_route", "open_route",
                             "create_vichy", "home_fighter", "attempt_activation", "buy_activation_modifier",
                             "declare_adjacent", "place_minor")),
)
#: Readable names of the order kinds (the kind itself stays in the tooltip and the log).
LABELS = {
    "begin": "Begin an offensive", "activate": "Activate units", "activate_hq": "Activate an HQ",
    "impromptu": "Impromptu offensive (EPs)", "move_hq": "Move an HQ", "place_hq": "Place an HQ or general",
    "remove_hq": "Remove an HQ", "buy_offensives": "Buy offensives", "choose_first": "Choose who goes first",
    "deploy": "Deploy a unit", "redeploy": "Redeploy a unit", "event_place": "Place an event's unit",
    "move": "Move", "rail": "Rail move", "sail": "Sail", "embark": "Embark cargo", "debark": "Debark cargo",
    "fly": "Fly a mission", "land": "Land an air unit", "box_march": "March into a holding box",
    "box_flight": "Fly to or from a holding box", "bt_move": "Breakthrough move", "paradrop_move": "Paradrop",
    "attack": "Attack", "designate": "Designate an attack", "resolve": "Resolve an attack",
    "react": "Armor reaction attack", "overrun": "Overrun", "amphibious_assault": "Amphibious assault",
    "naval_attack": "Naval attack", "intercept": "Intercept", "interdict": "Interdict", "bomb": "Bomb",
    "recon": "Reconnaissance", "breakthrough": "Breakthrough", "fire": "Fire",
    "take_losses": "Take losses", "choose_losses": "Choose the losses", "retreat": "Retreat",
    "naval_retreat": "Naval retreat", "advance": "Advance after combat", "mobilize": "Mobilize a unit",
    "replace": "Replace a step", "rebuild": "Rebuild", "build": "Build", "reserve": "Economic reserve",
    "repair": "Repair", "demobilize": "Demobilize an air unit", "latin_america_step": "Latin American step",
    "coup_choice": "Choose the coup's country", "subvert": "Subversion",
    "air_offensive": "Air offensive", "air_transport": "Air transport (ATPs)", "restack": "Restack an airbase",
    "leave_box": "Leave the bombing box", "raid": "Strategic bombing raid",
    "reinforce_box": "Send fighters to the bombing box",
    "trace_route": "Trace the Arctic convoy route", "interdict_convoy": "Interdict the Arctic convoy route",
    "escort_intercept": "Intercept with the escort box's naval air",
    "declare_war": "Declare war (invade a neutral)", "limited_war": "Limited war (Italian adventurism)",
    "activate_partner": "Roll to activate a minor country", "claim_territory": "Claim a Soviet pre-war conquest",
    "winter_war": "Begin the Winter War", "lend_lease": "Send lend lease", "close_route": "Close a convoy route",
    "open_route": "Open a convoy route", "create_vichy": "Create Vichy France",
    "home_fighter": "Designate the home fighter", "attempt_activation": "Try to activate Spain or Turkey",
    "buy_activation_modifier": "Buy an activation modifier", "declare_adjacent": "Declare units on the border",
    "place_maginot_fort": "Place a Maginot coastal fort", "place_minor": "Place an invaded minor's unit",
}


def kind_label(kind: str) -> str:
    return LABELS.get(kind) or kind.replace("_", " ").capitalize()


def kind_group(kind: str) -> str:
    return next((g for g, kinds in GROUPS if kind in kinds), "Other")


def order_unit(order: dict[str, Any]) -> str | None:
    """The one unit an order moves: ``unit``, or a ``units`` list of one (ETO air missions)."""
    if isinstance(order.get("unit"), str):
        return order["unit"]
    units = order.get("units")
    if isinstance(units, list) and len(units) == 1 and isinstance(units[0], str):
        return units[0]
    return None


def destination(order: dict[str, Any]) -> str | None:
    """The hex an order sends its unit to, if it has one."""
    if isinstance(order.get("path"), list) and order["path"]:
        return order["path"][-1]
    to = order.get("to")
    return to if isinstance(to, str) else None


def describe(order: dict[str, Any]) -> str:
    """Plain words for an order (for drop-downs and the log of the panel)."""
    kind = order.get("kind", "?")
    if kind == "activate" and order.get("all") is True and len(order) == 2:
        return "activate: every unit in the radius of the activated HQs"
    parts = []
    for k, v in order.items():
        if k == "kind":
            continue
        if k == "mode" and isinstance(v, str):
            parts.append(f"by {v}")
            continue
        if k == "path" and isinstance(v, list):
            parts.append(f"to {v[-1]} ({len(v)} hex{'es' if len(v) != 1 else ''})" if v else "path []")
        elif isinstance(v, list):
            parts.append(f"{k} {', '.join(map(str, v))}" if v else f"no {k}")
        else:
            parts.append(f"{k} {v}")
    return f"{kind}: " + "; ".join(parts) if parts else kind


class OrderEntry:
    """The order-entry panel and the map-click controller."""

    def __init__(self, wb: Workbench) -> None:
        self.wb = wb
        self._cache: dict[str, list[dict[str, Any]]] = {}
        self._cache_key: tuple | None = None
        self._rows_key: tuple | None = None  # what the kind rows below were built for
        self.selected: str | None = None
        self.reach: dict[str, dict[str, Any]] = {}
        self.title = widgets.HTML()
        self.hint = widgets.HTML()
        self.unit_box = widgets.HTML()
        self.kind_box = widgets.VBox()
        self.clear_btn = widgets.Button(description="Clear selection", layout=widgets.Layout(width="auto"))
        self.clear_btn.on_click(lambda _=None: self.select(None))
        self.stack_box = widgets.VBox()
        self.stack_box.add_class("wb-stack-picker")
        self.rows: dict[str, KindRow] = {}
        self.hidden_kinds: list[str] = []
        self.activate_all_btn: widgets.Button | None = None
        self.widget = widgets.VBox([self.title, self.unit_box, self.clear_btn, self.stack_box, self.hint,
                                    self.kind_box], layout=widgets.Layout(width="100%"))
        self.widget.add_class("wb-orders")

    # -- legal orders, cached per position ---------------------------------------------
    def _key(self) -> tuple:
        s = self.wb.state
        return (id(s), len(s.orders), len(s.log), len(s.frames))

    def legal(self, kind: str) -> list[dict[str, Any]]:
        key = self._key()
        if key != self._cache_key:
            self._cache, self._cache_key = {}, key
        if kind not in self._cache:
            self._cache[kind] = self.wb.state.legal_orders_of(kind)
        return self._cache[kind]

    def invalidate(self) -> None:
        self._cache, self._cache_key = {}, None

    def map_kinds(self) -> list[str]:
        """Open kinds whose orders move one unit to one hex (clickable on the map)."""
        d = self.wb.state.decision
        if d is None:
            return []
        return [k for k in d.kinds if k not in FLOW_ORDERS and k not in self.wb.planner.kinds()
                and k in self.wb.clickable_kinds]

    def unit_orders(self, uid: str) -> dict[str, dict[str, Any]]:
        """{destination hex: legal order} for one unit, over every clickable open kind."""
        out: dict[str, dict[str, Any]] = {}
        for kind in self.map_kinds():
            for o in self.legal(kind):
                if order_unit(o) == uid:
                    dest = destination(o)
                    if dest is not None and dest not in out:
                        out[dest] = o
        return out

    def ready_units(self) -> set[str]:
        """Units of the deciding side (as far as this view commands) that a map order can move
        now: the can-act marks on the counters."""
        d = self.wb.state.decision
        if d is None or not self.wb.may_command(d.side):
            return set()
        return {u for kind in self.map_kinds() for o in self.legal(kind) if (u := order_unit(o))}

    def can_do(self, uid: str) -> list[str]:
        """The open order kinds ``uid`` may still be given now: map orders that move it, and
        attacks it may join."""
        kinds = sorted({o["kind"] for o in self.unit_orders(uid).values()})
        attack = self.wb.planner.open_kind()
        if attack and any(uid in o.get("attackers", []) for o in self.legal(attack)):
            kinds.append(attack)
        return kinds

    def show_stack(self, label: str | None) -> None:
        """The stack picker: every unit of the clicked hex that this view commands, with what it
        may still do; a click on one selects it (one click for any unit of a big stack)."""
        state = self.wb.state
        d = state.decision
        units = [] if label is None or d is None else sorted(
            (u for u in state.units_at(label) if u.side == d.side and self.wb.may_command(u.side)),
            key=lambda u: u.id)
        if len(units) < 2:
            self.stack_box.children = []
            return
        rows: list[widgets.Widget] = [widgets.HTML(f"<b>Stack at {html.escape(label)}</b> ({len(units)} units)")]
        for u in units:
            kinds = self.can_do(u.id)
            card = state.ruleset.unit_card(state, u)
            b = widgets.Button(description=f"{u.id} {card.get('strength', '')}-{card.get('movement', '')}".strip("-"),
                               tooltip=", ".join(kinds) or "nothing to do now",
                               button_style="success" if kinds else "", disabled=not kinds,
                               layout=widgets.Layout(width="auto"))
            b.add_class("wb-stack-unit")
            b.on_click(lambda _=None, uid=u.id: self._pick(uid))
            rows.append(widgets.HBox([b, widgets.HTML(f"<small>{html.escape(', '.join(kinds) or 'nothing now')}</small>")]))
        self.stack_box.children = rows

    def _pick(self, uid: str) -> None:
        self.select(uid)
        self.wb.say(f"{uid} selected: click a lit hex to give the order.", "info")

    # -- selection ------------------------------------------------------------------------
    def select(self, uid: str | None) -> None:
        self.selected = uid
        self.reach = self.unit_orders(uid) if uid else {}
        self.wb.map.selected_unit = uid
        self.wb.show_selection()
        self.refresh_unit()

    def refresh_unit(self) -> None:
        uid = self.selected
        if uid is None:
            self.unit_box.value = "<i>No unit selected. Click one of your units on the map.</i>"
            return
        u = self.wb.state.unit(uid)
        kinds = sorted({o["kind"] for o in self.reach.values()})
        self.unit_box.value = (
            f"<b>Selected:</b> <span class='wb-selected'>{html.escape(uid)}</span> "
            f"({html.escape(u.type.replace('_', ' '))}{', reduced' if u.reduced else ''}) at "
            f"{u.location}. <b>{len(self.reach)}</b> legal destination(s)"
            + (f" by {', '.join(kinds)}" if kinds else "") + ", lit on the map.")

    # -- clicks -------------------------------------------------------------------------
    def click(self, label: str) -> None:
        wb = self.wb
        state = wb.state
        if state.decision is None:
            wb.say(f"The game is over: {state.result}", "info")
            return
        area = wb.map.sea_area_at(label)
        if area and label not in self.reach and not state.units_at(label):
            label = area  # a tap on open sea is a tap on its sea area (ships stand in areas, ETO-7.2)
        if self.selected and label in self.reach:
            order = self.reach[label]
            uid = self.selected
            self.select(None)
            if wb.apply(order):
                wb.say(f"{describe(order)} — done.", "ok")
            else:
                self.select(uid)
            return
        here = [u for u in state.units_at(label)]
        mine = [u for u in here if u.side == state.decision.side and wb.may_command(u.side)]
        movable = [u.id for u in mine if self.unit_orders(u.id)]
        self.show_stack(label if mine else None)
        if movable:
            ids = sorted(movable)
            nxt = ids[(ids.index(self.selected) + 1) % len(ids)] if self.selected in ids else ids[0]
            self.select(nxt)
            wb.say(f"{nxt} selected: click a lit hex to give the order"
                   + (f", or pick another unit of the stack ({len(mine)})." if len(mine) > 1 else "."), "info")
            return
        enemy = [u for u in here if u.side != state.decision.side]
        if enemy and wb.planner.open_kind() and label in wb.planner.targets():
            # an enemy stack under attack (own air over it, 17.0, does not make it one's own stack)
            self.select(None)
            wb.planner.set_target(label)
            wb.say(f"Target {label} set in the attack planner.", "info")
            wb.focus_tab("Attack planner")
            return
        if mine and (self.selected is None or self.selected in {u.id for u in mine}):
            # one's own stack with nothing to move now: a selection answer, not a refusal
            self.select(None)
            d = state.decision
            wb.say(f"{label}: your {'stack of ' + str(len(mine)) + ' units' if len(mine) > 1 else mine[0].id}"
                   f" has no map order now ('{d.prompt}', {d.rule}).", "info")
            return
        if self.selected:
            self._explain_refusal(self.selected, label)
            return
        enemy = [u for u in here if u.side != state.decision.side]
        if enemy and wb.planner.open_kind():
            wb.planner.set_target(label)
            wb.say(f"Target {label} set in the attack planner.", "info")
            wb.focus_tab("Attack planner")
            return
        if mine or here:
            self._explain_no_orders(here[0].id if not mine else mine[0].id, label)
            return
        wb.say(wb.hex_info(label), "info")

    def _explain_refusal(self, uid: str, label: str) -> None:
        """Ask the kernel why the selected unit cannot go to ``label``."""
        state = self.wb.state
        u = state.unit(uid)
        kinds = sorted({o["kind"] for o in self.reach.values()}) or ["move"]
        kind = "move" if "move" in kinds else kinds[0]
        like = next((o for o in self.reach.values() if o["kind"] == kind), None)
        if kind == "move":
            order = {"kind": "move", "unit": uid, "path": hex_line(state, u.location, label) or [label]}
        elif like is not None and "units" in like:  # a mission: the same mission to the clicked hex
            order = {**{k: v for k, v in like.items() if k not in ("to", "path")}, "to": label}
        else:
            order = {"kind": kind, "unit": uid, "to": label}
        if label == u.location:
            self.select(None)
            self.wb.say(f"{uid} deselected.", "info")
            return
        if not self.wb.apply(order):
            return  # wb.apply showed the kernel's reason
        self.select(None)
        self.wb.say(f"{describe(order)} — done.", "ok")

    def _explain_no_orders(self, uid: str, label: str) -> None:
        state = self.wb.state
        d = state.decision
        u = state.unit(uid)
        if "move" in d.kinds and u.location.isdigit():
            nb = neighbour_labels(state, u.location)
            why = state.check({"kind": "move", "unit": uid, "path": [nb[0]]})
            if why is not None:
                self.wb.refuse(why, f"{uid} at {label}")
                return
        self.wb.say(f"{uid} at {label} has nothing to do now: {d.side} must decide "
                    f"'{d.prompt}' ({d.rule}); open: {', '.join(d.kinds)}.", "warn")

    # -- the panel ------------------------------------------------------------------------
    def refresh(self) -> None:
        wb = self.wb
        state = wb.state
        d = state.decision
        if self.selected and (self.selected not in state.units_by_id or not self.unit_orders(self.selected)):
            self.select(None)
        if d is None:
            self.title.value = f"<b>Game over:</b> {html.escape(str(state.result))}"
            self.kind_box.children = []
            self.hint.value = ""
            return
        self.title.value = (f"<b>{html.escape(d.side)}</b> to decide: {html.escape(d.prompt)} "
                            f"<span class='wb-rule'>[{html.escape(d.rule)}]</span>")
        clickable = self.map_kinds()
        self.hint.value = (f"Click a unit, then a lit hex ({', '.join(clickable)})." if clickable else "")
        # the rows change with the open kinds and their choices; a map kind's row (listed on
        # request) only when it comes or goes, so a move does not rebuild the panel
        key = (id(state), d.side, d.kind, d.kinds, state.step.path if state.step else "",
               tuple(sorted((k, bool(self.legal(k)) if k in clickable or k in wb.planner.kinds()
                             else len(self.legal(k))) for k in d.kinds if k not in ("end_step", "pass"))))
        if key == self._rows_key:
            self.refresh_unit()
            return  # same open kinds and the same choices: keep the widgets (no comm traffic)
        self._rows_key = key
        self.rows = {}
        groups: dict[str, list[widgets.Widget]] = {}
        hidden = []
        for kind in d.kinds:
            if kind in ("end_step", "pass"):
                continue  # the outline's Advance / pass
            if not self.legal(kind):
                hidden.append(kind)  # not legal now: no row to tempt anyone (issue 26.10)
                continue
            box = groups.setdefault(kind_group(kind), [])
            if kind in wb.planner.kinds():
                box.append(widgets.HTML(f"{self._head(kind)}: use the <i>Attack planner</i> tab "
                                        "(or click an enemy stack)."))
                continue
            if kind == "activate" and {"kind": "activate", "all": True} in self.legal(kind):
                box.append(self._activate_all_row())
            box.append(self._kind_row(kind, lazy=kind in clickable and kind in self.wb.big_kinds))
        order = [g for g, _ in GROUPS] + ["Other"]
        rows = []
        for g in sorted(groups, key=order.index):
            rows.append(widgets.HTML(f"<div class='wb-order-group'>{html.escape(g)}</div>"))
            rows.extend(groups[g])
        if hidden:
            rows.append(widgets.HTML("<div class='wb-hidden-kinds' style='white-space:normal;font-size:85%'>"
                                     "Nothing legal now for: " + html.escape(", ".join(kind_label(k) for k in hidden))
                                     + "</div>"))
        self.hidden_kinds = hidden
        self.kind_box.children = rows
        self.refresh_unit()

    def _head(self, kind: str) -> str:
        """'Readable name [rule]' of an order kind."""
        handler = self.wb.state.ruleset.order_kinds.get(kind)
        rule = getattr(handler, "rule", "") or ""
        return (f"<b title='{html.escape(kind)}'>{html.escape(kind_label(kind))}</b>"
                + (f" <span class='wb-rule'>[{html.escape(rule)}]</span>" if rule else ""))

    def _activate_all_row(self) -> widgets.Widget:
        """ETO: activate every unit in the radius of the activated HQs in one click (23.0); the
        kernel picks them so that the half rule (22.0) holds."""
        btn = widgets.Button(description="Activate all in HQ radius", button_style="warning",
                             tooltip="every unactivated unit in the radius of an activated HQ (ETO-23.0)",
                             layout=widgets.Layout(width="auto"))
        btn.add_class("wb-activate-all")

        def go(_=None) -> None:
            order = {"kind": "activate", "all": True}
            n = sum(1 for u in self.wb.state.units_by_id.values() if u.props.get("activated"))
            if self.wb.apply(order):
                m = sum(1 for u in self.wb.state.units_by_id.values() if u.props.get("activated"))
                self.wb.say(f"Activated {m - n} unit(s) in the radius of the activated HQs.", "ok")

        btn.on_click(lambda _=None: self.wb._guard(go))
        self.activate_all_btn = btn
        return widgets.HBox([btn, widgets.HTML("<span class='wb-rule'>[ETO-23.0]</span>")],
                            layout=widgets.Layout(flex_flow="row wrap", align_items="center"))

    def _kind_row(self, kind: str, lazy: bool) -> widgets.Widget:
        """A labelled row: the readable name and rule, a drop-down of the legal orders (the full
        panel width, so nothing is cut off) and an Apply button sized to its text."""
        dd = widgets.Dropdown(options=[], layout=widgets.Layout(width="auto", flex="1 1 auto", min_width="0"))
        dd.add_class(f"wb-choices-{kind}")
        go = widgets.Button(description="Apply", button_style="primary", tooltip=f"give the chosen {kind} order",
                            layout=widgets.Layout(width="auto", flex="0 0 auto"))
        go.add_class(f"wb-apply-{kind}")
        count = widgets.HTML()

        # ETO's 'activate all' has its own button (_activate_all_row); the drop-down keeps the rest
        choices = [o for o in self.legal(kind) if not (kind == "activate" and o.get("all") is True)]

        def fill(_=None) -> None:
            orders = choices[:MAX_CHOICES]
            dd.options = [(describe(o), json.dumps(o, sort_keys=True)) for o in orders] or [("(none legal now)", "")]
            dd.index = 0

        n = len(choices)
        count.value = f"{self._head(kind)} <small>({n} legal)</small>"
        buttons = [go]
        if lazy:
            listing = widgets.Button(description="List all", layout=widgets.Layout(width="auto", flex="0 0 auto"),
                                     tooltip=f"list every legal {kind} order in the drop-down")
            listing.on_click(fill)
            buttons.append(listing)
            dd.options = [("(click a unit on the map, or 'List all')", "")]
            dd.index = 0
        else:
            fill()

        def apply(_=None) -> None:
            if not dd.value:
                self.wb.say(f"Choose a {kind_label(kind).lower()} order first.", "warn")
                return
            order = json.loads(dd.value)
            if self.wb.apply(order):
                self.wb.say(f"{describe(order)} — done.", "ok")

        go.on_click(apply)
        row = widgets.VBox([count, widgets.HBox([dd, *buttons], layout=widgets.Layout(width="100%"))],
                           layout=widgets.Layout(width="100%"))
        row.add_class("wb-kind-row")
        self.rows[kind] = KindRow(kind, dd, go, row)
        return row


class KindRow:
    """The widgets of one order kind's row (tests and notebooks reach them by kind)."""

    def __init__(self, kind: str, dropdown: widgets.Dropdown, apply: widgets.Button, widget: widgets.Widget) -> None:
        self.kind, self.dropdown, self.apply, self.widget = kind, dropdown, apply, widget
