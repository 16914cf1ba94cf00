"""ETO exact hex paths through gridded sea areas (7.2, 7.4): keeping ships out of enemy air range."""

from __future__ import annotations

import pytest
from eto_kit import events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import air_ship_interception as asi

FRANKFURT, EDINBURGH = "04351", "02736"
STEP = "naval-air/sides/first-naval-movement"


def _channel(tmp_path):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [unit("GE-b1", "GE", "bomber", FRANKFURT),
                             unit("UK-CL", "UK", "cl", EDINBURGH, props={"in_port": True})],
                  first="1940-08", last="1940-09", west=True, options={"air": True, "naval": True})
    step_to(s, STEP)
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, STEP)
    assert (s.decision.kind, s.decision.side) == (STEP, "allies")
    return s


def test_eto_7_4_an_exact_path_keeps_the_stack_out_of_enemy_air_range(tmp_path):
    """7.4: in a gridded area ships "may trace an exact hex path to avoid enemy air, still paying
    only the area cost"; 13.1: "It is possible for naval units to be in a sea area but outside the
    range of enemy air units flying over that area."  The CL leaving Edinburgh into the North Sea
    with no path is within reach of the German 6-12 at Frankfurt (the North Sea's nearest hex is 8
    away); keeping to 02836 off Edinburgh (22 hexes from Frankfurt) it is not offered to it."""
    s = _channel(tmp_path / "a")
    s.apply({"kind": "sail", "units": ["UK-CL"], "path": ["North Sea"]})
    assert (s.decision.kind, s.decision.side) == (asi.INTERRUPT, "axis")

    s = _channel(tmp_path / "b")
    s.apply({"kind": "sail", "units": ["UK-CL"], "path": ["North Sea"], "hexes": {"North Sea": ["02836"]}})
    assert s.decision.kind == STEP and s.unit("UK-CL").location == "North Sea"
    assert events(s, "sail")[-1]["data"]["mp"] == 5  # the area's cost, whatever the hexes


def test_eto_7_4_the_traced_path_goes_hex_by_hex_inside_the_area_from_where_the_stack_comes(tmp_path):
    """7.4/13.1: the hexes lie in the area, follow one another, and begin next to the space the
    stack comes from; only gridded areas of the path are traced."""
    s = _channel(tmp_path)
    bad = [({"North Sea": ["03246"]}, "not a hex of North Sea"),
           ({"North Sea": ["02836", "02938"]}, "jumps"),
           ({"North Sea": ["03447"]}, "begin next to"),
           ({"North Atlantic": ["01207"]}, "not on the path")]
    for hexes, why in bad:
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "sail", "units": ["UK-CL"], "path": ["North Sea"], "hexes": hexes})
        assert exc.value.rule == "ETO-7.4" and why in exc.value.why
