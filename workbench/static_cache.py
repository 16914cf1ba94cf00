"""One compute-once cache for objects whose data never changes after loading: a
:class:`~workbench.map.HexMap` (data of the map alone) and a
:class:`~workbench.engine.game.Game` (data that also needs the rule tables or the scenario).
Data that depends on the position goes to :meth:`State.derived
<workbench.engine.state.State.derived>` instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class StaticCache:
    """``cached(key, compute)``: ``compute()`` once per object for ``key``, then the stored value.

    ``compute`` must read nothing that changes during play (units, tracks, markers, arrays).
    Values are shared: callers must not modify them (copy first).  Keys are namespaced by
    ruleset or module (``"ssa.sea_edge"``, ``("eto.lonlat",)``).  The owner creates
    ``self._cache = {}`` in its constructor; pickling leaves the cache out (derived data is
    rebuilt where the object is unpickled).
    """

    _cache: dict[Any, Any]

    def cached(self, key: Any, compute: Callable[[], Any]) -> Any:
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = compute()
            return value

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_cache": {}}
