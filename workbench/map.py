"""The map model: per-hex arrays, hexside flags, sea areas and off-map boxes.

A built map lives in a folder ``maps/<name>/``:

``hexes.parquet``
    one row per hex of the grid rectangle: ``id`` (CCRR label), ``q``, ``r``,
    ``terrain``, ``country`` and any further per-hex attribute columns
    (weather zone, sea area, city, port, resource, capital, ...).
``sides.parquet``
    one row per (hexside, feature): ``hex`` (label), ``dir`` (0..5, see
    :data:`workbench.hexgrid.DIRECTIONS`) and ``feature`` (``river``,
    ``border``, ``rail``, ...).  Either hex may carry the row; loading makes the
    flags symmetric.
``places.parquet``
    named places: ``name``, ``hex``, ``kind`` and free attribute columns.
``meta.json``
    grid shape, projection, hex size, feature vocabulary, sea areas and boxes.

Loading is a few Parquet reads and numpy conversions: well under a second even
for the 12,000-hex Europe map.  Rules code works on the dense arrays; notebooks
and analysts use the polars frames.
"""

from __future__ import annotations

import json
import os
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from workbench import hexgrid
from workbench.hexgrid import HexGrid
from workbench.static_cache import StaticCache

MAPS_DIR = Path(os.environ.get("WORKBENCH_MAPS", Path(__file__).resolve().parents[1] / "maps"))

#: Terrain names that count as water for land units in both games.
WATER_TERRAINS = frozenset({"sea", "all-sea", "lake", "all-lake", "ocean"})
#: How many hexes' distance rows a map keeps (:meth:`HexMap.dist_from`): ~50 KB each.
DIST_ROWS = 1024


@dataclass(frozen=True)
class Box:
    """An off-map box or holding area, with the hexes/boxes it links to."""

    name: str
    kind: str = "box"
    links: tuple[str, ...] = ()
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SeaArea:
    """A named sea area (ETO naval movement) or ocean zone."""

    name: str
    gridded: bool = False
    attrs: dict[str, Any] = field(default_factory=dict)


class HexMap(StaticCache):
    """A loaded map: a :class:`HexGrid` plus per-hex and per-hexside data.

    :meth:`cached` holds data that depends on the map alone (distance fields, city lists, sea
    edges), shared by every game and state on it; a value may be a dict used as a bounded memo
    of a pure function of the map and an explicit content key (e.g. the bytes of a mask).
    Data that needs the scenario or the rule tables goes to :meth:`Game.cached
    <workbench.engine.game.Game.cached>`."""

    def __init__(
        self,
        name: str,
        grid: HexGrid,
        hexes: pl.DataFrame,
        sides: pl.DataFrame | None = None,
        places: pl.DataFrame | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.grid = grid
        self.meta = dict(meta or {})
        if hexes.height != grid.size:
            raise ValueError(f"map {name}: {hexes.height} hex rows for a {grid.size}-hex grid")
        # Rows are kept in dense-index order so row i is hex i.
        order = np.array([grid.parse(h) for h in hexes["id"].to_list()])
        self.hexes = hexes[np.argsort(order)] if np.any(order != np.arange(grid.size)) else hexes
        self.sides = sides if sides is not None else pl.DataFrame(
            {"hex": [], "dir": [], "feature": []},
            schema={"hex": pl.String, "dir": pl.Int64, "feature": pl.String},
        )
        self.places = places if places is not None else pl.DataFrame(
            {"name": [], "hex": [], "kind": []},
            schema={"name": pl.String, "hex": pl.String, "kind": pl.String},
        )
        self.side_features: list[str] = list(
            self.meta.get("side_features") or sorted(set(self.sides["feature"].to_list()))
        )
        self.boxes = {b["name"]: _box(b) for b in self.meta.get("boxes", [])}
        self.sea_areas = {s["name"]: _sea(s) for s in self.meta.get("sea_areas", [])}
        self._cache: dict[Any, Any] = {}  # StaticCache.cached: data of the map alone

    # -- construction ----------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> HexMap:
        """Load a built map folder."""
        path = Path(path)
        meta = json.loads((path / "meta.json").read_text())
        g = meta["grid"]
        grid = HexGrid(g["cols"], g["rows"], g.get("col0", 1), g.get("row0", 1))
        sides = pl.read_parquet(path / "sides.parquet") if (path / "sides.parquet").exists() else None
        places = pl.read_parquet(path / "places.parquet") if (path / "places.parquet").exists() else None
        return cls(meta.get("name", path.name), grid, pl.read_parquet(path / "hexes.parquet"),
                   sides, places, meta)

    def save(self, path: str | Path) -> None:
        """Write the map folder (used by the map builder and test fixtures)."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        meta = {**self.meta, "name": self.name, "side_features": self.side_features,
                "grid": {"cols": self.grid.cols, "rows": self.grid.rows,
                         "col0": self.grid.col0, "row0": self.grid.row0}}
        self.hexes.write_parquet(path / "hexes.parquet", statistics=False)
        self.sides.write_parquet(path / "sides.parquet", statistics=False)
        self.places.write_parquet(path / "places.parquet", statistics=False)
        (path / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")

    # -- labels and places -------------------------------------------------------
    @property
    def size(self) -> int:
        return self.grid.size

    def index(self, label: str) -> int:
        """Dense index of a hex label; ``KeyError`` with a plain message if unknown."""
        try:
            return self._index_of[label]
        except (KeyError, TypeError):
            return self.grid.parse(label)  # raises the plain-words KeyError

    @cached_property
    def _index_of(self) -> dict[str, int]:
        return {h: i for i, h in enumerate(self.hexes["id"].to_list())}

    def label(self, idx: int) -> str:
        return self._labels_list[idx]

    @cached_property
    def labels_list(self) -> list[str]:
        """Labels as a plain Python list (fast indexing in hot loops)."""
        return self._labels_list

    @cached_property
    def _labels_list(self) -> list[str]:
        return self.hexes["id"].to_list()

    @cached_property
    def labels(self) -> np.ndarray:
        return self.hexes["id"].to_numpy()

    @cached_property
    def labels_set(self) -> frozenset[str]:
        return frozenset(self.labels.tolist())

    def has_hex(self, label: str) -> bool:
        if isinstance(label, str) and label in self._index_of:  # the common case, without parsing
            return True
        try:
            self.grid.parse(label)
        except KeyError:
            return False
        return True

    @cached_property
    def _place_hex(self) -> dict[str, str]:
        out = {_fold(n): h for n, h in zip(self.places["name"], self.places["hex"], strict=True)}
        for name, hexes in self.meta.get("areas", {}).items():
            out.setdefault(_fold(name), hexes[0])
        return out

    def hex_of(self, place: str) -> str:
        """Label of the hex of a named place or area (case- and accent-insensitive:
        "San José" finds "San Jose").  An area (e.g. the Panama Canal) gives its first hex."""
        try:
            return self._place_hex[_fold(place)]
        except KeyError:
            raise KeyError(f"no place called {place!r} on map {self.name}") from None

    def area(self, name: str) -> list[str]:
        """All hexes of a named area (``meta["areas"]``), or the one hex of a place."""
        for key, hexes in self.meta.get("areas", {}).items():
            if _fold(key) == _fold(name):
                return list(hexes)
        return [self.hex_of(name)]

    def distance(self, a: str | int, b: str | int) -> int:
        """Hex distance between two hexes given by label, place name or index."""
        return int(self.grid.distance(self._idx(a), self._idx(b)))

    def dist_from(self, h: str | int) -> np.ndarray:
        """Hex distance from one hex (label, place or index) to every hex, as an array."""
        return self._dist_row(self._idx(h)).astype(np.int64)

    def dist_to_set(self, hexes: Any) -> np.ndarray:
        """Distance from every hex to the nearest of ``hexes`` (indices); ``10**6`` where the
        set is empty."""
        out = np.full(self.size, 10**6, dtype=np.int64)
        for i in hexes:
            np.minimum(out, self._dist_row(int(i)), out=out)
        return out

    def _dist_row(self, i: int) -> np.ndarray:
        """``int32[N]`` distances from hex ``i``, kept for the :data:`DIST_ROWS` hexes asked last
        (the bots ask the same goals and fronts hundreds of times a game); read-only, shared."""
        rows = self.cached("dist_rows", dict)
        row = rows.get(i)
        if row is None:
            q, r = self._qr
            row = hexgrid.distance(q[i], r[i], q, r).astype(np.int32)
            row.flags.writeable = False
            if len(rows) >= DIST_ROWS:
                del rows[next(iter(rows))]  # the oldest first
            rows[i] = row
        return row

    @cached_property
    def _qr(self) -> tuple[np.ndarray, np.ndarray]:
        """Axial coordinates of every hex as int64 (for the distance fields above)."""
        return np.asarray(self.grid.q, dtype=np.int64), np.asarray(self.grid.r, dtype=np.int64)

    def _idx(self, h: str | int) -> int:
        if isinstance(h, str):
            return self.index(h) if h.isdigit() else self.index(self.hex_of(h))
        return int(h)

    # -- per-hex arrays ---------------------------------------------------------
    def column(self, name: str) -> np.ndarray:
        """A per-hex attribute as a numpy array in dense-index order."""
        return self.hexes[name].to_numpy()

    def flag(self, name: str) -> np.ndarray:
        """A boolean per-hex attribute (``coastal``, ``capital``, ...); all False if the map lacks it.

        Rules code asks this inside per-unit loops, so the polars query runs once per
        flag (in the map cache); callers get a copy they may modify."""
        return self.cached(("flag", name), lambda: self._flag(name)).copy()

    def _flag(self, name: str) -> np.ndarray:
        if name not in self.hexes.columns:
            return np.zeros(self.size, dtype=bool)
        col = self.hexes[name]
        if col.dtype == pl.Boolean:
            return col.fill_null(False).to_numpy()
        return col.is_not_null().to_numpy() & (col.cast(pl.String) != "").fill_null(False).to_numpy()

    @cached_property
    def terrain_names(self) -> list[str]:
        return sorted(set(self.hexes["terrain"].to_list()))

    @cached_property
    def terrain(self) -> np.ndarray:
        """``int16[N]`` terrain codes indexing :attr:`terrain_names`."""
        lookup = {t: i for i, t in enumerate(self.terrain_names)}
        return np.array([lookup[t] for t in self.hexes["terrain"].to_list()], dtype=np.int16)

    def terrain_mask(self, *names: str) -> np.ndarray:
        codes = [i for i, t in enumerate(self.terrain_names) if t in names]
        return np.isin(self.terrain, codes)

    @cached_property
    def is_water(self) -> np.ndarray:
        return self.terrain_mask(*WATER_TERRAINS)

    @property
    def neighbors(self) -> np.ndarray:
        return self.grid.neighbors

    # -- hexsides -------------------------------------------------------------------
    @cached_property
    def side_flags(self) -> np.ndarray:
        """``uint32[N, 6]`` bitmask of hexside features, symmetric across each side."""
        flags = np.zeros((self.size, 6), dtype=np.uint32)
        if self.sides.height == 0:
            return flags
        bit = {f: np.uint32(1 << i) for i, f in enumerate(self.side_features)}
        idx = np.array([self.grid.parse(h) for h in self.sides["hex"].to_list()], dtype=np.int64)
        d = self.sides["dir"].to_numpy().astype(np.int64)
        b = np.array([bit[f] for f in self.sides["feature"].to_list()], dtype=np.uint32)
        np.bitwise_or.at(flags, (idx, d), b)
        nb = self.neighbors[idx, d]
        ok = nb >= 0
        np.bitwise_or.at(flags, (nb[ok], (d[ok] + 3) % 6), b[ok])
        return flags

    def side_mask(self, feature: str) -> np.ndarray:
        """``bool[N, 6]``: which hexsides carry ``feature``."""
        if feature not in self.side_features:
            return np.zeros((self.size, 6), dtype=bool)
        return (self.side_flags & np.uint32(1 << self.side_features.index(feature))) != 0

    def side_has(self, a: str | int, b: str | int, feature: str) -> bool:
        """Whether the hexside between adjacent hexes ``a`` and ``b`` carries ``feature``."""
        ia, ib = self._idx(a), self._idx(b)
        dirs = np.nonzero(self.neighbors[ia] == ib)[0]
        if dirs.size == 0:
            raise ValueError(f"{self.label(ia)} and {self.label(ib)} are not adjacent")
        return bool(self.side_mask(feature)[ia, dirs[0]])

    def __repr__(self) -> str:
        return f"HexMap({self.name!r}, {self.grid.cols}x{self.grid.rows} = {self.size} hexes)"


def _fold(name: str) -> str:
    """Case- and accent-insensitive key for place names."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


def _box(d: dict[str, Any]) -> Box:
    return Box(d["name"], d.get("kind", "box"), tuple(d.get("links", ())),
               {k: v for k, v in d.items() if k not in ("name", "kind", "links")})


def _sea(d: dict[str, Any]) -> SeaArea:
    return SeaArea(d["name"], bool(d.get("gridded", False)),
                   {k: v for k, v in d.items() if k not in ("name", "gridded")})


_CACHE: dict[str, HexMap] = {}


def load_map(name: str) -> HexMap:
    """Load a committed map by name (``"europe"``, ``"north-america"``) or folder path.

    Maps are immutable once loaded, so they are cached per process.
    """
    if name in _CACHE:
        return _CACHE[name]
    path = Path(name)
    if not (path / "meta.json").exists():
        path = MAPS_DIR / name
    if not (path / "meta.json").exists():
        known = sorted(p.name for p in MAPS_DIR.iterdir() if (p / "meta.json").exists()) \
            if MAPS_DIR.exists() else []
        raise KeyError(f"no map called {name!r}; known maps: {', '.join(known) or 'none'}")
    _CACHE[name] = HexMap.load(path)
    return _CACHE[name]
