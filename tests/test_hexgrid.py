"""Hex grid geometry: property tests (hypothesis) and a few worked examples."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from workbench import hexgrid as hg
from workbench.hexgrid import HexGrid

GRID = HexGrid(130, 95)  # wider than 99 columns: labels widen to CCCRR
SMALL = HexGrid(40, 30)
coords = st.tuples(st.integers(-500, 500), st.integers(-500, 500))
indices = st.integers(0, GRID.size - 1)


@given(indices)
def test_label_round_trip(i):
    assert GRID.parse(GRID.label(i)) == i
    q, r = GRID.axial(i)
    assert GRID.index(q, r) == i


@given(st.integers(0, SMALL.size - 1))
def test_small_map_labels_are_four_digits(i):
    label = SMALL.label(i)
    assert len(label) == 4 and label.isdigit()
    col, row = SMALL.offset(i)
    assert label == f"{col + 1:02d}{row + 1:02d}"


def test_classic_label_examples():
    assert SMALL.label(SMALL.parse("3514")) == "3514"
    assert GRID.label(0) == "00101"
    assert len(GRID.labels[0]) == 5


@given(coords, coords)
def test_distance_symmetric(a, b):
    assert hg.distance(*a, *b) == hg.distance(*b, *a)


@given(coords, coords, coords)
def test_distance_triangle_inequality(a, b, c):
    assert hg.distance(*a, *c) <= hg.distance(*a, *b) + hg.distance(*b, *c)


@given(coords, st.integers(0, 5))
def test_neighbours_are_at_distance_one(a, d):
    b = hg.neighbor(*a, d)
    assert hg.distance(*a, *b) == 1
    assert hg.direction_between(*a, *b) == d


@given(coords, coords)
def test_distance_one_means_neighbour(a, b):
    ring = {tuple(x) for x in hg.ring(*a, 1).tolist()}
    assert (hg.distance(*a, *b) == 1) == (tuple(b) in ring)


@given(coords, st.integers(0, 5))
def test_hexside_id_same_from_both_hexes(a, d):
    b = hg.neighbor(*a, d)
    assert hg.side_id(*a, d) == hg.side_id(*b, (d + 3) % 6)
    (q1, r1), (q2, r2) = hg.side_hexes(hg.side_id(*a, d))
    assert {(int(q1), int(r1)), (int(q2), int(r2))} == {tuple(a), (int(b[0]), int(b[1]))}


def test_six_sides_of_a_hex_are_distinct():
    ids = hg.side_id(0, 0, np.arange(6))
    assert len(set(ids.tolist())) == 6


@given(coords, st.integers(0, 6))
def test_ring_has_6k_hexes_all_at_distance_k(a, k):
    ring = hg.ring(*a, k)
    assert len(ring) == max(1, 6 * k)
    assert len({tuple(x) for x in ring.tolist()}) == len(ring)
    assert np.all(hg.distance(a[0], a[1], ring[:, 0], ring[:, 1]) == k)


@given(coords, coords)
def test_line_is_contiguous_and_shortest(a, b):
    pts = hg.line(*a, *b)
    assert tuple(pts[0]) == tuple(a) and tuple(pts[-1]) == tuple(b)
    assert len(pts) == hg.distance(*a, *b) + 1
    steps = hg.distance(pts[:-1, 0], pts[:-1, 1], pts[1:, 0], pts[1:, 1])
    assert np.all(steps == 1)


def test_neighbors_array_is_symmetric_and_ends_at_edges():
    nb = SMALL.neighbors
    assert nb.shape == (SMALL.size, 6)
    i = np.arange(SMALL.size)
    for d in range(6):
        ok = nb[:, d] >= 0
        assert np.all(nb[nb[ok, d], (d + 3) % 6] == i[ok])
    assert (nb[0] == -1).sum() == 4  # hex 0101, the top-left corner: N, NE, SW, NW are off the map


def test_vectorised_distance_matches_scalar():
    a = np.arange(0, SMALL.size, 7)
    b = a[::-1]
    vec = SMALL.distance(a, b)
    assert all(vec[k] == SMALL.distance(int(a[k]), int(b[k])) for k in range(len(a)))
