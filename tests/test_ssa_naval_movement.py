"""SS Amerika naval movement and sea transport (SSA-7, 8.3) on the test map (sea in columns 01-02)."""

from __future__ import annotations

import pytest
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder

GE_FLEET = {"id": "GE-bb", "nation": "GE", "type": "battle_fleet", "at": "0201"}
US_FLEET = {"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "0206"}


def initial(ssa_game, units):
    return to_step(ssa_game(units).new_state(seed=1), "player/initial-movement", "axis")


def test_ssa_7_1_unlimited_sea_movement(ssa_game):
    s = initial(ssa_game, [GE_FLEET])
    s.apply({"kind": "sail", "unit": "GE-bb", "to": "0212"})  # 11 hexes: no limit
    assert s.unit("GE-bb").location == "0212"


def test_ssa_8_3_entering_enemy_naval_zoc_ends_the_move_and_7_3_no_entry(ssa_game):
    s = initial(ssa_game, [GE_FLEET, US_FLEET])
    sail = s.ruleset.order_kinds["sail"]
    reach = sail.destinations(s, s.unit("GE-bb"))
    assert "0205" in reach  # a ZOC hex: the move may end there
    assert "0206" not in reach  # the enemy fleet's own hex (SSA-7.3)
    assert "0210" not in reach  # beyond the ZOC screen
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "unit": "GE-bb", "to": "0210"})
    assert exc.value.rule == "SSA-8.3"


def test_ssa_13_6_submarines_do_not_stop_fleets(ssa_game):
    sub = {**US_FLEET, "id": "US-ss", "type": "submarine"}
    s = initial(ssa_game, [GE_FLEET, sub])
    assert "0210" in s.ruleset.order_kinds["sail"].destinations(s, s.unit("GE-bb"))


def test_ssa_7_7a_convoy_carries_four_transport_points(ssa_game):
    cargo = [{"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0306"},  # 2 TP (7.7b)
             {"id": "GE-i1", "nation": "GE", "type": "infantry_division", "at": "0306"},  # 1 TP
             {"id": "GE-i2", "nation": "GE", "type": "infantry_division", "at": "0305"},  # 1 TP
             {"id": "GE-i3", "nation": "GE", "type": "infantry_division", "at": "0305"}]
    tp = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
    s = initial(ssa_game, [tp, *cargo])
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-pz", "GE-i1"]})  # 3 TP
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "0305"})
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-i2", "GE-i3"]})  # 5 > 4
    assert exc.value.rule == "SSA-7.7a"
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-i2"]})  # exactly 4
    assert s.unit("GE-i2").props["carried"] == "GE-tp"
    reduced = {**tp, "id": "GE-tp2", "reduced": True}
    s2 = initial(ssa_game, [reduced, *cargo])
    with pytest.raises(IllegalOrder) as exc2:
        s2.apply({"kind": "embark", "convoy": "GE-tp2", "units": ["GE-pz", "GE-i1"]})  # 3 > 2
    assert exc2.value.rule == "SSA-7.7a"


def test_ssa_7_7c_cargo_sails_with_the_convoy_and_debarks_on_a_coast(ssa_game):
    tp = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
    inf = {"id": "GE-i1", "nation": "GE", "type": "infantry_division", "at": "0306"}
    s = initial(ssa_game, [tp, inf])
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-i1"]})
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "0210"})
    assert s.unit("GE-i1").location == "0210"
    with pytest.raises(IllegalOrder) as exc:  # at sea: cargo stays aboard (SSA-7.7e)
        s.apply({"kind": "debark", "convoy": "GE-tp", "units": ["GE-i1"]})
    assert exc.value.rule == "SSA-7.7e"
