"""ETO-35.0-35.3: minor partners activated in the seasonal turn's Phase one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from eto_kit import FixedDice, events, scenario_text, unit

from workbench.engine import load_scenario
from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import activation, invasion, politics, values
from workbench.rulesets.eto.terrain import terrain_arrays

WAR_1940 = '''
[politics]
members = { GE = "axis", IT = "axis", UK = "western", FR = "western", PL = "western" }
fronts = [["axis", "western"]]
'''
AXIS_SOVIET = WAR_1940.replace('PL = "western"', 'PL = "western", SU = "soviet"').replace(
    '[["axis", "western"]]', '[["axis", "western"], ["axis", "soviet"]]')


def new_state(tmp_path: Path, politics_text: str = WAR_1940, *, first: str = "1941-03", last: str = "1941-04",
              units: list | None = None):  # noqa: ANN201
    text = scenario_text(units or [unit("GE-1", "GE", "infantry", "03946")], first=first, last=last, west=True,
                         options={"politics": True}, extra=politics_text,
                         tracks={"GE.income_base": 60, "UK.income_base": 40},
                         axis=("GE", "IT", "HU", "RO", "BU", "FI"), allies=("UK", "FR", "SU", "US"))
    path = tmp_path / "eto-activation.toml"
    path.write_text(text)
    return load_scenario(path).new_state(seed=1)


def to_step(state, key: str, limit: int = 500):  # noqa: ANN001, ANN201
    """End steps and pass until the current step is ``key``."""
    for _ in range(limit):
        if state.step is not None and state.step.key == key:
            return state
        d = state.decision
        state.apply({"kind": "end_step"} if "end_step" in d.kinds else {"kind": "pass"} if "pass" in d.kinds
                    else {"kind": "choose_first", "side": d.side})
    raise AssertionError(f"never reached {key}")


def to_turn(state, label: str, limit: int = 500):  # noqa: ANN001, ANN201
    """End steps and pass until the first decision of turn ``label``."""
    for _ in range(limit):
        d = state.decision
        if state.turn_label == label and d is not None:
            return state
        state.apply({"kind": "end_step"} if "end_step" in d.kinds else {"kind": "pass"} if "pass" in d.kinds
                    else {"kind": "choose_first", "side": d.side})
    raise AssertionError(f"never reached {label}")


def resource_hexes(state, nation: str) -> int:  # noqa: ANN001
    ta = terrain_arrays(state)
    return int((politics.territory(state, nation) & (ta.resource | ta.city_resource)).sum())


def test_eto_35_1_balkan_three_join_at_the_spring_1941_seasonal_turn(tmp_path: Path) -> None:
    s = new_state(tmp_path, units=[unit("GE-1", "GE", "infantry", "03946"),
                                   unit("HU-1", "HU", "infantry", "Unplaced", props={"deploy": "06156"})])
    assert politics.neutral(s, "HU")
    to_turn(s, "1941-spring")
    assert [politics.partnership(s, n) for n in ("HU", "RO", "BU")] == ["axis"] * 3
    assert s.unit("HU-1").location == "06156" and s.unit("HU-1").side == "axis"  # placed at once (35.0)
    assert "automatic at the 1941-spring seasonal turn" in events(s, "activated")[0]["text"]
    bonus = 2 * sum(resource_hexes(s, n) for n in ("HU", "RO", "BU"))
    assert bonus > 0 and "GE.activation_bonus" not in s.tracks  # paid in this turn's Income phase
    inc = [e for e in events(s, "income") if e["rule"] == "ETO-36.1" and e["data"]["nation"] == "GE"][-1]
    assert inc["data"]["activation"] == bonus and f"+ {bonus} for activated partners (35.0)" in inc["text"]
    assert politics.at_war(s, "HU", "UK")


def test_eto_35_1_no_automatic_activation_after_germany_invades_yugoslavia(tmp_path: Path) -> None:
    s = new_state(tmp_path)
    to_step(s, "offensive")
    s.apply({"kind": "begin"} if s.decision.side == "axis" else {"kind": "pass"})
    if s.decision.side != "axis" or "begin" in s.decision.kinds:
        s.apply({"kind": "begin"})
    s.apply({"kind": "declare_war", "nation": "GE", "target": "YU"})  # March 1941, before spring
    to_turn(s, "1941-spring")
    assert all(politics.neutral(s, n) for n in ("HU", "RO", "BU"))
    assert activation.modifiers(s, "HU") == [(1, "Germany has invaded Yugoslavia")]


def test_eto_35_1_early_roll_activates_on_a_modified_zero_or_less(tmp_path: Path) -> None:
    s = new_state(tmp_path, AXIS_SOVIET, first="1940-09", last="1940-10")
    politics.record(s, invader="GE", by="axis", nation="TU", joined="western")  # Turkey an Allied partner
    to_step(s, "partner-activation")
    assert s.turn_label == "1940-autumn" and politics.neutral(s, "HU")
    assert sorted(v for v, _ in activation.modifiers(s, "HU")) == [-2, -1]
    while s.decision.side != "axis":
        s.apply({"kind": "end_step"})
    s.dice = FixedDice(4)  # 4 - 3 = 1: stays neutral
    s.apply({"kind": "activate_partner", "nation": "RO"})
    assert politics.neutral(s, "RO") and "stays neutral: roll 4 -1" in events(s, "activation_failed")[0]["text"]
    with pytest.raises(IllegalOrder, match="ETO-35.1: one roll per country per seasonal turn"):
        s.apply({"kind": "activate_partner", "nation": "RO"})
    s.dice = FixedDice(3)  # 3 - 3 = 0: activated
    s.apply({"kind": "activate_partner", "nation": "HU"})
    assert politics.partnership(s, "HU") == "axis" and politics.neutral(s, "BU")
    assert "activated (roll 3" in events(s, "activated")[0]["text"]
    rolls = [e for e in events(s, "roll") if e["rule"] == "ETO-35.1"]
    assert [r["dice"] for r in rolls] == [[4], [3]]


def test_eto_35_1_without_minus_modifiers_an_early_roll_never_succeeds(tmp_path: Path) -> None:
    s = new_state(tmp_path, first="1940-09", last="1940-10")
    to_step(s, "partner-activation")
    while s.decision.side != "axis":
        s.apply({"kind": "end_step"})
    s.dice = FixedDice(1)  # a 1, unmodified, is not 0 or less (erratum E2, literal)
    s.apply({"kind": "activate_partner", "nation": "BU"})
    assert politics.neutral(s, "BU")
    assert activation.try_why_not(s, "allies", "HU").why == "only the player of GE rolls for Hungary"


def test_eto_35_2_finland_rolls_only_with_the_axis_at_war_with_the_ussr(tmp_path: Path) -> None:
    s = new_state(tmp_path, first="1940-09", last="1940-10")
    to_step(s, "partner-activation")
    assert "only once the Axis and the Soviet Union are at war" in activation.try_why_not(s, "axis", "FI").why
    s2 = new_state(tmp_path, AXIS_SOVIET, first="1940-09", last="1940-10")
    invasion.invade(s2, "GE", "YU")  # +1 for the Balkans, nothing for Finland
    to_step(s2, "partner-activation")
    assert activation.modifiers(s2, "FI") == [(-2, "the Axis is at war with the Soviet Union")]
    while s2.decision.side != "axis":
        s2.apply({"kind": "end_step"})
    s2.dice = FixedDice(2)
    s2.apply({"kind": "activate_partner", "nation": "FI"})
    assert politics.partnership(s2, "FI") == "axis" and politics.at_war(s2, "FI", "SU")


def test_eto_35_2_after_a_winter_war_finland_activates_like_the_balkans(tmp_path: Path) -> None:
    s = new_state(tmp_path, WAR_1940 + "winter_war = true\n")
    to_turn(s, "1941-spring")
    assert politics.partnership(s, "FI") == "axis"


def test_eto_35_3_lebanon_syria_six_or_more_plus_one_per_three_british_sp(tmp_path: Path) -> None:
    probe = new_state(tmp_path)
    hm = probe.map
    ls = politics.territory(probe, "LS")
    ta = terrain_arrays(probe)
    near = sorted({int(j) for i in np.flatnonzero(ls) for j in hm.neighbors[i] if j >= 0 and not ls[j]
                   and ta.land[j] and ta.country[j] == "Palestine"})
    at = hm.label(near[0])
    units = [unit("GE-1", "GE", "infantry", "03946"), unit("UK-1", "UK", "infantry", at),
             unit("UK-2", "UK", "infantry", at)]
    s = new_state(tmp_path, WAR_1940 + "vichy = true\n", first="1940-09", last="1940-10", units=units)
    sp = sum(values.strength(s, s.unit(u)) for u in ("UK-1", "UK-2"))
    mod, why = activation.lebanon_modifier(s)
    assert mod == sp // 3 and f"{sp} SP" in why
    to_step(s, "partner-activation")
    while s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    s.dice = FixedDice(6 - mod)
    s.apply({"kind": "activate_partner", "nation": "LS"})
    assert politics.partnership(s, "LS") == "western"
    s3 = new_state(tmp_path, first="1940-09", last="1940-10")
    assert "only once Vichy France exists" in activation.try_why_not(s3, "allies", "LS").why
    s4 = new_state(tmp_path, WAR_1940 + "vichy = true\n", first="1940-09", last="1940-10", units=units)
    politics.writable(s4).setdefault("conquered", {})["UK"] = "GE"   # "as long as the UK has not been conquered"
    assert "has been conquered" in activation.try_why_not(s4, "allies", "LS").why


def test_eto_41_3_minor_units_trace_to_their_own_home_sources_through_partners(tmp_path: Path) -> None:
    """41.3: "Minor country units must trace supply to city resource hexes in the unit's home country
    ... Supply can be traced through a partner's territory, but cannot originate at a partner's
    supply source" -- a Rumanian unit in German-held Poland is supplied from Rumania; Rumania's
    sources are Rumanian only; 32.8 never isolates a minor's source."""
    from eto_kit import new_state as east_state

    from workbench.rulesets.eto import supply

    s = east_state(tmp_path, [unit("RO-1", "RO", "infantry", "08640"), unit("GE-1", "GE", "infantry", "08641")])
    ta = terrain_arrays(s)
    srcs = supply.sources(s, "RO", "axis")
    assert srcs and all(ta.country[i] == "Romania" for i in srcs)
    assert supply.source_nations(s, "RO") == ["RO"]
    assert supply.traces(s, s.unit("RO-1"))
    supply.isolated_sources(s)
    assert not any(ta.country[s.map.index(h)] == "Romania" for h in s.markers.get("isolated_sources", {}))
