"""The event log: everything that happened, in order, in one schema for both games.

Events are plain dicts so that they serialize, hash and diff trivially.  The
analysis layer only ever reads this log (see ``docs/events.md``).
"""

from __future__ import annotations

import json
from typing import Any

import polars as pl

#: Column order and polars types of :func:`events_frame`; documented in docs/events.md.
EVENT_SCHEMA: dict[str, pl.DataType] = {
    "seq": pl.Int64(),
    "order": pl.Int64(),
    "turn": pl.String(),
    "step": pl.String(),
    "kind": pl.String(),
    "side": pl.String(),
    "rule": pl.String(),
    "text": pl.String(),
    "purpose": pl.String(),
    "dice": pl.List(pl.Int64()),
    "total": pl.Int64(),
    "data": pl.String(),
}


def make_event(seq: int, order: int, turn: str, step: str, kind: str, *, side: str | None = None,
               rule: str = "", text: str = "", purpose: str | None = None,
               dice: list[int] | None = None, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """Build one event dict in the canonical field order."""
    return {
        "seq": seq, "order": order, "turn": turn, "step": step, "kind": kind, "side": side,
        "rule": rule, "text": text, "purpose": purpose, "dice": dice,
        "total": sum(dice) if dice is not None else None,
        "data": json.dumps(data, sort_keys=True, separators=(",", ":")) if data else None,
    }


def events_frame(events: list[dict[str, Any]]) -> pl.DataFrame:
    """The log as a polars DataFrame with :data:`EVENT_SCHEMA`."""
    if not events:
        return pl.DataFrame(schema=EVENT_SCHEMA)
    return pl.DataFrame(events, schema=EVENT_SCHEMA)
