"""Derived data: the map- and game-level caches (``HexMap.cached``, ``Game.cached``) and the
per-position cache (``State.derived``); see docs/architecture.md, "Derived data"."""

from __future__ import annotations

import pickle
from functools import cached_property

import pytest

from workbench.bots import play
from workbench.bots.heuristic import make_policy
from workbench.engine import load_scenario
from workbench.map import HexMap


def _counter():
    calls: list[int] = []

    def count(value):
        def compute():
            calls.append(1)
            return value() if callable(value) else value
        return compute
    return calls, count


def test_a_map_level_value_is_computed_once_per_map(toy_game, toy_scenario_file, testland_dir):
    calls, count = _counter()
    hm = toy_game.map
    water = hm.cached("test.water_count", count(lambda: int(hm.is_water.sum())))
    assert water > 0
    assert hm.cached("test.water_count", count(-1)) == water and len(calls) == 1
    other = load_scenario(toy_scenario_file)  # another game on the same (process-cached) map
    assert other is not toy_game and other.map is hm
    assert other.map.cached("test.water_count", count(-1)) == water and len(calls) == 1
    fresh = HexMap.load(testland_dir)  # another map object has its own cache
    assert fresh.cached("test.water_count", count(7)) == 7 and len(calls) == 2
    # a pickled map (e.g. sent to a worker) travels without its cache and rebuilds it
    copy = pickle.loads(pickle.dumps(hm))
    assert copy.cached("test.water_count", count(8)) == 8 and len(calls) == 3
    assert hm.cached("test.water_count", count(-1)) == water


def test_a_game_level_value_is_computed_once_per_game(toy_game, toy_scenario_file):
    calls, count = _counter()
    assert toy_game.cached("test.sides", count(lambda: tuple(toy_game.ruleset.sides))) == ("axis", "allies")
    assert toy_game.cached("test.sides", count(None)) == ("axis", "allies") and len(calls) == 1
    other = load_scenario(toy_scenario_file)  # its tables could be overridden: its own cache
    assert other.cached("test.sides", count("other")) == "other" and len(calls) == 2


def test_a_position_derived_value_is_recomputed_after_a_move_and_after_undo(toy_state):
    s = toy_state
    calls, count = _counter()
    where = count(lambda: s.unit("GE-pz").location)
    assert s.derived("test.pz", where) == "0503"
    assert s.derived("test.pz", where) == "0503" and len(calls) == 1  # kept while nothing moves
    s.apply({"kind": "move", "unit": "GE-pz", "path": ["0603"]})
    assert s.derived("test.pz", where) == "0603" and len(calls) == 2  # a unit moved
    assert s.derived("test.pz", where) == "0603" and len(calls) == 2
    assert s.undo()
    assert s.derived("test.pz", where) == "0503" and len(calls) == 3  # undone
    fork = s.fork()  # a fork starts with an empty cache
    assert fork.derived("test.pz", count(lambda: fork.unit("GE-pz").location)) == "0503"
    assert len(calls) == 4


def test_derived_dependencies_and_forget(toy_state):
    s = toy_state
    calls, count = _counter()
    level = count(lambda: s.tracks.get("test.level", 0))
    assert s.derived("test.level", level, len(s.log)) == 0
    s.tracks["test.level"] = 2  # changed without an event: the stamp cannot see it ...
    assert s.derived("test.level", level, len(s.log)) == 0 and len(calls) == 1
    s.emit("note", rule="TEST", text="level 2")  # ... an event changes the dependency
    assert s.derived("test.level", level, len(s.log)) == 2 and len(calls) == 2
    s.tracks["test.level"] = 3
    s.forget("test.")  # or forget it explicitly
    assert s.derived("test.level", level, len(s.log)) == 3 and len(calls) == 3
    s.forget()
    assert s.derived("test.level", level, len(s.log)) == 3 and len(calls) == 4
    # a pickled state leaves its derived data behind (its stamps hold this process's unit epoch)
    assert s.__getstate__()["_derived"] == {} and s._derived


@pytest.mark.parametrize(("scenario", "turns"), [("ssa/valor-of-ignorance", 1), ("eto/barbarossa-1941", None)])
def test_rules_and_bots_keep_their_caches_in_the_two_caches_only(scenario, turns):
    """No game or map object grows attributes in play: derived data lives in ``Game.cached``,
    ``HexMap.cached`` or ``State.derived`` only."""
    game = load_scenario(scenario)
    before_game, before_map = set(vars(game)), set(vars(game.map))
    state = game.new_state(seed=5)
    a, b = game.ruleset.sides
    pols = {a: make_policy("heuristic", game.ruleset.name, a, 1), b: make_policy("heuristic", game.ruleset.name, b, 2)}
    play(state, pols, until_turn=turns, max_orders=1_000_000 if turns else 120)
    assert set(vars(game)) == before_game
    lazy = {k for k, v in vars(HexMap).items() if isinstance(v, cached_property)}
    assert set(vars(game.map)) - before_map <= lazy  # declared lazy properties only
    assert set(vars(state)) == set(vars(game.new_state(seed=5)))


def test_a_side_scoped_value_outlives_the_other_sides_changes_only(toy_state):
    """``State.derived(..., side=s)``: kept while only other sides' units change; recomputed after
    any change to a unit of ``s`` (a move, a flag, a side change), a unit added or removed, and
    undo.  ``others=True`` is the mirror image."""
    s = toy_state
    calls, count = _counter()
    mine = next(u for u in s.units_by_id.values() if u.side == "axis")
    theirs = next(u for u in s.units_by_id.values() if u.side == "allies")

    def axis_where():
        return count(lambda: sorted(u.location for u in s.units_by_id.values() if u.side == "axis"))

    def ask():
        return s.derived("test.axis", axis_where(), side="axis")

    first = ask()
    assert ask() == first and len(calls) == 1
    theirs.location = theirs.location  # an enemy change: kept
    theirs.flag("test", 1)
    assert ask() == first and len(calls) == 1
    assert s.derived("test.not_axis", count("x"), side="axis", others=True) == "x" and len(calls) == 2
    theirs.reduced = not theirs.reduced  # ... which the mirror image sees
    assert s.derived("test.not_axis", count("y"), side="axis", others=True) == "y" and len(calls) == 3
    mine.reduced = not mine.reduced  # an own change: recomputed
    ask()
    assert len(calls) == 4
    mine.flag("test", 1)
    ask()
    assert len(calls) == 5
    theirs.side = "axis"  # a unit changing sides changes both
    ask()
    assert len(calls) == 6
    theirs.side = "allies"
    ask()
    assert len(calls) == 7
    gone = s.units_by_id.pop(theirs.id)  # removed without a change to any unit: still seen
    ask()
    assert len(calls) == 8
    s.units_by_id[gone.id] = gone
    ask()
    assert len(calls) == 9
    ask()
    assert len(calls) == 9
    from workbench.engine.units import touch

    touch()  # units replaced wholesale
    ask()
    assert len(calls) == 10


def test_ssa_side_scoped_caches_match_a_fresh_computation_through_a_game():
    """The SSA data cached per side (ZOC, enemy-held hexes, the land step graphs) equals a fresh
    computation after every order of a heuristic game: a cache that went stale is a rules bug."""
    from workbench.rulesets.ssa import intelligence, movement, stacking, supply, zoc

    game = load_scenario("ssa/valor-of-ignorance")
    state = game.new_state(seed=3)
    a, b = game.ruleset.sides
    pols = {a: make_policy("heuristic", "ssa", a, 1), b: make_policy("heuristic", "ssa", b, 2)}
    rules = game.ruleset.order_kinds["move"].rules
    checked = 0

    def compare(st, _order):
        nonlocal checked
        for side in (a, b):
            for fn in (zoc.land_zoc, movement.enemy_present, movement.enemy_land_present, stacking.land_thirds,
                       supply.friendly_land):
                cached = fn(st, side).copy()
                st.forget("ssa.")
                assert (fn(st, side) == cached).all(), (fn.__name__, side, st.clock)
            cached = {h: [u.id for u in us] for h, us in intelligence.enemy_stacks(st, side).items()}
            st.forget("ssa.")
            assert {h: [u.id for u in us] for h, us in intelligence.enemy_stacks(st, side).items()} == cached
            land = [u for u in st.units_by_id.values() if u.side == side and u.location.isdigit()
                    and u.type.endswith("division")]
            for u in land[:2]:
                cached = rules.step_graph(st, u)
                st.forget("ssa.")
                fresh = rules.step_graph(st, u)
                assert (cached != fresh).nnz == 0, (u.id, st.clock)
                checked += 1

    play(state, pols, on_order=compare)
    assert state.is_over and checked > 100
