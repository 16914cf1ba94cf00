"""Fog of war: a read-only view of the position for one side.

Both rulesets hide parts of the enemy's stacks (SSA-19: every enemy stack until examined; ETO-12.7:
all but the top unit of a stack out of reconnaissance).  Each ruleset decides *what* one side may
see; this class is *how* it is shown: the side's own units and the enemy units it may see in
``units_by_id``, the count of enemy units it may not see by location in ``hidden_stacks``, and
public facts (the map, the clock, the decision, tracks and markers) passed through.  The UI greys
``hidden_hexes``; bots plan on the view; the PettingZoo environment builds its observations from it.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from workbench.engine.state import State
from workbench.engine.units import UNIT_COLUMNS, Unit, units_frame


class SideView:
    """What ``side`` may see: ``shown`` units (own and visible enemy), ``hidden`` enemy units per
    location, and ``revealed`` (locations whose whole enemy stack was examined, with the ids)."""

    def __init__(self, state: State, side: str, shown: dict[str, Unit], hidden: dict[str, int],
                 revealed: dict[str, list[str]] | None = None) -> None:
        self._state = state
        self.side = side
        self.units_by_id = dict(shown)
        self.hidden_stacks = dict(sorted((k, v) for k, v in hidden.items() if v > 0))
        self.hidden_hexes = [h for h in self.hidden_stacks if h.isdigit()]
        self.revealed = dict(revealed or {})

    # read-only pass-throughs of public information
    @property
    def map(self):  # noqa: ANN201
        return self._state.map

    @property
    def clock(self) -> tuple[str, ...]:
        return self._state.clock

    @property
    def decision(self):  # noqa: ANN201
        return self._state.decision

    @property
    def turn_label(self) -> str:
        return self._state.turn_label

    @property
    def phasing(self) -> str | None:
        return self._state.phasing

    @property
    def ruleset(self):  # noqa: ANN201
        return self._state.ruleset

    @property
    def tracks(self) -> dict[str, Any]:
        return self._state.tracks

    @property
    def markers(self) -> dict[str, Any]:
        return self._state.markers

    def enemy(self) -> str:
        return next((s for s in self._state.ruleset.sides if s != self.side), "")

    def unit(self, uid: str) -> Unit:
        try:
            return self.units_by_id[uid]
        except KeyError:
            raise KeyError(f"{self.side} cannot see a unit {uid!r}") from None

    def can_see(self, uid: str) -> bool:
        return uid in self.units_by_id

    def units_at(self, location: str) -> list[Unit]:
        return [u for u in self.units_by_id.values() if u.location == location]

    def units(self) -> pl.DataFrame:
        """Own and visible units as in ``state.units()``, plus a ``hidden`` column; each location with
        hidden enemy units adds one row: ``id = "?<hex>"``, ``type = "stack of N"``, location only."""
        known = units_frame(list(self.units_by_id.values())).with_columns(pl.lit(0).alias("hidden"))
        enemy = self.enemy()
        rows = [{"id": f"?{h}", "side": enemy, "nation": None, "type": f"stack of {n}", "size": None,
                 "location": h, "reduced": None, "hidden": n} for h, n in self.hidden_stacks.items()]
        schema = {**UNIT_COLUMNS, "hidden": pl.Int32()}
        extra = pl.DataFrame(rows, schema=schema)
        return pl.concat([known.cast({"hidden": pl.Int32()}), extra])

    def __repr__(self) -> str:
        return (f"<SideView {self.side}: {len(self.units_by_id)} units seen, "
                f"{len(self.hidden_stacks)} stacks with hidden units>")
