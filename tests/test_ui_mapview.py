"""The bokeh map view: built once, counters patched on refresh, exported standalone."""

from __future__ import annotations

from workbench.ui.mapview import MapView, export_html


def test_map_view_tiles_and_counters(toy_state):
    view = MapView(toy_state)
    assert len(view.hex_source.data["q"]) == toy_state.map.size
    data = view.unit_source.data
    assert data["hex"] == ["0305", "0503", "0504", "0804", "1005"]
    assert data["label"][2] == "2"  # two infantry stacked at 0504
    assert "GE-inf-1, GE-inf-2" in data["stack"][2]


def test_refresh_patches_the_same_figure(toy_state):
    view = MapView(toy_state)
    fig, source = view.fig, view.unit_source
    toy_state.apply({"kind": "move", "unit": "GE-pz", "path": ["0603"]})
    view.refresh()
    assert view.fig is fig and view.unit_source is source
    assert "0603" in source.data["hex"] and "0503" not in source.data["hex"]


def test_export_html_is_standalone(toy_state, tmp_path):
    page = export_html(MapView(toy_state), tmp_path / "map.html")
    html = page.read_text()
    assert "cdn.bokeh.org" not in html and "Bokeh" in html
    assert len(html) > 500_000  # BokehJS is inlined, so it opens offline
