"""ETO-41.0-41.4: minor countries: garrison, supply, income and their units."""

from __future__ import annotations

from pathlib import Path

from eto_kit import events, new_state, unit

from workbench.rulesets.eto import garrison, losses, values


def _rumania(tmp_path: Path):  # noqa: ANN202
    s = new_state(tmp_path, [unit("RO-1", "RO", "infantry", "Bucharest"), unit("RO-2", "RO", "infantry", "Bucharest"),
                             unit("RO-3", "RO", "infantry", "Bucharest"), unit("GE-1", "GE", "infantry", "Warsaw")])
    return s


def test_eto_41_2_a_third_of_a_minors_strength_stays_home(tmp_path: Path) -> None:
    s = _rumania(tmp_path)
    hm = s.map
    out = hm.hex_of("Kiev")
    sp = values.strength(s, s.unit("RO-1"))
    assert garrison.split(s, "RO") == (3 * sp, 3 * sp) and garrison.needed(3 * sp) == sp
    assert garrison.move_why_not(s, s.unit("RO-1"), out) is None
    s.unit("RO-1").location = out
    assert garrison.move_why_not(s, s.unit("RO-2"), out) is None  # 1 of 3 left: a third, rounded up
    s.unit("RO-2").location = out
    why = garrison.move_why_not(s, s.unit("RO-3"), out)
    assert why.rule == "ETO-41.2" and f"({sp}) must stay inside its borders, and only 0 would" in why.why
    assert garrison.move_why_not(s, s.unit("GE-1"), out) is None  # majors keep no garrison
    assert garrison.move_why_not(s, s.unit("RO-1"), hm.hex_of("Bucharest")) is None  # coming home is free


def test_eto_41_2_losses_inside_are_made_good_by_the_units_outside(tmp_path: Path) -> None:
    s = _rumania(tmp_path)
    out = s.map.hex_of("Kiev")
    s.unit("RO-1").location = out
    s.unit("RO-2").location = out
    losses.eliminate(s, s.unit("RO-3"), "ETO-27.2", " in combat")  # the garrison falls
    garrison.restore(s)
    inside, total = garrison.split(s, "RO")
    assert inside >= garrison.needed(total)
    lost = [e for e in events(s, "depleted") + events(s, "eliminated") if e["rule"] == "ETO-41.2"]
    assert lost and all(e["data"]["unit"] in ("RO-1", "RO-2") for e in lost)
    assert total == 0  # nothing left at home: every unit outside goes (a third of what remains)
