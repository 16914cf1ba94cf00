"""Naval transport in the Movement and Offensive phases (ETO-30.5, with 10.5's debarking).

The Channel coast (eto_kit ``west``): Southampton 02748 and Dover 03148 are British ports; the
eastern front's 08640/08740 for the offensive."""

from __future__ import annotations

import pytest
from eto_kit import begin_offensive, events, new_state, step_to, unit

from workbench.engine.errors import IllegalOrder
from workbench.rulesets.eto import air_missions, sea_transport

SOUTHAMPTON, DOVER = "02748", "03148"


def _channel(tmp_path, *extra):  # noqa: ANN001, ANN202
    units = [unit("UK-inf1", "UK", "infantry", SOUTHAMPTON), unit("UK-inf2", "UK", "infantry", SOUTHAMPTON),
             unit("UK-f", "UK", "fighter", SOUTHAMPTON),
             unit("UK-stp", "UK", "stp", SOUTHAMPTON, props={"points": 4, "in_port": True}),
             unit("GE-inf", "GE", "infantry", "04641"), *extra]
    return new_state(tmp_path, units, west=True, options={"naval": True, "air": True})


def _allied_movement(s):  # noqa: ANN001, ANN202
    step_to(s, "movement/move")
    if s.decision.side != "allies":
        s.apply({"kind": "end_step"})
    assert (s.step.key, s.decision.side) == ("movement/move", "allies")
    return s


def test_eto_30_5_land_and_air_units_debark_in_the_movement_phase(tmp_path):
    """30.5: "Transported land and air units can debark during the Movement phase, subject to
    10.5."  The STP carries an infantry corps and a fighter from Southampton to Dover: in the
    Movement phase both are offered a debark; the infantry lands and may still move one hex (a
    friendly port free of enemy ZOC); the fighter lands on Dover's base even with air grounded
    ("Weather conditions do not effect air units' ability to debark") and "cannot move from that
    port for the duration of the turn"."""
    s = _channel(tmp_path)
    stp, inf, f = (s.unit(i) for i in ("UK-stp", "UK-inf1", "UK-f"))
    sea_transport.embark(s, [stp], [inf, f], "transport")
    stp.location = DOVER
    _allied_movement(s)
    s.tracks["grounded.moderate"] = s.tracks["grounded.severe"] = True
    legal = [o for o in s.legal_orders() if o["kind"] == "debark"]
    assert {"kind": "debark", "units": ["UK-inf1"]} in legal and {"kind": "debark", "units": ["UK-f"]} in legal
    s.apply({"kind": "debark", "units": ["UK-inf1", "UK-f"]})
    assert inf.location == DOVER and f.location == DOVER and not sea_transport.is_aboard(f)
    assert [e["rule"] for e in events(s, "debarked")] == ["ETO-10.5", "ETO-10.5"]
    moves = [o for o in s.legal_orders() if o["kind"] == "move" and o["unit"] == "UK-inf1"]
    assert moves and all(len(o["path"]) == 1 for o in moves)
    why = air_missions.unit_why_not(s, "allies", f, "change_base")
    assert why is not None and why.rule == "ETO-10.5"


def test_eto_30_5_units_activated_this_turn_do_not_debark_in_the_movement_phase(tmp_path):
    """Part 7 / 10.5: "Transported land units not activated for an offensive can debark during the
    Movement phase"; one activated this turn that stayed aboard waits for the End phase (a port:
    Dover)."""
    s = _channel(tmp_path)
    stp, inf1, inf2 = (s.unit(i) for i in ("UK-stp", "UK-inf1", "UK-inf2"))
    sea_transport.embark(s, [stp], [inf1, inf2], "transport")
    stp.location = DOVER
    _allied_movement(s)
    inf2.props["activated"] = True  # activated in one of this turn's offensives, stayed aboard
    legal = [o for o in s.legal_orders() if o["kind"] == "debark"]
    assert legal == [{"kind": "debark", "units": ["UK-inf1"]}]
    with pytest.raises(IllegalOrder) as exc:
        s.apply({"kind": "debark", "units": ["UK-inf2"]})
    assert exc.value.rule == "ETO-30.5" and "End phase" in exc.value.why
    assert sea_transport.debark_why_not(s, inf2, "end") is None


def test_eto_10_5_units_that_debark_and_attack_do_not_advance_after_combat(tmp_path):
    """10.5 (the Offensive context of 30.5): "Debarking units can participate in regular attacks
    ... Units that debark and attack in the same Offensive phase cannot advance after combat."
    GE-a (marked as landed this Offensive phase) and GE-b attack 08740 at 4:1; die 4, D2: the
    defender loses a step and retreats; only GE-b is offered the advance."""
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08640"), unit("GE-b", "GE", "infantry", "08640"),
                             unit("SU-a", "SU", "infantry", "08740")], 4)
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    s.unit("GE-a").props["debarked"] = s.turn_label  # it came ashore at 08640 this phase
    step_to(s, "offensive/combat")
    s.apply({"kind": "attack"})
    s.apply({"kind": "designate", "target": "08740", "attackers": ["GE-a", "GE-b"]})
    step_to(s, "resolve")
    s.apply({"kind": "resolve", "target": "08740"})
    assert events(s, "combat")[-1]["data"]["result"] == "D2"
    s.apply({"kind": "take_losses", "units": ["SU-a"]})
    s.apply(s.legal_orders()[0])  # the retreat
    assert s.decision.kind == "advance"
    movers = {u for o in s.legal_orders() for u in o["units"]}
    assert movers == {"GE-b"}
    with pytest.raises(IllegalOrder, match="ETO-27.4"):
        s.apply({"kind": "advance", "units": ["GE-a"], "to": "08740"})


def test_eto_10_5_debarking_units_make_no_breakthrough_or_exploitation_attack(tmp_path):
    """10.5: "Debarking units can participate in regular attacks (but not breakthrough or
    exploitation attacks)"."""
    from workbench.rulesets.eto import combat, command

    s = new_state(tmp_path, [unit("GE-a", "GE", "armor", "08640"), unit("SU-a", "SU", "infantry", "08740")])
    begin_offensive(s)
    s.apply({"kind": "activate", "mode": "stack", "hex": "08640"})
    a = s.unit("GE-a")
    a.props["debarked"] = s.turn_label
    assert command.attacks_left(s, "breakthrough") > 0
    assert combat.target_why_not(s, "axis", "08740", [a], "combat") is None
    for mode in ("breakthrough", "exploitation"):
        why = combat.target_why_not(s, "axis", "08740", [a], mode)
        assert why is not None and why.rule == "ETO-10.5" and mode in why.why
    a.props.pop("debarked")
    assert combat.target_why_not(s, "axis", "08740", [a], "breakthrough") is None
