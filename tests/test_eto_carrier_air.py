"""ETO carrier air at sea (13.1, 13.3, 13.4, 16.5): carrier air against carrier air, changes of
base to and from carriers, a carrier lost under its airborne air."""

from __future__ import annotations

from eto_kit import FixedDice, events, new_state, unit

from workbench.rulesets.eto import naval_combat
from workbench.rulesets.eto.naval_combat import Plan

SEA = "North Sea"


def _fleet(tmp_path, *extra, faces=()):  # noqa: ANN001, ANN202
    s = new_state(tmp_path, [
        unit("UK-CV", "UK", "cv", SEA, name="Ark Royal"),
        unit("UK-air", "UK", "naval_air", SEA, props={"carrier": "UK-CV"}),
        unit("GE-CV", "GE", "cv", SEA, name="Graf Zeppelin"),
        unit("GE-air", "GE", "naval_air", SEA, props={"carrier": "GE-CV"}), *extra,
    ], west=True, options={"naval": True, "air": True})
    if faces:
        s.dice = FixedDice(*faces)
    return s


def _sides(s):  # noqa: ANN001, ANN202
    return {"axis": [s.unit("GE-CV")], "allies": [s.unit("UK-CV")]}


def test_eto_16_5_carrier_air_flying_as_fighters_meets_the_enemy_strike_first(tmp_path):
    """16.5: "Carrier-based naval air units can attack enemy naval (or naval air) units ... The
    air-naval combat (or air-to-air combat) is resolved ... before any naval combat."  The British
    plan flies Ark Royal's air as a fighter: it attacks the German strike (a bomber, quality 0)
    before it reaches Ark Royal -- target number 2 + 1 - 0 = 3, die 1: aborted and depleted
    (15.7) -- so the German air makes no air-naval attack; the British air, flying as a fighter,
    attacks no ship either (12.1)."""
    s = _fleet(tmp_path, faces=(1,) + (6,) * 40)
    out = naval_combat.resolve(s, SEA, _sides(s), plans={"allies": Plan(air_roles={"UK-air": "fighter"})})
    fights = [e["data"] for e in events(s, "air_combat")]
    assert fights[0]["attacker"] == "UK-air" and fights[0]["target"] == "GE-air"
    assert (fights[0]["target_number"], fights[0]["die"]) == (3, 1)
    ge = s.unit("GE-air")
    assert ge.reduced and out["air"] == []
    assert not [e for e in events(s, "roll") if e["rule"] == "ETO-16.2"]
    assert ge.location == SEA and not ge.props.get("aborted")  # back on its carrier afterwards


def test_eto_16_5_by_default_both_carriers_air_strike_the_enemy_ships(tmp_path):
    """9.0/16.5 without an air-to-air plan: each side's carrier air flies as a bomber and attacks
    the enemy ships (two attacks each, 2 SP, +3 against a named ship); no air-to-air combat."""
    s = _fleet(tmp_path, faces=(1, 2) * 40)
    out = naval_combat.resolve(s, SEA, _sides(s))
    assert not events(s, "air_combat")
    assert sorted(r["bomber"] for r in out["air"]) == ["GE-air", "UK-air"]
    assert len([e for e in events(s, "roll") if e["rule"] == "ETO-16.2"]) == 4


def test_eto_16_5_an_air_role_must_be_fighter_or_bomber(tmp_path):
    from workbench.rulesets.eto.naval_combat import plan_why_not

    why = plan_why_not({"air_roles": {"UK-air": "escort"}}, ["UK-CV"])
    assert why is not None and why.rule == "ETO-16.5"
    assert plan_why_not({"air_roles": {"UK-air": "fighter"}}, ["UK-CV"]) is None
