"""ETO Middle East land rules on the europe map: the "Middle East" HQ's location restriction (23.5),
the Iraq transit box (24.1) and coastal fort markers entered by land (24.1, 25.1).

The scenario adds the UK to the Allies and makes Egypt, Iraq, Persia, Lebanon-Syria and Cyprus
British-held; the Iraq transit box links to the Iraq map-edge hexes 12675-12680."""

from __future__ import annotations

import pytest
from eto_kit import scenario_text, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto.control import SIDE_CODE, control

BOX = "Iraq transit box"
ALLIED = ("Egypt", "Iraq", "Persia", "Lebanon-Syria", "Cyprus")


def _me_state(tmp_path, units, first="1941-07", last="1941-08"):
    """A state with British units; the Allied-held countries of ``ALLIED``."""
    from workbench.engine import load_scenario

    text = scenario_text(units, first=first, last=last, tracks={"UK.eps": 30})
    text = text.replace('nations = ["SU"]', 'nations = ["SU", "UK"]')
    text = text.replace('"Estonia" = "allies"', '"Estonia" = "allies"\n'
                        + "".join(f'"{c}" = "allies"\n' for c in ALLIED) + '"United Kingdom" = "allies"')
    path = tmp_path / "middle-east.toml"
    path.write_text(text)
    return load_scenario(path).new_state(seed=1)


def _allied_movement(s):
    step_to(s, "movement/move")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    assert (s.decision.kind, s.decision.side) == ("movement/move", "allies")
    return s


def _move(s, uid, path):
    return s.apply({"kind": "move", "unit": uid, "path": path})


# -- 23.5 -----------------------------------------------------------------------------------------
def test_eto_23_5_middle_east_hq_placed_only_from_morocco_to_persia(tmp_path):
    """23.5: the UK "Middle East" HQ is restricted "to the area from French Morocco eastward to ...
    Lebanon-Syria, Iraq, and Persia"; not on islands (Cyprus) nor further north (the USSR)."""
    from workbench.rulesets.eto.hq import PlaceHQOrder

    s = _me_state(tmp_path, [unit("UK-ME", "UK", "hq_me", "Force pool"), unit("GE-a", "GE", "infantry", "08640")])
    me = s.unit("UK-ME")
    assert PlaceHQOrder()._why_not(s, me, "11774") is None  # Baghdad
    assert PlaceHQOrder()._why_not(s, me, "09390") is None  # Cairo
    for outside in ("09477", "08842"):  # Nicosia (an island), a Soviet hex further north
        why = PlaceHQOrder()._why_not(s, me, outside)
        assert why is not None and why.rule == "ETO-23.5", outside


def test_eto_23_5_only_the_middle_east_hq_may_stand_in_the_iraq_transit_box(tmp_path):
    """23.5: "The Middle East HQ may also be located in the Iraq transit box"; the Africa HQs
    share its region but not the box, and an unrestricted HQ may not be there either."""
    from workbench.rulesets.eto.hq import region_why_not
    from workbench.rulesets.eto.movement import box_user_why_not

    s = _me_state(tmp_path, [unit("UK-ME", "UK", "hq_me", "11774"), unit("GE-AK", "GE", "hq_africa", "05288"),
                             unit("SU-HQ", "SU", "hq", "08741")])
    assert region_why_not(s, s.unit("UK-ME"), BOX) is None
    assert box_user_why_not(s, s.unit("UK-ME"), BOX) is None
    for hq in ("GE-AK", "SU-HQ"):
        why = box_user_why_not(s, s.unit(hq), BOX)
        assert why is not None and why.rule == "ETO-23.5", hq


def test_eto_23_5_middle_east_hq_moves_into_and_out_of_the_box_but_not_beyond_its_region(tmp_path):
    """23.5 with 24.1: the Middle East HQ moves from an Iraq map-edge hex into the box and from the
    box back onto an edge hex and on; never out of its region (Saudi Arabia is outside)."""
    s = _me_state(tmp_path, [unit("UK-ME", "UK", "hq_me", "12677"), unit("UK-ME2", "UK", "hq_me", BOX),
                             unit("GE-a", "GE", "infantry", "08640")])
    from workbench.rulesets.eto.movement import MoveOrder

    control(s)[s.map.index("12681")] = SIDE_CODE["allies"]  # Saudi Arabia hex made friendly: still outside
    s.forget()
    _allied_movement(s)
    assert {"kind": "move", "unit": "UK-ME", "path": [BOX]} in MoveOrder().legal(s)
    with pytest.raises(IllegalOrder, match="ETO-23.5"):
        _move(s, "UK-ME2", ["12680", "12681"])
    _move(s, "UK-ME", [BOX])
    assert s.unit("UK-ME").location == BOX
    _move(s, "UK-ME2", ["12676", "12576"])
    assert s.unit("UK-ME2").location == "12576"


def test_eto_24_1_hq_in_the_box_commands_iraq_only_and_box_units_answer_to_iraq_hqs(tmp_path):
    """24.1: "Land units in the box are in range of any HQ also in the box or anywhere in Iraq.
    Likewise, if the Middle East HQ is in the box, it can activate units anywhere in Iraq, but
    not beyond.\""""
    from workbench.rulesets.eto.hq import in_radius

    s = _me_state(tmp_path, [unit("UK-ME", "UK", "hq_me", BOX), unit("UK-ME2", "UK", "hq_me", "11268"),
                             unit("UK-ME3", "UK", "hq_me", "10173")])
    boxed, mosul, aleppo = s.unit("UK-ME"), s.unit("UK-ME2"), s.unit("UK-ME3")
    assert in_radius(s, boxed, "11774")        # Baghdad, far beyond radius 3 of any edge hex
    assert in_radius(s, boxed, "12577")
    assert in_radius(s, boxed, BOX)
    assert not in_radius(s, boxed, "10179")    # Damascus: not Iraq
    assert in_radius(s, mosul, BOX)            # an HQ anywhere in Iraq reaches the box
    assert not in_radius(s, aleppo, BOX)       # an HQ outside Iraq does not
    assert not in_radius(s, mosul, "09390")    # ordinary radius still applies on the map


# -- 24.1 Iraq transit box -----------------------------------------------------------------------
def test_eto_24_1_uk_unit_moves_from_the_box_to_a_friendly_iraq_edge_hex_for_one_mp(tmp_path):
    """24.1: "UK land units in this box can move directly to any friendly map edge hex in Iraq ...
    at a cost of 1 movement point": a 2-MP British infantry unit reaches the edge hex and one hex
    beyond, not two; an Axis-held edge hex is closed."""
    s = _me_state(tmp_path, [unit("UK-a", "UK", "infantry", BOX), unit("UK-b", "UK", "infantry", BOX),
                             unit("UK-c", "UK", "infantry", BOX), unit("GE-a", "GE", "infantry", "08640")])
    control(s)[s.map.index("12680")] = SIDE_CODE["axis"]
    s.forget()
    _allied_movement(s)
    with pytest.raises(IllegalOrder, match="ETO-24.0"):
        _move(s, "UK-a", ["12677", "12577", "12476"])  # 1 + 2 MPs > 2
    with pytest.raises(IllegalOrder, match="ETO-24.1: 12680 is not a friendly"):
        _move(s, "UK-b", ["12680"])
    with pytest.raises(IllegalOrder, match="ETO-24.1: 12674 is not one of"):
        _move(s, "UK-b", ["12674"])  # Persia, next to the edge but not linked to the box
    _move(s, "UK-a", ["12677", "12577"])
    assert s.unit("UK-a").location == "12577"
    _move(s, "UK-b", ["12678"])
    assert s.unit("UK-b").location == "12678"


def test_eto_24_1_only_uk_land_units_use_the_iraq_transit_box(tmp_path):
    """24.1: the box moves "UK land units"; a Soviet unit there (or next to it) may not use it."""
    s = _me_state(tmp_path, [unit("SU-a", "SU", "infantry", BOX), unit("SU-b", "SU", "infantry", "12677"),
                             unit("GE-a", "GE", "infantry", "08640")])
    _allied_movement(s)
    with pytest.raises(IllegalOrder, match="ETO-24.1: only UK land units"):
        _move(s, "SU-a", ["12677"])
    with pytest.raises(IllegalOrder, match="ETO-24.1: only UK land units"):
        _move(s, "SU-b", [BOX])


def test_eto_24_1_uk_unit_enters_the_box_from_an_edge_hex_within_its_allowance(tmp_path):
    """24.1 (ruling, the printed move read both ways): a UK land unit on or reaching a friendly Iraq
    map-edge hex with 1 MP left moves into the box; not from elsewhere, not beyond its allowance,
    and not after entering enemy ZOC on the edge hex (25.2)."""
    s = _me_state(tmp_path, [unit("UK-a", "UK", "infantry", "12577"), unit("UK-b", "UK", "infantry", "12476"),
                             unit("UK-c", "UK", "infantry", "12677"), unit("GE-z", "GE", "infantry", "12579"),
                             unit("GE-a", "GE", "infantry", "08640")])
    _allied_movement(s)
    with pytest.raises(IllegalOrder, match="ETO-24.0"):
        _move(s, "UK-b", ["12577", "12677", BOX])  # 2 hexes + 1 MP for the box > 2
    with pytest.raises(IllegalOrder, match="ETO-24.1: UK-b enters the Iraq transit box only from"):
        _move(s, "UK-b", ["12577", BOX])
    with pytest.raises(IllegalOrder, match="ETO-25.2"):
        _move(s, "UK-c", ["12678", BOX])  # 12678 is in GE-z's ZOC: UK-c stops there
    _move(s, "UK-a", ["12677", BOX])
    assert s.unit("UK-a").location == BOX
    _move(s, "UK-c", [BOX])
    assert s.unit("UK-c").location == BOX


def test_eto_24_1_box_moves_are_listed_as_legal_orders(tmp_path):
    """24.1: the move list offers the box to a UK unit that can reach it, and the edge hexes to a
    unit in the box, so an agent can find these moves."""
    from workbench.rulesets.eto.movement import MoveOrder

    s = _me_state(tmp_path, [unit("UK-a", "UK", "infantry", "12577"), unit("UK-b", "UK", "infantry", BOX),
                             unit("GE-a", "GE", "infantry", "08640")])
    _allied_movement(s)
    legal = MoveOrder().legal(s)
    assert {"kind": "move", "unit": "UK-a", "path": ["12677", BOX]} in legal \
        or any(o["unit"] == "UK-a" and o["path"][-1] == BOX for o in legal)
    outs = {tuple(o["path"]) for o in legal if o["unit"] == "UK-b"}
    assert ("12677",) in outs and ("12675",) in outs
    assert all(p[0] in {"12675", "12676", "12677", "12678", "12679", "12680"} for p in outs)
    assert all(len(p) <= 2 for p in outs)  # 1 MP for the box + 1 hex of a 2-MP unit


# -- 24.1 coastal forts --------------------------------------------------------------------------
def _fort_state(tmp_path, kind="coastal_fort"):
    import eto_kit

    s = eto_kit.new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08641")])
    s.markers.setdefault("forts", {})["08740"] = {"kind": kind, "side": "allies"}
    s.markers["forts"]["08742"] = {"kind": kind, "side": "allies"}
    return s


def test_eto_24_1_coastal_fort_removed_when_an_enemy_land_unit_enters(tmp_path):
    """24.1: "Coastal fort: removed if enemy enters by land"; passing through counts; the marker
    is removed, not destroyed (nothing to repair)."""
    s = _fort_state(tmp_path)
    step_to(s, "movement/move")
    assert s.decision.side == "axis"
    _move(s, "GE-a", ["08740"])
    assert "08740" not in s.markers["forts"]
    assert "08740" not in s.markers.get("destroyed", {})
    _move(s, "GE-b", ["08742", "08642"])  # through the hex and out again
    assert "08742" not in s.markers["forts"]


def test_eto_24_1_coastal_fort_stays_when_its_owner_enters(tmp_path):
    """24.1: only an enemy entering removes the coastal fort; the owner's units leave it in place."""
    s = _fort_state(tmp_path)
    s.markers["forts"]["08741"] = {"kind": "coastal_fort", "side": "axis"}
    step_to(s, "movement/move")
    _move(s, "GE-a", ["08741"])
    assert s.markers["forts"]["08741"]["kind"] == "coastal_fort"


def test_eto_25_1_coastal_fort_neither_blocks_zoc_nor_entry(tmp_path):
    """25.1: ZOC does not extend "into a hex with an enemy fortification marker (coastal forts
    excepted)"; 24.1: an enemy may enter a coastal fort's hex (a fortification marker bars it)."""
    from workbench.rulesets.eto.movement import Walker
    from workbench.rulesets.eto.zoc import zoc

    coastal = _fort_state(tmp_path)
    fortified = _fort_state(tmp_path, kind="fortification")
    i = coastal.map.index("08740")
    assert zoc(coastal, "axis")[i] and not zoc(fortified, "axis")[i]
    assert Walker(coastal, coastal.unit("GE-a"), "movement").why_not([i]) is None
    assert Walker(fortified, fortified.unit("GE-a"), "movement").why_not([i]).rule == "ETO-24.1"


def test_eto_24_1_middle_east_hq_in_the_box_activates_units_in_iraq_and_the_box(tmp_path):
    """24.1: "if the Middle East HQ is in the box, it can activate units anywhere in Iraq, but not
    beyond"; units in the box are activated like units on the map (22.1)."""
    from eto_kit import begin_offensive

    s = _me_state(tmp_path, [unit("UK-ME", "UK", "hq_me", BOX), unit("UK-box", "UK", "infantry", BOX),
                             unit("UK-bag", "UK", "infantry", "11774"), unit("UK-dam", "UK", "infantry", "10179"),
                             unit("GE-a", "GE", "infantry", "08640")])
    s.tracks["UK.offensives"] = 3
    begin_offensive(s, "allies")
    assert {"kind": "activate_hq", "hqs": ["UK-ME"]} in s.legal_orders()
    s.apply({"kind": "activate_hq", "hqs": ["UK-ME"]})
    may = {o["unit"] for o in s.legal_orders() if o["kind"] == "activate" and "unit" in o}
    assert {"UK-box", "UK-bag"} <= may and "UK-dam" not in may
    s.apply({"kind": "activate", "unit": "UK-box"})
    assert s.unit("UK-box").props.get("activated")


def test_eto_24_1_coastal_fort_removed_however_the_enemy_enters(tmp_path):
    """24.1 "enters by land" is any entry: every way a land unit enters hexes (move, advance after
    combat, breakthrough move, retreat) goes through control.pass_through, which removes the
    marker; HQs and generals are not land units that take hexes (24.4) and leave it."""
    from workbench.rulesets.eto.control import pass_through

    s = _fort_state(tmp_path)
    s.units_by_id["GE-H"] = type(s.unit("GE-a"))("GE-H", "axis", "GE", "hq", None, "08640", False, {})
    pass_through(s, s.unit("GE-H"), [s.map.index("08740")])
    assert "08740" in s.markers["forts"]
    pass_through(s, s.unit("GE-a"), [s.map.index("08740")])  # e.g. an advance after combat (27.4)
    assert "08740" not in s.markers["forts"]
    assert [e["rule"] for e in s.log if e["kind"] == "marker_removed"] == ["ETO-24.1"]


def test_eto_23_6_a_boxed_hq_is_measured_from_its_box_links(tmp_path):
    """23.6 ("each HQ within 20 hexes of every other") with the Middle East HQ in the Iraq
    transit box: measured from the box's nearest Iraq edge hex, so listing combined offensives
    works and a far HQ is refused."""
    from eto_kit import begin_offensive

    from workbench.rulesets.eto.command import hq_distance

    s = _me_state(tmp_path, [unit("UK-ME", "UK", "hq_me", BOX), unit("UK-H2", "UK", "hq_me", "11774"),
                             unit("UK-box", "UK", "infantry", BOX), unit("GE-a", "GE", "infantry", "08640")])
    s.tracks["UK.offensives"] = 3
    hm = s.map
    edge = min(hm.distance("11774", h) for h in hm.boxes[BOX].links if hm.has_hex(h))
    assert hq_distance(s, s.unit("UK-ME"), s.unit("UK-H2")) == edge
    begin_offensive(s, "allies")
    combined = [o for o in s.legal_orders() if o["kind"] == "activate_hq" and len(o["hqs"]) == 2]
    assert combined == ([{"kind": "activate_hq", "hqs": ["UK-H2", "UK-ME"]}] if edge <= 20 else [])


def test_eto_22_6_impromptu_offensive_from_the_middle_east_hq_in_the_box(tmp_path):
    """22.6 with 23.5/24.1: with no offensives left but EPs, the Middle East HQ standing in the Iraq
    box may start an impromptu offensive like any HQ on the map."""
    from eto_kit import begin_offensive

    s = _me_state(tmp_path, [unit("UK-ME", "UK", "hq_me", BOX), unit("UK-box", "UK", "infantry", BOX),
                             unit("GE-a", "GE", "infantry", "08640")])
    s.tracks["UK.offensives"] = 0
    begin_offensive(s, "allies")
    assert {"kind": "impromptu", "mode": "hq", "hq": "UK-ME"} in s.legal_orders()


def test_eto_24_1_a_supply_marker_in_the_box_supplies_through_the_iraq_edge(tmp_path):
    """24.1: "The UK player can trace supply to a friendly map edge hex in Iraq if he has a supply
    marker in the box" -- a British unit at Mosul, cut off, is supplied by the box's marker."""
    from workbench.rulesets.eto import supply

    s = _me_state(tmp_path, [unit("UK-a", "UK", "infantry", "11268"), unit("GE-a", "GE", "infantry", "08640")])
    u = s.unit("UK-a")
    assert supply.marker_reach(s, "allies")[s.map.index("11268")] < 0
    s.markers["supply_markers"] = {BOX: {"side": "allies", "nation": "UK", "markers": 1}}
    s.forget()
    assert supply.marker_reach(s, "allies")[s.map.index("12677")] == 0      # an edge hex is a source
    assert supply.marker_reach(s, "allies")[s.map.index("11268")] > 0
    assert supply.marker_supply(s, "allies", [u]) == {"UK-a"}


def test_eto_24_1_an_air_unit_in_the_box_changes_base_to_any_iraq_airbase(tmp_path):
    """24.1: "An air unit in the box can change base to any airbase in Iraq as the first hop of its
    base change" -- to Baghdad, however far, but not beyond Iraq on that hop."""
    from workbench.engine import load_scenario

    text = scenario_text([unit("UK-f", "UK", "fighter", BOX), unit("GE-a", "GE", "infantry", "08640")],
                         first="1941-07", last="1941-08", tracks={"UK.eps": 30}, options={"air": True})
    text = text.replace('nations = ["SU"]', 'nations = ["SU", "UK"]').replace(
        '"Estonia" = "allies"', '"Estonia" = "allies"\n' + "".join(f'"{c}" = "allies"\n' for c in ALLIED))
    path = tmp_path / "me-air.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    step_to(s, "naval-air/sides/air-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    with pytest.raises(IllegalOrder, match="ETO-24.1"):
        s.apply({"kind": "fly", "units": ["UK-f"], "mission": "change_base", "to": s.map.hex_of("Cairo")})
    s.apply({"kind": "fly", "units": ["UK-f"], "mission": "change_base", "to": "11774"})   # Baghdad
    assert s.unit("UK-f").location == "11774"
