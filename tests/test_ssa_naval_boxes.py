"""SS Amerika naval movement into holding areas (SSA-7.2, 7.6), where fleets may sail (SSA-7.4),
naval stacking (SSA-9.3), naval transport (SSA-7.7) and the holding boxes (SSA-15.G-15.2, 15.5a).

Test map (tests/ssa_kit.py): sea in columns 01-02, the coast in column 03, Port City (industrial, a
port) at 0306 on the transportation line along row 06.  The map has no ocean names, so every sea
hex on the map edge counts as the edge of both oceans.
"""

from __future__ import annotations

import pytest
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa.naval_combat import defending_stack

GE_FLEET = {"id": "GE-bb", "nation": "GE", "type": "battle_fleet", "at": "0206"}


def phase(ssa_game, units, side="axis", key="player/initial-movement"):
    return to_step(ssa_game(units).new_state(seed=1), key, side)


def next_turn(state, side="axis"):
    state.advance()
    return to_step(state, "player/initial-movement", side, limit=80)


# ------------------------------------------------------------------ SSA-7.2, 7.6: holding areas
def test_ssa_7_2_fleet_enters_a_box_beside_its_ocean_and_stops(ssa_game):
    s = phase(ssa_game, [GE_FLEET])
    sail = s.ruleset.order_kinds["sail"]
    boxes = {d for d in sail.destinations(s, s.unit("GE-bb")) if not d.isdigit()}
    # Europe (Atlantic), Latin America (Atlantic and Pacific), Pacific (Pacific) border an ocean;
    # the Far East borders only the Pacific box (SSA-7.6), so no fleet sails there from the map.
    assert boxes == {"Europe", "Latin America", "Pacific"}
    s.apply({"kind": "sail", "unit": "GE-bb", "to": "Europe"})
    assert s.unit("GE-bb").location == "Europe"
    with pytest.raises(IllegalOrder) as exc:  # it must cease movement on entering (SSA-7.2)
        s.apply({"kind": "sail", "unit": "GE-bb", "to": "Latin America"})
    assert exc.value.rule == "SSA-7.0" and "may still sail this phase" in exc.value.why


def test_ssa_7_6_next_turn_to_an_adjacent_box_or_back_onto_the_map(ssa_game):
    s = phase(ssa_game, [{**GE_FLEET, "at": "Europe"}])
    dests = s.ruleset.order_kinds["sail"].destinations(s, s.unit("GE-bb"))
    assert "Latin America" in dests  # Europe is adjacent to the Atlantic and Latin America
    assert "0206" in dests and "0306" in dests  # back onto the map at the ocean edge, and on
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "unit": "GE-bb", "to": "Far East"})  # not adjacent to Europe
    assert exc.value.rule == "SSA-7.6"
    s.apply({"kind": "sail", "unit": "GE-bb", "to": "Latin America"})
    s = next_turn(s)
    assert "Europe" in s.ruleset.order_kinds["sail"].destinations(s, s.unit("GE-bb"))
    s.apply({"kind": "sail", "unit": "GE-bb", "to": "Europe"})
    assert s.unit("GE-bb").location == "Europe"


def test_ssa_7_6_far_east_only_to_and_from_the_pacific_box(ssa_game):
    s = phase(ssa_game, [{"id": "JA-bb", "nation": "JA", "type": "battle_fleet", "at": "Far East"},
                         {"id": "JA-cv", "nation": "JA", "type": "battle_fleet", "at": "Pacific"}])
    sail = s.ruleset.order_kinds["sail"]
    assert sail.destinations(s, s.unit("JA-bb")) == {"Pacific"}  # no ocean of its own
    from_pacific = sail.destinations(s, s.unit("JA-cv"))
    assert "Far East" in from_pacific and "0206" in from_pacific


# ------------------------------------------------------------------ SSA-7.4: ocean and coastal hexes only
def test_ssa_7_4_fleets_never_enter_land_or_lake_hexes(ssa_game):
    s = phase(ssa_game, [GE_FLEET])
    dests = s.ruleset.order_kinds["sail"].destinations(s, s.unit("GE-bb"))
    assert {"0303", "0306", "0201"} <= dests  # coastal and sea hexes
    assert not {"0406", "0806", "0810"} & dests  # all-land hexes and the lake at 0810
    for to in ("0406", "0810"):
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "sail", "unit": "GE-bb", "to": to})
        assert exc.value.rule == "SSA-7.4" and "only on ocean or coastal hexes" in exc.value.why
    s.apply({"kind": "sail", "unit": "GE-bb", "to": "0306"})
    assert s.unit("GE-bb").location == "0306"


def test_ssa_7_3_enemy_fleet_hex_refused_with_its_rule(ssa_game):
    s = phase(ssa_game, [GE_FLEET, {"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "0201"}])
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "unit": "GE-bb", "to": "0201"})
    assert exc.value.rule == "SSA-7.3"


# ------------------------------------------------------------------ SSA-9.3-9.5: naval stacking
def test_ssa_9_3_six_naval_units_a_hex(ssa_game):
    fleets = [{"id": f"GE-bb{i}", "nation": "GE", "type": "battle_fleet", "at": "0205"} for i in range(6)]
    s = phase(ssa_game, [*fleets, {**GE_FLEET, "id": "GE-bb6", "at": "0201"}])
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "unit": "GE-bb6", "to": "0205"})
    assert exc.value.rule == "SSA-9.3" and "already holds 6 friendly naval units" in exc.value.why
    assert not any(o["to"] == "0205" for o in s.legal_orders_of("sail") if o["unit"] == "GE-bb6")
    s.apply({"kind": "sail", "unit": "GE-bb6", "to": "0204"})


def test_ssa_9_5_enemy_naval_units_do_not_count(ssa_game):
    # five German fleets and an American submarine (which fleets may share a hex with, SSA-13.6):
    # the sixth German fleet may still join them
    fleets = [{"id": f"GE-bb{i}", "nation": "GE", "type": "battle_fleet", "at": "0205"} for i in range(5)]
    sub = {"id": "US-ss", "nation": "US", "type": "submarine", "at": "0205"}
    s = phase(ssa_game, [*fleets, sub, {**GE_FLEET, "id": "GE-bb5", "at": "0201"}])
    s.apply({"kind": "sail", "unit": "GE-bb5", "to": "0205"})
    assert sum(1 for u in s.units_by_id.values() if u.location == "0205") == 7


def test_ssa_9_4_land_air_and_naval_limits_are_separate(ssa_game):
    from workbench.rulesets.ssa.stacking import overstacked

    units = [{"id": f"US-inf{i}", "nation": "US", "type": "infantry_division", "at": "0306"} for i in range(3)]
    units += [{"id": f"US-bb{i}", "nation": "US", "type": "battle_fleet", "at": "0306"} for i in range(6)]
    units += [{"id": f"US-f{i}", "nation": "US", "type": "standard_fighter", "at": "0306"} for i in range(4)]
    s = ssa_game(units).new_state(seed=1)
    assert overstacked(s, "allies") == []  # 3 divisions + 6 fleets + 4 air units (industrial city: 4)
    from workbench.engine.units import Unit

    s.units_by_id["US-bb6"] = Unit("US-bb6", "allies", "US", "battle_fleet", None, "0306")
    assert overstacked(s, "allies") == ["0306 holds 7 naval units (limit 6)"]


# ------------------------------------------------------------------ SSA-7.7: naval transport
def test_ssa_7_7_G_convoy_picks_up_cargo_that_started_on_the_coast(ssa_game):
    tp = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0201"}
    on_coast = {"id": "GE-i1", "nation": "GE", "type": "infantry_division", "at": "0303"}
    inland = {"id": "GE-i2", "nation": "GE", "type": "infantry_division", "at": "0403"}
    s = phase(ssa_game, [tp, on_coast, inland])
    s.apply({"kind": "move", "unit": "GE-i2", "path": ["0303"]})  # moved this phase: may not embark
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "0303"})  # the convoy moves to the coastal hex
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-i2"]})
    assert exc.value.rule == "SSA-7.7" and "has not moved" in exc.value.why
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-i1"]})
    assert s.unit("GE-i1").props["carried"] == "GE-tp"


def test_ssa_7_7_the_convoy_carries_its_cargo_on_after_picking_it_up(ssa_game):
    """SSA-7.7: "The convoy moves to the coastal or port hex, picks the unit up, and moves them to
    any other port or coastal hex and debarks them" (7.1: unlimited ocean hexes) -- it sails again
    after the pick-up; debarking the cargo or entering an enemy naval ZOC (8.3) ends its movement."""
    tp = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0201"}
    on_coast = {"id": "GE-i1", "nation": "GE", "type": "infantry_division", "at": "0303"}
    s = phase(ssa_game, [tp, on_coast])
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "0303"})
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-i1"]})
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "0310"})
    assert s.unit("GE-tp").location == "0310" == s.unit("GE-i1").location
    s.apply({"kind": "debark", "convoy": "GE-tp", "units": ["GE-i1"]})
    with pytest.raises(IllegalOrder) as exc:  # one lift a phase: no shuttling back for more
        s.apply({"kind": "sail", "unit": "GE-tp", "to": "0303"})
    assert "debarked" in exc.value.why
    us = {"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "0211"}
    s = phase(ssa_game, [tp, us])
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "0210"})  # next to the US fleet: in its naval ZOC
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "unit": "GE-tp", "to": "0201"})
    assert exc.value.rule == "SSA-7.0" and "naval ZOC" in exc.value.why


def test_ssa_7_7d_cargo_does_not_affect_naval_combat(ssa_game):
    tp = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
    cargo = [{"id": f"GE-i{i}", "nation": "GE", "type": "infantry_division", "at": "0306"} for i in range(2)]
    s = phase(ssa_game, [tp, *cargo])
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-i0", "GE-i1"]})
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "0205"})
    assert [u.id for u in defending_stack(s, "allies", "0205")] == ["GE-tp"]  # as the Allies attack it


def test_ssa_7_7f_air_units_debark_only_at_a_friendly_airbase(ssa_game):
    tp = {"id": "US-tp", "nation": "US", "type": "transport", "at": "0306"}
    ftr = {"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0306"}
    inf = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0306"}
    far = {"id": "GE-bb", "nation": "GE", "type": "battle_fleet", "at": "0101"}
    s = phase(ssa_game, [tp, ftr, inf, far], side="allies")
    s.apply({"kind": "embark", "convoy": "US-tp", "units": ["US-f", "US-inf"]})
    s.apply({"kind": "sail", "unit": "US-tp", "to": "0312"})
    # 0312: a clear coastal hex 6 hexes from the transportation line, and a German fleet at 0211 cuts
    # the convoy's sea line (10.1f), so not a supplied field base
    s.unit("GE-bb").location = "0211"
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "debark", "convoy": "US-tp", "units": ["US-f"]})
    assert exc.value.rule == "SSA-7.7f" and "friendly airbase" in exc.value.why
    assert {"kind": "debark", "convoy": "US-tp", "units": ["US-f"]} not in s.legal_orders_of("debark")
    s.apply({"kind": "debark", "convoy": "US-tp", "units": ["US-inf"]})  # land units may land here
    assert s.unit("US-inf").location == "0312"
    s2 = phase(ssa_game, [{**tp, "at": "0305"}, {**ftr, "at": "0305"}], side="allies")
    s2.apply({"kind": "embark", "convoy": "US-tp", "units": ["US-f"]})
    s2.apply({"kind": "sail", "unit": "US-tp", "to": "0306"})  # Port City: an industrial city bases 4
    s2.apply({"kind": "debark", "convoy": "US-tp", "units": ["US-f"]})
    assert s2.unit("US-f").location == "0306"


def test_ssa_7_7g_no_debarking_among_enemy_land_or_naval_units(ssa_game):
    tp = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0303"}
    inf = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0303"}
    us_inf = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0305"}
    us_sub = {"id": "US-ss", "nation": "US", "type": "submarine", "at": "0308"}
    for where, rule_text in (("0305", "enemy land"), ("0308", "naval")):
        s = phase(ssa_game, [tp, inf, us_inf, us_sub])
        s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-inf"]})
        s.apply({"kind": "sail", "unit": "GE-tp", "to": where})  # convoys may enter such coastal hexes (7.3, 13.6)
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "debark", "convoy": "GE-tp", "units": ["GE-inf"]})
        assert exc.value.rule == "SSA-7.7g" and rule_text in exc.value.why


# ------------------------------------------------------------------ SSA-15: the holding boxes
def test_ssa_15_G_four_holding_boxes(ssa_game):
    s = ssa_game([]).new_state(seed=1)
    boxes = s.ruleset.tables["holding_areas"]["boxes"]
    assert set(boxes) == {"Europe", "Latin America", "Pacific", "Far East"}
    assert set(boxes) <= set(s.ruleset.boxes)
    assert boxes["Latin America"]["aliases"] == ["South America"]  # rule 15.0's name for the box (A9)


def test_ssa_15_1_no_stacking_limit_and_both_sides_share_a_box(ssa_game):
    from workbench.rulesets.ssa.stacking import overstacked

    units = [{"id": f"US-inf{i}", "nation": "US", "type": "infantry_division", "at": "Latin America"}
             for i in range(8)]
    units += [{"id": f"US-bb{i}", "nation": "US", "type": "battle_fleet", "at": "Latin America"} for i in range(9)]
    units += [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": "Latin America"}
              for i in range(5)]
    s = phase(ssa_game, [*units, {**GE_FLEET, "id": "GE-bb"}])
    assert overstacked(s, "allies") == [] and overstacked(s, "axis") == []
    s.apply({"kind": "sail", "unit": "GE-bb", "to": "Latin America"})  # the box never fills up
    s = to_step(s, "player/combat/land", "axis")
    assert not any(o["kind"] == "attack" for o in s.legal_orders())  # no combat in the box (15.2)


def test_ssa_15_2_no_combat_in_holding_areas(ssa_game):
    units = [{"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "Europe"},
             {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "Europe"},
             {"id": "GE-bb", "nation": "GE", "type": "battle_fleet", "at": "Europe"},
             {"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "Europe"}]
    s = phase(ssa_game, units, key="player/combat/naval")
    assert s.legal_orders_of("naval_attack") == []
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "naval_attack", "attackers": ["GE-bb"], "target": "Europe"})
    assert exc.value.rule == "SSA-15.2"
    s = to_step(s, "player/combat/land", "axis")
    assert s.legal_orders_of("attack") == []
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "attack", "attackers": ["GE-inf"], "targets": ["Europe"]})
    assert exc.value.rule == "SSA-15.2" and "no combat in the holding areas" in exc.value.why


def test_ssa_15_5a_into_and_out_of_boxes_only_by_sea(ssa_game):
    tp = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
    inf = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0306"}
    s = phase(ssa_game, [tp, inf, {"id": "GE-i2", "nation": "GE", "type": "infantry_division", "at": "Europe"}])
    for uid, to in (("GE-inf", "Europe"), ("GE-i2", "0306")):
        with pytest.raises(IllegalOrder):  # no land movement into or out of a box
            s.apply({"kind": "move", "unit": uid, "to": to})
    assert not any(o["unit"] == "GE-i2" for o in s.legal_orders_of("move"))
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-inf"]})
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "Europe"})
    s.apply({"kind": "debark", "convoy": "GE-tp", "units": ["GE-inf"]})
    assert s.unit("GE-inf").location == "Europe"
