"""ETO-34.4 repair attempts in the End phase Replenishment step."""

from __future__ import annotations

import pytest
from eto_kit import FixedDice, events, new_state, step_to, unit

from workbench.engine import IllegalOrder


def _at_replenishment(tmp_path, *faces):  # noqa: ANN001, ANN202
    s = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "06345"), unit("SU-a", "SU", "infantry", "09648")],
                  first="1941-07", last="1941-09", tracks={"GE.eps": 5, "GE.reserve": 0})
    s.markers["destroyed"] = {"06345": {"kind": "fortification", "side": "axis", "turn": "1941-06"}}
    s.dice = FixedDice(*faces)
    step_to(s, "end/replenishment", limit=120)
    while s.decision.side != "axis":
        s.apply({"kind": "end_step"})
    return s


def test_eto_34_4_attempt_costs_two_eps_and_succeeds_on_4_to_6(tmp_path):
    """34.4: "The cost of a repair attempt is 2 EPs. After paying ... the player rolls a die ...
    On a 4-6 it is repaired; on a 1-3, it remains destroyed."  Die 3 fails (EPs spent), and the
    installation may not be tried again this turn; next turn die 4 repairs it."""
    s = _at_replenishment(tmp_path, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    order = {"kind": "repair", "hex": "06345", "nation": "GE"}
    assert order in s.legal_orders()
    eps = s.tracks["GE.eps"]
    s.apply(order)
    assert s.tracks["GE.eps"] == eps - 2
    assert "06345" in s.markers["destroyed"]
    roll = events(s, "roll")[-1]
    assert (roll["rule"], roll["dice"]) == ("ETO-34.4", [3])
    assert events(s, "repair_failed")[-1]["rule"] == "ETO-34.4"
    with pytest.raises(IllegalOrder) as e:
        s.apply(order)
    assert e.value.rule == "ETO-34.4" and "already" in e.value.why
    s.apply({"kind": "end_step"})
    while not (s.turn_label == "1941-08" and s.step.key == "end/replenishment" and s.decision.side == "axis"):
        s.apply({"kind": "end_step"} if "end_step" in s.decision.kinds else {"kind": "pass"})
    s.apply(order)
    assert "06345" not in s.markers["destroyed"]
    assert s.markers["forts"]["06345"] == {"side": "axis", "kind": "fortification"}
    assert events(s, "installation_repaired")[-1]["rule"] == "ETO-34.4"


def test_eto_34_4_no_deficit_and_only_friendly_hexes(tmp_path):
    """34.4 paid "from economic reserve or the EP track" (no deficit, 37.1); the enemy's destroyed
    installation is not yours to repair."""
    s = _at_replenishment(tmp_path, 5)
    s.tracks["GE.eps"] = 1
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "repair", "hex": "06345", "nation": "GE"})
    assert e.value.rule == "ETO-37.1"
    s.tracks["GE.eps"] = 5
    s.markers["destroyed"]["09648"] = {"kind": "fortification", "side": "allies", "turn": "1941-06"}
    with pytest.raises(IllegalOrder) as e:
        s.apply({"kind": "repair", "hex": "09648", "nation": "GE"})
    assert e.value.rule == "ETO-34.4" and "friendly" in e.value.why
