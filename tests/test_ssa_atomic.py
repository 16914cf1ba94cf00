"""SS Amerika atomic weapons (SSA-22.14) on the test map (see test_ssa_missiles.py for the layout).

On the CRT 3-1 reads DE, DE, DR, DR, EX, AR for dice 1-6; crt.toml [atomic] turns DE and EX into
a reduction of the one unit attacked, DR into a retreat, AR into nothing.
"""

from __future__ import annotations

import pytest
from kit import FixedDice
from test_ssa_missiles import BOMB, CONVOY, LOG, MSL, RULES, SB, TRACKS, US, aerial, game
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder

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
    s = to_step(s, "player/combat/air", "allies")  # the next Combat phase: the hex is open again
    assert "0906" not in s.markers.get("atomic_hexes", []) and "0906" not in s.markers.get("air_attacked_hexes", [])


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


US_FIGHTERS = [{"id": f"US-f{i}", "nation": "US", "type": "standard_fighter", "at": "0806"} for i in (1, 2)]


def refused(s, order, rule, words=""):
    with pytest.raises(IllegalOrder) as exc:
        s.apply(order)
    assert exc.value.rule == rule and words in exc.value.why, (exc.value.rule, exc.value.why)


def test_ssa_22_14c_atomic_mission_refusals(ssa_game):
    """Each refusal of atomic_mission once: the rule off, the step, whose bomb, a flown bomber,
    a bomber away from an airbase."""
    from workbench.rulesets.ssa.atomic import AtomicMissionOrder

    order = {"kind": "atomic_mission", "bomber": "GE-sb", "bomb": "GE-atom", "to": "0906"}
    s = to_step(game(ssa_game, [SB, BOMB, US], rules=""), "player/initial-movement", "axis")
    assert s.legal_orders_of("atomic_mission") == []
    refused(s, order, "SSA-22.G")
    s = aerial(game(ssa_game, [SB, BOMB, US]))
    with pytest.raises(IllegalOrder) as exc:
        AtomicMissionOrder().check(s, order)
    assert exc.value.rule == "SSA-22.14c" and "Initial Movement phase" in exc.value.why
    s = to_step(game(ssa_game, [SB, BOMB, US, CONVOY]), "player/initial-movement", "axis")
    refused(s, {**order, "bomb": "US-inf"}, "SSA-22.14", "not one of your atomic weapons")
    s.apply({"kind": "fly", "unit": "GE-sb", "to": "0806", "mission": "bomb"})  # takes the bomb along, unarmed
    refused(s, order, "SSA-22.14c", "on the ground")
    field = {**SB, "at": "0610"}  # a hex the Axis cannot base in (out of supply)
    s = to_step(game(ssa_game, [field, {**BOMB, "at": "0610"}, US]), "player/initial-movement", "axis")
    refused(s, order, "SSA-22.14c", "friendly airbase")


def test_ssa_22_14c_the_mission_is_offered_at_enemy_stacks_and_enemy_cities(ssa_game):
    s = to_step(game(ssa_game, [SB, BOMB, US]), "player/initial-movement", "axis")
    targets = {o["to"] for o in s.legal_orders_of("atomic_mission")}
    assert {"0906", "0806", "1306"} <= targets and "0306" not in targets  # the US unit, two Allied cities
    assert all(o["bomber"] == "GE-sb" and o["bomb"] == "GE-atom" for o in s.legal_orders_of("atomic_mission"))


def test_ssa_22_14c_a_bomber_turned_back_by_interception_cannot_drop(ssa_game):
    """US fighters intercept at 2-1; die 2 is DR: the mission aborts and the bomb stays aboard."""
    from workbench.rulesets.ssa.atomic import AtomicAttackOrder

    s = flown(ssa_game, [SB, BOMB, US, *US_FIGHTERS])
    s = to_step(s, "player/interception", "allies")
    s.dice = FixedDice(2)
    s.apply({"kind": "intercept", "units": ["US-f1"], "target": "0906"})
    assert s.unit("GE-sb").props["mission"] == "aborted" and s.unit("GE-atom").location == "aboard:GE-sb"
    s = aerial(s)
    assert s.legal_orders_of("atomic_attack") == []
    with pytest.raises(IllegalOrder) as exc:
        AtomicAttackOrder().check(s, {"kind": "atomic_attack", "bomb": "GE-atom"})
    assert exc.value.rule == "SSA-22.14c" and "turned back" in exc.value.why


def test_ssa_22_14c_atomic_attack_refusals(ssa_game):
    """Each refusal of atomic_attack once: the rule off, the step, whose bomb, a bomb on no
    mission, a missile and bomb in no airbase; and of the target: not a hex, nothing enemy
    there, another holding area for the Allies."""
    from workbench.rulesets.ssa.atomic import AtomicAttackOrder, target_refusal

    drop = {"kind": "atomic_attack", "bomb": "GE-atom"}
    s = aerial(game(ssa_game, [SB, BOMB, US], rules=""))
    refused(s, drop, "SSA-22.G")
    s = to_step(game(ssa_game, [SB, BOMB, US]), "player/initial-movement", "axis")
    with pytest.raises(IllegalOrder) as exc:
        AtomicAttackOrder().check(s, drop)
    assert exc.value.rule == "SSA-22.14c" and "Combat phase" in exc.value.why
    s = aerial(game(ssa_game, [SB, BOMB, US]))
    refused(s, {**drop, "bomb": "GE-sb"}, "SSA-22.14", "not one of your atomic weapons")
    refused(s, drop, "SSA-22.14c", "not aboard a strategic bomber on an atomic mission")  # still at its base
    in_europe = [{**LOG, "at": "Europe"}, {**MSL, "at": "Europe"}, {**BOMB, "at": "Europe", "carried_by": "GE-log"}]
    s = aerial(game(ssa_game, [*in_europe, US]))
    refused(s, {**drop, "missile": "GE-msl", "target": "0906"}, "SSA-22.14c", "friendly airbase")
    assert target_refusal(s, "axis", "9999", by_missile=True).rule == "SSA-22.14"
    why = target_refusal(s, "axis", "0610", by_missile=True)  # an empty clear hex
    assert why.rule == "SSA-22.14.G" and "neither an enemy city nor a hex with enemy units" in why.why
    assert target_refusal(s, "allies", "Pacific", by_missile=True).rule == "SSA-22.14h(3)"


def test_ssa_22_14c_a_bomb_on_a_missile_is_offered_at_every_target(ssa_game):
    together = {**BOMB, "at": "0403", "carried_by": "GE-log"}
    s = aerial(game(ssa_game, [CONVOY, LOG, MSL, together, US]))
    opts = s.legal_orders_of("atomic_attack")
    assert {"kind": "atomic_attack", "bomb": "GE-atom", "missile": "GE-msl", "target": "0906"} in opts
    assert {o["target"] for o in opts} == {"0806", "0906", "1306"}  # the US unit and the two Allied cities
    ulog = {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "0806"}
    umsl = {"id": "US-msl", "nation": "US", "type": "strategic_missile", "at": "0806", "carried_by": "US-log"}
    ubomb = {"id": "US-atom", "nation": "US", "type": "atomic_weapon", "at": "0806", "carried_by": "US-log"}
    s = aerial(game(ssa_game, [ulog, umsl, ubomb, {**US, "id": "GE-x", "nation": "GE", "at": "1210"}]), "allies")
    assert {o["target"] for o in s.legal_orders_of("atomic_attack")} == {"1210", "Europe", "Far East"}


def test_ssa_22_14f_an_atomic_attack_comes_first_and_alone(ssa_game):
    """After the bomb: no bombing, no missile and no naval attack on the hex; before it: a hex
    already bombed this phase cannot take a bomb."""
    from workbench.rulesets.ssa.atomic import target_refusal

    sb2 = {**SB, "id": "GE-sb2"}
    fleet = {"id": "GE-bb", "nation": "GE", "type": "battle_fleet", "at": "0205"}  # next to the hex: none there
    usbb = {"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "0206"}
    s = to_step(game(ssa_game, [SB, sb2, BOMB, {**US, "at": "0806"}, CONVOY, LOG, MSL]),
                "player/initial-movement", "axis")
    s.apply({"kind": "atomic_mission", "bomber": "GE-sb", "bomb": "GE-atom", "to": "0806"})
    s.apply({"kind": "fly", "unit": "GE-sb2", "to": "0806", "mission": "bomb"})
    s = aerial(s)
    s.dice = FixedDice(6, 1)  # the unit: AR; morale 5 x 1
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    refused(s, {"kind": "bomb", "units": ["GE-sb2"], "target": "0806"}, "SSA-22.14f", "aerial bombardment")
    refused(s, {"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"}, "SSA-22.14f")
    # the other way round: Mill Town bombed first, then no atomic attack may follow there
    s = to_step(game(ssa_game, [SB, BOMB, {**US, "at": "0806"}, CONVOY, LOG, MSL]), "player/initial-movement", "axis")
    s = aerial(s)
    s.dice = FixedDice(6)
    s.apply({"kind": "fire_missile", "missiles": ["GE-msl"], "target": "0806"})
    why = target_refusal(s, "axis", "0806", by_missile=False)
    assert why.rule == "SSA-22.14f" and "already attacked" in why.why
    # a naval attack on the hex hit
    s = flown(ssa_game, [SB, BOMB, fleet, usbb, CONVOY], to="0206")
    s = aerial(s)
    s.dice = FixedDice(6)  # the US fleet: AR
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    s = to_step(s, "player/combat/naval", "axis")
    refused(s, {"kind": "naval_attack", "attackers": ["GE-bb"], "target": "0206"}, "SSA-22.14f")


def test_ssa_22_14d_naval_units_take_the_naval_results_and_dr_makes_land_units_retreat(ssa_game):
    """crt.toml [atomic]: a fleet on DE is damaged; an infantry division on DR retreats."""
    import json

    usbb = {"id": "US-bb", "nation": "US", "type": "battle_fleet", "at": "0206"}
    s = aerial(flown(ssa_game, [SB, BOMB, usbb], to="0206"))
    s.dice = FixedDice(1)  # 3-1, die 1: DE
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    r = json.loads(s.events().filter(kind="atomic_result")["data"][0])
    assert (r["unit"], r["die"], r["result"], r["effect"]) == ("US-bb", 1, "DE", "reduce")
    assert s.unit("US-bb").reduced and s.unit("US-bb").location == "0206"  # damaged, not sunk
    assert s.events().filter(kind="roll", rule="SSA-22.14d").height == 1  # one die, logged with its rule
    s = aerial(flown(ssa_game, [SB, BOMB, US]))
    s.dice = FixedDice(3)  # 3-1, die 3: DR
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    assert not s.unit("US-inf").reduced
    assert s.decision.side == "allies" and "retreat" in " ".join(s.decision.kinds)  # the owner retreats it
    assert s.unit("GE-sb").location == "0906"  # the bomber itself, in the air, is not touched (22.14d(4))


def test_ssa_22_14d1_the_panama_canal_hit_is_marked_and_closed(tmp_path, tmp_path_factory):
    from ssa_kit import build_ssa_canal_map, built_map_dir, scenario_text

    from workbench.engine import load_scenario
    from workbench.rulesets.ssa.atomic import effects
    from workbench.rulesets.ssa.naval import canal_bombed

    path = tmp_path / "canal.toml"
    path.write_text(scenario_text(built_map_dir(tmp_path_factory, "ssa-canal-atomic", build_ssa_canal_map),
                                  [{**US, "at": "0812"}], extra=RULES + TRACKS))
    s = load_scenario(path).new_state(seed=1)
    assert not canal_bombed(s)
    s.dice = FixedDice(6)
    effects(s, "axis", "0812")
    assert canal_bombed(s)
    assert s.events().filter(kind="bombed", rule="SSA-22.14d").height == 1


def test_ssa_22_14g_a25_one_first_use_for_both_players(ssa_game):
    """Ruling A25: the Allies' bomb on Europe is the first use (5 x 1d6); the Axis' bomb on Mill
    Town a turn later is a later one (3 x 1d6), though it is the Axis' first."""
    ulog = {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "0806"}
    umsl = {"id": "US-msl", "nation": "US", "type": "strategic_missile", "at": "0806", "carried_by": "US-log"}
    ubomb = {"id": "US-atom", "nation": "US", "type": "atomic_weapon", "at": "0806", "carried_by": "US-log"}
    s = aerial(game(ssa_game, [ulog, umsl, ubomb, SB, BOMB, CONVOY, {**US, "at": "0906"}]), "allies")
    s.dice = FixedDice(2)
    s.apply({"kind": "atomic_attack", "bomb": "US-atom", "missile": "US-msl", "target": "Europe"})
    assert s.tracks["axis.morale"] == 60 - 5 * 2
    s = to_step(s, "player/initial-movement", "axis")
    s.apply({"kind": "atomic_mission", "bomber": "GE-sb", "bomb": "GE-atom", "to": "0806"})
    s = aerial(s)
    s.dice = FixedDice(6, 4)  # US-log in Mill Town: AR; then morale 3 x 4
    allies = s.tracks["allies.morale"]
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    assert s.tracks["allies.morale"] == allies - 3 * 4


def test_ssa_22_14g3_h4_units_destroyed_cost_morale_but_not_the_attackers_own_special_operations(ssa_game):
    """With rule 21: a reduced US division wiped out costs the Allies 1 morale (one division);
    the German special operations unit destroyed beside it costs the Axis nothing."""
    so = {"id": "GE-so", "nation": "GE", "type": "special_operations", "at": "0906"}
    rules = '[options]\noptional_rules = ["SSA-22", "SSA-21"]\n'
    s = to_step(game(ssa_game, [SB, BOMB, CONVOY, {**US, "reduced": True}, so], rules=rules),
                "player/initial-movement", "axis")
    s.apply({"kind": "atomic_mission", "bomber": "GE-sb", "bomb": "GE-atom", "to": "0906"})
    s = aerial(s)
    axis, allies = s.tracks["axis.morale"], s.tracks["allies.morale"]
    s.dice = FixedDice(1, 1)  # GE-so, then US-inf: DE each
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    assert s.unit("GE-so").location == "Eliminated" and s.unit("US-inf").location == "Eliminated"
    s = to_step(s, "player/combat/naval", "axis")  # the losses are charged as the step closes
    assert s.tracks["allies.morale"] == allies - 1 and s.tracks["axis.morale"] == axis


def test_ssa_22_14a_a_new_bomb_is_built_aboard_a_friendly_unit_where_new_units_appear(ssa_game):
    """Any friendly land, air or naval unit may carry it (not only a logistic unit); 20 industrial MP."""
    ge = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "Europe"}
    extra = RULES + TRACKS.replace('"allies.morale" = 60\n', '"allies.morale" = 60\n"GE.mp.industrial" = 40\n') \
        + '[technologies]\nGE = ["atomic_weapon"]\n'
    s = to_step(ssa_game([ge, US], extra=extra).new_state(seed=1), "mobilization/spend", "axis")
    order = {"kind": "mobilize", "nation": "GE", "type": "atomic_weapon", "at": "GE-inf"}
    assert order in s.legal_orders_of("mobilize")
    refused(s, {**order, "at": "Europe"}, "SSA-22.14a", "aboard the unit that carries it")
    before = s.tracks["GE.mp.industrial"]
    s.apply(order)
    assert [u.location for u in s.units_by_id.values() if u.type == "atomic_weapon"] == ["aboard:GE-inf"]
    assert s.tracks["GE.mp.industrial"] == before - 20  # mobilization.toml: an atomic weapon costs 20 industrial MP


def test_ssa_22_14h3_the_allied_bot_sends_a_bomb_on_a_missile_to_a_holding_area(ssa_game):
    from workbench.bots.heuristic import make_policy

    ulog = {"id": "US-log", "nation": "US", "type": "motorized_logistic_corps", "at": "0806"}
    umsl = {"id": "US-msl", "nation": "US", "type": "strategic_missile", "at": "0806", "carried_by": "US-log"}
    ubomb = {"id": "US-atom", "nation": "US", "type": "atomic_weapon", "at": "0806", "carried_by": "US-log"}
    s = aerial(game(ssa_game, [ulog, umsl, ubomb, {**US, "id": "GE-x", "nation": "GE", "at": "1210"}]), "allies")
    order = make_policy("heuristic", s.ruleset, "allies", 1).choose(s, s.legal_orders())
    assert order["kind"] == "atomic_attack" and order["missile"] == "US-msl" and order["target"] in ("Europe", "Far East")


def test_ssa_22_14d_a_convoy_is_damaged_and_its_cargo_shares_its_fate(ssa_game):
    """Ruling (22.14d): the troops aboard are not attacked on their own; the convoy, damaged on
    DE, loses 2 transport points of cargo as in naval combat (SSA-7.7a)."""
    import json

    tp = {"id": "US-tp", "nation": "US", "type": "transport", "at": "0206"}
    s = game(ssa_game, [SB, BOMB, tp, US])
    s.unit("US-inf").location = "0206"
    s.unit("US-inf").flag("carried", "US-tp")  # aboard the convoy
    s = to_step(s, "player/initial-movement", "axis")
    s.apply({"kind": "atomic_mission", "bomber": "GE-sb", "bomb": "GE-atom", "to": "0206"})
    s = aerial(s)
    s.dice = FixedDice(1)  # 3-1, die 1: DE
    s.apply({"kind": "atomic_attack", "bomb": "GE-atom"})
    assert [json.loads(d)["unit"] for d in s.events().filter(kind="atomic_result")["data"]] == ["US-tp"]
    assert s.unit("US-tp").reduced
    assert s.unit("US-inf").location == "Eliminated"  # the only cargo: its 2 transport points are lost
    assert s.events().filter(kind="eliminated", rule="SSA-7.7a").height == 1


def test_ssa_22_14c_a_bomb_not_dropped_flies_home_aboard_its_bomber(ssa_game):
    """The player may end the aerial step without dropping: the bomber lands back at Port City
    with the bomb, and may take it out again next turn."""
    s = flown(ssa_game, [SB, BOMB, US, CONVOY])
    s = aerial(s)
    assert s.legal_orders_of("atomic_attack") == [{"kind": "atomic_attack", "bomb": "GE-atom"}]
    s = to_step(s, "player/initial-movement", "axis")  # the next Axis turn
    assert s.unit("GE-sb").location == "0306" and s.unit("GE-atom").location == "aboard:GE-sb"
    assert {"kind": "atomic_mission", "bomber": "GE-sb", "bomb": "GE-atom", "to": "0906"} \
        in s.legal_orders_of("atomic_mission")
