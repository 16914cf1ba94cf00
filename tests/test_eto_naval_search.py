"""ETO naval search (8.4, 8.5, 8.7-8.9): groups, the search roll and its modifiers, evasion."""

from __future__ import annotations

import pytest
from eto_kit import new_state, unit

from workbench.rulesets.eto import naval_search, naval_units

UK_SHIPS = [unit(f"UK-DD{i}", "UK", "dd", "North Sea") for i in range(1, 9)] + [
    unit("UK-CL1", "UK", "cl", "North Sea"), unit("UK-CL2", "UK", "cl", "North Sea"),
    unit("UK-KGV", "UK", "bb", "North Sea", name="King George V"),
    unit("UK-CV", "UK", "cv", "North Sea", name="Ark Royal"),
    unit("UK-stp", "UK", "stp", "North Sea", props={"points": 2}),
    unit("UK-DE1", "UK", "de", "North Sea"),
]
GE_SHIPS = [unit("GE-Bismarck", "GE", "bb", "North Atlantic", name="Bismarck"),
            unit("GE-DD1", "GE", "dd", "North Atlantic"),
            unit("GE-SS1", "GE", "ss", "Bay of Biscay"),
            unit("GE-UB1", "GE", "uboat", "North Atlantic"),
            unit("GE-Hipper", "GE", "ca", "04641", name="Admiral Hipper", props={"in_port": True})]


def _state(tmp_path, *faces, weather="F", extra=()):  # noqa: ANN001, ANN202
    tmp_path.mkdir(parents=True, exist_ok=True)
    s = new_state(tmp_path, [*UK_SHIPS, *GE_SHIPS, *extra], *faces, west=True,
                  options={"naval": True, "air": True})
    s.tracks["weather"] = weather   # the month's weather letter (1.1)
    return s


def _u(s, *ids):  # noqa: ANN001, ANN202
    return [s.units_by_id[i] for i in ids]


def test_eto_8_4_modified_seven_finds_natural_six_always_one_never(tmp_path):
    """8.4: "If the die roll, after modification, is 7 or more, that group has located the enemy
    stack"; "A search die roll of 6 always finds ... a die roll of 1 always fails"."""
    tables = _state(tmp_path).ruleset.tables
    assert naval_search.found(3, 4, tables) and not naval_search.found(3, 3, tables)
    assert naval_search.found(6, -5, tables)       # natural 6 with INT -3, W -2 ...
    assert not naval_search.found(1, 9, tables)    # natural 1 with every bonus


def test_eto_8_4_search_modifiers_north_atlantic_in_winter(tmp_path):
    """8.4: +1 per searching group (at least once), the sea area's INT modifier (North Atlantic
    INT -2), -2 for W conditions (the North Atlantic is in the severe zone: W in a W month),
    +1 for an SS searcher.  Two groups, SS searching: +2 -2 -2 +1 = -1."""
    s = _state(tmp_path, weather="W")
    mods = naval_search.modifiers(s, "allies", "North Atlantic", groups=2, searcher_ss=True, target_ss=False)
    assert sorted(v for v, _ in mods) == [-2, -2, 1, 2] and sum(v for v, _ in mods) == -1
    fair = naval_search.modifiers(s := _state(tmp_path / "f"), "allies", "North Atlantic", groups=0,
                                  searcher_ss=False, target_ss=True)
    assert sum(v for v, _ in fair) == 1 - 1 - 2   # at least one group; the target is an SS


def test_eto_8_4_coastal_hex_plus_two_and_air_in_range_plus_one(tmp_path):
    """8.4: +2 in a coastal hex (Kiel, 04641); +1 if a friendly air unit is based within range
    of it: a UK fighter (range 3) at Harwich, far across the North Sea, gives none; one based
    next to Kiel does."""
    s = _state(tmp_path / "a", extra=[unit("UK-F", "UK", "fighter", "03246")])
    mods = dict((why, v) for v, why in naval_search.modifiers(s, "allies", "04641", groups=1,
                                                             searcher_ss=False, target_ss=False))
    assert mods["coastal hex"] == 2 and "friendly air based within range" not in mods
    near = _state(tmp_path / "b", extra=[unit("UK-F", "UK", "fighter", "04542")])  # next to Kiel
    assert s.map.distance("04542", "04641") <= 3
    mods = dict((why, v) for v, why in naval_search.modifiers(near, "allies", "04641", groups=1,
                                                             searcher_ss=False, target_ss=False))
    assert mods["friendly air based within range"] == 1


def test_eto_8_4_any_hex_of_the_sea_area_in_range_gives_the_air_bonus(tmp_path):
    """8.4: "simply having at least one hex of an area in range of friendly air units ... grants
    this modifier": a German fighter (range 4) at Brest reaches the Bay of Biscay."""
    s = _state(tmp_path, extra=[unit("GE-F", "GE", "fighter", "02153")])
    assert naval_search.air_in_range(s, "axis", "Bay of Biscay")
    assert not naval_search.air_in_range(s, "axis", "Barents Sea")


def test_eto_8_4_fourteen_ships_split_two_threes_and_two_fours(tmp_path):
    """8.4: "A stack of 14 naval units, for example, could intercept as four groups (two groups
    of three and two groups of four) ... or as a single stack of 14 units." (The UK stack: 8 DD,
    2 CL, BB, CV, an STP marker and a DE = 14.)"""
    s = _state(tmp_path)
    stack = naval_units.naval_units(s, "allies", "North Sea")
    assert naval_units.unit_count(s, stack) == 14
    ids = [u.id for u in stack]
    groups = [[*_u(s, "UK-DD1", "UK-DD2", "UK-DD3")], [*_u(s, "UK-DD4", "UK-DD5", "UK-CV")],
              [*_u(s, "UK-DD6", "UK-DD7", "UK-CL1", "UK-stp")], [*_u(s, "UK-DD8", "UK-CL2", "UK-KGV", "UK-DE1")]]
    assert naval_search.groups_why_not(s, stack, groups) is None
    assert naval_search.groups_why_not(s, stack, [stack]) is None
    assert len(ids) == 14


def test_eto_8_4_groups_of_three_or_more_and_six_to_split(tmp_path):
    """8.4: a group of two out of a 14-ship stack is refused; five ships may not split at all."""
    s = _state(tmp_path)
    stack = naval_units.naval_units(s, "allies", "North Sea")
    rest = [u for u in stack if u.id not in ("UK-DD1", "UK-DD2")]
    r = naval_search.groups_why_not(s, stack, [_u(s, "UK-DD1", "UK-DD2"), rest])
    assert r and r.rule == "ETO-8.4" and "at least 3 ships" in r.why
    five = _u(s, "UK-DD1", "UK-DD2", "UK-DD3", "UK-DD4", "UK-DD5")
    r = naval_search.groups_why_not(s, five, [five[:3], five[3:]])
    assert r and "6 or more" in r.why


def test_eto_8_5_carriers_and_stps_never_search_alone(tmp_path):
    """8.5: "Aircraft carrier (CV) units and STP markers cannot search by themselves" -- a group
    needs a unit with a gunnery rating, even 0 (the DE's 0 is enough)."""
    s = _state(tmp_path)
    stack = naval_units.naval_units(s, "allies", "North Sea")
    cv_group = _u(s, "UK-CV", "UK-stp", "UK-KGV")
    others = [u for u in stack if u not in cv_group]
    assert naval_search.groups_why_not(s, stack, [cv_group, others]) is None
    cv_only = _u(s, "UK-CV", "UK-stp")
    small = cv_only + _u(s, "UK-DE1")
    assert naval_search.groups_why_not(s, small, [small]) is None     # DE gunnery 0 suffices
    r = naval_search.groups_why_not(s, cv_only, [cv_only])
    assert r and r.rule == "ETO-8.5"


def test_eto_8_4_groups_search_fastest_first_speed_of_the_slowest(tmp_path):
    """8.4: "The slowest unit in a group determines the group's speed"; groups search fastest
    first.  DDs (14) beat the group slowed by the BB (10)."""
    s = _state(tmp_path)
    slow, fast = _u(s, "UK-KGV", "UK-DD1", "UK-DD2"), _u(s, "UK-DD3", "UK-DD4", "UK-DD5")
    assert naval_search.group_speed(s, slow) == 10 and naval_search.group_speed(s, fast) == 14
    assert naval_search.in_search_order(s, [slow, fast]) == [fast, slow]


def test_eto_8_5_once_per_step_per_stack_and_no_more_after_a_find(tmp_path):
    """8.5: a group searches a given enemy stack once per step; a unit that found a stack
    searches no more this step.  Dice: 2 (+1 -2 = 1, miss), then 6 (natural 6 finds)."""
    s = _state(tmp_path, 2, 6)
    grp, target = _u(s, "UK-DD1", "UK-DD2", "UK-DD3"), _u(s, "GE-Bismarck", "GE-DD1")
    assert naval_search.search(s, "allies", grp, target, "North Atlantic") is False
    r = naval_search.may_search_why_not(s, grp, target)
    assert r and "already searched" in r.why
    other = _u(s, "UK-DD4", "UK-DD5", "UK-DD6")
    assert naval_search.search(s, "allies", other, target, "North Atlantic") is True
    assert "already found" in naval_search.may_search_why_not(s, other, _u(s, "GE-SS1")).why
    rolls = [e for e in s.log if e["kind"] == "roll"]
    assert [r["rule"] for r in rolls] == ["ETO-8.4", "ETO-8.4"] and "North Atlantic INT -2" in rolls[0]["purpose"]
    naval_search.clear_step(s)
    assert naval_search.may_search_why_not(s, grp, target) is None


def test_eto_8_7_evade_only_a_slower_group_once_never_automatic(tmp_path):
    """8.7: the stack may evade a group whose slowest unit is slower than the stack's slowest;
    never an automatic interception; after one evasion, no other group of that stack."""
    s = _state(tmp_path)
    bb_group, dds = _u(s, "UK-KGV", "UK-DD1", "UK-DD2"), _u(s, "UK-DD3", "UK-DD4", "UK-DD5")
    raider = _u(s, "GE-DD1")                                 # speed 14
    assert naval_search.may_evade_why_not(s, bb_group, raider, automatic=False, evaded_already=False) is None
    assert naval_search.may_evade_why_not(s, dds, raider, automatic=False, evaded_already=False).rule == "ETO-8.7"
    assert "automatically" in naval_search.may_evade_why_not(s, bb_group, raider, automatic=True,
                                                             evaded_already=False).why
    assert "already evaded" in naval_search.may_evade_why_not(s, bb_group, raider, automatic=False,
                                                              evaded_already=True).why


def test_eto_8_5_8_9_stacks_that_cannot_be_intercepted(tmp_path):
    """8.9: U-boats are never intercepted; 8.5: a stack with a CA in a friendly port (Hipper in
    Kiel) cannot be; nor ships entering a port from its coastal hex or using a canal."""
    s = _state(tmp_path)
    assert naval_search.target_why_not(s, _u(s, "GE-UB1"), "North Atlantic").rule == "ETO-8.9"
    assert "BB or CA" in naval_search.target_why_not(s, _u(s, "GE-Hipper"), "04641").why
    assert naval_search.target_why_not(s, _u(s, "GE-DD1"), "North Atlantic") is None
    assert "entering a port" in naval_search.target_why_not(s, _u(s, "GE-DD1"), "04641", entering_port=True).why
    assert "canal" in naval_search.target_why_not(s, _u(s, "GE-DD1"), "04641", canal=True).why


@pytest.mark.parametrize("situation", sorted(naval_search.AUTOMATIC))
def test_eto_8_6_automatic_interception_situations_are_named(situation):
    """8.6: the four situations that intercept with no roll each have their reason."""
    assert naval_search.automatic(situation)
