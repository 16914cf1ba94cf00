"""SS Amerika strategic missiles (SSA-22.13) and atomic weapons (SSA-22.14) on the test map.

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


# -- 22.14 atomic weapons ----------------------------------------------------------------------------
FIGHTER = {"id": "US-f", "nation": "US", "type": "standard_fighter", "at": "0906"}


def flown(ssa_game, units, to="0906", bomber="GE-sb", bomb="GE-atom"):
    s = to_step(game(ssa_game, units), "player/initial-movement", "axis")
    s.apply({"kind": "atomic_mission", "bomber": bomber, "bomb": bomb, "to": to})
    return s


def test_ssa_22_14a_c_the_bomber_picks_up_the_bomb_in_its_hex_and_flies_it_out(ssa_game):
    from workbench.rulesets.ssa.interception import InterceptOrder
    from workbench.rulesets.ssa.losses import eliminate

    s = flown(ssa_game, [SB, BOMB, US])
    sb = s.unit("GE-sb")
    assert (sb.location, sb.props["mission"]) == ("0906", "atomic") and s.unit("GE-atom").location == "aboard:GE-sb"
    s = to_step(s, "player/interception", "allies")
    assert InterceptOrder().targets(s) == ["0906"]  # 22.14c: the bomber may be intercepted
    eliminate(s, s.unit("GE-sb"), "SSA-6.5")  # shot down: the bomb is lost with it (22.14a)
    assert s.unit("GE-atom").location == "Eliminated"
    elsewhere = {**SB, "id": "GE-sb2", "at": "0406"}
    s = to_step(game(ssa_game, [SB, elsewhere, BOMB, US]), "player/initial-movement", "axis")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "atomic_mission", "bomber": "GE-sb2", "bomb": "GE-atom", "to": "0906"})
    assert exc.value.rule == "SSA-22.14c" and "begin the movement phase in the atomic weapon's hex" in exc.value.why
    tac = {"id": "GE-tb", "nation": "GE", "type": "tactical_bomber", "at": "0306"}
    s = to_step(game(ssa_game, [SB, tac, BOMB, US]), "player/initial-movement", "axis")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "atomic_mission", "bomber": "GE-tb", "bomb": "GE-atom", "to": "0906"})
    assert exc.value.rule == "SSA-22.14b"


def test_ssa_22_14d_e_each_unit_at_3_1_grounded_air_destroyed_lines_cut_bomb_used(ssa_game):
    import json

    us2 = {**US, "id": "US-inf2"}
    s = flown(ssa_game, [SB, BOMB, US, us2, FIGHTER])
    s = to_step(s, "player/combat/air", "axis")
    assert s.legal_orders_of("atomic_attack") == [{"kind": "atomic_attack", "bomb": "GE-atom"}]
    s.dice = FixedDice(1, 5)  # 3-1: die 1 DE (reduced), die 5 EX (reduced)
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    res = [json.loads(d) for d in s.events().filter(kind="atomic_result")["data"]]
    assert [(r["unit"], r["result"], r["effect"]) for r in res] == [("US-inf", "DE", "reduce"), ("US-inf2", "EX", "reduce")]
    assert s.unit("US-inf").reduced and s.unit("US-inf2").reduced
    assert s.unit("US-f").location == "Eliminated"  # on the ground in the hex (22.14d(4))
    assert s.arrays["bombed"][s.map.index("0906")]  # the line through 0906 is destroyed (22.14d(2))
    assert s.unit("GE-atom").location == "Eliminated"  # used up (22.14e)
    assert not s.events().filter(kind="air_combat").height  # no AA fire, no normal bombardment


def test_ssa_22_14f_no_other_attack_on_that_hex_this_combat_phase(ssa_game):
    ge = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0905"}
    s = flown(ssa_game, [SB, BOMB, US, ge, CONVOY])
    s = to_step(s, "player/combat/air", "axis")
    s.dice = FixedDice(6)  # AR: no effect
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    from workbench.rulesets.ssa.atomic import target_refusal

    assert target_refusal(s, "axis", "0906", by_missile=False).rule == "SSA-22.14f"
    s = to_step(s, "player/combat/land", "axis")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "attack", "attackers": ["GE-inf"], "targets": ["0906"]})
    assert exc.value.rule == "SSA-22.14f"


def test_ssa_22_14g_first_use_on_a_city_costs_five_dice_of_morale_later_ones_three(ssa_game):
    sb2, bomb2 = {**SB, "id": "GE-sb2"}, {**BOMB, "id": "GE-atom2", "carried_by": "GE-sb2"}
    mill = {**US, "at": "0806"}
    s = to_step(game(ssa_game, [SB, sb2, BOMB, bomb2, mill]), "player/initial-movement", "axis")
    s.apply({"kind": "atomic_mission", "bomber": "GE-sb", "bomb": "GE-atom", "to": "0806"})
    s.apply({"kind": "atomic_mission", "bomber": "GE-sb2", "bomb": "GE-atom2", "to": "1306"})
    s = to_step(s, "player/combat/air", "axis")
    s.dice = FixedDice(6, 4, 2)  # the unit in Mill Town (AR), morale 5 x 4; Border Town: morale 3 x 2
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    assert s.tracks["allies.morale"] == 60 - 20
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom2"})
    assert s.tracks["allies.morale"] == 60 - 20 - 6


def test_ssa_22_14h_restrictions(ssa_game):
    from workbench.rulesets.ssa.atomic import target_refusal

    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, US]))
    assert target_refusal(s, "allies", "0306", by_missile=False).rule == "SSA-22.14h(1)"  # a city
    assert target_refusal(s, "axis", "Europe", by_missile=True).rule == "SSA-22.14h(2)"
    assert target_refusal(s, "allies", "Europe", by_missile=True) is None                # 22.14h(3)
    assert target_refusal(s, "allies", "Europe", by_missile=False).rule == "SSA-22.14h(3)"
    assert target_refusal(s, "axis", "0403", by_missile=True).rule == "SSA-22.14h(4)"    # own logistic unit there
    so = {"id": "GE-so", "nation": "GE", "type": "special_operations", "at": "0906"}
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, US, so]))
    assert target_refusal(s, "axis", "0906", by_missile=True) is None  # own special operations may be there


def test_ssa_22_14c_h3_an_allied_missile_carries_the_bomb_to_europe_for_morale_alone(ssa_game):
    ulog = {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "0806"}
    umsl = {"id": "US-msl", "nation": "US", "type": "strategic_missile", "at": "0806", "carried_by": "US-log"}
    ubomb = {"id": "US-atom", "nation": "US", "type": "atomic_weapon", "at": "0806", "carried_by": "US-log"}
    s = aerial(game(ssa_game, [ulog, umsl, ubomb, {**US, "id": "GE-x", "nation": "GE", "at": "1210"}]), "allies")
    s.dice = FixedDice(3)
    s.apply({"kind": "atomic_attack", "bomb": "US-atom", "missile": "US-msl", "target": "Europe"})
    assert s.tracks["axis.morale"] == 60 - 15  # the first use: 5 x 3
    assert s.unit("US-atom").location == "Eliminated" and s.unit("US-msl").location == "Eliminated"


def test_ssa_22_14c_a_missile_must_start_the_movement_phase_with_the_bomb(ssa_game):
    other_log = {**LOG, "id": "GE-log2", "at": "0404"}
    bomb = {**BOMB, "at": "0404", "carried_by": "GE-log2"}
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, other_log, bomb, US]))
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "atomic_attack", "bomb": "GE-atom", "missile": "GE-msl", "target": "0906"})
    assert exc.value.rule == "SSA-22.14c"
    together = {**BOMB, "at": "0403", "carried_by": "GE-log"}
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, together, US]))
    s.dice = FixedDice(2)
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom", "missile": "GE-msl", "target": "0906"})
    assert s.unit("US-inf").reduced  # 3-1, die 2: DE


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


def test_ssa_22_13_22_14_the_heuristic_bot_drops_its_bomb_and_fires_its_missiles(ssa_game):
    from workbench.bots.heuristic import make_policy

    s = flown(ssa_game, [SB, BOMB, US, CONVOY, LOG, MSL])
    s = to_step(s, "player/combat/air", "axis")
    pol = make_policy("heuristic", s.ruleset, "axis", 1)
    assert pol.choose(s, s.legal_orders()) == {"kind": "atomic_attack", "bomb": "GE-atom"}
    s.dice = FixedDice(6)
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    order = pol.choose(s, s.legal_orders())
    assert order["kind"] == "fire_missile" and order["target"] in ("0306", "0806", "1306")
