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
    values,
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
    legal = [o for o in s.legal_orders() if o["kind"] == "sail" and o["path"][-1:] == [DOVER] and o.get("port")
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


def test_eto_7_0_drop_off_and_pick_up_on_the_way(tmp_path):
    """7.0: a moving stack drops units off (they move no further this phase) and picks units up
    in the spaces it enters; joiners have "used as many movement points as the rest of the
    stack": an STP (8 MP) joining at London after 2 MP may go on to Dover (4 MP in all)."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", SOUTHAMPTON, props={"in_port": True}),
               unit("UK-CL", "UK", "cl", SOUTHAMPTON, props={"in_port": True}),
               unit("UK-stp", "UK", "stp", LONDON, props={"points": 1, "in_port": True}))
    u = s.units_by_id
    path = ["02848", LONDON, "03048", DOVER]
    with pytest.raises(IllegalOrder, match="ETO-7.0"):   # not waiting where the stack passes
        s.apply({"kind": "sail", "units": ["UK-DD", "UK-CL"], "path": path, "join": {"02848": ["UK-stp"]}})
    with pytest.raises(IllegalOrder, match="ETO-7.0"):   # a drop-off must be on the path
        s.apply({"kind": "sail", "units": ["UK-DD", "UK-CL"], "path": path, "drop": {"03147": ["UK-CL"]}})
    s.apply({"kind": "sail", "units": ["UK-DD", "UK-CL"], "path": path, "port": True,
             "drop": {"02848": ["UK-CL"]}, "join": {LONDON: ["UK-stp"]}})
    assert u["UK-CL"].location == "02848" and not naval_units.in_port(u["UK-CL"])
    assert u["UK-DD"].location == DOVER == u["UK-stp"].location and naval_units.in_port(u["UK-stp"])
    with pytest.raises(IllegalOrder, match="ETO-7.1"):   # dropped units move no further this phase
        s.apply({"kind": "sail", "units": ["UK-CL"], "path": [SOUTHAMPTON]})


def test_eto_7_0_joiners_count_the_stacks_mp(tmp_path):
    """7.0: a submarine (6 MP) picked up in the North Sea... is refused (11.1: it moves alone); a
    DE (10 MP) joining after the stack spent 5 MP cannot go on to Narvik (5 + 5 + 1 = 11)."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", "03147"),
               unit("UK-DE", "UK", "de", "North Sea"),
               unit("UK-SS", "UK", "ss", "North Sea"))
    narvik = s.map.hex_of("Narvik")
    r = naval_movement.sail_why_not(s, "allies", [s.units_by_id["UK-DD"]], ["North Sea", "Norwegian Sea", narvik],
                                    False, join={"North Sea": ["UK-DE"]})
    assert r and r.rule == "ETO-7.4" and "costs 11 MP for UK-DE" in r.why
    r = naval_movement.sail_why_not(s, "allies", [s.units_by_id["UK-DD"]], ["North Sea", "03147"], False,
                                    join={"North Sea": ["UK-SS"]})
    assert r and r.rule == "ETO-11.1"
    assert naval_movement.sail_why_not(s, "allies", [s.units_by_id["UK-DD"]], ["North Sea", "03147"], False,
                                       join={"North Sea": ["UK-DE"]}) is None


def test_eto_7_7_enter_or_leave_the_port_in_place(tmp_path):
    """7.7: units in a port hex may enter or leave its port without moving ("Entering and leaving
    a port costs no additional movement points"); in the End phase they can only enter."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", DOVER), unit("UK-CL", "UK", "cl", DOVER, props={"in_port": True}),
               unit("UK-BB", "UK", "bb", "03147", name="Nelson"))
    u = s.units_by_id
    legal = [o for o in s.legal_orders() if o["kind"] == "sail" and o["path"] == []]
    assert {"kind": "sail", "units": ["UK-DD"], "path": [], "port": True} in legal
    assert {"kind": "sail", "units": ["UK-CL"], "path": []} in legal
    s.apply({"kind": "sail", "units": ["UK-DD"], "path": [], "port": True})
    s.apply({"kind": "sail", "units": ["UK-CL"], "path": []})
    assert naval_units.in_port(u["UK-DD"]) and not naval_units.in_port(u["UK-CL"]) and u["UK-CL"].location == DOVER
    r = naval_movement.sail_why_not(s, "allies", [s.units_by_id["UK-BB"]], [], True)
    assert r and r.rule == "ETO-7.0" and "no port" in r.why   # 03147 has no port: a voyage needs a path
    e = _state(tmp_path / "end", unit("UK-CL", "UK", "cl", DOVER, props={"in_port": True}), step="end/second-naval/sail")
    if e.decision.side != "allies":
        e.apply({"kind": "end_step"})
    r = naval_movement.sail_why_not(e, "allies", [e.units_by_id["UK-CL"]], [], False)
    assert r and r.rule == "ETO-7.6"


def test_eto_7_8_us_box_only_once_the_us_is_at_war(tmp_path):
    """7.8: the US box is a port "usable when the US enters the war" (North Atlantic -> box 1 MP)."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", SOUTHAMPTON), step=None)
    s.tracks["US.at_war"] = 0
    assert sea_spaces.step_cost(s, "allies", "North Atlantic", "US box") is None
    s.tracks["US.at_war"] = 1
    assert sea_spaces.step_cost(s, "allies", "North Atlantic", "US box") == 1
    assert sea_spaces.step_cost(s, "axis", "North Atlantic", "US coastal box") is not None   # not a port box


def test_eto_7_8_port_boxes_serve_the_uk_and_partners_iraq_the_uk(tmp_path):
    """7.8: the Canada, Capetown and India boxes are "usable by the UK and its partners" (a French
    ship yes, a Soviet ship no); the Iraq box by the UK only, while it holds an Iraq edge hex;
    Persian Gulf -> Iraq box 1 MP, back 10."""
    s = _state(tmp_path, unit("FR-DD", "FR", "dd", "South Atlantic"),
               unit("UK-DD", "UK", "dd", "Persian Gulf"), unit("FR-DD2", "FR", "dd", "Persian Gulf"), step=None)
    u = s.units_by_id
    from workbench.rulesets.eto import ports

    assert ports.box_why_not(s, "allies", [u["FR-DD"]], "Capetown box") is None
    assert not sea_spaces.box_nation_ok(s, "Capetown box", "SU") and sea_spaces.box_nation_ok(s, "India box", "US")
    assert sea_spaces.graph(s).neighbours("Persian Gulf")["Iraq transit box"] == 1
    assert sea_spaces.graph(s).neighbours("Iraq transit box")["Persian Gulf"] == 10
    edge = [h for h in s.map.boxes["Iraq transit box"].links if h[0].isdigit()]
    assert sea_spaces.step_cost(s, "allies", "Persian Gulf", "Iraq transit box") is None   # no edge hex held
    control(s)[s.map.index(edge[0])] = SIDE_CODE["allies"]
    assert ports.box_why_not(s, "allies", [u["UK-DD"]], "Iraq transit box") is None
    assert "the UK only" in ports.box_why_not(s, "allies", [u["FR-DD2"]], "Iraq transit box").why


MESSINA_N, MESSINA_S = "05677", "05777"


def test_eto_7_8_a_fortified_strait_is_left_the_way_in(tmp_path):
    """7.8: a fortification in a ferry crossing hex stops enemy ships passing the straits: a
    British DD entering the Strait of Messina from the Tyrrhenian Sea while an Italian fort holds
    it must leave the way it came, now or in a later phase; Axis ships pass freely."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", "Tyrrhenian Sea"), unit("IT-DD", "IT", "dd", "Tyrrhenian Sea"))
    dd = [s.units_by_id["UK-DD"]]
    through = [MESSINA_N, "Central Mediterranean"]
    assert naval_movement.sail_why_not(s, "allies", dd, through, False) is None
    s.markers.setdefault("forts", {})[MESSINA_S] = {"side": "axis", "kind": "fortification"}
    r = naval_movement.sail_why_not(s, "allies", dd, through, False)
    assert r and r.rule == "ETO-7.8" and "the way they came" in r.why
    assert naval_movement.sail_why_not(s, "allies", dd, [MESSINA_N, "Tyrrhenian Sea"], False) is None
    from workbench.rulesets.eto import straits

    assert straits.why_not(s, "axis", [s.units_by_id["IT-DD"]], "Tyrrhenian Sea", through) is None
    s.apply({"kind": "sail", "units": ["UK-DD"], "path": [MESSINA_N]})
    if s.decision.kind == "naval_intercept":
        s.apply({"kind": "pass"})   # the Italian DD lets it be (8.2)
    assert dd[0].props["strait_end"] == "Tyrrhenian Sea"
    r = straits.why_not(s, "allies", dd, MESSINA_N, ["Central Mediterranean"])
    assert r and r.rule == "ETO-7.8"


def test_eto_7_9_fleet_box_ships_are_where_the_marker_is(tmp_path):
    """7.9: a nation's ships enter its fleet box where the marker is; they are there "for all
    purposes, including movement": a sail order with the fleet moves them all."""
    from workbench.rulesets.eto import fleets

    s = _state(tmp_path, unit("UK-BB", "UK", "bb", "03147", name="Nelson"), unit("UK-DD", "UK", "dd", "03147"),
               unit("UK-CL", "UK", "cl", DOVER), unit("FR-DD", "FR", "dd", "03147"))
    assert {"kind": "fleet", "box": "Home Fleet", "add": ["UK-BB", "UK-DD"]} in s.legal_orders()
    with pytest.raises(IllegalOrder, match="ETO-7.9"):
        s.apply({"kind": "fleet", "box": "Home Fleet", "add": ["UK-BB", "FR-DD"]})
    with pytest.raises(IllegalOrder, match="ETO-7.9"):
        s.apply({"kind": "fleet", "box": "Home Fleet", "add": ["UK-BB", "UK-CL"]})
    s.apply({"kind": "fleet", "box": "Home Fleet", "add": ["UK-BB", "UK-DD"]})
    assert fleets.marker_space(s, "Home Fleet") == "03147"
    s.apply({"kind": "sail", "fleet": "Home Fleet", "path": ["North Sea"]})
    assert fleets.marker_space(s, "Home Fleet") == "North Sea" == s.units_by_id["UK-BB"].location
    assert s.units_by_id["FR-DD"].location == "03147"
    naval_units.sink(s, s.units_by_id["UK-DD"], "ETO-9.5", "")
    assert "fleet" not in s.units_by_id["UK-DD"].props and fleets.ships(s, "Home Fleet") == [s.units_by_id["UK-BB"]]


def test_eto_7_6_upkeep_counts_coastal_hexes_in_their_area(tmp_path):
    """7.6: "1 EP per area with naval units in it": a DD off Southampton's coast (02848) and a CL
    in the English Channel are one area (1 EP); a DD off the Thames (03147) is the North Sea (1)."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", "02848"), unit("UK-CL", "UK", "cl", "English Channel"),
               unit("UK-DD2", "UK", "dd", "03147"), step=None)
    naval_upkeep.pay(s)
    assert s.tracks["UK.eps"] == 20 - 2


def test_eto_8_1_interception_range_coastal_hex_and_sea_area(tmp_path):
    """8.1: ships in a coastal hex or port reach "any coastal hex within 3 naval movement points,
    or an adjacent area"; ships in a sea area reach "that sea area ... or any coastal hex adjacent
    to that area" (GAP-22 ruling: the 3 MP are counted over coastal hexes)."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", DOVER), step=None)
    r = sea_spaces.interception_range(s, DOVER)
    assert {"English Channel", "North Sea", "03048", LONDON, "02848"} <= r   # 1, 2 and 3 coastal hexes away
    assert SOUTHAMPTON not in r and "Irish Sea" not in r                    # 4 coastal hexes; not adjacent
    a = sea_spaces.interception_range(s, "English Channel")
    assert {"English Channel", SOUTHAMPTON, LE_HAVRE, DOVER} <= a and "North Sea" not in a and "03147" not in a


def test_eto_11_1_a_submarine_shares_an_area_but_no_hex_and_joins_no_fleet(tmp_path):
    """11.1: submarines "cannot stack with other friendly naval units (including other submarines)
    outside of ports, though they can occupy the same area as other friendly units.  They cannot
    be part of a fleet."  The SS may sail into the North Sea where a British DD stands, not into
    the coastal hex 03147 where another DD is; alone in a hex it still joins no fleet box."""
    s = _state(tmp_path, unit("UK-SS", "UK", "ss", DOVER), unit("UK-DD", "UK", "dd", "North Sea"),
               unit("UK-DD2", "UK", "dd", "03147"), unit("UK-SS2", "UK", "ss", "03248"))
    ss = [s.units_by_id["UK-SS"]]
    assert naval_movement.sail_why_not(s, "allies", ss, ["North Sea"], False) is None
    assert naval_movement.sail_why_not(s, "allies", ss, ["03147"], False).rule == "ETO-11.1"
    s.apply({"kind": "sail", "units": ["UK-SS"], "path": ["North Sea"]})
    assert s.units_by_id["UK-SS"].location == s.units_by_id["UK-DD"].location == "North Sea"
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fleet", "box": "Home Fleet", "add": ["UK-SS2"]})
    assert exc.value.rule == "ETO-11.1" and "fleet" in exc.value.why


def test_eto_7_8_the_iraq_box_is_evacuated_when_the_last_edge_hex_is_lost(tmp_path):
    """7.8: the Iraq box is usable "as long as [the UK] controls at least one hex of Iraq adjacent
    to the map edge.  If this condition cannot be met, the UK player must evacuate the box".  While
    an edge hex is held the end of the Naval and Air phase leaves the box alone; once the last is
    lost, the DD and the STP (with the corps aboard) put out into the Persian Gulf, the box's sea
    exit; the corps left ashore in the box, with no ship, is eliminated; the box stays closed."""
    box = "Iraq transit box"
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", box, props={"in_port": True}),
               unit("UK-stp", "UK", "stp", box, props={"points": 2, "in_port": True}),
               unit("UK-inf1", "UK", "infantry", box), unit("UK-inf2", "UK", "infantry", box), step=None)
    u = s.units_by_id
    u["UK-inf1"].location = sea_transport.ABOARD + "UK-stp"
    u["UK-inf1"].props.update(aboard="UK-stp", sea_mission="transport")
    edge = sorted(h for h in s.map.boxes[box].links if h[0].isdigit())
    ctrl = control(s)
    for h in edge:
        ctrl[s.map.index(h)] = SIDE_CODE["allies"]
    end_of_phase = s.game.ruleset.procedures["naval-air:exit"]
    end_of_phase(s, None)
    assert u["UK-DD"].location == box and u["UK-inf2"].location == box
    for h in edge:
        ctrl[s.map.index(h)] = SIDE_CODE["axis"]
    end_of_phase(s, None)
    assert u["UK-DD"].location == u["UK-stp"].location == "Persian Gulf"
    assert not naval_units.in_port(u["UK-DD"])
    assert u["UK-inf1"].location == sea_transport.ABOARD + "UK-stp"
    assert u["UK-inf2"].location == values.FORCE_POOL
    why = naval_movement.sail_why_not(s, "allies", [u["UK-DD"]], [box], True)
    assert why is not None and why.rule == "ETO-7.8"


def test_eto_46_2_axis_stps_keep_to_their_own_seas_until_suez_or_gibraltar_falls(tmp_path):
    """46.2 (optional): "German STPs cannot be used in the Mediterranean Sea until the Axis controls
    either the Suez Canal or Gibraltar.  Italian STPs cannot be used outside the Mediterranean";
    Gibraltar is both inside and outside."""
    from eto_kit import scenario_text

    from workbench.engine import load_scenario
    from workbench.rulesets.eto import control as ctl
    from workbench.rulesets.eto import historical

    path = tmp_path / "eto-46-2.toml"
    path.write_text(scenario_text([unit("GE-stp", "GE", "stp", "Bay of Biscay", props={"points": 2}),
                                   unit("IT-stp", "IT", "stp", "Tyrrhenian Sea", props={"points": 2})],
                                  west=True, options={"naval": True, "optional_rules": ["ETO-46.2"]}))
    s = load_scenario(path).new_state(seed=1)
    ge, it = s.unit("GE-stp"), s.unit("IT-stp")
    gib = s.map.hex_of("Gibraltar")
    assert historical.stp_why_not(s, [ge], ["Western Mediterranean"]).rule == "ETO-46.2"
    assert historical.stp_why_not(s, [ge], [gib]) is None  # Gibraltar is both
    assert "leave the Mediterranean" in historical.stp_why_not(s, [it], ["Bay of Biscay"]).why
    assert historical.stp_why_not(s, [it], ["Central Mediterranean"]) is None
    ctl.control(s)[s.map.index(gib)] = ctl.AXIS  # the Axis holds Gibraltar: lifted
    assert historical.stp_why_not(s, [ge], ["Western Mediterranean"]) is None
    path2 = tmp_path / "eto-46-2-off.toml"
    path2.write_text(path.read_text().replace('optional_rules = ["ETO-46.2"]', "optional_rules = []"))
    s2 = load_scenario(path2).new_state(seed=1)
    assert historical.stp_why_not(s2, [s2.unit("GE-stp")], ["Western Mediterranean"]) is None


def test_eto_33_8_ships_out_of_supply_sail_the_direct_path_to_the_closest_port(tmp_path):
    """33.8: "Naval units that are marked out of supply must move toward the closest (in movement
    points) friendly port during each subsequent Naval Movement step. They cannot deviate from the
    most direct path to this port" -- a marked destroyer in the English Channel may only head for
    its nearest British port; left unmoved, the kernel sails it there at the step's end."""
    s = _state(tmp_path, unit("UK-DD", "UK", "dd", "English Channel", props={"oos": True}))
    dd = [s.units_by_id["UK-DD"]]
    direct = naval_movement.home_port_path(s, "allies", "English Channel")
    assert direct and len(direct) == 1
    port = direct[-1]
    assert naval_movement.sail_why_not(s, "allies", dd, direct, True) is None
    away = [sp for sp in ("North Sea", "Bay of Biscay", "Irish Sea") if sp != port
            and sea_spaces.step_cost(s, "allies", "English Channel", sp) is not None][0]
    why = naval_movement.sail_why_not(s, "allies", dd, [away], False)
    assert why is not None and why.rule == "ETO-33.8" and port in why.why
    s.apply({"kind": "end_step"})
    assert s.units_by_id["UK-DD"].location == port and naval_units.in_port(s.units_by_id["UK-DD"])
    assert any(e["kind"] == "forced_voyage" for e in s.log)
