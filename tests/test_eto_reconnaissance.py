"""Air reconnaissance and the side views (ETO-12.7).

The eastern test front of eto_kit with the air rules on: a German stack of two at 08640, Soviet
fighters either next to it (08742) or far away in Moscow.
"""

from __future__ import annotations

from eto_kit import new_state, scenario_text, unit

from workbench.engine import load_scenario
from workbench.engine.fog import SideView
from workbench.rulesets.eto import reconnaissance

STACK = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "armor", "08640"),
         unit("GE-c", "GE", "infantry", "08641")]


def test_eto_12_7_stacks_in_range_of_a_friendly_air_unit_are_examined(tmp_path):
    """12.7: "Air reconnaissance entitles a player to examine enemy stacks within range of any
    friendly air unit" -- the Soviet fighter next door sees both German units."""
    s = new_state(tmp_path, [*STACK, unit("SU-f", "SU", "fighter", "08742")], options={"air": True})
    assert reconnaissance.examinable(s, "allies")[s.map.index("08640")]
    v = s.ruleset.view(s, "allies")
    assert not isinstance(v, SideView) or not v.hidden_stacks
    assert {"GE-a", "GE-b"} <= set(v.units_by_id)


def test_eto_12_7_out_of_range_only_the_top_unit_is_seen(tmp_path):
    """12.7: "If air reconnaissance of a hex is not possible, then enemy units in that hex cannot be
    examined beyond the top unit" -- with the Soviet air in Moscow, the stack shows GE-a and one
    hidden unit; a lone unit (08641) is its own top unit."""
    s = new_state(tmp_path, [*STACK, unit("SU-f", "SU", "fighter", "Moscow")], options={"air": True})
    assert not reconnaissance.examinable(s, "allies")[s.map.index("08640")]
    v = s.ruleset.view(s, "allies")
    assert isinstance(v, SideView)
    assert v.hidden_stacks == {"08640": 1} and v.hidden_hexes == ["08640"]
    assert "GE-a" in v.units_by_id and "GE-b" not in v.units_by_id and "GE-c" in v.units_by_id
    row = v.units().filter(v.units()["id"] == "?08640").to_dicts()[0]
    assert row["type"] == "stack of 1" and row["side"] == "axis"
    assert s.ruleset.view(s, "axis") is s            # the Germans see the lone fighter whole


def test_eto_12_7_grounded_weather_prevents_reconnaissance(tmp_path):
    """12.7: "Air reconnaissance of a hex is not permitted if weather conditions prohibit air
    operations over a hex or ground all air units within range of the hex" (1.4)."""
    s = new_state(tmp_path, [*STACK, unit("SU-f", "SU", "fighter", "08742")], options={"air": True})
    s.tracks["grounded.severe"] = 1
    s.emit("weather", rule="ETO-1.4", text="test: the severe zone is grounded")
    assert not reconnaissance.examinable(s, "allies")[s.map.index("08640")]
    assert s.ruleset.view(s, "allies").hidden_stacks == {"08640": 1}


def test_eto_12_7_no_reconnaissance_in_seasonal_turns(tmp_path):
    """12.7: "Air reconnaissance is not allowed during seasonal turns"."""
    text = scenario_text([*STACK, unit("SU-f", "SU", "fighter", "08742")], first="1941-06", last="1941-08",
                         options={"air": True}).replace('last_turn = "1941-08"',
                                                        'last_turn = "1941-08"\nseasonal_turns = ["1941-summer"]')
    path = tmp_path / "eto-seasonal.toml"
    path.write_text(text)
    s = load_scenario(path).new_state(seed=1)
    for _ in range(400):
        if s.turn_label == "1941-summer":
            break
        s.apply({"kind": "end_step"} if "end_step" in s.decision.kinds else
                {"kind": "pass"} if "pass" in s.decision.kinds else s.legal_orders()[0])
    assert s.turn_label == "1941-summer"
    assert not reconnaissance.examinable(s, "allies").any()
    assert s.ruleset.view(s, "allies").hidden_stacks == {"08640": 1}


def test_eto_12_7_without_the_air_rules_every_stack_is_examined(tmp_path):
    """Ruling R1: a game played without the air rules abstracts reconnaissance with the air war."""
    s = new_state(tmp_path, [*STACK, unit("SU-a", "SU", "infantry", "Moscow")])
    assert reconnaissance.examinable(s, "allies").all()
    assert s.ruleset.view(s, "allies") is s
