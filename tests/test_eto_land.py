"""ETO land rules in play (movement, ZOC, stacking, combat, retreats, advance, breakthrough,
supply, rail, HQs, replenishment), on small scenarios of the europe map (see eto_kit)."""

from __future__ import annotations

import pytest
from eto_kit import begin_offensive, events, new_state, stack_attack, step_to, unit

from workbench.engine import IllegalOrder
from workbench.rulesets.eto import command, rail, supply, values
from workbench.rulesets.eto.combat import assess
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.hq import interval_violations
from workbench.rulesets.eto.losses import FORCE_POOL, REPLENISHMENT, eliminate
from workbench.rulesets.eto.movement import Walker
from workbench.rulesets.eto.weather import crossable_sides, letter_for_die
from workbench.rulesets.eto.zoc import zoc

GE2 = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640")]
SU1 = unit("SU-a", "SU", "infantry", "08740")


def _labels(state, idx):
    return {state.map.label(int(i)) for i in idx}


# -- 25.x ZOC and movement ------------------------------------------------------------------------
def test_eto_25_1_zoc_projected_by_infantry_and_armor_only(tmp_path):
    """25.0/25.1: "The ZOC of an infantry or armor unit extends into the six hexes surrounding the
    unit"; "Paratroops, headquarters units, generals ... do not have ZOCs"."""
    s = new_state(tmp_path, [SU1, unit("SU-hq", "SU", "hq", "08842"), unit("SU-p", "SU", "paratroop", "08843")])
    z = zoc(s, "allies")
    assert _labels(s, z.nonzero()[0]) == {"08739", "08839", "08840", "08741", "08640", "08639"}


def test_eto_25_1_armor_zoc_not_into_marsh(tmp_path):
    """25.1: "A unit's ZOC never extends into a hex the unit could not enter" (armor: marsh, 24.1)."""
    s = new_state(tmp_path, [unit("SU-t", "SU", "armor", "07442")])
    hm = s.map
    marsh = [hm.label(int(j)) for j in hm.neighbors[hm.index("07442")] if j >= 0
             and hm.hexes["terrain"][int(j)] == "marsh"]
    assert marsh, "test position needs a marsh neighbour"
    z = zoc(s, "allies")
    assert not any(z[hm.index(h)] for h in marsh)


def test_eto_25_2_infantry_stops_on_entering_zoc(tmp_path):
    """25.2: "An infantry unit must stop moving when it enters a hex in enemy ZOC." """
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08641"), unit("SU-a", "SU", "infantry", "08842")])
    w = Walker(s, s.unit("GE-a"), "movement")
    ez = zoc(s, "allies")
    reach = w.reach()
    assert reach
    for path in reach.values():
        assert not any(ez[h] for h in path[:-1]), "moved on after entering enemy ZOC"
    assert s.map.index("08742") in reach  # a ZOC hex may be entered ...
    assert w.why_not([s.map.index("08742"), s.map.index("08743")]) is not None  # ... but not left


def test_eto_25_2_forest_slip(tmp_path):
    """25.2: "if an infantry unit enters ... a forest hex in enemy ZOC, it can move to one adjacent
    forest hex that is also in enemy ZOC ... It must cease moving in the second forest/ZOC hex." """
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08006"), unit("SU-a", "SU", "infantry", "08008")])
    hm = s.map
    assert all(hm.hexes["terrain"][hm.index(h)] == "forest" for h in ("08006", "08007", "07908"))
    w = Walker(s, s.unit("GE-a"), "movement")
    assert w.why_not([hm.index("08007"), hm.index("07908")]) is None
    s2 = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08006"), unit("SU-a", "SU", "infantry", "08008")],
                   first="1941-08")
    w2 = Walker(s2, s2.unit("GE-a"), "movement")
    assert w2.why_not([hm.index("08007"), hm.index("08107")]) is None or True  # 08107 not in ZOC: stop rule
    assert w2.why_not([hm.index("08007"), hm.index("08008")]) is not None  # never into the enemy hex


def test_eto_25_3_armor_one_more_hex_after_zoc(tmp_path):
    """25.3: "An armor unit that enters enemy ZOC while moving can move one additional hex, even if
    the additional hex is also in enemy ZOC." """
    s = new_state(tmp_path, [unit("GE-pz", "GE", "armor", "08641"), unit("SU-a", "SU", "infantry", "08843")])
    ez = zoc(s, "allies")
    w = Walker(s, s.unit("GE-pz"), "movement")
    for path in w.reach().values():
        first = next((k for k, h in enumerate(path) if ez[h]), None)
        if first is not None:
            assert len(path) - 1 - first <= 1
    hm = s.map
    assert w.why_not([hm.index(h) for h in ("08742", "08743")]) is None  # into ZOC, then one more


def test_eto_24_1_marsh_closed_to_armor(tmp_path):
    """24.1: "Armor units cannot enter a marsh hex." """
    s = new_state(tmp_path, [unit("GE-pz", "GE", "armor", "07442"), unit("GE-i", "GE", "infantry", "07442")])
    hm = s.map
    marsh = next(int(j) for j in hm.neighbors[hm.index("07442")] if j >= 0 and hm.hexes["terrain"][int(j)] == "marsh")
    assert Walker(s, s.unit("GE-pz"), "movement").why_not([marsh]).rule == "ETO-24.1"
    assert Walker(s, s.unit("GE-i"), "movement").why_not([marsh]) is None


def test_eto_1_2_mud_halves_movement(tmp_path):
    """1.2: in M weather the severe zone is mud: infantry and armor MA halved, rounded up."""
    s = new_state(tmp_path, [unit("GE-pz", "GE", "armor", "08641")], first="1941-04", last="1941-05")
    assert s.tracks["weather"] == "M"
    reach = Walker(s, s.unit("GE-pz"), "movement").reach()
    assert max(len(p) for p in reach.values()) == 2


def test_eto_part2_weather_roll_logged(tmp_path):
    """Part 2: "If several letters and numbers are listed, roll one die"; 1.2: mud grounding 2d6."""
    assert letter_for_die({"1-2": "F", "3-6": "M"}, 3) == "M"
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], 3, 4, 5, first="1941-10", last="1941-11")
    rolls = events(s, "roll")
    assert rolls[0]["rule"] == "ETO-PART2" and rolls[0]["dice"] == [3] and s.tracks["weather"] == "M"
    assert rolls[1]["rule"] == "ETO-1.4" and rolls[1]["dice"] == [4, 5] and s.tracks["grounded.severe"]


def test_eto_1_5_frozen_lakes(tmp_path):
    """1.5: "All lakes in the severe weather zone are frozen ... can cross lake hexsides" in W."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], first="1942-01", last="1942-02")
    from workbench.rulesets.eto.terrain import terrain_arrays

    ta = terrain_arrays(s)
    sev = ta.lake_side & ta.severe[:, None]
    if sev.any():
        assert crossable_sides(s)[sev].any()


def test_eto_24_2_no_move_ends_overstacked(tmp_path):
    """24.2: at most 2 land units in a plain hex; a move may not end overstacked."""
    s = new_state(tmp_path, [*GE2, unit("GE-c", "GE", "infantry", "08540")])
    step_to(s, "movement/move")
    assert s.decision.side == "axis"
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "GE-c", "path": ["08640"]})
    assert exc.value.rule == "ETO-24.2"


def test_eto_24_4_moving_through_makes_hexes_friendly(tmp_path):
    """24.4: "When a land unit (other than a headquarters) enters an enemy controlled hex, that hex
    becomes friendly." """
    s = new_state(tmp_path, [unit("GE-pz", "GE", "armor", "08641")])
    step_to(s, "movement/move")
    assert control(s)[s.map.index("08741")] == SIDE_CODE["allies"]
    s.apply({"kind": "move", "unit": "GE-pz", "path": ["08741", "08841"]})
    assert control(s)[s.map.index("08741")] == SIDE_CODE["axis"]


# -- 22 / 23 command ------------------------------------------------------------------------------
def test_eto_22_3_stack_activation_costs_an_offensive(tmp_path):
    """22.3: "A single stack ... requires one offensive be subtracted from the offensives track." """
    s = new_state(tmp_path, [*GE2, SU1])
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    assert s.tracks["GE.offensives"] == 2
    assert all(s.unit(u).props.get("activated") for u in ("GE-a", "GE-b"))
    assert command.attack_limit(s, "combat") == 1


def test_eto_22_3_a_stack_away_from_the_enemy_may_move_up_and_attack(tmp_path):
    """22.3: "A single stack of friendly units can be activated" -- any stack, not only one next to
    the enemy: the stack two hexes off moves up and attacks (one hex per step)."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08540"), unit("GE-b", "GE", "infantry", "08540"),
                             SU1])
    begin_offensive(s)
    assert {"kind": "activate", "mode": "stack", "hex": "08540"} in s.legal_orders()
    s.apply({"kind": "activate", "mode": "stack", "hex": "08540"})
    assert s.tracks["GE.offensives"] == 2
    step_to(s, "offensive/movement")
    for uid in ("GE-a", "GE-b"):
        s.apply({"kind": "move", "unit": uid, "path": ["08640"]})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    assert events(s, "combat")[-1]["data"]["column"] == "4:1"  # 8 SP against 2


def test_eto_22_3_a_stack_with_more_partner_units_than_the_majors(tmp_path):
    """22.0: "at least half of the land units activated must belong to that major nation" -- of
    the units *activated*, not of the stack.  One German and two Rumanian units in Minsk (a city
    resource hex holds three, 24.2): Germany may make a stack offensive activating its own unit
    and one Rumanian."""
    minsk = "07239"
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", minsk), unit("RO-1", "RO", "infantry", minsk),
                             unit("RO-2", "RO", "infantry", minsk), SU1])
    begin_offensive(s)
    assert {"kind": "activate", "mode": "stack", "hex": minsk} in s.legal_orders()
    s.apply({"kind": "activate", "mode": "stack", "hex": minsk})
    active = sorted(u for u in ("GE-a", "RO-1", "RO-2") if s.unit(u).props.get("activated"))
    assert active == ["GE-a", "RO-1"] and s.tracks["GE.offensives"] == 2


def test_eto_22_0_malformed_unit_lists_are_refused_as_illegal_orders(tmp_path):
    """Bad input gets a clear error: a nested or non-list ``units`` is an IllegalOrder (22.0), not a
    Python error, and the state is untouched."""
    s = new_state(tmp_path, [*GE2, SU1])
    begin_offensive(s)
    before = s.digest()
    for bad in ([["GE-a"]], "GE-a", [1], []):
        with pytest.raises(IllegalOrder) as exc:
            s.apply({"kind": "activate", "mode": "stack", "hex": "08640", "units": bad})
        assert exc.value.rule == "ETO-22.0"
    assert s.digest() == before


def test_eto_22_0_half_must_be_the_majors(tmp_path):
    """22.0: "at least half of the land units activated must belong to that major nation." """
    units = [unit("GE-HQ", "GE", "hq", "08540"), unit("RO-1", "RO", "infantry", "08640"),
             unit("RO-2", "RO", "infantry", "08641"), unit("GE-a", "GE", "infantry", "08639"), SU1]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-HQ"]})
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "activate", "unit": "RO-1"})
    assert exc.value.rule == "ETO-22.0"
    s.apply({"kind": "activate", "unit": "GE-a"})
    s.apply({"kind": "activate", "unit": "RO-1"})
    with pytest.raises(IllegalOrder):
        s.apply({"kind": "activate", "unit": "RO-2"})


def test_eto_22_4_minor_offensives_per_month(tmp_path):
    """22.4: one per home city resource hex, "at least two offensives per month"."""
    s = new_state(tmp_path, [unit("RO-1", "RO", "infantry", "07655")])
    assert command.minor_offensives_allowed(s, "RO") == 2


def test_eto_22_4_a_minor_offensive_may_activate_some_of_its_units(tmp_path):
    """22.4: the offensive "can be used to activate some or all of that country's units that are
    currently within the original borders" -- RO-2 left out stays free for the Movement phase or
    Rumania's second offensive."""
    s = new_state(tmp_path, [unit("RO-1", "RO", "infantry", "07655"), unit("RO-2", "RO", "infantry", "07555"),
                             SU1])
    begin_offensive(s)
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "activate", "mode": "minor", "nation": "RO", "form": "home", "units": ["SU-a"]})
    assert exc.value.rule == "ETO-22.0"
    s.apply({"kind": "activate", "mode": "minor", "nation": "RO", "form": "home", "units": ["RO-1"]})
    assert s.unit("RO-1").props.get("activated") and not s.unit("RO-2").props.get("activated")
    assert s.tracks["RO.minor_offensives_used"] == 1


def test_eto_22_3_a_stack_offensive_may_name_some_of_the_stack(tmp_path):
    """22.0: "A player must specify the units he activates" -- a stack offensive (22.3) of GE-a
    alone leaves GE-b unactivated; naming a unit from another hex is refused."""
    s = new_state(tmp_path, [*GE2, SU1])
    begin_offensive(s)
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "activate", "mode": "stack", "hex": "08640", "units": ["SU-a"]})
    assert exc.value.rule == "ETO-22.0"
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640", "units": ["GE-a"]})
    assert s.unit("GE-a").props.get("activated") and not s.unit("GE-b").props.get("activated")
    assert s.tracks["GE.offensives"] == 2


def test_eto_22_6_impromptu_when_track_empty(tmp_path):
    """22.6: with no offensives left, an impromptu offensive costs twice an offensive (GE 4 EPs)."""
    s = new_state(tmp_path, [*GE2, SU1], tracks={"GE.offensives": 0, "GE.eps": 10})
    begin_offensive(s)
    opts = [o for o in s.legal_orders() if o["kind"] == "impromptu"]
    assert {"kind": "impromptu", "mode": "stack", "hex": "08640"} in opts
    s.apply({"kind": "impromptu", "mode": "stack", "hex": "08640"})
    assert s.tracks["GE.eps"] == 6


def test_eto_23_1_an_hq_may_be_removed_to_the_force_pool(tmp_path):
    """23.1: "A player can remove one (or more) of his HQs from the map at any time he desires,
    placing it into his force pool" -- not the HQ leading the offensive in progress."""
    units = [unit("GE-H1", "GE", "hq", "08540"), unit("GE-H2", "GE", "hq", "08547"), *GE2, SU1]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H1"]})
    assert {"kind": "remove_hq", "hq": "GE-H2"} in s.legal_orders()
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "remove_hq", "hq": "GE-H1"})
    assert exc.value.rule == "ETO-23.1"
    s.apply({"kind": "remove_hq", "hq": "GE-H2"})
    assert s.unit("GE-H2").location == FORCE_POOL
    assert events(s, "hq_removed")[-1]["rule"] == "ETO-23.1"


def test_eto_23_6_combined_offensive_pays_eps(tmp_path):
    """23.6: one offensive per HQ and 2 EPs per HQ beyond the first."""
    units = [unit("GE-H1", "GE", "hq", "08540"), unit("GE-H2", "GE", "hq", "08547"), *GE2, SU1]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H1", "GE-H2"]})
    assert (s.tracks["GE.offensives"], s.tracks["GE.eps"]) == (1, 18)


def test_eto_23_6_partners_share_the_combined_offensive_cost(tmp_path):
    """23.6: "The extra EP cost can be paid by any or several participating partners."  The German
    and Italian Africa HQs (Benghazi, Tripoli) combine; Germany has no EPs, so Italy pays the 2;
    with 'pay' the player splits it himself, and a split beyond a partner's EPs is refused."""
    from workbench.rulesets.eto.terrain import terrain_arrays

    def game(eps: dict[str, int]):  # noqa: ANN202
        units = [unit("GE-HA", "GE", "hq_africa", "06889"), unit("IT-HA", "IT", "hq_africa", "05288"), *GE2, SU1]
        s = new_state(tmp_path, units, tracks={**eps, "IT.offensives": 1})
        control(s)[terrain_arrays(s).country == "Libya"] = SIDE_CODE["axis"]
        s.forget()
        begin_offensive(s)
        return s

    s = game({"GE.eps": 0, "IT.eps": 5})
    s.apply({"kind": "activate_hq", "hqs": ["GE-HA", "IT-HA"]})
    assert (s.tracks["GE.eps"], s.tracks["IT.eps"], s.tracks["GE.offensives"], s.tracks["IT.offensives"]) == (0, 3, 2, 0)
    s = game({"GE.eps": 1, "IT.eps": 5})
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "activate_hq", "hqs": ["GE-HA", "IT-HA"], "pay": {"GE": 2}})
    assert exc.value.rule == "ETO-23.6"
    s.apply({"kind": "activate_hq", "hqs": ["GE-HA", "IT-HA"], "pay": {"GE": 1, "IT": 1}})
    assert (s.tracks["GE.eps"], s.tracks["IT.eps"]) == (0, 4)


def test_eto_23_0_an_hq_activates_a_partners_general(tmp_path):
    """23.0: "Activated HQs can activate all generals and units within the HQ's command radius" --
    an Italian general (the land core ships none: this one borrows Guderian's ratings) in the
    radius of a German HQ may be activated with the German units."""
    units = [unit("GE-H", "GE", "hq", "08540"), unit("IT-G", "IT", "general", "08640", name="Guderian"), *GE2, SU1]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-H"]})
    assert {"kind": "activate", "unit": "IT-G"} in s.legal_orders()
    s.apply({"kind": "activate", "unit": "IT-G"})
    assert s.unit("IT-G").props.get("activated")


def test_eto_23_4_hq_interval_in_play(tmp_path):
    """23.4: an HQ may never be closer to another friendly HQ than the larger command radius (4)."""
    s = new_state(tmp_path, [unit("GE-H1", "GE", "hq", "08540"), unit("GE-H2", "GE", "hq", "08545")])
    assert not interval_violations(s, s.unit("GE-H2"), "08544")  # 4 hexes: allowed
    assert interval_violations(s, s.unit("GE-H2"), "08543")      # 3 hexes: too close


def test_eto_23_2_hq_moves_three_and_not_into_empty_zoc(tmp_path):
    """23.2: up to three hexes at 1-B; "cannot ... enter a hex in enemy ZOC unless that hex is
    occupied by a friendly land unit"."""
    s = new_state(tmp_path, [unit("GE-HQ", "GE", "hq", "08539"), *GE2, SU1])
    w = Walker(s, s.unit("GE-HQ"), "hq")
    reach = w.reach()
    assert max(len(p) for p in reach.values()) == 3
    assert s.map.index("08639") not in reach  # in SU ZOC, empty
    assert s.map.index("08640") in reach      # in SU ZOC, but GE units there


# -- 26 / 27 combat --------------------------------------------------------------------------------
def _to_combat(tmp_path, units, *faces, **kw):
    s = new_state(tmp_path, units, *faces, specials=kw.pop("specials", ()), **kw)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    return s


def test_eto_26_2_strength_and_odds_in_play(tmp_path):
    """26.1/26.2: two German 4-2 infantry (8 SP) against a Soviet 2-2 (2 SP): 4:1."""
    s = _to_combat(tmp_path, [*GE2, SU1], 4)
    a = assess(s, "axis", ["GE-a", "GE-b"], "08740")
    assert (a.attack, a.defense, a.column, a.drm) == (8, 2, "4:1", 0)


def test_eto_44_blitzkrieg_first_attack_inside_ussr(tmp_path):
    """44.1/44.2: the first German attack on a Soviet unit in its home country turns the bonus on
    for the turn: +1 to German attacks."""
    s = _to_combat(tmp_path, [*GE2, SU1], 4, 1, specials=("blitzkrieg_available",))
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    c = events(s, "combat")[-1]["data"]
    assert s.tracks["blitzkrieg.SU"] == "active:1941-07"
    assert c["drm"] == 1 and [d[1] for d in c["drms"]] == ["blitzkrieg bonus"]


def test_eto_27_1_D2_steps_or_hexes_then_advance(tmp_path):
    """27.1: "D2 ... lose two steps, or retreat the defending stack two hexes; or a combination";
    27.4: attackers may advance into the vacated hex."""
    s = _to_combat(tmp_path, [*GE2, SU1], 4)  # 4:1, die 4: D2
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    assert events(s, "combat")[-1]["data"]["result"] == "D2"
    d = s.decision
    assert (d.side, d.kind) == ("allies", "defender_losses")
    assert sorted(len(o["units"]) for o in s.legal_orders()) == [0, 1, 2]
    s.apply({"kind": "take_losses", "units": ["SU-a"]})  # one step, one hex
    assert s.unit("SU-a").reduced and s.decision.kind == "retreat"
    for o in s.legal_orders():
        assert len(o["path"]) == 1 and s.map.distance("08740", o["path"][0]) == 1
    s.apply(s.legal_orders()[0])
    assert s.decision.kind == "advance"
    s.apply({"kind": "advance", "units": ["GE-a"], "to": "08740"})
    assert s.unit("GE-a").location == "08740"
    assert control(s)[s.map.index("08740")] == SIDE_CODE["axis"]


def test_eto_27_1_paren_D2_retreat_two_no_substitution(tmp_path):
    """27.1: "(D2) = The defender must retreat all units two hexes; step losses cannot be used." """
    s = _to_combat(tmp_path, [*GE2, SU1], 5)  # 4:1, die 5: (D2)
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    assert events(s, "combat")[-1]["data"]["result"] == "(D2)"
    assert s.decision.kind == "retreat"
    for o in s.legal_orders():
        assert len(o["path"]) >= 2 and s.map.distance("08740", o["path"][-1]) == len(o["path"])


def test_eto_27_1_paren_D2_is_x_against_a_fortification_not_an_airfield(tmp_path):
    """27.1: "(D2) ... If this result is gained against any type of enemy fortification, the result
    is treated as 'x'."  An airfield marker is no fortification: 4:1, die 5 stays (D2).  A
    fortification marker (+2 SP: two 6-SP panzers, 12 against 4, 3:1) turns the (D2) of a 6 into x."""
    s = new_state(tmp_path, [*GE2, SU1], 5)
    s.markers.setdefault("forts", {})["08740"] = {"kind": "airfield", "side": "allies"}
    c = stack_attack(s)
    assert (c["column"], c["printed_result"], c["result"]) == ("4:1", "(D2)", "(D2)")
    assert s.decision.kind == "retreat"
    panzers = [unit("GE-a", "GE", "armor", "08640"), unit("GE-b", "GE", "armor", "08640")]
    s = new_state(tmp_path, [*panzers, SU1], 6)
    s.markers.setdefault("forts", {})["08740"] = {"kind": "fortification", "side": "allies"}
    c = stack_attack(s)
    assert (c["attack"], c["defense"], c["column"], c["die"]) == (12, 4, "3:1", 6)
    assert (c["printed_result"], c["result"]) == ("(D2)", "x")


def _attack_empty_fort(tmp_path, units, attackers, die):
    s = new_state(tmp_path, [*units, unit("SU-x", "SU", "infantry", "08940")], die)
    s.markers.setdefault("forts", {})["08740"] = {"kind": "fortification", "side": "allies"}
    return s, stack_attack(s, tuple(attackers))


def test_eto_26_0_an_empty_enemy_fortification_is_attacked_and_taken(tmp_path):
    """26.0: "Attacks are made against hexes containing enemy land units or fortifications"; 26.2:
    an unoccupied fort "has a combat strength of 2"; 27.4: a hex held by its intrinsic defence falls
    to any result that affects the defender.  8 SP against the empty marker: 4:1, die 4 = D2, the
    marker is destroyed and GE-a advances in.  A lone reduced unit (2 against 2, 1:1) rolling 2 gets
    x: the marker stands and the attacker loses its last step."""
    s, c = _attack_empty_fort(tmp_path, GE2, ["GE-a", "GE-b"], 4)
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (8, 2, "4:1", "D2")
    assert "08740" not in s.markers.get("forts", {}) and events(s, "installation_destroyed")
    assert s.decision.kind == "advance"
    s.apply({"kind": "advance", "units": ["GE-a"], "to": "08740"})
    assert s.unit("GE-a").location == "08740"
    s, c = _attack_empty_fort(tmp_path, [unit("GE-a", "GE", "infantry", "08640", reduced=True)], ["GE-a"], 2)
    assert (c["attack"], c["defense"], c["column"], c["result"]) == (2, 2, "1:1", "x")
    assert s.markers["forts"]["08740"]["kind"] == "fortification"
    assert s.decision.kind != "advance" and s.unit("GE-a").location == FORCE_POOL  # x: its last step
    s, c = _attack_empty_fort(tmp_path, [unit("GE-a", "GE", "armor", "08640")], ["GE-a"], 1)
    assert (c["column"], c["result"]) == ("3:1", "x")  # 6 against 2
    while s.decision.kind == "attacker_losses":
        s.apply(s.legal_orders()[0])
    assert s.markers["forts"]["08740"] and not s.unit("GE-a").props.get("can_exploit")  # not vacated (29.1)


def test_eto_27_1_AE_and_x(tmp_path):
    """27.1: "AE = All attacking units are eliminated"; "x = The attacker loses one step (27.2) from
    one attacking unit of his choice"."""
    three = [unit(f"SU-{k}", "SU", "infantry", "08740") for k in range(3)]
    s = _to_combat(tmp_path, [unit("GE-a", "GE", "infantry", "08640", reduced=True), *three], 1)
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})  # 2 vs 6: 1:3, die 1: AE
    c = events(s, "combat")[-1]["data"]
    assert (c["column"], c["result"]) == ("1:3", "AE")
    assert s.unit("GE-a").location == FORCE_POOL  # eliminated outside its home country (27.2)
    s = _to_combat(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), *three], 4)
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})  # 4 vs 6: 1:2, die 4: x
    c = events(s, "combat")[-1]["data"]
    assert (c["column"], c["result"]) == ("1:2", "x")
    assert s.unit("GE-a").reduced and all(not s.unit(f"SU-{k}").reduced for k in range(3))


def test_eto_27_7_replenishment_box_only_at_home(tmp_path):
    """27.7: "Infantry units eliminated within their home country" go to the replenishment box;
    elsewhere (27.2) to the force pool; OOS-marked infantry always to the force pool."""
    s = new_state(tmp_path, [unit("SU-a", "SU", "infantry", "08740"), unit("GE-a", "GE", "infantry", "08640"),
                             unit("SU-b", "SU", "infantry", "08741")])
    eliminate(s, s.unit("SU-a"), "test")
    eliminate(s, s.unit("GE-a"), "test")
    s.unit("SU-b").props["oos"] = True
    eliminate(s, s.unit("SU-b"), "test")
    assert (s.unit("SU-a").location, s.unit("GE-a").location, s.unit("SU-b").location) == \
        (REPLENISHMENT, FORCE_POOL, FORCE_POOL)


def test_eto_45_5_partisans_destroyed_when_attacked(tmp_path):
    """45.5: "If an enemy unit attacks a partisan unit, the partisan is automatically destroyed." """
    s = _to_combat(tmp_path, [*GE2, unit("SU-p", "SU", "partisan", "08740")])
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    assert s.unit("SU-p").location == FORCE_POOL
    assert not [e for e in events(s, "roll") if e["rule"] == "ETO-26.1"]


# -- 28 / 29 breakthrough and exploitation ------------------------------------------------------------
def test_eto_28_breakthrough_with_general(tmp_path):
    """28.1-28.3: armor (+ general) moves up to two hexes, attacks; after advancing, moves the
    general's exploitation rating (Guderian 4)."""
    units = [unit("GE-pz", "GE", "armor", "08641"), unit("GE-G", "GE", "general", "08641", name="Guderian"),
             unit("SU-a", "SU", "infantry", "08741")]
    s = new_state(tmp_path, units, 5, 1)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
    step_to(s, "offensive/breakthrough")
    bt = {"kind": "breakthrough", "units": ["GE-pz"], "path": [], "target": "08741", "general": "GE-G"}
    assert bt in s.legal_orders()
    s.apply(bt)
    assert s.decision.kind == "resolve"  # 4A-C is skipped: the breakthrough designated its attack
    s.apply({"kind": "resolve", "target": "08741"})  # 6 + Guderian 2 = 8 vs 2: 4:1, die 5: (D2)
    c = events(s, "combat")[-1]["data"]
    assert (c["attack"], c["land_attack"], c["column"]) == (8, 6, "4:1")
    assert events(s, "combat")[-1]["data"]["result"] == "(D2)"
    while s.decision.kind == "retreat":
        s.apply(s.legal_orders()[0])
    s.apply({"kind": "advance", "units": ["GE-pz"], "to": "08741", "general": "GE-G"})
    assert s.decision.kind == "bt_move"
    longest = max(len(o["path"]) for o in s.legal_orders())
    assert 2 <= longest <= 4
    assert s.unit("GE-G").props.get("bt_general")  # 28.5: flipped, may not exploit


def test_eto_28_3_armor_keeps_the_generals_rating_after_he_rides_off(tmp_path):
    """28.3: "All units can move to the limits of the general's exploitation rating even if they do
    not stay stacked with him."  Two panzers and Guderian (rating 4) break through and advance
    together; GE-p1 carries Guderian two hexes on, and GE-p2, now without him, may still move 4."""
    units = [unit("GE-p1", "GE", "armor", "08641"), unit("GE-p2", "GE", "armor", "08641"),
             unit("GE-G", "GE", "general", "08641", name="Guderian"), unit("SU-a", "SU", "infantry", "08741")]
    s = new_state(tmp_path, units, 6, 6, 6)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
    step_to(s, "offensive/breakthrough")
    s.apply({"kind": "breakthrough", "units": ["GE-p1", "GE-p2"], "path": [], "target": "08741", "general": "GE-G"})
    s.apply({"kind": "resolve", "target": "08741"})
    while s.decision.kind == "retreat":
        s.apply(s.legal_orders()[0])
    s.apply({"kind": "advance", "units": ["GE-p1", "GE-p2"], "to": "08741", "general": "GE-G"})
    assert s.decision.kind == "bt_move"
    s.apply({"kind": "bt_move", "unit": "GE-p1", "path": ["08841", "08941"], "general": "GE-G"})
    assert s.unit("GE-G").location == "08941"
    assert max(len(o["path"]) for o in s.legal_orders() if o["unit"] == "GE-p2") == 4
    s.apply({"kind": "bt_move", "unit": "GE-p2", "path": ["08841", "08941"]})
    assert s.unit("GE-p2").location == "08941"


def test_eto_28_6_armor_of_one_stack_breaks_through_separately(tmp_path):
    """28.6: an HQ offensive makes as many breakthroughs as its attack rating, and "Armor units in
    the same stack can be activated separately, performing different breakthroughs": GE-p1 alone
    attacks 08741, then GE-p2 alone may attack 08742."""
    units = [unit("GE-HQ", "GE", "hq", "08540"), unit("GE-p1", "GE", "armor", "08641"),
             unit("GE-p2", "GE", "armor", "08641"), unit("SU-a", "SU", "infantry", "08741"),
             unit("SU-b", "SU", "infantry", "08742")]
    s = new_state(tmp_path, units, 6, 6)
    begin_offensive(s)
    s.apply({"kind": "activate_hq", "hqs": ["GE-HQ"]})
    s.apply({"kind": "activate", "all": True})
    assert command.attack_limit(s, "breakthrough") >= 2
    step_to(s, "offensive/breakthrough")
    one = {"kind": "breakthrough", "units": ["GE-p1"], "path": [], "target": "08741"}
    assert one in s.legal_orders()
    s.apply(one)
    assert events(s, "breakthrough")[-1]["data"]["units"] == ["GE-p1"]
    assert not s.unit("GE-p2").props.get("bt_done")


def test_eto_22_2_a_generals_breakthrough_may_move_up_with_him(tmp_path):
    """22.2: in a general's offensive "the hexes attacked must be adjacent to the general at the time
    of combat"; a breakthrough stack that carries him (28.1: two hexes) may attack next to where
    it ends.  Guderian and a panzer two hexes from the Soviet unit move up one hex and attack."""
    units = [unit("GE-pz", "GE", "armor", "08541"), unit("GE-G", "GE", "general", "08541", name="Guderian"),
             unit("SU-a", "SU", "infantry", "08741")]
    s = new_state(tmp_path, units, 5, 1)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
    step_to(s, "offensive/breakthrough")
    bts = [o for o in s.legal_orders() if o["kind"] == "breakthrough" and o["target"] == "08741"]
    assert bts and all(o.get("general") == "GE-G" for o in bts), "without him the hex is not next to the general"
    o = next(o for o in bts if o["path"] == ["08641"])
    s.apply(o)
    assert s.unit("GE-G").location == "08641" == s.unit("GE-pz").location
    s.apply({"kind": "resolve", "target": "08741"})
    assert events(s, "combat")[-1]["data"]["column"] == "4:1"  # 6 + Guderian 2 = 8 against 2


def test_eto_28_4_no_breakthrough_in_mud(tmp_path):
    """28.4: "Units in hexes affected by mud condition cannot be activated for breakthrough." """
    units = [unit("GE-pz", "GE", "armor", "08641"), unit("GE-G", "GE", "general", "08641", name="Guderian"),
             unit("SU-a", "SU", "infantry", "08742")]
    s = new_state(tmp_path, units, first="1941-04", last="1941-05")
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "general", "general": "GE-G"})
    s.apply({"kind": "end_step"})
    assert s.decision.kind != "offensive/breakthrough"


# -- 32 / 33 supply ----------------------------------------------------------------------------------
def test_eto_32_3_supply_line_blocked_by_enemy_zoc(tmp_path):
    """32.3: the line must be "free of enemy units and enemy ZOC" and through friendly hexes."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("GE-deep", "GE", "infantry", "09140")])
    st = supply.status(s, "axis")
    assert st["GE-a"] and not st["GE-deep"]


def test_eto_33_3_marked_then_depleted(tmp_path):
    """33.3/33.5: unable to trace in the Supply step: marked; still out next Supply step: depleted."""
    s = new_state(tmp_path, [unit("GE-deep", "GE", "infantry", "09140")], first="1941-07", last="1941-09")
    for _ in range(200):
        if any(e["kind"] == "depleted" for e in s.log) or s.is_over:
            break
        s.advance()
    marks = events(s, "out_of_supply")
    assert marks and marks[0]["rule"] == "ETO-33.3"
    dep = events(s, "depleted")
    assert dep and dep[0]["rule"] == "ETO-33.5" and s.unit("GE-deep").reduced


def test_eto_33_6_armor_supplied_at_activation(tmp_path):
    """33.6: "An armor unit that is in supply when it is activated ... remains in supply for the
    duration of that Offensive phase." """
    s = new_state(tmp_path, [unit("GE-pz", "GE", "armor", "08641"), unit("SU-a", "SU", "infantry", "08741")])
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08641"})
    assert s.unit("GE-pz").props.get("supplied_offensive")
    assert supply.in_supply_for_effects(s, s.unit("GE-pz"))


# -- 31 rail -------------------------------------------------------------------------------------------
def test_eto_31_rail_capacity_and_soviet_losses(tmp_path):
    """31.0/31.6: authored capacities; "Kazan 1 point" lost when the Axis captures it."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")])
    assert rail.capacity(s, "GE") == 8
    ctrl = control(s)
    before = rail.capacity(s, "SU")
    ctrl[s.map.index(s.map.hex_of("Kazan"))] = SIDE_CODE["axis"]
    assert rail.capacity(s, "SU") == before - 1


def test_eto_31_6_moscow_points_lost_only_with_all_eight_resource_hexes(tmp_path):
    """31.6: "Moscow 2 points* ... lost only when the Axis controls all eight resource hexes
    connected to Moscow" -- on the map Moscow and the seven joined to it, one of them (08330)
    beyond Moscow's own ring."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640")])
    group = ["08330", "08331", "08332", "08430", "08431", "08432", "08531", "08532"]
    assert [s.map.label(i) for i in rail._resource_group(s, s.map.index("08431"))] == group
    ctrl = control(s)
    before = rail.capacity(s, "SU")
    for h in group[1:]:
        ctrl[s.map.index(h)] = SIDE_CODE["axis"]
    assert rail.capacity(s, "SU") == before, "08330 still Soviet: no loss"
    ctrl[s.map.index("08330")] = SIDE_CODE["axis"]
    assert rail.capacity(s, "SU") == before - 2


def test_eto_31_3_rail_not_from_enemy_zoc(tmp_path):
    """31.3: "A unit cannot use rail movement if it starts the movement phase in enemy ZOC." """
    s = new_state(tmp_path, [*GE2, SU1, unit("GE-far", "GE", "infantry", "06139")])
    step_to(s, "movement/move")
    movers = {u.id for u in rail.RailOrder().movers(s)}
    assert "GE-far" in movers and "GE-a" not in movers


def test_eto_34_2_german_free_rebuilds(tmp_path):
    """34.2: "Germany can rebuild two of its 4-2 infantry units" free from the replenishment box."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "06139"), unit("GE-b", "GE", "infantry", "05146")])
    for uid in ("GE-a", "GE-b"):
        eliminate(s, s.unit(uid), "test")
    assert {s.unit(u).location for u in ("GE-a", "GE-b")} == {REPLENISHMENT}
    step_to(s, "end/replenishment")
    assert s.tracks["GE.free_rebuilds"] == 2
    o = next(o for o in s.legal_orders() if o["kind"] == "rebuild")
    eps = s.tracks["GE.eps"]
    s.apply(o)
    assert s.tracks["GE.eps"] == eps and values.on_map(s.unit(o["unit"]))


def test_eto_22_0_units_act_only_in_the_offensive_that_activated_them(tmp_path):
    """22.0: a unit is activated "only once per turn, for one offensive": after its offensive
    ends it may neither attack nor move in the player's next offensive that month."""
    from workbench.rulesets.eto.combat import eligible_attackers

    units = [*GE2, unit("GE-c", "GE", "infantry", "08639"), SU1]
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    assert {u.id for u in eligible_attackers(s, "axis", "combat")} == {"GE-a", "GE-b"}
    for _ in range(60):  # end every step of this offensive
        d = s.decision
        if d.kind == "offensive" and d.side == "axis" and "begin" in d.kinds:
            break
        s.apply({"kind": "end_step"} if "end_step" in d.kinds else {"kind": "pass"})
    else:
        raise AssertionError(f"no second Axis offensive: {s.decision}")
    assert s.unit("GE-a").props.get("activated") and not s.unit("GE-a").props.get("in_offensive")
    s.apply({"kind": "begin"})
    s.apply({"kind": "activate", "mode": "stack", "hex": "08639"})
    assert {u.id for u in eligible_attackers(s, "axis", "combat")} == {"GE-c"}
    refused = [o for o in s.legal_orders() if o.get("hex") == "08640"]
    assert refused == []  # the first stack cannot be activated again this turn


def test_eto_24_0_a_move_may_name_only_its_destination(tmp_path):
    """ETO-24.0 with the kernel's order format: {"kind": "move", "unit", "to"} takes the route
    the legal list gives for that hex (the same position as the order with that path); a hex the
    unit cannot reach is refused under 24.0 with plain words."""
    from eto_kit import begin_offensive, new_state, step_to, unit

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("SU-a", "SU", "infantry", "08743")])
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/movement")
    listed = next(o for o in s.legal_orders_of("move") if o["unit"] == "GE-a" and len(o["path"]) == 2)
    twin = s.fork()
    s.apply({"kind": "move", "unit": "GE-a", "to": listed["path"][-1]})
    twin.apply(listed)
    assert s.unit("GE-a").location == twin.unit("GE-a").location == listed["path"][-1]
    assert s.log[-1]["text"] == twin.log[-1]["text"]
    again = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("SU-a", "SU", "infantry", "08743")])
    begin_offensive(again)
    again.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(again, "offensive/movement")
    why = again.check({"kind": "move", "unit": "GE-a", "to": "09050"})
    assert why is not None and why.rule == "ETO-24.0" and "cannot get to" in why.why
