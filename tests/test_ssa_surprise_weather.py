"""SS Amerika surprise attack (optional rule SSA-30) and weather (optional rule SSA-26) on the
test maps, with scripted dice.  The weather map (ssa_kit.build_ssa_weather_map): land rows 01-04
Zone I, rows 05-12 Zone II; the sea (columns 01-02) is the Pacific, rows 01-04 in band I."""

from __future__ import annotations

import json

import pytest
from ssa_kit import NO_SUPPLY_MOVEMENT_PENALTY, build_ssa_weather_map, built_map_dir, scenario_text
from test_ssa_combat import ALL_IN, CONVOY, GE, US, FixedDice
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.ssa import adjudicate as adj
from workbench.rulesets.ssa import special, surprise, weather
from workbench.rulesets.ssa.combat import assess
from workbench.rulesets.ssa.intelligence import storms

SURPRISE = ('[options]\noptional_rules = ["SSA-21", "SSA-30"]\n[tracks]\n"axis.morale" = 80\n"allies.morale" = 50\n'
            '[[special_rules]]\nid = "SR2"\nrule = "SC1 SR2"\ntext = "The Axis may use the sneak attack rule."\n'
            'effect = "surprise_attack_allowed"\n')


# -- surprise attack (30) ------------------------------------------------------------------------
def past_setup(state):
    """End the set-up step (SSA-SC.4) for both sides."""
    while state.decision is not None and state.decision.kind == "start/setup":
        state.advance()
    return state


@pytest.fixture
def turn1(ssa_game):
    def make(units, *faces, extra=SURPRISE):
        state = past_setup(ssa_game(units, extra=NO_SUPPLY_MOVEMENT_PENALTY + extra).new_state(seed=1))
        if faces:
            state.dice = FixedDice(*faces)
        return state

    return make


def test_ssa_30_1_declared_at_the_beginning_of_turn_1(turn1):
    s = turn1([US])
    d = s.decision
    assert (d.side, d.kind, d.rule) == ("axis", "surprise_attack", "SSA-30.1")
    assert s.legal_orders() == [{"kind": "declare_surprise_attack", "declare": True},
                                {"kind": "declare_surprise_attack", "declare": False}]


def test_ssa_30_1_not_offered_without_the_scenario_rule_or_the_option(turn1):
    s = turn1([US], extra='[options]\noptional_rules = ["SSA-30"]\n')
    assert s.decision.kind != "surprise_attack"
    s = turn1([US], extra=SURPRISE.replace('"SSA-21", "SSA-30"', '"SSA-21"'))
    assert s.decision.kind != "surprise_attack"


def test_ssa_30_2d_allied_morale_rises_ten_times_a_die(turn1):
    s = turn1([US], 4)
    s.apply({"kind": "declare_surprise_attack", "declare": True})
    assert s.tracks["allies.morale"] == 90
    roll = s.events().filter(kind="roll").row(-1, named=True)
    assert roll["rule"] == "SSA-30.2d" and roll["side"] == "allies"


def test_ssa_30_2d_capped_at_100(turn1):
    s = turn1([US], 6)
    s.apply({"kind": "declare_surprise_attack", "declare": True})
    assert s.tracks["allies.morale"] == 100


def test_ssa_30_2c_allied_land_mf_halved_on_turn_1_only(turn1):
    s = turn1([{**US, "at": "0401"}], 1)
    s.apply({"kind": "declare_surprise_attack", "declare": True})
    s = to_step(s, "player/initial-movement", "allies")
    with pytest.raises(IllegalOrder, match="SSA-30.2c"):  # MF 5 halved: 2
        s.apply({"kind": "move", "unit": "US-inf", "path": ["0402", "0403", "0404"]})
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0402", "0403"]})
    s.advance()
    s = to_step(s, "player/initial-movement", "allies", limit=80)  # turn 2
    assert s.turn == 1
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0404", "0405", "0406", "0407", "0408"]})


def test_ssa_30_2b_allied_air_may_not_intercept(turn1):
    s = turn1([US, {"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0806"}], 1)
    s.apply({"kind": "declare_surprise_attack", "declare": True})
    assert special.frozen(s, s.unit("US-f"), "no_interception")
    assert not special.frozen(s, s.unit("US-f"), "no_move")


def test_ssa_30_2a_allied_naval_defence_halved(turn1):
    s = turn1([US, {"id": "US-bf", "nation": "US", "type": "battle_fleet", "at": "0205"}], 1)
    bf = s.unit("US-bf")
    assert surprise.naval_defence(s, bf, 8) == 8
    s.apply({"kind": "declare_surprise_attack", "declare": True})
    assert surprise.naval_defence(s, bf, 8) == 4


def test_ssa_30_G_declining_changes_nothing(turn1):
    s = turn1([US], 4)
    s.apply({"kind": "declare_surprise_attack", "declare": False})
    assert s.tracks["allies.morale"] == 50 and not surprise.active(s)


# -- weather (26) ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def weather_map(tmp_path_factory) -> str:
    return built_map_dir(tmp_path_factory, "ssa-weatherland", build_ssa_weather_map)


@pytest.fixture
def wgame(tmp_path, weather_map):
    def make(units, *, first="1942-09", extra="", rules='"SSA-26"'):
        path = tmp_path / "w.toml"
        path.write_text(scenario_text(weather_map, units, first=first, last=first,
                                      extra=NO_SUPPLY_MOVEMENT_PENALTY + f'[options]\noptional_rules = [{rules}]\n'
                                      + extra))
        return load_scenario(path)

    return make


def set_weather(state, **zones) -> None:
    w = {"I": "C", "II": "C", "III": "C", "IV": "C", "Atlantic": "C", "Pacific": "C"}
    w.update(zones)
    state.markers["weather"] = w


def test_ssa_26_1_axis_rolls_one_die_and_reads_all_six_columns(wgame):
    g = wgame([US])
    s = g.new_state(seed=1)
    s.dice = FixedDice(3)
    past_setup(s)
    w = s.markers["weather"]
    assert (w["I"], w["II"], w["III"], w["IV"], w["Atlantic"], w["Pacific"]) == ("P", "C", "C", "C", "C", "C")
    roll = s.events().filter(kind="roll", rule="SSA-26.1").row(0, named=True)
    assert roll["side"] == "axis"


@pytest.mark.parametrize("month,die,row", [("1943-01", 6, "7"), ("1942-07", 1, "0"), ("1942-10", 2, "2")])
def test_ssa_26_2_month_modifiers(wgame, month, die, row):
    s = wgame([US], first=month).new_state(seed=1)
    s.dice = FixedDice(die)
    past_setup(s)
    assert s.markers["weather_roll"] == int(row)
    assert list(s.markers["weather"].values()) == s.ruleset.tables["weather"]["rows"][row]


def test_ssa_26_G_no_weather_without_the_option(wgame):
    s = wgame([US], rules="").new_state(seed=1)
    assert not s.events().filter(kind="weather").height and weather.current(s) is None


def test_ssa_26_3_C_forced_by_the_scenario_and_roll_seven(wgame):
    forced = '[[special_rules]]\nid = "SR1"\nrule = "SC1 SR1"\ntext = "clear"\neffect = "weather_forced"\nturn = 1\nresult = "C"\n'
    s = past_setup(wgame([US], extra=forced).new_state(seed=1))
    assert set(s.markers["weather"].values()) == {"C"} and not s.events().filter(kind="roll").height
    seven = '[[special_rules]]\nid = "SR1"\nrule = "SC3 SR1"\ntext = "7"\neffect = "weather_forced_roll"\nturns = [1]\nroll = 7\n'
    s = past_setup(wgame([US], extra=seven).new_state(seed=1))
    assert s.markers["weather_roll"] == 7 and s.markers["weather"]["I"] == "S"


def mover(wgame, units, side="allies", **zones):
    s = to_step(wgame(units).new_state(seed=1), "player/initial-movement", side)
    set_weather(s, **zones)
    return s


def test_ssa_26_3_P_precipitation_adds_one_except_on_transportation_lines(wgame):
    s = mover(wgame, [{**US, "at": "0508"}], II="P")
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0507"]})  # clear 1 + 1
    assert s.unit("US-inf").props["mf_spent"] == 2
    s = mover(wgame, [{**US, "at": "0406"}], II="P")
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0506", "0606"]})  # along the line: 1/2 each
    assert s.unit("US-inf").props["mf_spent"] == 1


def test_ssa_26_3_S_storms_add_two_and_one_on_lines(wgame):
    s = mover(wgame, [{**US, "at": "0508"}], II="S")
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0507"]})
    assert s.unit("US-inf").props["mf_spent"] == 3
    s = mover(wgame, [{**US, "at": "0406"}], II="S")
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0506", "0606"]})  # (1/2 + 1) each
    assert s.unit("US-inf").props["mf_spent"] == 3


def test_ssa_26_3_T_heat_adds_one_on_roads_too(wgame):
    s = mover(wgame, [{**US, "at": "0406"}], II="T")
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0506"]})
    assert s.unit("US-inf").props["mf_spent"] == 1.5


def test_ssa_26_3_only_the_zone_with_the_weather(wgame):
    s = mover(wgame, [{**US, "at": "0503"}], I="S")  # Zone I storms; 0505 is in Zone II
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0504"]})  # forestation, foot 1 (+2 in Zone I)
    assert s.unit("US-inf").props["mf_spent"] == 3
    s.apply({"kind": "move", "unit": "US-inf", "path": ["0505"]})
    assert s.unit("US-inf").props["mf_spent"] == 4


def test_ssa_26_3_F_rivers_and_lakes_freeze(wgame):
    pz = {"id": "US-ar", "nation": "US", "type": "armor_division", "at": "0709"}
    s = mover(wgame, [pz], II="F")
    s.apply({"kind": "move", "unit": "US-ar", "path": ["0809"]})  # across the river: no +2 when frozen
    assert s.unit("US-ar").props["mf_spent"] == 1
    s.apply({"kind": "move", "unit": "US-ar", "path": ["0810"]})  # the lake, frozen: clear
    assert s.unit("US-ar").location == "0810"
    s = mover(wgame, [pz], II="C")
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "move", "unit": "US-ar", "path": ["0809", "0810"]})


def fight(wgame, zones, units=None):
    s = to_step(wgame(units or [*GE, CONVOY, US]).new_state(seed=1), "player/combat/land", "axis")
    set_weather(s, **zones)
    return s


@pytest.mark.parametrize("code", ["F", "S"])
def test_ssa_26_3_F_S_combat_one_column_left(wgame, code):
    s = fight(wgame, {"II": code})
    a = assess(s, "axis", ALL_IN["attackers"], ["0505"])
    assert [(n, r) for n, _, r in a.shifts] == [(-1, "SSA-26.3")]
    assert a.column == adj.shift(a.base_column, -1, tables=s.ruleset.tables)


def test_ssa_26_5_the_defenders_hex_decides(wgame):
    ge = [{"id": "GE-a", "nation": "GE", "type": "infantry_division", "at": "0504"},
          {"id": "GE-b", "nation": "GE", "type": "infantry_division", "at": "0604"}]
    us = {**US, "at": "0505"}
    s = fight(wgame, {"I": "F"}, [*ge, CONVOY, us])  # attackers in Zone I freeze, defender in Zone II
    assert assess(s, "axis", ["GE-a", "GE-b"], ["0505"]).column == "2-1"  # 16:7, no weather shift
    set_weather(s, II="F")
    assert assess(s, "axis", ["GE-a", "GE-b"], ["0505"]).column == "1-1"


def test_ssa_26_3_S_no_aircraft_fly_and_no_recon(wgame):
    s = mover(wgame, [{"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0806"},
                      {"id": "GE-x", "nation": "GE", "type": "infantry_division", "at": "1008"}], II="S")
    with pytest.raises(IllegalOrder, match="SSA-26.3-S"):
        s.apply({"kind": "fly", "unit": "US-f", "to": "1008", "mission": "interdict_ground"})
    assert storms(s, "0806") and not storms(s, "0803")
    with pytest.raises(IllegalOrder, match="SSA-26.3-S"):
        s.apply({"kind": "recon", "hex": "1008"})


def test_ssa_26_3_P_cloud_check_1_to_3_aborts_the_mission(wgame):
    s = mover(wgame, [{"id": "US-t", "nation": "US", "type": "tactical_bomber", "at": "0806"},
                      {"id": "GE-x", "nation": "GE", "type": "infantry_division", "at": "1008"}], II="P")
    s.apply({"kind": "fly", "unit": "US-t", "to": "1008", "mission": "interdict_ground"})
    s.dice = FixedDice(3)
    s.advance()  # the end of air movement
    assert s.unit("US-t").props["mission"] == "aborted"
    clouds = json.loads(s.events().filter(kind="clouds")["data"][0])
    assert clouds["hex"] == "1008" and s.events().filter(kind="roll")["rule"].to_list()[-1] == "SSA-26.3-P"


def test_ssa_26_3_P_cloud_check_4_to_6_flies(wgame):
    s = mover(wgame, [{"id": "US-t", "nation": "US", "type": "tactical_bomber", "at": "0806"},
                      {"id": "GE-x", "nation": "GE", "type": "infantry_division", "at": "1008"}], II="P")
    s.apply({"kind": "fly", "unit": "US-t", "to": "1008", "mission": "interdict_ground"})
    s.dice = FixedDice(4)
    s.advance()
    assert s.unit("US-t").props["mission"] == "interdict_ground"


def test_ssa_26_3_F_zone_I_fleets_to_the_nearest_port_and_no_naval_movement(wgame):
    s = mover(wgame, [{"id": "US-bf", "nation": "US", "type": "battle_fleet", "at": "0202"}, US], I="F")
    weather.naval_returns(s)
    assert s.unit("US-bf").location == "0306"  # Port City, the nearest friendly port
    closed = weather.naval_closed(s)
    assert closed[s.map.index("0103")] and closed[s.map.index("0303")] and not closed[s.map.index("0208")]


def test_ssa_26_3_H_hurricane_fleets_home_no_naval_movement_no_flying_over_sea(wgame):
    s = mover(wgame, [{"id": "US-bf", "nation": "US", "type": "battle_fleet", "at": "0209"},
                      {"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0806"}], Pacific="H")
    weather.naval_returns(s)
    assert s.unit("US-bf").location == "0306"
    assert weather.naval_closed(s)[s.map.index("0209")] and not weather.naval_closed(s)[s.map.index("0202")]
    with pytest.raises(IllegalOrder, match="SSA-26.3-H"):
        s.apply({"kind": "fly", "unit": "US-f", "to": "0209", "mission": "transfer"})


def test_ssa_26_4_supply_lines_pay_the_weather(wgame):
    from workbench.rulesets.ssa.supply import supply_status

    units = [{**US, "at": "0508"}]  # two clear hexes from the line to Mill Town (0806)
    s = to_step(wgame(units).new_state(seed=1), "player/initial-movement", "allies")
    set_weather(s, II="C")
    clear = supply_status(s, "allies")["US-inf"]
    set_weather(s, II="S")
    assert clear and not supply_status(s, "allies")["US-inf"]
