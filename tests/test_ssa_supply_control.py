"""SS Amerika supply (SSA-10) and city control (SSA-17) on the test map."""

from __future__ import annotations

import numpy as np

from workbench.rulesets.ssa.occupation import city_owner, end_of_player_turn
from workbench.rulesets.ssa.supply import supply_status


def state_of(ssa_game, units, **kw):
    return ssa_game(units, **kw).new_state(seed=1)


def test_ssa_10_1d_allied_units_trace_mf_to_industrial_city(ssa_game):
    # Mill Town (0806) is an Allied industrial city: a US infantry (MF 5, foot) 5 clear hexes away is
    # supplied; one whose cheapest line costs more than 5 (around the lake at 0810) is not.
    s = state_of(ssa_game, [
        {"id": "US-near", "nation": "US", "type": "infantry_division", "at": "0801"},  # 5 clear hexes
        {"id": "US-far", "nation": "US", "type": "infantry_division", "at": "0811"},  # lake in the way
    ])
    st = supply_status(s, "allies")
    assert st == {"US-near": True, "US-far": False}


def test_ssa_10_1b_logistic_chain_extends_supply(ssa_game):
    # A motorized logistic corps (MF 8, mech) within its MF of the source lets a distant unit trace to it.
    s = state_of(ssa_game, [
        {"id": "US-far", "nation": "US", "type": "infantry_division", "at": "1012"},
        {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "1011"},
    ])
    assert supply_status(s, "allies")["US-far"] is True
    assert supply_status(s, "allies")["US-log"] is True
    alone = state_of(ssa_game, [{"id": "US-far", "nation": "US", "type": "infantry_division", "at": "1012"}])
    assert supply_status(alone, "allies")["US-far"] is False


def test_ssa_8_4_supply_not_through_enemy_zoc(ssa_game):
    # Wall the unit at 0811 off with German units whose ZOC covers the path north.
    units = [{"id": "US-near", "nation": "US", "type": "infantry_division", "at": "0811"}]
    units += [{"id": f"GE-{c}", "nation": "GE", "type": "infantry_division", "at": f"{c:02d}09"}
              for c in range(4, 15, 2)]
    s = state_of(ssa_game, units)
    assert supply_status(s, "allies")["US-near"] is False


def test_ssa_10_1e_axis_supplied_only_by_convoy_with_sea_trace(ssa_game):
    ge = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0405"}
    s = state_of(ssa_game, [ge])
    assert supply_status(s, "axis")["GE-inf"] is False  # no naval extension
    convoy = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}  # Port City: a port
    s = state_of(ssa_game, [ge, convoy])
    assert supply_status(s, "axis")["GE-inf"] is True
    # an Allied battle fleet on the only sea approach cuts the trace
    fleet = [{"id": f"US-bb{r}", "nation": "US", "type": "battle_fleet", "at": f"02{r:02d}"} for r in range(1, 13)]
    s = state_of(ssa_game, [ge, convoy, *fleet])
    assert supply_status(s, "axis")["GE-inf"] is False


def test_ssa_10_1f_coastal_convoy_supplies_three_divisions(ssa_game):
    units = [{"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0303"}]  # coastal, no port
    units += [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": h}
              for i, h in enumerate(["0403", "0404", "0402", "0502"])]
    st = supply_status(state_of(ssa_game, units), "axis")
    assert sum(st.values()) == 3


def test_ssa_10_1f_a_logistic_corps_counts_against_the_coastal_limit(ssa_game):
    """SSA-10.1f "a coastal hex up to three divisions"; 9.1c "Corps sized units are considered
    equivalent to a division": three infantry divisions and a logistic corps at a plain coastal
    convoy -- only three of the four are supplied."""
    units = [{"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0303"}]  # coastal, no port
    units += [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": h}
              for i, h in enumerate(["0403", "0404", "0402"])]
    units.append({"id": "GE-log", "nation": "GE", "type": "motorized_logistic_corps", "at": "0502"})
    st = supply_status(state_of(ssa_game, units), "axis")
    assert sum(st.values()) == 3


def test_ssa_10_1f_allied_convoys_extend_supply_by_sea_too(ssa_game):
    """SSA-10.1f: "both players may trace supply across all sea hexes ... by having a transport unit
    on any coastal or port hex, tracing the supply line through sea hexes free of enemy naval units
    and their zones of control, back to a friendly port hex or holding area".  US-inf at 0312, six
    hexes from Port City (MF 5), is supplied by a US convoy there whose sea line runs back to Port
    City; a German fleet at 0211 cuts that line."""
    inf = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0312"}
    tp = {"id": "US-tp", "nation": "US", "type": "transport", "at": "0312"}
    assert supply_status(state_of(ssa_game, [inf]), "allies")["US-inf"] is False
    assert supply_status(state_of(ssa_game, [inf, tp]), "allies")["US-inf"] is True
    bb = {"id": "GE-bb", "nation": "GE", "type": "battle_fleet", "at": "0211"}
    assert supply_status(state_of(ssa_game, [inf, tp, bb]), "allies")["US-inf"] is False


def test_ssa_12_3a_a_bombed_port_supplies_only_as_a_coastal_hex(ssa_game):
    import numpy as np

    units = [{"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0306"}]  # Port City, a port
    units += [{"id": f"GE-inf{i}", "nation": "GE", "type": "infantry_division", "at": h}
              for i, h in enumerate(["0405", "0406", "0307", "0305"])]
    s = state_of(ssa_game, units)
    assert sum(supply_status(s, "axis").values()) == 4  # a port supplies any number (SSA-10.1f)
    bombed = np.zeros(s.map.size, dtype=bool)
    bombed[s.map.index("0306")] = True  # "a coastal city cannot be used as a port"
    s.arrays["bombed"] = bombed
    assert sum(supply_status(s, "axis").values()) == 3  # the coastal-hex limit of 3 divisions


def test_ssa_15_6a_axis_always_supplied_in_europe(ssa_game):
    s = state_of(ssa_game, [{"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "Europe"},
                            {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "Europe"}])
    assert supply_status(s, "axis")["GE-inf"] is True
    assert supply_status(s, "allies")["US-inf"] is False  # no logistic unit + transport there


def test_ssa_17_3a_collaboration_with_military_government(ssa_game):
    s = state_of(ssa_game, [{"id": "GE-mg", "nation": "GE", "type": "military_government", "at": "0806"}])
    mill = s.map.index("0806")
    assert city_owner(s, mill) == "allies"
    end_of_player_turn(s, "axis")
    assert city_owner(s, mill) == "axis"
    assert s.markers["policy"]["0806"] == "collaboration"


def test_ssa_17_3_no_government_no_control(ssa_game):
    s = state_of(ssa_game, [{"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0806"}])
    end_of_player_turn(s, "axis")
    assert city_owner(s, s.map.index("0806")) == "allies"


def test_ssa_17_3b_atrocity_needs_ss_and_mg_and_mg_must_stay(ssa_game):
    s = state_of(ssa_game, [{"id": "GE-mg", "nation": "GE", "type": "military_government", "at": "0806"},
                            {"id": "SS-inf", "nation": "SS", "type": "infantry_division", "at": "0806"}])
    end_of_player_turn(s, "axis")
    assert s.markers["atrocity"] == ["0806"] and city_owner(s, s.map.index("0806")) == "axis"
    s.unit("GE-mg").location = "0805"
    end_of_player_turn(s, "axis")
    assert city_owner(s, s.map.index("0806")) is None  # SSA-17.5


def test_ssa_17_4b_atrocity_city_needs_allied_mg(ssa_game):
    s = state_of(ssa_game, [{"id": "GE-mg", "nation": "GE", "type": "military_government", "at": "0806"},
                            {"id": "SS-inf", "nation": "SS", "type": "infantry_division", "at": "0806"},
                            {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0906"},
                            {"id": "US-mg", "nation": "US", "type": "military_government", "at": "0907"}])
    end_of_player_turn(s, "axis")
    for uid in ("GE-mg", "SS-inf"):
        s.unit(uid).location = "0406"
    s.unit("US-inf").location = "0806"
    end_of_player_turn(s, "allies")
    assert city_owner(s, s.map.index("0806")) is None  # without an MG: nobody (17.5)
    s.unit("US-mg").location = "0806"
    end_of_player_turn(s, "allies")
    assert city_owner(s, s.map.index("0806")) == "allies" and s.markers["atrocity"] == []


def test_ssa_17_4a_allied_reoccupation_without_atrocity(ssa_game):
    s = state_of(ssa_game, [{"id": "GE-mg", "nation": "GE", "type": "military_government", "at": "0806"},
                            {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0906"}])
    end_of_player_turn(s, "axis")
    s.unit("GE-mg").location = "0406"
    s.unit("US-inf").location = "0806"
    end_of_player_turn(s, "allies")
    assert city_owner(s, s.map.index("0806")) == "allies"
    assert np.all(np.isin(["0806"], list(s.markers["city_control"])))
