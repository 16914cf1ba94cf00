"""ETO-39.0-39.7: invasions of neutral countries, and the declarations of war they set off."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from eto_kit import FixedDice, events, scenario_text, step_to, unit

from workbench.engine import load_scenario
from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import control, invasion, movement, politics

#: September 1939 before any invasion: every nation neutral; the Axis player commands Germany
#: and Italy, the Allied player the other majors (and the minors' units, waiting unplaced).
NEUTRAL_1939 = '''
[politics]
members = {}
fronts = []
'''
#: August 1940: Germany at war with the Western Allies; Italy too; the USSR neutral.
WAR_1940 = '''
[politics]
members = { GE = "axis", IT = "axis", UK = "western", FR = "western", PL = "western" }
fronts = [["axis", "western"]]
'''


def game(tmp_path: Path, politics_text: str, *, first: str = "1940-08", last: str = "1940-09",
         units: list | None = None, allies: tuple[str, ...] = ("UK", "FR", "SU", "US", "NO"),
         politics_on: bool = True, optional: tuple[str, ...] = ()):  # noqa: ANN201
    options = {"politics": politics_on, **({"optional_rules": list(optional)} if optional else {})}
    text = scenario_text(units or [unit("GE-1", "GE", "infantry", "03946")], first=first, last=last, west=True,
                         options=options, extra=politics_text, allies=allies)
    path = tmp_path / "eto-politics.toml"
    path.write_text(text)
    return load_scenario(path)


def offensive_state(tmp_path: Path, politics_text: str, **kw):  # noqa: ANN003, ANN201
    state = game(tmp_path, politics_text, **kw).new_state(seed=1)
    step_to(state, "offensive")
    d = state.decision
    if d.side != "axis":
        state.apply({"kind": "pass"})
    state.apply({"kind": "begin"})
    assert state.step.key == "offensive/command"
    return state


def test_eto_39_4_first_axis_invasion_invades_france_uk_and_poland(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, NEUTRAL_1939)
    assert politics.neutral(s, "UK") and not politics.at_war(s, "GE", "UK")
    s.apply({"kind": "declare_war", "nation": "GE", "target": "NO"})
    for n in ("NO", "FR", "UK", "PL"):
        assert politics.partnership(s, n) == "western", n
        assert politics.at_war(s, "GE", n), n
    assert not politics.at_war(s, "IT", "UK")  # Italy is still neutral
    assert politics.neutral(s, "IT") and politics.neutral(s, "SU") and politics.neutral(s, "BE")
    texts = [e["text"] for e in events(s, "invaded")]
    assert any("ETO-39.4: invaded with Norway" in t for t in texts)
    # the second Axis invasion sets off nothing more: Denmark alone
    s.apply({"kind": "declare_war", "nation": "GE", "target": "DK"})
    assert politics.partnership(s, "DK") == "western" and politics.neutral(s, "SW")


def test_eto_39_4_invading_one_of_the_three_invades_all(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, NEUTRAL_1939)
    assert invasion.invaded_together(s, "GE", "PL") == ["PL", "FR", "UK"]


def test_eto_39_0_a_neutral_major_that_invades_enters_the_war(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, WAR_1940.replace('IT = "axis", ', ""))
    assert politics.neutral(s, "IT") and not politics.at_war(s, "IT", "UK")
    assert s.tracks.get("IT.income_base", 20) == 20
    s.apply({"kind": "declare_war", "nation": "IT", "target": "GR"})
    assert politics.partnership(s, "IT") == "axis"
    assert s.tracks["IT.income_base"] == 30  # 36.3: "After going to war, Italy receives a base of 30"
    assert politics.at_war(s, "IT", "UK") and politics.at_war(s, "IT", "GR")
    assert politics.partnership(s, "GR") == "western"  # USSR not at war with the Axis: no roll


def test_eto_39_7_benelux_is_one_nation(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, WAR_1940)
    s.apply({"kind": "declare_war", "nation": "GE", "target": "LU"})
    assert {n for n in ("BE", "NL", "LU") if politics.at_war(s, "GE", n)} == {"BE", "NL", "LU"}
    assert politics.neutral(s, "DK")


def test_eto_39_5_balkan_three_invaded_before_activation(tmp_path: Path) -> None:
    # the Allied player invades Bulgaria: all three join the invader's enemy, the Axis (39.3)
    state = offensive_state(tmp_path, WAR_1940)
    assert invasion.invaded_together(state, "UK", "BU") == ["BU", "HU", "RO"]
    invasion.invade(state, "UK", "BU")
    assert [politics.partnership(state, n) for n in ("BU", "HU", "RO")] == ["axis"] * 3
    assert politics.at_war(state, "UK", "HU") and politics.at_war(state, "GE", "UK")


def test_eto_39_5_after_activation_only_the_invaded(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, WAR_1940.replace('PL = "western"', 'PL = "western", RO = "axis"'))
    assert invasion.invaded_together(s, "UK", "BU") == ["BU", "HU"]  # Rumania already active
    s2 = offensive_state(tmp_path, WAR_1940.replace('PL = "western"', 'PL = "western", BU = "axis"'))
    assert invasion.invaded_together(s2, "GE", "TU") == ["TU"]


def test_eto_39_3_invaded_by_the_allies_becomes_a_german_partner(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, WAR_1940)
    invasion.invade(s, "UK", "SW")
    assert politics.partnership(s, "SW") == "axis" and politics.side_of(s, "SW") == "axis"
    assert politics.at_war(s, "SW", "UK") and not politics.at_war(s, "SW", "GE")
    assert control.control(s)[s.map.index(s.map.hex_of("Stockholm"))] == control.AXIS


def test_eto_39_3_yugoslavia_and_the_greek_die_while_the_ussr_fights(tmp_path: Path) -> None:
    war = WAR_1940.replace('PL = "western"', 'PL = "western", SU = "soviet"').replace(
        '[["axis", "western"]]', '[["axis", "western"], ["axis", "soviet"]]')
    s = offensive_state(tmp_path, war)
    s.dice = FixedDice(3)
    invasion.invade(s, "GE", "YU")
    assert politics.partnership(s, "YU") == "soviet"  # automatically, no die
    invasion.invade(s, "GE", "GR")
    assert politics.partnership(s, "GR") == "western"  # 1-3
    s.dice = FixedDice(4)
    invasion.invade(s, "GE", "TU")
    assert politics.partnership(s, "TU") == "soviet"  # 4-6
    rolls = [e for e in events(s, "roll") if e.get("rule") == "ETO-39.3"]
    assert [r["dice"] for r in rolls] == [[3], [4]] and "4-6 Soviet" in rolls[1]["purpose"]
    # before the USSR is at war, Yugoslavia joins the Western Allies
    s2 = offensive_state(tmp_path, WAR_1940)
    invasion.invade(s2, "GE", "YU")
    assert politics.partnership(s2, "YU") == "western"


def test_eto_39_0_who_may_invade_and_when(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, WAR_1940)
    with pytest.raises(IllegalOrder, match="ETO-39.0: .*already at war"):
        s.apply({"kind": "declare_war", "nation": "GE", "target": "UK"})
    with pytest.raises(IllegalOrder, match="ETO-39.0: axis does not command UK"):
        s.apply({"kind": "declare_war", "nation": "UK", "target": "SW"})
    legal = s.legal_orders()
    assert {"kind": "declare_war", "nation": "GE", "target": "SW"} in legal
    assert not any(o["kind"] == "declare_war" and o["target"] in ("UK", "FR", "GE") for o in legal)
    # only majors initiate
    assert "only major countries" in invasion.declare_why_not(s, "allies", "NO", "SW").why
    # the Allied player never invades the USSR it commands (42.6)
    assert invasion.declare_why_not(s, "allies", "UK", "SU").rule == "ETO-42.6"
    # not in the Movement phase
    step_to(s, "movement/move")
    assert "Strategic Warfare, Naval and Air, and Offensive phases" in invasion.declare_why_not(
        s, s.decision.side, "GE" if s.decision.side == "axis" else "UK", "SW").why


def test_eto_39_0_slice_scenarios_fix_the_political_situation(tmp_path: Path) -> None:
    s = game(tmp_path, WAR_1940, politics_on=False).new_state(seed=1)
    assert "declare_war" not in s.game.ruleset.order_kinds or not s.game.ruleset.order_kinds[
        "declare_war"].in_game(s.game)
    assert "politics" not in s.markers  # nothing written: the hash of a slice game is unchanged
    assert "no invasions" in invasion.declare_why_not(s, "axis", "GE", "SW").why


def test_eto_39_1_39_2_neutral_hexes_closed_until_announced(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, WAR_1940, units=[unit("GE-1", "GE", "infantry", "03946"),
                                                   unit("NO-1", "NO", "infantry", "Unplaced",
                                                        props={"deploy": "04630"})])
    ge = s.unit("GE-1")
    oslo = s.map.index("04630")
    assert movement.banned_hexes(s, ge)[oslo]
    assert "announce its invasion first (ETO-39.2" in invasion.neutral_territory_note(s)
    assert s.unit("NO-1").location == "Unplaced"
    s.apply({"kind": "declare_war", "nation": "GE", "target": "NO"})
    assert not movement.banned_hexes(s, ge)[oslo]
    assert s.unit("NO-1").location == "04630" and s.unit("NO-1").side == "allies"  # 39.2: placed at once
    assert control.control(s)[oslo] == control.ALLIES
    assert "1 units placed (39.2)" in events(s, "invaded")[0]["text"]


def test_eto_39_6_the_us_enters_as_1942_begins(tmp_path: Path) -> None:
    s = game(tmp_path, WAR_1940.replace('PL = "western"', 'PL = "western", SU = "soviet"').replace(
        '[["axis", "western"]]', '[["axis", "western"], ["axis", "soviet"]]'),
        first="1941-12", last="1942-01").new_state(seed=1)
    assert politics.neutral(s, "US")
    for _ in range(400):
        if s.turn_label != "1941-12" or s.decision is None:
            break
        d = s.decision
        s.apply({"kind": "end_step"} if "end_step" in d.kinds else {"kind": "pass"} if "pass" in d.kinds
                else {"kind": "choose_first", "side": d.side})
    assert s.turn_label == "1942-winter"
    assert politics.partnership(s, "US") == "western"
    assert politics.at_war(s, "US", "GE") and politics.at_war(s, "US", "IT")
    assert any("39.6" in e["text"] for e in events(s, "invaded"))
    assert np.all(control.control(s) >= 0)


def test_eto_46_3_the_western_allies_never_invade_germany_or_italy(tmp_path: Path) -> None:
    free = offensive_state(tmp_path, NEUTRAL_1939)
    assert invasion.declare_why_not(free, "axis", "GE", "NO") is None
    assert invasion.restriction_why_not(free, "UK", "IT") is None  # without the optional rule
    s = game(tmp_path, NEUTRAL_1939, optional=("ETO-46.3",)).new_state(seed=1)
    why = invasion.restriction_why_not(s, "UK", "IT")
    assert why.rule == "ETO-46.3" and "wait for the Axis" in why.why
    assert invasion.restriction_why_not(s, "UK", "NO") is None


def test_eto_46_4_no_soviet_invasion_of_germany_in_1939_nor_of_a_neutral_italy(tmp_path: Path) -> None:
    s = game(tmp_path, NEUTRAL_1939, first="1939-10", last="1939-11", optional=("ETO-46",)).new_state(seed=1)
    assert invasion.restriction_why_not(s, "SU", "GE").why == "the Soviet Union cannot invade Germany during 1939"
    assert invasion.restriction_why_not(s, "SU", "IT").rule == "ETO-46.4"
    s2 = game(tmp_path, WAR_1940, first="1940-10", last="1940-11", optional=("ETO-46",)).new_state(seed=1)
    assert invasion.restriction_why_not(s2, "SU", "GE") is None  # 1940
    assert invasion.restriction_why_not(s2, "SU", "IT") is None  # Italy at war with the Western Allies


def test_eto_47_1_italian_adventurism_a_war_of_two(tmp_path: Path) -> None:
    war = WAR_1940.replace('IT = "axis", ', "")
    s = offensive_state(tmp_path, war, optional=("ETO-47.1",), units=[
        unit("GE-1", "GE", "infantry", "03946"), unit("GR-1", "GR", "infantry", "Unplaced", props={"deploy": "07376"})],
        allies=("UK", "FR", "SU", "US", "GR"))
    assert {"kind": "limited_war", "nation": "IT", "target": "GR"} in s.legal_orders()
    s.apply({"kind": "limited_war", "nation": "IT", "target": "GR"})
    assert politics.at_war(s, "IT", "GR") and politics.neutral(s, "IT") and politics.neutral(s, "GR")
    assert not politics.at_war(s, "IT", "UK") and not politics.at_war(s, "GE", "GR")
    assert s.tracks["IT.income_base"] == 30  # "Italy gains its wartime income"
    assert s.unit("GR-1").location == "07376"
    with pytest.raises(IllegalOrder, match="ETO-47.1: Italy may invade Greece or Yugoslavia alone, not both"):
        s.apply({"kind": "limited_war", "nation": "IT", "target": "YU"})
    s.apply({"kind": "declare_war", "nation": "IT", "target": "SW"})  # Italy joins the war proper
    assert politics.partnership(s, "GR") == "western" and politics.at_war(s, "GR", "GE")  # "becomes an Allies partner"


def test_eto_47_1_only_from_may_1940_and_only_with_the_rule(tmp_path: Path) -> None:
    war = WAR_1940.replace('IT = "axis", ', "")
    s = game(tmp_path, war, first="1940-03", last="1940-04", optional=("ETO-47.1",)).new_state(seed=1)
    from workbench.rulesets.eto import adventurism

    step_to(s, "offensive")
    assert adventurism.why_not(s, "axis", "IT", "GR").why == "Italian adventurism begins in 1940-05"
    s2 = offensive_state(tmp_path, war)
    assert "limited_war" not in s2.decision.kinds  # the optional rule is off


def test_eto_39_4_only_an_axis_invasion_sets_off_the_western_declaration(tmp_path: Path) -> None:
    s = offensive_state(tmp_path, NEUTRAL_1939)
    assert invasion.invaded_together(s, "SU", "PL") == ["PL"]  # a Soviet invasion of Poland: Poland alone
    invasion.invade(s, "SU", "PL")
    # 43.6: a neutral USSR's invasion of a minor not bound for the Axis is a war of the two alone
    assert politics.neutral(s, "PL") and politics.at_war(s, "SU", "PL") and politics.neutral(s, "SU")
    assert politics.neutral(s, "UK") and politics.neutral(s, "FR") and not politics.at_war(s, "SU", "UK")


def test_eto_47_1_a_conquered_adventure_pays_italy(tmp_path: Path) -> None:
    """47.1: "if conquered, its EPs go to Italy" -- Greece's resource hexes pay Italy, not Germany
    (the Axis default for captured hexes)."""
    from workbench.rulesets.eto import income
    from workbench.rulesets.eto.control import home_mask

    war = WAR_1940.replace('IT = "axis", ', "")
    s = offensive_state(tmp_path, war, optional=("ETO-47.1",), allies=("UK", "FR", "SU", "US", "GR"), units=[
        unit("GE-1", "GE", "infantry", "03946"), unit("GR-1", "GR", "infantry", "Unplaced", props={"deploy": "07376"})])
    s.apply({"kind": "limited_war", "nation": "IT", "target": "GR"})
    greece = home_mask(s, "GR", original=True)
    mine = [n for n, side in income.majors(s) if side == "axis"]
    owner, _ = income.resource_owner(s, "axis")
    assert set(owner[greece]) == {mine.index("GE")}
    politics.writable(s).setdefault("conquered", {})["GR"] = "IT"
    owner, _ = income.resource_owner(s, "axis")
    assert set(owner[greece]) == {mine.index("IT")}


def test_eto_40_1_the_axis_last_member_conquered_ends_the_game(tmp_path: Path) -> None:
    """40.1: "If this ever applies to the Axis partnership, the game is over" -- Germany conquered
    while Italy fights on ends nothing; Italy's conquest then ends the game, an Allied win."""
    from workbench.rulesets.eto import conquest, victory

    s = offensive_state(tmp_path, WAR_1940)
    conquest.conquer(s, "GE", "UK")
    assert victory.sudden_death(s) is None
    conquest.conquer(s, "IT", "UK")
    sd = victory.sudden_death(s)
    assert sd is not None and sd["winner"] == "allies" and sd["rule"] == "ETO-40.1"


def test_eto_39_2_the_controlling_player_places_the_invaded_minors_units(tmp_path: Path) -> None:
    """39.2: "the player controlling the minor country places that country's units on the map. Units
    must be placed entirely within the home country ... At least one infantry unit must be placed in
    the country's capital" -- Norway's set-up is offered for change before play goes on."""
    units = [unit("GE-1", "GE", "infantry", "03946"),
             unit("NO-1", "NO", "infantry", "Unplaced", props={"deploy": "04630"}),   # Oslo, the capital
             unit("NO-2", "NO", "infantry", "Unplaced", props={"deploy": "04521"})]   # Trondheim
    s = offensive_state(tmp_path, WAR_1940, first="1940-04", last="1940-05", units=units)
    s.apply({"kind": "declare_war", "nation": "GE", "target": "NO"})
    d = s.decision
    assert (d.side, d.rule) == ("allies", "ETO-39.2") and set(d.kinds) == {"place_minor", "pass"}
    assert s.unit("NO-1").location == "04630" and s.unit("NO-2").location == "04521"
    assert {"kind": "place_minor", "unit": "NO-2", "at": "03928"} in s.legal_orders()       # Bergen
    with pytest.raises(IllegalOrder, match="capital"):
        s.apply({"kind": "place_minor", "unit": "NO-1", "at": "03928"})                      # Oslo left empty
    with pytest.raises(IllegalOrder, match="within the home country"):
        s.apply({"kind": "place_minor", "unit": "NO-2", "at": "03946"})
    s.apply({"kind": "place_minor", "unit": "NO-2", "at": "03928"})
    assert s.unit("NO-2").location == "03928"
    s.apply({"kind": "pass"})
    assert s.decision.side == "axis" and s.step.key == "offensive/command"
