"""SS Amerika strategic missiles (SSA-22.13) on the test map; the helpers serve test_ssa_atomic.py too.

Mill Town (0806) is an Allied industrial city (AA 5), Port City (0306) another; Border Town
(1306) a non-industrial city.  A German convoy on the coast at 0303 supplies the German
logistic corps at 0403.  On the CRT, 2-1 reads DE, DR, DR, EX, AR, AR and 3-1 reads DE, DE,
DR, DR, EX, AR for dice 1-6.
"""

from __future__ import annotations

import pytest
from kit import FixedDice
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder

RULES = '[options]\noptional_rules = ["SSA-22"]\n'
TRACKS = '[tracks]\n"axis.morale" = 60\n"allies.morale" = 60\n'
CONVOY = {"id": "GE-tp", "nation": "GE", "type": "transport", "at": "0303"}
LOG = {"id": "GE-log", "nation": "GE", "type": "motorized_logistic_corps", "at": "0403"}
MSL = {"id": "GE-msl", "nation": "GE", "type": "strategic_missile", "at": "0403", "carried_by": "GE-log"}
SB = {"id": "GE-sb", "nation": "GE", "type": "strategic_bomber", "at": "0306"}
BOMB = {"id": "GE-atom", "nation": "GE", "type": "atomic_weapon", "at": "0306", "carried_by": "GE-sb"}
US = {"id": "US-inf", "nation": "US", "type": "infantry_division", "at": "0906"}


def game(ssa_game, units, *, rules=RULES, axis_city=True):
    s = ssa_game(units, extra=RULES and rules + TRACKS).new_state(seed=1)
    if axis_city:
        s.markers["city_control"]["0306"] = "axis"  # Port City: a German airbase for the bomber
    return s


def aerial(s, side="axis"):
    return to_step(s, "player/combat/air", side)


# -- 22.13 strategic missiles ------------------------------------------------------------------------
def test_ssa_22_13a_a_missile_rides_its_logistic_unit_and_dies_with_it(ssa_game):
    from workbench.rulesets.ssa.losses import eliminate
    from workbench.rulesets.ssa.special_weapons import may_carry_why_not, where

    s = game(ssa_game, [CONVOY, LOG, MSL, US])
    m = s.unit("GE-msl")
    assert m.location == "aboard:GE-log" and where(s, m) == "0403"
    s = to_step(s, "player/initial-movement", "axis")
    s.apply({"kind": "move", "unit": "GE-log", "path": ["0404"]})
    assert where(s, s.unit("GE-msl")) == "0404"  # it moves wherever the unit moves
    assert may_carry_why_not(s, m, s.unit("GE-tp")).rule == "SSA-22.13a"  # a convoy is no logistic unit
    other = {**MSL, "id": "GE-msl2"}
    s2 = game(ssa_game, [CONVOY, LOG, MSL, other, US])
    assert s2.unit("GE-msl2").location != "aboard:GE-log"  # one missile a logistic unit
    eliminate(s, s.unit("GE-log"), "SSA-11.9a")
    assert s.unit("GE-msl").location == "Eliminated"
    assert s.events().filter(kind="eliminated", rule="SSA-22.13a").height == 1


def test_ssa_22_13b_e_a_missile_bombards_a_city_with_10_and_is_used_up(ssa_game):
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, US]))
    order = {"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"}
    assert order in s.legal_orders_of("fire_missile")
    s.dice = FixedDice(1)
    s.apply(order)
    c = s.events().filter(kind="air_combat").row(0, named=True)
    import json

    d = json.loads(c["data"])
    assert (d["attack"], d["defense"], d["column"], d["result"]) == (10, 5, "2-1", "DE")  # 10 against AA 5
    assert s.arrays["bombed"][s.map.index("0806")]  # DE: the strategic bombing marker
    assert s.unit("GE-msl").location == "Eliminated"  # expended
    assert s.events().filter(kind="expended", rule="SSA-22.13e").height == 1


def test_ssa_22_13c_e_unlimited_range_and_never_lost(ssa_game):
    """From the coast to Border Town, 10 hexes away: no range limit; an EX costs air units only."""
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, US]))
    s.dice = FixedDice(4)  # 2-1 column: EX; 10 vs AA 3 of a non-industrial city is 3-1: die 4 is DR
    s.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "1306"})
    import json

    d = json.loads(s.events().filter(kind="air_combat")["data"][0])
    assert (d["defense"], d["column"], d["result"]) == (3, "3-1", "DR")
    assert not s.events().filter(kind="eliminated").height  # no interception, no AA loss


def test_ssa_22_13b_the_logistic_unit_must_be_in_supply_and_the_target_an_enemy_city(ssa_game):
    s = aerial(game(ssa_game, [{**LOG, "at": "0910"}, {**MSL, "at": "0910"}, US]))  # no convoy: no supply
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"})
    assert exc.value.rule == "SSA-22.13b" and "out of supply" in exc.value.why
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, US]))
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0906"})
    assert exc.value.rule == "SSA-22.13b" and "enemy city" in exc.value.why
    s = to_step(game(ssa_game, [CONVOY, LOG, MSL, US]), "player/initial-movement", "axis")
    with pytest.raises(IllegalOrder, match="not open now"):  # only in the Combat phase (aerial step)
        s.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"})


def test_ssa_22_13d_missiles_join_the_bombers_strategic_bombing(ssa_game):
    """A strategic bomber (6) and a missile (10) bomb Mill Town: 16 against AA 5 is 3-1."""
    import json

    s = to_step(game(ssa_game, [CONVOY, LOG, MSL, SB, US]), "player/initial-movement", "axis")
    s.apply({"kind": "fly", "unit": "GE-sb", "to": "0806", "mission": "bomb"})
    s = aerial(s)
    s.dice = FixedDice(1)
    s.apply({"kind": "bomb", "units": ["GE-sb"], "target": "0806", "missiles": ["GE-msl"]})
    d = json.loads(s.events().filter(kind="air_combat")["data"][0])
    assert (d["attack"], d["column"]) == (16, "3-1")
    assert s.unit("GE-msl").location == "Eliminated" and s.unit("GE-sb").location != "Eliminated"


def test_ssa_22_13f_allied_missiles_at_europe_cost_axis_morale_one_each(ssa_game):
    ulog = {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "0806"}
    umsl = {"id": "US-msl", "nation": "US", "type": "strategic_missile", "at": "0806", "carried_by": "US-log"}
    s = aerial(game(ssa_game, [ulog, umsl, {**US, "id": "GE-x", "nation": "GE", "at": "1210"}]), "allies")
    assert {"kind": "fire_missile", "missiles": ["US-msl"], "target": "Europe"} in s.legal_orders_of("fire_missile")
    s.apply({"kind": "fire_missile", "missiles": ["US-msl"], "target": "Europe"})
    assert s.tracks["axis.morale"] == 59 and s.unit("US-msl").location == "Eliminated"
    axis = aerial(game(ssa_game, [CONVOY, LOG, MSL, US]))
    with pytest.raises(IllegalOrder) as exc:
        axis.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "Europe"})
    assert exc.value.rule == "SSA-22.13f"


def test_ssa_22_G_no_missile_without_the_rule(ssa_game):
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, US], rules=""))
    assert s.legal_orders_of("fire_missile") == []
    with pytest.raises(IllegalOrder, match="SSA-22.G"):
        s.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"})


def test_ssa_22_13a_a_new_missile_is_built_aboard_a_logistic_unit_where_new_units_appear(ssa_game):
    europe_log = {**LOG, "at": "Europe"}
    extra = RULES + TRACKS.replace('"allies.morale" = 60\n', '"allies.morale" = 60\n"GE.mp.industrial" = 20\n') \
        + '[technologies]\nGE = ["strategic_missile"]\n'
    s = to_step(ssa_game([europe_log, US], extra=extra).new_state(seed=1), "mobilization/spend", "axis")
    order = {"kind": "mobilize", "nation": "GE", "type": "strategic_missile", "at": "GE-log"}
    assert order in s.legal_orders_of("mobilize")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({**order, "at": "Europe"})
    assert exc.value.rule == "SSA-22.13a"
    before = s.tracks["GE.mp.industrial"]
    s.apply(order)
    new = [u for u in s.units_by_id.values() if u.type == "strategic_missile"]
    assert [u.location for u in new] == ["aboard:GE-log"]
    assert s.tracks["GE.mp.industrial"] == before - 5  # mobilization.toml: a missile costs 5 industrial MP
    assert not [o for o in s.legal_orders_of("mobilize") if o["type"] == "strategic_missile"]  # one per logistic unit


def test_ssa_22_13b_refusals_name_the_rule_and_say_why(ssa_game):
    """Each refusal of fire_missile once: the step, the list, whose missile, the hex."""
    from workbench.rulesets.ssa.missiles import FireMissileOrder

    s = to_step(game(ssa_game, [CONVOY, LOG, MSL, US]), "player/initial-movement", "axis")
    with pytest.raises(IllegalOrder) as exc:  # the order kind itself, not only the step's list
        FireMissileOrder().check(s, {"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"})
    assert exc.value.rule == "SSA-22.13b" and "Combat phase" in exc.value.why
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, US]))
    for missiles, rule, words in ((["GE-msl", "GE-msl"], "SSA-22.13b", "each once"),
                                  ([], "SSA-22.13b", "name the missiles"),
                                  (["US-inf"], "SSA-22.13", "not one of your strategic missiles")):
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "fire_missile", "missiles": missiles, "target": "0806"})
        assert exc.value.rule == rule and words in exc.value.why
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "9999"})
    assert exc.value.rule == "SSA-22.13b" and "not a hex" in exc.value.why
    assert s.unit("GE-msl").location == "aboard:GE-log"  # nothing fired


def test_ssa_22_13a_a_missile_no_logistic_unit_carries_cannot_fire(ssa_game):
    loose = {k: v for k, v in MSL.items() if k != "carried_by"}
    s = aerial(game(ssa_game, [CONVOY, LOG, loose, US]))
    assert s.legal_orders_of("fire_missile") == []
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"})
    assert exc.value.rule == "SSA-22.13a"


def test_ssa_22_13f_the_far_east_too_and_no_other_holding_area(ssa_game):
    """Two Allied missiles: the Far East costs the Axis 1 morale; the Pacific box is refused."""
    ulog = [{"id": f"US-log{i}", "nation": "US", "type": "motorized_logistic_corps", "at": "0806"} for i in (1, 2)]
    umsl = [{"id": f"US-msl{i}", "nation": "US", "type": "strategic_missile", "at": "0806",
             "carried_by": f"US-log{i}"} for i in (1, 2)]
    s = aerial(game(ssa_game, [*ulog, *umsl, {**US, "id": "GE-x", "nation": "GE", "at": "1210"}]), "allies")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fire_missile", "missiles": ["US-msl1"], "target": "Pacific"})
    assert exc.value.rule == "SSA-22.13f"
    s.apply({"kind": "fire_missile", "missiles": ["US-msl1", "US-msl2"], "target": "Far East"})
    assert s.tracks["axis.morale"] == 60 - 2  # -1 a missile
    assert not s.events().filter(kind="air_combat").height  # nothing else happens there


def test_ssa_22_13d_a_missile_joining_a_bombing_must_be_ready_itself(ssa_game):
    """The bomb order's missiles pass the same checks as fire_missile (here: out of supply)."""
    s = to_step(game(ssa_game, [CONVOY, {**LOG, "at": "0910"}, {**MSL, "at": "0910"}, SB, US]),
                "player/initial-movement", "axis")
    s.apply({"kind": "fly", "unit": "GE-sb", "to": "0806", "mission": "bomb"})
    s = aerial(s)
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "bomb", "units": ["GE-sb"], "target": "0806", "missiles": ["GE-msl"]})
    assert exc.value.rule == "SSA-22.13b" and "out of supply" in exc.value.why


def test_ssa_22_G_no_weapon_is_built_without_its_rule(ssa_game):
    europe_log = {**LOG, "at": "Europe"}
    extra = TRACKS.replace('"allies.morale" = 60\n', '"allies.morale" = 60\n"GE.mp.industrial" = 40\n') \
        + '[technologies]\nGE = ["strategic_missile", "atomic_weapon"]\n'
    s = to_step(ssa_game([europe_log, US], extra=extra).new_state(seed=1), "mobilization/spend", "axis")
    assert not [o for o in s.legal_orders_of("mobilize") if o["type"] in ("strategic_missile", "atomic_weapon")]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "mobilize", "nation": "GE", "type": "strategic_missile", "at": "GE-log"})
    assert exc.value.rule == "SSA-22.G"


def test_ssa_22_13c_e_fired_from_europe_an_exchange_costs_the_missile_nothing(ssa_game):
    """From the Europe holding area to Mill Town: 10 against AA 5 is 2-1; die 4 is EX, whose
    'eliminate 1 attacking air unit' finds no aircraft: the marker is placed and nothing else lost."""
    import json

    s = aerial(game(ssa_game, [{**LOG, "at": "Europe"}, {**MSL, "at": "Europe"}, US]))
    order = {"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"}
    assert order in s.legal_orders_of("fire_missile")
    s.dice = FixedDice(4)
    s.apply(order)
    d = json.loads(s.events().filter(kind="air_combat")["data"][0])
    assert (d["attack"], d["defense"], d["column"], d["result"]) == (10, 5, "2-1", "EX")
    assert s.arrays["bombed"][s.map.index("0806")]
    assert s.unit("GE-log").location == "Europe" and not s.events().filter(kind="eliminated").height
