"""SS Amerika mobilization (SSA-16) on the test map: Port City (0306) and Mill Town (0806) are
US industrial cities, Border Town (1306) a Canadian non-industrial city."""

from __future__ import annotations

import pytest
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder
from workbench.rulesets.ssa.mobilization import accrue, income


def state_of(ssa_game, units=(), first="1943-01", tracks=""):
    extra = "[tracks]\n" + tracks if tracks else ""
    return ssa_game(list(units), first=first, last=first, extra=extra).new_state(seed=1)


def test_ssa_16_6ab_axis_fixed_income(ssa_game):
    inc = income(state_of(ssa_game, first="1943-01"))
    assert inc["GE"]["industrial"] == 15 and inc["GE"]["non_industrial"] == 15
    assert inc["JA"]["industrial"] == 5 and inc["JA"]["non_industrial"] == 10


def test_ssa_16_13b_axis_industrial_halved_before_1943(ssa_game):
    inc = income(state_of(ssa_game, first="1942-12"))
    assert inc["GE"]["industrial"] == 8 and inc["GE"]["non_industrial"] == 15  # 15 / 2 rounded up
    assert inc["JA"]["industrial"] == 3


def test_ssa_16_1_allied_points_per_controlled_city(ssa_game):
    inc = income(state_of(ssa_game, first="1942-01"))
    assert inc["US"] == {"industrial": 2, "non_industrial": 0}  # two industrial hexes
    assert inc["BC"] == {"industrial": 0, "non_industrial": 1}  # one non-industrial city


def test_ssa_16_13a_allied_industrial_halved_before_1942(ssa_game):
    assert income(state_of(ssa_game, first="1941-12"))["US"]["industrial"] == 1  # 2 / 2


def test_ssa_12_3a_bombed_city_gives_no_points(ssa_game):
    import numpy as np

    s = state_of(ssa_game, first="1942-01")
    s.arrays["bombed"] = np.zeros(s.map.size, dtype=bool)
    s.arrays["bombed"][s.map.index("0806")] = True
    assert income(s)["US"]["industrial"] == 1


def test_ssa_16_3_unspent_points_carry_over(ssa_game):
    s = state_of(ssa_game, first="1943-01", tracks='"GE.mp.industrial" = 4\n')
    s = to_step(s, "mobilization/spend", "axis")
    assert s.tracks["GE.mp.industrial"] == 4 + 15  # accrued on turn 1 on top of the carried 4
    accrue(s)
    assert s.tracks["GE.mp.industrial"] == 4 + 30


def test_ssa_16_10a_half_volunteer_point_per_collaboration_city_rounded_up(ssa_game):
    s = state_of(ssa_game, first="1943-01")
    s.markers["city_control"]["1306"] = "axis"
    s.markers["policy"] = {"1306": "collaboration"}
    assert income(s)["GE"]["volunteer"] == 1


def test_ssa_16_6cd_captured_atrocity_industry_needs_a_trace(ssa_game):
    s = state_of(ssa_game, first="1943-01")
    s.markers["city_control"]["0806"] = "axis"
    s.markers["atrocity"] = ["0806"]
    assert income(s)["GE"]["industrial"] == 15  # no convoy at a port: no trace
    s2 = state_of(ssa_game, [{"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}], first="1943-01")
    s2.markers["city_control"]["0806"] = "axis"
    s2.markers["atrocity"] = ["0806"]
    assert income(s2)["GE"]["industrial"] == 16  # along the line 0806 -> 0306, convoy in port


@pytest.fixture
def spend(ssa_game):
    def make(tracks):
        s = state_of(ssa_game, first="1943-01", tracks=tracks)
        return to_step(s, "mobilization/spend", "axis")

    return make


def test_ssa_16_2_non_industrial_points_buy_only_non_mechanized(spend):
    s = spend('"GE.mp.industrial" = -15\n"GE.mp.non_industrial" = 5\n')  # after income: 0 I, 20 NI
    assert s.tracks["GE.mp.industrial"] == 0 and s.tracks["GE.mp.non_industrial"] == 20
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "mobilize", "nation": "GE", "type": "armor_division", "at": "Europe"})
    assert exc.value.rule == "SSA-16.2"
    s.apply({"kind": "mobilize", "nation": "GE", "type": "infantry_division", "at": "Europe"})
    assert s.tracks["GE.mp.non_industrial"] == 16  # infantry costs 4 (mobilization.toml)
    assert s.units().filter(type="infantry_division", location="Europe").height == 1


def test_ssa_16_6_german_points_build_in_europe(spend):
    s = spend("")
    kinds = {(o["nation"], o["at"]) for o in s.legal_orders_of("mobilize")}
    assert ("GE", "Europe") in kinds and ("JA", "Far East") in kinds
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "mobilize", "nation": "GE", "type": "infantry_division", "at": "0306"})


def test_ssa_16_14_air_demobilization_refunds_half_rounded_up(ssa_game):
    s = state_of(ssa_game, [{"id": "GE-ftr", "nation": "GE", "type": "standard_fighter", "at": "Europe"}])
    s = to_step(s, "mobilization/spend", "axis")
    before = s.tracks["GE.mp.industrial"]
    s.apply({"kind": "demobilize", "unit": "GE-ftr"})
    assert s.tracks["GE.mp.industrial"] == before + 3  # fighter costs 6
    assert s.unit("GE-ftr").location == "Force pool"
    assert {"kind": "demobilize", "unit": "GE-ftr"} not in s.legal_orders_of("demobilize")  # not twice


def test_ssa_16_14_only_a_supplied_air_unit_may_be_demobilized(ssa_game):
    # Mill Town (0806) is a supplied base; 0812 is 6 hexes from the Allied line (over the 4 MP of
    # SSA-6.3a); in Europe an Allied unit needs a logistic unit and a transport (SSA-15.6).
    units = [{"id": "US-city", "nation": "US", "type": "standard_fighter", "at": "0806"},
             {"id": "US-cut", "nation": "US", "type": "standard_fighter", "at": "0812"},
             {"id": "US-box", "nation": "US", "type": "standard_fighter", "at": "Europe"}]
    s = to_step(state_of(ssa_game, units), "mobilization/spend", "allies")
    assert s.legal_orders_of("demobilize") == [{"kind": "demobilize", "unit": "US-city"}]
    for uid in ("US-cut", "US-box"):
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "demobilize", "unit": uid})
        assert exc.value.rule == "SSA-16.14" and "out of supply" in exc.value.why
    before = s.tracks["US.mp.industrial"]
    s.apply({"kind": "demobilize", "unit": "US-city"})
    assert s.tracks["US.mp.industrial"] == before + 3
