"""The 1939 campaign (scenarios/eto/campaign-1939.toml): it loads and validates, the war state of
3 September 1939, the neutral minors waiting to deploy, the orders of battle of
docs/rulings-eto.md ("The 1939 campaign"), invasions placing a minor's army, the victory
conditions, and random bots playing its first months."""

from __future__ import annotations

from collections import Counter

import pytest
from eto_kit import make_game, unit

from workbench.bots.heuristic import HeuristicPolicy, make_policy
from workbench.engine import load_scenario
from workbench.engine.errors import ScenarioError
from workbench.rulesets.eto import (
    air_ship_interception,
    invasion,
    movement,
    politics,
    rail,
    stacking,
    supply,
    values,
    victory,
)
from workbench.rulesets.eto.control import SIDE_CODE, control
from workbench.rulesets.eto.terrain import terrain_arrays
from workbench.rulesets.eto.zoc import zoc

SCENARIO = "eto/campaign-1939"

#: Units on the map at the start, per nation and type (the documented order of battle).
OOB = {
    "GE": {"infantry": 17, "mountain": 1, "armor": 4, "hq": 3, "general": 5, "fighter": 5, "fighter_bomber": 3,
           "bomber": 4, "atp": 1, "bb": 2, "ca": 4, "cl": 2, "dd": 2, "uboat": 3, "stp": 2},
    "PL": {"infantry": 13, "cavalry": 3},
    "UK": {"infantry": 8, "hq": 2, "hq_me": 1, "fighter": 4, "bomber": 4, "naval_air": 3, "naval_air_light": 1,
           "bb": 13, "cv": 3, "ca": 4, "cl": 5, "dd": 4 + 16, "ss": 2, "stp": 3},
    "FR": {"infantry": 17, "armor": 1, "hq": 1, "fighter": 3, "bomber": 2, "bb": 5, "cv": 1, "ca": 3, "cl": 2,
           "dd": 3, "ss": 2, "stp": 2},
    "IT": {"infantry": 14, "hq": 1, "hq_africa": 1},
    "SU": {"infantry": 19, "armor": 4, "cavalry": 2, "hq": 3, "general": 1},
}
#: The neutral majors' air forces and fleets, waiting Unplaced until they enter the war (ruling C3).
WAITING = {
    "IT": {"fighter": 3, "bomber": 3, "bb": 2, "ca": 3, "cl": 3, "dd": 4, "ss": 4, "stp": 2},
    "SU": {"fighter": 3, "fighter_bomber": 1, "bomber": 2, "bb": 3, "cl": 2, "dd": 3, "ss": 2},
}
#: Units of each neutral minor waiting in the Unplaced box.
MINORS = {"NO": 3, "SW": 4, "DK": 1, "NL": 3, "BE": 5, "YU": 6, "GR": 5, "TU": 6, "SP": 6, "PT": 2, "EI": 1,
          "ES": 1, "LV": 1, "LT": 1, "FI": 5, "RO": 6, "HU": 3, "BU": 3, "SK": 1}


@pytest.fixture(scope="module")
def game():
    return load_scenario(SCENARIO)


@pytest.fixture()
def state(game):
    return game.new_state(seed=0)


def test_eto_campaign_1939_loads_with_every_option(game):
    """It validates (scenario_check) and sets up without a breach; politics, naval, air and
    strategic warfare are all on; every seasonal turn from autumn 1939 to spring 1945 is played."""
    opts = game.options
    assert all(opts.get(k) for k in ("politics", "naval", "air", "strategic-warfare"))
    sc = game.scenario
    assert sc.first_turn == "1939-09" and sc.last_turn == "1945-06"
    seasons = [t for t in game.ruleset.calendar(sc.first_turn, sc.last_turn) if t[5:].isalpha()]
    assert sc.raw["seasonal_turns"] == seasons and seasons[0] == "1939-autumn" and seasons[-1] == "1945-spring"


def test_eto_39_4_campaign_war_state_of_september_1939(state):
    """Germany is at war with Poland, the UK and France (the Western partnership, 39.4); Italy,
    the USSR, the US and every other minor are neutral (39.0)."""
    for n in ("PL", "UK", "FR"):
        assert politics.at_war(state, "GE", n) and politics.partnership(state, n) == "western"
    assert politics.war_state(state)["axis_invaded"]  # the 39.4 chain has fired: it does not fire again
    neutral = [n for n in politics.nations(state) if n not in ("GE", "PL", "UK", "FR")]
    assert {"IT", "SU", "US", "NO", "TU", "SP", "FI", "RO", "LS", "VF"} <= set(neutral)
    assert all(politics.neutral(state, n) for n in neutral)
    assert not politics.at_war(state, "GE", "SU") and not politics.at_war(state, "IT", "UK")


def test_eto_36_1_campaign_income_bases_are_the_printed_ones(state):
    """36.1, 36.3: Germany 90, the UK 70, France 36, Italy 20 (neutral), the USSR 45; no US income."""
    t = state.tracks
    assert (t["GE.income_base"], t["UK.income_base"], t["FR.income_base"], t["IT.income_base"],
            t["SU.income_base"]) == (90, 70, 36, 20, 45)
    assert t["US.eps"] == 0


def test_eto_campaign_1939_orders_of_battle(state):
    """The units on the map per nation and type are the documented order of battle; the US has
    none (its forces enter the pool with the 1942 additions, 37.0, 40.7)."""
    got: dict[str, Counter] = {}
    for u in state.units_by_id.values():
        if u.location not in ("Force pool", "Turn track", invasion.UNPLACED):  # the map and its sea boxes
            got.setdefault(u.nation, Counter())[u.type] += 1
    assert {n: dict(c) for n, c in got.items()} == OOB
    assert not [u for u in state.units_by_id.values() if u.nation == "US"]
    assert state.ruleset.tables["force_pools"]["additions"]["1942"]["US"]["infantry"] == 6


def test_eto_campaign_1939_belligerents_stand_on_friendly_or_own_hexes(state):
    """24.2, 24.4, 42.4: land units legally stacked, belligerents on their own side's hexes,
    neutral majors (Italy, the USSR) on their own neutral territory; no French and British land
    units together."""
    hm, ctrl, ta = state.map, control(state), terrain_arrays(state)
    for u in state.units_by_id.values():
        if not values.on_map(u) or not values.is_land_unit(state, u):
            continue
        i = hm.index(u.location)
        assert ta.land[i], u.id
        if politics.neutral(state, u.nation):
            assert ctrl[i] == 0 and u.nation in ("IT", "SU"), u.id
            assert politics.territory(state, u.nation)[i], u.id
        else:
            assert ctrl[i] == SIDE_CODE[u.side], u.id
    for label in {u.location for u in state.units_by_id.values() if values.on_map(u)}:
        nations = {u.nation for u in state.units_by_id.values() if u.location == label and
                   values.is_land_unit(state, u)}
        assert not {"UK", "FR"} <= nations, label


def test_eto_39_2_campaign_neutral_minors_wait_unplaced_with_deploy_hexes(state):
    """39.2: each neutral minor's units wait Unplaced with a deployment hex inside the home
    country, at least one infantry unit in the capital, within the stacking limit."""
    hm, ta = state.map, terrain_arrays(state)
    capitals = hm.hexes["capital"].to_list()
    waiting = [u for u in state.units_by_id.values() if u.location == invasion.UNPLACED and u.nation in MINORS]
    assert Counter(u.nation for u in waiting) == Counter(MINORS)
    for n in MINORS:
        units = [u for u in waiting if u.nation == n]
        home = politics.territory(state, n)
        hexes = [u.props["deploy"] for u in units]
        assert all(home[hm.index(h)] and ta.land[hm.index(h)] for h in hexes), n
        capital = [h for h in hexes if capitals[hm.index(h)]]
        assert any(u.props["deploy"] in capital and u.type == "infantry" for u in units), n
        for h in set(hexes):
            assert hexes.count(h) <= stacking.limit_for(state, h, [n]), (n, h)


def test_eto_39_3_campaign_invading_norway_places_its_army(state):
    """39.2, 39.3: Germany invades Norway: its three counters go to their deployment hexes (Oslo
    first, the capital) on the Western Allies' side, and Norway is at war with Germany."""
    invasion.invade(state, "GE", "NO")
    no = sorted((u for u in state.units_by_id.values() if u.nation == "NO"), key=lambda u: u.id)
    assert [u.location for u in no] == [state.map.hex_of("Oslo"), state.map.hex_of("Trondheim"),
                                        state.map.hex_of("Narvik")]
    assert all(u.side == "allies" for u in no)
    assert politics.partnership(state, "NO") == "western" and politics.at_war(state, "GE", "NO")


def test_eto_39_0_neutral_units_stay_home_out_of_the_war(state):
    """39.0 (ruling): a neutral major's units are at peace on their own soil -- they may not leave
    it (the Soviet tank corps on the Polish border may not enter Poland), do not rail, need no
    supply line and exert no ZOC -- until their nation enters the war."""
    hm = state.map
    su, it = state.unit("SU-15TC"), state.unit("IT-2A")
    poland, yugoslavia = hm.index("07141"), hm.index("05360")  # next to Baranovichi and to Trieste
    assert movement.banned_hexes(state, su)[poland] and not movement.banned_hexes(state, su)[hm.index("07239")]
    a, b = hm.index(su.location), poland
    assert "SU is neutral" in movement.entry_barrier(state, su, a, int(list(hm.neighbors[a]).index(b)), b)
    assert not rail.RailOrder._may_rail(state, su, "allies", zoc(state, "axis"))
    assert supply.reach(state, "IT", "axis")[hm.index(it.location)] < 0  # Italy's hexes are nobody's
    assert supply.traces(state, it)
    supply.supply_step(state, None)
    assert not [u.id for u in state.units_by_id.values() if u.nation in ("IT", "SU") and u.props.get("oos")]
    assert not zoc(state, "axis")[yugoslavia]
    invasion.invade(state, "IT", "YU")  # Italy enters the war: its units are belligerents
    assert zoc(state, "axis")[yugoslavia] and not movement.banned_hexes(state, it)[yugoslavia]


def test_eto_39_2_campaign_neutral_majors_fleets_and_air_forces_wait_for_the_war(state):
    """Ruling C3: Italy's and the USSR's air units and ships wait Unplaced; when Italy enters the
    war by invading Greece they go out at once -- ships into their ports, air units onto their
    bases -- on the Axis side; the Soviet ones when Germany invades the USSR."""
    got: dict[str, Counter] = {}
    for u in state.units_by_id.values():
        if u.location == invasion.UNPLACED and u.nation in WAITING:
            got.setdefault(u.nation, Counter())[u.type] += 1
    assert {n: dict(c) for n, c in got.items()} == WAITING
    invasion.invade(state, "IT", "GR")
    cavour = state.unit("IT-Cavour")
    assert cavour.location == state.map.hex_of("Taranto") and cavour.props.get("in_port") and cavour.side == "axis"
    fighter = state.unit("IT-1SA")
    assert fighter.location == state.map.hex_of("Milan") and fighter.props.get("base") == fighter.location
    assert not [u.id for u in state.units_by_id.values() if u.nation == "IT" and u.location == invasion.UNPLACED]
    assert state.unit("SU-Marat").location == invasion.UNPLACED
    invasion.invade(state, "GE", "SU")
    assert state.unit("SU-Marat").location == state.map.hex_of("Leningrad") and state.unit("SU-Marat").side == "allies"


def test_eto_13_1_bombers_are_not_offered_an_interception_over_neutral_land(state):
    """13.1, 14.1 (found by the campaign's random bots): a Munich bomber within range of the Western
    Mediterranean would fly over neutral Switzerland and Italy to intercept a ship there, which
    would invade them (39.0): it is not offered, so the offer and the order agree."""
    u = state.unit("GE-LF3-KG")
    why = air_ship_interception.interceptor_why_not(state, u, "axis", "Western Mediterranean")
    assert why is not None and why.rule == "ETO-13.1" and "neutral land hex" in why.why
    assert air_ship_interception.target_hex(state, u, "Western Mediterranean") is not None  # in range


def test_eto_41_1_campaign_polish_losses_go_to_the_british_pool(state):
    """41.1: an eliminated minor unit goes to its major partner's pool; Poland has no fixed
    major, so it serves the Western partnership's leading major, the UK (ruling)."""
    assert values.major_of(state, "PL") == "UK"
    assert values.major_of(state, "RO") == "GE"  # a fixed major partner stays as it is


def test_eto_40_1_campaign_sudden_death_on_the_conquest_of_germany(state):
    """40.0, 40.1 (GAP-16): the Allies holding all nine German city resource hexes end the game
    with an Allied decisive victory; the Axis holding London and Moscow, an Axis one."""
    hm, ctrl = state.map, control(state)
    assert victory.sudden_death(state) is None
    reich = ["Berlin", "Hamburg", "Cologne", "Frankfurt", "Munich", "Vienna", "Prague", "Breslau", "Konigsberg"]
    for p in reich[:-1]:
        ctrl[hm.index(hm.hex_of(p))] = SIDE_CODE["allies"]
    assert victory.sudden_death(state) is None  # Konigsberg still German: not conquered
    ctrl[hm.index(hm.hex_of("Konigsberg"))] = SIDE_CODE["allies"]
    sd = victory.sudden_death(state)
    assert sd["winner"] == "allies" and sd["level"].startswith("Allies decisive") and sd["rule"] == "ETO-40.1"


def test_eto_campaign_1939_june_1945_grading(state):
    """GAP-16: the Reich (22) and Italy (5) whole are a draw (27); with Paris and Warsaw kept, 33,
    an Axis marginal victory; the Reich alone with Berlin gone, an Allied marginal one."""
    hm, ctrl = state.map, control(state)
    for p in ("Rome", "Milan"):
        ctrl[hm.index(hm.hex_of(p))] = SIDE_CODE["axis"]
    vp, _ = victory.axis_vp(state)
    assert vp == 27 and victory.level(state, vp) == "Draw"
    for p in ("Paris", "Warsaw"):
        ctrl[hm.index(hm.hex_of(p))] = SIDE_CODE["axis"]
    vp, _ = victory.axis_vp(state)
    assert vp == 33 and victory.level(state, vp) == "Axis marginal victory"
    for p in ("Rome", "Milan", "Paris", "Warsaw", "Berlin"):
        ctrl[hm.index(hm.hex_of(p))] = SIDE_CODE["allies"]
    vp, _ = victory.axis_vp(state)
    assert vp == 16 and victory.level(state, vp) == "Allies marginal victory"


@pytest.mark.slow
@pytest.mark.parametrize(("bot", "seed"), [("random", 1), ("heuristic", 2)])
def test_eto_campaign_1939_bots_play_the_first_months(game, bot, seed):
    """Random (and heuristic) bots play from September 1939 through the winter 1940 seasonal turn
    and into January 1940 without an error or a dead end; every random order is a legal one."""
    s = game.new_state(seed=seed)
    pols = {side: make_policy(bot, "eto", side, seed * 2 + k) for k, side in enumerate(("axis", "allies"))}
    for p in pols.values():
        if isinstance(p, HeuristicPolicy):
            p.raise_errors = True
    while s.turn_label != "1940-01" and not s.is_over:
        d = s.decision
        if bot == "random":
            legal = s.legal_orders()
            assert legal, s.clock
            s.apply(pols[d.side].choose(s.ruleset.view(s, d.side), legal))
        else:
            s.apply(pols[d.side].choose_in(s, d.side))
    assert s.turn_label == "1940-01" or s.result


# -- eto/west-1940: the same campaign from 10 May 1940 ----------------------------------------------------
WEST = "eto/west-1940"


@pytest.fixture(scope="module")
def west():
    return load_scenario(WEST)


def test_eto_39_0_west_1940_war_state_of_may_1940(west):
    """10 May 1940: Germany at war with Poland, Denmark, Norway, the UK and France; the Low
    Countries still neutral, their armies waiting to deploy; Italy and the USSR neutral; the
    Winter War fought (43.3)."""
    s = west.new_state(seed=0)
    assert all(politics.at_war(s, "GE", n) for n in ("PL", "DK", "NO", "UK", "FR"))
    assert all(politics.neutral(s, n) for n in ("NL", "BE", "LU", "IT", "SU", "US", "SW"))
    assert politics.war_state(s)["winter_war"] and s.tracks["winter_war"] == "won"
    assert Counter(u.nation for u in s.units_by_id.values() if u.location == invasion.UNPLACED
                   and u.nation in ("NL", "BE")) == {"NL": 3, "BE": 5}
    invasion.invade(s, "GE", "NL")  # 39.7: Benelux is one nation
    assert all(politics.at_war(s, "GE", n) for n in ("NL", "BE", "LU"))
    assert s.unit("BE-1").location == s.map.hex_of("Brussels")


def test_eto_39_3_west_1940_soviet_zones_are_neutral_home_until_the_ussr_is_at_war(west):
    """The USSR's 1939-40 annexations are neutral control regions it holds as home: German units
    may not enter eastern Poland, the Soviet armies there may move inside it (and the USSR) but
    not beyond; when Germany invades the USSR the zone becomes Soviet at once (39.3)."""
    s = west.new_state(seed=0)
    hm, ctrl = s.map, control(s)
    lwow, warsaw = hm.index(hm.hex_of("Lwow")), hm.index(hm.hex_of("Warsaw"))
    assert ctrl[lwow] == 0 and ctrl[warsaw] == SIDE_CODE["axis"]
    assert politics.territory(s, "SU")[lwow] and not politics.territory(s, "SU")[warsaw]
    ge, su = s.unit("GE-Oberost"), s.unit("SU-5A")
    assert su.location == hm.hex_of("Lwow")
    assert movement.banned_hexes(s, ge)[lwow] and not movement.banned_hexes(s, su)[lwow]
    assert movement.banned_hexes(s, su)[warsaw]
    invasion.invade(s, "GE", "SU")
    assert control(s)[lwow] == SIDE_CODE["allies"] and not movement.banned_hexes(s, ge)[lwow]


def test_eto_39_0_a_neutral_region_needs_politics_and_its_holder(tmp_path):
    """scenario_check: a control region may be neutral (a neutral's annexed zone) only in a
    scenario that plays politics and names the nation holding it as home."""
    region = ('[[control_regions]]\nname = "zone"\ncountry = "USSR"\nside = "neutral"\nhexes = ["08742"]\n')
    with pytest.raises(ScenarioError, match="a neutral region needs options.politics on"):
        make_game(tmp_path, [unit("GE-a", "GE", "infantry", "08640")], extra=region)


@pytest.mark.slow
def test_eto_west_1940_heuristic_bots_play_the_summer_of_1940(west):
    """Heuristic bots play the May 1940 start through the summer 1940 seasonal turn without an
    error (every order legal: raise_errors)."""
    s = west.new_state(seed=3)
    pols = {side: make_policy("heuristic", "eto", side, 6 + k) for k, side in enumerate(("axis", "allies"))}
    for p in pols.values():
        p.raise_errors = True
    while s.turn_label != "1940-08" and not s.is_over:
        d = s.decision
        s.apply(pols[d.side].choose_in(s, d.side))
    assert s.turn_label == "1940-08" or s.result


#: The first year of the war (September 1939 to August 1940) played by the heuristic bots on seed 1:
#: orders, the SHA-256 of the order stream and the position's digest at the start of September 1940.
#: Re-record with a deliberate change of the rules, the scenario or the bots.
GOLDEN_FIRST_YEAR = (2355, "62a19a5edd8672dd7324340e9065836546ac9b6ffc02e0237f29b8c93ff94a9a",
                     "403d67da85064fc1d2d546094884794e0470be4efedfe0b29397ffebca9959c7")


@pytest.mark.slow
def test_eto_campaign_1939_golden_first_year():
    """The golden playthrough of the campaign's first year: Poland, the Winter War, the Soviet claims,
    Weserubung and Fall Gelb by the bots' timetable -- the same orders and the same position, every run."""
    import hashlib
    import json

    from workbench.bots import play

    s = load_scenario("eto/campaign-1939").new_state(seed=1)
    pols = {side: make_policy("heuristic", "eto", side, 1) for side in ("axis", "allies")}
    h = hashlib.sha256()
    n = 0

    def record(_st, order):  # noqa: ANN001, ANN202
        nonlocal n
        h.update(json.dumps(order, sort_keys=True).encode())
        n += 1

    play(s, pols, until_turn=16, on_order=record)
    assert s.turn_label == "1940-09"
    assert (n, h.hexdigest(), s.digest()) == GOLDEN_FIRST_YEAR
