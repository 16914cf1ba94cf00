"""The phase outline: the sequence-of-play tree with "you are here", who owes what, and play buttons.

Reads ``state.ruleset.sequence.outline(root)``, ``state.frames`` (the open
steps and interrupts) and ``state.decision``.  The buttons advance (end the
step or pass), or let a bot play on to the end of the step, the phase or the
turn.  The bot is picked by name (``random``, ``heuristic``, ``lookahead``: the names batch runs
take, :data:`workbench.bots.heuristic.BOTS`) in the *Bot* menu, one policy per side; any object with
``choose(view, legal_orders)`` can also be set as ``outline.policies``.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.bots.heuristic import BOTS, make_policy
from workbench.engine.errors import IllegalOrder

if TYPE_CHECKING:
    from workbench.engine.state import State
    from workbench.ui.workbench import Workbench

MAX_BOT_ORDERS = 5000


def open_paths(state: State) -> list[str]:
    return [f["node"] for f in state.frames if "node" in f]


def outline_html(state: State) -> str:
    """The tree as HTML: done steps grey, open steps bold, the innermost marked."""
    rs = state.ruleset
    if not state.frames and state.result is not None:
        return f"<div class='wb-outline'><b>Game over</b>: {html.escape(str(state.result))}</div>"
    root = rs.turn_root(state)
    steps = rs.sequence.outline(root)
    opened = open_paths(state)
    here = opened[-1] if opened else None
    phasing = state.phasing
    order = [s.path for _, s in steps]
    pos = order.index(here) if here in order else -1
    lines = [f"<div class='wb-outline'><div><b>Turn {html.escape(state.turn_label)}</b> "
             f"({state.turn + 1} of {len(state.calendar)})</div>"]
    seen_calls: set[str] = set()
    for i, (depth, step) in enumerate(steps):
        if step.path in seen_calls:
            continue
        title = html.escape(step.title_for(phasing if step.path in opened else None).replace("  ", " "))
        rule = f" <span class='wb-rule'>{html.escape(step.rule)}</span>" if step.rule else ""
        off = ""
        if step.when:
            try:
                active = rs.condition(state, step.when)
            except Exception:  # noqa: BLE001 - an unknown condition is shown as such
                active = True
            off = "" if active else f" <i>(off: {html.escape(step.when)})</i>"
        pad = "&nbsp;" * (3 * depth)
        if step.path == here:
            lines.append(f"<div class='wb-here'>{pad}▶ <b>{title}</b>{rule} "
                         f"<span class='wb-you-are-here'>you are here</span></div>")
        elif step.path in opened:
            lines.append(f"<div>{pad}▾ <b>{title}</b>{rule}</div>")
        elif 0 <= i < pos and not any(step.path.startswith(p + "/") for p in opened):
            lines.append(f"<div style='color:#999'>{pad}✓ {title}{rule}{off}</div>")
        else:
            lines.append(f"<div style='color:{'#bbb' if off else '#333'}'>{pad}· {title}{rule}{off}</div>")
    # sub-procedures and interrupts pushed on top of the tree
    for f in state.frames:
        if "node" in f and f["node"] not in order:
            st = rs.sequence.nodes[f["node"]]
            lines.append(f"<div>↳ <b>{html.escape(st.title_for(f['phasing']))}</b> "
                         f"<span class='wb-rule'>{html.escape(st.rule)}</span></div>")
        elif "interrupt" in f:
            lines.append(f"<div class='wb-interrupt'>⚡ <b>{html.escape(f['side'])}</b>: "
                         f"{html.escape(f['prompt'] or f['interrupt'])} "
                         f"<span class='wb-rule'>{html.escape(f['rule'])}</span></div>")
    lines.append("</div>")
    return "\n".join(lines)


def decision_html(state: State) -> str:
    d = state.decision
    if d is None:
        return f"<div class='wb-decision'><b>Game over.</b> {html.escape(str(state.result))}</div>"
    step = state.step
    why = f"{step.title_for(state.phasing)}" if step else d.kind
    return (f"<div class='wb-decision'><b>{html.escape(d.side)}</b> owes a decision: "
            f"{html.escape(d.prompt)}<br>why: {html.escape(why)}, rule "
            f"<span class='wb-rule'>{html.escape(d.rule)}</span><br>open orders: "
            f"{html.escape(', '.join(d.kinds))}</div>")


class Outline:
    """The outline panel with its play buttons."""

    def __init__(self, wb: Workbench, seed: int = 0) -> None:
        self.wb = wb
        self.seed = seed
        self.bot_name = "random"
        self.policies: dict[str, Any] = {}
        self.set_bot("random")
        self.bot_pick = widgets.Dropdown(options=list(BOTS), value="random", description="Bot",
                                         layout=widgets.Layout(width="auto"),
                                         tooltip="which bot the Bot buttons play (as in batch runs)")
        self.bot_pick.observe(lambda ch: self.set_bot(ch["new"]), names="value")
        self.tree = widgets.HTML()
        self.tree.add_class("wb-outline-tree")
        self.decision = widgets.HTML()
        self.decision.add_class("wb-decision-box")
        b = widgets.Layout(width="auto")
        self.advance_btn = widgets.Button(description="Advance / pass", button_style="info", layout=b,
                                          tooltip="end the current step, or pass the current interrupt")
        self.bot_step = widgets.Button(description="Bot: end of step", layout=b)
        self.bot_phase = widgets.Button(description="Bot: end of phase", layout=b)
        self.bot_turn = widgets.Button(description="Bot: end of turn", layout=b)
        self.advance_btn.on_click(lambda _=None: self.advance())
        self.bot_step.on_click(lambda _=None: self.bot("step"))
        self.bot_phase.on_click(lambda _=None: self.bot("phase"))
        self.bot_turn.on_click(lambda _=None: self.bot("turn"))
        #: the decision owed and the play buttons: always in view, above the tabs beside the map
        self.controls = widgets.VBox([
            self.decision,
            widgets.HBox([self.advance_btn, self.bot_pick, self.bot_step, self.bot_phase, self.bot_turn],
                         layout=widgets.Layout(flex_flow="row wrap"))],
            layout=widgets.Layout(flex="0 0 auto"))  # never squeezed by the tabs under it
        self.controls.add_class("wb-outline-panel")
        #: the sequence-of-play tree (the Orders tab)
        self.widget = widgets.VBox([self.tree])

    def set_bot(self, name: str) -> None:
        """Let the bot named ``name`` (one of :data:`BOTS`) play every side for the Bot buttons."""
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}; available: {', '.join(BOTS)}")
        st = self.wb.state
        self.bot_name = name
        self.policies = {s: make_policy(name, st.ruleset, s, self.seed + i) for i, s in enumerate(st.ruleset.sides)}

    def refresh(self) -> None:
        st = self.wb.state
        self.tree.value = outline_html(st)
        self.decision.value = decision_html(st)
        # a side's view acts only for that side; the umpire acts for all (issue 26.3)
        idle = st.decision is None or not self.wb.may_command(st.decision.side)
        for btn in (self.advance_btn, self.bot_step, self.bot_phase, self.bot_turn):
            btn.disabled = idle
        for btn in (self.bot_step, self.bot_phase, self.bot_turn):
            btn.tooltip = ("the bots play both sides" if self.wb.side is None
                           else f"the bot plays the {self.wb.side} side until the other side must decide")

    def advance(self) -> None:
        st = self.wb.state
        if not self.wb.may_act():
            return
        try:
            st.advance()
        except IllegalOrder as exc:
            self.wb.refuse(exc, "advance")
            return
        self.wb.changed()
        self.wb.say(f"Advanced to {' / '.join(st.clock)}.", "ok")

    def _scope(self, scope: str) -> Any:
        """A predicate: still inside the current step / phase / turn?"""
        st = self.wb.state
        frames = list(st.frames)
        if scope == "turn":
            turn = st.turn
            return lambda: st.turn == turn
        if scope == "step":
            target = frames[-1] if frames else None
        else:  # phase: the outermost open step below the turn root that is not a per-side wrapper
            nodes = [f for f in frames if "node" in f]
            target = None
            for f in nodes[1:]:
                step = st.ruleset.sequence.nodes[f["node"]]
                if step.kind not in ("sides", "alternate"):
                    target = f
                    break
            target = target or (frames[-1] if frames else None)
        if target is None:
            return lambda: False
        return lambda: any(f is target for f in st.frames)

    def bot(self, scope: str, max_orders: int = MAX_BOT_ORDERS) -> int:
        """Let the bots play until the current step/phase/turn is over. Returns orders played.
        In one side's view the bot plays only that side, and stops when the other side owes a
        decision."""
        st = self.wb.state
        inside = self._scope(scope)
        n = 0
        while st.decision is not None and inside() and n < max_orders:
            d = st.decision
            if not self.wb.may_command(d.side):
                break
            legal = st.legal_orders()
            if not legal:
                break
            order = self.policies[d.side].choose(st.ruleset.view(st, d.side), legal)
            label = st.turn_label
            if label not in self.wb.track_history:
                self.wb.snapshot_turn(st)  # a turn the bots play through still gets its chart point
            st.apply(order)
            if st.turn_label != label:
                self.wb.snapshot_turn(st)
            n += 1
        self.wb.changed()
        d = st.decision
        waiting = (f" {d.side} owes the next decision." if d is not None and not self.wb.may_command(d.side)
                   else "")
        self.wb.say(f"The bots played {n} order(s); now at {' / '.join(st.clock)}.{waiting}", "ok")
        return n
