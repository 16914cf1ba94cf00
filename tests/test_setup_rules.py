"""Set-up rules the workbench's set-up panel enforces (ruleset.setup_breaches), and the
off-map boxes and sea areas of the map view."""

from __future__ import annotations

import copy

import pytest
from eto_kit import make_game, unit

from workbench.engine import load_scenario
from workbench.engine.scenario import scenario_ids
from workbench.ui.mapview import MapView
from workbench.ui.setup import Draft, SetupError


@pytest.fixture(scope="module")
def valor():
    return load_scenario("ssa/valor-of-ignorance")


@pytest.mark.slow
@pytest.mark.parametrize("sid", scenario_ids())
def test_every_shipped_scenario_breaks_no_setup_rule(sid):
    state = load_scenario(sid).new_state(1)
    assert state.ruleset.setup_breaches(state) == []


def test_ssa_sc0_sr6_panama_canal_hexes_open_to_both_sides(valor):
    """SC0 SR6: Panama is neutral, but both players may enter its two canal hexes."""
    state = valor.new_state(1)
    hm = state.map
    canal = [hm.index(h) for h in hm.area("Panama Canal")]
    assert len(canal) == 2 and not state.arrays["neutral"][canal].any()
    panama = hm.hexes["country"].to_numpy() == "Panama"
    assert state.arrays["neutral"][panama].sum() == panama.sum() - 2
    assert state.unit("US-ca-p").location in hm.area("Panama Canal")


def test_ssa_sc_4_setup_refuses_a_unit_outside_its_deployment_group(valor):
    """SC0 Allied deployment 1: the west-coast group sets up on west coast hexes of the U.S."""
    draft = Draft(valor, 1)
    raw = copy.deepcopy(draft.raw)
    state = valor.new_state(1)
    ny = state.map.hex_of("New York")
    la = state.map.hex_of("Los Angeles")
    draft.unit(raw, "US-mot-w-1")["at"] = ny
    with pytest.raises(SetupError) as exc:
        draft.trial(raw)
    assert exc.value.rule == "SSA-SC.4" and "west-coast" in exc.value.why
    draft.designer = True
    state, breaches = draft.trial(raw)
    assert state.unit("US-mot-w-1").location == ny
    assert [r for r, _ in breaches] == ["SSA-SC.4"]
    draft.designer = False
    ok = copy.deepcopy(draft.raw)
    draft.unit(ok, "US-mot-w-1")["at"] = la  # inside the group's area: taken
    state, breaches = draft.trial(ok)
    assert breaches == [] and state.unit("US-mot-w-1").location == la


def test_ssa_17_1_an_added_unit_may_not_set_up_in_enemy_controlled_territory(valor):
    draft = Draft(valor, 1)
    raw = copy.deepcopy(draft.raw)
    state = valor.new_state(1)
    raw["units"].append({"id": "JA-inf-x", "nation": "JA", "type": "infantry_division",
                         "at": state.map.hex_of("Denver")})
    with pytest.raises(SetupError) as exc:
        draft.trial(raw)
    assert exc.value.rule == "SSA-17.1"


def test_ssa_9_1_underground_partisans_set_up_at_most_three_a_hex():
    """Resistance: 20 partisans 'may set up on any hex'; underground, 3 a hex at most (9.1)."""
    state = load_scenario("ssa/resistance").new_state(1)
    counts: dict[str, int] = {}
    for u in state.units_by_id.values():
        if u.props.get("underground") and u.location.isdigit():
            counts[u.location] = counts.get(u.location, 0) + 1
    limit = state.ruleset.tables["stacking"]["land"]["partisan_underground_extra_limit"]
    assert limit == 3 and counts and max(counts.values()) <= 3


def test_eto_24_4_and_24_2_setup_breaches(tmp_path):
    ge = [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640")]
    game = make_game(tmp_path, ge)
    draft = Draft(game, 1)
    assert draft.trial(copy.deepcopy(draft.raw))[1] == []
    raw = copy.deepcopy(draft.raw)
    raw["units"].append(unit("GE-c", "GE", "infantry", "08640"))  # a third land unit: limit 2
    with pytest.raises(SetupError) as exc:
        draft.trial(raw)
    assert exc.value.rule == "ETO-24.2" and "limit 2" in exc.value.why
    moscow = game.new_state(1).map.hex_of("Moscow")
    raw = copy.deepcopy(draft.raw)
    draft.unit(raw, "GE-a")["at"] = moscow
    with pytest.raises(SetupError) as exc:
        draft.trial(raw)
    assert exc.value.rule == "ETO-24.4" and moscow in exc.value.why


def test_map_draws_boxes_and_sea_areas_and_a_tap_in_a_box_names_it(valor):
    state = valor.new_state(1)
    view = MapView(state, interactive=False)
    assert set(view.boxes) == {"Europe", "Latin America", "Pacific", "Far East"}
    # the boxes hang off the map edge nearest what they link to
    assert view.boxes["Europe"].edge == "east" and view.boxes["Pacific"].edge == "west"
    assert view.box_source.data["name"] == list(view.boxes)
    assert set(view.sea_label_source.data["name"]) == {"Atlantic Ocean", "Pacific Ocean"}
    spot = view.boxes["Pacific"]
    assert view.hex_at(spot.x, spot.y) == "Pacific"
    in_box = [c for c in view.counters if c.hex == "Pacific"]
    assert in_box and len(in_box[0].units) == len(state.units_at("Pacific"))
    view.set_overlay("reach", ["Pacific", state.map.label(0)], "#ffd400")
    k = view.box_source.data["name"].index("Pacific")
    assert view.box_source.data["fill"][k] == "#ffd400"
    assert view.overlay_hexes("reach") == [state.map.label(0), "Pacific"]
    view.set_overlay("reach", [])
    assert view.box_source.data["fill"][k] != "#ffd400"
