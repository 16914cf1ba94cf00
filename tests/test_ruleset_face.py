"""The ruleset face: everything above workbench/rulesets/ asks the ruleset, never its name.

* ETO gets the attack planner (exact odds and expected losses), the control/supply/ZOC
  overlays and the charts that SS Amerika has;
* a third game living only in ``tests/toy_game/`` registers itself and gets the map, the
  planner, the charts and the bots with no change outside its folder;
* no module outside ``workbench/rulesets/`` tests a ruleset's name or imports a ruleset.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from eto_kit import begin_offensive, new_state, step_to, unit

from workbench.engine import load_scenario
from workbench.engine.face import Assessment
from workbench.engine.ruleset import get_ruleset, known_rulesets

ROOT = Path(__file__).resolve().parents[1] / "workbench"
GE2_SU1 = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
           unit("SU-a", "SU", "infantry", "08740")]


def _eto_designating(tmp_path, units=GE2_SU1):  # noqa: ANN001, ANN202
    s = new_state(tmp_path, units)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    assert s.decision.kind == "designate"
    return s


def test_eto_26_1_planner_prices_a_designation_exactly(tmp_path):
    """ETO-26.1/26.4 and 27.1 through the face: two German infantry (4 SP each) against one
    Soviet infantry (2 SP) is 8:2, the 4:1 column, no DRM in fair weather on clear terrain.
    The six faces read D1x, D1, D2x, D2, (D2), D3 on the 4:1 column, 1/6 each.  Steps: the
    attacker loses 1 on D1x and D2x (1/3 expected); the defender 1, 1, 2, 2, 0 ((D2) is a
    retreat), and D3 is capped at its 2 steps: 8/6 = 4/3 expected."""
    s = _eto_designating(tmp_path)
    before = s.digest()
    rs = s.ruleset
    assert rs.can_assess and rs.attack_kinds == ("designate",) and rs.rule_prefix == "ETO"
    a = rs.assess_attack(s, {"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    assert isinstance(a, Assessment)
    assert (a.attack, a.defense, a.column, a.odds_rule) == (8, 2, "4:1", "ETO-26.1")
    assert a.distribution == {r: Fraction(1, 6) for r in ("D1x", "D1", "D2x", "D2", "(D2)", "D3")}
    assert a.expected_losses == {"axis": pytest.approx(1 / 3), "allies": pytest.approx(4 / 3)}
    assert a.losses_by_result["D3"] == {"axis": 0.0, "allies": 2.0}
    assert [c[2] for c in a.contributions] == ["ETO-26.2"] * 3
    assert s.digest() == before  # pricing an attack rolls nothing and changes nothing


def test_eto_planner_in_the_workbench_shows_the_odds_and_designates(tmp_path):
    """The planner opens on ETO's designate step, shows 4:1 with sixths and expected losses,
    and committing designates the attack (resolved at 4A-F)."""
    from workbench.ui import Workbench

    s = _eto_designating(tmp_path)
    wb = Workbench(s)
    wb.planner.refresh()
    assert wb.planner.open_kind() == "designate"
    assert wb.planner.targets() == ["08740"]
    wb.planner.set_target("08740")
    a = wb.planner.assess()
    assert a is not None and a.column == "4:1"
    html = wb.planner.result.value
    assert "4:1" in html and "1/6" in html and "ETO-26.1" in html and "wb-expected" in html
    assert wb.planner.commit()
    assert s.markers["designations"][0]["target"] == "08740"


def test_eto_overlays_show_control_supply_and_enemy_zoc(tmp_path):
    """ETO-24.4 control, 32.0 supply and 25.0 ZOC as the map's overlays.  GE-c at 09042, deep
    in Soviet territory and ringed by Soviet units, cannot trace supply; the umpire sees both
    sides' ZOC, the Axis player only the Soviet ZOC."""
    units = [*GE2_SU1, unit("GE-c", "GE", "infantry", "09042"), unit("SU-b", "SU", "infantry", "08941"),
             unit("SU-c", "SU", "infantry", "09142"), unit("SU-d", "SU", "infantry", "09043")]
    s = new_state(tmp_path, units)
    hm = s.map
    i = {h: hm.index(h) for h in ("08640", "08740", "09042")}
    ump = s.ruleset.overlays(s, None)
    assert ump["control"][i["08640"]] == 1 and ump["control"][i["08740"]] == 2
    assert ump["supply"][i["09042"]] == 1 and ump["supply"][i["08640"]] == 0
    assert ump["zoc"][i["08640"]] == 2 and ump["zoc"][i["08740"]] == 1
    axis = s.ruleset.overlays(s, "axis")
    assert axis["zoc"][i["08740"]] == 0 and axis["zoc"][i["08640"]] == 2
    assert "GE-c" in s.ruleset.out_of_supply(s) and "GE-a" not in s.ruleset.out_of_supply(s)
    assert s.ruleset.unit_card(s, s.unit("GE-a")) == {"strength": "4", "movement": "2", "note": ""}


def test_eto_charts_fill_with_eps_losses_and_vp(tmp_path):
    """The Charts read ETO's metrics: EPs per nation, losses and the Axis VP from the first turn."""
    from workbench.ui.charts import Charts

    s = _eto_designating(tmp_path)
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    m = s.ruleset.metrics(s)
    from workbench.rulesets.eto.victory import axis_vp

    assert m.economy["GE.eps"] == float(s.tracks["GE.eps"]) and m.economy["SU.eps"] == float(s.tracks["SU.eps"])
    assert m.vp == {"axis": float(axis_vp(s)[0])} and set(m.losses) == {"axis", "allies"}
    c = Charts(s)
    assert "GE eps" in c.sources["economy"].data["name"]
    assert c.sources["vp"].data["name"] == ["axis vp"]
    assert c.notes["economy"].text == "" and c.notes["vp"].text == ""


def test_rulesets_are_found_by_folder_and_register_themselves():
    """Both shipped rulesets are found by their folders; a package outside workbench/ registers
    itself on import (``register_ruleset``)."""
    import toy_game

    assert {"ssa", "eto", "dicewar"} <= set(known_rulesets())
    assert get_ruleset("dicewar") is toy_game.RULESET
    assert get_ruleset("eto").rule_prefix == "ETO" and get_ruleset("ssa").rule_prefix == "SSA"


@pytest.fixture
def dicewar_state(tmp_path, testland_dir):
    import toy_game

    path = tmp_path / "border.toml"
    path.write_text(toy_game.SCENARIO.format(map=testland_dir))
    return load_scenario(path).new_state(seed=3)


def test_a_third_game_gets_the_map_planner_charts_and_bots(dicewar_state):
    """DW-4 (tests/toy_game): two armor (4 each) against one infantry (2) is 8:2, read on 3-1,
    where every face is DE.  The workbench draws its units, prices the attack with the planner,
    commits it, charts its EPs and VP, and its bots play it to the end -- all through the face."""
    from workbench.bots import play
    from workbench.bots.heuristic import make_policy
    from workbench.ui import Workbench
    from workbench.ui.charts import Charts

    s = dicewar_state
    wb = Workbench(s)
    assert sorted(set(wb.map.unit_source.data["hex"])) == ["0504", "0604"]
    wb.planner.refresh()
    assert wb.planner.targets() == ["0604"]
    wb.planner.set_target("0604")
    a = wb.planner.assess()
    assert (a.attack, a.defense, a.column, a.distribution) == (8, 2, "3-1", {"DE": Fraction(1)})
    assert "DW-4" in wb.planner.result.value
    assert wb.planner.commit()
    assert s.unit("SU-inf").location == "Eliminated" and s.tracks["axis.vp"] == 1
    c = Charts(s)
    assert set(c.sources["economy"].data["name"]) == {"GE eps", "SU eps"}
    assert c.sources["vp"].data["name"] == ["axis.vp"]
    assert c.sources["objectives"].data["name"] == ["allies", "axis"]
    pols = {side: make_policy("heuristic", s.ruleset, side, 1) for side in s.ruleset.sides}
    play(s, pols)
    assert s.is_over and s.tracks["GE.eps"] == 12


#: Name checks: a ruleset's name as a string literal, or an import of a ruleset's modules.
NAME_CHECK = re.compile(r"""["'](ssa|eto)["']|rulesets\.(ssa|eto)\b|rulesets/(ssa|eto)\b""")


def test_nothing_above_the_rulesets_names_a_ruleset():
    """Outside workbench/rulesets/ no module compares, branches on or imports a ruleset by name
    (the map builder, which builds each game's map from its sources, is not above the rulesets)."""
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(("rulesets/", "mapbuild/")):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if NAME_CHECK.search(line):
                offenders.append(f"workbench/{rel}:{n}: {line.strip()}")
    assert offenders == []


def test_face_defaults_for_a_ruleset_that_overrides_nothing(toy_state):
    """The engine's defaults: counters from the unit table, control from the state's array,
    no assessment, metrics from tracks and the log, no brain."""
    rs = toy_state.ruleset
    assert not rs.can_assess and rs.assess_attack(toy_state, {}) is None
    card = rs.unit_card(toy_state, toy_state.unit("GE-pz"))
    assert card == {"strength": "", "movement": "5", "note": ""}
    ov = rs.overlays(toy_state, None)
    assert set(ov) == {"control", "supply", "zoc"} and ov["supply"] is None
    m = rs.metrics(toy_state)
    assert m.losses == {"axis": 0, "allies": 0} and m.objective_value == {"axis": 0.0, "allies": 0.0}
    assert rs.brain("axis") is None and rs.crt_table() is None
    assert ov["control"] is None  # the toy keeps no control array
    toy_state.arrays["control"] = np.arange(toy_state.map.size, dtype=np.int8) % 3
    assert np.array_equal(rs.overlays(toy_state, None)["control"], np.arange(toy_state.map.size) % 3)


def test_ssa_3_3c_naval_counters_show_their_printed_factors():
    """Issue 26.6: naval counters showed 0.  A German battle fleet prints combat strength 7 and
    AA 4 (units.toml, the German row); reduced, the type's back: 4 and 2."""
    import workbench as wb

    s = wb.load_scenario("ssa/1941").new_state(0)
    bf = s.unit("GE-bf-1")
    assert s.ruleset.unit_card(s, bf)["strength"] == "7" and s.ruleset.unit_card(s, bf)["movement"] == "4"
    bf.reduced = True
    assert (s.ruleset.unit_card(s, bf)["strength"], s.ruleset.unit_card(s, bf)["movement"]) == ("4", "2")
