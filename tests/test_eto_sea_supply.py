"""ETO sea supply (32.4, 32.5, 10.5): supply markers made in a port with a land line, carried one
per STP, landed in a port without one, up to its capacity."""

from __future__ import annotations

import pytest
from eto_kit import new_state, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import sea_supply, supply

SOUTHAMPTON, DOVER = "02748", "03148"


def _state(tmp_path, *units):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    return new_state(tmp_path, [unit("UK-stp", "UK", "stp", SOUTHAMPTON, props={"points": 4, "in_port": True}),
                                unit("UK-inf", "UK", "infantry", "Malta"), *units],
                     west=True, options={"naval": True})


def test_eto_32_4_port_capacities(tmp_path):
    """32.4: a minor port holds 1 supply marker, a major port 3 (a city resource major port 4)."""
    s = _state(tmp_path)
    assert sea_supply.port_capacity(s, DOVER) == 1
    assert sea_supply.port_capacity(s, SOUTHAMPTON) == 3
    malta = s.map.hex_of("Malta")
    assert sea_supply.port_capacity(s, malta) == 3


def test_eto_32_5_load_in_a_port_with_a_land_line_one_stp_each(tmp_path):
    """32.5: markers embark in a port with a land supply line (Southampton, to London); one STP
    carries one marker: the 4-STP marker loads 4, not 5; Malta (no land line) loads none."""
    s = _state(tmp_path, unit("UK-stpm", "UK", "stp", "Malta", props={"points": 2, "in_port": True}))
    stp = s.units_by_id["UK-stp"]
    assert sea_supply.load_why_not(s, "allies", [stp], 4) is None
    r = sea_supply.load_why_not(s, "allies", [stp], 5)
    assert r and r.rule == "ETO-10.2"
    r = sea_supply.load_why_not(s, "allies", [s.units_by_id["UK-stpm"]], 1)
    assert r and "no land supply line" in r.why


def test_eto_32_4_markers_land_only_where_no_land_line_up_to_capacity(tmp_path):
    """32.4/10.5: in Step 5 the markers land in a friendly port without a land supply line, up to
    its capacity (Malta: 3 of the 4 aboard; one stays aboard); the cut-off garrison is then
    supplied by them (32.4: four units a marker)."""
    s = _state(tmp_path)
    stp = s.units_by_id["UK-stp"]
    sea_supply.LoadSupplyOrder().execute(s, {"kind": "load_supply", "carriers": ["UK-stp"], "markers": 4})
    sea_supply.debark_supply(s)   # still at Southampton: a land line, nothing lands
    assert sea_supply.aboard(stp) == 4
    malta = s.map.hex_of("Malta")
    stp.location = malta
    sea_supply.debark_supply(s)
    assert sea_supply.markers_at(s, malta) == 3 and sea_supply.aboard(stp) == 1
    inf = s.units_by_id["UK-inf"]
    assert supply.traces(s, inf)


def test_eto_32_5_a_marker_is_converted_at_a_port_linked_by_land_and_used_up(tmp_path):
    """32.5: "A supply marker can be used to create another supply marker, but doing so consumes
    the first marker" when a land supply line joins the two ports: a marker in Dover becomes one
    aboard the STP in Southampton (both English ports, linked by land); one in Malta cannot."""
    s = _state(tmp_path)
    malta = s.map.hex_of("Malta")
    s.markers["supply_markers"] = {DOVER: {"side": "allies", "nation": "UK", "markers": 1},
                                   malta: {"side": "allies", "nation": "UK", "markers": 2}}
    stp = s.units_by_id["UK-stp"]
    assert sea_supply.linked(s, "allies", DOVER, SOUTHAMPTON) and not sea_supply.linked(s, "allies", malta, SOUTHAMPTON)
    assert sea_supply.load_why_not(s, "allies", [stp], 1, DOVER) is None
    r = sea_supply.load_why_not(s, "allies", [stp], 1, malta)
    assert r and r.rule == "ETO-32.5" and "no land supply line joins" in r.why
    r = sea_supply.load_why_not(s, "allies", [stp], 2, DOVER)
    assert r and "no 2 supply marker" in r.why
    s.markers["supply_markers"][SOUTHAMPTON] = {"side": "allies", "nation": "UK", "markers": 1}
    r = sea_supply.load_why_not(s, "allies", [stp], 1, SOUTHAMPTON)
    assert r and "another port" in r.why  # "converted to a marker in Marseilles": another port
    sea_supply.LoadSupplyOrder().execute(s, {"kind": "load_supply", "carriers": ["UK-stp"], "markers": 1,
                                             "from": DOVER})
    assert sea_supply.aboard(stp) == 1 and sea_supply.markers_at(s, DOVER) == 0  # the first marker is consumed


def test_eto_32_5_air_supply_markers_are_never_converted(tmp_path):
    s = _state(tmp_path)
    s.markers["supply_markers"] = {DOVER: {"side": "allies", "nation": "UK", "markers": 1, "air": 1}}
    r = sea_supply.load_why_not(s, "allies", [s.units_by_id["UK-stp"]], 1, DOVER)
    assert r and "air supply markers can never be converted" in r.why


def test_eto_32_5_a_ship_with_a_marker_cannot_enter_a_port_full_of_markers(tmp_path):
    """32.5: Dover (a minor port) holds 1 marker; with one landed there, the STP carrying a marker
    may not enter it (the same voyage without a marker may)."""
    from eto_kit import step_to

    from workbench.engine.errors import IllegalOrder

    s = _state(tmp_path)
    step_to(s, "naval-air/sides/first-naval-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
        step_to(s, "naval-air/sides/first-naval-movement")
    s.markers["supply_markers"] = {DOVER: {"side": "allies", "nation": "UK", "markers": 1}}
    voyage = {"kind": "sail", "units": ["UK-stp"], "path": ["02848", "02948", "03048", DOVER], "port": True}
    assert voyage in s.legal_orders_of("sail")
    s.units_by_id["UK-stp"].props["supply_aboard"] = 1
    with pytest.raises(IllegalOrder) as exc:
        s.apply(voyage)
    assert exc.value.rule == "ETO-32.5" and "cannot enter" in exc.value.why


def test_eto_7_8_canada_box_generates_uk_supply_markers_iraq_none(tmp_path):
    """7.8: the Canada, Capetown and India boxes "can generate UK supply markers" (32.2: they are
    UK supply sources, no land line needed): a 2-STP marker there loads 2 UK markers (not 3);
    a French STP loads none there; the Iraq box "cannot generate supply markers"."""
    s = _state(tmp_path, unit("UK-stpc", "UK", "stp", "Canada box", props={"points": 2, "in_port": True}),
               unit("FR-stpc", "FR", "stp", "Capetown box", props={"points": 2, "in_port": True}),
               unit("UK-stpi", "UK", "stp", "Iraq transit box", props={"points": 2, "in_port": True}))
    u = s.units_by_id
    assert sea_supply.load_why_not(s, "allies", [u["UK-stpc"]], 2) is None
    assert sea_supply.load_why_not(s, "allies", [u["UK-stpc"]], 3).rule == "ETO-10.2"
    assert "for UK only" in sea_supply.load_why_not(s, "allies", [u["FR-stpc"]], 1).why
    why = sea_supply.load_why_not(s, "allies", [u["UK-stpi"]], 1)
    assert why.rule == "ETO-7.8" and "cannot generate supply markers" in why.why
    sea_supply.LoadSupplyOrder().execute(s, {"kind": "load_supply", "carriers": ["UK-stpc"], "markers": 2})
    assert sea_supply.aboard(u["UK-stpc"]) == 2


def test_eto_32_4_a_player_removes_his_own_unwanted_markers(tmp_path):
    """32.4: "A player can remove his own, unwanted supply markers from the map at any time" -- in the
    Movement phase the Germans lift theirs at 08640; they cannot touch the Soviets'."""
    from eto_kit import step_to

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")])
    s.markers["supply_markers"] = {"08640": {"side": "axis", "nation": "GE", "markers": 2},
                                   "08842": {"side": "allies", "nation": "SU", "markers": 1}}
    step_to(s, "movement/move")
    assert s.decision.side == "axis"
    assert {"kind": "remove_supply_markers", "hex": "08640"} in s.legal_orders()
    with pytest.raises(IllegalOrder, match="ETO-32.4"):
        s.apply({"kind": "remove_supply_markers", "hex": "08842"})
    s.apply({"kind": "remove_supply_markers", "hex": "08640"})
    assert "08640" not in s.markers["supply_markers"] and "08842" in s.markers["supply_markers"]


def test_eto_46_2_a_german_unit_counts_double_on_a_marker_italian_stps_brought(tmp_path):
    """46.2 (optional): "A German unit supplied from a marker carried by Italian STPs counts as 2 units
    of marker capacity" -- two markers at 08640, one brought by Italian STPs: 4 German units on the
    other, 2 on it; a seventh is left out.  Without the rule all seven are supplied."""
    germans = [unit(f"GE-{k}", "GE", "infantry", "08640" if k < 4 else "08641") for k in range(7)]
    marks = {"08640": {"side": "axis", "nation": "GE", "markers": 2, "italian": 1}}
    s = new_state(tmp_path, germans, options={"optional_rules": ["ETO-46.2"]})
    s.markers["supply_markers"] = {h: dict(m) for h, m in marks.items()}
    got = supply.marker_supply(s, "axis", [s.unit(f"GE-{k}") for k in range(7)])
    assert len(got) == 6
    assert s.markers["supply_markers"]["08640"]["markers"] == 0
    (tmp_path / "off").mkdir()
    s2 = new_state(tmp_path / "off", germans)
    s2.markers["supply_markers"] = {h: dict(m) for h, m in marks.items()}
    assert len(supply.marker_supply(s2, "axis", [s2.unit(f"GE-{k}") for k in range(7)])) == 7
