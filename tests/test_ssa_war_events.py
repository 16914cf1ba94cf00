"""SS Amerika war events (optional rule SSA-25), countries entering the war (SSA-18.8-18.10,
SC5 SR2) and ULTRA / ENIGMA (SSA-19.X), with scripted dice on the minor-country test map.

Map (tests/ssa_kit.py ``build_ssa_minor_map``): columns 11-12 Guatemala (GT), 13-14 Honduras (HN)
with Border Town (1306); Mill Town (0806) is a US industrial city.  Morale levels (morale.toml):
High 67-100, Average 34-66, Poor (the rulebook's 'low' in 25.3) 1-33.
War Events Table (tables/war_events.toml, authored, gap G-14): 11-12 Axis leader, 13-14 Allied
leader, 15-16 Allied partisans, 21 Revolt, 22-23 Unrest, 24 Europe rallies, 25-26 Assassination
plot, 31-32 Coup, 33 Argentina, 34 Brazil, 35 Chile, 41-42 ULTRA, 43-44 ENIGMA, 45-46 Eastern
front (authored), 61-62 Fuhrer order (authored: no effect), the rest no event.
"""

from __future__ import annotations

import json
import math

import pytest
from kit import FixedDice
from ssa_kit import build_ssa_minor_map, built_map_dir, scenario_text

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.ssa.intelligence import revealed_hexes
from workbench.rulesets.ssa.mobilization import income
from workbench.rulesets.ssa.subversion import country_side
from workbench.rulesets.ssa.war_events import enter_war, neutral_box_trigger, start_of_turn

PRINTED = {"axis_leader", "allied_leader", "allied_partisans", "revolt_in_europe", "unrest_in_europe",
           "europe_rallies_to_germany", "assassination_plot_in_germany", "coup_in_latin_america",
           "argentina", "brazil", "chile", "ultra", "enigma"}
ABC = """
[[reinforcements]]
id = "AR-enters-war"
trigger = { event = "country_enters_war", country = "AR" }
side = "SIDE_AR"
at = "Latin America"
rule = "SSA-18.8"
units = [{ id = "AR-inf", nation = "AR", type = "infantry_division", count = 2 }, { id = "AR-bf", nation = "AR", type = "battle_fleet", count = 1 }]
[[reinforcements]]
id = "BR-enters-war"
trigger = { event = "country_enters_war", country = "BR" }
side = "SIDE_BR"
at = "Latin America"
rule = "SSA-18.9"
units = [{ id = "BR-mot", nation = "BR", type = "motorized_infantry_division", count = 1 }]
[[reinforcements]]
id = "CH-enters-war"
trigger = { event = "country_enters_war", country = "CH" }
side = "event"
at = "Latin America"
rule = "SSA-18.10"
units = [{ id = "CH-inf", nation = "CH", type = "infantry_division", count = 1 }]
"""


@pytest.fixture(scope="module")
def minor_map(tmp_path_factory):
    return built_map_dir(tmp_path_factory, "minor", build_ssa_minor_map)


@pytest.fixture
def game(minor_map, tmp_path):
    def make(units=(), *, rules=("SSA-25",), axis=50, allies=50, extra="", abc=("axis", "allies")):  # noqa: ANN001, ANN202
        text = (f"[options]\noptional_rules = {list(rules)!r}\n".replace("'", '"')
                + f'[tracks]\n"axis.morale" = {axis}\n"allies.morale" = {allies}\n{extra}\n'
                + ABC.replace("SIDE_AR", abc[0]).replace("SIDE_BR", abc[1]))
        path = tmp_path / "scenario.toml"
        path.write_text(scenario_text(minor_map, list(units), extra=text,
                                      allied_nations=("US", "BC", "HO", "GU", "ALP")))
        return load_scenario(path)

    return make


def begun(g, *dice: int):  # noqa: ANN001, ANN202
    """A new game whose first war-events roll uses ``dice``; stops at the Spend step or at a
    decision a war event asks for."""
    s = g.new_state(seed=1)
    s.dice = FixedDice(*dice)
    for _ in range(20):
        if s.decision.kind in ("mobilization/spend", "coup_choice", "event_place"):
            return s
        s.advance()
    raise AssertionError(s.clock)


def events(s, kind: str) -> list[dict]:  # noqa: ANN001
    return [{**e, "data": json.loads(e["data"]) if isinstance(e["data"], str) else e["data"]}
            for e in s.log if e["kind"] == kind]


def unit(uid: str, nation: str, at: str, utype: str = "infantry_division") -> dict:
    return {"id": uid, "nation": nation, "type": utype, "at": at}


# ------------------------------------------------------------------ SSA-25.G, 25.1, 25.2
def test_ssa_25_1_two_dice_read_as_tens_and_ones(game):
    s = begun(game(), 4, 1)
    (roll,) = events(s, "roll")
    assert roll["dice"] == [4, 1] and roll["rule"] == "SSA-25.1" and "war event" in roll["purpose"]
    (ev,) = events(s, "war_event")
    assert ev["data"]["outcome"] == 41 and ev["data"]["event"] == "ultra"


def test_ssa_25_g_the_player_with_higher_morale_rolls(game):
    s = begun(game(axis=70, allies=50), 5, 1)
    assert events(s, "roll")[0]["side"] == "axis"
    s = begun(game(axis=40, allies=50), 5, 1)
    assert events(s, "roll")[0]["side"] == "allies"


def test_ssa_25_2_the_allied_player_rolls_on_a_tie(game):
    s = begun(game(axis=50, allies=50), 5, 1)
    assert events(s, "roll")[0]["side"] == "allies"


def test_ssa_25_g_no_war_events_without_the_optional_rule(game):
    s = begun(game(rules=()), 4, 1)
    assert not events(s, "war_event") and not events(s, "roll")


def test_ssa_25_3_every_outcome_11_to_66_has_a_result_and_every_printed_result_is_on_the_table(game):
    s = game().new_state(seed=1)
    table = s.ruleset.tables["war_events"]
    outcomes = {int(k): v for k, v in table["outcomes"].items() if k.isdigit()}
    assert sorted(outcomes) == [10 * a + b for a in range(1, 7) for b in range(1, 7)]
    assert PRINTED <= set(outcomes.values()) <= set(table["results"])
    assert table["outcomes"]["source"] == "authored"


# ------------------------------------------------------------------ SSA-25.3 results
def test_ssa_25_3_assassination_plot_axis_morale_minus_three_times_one_die(game):
    s = begun(game(axis=80, allies=50), 2, 5, 4)
    assert s.tracks["axis.morale"] == 80 - 3 * 4
    assert events(s, "roll")[1]["rule"] == "SSA-25.3"


@pytest.mark.parametrize(("outcome", "axis", "factor"), [
    ((2, 1), 20, 0.0),   # Revolt in Europe, Axis morale low: no MP
    ((2, 1), 50, 1.0),   # ... average: no effect
    ((2, 2), 50, 0.5),   # Unrest in Europe, average: halved, rounded up
    ((2, 3), 20, 0.5),   # ... low
    ((2, 2), 80, 1.0),   # ... high: no effect
    ((2, 4), 80, 2.0),   # Europe rallies to Germany, high: doubled
    ((2, 4), 50, 1.0),
])
def test_ssa_25_3_german_mobilization_points_this_turn(game, outcome, axis, factor):
    base = income(game(axis=axis).new_state(seed=1))["GE"]
    assert (base["industrial"], base["non_industrial"]) == (8, 15)  # 15 I halved before 1943 (16.13b), 15 NI
    s = begun(game(axis=axis), *outcome)
    assert s.tracks["GE.mp.industrial"] == math.ceil(8 * factor)
    assert s.tracks["GE.mp.non_industrial"] == math.ceil(15 * factor)


def test_ssa_19_x_ultra_reveals_every_axis_stack_this_turn_only(game):
    units = [unit("GE-1", "GE", "0505"), unit("US-1", "US", "0306")]
    s = begun(game(units), 4, 2)
    assert s.markers["reveal_all"] == {"allies": s.turn_label}
    assert revealed_hexes(s, "allies") == {"0505"} and revealed_hexes(s, "axis") == set()
    s.markers["reveal_all"] = {"allies": "1942-05"}  # last turn's ULTRA has lapsed
    assert revealed_hexes(s, "allies") == set()


def test_ssa_19_x_enigma_reveals_every_allied_stack_to_the_axis(game):
    units = [unit("GE-1", "GE", "0505"), unit("US-1", "US", "0306")]
    s = begun(game(units), 4, 4)
    assert revealed_hexes(s, "axis") == {"0306"}
    s.markers["reveal_all"]["allies"] = "1942-05"
    s.dice = FixedDice(5, 1)
    start_of_turn(s)  # the next roll clears lapsed marks
    assert s.markers["reveal_all"] == {"axis": s.turn_label}


def test_ssa_25_3_axis_leader_drawn_at_random_and_placed_anywhere(game):
    units = [unit("GE-ldr1", "GE", "Force pool", "leader"), unit("GE-ldr2", "GE", "Force pool", "leader"),
             unit("US-1", "US", "0806")]
    s = begun(game(units), 1, 1, 2)
    assert events(s, "roll")[1]["purpose"].startswith("which axis leader")
    assert s.decision.kind == "event_place" and s.decision.side == "axis"
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "event_place", "unit": "GE-ldr2", "hex": "0806"})  # among enemy units
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "event_place", "unit": "GE-ldr2", "hex": "0105"})  # sea
    s.apply({"kind": "event_place", "unit": "GE-ldr2", "hex": "0905"})
    assert s.unit("GE-ldr2").location == "0905" and s.unit("GE-ldr1").location == "Force pool"
    assert s.decision.kind == "mobilization/spend"


def test_ssa_25_3_leader_event_without_a_waiting_leader_has_no_effect(game):
    s = begun(game(), 1, 3)
    assert s.decision.kind == "mobilization/spend"
    assert events(s, "war_event_effect")[0]["data"]["effect"] == "none"


@pytest.mark.parametrize(("allies", "count"), [(80, 3), (50, 2), (20, 1)])
def test_ssa_25_3_allied_partisans_three_two_one_by_morale_underground(game, allies, count):
    s = begun(game(allies=allies), 1, 5)
    pending = s.frames[-1]["data"]["pending"]
    assert len(pending) == count
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "event_place", "unit": pending[0], "hex": "1003"})  # mountains
    for k, uid in enumerate(list(pending)):
        s.apply({"kind": "event_place", "unit": uid, "hex": ["0806", "0503", "0903"][k]})
    placed = [s.unit(u) for u in s.units_by_id if u.startswith("ALP-we")]
    assert len(placed) == count and all(u.props.get("underground") and u.side == "allies" for u in placed)


def test_ssa_25_3_coup_axis_high_axis_chooses_a_country_to_turn_pro_axis(game):
    s = begun(game([unit("HO-1", "HO", "1405")], axis=80), 3, 1)
    assert s.decision.kind == "coup_choice" and s.decision.side == "axis"
    assert {o["country"] for o in s.legal_orders_of("coup_choice")} == {"GT", "HN"}
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "coup_choice", "country": "US"})
    s.apply({"kind": "coup_choice", "country": "HN"})
    assert country_side(s, "HN") == "axis" and s.unit("HO-1").side == "axis"
    assert s.markers["city_control"]["1306"] == "axis" and s.markers["policy"]["1306"] == "coup"


def test_ssa_25_3_coup_axis_low_allies_take_back_a_pro_axis_country(game):
    s = begun(game([unit("HO-1", "HO", "1405")], axis=20), 3, 2)
    assert s.decision.kind == "mobilization/spend"  # no pro-Axis country yet: no effect
    s = game([unit("HO-1", "HO", "1405")], axis=80).new_state(seed=1)
    s.dice = FixedDice(3, 1)
    start_of_turn(s)
    s.apply({"kind": "coup_choice", "country": "HN"})
    s.tracks["axis.morale"] = 20
    s.dice = FixedDice(3, 2)
    start_of_turn(s)
    assert s.decision.kind == "coup_choice" and s.decision.side == "allies"
    s.apply({"kind": "coup_choice", "country": "HN"})
    assert country_side(s, "HN") == "allies" and s.unit("HO-1").side == "allies"


def test_ssa_25_3_coup_at_average_axis_morale_has_no_effect(game):
    s = begun(game(axis=50), 3, 1)
    assert s.decision.kind == "mobilization/spend" and country_side(s, "HN") == "allies"


def test_ssa_25_3_fuhrer_order_and_quiet_outcomes_are_logged_no_effects(game):
    s = begun(game(), 6, 1)
    assert events(s, "war_event")[0]["data"]["event"] == "fuhrer_order"
    assert "no effect" in events(s, "war_event_effect")[0]["text"]
    s = begun(game(), 5, 5)
    assert events(s, "war_event")[0]["data"]["event"] == "no_event"


def test_ssa_25_3_eastern_front_halves_german_mp_while_the_soviet_union_stands(game):
    sr = '[[special_rules]]\nid = "SR4"\neffect = "soviet_union_conquered"\nvalue = VALUE\n'
    s = begun(game(extra=sr.replace("VALUE", "false")), 4, 5)
    assert (s.tracks["GE.mp.industrial"], s.tracks["GE.mp.non_industrial"]) == (4, 8)
    s = begun(game(extra=sr.replace("VALUE", "true")), 4, 5)
    assert (s.tracks["GE.mp.industrial"], s.tracks["GE.mp.non_industrial"]) == (8, 15)


# ------------------------------------------------------------------ SSA-18.8-18.10 entering the war
def test_ssa_18_8_argentina_joins_the_axis_in_the_latin_america_box_at_high_axis_morale(game):
    s = begun(game(axis=80), 3, 3)
    ar = [u for u in s.units_by_id.values() if u.nation == "AR"]
    assert sorted(u.id for u in ar) == ["AR-bf", "AR-inf-1", "AR-inf-2"]
    assert all(u.side == "axis" and u.location == "Latin America" for u in ar)
    assert "AR" in s.markers["entered_war"]
    s.dice = FixedDice(3, 3)
    start_of_turn(s)  # already in the war: nothing more arrives
    assert len([u for u in s.units_by_id.values() if u.nation == "AR"]) == 3


def test_ssa_18_8_argentina_stays_neutral_unless_axis_morale_is_high(game):
    s = begun(game(axis=50), 3, 3)
    assert not [u for u in s.units_by_id.values() if u.nation == "AR"]


def test_ssa_18_8_argentina_never_joins_the_allies(game):
    s = game(abc=("event", "event")).new_state(seed=1)
    assert enter_war(s, "AR", "allies", "test") == []
    assert not [u for u in s.units_by_id.values() if u.nation == "AR"]


def test_ssa_18_9_brazil_joins_the_allies_at_high_allied_morale(game):
    s = begun(game(allies=80), 3, 4)
    assert s.unit("BR-mot").side == "allies" and s.unit("BR-mot").location == "Latin America"
    s = begun(game(allies=50, axis=80), 3, 4)
    assert "BR-mot" not in s.units_by_id


@pytest.mark.parametrize(("axis", "allies", "side"), [(80, 50, "axis"), (50, 80, "allies"),
                                                     (80, 80, None), (50, 50, None)])
def test_ssa_18_10_chile_joins_the_one_side_at_high_morale(game, axis, allies, side):
    s = begun(game(axis=axis, allies=allies), 3, 5)
    if side is None:
        assert "CH-inf" not in s.units_by_id
    else:
        assert s.unit("CH-inf").side == side and s.unit("CH-inf").location == "Latin America"
        assert country_side(s, "CH") == side


def test_ssa_sc5_sr2_entering_the_neutral_latin_america_box_brings_abc_in_on_the_other_side(game):
    sr = ('[[special_rules]]\nid = "SR2"\nrule = "SSA-SC5 SR2"\neffect = "neutral_box_trigger"\n'
          'box = "Latin America"\ncountries = ["AR", "BR", "CH"]\njoin = "other_side"\n')
    s = game([unit("US-1", "US", "0806")], rules=(), extra=sr, abc=("event", "event")).new_state(seed=1)
    neutral_box_trigger(s)
    assert not s.markers.get("entered_war")
    s.unit("US-1").location = "Latin America"
    neutral_box_trigger(s)
    assert s.unit("AR-inf-1").side == "axis" and s.unit("CH-inf").side == "axis"
    assert "BR-mot" not in s.units_by_id  # Brazil may only be Allied (SSA-18.9): it stays neutral


# ------------------------------------------------------------------ SSA-3.2 (the optional charts)
def test_ssa_3_2_war_events_and_subversion_tables_exist_as_authored_data(game):
    t = game().new_state(seed=1).ruleset.tables
    we, sub = t["war_events"], t["subversion"]
    assert we["optional_rule"] == "SSA-25" and we["outcomes"]["source"] == "authored"
    assert all(g["rationale"] for k, g in we["groups"].items() if isinstance(g, dict))
    assert sub["optional_rule"] == "SSA-27" and sub["chart"]["source"] == "authored" and sub["chart"]["rationale"]
    assert [sub["chart"][c].index("P") for c in ("1", "2", "3")] == [6, 5, 4]  # die (0-7) of the first P
    assert sub["procedure"]["morale_modifier"] == {"high": 1, "average": 0, "poor": -1}
    assert len(t["weather"]["rows"]) == 8  # the Weather Table exists (rows 0-7, partly authored)
