"""Hex grid geometry: axial coordinates, dense indices and classic CCRR labels.

Both games use flat-top hexes laid out in columns, the way printed wargame maps
number them: a hex label is its column then its row, ``CCRR`` (``"3514"`` is
column 35, row 14).  Maps wider or taller than 99 hexes widen the field to three
digits (``CCCRR``); the width is fixed per map so every label of a map has the
same length.

Internally every hex has

* axial coordinates ``(q, r)`` (``q`` = column, ``r`` grows southwards, the same
  convention bokeh's ``hex_tile`` uses), and
* a dense index ``0..N-1`` (column-major over the map's rectangle), which is what
  the numpy arrays of :class:`workbench.map.HexMap` are indexed by.

Odd columns sit half a hex lower than even ones ("odd-q" offset layout).
All functions accept scalars or numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

#: Axial direction vectors, clockwise from north: N, NE, SE, S, SW, NW.
#: Direction ``d`` and ``(d + 3) % 6`` are opposite, so a hexside seen from the
#: other hex is always ``(d + 3) % 6``.
DIRECTIONS = np.array([(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)], dtype=np.int64)
DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")

_SIDE_OFFSET = 1 << 20  # keeps encoded hexside coordinates non-negative


def offset_to_axial(col, row):
    """Odd-q offset (column, row) to axial (q, r)."""
    col = np.asarray(col, dtype=np.int64)
    row = np.asarray(row, dtype=np.int64)
    return col, row - (col - (col & 1)) // 2


def axial_to_offset(q, r):
    """Axial (q, r) to odd-q offset (column, row)."""
    q = np.asarray(q, dtype=np.int64)
    r = np.asarray(r, dtype=np.int64)
    return q, r + (q - (q & 1)) // 2


def distance(q1, r1, q2, r2):
    """Hex distance between axial coordinates (vectorised)."""
    dq = np.asarray(q1, dtype=np.int64) - np.asarray(q2, dtype=np.int64)
    dr = np.asarray(r1, dtype=np.int64) - np.asarray(r2, dtype=np.int64)
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


def neighbor(q, r, d):
    """Axial coordinates of the neighbour in direction ``d`` (0..5)."""
    d = np.asarray(d, dtype=np.int64) % 6
    return np.asarray(q) + DIRECTIONS[d, 0], np.asarray(r) + DIRECTIONS[d, 1]


def direction_between(q1, r1, q2, r2) -> int:
    """Direction index from one hex to an adjacent one; ``ValueError`` if not adjacent."""
    delta = (int(q2) - int(q1), int(r2) - int(r1))
    for d, (dq, dr) in enumerate(DIRECTIONS.tolist()):
        if (dq, dr) == delta:
            return d
    raise ValueError(f"hexes ({q1},{r1}) and ({q2},{r2}) are not adjacent")


def side_id(q, r, d):
    """Canonical id of the hexside of hex ``(q, r)`` in direction ``d``.

    A hexside is owned by the hex that sees it in direction N, NE or SE (0..2);
    the other hex sees it as ``d + 3``.  So both hexes sharing a side get the
    same integer, and the id does not depend on whether either hex is on a map.
    """
    q = np.asarray(q, dtype=np.int64)
    r = np.asarray(r, dtype=np.int64)
    d = np.asarray(d, dtype=np.int64) % 6
    flip = d >= 3
    q = np.where(flip, q + DIRECTIONS[d, 0], q)
    r = np.where(flip, r + DIRECTIONS[d, 1], r)
    d = np.where(flip, d - 3, d)
    return ((q + _SIDE_OFFSET) * (2 * _SIDE_OFFSET) + (r + _SIDE_OFFSET)) * 3 + d


def side_hexes(sid):
    """The two hexes ``((q1, r1), (q2, r2))`` on either side of hexside ``sid``."""
    sid = np.asarray(sid, dtype=np.int64)
    d = sid % 3
    rest = sid // 3
    r = rest % (2 * _SIDE_OFFSET) - _SIDE_OFFSET
    q = rest // (2 * _SIDE_OFFSET) - _SIDE_OFFSET
    q2, r2 = neighbor(q, r, d)
    return (q, r), (q2, r2)


def ring(q: int, r: int, radius: int) -> np.ndarray:
    """Axial coordinates of the hexes exactly ``radius`` away, shape ``(6*radius, 2)``."""
    if radius == 0:
        return np.array([[q, r]], dtype=np.int64)
    out = []
    cq, cr = q + DIRECTIONS[4, 0] * radius, r + DIRECTIONS[4, 1] * radius  # start SW
    for d in range(6):
        for _ in range(radius):
            out.append((cq, cr))
            cq, cr = cq + DIRECTIONS[d, 0], cr + DIRECTIONS[d, 1]
    return np.array(out, dtype=np.int64)


def spiral(q: int, r: int, radius: int) -> np.ndarray:
    """All hexes within ``radius`` (centre first), shape ``(1+3r(r+1), 2)``."""
    return np.concatenate([ring(q, r, k) for k in range(radius + 1)])


def cube_round(x, z):
    """Round fractional axial coordinates (q, r) to the hex that contains them."""
    y = -x - z
    rx, ry, rz = np.round(x), np.round(y), np.round(z)
    dx, dy, dz = np.abs(rx - x), np.abs(ry - y), np.abs(rz - z)
    fix_x = (dx > dy) & (dx > dz)
    fix_z = ~fix_x & (dz >= dy)
    rx = np.where(fix_x, -ry - rz, rx)
    rz = np.where(fix_z, -rx - ry, rz)
    return rx.astype(np.int64), rz.astype(np.int64)


def line(q1: int, r1: int, q2: int, r2: int) -> np.ndarray:
    """Hexes on the straight line between two hexes, both ends included.

    The usual cube-lerp with a tiny nudge so lines along hexsides break ties
    the same way every time (deterministic, as a rules engine must be).
    """
    n = int(distance(q1, r1, q2, r2))
    if n == 0:
        return np.array([[q1, r1]], dtype=np.int64)
    t = np.linspace(0.0, 1.0, n + 1)
    x = q1 + 1e-6 + (q2 - q1) * t
    z = r1 + 2e-6 + (r2 - r1) * t
    rq, rr = cube_round(x, z)
    return np.stack([rq, rr], axis=1)


@dataclass(frozen=True)
class HexGrid:
    """A rectangular block of ``cols`` × ``rows`` flat-top hexes.

    ``col0``/``row0`` are the printed number of the first column/row (1 on a
    classic map).  Dense index ``i = col * rows + row`` (zero-based).
    """

    cols: int
    rows: int
    col0: int = 1
    row0: int = 1

    @property
    def size(self) -> int:
        return self.cols * self.rows

    @cached_property
    def label_digits(self) -> tuple[int, int]:
        cd = max(2, len(str(self.col0 + self.cols - 1)))
        rd = max(2, len(str(self.row0 + self.rows - 1)))
        return cd, rd

    # -- index <-> coordinates -------------------------------------------------
    @cached_property
    def q(self) -> np.ndarray:
        return self.axial(np.arange(self.size))[0]

    @cached_property
    def r(self) -> np.ndarray:
        return self.axial(np.arange(self.size))[1]

    def offset(self, idx):
        idx = np.asarray(idx, dtype=np.int64)
        return idx // self.rows, idx % self.rows

    def axial(self, idx):
        col, row = self.offset(idx)
        return offset_to_axial(col, row)

    def index(self, q, r):
        """Dense index of axial coordinates, ``-1`` where off the grid."""
        col, row = axial_to_offset(q, r)
        ok = (col >= 0) & (col < self.cols) & (row >= 0) & (row < self.rows)
        return np.where(ok, col * self.rows + row, -1)

    # -- labels ------------------------------------------------------------------
    def label(self, idx) -> str:
        col, row = self.offset(int(idx))
        cd, rd = self.label_digits
        return f"{int(col) + self.col0:0{cd}d}{int(row) + self.row0:0{rd}d}"

    @cached_property
    def labels(self) -> np.ndarray:
        col, row = self.offset(np.arange(self.size))
        cd, rd = self.label_digits
        cs = np.char.zfill((col + self.col0).astype(str), cd)
        rs = np.char.zfill((row + self.row0).astype(str), rd)
        return np.char.add(cs, rs)

    def parse(self, label: str) -> int:
        """Dense index of a label; ``KeyError`` if malformed or off the grid."""
        cd, rd = self.label_digits
        if not isinstance(label, str) or len(label) != cd + rd or not label.isdigit():
            raise KeyError(f"{label!r} is not a {cd + rd}-digit hex label on this map")
        col = int(label[:cd]) - self.col0
        row = int(label[cd:]) - self.row0
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            raise KeyError(f"hex {label} is off the map")
        return col * self.rows + row

    # -- adjacency -----------------------------------------------------------------
    @cached_property
    def neighbors(self) -> np.ndarray:
        """``[N, 6]`` dense indices of neighbours, ``-1`` where the grid ends."""
        q = self.q[:, None] + DIRECTIONS[None, :, 0]
        r = self.r[:, None] + DIRECTIONS[None, :, 1]
        return self.index(q, r)

    def distance(self, a, b):
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        return distance(self.q[a], self.r[a], self.q[b], self.r[b])

    def side_ids(self) -> np.ndarray:
        """``[N, 6]`` canonical hexside ids of every hex's six sides."""
        d = np.arange(6)[None, :]
        return side_id(self.q[:, None], self.r[:, None], d)
