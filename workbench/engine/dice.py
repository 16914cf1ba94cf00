"""Dice that live in the game state.

The generator is numpy's PCG64, whose whole state is a small dict, so it is
saved with the state, forked with it and hashed into its digest.  The same
scenario, seed and orders therefore roll the same dice, which is what gives
analysts common random numbers when they compare what-ifs.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class Dice:
    """A seeded PCG64 generator with a JSON-able state."""

    def __init__(self, seed: int | None = None, state: dict[str, Any] | None = None) -> None:
        self._bg = np.random.PCG64(seed)
        if state is not None:
            self._bg.state = state
        self._gen = np.random.Generator(self._bg)

    @property
    def state(self) -> dict[str, Any]:
        s = self._bg.state
        return {"bit_generator": s["bit_generator"], "state": dict(s["state"]),
                "has_uint32": s["has_uint32"], "uinteger": s["uinteger"]}

    def roll(self, n: int = 1, sides: int = 6) -> list[int]:
        """``n`` dice of ``sides`` faces each."""
        return [int(x) for x in self._gen.integers(1, sides + 1, size=n)]

    def choice(self, k: int) -> int:
        """A uniform index in ``range(k)``, for random tie-breaks that are not die rolls."""
        return int(self._gen.integers(0, k))
