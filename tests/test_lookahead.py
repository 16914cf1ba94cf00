"""The lookahead bot (issue 25 item 3): registered by name, deterministic, its attack choice better
than the heuristic's where the exact expectation over the combat die says so, whole games."""

from __future__ import annotations

from fractions import Fraction

import pytest
from kit import FixedDice

from workbench.batch import parse_bots
from workbench.bots import play
from workbench.bots.heuristic import BOTS, make_policy
from workbench.bots.lookahead import (
    LookaheadPolicy,
    WhatIfDice,
    allocate,
    determinize,
    force_combat_die,
    parent_node,
    value,
)
from workbench.engine import load_scenario
from workbench.rulesets.ssa import adjudicate as ssa_adj

VOI = "ssa/valor-of-ignorance"


@pytest.fixture(scope="module")
def voi():
    return load_scenario(VOI)


def test_lookahead_is_registered_by_name_for_batch_and_cli():
    assert "lookahead" in BOTS
    assert parse_bots("lookahead,heuristic") == ("lookahead", "heuristic")
    for ruleset in ("ssa", "eto"):
        pol = make_policy("lookahead", ruleset, "axis", 3)
        assert isinstance(pol, LookaheadPolicy) and pol.name == "lookahead"


def test_lookahead_is_offered_by_the_ui_bot_menu(toy_state):
    from workbench.ui.workbench import Workbench

    wb = Workbench(toy_state)
    assert "lookahead" in wb.outline.bot_pick.options
    wb.outline.bot_pick.value = "lookahead"
    assert all(isinstance(p, LookaheadPolicy) for p in wb.outline.policies.values())
    assert wb.outline.bot("step") >= 1  # the toy has no attack planner: the bot plays on regardless
    with pytest.raises(ValueError, match="unknown bot"):
        wb.outline.set_bot("genius")


def _game(game, seed: int, axis: str = "lookahead", allies: str = "lookahead"):
    st = game.new_state(seed=seed)
    pols = {"axis": make_policy(axis, VOI.split("/")[0], "axis", seed * 2),
            "allies": make_policy(allies, VOI.split("/")[0], "allies", seed * 2 + 1)}
    for p in pols.values():
        p.raise_errors = True
    return st, pols


def test_lookahead_is_deterministic_given_the_seed(voi):
    """The same seed gives the same game, searches included: planning never draws on the game's
    dice (its forks roll a private generator seeded by the policy seed and the position)."""
    digests = []
    for _ in range(2):
        st, pols = _game(voi, 1, allies="heuristic")
        play(st, pols, until_turn=3)
        assert pols["axis"].searches > 0
        digests.append(st.digest())
    assert digests[0] == digests[1]


@pytest.mark.slow
def test_lookahead_plays_a_whole_valor_of_ignorance_game(voi):
    """Both sides search, the game finishes, with no bot error."""
    st, pols = _game(voi, 4)
    play(st, pols)
    assert st.is_over
    assert all(p.errors == 0 for p in pols.values())
    assert pols["axis"].searches > 0 and pols["allies"].searches > 0


def exact_value(state, order, side: str) -> float:
    """The mean value of ``order`` over the six faces of the combat die (FixedDice), on the true
    position, both sides playing on by the heuristic until the combat phase is over."""
    parent = parent_node(state)
    total = 0.0
    for face in range(1, 7):
        f = state.fork()
        f.dice = FixedDice(face, *([3] * 400))
        f.apply(order)
        pols = {s: make_policy("heuristic", "ssa", s, 0) for s in f.ruleset.sides}
        for _ in range(400):
            if f.is_over or not any(fr.get("node") == parent for fr in f.frames):
                break
            d = f.decision
            f.apply(pols[d.side].choose_in(f, d.side))
        total += value(f, side)
    return total / 6


def test_ssa_11_lookahead_attack_choice_beats_the_heuristic_where_the_exact_expectation_says_so(voi):
    """Valor of Ignorance, seed 1, August 1939: the heuristic Japanese attack the U.S. stack in
    074067 with three units; the lookahead holds back.  Played out over the six faces of the
    combat die on the true position (which the lookahead never saw: it plays on deals of the
    hidden U.S. stacks), holding back is worth more."""
    st = voi.new_state(seed=1)
    pol = make_policy("lookahead", "ssa", "axis", 1)
    twin = make_policy("heuristic", "ssa", "axis", 1)
    opp = make_policy("heuristic", "ssa", "allies", 101)
    pol.raise_errors = True
    while not st.is_over:
        d = st.decision
        if d.side == "axis":
            mine, theirs = pol.choose_in(st, "axis"), twin.choose_in(st, "axis")
            if mine != theirs:
                break
            st.apply(mine)
        else:
            st.apply(opp.choose_in(st, "allies"))
    assert not st.is_over and st.turn_label == "1939-08"
    assert theirs["kind"] == "attack" and theirs["targets"] == ["074067"]
    assert exact_value(st, mine, "axis") > exact_value(st, theirs, "axis")


def test_ssa_11_what_if_dice_force_the_combat_die_only(voi):
    """The forced face goes to the first land combat die (SSA-11: 1d6 on the CRT); other rolls
    come from the private generator."""
    st = voi.new_state(seed=1)
    fork = st.fork()
    dice = force_combat_die(fork, 5, seed=9)
    assert isinstance(fork.dice, WhatIfDice)
    fork.roll(purpose="weather", rule="SSA-26")
    assert dice.face == 5  # not used up by another roll
    assert fork.roll(purpose="land combat 6 vs 2 at 000000", rule="SSA-11") == [5]
    assert dice.face is None
    assert st.dice.state != fork.dice.state  # the game's dice are untouched by the fork's


def test_ssa_19_determinize_keeps_each_hidden_hex_count(voi):
    """Fog of war (SSA-19): a deal moves only units the side's view hides, over the hexes it
    hides them in, each hex keeping its count of hidden units."""
    st = voi.new_state(seed=1)
    view = st.ruleset.view(st, "allies")
    hidden = dict(view.hidden_stacks)
    assert hidden
    d = determinize(st, "allies", seed=3)
    dv = st.ruleset.view(d, "allies")
    assert dict(dv.hidden_stacks) == hidden
    for uid, u in view.units_by_id.items():
        assert d.unit(uid).location == u.location


def test_ssa_11_allocation_beats_the_greedy_best_attack_on_the_crt():
    """SSA-11.G CRT, one-step units: A (6 CF) reaches T1 and T2, B (3 CF) only T1, each held by a
    1-CF unit.  The single best attack is A and B together on T1 (9-1); the allocation search
    instead sends A against T2 (6-1) and B against T1 (3-1), worth more over the exact CRT
    distributions together than the 9-1 alone."""
    def balance(col: str) -> float:  # expected defender steps minus attacker steps (1 step a side)
        loss = {"DZ": (0, 1), "DE": (0, 1), "EX": (1, 1), "AE": (1, 0), "AZ": (1, 0)}
        dist = ssa_adj.outcome_distribution(col)
        return float(sum(p * (loss.get(r, (0, 0))[1] - loss.get(r, (0, 0))[0]) for r, p in dist.items()))

    assert ssa_adj.outcome_distribution("9-1")["DZ"] == Fraction(5, 6)
    w91, w61, w31 = balance("9-1"), balance("6-1"), balance("3-1")
    assert w91 == pytest.approx(1.0) and w61 == pytest.approx(5 / 6) and w31 == pytest.approx(2 / 6)
    options = [(w91, frozenset({"A", "B"}), frozenset({"T1"})),
               (w61, frozenset({"A"}), frozenset({"T1"})),
               (w61, frozenset({"A"}), frozenset({"T2"})),
               (w31, frozenset({"B"}), frozenset({"T1"}))]
    greedy = max(range(len(options)), key=lambda i: options[i][0])
    assert greedy == 0
    total, chosen = allocate(options)
    assert total == pytest.approx(w61 + w31) and total > w91
    assert chosen == [2, 3]
    # one attack left (ETO-22.1: an HQ's attack rating spent): then the 9-1 is the best use of both
    assert allocate(options, limit=1) == (pytest.approx(w91), [0])
