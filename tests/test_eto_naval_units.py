"""ETO naval counters (7.0, 9.5, 10.1, 10.3, 11.0, 11.4): values, damage, sinking, STP stacks."""

from __future__ import annotations

from eto_kit import new_state, unit

from workbench.rulesets.eto import naval_units, values


def _state(tmp_path):  # noqa: ANN001, ANN202
    return new_state(tmp_path, [
        unit("UK-KGV", "UK", "bb", "North Sea", name="King George V"),
        unit("UK-DD1", "UK", "dd", "North Sea"),
        unit("UK-stp1", "UK", "stp", "North Sea", props={"points": 3}),
        unit("UK-stp2", "UK", "stp", "North Sea", props={"points": 1}),
        unit("UK-CV", "UK", "cv", "North Sea", name="Ark Royal"),
        unit("GE-SS", "GE", "ss", "North Sea"),
        unit("GE-inf", "GE", "infantry", "08640"),
    ], west=True, options={"naval": True})


def test_eto_9_5_damaged_side_values_apply_at_once(tmp_path):
    """9.5: a damaged unit "continues to function with the ratings shown on its damaged side",
    speed included.  The authored BB: 5/12/10 undamaged, 3/11/6 damaged."""
    s = _state(tmp_path)
    kgv = s.units_by_id["UK-KGV"]
    assert (naval_units.gunnery(s, kgv), naval_units.armor(s, kgv), naval_units.speed(s, kgv)) == (5, 12, 10)
    assert naval_units.damage(s, kgv, "ETO-9.5") is False
    assert (naval_units.gunnery(s, kgv), naval_units.armor(s, kgv), naval_units.speed(s, kgv)) == (3, 11, 6)


def test_eto_9_5_damaged_named_ship_hit_again_sinks_for_good(tmp_path):
    """9.5: a damaged unit hit again is sunk; a sunk named ship is permanently removed, a sunk
    squadron returns to the force pool."""
    s = _state(tmp_path)
    kgv, dd = s.units_by_id["UK-KGV"], s.units_by_id["UK-DD1"]
    naval_units.damage(s, kgv, "ETO-9.5")
    assert naval_units.damage(s, kgv, "ETO-9.5") is True
    assert kgv.location == values.PERMANENT and kgv.props["name"] == "King George V"
    naval_units.sink(s, dd, "ETO-9.5")
    assert dd.location == values.FORCE_POOL and dd.props["pool_of"] == "UK"
    assert s.markers["naval_losses"] == {"allies.BB": 1, "allies.DD": 1}


def test_eto_11_0_submarine_hit_is_sunk_no_damaged_side(tmp_path):
    """11.0: a hit on an SS sinks it (no damaged side); it goes to the force pool."""
    s = _state(tmp_path)
    ss = s.units_by_id["GE-SS"]
    assert naval_units.damage(s, ss, "ETO-11.0") is True and ss.location == values.FORCE_POOL


def test_eto_11_4_submarine_gunnery_only_against_named_ships(tmp_path):
    """11.4: an SS uses its gunnery (2 on the authored German SS) only against named ships;
    against squadrons and STPs it is 0."""
    s = _state(tmp_path)
    ss, u = s.units_by_id["GE-SS"], s.units_by_id
    assert naval_units.gunnery_against(s, ss, u["UK-KGV"]) == 2
    assert naval_units.gunnery_against(s, ss, u["UK-DD1"]) == 0
    assert naval_units.gunnery_against(s, ss, u["UK-stp1"]) == 0


def test_eto_9_0_carriers_and_stps_have_no_gunnery(tmp_path):
    """9.0/10.0: only units with a gunnery rating (0 or more) attack; CVs and STPs have none."""
    s = _state(tmp_path)
    assert naval_units.gunnery(s, s.units_by_id["UK-CV"]) is None
    assert naval_units.gunnery(s, s.units_by_id["UK-stp1"]) is None
    assert naval_units.gunnery(s, s.units_by_id["UK-DD1"]) == 1


def test_eto_10_3_stp_markers_in_a_stack_are_one_naval_unit(tmp_path):
    """10.3: "Any number of STP markers in a stack count as 1 naval unit for all purposes": the
    North Sea stack of BB, DD, CV, two STP markers (4 STPs) and an SS counts 5 units."""
    s = _state(tmp_path)
    ships = naval_units.naval_units(s, at="North Sea")
    assert len(ships) == 6 and naval_units.unit_count(s, ships) == 5
    assert sum(naval_units.stp_points(u) for u in ships if naval_units.is_stp(s, u)) == 4
    assert not any(values.is_land_unit(s, u) for u in ships)
