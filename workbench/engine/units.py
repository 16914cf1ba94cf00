"""Units in play or waiting off-map, as small plain records."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import polars as pl

#: Bumped whenever any unit changes where it is or what it is, so derived data
#: (ZOC, stacks, supply) cached with :meth:`State.derived` knows when to recompute.
_EPOCH = [0]
#: The same per side (a unit's old and new side when it changes sides), and how often
#: :func:`touch` ran: :func:`side_stamp` lets data that reads one side's units (its ZOC, the
#: hexes an enemy may not enter) outlive the other side's moves.
_SIDE_EPOCH: dict[Any, int] = {}
_TOUCHED = [0]
_TRACKED = frozenset({"location", "reduced", "side", "type", "nation", "size"})


def epoch() -> int:
    return _EPOCH[0]


def side_stamp(side: str, *, others: bool = False) -> tuple[Any, ...]:
    """Changes whenever a unit of ``side`` (``others``: of any side but ``side``) changes where it
    is or what it is, or takes a flag, and on every :func:`touch`: the ``units`` stamp of
    :meth:`State.derived` for data read from one side's units only."""
    if others:
        return (_TOUCHED[0], tuple(sorted((str(s), e) for s, e in _SIDE_EPOCH.items() if s != side)))
    return (_TOUCHED[0], _SIDE_EPOCH.get(side, 0))


def touch() -> None:
    """Invalidate derived data (units were replaced wholesale, e.g. by undo)."""
    _EPOCH[0] += 1
    _TOUCHED[0] += 1


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

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _TRACKED:
            _EPOCH[0] += 1
            side = self.__dict__.get("side")  # None while the dataclass sets the fields
            _SIDE_EPOCH[side] = _SIDE_EPOCH.get(side, 0) + 1
            if name == "side":
                _SIDE_EPOCH[value] = _SIDE_EPOCH.get(value, 0) + 1
        object.__setattr__(self, name, value)

    def flag(self, key: str, value: Any = True) -> None:
        """Set (or with ``None`` clear) a status prop that changes derived data
        (carried, underground, ...), invalidating caches."""
        _EPOCH[0] += 1
        _SIDE_EPOCH[self.side] = _SIDE_EPOCH.get(self.side, 0) + 1
        if value is None:
            self.props.pop(key, None)
        else:
            self.props[key] = value

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Unit:
        return cls(**{**d, "props": dict(d.get("props", {}))})


def units_frame(units: list[Unit]) -> pl.DataFrame:
    """The ``state.units()`` frame: one row per unit, the documented columns."""
    rows = [{k: getattr(u, k) for k in UNIT_COLUMNS} for u in units]
    return pl.DataFrame(rows, schema=UNIT_COLUMNS)
