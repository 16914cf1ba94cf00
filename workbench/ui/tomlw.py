"""A small TOML writer for scenario files (the standard library only reads TOML).

Covers what scenario files use: scalars, arrays, inline tables inside arrays,
tables and arrays of tables at any depth.  ``tomllib.loads(dumps(d)) == d``
for such data (tested).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, _dt.datetime | _dt.date | _dt.time):
        return v.isoformat()
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"cannot write {type(v).__name__} {v!r} to TOML")


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def dumps(data: dict[str, Any]) -> str:
    lines: list[str] = []
    _table(data, [], lines)
    return "\n".join(lines).strip() + "\n"


def _table(d: dict[str, Any], path: list[str], lines: list[str]) -> None:
    subs = []
    for k, v in d.items():
        if isinstance(v, dict) or _is_table_array(v):
            subs.append((k, v))
        else:
            lines.append(f"{_key(k)} = {_value(v)}")
    for k, v in subs:
        p = [*path, _key(k)]
        if isinstance(v, dict):
            scalars_only = all(not (isinstance(x, dict) or _is_table_array(x)) for x in v.values())
            if scalars_only or v:
                lines.append("")
                lines.append(f"[{'.'.join(p)}]")
            _table(v, p, lines)
        else:
            for item in v:
                lines.append("")
                lines.append(f"[[{'.'.join(p)}]]")
                _inline_rest(item, p, lines)


def _inline_rest(d: dict[str, Any], path: list[str], lines: list[str]) -> None:
    """Inside an array-of-tables entry: sub-tables are written inline (keeps entries together)."""
    for k, v in d.items():
        lines.append(f"{_key(k)} = {_value(v)}")
