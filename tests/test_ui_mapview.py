"""The bokeh map view: built once, counters patched on refresh, exported standalone."""

from __future__ import annotations

from workbench.ui.mapview import MapView, export_html
from workbench.ui.symbols import classify


def test_map_view_tiles_and_counters(toy_state):
    view = MapView(toy_state)
    assert len(view.hex_source.data["q"]) == toy_state.map.size
    data = view.unit_source.data
    assert data["hex"] == ["0305", "0503", "0504", "0804", "1005", "Reserve"]  # the box's unit too
    assert data["label"][2] == "2"  # two infantry stacked at 0504
    assert data["count"][2] == 2 and [t for t in data["btext"] if t] == ["2", "2"]
    assert "GE-inf-1" in data["stack"][2] and "GE-inf-2" in data["stack"][2]
    assert data["glyph"][0] == "✈"  # an air unit gets the air glyph
    assert data["lxs"][2][:2] != [data["lxs"][2][0]] * 2 and len(data["lxs"][2]) == 5  # the infantry X


def test_hexsides_places_and_hover(toy_state):
    view = MapView(toy_state)
    river = view.side_renderers["river"].data_source.data
    assert len(river["x0"]) == 2 * toy_state.map.grid.rows - 1 or len(river["x0"]) >= 10
    i = toy_state.map.index("0603")
    assert "river" in view.features[i] and view.hex_source.data["f"][i] > 0
    assert set(view.place_source.data["name"]) == {"Westport", "Eastburg", "Midtown"}
    j = toy_state.map.index("0503")
    assert "Midtown" in view.place_names[view.hex_source.data["p"][j]]
    assert view.terrain_names[view.hex_source.data["t"][toy_state.map.index("0705")]] == "lake"
    assert str(int(view.hex_source.data["lab"][j])).zfill(4) == "0503"


def test_refresh_patches_the_same_figure(toy_state):
    view = MapView(toy_state)
    fig, source = view.fig, view.unit_source
    toy_state.apply({"kind": "move", "unit": "GE-pz", "path": ["0603"]})
    view.refresh()
    assert view.fig is fig and view.unit_source is source
    assert "0603" in source.data["hex"] and "0503" not in source.data["hex"]


def test_symbol_classes():
    assert classify("infantry_division", {"domain": "land"}) == "infantry"
    assert classify("panzergrenadier_division", {"domain": "land"}) == "mechanized"
    assert classify("armor_division", {"domain": "land"}) == "armor"
    assert classify("armored_cavalry_regiment", {"domain": "land"}) == "recon"
    assert classify("airborne_infantry_division", {"domain": "land"}) == "airborne"
    assert classify("standard_fighter", {"domain": "air"}) == "air"
    assert classify("battle_fleet", {"domain": "naval"}) == "naval"
    assert classify("motorized_logistic_corps", {"domain": "land"}) == "logistic"


def test_export_html_is_standalone(toy_state, tmp_path):
    page = export_html(MapView(toy_state), tmp_path / "map.html")
    html = page.read_text()
    assert "cdn.bokeh.org" not in html and "Bokeh" in html
    assert len(html) > 500_000  # BokehJS is inlined, so it opens offline


def test_taps_map_to_hexes(toy_state):
    view = MapView(toy_state)
    hit = []
    view.on_click(hit.append)
    hm = toy_state.map
    labels = hm.labels.tolist()
    assert [view.hex_at(*view.xy(h)) for h in labels] == labels
    x, y = view.xy("0604")
    assert view.hex_at(x + 0.6, y - 0.5) == "0604"  # anywhere inside the hex
    assert view.hex_at(-50.0, 50.0) is None
    from bokeh.events import Tap

    view._tapped(Tap(view.fig, x=x, y=y))
    assert hit == ["0604"]


def test_a_slow_or_quick_second_click_is_still_a_click(toy_state):
    """BokehJS turns a click held (or queued behind a busy page) past 300 ms into a PressUp and a
    click within 300 ms of the last into a DoubleTap; the map takes each as a click."""
    from bokeh.events import DoubleTap, PressUp, Tap

    view = MapView(toy_state)
    hit = []
    view.on_click(hit.append)
    x, y = view.xy("0604")
    for kind in (Tap, PressUp, DoubleTap):
        view.fig._trigger_event(kind(view.fig, x=x, y=y))
    assert hit == ["0604"] * 3


def test_big_live_maps_send_only_the_hexes_around_the_view():
    import workbench as wb
    from workbench.demo import DEFAULT_SCENARIO

    state = wb.load_scenario(DEFAULT_SCENARIO).new_state(0)
    view = MapView(state)
    sent = len(view.hex_source.data["q"])
    assert view.cull and 200 < sent < state.map.size // 4
    xr = view.fig.x_range
    before = set(view.hex_source.data["lab"].tolist())
    shift = 1.5 * (xr.end - xr.start)
    xr.start, xr.end = xr.start - shift, xr.end - shift  # pan west: the next window is sent
    xs = view.hx[[state.map.index(str(int(v)).zfill(6)) for v in view.hex_source.data["lab"]]]
    assert set(view.hex_source.data["lab"].tolist()) != before
    assert xs.min() <= max(xr.start, view.hx.min()) and xs.max() >= xr.end
    still = MapView(state, interactive=False)  # a standalone page gets every hex
    assert len(still.hex_source.data["q"]) == state.map.size


def test_hex_at_maps_a_tap_back_to_its_hex(toy_state):
    """A tap at a hex centre (bokeh flat-top axial, size 1) finds that hex; off the map gives None."""
    import numpy as np
    from bokeh.util.hex import axial_to_cartesian

    view = MapView(toy_state)
    hm = toy_state.map
    i = hm.index("0504")
    x, y = axial_to_cartesian(np.array([hm.grid.q[i]]), np.array([hm.grid.r[i]]), 1, "flattop")
    assert view.hex_at(float(x[0]) + 0.1, float(y[0]) - 0.1) == "0504"
    assert view.hex_at(-50.0, 50.0) is None
    assert view.hex_at(None, None) is None
