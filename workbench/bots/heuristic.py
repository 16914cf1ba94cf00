"""Heuristic bots: a shared driver plus one *brain* per ruleset.

The driver (:class:`HeuristicPolicy`) owns the safety rules every bot keeps:

* it plans on ``state.ruleset.view(state, side)`` only (the fog-of-war view;
  for now the state itself), and asks ``state.legal_orders_of(kind)`` for the
  kinds it needs (factored choice);
* every order it returns is legal now: a planned order is checked with the
  order kind's own ``check`` before it is returned, and anything that fails
  falls back to a default;
* unknown order kinds (rules added after the bot was written) are handled
  gracefully: end the step or pass when that is open, else a random legal
  order of an open kind, from the bot's own seeded generator;
* a step in which the brain keeps proposing orders is ended after a budget,
  so a bot always finishes its game.

A brain (the ruleset's :meth:`~workbench.engine.face.Face.brain`, e.g.
``rulesets/<game>/bot.py``) maps a decision to a proposed order, or ``None`` for "I am
done here".
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from workbench.bots.policy import is_legal_now
from workbench.engine.state import State

#: Orders a brain may propose in one step before the driver ends the step.
STEP_BUDGET = 400


class Context:
    """What a brain sees for one decision."""

    def __init__(self, policy: HeuristicPolicy, state: State, side: str, legal: list | None) -> None:
        self.policy = policy
        self._state = state
        #: the side's view (fog of war): the only source of facts about enemy units
        self.view = state.ruleset.view(state, side)
        #: the position, for legality checks and public or own-side facts only (the map,
        #: markers such as city control, own units, own supply); never enemy units
        self.state = state
        self.side = side
        self.decision = state.decision
        self.rng = policy.rng
        self._legal = legal
        if policy._turn != state.turn:
            policy._turn = state.turn
            policy.memos = {}
        key = (self.decision.step, self.decision.kind, side, len(state.frames))
        self.memo: dict[str, Any] = policy.memos.setdefault(key, {})
        self.memo["_count"] = self.memo.get("_count", 0) + 1

    def legal(self, kind: str) -> list[dict[str, Any]]:
        """Legal orders of one kind now."""
        if kind not in self.decision.kinds:
            return []
        if self._legal is not None:
            return [o for o in self._legal if o["kind"] == kind]
        return self._state.legal_orders_of(kind)

    def ok(self, order: dict[str, Any] | None) -> bool:
        """Whether a planned order is legal now."""
        if order is None:
            return False
        if self._legal is not None and order not in self._legal:
            return False
        return is_legal_now(self._state, order)

    def first_ok(self, orders) -> dict[str, Any] | None:  # noqa: ANN001
        """The first planned order that is legal now (rejected ones are remembered)."""
        bad = self.memo.setdefault("_rejected", set())
        for o in orders:
            if o is None:
                continue
            k = json.dumps(o, sort_keys=True)
            if k in bad:
                continue
            if self.ok(o):
                return o
            bad.add(k)
        return None


class Brain:
    """Base brain: knows nothing, so it always ends the step (or passes)."""

    def propose(self, ctx: Context) -> dict[str, Any] | None:
        return None


class HeuristicPolicy:
    """A bot for one side of one ruleset: the driver around a ruleset brain."""

    def __init__(self, brain: Brain, seed: int | None = 0, name: str = "heuristic") -> None:
        self.brain = brain
        self.rng = np.random.default_rng(seed)
        self.name = name
        self.memos: dict[tuple, dict[str, Any]] = {}
        self.game_memo: dict[str, Any] = {}  # plans that span turns (a beachhead, ...)
        self._turn: int | None = None
        self.errors = 0  # brain exceptions (answered by the default instead)
        self.last_error: str | None = None
        self.raise_errors = False  # tests set this to surface brain bugs
        self.fallbacks = 0  # decisions answered by the default (unknown kinds, exhausted plans)

    # -- the two entry points ------------------------------------------------------------------
    def choose(self, view: Any, legal_orders: list[dict[str, Any]]) -> dict[str, Any]:
        """Slow path: ``view`` is the side's view; legal orders given in full.  Public and own-side
        facts come from the position behind the view (a view made by ``ruleset.view``)."""
        state = getattr(view, "_state", view)
        return self._decide(state, state.decision.side, legal_orders)

    def choose_in(self, state: State, side: str) -> dict[str, Any]:
        """Fast path used by :func:`workbench.bots.play`: legal orders are asked kind by kind."""
        return self._decide(state, side, None)

    # -- the driver ------------------------------------------------------------------------------
    def _decide(self, state: State, side: str, legal: list | None) -> dict[str, Any]:
        ctx = Context(self, state, side, legal)
        order = None
        if ctx.memo["_count"] <= STEP_BUDGET:
            try:
                order = self.brain.propose(ctx)
            except Exception as exc:  # a brain bug must never stop a batch  # noqa: BLE001
                order = None
                self.errors += 1
                if self.raise_errors:
                    raise
                self.last_error = f"{type(exc).__name__}: {exc} at {state.clock}"
            if order is not None and not ctx.ok(order):
                order = None
        if order is None:
            order = self.default(ctx)
        return order

    def default(self, ctx: Context) -> dict[str, Any]:
        """End the step or pass when open; otherwise a random legal order of an open kind."""
        for kind in ("end_step", "pass"):
            opts = ctx.legal(kind)
            if opts:
                return opts[0]
        self.fallbacks += 1
        kinds = sorted(ctx.decision.kinds)
        for i in self.rng.permutation(len(kinds)):
            opts = ctx.legal(kinds[int(i)])
            if opts:
                return opts[int(self.rng.integers(len(opts)))]
        raise RuntimeError(f"no legal order for {ctx.decision}")


def heuristic_policy(ruleset: Any, side: str, seed: int | None = 0) -> HeuristicPolicy:
    """The heuristic bot for ``side`` of a ruleset (a :class:`Ruleset` or its name): the
    driver around the brain the ruleset's face gives (:meth:`Face.brain`)."""
    if isinstance(ruleset, str):
        from workbench.engine.ruleset import get_ruleset

        ruleset = get_ruleset(ruleset) if ruleset else None
    brain = ruleset.brain(side) if ruleset is not None else None
    return HeuristicPolicy(brain or Brain(), seed)


BOTS = ("random", "heuristic", "lookahead")


def make_policy(name: str, ruleset: str, side: str, seed: int | None) -> Any:
    """A policy by name: ``random``, ``heuristic`` or ``lookahead`` (the heuristic bot with a
    one-step search over its attacks, :mod:`workbench.bots.lookahead`)."""
    from workbench.bots.policy import RandomPolicy

    if name == "random":
        return RandomPolicy(seed)
    if name == "heuristic":
        return heuristic_policy(ruleset, side, seed)
    if name == "lookahead":
        from workbench.bots.lookahead import lookahead_policy

        return lookahead_policy(ruleset, side, seed)
    raise ValueError(f"unknown bot {name!r}; available: {', '.join(BOTS)}")
