"""ETO naval air on carriers (13.3): what a CVE may carry, a sunk carrier's air, a damaged one's."""

from __future__ import annotations

from eto_kit import new_state, unit

from workbench.rulesets.eto import air_missions, carriers, naval_units, values


def _state(tmp_path):  # noqa: ANN001, ANN202
    return new_state(tmp_path, [
        unit("UK-CV", "UK", "cv", "North Sea", name="Ark Royal"),
        unit("UK-CVE", "UK", "cve", "North Sea"),
        unit("UK-air", "UK", "naval_air", "03246", props={"carrier": "UK-CV"}),
        unit("UK-air1", "UK", "naval_air_light", "03246"),
        unit("UK-air4", "UK", "naval_air", "03148"),
    ], west=True, options={"naval": True, "air": True})


def test_eto_13_3_a_cve_carries_only_one_sp_naval_air(tmp_path):
    """13.3: "CVE only naval air with 1 SP at full strength"; a CV one naval air unit."""
    s = _state(tmp_path)
    u = s.units_by_id
    assert carriers.may_base_why_not(s, u["UK-air1"], u["UK-CVE"]) is None
    assert "1 SP" in carriers.may_base_why_not(s, u["UK-air4"], u["UK-CVE"]).why
    assert "already carries" in carriers.may_base_why_not(s, u["UK-air4"], u["UK-CV"]).why


def test_eto_13_3_a_sunk_carrier_takes_its_air_to_the_force_pool(tmp_path):
    """13.3: "CV sunk with air aboard -> air eliminated to force pool"."""
    s = _state(tmp_path)
    naval_units.sink(s, s.units_by_id["UK-CV"], "ETO-9.5")
    assert s.units_by_id["UK-air"].location == values.FORCE_POOL


def test_eto_13_3_a_damaged_carriers_air_only_changes_base(tmp_path):
    """13.3: "CV damaged -> air may only change base"."""
    s = _state(tmp_path)
    air = s.units_by_id["UK-air"]
    assert carriers.mission_why_not(s, air, "attack_naval") is None
    naval_units.damage(s, s.units_by_id["UK-CV"], "ETO-9.5")
    r = carriers.mission_why_not(s, air, "attack_naval")
    assert r and r.rule == "ETO-13.3" and carriers.mission_why_not(s, air, "change_base") is None
    assert air_missions.unit_why_not(s, "allies", air, "attack_naval").rule == "ETO-13.3"
