"""ETO-24.1 terrain effects on movement, on the europe map: each barrier refuses the step and says
which one it is (the marsh case is in test_eto_land.py)."""

from __future__ import annotations

from eto_kit import new_state, unit

from workbench.engine import Refusal
from workbench.rulesets.eto.movement import Walker


def _why(state, uid: str, to: str) -> Refusal | None:  # noqa: ANN001
    return Walker(state, state.unit(uid), "movement").why_not([state.map.index(to)])


def test_eto_24_1_all_sea_hex_and_switzerland_may_not_be_entered(tmp_path):
    """24.1: "All-sea hex: no entry"; "Switzerland: no entry"."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "04143"), unit("GE-b", "GE", "infantry", "04255")])
    why = _why(s, "GE-a", "04142")
    assert why.rule == "ETO-24.1" and "all-sea" in why.why
    why = _why(s, "GE-b", "04256")
    assert why.rule == "ETO-24.1" and "Switzerland" in why.why


def test_eto_24_1_all_sea_hexside_only_with_a_ferry(tmp_path):
    """24.1: "All-sea hexside: no crossing unless ferry" (05041|05142 has none; 09254|09354 has one)."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "05041"), unit("SU-a", "SU", "infantry", "09254")])
    why = _why(s, "GE-a", "05142")
    assert why.rule == "ETO-24.1" and "ferry" in why.why
    assert _why(s, "SU-a", "09354") is None


def test_eto_24_1_lake_hexside_crossed_only_when_frozen(tmp_path):
    """24.1 / 1.5: "Lake hexside: no crossing unless frozen" -- frozen in W weather in the severe zone."""
    summer = new_state(tmp_path, [unit("SU-a", "SU", "infantry", "06828")])
    why = _why(summer, "SU-a", "06829")
    assert why.rule == "ETO-24.1" and "lake" in why.why
    winter = new_state(tmp_path, [unit("SU-a", "SU", "infantry", "06828")], first="1942-01", last="1942-02")
    assert winter.tracks["weather"] == "W"
    assert _why(winter, "SU-a", "06829") is None


def test_eto_24_1_fortress_hexside_bars_the_enemy_but_not_the_owner(tmp_path):
    """24.1: "Fortress hexside: no effect on friendly units; enemy can't enter the fortified hex
    through it until captured" (the West Wall side 03848|03949)."""
    s = new_state(tmp_path, [unit("SU-a", "SU", "infantry", "03848"), unit("GE-a", "GE", "infantry", "03848")])
    why = _why(s, "SU-a", "03949")
    assert why is not None and why.rule == "ETO-24.1" and "fortress hexside" in why.why
    assert _why(s, "GE-a", "03949") is None


def test_eto_24_1_fortification_marker_bars_the_enemy_until_captured(tmp_path):
    """24.1: "Fortification marker: enemy can't enter hex until captured"; the owner may."""
    s = new_state(tmp_path, [unit("SU-a", "SU", "infantry", "07239"), unit("SU-b", "SU", "infantry", "07240"),
                             unit("GE-a", "GE", "infantry", "07139")])
    target = "07140"
    s.markers.setdefault("forts", {})[target] = {"kind": "fortification", "side": "allies"}
    why = _why(s, "GE-a", target)
    assert why is not None and why.rule == "ETO-24.1" and "fortification" in why.why


def test_eto_1_5_leningrad_and_archangel_icebound_in_w_weather_only(tmp_path):
    """1.5: "These effects occur during all W weather in the severe weather zone: Leningrad and
    Archangel are ice-bound and cannot be used as ports for any purposes"."""
    from workbench.rulesets.eto.weather import icebound_ports

    summer = new_state(tmp_path, [unit("SU-a", "SU", "infantry", "06828")])
    assert summer.tracks["weather"] != "W" and icebound_ports(summer) == set()
    winter = new_state(tmp_path, [unit("SU-a", "SU", "infantry", "06828")], first="1942-01", last="1942-02")
    hm = winter.map
    assert winter.tracks["weather"] == "W"
    assert icebound_ports(winter) == {hm.hex_of("Leningrad"), hm.hex_of("Archangel")}
    assert hm.hex_of("Riga") not in icebound_ports(winter)  # Baltic ports further south stay open
