"""Bad scenario files raise ScenarioError naming the file, the key and the problem in plain words."""

from __future__ import annotations

import pytest
from kit import TOY_SCENARIO

from workbench.engine import ScenarioError, load_scenario


@pytest.fixture
def write(tmp_path, testland_dir):
    def _write(text: str):
        path = tmp_path / "bad.toml"
        path.write_text(text.format(map=testland_dir) if "{map}" in text else text)
        return path

    return _write


def _expect(path, key, words):
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert exc.value.file == str(path)
    assert exc.value.key.startswith(key), exc.value.key
    assert words in exc.value.message, exc.value.message
    return exc.value


def test_good_toy_scenario_loads(write):
    game = load_scenario(write(TOY_SCENARIO))
    assert len(game.scenario.units) == 8


def test_missing_required_key(write):
    _expect(write(TOY_SCENARIO.replace('first_turn = "1941-06"\n', "")), "first_turn",
            "required key is missing")


def test_unknown_unit_type(write):
    _expect(write(TOY_SCENARIO.replace('type = "armor"', 'type = "zeppelin"')),
            "units[1] (GE-pz).type", "unknown unit type 'zeppelin' for the toy ruleset")


def test_unit_on_all_sea_hex(write):
    _expect(write(TOY_SCENARIO.replace('at = "Midtown"', 'at = "0105"')), "units[1] (GE-pz).at",
            "a land unit cannot be placed on hex 0105, which is sea")


def test_duplicate_unit_id(write):
    _expect(write(TOY_SCENARIO.replace('id = "GE-pz"', 'id = "GE-inf-2"')), "units[1] (GE-inf-2).id",
            "duplicate unit id 'GE-inf-2' (already used by units[0])")


def test_unknown_hex_label(write):
    _expect(write(TOY_SCENARIO.replace('at = "0504"', 'at = "9999"')), "units[0] (GE-inf).at",
            "unknown hex label '9999' on map testland")


def test_wrong_value_type(write):
    _expect(write(TOY_SCENARIO.replace('count = 2\n\n[[units]]\nid = "GE-pz"',
                                       'count = "two"\n\n[[units]]\nid = "GE-pz"')),
            "units[0] (GE-inf).count", "must be a whole number of at least 1, not 'two'")
    _expect(write(TOY_SCENARIO.replace('title = "Skirmish"', "title = 42")), "title",
            "must be a text string, not int 42")


def test_unknown_ruleset(write):
    _expect(write(TOY_SCENARIO.replace('ruleset = "toy"', 'ruleset = "chess"')), "ruleset",
            "unknown ruleset 'chess'; known: ")


def test_not_toml_at_all(write):
    _expect(write("id = [unclosed"), "(file)", "not valid TOML")


def test_unknown_place_and_nation(write):
    _expect(write(TOY_SCENARIO.replace('at = "Midtown"', 'at = "Atlantis"')), "units[1] (GE-pz).at",
            "'Atlantis' is no hex label, box, sea area or place on map testland")
    _expect(write(TOY_SCENARIO.replace('nation = "GE"\ntype = "armor"', 'nation = "XX"\ntype = "armor"')),
            "units[1] (GE-pz).nation", "nation 'XX' is on no side")


def test_bad_dates(write):
    _expect(write(TOY_SCENARIO.replace('last_turn = "1941-08"', 'last_turn = "1941-13"')),
            "last_turn", "must look like 1941-09")
    _expect(write(TOY_SCENARIO.replace('last_turn = "1941-08"', 'last_turn = "1940-01"')),
            "last_turn", "comes before first_turn")


def test_unknown_scenario_id_lists_known_ones():
    with pytest.raises(ScenarioError, match="no scenario file or id 'ssa/nope'"):
        load_scenario("ssa/nope")
