"""ETO rules calculator (workbench.rulesets.eto.adjudicate), with the rulebook's numbers."""

from __future__ import annotations

import copy

import pytest

from workbench.rulesets.eto import adjudicate as adj


def test_eto_26_1_odds_rounded_for_the_defender():
    """26.1 C: "10 points attacking 4 points becomes a 2:1 attack" (defender-favoured rounding)."""
    assert adj.odds_column(10, 4) == "2:1"
    assert adj.odds_column(11, 4) == "2:1"
    assert adj.odds_column(12, 4) == "3:1"
    assert adj.odds_column(4, 4) == "1:1"
    assert adj.odds_column(3, 4) == "1:2"  # 1:1.33 rounds to 1:2 for the defender
    assert adj.odds_column(4, 9) == "1:3"


def test_eto_26_1_odds_clamps_and_5_to_1():
    """26.1 C: "Odds worse than 1:3 are treated as 1:3; odds better than 6:1 are treated as 6:1.
    Odds of 5:1 are treated as 4:1." """
    assert adj.odds_column(2, 7) == "1:3"
    assert adj.odds_column(1, 20) == "1:3"
    assert adj.odds_column(20, 4) == "4:1"  # 5:1 → 4:1
    assert adj.odds_column(23, 4) == "4:1"
    assert adj.odds_column(24, 4) == "6:1"
    assert adj.odds_column(40, 4) == "6:1"


def test_eto_26_1_table_examples_match():
    """crt.toml [odds].examples are the fixtures the rulings promise (26.1)."""
    for ex in adj._shipped("crt")["odds"]["examples"]:
        assert adj.odds_column(ex["attack"], ex["defend"]) == ex["column"], ex


def test_eto_26_2_permanent_fortification_doubles_only_if_all_attack_across():
    """26.2: "Land units defending in these hexes have their strength point total doubled, if all
    attacking units attack across fortified hexsides. If the fort is unoccupied ... strength of 2." """
    assert adj.defense_strength(5, fort="permanent", all_across_fortress_hexsides=True) == 10
    assert adj.defense_strength(5, fort="permanent", all_across_fortress_hexsides=False) == 5
    assert adj.defense_strength(0, fort="permanent", all_across_fortress_hexsides=True) == 2


def test_eto_26_2_fortification_marker_adds_two():
    """26.2: "Units defending in these hexes add 2 ... If the fort is unoccupied, it has a combat
    strength of 2." """
    assert adj.defense_strength(4, fort="marker") == 6
    assert adj.defense_strength(0, fort="marker") == 2
    with pytest.raises(ValueError):
        adj.defense_strength(4, fort="moat")


def test_eto_26_2_additions_never_more_than_double_the_base():
    """26.2 NOTE: "the final strength point total ... can never be more than twice its basic strength." """
    assert adj.attack_strength(4, general=3) == 7
    assert adj.attack_strength(4, general=3, bomber_sp=5) == 8
    assert adj.defense_strength(3, general=2, defending_bombers=4) == 6
    assert adj.defense_strength(4, fort="marker", general=9) == 12  # base 6, doubled at most


def test_eto_26_2_naval_bombardment_gunnery_over_four():
    """26.2: "1 strength point for every 4 points of gunnery ... fractions rounded down." """
    assert adj.naval_bombardment_sp(7) == 1
    assert adj.naval_bombardment_sp(8) == 2
    assert adj.attack_strength(6, naval_gunnery=11) == 8


def test_eto_26_2_coastal_intrinsic_strength():
    """26.2: an empty coastal hex has 1, or half the adjacent enemy SP rounded up, +2 for a fort."""
    assert adj.coastal_intrinsic_strength() == 1
    assert adj.coastal_intrinsic_strength([4, 3]) == 4  # 7 / 2 rounded up
    assert adj.coastal_intrinsic_strength([4, 3], fort_marker=True) == 6


def test_eto_26_4_every_die_modifier():
    """26.4: air ±1, mud -1, paratroop +1, blitzkrieg +1, defender OOS +1, attacker OOS -2,
    river -2 (frozen -1), rough -1, amphibious -3; all cumulative."""
    assert adj.combat_drm() == 0
    assert adj.combat_drm(air_superiority="attacker") == 1
    assert adj.combat_drm(air_superiority="defender") == -1
    assert adj.combat_drm(air_superiority="contested") == 0
    assert adj.combat_drm(defender_weather="M") == -1
    assert adj.combat_drm(defender_weather="W") == 0  # E24: no general winter DRM
    assert adj.combat_drm(paratroop=True) == 1
    assert adj.combat_drm(blitzkrieg=True) == 1
    assert adj.combat_drm(defender_unsupplied=True) == 1
    assert adj.combat_drm(attacker_unsupplied=True) == -2
    assert adj.combat_drm(all_across_river=True) == -2
    assert adj.combat_drm(all_across_river=True, river_frozen=True) == -1
    assert adj.combat_drm(defender_rough=True) == -1
    assert adj.combat_drm(amphibious_half=True) == -3
    assert adj.combat_drm(attacker_unsupplied=True, all_across_river=True, defender_rough=True,
                          defender_weather="M") == -6


def test_eto_43_4_soviet_winter_terms():
    """43.4: +1 to Soviet attacks on Axis units in the USSR, -1 to Axis attacks, W turns."""
    assert sum(v for v, _, _ in adj.combat_drm_terms(soviet_winter="soviet_attack")) == 1
    assert sum(v for v, _, _ in adj.combat_drm_terms(soviet_winter="axis_attack")) == -1


def test_eto_26_1_crt_rows_clamped_and_monotone():
    """26.1 D with the authored CRT (GAP-05): modified rolls beyond the rows read on the end rows;
    results improve for the attacker with odds and with the die."""
    rank = adj._shipped("crt")["attacker_rank"]
    cols = adj.columns()
    assert adj.crt("1:3", -9) == adj.crt("1:3", -2) == "AE"
    assert adj.crt("6:1", 12) == adj.crt("6:1", 8) == "DE"
    for c in cols:
        r = [rank[adj.crt(c, d)] for d in range(-2, 9)]
        assert r == sorted(r), c
    for d in range(-2, 9):
        r = [rank[adj.crt(c, d)] for c in cols]
        assert r == sorted(r), d


def test_eto_27_1_result_codes_and_d2_against_forts():
    """27.1: "(D2) ... If this result is gained against any type of enemy fortification, the result
    is treated as 'x' instead"; D2x applies x then D2."""
    assert adj.against_fortification("(D2)") == "x"
    assert adj.against_fortification("D2") == "D2"
    d2x = adj.result_code("D2x")
    assert (d2x["attacker_steps"], d2x["defender_flex"]) == (1, 2)
    assert adj.result_code("(D2)")["defender_retreat"] == 2
    assert adj.result_code("AE")["attacker_eliminated"] and adj.result_code("DE")["defender_eliminated"]
    assert adj.result_code("xx")["attacker_steps"] == 2


def test_eto_24_2_stacking_limits():
    """24.2: "City resource hex: 3 land units; Other land hex: 2 land units ... entirely of Soviet
    units is increased by one ... to 4 and 3 units." """
    assert adj.stacking_limit(True, False) == 3
    assert adj.stacking_limit(False, False) == 2
    assert adj.stacking_limit(True, True) == 4
    assert adj.stacking_limit(False, True) == 3


def test_eto_1_2_mud_and_winter_halve_rounding_up():
    """1.2/1.3: "The movement allowances of infantry and armor units are halved (fractions are
    rounded up)." """
    assert adj.movement_allowance(4, "armor", "F", True) == 4
    assert adj.movement_allowance(4, "armor", "M", True) == 2
    assert adj.movement_allowance(3, "infantry", "W", True) == 2
    assert adj.movement_allowance(2, "infantry", "mud", True) == 1
    assert adj.movement_allowance(2, "paratroop", "winter", True) == 1


def test_eto_33_1_out_of_supply_movement():
    """33.1: infantry and paratroops "reduced to two (2), or one (1) in mud or winter"; armor to one."""
    assert adj.movement_allowance(3, "infantry", "F", False) == 2
    assert adj.movement_allowance(3, "infantry", "M", False) == 1
    assert adj.movement_allowance(2, "paratroop", "F", False) == 2
    assert adj.movement_allowance(4, "armor", "F", False) == 1
    with pytest.raises(ValueError):
        adj.movement_allowance(4, "cavalry", "F", True)


def test_eto_23_4_hq_interval():
    """23.4: "two HQs with radii of 2 and 5 ... could never be closer together than 5 hexes";
    not across an all-sea hex or hexside."""
    assert adj.hq_interval_ok(2, 5, 5)
    assert not adj.hq_interval_ok(2, 5, 4)
    assert adj.hq_interval_ok(2, 5, 1, sea_between=True)


def test_eto_23_6_combined_offensive_cost():
    """23.6: "a cost of 4 EPs must be paid for a combined offensive involving three HQs"; in a W
    turn 4 per extra HQ, not 2, for all nations except the Soviet Union."""
    assert adj.combined_offensive_eps(3, "GE", False) == 4
    assert adj.combined_offensive_eps(1, "GE", False) == 0
    assert adj.combined_offensive_eps(3, "GE", True) == 8
    assert adj.combined_offensive_eps(3, "SU", True) == 4


def test_eto_22_6_impromptu_cost():
    """22.6/1.3: twice an offensive; in a W turn twice the winter-seasonal cost (SU never doubles)."""
    assert adj.impromptu_cost("GE", False) == 4
    assert adj.impromptu_cost("GE", True) == 8
    assert adj.impromptu_cost("UK", True) == 12
    assert adj.impromptu_cost("SU", True) == 4


def test_eto_38_3_offensive_costs():
    """38.3: 2 EPs for Germany, Italy and the USSR, 3 for France, UK, US; doubled in winter seasonal
    turns except for the Soviet Union."""
    assert [adj.offensive_cost(n) for n in ("GE", "IT", "SU", "FR", "UK", "US")] == [2, 2, 2, 3, 3, 3]
    assert adj.offensive_cost("GE", winter_seasonal=True) == 4
    assert adj.offensive_cost("SU", winter_seasonal=True) == 2


def test_eto_27_5_general_fate():
    """27.5: "on a 1-2, the general is permanently eliminated ... On a 3-6, place the general in the
    force pool"; 43.7: Zhukov "only on a roll of 1"."""
    assert [adj.general_fate(d) for d in range(1, 7)] == ["eliminated"] * 2 + ["force_pool"] * 4
    assert [adj.general_fate(d, zhukov=True) for d in (1, 2)] == ["eliminated", "force_pool"]
    with pytest.raises(ValueError):
        adj.general_fate(7)


def test_eto_36_1_negative_track_netted():
    """36.1: "if Germany receives an income of 132 EPs, but shows -20 ... the EPs are marked at 112." """
    assert adj.net_income(132, -20) == 112
    assert adj.net_income(50, 10) == 60


def test_eto_37_3_rebuild_half_cost():
    """37.3: rebuilt "by paying half the EP cost to build that unit" (halves of odd costs up)."""
    assert adj.rebuild_cost(12) == 6
    assert adj.rebuild_cost(5) == 3


def test_eto_tables_override():
    """Every number comes from the tables: an override changes the answer."""
    tables = {"stacking": copy.deepcopy(adj._shipped("stacking"))}
    tables["stacking"]["limits"]["other_land"] = 5
    assert adj.stacking_limit(False, False, tables=tables) == 5
