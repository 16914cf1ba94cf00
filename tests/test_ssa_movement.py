"""SS Amerika land movement (SSA-5), ZOC costs (SSA-8.2) and stacking (SSA-9), on the test map."""

from __future__ import annotations

import pytest
from ssa_kit import NO_SUPPLY_MOVEMENT_PENALTY

from workbench.engine import IllegalOrder

GE_PZ = {"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0401"}
GE_INF = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0401"}


def to_step(state, key: str, side: str, limit: int = 40):
    """End steps until ``side`` owes the decision of step ``key``."""
    for _ in range(limit):
        d = state.decision
        if d.kind == key and d.side == side:
            return state
        state.advance()
    raise AssertionError(f"never reached {key} for {side}: at {state.clock}")


def moved(state, uid: str, path: list[str]) -> float:
    state.apply({"kind": "move", "unit": uid, "path": path})
    return state.unit(uid).props["mf_spent"]


@pytest.fixture
def start(ssa_game):
    def make(units):
        state = ssa_game(units, extra=NO_SUPPLY_MOVEMENT_PENALTY).new_state(seed=1)
        return to_step(state, "player/initial-movement", "axis")

    return make


def test_ssa_5_3_forestation_costs_two_mech_one_foot(start):
    s = start([GE_PZ, {**GE_INF, "at": "0601"}])
    assert moved(s, "GE-pz", ["0502"]) == 2
    assert moved(s, "GE-inf", ["0502"]) == 1


def test_ssa_5_3_rough_three_mech_two_foot_and_desert(start):
    s = start([{**GE_PZ, "at": "0803"}, {**GE_INF, "at": "0804"},
               {"id": "GE-pz2", "nation": "GE", "type": "armor_division", "at": "1109"},
               {"id": "GE-inf2", "nation": "GE", "type": "infantry_division", "at": "1110"}])
    assert moved(s, "GE-pz", ["0903"]) == 3
    assert moved(s, "GE-inf", ["0904"]) == 2
    assert moved(s, "GE-pz2", ["1209"]) == 1
    assert moved(s, "GE-inf2", ["1210"]) == 2


def test_ssa_5_3_mountains_prohibited_to_mech_and_four_for_foot(start):
    s = start([{**GE_PZ, "at": "0902"}, {**GE_INF, "at": "0903"}])
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "GE-pz", "path": ["1002"]})
    assert exc.value.rule == "SSA-5.3" and "mountains (1002) is prohibited to mechanized" in exc.value.why
    assert moved(s, "GE-inf", ["1003"]) == 4


def test_ssa_tec_river_costs_two_mech_one_foot(start):
    s = start([{**GE_PZ, "at": "0704"}, {**GE_INF, "at": "0703"}])
    assert moved(s, "GE-pz", ["0804"]) == 1 + 2  # clear + river
    assert moved(s, "GE-inf", ["0803"]) == 1 + 1


def test_ssa_5_8_road_half_mf_per_hex_even_into_mountains(start):
    s = start([{**GE_PZ, "at": "0406"}])
    # along the line 0406 -> 1006: six hexes at 1/2 each, the river bridged and the mountains passable
    assert moved(s, "GE-pz", ["0506", "0606", "0706", "0806", "0906", "1006"]) == 3.0


def test_ssa_5_5_zoc_enter_plus_one_leave_plus_one_zoc_to_zoc_plus_two(start):
    us = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0905"}
    s = start([{**GE_INF, "at": "0704"}, us])
    # 0804 is adjacent to 0905: entering it costs clear 1 + river 1 + ZOC 1
    assert moved(s, "GE-inf", ["0804"]) == 3
    s2 = start([{**GE_INF, "at": "0804"}, us])
    # 0804 -> 0805: both adjacent to 0905: ZOC to ZOC +2 in total (A18)
    assert moved(s2, "GE-inf", ["0805"]) == 1 + 2
    s3 = start([{**GE_INF, "at": "0804"}, us])
    # leaving: 0804 -> 0803 (0803 not adjacent to 0905): clear 1 + leave 1
    assert moved(s3, "GE-inf", ["0803"]) == 2


def test_ssa_5_G_move_by_destination_takes_the_cheapest_route(start):
    s = start([{**GE_PZ, "at": "0406"}])
    moves = {o["to"] for o in s.legal_orders_of("move") if o["unit"] == "GE-pz"}
    assert "1006" in moves  # by road through the mountains
    s.apply({"kind": "move", "unit": "GE-pz", "to": "0906"})
    assert s.unit("GE-pz").props["mf_spent"] == 2.5  # five road hexes at 1/2
    import json

    assert json.loads(s.events().filter(kind="move")["data"].item())["path"] == ["0506", "0606", "0706", "0806", "0906"]
    with pytest.raises(IllegalOrder, match="has 5.5 movement points; the cheapest route to 0312 costs"):
        s.apply({"kind": "move", "unit": "GE-pz", "to": "0312"})


def test_ssa_5_1_never_enter_enemy_hex(start):
    s = start([{**GE_INF, "at": "0804"}, {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0905"}])
    before = s.digest()
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "GE-inf", "path": ["0905"]})
    assert exc.value.rule == "SSA-5.1"
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "GE-inf", "to": "0905"})
    assert exc.value.rule == "SSA-5.1"
    assert s.digest() == before


def test_ssa_5_4_minimum_move_one_hex(start, ssa_game):
    gun = {"id": "US-gun", "nation": "US", "type": "railroad_gun", "at": "0804"}  # MF 1
    state = ssa_game([gun, {**GE_INF, "at": "1109"}]).new_state(seed=1)
    s = to_step(state, "player/initial-movement", "allies")
    # rough costs 2 but a unit may always move one hex
    s.apply({"kind": "move", "unit": "US-gun", "path": ["0904"]})
    assert s.unit("US-gun").location == "0904"
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "move", "unit": "US-gun", "path": ["0903"]})


def test_ssa_5_4_no_minimum_move_from_zoc_to_zoc(start, ssa_game):
    gun = {"id": "US-gun", "nation": "US", "type": "railroad_gun", "at": "0804"}
    ge = {**GE_INF, "at": "0905"}  # 0804 and 0805 both in its ZOC
    state = ssa_game([gun, ge], extra=NO_SUPPLY_MOVEMENT_PENALTY).new_state(seed=1)
    s = to_step(state, "player/initial-movement", "allies")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "US-gun", "path": ["0805"]})
    assert exc.value.rule == "SSA-5.2"


def test_ssa_4_2e_only_mechanized_units_move_in_mechanized_phase(start):
    s = start([{**GE_PZ, "at": "0401"}, {**GE_INF, "at": "0601"}])
    s = to_step(s, "player/mechanized-movement", "axis")
    assert moved(s, "GE-pz", ["0402"]) == 1
    with pytest.raises(IllegalOrder, match="may not move now"):
        s.apply({"kind": "move", "unit": "GE-inf", "path": ["0602"]})


def test_ssa_5_2_mf_do_not_carry_over(start):
    s = start([{**GE_INF, "at": "0601"}])
    moved(s, "GE-inf", ["0602"])
    s = to_step(s, "player/initial-movement", "allies")
    assert "mf_spent" not in s.unit("GE-inf").props


def test_ssa_9_1_stack_limit_at_the_end_of_a_move_not_while_passing(start):
    units = [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": "0601"} for i in range(3)]
    units.append({"id": "GE-reg", "nation": "GE", "type": "military_government", "at": "0602"})
    s = start(units)
    before = s.digest()
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "GE-reg", "path": ["0601"]})
    assert exc.value.rule == "SSA-9.1" and "would hold 3.33333 land division-equivalents" in exc.value.why
    assert s.digest() == before
    assert not any(o["to"] == "0601" for o in s.legal_orders_of("move") if o["unit"] == "GE-reg")
    s.apply({"kind": "move", "unit": "GE-reg", "path": ["0601", "0501"]})  # passing through is free
    assert s.unit("GE-reg").location == "0501"


def test_ssa_9_G_overstack_left_at_the_end_of_a_phase_loses_the_weakest(start):
    from workbench.engine.units import Unit
    from workbench.rulesets.ssa.stacking import overstacked

    s = start([{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": "0601"} for i in range(3)])
    s.units_by_id["GE-x"] = Unit("GE-x", "axis", "GE", "infantry_division", "division", "0601", reduced=True)
    assert overstacked(s, "axis") == ["0601 holds 4 land division-equivalents (limit 3)"]
    s.advance()  # ending the phase settles it: the weakest unit (reduced, CF 5) goes
    assert s.unit("GE-x").location == "Eliminated"
    assert overstacked(s, "axis") == []
    assert s.events().filter(kind="eliminated")["rule"].to_list() == ["SSA-9.1"]


def test_ssa_9_1_three_regiments_plus_two_divisions_fit(start):
    units = [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": "0601"} for i in range(2)]
    units += [{"id": f"GE-mg{i}", "nation": "GE", "type": "military_government", "at": "0601"} for i in range(3)]
    s = start(units)
    s.advance()  # 2 + 3 x 1/3 = 3: legal
    assert s.decision.kind != "player/initial-movement" or s.decision.side != "axis"


class TestRail:
    def test_ssa_5_7_rail_unlimited_along_controlled_line(self, start):
        s = start([{**GE_INF, "at": "0306"}])
        # the test map's [control] gives US hexes to the Allies: rail stops in the first one
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "rail", "unit": "GE-inf", "path": ["0406", "0506"]})
        assert exc.value.rule == "SSA-5.7b"
        s.apply({"kind": "rail", "unit": "GE-inf", "path": ["0406"]})
        assert s.unit("GE-inf").location == "0406"

    def test_ssa_5_7g_axis_limited_to_two_divisions(self, start, ssa_game):
        units = [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": f"{3 + i:02d}06"}
                 for i in range(3)]
        state = ssa_game(units, extra='[tracks]\n' + NO_SUPPLY_MOVEMENT_PENALTY).new_state(seed=1)
        import numpy as np

        state.arrays["control"] = np.full(state.map.size, 1, dtype=np.int8)  # all Axis-controlled
        s = to_step(state, "player/initial-movement", "axis")
        s.apply({"kind": "rail", "unit": "GE-inf2", "path": ["0606", "0706", "0806", "0906"]})
        s.apply({"kind": "rail", "unit": "GE-inf1", "path": ["0506"]})
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "rail", "unit": "GE-inf0", "path": ["0406"]})
        assert exc.value.rule == "SSA-5.7g" and "2 divisions" in exc.value.why

    def test_ssa_5_7b_not_from_next_to_enemy(self, start):
        s = start([{**GE_INF, "at": "0306"}, {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0305"}])
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "rail", "unit": "GE-inf", "path": ["0406"]})
        assert exc.value.rule == "SSA-5.7b"

    def test_ssa_5_7b_an_enemy_fleet_next_door_does_not_stop_rail(self, start):
        """SSA-5.7b: "The unit may not begin adjacent to an enemy land unit" -- a battle fleet at sea
        in 0206, next to 0306, is no land unit."""
        s = start([{**GE_INF, "at": "0306"}, {"id": "US-bf", "nation": "US", "type": "battle_fleet", "at": "0206"}])
        s.apply({"kind": "rail", "unit": "GE-inf", "path": ["0406"]})
        assert s.unit("GE-inf").location == "0406"

    def test_ssa_5_7d_rail_only_in_initial_movement(self, start):
        s = start([{**GE_PZ, "at": "0306"}])
        s = to_step(s, "player/mechanized-movement", "axis")
        assert "rail" not in s.decision.kinds
        with pytest.raises(IllegalOrder, match="not open now"):
            s.apply({"kind": "rail", "unit": "GE-pz", "path": ["0406"]})

    def test_ssa_5_7_rail_by_destination(self, start, ssa_game):
        import numpy as np

        state = ssa_game([{**GE_INF, "at": "0306"}], extra=NO_SUPPLY_MOVEMENT_PENALTY).new_state(seed=1)
        state.arrays["control"] = np.full(state.map.size, 1, dtype=np.int8)
        s = to_step(state, "player/initial-movement", "axis")
        dests = {o["to"] for o in s.legal_orders_of("rail")}
        assert dests == {f"{c:02d}06" for c in range(4, 15)}  # the whole line, unlimited distance
        s.apply({"kind": "rail", "unit": "GE-inf", "to": "1406"})
        assert s.unit("GE-inf").location == "1406"
        assert s.events().filter(kind="rail")["text"].item() == "GE-inf moves by rail 0306 → 1406"

    def test_ssa_5_7a_must_follow_the_line(self, start):
        s = start([{**GE_INF, "at": "0306"}])
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "rail", "unit": "GE-inf", "path": ["0307"]})
        assert exc.value.rule == "SSA-5.7a"
