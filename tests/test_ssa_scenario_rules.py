"""SS Amerika scenario sections: historical notes (SSA-SC.1), forces by category (SSA-SC.3) and
special rules overriding the standard rules (SSA-SC.6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_ssa_air import refused

from workbench.engine import load_scenario
from workbench.rulesets.ssa import technology

SCENARIOS = sorted(Path("scenarios/ssa").glob("*.toml"))

POOL = '''
[[pools]]
id = "GE-air"
nation = "GE"
total = 3
allowed = ["standard_fighter", "tactical_bomber", "air_cargo", "jet_fighter"]
carrier_qualified = 1
carrier_qualified_types = ["standard_fighter", "tactical_bomber"]
rule = "SSA-SC1 German Air"
text = "Choice of any three fighters, bombers and air cargo."
'''
UNITS = [{"id": "GE-ftr", "nation": "GE", "type": "standard_fighter", "at": "0404", "pool": "GE-air"},
         {"id": "GE-cq", "nation": "GE", "type": "standard_fighter", "at": "0404", "pool": "GE-air",
          "carrier_qualified": True},
         {"id": "GE-tb", "nation": "GE", "type": "tactical_bomber", "at": "0404", "pool": "GE-air"},
         {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0405"}]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_ssa_sc_1_every_scenario_carries_its_historical_notes(path):
    sc = load_scenario(path).scenario
    text = sc.raw.get("description", "")
    assert len(text.split()) >= 25, "the alternative history behind the scenario (SSA-SC.1)"
    assert sc.first_turn[:4] in text or "19" in text  # it sets the scene in its own time


@pytest.fixture
def setup(ssa_game):
    def make(extra=""):
        s = ssa_game(UNITS, extra=POOL + extra).new_state(seed=1)
        assert s.decision.kind == "start/setup" and s.decision.side == "axis"
        return s

    return make


def test_ssa_sc_3_the_owner_picks_which_counters_fill_a_category(setup):
    s = setup()
    picks = {(o["unit"], o["type"]) for o in s.legal_orders_of("pick")}
    assert ("GE-ftr", "air_cargo") in picks and ("GE-tb", "standard_fighter") in picks
    assert not any(u == "GE-inf" for u, _ in picks)  # printed as itself, no category
    s.apply({"kind": "pick", "unit": "GE-ftr", "type": "air_cargo"})
    assert s.unit("GE-ftr").type == "air_cargo"
    pooled = [u for u in s.units_by_id.values() if u.props.get("pool") == "GE-air"]
    assert len(pooled) == 3  # the category's total is unchanged
    refused(s, {"kind": "pick", "unit": "GE-inf", "type": "armor_division"}, "SSA-SC.3")
    refused(s, {"kind": "pick", "unit": "GE-tb", "type": "strategic_bomber"}, "SSA-SC.3")  # not allowed


def test_ssa_sc_3_carrier_qualified_counters_stay_carrier_types(setup):
    s = setup()
    s.apply({"kind": "pick", "unit": "GE-cq", "type": "tactical_bomber"})
    refused(s, {"kind": "pick", "unit": "GE-cq", "type": "air_cargo"}, "SSA-SC.3")


def test_ssa_sc_3_a_category_cannot_hold_types_without_their_development(setup):
    s = setup()
    refused(s, {"kind": "pick", "unit": "GE-ftr", "type": "jet_fighter"}, "SSA-23.G")
    s = setup('[technologies]\nGE = ["jet_fighter"]\n')
    s.apply({"kind": "pick", "unit": "GE-ftr", "type": "jet_fighter"})
    assert s.unit("GE-ftr").type == "jet_fighter"


def test_ssa_sc_3_the_1941_german_air_category_can_be_refilled():
    s = load_scenario("scenarios/ssa/1941.toml").new_state(seed=1)
    while s.decision.side != "axis":
        s.advance()
    picks = s.legal_orders_of("pick")
    assert {o["type"] for o in picks} == {"standard_fighter", "tactical_bomber", "air_cargo"}
    s.apply({"kind": "pick", "unit": "GE-cargo", "type": "tactical_bomber"})
    assert s.unit("GE-cargo").type == "tactical_bomber"


def test_ssa_sc_6_special_rules_override_the_standard_rules(ssa_game):
    """SC0 SR1 bars the optional rules even if the options switch them on; SC0 SR3 (no
    mobilization) removes the standard Spend step's orders."""
    bar = ('[options]\noptional_rules = ["SSA-23"]\n[[special_rules]]\nid = "SR1"\nrule = "SC0 SR1"\n'
           'text = "No optional rules."\neffect = "no_optional_rules"\n')
    s = ssa_game([], extra=bar).new_state(seed=1)
    assert not technology.rule_on(s)
    s = ssa_game([], extra='[options]\noptional_rules = ["SSA-23"]\n').new_state(seed=1)
    assert technology.rule_on(s)
    sc0 = load_scenario("scenarios/ssa/valor-of-ignorance.toml").new_state(seed=1)
    assert sc0.game.scenario.raw["special_rules"][0]["effect"] == "no_optional_rules"
    sc0.game.options["optional_rules"] = ["SSA-23", "SSA-28", "SSA-29"]
    from workbench.rulesets.ssa import chemical, scorched_earth

    assert not (technology.rule_on(sc0) or chemical.rule_on(sc0) or scorched_earth.rule_on(sc0))
