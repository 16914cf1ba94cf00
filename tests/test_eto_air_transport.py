"""ETO air transport with ATP markers (ETO-18.1-18.5) and air supply (ETO-32.6).

Channel front of August 1940 (eto_kit ``west``): Frankfurt 04351, Cologne 04149 (3 hexes),
Hamburg 04442 (9), Munich 04855 (7), Dover 03148.
"""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import rail

FRANKFURT, COLOGNE, HAMBURG, MUNICH, DOVER, BRUSSELS = "04351", "04149", "04442", "04855", "03148", "03649"


def axis_air_step(tmp_path, units, *faces, **kw):  # noqa: ANN001, ANN201
    s = new_state(tmp_path, units, *faces, first="1940-08", last="1940-09", west=True, options={"air": True}, **kw)
    step_to(s, "naval-air/sides/air-movement")
    assert s.decision.side == "axis"
    return s


def test_eto_18_2_atp_carries_a_paratroop_and_it_may_not_rail_this_turn(tmp_path):
    s = axis_air_step(tmp_path, [unit("GE-atp", "GE", "atp", FRANKFURT), unit("GE-p", "GE", "paratroop", FRANKFURT)])
    s.apply({"kind": "air_transport", "atps": ["GE-atp"], "cargo": ["GE-p"], "to": HAMBURG})
    p = s.unit("GE-p")
    assert p.location == HAMBURG and p.props["air_transported"] == s.turn_label
    assert not p.props.get("activated")                         # 18.3: not activated by the flight
    assert s.unit("GE-atp").props["atp_used"] == s.turn_label   # 18.5: no paradrop this turn
    assert p not in rail.RailOrder().movers(s)


def test_eto_18_2_trip_over_twelve_hexes_is_refused(tmp_path):
    s = axis_air_step(tmp_path, [unit("GE-atp", "GE", "atp", FRANKFURT), unit("GE-p", "GE", "paratroop", COLOGNE)])
    berlin = s.map.hex_of("Berlin")
    trip = s.map.distance(FRANKFURT, COLOGNE) + s.map.distance(COLOGNE, berlin)
    assert trip > 12 and s.map.distance(FRANKFURT, berlin) <= 12   # only the detour makes it too long
    why = s.check({"kind": "air_transport", "atps": ["GE-atp"], "cargo": ["GE-p"], "pickup": COLOGNE, "to": berlin})
    assert why is not None and why.rule == "ETO-18.2" and f"the trip is {trip} hexes" in why.why


def test_eto_18_3_full_infantry_splits_and_one_step_flies(tmp_path):
    s = axis_air_step(tmp_path, [unit("GE-atp", "GE", "atp", FRANKFURT), unit("GE-i", "GE", "infantry", FRANKFURT)],
                      extra='[[force_pool]]\nnation = "GE"\ntype = "infantry"\ncount = 1\n')
    twin = next(u for u in s.units_by_id.values() if u.location == "Force pool" and u.type == "infantry")
    s.apply({"kind": "air_transport", "atps": ["GE-atp"], "cargo": ["GE-i"], "to": MUNICH})
    gi = s.unit("GE-i")
    assert gi.location == MUNICH and gi.reduced                # flipped to its depleted side and flown
    assert twin.location == FRANKFURT and twin.reduced         # the step left behind, from the pool


def test_eto_18_4_a_general_alone_needs_an_atp_with_a_unit_rides_free(tmp_path):
    s = axis_air_step(tmp_path, [unit("GE-atp", "GE", "atp", FRANKFURT), unit("GE-p", "GE", "paratroop", FRANKFURT),
                                 unit("GE-g", "GE", "general", FRANKFURT, name="Guderian"),
                                 unit("GE-p2", "GE", "paratroop", FRANKFURT)])
    why = s.check({"kind": "air_transport", "atps": ["GE-atp"], "cargo": ["GE-p", "GE-p2"], "to": HAMBURG})
    assert why is not None and why.rule == "ETO-18.4" and "needs 2" in why.why
    s.apply({"kind": "air_transport", "atps": ["GE-atp"], "cargo": ["GE-p", "GE-g"], "to": HAMBURG})
    assert s.unit("GE-g").location == HAMBURG


def test_eto_18_3_armor_cannot_fly(tmp_path):
    s = axis_air_step(tmp_path, [unit("GE-atp", "GE", "atp", FRANKFURT), unit("GE-a", "GE", "armor", FRANKFURT)])
    with pytest.raises(IllegalOrder, match="ETO-18.3"):
        s.apply({"kind": "air_transport", "atps": ["GE-atp"], "cargo": ["GE-a"], "to": HAMBURG})


def test_eto_18_1_load_is_destroyed_with_its_atp(tmp_path):
    """A British fighter from Dover intercepts the loaded ATP as it nears Calais: target number
    4+3-0 = 7, a roll of 1 hits (15.7), and a one-point ATP marker hit is destroyed with the
    paratroop aboard."""
    s = axis_air_step(tmp_path, [unit("GE-atp", "GE", "atp", COLOGNE), unit("GE-p", "GE", "paratroop", COLOGNE),
                                 unit("UK-f", "UK", "fighter", DOVER)])
    s.dice = FixedDice(1, 6, 6, 6)
    target = "03248"   # Calais, one hex from Dover
    s.apply({"kind": "air_transport", "atps": ["GE-atp"], "cargo": ["GE-p"], "to": target})
    d = s.decision
    assert (d.kind, d.side) == ("air_intercept", "allies")
    s.apply({"kind": "intercept", "units": ["UK-f"]})
    s.apply({"kind": "pass"})
    assert s.unit("GE-atp").location == "Force pool"
    assert not s.unit("GE-p").location.isdigit()          # gone with its ATP, never landed
    assert not [e for e in events(s, "air_transport")]


def test_eto_32_6_air_supply_marker_lands_on_an_airbase_within_twelve(tmp_path):
    s = axis_air_step(tmp_path, [unit("GE-atp", "GE", "atp", FRANKFURT, points=2)])
    s.apply({"kind": "air_transport", "atps": ["GE-atp"], "supply": 1, "to": HAMBURG})
    m = s.markers["supply_markers"][HAMBURG]
    assert m["markers"] == 1 and m["air"] == 1 and m["side"] == "axis"
    with pytest.raises(IllegalOrder, match="ETO-32.6"):
        (tmp_path / "b").mkdir()
        s2 = axis_air_step(tmp_path / "b", [unit("GE-atp", "GE", "atp", FRANKFURT)])
        s2.apply({"kind": "air_transport", "atps": ["GE-atp"], "supply": 1, "to": "04250"})


# == paradrops flown by ATP markers (19.2, 18.1) ================================================
def _drop(tmp_path, faces):  # noqa: ANN001, ANN202
    """A German paratroop and ATP marker at 08538 drop on the Soviet 08740 next to the activated
    stack at 08640; a Soviet 2-3/1 fighter from 09039 intercepts the ATP over the target."""
    from eto_kit import begin_offensive

    from workbench.rulesets.eto import airbases

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("SU-a", "SU", "infantry", "08740"),
                             unit("GE-p", "GE", "paratroop", "08538"), unit("GE-atp", "GE", "atp", "08538"),
                             unit("SU-f", "SU", "fighter", "09039")], options={"air": True})
    assert airbases.is_friendly_base(s, "allies", "09039") and airbases.is_friendly_base(s, "axis", "08538")
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.dice = FixedDice(*faces)
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08740"})
    while s.decision.kind == "air_intercept":
        if s.unit("GE-atp").location == "08740" and not s.unit("SU-f").props.get("flight"):
            s.apply({"kind": "intercept", "units": ["SU-f"]})
        else:
            s.apply({"kind": "pass"})
    assert s.unit("SU-f").props.get("flight")          # it did intercept over the target
    step_to(s, "designate")
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a"]})
    step_to(s, "resolve")
    return s


def test_eto_19_2_aborted_atp_makes_no_drop(tmp_path):
    """Target number 2+1-0 = 3: a roll of 3 aborts the ATP (15.3), so the drop does not happen."""
    s = _drop(tmp_path, [3])
    assert s.unit("GE-atp").props.get("aborted") and s.unit("GE-atp").location == "08740"
    assert [e["data"]["unit"] for e in events(s, "paradrop_aborted")] == ["GE-p"]
    assert s.unit("GE-p").location == "08538"


def test_eto_18_1_paratroop_dies_with_its_destroyed_atp(tmp_path):
    """A roll of 1 hits (15.7): the one-point ATP marker is destroyed and the paratroop with it."""
    s = _drop(tmp_path, [1])
    assert s.unit("GE-atp").location == "Force pool"
    assert not s.unit("GE-p").location.isdigit()
    assert not events(s, "paradrop")


def test_eto_19_3_drop_on_an_unoccupied_enemy_hex_takes_it_without_attacking(tmp_path):
    """A paratroop dropping on the vacant Soviet 08741, next to the activated stack at 08640, makes
    the hex Axis-controlled and attacks nothing (19.3).  Die 5, adjacent to a friendly unit: 5 =
    undamaged (19.2)."""
    from eto_kit import begin_offensive

    from workbench.rulesets.eto.control import control

    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("SU-a", "SU", "infantry", "08740"),
                             unit("GE-p", "GE", "paratroop", "08538")])
    assert s.map.distance("08640", "08741") == 1 and control(s)[s.map.index("08741")] == 2
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "paradrop_move", "unit": "GE-p", "target": "08741"})
    s.dice = FixedDice(5)
    while any(f.get("node", "").startswith("attack-4A") for f in s.frames):
        s.apply({"kind": "end_step"})          # no designation: 4A-E resolves the drop
    p = s.unit("GE-p")
    assert p.location == "08741" and not p.reduced
    assert control(s)[s.map.index("08741")] == 1
    assert [e["data"]["hex"] for e in events(s, "paradrop_landed")] == ["08741"]
    assert not events(s, "combat")


def test_eto_32_4_an_air_supply_marker_supplies_one_unit_one_per_airbase(tmp_path):
    """32.4: "A supply marker can provide supply for up to four units during a turn. An air supply
    marker can supply one unit"; "One air supply marker can be placed in a hex for each airbase
    there" -- Hamburg (a city resource hex: two bases) takes two, which serve two units; a third is
    refused."""
    from workbench.rulesets.eto import airbases, supply

    s = axis_air_step(tmp_path, [unit("GE-atp", "GE", "atp", FRANKFURT, points=3)])
    assert airbases.capacity(s, HAMBURG) == 2
    with pytest.raises(IllegalOrder, match="ETO-32.4"):
        s.apply({"kind": "air_transport", "atps": ["GE-atp"], "supply": 3, "to": HAMBURG})
    s.apply({"kind": "air_transport", "atps": ["GE-atp"], "supply": 2, "to": HAMBURG})
    assert supply.capacity_left(s, HAMBURG) == 2
    s.markers["supply_markers"][HAMBURG]["markers"] += 1    # a sea-borne marker beside them: four more
    assert supply.capacity_left(s, HAMBURG) == 6
