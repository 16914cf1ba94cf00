"""What the game is waiting for: who must decide what, and under which rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Decision:
    """The pending decision.  ``kinds`` are the order kinds open for it.

    UIs and bots read only this and ``state.legal_orders()``.  ``options`` is
    filled on demand by :meth:`State.legal_orders`, since enumerating every
    legal move can be costly; ``kinds`` is always there for factored choice
    (pick a kind, then an order of that kind).
    """

    side: str
    kind: str
    prompt: str
    rule: str
    kinds: tuple[str, ...] = ()
    step: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False)
    enumerate_options: Callable[[], list[dict[str, Any]]] | None = field(
        default=None, compare=False, repr=False)

    @property
    def options(self) -> list[dict[str, Any]]:
        """The legal orders for this decision (the same list as ``state.legal_orders()``)."""
        return self.enumerate_options() if self.enumerate_options is not None else []

    def __str__(self) -> str:
        return f"{self.side}: {self.prompt} ({self.rule})"
