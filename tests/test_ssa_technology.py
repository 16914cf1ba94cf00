"""SS Amerika technological developments (optional rule SSA-23) on the test map, Mobilization
stage of 1943-01 (Germany earns 15 I, the US 2 I: Port City 0306 and Mill Town 0806).  Costs are
the authored ones of tables/technology.toml (jet fighter 25, radar 10); a jet fighter is built
for 10 I (mobilization.toml)."""

from __future__ import annotations

import pytest
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.ssa import technology

ON = '[options]\noptional_rules = ["SSA-23"]\n'
JET = {"kind": "buy_technology", "tech": "jet_fighter", "nation": "GE"}


@pytest.fixture
def spend(ssa_game):
    def make(tracks="", side="axis", extra=ON, nations=("US", "BC")):
        text = extra + ("[tracks]\n" + tracks if tracks else "")
        s = ssa_game([], first="1943-01", last="1943-01", extra=text, allied_nations=nations).new_state(seed=1)
        return to_step(s, "mobilization/spend", side)

    return make


def test_ssa_23_1_gated_type_cannot_be_built_until_its_development_is_paid(spend):
    s = spend('"GE.mp.industrial" = 20\n')  # 35 I after income
    assert not [o for o in s.legal_orders_of("mobilize") if o["type"] == "jet_fighter"]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "mobilize", "nation": "GE", "type": "jet_fighter", "at": "Europe"})
    assert exc.value.rule == "SSA-23.1" and "jet_fighter development" in exc.value.why
    assert JET in s.legal_orders_of("buy_technology")


def test_ssa_23_2_paid_once_and_buildable_from_the_same_mobilization_phase(spend):
    s = spend('"GE.mp.industrial" = 20\n')  # 35 I
    s.apply(JET)
    assert s.tracks["GE.mp.industrial"] == 10  # 35 - 25
    assert technology.owns(s, "GE", "jet_fighter")
    assert {"kind": "mobilize", "nation": "GE", "type": "jet_fighter", "at": "Europe"} in s.legal_orders_of("mobilize")
    s.apply({"kind": "mobilize", "nation": "GE", "type": "jet_fighter", "at": "Europe"})
    assert s.tracks["GE.mp.industrial"] == 0  # the jet itself costs 10
    assert JET not in s.legal_orders_of("buy_technology")
    s.tracks["GE.mp.industrial"] = 50
    with pytest.raises(IllegalOrder) as exc:
        s.apply(JET)
    assert exc.value.rule == "SSA-23.2" and "only once" in exc.value.why


def test_ssa_23_5_paid_with_industrial_points_only(spend):
    s = spend('"GE.mp.industrial" = 9\n"GE.mp.non_industrial" = 100\n')  # 24 I, 115 NI
    assert JET not in s.legal_orders_of("buy_technology")
    with pytest.raises(IllegalOrder) as exc:
        s.apply(JET)
    assert exc.value.rule == "SSA-23.5" and "costs 25 industrial MP" in exc.value.why
    s.apply({"kind": "buy_technology", "tech": "radar", "nation": "GE"})  # radar 10
    assert s.tracks["GE.mp.industrial"] == 14 and s.tracks["GE.mp.non_industrial"] == 115


def test_ssa_23_5a_allied_developments_serve_the_us_and_commonwealth_only(spend):
    s = spend('"BC.mp.industrial" = 25\n"US.mp.industrial" = 8\n', side="allies", nations=("US", "BC", "ME"))
    payers = {o["nation"] for o in s.legal_orders_of("buy_technology")}
    assert payers == {"BC", "US"}  # the US (10 I) can buy radar; Mexico never pays
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "buy_technology", "tech": "radar", "nation": "ME"})
    assert exc.value.rule == "SSA-23.5a"
    s.apply({"kind": "buy_technology", "tech": "jet_fighter", "nation": "BC"})  # Commonwealth pays 25
    assert s.tracks["BC.mp.industrial"] == 0
    assert technology.may_use(s, "allies", "US", "jet_fighter")  # the US uses it too
    assert technology.may_use(s, "allies", "BC", "jet_fighter")
    assert not technology.may_use(s, "allies", "ME", "jet_fighter")  # no other Allied country


def test_ssa_23_5b_germany_and_japan_pay_separately(spend):
    s = spend('"GE.mp.industrial" = 10\n"JA.mp.industrial" = 30\n')
    s.apply(JET)
    assert technology.may_use(s, "axis", "GE", "jet_fighter")
    assert technology.may_use(s, "axis", "SS", "jet_fighter")  # built with German MP
    assert not technology.may_use(s, "axis", "JA", "jet_fighter")
    s.apply({"kind": "buy_technology", "tech": "jet_fighter", "nation": "JA"})  # Japan pays its own 25
    assert s.tracks["JA.mp.industrial"] == 30 + 5 - 25  # 1943: Japan earns 5 I
    assert technology.may_use(s, "axis", "JA", "jet_fighter")


def test_ssa_23_4_scenario_starts_with_developments_owned(spend):
    s = spend('"GE.mp.industrial" = 0\n', extra=ON + '[technologies]\nGE = ["jet_fighter"]\nallies = ["radar"]\n')
    assert s.tracks["GE.mp.industrial"] == 15  # nothing paid
    assert technology.owns(s, "GE", "jet_fighter") and technology.owns(s, "allies", "radar")
    assert {"kind": "mobilize", "nation": "GE", "type": "jet_fighter", "at": "Europe"} in s.legal_orders_of("mobilize")


def test_ssa_23_4_the_1941_scenario_gives_the_allies_strategic_bombers_and_radar():
    s = load_scenario("scenarios/ssa/1941.toml").new_state(seed=1)
    assert technology.owns(s, "allies", "strategic_bomber") and technology.owns(s, "allies", "radar")
    assert technology.may_use(s, "allies", "US", "strategic_bomber")
    assert not technology.may_use(s, "axis", "GE", "strategic_bomber")  # Axis developments: none


def test_ssa_23_3_abstract_developments_are_recorded_with_no_effect(spend):
    s = spend()
    s.apply({"kind": "buy_technology", "tech": "radar", "nation": "GE"})
    assert s.markers["technologies"]["GE"] == ["radar"] and s.tracks["GE.mp.industrial"] == 5
    ev = s.events().filter(kind="technology").row(-1, named=True)
    assert ev["rule"] == "SSA-23.2" and "no game effect" in ev["text"]


def test_ssa_23_no_developments_bought_without_the_optional_rule(spend):
    s = spend('"GE.mp.industrial" = 20\n', extra="")
    assert s.legal_orders_of("buy_technology") == []
    with pytest.raises(IllegalOrder) as exc:
        s.apply(JET)
    assert exc.value.rule == "SSA-23"
    # the scenario's starting developments still gate the types (docs/rulings-ssa.md, SSA-23)
    with pytest.raises(IllegalOrder, match="SSA-23.1"):
        s.apply({"kind": "mobilize", "nation": "GE", "type": "jet_fighter", "at": "Europe"})


def test_ssa_sc_6_no_optional_rules_special_rule_overrides_the_options(spend):
    bar = '[[special_rules]]\nid = "SR1"\nrule = "SC0 SR1"\ntext = "No optional rules."\neffect = "no_optional_rules"\n'
    s = spend('"GE.mp.industrial" = 20\n', extra=ON + bar)
    assert not technology.rule_on(s) and s.legal_orders_of("buy_technology") == []


def test_ssa_23_5_costs_are_authored_for_every_development(spend):
    s = spend()
    tab = s.ruleset.tables["technology"]
    assert tab["costs"]["source"] == "authored" and tab["costs"]["rationale"]
    assert set(technology.technologies(s)) == {k for k in tab["costs"] if k not in ("source", "rule", "rationale",
                                                                                        "points")}
    gated = {v["tech"] for v in s.ruleset.tables["mobilization"]["costs"].values()
             if isinstance(v, dict) and "tech" in v}
    assert gated == set(tab["kinds"]["unit"])  # SSA-23.1: the nine gated unit types
    assert len(tab["kinds"]["abstract"]) == 4  # SSA-23.3


def test_ssa_23_heuristic_bot_buys_the_cheapest_unit_development_it_can_well_afford(spend):
    """#24 item 11: with 35 I the German bot buys helicopters (10 <= 35/3), the cheapest unit
    development, never an abstract one (radar, also 10, does nothing: ruling 23.3); with 20 I
    nothing costs a third or less, so it builds units instead."""
    from workbench.bots.heuristic import make_policy

    s = spend('"GE.mp.industrial" = 20\n')  # 35 I after income
    pol = make_policy("heuristic", s.ruleset, "axis", 1)
    assert pol.choose(s, s.legal_orders()) == {"kind": "buy_technology", "tech": "helicopter", "nation": "GE"}
    s = spend('"GE.mp.industrial" = 5\n')  # 20 I
    assert pol.choose(s, s.legal_orders())["kind"] != "buy_technology"
