"""The Policy protocol, the random policy, and a loop that lets policies play."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from workbench.engine.state import State


class Policy(Protocol):
    """Chooses one of the legal orders.  ``view`` is what the deciding side may see."""

    def choose(self, view: Any, legal_orders: list[dict[str, Any]]) -> dict[str, Any]: ...


class RandomPolicy:
    """Uniform random play, factored: first a random order kind, then a random order of it.

    Factoring keeps random games moving (ending a step is as likely as any one
    kind of action) instead of drowning in hundreds of move orders.  The policy
    has its own seeded generator, separate from the game's dice.
    """

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, view: Any, legal_orders: list[dict[str, Any]]) -> dict[str, Any]:
        if not legal_orders:
            raise ValueError("no legal orders to choose from")
        kinds = sorted({o["kind"] for o in legal_orders})
        kind = kinds[int(self.rng.integers(len(kinds)))]
        of_kind = [o for o in legal_orders if o["kind"] == kind]
        return of_kind[int(self.rng.integers(len(of_kind)))]


def play(state: State, policies: dict[str, Policy], *, max_orders: int = 1_000_000,
         until_turn: int | None = None, on_order=None) -> State:  # noqa: ANN001
    """Let policies play ``state`` (in place) to the end, or until a turn index or order budget.

    Each policy sees only its side's view (``ruleset.view``).  Raises if the
    game reaches a position with no decision while not over (a dead end).
    """
    for _ in range(max_orders):
        if state.is_over or (until_turn is not None and state.turn >= until_turn):
            return state
        d = state.decision
        if d is None:
            raise RuntimeError(f"dead end at {state.clock}: no decision but the game is not over")
        legal = state.legal_orders()
        if not legal:
            raise RuntimeError(f"dead end at {state.clock}: {d} has no legal orders")
        order = policies[d.side].choose(state.ruleset.view(state, d.side), legal)
        state.apply(order)
        if on_order is not None:
            on_order(state, order)
    return state
