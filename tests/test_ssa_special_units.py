"""SS Amerika special units (optional rule SSA-22) on the test map: mountain troops (22.3),
marines (22.2), militia (22.10) and the 22.G switch.

The test map has mountains at 1002, 1003 and 1006 (1006 on the east-west transportation
line of row 06), rough at 0903-0904, industrial cities at 0306 and 0806 and a non-industrial
city (Border Town) at 1306.  Infantry pays 4 MF for a mountain hex; a mountain hex gives the
defender 3 columns (TEC).  A German mountain division is 8-5, a U.S. infantry division 7-5.
"""

from __future__ import annotations

import pytest
from ssa_kit import NO_SUPPLY_MOVEMENT_PENALTY, build_ssa_testmap, built_map_dir
from test_ssa_movement import moved, to_step
from test_ssa_surprise_weather import set_weather, weather_map, wgame  # noqa: F401 - fixtures

from workbench.map import HexMap
from workbench.rulesets.ssa.combat import assess
from workbench.rulesets.ssa.supply import supply_status
from workbench.rulesets.ssa.zoc import land_zoc

MTN = {"id": "GE-mtn", "nation": "GE", "type": "mountain_division", "at": "0903"}
INF = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0904"}
US = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "1003"}


def rules(*names: str) -> str:
    return "[options]\noptional_rules = [" + ", ".join(f'"{n}"' for n in names) + "]\n"


@pytest.fixture(scope="module")
def arctic_map(tmp_path_factory) -> str:
    """The test map with tundra at 0902 and icecap at 0805."""

    def build(path):  # noqa: ANN001, ANN202
        hm = build_ssa_testmap(path)
        terrain = hm.hexes["terrain"].to_list()
        for label, t in (("0902", "tundra"), ("0805", "icecap")):
            terrain[hm.index(label)] = t
        import polars as pl

        out = HexMap("ssa-arctic", hm.grid, hm.hexes.with_columns(pl.Series("terrain", terrain)),
                     hm.sides, hm.places, hm.meta)
        out.save(path)

    return built_map_dir(tmp_path_factory, "ssa-arctic", build)


def mover(ssa_game, units, *on: str):
    s = ssa_game(units, extra=NO_SUPPLY_MOVEMENT_PENALTY + (rules(*on) if on else "")).new_state(seed=1)
    return to_step(s, "player/initial-movement", "axis")


# -- 22.3 mountain troops --------------------------------------------------------------------------
def test_ssa_22_3a_mountain_troops_pay_two_for_a_mountain_hex(ssa_game):
    s = mover(ssa_game, [MTN, {**INF, "at": "0902"}], "SSA-22.3")
    assert moved(s, "GE-mtn", ["1003"]) == 2
    assert moved(s, "GE-inf", ["1002"]) == 4  # infantry still pays the TEC's 4


def test_ssa_22_G_without_the_rule_a_mountain_division_is_infantry(ssa_game):
    s = mover(ssa_game, [MTN])
    assert moved(s, "GE-mtn", ["1003"]) == 4
    s = mover(ssa_game, [MTN], "SSA-22")  # the whole of rule 22 includes 22.3
    assert moved(s, "GE-mtn", ["1003"]) == 2


def test_ssa_22_3a_mountain_troops_pay_two_for_tundra_and_icecap(tmp_path, arctic_map):
    from ssa_kit import scenario_text

    from workbench.engine import load_scenario

    path = tmp_path / "arctic.toml"
    path.write_text(scenario_text(arctic_map, [{**MTN, "at": "0903"}, {**INF, "at": "0804"}],
                                  extra=NO_SUPPLY_MOVEMENT_PENALTY + rules("SSA-22.3")))
    s = to_step(load_scenario(path).new_state(seed=1), "player/initial-movement", "axis")
    assert moved(s, "GE-mtn", ["0902"]) == 2  # tundra: 3 for other foot units (TEC, authored G-02)
    assert moved(s, "GE-mtn", ["0802"]) == 3  # then clear, 1
    assert moved(s, "GE-inf", ["0805"]) == 4  # icecap costs infantry 4
    s = to_step(load_scenario(path).new_state(seed=1), "player/initial-movement", "axis")
    s.apply({"kind": "move", "unit": "GE-mtn", "path": ["0904", "0905", "0805"]})  # rough 2, clear 1, icecap 2
    assert s.unit("GE-mtn").props["mf_spent"] == 5


def test_ssa_22_3b_mountain_troops_zoc_reaches_into_mountains(ssa_game):
    pz = {"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0902"}
    s = mover(ssa_game, [MTN, pz], "SSA-22.3")
    zoc = land_zoc(s, "axis")
    assert zoc[s.map.index("1003")]  # only the mountain division reaches 1003
    s = mover(ssa_game, [pz], "SSA-22.3")
    assert not land_zoc(s, "axis")[s.map.index("1002")]  # a mechanized ZOC stops at mountains (8.6)


def test_ssa_22_3c_mountain_troops_defending_in_mountains_get_one_more_column(ssa_game):
    us = {**US, "at": "0904"}
    ge = {**MTN, "at": "1003"}
    s = to_step(ssa_game([ge, us], extra=rules("SSA-22.3")).new_state(seed=1), "player/combat/land", "allies")
    a = assess(s, "allies", ["US-inf"], ["1003"])
    assert [(n, r) for n, _, r in a.shifts] == [(-3, "SSA-11.8, TEC"), (-1, "SSA-22.3c")]
    off = to_step(ssa_game([ge, us]).new_state(seed=1), "player/combat/land", "allies")
    assert [(n, r) for n, _, r in assess(off, "allies", ["US-inf"], ["1003"]).shifts] == [(-3, "SSA-11.8, TEC")]


def test_ssa_22_3d_a_mountain_unit_in_the_attack_on_a_mountain_hex_gives_one_column(ssa_game):
    s = to_step(ssa_game([MTN, INF, US], extra=rules("SSA-22.3")).new_state(seed=1),
                "player/combat/land", "axis")
    s.markers["air_supplied"] = {"0903": {"side": "axis"}, "0904": {"side": "axis"}}  # SSA-10.1h
    a = assess(s, "axis", ["GE-mtn", "GE-inf"], ["1003"])  # 16:7 -> 2-1, mountains -3, mountain troops +1
    assert (a.attack, a.defense, a.base_column, a.column) == (16, 7, "2-1", "1-2")
    assert [(n, r) for n, _, r in a.shifts] == [(-3, "SSA-11.8, TEC"), (1, "SSA-22.3d")]
    plain = assess(s, "axis", ["GE-inf"], ["1003"])
    assert [r for _, _, r in plain.shifts] == ["SSA-11.8, TEC"]


def test_ssa_22_3e_mountain_troops_alone_ignore_freeze(wgame):  # noqa: F811
    units = [MTN, INF, US]  # 1003 lies in Zone I
    g = wgame(units, rules='"SSA-26", "SSA-22.3"')
    s = to_step(g.new_state(seed=1), "player/combat/land", "axis")
    set_weather(s, I="F")
    alone = assess(s, "axis", ["GE-mtn"], ["1003"])
    assert "SSA-26.3" not in [r for _, _, r in alone.shifts]
    both = assess(s, "axis", ["GE-mtn", "GE-inf"], ["1003"])
    assert (-1, "SSA-26.3") in [(n, r) for n, _, r in both.shifts]


# -- 22.2 marines ----------------------------------------------------------------------------------
TP = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0302"}
MARINE = {"id": "GE-mar", "nation": "GE", "type": "marine_division", "at": "0302"}
GE_I = {"id": "GE-i0", "nation": "GE", "type": "infantry_division", "at": "0302"}


@pytest.mark.parametrize("on,shift", [(True, []), (False, [(-1, "SSA-22.2")])])
def test_ssa_22_2_marines_take_away_the_amphibious_defence_shift(ssa_game, on, shift):
    s = ssa_game([TP, MARINE, GE_I, {**US, "at": "0305"}],
                 extra=rules("SSA-22.2") if on else "").new_state(seed=1)
    s = to_step(s, "player/initial-movement", "axis")
    s.apply({"kind": "embark", "convoy": "GE-tp", "units": ["GE-mar", "GE-i0"]})
    s.apply({"kind": "sail", "unit": "GE-tp", "to": "0305"})
    s.apply({"kind": "amphibious_assault", "convoy": "GE-tp", "units": ["GE-mar", "GE-i0"]})
    s = to_step(s, "player/combat/land", "axis")
    a = assess(s, "axis", ["GE-mar", "GE-i0"], ["0305"])
    assert [(n, r) for n, _, r in a.shifts] == shift


# -- 22.10 militia ---------------------------------------------------------------------------------
MILITIA = {"id": "US-mil", "nation": "US", "type": "militia_division", "at": "0406"}


def test_ssa_22_10_militia_draw_supply_only_from_a_friendly_town_within_their_mf(ssa_game):
    near_town = {**MILITIA, "id": "US-mil2", "at": "0906"}  # 4 road hexes (2 MF) from Border Town
    inf = {**US, "at": "0407"}
    s = ssa_game([MILITIA, near_town, inf], extra=rules("SSA-22.10")).new_state(seed=1)
    ok = supply_status(s, "allies")
    assert ok["US-inf"] and not ok["US-mil"]  # next to Port City, an industrial city: not for militia
    assert ok["US-mil2"]
    s = ssa_game([MILITIA, near_town, inf]).new_state(seed=1)  # rule off: militia are infantry
    assert supply_status(s, "allies")["US-mil"]


def test_ssa_22_10_a_town_beyond_the_militia_mf_does_not_supply(ssa_game):
    far = {**MILITIA, "at": "0910"}  # 4 MF militia; Border Town is 5+ clear hexes away
    s = ssa_game([far], extra=rules("SSA-22.10")).new_state(seed=1)
    assert not supply_status(s, "allies")["US-mil"]


# -- 22.11 European volunteers, 22.12 Italians -------------------------------------------------------
def mobilizing(ssa_game, morale: int, *on: str, units=()):
    """A game whose Axis morale track stands at ``morale``, stopped in the Spend step of turn 1."""
    extra = f'[tracks]\n"axis.morale" = {morale}\n"allies.morale" = 50\n"GE.mp.industrial" = 0\n' \
        + (rules(*on) if on else "")
    g = ssa_game([{**US, "at": "0806"}, *units], extra=extra, axis_nations=("GE", "IT", "EV", "JA"))
    return to_step(g.new_state(seed=1), "mobilization/spend", "axis")


def arrivals(state, nation: str) -> list[str]:
    return sorted(u.id for u in state.units_by_id.values() if u.nation == nation and u.location == "Europe")


def test_ssa_22_11_high_axis_morale_gives_one_free_volunteer_division_a_mobilization(ssa_game):
    s = mobilizing(ssa_game, 67, "SSA-22.11")  # 67: the bottom of High (21.2)
    assert arrivals(s, "EV") == ["EV-european_volunteer_division-f1"]
    ev = s.unit("EV-european_volunteer_division-f1")
    assert (ev.type, ev.side) == ("european_volunteer_division", "axis")
    assert s.tracks["GE.mp.industrial"] == mobilizing(ssa_game, 67).tracks["GE.mp.industrial"]  # no MP paid
    assert arrivals(mobilizing(ssa_game, 66, "SSA-22.11"), "EV") == []  # Average morale: none
    assert arrivals(mobilizing(ssa_game, 90), "EV") == []  # rule not in use


def test_ssa_22_11_a_reduced_volunteer_division_pays_the_normal_replacement(ssa_game):
    from workbench.rulesets.ssa.mobilization import cost_of

    s = mobilizing(ssa_game, 50, "SSA-22.11")
    assert cost_of(s, "european_volunteer_division", "EV", "replace") == cost_of(s, "infantry_division", "GE", "replace")


def test_ssa_22_12a_high_axis_morale_brings_one_more_italian_unit(ssa_game):
    s = mobilizing(ssa_game, 80, "SSA-22.12")
    assert arrivals(s, "IT") == ["IT-infantry_division-f1"]
    assert arrivals(mobilizing(ssa_game, 60, "SSA-22.12"), "IT") == []


def test_ssa_22_12b_poor_axis_morale_removes_every_italian_unit_at_once(ssa_game):
    from workbench.rulesets.ssa import morale

    it = [{"id": "IT-inf", "nation": "IT", "type": "infantry_division", "at": "0404"},
          {"id": "IT-2", "nation": "IT", "type": "infantry_division", "at": "Europe"}]
    s = mobilizing(ssa_game, 40, "SSA-21", "SSA-22.12", units=it)
    assert s.unit("IT-inf").location == "0404"
    morale.change(s, "axis", -7, "test", "a lost battle")  # 33: Poor
    assert [s.unit(u).location for u in ("IT-inf", "IT-2")] == ["Force pool", "Force pool"]
    w = s.events().filter(kind="withdrawn").row(0, named=True)
    assert w["rule"] == "SSA-22.12b"
    assert s.tracks["axis.morale"] == 33  # withdrawn, not eliminated: no morale loss for them
    assert not s.events().filter(kind="eliminated").height


# -- 22.1 airborne -----------------------------------------------------------------------------------
CARGO = {"id": "US-c47", "nation": "US", "type": "air_cargo", "at": "0306"}  # Port City: an airbase
PARAS = [{"id": f"US-ab{k}", "nation": "US", "type": "airborne_infantry_division", "at": "0306"} for k in range(3)]
ABN_PZ = {"id": "US-abpz", "nation": "US", "type": "airborne_panzer_division", "at": "0306"}
GE_INF = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0906"}


def airbase(ssa_game, units, *on: str, side: str = "allies"):
    s = ssa_game([CARGO, *units], extra=NO_SUPPLY_MOVEMENT_PENALTY + rules(*(on or ("SSA-22.1",))))
    return to_step(s.new_state(seed=1), "player/initial-movement", side)


def drop(units, to: str) -> dict:
    return {"kind": "airborne_drop", "aircraft": "US-c47", "units": list(units), "to": to}


def test_ssa_22_1a_one_transport_lifts_two_foot_divisions_or_one_mechanized(ssa_game):
    from workbench.engine import IllegalOrder

    s = airbase(ssa_game, [*PARAS, ABN_PZ])
    for units in (["US-ab0", "US-ab1", "US-ab2"], ["US-abpz", "US-ab0"]):
        with pytest.raises(IllegalOrder) as exc:
            s.apply(drop(units, "0606"))
        assert exc.value.rule == "SSA-22.1a" and "two non-mechanized airborne divisions" in exc.value.why
    assert drop(["US-abpz"], "0606") in s.legal_orders_of("airborne_drop")
    s.apply(drop(["US-ab0", "US-ab1"], "0606"))
    assert [s.unit(u).props.get("carried") for u in ("US-ab0", "US-ab1")] == ["US-c47", "US-c47"]


def test_ssa_22_1a_only_airborne_units_that_begin_the_phase_at_the_transports_airbase(ssa_game):
    from workbench.engine import IllegalOrder

    inf = {"id": "US-leg", "nation": "US", "type": "infantry_division", "at": "0306"}
    s = airbase(ssa_game, [*PARAS[:2], inf, {**PARAS[2], "at": "0406"}])
    for units, words in ((["US-leg"], "is not an airborne unit"), (["US-ab2"], "must begin the Initial Movement")):
        with pytest.raises(IllegalOrder) as exc:
            s.apply(drop(units, "0606"))
        assert words in exc.value.why
    s.apply({"kind": "move", "unit": "US-ab0", "path": ["0406", "0306"]})  # moved: no longer ready
    with pytest.raises(IllegalOrder, match="must begin"):
        s.apply(drop(["US-ab0"], "0606"))


def test_ssa_22_1b_the_drop_lands_after_interception_and_the_transport_flies_home(ssa_game):
    from workbench.engine import IllegalOrder

    s = airbase(ssa_game, PARAS[:2])
    s.apply(drop(["US-ab0", "US-ab1"], "0610"))
    t = s.unit("US-c47")
    assert (t.location, t.props["mission"], t.props["base"]) == ("0610", "airborne_lift", "0306")
    assert s.legal_orders_of("debark") == []  # troops aloft do not step off like convoy cargo
    with pytest.raises(IllegalOrder, match="a naval unit"):
        s.apply({"kind": "debark", "convoy": "US-c47", "units": ["US-ab0"]})
    s = to_step(s, "player/interception", "axis")
    from workbench.rulesets.ssa.interception import InterceptOrder

    assert InterceptOrder().targets(s) == ["0610"]  # 22.1c: the lift may be intercepted
    assert s.unit("US-ab0").props["carried"] == "US-c47"  # still aboard
    s = to_step(s, "player/combat/land", "allies")
    for u in ("US-ab0", "US-ab1"):
        assert s.unit(u).location == "0610" and "carried" not in s.unit(u).props
    assert s.events().filter(kind="airborne_landing").height == 1
    s = to_step(s, "player/initial-movement", "axis")  # the Allied turn ended: the transport came home
    assert s.unit("US-c47").location == "0306" and not s.unit("US-c47").props.get("flying")


def test_ssa_22_1b_the_drop_hex_must_be_within_the_transports_range(ssa_game):
    from workbench.engine import IllegalOrder

    g = ssa_game([CARGO, PARAS[0]], extra=NO_SUPPLY_MOVEMENT_PENALTY + '"units.types.air_cargo.range" = 3\n'
                 + rules("SSA-22.1"))
    s = to_step(g.new_state(seed=1), "player/initial-movement", "allies")
    with pytest.raises(IllegalOrder) as exc:
        s.apply(drop(["US-ab0"], "0706"))  # 4 hexes east of Port City
    assert exc.value.rule == "SSA-22.1b" and "range is 3" in exc.value.why
    s.apply(drop(["US-ab0"], "0606"))  # 3 hexes


def test_ssa_22_1c_a_transport_shot_down_takes_its_troops_and_a_turned_back_one_brings_them_home(ssa_game):
    from workbench.rulesets.ssa.airborne import land_drops
    from workbench.rulesets.ssa.losses import eliminate

    s = airbase(ssa_game, PARAS[:2])
    s.apply(drop(["US-ab0"], "0610"))
    eliminate(s, s.unit("US-c47"), "SSA-6.5", " by interceptors")
    assert s.unit("US-ab0").location == "Eliminated"
    assert s.events().filter(kind="eliminated", rule="SSA-22.1c").height == 1
    s = airbase(ssa_game, PARAS[:2])
    s.apply(drop(["US-ab0"], "0610"))
    s.unit("US-c47").props["mission"] = "aborted"  # what an interception result does (interception.py)
    land_drops(s)
    assert s.unit("US-ab0").location == "0306"


def test_ssa_22_1d_no_drop_into_a_hex_the_unit_could_not_enter(ssa_game):
    from workbench.engine import IllegalOrder

    s = airbase(ssa_game, [PARAS[0], ABN_PZ])
    for units, to in ((["US-ab0"], "0205"), (["US-abpz"], "1002")):  # the sea; mountains off the road (mech)
        with pytest.raises(IllegalOrder) as exc:
            s.apply(drop(units, to))
        assert exc.value.rule == "SSA-22.1d"
    s.apply(drop(["US-abpz"], "1006"))  # mountains on the transportation line: a mech unit may enter


def test_ssa_22_1e_dropping_onto_enemy_units_is_an_assault_that_must_clear_the_hex(ssa_game):
    from workbench.engine import IllegalOrder

    ge = [GE_INF, {**GE_INF, "id": "GE-inf2", "at": "0907"}]
    s = airbase(ssa_game, [*PARAS[:2], *ge])
    s.apply(drop(["US-ab0", "US-ab1"], "0906"))
    s = to_step(s, "player/combat/land", "allies")
    assert s.unit("US-ab0").location == "0906" and s.unit("US-ab0").props["assault_kind"] == "airborne"
    a = assess(s, "allies", ["US-ab0", "US-ab1"], ["0906"])
    assert (-1, "SSA-22.1e") in [(n, r) for n, _, r in a.shifts]
    with pytest.raises(IllegalOrder) as exc:  # they may attack only the defenders of their own hex
        s.apply({"kind": "attack", "attackers": ["US-ab0"], "targets": ["0907"]})
    assert exc.value.rule == "SSA-22.1e"
    s = to_step(s, "player/mechanized-movement", "allies")  # no attack: the hex is not cleared
    assert [s.unit(u).location for u in ("US-ab0", "US-ab1")] == ["Eliminated", "Eliminated"]
    assert s.events().filter(kind="eliminated", rule="SSA-22.1e").height == 2


def test_ssa_22_G_no_airborne_drop_without_the_rule(ssa_game):
    from workbench.engine import IllegalOrder

    s = airbase(ssa_game, PARAS[:1], "SSA-22.3")
    assert s.legal_orders_of("airborne_drop") == []
    with pytest.raises(IllegalOrder) as exc:
        s.apply(drop(["US-ab0"], "0606"))
    assert exc.value.rule == "SSA-22.G"


# -- 22.1.G, 22.4-22.9 -------------------------------------------------------------------------------
def test_ssa_22_1_G_airborne_units_are_otherwise_normal_land_units(ssa_game):
    s = airbase(ssa_game, PARAS[:1])
    assert moved(s, "US-ab0", ["0307"]) == 1  # walks like infantry (clear, off the road)


def test_ssa_22_4_commandos_function_exactly_like_infantry(ssa_game):
    """22.4 is cut off after "except:" (ruling A7): a commando unit moves and fights on its values alone."""
    cdo = {"id": "GE-cdo", "nation": "GE", "type": "commando_brigade", "at": "0903"}
    s = mover(ssa_game, [cdo, INF], "SSA-22")
    assert moved(s, "GE-cdo", ["1003"]) == 4  # infantry's cost for mountains, not the mountain troops' 2
    s = to_step(ssa_game([{**cdo, "at": "0904"}, US], extra=rules("SSA-22")).new_state(seed=1),
                "player/combat/land", "axis")
    assert [r for _, _, r in assess(s, "axis", ["GE-cdo"], ["1003"]).shifts] == ["SSA-11.8, TEC"]


def test_ssa_22_5_to_22_9_lost_rules_leave_heavy_armor_a_plain_mechanized_unit(ssa_game):
    """22.5-22.9 are missing; only heavy armor's comment survives (ruling A7): it is armour by its values."""
    hv = {"id": "SS-hv", "nation": "SS", "type": "heavy_armored_brigade", "at": "0902"}
    s = mover(ssa_game, [hv], "SSA-22")
    from workbench.engine import IllegalOrder

    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "SS-hv", "path": ["1002"]})
    assert exc.value.rule == "SSA-5.3"  # mountains off the road are closed to it, as to all mechanized units


@pytest.mark.slow
def test_ssa_22_1_heuristic_bots_stage_and_drop_airborne_units_in_d_day():
    """The heuristic bot walks paratroops to a transport's base and drops them on an open objective."""
    from workbench.bots import play
    from workbench.bots.heuristic import make_policy
    from workbench.engine import load_scenario

    s = load_scenario("ssa/d-day-1944").new_state(seed=1)
    pols = {side: make_policy("heuristic", s.ruleset, side, 2 + k) for k, side in enumerate(s.ruleset.sides)}
    play(s, pols, until_turn=4)
    drops = s.events().filter(kind="airborne_drop")
    assert drops.height >= 1 and s.events().filter(kind="airborne_landing").height >= 1
