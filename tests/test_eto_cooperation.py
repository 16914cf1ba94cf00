"""Partners kept apart (ETO-42.4 French and British, 42.5 the Western Allies and the USSR).

The eastern test front of eto_kit with British and French units beside the Soviets: the three
partnerships are at war (the slice's start), so 42.5's restrictions are in force.  Hexes:
08740/08741/08742 Soviet-held clear, 08840-08842 behind them.
"""

from __future__ import annotations

import pytest
from eto_kit import begin_offensive, new_state, scenario_text, step_to, unit

from workbench.engine import IllegalOrder, load_scenario
from workbench.rulesets.eto import command, cooperation, stacking
from workbench.rulesets.eto.movement import Walker


def allied(tmp_path, units, **kw):  # noqa: ANN001, ANN201
    """The eastern front with the UK and France fighting beside the USSR."""
    path = tmp_path / "eto-coop.toml"
    path.write_text(scenario_text(units, **kw).replace('nations = ["SU"]', 'nations = ["SU", "UK", "FR"]'))
    return load_scenario(path).new_state(seed=1)


def allied_move(state):  # noqa: ANN001, ANN201
    step_to(state, "movement/move")
    if state.decision.side != "allies":
        state.apply({"kind": "end_step"})
    assert state.decision.side == "allies"
    return state


def test_eto_42_4_french_and_british_land_units_never_stack(tmp_path):
    """42.4: "Their land units cannot stack together on the ground (at the end of any step)" -- a
    French infantry may not end its move on a British one, though the stack would be in limits."""
    s = allied_move(allied(tmp_path, [unit("UK-a", "UK", "infantry", "08841"), unit("FR-a", "FR", "infantry", "08842")]))
    assert not stacking.fits(s, "08841", "allies", [s.unit("FR-a")])
    assert stacking.fits(s, "08841", "allies", [s.unit("UK-a")])
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "move", "unit": "FR-a", "path": ["08841"]})
    assert exc.value.rule == "ETO-42.4" and "stack together" in str(exc.value)
    assert {"kind": "move", "unit": "FR-a", "path": ["08841"]} not in s.legal_orders()
    s.apply({"kind": "move", "unit": "FR-a", "path": ["08942"]})   # elsewhere it moves as usual
    assert s.unit("FR-a").location == "08942"


def test_eto_42_4_a_british_hq_does_not_activate_french_units(tmp_path):
    """42.4: "French and British units cannot activate each other for offensives" -- the British HQ's
    radius holds a French and a British infantry; only the British one is eligible."""
    s = allied(tmp_path, [unit("UK-hq", "UK", "hq", "08842"), unit("UK-a", "UK", "infantry", "08841"),
                          unit("FR-a", "FR", "infantry", "08942")], tracks={"UK.offensives": 2})
    begin_offensive(s, "allies")
    s.apply({"kind": "activate_hq", "hqs": ["UK-hq"]})
    ids = [u.id for u in command.eligible_now(s)]
    assert "UK-a" in ids and "FR-a" not in ids
    why = cooperation.activation_why_not(s, s.unit("UK-hq"), s.unit("FR-a"))
    assert why is not None and why.rule == "ETO-42.4"


def test_eto_42_5_allied_partnerships_do_not_combine_offensives(tmp_path):
    """42.5: "the two partnerships cannot combine offensives" (23.6's combined offensive of two HQs)."""
    s = allied(tmp_path, [unit("UK-hq", "UK", "hq", "08842"), unit("SU-hq", "SU", "hq", "08942")],
               tracks={"UK.offensives": 2, "SU.offensives": 2, "UK.eps": 50, "SU.eps": 50})
    begin_offensive(s, "allies")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "activate_hq", "hqs": ["UK-hq", "SU-hq"]})
    assert exc.value.rule == "ETO-42.5"


def test_eto_42_5_soviet_units_never_enter_or_pass_through_western_allied_hexes(tmp_path):
    """42.5: Soviet and Western Allied units "cannot stack together at any time or even move through
    a hex occupied by the other" -- the British hex 08841 is closed to the Soviet infantry beside it,
    and the route through it is refused."""
    s = allied(tmp_path, [unit("UK-a", "UK", "infantry", "08841"), unit("SU-a", "SU", "infantry", "08941")])
    w = Walker(s, s.unit("SU-a"), "movement")
    assert s.map.index("08841") not in w.reach()
    why = w.why_not([s.map.index("08841"), s.map.index("08741")])
    assert why is not None
    assert not stacking.fits(s, "08841", "allies", [s.unit("SU-a")])


def test_eto_42_5_the_other_partnerships_zoc_stops_movement_as_an_enemys(tmp_path):
    """42.5: "The ZOCs of one partnership's units impede the movement of the other partnership's
    units exactly as enemy ZOCs" -- a Soviet infantry entering the British unit's ZOC must stop
    there (25.2); a British infantry passes the same hexes freely."""
    s = allied(tmp_path, [unit("UK-a", "UK", "infantry", "08841"), unit("SU-a", "SU", "infantry", "09041")])
    hm = s.map
    su = Walker(s, s.unit("SU-a"), "movement")
    why = su.why_not([hm.index("08941"), hm.index("08942")])   # 08941 is in the British ZOC
    assert why is not None and why.rule == "ETO-25.2"
    assert not Walker(s, s.unit("SU-a"), "retreat").ez[hm.index("08941")]   # retreats ignore it (42.5)
    s2 = allied(tmp_path, [unit("UK-a", "UK", "infantry", "08841"), unit("UK-b", "UK", "infantry", "09041")])
    uk = Walker(s2, s2.unit("UK-b"), "movement")
    assert uk.why_not([hm.index("08941"), hm.index("08942")]) is None


def test_eto_42_5_before_both_fight_the_axis_the_restrictions_wait(tmp_path):
    """42.5: "The following restrictions go into effect when both partnerships are at war with the
    Axis" -- with no Axis-Soviet front, the Soviet ZOC and hexes are not the British unit's concern
    here (politics keeps a neutral apart)."""
    extra = '[politics]\nmembers = {"GE" = "axis", "UK" = "western", "FR" = "western", "SU" = "soviet"}\n' \
            'fronts = [["axis", "western"]]\n'
    s = allied(tmp_path, [unit("UK-a", "UK", "infantry", "08841"), unit("SU-a", "SU", "infantry", "08941")],
               extra=extra)
    assert cooperation.others(s, s.unit("SU-a")) == []
    assert cooperation.closed_to(s, s.unit("SU-a")) is None


def test_eto_42_4_french_and_british_air_units_never_fly_together(tmp_path):
    """42.4: "French and British air units can never occupy the same hex when airborne, but they
    can occupy bases in the same hex" -- both base in London; one flight of the two is refused,
    each may fly alone."""
    london = "02948"
    s = new_state(tmp_path, [unit("UK-f1", "UK", "fighter", london), unit("FR-f1", "FR", "fighter", london)],
                  first="1940-08", last="1940-09", west=True, options={"air": True})
    step_to(s, "naval-air/sides/air-movement")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    birmingham = s.map.hex_of("Birmingham")
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "fly", "units": ["UK-f1", "FR-f1"], "mission": "change_base", "to": birmingham})
    assert exc.value.rule == "ETO-42.4"
    s.apply({"kind": "fly", "units": ["UK-f1"], "mission": "change_base", "to": birmingham})
    assert s.unit("UK-f1").location == birmingham


def test_eto_42_0_half_the_air_units_of_an_offensive_are_the_spenders(tmp_path):
    """42.0: "One offensive can activate land and air units from different partner nations (as long as
    half the land and half the air units belong to the nation spending the offensive)" -- a German
    offensive's ground support may take one Italian fighter beside one German, not two."""
    s = new_state(tmp_path, [unit("GE-f1", "GE", "fighter", "08640"), unit("IT-f1", "IT", "fighter", "08640"),
                             unit("IT-f2", "IT", "fighter", "08640")], options={"air": True})
    s.markers["offensive"] = {"side": "axis", "mode": "hq", "nation": "GE", "nations": ["GE"], "units": []}
    ge, it1, it2 = s.unit("GE-f1"), s.unit("IT-f1"), s.unit("IT-f2")
    assert command.air_half_why_not(s, "axis", [ge, it1]) is None
    why = command.air_half_why_not(s, "axis", [ge, it1, it2])
    assert why is not None and why.rule == "ETO-42.0" and "1 of 3" in why.why
    s.markers["offensive"]["air_units"] = ["GE-f1", "IT-f1"]
    assert command.air_half_why_not(s, "axis", [it2]) is not None       # counted over the whole offensive
    s.markers["offensive"]["mode"] = "minor"
    assert command.air_half_why_not(s, "axis", [it2]) is None           # 22.4's minor offensives are apart


def test_eto_22_4_a_majors_air_in_a_minor_offensive_costs_one_offensive(tmp_path):
    """22.4: "air units of one major partner can be committed for a minor country offensive; this
    requires the major power to pay for one offensive, though it is still considered a minor country
    offensive" -- Germany pays once, an Italian flight then is refused, and Germany needs an offensive
    left to pay."""
    s = new_state(tmp_path, [unit("GE-f1", "GE", "fighter", "08640"), unit("GE-f2", "GE", "fighter", "08640"),
                             unit("IT-f1", "IT", "fighter", "08640"), unit("RO-1", "RO", "infantry", "08640")],
                  options={"air": True}, tracks={"GE.offensives": 1})
    s.markers["offensive"] = {"side": "axis", "mode": "minor", "nation": "RO", "nations": ["RO"], "units": []}
    ge1, ge2, it1 = s.unit("GE-f1"), s.unit("GE-f2"), s.unit("IT-f1")
    assert command.minor_air_why_not(s, "axis", [ge1]) is None
    command.pay_minor_air(s, "axis", [ge1])
    assert s.tracks["GE.offensives"] == 0 and s.markers["offensive"]["major_air"] == "GE"
    assert command.minor_air_why_not(s, "axis", [ge2]) is None            # paid once for the offensive
    command.pay_minor_air(s, "axis", [ge2])
    assert s.tracks["GE.offensives"] == 0
    why = command.minor_air_why_not(s, "axis", [it1])
    assert why is not None and why.rule == "ETO-22.4" and "one major" in why.why
    s.markers["offensive"] = {"side": "axis", "mode": "minor", "nation": "RO", "nations": ["RO"], "units": []}
    why = command.minor_air_why_not(s, "axis", [ge1])
    assert why is not None and "has none left" in why.why
