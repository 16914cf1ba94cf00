"""SS Amerika interception (SSA-4.2c, 6.5; procedure authored in air.toml, results crt.toml
[results.interception]).  The Axis flies from field bases supplied through the convoy in Port
City; US fighters (air-to-air 4, range 6) intercept from Mill Town 0806."""

from __future__ import annotations

import json

import pytest
from test_ssa_air import refused
from test_ssa_combat import FixedDice
from test_ssa_movement import to_step

CONVOY = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}
GE_TB = {"id": "GE-tb", "nation": "GE", "type": "tactical_bomber", "at": "0404"}  # air-to-air (1)
GE_F = {"id": "GE-f", "nation": "GE", "type": "standard_fighter", "at": "0405"}  # air-to-air 5
US_INF = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0605"}
US_F = [{"id": f"US-f{i}", "nation": "US", "type": "standard_fighter", "at": "0806"} for i in (1, 2)]
FROZEN = '[[special_rules]]\neffect = "side_frozen"\nside = "allies"\nturns = [1]\n'


@pytest.fixture
def raid(ssa_game):
    def make(units, escort=False, *faces, extra=""):
        s = ssa_game(units, extra=extra).new_state(seed=1)
        s = to_step(s, "player/initial-movement", "axis")
        s.apply({"kind": "fly", "unit": "GE-tb", "to": "0605", "mission": "interdict_ground"})
        if escort:
            s.apply({"kind": "fly", "unit": "GE-f", "to": "0605", "mission": "interdict_ground"})
        s = to_step(s, "player/interception", "allies")
        s.dice = FixedDice(*faces)
        return s

    return make


def last(s):
    return json.loads(s.events().filter(kind="intercept")["data"].to_list()[-1])


def test_ssa_4_2c_the_non_phasing_player_intercepts(raid):
    s = raid([CONVOY, GE_TB, US_INF, *US_F], False, 1)
    assert s.decision.side == "allies" and "intercept" in s.decision.kinds
    assert {"kind": "intercept", "units": ["US-f1", "US-f2"], "target": "0605"} in s.legal_orders()


def test_ssa_6_5_unescorted_bomber_destroyed_on_dz(raid):
    s = raid([CONVOY, GE_TB, US_INF, *US_F], False, 1)
    s.apply({"kind": "intercept", "units": ["US-f1", "US-f2"], "target": "0605"})
    c = last(s)
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (8, 1, "8-1", "DZ")
    assert s.unit("GE-tb").location == "Eliminated"
    assert s.events().filter(kind="roll")["rule"].to_list()[-1] == "SSA-6.5"


def test_ssa_6_5_dr_aborts_the_mission(raid):
    s = raid([CONVOY, GE_TB, GE_F, US_INF, *US_F], True, 1)
    s.apply({"kind": "intercept", "units": ["US-f1", "US-f2"], "target": "0605"})
    assert (last(s)["defense"], last(s)["column"], last(s)["result"]) == (6, "1-1", "DR")  # escort 5 + (1)
    assert s.unit("GE-tb").props["mission"] == "aborted"
    s = to_step(s, "player/combat/air", "axis")
    assert s.legal_orders_of("interdict") == []


def test_ssa_14_G_ex_each_owner_chooses_his_air_loss(raid):
    s = raid([CONVOY, GE_TB, GE_F, US_INF, *US_F], True, 3)  # 1-1, die 3: EX
    s.apply({"kind": "intercept", "units": ["US-f1", "US-f2"], "target": "0605"})
    assert last(s)["result"] == "EX"
    assert s.decision.side == "allies" and s.decision.kind == "choose_losses"
    s.apply({"kind": "choose_losses", "units": ["US-f2"]})
    assert s.decision.side == "axis"
    s.apply({"kind": "choose_losses", "units": ["GE-f"]})
    assert s.unit("GE-f").location == s.unit("US-f2").location == "Eliminated"
    assert s.unit("GE-tb").props["mission"] == "interdict_ground"  # EX: the mission carries on


def test_ssa_6_5_interceptors_return_to_base_after_the_mechanized_phase(raid):
    s = raid([CONVOY, GE_TB, GE_F, US_INF, *US_F], True, 5)  # 1-1, die 5: AR
    s.apply({"kind": "intercept", "units": ["US-f1"], "target": "0605"})
    assert s.unit("US-f1").location == "0605" and s.unit("US-f1").props["intercepting"]
    s = to_step(s, "player/mechanized-movement", "axis")
    s.advance()
    u = s.unit("US-f1")
    assert (u.location, u.props.get("flying")) == ("0806", None)


def test_ssa_6_5_one_interception_per_hex_and_range(raid):
    far = {"id": "US-far", "nation": "US", "type": "standard_fighter", "at": "1306"}  # 7 hexes from 0605
    s = raid([CONVOY, GE_TB, US_INF, *US_F, far], False, 5)
    e = refused(s, {"kind": "intercept", "units": ["US-far"], "target": "0605"}, "SSA-6.2")
    assert "range of 6" in e.why
    s.apply({"kind": "intercept", "units": ["US-f1"], "target": "0605"})
    refused(s, {"kind": "intercept", "units": ["US-f2"], "target": "0605"}, "SSA-6.5")


def test_ssa_6_5_parenthesized_air_to_air_cannot_intercept(raid):
    tb = {"id": "US-tb", "nation": "US", "type": "tactical_bomber", "at": "0806"}
    s = raid([CONVOY, GE_TB, US_INF, tb], False, 1)
    refused(s, {"kind": "intercept", "units": ["US-tb"], "target": "0605"}, "SSA-6.5")


def test_ssa_sc0_sr2_frozen_side_may_not_intercept(raid):
    s = raid([CONVOY, GE_TB, US_INF, *US_F], False, 1, extra=FROZEN)
    assert s.legal_orders_of("intercept") == []
    e = refused(s, {"kind": "intercept", "units": ["US-f1"], "target": "0605"}, "SSA-SC")
    assert "special rule" in e.why
