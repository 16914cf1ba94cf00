"""Kernel-side tests of the workbench's naval map: ships in sea areas drawn under the area's name,
a ship selected by a click and sailed by a click on open sea (ETO-7.0, 7.2)."""

from __future__ import annotations

from eto_kit import new_state, step_to, unit

from workbench.ui import Workbench

HARWICH = "03246"


def _wb(tmp_path):  # noqa: ANN001, ANN202
    s = new_state(tmp_path, [unit("UK-DD1", "UK", "dd", HARWICH, props={"in_port": True}),
                             unit("UK-CL", "UK", "cl", "English Channel"),
                             unit("GE-inf", "GE", "infantry", "04542")], west=True, options={"naval": True})
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    return Workbench(s)


def test_ships_in_a_sea_area_are_drawn_under_its_name(tmp_path):
    wb = _wb(tmp_path)
    x, y = wb.map.xy("English Channel")
    k = wb.map.sea_anchor["English Channel"]
    assert (x, y) == (float(wb.map.hx[k]), float(wb.map.hy[k]) - 1.0)
    drawn = wb.map.unit_source.data
    assert any("UK-CL" in str(v) for col in drawn.values() for v in col)


def test_click_a_ship_then_open_sea_sails_it_into_that_area(tmp_path):
    """A tap on any all-sea hex of the North Sea is a tap on the North Sea space: the selected
    destroyer sails there (sail order, 7.0)."""
    wb = _wb(tmp_path)
    wb.click(HARWICH)
    assert wb.orders.selected == "UK-DD1" and "North Sea" in wb.orders.reach
    sea_hex = next(wb.state.map.label(i) for i in range(wb.state.map.size)
                   if wb.map.sea_area_at(wb.state.map.label(i)) == "North Sea" and not wb.state.units_at(wb.state.map.label(i)))
    lit = set(wb.map.overlay_hexes("reach"))
    assert sea_hex in lit
    wb.click(sea_hex)
    assert wb.state.unit("UK-DD1").location == "North Sea"
    assert wb.state.orders[-1]["kind"] == "sail"
