"""Rule tables read by pure calculator functions (``adjudicate`` modules).

Calculators take an optional ``tables=`` mapping (a game's tables, with
designer overrides); without it they read the ruleset's shipped TOML, parsed
once per process.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any


class TableSource:
    """``source(name, tables)``: ``tables[name]`` if given, else the shipped ``<dir>/<name>.toml``."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._load = cache(self._read)

    def _read(self, name: str) -> dict[str, Any]:
        with open(self.directory / f"{name}.toml", "rb") as fh:
            return tomllib.load(fh)

    def shipped(self, name: str) -> dict[str, Any]:
        return self._load(name)

    def __call__(self, name: str, tables: dict[str, Any] | None = None) -> dict[str, Any]:
        return tables[name] if tables is not None and name in tables else self._load(name)
