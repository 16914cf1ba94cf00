"""Shared fixtures: the toy map and ruleset, registered once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest
from kit import TOY_SCENARIO, ToyRuleset, build_testland

from workbench.engine import load_scenario, register_ruleset
from workbench.map import HexMap, load_map

register_ruleset(ToyRuleset())


@pytest.fixture(scope="session")
def testland_dir(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("maps") / "testland"
    build_testland(path)
    return str(path)


@pytest.fixture(scope="session")
def testland(testland_dir) -> HexMap:
    return load_map(testland_dir)


@pytest.fixture(scope="session")
def toy_scenario_file(tmp_path_factory, testland_dir) -> Path:
    path = tmp_path_factory.mktemp("scen") / "skirmish.toml"
    path.write_text(TOY_SCENARIO.format(map=testland_dir))
    return path


@pytest.fixture(scope="session")
def toy_game(toy_scenario_file):
    return load_scenario(toy_scenario_file)


@pytest.fixture
def toy_state(toy_game):
    return toy_game.new_state(seed=7)


@pytest.fixture(scope="session")
def ssa_map_dir(tmp_path_factory) -> str:
    from ssa_kit import build_ssa_testmap, built_map_dir

    return built_map_dir(tmp_path_factory, "ssa-testland", build_ssa_testmap)


@pytest.fixture
def ssa_game(tmp_path, ssa_map_dir):
    """``ssa_game(units, **kw)`` loads a small SS Amerika scenario on the test map."""
    from ssa_kit import scenario_text

    def make(units, **kw):
        path = tmp_path / "ssa.toml"
        path.write_text(scenario_text(ssa_map_dir, units, **kw))
        return load_scenario(path)

    return make
