"""SS Amerika scorched earth (optional rule SSA-29) with scripted dice on the test map: Mill Town
(0806) is a US industrial city; US infantry divisions are 7-5, German 8-5."""

from __future__ import annotations

import json

import numpy as np
import pytest
from ssa_kit import build_ssa_canal_map, built_map_dir, scenario_text
from test_ssa_air import refused
from test_ssa_combat import FixedDice
from test_ssa_movement import to_step

from workbench.engine import load_scenario
from workbench.rulesets.ssa.mobilization import income

ON = '[options]\noptional_rules = ["SSA-29"]\n[tracks]\n"axis.morale" = 60\n"allies.morale" = 50\n'


def inf(uid, at="0806", nation="US", utype="infantry_division"):
    return {"id": uid, "nation": nation, "type": utype, "at": at}


@pytest.fixture
def fight(ssa_game):
    def make(units, side, *faces, extra=ON):
        s = to_step(ssa_game(units, extra=extra).new_state(seed=1), "player/combat/land", side)
        s.dice = FixedDice(*faces)
        return s

    return make


def bombed(s, label):
    b = s.arrays.get("bombed")
    return b is not None and bool(b[s.map.index(label)])


def test_ssa_29_3_scorch_succeeds_at_or_under_cf(fight):
    s = fight([inf("US-1")], "allies", 3, 4)  # 7 <= CF 7
    assert {"kind": "scorch", "unit": "US-1"} in s.legal_orders_of("scorch")
    s.apply({"kind": "scorch", "unit": "US-1"})
    assert bombed(s, "0806")
    roll = s.events().filter(kind="roll").row(-1, named=True)
    assert roll["rule"] == "SSA-29.3" and "rolled 3+4" in roll["text"]
    ev = json.loads(s.events().filter(kind="scorched_earth")["data"].to_list()[-1])
    assert (ev["cf"], ev["total"], ev["success"]) == (7, 7, True)


def test_ssa_29_3_scorch_fails_over_cf(fight):
    s = fight([inf("US-1")], "allies", 4, 4)  # 8 > 7
    s.apply({"kind": "scorch", "unit": "US-1"})
    assert not bombed(s, "0806") and s.tracks["allies.morale"] == 50


def test_ssa_29_3_cf_halved_out_of_supply(fight):
    s = fight([inf("GE-1", nation="GE")], "axis", 2, 3, 2, 2)  # no convoy: 8 halved = 4
    s.apply({"kind": "scorch", "unit": "GE-1"})
    assert not bombed(s, "0806")  # 5 > 4
    ev = json.loads(s.events().filter(kind="scorched_earth")["data"].to_list()[-1])
    assert ev["cf"] == 4
    s.unit("GE-1").props.pop("attacked")  # the next phase, say
    s.apply({"kind": "scorch", "unit": "GE-1"})
    assert bombed(s, "0806")  # 4 <= 4


def test_ssa_29_3_in_place_of_combat(fight):
    s = fight([inf("US-1", at="0505"), inf("GE-1", at="0506", nation="GE"), inf("US-2")], "allies", 1, 1)
    s.apply({"kind": "scorch", "unit": "US-2"})
    refused(s, {"kind": "scorch", "unit": "US-2"}, "SSA-29.3")  # once
    s = fight([inf("US-1", at="0705"), inf("GE-1", at="0706", nation="GE")], "allies", 1, 1)
    s.unit("US-1").location = "0806"  # a city next to the German (0806 touches 0706)
    assert [o for o in s.legal_orders_of("attack") if o["attackers"] == ["US-1"]]
    s.apply({"kind": "scorch", "unit": "US-1"})
    assert not [o for o in s.legal_orders_of("attack") if "US-1" in o["attackers"]]  # it may not also attack


def test_ssa_29_6_axis_success_raises_allied_morale_by_one(fight):
    s = fight([inf("GE-1", nation="GE")], "axis", 1, 1)
    s.apply({"kind": "scorch", "unit": "GE-1"})
    assert s.tracks["allies.morale"] == 51 and s.tracks["axis.morale"] == 60
    assert s.events().filter(kind="morale").row(-1, named=True)["rule"] == "SSA-29.6"


def test_ssa_29_6_allied_success_lowers_allied_morale_by_one(fight):
    s = fight([inf("US-1")], "allies", 1, 1)
    s.apply({"kind": "scorch", "unit": "US-1"})
    assert s.tracks["allies.morale"] == 49 and s.tracks["axis.morale"] == 60


def test_ssa_29_4_the_marker_has_the_strategic_bombing_effects(fight):
    s = fight([inf("US-1")], "allies", 1, 1)
    assert income(s)["US"]["industrial"] == 2
    s.apply({"kind": "scorch", "unit": "US-1"})
    assert income(s)["US"]["industrial"] == 1  # SSA-12.3a: a bombed industrial hex yields no MP
    ev = s.events().filter(kind="bombed").row(-1, named=True)
    assert ev["rule"] == "SSA-29.4" and "scorched earth" in ev["text"]
    refused(s, {"kind": "scorch", "unit": "US-1"}, "SSA-29.3")


def test_ssa_29_5_several_units_each_roll_separately(fight):
    s = fight([inf("US-1"), inf("US-2"), inf("US-3")], "allies", 6, 6, 2, 3)
    s.apply({"kind": "scorch", "unit": "US-1"})
    assert not bombed(s, "0806")
    s.apply({"kind": "scorch", "unit": "US-2"})
    assert bombed(s, "0806")
    assert s.events().filter(kind="roll", rule="SSA-29.3").height == 2
    refused(s, {"kind": "scorch", "unit": "US-3"}, "SSA-29.4")  # nothing left to scorch


def test_ssa_29_2_division_size_land_units_not_logistics(fight):
    s = fight([inf("US-cdo", utype="commando_brigade"), inf("US-log", utype="nonmotorized_logistic_corps"),
               inf("US-1")], "allies", 1, 1)
    assert s.legal_orders_of("scorch") == [{"kind": "scorch", "unit": "US-1"}]
    assert "brigade" in refused(s, {"kind": "scorch", "unit": "US-cdo"}, "SSA-29.2").why
    assert "logistics" in refused(s, {"kind": "scorch", "unit": "US-log"}, "SSA-29.2").why


def test_ssa_29_1_only_cities_and_the_panama_canal(fight, tmp_path_factory, tmp_path):
    s = fight([inf("US-1", at="0505")], "allies", 1, 1)
    refused(s, {"kind": "scorch", "unit": "US-1"}, "SSA-29.1")
    canal = built_map_dir(tmp_path_factory, "ssa-canalland", build_ssa_canal_map)
    path = tmp_path / "canal.toml"
    path.write_text(scenario_text(canal, [inf("US-1", at="0812")], extra=ON))
    s = to_step(load_scenario(path).new_state(seed=1), "player/combat/land", "allies")
    s.dice = FixedDice(1, 1)
    s.apply({"kind": "scorch", "unit": "US-1"})
    assert bombed(s, "0812")


def test_ssa_29_not_without_the_optional_rule(fight):
    s = fight([inf("US-1")], "allies", 1, 1, extra="")
    assert s.legal_orders_of("scorch") == []
    refused(s, {"kind": "scorch", "unit": "US-1"}, "SSA-29")
    assert not np.any(s.arrays.get("bombed", np.zeros(1, dtype=bool)))
