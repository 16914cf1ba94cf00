"""ETO optional rules and alternative endings: 40.5 (Dismantling the Maginot Line), 46.0/46.1
(Italian restrictions), 47.3/47.4 (Activation of Spain and Turkey), 47.5 (Cold War Clash) and
47.6 (Extended Game)."""

from __future__ import annotations

from pathlib import Path

import pytest
from eto_kit import FixedDice, events, scenario_text, unit

from workbench.engine import load_scenario
from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import neutral_activation, politics

WAR_1940 = '''
[politics]
members = { GE = "axis", IT = "axis", UK = "western", FR = "western", PL = "western" }
fronts = [["axis", "western"]]
'''
AXIS_SOVIET = WAR_1940.replace('PL = "western"', 'PL = "western", SU = "soviet"').replace(
    '[["axis", "western"]]', '[["axis", "western"], ["axis", "soviet"]]')
#: French hexes on the Spanish border (the west scenario gives France to the Axis).
SPAIN_BORDER = ("02464", "02565")


def game(tmp_path: Path, *, politics_text: str = WAR_1940, first: str = "1940-09", last: str = "1940-10",
         units: list | None = None, optional: tuple[str, ...] = ("ETO-47",), tracks: dict | None = None,
         allies: tuple[str, ...] = ("UK", "FR", "SU", "US"), options: dict | None = None, name: str = "t"):  # noqa: ANN201
    opts = {"politics": True, "optional_rules": list(optional), **(options or {})}
    text = scenario_text(units or [unit("GE-1", "GE", "infantry", "03946")], first=first, last=last, west=True,
                         options=opts, extra=politics_text,
                         tracks={"GE.income_base": 90, "UK.income_base": 70, "GE.eps": 20, **(tracks or {})},
                         axis=("GE", "IT"), allies=allies)
    path = tmp_path / f"eto-options-{name}.toml"
    path.write_text(text)
    return load_scenario(path)


def advance(state, until, limit: int = 3000):  # noqa: ANN001, ANN201
    """End steps and pass until ``until(state)`` holds."""
    for _ in range(limit):
        if until(state):
            return state
        d = state.decision
        state.apply({"kind": "end_step"} if "end_step" in d.kinds else {"kind": "pass"} if "pass" in d.kinds
                    else {"kind": "choose_first", "side": d.side})
    raise AssertionError("never got there")


def at_activation(state, side: str = "axis", turn: str | None = None):  # noqa: ANN001, ANN201
    """The seasonal Activation step (of ``turn``), ``side`` deciding."""
    advance(state, lambda s: s.step is not None and s.step.key == "partner-activation"
            and (turn is None or s.turn_label == turn) and s.decision.side == side)
    return state


def close_activation(state):  # noqa: ANN001, ANN201
    """End the Activation step (both sides): the attempts announced in it are rolled."""
    advance(state, lambda s: s.step is None or s.step.key != "partner-activation")
    return state


# == 47.3, 47.4: Spain and Turkey ===============================================================
def test_eto_47_3_spain_axis_on_2_plus_bought_and_border_modifiers(tmp_path: Path) -> None:
    """47.3: "Roll two dice ... On a modified result of 2, Spain becomes an Axis minor partner";
    "+/-1 for every two land units that have been adjacent to Spain for the entire preceding
    season" (declared a season ahead); "The first +/-1 costs 4 EPs. The second costs 6 more"."""
    units = [unit(f"GE-{k}", "GE", "infantry", SPAIN_BORDER[k % 2]) for k in range(4)]
    s = game(tmp_path, units=units, last="1941-01").new_state(seed=1)
    at_activation(s, turn="1940-autumn")
    order = {"kind": "declare_adjacent", "nation": "SP", "units": ["GE-0", "GE-1", "GE-2", "GE-3"]}
    assert order in s.legal_orders()
    s.apply(order)
    at_activation(s, turn="1941-winter")
    assert neutral_activation.unit_modifier(s, "SP", "axis") == (2, 4)  # four units: -2
    s.tracks["GE.eps"] = 20
    s.apply({"kind": "buy_activation_modifier", "nation": "SP", "payer": "GE"})
    s.apply({"kind": "buy_activation_modifier", "nation": "SP", "payer": "GE"})
    assert s.tracks["GE.eps"] == 20 - 4 - 6
    assert neutral_activation.thresholds(s, "SP")[:2] == (2 + 2 + 2, 13)
    s.dice = FixedDice(3, 3)  # 6: within the Axis's 6 or less
    s.apply({"kind": "attempt_activation", "nation": "SP", "payer": "GE"})
    assert s.tracks["GE.eps"] == 20 - 10 - 4
    close_activation(s)
    assert politics.partnership(s, "SP") == "axis"
    assert "Axis minor partner" in events(s, "activated")[-1]["text"]
    assert [r["dice"] for r in events(s, "roll") if r["rule"] == "ETO-47.3"] == [[3, 3]]


def test_eto_47_3_a_seven_never_activates_and_one_roll_a_season(tmp_path: Path) -> None:
    s = game(tmp_path, first="1940-09", last="1940-10").new_state(seed=1)
    at_activation(s, turn="1940-autumn")
    for _ in range(5):  # -5: the Axis would take Spain on 7 or less
        s.apply({"kind": "buy_activation_modifier", "nation": "SP", "payer": "GE"})
    assert s.tracks["GE.eps"] == 20 - (4 + 6 + 8 + 10 + 12)  # below 0: taken from next income (47.3)
    assert neutral_activation.thresholds(s, "SP")[0] == 7
    s.dice = FixedDice(4, 3)
    s.apply({"kind": "attempt_activation", "nation": "SP", "payer": "GE"})
    with pytest.raises(IllegalOrder, match="ETO-47.3: Spain has already been tried for this seasonal turn"):
        s.apply({"kind": "attempt_activation", "nation": "SP", "payer": "GE"})
    close_activation(s)
    assert politics.neutral(s, "SP")
    assert "a roll of 7 has no effect" in events(s, "activation_failed")[-1]["text"]


def test_eto_47_3_deficit_spending_only_as_far_as_next_income(tmp_path: Path) -> None:
    """47.3: "These EPs can be deducted from income the player is due during the next step": the
    track may go below 0 by the base income (90 for Germany), no further (ruling)."""
    s = game(tmp_path).new_state(seed=1)
    at_activation(s, turn="1940-autumn")
    s.tracks["GE.eps"] = -82
    s.apply({"kind": "buy_activation_modifier", "nation": "SP", "payer": "GE"})  # -86: 90 covers it
    assert s.tracks["GE.eps"] == -86
    with pytest.raises(IllegalOrder, match="ETO-47.3: modifier 2 costs 6 EPs, more than GE has with next income"):
        s.apply({"kind": "buy_activation_modifier", "nation": "SP", "payer": "GE"})


def test_eto_47_3_a_roll_good_for_both_is_rolled_again_and_allies_take_spain(tmp_path: Path) -> None:
    """47.3: thresholds may overlap ("Axis partner on a roll of 9 or less, and as an Allies partner
    on a roll of 8 or more"); "If the activation roll ... could activate Spain for both
    partnerships, ignore that result and roll again"; 13 - modifiers for the Western Allies."""
    s = game(tmp_path, tracks={"GE.eps": 200, "UK.eps": 200}).new_state(seed=1)
    at_activation(s, turn="1940-autumn")
    for _ in range(7):
        s.apply({"kind": "buy_activation_modifier", "nation": "SP", "payer": "GE"})
    s.apply({"kind": "attempt_activation", "nation": "SP", "payer": "GE"})  # announced; rolled as the step ends
    assert not [r for r in events(s, "roll") if r["rule"] == "ETO-47.3"]
    s.apply({"kind": "end_step"})
    assert s.decision.side == "allies"
    for _ in range(5):  # the Allies answer before the dice
        s.apply({"kind": "buy_activation_modifier", "nation": "SP", "payer": "UK"})
    assert neutral_activation.thresholds(s, "SP")[:2] == (9, 8)  # the text's example
    s.dice = FixedDice(4, 4, 6, 5)  # 8 is good for both: again; 11 is the Allies'
    close_activation(s)
    assert politics.partnership(s, "SP") == "western"
    assert len(events(s, "activation_reroll")) == 1


def test_eto_47_3_a_declared_unit_that_leaves_the_border_no_longer_counts(tmp_path: Path) -> None:
    units = [unit(f"GE-{k}", "GE", "infantry", SPAIN_BORDER[k % 2]) for k in range(2)]
    s = game(tmp_path, units=units).new_state(seed=1)
    at_activation(s, turn="1940-autumn")
    with pytest.raises(IllegalOrder, match="ETO-47.3: GE-9 is not a axis land unit adjacent to Spain"):
        s.apply({"kind": "declare_adjacent", "nation": "SP", "units": ["GE-0", "GE-9"]})
    s.apply({"kind": "declare_adjacent", "nation": "SP", "units": ["GE-0", "GE-1"]})
    s.unit("GE-1").location = "03946"
    neutral_activation.month_end(s)
    rec = politics.war_state(s)["neutral_activation"]["SP"]["declared"]["axis"]
    assert rec == {"1940-autumn": ["GE-0"]}
    assert "GE-1 left the border of Spain" in events(s, "declaration_broken")[0]["text"]


def test_eto_47_4_turkey_allied_on_12_and_39_3_decides_which_partnership(tmp_path: Path) -> None:
    """47.4: "a 2 creates an Axis partner, a 12 an Allied partner. Roll per 39.3 to see which
    Allied partnership Turkey joins"; "three land units (not two) are needed to gain a modifier";
    "Allied EPs can be paid by the Western Allies, the USSR, or both"."""
    s = game(tmp_path, politics_text=AXIS_SOVIET).new_state(seed=1)
    assert int(politics.table(s)["neutral_activation"]["TU"]["units_per_modifier"]) == 3
    at_activation(s, side="allies", turn="1940-autumn")
    s.tracks.update({"SU.eps": 30, "UK.eps": 30})
    s.apply({"kind": "buy_activation_modifier", "nation": "TU", "payer": "SU"})
    s.apply({"kind": "buy_activation_modifier", "nation": "TU", "payer": "UK"})
    assert s.tracks["SU.eps"] == 30 - 4 and s.tracks["UK.eps"] == 30 - 6  # one Allied count: 4, then 6
    assert neutral_activation.thresholds(s, "TU")[:2] == (2, 10)
    s.dice = FixedDice(5, 5, 5)  # 10: Allied; 39.3's die 5: the Soviet Union
    s.apply({"kind": "attempt_activation", "nation": "TU", "payer": "UK"})
    close_activation(s)
    assert politics.partnership(s, "TU") == "soviet"
    rolls = [r for r in events(s, "roll")]
    assert [r["dice"] for r in rolls if r["rule"] == "ETO-47.4"] == [[5, 5]]
    assert [r["dice"] for r in rolls if r["rule"] == "ETO-39.3"] == [[5]]


def test_eto_47_3_only_with_the_rule_and_only_in_the_activation_step(tmp_path: Path) -> None:
    s = game(tmp_path, optional=()).new_state(seed=1)
    at_activation(s, turn="1940-autumn")
    assert not any(o["kind"] == "attempt_activation" for o in s.legal_orders())
    s2 = game(tmp_path, optional=("ETO-47.4",), name="tu").new_state(seed=1)
    at_activation(s2, turn="1940-autumn")
    kinds = {(o["kind"], o.get("nation")) for o in s2.legal_orders()}
    assert ("attempt_activation", "TU") in kinds and ("attempt_activation", "SP") not in kinds
    with pytest.raises(IllegalOrder, match="ETO-47.3: the activation of Spain is an optional rule"):
        s2.apply({"kind": "attempt_activation", "nation": "SP", "payer": "GE"})


# == 46.0, 46.1: Italian restrictions ===========================================================
#: France's colonial garrison: one land unit in Tunisia (Tunis), another in Algeria (Algiers).
GARRISON = [unit("FR-T", "FR", "infantry", "04680"), unit("FR-A", "FR", "infantry", "03180")]


def france_hexes(state, n: int) -> list[str]:  # noqa: ANN001
    """``n`` Axis-held land hexes of France (the west scenario's France is German-held)."""
    import numpy as np

    from workbench.rulesets.eto.control import AXIS, control
    from workbench.rulesets.eto.terrain import terrain_arrays

    ta = terrain_arrays(state)
    idx = np.flatnonzero((ta.country == "France") & ta.land & (control(state) == AXIS))
    return [state.map.label(int(i)) for i in idx[:n]]


def test_eto_46_1_italy_buys_but_cannot_use_an_offensive_until_eight_germans_in_france(tmp_path: Path) -> None:
    """46.1: "Italy can purchase offensives, but cannot use an offensive ... until ... There are
    eight supplied German land units in France"; 46.0 switches the whole set on."""
    from eto_kit import begin_offensive

    from workbench.rulesets.eto import italian_restrictions as ir

    units = [unit("IT-HQ", "IT", "hq", "05069"), *GARRISON,
             *[unit(f"GE-{k}", "GE", "infantry", "03946") for k in range(8)]]
    s = game(tmp_path, units=units, optional=("ETO-46.0",), tracks={"IT.offensives": 1}).new_state(seed=1)
    assert s.game.optional_rule("ETO-46.1") and ir.restricted(s)
    begin_offensive(s)
    assert {"kind": "activate_hq", "hqs": ["IT-HQ"]} not in s.legal_orders()
    with pytest.raises(IllegalOrder, match="ETO-46.1: Italy may buy offensives but not use one"):
        s.apply({"kind": "activate_hq", "hqs": ["IT-HQ"]})
    for k, h in enumerate(france_hexes(s, 8)):
        s.unit(f"GE-{k}").location = h
    assert ir.lift_reason(s) == "8 supplied German land units are in France"
    s.apply({"kind": "activate_hq", "hqs": ["IT-HQ"]})
    assert s.tracks["IT.offensives"] == 0


def test_eto_46_1_no_impromptu_italian_offensive_either(tmp_path: Path) -> None:
    """46.1: an offensive paid in EPs (22.6) is an offensive used."""
    from eto_kit import begin_offensive

    units = [unit("IT-HQ", "IT", "hq", "05069"), *GARRISON]
    s = game(tmp_path, units=units, optional=("ETO-46.1",), tracks={"IT.eps": 40}).new_state(seed=1)
    begin_offensive(s)
    order = {"kind": "impromptu", "mode": "hq", "hq": "IT-HQ"}
    assert order not in s.legal_orders()
    with pytest.raises(IllegalOrder, match="ETO-46.1: Italy may buy offensives but not use one"):
        s.apply(order)
    del s.units_by_id["FR-T"]  # Tunisia ungarrisoned: the restriction ends
    s.apply(order)
    assert s.tracks["IT.eps"] < 40


def test_eto_46_1_seven_germans_are_not_enough_and_the_end_is_for_good(tmp_path: Path) -> None:
    from workbench.rulesets.eto import italian_restrictions as ir

    units = [*GARRISON, *[unit(f"GE-{k}", "GE", "infantry", "03946") for k in range(8)]]
    s = game(tmp_path, units=units, optional=("ETO-46.1",)).new_state(seed=1)
    hexes = france_hexes(s, 8)
    for k in range(7):
        s.unit(f"GE-{k}").location = hexes[k]
    assert ir.restricted(s)  # seven
    s.unit("GE-7").location = hexes[7]
    ir.latch(s)  # the end of a monthly turn
    assert "Italy's restrictions end (46.1): 8 supplied German land units" in events(s, "italy_unrestricted")[0]["text"]
    for k in range(8):
        s.unit(f"GE-{k}").location = "03946"
    assert not ir.restricted(s)  # once a condition held, Italy is free for the rest of the game


def test_eto_46_1_no_italian_invasion_until_france_leaves_algeria_ungarrisoned(tmp_path: Path) -> None:
    """46.1: no invasion "until ... France neglects to garrison its colonies with at least one land
    unit in Tunisia and another in Algeria"."""
    from eto_kit import begin_offensive

    from workbench.rulesets.eto import invasion

    s = game(tmp_path, units=[unit("GE-1", "GE", "infantry", "03946"), *GARRISON],
             optional=("ETO-46.1",)).new_state(seed=1)
    begin_offensive(s)
    with pytest.raises(IllegalOrder, match="ETO-46.1: Italy may not invade a country"):
        s.apply({"kind": "declare_war", "nation": "IT", "target": "GR"})
    assert invasion.declare_why_not(s, "axis", "GE", "GR") is None  # Germany is not bound
    del s.units_by_id["FR-A"]
    assert invasion.declare_why_not(s, "axis", "IT", "GR") is None
    s.apply({"kind": "declare_war", "nation": "IT", "target": "GR"})
    assert politics.at_war(s, "IT", "GR")


def test_eto_46_1_no_italian_naval_or_air_attacks_until_the_battleships_are_even(tmp_path: Path) -> None:
    """46.1: no attack "with naval or air units" until "The combined total of British and French
    battleships in the Mediterranean Sea (including Gibraltar) is equal to or less than the number
    of Italian BBs"; interception of aircraft and changes of base are no attacks (ruling)."""
    from workbench.rulesets.eto import air_missions, amphibious, naval_interception
    from workbench.rulesets.eto import italian_restrictions as ir

    units = [unit("GE-1", "GE", "infantry", "03946"), *GARRISON,
             unit("IT-BB", "IT", "bb", "Tyrrhenian Sea"), unit("IT-B", "IT", "bomber", "05069"),
             unit("UK-BB1", "UK", "bb", "Western Mediterranean"), unit("UK-BB2", "UK", "bb", "01379")]
    s = game(tmp_path, units=units, optional=("ETO-46.1",), options={"naval": True, "air": True}).new_state(seed=1)
    it_bb, it_b = s.unit("IT-BB"), s.unit("IT-B")
    assert ir.restricted(s)  # two British battleships (one at Gibraltar) to one Italian
    why = naval_interception.interceptor_why_not(s, it_bb, "Western Mediterranean", "axis")
    assert why.rule == "ETO-46.1" and "a naval attack" in why.why
    assert ir.air_mission_why_not(s, it_b, "bomb").rule == "ETO-46.1"
    assert ir.air_mission_why_not(s, it_b, "change_base") is None
    assert air_missions.unit_why_not(s, "axis", it_b, "ground_support") is not None
    it_bb.location = "05471"  # Naples: no shore bombardment in an attack either
    assert it_bb not in amphibious.bombarding_ships(s, "axis", "05471", attacking=True)
    assert it_bb in amphibious.bombarding_ships(s, "axis", "05471", attacking=False)  # defending is allowed
    it_bb.location = "Tyrrhenian Sea"
    s.unit("UK-BB2").location = "Bay of Biscay"  # one to one
    assert ir.lift_reason(s) == "British and French battleships in the Mediterranean (1) are no more than Italy's (1)"
    assert ir.attack_why_not(s, it_bb, "a naval attack") is None


def test_eto_46_1_italian_ships_stay_in_the_mediterranean_while_western_ships_are_in_it(tmp_path: Path) -> None:
    """46.1: "Italian naval units cannot leave the Mediterranean Sea via Gibraltar or the Suez Canal
    until there are no Western Allies naval units in the Mediterranean"."""
    from workbench.rulesets.eto import italian_restrictions as ir
    from workbench.rulesets.eto import naval_movement

    units = [unit("GE-1", "GE", "infantry", "03946"), unit("IT-BB", "IT", "bb", "Western Mediterranean"),
             unit("UK-DD", "UK", "dd", "Eastern Mediterranean")]
    s = game(tmp_path, units=units, optional=("ETO-46.1",), options={"naval": True}).new_state(seed=1)
    it_bb = s.unit("IT-BB")
    gib = s.map.hex_of("Gibraltar")
    why = ir.sail_why_not(s, [it_bb], [gib, "Bay of Biscay"])
    assert why.rule == "ETO-46.1" and "may not leave the Mediterranean (Bay of Biscay)" in why.why
    assert ir.sail_why_not(s, [it_bb], [gib]) is None  # Gibraltar is in the Mediterranean
    assert ir.sail_why_not(s, [it_bb], ["Red Sea"]) is not None  # nor by Suez
    atlantic = "01278"  # the South Atlantic hex west of Gibraltar
    why = naval_movement.sail_why_not(s, "axis", [it_bb], [gib, atlantic], False)  # the sail order's check
    assert why.rule == "ETO-46.1" and "(UK-DD at Eastern Mediterranean)" in why.why
    s.unit("UK-DD").location = "North Atlantic"
    assert ir.sail_why_not(s, [it_bb], [gib, "Bay of Biscay"]) is None
    assert naval_movement.sail_why_not(s, "axis", [it_bb], [gib, atlantic], False) is None


# == 40.5: Dismantling the Maginot Line ========================================================
def at_construction(state, turn: str):  # noqa: ANN001, ANN201
    advance(state, lambda s: s.step is not None and s.step.key == "construction/build" and s.turn_label == turn
            and s.decision.side == "axis")
    return state


def test_eto_40_5_six_coastal_forts_one_a_season_free_completed_next_season(tmp_path: Path) -> None:
    """40.5: "When France is conquered ... the German player can claim a total of six coastal
    fortification markers"; "Beginning the seasonal turn after the conquest, the German player
    places a coastal fortification marker in any coastal hex from Hamburg to Bordeaux"; "placed
    under construction, and are completed in the following seasonal turn. They cost no EPs."."""
    from workbench.rulesets.eto import maginot

    s = game(tmp_path, optional=(), last="1941-01").new_state(seed=1)
    politics.writable(s)["conquered"] = {"FR": "GE"}  # France falls in September 1940
    at_construction(s, "1940-autumn")
    hm = s.map
    cherbourg, toulon, hamburg = hm.hex_of("Cherbourg"), hm.hex_of("Toulon"), hm.hex_of("Hamburg")
    legal = [o["hex"] for o in s.legal_orders() if o["kind"] == "place_maginot_fort"]
    assert cherbourg in legal and hamburg in legal and toulon not in legal
    with pytest.raises(IllegalOrder, match="ETO-40.5: .* is not a coastal hex from Hamburg to Bordeaux"):
        s.apply({"kind": "place_maginot_fort", "hex": toulon})
    eps = s.tracks["GE.eps"]
    s.apply({"kind": "place_maginot_fort", "hex": cherbourg})
    assert s.tracks["GE.eps"] == eps  # no EP cost
    assert s.markers["forts"][cherbourg]["building"] is True
    with pytest.raises(IllegalOrder, match="ETO-40.5: one coastal fortification a season"):
        s.apply({"kind": "place_maginot_fort", "hex": hamburg})
    at_construction(s, "1941-winter")
    assert "building" not in s.markers["forts"][cherbourg]  # completed in the following seasonal turn
    assert maginot.season_open(s) and not maginot.record(s).get("dismantled")


def test_eto_40_5_after_the_sixth_marker_the_maginot_line_is_gone(tmp_path: Path) -> None:
    """40.5: "When all have been placed, the Maginot Line fortifications along the Franco-German
    border are ignored for the rest of the game" (the German side's forts stay)."""
    import numpy as np

    from workbench.rulesets.eto import maginot
    from workbench.rulesets.eto.terrain import terrain_arrays

    s = game(tmp_path, optional=(), last="1941-01").new_state(seed=1)
    ta = terrain_arrays(s)
    french = (ta.country == "France") & ta.fort_hex
    german = int(((ta.country == "Germany") & ta.fort_hex).sum())
    assert int(french.sum()) == 6 and german > 0
    s.markers["maginot"] = {"from": "1939-autumn", "placed": {},
                            "seasons": ["1939-autumn", "1939-winter", "1940-winter", "1940-spring", "1940-summer"]}
    at_construction(s, "1940-autumn")
    s.apply({"kind": "place_maginot_fort", "hex": s.map.hex_of("Brest")})
    assert maginot.record(s)["dismantled"] == "1940-autumn"
    after = terrain_arrays(s)
    assert not (after.fort_hex & french).any() and not after.fortress_side[np.flatnonzero(french)].any()
    assert int(((after.country == "Germany") & after.fort_hex).sum()) == german
    assert "no longer exist" in events(s, "maginot")[-1]["text"]


def test_eto_40_5_a_season_without_a_marker_loses_it(tmp_path: Path) -> None:
    """40.5 "whether Vichy is created or not": Vichy's creation opens the six seasons too."""
    from workbench.rulesets.eto import maginot

    s = game(tmp_path, optional=(), last="1941-01").new_state(seed=1)
    assert not maginot.france_fallen(s)
    politics.writable(s)["vichy"] = True  # created in September 1940
    at_construction(s, "1941-winter")
    assert maginot.record(s)["seasons"] == ["1940-autumn"]  # autumn's marker lapsed unplaced
    assert "marker 1 of 6 lapses" in events(s, "maginot")[-1]["text"]


# == 47.5, 47.6: the alternative endings ========================================================
def test_eto_47_6_extended_game_plays_on_after_june_1945_until_a_conquest(tmp_path: Path) -> None:
    """47.6: "Instead of ending the game with the June 1945 turn, play can continue until either
    Germany, the UK, or the USSR is conquered"; "The winner is the player or partnership that
    controls the most city resource hexes of Germany. If the totals are tied, the game is a draw"."""
    import numpy as np

    from workbench.rulesets.eto import alternative_endings as ae
    from workbench.rulesets.eto.control import ALLIES, control, home_mask
    from workbench.rulesets.eto.terrain import terrain_arrays

    plain = game(tmp_path, optional=(), first="1945-05", last="1945-06", name="plain")
    assert plain.calendar[-1] == "1945-06"
    g = game(tmp_path, optional=("ETO-47.6",), first="1945-05", last="1945-06")
    assert g.calendar[-1] == "1947-12" and "1946-winter" in g.calendar
    s = g.new_state(seed=1)
    advance(s, lambda st: st.turn_label == "1945-07")
    assert not s.is_over  # June 1945 passed
    ge = np.flatnonzero(home_mask(s, "GE", original=True) & terrain_arrays(s).city_resource)
    assert ae.german_count(s) == {"axis": len(ge), "allies": 0}
    politics.writable(s)["conquered"] = {"UK": "GE"}
    result = ae.sudden_end(s)
    assert result["winner"] == "axis" and result["why"] == "United Kingdom is conquered"
    control(s)[ge[: len(ge) // 2]] = ALLIES
    if len(ge) % 2 == 0:
        assert ae.sudden_end(s)["level"] == "draw"  # tied
    control(s)[ge] = ALLIES
    assert ae.sudden_end(s)["winner"] == "allies"
    advance(s, lambda st: st.is_over)
    assert s.result["rule"] == "ETO-47.6" and events(s, "game_over")[-1]["turn"] == "1945-07"


def test_eto_47_6_incomes_and_force_pools_frozen_at_1945(tmp_path: Path) -> None:
    """47.6: "National incomes remain at their 1945 levels. No additional units are added to the
    force pools" -- the US year track is read at 1945 and the Soviet winter rise stops."""
    from workbench.rulesets.eto import alternative_endings as ae
    from workbench.rulesets.eto import income

    overrides = {"income.base.US.year_track.1946.eps": 140,  # a 1946 figure that must not be used
                 "force_pools.additions": {"1946": {"GE": {"infantry": 2}}}}  # nor 1946 additions
    game(tmp_path, optional=("ETO-47.6",), first="1945-05", last="1945-06")
    text = tmp_path / "eto-options-t.toml"
    s = load_scenario(text, overrides=overrides).new_state(seed=1)
    advance(s, lambda st: st.turn_label == "1946-winter")
    assert ae.frozen(s, "US") and ae.frozen(s, "SU") and ae.frozen(s, "GE")
    assert income.us_base_income(s) == 100  # 1945's, not the 140 of 1946
    s.tracks["SU.income_base"] = 160
    politics.writable(s)["axis_soviet_war_by"] = "axis"
    assert income.base_income(s, "SU") == 160  # no +20 in the winter 1946 seasonal turn
    advance(s, lambda st: st.turn_label == "1946-01")
    assert not any(uid.startswith("GE-1946") for uid in s.units_by_id)
    assert any("force pools are frozen" in e["text"] for e in events(s, "force_pool"))
    plain = load_scenario(text, overrides=overrides, options={"optional_rules": []})
    assert plain.calendar[-1] == "1945-06"


def test_eto_47_5_cold_war_to_december_1946_and_its_verdict(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """47.5: "The game continues through the end of 1946. United States and Soviet incomes remain
    at their 1945 levels"; "Strategic bombing is the only type of strategic warfare permitted";
    "If one player has twice as many as his opponent, that player is the grand strategic victor.
    If neither ... both players suffer utter defeat"; with 47.6 too, 47.5 governs (ruling)."""
    from workbench.rulesets.eto import alternative_endings as ae
    from workbench.rulesets.eto.control import ALLIES, control
    from workbench.rulesets.eto.terrain import terrain_arrays

    g = game(tmp_path, optional=("ETO-47",), first="1945-05", last="1945-06",
             units=[unit("UK-1", "UK", "infantry", "03253"), unit("GE-1", "GE", "infantry", "03946")])
    assert ae.mode(g) == "cold_war" and g.calendar[-1] == "1946-12"
    s = g.new_state(seed=1)
    advance(s, lambda st: st.turn_label == "1945-07")
    assert ae.frozen(s, "US") is False  # 1945 is still 1945
    assert not ae.strategic_warfare_allowed(s, "uboats") and ae.strategic_warfare_allowed(s, "bombing")
    advance(s, lambda st: st.turn_label == "1946-01")
    assert ae.frozen(s, "US") and ae.frozen(s, "SU") and not ae.frozen(s, "GE")
    texts = {e["text"] for e in events(s, "no_strategic_warfare")}  # the U-boat step of every monthly turn
    assert "no U-boat warfare in the Cold War clash: strategic bombing is the only strategic warfare permitted" in texts
    ta = terrain_arrays(s)
    s.unit("UK-1").location = "03253"  # Paris (the months of play may have swept it away)
    control(s)[ta.city_resource & (ta.country == "France")] = ALLIES  # France's: nearest is UK-1
    n = ae.partnership_counts(s)
    assert n["western"] > 0 and n["soviet"] == 0
    r = ae.cold_war_result(s)
    assert r["level"] == "Western Allies grand strategic victory" and r["rule"] == "ETO-47.5"
    s.unit("UK-1").nation = "SU"
    politics.writable(s)["members"]["SU"] = "soviet"
    n2 = ae.partnership_counts(s)
    assert n2 == {"western": 0, "soviet": n["western"]}
    monkeypatch.setattr(ae, "partnership_counts", lambda _s: {"western": 3, "soviet": 2})
    assert ae.cold_war_result(s)["winner"] is None and "utter defeat" in ae.cold_war_result(s)["level"]
    monkeypatch.setattr(ae, "partnership_counts", lambda _s: {"western": 2, "soviet": 4})  # exactly twice
    assert ae.cold_war_result(s)["level"] == "Soviet Union grand strategic victory"


def test_eto_40_5_the_heuristic_bot_places_the_seasons_fort_on_a_channel_port(tmp_path: Path) -> None:
    from workbench.bots.heuristic import HeuristicPolicy
    from workbench.rulesets.eto.bot import ETOBrain

    s = game(tmp_path, optional=(), last="1940-10").new_state(seed=1)
    politics.writable(s)["conquered"] = {"FR": "GE"}
    at_construction(s, "1940-autumn")
    policy = HeuristicPolicy(ETOBrain("axis"), seed=1)
    policy.raise_errors = True
    for _ in range(60):
        if s.step is None or s.step.key != "construction/build" or s.decision.side != "axis":
            break
        s.apply(policy.choose_in(s, "axis"))
    placed = events(s, "fort_placed")
    assert len(placed) == 1
    h = placed[0]["data"]["hex"]
    assert s.map.hexes["port"].to_list()[s.map.index(h)] in ("minor", "major")
