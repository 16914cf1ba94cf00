"""ETO air-naval combat (16.0-16.4), standalone: ships are dicts {id, armor, named, kind} until the
naval units exist.  Armor ratings here are examples (the counters are printed, not in the rules
text); every other number is the rulebook's."""

from __future__ import annotations

from typing import Any

import pytest
from eto_kit import events, flying_state, unit

from workbench.engine import IllegalOrder
from workbench.rulesets.eto import air_naval as an
from workbench.rulesets.eto import air_units
from workbench.rulesets.eto.values import FORCE_POOL

HEX = "08740"


def naval_state(tmp_path, units: list[dict[str, Any]], *faces: int):
    return flying_state(tmp_path, units, *faces, allies=("SU", "UK", "US"), naval=True)


GE_B = unit("GE-b", "GE", "bomber", HEX)


def test_eto_16_2_underlined_strength_makes_half_the_attacks_at_most_four(tmp_path):
    """16.2: the 14.2 example's underlined German 6-12 bomber makes three attacks; "even a 10 or
    12 strength bomber with underlined combat strength is limited to four attacks"; an
    ordinary strength makes as many attacks as its strength."""
    s = naval_state(tmp_path, [GE_B, unit("US-b", "US", "bomber", HEX)])
    t = s.ruleset.tables
    ge = s.unit("GE-b")
    assert an.attacks(air_units.strength(s, ge), air_units.underlined(s, ge), t) == 3
    assert [an.attacks(n, True, t) for n in (10, 12, 7, 1)] == [4, 4, 3, 0]
    assert an.attacks(6, False, t) == 6 and an.attacks(3, False, t) == 3
    us = s.unit("US-b")  # the underlined 8-14: 4; depleted 4-14: 2
    assert an.attacks(air_units.strength(s, us), True, t) == 4
    us.reduced = True
    assert an.attacks(air_units.strength(s, us), True, t) == 2


def test_eto_16_2_two_dice_at_or_above_armor_hit_and_doubles_sink(tmp_path):
    """16.2: 2d6 >= armor hits; a hit with doubles sinks; doubles that miss do nothing; against
    an STP doubles are only a hit."""
    t = naval_state(tmp_path, [GE_B]).ruleset.tables
    kw = {"named": False, "naval_air": False, "tables": t}
    assert an.hit((3, 5), 8, **kw) == "hit"
    assert an.hit((3, 4), 8, **kw) == "miss"
    assert an.hit((4, 4), 8, **kw) == "sunk"
    assert an.hit((3, 3), 8, **kw) == "miss"
    assert an.hit((4, 4), 8, **kw, stp=True) == "hit"


def test_eto_16_3_named_ships_give_plus_two_land_based_plus_three_naval_air(tmp_path):
    """16.3: against a named ship (BB, CV, CA) +2 for a land-based bomber, +3 for naval air;
    nothing against squadrons or STPs.  6 against armor 9: land-based 8 misses, naval air 9 hits."""
    t = naval_state(tmp_path, [GE_B]).ruleset.tables
    assert an.hit((2, 4), 9, named=True, naval_air=False, tables=t) == "miss"
    assert an.hit((2, 4), 9, named=True, naval_air=True, tables=t) == "hit"
    assert an.hit((3, 4), 9, named=True, naval_air=False, tables=t) == "hit"
    assert an.hit((3, 4), 9, named=False, naval_air=True, tables=t) == "miss"
    assert an.hit((3, 3), 9, named=True, naval_air=True, tables=t) == "sunk"  # doubles that hit with the bonus
    assert an.hit((3, 4), 9, named=True, naval_air=True, tables=t, stp=True) == "miss"


def test_eto_16_4_anti_aircraft_rolls_of_two_and_three(tmp_path):
    """16.4: a roll of 2 hits the bomber in a minor port or against a stack of 10+ naval units
    (STPs not counted); 2 or 3 in a major or fortified port; otherwise never."""
    t = naval_state(tmp_path, [GE_B]).ruleset.tables
    assert an.aa_hit(2, port="minor", stack_size=1, tables=t) and not an.aa_hit(3, port="minor", stack_size=1, tables=t)
    assert an.aa_hit(2, port=None, stack_size=10, tables=t) and not an.aa_hit(2, port=None, stack_size=9, tables=t)
    for port in ("major", "fortified"):
        assert an.aa_hit(2, port=port, stack_size=1, tables=t) and an.aa_hit(3, port=port, stack_size=1, tables=t)
        assert not an.aa_hit(4, port=port, stack_size=1, tables=t)
    assert not an.aa_hit(3, port=None, stack_size=12, tables=t)


def test_eto_16_2_the_14_2_example_bomber_misses_the_stp_with_all_three_attacks(tmp_path):
    """14.2/16.2: the German 6-12 (underlined) makes three attacks on the lone STP, each rolled
    through state.roll under ETO-16.2, and misses with all three (armor 9 here)."""
    s = naval_state(tmp_path, [GE_B], 2, 3, 4, 4, 1, 5)
    stp = {"id": "UK-stp", "armor": 9, "kind": "STP"}
    res = an.bomb_ships(s, s.unit("GE-b"), [stp])
    assert [(a["dice"], a["result"]) for a in res["attacks"]] == [([2, 3], "miss"), ([4, 4], "miss"), ([1, 5], "miss")]
    rolls = [e for e in s.log if e["kind"] == "roll"]
    assert [r["rule"] for r in rolls] == ["ETO-16.2"] * 3 and rolls[0]["purpose"] == "GE-b attacks UK-stp (armor 9)"
    assert not stp.get("hits") and not stp.get("sunk") and res["aa_hits"] == 0


def test_eto_16_4_anti_aircraft_after_all_attacks_excess_ignored(tmp_path):
    """16.1 C/16.4: in a major port rolls of 3, 2 and 3 are three AA hits, taken only after all
    three attacks (the third is still made); the two-step 6-12 takes two and is eliminated, the
    third hit is ignored.  The named CA gets +2: 2+1+2 = 5 misses armor 6, 1+1+2 = 4 misses."""
    s = naval_state(tmp_path, [GE_B], 2, 1, 1, 1, 1, 2)
    ca = {"id": "UK-CA1", "armor": 6, "kind": "CA"}
    res = an.bomb_ships(s, s.unit("GE-b"), [ca], port="major")
    assert len(res["attacks"]) == 3 and all(a["aa_hit"] for a in res["attacks"])
    assert [a["bonus"] for a in res["attacks"]] == [2, 2, 2]
    assert (res["aa_hits"], res["aa_taken"]) == (3, ["depleted", "eliminated"])
    assert s.unit("GE-b").location == FORCE_POOL
    aa_ev = events(s, "anti_aircraft")[0]
    order = [e["kind"] for e in s.log if e["kind"] in ("air_naval", "depleted", "eliminated")]
    assert order == ["air_naval"] * 3 + ["depleted", "eliminated"] and aa_ev["rule"] == "ETO-16.4"


def test_eto_16_4_minor_port_one_hit_depletes(tmp_path):
    """16.4: in a minor port only the roll of 2 hits: the bomber is depleted (flipped), not
    eliminated; its 3 is no AA hit there.  (4,4) sinks the DD (armor 8), and the next attack
    declared on it is switched to the afloat ship."""
    s = naval_state(tmp_path, [GE_B], 4, 4, 1, 1, 1, 2)
    dd = {"id": "UK-DD1", "armor": 8, "kind": "DD"}
    cl = {"id": "UK-CL1", "armor": 8, "kind": "CL"}
    res = an.bomb_ships(s, s.unit("GE-b"), [dd, cl], targets=["UK-DD1", "UK-DD1", "UK-DD1"], port="minor")
    assert dd["sunk"] and [a["ship"] for a in res["attacks"]] == ["UK-DD1", "UK-CL1", "UK-CL1"]
    assert events(s, "air_naval_target")[0]["data"]["target"] == "UK-CL1"
    assert res["aa_taken"] == ["depleted"] and s.unit("GE-b").reduced


def test_eto_16_2_attacks_are_optional_and_limited(tmp_path):
    """16.2: fewer attacks than allowed is fine; more is refused; 15.6: an aborted bomber makes
    none; a fighter makes none (16.0: bombers)."""
    s = naval_state(tmp_path, [GE_B, unit("GE-f", "GE", "fighter", HEX)], 6, 6)
    ship = {"id": "UK-BB1", "armor": 10, "kind": "BB"}
    assert len(an.bomb_ships(s, s.unit("GE-b"), [ship], targets=["UK-BB1"])["attacks"]) == 1
    with pytest.raises(IllegalOrder) as e:
        an.bomb_ships(s, s.unit("GE-b"), [ship], targets=["UK-BB1"] * 4)
    assert e.value.rule == "ETO-16.2"
    with pytest.raises(IllegalOrder) as e:
        an.bomb_ships(s, s.unit("GE-f"), [ship])
    assert e.value.rule == "ETO-16.0"
    s.unit("GE-b").props["aborted"] = True
    with pytest.raises(IllegalOrder) as e:
        an.bomb_ships(s, s.unit("GE-b"), [ship])
    assert e.value.rule == "ETO-15.6"


def test_eto_16_3_naval_air_gets_plus_three_in_play(tmp_path):
    """16.3: the British 2-5/1 naval air unit flying as a bomber makes two attacks on a named CV
    with +3: 3+3+3 = 9 against armor 9 hits with doubles: sunk."""
    s = naval_state(tmp_path, [unit("UK-n", "UK", "naval_air", HEX)], 3, 3)
    s.unit("UK-n").props["role"] = "bomber"
    cv = {"id": "IT-CV1", "armor": 9, "kind": "CV"}
    res = an.bomb_ships(s, s.unit("UK-n"), [cv])
    assert res["attacks"][0]["bonus"] == 3 and cv["sunk"] and len(res["attacks"]) == 1  # the second finds none afloat


def test_eto_16_2_hits_on_naval_units_damage_then_sink(tmp_path):
    """16.1 B / 16.2 with a real counter: a German bomber (3 attacks, +2 against a named ship)
    hits HMS York (CA, armor 10) with 4+5+2 = 11: damaged at once, its armor now 9; the second
    attack, 3+4+2 = 9, hits the damaged cruiser: sunk for good (9.5).  The third attack finds no
    ship afloat."""
    s = naval_state(tmp_path, [GE_B, unit("UK-CA", "UK", "ca", HEX, name="York")], 4, 5, 3, 4)
    york = s.unit("UK-CA")
    res = an.bomb_ships(s, s.unit("GE-b"), [york])
    assert [a["armor"] for a in res["attacks"]] == [10, 9]
    assert [a["result"] for a in res["attacks"]] == ["hit", "hit"]
    assert york.location == "Eliminated"


def test_eto_16_2_a_hit_on_an_stp_marker_costs_one_stp(tmp_path):
    """16.2: doubles "do not cause extra damage to a STP": (5,5) against an STP marker of 2 points
    (armor 9) removes one STP; the marker stays with 1."""
    s = naval_state(tmp_path, [GE_B, unit("UK-STP", "UK", "stp", HEX, points=2)], 5, 5)
    stp = s.unit("UK-STP")
    an.bomb_ships(s, s.unit("GE-b"), [stp], targets=["UK-STP"])
    assert stp.props["points"] == 1 and stp.location == HEX


def test_eto_16_5_land_based_bombers_attack_ships_in_a_port_and_in_a_gridded_area(tmp_path):
    """16.5: land-based air attacks ships in ports, coastal hexes and gridded sea spaces, not in
    ungridded ones; 16.1: the bombers that get through attack after the air battle.  A German
    bomber over Harwich finds the British DD in port; one over the North Sea (gridded) the CL
    there; the North Atlantic (ungridded) is out of its reach."""
    from workbench.rulesets.eto import air_missions

    s = naval_state(tmp_path, [GE_B, unit("UK-DD", "UK", "dd", "03246", props={"in_port": True}),
                               unit("UK-CL", "UK", "cl", "North Sea"), unit("UK-CA", "UK", "ca", "North Atlantic",
                                                                            name="York")])
    assert [u.id for u in an.naval_targets(s, "axis", "03246")] == ["UK-DD"]
    sea = next(s.map.label(i) for i in range(s.map.size) if s.map.hexes["sea_area"][i] == "North Sea")
    assert [u.id for u in an.naval_targets(s, "axis", sea)] == ["UK-CL"]
    atlantic = next(s.map.label(i) for i in range(s.map.size) if s.map.hexes["sea_area"][i] == "North Atlantic")
    assert an.naval_targets(s, "axis", atlantic) == []
    r = air_missions.target_why_not(s, "axis", "attack_naval", atlantic, [s.unit("GE-b")])
    assert r and r.rule == "ETO-16.0" and "16.5" in r.why
    assert air_missions.target_why_not(s, "axis", "attack_naval", "03246", [s.unit("GE-b")]) is None


def test_eto_16_1_an_attack_naval_flight_bombs_the_ships_after_the_air_battle(tmp_path):
    """16.1/16.2: the bomber over Harwich makes its three attacks (underlined 6: half, 16.2) on the
    DD in port: (4,4) = 8 against armor 8 hits with doubles: sunk (9.5); nothing is left afloat for
    the other two.  A 2 would have been an anti-aircraft hit in a minor port (16.4): 8 is none."""
    from workbench.rulesets.eto import air_flights

    s = naval_state(tmp_path, [GE_B, unit("UK-DD", "UK", "dd", "03246", props={"in_port": True})], 4, 4)
    b = s.unit("GE-b")
    b.location = "03246"
    fl = air_flights.new_flight(s, "axis", [b], "attack_naval", [], target="03246")
    fl["arrived"], fl["at"] = True, "03246"
    an.strike_flights(s)
    assert s.unit("UK-DD").location == "Force pool"
    assert [e["data"]["result"] for e in events(s, "air_naval")] == ["sunk"]


def test_eto_11_2_a_strike_on_a_sub_at_sea_searches_first_and_one_bomber_attacks(tmp_path):
    """11.2 in an attack_naval strike: over the North Sea (gridded) two German bombers search for
    the British SS: die 5 + 2 bombers = 7 intercepts; then only one of them attacks it, the other
    attacks the CL.  On a die of 4 (6 < 7) the sub is not found and nobody attacks it."""
    from workbench.rulesets.eto import air_flights, submarines

    sea = None
    for found, faces in ((True, (5,) + (3,) * 40), (False, (4,) + (3,) * 40)):
        ships = [unit("UK-SS", "UK", "ss", "North Sea"), unit("UK-CL", "UK", "cl", "North Sea")]
        (tmp_path / str(found)).mkdir()
        s = naval_state(tmp_path / str(found), [GE_B, {**GE_B, "id": "GE-b2"}, *ships], *faces)
        sea = sea or next(s.map.label(i) for i in range(s.map.size) if s.map.hexes["sea_area"][i] == "North Sea")
        bombers = [s.unit("GE-b"), s.unit("GE-b2")]
        for b in bombers:
            b.location = sea
        fl = air_flights.new_flight(s, "axis", bombers, "attack_naval", [], target=sea)
        fl["arrived"], fl["at"] = True, sea
        submarines.strike_subs_at_sea(s)  # as the step ends (ETORuleset._air_step_over), before the ships
        an.strike_flights(s)
        search = events(s, "sub_air_search")
        assert [e["data"]["found"] for e in search] == [found]
        attacks = [(e["data"]["bomber"], e["data"]["ship"]) for e in events(s, "air_naval")]
        if found:  # one attack on the sub by one bomber; the other bomber's three go to the CL
            assert attacks == [("GE-b2", "UK-SS")] + [("GE-b", "UK-CL")] * 3
        else:      # not found: both bombers attack the CL only
            assert {a for _, a in attacks} == {"UK-CL"} and {b for b, _ in attacks} == {"GE-b", "GE-b2"}


def test_eto_16_4_port_class_from_the_map_and_the_markers_in_play(tmp_path):
    """16.4 in an attack_naval strike: the bomber's three rolls of 3 (1+2) miss the DD in port and
    are anti-aircraft hits only "in a major port or a fortified port (the fortification may be
    permanent or an installation marker)": Southampton (major), Harwich with a fortification
    marker, the permanent fortress port 06925 -- 3 hits, the 6-12 takes two and is eliminated;
    plain Harwich (minor: only a 2 hits), Harwich with an airfield marker (no fortification) and
    Harwich destroyed (21.5: no port, no fortification) -- none."""
    from workbench.rulesets.eto import air_flights

    harwich, southampton, fortress = "03246", "02748", "06925"
    cases = [(southampton, None, 3), (harwich, "fortification", 3), (fortress, None, 3),
             (harwich, None, 0), (harwich, "airfield", 0), (harwich, "destroyed", 0)]
    for n, (port, marker, hits) in enumerate(cases):
        (tmp_path / str(n)).mkdir()
        s = naval_state(tmp_path / str(n), [GE_B, unit("UK-DD", "UK", "dd", port, props={"in_port": True})],
                        *(1, 2) * 3)
        if marker == "destroyed":
            s.markers["forts"] = {port: {"side": "allies", "kind": "fortification"}}
            s.markers["destroyed"] = {port: {"kind": "fortification", "side": "allies"}}
        elif marker:
            s.markers["forts"] = {port: {"side": "allies", "kind": marker}}
        b = s.unit("GE-b")
        b.location = port
        fl = air_flights.new_flight(s, "axis", [b], "attack_naval", [], target=port)
        fl["arrived"], fl["at"] = True, port
        an.strike_flights(s)
        assert [e["data"]["result"] for e in events(s, "air_naval")] == ["miss"] * 3, (port, marker)
        aa = events(s, "anti_aircraft")
        assert (aa[0]["data"]["hits"] if aa else 0) == hits, (port, marker)
        assert (b.location == FORCE_POOL) == (hits == 3), (port, marker)

