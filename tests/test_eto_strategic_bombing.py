"""ETO strategic bombing (ETO-2.0-2.5, 12.2, 13.7, Part 3) on the Channel front of August 1940.

Bases (eto_kit ``west``): London 02948 (two bases), Dover 03148, Harwich 03246 (UK); Brussels
03649 (two bases), Calais 03248, Le Havre 02951, Cherbourg 02650 (German-held).  The German
6-12 bomber reaches England from Brussels (7 hexes), the 4-4/3 fighter from Calais, Le Havre and
Cherbourg (3); the British 6-12 reaches Germany from London (11), the 4-3/3 fighter does not.
The Bombing Table cells are the authored ones (tables/bombing.toml): column 6-8 reads 1 on 7 or
8, 2 on 9 or 10, 3* on 11 or 12.
"""

from __future__ import annotations

from typing import Any

import pytest
from eto_kit import FixedDice, events, scenario_text, step_to, unit

from workbench.bots.heuristic import Brain, Context, HeuristicPolicy
from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.eto import air_combat, air_missions, airbases, commitment, rail
from workbench.rulesets.eto import strategic_bombing as sb
from workbench.rulesets.eto.bot import strategic as bot
from workbench.rulesets.eto.values import FORCE_POOL

LONDON, DOVER, HARWICH = "02948", "03148", "03246"
BRUSSELS, CALAIS, LE_HAVRE, CHERBOURG, FRANKFURT = "03649", "03248", "02951", "02650", "04351"
AXIS_BOX, ALLIED_BOX = sb.BOXES["axis"], sb.BOXES["allies"]
OPTIONS = {"air": True, "strategic-warfare": True}


def sw(tmp_path, units: list[dict[str, Any]], *faces: int, us: bool = False, options: dict[str, Any] | None = None,
       tracks: dict[str, Any] | None = None):  # noqa: ANN201
    """August 1940 with the Strategic Warfare phase; ``us`` adds the US to the Allies."""
    text = scenario_text(units, west=True, first="1940-08", last="1940-10", options=options or OPTIONS,
                         tracks=tracks, allies=("UK", "FR", "US") if us else ("UK", "FR"))
    path = tmp_path / "eto-sb.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    if faces:
        s.dice = FixedDice(*faces)
    return s


def battle_of_britain(tmp_path, *faces: int, **kw: Any):  # noqa: ANN201
    """A German bomber at Brussels and fighters at Calais, Le Havre and Cherbourg; British
    fighters at London, Dover and Harwich.  The Allies have no bomber: play opens at the Axis raid."""
    units = [unit("GE-b1", "GE", "bomber", BRUSSELS), unit("GE-f1", "GE", "fighter", CALAIS),
             unit("GE-f2", "GE", "fighter", LE_HAVRE), unit("GE-f3", "GE", "fighter", CHERBOURG),
             unit("UK-f1", "UK", "fighter", LONDON), unit("UK-f2", "UK", "fighter", DOVER),
             unit("UK-f3", "UK", "fighter", HARWICH)]
    return sw(tmp_path, units, *faces, **kw)


def rolls(s) -> list[dict[str, Any]]:  # noqa: ANN001
    return [e for e in s.log if e["kind"] == "roll"]


def finish_raid(s) -> None:  # noqa: ANN001
    """Both sides pass in the 2.2 alternation until the raid is resolved."""
    while s.decision.kind == sb.ADD:
        s.apply({"kind": "pass"})


# == the phase ===================================================================================
def test_eto_part3_phase_runs_only_with_the_option_and_steps_2_to_5_pass(tmp_path):
    """The Strategic Warfare phase (Part 3) runs with ``strategic-warfare = true`` only; Step 1
    asks the raiders in turn (the Allies first, 2.2), and Steps 2-5 pass without a decision here
    (the Arctic route is not open: nothing to interdict, 3.1; no ships at sea)."""
    units = [unit("UK-b1", "UK", "bomber", LONDON), unit("GE-b1", "GE", "bomber", BRUSSELS)]
    s = sw(tmp_path, units)
    d = s.decision
    assert (d.kind, d.side) == ("strategic/bombing/raids/raid", "allies")
    assert s.legal_orders() == [{"kind": "raid", "target": "GE", "bombers": ["UK-b1"]}, {"kind": "end_step"}]
    s.apply({"kind": "end_step"})
    assert (s.decision.kind, s.decision.side) == ("strategic/bombing/raids/raid", "axis")
    s.apply({"kind": "end_step"})
    assert s.decision.kind == "choose_first" and s.step.key == "naval-air/sides"  # Steps 2-5 passed
    assert not any(e["kind"] == "arctic_route" for e in s.log)  # 3.1: a closed route is no target
    off = sw(tmp_path, units, options={"air": True})
    assert off.decision.kind == "choose_first"  # no Strategic Warfare phase at all
    assert not any(e["kind"] == "end_step" for e in off.log)


# == 2.1 eligibility ==================================================================================
def test_eto_2_1_eligible_units(tmp_path):
    """2.1: land-based bombers and fighters not out of supply whose base reaches a resource hex of
    the target; defenders are fighters based in the country attacked; 12.1 roles; 20.1 one
    commitment a turn."""
    units = [unit("UK-b1", "UK", "bomber", LONDON), unit("UK-f1", "UK", "fighter", DOVER),
             unit("UK-fb", "UK", "fighter_bomber", HARWICH), unit("GE-b1", "GE", "bomber", BRUSSELS),
             unit("GE-f1", "GE", "fighter", CALAIS), unit("GE-f9", "GE", "fighter", FRANKFURT)]
    s = sw(tmp_path, units)
    u = s.unit
    assert sb.targets(s, "allies") == ["GE", "IT"] and sb.targets(s, "axis") == ["UK"]  # France is conquered
    assert sb.raider_why_not(s, "allies", u("UK-b1"), "GE", "bomber") is None       # London-Ruhr 11 <= 12
    why = sb.raider_why_not(s, "allies", u("UK-f1"), "GE", "fighter")
    assert why.rule == "ETO-2.1" and "range 3; the nearest is 9 hexes" in why.why  # Spitfires cannot escort
    assert sb.raider_why_not(s, "allies", u("UK-f1"), "GE", "bomber").rule == "ETO-12.1"
    assert sb.raider_why_not(s, "axis", u("GE-f1"), "UK", "fighter") is None         # Calais-Dover 3 <= 4
    assert sb.raider_why_not(s, "axis", u("GE-f1"), "UK", "bomber").rule == "ETO-12.1"
    # defenders: fighters (fighter-bombers as fighters) based in the country attacked
    assert sb.defender_why_not(s, "allies", u("UK-f1"), "UK") is None
    assert sb.defender_why_not(s, "allies", u("UK-fb"), "UK") is None
    assert sb.defender_why_not(s, "allies", u("UK-b1"), "UK").rule == "ETO-2.1"      # a bomber
    assert sb.defender_why_not(s, "axis", u("GE-f9"), "GE") is None
    why = sb.defender_why_not(s, "axis", u("GE-f1"), "GE")                            # Calais is in France
    assert why.rule == "ETO-2.1" and "outside GE" in why.why
    # not out of supply
    u("UK-b1").props["oos"] = True
    why = sb.raider_why_not(s, "allies", u("UK-b1"), "GE", "bomber")
    assert why.rule == "ETO-2.1" and "out of supply" in why.why
    u("UK-b1").props.pop("oos")
    # land-based only
    u("UK-b1").props["carrier"] = "HMS Ark Royal"
    assert "carrier-based" in sb.raider_why_not(s, "allies", u("UK-b1"), "GE", "bomber").why
    u("UK-b1").props.pop("carrier")
    # a unit is committed once a turn (20.1)
    u("GE-f1").props.update(commit="PC", commit_turn=s.turn_label)
    assert sb.raider_why_not(s, "axis", u("GE-f1"), "UK", "fighter").rule == "ETO-20.1"


def test_eto_2_1_grounding_at_the_base_or_over_the_targets_prohibits_bombing(tmp_path):
    """2.1: "Weather conditions that ground air units in the units' base hexes, or in the target
    resource hexes, prohibit strategic bombing from (or to) those hexes" (1.4).  England is in the
    moderate zone, Brussels and the Ruhr in the mild France/Germany region."""
    units = [unit("UK-b1", "UK", "bomber", LONDON), unit("GE-b1", "GE", "bomber", BRUSSELS),
             unit("UK-f1", "UK", "fighter", DOVER)]
    s = sw(tmp_path, units)
    s.tracks["grounded.moderate"] = True
    why = sb.raider_why_not(s, "allies", s.unit("UK-b1"), "GE", "bomber")
    assert why.rule == "ETO-2.1" and "grounded at 02948" in why.why                    # from a grounded base
    why = sb.raider_why_not(s, "axis", s.unit("GE-b1"), "UK", "bomber")
    assert why.rule == "ETO-2.1" and "no resource hex of it is free of grounding" in why.why  # to grounded targets
    assert "grounded" in sb.defender_why_not(s, "allies", s.unit("UK-f1"), "UK").why
    s.tracks["grounded.moderate"] = False
    s.tracks["grounded.mild_france_germany"] = True
    assert sb.raider_why_not(s, "allies", s.unit("UK-b1"), "GE", "bomber") is not None  # the Ruhr is grounded
    assert "grounded at 03649" in sb.raider_why_not(s, "axis", s.unit("GE-b1"), "UK", "bomber").why


def test_eto_2_1_raid_order_refusals(tmp_path):
    """The ``raid`` order names the rule: a target that is no enemy major with resource hexes, a
    raid without bombers, a unit in two stacks (2.4), an ineligible escort (2.1)."""
    s = battle_of_britain(tmp_path)
    assert (s.decision.side, s.decision.kind) == ("axis", "strategic/bombing/raids/raid")
    for order, rule, words in (
            ({"target": "FR", "bombers": ["GE-b1"]}, "ETO-2.2", "cannot be bombed"),
            ({"target": "UK", "escorts": ["GE-f1"]}, "ETO-2.2", "at least one bomber"),
            ({"target": "UK", "bombers": ["GE-b1"], "rail": ["GE-b1"]}, "ETO-2.4", "no single air unit"),
            ({"target": "UK", "bombers": ["GE-b1"], "escorts": ["UK-f1"]}, "ETO-2.1", "belongs to allies"),
            ({"target": "UK", "bombers": ["GE-b1"], "loser": "GE-f1"}, "ETO-21.5", "not one of the EP raid")):
        with pytest.raises(IllegalOrder) as e:
            s.apply({"kind": "raid", **order})
        assert e.value.rule == rule and words in e.value.why, e.value


# == 2.2 procedure ======================================================================================
def test_eto_2_2_sides_alternate_adding_and_a_pass_forfeits(tmp_path):
    """2.2: the raider places bombers and escorts; the defender puts in fighters; the raider
    responds with escorts; "Both players alternate adding ... Once a player declines to add more
    units to the box, he forfeits the opportunity for the rest of that strategic bombing raid" --
    the other side may still add.  Entering the box is never intercepted (13.7, 14.4)."""
    s = battle_of_britain(tmp_path, *([6] * 20))
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "escorts": ["GE-f1"]})
    assert {u.id for u in sb.box_units(s, AXIS_BOX)} == {"GE-b1", "GE-f1"}
    d = s.decision
    assert (d.kind, d.side, d.kinds) == (sb.ADD, "allies", ("reinforce_box", "pass"))
    s.apply({"kind": "reinforce_box", "units": ["UK-f1"]})
    assert (s.decision.kind, s.decision.side) == (sb.ADD, "axis")      # the raider responds
    with pytest.raises(IllegalOrder) as e:                              # only fighters reaching England
        s.apply({"kind": "reinforce_box", "units": ["GE-b1"]})
    assert e.value.rule in ("ETO-2.1", "ETO-20.1")
    s.apply({"kind": "reinforce_box", "units": ["GE-f2"]})
    assert (s.decision.kind, s.decision.side) == (sb.ADD, "allies")
    s.apply({"kind": "reinforce_box", "units": ["UK-f2"]})
    assert s.decision.side == "axis"
    s.apply({"kind": "pass"})                                           # the Axis forfeits ...
    assert (s.decision.kind, s.decision.side) == (sb.ADD, "allies")     # ... the Allies may still add
    s.apply({"kind": "reinforce_box", "units": ["UK-f3"]})
    # the Axis is never asked again, and the Allies have nothing left to add: the raid is fought
    assert s.decision.kind == "strategic/bombing/raids/raid" and s.legal_orders() == [{"kind": "end_step"}]
    adds = [(e["side"], e["data"]["units"]) for e in events(s, "strategic_reinforce")]
    assert adds == [("allies", ["UK-f1"]), ("axis", ["GE-f2"]), ("allies", ["UK-f2"]), ("allies", ["UK-f3"])]
    assert not events(s, "intercept") and not any(e["kind"] == "air_intercept" for e in s.log)
    assert events(s, "air_battle")[0]["data"]["hex"] == AXIS_BOX
    assert sb.current_raid(s) is None and events(s, "strategic_bombing")


def test_eto_2_2_escorts_only_if_the_raid_went_in_with_one(tmp_path):
    """2.2: "If the Allied player wants his bombers to have fighter escorts, he must also place at
    least one fighter unit" -- a raid placed without escorts gets none later."""
    s = battle_of_britain(tmp_path, *([6] * 10))
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"]})
    s.apply({"kind": "reinforce_box", "units": ["UK-f1"]})
    # the Axis raid has no escort: the Axis is not asked; the Allies go on until they pass
    assert s.decision.side == "allies"
    s.apply({"kind": "pass"})
    assert not [e for e in events(s, "strategic_reinforce") if e["side"] == "axis"]


def test_eto_2_2_no_defence_bombs_at_once(tmp_path):
    """A defender with no eligible fighter declines at once (nothing to ask): the raid is bombed as
    soon as it is placed, on the raider's 2d6."""
    s = sw(tmp_path, [unit("GE-b1", "GE", "bomber", BRUSSELS)], 3, 5)
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"]})
    r = events(s, "strategic_bombing")[0]
    assert r["side"] == "axis" and r["data"]["rolled"] == [3, 5] and r["data"]["result"] == 1
    assert rolls(s)[-1]["side"] == "axis" and rolls(s)[-1]["rule"] == "ETO-2.2"


def test_eto_2_2_aborted_units_stay_in_the_box_marked_pc(tmp_path):
    """2.2: the combat is fought "exactly as if they were flying a mission in the same hex, with one
    exception: aborted units are not returned to their bases. Instead they are set aside in the
    strategic bombing box and marked PC. They take no further part in the raid."  GE-f1 escorts
    (target number 4+3-3 +1 escort = 5) and rolls 5: UK-f1 aborts; UK-f1 (7 against the bomber)
    rolls 6.  The bomber bombs alone: 6 SP, 4+4 = 8: 1 EP."""
    s = battle_of_britain(tmp_path, 5, 6, 4, 4)
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "escorts": ["GE-f1"]})
    s.apply({"kind": "reinforce_box", "units": ["UK-f1"]})
    finish_raid(s)
    uk = s.unit("UK-f1")
    assert uk.location == AXIS_BOX and commitment.status(s, uk) == "PC"
    assert events(s, "strategic_set_aside")[0]["data"]["units"] == ["UK-f1"]
    bomb = events(s, "strategic_bombing")[0]["data"]
    assert (bomb["strength"], bomb["column"], bomb["roll"], bomb["result"]) == (6, "6-8", 8, 1)
    assert s.tracks["UK.eps"] == 19
    # 13.7: they stay in the box for the rest of the turn and fly no other mission
    s.apply({"kind": "end_step"})
    step_to(s, "naval-air/sides/air-movement")
    for uid in ("UK-f1", "GE-f1", "GE-b1"):
        why = air_missions.unit_why_not(s, s.unit(uid).side, s.unit(uid), "change_base")
        assert why is not None and "not on an airbase" in why.why and s.unit(uid).location == AXIS_BOX


def test_eto_2_2_an_aborted_bomber_does_not_bomb(tmp_path):
    """2.2: only "Unaborted bombers in the strategic bombing box after the air battle can perform
    strategic bombing": UK-f1 rolls 5 against the bomber (target number 7): aborted, no roll."""
    s = battle_of_britain(tmp_path, 6, 5, 6, 6)
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "escorts": ["GE-f1"]})
    s.apply({"kind": "reinforce_box", "units": ["UK-f1"]})
    finish_raid(s)
    assert s.unit("GE-b1").location == AXIS_BOX
    assert not events(s, "strategic_bombing") and s.tracks["UK.eps"] == 20
    assert "GE-b1" in events(s, "strategic_set_aside")[0]["data"]["units"]


def test_eto_44_3_no_blitzkrieg_and_no_own_base_bonus_in_the_box(tmp_path, monkeypatch):
    """44.3: the blitzkrieg bonus never applies "during the Strategic Warfare phase"; a box is no
    base hex, so no own-base bonus (15.4) either.  With the bonus active against Britain (and 44.4
    lifted for the test) GE-f1 would get +1 over a map hex; in the box its target number is 5
    (4 + 3 - 3, +1 escort), no more."""
    s = battle_of_britain(tmp_path, 6, 6, 6, 6, 6, 6)
    monkeypatch.setitem(s.ruleset.tables["crt"]["blitzkrieg"], "never_vs_all", [])
    s.tracks["blitzkrieg.UK"] = f"active:{s.turn_label}"
    assert air_combat._blitzkrieg(s, s.unit("GE-f1"), s.unit("UK-f1"), CALAIS) is True
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "escorts": ["GE-f1"]})
    s.apply({"kind": "reinforce_box", "units": ["UK-f1"]})
    finish_raid(s)
    ge = [e["data"] for e in events(s, "air_combat") if e["data"]["attacker"] == "GE-f1"]
    assert ge and all(a["bonuses"] == ["escort"] and a["target_number"] == 5 for a in ge)


# == bombing and the economy (Part 3, 2.2) ==========================================================
def test_eto_part3_ep_loss_is_immediate_and_spares_the_reserve(tmp_path):
    """Part 3: strategic warfare causes "losses to his EP track that are subtracted immediately";
    "EPs in economic reserve are never affected"; the track may go negative (36.0).  6+6 = 12 on
    column 6-8: 3*, and the asterisk costs the bomber a step (the owner's choice: GE-b2)."""
    units = [unit("GE-b1", "GE", "bomber", BRUSSELS), unit("GE-b2", "GE", "bomber", BRUSSELS)]
    s = sw(tmp_path, units, 6, 6, tracks={"UK.eps": 2, "UK.reserve": 5})
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1", "GE-b2"], "loser": "GE-b2"})
    bomb = events(s, "strategic_bombing")[0]["data"]
    assert (bomb["strength"], bomb["column"], bomb["result"], bomb["asterisk"]) == (12, "9-12", 4, True)
    assert s.tracks["UK.eps"] == -2 and s.tracks["UK.reserve"] == 5
    assert s.ruleset.metrics(s).economy["UK.bombing"] == 4.0  # the charts' running total of bombing damage
    assert (bomb["loser"], bomb["loss"]) == ("GE-b2", "depleted") and s.unit("GE-b2").reduced
    assert s.unit("GE-b2").location == AXIS_BOX  # still in the box, PC


def test_eto_2_2_asterisk_default_loser_is_the_cheapest_step(tmp_path):
    """21.5's asterisk rule for 2.2: with no choice named the full bomber flips (a depleted one
    would be eliminated)."""
    units = [unit("GE-b1", "GE", "bomber", BRUSSELS), unit("GE-b2", "GE", "bomber", BRUSSELS)]
    s = sw(tmp_path, units, 5, 6)
    s.unit("GE-b1").reduced = True
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1", "GE-b2"]})
    bomb = events(s, "strategic_bombing")[0]["data"]
    assert (bomb["strength"], bomb["roll"], bomb["result"]) == (9, 11, 3) and bomb["loser"] == "GE-b2"


def test_eto_2_4_rail_raid_is_a_separate_roll_for_this_turn_only(tmp_path):
    """2.4: bombers named for rail capacity roll separately; "The resulting number is subtracted
    from bombed country's rail capacity for that turn only".  The EP bomber rolls 3+4 = 7 (1 EP),
    the rail bomber 4+5 = 9 (2): Britain's 2 rail points are gone this month, back next month."""
    units = [unit("GE-b1", "GE", "bomber", BRUSSELS), unit("GE-b2", "GE", "bomber", BRUSSELS),
             unit("GE-i", "GE", "infantry", FRANKFURT)]
    s = sw(tmp_path, units, 3, 4, 4, 5, *([6] * 10))
    assert rail.capacity(s, "UK") == 2
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "rail": ["GE-b2"]})
    eps, rl = (e["data"] for e in events(s, "strategic_bombing"))
    assert (eps["against"], eps["result"], rl["against"], rl["result"]) == ("eps", 1, "rail", 2)
    assert s.tracks["UK.eps"] == 19 and rail.capacity(s, "UK") == 0 and rail.bombed(s, "UK") == 2
    assert rl["bombers"] == ["GE-b2"] and eps["bombers"] == ["GE-b1"]
    s.apply({"kind": "end_step"})
    step_to(s, "strategic/bombing/boxes")
    assert s.turn_label == "1940-09" and rail.capacity(s, "UK") == 2


# == 2.5 American daylight raids (GAP-17) ===============================================================
def us_raid(tmp_path, *faces: int, reduced: bool = False):  # noqa: ANN201
    units = [unit("US-b1", "US", "bomber", LONDON), unit("US-b2", "US", "bomber", HARWICH),
             unit("UK-b1", "UK", "bomber", LONDON)]
    s = sw(tmp_path, units, *faces, us=True)
    s.unit("US-b2").reduced = reduced
    return s


def test_eto_2_5_us_bombers_add_one_each_at_full_strength(tmp_path):
    """2.5: "+1 to his dice roll for every full strength US bomber unit attacking": two US 8-14s
    and a British 6-12 (22 SP, column 18-24) roll 3+4 = 7, +2 = 9: 3 EPs instead of 2."""
    s = us_raid(tmp_path, 3, 4)
    s.apply({"kind": "raid", "target": "GE", "bombers": ["US-b1", "US-b2", "UK-b1"]})
    b = events(s, "strategic_bombing")[0]["data"]
    assert (b["strength"], b["column"], b["rolled"], b["us_bonus"], b["roll"], b["result"]) == (22, "18-24", [3, 4], 2, 9, 3)
    assert s.tracks["GE.eps"] == 17 and rolls(s)[-1]["rule"] == "ETO-2.5"


def test_eto_2_5_depleted_us_bombers_add_nothing(tmp_path):
    """2.5: only full-strength US bombers count: a depleted 4-14 adds its SP, not a +1."""
    s = us_raid(tmp_path, 3, 4, reduced=True)
    s.apply({"kind": "raid", "target": "GE", "bombers": ["US-b1", "US-b2", "UK-b1"]})
    b = events(s, "strategic_bombing")[0]["data"]
    assert (b["strength"], b["us_bonus"], b["roll"]) == (18, 1, 8)


def test_eto_2_5_the_raider_may_use_part_of_the_bonus(tmp_path):
    """2.5: "The US player can use any portion of this modifier and decline the rest"
    (``us_bonus``: the most +1s used)."""
    for used, roll in ((1, 8), (0, 7), (5, 9)):
        s = us_raid(tmp_path, 3, 4)
        s.apply({"kind": "raid", "target": "GE", "bombers": ["US-b1", "US-b2", "UK-b1"], "us_bonus": used})
        b = events(s, "strategic_bombing")[0]["data"]
        assert (b["us_bonus"], b["us_available"], b["roll"]) == (min(used, 2), 2, roll)
    s = us_raid(tmp_path)
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "raid", "target": "GE", "bombers": ["US-b1"], "us_bonus": -1})
    assert e.value.rule == "ETO-2.5"


def test_eto_2_5_not_for_rail_raids(tmp_path):
    """2.5: "This modification applies only to normal strategic bombing, not to bombing of rail
    capacity": US bombers on rail roll 3+4 = 7 unmodified."""
    s = us_raid(tmp_path, 3, 4)
    s.apply({"kind": "raid", "target": "GE", "rail": ["US-b1", "US-b2"]})
    b = events(s, "strategic_bombing")[0]["data"]
    assert (b["against"], b["us_bonus"], b["roll"], b["result"]) == ("rail", 0, 7, 2)
    assert rail.capacity(s, "GE") == 8 - 2


def test_gap_17_asterisk_bought_with_the_us_bonus_costs_a_us_bomber(tmp_path):
    """GAP-17 (authored, bombing.toml [us_daylight]): the attrition of 2.5 is the asterisk, read on
    the modified roll; when the +1s alone turned the roll into an asterisk roll (5+5 = 10, +2 = 12)
    the step comes off a US bomber even if the owner names the British one.  A natural asterisk
    (5+6 = 11) lets the owner choose."""
    s = us_raid(tmp_path, 5, 5)
    s.apply({"kind": "raid", "target": "GE", "bombers": ["US-b1", "US-b2", "UK-b1"], "loser": "UK-b1"})
    b = events(s, "strategic_bombing")[0]["data"]
    assert (b["roll"], b["asterisk"]) == (12, True) and b["loser"] in ("US-b1", "US-b2")
    assert s.ruleset.tables["bombing"]["us_daylight"]["source"] == "authored"
    s = us_raid(tmp_path, 5, 6)
    s.apply({"kind": "raid", "target": "GE", "bombers": ["US-b1", "US-b2", "UK-b1"], "loser": "UK-b1"})
    b = events(s, "strategic_bombing")[0]["data"]
    assert (b["roll"], b["asterisk"], b["loser"]) == (13, True, "UK-b1") and s.unit("UK-b1").reduced


# == 12.2 / 20.1 / 13.7 commitment and the box ========================================================
def test_eto_12_2_20_1_raiders_are_pc_for_the_turn(tmp_path):
    """12.2: "Any air unit that participates in one of these missions is marked PC for the duration
    of the monthly turn"; 20.1: units in the box are PC by being there; the phase end clears the
    mission record (commitment.end_strategic_warfare)."""
    s = battle_of_britain(tmp_path, 6, 6, 6, 6, 3, 4)
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "escorts": ["GE-f1"]})
    assert commitment.missions(s.unit("GE-b1")) == ["strategic"]
    s.apply({"kind": "reinforce_box", "units": ["UK-f1"]})
    finish_raid(s)
    s.apply({"kind": "end_step"})
    assert s.step.key.startswith("naval-air")
    for uid in ("GE-b1", "GE-f1", "UK-f1"):
        u = s.unit(uid)
        assert commitment.status(s, u) == "PC" and "missions" not in u.props and u.location == AXIS_BOX
    assert commitment.status(s, s.unit("GE-f2")) is None  # stayed home: free to fly


# == 2.3 units already in the box ===================================================================
def raided_state(tmp_path, *extra: dict[str, Any]):  # noqa: ANN201
    """The August raid (no hits, 4+4: 1 EP), then on to the September Strategic Warfare phase."""
    units = [unit("GE-b1", "GE", "bomber", BRUSSELS), unit("GE-f1", "GE", "fighter", CALAIS),
             unit("UK-f1", "UK", "fighter", LONDON), unit("GE-i", "GE", "infantry", FRANKFURT), *extra]
    s = sw(tmp_path, units, 6, 6, 6, 6, 4, 4, *([6] * 30))
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "escorts": ["GE-f1"]})
    s.apply({"kind": "reinforce_box", "units": ["UK-f1"]})
    finish_raid(s)
    step_to(s, "strategic/bombing/boxes")
    assert s.turn_label == "1940-09"
    return s


def test_eto_2_3_units_kept_in_the_box_join_this_turns_raid(tmp_path):
    """2.3: units that begin the phase in the box join the current raid if their owner has the
    bases for them (13.2): the Germans keep GE-b1 and GE-f1 over England, the British keep UK-f1;
    the September raid needs no new bomber (3+4 = 7: 1 EP more)."""
    s = raided_state(tmp_path)
    s.dice = FixedDice(6, 6, 6, 6, 3, 4)
    assert (s.decision.side, s.legal_orders()[-1]) == ("axis", {"kind": "end_step"})
    s.apply({"kind": "end_step"})
    assert s.decision.side == "allies" and {"kind": "leave_box", "units": ["UK-f1"]} in s.legal_orders()
    s.apply({"kind": "end_step"})
    kept = [e["data"]["units"] for e in events(s, "strategic_kept")]
    assert kept == [["GE-b1", "GE-f1"], ["UK-f1"]]
    assert (s.decision.kind, s.decision.side) == ("strategic/bombing/raids/raid", "axis")
    assert s.legal_orders()[0] == {"kind": "raid", "target": "UK"}
    s.apply({"kind": "raid", "target": "UK"})  # nobody has a fighter left to add: fought at once
    b = events(s, "strategic_bombing")[-1]["data"]
    assert b["bombers"] == ["GE-b1"] and b["result"] == 1 and s.tracks["UK.eps"] == 18
    battle = events(s, "air_battle")[-1]["text"]
    assert "GE-b1, GE-f1" in battle and "UK-f1" in battle


def test_eto_2_3_units_may_return_to_base_and_fly_other_missions(tmp_path):
    """2.3: "he can return some or all of those units to any bases within the eligible area, and
    use them to perform other missions during the current turn. Returning to base from the
    strategic bombing box is not considered a change of base"."""
    s = raided_state(tmp_path)
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "leave_box", "units": ["GE-f1"], "to": {"GE-f1": FRANKFURT}})  # 8 hexes from England
    assert e.value.rule == "ETO-2.3" and "eligible area" in e.value.why
    s.apply({"kind": "leave_box", "units": ["GE-f1"], "to": {"GE-f1": LE_HAVRE}})
    s.apply({"kind": "leave_box", "units": ["GE-b1"]})
    f1, b1 = s.unit("GE-f1"), s.unit("GE-b1")
    assert (f1.location, b1.location) == (LE_HAVRE, BRUSSELS)  # the bomber goes back to the base it left
    assert commitment.status(s, f1) is None and not any(k.startswith("sb_") for k in f1.props)
    step_to(s, "naval-air/sides/air-movement")
    if s.decision.side != "axis":
        s.apply({"kind": "end_step"})
    assert air_missions.unit_why_not(s, "axis", f1, "change_base") is None


def test_eto_2_3_units_without_bases_must_return(tmp_path):
    """2.3: a unit stays only if "The attacking player has enough intact airbases (at which his units
    could base) within range of the target country. Basing limits (13.2) apply": with Calais,
    Le Havre and Cherbourg -- every base within GE-f1's 4 hexes of England -- taken, GE-f1 returns
    (to the nearest vacant base); the bomber (range 12) stays."""
    extra = [unit("GE-f7", "GE", "fighter", LE_HAVRE), unit("GE-f8", "GE", "fighter", CHERBOURG),
             unit("GE-f9", "GE", "fighter", "03449")]
    s = raided_state(tmp_path, *extra)
    airbases.land(s, s.unit("GE-f9"), CALAIS)  # Calais taken while GE-f1 is in the box
    stay, back = sb.bases_for_kept(s, sb.box_units(s, AXIS_BOX, "axis"))
    assert [u.id for u in stay] == ["GE-b1"] and [u.id for u in back] == ["GE-f1"]
    s.apply({"kind": "end_step"})
    s.apply({"kind": "end_step"})
    f1 = s.unit("GE-f1")
    assert f1.location not in (AXIS_BOX, CALAIS, LE_HAVRE, CHERBOURG) and f1.location.isdigit()
    assert "not enough vacant airbases" in [e for e in events(s, "strategic_return") if e["data"]["unit"] == "GE-f1"][0]["text"]


def test_eto_2_3_kept_units_bomb_the_same_country_and_go_home_unused(tmp_path):
    """Kept raiders are over the country they bombed (2.3): a raid on another country with them is
    refused; with no raid at all they go home at the end of the raid step."""
    s = raided_state(tmp_path)
    s.apply({"kind": "end_step"})
    s.apply({"kind": "end_step"})
    for u in sb.kept(s, AXIS_BOX, "axis"):
        u.props["sb_target"] = "SU"  # as if they had bombed the USSR last month
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "raid", "target": "UK"})
    assert e.value.rule == "ETO-2.3" and "over SU" in e.value.why
    assert s.legal_orders() == [{"kind": "end_step"}]
    s.apply({"kind": "end_step"})
    for uid in ("GE-b1", "GE-f1", "UK-f1"):
        assert s.unit(uid).location not in (AXIS_BOX, FORCE_POOL)
    assert len(events(s, "strategic_return")) == 3


# == the bot ==============================================================================================
def ctx(s):  # noqa: ANN001, ANN201
    return Context(HeuristicPolicy(Brain()), s, s.decision.side, None)


def test_eto_bot_raids_with_escorts_it_outnumbers_and_defends_when_not_outnumbered(tmp_path):
    """bot/strategic.py: the raider sends half its bombers (here its one), with escorts when its
    fighters outnumber the defender's; the defender sends its fighters when the escorts do not
    outnumber them."""
    s = battle_of_britain(tmp_path, *([6] * 30))
    assert bot.place(ctx(s)) == {"kind": "raid", "target": "UK", "bombers": ["GE-b1"]}  # 3 against 3
    s.unit("UK-f3").location = FORCE_POOL  # two British fighters left
    order = bot.place(ctx(s))
    assert order == {"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "escorts": ["GE-f1", "GE-f2", "GE-f3"]}
    s.apply(order)
    assert bot.defend(ctx(s)) is None  # 3 escorts against 2 fighters: the RAF keeps them home
    s = battle_of_britain(tmp_path, *([6] * 30))
    s.apply({"kind": "raid", "target": "UK", "bombers": ["GE-b1"], "escorts": ["GE-f1"]})
    assert bot.defend(ctx(s)) == {"kind": "reinforce_box", "units": ["UK-f1", "UK-f2", "UK-f3"]}
    s.apply(bot.defend(ctx(s)))
    assert s.decision.side == "axis"
    assert bot.defend(ctx(s)) == {"kind": "reinforce_box", "units": ["GE-f2", "GE-f3"]}  # outnumbered: escorts in


def test_eto_2_2_battle_of_britain_scenario_with_strategic_warfare():
    """The Battle of Britain 1940 scenario (``strategic-warfare`` on): Bomber Command (range 14)
    reaches the Ruhr, so the Allies raid first (2.2); then half of the Luftwaffe's seven
    Kampfgeschwader raid Britain (the bot's RAID_SHARE keeps the rest for air offensives) and
    Fighter Command meets them."""
    import workbench as wb

    s = wb.load_scenario("eto/battle-of-britain-1940").new_state(seed=3)
    assert (s.decision.kind, s.decision.side) == ("strategic/bombing/raids/raid", "allies")
    assert bot.place(ctx(s))["target"] == "GE"
    s.apply({"kind": "end_step"})                      # the Allies decline this month
    assert (s.decision.kind, s.decision.side) == ("strategic/bombing/raids/raid", "axis")
    order = bot.place(ctx(s))
    assert order["target"] == "UK" and len(order["bombers"]) == -(-7 * int(bot.RAID_SHARE * 100) // 100) == 4
    s.apply(order)
    assert s.decision.kind == sb.ADD and s.decision.side == "allies"
    s.apply(bot.defend(ctx(s)))
    finish_raid(s)
    assert events(s, "air_battle")[-1]["data"]["hex"] == AXIS_BOX
    assert all(u.location in (AXIS_BOX, FORCE_POOL) for u in s.units_by_id.values() if u.props.get("sb_target"))
