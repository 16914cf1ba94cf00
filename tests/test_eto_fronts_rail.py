"""ETO fronts (24.5), generals riding land units (24.3), the rail shortest route (31.2) and
restoring supply (33.4), on small scenarios of the europe map (see eto_kit)."""

from __future__ import annotations

import numpy as np
import pytest
from eto_kit import begin_offensive, events, new_state, step_to, unit

from workbench.engine import IllegalOrder
from workbench.rulesets.eto.control import ALLIES, AXIS, control
from workbench.rulesets.eto.front import apply_front
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.zoc import zoc

# -- 24.5 defining a front -----------------------------------------------------------------------
POCKET = "08741"  # a Soviet unit here; an Axis ring at distance 4 seals it in


def _rings(state, centre: str, upto: int) -> dict[int, list[int]]:
    hm = state.map
    out: dict[int, list[int]] = {r: [] for r in range(upto + 1)}
    for i in range(hm.size):
        d = hm.distance(centre, hm.label(i))
        if d <= upto:
            out[d].append(i)
    return out


def _ring_cover(state, ring: list[int]) -> list[int]:
    """Every other hex of a ring: each ring hex is occupied or adjacent to an occupied one."""
    hm = state.map
    ring_set, chosen, covered = set(ring), [], set()
    start = min(ring)
    order, cur = [start], start
    while len(order) < len(ring):  # walk the ring hex to hex
        cur = next(int(j) for j in hm.neighbors[cur] if int(j) in ring_set and int(j) not in order)
        order.append(cur)
    for k, i in enumerate(order):
        if k % 2 == 0:
            chosen.append(i)
            covered.add(i)
    assert len(chosen) * 2 == len(ring)
    return chosen


def _front_state(tmp_path, *, gap: bool = False, enemy_airbase: bool = False):
    """USSR all Axis-controlled except the hexes within 7 of POCKET (Allied, airbases outside the
    ring Axis); one Soviet infantry at POCKET; Axis infantry on every other hex of ring 4."""
    probe = new_state(tmp_path, [unit("GE-probe", "GE", "infantry", "06139")])
    rings = _rings(probe, POCKET, 7)
    ring4 = _ring_cover(probe, rings[4])
    if gap:
        ring4 = ring4[3:]  # three neighbouring units of the ring go home: a gap
    units = [unit("SU-p", "SU", "infantry", POCKET)]
    units += [unit(f"GE-{k}", "GE", "infantry", probe.map.label(i)) for k, i in enumerate(ring4)]
    s = new_state(tmp_path, units)
    ta = terrain_arrays(s)
    airbase = ta.city | ta.resource | ta.city_resource | ta.fort_hex
    ctrl = control(s)
    ctrl[ctrl == ALLIES] = AXIS
    for r in range(8):
        ctrl[rings[r]] = ALLIES
    for r in (5, 6, 7):
        ctrl[[i for i in rings[r] if airbase[i]]] = AXIS
    ctrl[ring4] = AXIS  # 24.4: the Axis units entered their hexes
    far_airbase = next(i for i in rings[6] if airbase[i])
    if enemy_airbase:
        ctrl[far_airbase] = ALLIES
    return s, rings, ring4, airbase, far_airbase


def test_eto_24_5_continuous_line_flips_the_hexes_behind_it(tmp_path):
    """24.5: "A front is a continuous line of friendly units and ZOCs that divide friendly supply
    sources from all enemy land units and airbases ... The hexes that form the front itself do not
    change control, but hexes behind it ... become controlled by the player demonstrating the
    front."  The Axis ring at distance 4 (ZOC on rings 3-5) cuts the Soviet unit off: rings 6-7
    (vacant, behind the ring) become Axis; the ZOC rows 3 and 5 (the front) stay Soviet."""
    s, rings, ring4, airbase, _ = _front_state(tmp_path)
    fz = zoc(s, "axis")
    assert all(fz[i] for i in rings[4] if i not in ring4)  # the line is continuous
    assert all(fz[i] for i in rings[3] + rings[5])
    ctrl = control(s)
    behind = [i for r in (6, 7) for i in rings[r] if not airbase[i] and not fz[i]]
    assert behind and all(ctrl[i] == ALLIES for i in behind)
    n = apply_front(s, "axis")
    assert n == len(behind)
    assert all(ctrl[i] == AXIS for i in behind)
    assert all(ctrl[i] == ALLIES for i in rings[3] + rings[5] if not airbase[i])  # the front itself
    assert s.log[-1]["kind"] == "front" and s.log[-1]["rule"] == "ETO-24.5"


def test_eto_24_5_enemy_pocket_is_a_mini_front(tmp_path):
    """24.5: "Hexes occupied by enemy units and vacant hexes in enemy ZOC do not change hands";
    enemy units behind the front "limit its extent. If all such units are surrounded by opposing
    units or ZOCs, they form a mini-front ... Any vacant hex behind the front that is not cut off
    from an enemy-controlled hex by opposing units or ZOC remains enemy controlled."  The pocket
    (the unit's hex, its ZOC ring 1, the vacant ring 2 it still reaches) stays Soviet."""
    s, rings, _, _, _ = _front_state(tmp_path)
    apply_front(s, "axis")
    ctrl = control(s)
    assert ctrl[s.map.index(POCKET)] == ALLIES  # enemy-occupied
    su_zoc = zoc(s, "allies")
    assert all(su_zoc[i] and ctrl[i] == ALLIES for i in rings[1])  # vacant, in enemy ZOC
    assert all(ctrl[i] == ALLIES for i in rings[2])  # not cut off from the enemy unit


def test_eto_24_5_no_front_through_a_gap(tmp_path):
    """24.5: the line must be "continuous": with three units of the ring gone the Soviet unit is
    not cut off, so nothing behind the broken ring changes hands."""
    s, rings, _, airbase, _ = _front_state(tmp_path, gap=True)
    ctrl = control(s)
    before = ctrl.copy()
    assert apply_front(s, "axis") == 0
    assert (ctrl == before).all()
    assert all(ctrl[i] == ALLIES for r in (6, 7) for i in rings[r] if not airbase[i])


def test_eto_24_5_airbases_never_flip_and_hold_territory(tmp_path):
    """24.5: "Airbase hexes (cities, resource hexes, and airbase markers) and fortifications never
    change hands because a front is established ... if an enemy airbase hex remains behind the
    front, large portions of territory may remain under enemy control."  A Soviet city/resource
    hex behind the ring stays Soviet and keeps every vacant hex it still reaches Soviet."""
    s, rings, _, airbase, far = _front_state(tmp_path, enemy_airbase=True)
    ctrl = control(s)
    fz = zoc(s, "axis")
    apply_front(s, "axis")
    assert ctrl[far] == ALLIES
    assert all(ctrl[i] == ALLIES for r in (6, 7) for i in rings[r] if not airbase[i] and not fz[i])
    # the same hex Axis-held: only the hexes it was holding change
    s2, rings2, _, airbase2, far2 = _front_state(tmp_path)
    apply_front(s2, "axis")
    assert control(s2)[far2] == AXIS
    assert any(control(s2)[i] == AXIS for i in rings2[6] if not airbase2[i])



def test_eto_24_5_airfield_and_fortification_markers_never_flip(tmp_path):
    """24.5: "Airbase hexes (cities, resource hexes, and airbase markers) and fortifications never
    change hands because a front is established."  A Soviet fortification marker behind the ring
    stays Soviet while the vacant hexes round it turn Axis; a Soviet airfield marker stays Soviet
    and, as an enemy airbase behind the front, keeps the territory it reaches Soviet."""
    s, rings, _, airbase, _ = _front_state(tmp_path)
    plain = [i for i in rings[7] if not airbase[i]]
    fort = plain[0]
    s.markers.setdefault("forts", {})[s.map.label(fort)] = {"side": "allies", "kind": "fortification"}
    apply_front(s, "axis")
    ctrl = control(s)
    assert ctrl[fort] == ALLIES
    assert all(ctrl[i] == AXIS for i in plain[1:])
    s, rings, _, airbase, _ = _front_state(tmp_path)
    field = [i for i in rings[7] if not airbase[i]][0]
    s.markers.setdefault("forts", {})[s.map.label(field)] = {"side": "allies", "kind": "airfield"}
    fz = zoc(s, "axis")
    apply_front(s, "axis")
    ctrl = control(s)
    assert ctrl[field] == ALLIES
    assert all(ctrl[i] == ALLIES for r in (6, 7) for i in rings[r] if not airbase[i] and not fz[i])


def test_eto_24_5_front_demonstrated_in_own_movement_phase(tmp_path):
    """24.5: "Anytime during his own Offensive or Movement phase when a player can demonstrate a
    front": in play the Axis front is applied as the Axis Movement phase's move step ends."""
    s, rings, _, airbase, _ = _front_state(tmp_path)
    step_to(s, "movement/move")
    assert s.decision.side == "axis"
    ctrl = control(s)
    fz = zoc(s, "axis")
    behind = [i for r in (6, 7) for i in rings[r] if not airbase[i] and not fz[i]]
    assert all(ctrl[i] == ALLIES for i in behind)
    s.apply({"kind": "end_step"})
    assert [e for e in s.log if e["kind"] == "front" and e["side"] == "axis"]
    assert all(control(s)[i] == AXIS for i in behind)
    assert control(s)[s.map.index(POCKET)] == ALLIES

# -- 24.3 generals ride with land units ----------------------------------------------------------------
def _general_offensive(tmp_path, b_at="08240"):
    """Hoth with GE-a at 08440, GE-b at ``b_at``, all activated by the HQ at 08340."""
    units = [unit("GE-a", "GE", "infantry", "08440"), unit("GE-b", "GE", "infantry", b_at),
             unit("GE-G", "GE", "general", "08440", name="Hoth"), unit("GE-H", "GE", "hq", "08340"),
             unit("SU-a", "SU", "infantry", "08742")]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    s.apply({"kind": "activate", "all": True})
    step_to(s, "offensive/movement")
    assert s.unit("GE-G").props.get("in_offensive")  # activated with the stack, yet may not walk alone
    return s


def test_eto_24_3_general_cannot_move_alone_in_an_offensive(tmp_path):
    """24.3: "Generals cannot move during offensives, except to accompany land units that they are
    stacked with." """
    s = _general_offensive(tmp_path)
    assert not [o for o in s.legal_orders() if o["kind"] == "move" and o["unit"] == "GE-G"]
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "move", "unit": "GE-G", "path": ["08441"]})
    assert e.value.rule == "ETO-24.3"
    assert s.unit("GE-G").location == "08440"
    with pytest.raises(IllegalOrder) as e:  # nor ride with a unit it is not stacked with
        s.apply({"kind": "move", "unit": "GE-b", "path": ["08140"], "general": "GE-G"})
    assert e.value.rule == "ETO-24.3"


def test_eto_24_3_general_rides_its_unit_and_switches_to_another(tmp_path):
    """24.3: the general moves with the land unit it is stacked with, and "can switch to another
    land unit if the two counters are ever stacked together ... even if one unit simply ... ceases
    moving in the hex containing the other unit"."""
    s = _general_offensive(tmp_path)
    ride = {"kind": "move", "unit": "GE-a", "path": ["08341", "08240"], "general": "GE-G"}
    assert ride in s.legal_orders()
    s.apply(ride)
    assert s.unit("GE-G").location == "08240" == s.unit("GE-a").location
    switch = [o for o in s.legal_orders() if o["kind"] == "move" and o["unit"] == "GE-b" and o.get("general")]
    assert switch and all(o["general"] == "GE-G" for o in switch)
    s.apply({"kind": "move", "unit": "GE-b", "path": ["08140"], "general": "GE-G"})
    assert s.unit("GE-G").location == "08140" == s.unit("GE-b").location
    assert s.unit("GE-a").location == "08240"


def test_eto_24_3_general_moves_alone_in_the_movement_phase(tmp_path):
    """24.3 limits generals only "during offensives"; in the Movement phase a general moves on its
    own (5 hexes, 30.1)."""
    s = new_state(tmp_path, [unit("GE-G", "GE", "general", "08440", name="Hoth")])
    step_to(s, "movement/move")
    alone = [o for o in s.legal_orders() if o["kind"] == "move" and o["unit"] == "GE-G"]
    assert alone
    s.apply(alone[0])
    assert s.unit("GE-G").location == alone[0]["path"][-1] != "08440"


# -- 31.2 rail: the shortest route -------------------------------------------------------------------
def test_eto_31_2_rail_route_is_a_shortest_path(tmp_path):
    """31.2: "A unit moving by rail must take the shortest route (or one of the shortest ...)
    ... the path of rail movement can be of any length."  Every legal destination's route is
    pinned against an independent breadth-first count (networkx) over the same rail graph:
    friendly land hexes free of enemy units and ZOC (31.3), joined across hexsides that are not
    impassable or lake (the last hex may be in enemy ZOC)."""
    import networkx as nx

    from workbench.rulesets.eto import rail

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "06139"), unit("SU-a", "SU", "infantry", "08740")])
    step_to(s, "movement/move")
    hm, ta = s.map, terrain_arrays(s)
    net = rail.network(s, "axis")
    ok_side = ~ta.closed_side & ~ta.lake_side
    src = hm.index("06139")
    g = nx.DiGraph()
    g.add_node(src)
    tails = np.flatnonzero(net).tolist() + [src]
    into: dict[int, set[int]] = {}
    for a in tails:
        for d in range(6):
            b = int(hm.neighbors[a, d])
            if b >= 0 and ok_side[a, d]:
                into.setdefault(b, set()).add(a)
                if net[b]:
                    g.add_edge(a, b)
    dist = nx.single_source_shortest_path_length(g, src)
    dests = sorted({o["to"] for o in s.legal_orders() if o["kind"] == "rail" and o["unit"] == "GE-a"})
    assert len(dests) > 50
    detours = 0
    for dest in dests:
        goal = hm.index(dest)
        expect = 1 + min(dist[a] for a in into[goal] if a in dist)
        path = rail.route(s, s.unit("GE-a"), dest)
        assert path is not None and len(path) == expect, dest
        steps = [src, *path]
        assert all(hm.distance(hm.label(a), hm.label(b)) == 1 for a, b in zip(steps, steps[1:], strict=False))
        assert all(net[i] for i in path[:-1])
        detours += expect > hm.distance("06139", dest)
    assert detours  # some routes bend around enemy ZOC or closed hexsides: not the hex distance


def test_eto_31_2_route_must_touch_the_capacity_country(tmp_path):
    """31.2: the route "must pass through at least one hex of the country whose rail capacity is
    being employed": a German unit in the occupied USSR cannot rail within the USSR."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08440")])
    step_to(s, "movement/move")
    assert not [o for o in s.legal_orders() if o["kind"] == "rail" and o.get("to") == "08340"]
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "rail", "unit": "GE-a", "to": "08340"})
    assert e.value.rule == "ETO-31.2"


# -- 33.4 restoring supply -------------------------------------------------------------------------------
def _marked_unit_moves_home(tmp_path):
    """A German infantry marked out of supply (33.3) at 08840, in Soviet territory, walks back to
    08640 in the Axis zone, where it traces home through Poland."""
    from workbench.rulesets.eto import supply

    s = new_state(tmp_path, [unit("GE-x", "GE", "infantry", "08840")], first="1941-07", last="1941-09")
    s.unit("GE-x").props["oos"] = True
    step_to(s, "movement/move")
    assert not supply.traces(s, s.unit("GE-x"))
    order = next(o for o in s.legal_orders() if o["kind"] == "move" and o["unit"] == "GE-x"
                 and o["path"][-1] == "08640")
    return s, order


def test_eto_33_4_marker_removed_as_soon_as_the_unit_traces(tmp_path):
    """33.4: "An out of supply marker is removed immediately whenever a unit is able to trace a
    supply line to a permanent supply source, regardless of the phase" - at the move, not at the
    end of the step or in the End phase."""
    s, order = _marked_unit_moves_home(tmp_path)
    s.apply(order)
    assert s.step.key == "movement/move"  # still mid-step
    assert not s.unit("GE-x").props.get("oos")
    ev = [e for e in s.log if e["kind"] == "supplied"]
    assert ev and ev[-1]["rule"] == "ETO-33.4"


def test_eto_33_4_cut_again_not_remarked_until_the_end_phase(tmp_path):
    """33.4: "If it is placed out of supply later that same turn, it is not marked again until the
    End phase" - so the next Supply step marks it afresh (33.3) instead of depleting it (33.5)."""
    s, order = _marked_unit_moves_home(tmp_path)
    s.apply(order)
    assert not s.unit("GE-x").props.get("oos")
    ta = terrain_arrays(s)
    ctrl = control(s)
    ctrl[(ta.country == "USSR") & (ctrl == AXIS)] = ALLIES  # the Soviets retake the zone: cut off
    ctrl[s.map.index("08640")] = AXIS
    start = len(s.log)
    while not [e for e in s.log if e["kind"] == "out_of_supply"]:
        assert not s.unit("GE-x").props.get("oos")  # not marked before the End phase Supply step
        s.advance()
    kinds = [e["kind"] for e in s.log[start:]]
    assert "turn" not in kinds[:kinds.index("out_of_supply")]  # marked in this turn's End phase
    ev = [e for e in s.log if e["kind"] == "out_of_supply"][-1]
    assert ev["rule"] == "ETO-33.3" and s.unit("GE-x").props.get("oos")
    assert not s.unit("GE-x").reduced
    assert not [e for e in s.log if e["kind"] == "depleted"]


def test_eto_24_3_general_switches_to_a_unit_its_carrier_passes(tmp_path):
    """24.3: "... even if one unit simply passes through ... the hex containing the other unit":
    GE-a carries Hoth through GE-b's hex 08341 and leaves him there."""
    s = _general_offensive(tmp_path, b_at="08341")
    with pytest.raises(IllegalOrder) as e:  # the switch needs a land unit in the hex
        s.apply({"kind": "move", "unit": "GE-a", "path": ["08341", "08240"], "general": "GE-G",
                 "drop_at": "08240"})
    assert e.value.rule == "ETO-24.3" and s.unit("GE-G").location == "08440"
    s.apply({"kind": "move", "unit": "GE-a", "path": ["08341", "08240"], "general": "GE-G", "drop_at": "08341"})
    assert s.unit("GE-a").location == "08240"
    assert s.unit("GE-G").location == "08341" == s.unit("GE-b").location


def test_eto_24_3_general_switches_to_a_unit_passing_through_his_hex(tmp_path):
    """24.3: GE-b passes through 08440, where Hoth stands with GE-a, and takes him on to 08441."""
    s = _general_offensive(tmp_path, b_at="08341")
    with pytest.raises(IllegalOrder) as e:  # never stacked together: no switch
        s.apply({"kind": "move", "unit": "GE-b", "path": ["08240"], "pick_up": "GE-G"})
    assert e.value.rule == "ETO-24.3"
    s.apply({"kind": "move", "unit": "GE-b", "path": ["08440", "08441"], "pick_up": "GE-G"})
    assert s.unit("GE-G").location == "08441" == s.unit("GE-b").location
    assert s.unit("GE-a").location == "08440"


def test_eto_33_4_attacked_or_activated_unit_restored_by_a_supply_marker_four_a_turn(tmp_path):
    """33.4: "An out of supply marker can be removed from a unit that traces a supply line to a
    supply marker, if that unit is activated for an offensive or that unit is attacked ... a supply
    marker can restore supply to four units per turn ... Once a marker has expended its capacity,
    it cannot be used to supply other friendly units."  One marker, five marked units: four are
    restored, the fifth is not, and the Supply step finds the marker spent."""
    from test_eto_gaps import _isolate_source, _u

    from workbench.rulesets.eto import supply

    s, kiev, nb = _isolate_source(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], 1)
    for k in range(5):
        s.units_by_id[f"SU-k{k}"] = _u(s, f"SU-k{k}", kiev if k < 3 else nb)
    supply.isolated_sources(s)
    assert s.markers["supply_markers"][kiev]["markers"] == 1
    for k in range(5):
        s.unit(f"SU-k{k}").props["oos"] = True
    assert not supply.restore_from_marker(s, s.unit("GE-a"), "attacked")  # not marked: nothing to do
    got = [supply.restore_from_marker(s, s.unit(f"SU-k{k}"), "attacked") for k in range(5)]
    assert got == [True, True, True, True, False]
    assert s.unit("SU-k4").props.get("oos")
    assert supply.capacity_left(s, kiev) == 0
    assert [e["rule"] for e in events(s, "supplied")][-4:] == ["ETO-33.4"] * 4
    supply.supply_step(s, None)  # the marker served four units this turn: consumed, none left
    assert s.markers["supply_markers"][kiev]["markers"] == 0
    assert s.unit("SU-k4").reduced  # 33.5: still marked and unsupplied: depleted
    # 32.4 "Once a unit is designated as receiving supply from a marker, that unit counts toward the
    # marker's capacity": the four restored units stay supplied by it, and count once
    assert [s.unit(f"SU-k{k}").props.get("oos") for k in range(4)] == [None] * 4
    used = events(s, "supply_markers_used")[-1]["data"]
    assert (used["units"], used["markers"]) == (4, 1)


def test_eto_32_4_a_captured_marker_restores_none_of_its_old_owners_units(tmp_path):
    """32.4: "If the enemy takes control of a hex that contains a supply marker, they also get
    control of the supply marker"."""
    from test_eto_gaps import _isolate_source, _u

    from workbench.rulesets.eto import supply
    from workbench.rulesets.eto.control import SIDE_CODE, control

    s, kiev, nb = _isolate_source(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], 1)
    s.units_by_id["SU-k"] = _u(s, "SU-k", nb)
    supply.isolated_sources(s)
    s.unit("SU-k").props["oos"] = True
    control(s)[s.map.index(kiev)] = SIDE_CODE["axis"]
    s.forget()
    assert not supply.restore_from_marker(s, s.unit("SU-k"), "attacked")
    assert s.markers["supply_markers"][kiev]["side"] == "axis"


def test_eto_33_4_activation_restores_a_marked_unit_through_a_marker(tmp_path):
    """33.4: activation for an offensive is one of the two moments a marker can restore supply."""
    from test_eto_gaps import _isolate_source, _u

    from workbench.rulesets.eto import command, supply

    s, kiev, _nb = _isolate_source(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], 1)
    s.units_by_id["SU-k"] = _u(s, "SU-k", kiev)
    supply.isolated_sources(s)
    s.unit("SU-k").props["oos"] = True
    s.markers["offensive"] = {"side": "allies", "units": [], "mode": "stack", "nation": "SU"}
    command.activate_units(s, [s.unit("SU-k")], "ETO-22.3")
    assert s.unit("SU-k").props.get("oos") is None
    assert supply.capacity_left(s, kiev) == 3


def test_eto_24_3_only_a_land_unit_carries_a_general(tmp_path):
    """24.3: generals "accompany land units"; a general (or HQ) cannot pick one up on its way."""
    s = new_state(tmp_path, [unit("GE-G1", "GE", "general", "08440", name="Hoth"),
                             unit("GE-G2", "GE", "general", "08441", name="Guderian")])
    step_to(s, "movement/move")
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "move", "unit": "GE-G1", "path": ["08441", "08442"], "pick_up": "GE-G2"})
    assert e.value.rule == "ETO-24.3"
    assert s.unit("GE-G2").location == "08441"
