"""The flow: nested steps, per-side turns, a three-deep interrupt chain, alternating offensives."""

from __future__ import annotations

import pytest

from workbench.engine import IllegalOrder


def _end_until(state, predicate, limit=50):
    for _ in range(limit):
        if predicate(state):
            return
        state.advance()
    raise AssertionError(f"never reached the wanted position; at {state.clock}")


def test_nested_steps_and_clock(toy_state):
    s = toy_state
    assert s.clock == ("1941-06", "Axis player turn", "Movement")
    assert s.decision.side == "axis" and s.decision.rule == "TOY-3.1"
    assert "supply checked" in s.events()["text"].to_list()  # automatic step ran on the way
    s.advance()
    assert s.clock == ("1941-06", "Axis player turn", "Combat", "Fire")
    s.advance()
    assert s.clock == ("1941-06", "Allies player turn", "Movement")
    assert s.decision.side == "allies"
    s.advance()
    s.advance()
    assert s.clock == ("1941-06", "Offensive phase")


def test_interrupt_chain_three_deep(toy_state):
    s = toy_state
    s.apply({"kind": "fly", "unit": "GE-air"})
    assert s.decision.kind == "interception" and s.decision.side == "allies"
    s.apply({"kind": "intercept"})
    assert s.decision.kind == "counter-interception" and s.decision.side == "axis"
    s.apply({"kind": "intercept"})
    assert s.decision.kind == "counter-counter-interception" and s.decision.side == "allies"
    assert sum("interrupt" in f for f in s.frames) == 3
    assert s.clock[-3:] == ("intercept GE-air?", "declare counter-interception?",
                            "declare counter-counter-interception?")
    s.apply({"kind": "intercept"})
    # all three resolve, innermost first, then play returns to the mover's step
    resolved = s.events().filter(kind="resolve")["data"].to_list()
    assert [r.split('"level":"')[1].split('"')[0] for r in resolved] == [
        "counter-counter-interception", "counter-interception", "interception"]
    assert s.decision.kind == "player/movement" and s.decision.side == "axis"


def test_declined_interception_pops_without_resolution(toy_state):
    s = toy_state
    s.apply({"kind": "fly", "unit": "GE-air"})
    s.apply({"kind": "pass"})
    assert s.events().filter(kind="resolve").height == 0
    assert s.decision.side == "axis" and s.decision.kind == "player/movement"


def test_interrupt_owner_only(toy_state):
    s = toy_state
    s.apply({"kind": "fly", "unit": "GE-air"})
    with pytest.raises(IllegalOrder, match="not open now"):
        s.apply({"kind": "end_step"})
    with pytest.raises(IllegalOrder, match="allies's decision"):
        s.apply({"kind": "intercept", "side": "axis"})


def test_alternating_offensives_end_after_two_passes_in_a_row(toy_state):
    s = toy_state
    _end_until(s, lambda st: st.clock == ("1941-06", "Offensive phase"))
    assert s.decision.side == "axis"  # the initiative side goes first
    s.apply({"kind": "begin"})
    assert s.clock == ("1941-06", "Offensive phase", "Axis offensive")
    s.advance()  # end the offensive's only step
    assert s.decision.side == "allies" and s.decision.kinds == ("begin", "pass")
    s.apply({"kind": "pass"})
    assert s.decision.side == "axis"
    s.apply({"kind": "begin"})  # a performed offensive resets the pass count
    s.advance()
    s.apply({"kind": "pass"})  # allies pass
    assert s.clock == ("1941-06", "Offensive phase") and s.decision.side == "axis"
    s.apply({"kind": "pass"})  # axis passes too: two in a row, the phase ends
    assert s.clock == ("1941-07", "Axis player turn", "Movement")


def test_turns_advance_and_game_ends_with_result(toy_state):
    s = toy_state
    for _ in range(200):
        if s.is_over:
            break
        d = s.decision
        s.apply({"kind": "pass"} if "pass" in d.kinds else {"kind": "end_step"})
    assert s.is_over and s.decision is None
    assert s.result == {"winner": None, "level": "draw", "rule": "TOY-8"}
    assert s.legal_orders() == []
    with pytest.raises(IllegalOrder, match="game is over"):
        s.apply({"kind": "end_step"})


def test_end_step_is_among_legal_orders(toy_state):
    assert {"kind": "end_step"} in toy_state.legal_orders()


def test_real_sequences_declare_every_phase():
    from workbench.engine.ruleset import get_ruleset

    ssa = get_ruleset("ssa").sequence
    assert [c.key for c in ssa.roots["turn"].children] == ["start", "mobilization", "player", "end"]
    player = ssa.nodes["turn/player"]
    assert player.kind == "sides" and player.sides == ("axis", "allies")
    assert [c.title for c in player.children] == [
        "Special Action phase", "Initial Movement phase", "Interception phase", "Combat phase",
        "Mechanized Movement phase", "End of player turn"]
    assert [c.title for c in ssa.nodes["turn/player/combat"].children][:3] == [
        "Aerial combat", "Naval combat", "Land combat"]
    eto = get_ruleset("eto").sequence
    assert set(eto.roots) == {"monthly", "seasonal", "attack-4A", "combat-result", "air-offensive-4B"}
    assert [c.key for c in eto.roots["combat-result"].children] == [
        "attacker-losses", "defender-result", "retreats", "installations", "advance-after-combat",
        "secondary-advance", "breakthrough-move"]
    assert [c.key for c in eto.roots["monthly"].children] == [
        "weather", "strategic", "naval-air", "offensive", "movement", "end"]
    assert [c.path.rsplit("/", 1)[1] for c in eto.nodes["monthly/strategic"].children] == [
        "conversion", "bombing", "arctic", "raiders", "uboats", "iron-route"]  # 11.5, then Steps 1-5
    assert eto.nodes["monthly/naval-air/sides"].chooser == "initiative"
    assert len(eto.nodes["monthly/naval-air/sides"].children) == 4
    assert eto.nodes["monthly/offensive"].kind == "alternate"
    assert len(eto.nodes["monthly/offensive"].children) == 6
    assert len(eto.nodes["monthly/end"].children) == 5
    assert len(eto.roots["seasonal"].children) == 4
    assert [c.key for c in eto.roots["attack-4A"].children] == [
        "paratroops", "ground-support", "designate", "defensive-support", "paradrops",
        "resolve", "air-return"]
    assert len(eto.roots["air-offensive-4B"].children) == 4
