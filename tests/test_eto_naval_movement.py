"""ETO naval movement (7.0-7.8, 11.1): spaces and costs, the sail order, escort boxes, ports,
canals, the End phase and its upkeep."""

from __future__ import annotations

import pytest
from eto_kit import new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import (
    naval_movement,
    naval_units,
    naval_upkeep,
    sea_spaces,
    sea_transport,
)
from workbench.rulesets.eto.control import SIDE_CODE, control

SOUTHAMPTON, LE_HAVRE, LONDON, DOVER, HARWICH, LIVERPOOL = "02748", "02951", "02948", "03148", "03246", "02542"
GIBRALTAR, CASABLANCA, KIEL = "01379", "00784", "04641"


def _state(tmp_path, *units, step="naval-air/sides/first-naval-movement", weather=None):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [*units, unit("GE-inf", "GE", "infantry", "04542")], west=True,
                  options={"naval": True, "air": True}, tracks={"GE.eps": 20, "UK.eps": 20})
    if step:
        step_to(s, step)
        if s.decision.side != "allies":
            s.apply({"kind": "end_step"})
            step_to(s, step)
    if weather:
        s.tracks["weather"] = weather   # after the Weather phase's roll
    return s


def _cost(s, side, start, path):  # noqa: ANN001, ANN202
    cost, why = naval_movement.path_cost(s, side, start, path)
    assert why is None, why
    return cost


def test_eto_7_3_7_4_southampton_to_le_havre_is_six_mp(tmp_path):
    """7.4/10.2: "from Southampton to Le Havre across the Channel, the distance is 6 naval movement
    points": the English Channel (5) then the coastal hex of Le Havre (1, 7.3)."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", SOUTHAMPTON), step=None)
    assert _cost(s, "allies", SOUTHAMPTON, ["English Channel", LE_HAVRE]) == 6
    assert _cost(s, "allies", DOVER, ["03147"]) == 1


def test_eto_7_4_printed_area_costs_and_the_one_space_rule(tmp_path):
    """7.4: an area costs its printed MP (North Atlantic 10, South Atlantic "MP 20"); "a unit may
    always move 1 space in the Naval and Air phase": a DD (14) from Casablanca may enter the South
    Atlantic (20), but no further."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", CASABLANCA))
    assert _cost(s, "allies", CASABLANCA, ["South Atlantic"]) == 20
    dd = [s.units_by_id["UK-DD"]]
    assert naval_movement.sail_why_not(s, "allies", dd, ["South Atlantic"], False) is None
    r = naval_movement.sail_why_not(s, "allies", dd, ["South Atlantic", "North Atlantic"], False)
    assert r and r.rule == "ETO-7.4"


def test_eto_7_3_never_across_an_all_land_hexside(tmp_path):
    """7.3: ships "can't cross an all-land hexside even between two coastal hexes"."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", "01208"), step=None)
    assert s.map.distance("01208", "01309") == 1
    _, why = naval_movement.path_cost(s, "allies", "01208", ["01309"])
    assert why and why.rule == "ETO-7.3"


def test_eto_7_8_box_costs_us_box(tmp_path):
    """7.8: the US box is entered from the North Atlantic for 1 MP; leaving to the North Atlantic
    costs 20, to the US coastal box 10."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", SOUTHAMPTON), step=None)
    g = sea_spaces.graph(s)
    assert g.neighbours("North Atlantic")["US box"] == 1
    assert g.neighbours("US box") == {"North Atlantic": 20, "US coastal box": 10}
    assert sea_spaces.step_cost(s, "axis", "North Atlantic", "US box") is None


def test_eto_7_8_kiel_canal_three_mp_only_when_friendly(tmp_path):
    """7.8: the Kiel Canal is 3 MP end to end, passable only if all its land hexes are friendly:
    German ships pass, British ships do not."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", SOUTHAMPTON), step=None)
    assert sea_spaces.step_cost(s, "axis", "04441", "04541") == 3
    _, why = naval_movement.path_cost(s, "allies", "04441", ["04541"])
    assert why and why.rule == "ETO-7.8"


def test_eto_7_8_suez_canal_four_mp(tmp_path):
    """7.8: the Suez Canal, Port Said to the Red Sea, 4 MP, when every hex along it is friendly."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", SOUTHAMPTON), step=None)
    for h in s.ruleset.tables["naval_movement"]["canals"]["suez"]["land"]:
        control(s)[s.map.index(h)] = SIDE_CODE["allies"]
    assert sea_spaces.step_cost(s, "allies", "09486", "Red Sea") == 4
    assert sea_spaces.step_cost(s, "axis", "09486", "Red Sea") is None


def test_eto_7_0_sail_order_moves_the_stack_with_its_cargo(tmp_path):
    """7.0/10.1: a stack sails through its path; units aboard its STPs go with it and count the MP."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", SOUTHAMPTON, props={"in_port": True}),
               unit("UK-stp", "UK", "stp", SOUTHAMPTON, props={"points": 2, "in_port": True}),
               unit("UK-inf", "UK", "infantry", SOUTHAMPTON))
    sea_transport.embark(s, [s.units_by_id["UK-stp"]], [s.units_by_id["UK-inf"]], "transport")
    legal = [o for o in s.legal_orders() if o["kind"] == "sail" and o["path"][-1] == DOVER and o.get("port")
             and o["units"] == ["UK-DD", "UK-stp"]]
    assert legal and legal[0]["path"] == ["02848", LONDON, "03048", DOVER]   # 4 coastal hexes: 4 MP < 6
    s.apply(legal[0])
    inf = s.units_by_id["UK-inf"]
    assert sea_transport.space_of(s, inf) == DOVER and inf.props["sea_mp"] == 4
    assert naval_units.in_port(s.units_by_id["UK-DD"])
    with pytest.raises(IllegalOrder, match="ETO-7.1"):
        s.apply({"kind": "sail", "units": ["UK-DD"], "path": ["03147"]})


def test_eto_7_7_port_capacity_counts_an_stp_stack_as_one(tmp_path):
    """7.7: a minor port holds 10 naval units, an STP stack counting 1: Dover with 9 DDs and two
    STP markers (one unit) has room for no more."""
    ships = [unit(f"UK-DD{i}", "UK", "dd", DOVER, props={"in_port": True}) for i in range(9)]
    stps = [unit(f"UK-stp{i}", "UK", "stp", DOVER, props={"in_port": True, "points": 1}) for i in range(2)]
    s = _state(tmp_path, *ships, *stps, unit("UK-CL", "UK", "cl", "03147"))
    assert naval_units.unit_count(s, naval_units.naval_units(s, "allies", DOVER)) == 10
    r = naval_movement.sail_why_not(s, "allies", [s.units_by_id["UK-CL"]], [DOVER], True)
    assert r and r.rule == "ETO-7.7" and "holds 10" in r.why


def test_eto_7_7_no_entry_into_an_enemy_port_with_a_battleship(tmp_path):
    """7.7: ships may enter enemy ports "without a BB or CA"."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", "English Channel"),
               unit("GE-BB", "GE", "bb", "03248", name="Gneisenau", props={"in_port": True}))
    r = naval_movement.sail_why_not(s, "allies", [s.units_by_id["UK-DD"]], ["03248"], True)
    assert r and "BB or CA" in r.why


def test_eto_7_7_entering_an_enemy_port_with_destroyers_is_a_battle(tmp_path):
    """7.7/8.6: entering a port holding enemy DDs is a battle (automatic interception, no
    withdrawal); the stack enters only if none is left afloat."""
    s = _state(tmp_path, unit("UK-CL", "UK", "cl", "English Channel"),
               unit("GE-DD", "GE", "dd", "03248", props={"in_port": True}))
    from kit import FixedDice

    s.dice = FixedDice(3, 3, 1, 2)   # CL (2) fires first: (3,3) = 8 hits with doubles: sunk
    s.apply({"kind": "sail", "units": ["UK-CL"], "path": ["03248"], "port": True})
    assert s.decision.kind == "naval_intercept"   # 8.6: the DD in port may intercept in its hex ...
    s.apply({"kind": "pass"})                      # ... it declines; the port battle still comes
    assert s.units_by_id["GE-DD"].location == "Force pool" and naval_units.in_port(s.units_by_id["UK-CL"])


def test_eto_7_8_london_needs_harwich_and_dover(tmp_path):
    """7.8: "London: port only if controller also controls Harwich and Dover"."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", "English Channel"))
    dd = [s.units_by_id["UK-DD"]]
    assert naval_movement.sail_why_not(s, "allies", dd, [LONDON], True) is None
    control(s)[s.map.index(DOVER)] = SIDE_CODE["axis"]
    r = naval_movement.sail_why_not(s, "allies", dd, [LONDON], True)
    assert r and "Harwich and Dover" in r.why


def test_eto_7_5_escort_boxes_origin_ports_and_pairs(tmp_path):
    """7.5: Allied DD/DE/CL (carriers with air) move straight from a friendly port into an escort
    box: Liverpool -> North Atlantic yes; Gibraltar (a Mediterranean port) -> North Atlantic no,
    -> South Atlantic yes; a BB never; box to box only on the listed pairs (SA -> Arctic no)."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", LIVERPOOL, props={"in_port": True}),
               unit("UK-DD2", "UK", "dd", GIBRALTAR, props={"in_port": True}),
               unit("UK-BB", "UK", "bb", LIVERPOOL, name="Nelson", props={"in_port": True}),
               unit("UK-DD3", "UK", "dd", "South Atlantic convoy escort box"))
    control(s)[s.map.index(GIBRALTAR)] = SIDE_CODE["allies"]
    u = s.units_by_id
    na, sa, arc = ("North Atlantic convoy escort box", "South Atlantic convoy escort box", "Arctic convoy escort box")
    assert naval_movement.sail_why_not(s, "allies", [u["UK-DD"]], [na], False) is None
    assert "port list" in naval_movement.sail_why_not(s, "allies", [u["UK-DD2"]], [na], False).why
    assert naval_movement.sail_why_not(s, "allies", [u["UK-DD2"]], [sa], False) is None
    assert naval_movement.sail_why_not(s, "allies", [u["UK-BB"]], [na], False).rule == "ETO-7.5"
    assert "cannot move from" in naval_movement.sail_why_not(s, "allies", [u["UK-DD3"]], [arc], False).why
    assert naval_movement.sail_why_not(s, "allies", [u["UK-DD3"]], [na], False) is None
    s.apply({"kind": "sail", "units": ["UK-DD"], "path": [na]})
    assert u["UK-DD"].location == na


def test_eto_11_1_a_submarine_never_stacks_at_sea(tmp_path):
    """11.1: submarines "can't stack with any other friendly naval unit (incl. SS) outside ports"."""
    s = _state(tmp_path, unit("UK-SS", "UK", "ss", "North Sea"), unit("UK-DD", "UK", "dd", "03147"))
    r = naval_movement.sail_why_not(s, "allies", [s.units_by_id["UK-SS"]], ["03147"], False)
    assert r and r.rule == "ETO-11.1"


def test_eto_7_8_icebound_leningrad_in_winter(tmp_path):
    """7.8/1.5: Leningrad is icebound in W months: no entering or leaving its port."""
    s = _state(tmp_path, unit("SU-DD", "UK", "dd", "07026", props={"in_port": True}), weather="W")
    r = naval_movement.sail_why_not(s, "allies", [s.units_by_id["SU-DD"]], ["Gulf of Finland"], False)
    assert r and "icebound" in r.why


def test_eto_7_6_end_phase_in_port_stays_and_exclusion(tmp_path):
    """7.6: in the End phase units that begin it in port cannot move; a stack may not enter a space
    in enemy interception range unless it has more units and more gunnery: one DD may not come
    next to Gneisenau at Calais (into the English Channel), but may keep clear of her."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", "Irish Sea"),
               unit("UK-DD2", "UK", "dd", HARWICH, props={"in_port": True}),
               unit("GE-BB", "GE", "bb", "03248", name="Gneisenau"), step="end/second-naval/sail")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    u = s.units_by_id
    assert naval_movement.sail_why_not(s, "allies", [u["UK-DD2"]], ["North Sea"], False).rule == "ETO-7.6"
    r = naval_movement.sail_why_not(s, "allies", [u["UK-DD"]], ["English Channel"], False)
    assert r and r.rule == "ETO-7.6" and "more units" in r.why
    assert naval_movement.sail_why_not(s, "allies", [u["UK-DD"]], ["North Atlantic"], False) is None


def test_eto_7_6_upkeep_one_ep_per_area_two_above_eight(tmp_path):
    """7.6: 1 EP per area with the nation's units at sea, 2 EPs with more than 8; none in port;
    a nation that cannot pay marks them OOS."""
    s = _state(tmp_path, *[unit(f"UK-DD{i}", "UK", "dd", "North Sea") for i in range(9)],
               unit("UK-CL", "UK", "cl", "English Channel"), unit("UK-CL2", "UK", "cl", DOVER, props={"in_port": True}),
               unit("GE-DD", "GE", "dd", "Baltic Sea"), step=None)
    s.tracks["GE.eps"] = 0
    naval_upkeep.pay(s)
    assert s.tracks["UK.eps"] == 20 - 2 - 1 and s.units_by_id["GE-DD"].props.get("oos")
