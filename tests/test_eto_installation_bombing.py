"""ETO installation bombing (21.5) on the authored Bombing Table (GAP-06, E22, tables/bombing.toml).
Thresholds are the rulebook's (13.2 bases, +1 fortified, at most 4) on real map hexes; the table's
cells are authored."""

from __future__ import annotations

from typing import Any

import pytest
from eto_kit import events, flying_state, unit

from workbench.engine import IllegalOrder
from workbench.rulesets.eto import construction
from workbench.rulesets.eto import installation_bombing as ib
from workbench.rulesets.eto.values import FORCE_POOL

MOSCOW, MOSCOW_RES_7, KALININ = "08431", "08330", "08130"  # Soviet city resource hex; Soviet resource hex; Axis-held city
SAARBRUCKEN, KONIGSBERG, DANZIG, BERLIN = "04052", "06139", "05941", "05146"


def bomb_state(tmp_path, units: list[dict[str, Any]], *faces: int):
    return flying_state(tmp_path, units, *faces, allies=("SU", "US"))


def test_eto_21_5_threshold_is_the_bases_plus_one_if_fortified(tmp_path, monkeypatch):
    """21.5 A with 13.2's bases: a resource hex 1, a city 1, a city resource hex 2, an airfield
    marker +1; a permanent fortification or fortification marker +1 (Saarbrucken: city + resource
    + West Wall = 3, with an airfield 4, the maximum).  A port counts as the city it is, no more
    (Konigsberg 2, Danzig 1)."""
    s = bomb_state(tmp_path, [unit("GE-b", "GE", "bomber", "08640")])
    assert ib.threshold(s, MOSCOW_RES_7) == 1
    assert ib.threshold(s, KALININ) == 1
    assert ib.threshold(s, MOSCOW) == 2
    assert (ib.threshold(s, KONIGSBERG), ib.threshold(s, DANZIG)) == (2, 1)
    assert "port" in ib.installations(s, DANZIG)
    assert ib.threshold(s, SAARBRUCKEN) == 3 and "permanent fortification" in ib.installations(s, SAARBRUCKEN)
    forts = s.markers.setdefault("forts", {})
    forts[MOSCOW] = {"side": "allies", "kind": "airfield"}
    forts[KALININ] = {"side": "axis", "kind": "fortification"}
    forts[SAARBRUCKEN] = {"side": "axis", "kind": "airfield"}
    assert (ib.threshold(s, MOSCOW), ib.threshold(s, KALININ), ib.threshold(s, SAARBRUCKEN)) == (3, 2, 4)
    monkeypatch.setitem(s.ruleset.tables["air"]["basing"], "city_resource_bases", 3)  # an over-large hex: still 4
    assert ib.threshold(s, MOSCOW) == 4


def test_eto_21_5_bombing_table_columns_rows_and_asterisks(tmp_path):
    """GAP-06 (authored): one German 6-SP bomber reads column 6-8 (7: 1, 9: 2, 12: 3*); the table
    is monotone in roll and strength; a roll off the table (2.5's US bonus) reads the nearest row."""
    t = bomb_state(tmp_path, [unit("GE-b", "GE", "bomber", "08640")]).ruleset.tables
    assert ib.bombing_result(t, 6, 7) == ib.BombingResult("6-8", 1, False)
    assert ib.bombing_result(t, 6, 9) == ib.BombingResult("6-8", 2, False)
    assert ib.bombing_result(t, 6, 12) == ib.BombingResult("6-8", 3, True)
    assert ib.bombing_result(t, 80, 14) == ib.bombing_result(t, 80, 12) == ib.BombingResult("61+", 12, True)
    assert ib.bombing_result(t, 2, 2).result == 0
    cols = t["bombing"]["columns"]
    assert all(c["results"] == sorted(c["results"]) for c in cols)
    assert all(all(a <= b for a, b in zip(x["results"], y["results"], strict=True)) for x, y in zip(cols, cols[1:], strict=False))
    assert [c["min"] for c in cols[1:]] == [c["max"] + 1 for c in cols[:-1]]
    assert t["bombing"]["source"] == "authored" and all(c["rationale"] for c in cols)
    with pytest.raises(IllegalOrder):
        ib.bombing_result(t, 0, 7)


def test_eto_21_5_result_at_least_the_threshold_destroys_every_installation(tmp_path):
    """21.5 C: the German 6-12 over Moscow (threshold 2) rolls 4+5 = 9: column 6-8 gives 2, so all
    installations there are destroyed, recorded as Destroyed for 37.5 repair."""
    s = bomb_state(tmp_path, [unit("GE-b", "GE", "bomber", "08640")], 4, 5)
    s.unit("GE-b").location = MOSCOW
    res = ib.bomb(s, MOSCOW, [s.unit("GE-b")])
    assert (res["strength"], res["column"], res["result"], res["threshold"], res["destroyed"]) == (6, "6-8", 2, 2, True)
    row = construction.destroyed_installations(s)[MOSCOW]
    assert (row["kind"], row["side"], row["turn"], row["installations"]) == ("installation", "allies", "1941-07",
                                                                            ["city resource hex"])
    roll = [e for e in s.log if e["kind"] == "roll"][-1]
    assert roll["rule"] == "ETO-21.5" and "6 bomber SP" in roll["purpose"] and "2 needed" in roll["purpose"]
    assert events(s, "installation_destroyed")[0]["rule"] == "ETO-21.5"
    with pytest.raises(IllegalOrder) as e:  # nothing left to destroy until repaired
        ib.bomb(s, MOSCOW, [s.unit("GE-b")])
    assert e.value.rule == "ETO-21.5"


def test_eto_21_5_result_below_the_threshold_destroys_nothing(tmp_path):
    """21.5 C: "If the result from the table is less than this number, the attack has no effect":
    3+5 = 8 gives 1 against Moscow's 2."""
    s = bomb_state(tmp_path, [unit("GE-b", "GE", "bomber", "08640")], 3, 5)
    s.unit("GE-b").location = MOSCOW
    res = ib.bomb(s, MOSCOW, [s.unit("GE-b")])
    assert (res["result"], res["destroyed"]) == (1, False) and MOSCOW not in construction.destroyed_installations(s)
    assert not events(s, "installation_destroyed")


def test_eto_21_5_markers_stay_when_the_installation_is_destroyed(tmp_path):
    """21.5: "Do not remove an airfield or fortification marker": Kalinin's fortification marker
    (threshold 1 + 1 = 2) stays in the forts markers under the Destroyed marker."""
    s = bomb_state(tmp_path, [unit("SU-b", "SU", "bomber", "08740"), unit("SU-c", "SU", "bomber", "08740")], 5, 4)
    s.markers.setdefault("forts", {})[KALININ] = {"side": "axis", "kind": "fortification"}
    for u in s.units_by_id.values():
        u.location = KALININ
    res = ib.bomb(s, KALININ, [s.unit("SU-b"), s.unit("SU-c")])  # two Soviet 4-8s: column 6-8, roll 9: 2
    assert (res["column"], res["result"], res["threshold"], res["destroyed"]) == ("6-8", 2, 2, True)
    assert s.markers["forts"][KALININ]["kind"] == "fortification"
    assert construction.destroyed_installations(s)[KALININ]["kind"] == "fortification"


def test_eto_21_5_asterisk_costs_one_step_to_a_bomber_the_owner_selects(tmp_path):
    """21.5/E22: a 6-12 and a depleted 3-12 (9 SP, column 9-12) roll 6+5 = 11: 3*, Moscow falls and
    the bombers lose one step.  By default the full bomber flips (the cheaper loss); the owner
    may name the depleted one instead, which is eliminated."""
    units = [unit("GE-b", "GE", "bomber", "08640"), unit("GE-c", "GE", "bomber", "08640", reduced=True)]
    s = bomb_state(tmp_path, units, 6, 5)
    for u in s.units_by_id.values():
        u.location = MOSCOW
    res = ib.bomb(s, MOSCOW, [s.unit("GE-b"), s.unit("GE-c")])
    assert (res["column"], res["result"], res["asterisk"], res["loser"], res["loss"]) == ("9-12", 3, True, "GE-b", "depleted")
    assert s.unit("GE-b").reduced

    s = bomb_state(tmp_path, units, 6, 5)
    for u in s.units_by_id.values():
        u.location = MOSCOW
    res = ib.bomb(s, MOSCOW, [s.unit("GE-b"), s.unit("GE-c")], loser="GE-c")
    assert (res["loser"], res["loss"]) == ("GE-c", "eliminated") and s.unit("GE-c").location == FORCE_POOL
    assert not s.unit("GE-b").reduced


def test_eto_21_5_no_us_daylight_bonus(tmp_path):
    """21.5: "The American daylight bonus (2.5) does not apply": a full US 8-14 over Berlin
    (threshold 2) rolling 4+4 = 8 reads 1 on column 6-8 and misses; 2.5's +1 would have read 2."""
    s = bomb_state(tmp_path, [unit("US-b", "US", "bomber", "08740")], 4, 4)
    s.unit("US-b").location = BERLIN
    res = ib.bomb(s, BERLIN, [s.unit("US-b")])
    assert (res["strength"], res["result"], res["destroyed"]) == (8, 1, False)
    assert ib.bombing_result(s.ruleset.tables, 8, 9).result == 2


def test_eto_21_5_only_unaborted_bombers_over_enemy_installations(tmp_path):
    """21.5: unaborted bomber units (15.6) in a hex with an enemy installation."""
    s = bomb_state(tmp_path, [unit("GE-b", "GE", "bomber", "08640"), unit("GE-f", "GE", "fighter", "08640")])
    with pytest.raises(IllegalOrder) as e:  # Kursk is the Axis's own
        ib.bomb(s, "08640", [s.unit("GE-b")])
    assert e.value.rule == "ETO-21.5"
    s.unit("GE-b").location = s.unit("GE-f").location = MOSCOW
    with pytest.raises(IllegalOrder) as e:
        ib.bomb(s, MOSCOW, [s.unit("GE-f")])
    assert e.value.rule == "ETO-21.5"
    s.unit("GE-b").props["aborted"] = True
    with pytest.raises(IllegalOrder) as e:
        ib.bomb(s, MOSCOW, [s.unit("GE-b")])
    assert e.value.rule == "ETO-15.6"


def test_eto_21_5_destroyed_hex_is_no_airbase_port_or_fortification_until_repaired(tmp_path):
    """21.5: "That hex cannot be used as an airbase, port, or fortification until the installation
    is repaired.  Land units ... are not affected."  06925, an Axis-held minor port with a
    permanent fortification (threshold 1 + 1 = 2): two Soviet 4-8s (8 SP, column 6-8) roll 5+4 = 9:
    2, destroyed.  Before: one base, a friendly port, a fortified port (16.4), an enemy fort to the
    Soviets.  After: none of these; the German infantry in the hex stays."""
    from workbench.rulesets.eto import air_naval, airbases, combat, ports

    port = "06925"
    s = bomb_state(tmp_path, [unit("SU-b", "SU", "bomber", "08740"), unit("SU-c", "SU", "bomber", "08740"),
                              unit("GE-i", "GE", "infantry", port)], 5, 4)
    assert (airbases.capacity(s, port), ib.threshold(s, port)) == (1, 2)
    assert ports.friendly(s, "axis", port) and ports.enter_why_not(s, "axis", [], port) is None
    assert air_naval.port_kind(s, port) == "fortified" and combat.enemy_fort(s, "allies", port)
    for uid in ("SU-b", "SU-c"):
        s.unit(uid).location = port
    res = ib.bomb(s, port, [s.unit("SU-b"), s.unit("SU-c")])
    assert (res["strength"], res["column"], res["result"], res["destroyed"]) == (8, "6-8", 2, True)
    assert airbases.capacity(s, port) == 0 and not ports.friendly(s, "axis", port)
    r = ports.enter_why_not(s, "axis", [], port)
    assert r and r.rule == "ETO-21.5" and "until repaired" in r.why
    assert air_naval.port_kind(s, port) is None and not combat.enemy_fort(s, "allies", port)
    assert s.unit("GE-i").location == port
