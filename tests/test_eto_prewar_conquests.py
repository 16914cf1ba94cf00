"""The Soviet pre-war conquests and the Winter War (ETO-43.2, 43.3, 43.5), and who may enter whose
hexes while the USSR is at peace (39.1, 42.5, 43.6).

Autumn 1939 on the europe map: Germany at war with Poland and the Western Allies; the USSR
neutral, its hexes held for it by the Allied player; the Baltic States and Finland neutral.
Hexes: 07032 (USSR) borders Latvia's 07033; 07119 (USSR) borders eastern Finland's 07120;
06924 (eastern Finland) borders 06824 (Finland west of the temporary border).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from eto_kit import scenario_text, step_to, unit

from workbench.engine import load_scenario
from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import combat, holders, income, politics, prewar_conquests, winter_war
from workbench.rulesets.eto.control import ALLIES, control, home_mask, pass_through
from workbench.rulesets.eto.movement import Walker
from workbench.rulesets.eto.terrain import terrain_arrays

AUTUMN_1939 = '''
[politics]
members = { GE = "axis", UK = "western", FR = "western", PL = "western" }
fronts = [["axis", "western"]]
'''


def state(tmp_path: Path, units: list, first: str = "1939-10", allies: tuple[str, ...] = ("UK", "FR", "SU")):  # noqa: ANN201
    text = scenario_text(units, first=first, last="1941-12", west=True, options={"politics": True}, extra=AUTUMN_1939,
                         axis=("GE", "FI"), allies=allies, control={"USSR": "allies", "Poland": "axis"})
    path = tmp_path / "eto-prewar.toml"
    path.write_text(text)
    return load_scenario(path).new_state(seed=1)


def allied_offensive(s):  # noqa: ANN001, ANN201
    """To the command step of an Allied offensive (where invasions and claims are announced, 39.2)."""
    step_to(s, "offensive")
    if s.decision.side != "allies":
        s.apply({"kind": "pass"})
    s.apply({"kind": "begin"})
    assert s.decision.side == "allies" and s.step.key == "offensive/command"
    return s


def idx(s, label):  # noqa: ANN001, ANN201
    return s.map.index(label)


def test_eto_43_6_a_neutral_ussr_holds_its_hexes_against_everyone(tmp_path: Path) -> None:
    """43.6: "any move by one nation's unit into a hex controlled by the other nation is an invasion",
    and an attack on its units too; 42.5: until both fight the Axis the Western Allies and the USSR
    are neutrals to each other.  The Soviet units move freely at home."""
    s = state(tmp_path, [unit("SU-1", "SU", "infantry", "07032"), unit("GE-1", "GE", "infantry", "03946"),
                         unit("UK-1", "UK", "infantry", "02948")])
    assert politics.neutral(s, "SU") and control(s)[idx(s, "07032")] == ALLIES
    for who in ("GE-1", "UK-1"):
        closed = holders.closed(s, s.unit(who))
        assert closed[idx(s, "07032")] and closed[idx(s, "07132")], who
    assert "not at war" in holders.why_closed(s, s.unit("GE-1"), idx(s, "07132"))
    assert not holders.closed(s, s.unit("SU-1"))[idx(s, "07132")]
    assert Walker(s, s.unit("SU-1"), "movement").why_not([idx(s, "07132")]) is None
    why = combat.peace_why_not(s, [s.unit("GE-1")], "07032", "allies")
    assert why is not None and why.rule == "ETO-39.1" and "invasion" in why.why


def test_eto_43_2_baltic_states_are_closed_until_claimed_and_crossed_by_activated_units(tmp_path: Path) -> None:
    """43.2: the USSR claims a Baltic State; "Units must be activated by a Soviet offensive to first
    cross from the USSR into the territory"; an Axis move in is an invasion of the USSR."""
    s = allied_offensive(state(tmp_path, [unit("SU-1", "SU", "infantry", "07032"),
                                          unit("GE-1", "GE", "infantry", "03946")]))
    su = s.unit("SU-1")
    assert Walker(s, su, "movement").why_not([idx(s, "07033")]) is not None   # not claimed yet
    assert holders.closed(s, s.unit("GE-1"))[idx(s, "06534")]                # Riga: the Soviet sphere
    assert "43.2" in holders.why_closed(s, s.unit("GE-1"), idx(s, "06534"))
    assert {"kind": "claim_territory", "zone": "Latvia"} in s.legal_orders()
    assert {"kind": "claim_territory", "zone": "eastern Poland"} not in s.legal_orders()  # Poland not conquered
    assert {"kind": "claim_territory", "zone": "eastern Finland"} not in s.legal_orders()  # no Winter War won
    s.apply({"kind": "claim_territory", "zone": "Latvia"})
    assert politics.at_war(s, "SU", "LV") and politics.neutral(s, "SU") and not politics.at_war(s, "SU", "GE")
    with pytest.raises(IllegalOrder, match="ETO-43.2"):
        s.apply({"kind": "claim_territory", "zone": "Latvia"})
    assert Walker(s, su, "movement").why_not([idx(s, "07033")]) is not None   # first crossing: activated only
    su.props["activated"] = True
    assert Walker(s, su, "movement").why_not([idx(s, "07033")]) is None
    su.location = "07033"
    pass_through(s, su, [idx(s, "07033")])
    assert prewar_conquests.claims(s)["Latvia"]["crossed"]
    su.props.pop("activated")
    s._derived.clear()
    assert Walker(s, su, "movement").why_not([idx(s, "06933")]) is None       # crossed: open to all Soviet units


def test_eto_43_2_43_5_latvia_conquered_when_each_city_and_resource_hex_is_taken(tmp_path: Path) -> None:
    """43.2: "It is conquered when each city and resource hex within its borders has been captured by
    Soviet forces"; 43.5: then Soviet home for replenishment, construction and rail, not income, and
    2 EPs per resource hex to the USSR (2, not 1, to an Axis captor)."""
    s = allied_offensive(state(tmp_path, [unit("SU-1", "SU", "infantry", "07032")]))
    s.apply({"kind": "claim_territory", "zone": "Latvia"})
    su = s.unit("SU-1")
    su.props["activated"] = True
    ta = terrain_arrays(s)
    lat = prewar_conquests.mask(s, "Latvia")
    keys = [s.map.label(int(i)) for i in np.flatnonzero(lat & (ta.city | ta.city_resource | ta.resource))]
    assert sorted(keys) == ["06136", "06534", "06936"]   # Libau, Riga, Daugavpils
    for k in keys[:-1]:
        pass_through(s, su, [idx(s, k)])
    assert not prewar_conquests.claims(s)["Latvia"].get("conquered")
    assert not home_mask(s, "SU")[idx(s, "06534")]
    pass_through(s, su, [idx(s, keys[-1])])
    assert prewar_conquests.claims(s)["Latvia"]["conquered"] == "1939-10"
    assert politics.war_state(s)["conquered"]["LV"] == "SU"
    assert (control(s)[lat] == ALLIES).all()
    assert home_mask(s, "SU")[idx(s, "06534")] and not home_mask(s, "SU", original=True)[idx(s, "06534")]
    assert income.prewar_mask(s)[idx(s, "06534")]
    t = s.ruleset.tables["income"]["resource_hexes"]
    assert t["soviet_prewar_conquest_to_su"] == 2 and t["soviet_prewar_conquest_captured_by_axis"] == 2


def test_eto_43_2_an_axis_invasion_of_a_baltic_state_invades_the_ussr(tmp_path: Path) -> None:
    """43.2: "An Axis move into any of these areas at any time is considered an invasion of the Soviet
    Union, if the Axis and Soviets are not yet at war" -- announced against Lithuania, it opens the
    Axis-Soviet war."""
    s = state(tmp_path, [unit("GE-1", "GE", "infantry", "03946")])
    step_to(s, "offensive")
    if s.decision.side != "axis":
        s.apply({"kind": "pass"})
    s.apply({"kind": "begin"})
    s.apply({"kind": "declare_war", "nation": "GE", "target": "LT"})
    assert politics.at_war(s, "GE", "SU") and politics.partnership(s, "SU") == "soviet"


def test_eto_43_2_eastern_poland_passes_to_the_soviet_sphere_when_poland_falls(tmp_path: Path) -> None:
    """43.2: eastern Poland may be claimed "only after Poland is conquered"; its hexes the Axis does
    not occupy become the Soviet sphere at the conquest (ruling P23)."""
    from workbench.rulesets.eto import conquest

    s = allied_offensive(state(tmp_path, [unit("SU-1", "SU", "infantry", "07140"),
                                          unit("GE-9", "GE", "infantry", "06849")]))
    why = prewar_conquests.claim_why_not(s, "allies", "eastern Poland")
    assert why is not None and "after Poland is conquered" in why.why
    conquest.conquer(s, "PL", "GE")
    assert control(s)[idx(s, "06849")] != 0                                   # Lwow, German-occupied, stays Axis
    assert control(s)[idx(s, "06745")] == 0 and holders.holder_at(s, idx(s, "06745")) == "SU"   # Brest-Litovsk
    assert holders.closed(s, s.unit("GE-9"))[idx(s, "06745")]                # a German move there invades the USSR
    why = prewar_conquests.claim_why_not(s, "allies", "eastern Poland")
    assert why is not None and why.rule == "ETO-43.6"                         # Axis units hold part of it
    s2 = allied_offensive(state(tmp_path, [unit("SU-1", "SU", "infantry", "07140")]))
    conquest.conquer(s2, "PL", "GE")
    assert {"kind": "claim_territory", "zone": "eastern Poland"} in s2.legal_orders()


def test_eto_43_3_winter_war_finland_fights_alone_east_of_the_temporary_border(tmp_path: Path) -> None:
    """43.3: a limited invasion of Finland in 1939 or 1940; Finland does not become an Axis partner
    and stays neutral to all others; a Soviet move or attack west of the temporary border invades
    Germany."""
    s = allied_offensive(state(tmp_path, [
        unit("SU-1", "SU", "infantry", "07119"), unit("SU-2", "SU", "infantry", "06924"),
        unit("FI-1", "FI", "infantry", "Unplaced", props={"deploy": "07120"}),
        unit("FI-2", "FI", "infantry", "Unplaced", props={"deploy": "Helsinki"}),
        unit("GE-1", "GE", "infantry", "03946")], first="1939-11"))
    assert {"kind": "winter_war"} in s.legal_orders()
    s.apply({"kind": "winter_war"})
    assert s.unit("FI-1").location == "07120" and s.unit("FI-2").location == "Helsinki"
    assert politics.at_war(s, "SU", "FI") and politics.neutral(s, "FI")
    assert not politics.at_war(s, "GE", "FI") and not politics.at_war(s, "UK", "FI") and not politics.at_war(s, "SU", "GE")
    assert holders.closed(s, s.unit("GE-1"))[idx(s, "06824")]                # Finland is not Germany's partner
    w = Walker(s, s.unit("SU-2"), "movement")
    why = w.why_not([idx(s, "06824")])
    assert why is not None and why.rule == "ETO-43.3" and "invades Germany" in why.why
    assert w.why_not([idx(s, "06925")]) is None                               # east of the border: the war zone
    why = winter_war.attack_why_not(s, [s.unit("SU-2")], "06824")
    assert why is not None and why.rule == "ETO-43.3" and "invades Germany" in why.why
    assert winter_war.attack_why_not(s, [s.unit("SU-1")], "07120") is None
    with pytest.raises(IllegalOrder, match="ETO-43.3"):
        s.apply({"kind": "winter_war"})


def test_eto_43_3_won_when_no_finnish_unit_is_left_east_of_the_border(tmp_path: Path) -> None:
    """43.3: "The Winter War concludes when all Finnish units have been driven out of the hexes east of
    the temporary border ... remove all Finnish units as if Finland had been conquered. All units can
    return ... if and when Finland is later activated"; then eastern Finland is claimed (43.2) and 43.4
    may apply."""
    s = allied_offensive(state(tmp_path, [
        unit("SU-1", "SU", "infantry", "07119"),
        unit("FI-1", "FI", "infantry", "Unplaced", props={"deploy": "07120"}),
        unit("FI-2", "FI", "infantry", "Unplaced", props={"deploy": "06824"})], first="1940-02"))
    s.apply({"kind": "winter_war"})
    winter_war.check(s)
    assert winter_war.status(s) == "on"                                       # FI-1 still holds 07120
    s.unit("FI-1").location = "06823"                                         # driven west of the border
    winter_war.check(s)
    assert winter_war.status(s) == "won" and s.tracks["winter_war"] == "won"
    for fid, hexes in (("FI-1", "07120"), ("FI-2", "06824")):
        u = s.unit(fid)
        assert u.location == "Unplaced" and u.props["deploy"] == hexes
    assert not politics.at_war(s, "SU", "FI")
    z = prewar_conquests.mask(s, "eastern Finland")
    assert prewar_conquests.claims(s)["eastern Finland"]["conquered"] == "1940-02"
    assert home_mask(s, "SU")[z].all() and (control(s)[z] == ALLIES).all()
    assert control(s)[idx(s, "06824")] == 0 and holders.holder_at(s, idx(s, "06824")) == "FI"


def test_eto_43_3_only_in_1939_or_1940(tmp_path: Path) -> None:
    s = allied_offensive(state(tmp_path, [unit("SU-1", "SU", "infantry", "07119")], first="1941-03"))
    why = winter_war.why_not(s, "allies")
    assert why is not None and "1939 or 1940" in why.why


def test_eto_43_6_a_soviet_invasion_of_a_prospective_axis_minor_invades_germany(tmp_path: Path) -> None:
    """43.6: "a Soviet invasion of a minor country that might become an Axis minor partner (35.0) is
    considered an invasion of the Axis" -- Rumania, invaded, pulls Germany into war with the USSR."""
    s = allied_offensive(state(tmp_path, [unit("SU-1", "SU", "infantry", "07451")]))
    s.apply({"kind": "declare_war", "nation": "SU", "target": "RO"})
    assert politics.at_war(s, "SU", "GE") and politics.front_open(s, "axis", "soviet")


def test_eto_43_6_any_other_minor_fights_the_ussr_alone_then_joins_germany(tmp_path: Path) -> None:
    """43.6: a minor "not scheduled to become a German minor ally ... remains neutral to all nations
    except the Soviet Union"; "If the minor country is not conquered when the Soviet Union and Germany
    go to war, the minor country instantly becomes a German minor partner"; Germany may invade it."""
    s = allied_offensive(state(tmp_path, [unit("SU-1", "SU", "infantry", "07451"),
                                          unit("TU-1", "TU", "infantry", "Unplaced", props={"deploy": "Ankara"})],
                                    allies=("UK", "FR", "SU", "TU")))
    s.apply({"kind": "declare_war", "nation": "SU", "target": "TU"})
    assert politics.at_war(s, "SU", "TU") and politics.neutral(s, "TU") and politics.neutral(s, "SU")
    assert not politics.at_war(s, "GE", "TU") and not politics.at_war(s, "UK", "TU")
    assert s.unit("TU-1").location == "Ankara" and s.unit("TU-1").side == "axis"
    politics.open_front(s, "axis", "soviet")
    assert politics.partnership(s, "TU") == "axis"


def adventurous(tmp_path: Path, units: list):  # noqa: ANN201
    text = scenario_text(units, first="1940-06", last="1941-12", west=True,
                         options={"politics": True, "optional_rules": ["ETO-47.2"]}, extra=AUTUMN_1939,
                         axis=("GE", "FI"), allies=("UK", "FR", "SU"), control={"USSR": "allies", "Poland": "axis"})
    path = tmp_path / "eto-adventure.toml"
    path.write_text(text)
    return allied_offensive(load_scenario(path).new_state(seed=1))


def test_eto_47_2_soviet_adventurism_a_limited_war_with_germany_inside_the_minor(tmp_path: Path) -> None:
    """47.2: the USSR invades Finland, a prospective Axis partner, without war with Germany; "all hexes
    of the minor country become friendly to Germany. German units can be moved to the country"; Soviet
    and German units may fight inside it; outside, an attack is still an invasion."""
    s = adventurous(tmp_path, [unit("SU-1", "SU", "infantry", "07119"), unit("GE-1", "GE", "infantry", "03946"),
                               unit("FI-1", "FI", "infantry", "Unplaced", props={"deploy": "Helsinki"})])
    s.apply({"kind": "declare_war", "nation": "SU", "target": "FI"})
    assert politics.at_war(s, "SU", "FI") and not politics.at_war(s, "SU", "GE") and politics.neutral(s, "FI")
    helsinki = s.map.index(s.map.hex_of("Helsinki"))
    assert control(s)[helsinki] == 1                                          # friendly to Germany
    assert not holders.closed(s, s.unit("GE-1"))[helsinki]                   # German units may go there
    assert not holders.closed(s, s.unit("SU-1"))[idx(s, "07120")]
    assert combat.peace_why_not(s, [s.unit("SU-1")], "07120", "axis") is None          # inside Finland
    assert combat.peace_why_not(s, [s.unit("GE-1")], "07119", "allies") is not None    # the USSR itself


def test_eto_47_2_a_six_after_a_clash_starts_the_general_war(tmp_path: Path) -> None:
    """47.2: "immediately after each land combat in which a stack containing a German land unit is
    attacked by a Soviet land unit, the Soviet player rolls a die. On a 6, the attack triggers war"."""
    from eto_kit import FixedDice

    from workbench.rulesets.eto import soviet_adventurism

    s = adventurous(tmp_path, [unit("SU-1", "SU", "infantry", "07119"), unit("GE-1", "GE", "infantry", "07120"),
                               unit("FI-1", "FI", "infantry", "Unplaced", props={"deploy": "Helsinki"})])
    s.apply({"kind": "declare_war", "nation": "SU", "target": "FI"})
    s.dice = FixedDice(5)
    soviet_adventurism.after_roll(s, "allies", ["SU-1"], ["GE-1"], "07120")
    assert not politics.at_war(s, "SU", "GE")
    s.dice = FixedDice(6)
    soviet_adventurism.after_roll(s, "allies", ["SU-1"], ["GE-1"], "07120")
    assert politics.at_war(s, "SU", "GE") and politics.war_state(s)["axis_soviet_war_by"] == "soviet"
    rolls = [e for e in s.log if e["kind"] == "roll"]
    assert rolls and "47.2" in str(rolls[-1])


def test_eto_47_2_german_eps_rebuild_the_minors_units(tmp_path: Path) -> None:
    """47.2: "German EPs can be used to rebuild units of the minor country" -- Turkey, invaded under
    47.2, is paid for by Germany."""
    from workbench.rulesets.eto import values

    text = scenario_text([unit("SU-1", "SU", "infantry", "07451"),
                          unit("TU-1", "TU", "infantry", "Unplaced", props={"deploy": "Ankara"})],
                         first="1940-06", last="1941-12", west=True,
                         options={"politics": True, "optional_rules": ["ETO-47.2"]}, extra=AUTUMN_1939,
                         axis=("GE", "FI"), allies=("UK", "FR", "SU", "TU"), control={"USSR": "allies"})
    path = tmp_path / "eto-adventure-tu.toml"
    path.write_text(text)
    s = allied_offensive(load_scenario(path).new_state(seed=1))
    assert values.major_of(s, "TU") == "TU"
    s.apply({"kind": "declare_war", "nation": "SU", "target": "TU"})
    assert values.major_of(s, "TU") == "GE" and s.unit("TU-1").side == "axis"


def test_eto_bot_declares_by_the_scenarios_timetable_and_claims_what_it_may(tmp_path: Path) -> None:
    """The heuristic brain declares the invasions of ``[bot_plan.<side>] invasions`` once their month
    has come (39.2) and makes the Soviet claims it may (43.2); a bad plan entry is refused at load."""
    from workbench.bots.heuristic import Context, HeuristicPolicy
    from workbench.engine.errors import ScenarioError
    from workbench.rulesets.eto.bot import ETOBrain

    plan = '[bot_plan.axis]\ninvasions = [{nation = "GE", target = "NO", from = "1940-04"}]\n'

    def at(first: str, side: str, extra: str = plan):  # noqa: ANN202
        text = scenario_text([unit("GE-1", "GE", "infantry", "03946"), unit("SU-1", "SU", "infantry", "07032")],
                             first=first, last="1941-12", west=True, options={"politics": True},
                             extra=AUTUMN_1939 + extra, axis=("GE", "FI"), allies=("UK", "FR", "SU", "NO"),
                             control={"USSR": "allies", "Poland": "axis"})
        path = tmp_path / f"eto-bot-{first}.toml"
        path.write_text(text)
        s = load_scenario(path).new_state(seed=1)
        step_to(s, "offensive")
        if s.decision.side != side:
            s.apply({"kind": "pass"})
        s.apply({"kind": "begin"})
        return s, Context(HeuristicPolicy(ETOBrain(side)), s, side, None)

    s, ctx = at("1940-03", "axis")
    assert ETOBrain("axis").propose(ctx) != {"kind": "declare_war", "nation": "GE", "target": "NO"}
    s, ctx = at("1940-04", "axis")
    assert ETOBrain("axis").propose(ctx) == {"kind": "declare_war", "nation": "GE", "target": "NO"}
    s, ctx = at("1939-10", "allies")
    assert ETOBrain("allies").propose(ctx)["kind"] == "claim_territory"
    with pytest.raises(ScenarioError, match="invasions"):
        at("1940-04", "axis", '[bot_plan.axis]\ninvasions = [{nation = "GE", target = "NO"}]\n')
