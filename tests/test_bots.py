"""Heuristic bots: legal orders only, games finish, unknown kinds handled, strength (small N)."""

from __future__ import annotations

import json

import pytest

import workbench as wb
from workbench.bots import RandomPolicy, play
from workbench.bots.heuristic import Brain, Context, HeuristicPolicy, make_policy
from workbench.bots.policy import is_legal_now

SMALL = "ssa/valor-of-ignorance"


@pytest.fixture(scope="module")
def voi():
    return wb.load_scenario(SMALL)


def _game(game, axis: str, allies: str, seed: int):
    s = game.new_state(seed=seed)
    pols = {"axis": make_policy(axis, "ssa", "axis", seed * 2), "allies": make_policy(allies, "ssa", "allies", seed * 2 + 1)}
    for p in pols.values():
        if isinstance(p, HeuristicPolicy):
            p.raise_errors = True
    return s, pols


def test_heuristic_orders_are_legal_and_the_game_finishes(voi):
    """Every order the bot gives is in the legal list at that moment (checked on the slow path)."""
    s, pols = _game(voi, "heuristic", "heuristic", 3)
    n = 0
    while not s.is_over and n < 3000:
        d = s.decision
        order = pols[d.side].choose_in(s, d.side)
        assert order in s.legal_orders_of(order["kind"]) or is_legal_now(s, order), order
        s.apply(order)
        n += 1
    assert s.is_over


def test_slow_path_choose_with_full_legal_list(voi):
    s, pols = _game(voi, "heuristic", "random", 1)
    for _ in range(40):
        d = s.decision
        legal = s.legal_orders()
        order = pols[d.side].choose(s.ruleset.view(s, d.side), legal)
        assert order in legal
        s.apply(order)


def test_axis_lands_in_north_america(voi):
    s, pols = _game(voi, "heuristic", "random", 0)
    play(s, pols, until_turn=2)
    kinds = s.events()["kind"].to_list()
    assert "embark" in kinds and "debark" in kinds
    assert any(u.side == "axis" and u.location.isdigit() and u.type.endswith("division")
               for u in s.units_by_id.values())


class _Confused(Brain):
    """Proposes nonsense and an unknown kind: the driver must still answer legally."""

    def propose(self, ctx: Context):
        return {"kind": "launch_zeppelins", "unit": "nobody"}


def test_unknown_kinds_fall_back_to_a_legal_default(voi):
    s = voi.new_state(seed=5)
    pol = HeuristicPolicy(_Confused(), seed=1)
    play(s, {"axis": pol, "allies": RandomPolicy(2)}, max_orders=200)
    assert s.orders  # it played; every order was accepted by apply


def test_unknown_open_kind_without_end_step_picks_a_random_legal_order(voi):
    s = voi.new_state(seed=0)
    pol = HeuristicPolicy(Brain(), seed=0)
    assert "deploy" in s.decision.kinds
    only = [{"kind": "deploy", "unit": "US-mar", "to": "019079"}]  # no end_step or pass offered
    ctx = Context(pol, s, s.decision.side, only)
    assert pol.default(ctx) == only[0]


def test_random_fast_path_is_legal(voi):
    s = voi.new_state(seed=2)
    pol = RandomPolicy(4)
    for _ in range(60):
        order = pol.choose_in(s, s.decision.side)
        assert order in s.legal_orders_of(order["kind"])
        s.apply(order)


def test_heuristic_beats_random_small_sample(voi):
    """Sanity version of the strength bar (docs/bots.md has the full figures)."""
    from workbench.bots.score import snapshot, summarize

    wins = 0
    n = 3
    for seed in range(n):
        s, pols = _game(voi, "random", "heuristic", 100 + seed)
        s0 = snapshot(s)
        play(s, pols)
        wins += summarize(s, s0)["bot_winner"] == "allies"
    assert wins >= 2


@pytest.mark.slow
def test_eto_heuristic_plays_to_the_end():
    game = wb.load_scenario("eto/barbarossa-1941")
    s = game.new_state(seed=1)
    pol = make_policy("heuristic", "eto", "axis", 1)
    pol.raise_errors = True
    play(s, {"axis": pol, "allies": RandomPolicy(2)})
    assert s.is_over and s.result


def _eto_game(axis: str, allies: str, seed: int):
    game = wb.load_scenario("eto/barbarossa-1941")
    s = game.new_state(seed=seed)
    pols = {"axis": make_policy(axis, "eto", "axis", seed * 2), "allies": make_policy(allies, "eto", "allies", seed * 2 + 1)}
    for p in pols.values():
        if isinstance(p, HeuristicPolicy):
            p.raise_errors = True
    return s, pols


@pytest.mark.slow
def test_eto_axis_offensive_activates_units_and_attacks():
    """ETO-22.0/22.1: after activating an HQ the bot activates the units near the enemy (an HQ alone
    activates nobody) and those units, and only those, attack in the first offensive."""
    s, pols = _eto_game("heuristic", "random", 7)
    off_units: set[str] = set()

    def watch(st, order):  # noqa: ANN001
        off = st.markers.get("offensive") or {}
        off_units.update(off.get("units", []))

    play(s, pols, max_orders=120, on_order=watch)
    kinds = [e["kind"] for e in s.log if e.get("side") == "axis"]
    assert "activate" in kinds and "designate" in kinds
    designated = [a for e in s.log if e["kind"] == "designate" and e.get("side") == "axis"
                  for a in json.loads(e["data"])["attackers"]]
    assert designated and set(designated) <= off_units


@pytest.mark.slow
def test_eto_soviet_heuristic_beats_random_axis():
    s, pols = _eto_game("random", "heuristic", 5)
    play(s, pols)
    assert s.is_over and s.result["winner"] == "allies"


@pytest.mark.slow
def test_eto_axis_heuristic_gains_ground_against_random():
    """Small-N sanity check of the Axis bot: it destroys far more than it loses and takes VP.
    (It does not yet reach the Barbarossa victory levels: see docs/bots.md.)"""
    from workbench.bots.score import snapshot, summarize

    s, pols = _eto_game("heuristic", "random", 3)
    s0 = snapshot(s)
    play(s, pols)
    row = summarize(s, s0)
    assert s.is_over
    assert row["steps_lost_allies"] > 2 * row["steps_lost_axis"]
    assert row["vp_axis"] >= 3


def test_eto_axis_lanes_follow_the_scenario_plan():
    """The scenario's [bot_plan.axis] lanes: each Axis combat unit follows the army group HQ
    nearest it, so Army Group North's units drive on Leningrad and the 11th Army's on Rostov."""
    from workbench.rulesets.eto.bot.plan import goal_of, position_info

    s, pols = _eto_game("heuristic", "random", 3)
    pol = pols["axis"]
    ctx = Context(pol, s, "axis", None)
    info = position_info(ctx)
    lanes = pol.game_memo["lanes"]
    hm = s.map
    objectives = {hm.label(i): k for k, i in enumerate(info["objectives"])}
    assert lanes["GE-HQ-AGN"] == objectives[hm.hex_of("Leningrad")]
    assert lanes["GE-HQ-11A"] == objectives[hm.hex_of("Rostov")]
    # a unit next to Army Group North's HQ moves by the Leningrad lane's field, which falls
    # toward Leningrad: one hex nearer Leningrad is one point lower
    near = min((u for u in s.units_by_id.values() if u.nation == "GE" and u.location.isdigit()
                and u.id in lanes and not u.id.startswith("GE-HQ")),
               key=lambda u: hm.distance(u.location, s.unit("GE-HQ-AGN").location))
    assert lanes[near.id] == lanes["GE-HQ-AGN"]
    field = goal_of(ctx, info, near.id)
    assert field[hm.index(hm.hex_of("Leningrad"))] < field[hm.index(near.location)]


@pytest.mark.parametrize(("old", "new", "words"), [
    ('"GE-HQ-AGN" = "Leningrad"', '"GE-HQ-Nowhere" = "Leningrad"', "'GE-HQ-Nowhere' is no unit id"),
    ('"GE-HQ-AGN" = "Leningrad"', '"GE-HQ-AGN" = "Smolensk"', "'Smolensk' is not a victory objective place"),
])
def test_eto_bot_plan_errors_name_the_key(tmp_path, old, new, words):
    """A bad [bot_plan] lane is refused when the scenario loads, naming the key and the problem."""
    from workbench.engine import ScenarioError
    from workbench.engine.scenario import SCENARIOS_DIR

    text = (SCENARIOS_DIR / "eto" / "barbarossa-1941.toml").read_text()
    assert old in text
    bad = tmp_path / "barbarossa-bad.toml"
    bad.write_text(text.replace(old, new))
    with pytest.raises(ScenarioError) as exc:
        wb.load_scenario(bad)
    assert exc.value.key == "bot_plan.axis.lanes"
    assert words in exc.value.message


class _PassPolicy:
    """Ends every step: the side does nothing."""

    def choose_in(self, state, side):  # noqa: ANN001, ANN201
        for kind in ("end_step", "pass"):
            if kind in state.decision.kinds and state.legal_orders_of(kind):
                return state.legal_orders_of(kind)[0]
        return state.legal_orders()[0]


def test_eto_22_2_axis_bot_leads_a_general_offensive(tmp_path):
    """ETO-22.2: with no HQ about, the Axis bot activates Guderian, whose group -- his stack and the
    stack next to it -- combines on one Soviet hex next to him: 4 + 2 (his combat rating, 26.2) + 4
    = 10 SP against 2, read on 4:1 (5:1 is read on 4:1, 26.1).  Either stack alone (a 22.3 stack
    offensive) would attack at 2:1."""
    from eto_kit import events, new_state, unit

    units = [unit("GE-G", "GE", "general", "08641", name="Guderian"), unit("GE-a", "GE", "infantry", "08641"),
             unit("GE-b", "GE", "infantry", "08640"), unit("SU-x", "SU", "infantry", "08741")]
    s = new_state(tmp_path, units, 6, 6, 6)
    bot = make_policy("heuristic", "eto", "axis", 1)
    bot.raise_errors = True
    play(s, {"axis": bot, "allies": _PassPolicy()}, max_orders=80)
    offensives = [e for e in events(s, "offensive") if e.get("side") == "axis"]
    assert offensives and offensives[0]["text"] == "GE offensive by general"
    combat = [e for e in events(s, "combat") if e.get("side") == "axis"]
    assert combat, "the general's offensive attacked"
    assert "08741" in combat[0]["text"] and "4:1" in combat[0]["text"]


def test_eto_24_1_armor_goal_field_goes_round_the_marsh():
    """ETO-24.1 (armor may not enter a marsh): the Axis bot steers by path distance over the land a
    unit may enter, so an armor unit behind the Pripet marshes is led round them, not into them.
    On open ground the field is the plain hex distance (one hex nearer, one point lower)."""
    from workbench.rulesets.eto.bot.fields import path_field
    from workbench.rulesets.eto.terrain import terrain_arrays

    s, pols = _eto_game("heuristic", "random", 3)
    pol = pols["axis"]
    ctx = Context(pol, s, "axis", None)
    hm = s.map
    kiev = hm.index(hm.hex_of("Kiev"))
    inf = path_field(ctx, "infantry", [(kiev, 0.0)])
    arm = path_field(ctx, "armor", [(kiev, 0.0)])
    plain = hm.dist_from(kiev)
    marsh = terrain_arrays(s).marsh
    near = (plain <= 3) & ~marsh & (inf < 1e5)
    assert near.any() and (inf[near] == plain[near]).all()
    assert (arm[marsh] >= 1e5).all(), "armor never stands in a marsh"
    open_ = (arm < 1e5) & (inf < 1e5)
    assert (arm[open_] >= inf[open_]).all()
    detour = open_ & (arm - inf >= 3) & (plain <= 15)
    assert detour.any(), "somewhere within 15 hexes of Kiev the marsh costs armor 3 hexes or more"


def test_eto_23_1_axis_bot_places_a_returning_hq_where_it_commands():
    """ETO-23.1 (an HQ in the force pool is placed on any friendly hex in a seasonal Construction
    phase): the Axis bot puts Army Group Centre's HQ back where its radius covers the most units in
    contact, not on the first legal hex in label order -- a far corner of the map, from which the
    HQ once walked back for three months."""
    from workbench.rulesets.eto.bot.construction import placements
    from workbench.rulesets.eto.bot.plan import hq_score
    from workbench.rulesets.eto.control import SIDE_CODE, control
    from workbench.rulesets.eto.losses import FORCE_POOL

    s, pols = _eto_game("heuristic", "random", 3)
    pol = pols["axis"]
    ctx = Context(pol, s, "axis", None)
    hm = s.map
    hq = s.unit("GE-HQ-AGC")
    home = hm.index(hq.location)
    hq.location = FORCE_POOL
    axis = control(s) == SIDE_CODE["axis"]
    near = hm.dist_from(home) <= 4
    labels = sorted(hm.label(i) for i in range(hm.size) if axis[i] and (near[i] or i % 97 == 0))
    opts = [{"kind": "place_hq", "unit": hq.id, "at": lab} for lab in labels]
    ranked = placements(ctx, opts)
    best = ranked[0]["at"]
    scores = {o["at"]: hq_score(ctx, hq, o["at"], fresh=True) for o in ranked}
    assert scores[best] == max(scores.values()) >= 10, "it commands ten or more units in contact"
    assert best != labels[0] and hq_score(ctx, hq, labels[0], fresh=True) == 0


def test_ssa_summary_records_the_ssa_20_victory_points():
    """The per-game summary carries each side's VP when the game ended on the SSA-20.5 count
    (ssa/1941 at the start: Allies 169, Axis 1 + 40, the morale difference 90 - 50 of SSA-20.3,
    since the scenario plays with national morale, optional rule 21)."""
    from workbench.bots.score import summarize
    from workbench.rulesets.ssa.victory import final_result

    s = wb.load_scenario("ssa/1941").new_state(seed=1)
    s.result = final_result(s)
    row = summarize(s)
    assert (row["winner"], row["vp_axis"], row["vp_allies"]) == ("allies", 41.0, 169.0)


def test_eto_24_4_axis_bot_counts_victory_hexes_a_move_enters():
    """ETO-24.4 (a land unit entering an enemy-controlled hex makes it friendly) with the
    Barbarossa victory count (control, not occupation): a move whose path enters an objective or
    Soviet resource hex the Axis does not hold is worth GRAB_HEXES (3) hexes of progress for each;
    a path through Axis-held or worthless hexes is worth nothing extra."""
    from workbench.rulesets.eto.bot import GRAB_HEXES
    from workbench.rulesets.eto.bot.plan import grab, position_info
    from workbench.rulesets.eto.control import SIDE_CODE, control

    s, pols = _eto_game("heuristic", "random", 3)
    ctx = Context(pols["axis"], s, "axis", None)
    info = position_info(ctx)
    hm = s.map
    kiev, minsk = hm.hex_of("Kiev"), hm.hex_of("Minsk")
    ctrl = control(s)
    assert ctrl[hm.index(kiev)] == SIDE_CODE["allies"] and info["prize"][hm.index(kiev)]
    axis_hex = next(hm.label(i) for i in range(hm.size) if ctrl[i] == SIDE_CODE["axis"] and not info["prize"][i])
    assert GRAB_HEXES == 3.0
    assert grab(ctx, info, {"kind": "move", "unit": "x", "path": [axis_hex, kiev]}) == 3.0
    assert grab(ctx, info, {"kind": "move", "unit": "x", "path": [kiev, minsk]}) == 6.0
    assert grab(ctx, info, {"kind": "move", "unit": "x", "path": [axis_hex]}) == 0.0


def test_eto_22_3_axis_bot_keeps_offensives_for_its_army_groups():
    """ETO-22.1/22.3 with 38.2 (offensives are bought once a season): an HQ offensive attacks up
    to its attack rating (3) each step, a stack offensive once, so the Axis bot makes stack
    offensives only from offensives its five army-group HQs will not need this season.  June 1941
    is the last month of the spring season: the 6 on the track less 5 unactivated HQs leaves 1;
    with 5 on the track none is spare and no stack offensive is a candidate; once Army Group
    Centre has been activated, 1 is spare again."""
    from workbench.rulesets.eto.bot.command import spare_offensives, stack_candidates

    s, pols = _eto_game("heuristic", "random", 3)
    ctx = Context(pols["axis"], s, "axis", None)
    assert s.turn_label == "1941-06" and s.tracks["GE.offensives"] == 6
    assert spare_offensives(ctx, "GE") == 1
    s.tracks["GE.offensives"] = 5
    assert spare_offensives(ctx, "GE") == 0
    assert stack_candidates(ctx) == []
    s.unit("GE-HQ-AGC").props["activated"] = True
    assert spare_offensives(ctx, "GE") == 1


def test_eto_38_3_axis_bot_keeps_eps_through_construction_for_its_offensives(monkeypatch):
    """ETO-38.2/38.3: offensives are bought after construction, at 2 EPs for Germany, 4 in the
    winter seasonal turn.  The bot wants 3 a season for each of its 5 army-group HQs plus 12 stack
    offensives = 27 (within the 30 a nation may hold), so it keeps 54 EPs through a summer or
    autumn construction phase and 108 through the winter one, and builds only beyond that."""
    from workbench.engine.state import State
    from workbench.rulesets.eto.bot.command import offensive_budget, offensives_wanted

    s, pols = _eto_game("heuristic", "random", 3)
    ctx = Context(pols["axis"], s, "axis", None)
    assert offensives_wanted(ctx, "GE") == 27
    assert offensive_budget(ctx, "GE") == 54
    monkeypatch.setattr(State, "turn_label", property(lambda self: "1942-winter"))
    assert offensive_budget(ctx, "GE") == 108


def _eto_order_stream(axis: str, allies: str, seed: int, until_turn: int) -> tuple[int, str]:
    """Barbarossa played by seeded bots up to a turn: the number of orders and the SHA-256 of the
    order stream (each order as canonical JSON, in play order).  The land game: the streams were
    pinned before the scenario had air units, and ``air = False`` leaves them out of play."""
    import hashlib

    game = wb.load_scenario("eto/barbarossa-1941", options={"air": False})
    s = game.new_state(seed=seed)
    pols = {"axis": make_policy(axis, "eto", "axis", seed), "allies": make_policy(allies, "eto", "allies", seed)}
    for p in pols.values():
        if isinstance(p, HeuristicPolicy):
            p.raise_errors = True
    h = hashlib.sha256()
    n = 0

    def record(st, order):  # noqa: ANN001
        nonlocal n
        h.update(json.dumps(order, sort_keys=True).encode())
        n += 1

    play(s, pols, until_turn=until_turn, on_order=record)
    return n, h.hexdigest()


#: Re-recorded for the random side when the air war added ``air_offensive`` to the Command step's
#: order kinds (the random policy draws a kind first); the heuristic games did not change.  Re-recorded
#: again when Germany's EP exchange with Italy (36.9) opened a decision in the seasonal turn and a
#: minor's home garrison (41.2) began to hold Rumanian, Hungarian and Finnish units back.
#: Re-recorded once more when a player's removal of his own supply markers (32.4) became an order of
#: the Movement phase: the random side's draw of kinds changed; the heuristic games did not.
_SPLIT_GAMES = [  # (axis bot, allies bot, seed, until turn, orders, SHA-256 of the order stream)
    ("heuristic", "heuristic", 4, 2, 342, "b215f190dcdf0efe4a4eaab6f1f58328269420b41c47c0a97eea33da44cec437"),
    ("heuristic", "random", 1, 2, 261, "a30305d0ba22e0ea8f81bcb985dff6890259200f3c3d2511236a53b1b4c05923"),
    ("heuristic", "random", 1, 4, 885, "7e0825f09f876247de1e05e895b7fd3d5e635f9072f84c0d513c74a943394ca0"),
    ("heuristic", "random", 2, 4, 892, "24b8b7cccdb98a44ad8b08169f05ca000c54a20f41cf91b50fab479e53b205d8"),
    ("heuristic", "random", 3, 4, 870, "c1ecaba6fc68cce261d114d4e9c9054e8c8c1ddbfd471a918bbd78ad42cd6da5"),
    ("heuristic", "heuristic", 4, 4, 1018, "419388162d2fbf49600ea9d46efed45459839f985ae17d349066229699273569"),
    ("random", "heuristic", 5, 4, 325, "9635b9c764ea9bf1c7d230f7c04515b1d4a4d570b0d77f79cb4bdc694fb93f19"),
]


@pytest.mark.parametrize(("axis", "allies", "seed", "until_turn", "orders", "sha"), [
    pytest.param(*g, id=f"{g[0]}-{g[1]}-seed{g[2]}-turn{g[3]}",
                 marks=[pytest.mark.slow] if g[3] > 2 else [])  # the two short games take ~9 s
    for g in _SPLIT_GAMES
])
def test_eto_brain_split_plays_the_same_games(axis, allies, seed, until_turn, orders, sha):
    """The ETO brain split into per-phase planners (rulesets/eto/bot/) plays exactly the games the
    one-class brain (bot.py at 702a76f) played: the same orders, one by one, for the same seeds.
    The pinned streams were recorded from that commit; the positions' ``state.digest()`` matched
    too (it is not pinned here: it also changes with the engine's state layout).  A deliberate
    change of the bot's play, or of the legal orders, must re-record them with ``_eto_order_stream``."""
    assert _eto_order_stream(axis, allies, seed, until_turn) == (orders, sha)
