"""The Mediterranean 1941 scenario (issue 22): forces where April 1941 put them, its victory
conditions with their numbers, and bots playing it to the end."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.bots import play
from workbench.bots.heuristic import make_policy
from workbench.rulesets.eto import naval_units, sea_supply, victory
from workbench.rulesets.eto.control import SIDE_CODE, control

SCENARIO = "eto/mediterranean-1941"


@pytest.fixture(scope="module")
def game():  # noqa: ANN201
    return wb.load_scenario(SCENARIO)


def test_mediterranean_forces_and_stockpiles_as_in_april_1941(game):
    """Cunningham's battleships in Alexandria, the Italian battle fleet in Taranto, Force H at
    Gibraltar, the Tobruk garrison British inside Axis Libya, stockpiles at Tripoli (3, a major
    port's capacity, 32.4), Benghazi (1) and Malta (2)."""
    s = game.new_state(seed=0)
    hm = s.map
    where = {u.id: u.location for u in s.units_by_id.values()}
    assert {where[f"UK-BB{i}"] for i in (1, 2, 3)} == {hm.hex_of("Alexandria")}
    assert {where[f"IT-BB{i}"] for i in (1, 2, 3)} == {hm.hex_of("Taranto")}
    assert where["UK-CV2"] == hm.hex_of("Gibraltar") and s.units_by_id["UK-FAA-ArkRoyal"].props["carrier"] == "UK-CV2"
    assert control(s)[hm.index(hm.hex_of("Tobruk"))] == SIDE_CODE["allies"]
    assert control(s)[hm.index(hm.hex_of("Benghazi"))] == SIDE_CODE["axis"]
    assert [sea_supply.markers_at(s, hm.hex_of(p)) for p in ("Tripoli", "Benghazi", "Malta")] == [3, 1, 2]
    assert all(naval_units.in_port(u) for u in naval_units.naval_units(s))
    assert naval_units.stp_points(s.units_by_id["IT-STP1"]) == 4


def test_mediterranean_naval_war_vp(game):
    """[victory.naval_war]: +1 per British capital ship sunk, +1 per 2 British squadrons/STPs;
    -1 per Italian capital ship, -1 per 2 Axis squadrons/STPs.  Warspite and two British DDs sunk,
    one Italian cruiser: 1 + 1 - 1 = 1: a Draw (1-2)."""
    s = game.new_state(seed=0)
    for uid in ("UK-BB1", "UK-DD1", "UK-DD2", "IT-CA1"):
        naval_units.sink(s, s.units_by_id[uid], "ETO-9.5")
    vp, detail = victory.axis_vp(s)
    assert detail == {"British capital ships sunk": 1, "British squadrons and STPs sunk (per 2)": 1,
                      "Axis capital ships sunk": -1}
    assert vp == 1 and victory.level(s, vp) == "Draw"


def test_mediterranean_sudden_death_at_alexandria_or_tripoli(game):
    """The Axis wins outright holding Alexandria; the Allies holding Tripoli."""
    s = game.new_state(seed=0)
    hm = s.map
    control(s)[hm.index(hm.hex_of("Tripoli"))] = SIDE_CODE["allies"]
    assert victory.sudden_death(s)["winner"] == "allies"
    control(s)[hm.index(hm.hex_of("Tripoli"))] = SIDE_CODE["axis"]
    control(s)[hm.index(hm.hex_of("Alexandria"))] = SIDE_CODE["axis"]
    assert victory.sudden_death(s)["level"] == "Axis decisive victory"


def test_mediterranean_heuristic_convoys_reach_libya(game):
    """The heuristic Axis loads a supply marker at Naples and sails it, escorted, into Tripoli
    in April; the British run one from Alexandria (32.4, 32.5)."""
    s = game.new_state(seed=1)
    pols = {side: make_policy("heuristic", "eto", side, 1) for side in ("axis", "allies")}
    play(s, pols, until_turn=1)
    landed = [e for e in s.log if e["kind"] == "supply_landed"]
    assert any(e.get("side") == "axis" for e in landed) and any(e.get("side") == "allies" for e in landed)


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mediterranean_plays_to_the_end(game, bot, seed):
    s = game.new_state(seed=seed)
    pols = {side: make_policy(bot, "eto", side, seed) for side in ("axis", "allies")}
    play(s, pols)
    assert s.decision is None and s.result and s.result.get("level")
