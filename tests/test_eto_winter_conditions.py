"""W conditions (ETO-1.3) on the eastern test front of eto_kit (the severe weather zone).

The other W effects are proved where their rules live: air grounding on 7-12 (1.4,
test_eto_air_missions.py::test_eto_1_4_grounded_zone_stops_flights), -2 to naval searches
(test_eto_naval_search.py::test_eto_8_4_search_modifiers_north_atlantic_in_winter), +1 to U-boat EP
losses (test_eto_convoys.py::test_eto_5_3_ep_loss_modifiers), doubled combined and impromptu
offensives (test_eto_adjudicate.py), frozen lakes and ports (1.5, test_eto_terrain_entry.py).
"""

from __future__ import annotations

from eto_kit import new_state, unit

from workbench.rulesets.eto import values
from workbench.rulesets.eto.movement import Walker
from workbench.rulesets.eto.weather import FAIR, WINTER, conditions


def test_eto_1_3_winter_halves_movement_and_bars_exploitation_in_the_severe_zone(tmp_path):
    """1.3: "Winter conditions exist in the severe weather zone"; "Movement allowances for all
    infantry and armor units are halved (fractions rounded up)"; "Land units cannot use exploitation
    movement to enter the Severe weather zone" -- the same panzer corps in July and in December."""
    pz = {"props": {"riding_rating": 3}}
    july = new_state(tmp_path, [unit("GE-pz", "GE", "armor", "08641", **pz)], first="1941-07", last="1941-08")
    dec = new_state(tmp_path, [unit("GE-pz", "GE", "armor", "08641", **pz)], first="1941-12", last="1942-01")
    i = july.map.index("08641")
    assert conditions(july)[i] == FAIR and conditions(dec)[i] == WINTER
    printed = values.printed_ma(dec, dec.unit("GE-pz"))
    walk_july, walk_dec = Walker(july, july.unit("GE-pz"), "movement"), Walker(dec, dec.unit("GE-pz"), "movement")
    assert walk_dec.limit(True) == -(-printed // 2) < printed == walk_july.limit(False)
    assert len(walk_dec.reach()) < len(walk_july.reach())
    assert Walker(july, july.unit("GE-pz"), "exploit").reach()                 # fair: it exploits
    assert not Walker(dec, dec.unit("GE-pz"), "exploit").reach()               # W: not into the severe zone
