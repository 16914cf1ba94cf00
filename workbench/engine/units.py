"""Units in play or waiting off-map, as small plain records."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import polars as pl

UNIT_COLUMNS: dict[str, pl.DataType] = {
    "id": pl.String(), "side": pl.String(), "nation": pl.String(), "type": pl.String(),
    "size": pl.String(), "location": pl.String(), "reduced": pl.Boolean(),
}


@dataclass
class Unit:
    """One counter.  ``location`` is a hex label or a box name; ``props`` holds
    ruleset status (moved, activated, out of supply, ...) as JSON-able values."""

    id: str
    side: str
    nation: str
    type: str
    size: str | None
    location: str
    reduced: bool = False
    props: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Unit:
        return cls(**{**d, "props": dict(d.get("props", {}))})


def units_frame(units: list[Unit]) -> pl.DataFrame:
    """The ``state.units()`` frame: one row per unit, the documented columns."""
    rows = [{k: getattr(u, k) for k in UNIT_COLUMNS} for u in units]
    return pl.DataFrame(rows, schema=UNIT_COLUMNS)
