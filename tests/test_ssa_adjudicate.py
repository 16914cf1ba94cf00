"""SS Amerika rules calculator, with the rulebook's numbers (one test per rule)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from workbench.rulesets.ssa import adjudicate as adj


def test_ssa_11_G_odds_drop_fractions():
    assert adj.odds_column(11, 5) == "2-1"  # 2.2 -> 2-1
    assert adj.odds_column(12, 4) == "3-1"
    assert adj.odds_column(7.5, 2.5) == "3-1"  # out-of-supply halves keep fractions
    assert adj.odds_column(10, 10) == "1-1"
    assert adj.odds_column(9.9, 10) == "1-1"  # 1:1.01 -> fraction dropped -> 1-1
    assert adj.odds_column(5, 11) == "1-2"  # the literal reading (docs/rulings-ssa.md)


def test_ssa_11_G_odds_clamp_at_both_ends():
    assert adj.odds_column(1, 9) == "1-4"  # "1-4(-)"
    assert adj.odds_column(200, 3) == "10-1"  # "10-1(+)"
    assert adj.odds_column(30, 3) == "10-1"


def test_ssa_11_G_odds_weaker_attacker_option():
    import copy

    tables = {"crt": copy.deepcopy(adj._shipped("crt"))}
    tables["crt"]["odds"]["weaker_attacker_rounding"] = "ceil_defence_ratio"
    assert adj.odds_column(5, 11, tables=tables) == "1-3"


def test_ssa_11_8_shift_clamps():
    assert adj.shift("3-1", 2) == "5-1"
    assert adj.shift("3-1", -3) == "1-2"  # 3-1, 2-1, 1-1, 1-2
    assert adj.shift("1-3", -5) == "1-4"
    assert adj.shift("9-1", 4) == "10-1"


def test_ssa_crt_row_1_as_printed():
    printed = ["AR", "EX", "DR", "DR", "DE", "DE", "DZ", "DZ", "DZ", "DZ", "DZ", "DZ", "DZ"]
    assert [adj.crt(c, 1) for c in adj.columns()] == printed
    with pytest.raises(ValueError):
        adj.crt("1-1", 7)


def test_ssa_crt_authored_rows_are_monotone():
    rank = {"AZ": 0, "AE": 1, "AR": 2, "EX": 3, "DR": 4, "DE": 5, "DZ": 6}
    cols = adj.columns()
    for c in cols:  # worse for the attacker as the die rises
        ranks = [rank[adj.crt(c, d)] for d in range(1, 7)]
        assert ranks == sorted(ranks, reverse=True), c
    for d in range(1, 7):  # better for the attacker as the odds rise
        ranks = [rank[adj.crt(c, d)] for c in cols]
        assert ranks == sorted(ranks), d


def test_ssa_tec_terrain_shifts():
    assert adj.terrain_shift(["clear"], False) == 0
    assert adj.terrain_shift(["forestation"], False) == 1
    assert adj.terrain_shift(["rough"], False) == 2
    assert adj.terrain_shift(["mountains"], False) == 3
    assert adj.terrain_shift(["desert"], False) == -1  # attacker 1: one column right


def test_ssa_11_8_several_defending_hexes_use_best_for_defender():
    assert adj.terrain_shift(["clear", "rough", "forestation"], False) == 2


def test_ssa_tec_river_adds_two_only_if_all_attack_across():
    assert adj.terrain_shift(["rough"], True) == 4
    assert adj.terrain_shift(["clear"], True) == 2
    assert adj.terrain_shift(["rough"], False) == 2


def test_ssa_5_3_movement_costs_as_printed():
    assert adj.movement_cost("clear", True) == 1 and adj.movement_cost("clear", False) == 1
    assert adj.movement_cost("forestation", True) == 2 and adj.movement_cost("forestation", False) == 1
    assert adj.movement_cost("rough", True) == 3 and adj.movement_cost("rough", False) == 2
    assert adj.movement_cost("mountains", True) is None and adj.movement_cost("mountains", False) == 4
    assert adj.movement_cost("desert", True) == 1 and adj.movement_cost("desert", False) == 2
    assert adj.river_cost(True) == 2 and adj.river_cost(False) == 1
    assert adj.movement_cost("sea", False) is None


def test_ssa_9_1_stack_values():
    assert adj.stack_value(["division", "division", "division"]) == 3
    assert adj.stack_value(["regiment"] * 3) == 1
    assert adj.stack_value(["corps", "brigade"]) == Fraction(4, 3)
    assert adj.stack_ok(["division", "division", "brigade", "brigade", "regiment"])
    assert not adj.stack_ok(["division", "division", "division", "brigade"])
    assert adj.stack_ok(["corps", "corps", "corps"])
    assert not adj.stack_ok(["corps"] * 4)


def test_ssa_12_1_ground_support_capped_at_land_strength():
    assert adj.ground_support(6, 4) == 4
    assert adj.ground_support(6, 10) == 6
    assert adj.ground_support(2.5, 8) == 2.5  # supply-halved land strength caps it


def test_ssa_11_5_out_of_supply_halves_keeping_fractions():
    assert adj.supply_strength(5, False) == 2.5
    assert adj.supply_strength(5, True) == 5


def test_ssa_20_5_victory_levels():
    assert adj.victory_level(40, 30) == "draw"  # 1.333
    assert adj.victory_level(4001, 3000) == "draw"  # 1.3336 truncates to 1.333
    assert adj.victory_level(1334, 1000) == "marginal"
    assert adj.victory_level(1999, 1000) == "marginal"
    assert adj.victory_level(20, 10) == "strategic"
    assert adj.victory_level(2999, 1000) == "strategic"
    assert adj.victory_level(30, 10) == "total"
    assert adj.victory_level(5, 0) == "total" and adj.victory_level(0, 0) == "draw"


def test_outcome_distribution_is_exact():
    dist = adj.outcome_distribution("1-1")
    assert sum(dist.values()) == 1
    assert dist["DR"] == Fraction(2, 6)
