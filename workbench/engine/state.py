"""The game state: one serializable object, with its dice, its cursor and its log.

Everything that changes during play lives here as plain data (dicts, lists,
numpy arrays), so a state can be saved, hashed (:meth:`State.digest`) and
forked (:meth:`State.fork`) cheaply.  The one way to change it is
:meth:`State.apply`, which validates first and mutates after, so a rejected
order never leaves a mark.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import math
import pickle
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from workbench.engine import limits, order_fields
from workbench.engine.decision import Decision
from workbench.engine.dice import Dice
from workbench.engine.errors import IllegalOrder, Refusal
from workbench.engine.events import events_frame, make_event
from workbench.engine.flow import Step, interrupt_frame, node_frame
from workbench.engine.units import Unit, epoch, side_stamp, touch, units_frame

if TYPE_CHECKING:
    from workbench.engine.game import Game

#: Order kinds the flow itself understands.
FLOW_ORDERS = ("end_step", "pass", "begin", "choose_first")
_MAX_AUTOMATIC_STEPS = 100_000


class State:
    """A position in a game.  Create with ``game.new_state(seed)``."""

    _checked: tuple[tuple[Any, ...], dict[str, Any]] | None = None  # (version, order) check passed last

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.turn = 0
        self.frames: list[dict[str, Any]] = []
        self.units_by_id: dict[str, Unit] = {}
        self.tracks: dict[str, Any] = {}
        self.markers: dict[str, Any] = {}
        self.arrays: dict[str, np.ndarray] = {}
        self.dice = Dice(seed)
        self.log: list[dict[str, Any]] = []
        self.orders: list[dict[str, Any]] = []
        self.annotations: dict[int, dict[str, Any]] = {}
        self.result: dict[str, Any] | None = None
        self._undo: list[dict[str, Any]] = []
        self._rolled = False
        self._derived: dict[Any, tuple[Any, Any]] = {}
        self._closing: dict[str, Any] | None = None
        self._checked = None  # (version, order) of the last order check passed

    # == reading ===============================================================
    @property
    def ruleset(self):  # noqa: ANN201 - Ruleset, avoided for import cycles
        return self.game.ruleset

    @property
    def map(self):  # noqa: ANN201
        return self.game.map

    @property
    def calendar(self) -> list[str]:
        return self.game.calendar

    @property
    def turn_label(self) -> str:
        cal = self.calendar
        return cal[min(self.turn, len(cal) - 1)]

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def clock(self) -> tuple[str, ...]:
        """``(turn label, titles of the open steps...)``, e.g.
        ``("1941-09", "Axis player turn", "Combat", "Land combat")``."""
        titles: list[str] = []
        for f in self.frames:
            if "interrupt" in f:
                titles.append(f["prompt"] or f["interrupt"])
                continue
            step = self.game.ruleset.sequence.nodes[f["node"]]
            if "/" not in step.path:  # the root is the turn itself
                continue
            if step.kind in ("sides", "alternate") and f["side"]:
                titles.append(step.title_for(f["side"]))
            else:
                titles.append(step.title_for(f["phasing"]))
        return (self.turn_label, *titles)

    @property
    def step(self) -> Step | None:
        """The innermost open step of the sequence (not an interrupt)."""
        if self._closing is not None:
            return self.game.ruleset.sequence.nodes[self._closing["node"]]
        for f in reversed(self.frames):
            if "node" in f:
                return self.game.ruleset.sequence.nodes[f["node"]]
        return None

    @property
    def phasing(self) -> str | None:
        if self._closing is not None:
            return self._closing["phasing"]
        for f in reversed(self.frames):
            if "node" in f:
                return f["phasing"]
        return None

    def derived(self, key: Any, compute, *depends: Any, side: str | None = None,  # noqa: ANN001
                others: bool = False) -> Any:
        """Memoise data derived from the position (ZOC, stacks, supply, rail nets...).

        The one cache for position-dependent data.  The value is kept per state and
        recomputed whenever any unit moved or changed (the unit epoch) or an extra
        dependency in ``depends`` differs (compared by equality): pass what else
        ``compute`` reads -- e.g. :attr:`event_stamp` for data read from tracks and markers
        that only change with a logged event, or the bytes of an array.  Undo, rollback and :meth:`fork` start with an empty cache.  Data that
        does not depend on the position belongs in :meth:`Game.cached` or
        :meth:`HexMap.cached`.

        ``side``: ``compute`` reads only the units of ``side`` (``others``: only those of the other
        sides), so the value outlives changes to the rest (:func:`~workbench.engine.units.side_stamp`;
        a unit added or removed counts too) -- a side's ZOC is not recomputed after each of its
        own moves.
        """
        if side is None:
            stamp = (epoch(), *depends)
        else:
            stamp = (side_stamp(side, others=others), id(self.units_by_id), len(self.units_by_id), *depends)
        hit = self._derived.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        value = compute()
        self._derived[key] = (stamp, value)
        return value

    @property
    def event_stamp(self) -> tuple[int, int, int]:
        """Changes with every logged event, order and turn: the ``depends`` of :meth:`derived`
        data read from tracks and markers, which change only with a logged event."""
        return (len(self.log), len(self.orders), self.turn)

    def forget(self, prefix: str = "") -> None:
        """Drop derived data (:meth:`derived`): all of it, or the keys whose name (the key,
        or its first item) starts with ``prefix``.  For code and tests that change tracks,
        markers or arrays directly, without an event or a unit change."""
        if not prefix:
            self._derived = {}
            return
        for key in [k for k in self._derived
                    if str(k[0] if isinstance(k, tuple) and k else k).startswith(prefix)]:
            del self._derived[key]

    def units(self) -> pl.DataFrame:
        """Every unit in play or waiting off-map (see docs/events.md for columns)."""
        return units_frame(list(self.units_by_id.values()))

    def unit(self, uid: str) -> Unit:
        try:
            return self.units_by_id[uid]
        except KeyError:
            raise KeyError(f"no unit {uid!r} in this game") from None

    def units_at(self, location: str) -> list[Unit]:
        return [u for u in self.units_by_id.values() if u.location == location]

    def events(self) -> pl.DataFrame:
        """The event log as a polars DataFrame (schema in docs/events.md)."""
        return events_frame(self.log)

    # == the decision ==========================================================
    @property
    def decision(self) -> Decision | None:
        """Who must decide what now; ``None`` once the game is over."""
        d = self._decision()
        if d is None:
            return None
        return replace(d, enumerate_options=self.legal_orders)

    def _decision(self) -> Decision | None:
        if self.result is not None or not self.frames:
            return None
        f = self.frames[-1]
        if "interrupt" in f:
            return Decision(f["side"], f["interrupt"], f["prompt"], f["rule"],
                            tuple(f["orders"]), self._step_path(), f["data"])
        step = self.game.ruleset.sequence.nodes[f["node"]]
        if step.kind == "leaf":
            side = f["pending"][0]
            ok = self.game.ruleset.order_kinds
            kinds = (*(k for k in step.orders if k in ok and ok[k].in_game(self.game)), "end_step")
            prompt = step.prompt or f"{step.title_for(f['phasing'])}: give orders or end the step"
            return Decision(side, step.key, prompt, step.rule, kinds, step.path)
        if step.kind == "sides":
            title = step.title_for(None).strip()
            return Decision(f["data"]["chooser"], "choose_first",
                            f"{title[:1].upper()}{title[1:]}: choose which side goes first", step.rule,
                            ("choose_first",), step.path)
        if step.kind == "alternate":
            return Decision(f["side"], step.key,
                            step.prompt or f"{step.title_for(f['side'])}: begin one or pass",
                            step.rule, ("begin", "pass"), step.path)
        raise AssertionError(f"no decision at {step.path}")  # pragma: no cover

    def _step_path(self) -> str:
        s = self.step
        return s.path if s else ""

    def legal_orders(self) -> list[dict[str, Any]]:
        """Every legal order for the pending decision (empty once the game is over)."""
        d = self.decision
        if d is None:
            return []
        out: list[dict[str, Any]] = []
        for kind in d.kinds:
            out.extend(self.legal_orders_of(kind))
        return out

    def legal_orders_of(self, kind: str) -> list[dict[str, Any]]:
        """Legal orders of one kind (factored choice for big decision spaces)."""
        d = self.decision
        if d is None or kind not in d.kinds:
            return []
        if kind in FLOW_ORDERS:
            return self._flow_orders(kind)
        return self.game.ruleset.order_kinds[kind].legal(self)

    def _flow_orders(self, kind: str) -> list[dict[str, Any]]:
        f = self.frames[-1]
        if kind == "choose_first":
            return [{"kind": "choose_first", "side": s} for s in self.game.ruleset.sides]
        if kind == "end_step":
            try:
                self.game.ruleset.check_end_step(self, self.step, self.decision.side)
            except IllegalOrder:
                return []
            return [{"kind": kind}]
        if kind in ("begin", "pass"):
            return [{"kind": kind}]
        raise AssertionError(f)  # pragma: no cover

    # == changing ================================================================
    def check(self, order: Any) -> Refusal | None:
        """Why ``order`` would be refused now, as a :class:`Refusal` ``(rule, why)``, or ``None``
        if :meth:`apply` would accept it.  Changes nothing: bots, the UI and ``apply`` itself ask
        this, so nobody applies an order just to learn why it fails."""
        try:
            _, canon = self._validate(order)
        except IllegalOrder as exc:
            return exc.refusal
        self._checked = (self._version(), canon)
        return None

    def _version(self) -> tuple[Any, ...]:
        """Changes with every order, event, unit change and undo: a check made at one version
        holds at the same version (:meth:`apply` with ``prechecked``)."""
        f = self.frames[-1] if self.frames else {}
        return (epoch(), len(self.orders), len(self.log), self.turn, len(self.frames), id(f),
                f.get("side"), repr(f.get("pending")), id(self.tracks), id(self.markers))

    def _validate(self, order: Any, prechecked: bool = False) -> tuple[Any, dict[str, Any]]:
        """Raise :class:`IllegalOrder` unless ``order`` is legal now; return its order kind
        (``None`` for the flow's own orders) and the canonical copy of the order that is
        checked, carried out and recorded (:func:`canonical_order`).  ``prechecked``: the
        rules are not asked again if :meth:`check` passed this very order at this version."""
        d = self.decision
        order = canonical_order(order)
        if d is None:
            raise IllegalOrder("kernel", "the game is over; no more orders")
        kind = order["kind"]
        if prechecked and self._checked is not None and self._checked[1] == order \
                and self._checked[0] == self._version():
            return (None if kind in FLOW_ORDERS else self.game.ruleset.order_kinds[kind]), order
        if kind not in d.kinds:
            open_ = ", ".join(d.kinds)
            raise IllegalOrder(d.rule or "kernel",
                               f"a {kind!r} order is not open now: {d.side} must decide "
                               f"'{d.prompt}' (open: {open_})")
        if "side" in order and kind != "choose_first" and order["side"] != d.side:
            raise IllegalOrder(d.rule or "kernel",
                               f"it is {d.side}'s decision, not {order['side']}'s")
        handler = None if kind in FLOW_ORDERS else self.game.ruleset.order_kinds[kind]
        fields = order_fields.FLOW_FIELDS.get(kind) if handler is None else self.game.ruleset.order_fields(kind)
        if fields is not None:  # the declared fields and their types, before any rule looks
            order_fields.check(fields, order, (handler.rule if handler is not None else d.rule) or "kernel")
        if handler is not None:
            handler.check(self, order)
        elif kind == "choose_first" and order.get("side") not in self.game.ruleset.sides:
            raise IllegalOrder(d.rule, f"choose one of the sides {list(self.game.ruleset.sides)}")
        elif kind == "end_step":
            self.game.ruleset.check_end_step(self, self.step, d.side)
        return handler, order

    def apply(self, order: dict[str, Any], *, prechecked: bool = False) -> list[dict[str, Any]]:
        """Validate and carry out one order; return the events it caused.

        Raises :class:`IllegalOrder` (naming the rule) and leaves the state
        exactly as it was if the order is not legal now (the refusal :meth:`check` gives).
        ``prechecked`` (the bots' loop, :func:`~workbench.bots.play`): skip asking the rules
        again when :meth:`check` accepted this same order in this same position (same
        :meth:`_version`); anything else is validated in full.
        """
        handler, order = self._validate(order, prechecked)
        self._checked = None
        # validated: now mutate, restoring the snapshot if anything unexpected breaks
        snapshot = self.snapshot()
        first_event = len(self.log)
        self._rolled = False
        self.orders.append(order)
        try:
            if handler is not None:
                handler.execute(self, order)
            else:
                self._flow_order(order)
            self._run()
        except Exception:
            self.restore(snapshot)
            raise
        if self._rolled:
            self._undo.clear()
        else:
            self._undo.append(snapshot)
        return copy.deepcopy(self.log[first_event:])  # the caller's copies: the log stays the log

    def advance(self) -> list[dict[str, Any]]:
        """End the current step or pass the current interrupt, if that is open."""
        d = self.decision
        if d is None:
            raise IllegalOrder("kernel", "the game is over")
        for kind in ("end_step", "pass"):
            if kind in d.kinds:
                return self.apply({"kind": kind})
        raise IllegalOrder(d.rule, f"{d.side} must decide '{d.prompt}' before play can go on")

    def undo(self) -> bool:
        """Take back the last order, unless dice were rolled since (then ``False``)."""
        if not self._undo:
            return False
        self.restore(self._undo.pop())
        return True

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    # -- tools for rules code ------------------------------------------------------
    def emit(self, kind: str, *, rule: str = "", text: str = "", side: str | None = None,
             purpose: str | None = None, dice: list[int] | None = None,
             **data: Any) -> dict[str, Any]:
        """Append an event to the log."""
        ev = make_event(len(self.log), len(self.orders) - 1, self.turn_label,
                        " / ".join(self.clock[1:]), kind, side=side, rule=rule, text=text,
                        purpose=purpose, dice=dice, data=data or None)
        self.log.append(ev)
        return ev

    def roll(self, n: int = 1, *, purpose: str, rule: str, sides: int = 6,
             side: str | None = None) -> list[int]:
        """Roll dice from the state's generator; every roll is logged with why and under which rule."""
        dice = self.dice.roll(n, sides)
        self._rolled = True
        self.emit("roll", rule=rule, purpose=purpose, dice=dice, side=side,
                  text=f"{purpose}: rolled {'+'.join(map(str, dice))}")
        return dice

    def push_interrupt(self, kind: str, side: str, rule: str, prompt: str, orders: list[str],
                       **data: Any) -> None:
        """Make ``side`` decide something before play goes on (interception, reaction, ...).

        If ``orders`` includes ``"pass"``, declining pops the interrupt and runs the
        ruleset procedure named by ``on_pass=`` (if given) as its continuation."""
        self.frames.append(interrupt_frame(kind, side, rule, prompt, orders, data))

    def settle_interrupt(self, then: str | None = None) -> dict[str, Any]:
        """Mark the top interrupt as decided; once every interrupt pushed above it is
        resolved, the ruleset procedure ``then`` resolves it (innermost first, as
        counter-interceptions resolve before interceptions)."""
        f = self.frames[-1]
        if "interrupt" not in f:
            raise RuntimeError("no interrupt to settle")
        f["done"] = True
        f["then"] = then
        return f

    def pop_interrupt(self) -> dict[str, Any]:
        f = self.frames.pop()
        if "interrupt" not in f:
            self.frames.append(f)
            raise RuntimeError("no interrupt to pop")
        return f

    def push_procedure(self, root: str, **data: Any) -> None:
        """Run a sub-procedure root of the sequence (e.g. ETO attack sequence 4A) now."""
        step = self.game.ruleset.sequence.roots[root]
        self.frames.append(node_frame(step, self.phasing, data))

    def finish(self, winner: str | None, level: str, **detail: Any) -> None:
        """End the game with a result."""
        self.result = {"winner": winner, "level": level, **detail}
        self.emit("game_over", rule=detail.get("rule", ""),
                  text=f"game over: {winner or 'nobody'} ({level})", winner=winner, level=level)

    # == the flow ==============================================================
    def _flow_order(self, order: dict[str, Any]) -> None:
        f = self.frames[-1]
        kind = order["kind"]
        if "interrupt" in f:  # "pass" declines an interrupt
            self.pop_interrupt()
            self.emit("pass", side=f["side"], rule=f["rule"], text=f"{f['side']} declines: {f['prompt']}")
            if f["data"].get("on_pass"):
                self.game.ruleset.procedures[f["data"]["on_pass"]](self, f)
            return
        step = self.game.ruleset.sequence.nodes[f["node"]]
        if kind == "end_step":
            side = f["pending"].pop(0)
            self.emit("end_step", side=side, rule=step.rule, text=f"{side} ends {step.title_for(f['phasing'])}")
        elif kind == "choose_first":
            first = order["side"]
            f["order"] = [first] + [s for s in self.game.ruleset.sides if s != first]
            self.emit("choose_first", side=f["data"]["chooser"], rule=step.rule,
                      text=f"{first} goes first in {step.title}")
        elif kind == "begin":
            f["running"] = True
            f["i"] = 0
            self.emit("begin", side=f["side"], rule=step.rule, text=f"{f['side']} begins {step.title_for(f['side'])}")
        elif kind == "pass":
            f["passes"] += 1
            self.emit("pass", side=f["side"], rule=step.rule, text=f"{f['side']} passes")
            f["side"] = self._other(f["side"])

    def _other(self, side: str) -> str:
        a, b = self.game.ruleset.sides[:2]
        return b if side == a else a

    def start(self) -> None:
        """Run the automatic steps up to the first decision (called once by the game)."""
        self._run()

    def _run(self) -> None:
        """Walk the sequence until someone owes a decision or the game ends."""
        rs = self.game.ruleset
        seq = rs.sequence
        for _ in range(_MAX_AUTOMATIC_STEPS):
            if self.result is not None:
                return
            if not self.frames:
                if self.turn >= len(self.calendar):
                    self.finish(**rs.final_result(self))
                    return
                root = seq.roots[rs.turn_root(self)]
                self.frames.append(node_frame(root, None))
                self.emit("turn", text=f"turn {self.turn_label} begins", rule=root.rule)
                rs.begin_turn(self)
                continue
            f = self.frames[-1]
            if "interrupt" in f:
                if not f.get("done"):
                    return
                self.frames.pop()  # declared earlier; resolve now that the chain above is done
                if f.get("then"):
                    rs.procedures[f["then"]](self, f)
                continue
            step = seq.nodes[f["node"]]
            if not f["entered"]:
                f["entered"] = True
                rs.enter(self, step)
                if self.frames and self.frames[-1] is not f:
                    continue  # the procedure pushed an interrupt or sub-procedure
            if self._advance_frame(f, step):
                return
        raise RuntimeError("the sequence of play ran 100,000 automatic steps without a decision")

    def _advance_frame(self, f: dict[str, Any], step: Step) -> bool:
        """Move one frame on.  True when a decision is now owed."""
        rs = self.game.ruleset
        if step.kind == "leaf":
            if f["pending"] is None:
                f["pending"] = rs.resolve_actor(self, step.actor, f["phasing"]) if step.actor else []
            if f["pending"]:
                return True
            self._pop_node(step)
            return False
        if step.kind == "call":
            if f["i"] == 0:
                f["i"] = 1
                self.frames.append(node_frame(self.game.ruleset.sequence.roots[step.call],
                                              f["phasing"], f["data"]))
            else:
                self._pop_node(step)
            return False
        if step.kind == "sides":
            if f["order"] is None:
                if step.chooser:
                    f["data"]["chooser"] = rs.resolve_actor(self, step.chooser, f["phasing"])[0]
                    return True
                if step.first:
                    first = rs.resolve_actor(self, step.first, f["phasing"])[0]
                    f["order"] = [first, self._other(first)]
                else:
                    f["order"] = list(step.sides)
            if f["k"] >= len(f["order"]):
                self._pop_node(step)
                return False
            f["side"] = f["order"][f["k"]]
            self._push_child(f, step, f["side"], k_advance=True)
            return False
        if step.kind == "alternate":
            if f["side"] is None:
                f["side"] = rs.resolve_actor(self, step.first or "initiative", f["phasing"])[0]
            if f["running"]:
                if f["i"] < len(step.children):
                    self._push_child(f, step, f["side"])
                    return False
                f["running"] = False
                f["passes"] = 0
                f["side"] = self._other(f["side"])
            if f["passes"] >= 2:
                self._pop_node(step)
                return False
            return True
        # seq
        if f["i"] < len(step.children):
            self._push_child(f, step, f["phasing"])
            return False
        self._pop_node(step)
        return False

    def _push_child(self, f: dict[str, Any], step: Step, phasing: str | None,
                    k_advance: bool = False) -> None:
        child = step.children[f["i"]]
        f["i"] += 1
        if k_advance and f["i"] >= len(step.children):
            f["i"] = 0
            f["k"] += 1
        if child.when and not self.game.ruleset.condition(self, child.when):
            return
        self.frames.append(node_frame(child, phasing, dict(f["data"])))

    def _pop_node(self, step: Step) -> None:
        """Close a step: remove its frame, then run its exit procedure, which may push
        interrupts or sub-procedures that run before play goes on."""
        closing = self.frames.pop()
        # so state.step / state.phasing still name the closing step -- except a sub-procedure's
        # root (pushed by push_procedure or a call): it interrupted the step below it, and its
        # exit procedure carries on that step, so they name that step
        sub_root = "/" not in step.path and step.path != self.game.ruleset.turn_root(self)
        self._closing = None if sub_root else closing
        try:
            self.game.ruleset.exit(self, step)
        finally:
            self._closing = None
        if not self.frames and self.result is None and step.path == self.game.ruleset.turn_root(self):
            self.game.ruleset.end_turn(self)
            self.turn += 1

    # == serialization ===========================================================
    def to_dict(self) -> dict[str, Any]:
        """Everything that defines the position, as JSON-able data."""
        return {
            "turn": self.turn,
            "frames": self.frames,
            "units": [u.to_dict() for u in self.units_by_id.values()],
            "tracks": self.tracks,
            "markers": self.markers,
            "arrays": {k: _pack(v) for k, v in sorted(self.arrays.items())},
            "dice": self.dice.state,
            "log": self.log,
            "orders": self.orders,
            "result": self.result,
        }

    def snapshot(self) -> dict[str, Any]:
        """A private copy for undo and rollback.  The log and the orders are append-only,
        so they are copied shallowly; the rest is pickled, which copies plain data (and
        numpy arrays) ~30x faster than ``copy.deepcopy`` -- it runs before every order."""
        units = [u.__dict__ for u in self.units_by_id.values()]  # plain dicts pickle faster than objects
        blob = pickle.dumps((self.turn, self.frames, units, self.tracks,
                             self.markers, self.arrays, self.dice.state, self.result, self.annotations),
                            protocol=pickle.HIGHEST_PROTOCOL)
        return {"blob": blob, "log": list(self.log), "orders": list(self.orders)}

    def restore(self, snap: dict[str, Any]) -> None:
        self._derived = {}
        self._checked = None
        touch()  # fresh unit objects: caches keyed on the unit epoch must not match
        (self.turn, self.frames, units, self.tracks, self.markers, self.arrays, dice, self.result,
         self.annotations) = pickle.loads(snap["blob"])
        self.units_by_id = {d["id"]: _unit_from_state(d) for d in units}
        self.dice = Dice(state=dice)
        self.log = list(snap["log"])
        self.orders = list(snap["orders"])

    def digest(self) -> str:
        """SHA-256 of the canonical content: equal digests mean equal positions and history."""
        blob = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without derived data: its stamps hold this process's unit epoch."""
        return {**self.__dict__, "_derived": {}, "_checked": None}

    def fork(self) -> State:
        """An independent copy to explore a what-if; the original is untouched.  The copy keeps
        the undo history (snapshots are immutable), so a fresh fork can be undone too."""
        other = State.__new__(State)
        other.game = self.game
        other.seed = self.seed
        other._undo = list(self._undo)
        other._rolled = False
        other._derived = {}
        other._closing = None
        other._checked = None
        other.restore(self.snapshot())
        return other

    def record(self):  # noqa: ANN201 - GameRecord
        """The game record (scenario, options, seed, orders, annotations) of this game."""
        from workbench.engine.record import GameRecord

        return GameRecord.of(self)

    def annotate(self, comment: str = "", marks: tuple[str, ...] | list[str] = (),
                 order: int | None = None) -> None:
        """Attach a comment and marks (``"!"``, ``"?"``, ``"key moment"``) to an order."""
        idx = len(self.orders) - 1 if order is None else order
        if not 0 <= idx < len(self.orders):
            raise IndexError(f"no order #{idx} to annotate")
        self.annotations[idx] = {"comment": str(comment), "marks": [str(m) for m in marks]}

    def __repr__(self) -> str:
        d = self.decision
        return f"<State {' / '.join(self.clock)}: {d if d else self.result}>"


def canonical_order(order: Any) -> dict[str, Any]:
    """A private copy of an order in plain JSON types (str keys; str, int, float, bool, None,
    lists), so what is recorded cannot change after ``apply`` and replays exactly.  Anything
    else is refused as an :class:`IllegalOrder` before any rule looks at it."""
    if not isinstance(order, dict) or not isinstance(order.get("kind"), str):
        raise IllegalOrder("kernel", f"an order must be a dict with a 'kind', not {order!r:.200}")

    def copy_of(v: Any, depth: int) -> Any:
        if depth > limits.MAX_ORDER_DEPTH:
            raise IllegalOrder("kernel", f"an order may nest at most {limits.MAX_ORDER_DEPTH} levels deep")
        if isinstance(v, dict):
            bad = [k for k in v if not isinstance(k, str)]
            if bad:
                raise IllegalOrder("kernel", f"order field names must be strings, not {bad[0]!r:.50}")
            return {k: copy_of(x, depth + 1) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [copy_of(x, depth + 1) for x in v]
        if isinstance(v, float) and not math.isfinite(v):
            raise IllegalOrder("kernel", f"an order may not hold {v!r}")
        if v is None or isinstance(v, str | int | float | bool):
            return v
        raise IllegalOrder("kernel", f"an order must be plain JSON data, not {type(v).__name__}")

    return copy_of(order, 0)


def _unit_from_state(d: dict[str, Any]) -> Unit:
    """A unit rebuilt from its pickled ``__dict__`` (as unpickling the object would)."""
    u = object.__new__(Unit)
    u.__dict__.update(d)
    return u


def _pack(a: np.ndarray) -> dict[str, Any]:
    return {"dtype": str(a.dtype), "shape": list(a.shape),
            "data": base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()}
