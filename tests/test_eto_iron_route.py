"""ETO-6.0-6.2: interdicting the German iron route (Strategic Warfare phase, Step 5)."""

from __future__ import annotations

from pathlib import Path

from eto_kit import FixedDice, events, scenario_text, unit

from workbench.engine import load_scenario
from workbench.rulesets.eto import iron_route, politics

WAR = '''
[politics]
members = { GE = "axis", IT = "axis", UK = "western", FR = "western", PL = "western" }
fronts = [["axis", "western"]]
'''


def new_state(tmp_path: Path, units: list, politics_text: str = WAR, *faces: int):  # noqa: ANN201
    sw_axis = 'SW = "axis"' in politics_text  # Sweden listed with the side its partnership fights for
    text = scenario_text([unit("GE-1", "GE", "infantry", "03946"), *units], first="1940-06", last="1940-07",
                         west=True, options={"politics": True, "naval": True}, extra=politics_text,
                         tracks={"GE.eps": 20}, axis=("GE", "IT", "SW") if sw_axis else ("GE", "IT"),
                         allies=("UK", "FR", "NO") if sw_axis else ("UK", "FR", "NO", "SW"))
    path = tmp_path / "eto-iron.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    if faces:
        s.dice = FixedDice(*faces)
    return s


def test_eto_6_0_step_5_of_the_strategic_warfare_phase(tmp_path: Path) -> None:
    s = new_state(tmp_path, [])
    assert s.game.ruleset.procedures["strategic/iron-route"] is iron_route.interdiction_step


def test_eto_6_1_6_2_norway_an_unconquered_enemy_two_dice(tmp_path: Path) -> None:
    s = new_state(tmp_path, [], WAR.replace('PL = "western"', 'PL = "western", NO = "western"'), 3, 4)
    assert iron_route.conditions(s) == ["Norway is an unconquered enemy of the Axis"]
    iron_route.interdiction_step(s)
    assert s.tracks["GE.eps"] == 20 - 7
    roll = [e for e in events(s, "roll") if e["rule"] == "ETO-6.2"]
    assert [r["dice"] for r in roll] == [[3, 4]] and roll[0]["side"] == "allies"
    assert "loses 7 EPs (2d6)" in events(s, "iron_route")[0]["text"]


def test_eto_6_1_neutral_and_empty_scandinavia_interdicts_nothing(tmp_path: Path) -> None:
    s = new_state(tmp_path, [unit("UK-DD", "UK", "dd", "04630")], WAR, 6, 6)  # Oslo: south of Stockholm's row
    assert iron_route.conditions(s) == []
    iron_route.interdiction_step(s)
    assert s.tracks["GE.eps"] == 20 and not events(s, "iron_route")


def test_eto_6_1_an_allied_ship_on_the_coast_from_stockholm_to_narvik(tmp_path: Path) -> None:
    s = new_state(tmp_path, [unit("UK-DD", "UK", "dd", "05815")], WAR, 1, 1)  # Lulea
    assert s.map.hex_of("Lulea") == "05815"
    band = iron_route.route_hexes(s)
    for place in ("Stockholm", "Narvik", "Lulea", "Trondheim"):
        assert band[s.map.index(s.map.hex_of(place))], place
    assert not band[s.map.index(s.map.hex_of("Oslo"))]
    assert iron_route.conditions(s) == ["Allied naval units in 05815 on the route's coast"]
    iron_route.interdiction_step(s)
    assert s.tracks["GE.eps"] == 18


def test_eto_6_1_narvik_held_unless_the_axis_conquered_sweden(tmp_path: Path) -> None:
    narvik = "05209"
    s = new_state(tmp_path, [unit("UK-1", "UK", "infantry", narvik)], WAR, 2, 2)
    assert iron_route.conditions(s) == ["an Allied land unit holds Narvik"]
    s2 = new_state(tmp_path, [unit("UK-1", "UK", "infantry", narvik)],
                   WAR.replace('PL = "western"', 'PL = "western", SW = "western"'))
    politics.writable(s2).setdefault("conquered", {})["SW"] = "GE"
    assert iron_route.conditions(s2) == []  # Sweden conquered by the Axis: Narvik alone no longer counts


def test_eto_6_2_three_dice_when_the_allies_conquered_sweden(tmp_path: Path) -> None:
    sweden_allied = WAR.replace('PL = "western"', 'PL = "western", SW = "axis"')
    s = new_state(tmp_path, [], sweden_allied, 1, 2, 3)
    politics.writable(s).setdefault("conquered", {})["SW"] = "UK"
    assert iron_route.conditions(s) == ["Sweden was conquered by UK, an enemy of the Axis"]
    iron_route.interdiction_step(s)
    assert s.tracks["GE.eps"] == 20 - 6 and "(3d6)" in events(s, "iron_route")[0]["text"]
    # a supplied German unit in Sweden (Stockholm, a city) keeps it at two dice
    s2 = new_state(tmp_path, [unit("GE-2", "GE", "infantry", "05629")], sweden_allied, 1, 2, 3)
    politics.writable(s2).setdefault("conquered", {})["SW"] = "UK"
    iron_route.interdiction_step(s2)
    assert s2.tracks["GE.eps"] == 20 - 3
