"""The HexMap model on the test map: frames, lookups, hexside flags, errors."""

from __future__ import annotations

import time

import pytest

from workbench.map import HexMap, load_map


def test_hexes_frame_has_documented_columns(testland):
    assert {"id", "q", "r", "terrain", "country"} <= set(testland.hexes.columns)
    assert testland.hexes.height == 120
    assert testland.hexes["id"][0] == "0101"


def test_hex_of_and_distance(testland):
    assert testland.hex_of("westport") == "0305"
    assert testland.distance("0305", "1005") == 7
    assert testland.distance("Westport", "Eastburg") == 7
    with pytest.raises(KeyError, match="no place called 'Atlantis'"):
        testland.hex_of("Atlantis")


def test_river_flags_are_symmetric(testland):
    assert testland.side_has("0604", "0704", "river")
    assert testland.side_has("0704", "0604", "river")
    assert not testland.side_has("0504", "0604", "river")


def test_water_mask(testland):
    assert testland.is_water[testland.index("0105")]
    assert testland.is_water[testland.index("0705")]  # the lake
    assert not testland.is_water[testland.index("0305")]


def test_boxes_loaded(testland):
    assert testland.boxes["Reserve"].links == ("0305",)


def test_load_round_trip_is_fast(testland_dir):
    t = time.perf_counter()
    hm = HexMap.load(testland_dir)
    assert time.perf_counter() - t < 1.0
    assert hm.hexes.equals(load_map(testland_dir).hexes)


def test_unknown_map_names_known_ones():
    with pytest.raises(KeyError, match="no map called 'atlantis'"):
        load_map("atlantis")
