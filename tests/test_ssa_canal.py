"""SS Amerika Panama Canal transit (SSA-7.5a-c) on tests/ssa_kit.py build_ssa_canal_map: the
western sea (columns 01-02 and row 12 west of 0812) and a south-eastern sea (row 12 east of 0912,
1409-1411) meet only at the canal hexside between 0812 and 0912, two US hexes."""

from __future__ import annotations

import numpy as np
import pytest
from ssa_kit import NO_SUPPLY_MOVEMENT_PENALTY, build_ssa_canal_map, built_map_dir, scenario_text
from test_ssa_movement import to_step

from workbench.engine import IllegalOrder, load_scenario


@pytest.fixture(scope="module")
def canal_map_dir(tmp_path_factory) -> str:
    return built_map_dir(tmp_path_factory, "ssa-canalland", build_ssa_canal_map)


@pytest.fixture
def canal_phase(tmp_path, canal_map_dir):
    def make(units, side):
        path = tmp_path / "canal.toml"
        path.write_text(scenario_text(canal_map_dir, units, extra=NO_SUPPLY_MOVEMENT_PENALTY))
        return to_step(load_scenario(path).new_state(seed=1), "player/initial-movement", side)

    return make


def fleet(uid, nation, at):
    return {"id": uid, "nation": nation, "type": "battle_fleet", "at": at}


def test_ssa_7_5a_only_the_side_controlling_both_canal_hexes_transits(canal_phase):
    s = canal_phase([fleet("GE-bb", "GE", "0612")], "axis")
    assert "1112" not in s.ruleset.order_kinds["sail"].destinations(s, s.unit("GE-bb"))
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "unit": "GE-bb", "to": "1112"})
    assert exc.value.rule == "SSA-7.5a" and "both canal hexes" in exc.value.why
    s = canal_phase([fleet("US-bb", "US", "0612")], "allies")
    assert "1112" in s.ruleset.order_kinds["sail"].destinations(s, s.unit("US-bb"))  # US-held canal


def test_ssa_7_5a_land_units_passing_through_both_hexes_take_control(canal_phase):
    inf = {"id": "GE-inf", "nation": "GE", "type": "infantry_division", "at": "0811"}
    s = canal_phase([fleet("GE-bb", "GE", "0612"), inf], "axis")
    s.apply({"kind": "move", "unit": "GE-inf", "path": ["0812", "0912"]})  # the last to pass through both
    s.apply({"kind": "sail", "unit": "GE-bb", "to": "1112"})
    assert s.unit("GE-bb").location == "1112"


def test_ssa_7_5b_no_enemy_fleet_in_the_hex_beyond(canal_phase):
    s = canal_phase([fleet("US-bb", "US", "0612"), fleet("GE-bb", "GE", "0912")], "allies")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "unit": "US-bb", "to": "1112"})
    assert exc.value.rule == "SSA-7.5b"


def test_ssa_7_5c_keep_sailing_after_the_canal_unless_it_is_bombed(canal_phase):
    s = canal_phase([fleet("US-bb", "US", "0612")], "allies")
    assert "1409" in s.ruleset.order_kinds["sail"].destinations(s, s.unit("US-bb"))  # on through the ocean
    s.arrays["bombed"] = np.zeros(s.map.size, dtype=bool)
    s.arrays["bombed"][s.map.index("0812")] = True  # a strategic bombing marker closes it (SSA-12.3a)
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "sail", "unit": "US-bb", "to": "1409"})
    assert exc.value.rule == "SSA-7.5a"
    s.arrays["bombed"] = np.zeros(s.map.size, dtype=bool)
    s.apply({"kind": "sail", "unit": "US-bb", "to": "1409"})
    assert s.unit("US-bb").location == "1409"


def test_ssa_20_2_a_bombed_canal_still_scores_half_for_the_allies(tmp_path, canal_map_dir):
    """SSA-20.1a "Control Panama Canal: 5"; 20.2: a bombed item counts "one half their value (round
    fractions up)" -- 3, not 0: bombing closes the canal to ships (12.3a) but the Allies still hold it."""
    from workbench.rulesets.ssa.victory import victory_points

    path = tmp_path / "canal.toml"
    path.write_text(scenario_text(canal_map_dir, [{"id": "US-inf", "nation": "US", "type": "infantry_division",
                                                   "at": "0505"}]))
    s = load_scenario(path).new_state(seed=1)
    whole = victory_points(s)["allies"]
    s.arrays["bombed"] = np.zeros(s.map.size, dtype=bool)
    s.arrays["bombed"][s.map.index("0812")] = True
    assert victory_points(s)["allies"] == whole - 5 + 3
