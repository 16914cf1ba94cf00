"""The Policy protocol, the random policy, and a loop that lets policies play."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from workbench.engine.state import FLOW_ORDERS, State


@runtime_checkable
class Policy(Protocol):
    """Chooses one of the legal orders.  ``view`` is what the deciding side may see.

    A policy may also offer the fast path ``choose_in(state, side) -> order``:
    :func:`play` then calls it instead of enumerating every legal order, and the
    policy asks ``state.legal_orders_of(kind)`` only for the kinds it wants
    (factored choice).  It must still return a legal order, and it must read the
    position only through ``state.ruleset.view(state, side)``.
    """

    def choose(self, view: Any, legal_orders: list[dict[str, Any]]) -> dict[str, Any]: ...


class RandomPolicy:
    """Uniform random play, factored: first a random order kind, then a random order of it.

    Factoring keeps random games moving (ending a step is as likely as any one
    kind of action) instead of drowning in hundreds of move orders.  The policy
    has its own seeded generator, separate from the game's dice.

    ``choose_in`` draws from the same distribution (uniform over the kinds that
    have a legal order, then uniform within the kind) but enumerates kinds
    lazily in a random order, so it rarely lists the costly ones.
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

    def choose_in(self, state: State, side: str) -> dict[str, Any]:
        d = state.decision
        kinds = sorted(d.kinds)
        for i in self.rng.permutation(len(kinds)):
            of_kind = state.legal_orders_of(kinds[int(i)])
            if of_kind:
                return of_kind[int(self.rng.integers(len(of_kind)))]
        raise ValueError(f"no legal orders to choose from at {state.clock}")


def is_legal_now(state: State, order: dict[str, Any]) -> bool:
    """Whether ``order`` would be accepted now, without changing anything.

    Asks :meth:`State.check` (the test :meth:`State.apply` runs first), so a policy
    can validate a planned order without listing every legal order of its kind.
    """
    d = state.decision
    if d is None or not isinstance(order, dict) or order.get("kind") not in d.kinds:
        return False
    if order["kind"] in FLOW_ORDERS:
        return order in state.legal_orders_of(order["kind"])
    try:
        return state.check(order) is None
    except Exception:  # a malformed plan is simply not legal  # noqa: BLE001
        return False


def play(state: State, policies: dict[str, Policy], *, max_orders: int = 1_000_000,
         until_turn: int | None = None, on_order=None) -> State:  # noqa: ANN001
    """Let policies play ``state`` (in place) to the end, or until a turn index or order budget.

    Each policy sees only its side's view (``ruleset.view``).  A policy with a
    ``choose_in(state, side)`` method takes the fast path (it asks for legal
    orders kind by kind itself).  Raises if the game reaches a position with no
    decision while not over (a dead end).
    """
    for _ in range(max_orders):
        if state.is_over or (until_turn is not None and state.turn >= until_turn):
            return state
        d = state.decision
        if d is None:
            raise RuntimeError(f"dead end at {state.clock}: no decision but the game is not over")
        policy = policies[d.side]
        fast = getattr(policy, "choose_in", None)
        if fast is not None:
            order = fast(state, d.side)
        else:
            legal = state.legal_orders()
            if not legal:
                raise RuntimeError(f"dead end at {state.clock}: {d} has no legal orders")
            order = policy.choose(state.ruleset.view(state, d.side), legal)
        state.apply(order, prechecked=True)  # a policy that checked its order is not checked twice
        if on_order is not None:
            on_order(state, order)
    return state
