"""Projected hex geometry: centres, polygons, corners and hexside segments.

The game kernel only knows axial coordinates (:mod:`workbench.hexgrid`); the map
builder needs the same hexes as shapes in metres so it can overlay real
geography.  Everything here is vectorised over the whole grid (numpy + shapely 2),
so building a 15,000-hex grid takes milliseconds.

Layout (the contract in ``workbench/map.py``): flat-top hexes, odd-q columns,
``x = x0 + 1.5 R col`` and ``y = y0 - sqrt(3) R (row + 0.5 (col & 1))``, so row 0
is the northernmost row and column 0 the westernmost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely

from workbench.hexgrid import HexGrid, cube_round

SQRT3 = math.sqrt(3.0)

#: Corner k of a flat-top hex sits at angle 60*k degrees (0 = east, counter-clockwise).
CORNER_ANGLES = np.deg2rad(np.arange(6) * 60.0)

#: The two corners bounding the hexside in direction d (N, NE, SE, S, SW, NW).
SIDE_CORNERS = np.array([(1, 2), (0, 1), (5, 0), (4, 5), (3, 4), (2, 3)], dtype=np.int64)

#: Compass bearing (degrees, clockwise from north) of each direction, in map space.
DIRECTION_BEARINGS = np.array([0.0, 60.0, 120.0, 180.0, 240.0, 300.0])


@dataclass(frozen=True)
class GeoGrid:
    """A :class:`HexGrid` placed in a projected CRS."""

    cols: int
    rows: int
    circumradius: float  # metres
    x0: float
    y0: float
    crs: str

    @classmethod
    def covering(cls, bbox: tuple[float, float, float, float], flat_to_flat_m: float,
                 crs: str) -> GeoGrid:
        """The smallest grid whose hex centres cover ``bbox`` (xmin, ymin, xmax, ymax).

        The origin is rounded to whole metres so the build is reproducible and
        meta.json stays readable.
        """
        xmin, ymin, xmax, ymax = bbox
        r = flat_to_flat_m / SQRT3
        cols = int(math.ceil((xmax - xmin) / (1.5 * r))) + 1
        rows = int(math.ceil((ymax - ymin) / (SQRT3 * r))) + 1
        return cls(cols, rows, r, float(round(xmin)), float(round(ymax)), crs)

    # -- basic arrays ---------------------------------------------------------------
    @cached_property
    def hexgrid(self) -> HexGrid:
        return HexGrid(self.cols, self.rows)

    @property
    def size(self) -> int:
        return self.cols * self.rows

    @property
    def flat_to_flat(self) -> float:
        return SQRT3 * self.circumradius

    @cached_property
    def col(self) -> np.ndarray:
        return np.arange(self.size) // self.rows

    @cached_property
    def row(self) -> np.ndarray:
        return np.arange(self.size) % self.rows

    @cached_property
    def x(self) -> np.ndarray:
        return self.x0 + 1.5 * self.circumradius * self.col

    @cached_property
    def y(self) -> np.ndarray:
        return self.y0 - SQRT3 * self.circumradius * (self.row + 0.5 * (self.col & 1))

    @cached_property
    def corners(self) -> np.ndarray:
        """``[N, 6, 2]`` corner coordinates."""
        cx = self.x[:, None] + self.circumradius * np.cos(CORNER_ANGLES)[None, :]
        cy = self.y[:, None] + self.circumradius * np.sin(CORNER_ANGLES)[None, :]
        return np.stack([cx, cy], axis=-1)

    @cached_property
    def polygons(self) -> np.ndarray:
        ring = np.concatenate([self.corners, self.corners[:, :1]], axis=1)
        return shapely.polygons(ring)

    @cached_property
    def points(self) -> np.ndarray:
        return shapely.points(self.x, self.y)

    @property
    def hex_area(self) -> float:
        return 1.5 * SQRT3 * self.circumradius ** 2

    # -- locating points --------------------------------------------------------------
    def locate(self, px, py) -> np.ndarray:
        """Dense index of the hex containing each point (``-1`` off the grid).

        Exact for flat-top hexes: convert to fractional axial coordinates and
        cube-round, as a hex grid's point-in-hex test.
        """
        px = (np.asarray(px, dtype=float) - self.x0) / self.circumradius
        py = (self.y0 - np.asarray(py, dtype=float)) / self.circumradius
        q = px * 2.0 / 3.0
        r = py / SQRT3 - px / 3.0
        return self.hexgrid.index(*cube_round(q, r))

    # -- corners and hexsides as a graph -------------------------------------------------
    @cached_property
    def _vertex_table(self) -> tuple[np.ndarray, np.ndarray]:
        """Unique corner coordinates and, per hex, the ids of its six corners."""
        key = np.round(self.corners.reshape(-1, 2)).astype(np.int64)
        uniq, inverse = np.unique(key, axis=0, return_inverse=True)
        return uniq.astype(float), inverse.reshape(self.size, 6)

    @property
    def vertices(self) -> np.ndarray:
        """``[V, 2]`` unique corner coordinates (metres, rounded)."""
        return self._vertex_table[0]

    @property
    def hex_corner_ids(self) -> np.ndarray:
        return self._vertex_table[1]

    @cached_property
    def sides(self) -> dict[str, np.ndarray]:
        """Every interior hexside once: owner hex, direction (0..2), neighbour, corners.

        The owner is the hex that sees the side as N, NE or SE, the same
        canonical choice as :func:`workbench.hexgrid.side_id`.
        """
        nb = self.hexgrid.neighbors[:, :3]
        own, d = np.nonzero(nb >= 0)
        cid = self.hex_corner_ids
        va = cid[own, SIDE_CORNERS[d, 0]]
        vb = cid[own, SIDE_CORNERS[d, 1]]
        return {"hex": own, "dir": d, "nb": nb[own, d], "va": va, "vb": vb}

    @cached_property
    def side_lookup(self) -> dict[tuple[int, int], int]:
        """Side index by its (sorted) corner-id pair."""
        s = self.sides
        a = np.minimum(s["va"], s["vb"])
        b = np.maximum(s["va"], s["vb"])
        return {(int(i), int(j)): k for k, (i, j) in enumerate(zip(a, b, strict=True))}

    @cached_property
    def side_segments(self) -> np.ndarray:
        s = self.sides
        v = self.vertices
        return shapely.linestrings(np.stack([v[s["va"]], v[s["vb"]]], axis=1))

    @cached_property
    def _side_by_hex_dir(self) -> dict[tuple[int, int], int]:
        return {(int(h), int(d)): k for k, (h, d) in
                enumerate(zip(self.sides["hex"], self.sides["dir"], strict=True))}

    def side_index(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Side index between adjacent hexes ``a`` and ``b`` (vectorised)."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        nbs = self.hexgrid.neighbors
        out = np.full(a.shape, -1, dtype=np.int64)
        table = self._side_by_hex_dir
        for k, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
            dirs = np.nonzero(nbs[i] == j)[0]
            if dirs.size == 0:
                continue
            d = int(dirs[0])
            out[k] = table[(i, d)] if d < 3 else table[(j, d - 3)]
        return out
