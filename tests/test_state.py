"""State: determinism, digest, fork, undo, rejected orders, events, units."""

from __future__ import annotations

import pytest

from workbench.bots import RandomPolicy, play
from workbench.engine import IllegalOrder
from workbench.engine.events import EVENT_SCHEMA


def _random_game(game, seed, policy_seed=3, max_orders=400):
    s = game.new_state(seed=seed)
    pol = RandomPolicy(policy_seed)
    play(s, {"axis": pol, "allies": pol}, max_orders=max_orders)
    return s


def test_same_scenario_seed_and_orders_give_same_digest(toy_game):
    a = _random_game(toy_game, seed=11)
    b = toy_game.new_state(seed=11)
    for order in a.orders:
        b.apply(order)
    assert a.digest() == b.digest()
    assert a.events().equals(b.events())


def test_different_seed_gives_different_dice(toy_game):
    a = _random_game(toy_game, seed=1)
    b = toy_game.new_state(seed=2)
    for order in a.orders:
        b.apply(order)
    rolls_a = a.events().filter(kind="roll")["total"].to_list()
    rolls_b = b.events().filter(kind="roll")["total"].to_list()
    assert rolls_a and rolls_a != rolls_b


def test_rejected_order_leaves_digest_unchanged(toy_state):
    before = toy_state.digest()
    bad = [
        {"kind": "move", "unit": "GE-inf-1", "path": ["0404", "0104"]},  # into the sea
        {"kind": "move", "unit": "GE-inf-1", "path": ["0804"]},  # not adjacent
        {"kind": "move", "unit": "SU-inf-1", "path": ["0704"]},  # not the mover's unit
        {"kind": "move", "unit": "GE-inf-1", "path": ["0604", "0704", "0804", "0904"]},  # too far
        {"kind": "fire", "unit": "GE-inf-1", "target": "0804"},  # wrong step
        {"kind": "teleport"},
        {"no": "kind"},
    ]
    for order in bad:
        with pytest.raises(IllegalOrder):
            toy_state.apply(order)
        assert toy_state.digest() == before


def test_illegal_move_names_rule_and_reason(toy_state):
    with pytest.raises(IllegalOrder) as exc:
        toy_state.apply({"kind": "move", "unit": "GE-inf-1", "path": ["0404", "0304", "0204"]})
    assert exc.value.rule == "TOY-3.1"
    assert "cannot enter 0204: land units never enter water" in str(exc.value)
    with pytest.raises(IllegalOrder, match="has 3 movement points and entering 0904"):
        toy_state.apply({"kind": "move", "unit": "GE-inf-1", "path": ["0604", "0704", "0804", "0904"]})


def test_fork_is_independent(toy_state):
    fork = toy_state.fork()
    assert fork.digest() == toy_state.digest()
    fork.apply({"kind": "move", "unit": "GE-pz", "path": ["0603"]})
    assert fork.unit("GE-pz").location == "0603"
    assert toy_state.unit("GE-pz").location == "0503"
    assert fork.digest() != toy_state.digest()


def test_undo_restores_until_dice_are_rolled(toy_state):
    s = toy_state
    d0 = s.digest()
    s.apply({"kind": "move", "unit": "GE-pz", "path": ["0603"]})
    assert s.can_undo and s.undo()
    assert s.digest() == d0
    s.apply({"kind": "move", "unit": "GE-inf-1", "path": ["0604", "0704"]})  # next to SU at 0804
    s.advance()  # to Fire
    order = next(o for o in s.legal_orders() if o["kind"] == "fire")
    s.apply(order)  # rolls a die: undo history is cleared
    assert s.events()["kind"].to_list()[-1] in ("roll", "hit")
    assert not s.can_undo and s.undo() is False


def test_every_roll_is_logged_with_purpose_and_rule(toy_game):
    s = _random_game(toy_game, seed=5)
    rolls = s.events().filter(kind="roll")
    assert rolls.height > 0
    assert rolls["rule"].to_list() == ["TOY-7"] * rolls.height
    assert all(p.startswith(("GE-", "SU-")) for p in rolls["purpose"].to_list())
    assert all(1 <= t <= 6 for t in rolls["total"].to_list())


def test_events_frame_schema(toy_state):
    df = toy_state.events()
    assert list(df.columns) == list(EVENT_SCHEMA)
    assert df["seq"].to_list() == list(range(df.height))


def test_units_frame(toy_state):
    df = toy_state.units()
    assert df.columns == ["id", "side", "nation", "type", "size", "location", "reduced"]
    assert df.filter(id="SU-res")["location"].item() == "Reserve"
    assert df.filter(side="axis").height == 4


def test_apply_returns_the_events_it_caused(toy_state):
    evs = toy_state.apply({"kind": "move", "unit": "GE-pz", "path": ["0603"]})
    assert [e["kind"] for e in evs] == ["move"]
    assert evs[0]["text"] == "GE-pz moves 0503 → 0603"


def test_annotations_travel_with_the_record(toy_state):
    toy_state.apply({"kind": "move", "unit": "GE-pz", "path": ["0603"]})
    toy_state.annotate("bold push", ["!", "key moment"])
    rec = toy_state.record()
    assert rec.annotations[0] == {"comment": "bold push", "marks": ["!", "key moment"]}


def test_decision_carries_side_kind_prompt_rule_and_options(toy_state):
    d = toy_state.decision
    assert (d.side, d.kind, d.rule) == ("axis", "player/movement", "TOY-3.1")
    assert "Movement" in d.prompt
    assert d.options == toy_state.legal_orders() and {"kind": "end_step"} in d.options


def test_errors_pickle_for_worker_processes():
    import pickle

    from workbench.engine import ScenarioError

    e = pickle.loads(pickle.dumps(IllegalOrder("SSA-5.1", "enemy units there")))
    assert (e.rule, e.why, str(e)) == ("SSA-5.1", "enemy units there", "SSA-5.1: enemy units there")
    s = pickle.loads(pickle.dumps(ScenarioError("f.toml", "units[0].at", "unknown hex")))
    assert (s.file, s.key, s.message) == ("f.toml", "units[0].at", "unknown hex")


def test_illegal_order_of_keeps_a_refusals_rule_and_cites_plain_words_under_the_default():
    from workbench.engine import Refusal

    e = IllegalOrder.of(Refusal("SSA-5.7f", "the rail limit is used up"), "SSA-5.7")
    assert (e.rule, e.why, str(e)) == ("SSA-5.7f", "the rail limit is used up", "SSA-5.7f: the rail limit is used up")
    assert e.refusal == Refusal("SSA-5.7f", "the rail limit is used up")
    e = IllegalOrder.of("GE-4Pz cannot end its move in 0601: full", "SSA-9.1")  # never parsed for a rule
    assert (e.rule, e.why) == ("SSA-9.1", "GE-4Pz cannot end its move in 0601: full")
    e = IllegalOrder.of("SSA-5.1: enemy units there", "SSA-5.0")
    assert (e.rule, e.why) == ("SSA-5.0", "SSA-5.1: enemy units there")
    assert str(Refusal("ETO-22.4", "no")) == "ETO-22.4: no" and not hasattr(IllegalOrder, "cited")


def test_real_refusals_carry_the_rule_in_rule_and_plain_words_in_why(tmp_path, ssa_game):
    """Regression: rules helpers answer a typed Refusal, so no refusal ever repeats its rule ID at
    the head of its words (ETO movement ZOC 25.2 and designation 26.0; SS Amerika terrain 5.3)."""
    from eto_kit import begin_offensive, new_state, step_to, unit
    from ssa_kit import NO_SUPPLY_MOVEMENT_PENALTY

    from workbench.engine import Refusal
    from workbench.rulesets.eto.combat import target_why_not

    eto = new_state(tmp_path, [unit("GE-a", "GE", "infantry", "08540"), unit("GE-b", "GE", "infantry", "08540"),
                               unit("SU-a", "SU", "infantry", "08740")])
    begin_offensive(eto)
    eto.apply({"kind": "activate", "mode": "stack", "hex": "08540"})
    step_to(eto, "offensive/movement")
    leave_zoc = {"kind": "move", "unit": "GE-a", "path": ["08640", "08641"]}
    assert eto.check(leave_zoc) == Refusal("ETO-25.2", "GE-a may not move on into 08641 (enemy ZOC or weather)")
    for uid in ("GE-a", "GE-b"):
        eto.apply({"kind": "move", "unit": uid, "path": ["08640"]})
    step_to(eto, "offensive/combat")
    eto.apply({"kind": "attack"})
    empty = Refusal("ETO-26.0", "08741 holds no enemy land unit or fortification")
    assert target_why_not(eto, "axis", "08741", [eto.unit("GE-a")], "combat") == empty  # the helper itself
    assert eto.check({"kind": "designate", "target": "08741", "attackers": ["GE-a"]}) == empty

    ssa = ssa_game([{"id": "GE-pz", "nation": "GE", "type": "armor_division", "at": "0902"}],
                   extra=NO_SUPPLY_MOVEMENT_PENALTY).new_state(seed=1)
    while (ssa.decision.kind, ssa.decision.side) != ("player/initial-movement", "axis"):
        ssa.advance()
    words = "mountains (1002) is prohibited to mechanized units except along a transportation line"
    hm, rules = ssa.map, ssa.game.ruleset.order_kinds["move"].rules
    assert rules.why_not(ssa, ssa.unit("GE-pz"), hm.index("0902"), hm.index("1002")) == Refusal("SSA-5.3", words)
    for order in ({"kind": "move", "unit": "GE-pz", "path": ["1002"]}, {"kind": "move", "unit": "GE-pz", "to": "1002"}):
        assert ssa.check(order) == Refusal("SSA-5.3", words)
        with pytest.raises(IllegalOrder) as exc:
            ssa.apply(order)
        assert (exc.value.rule, exc.value.why, str(exc.value)) == ("SSA-5.3", words, f"SSA-5.3: {words}")


def test_check_gives_the_typed_refusal_apply_would_raise_and_changes_nothing(toy_state):
    """state.check(order) answers (rule, why) or None without changing anything; apply raises
    exactly that refusal, so the UI and the bots never apply an order to learn why it fails."""
    from workbench.engine import Refusal

    before = toy_state.digest()
    for bad in ({"kind": "no-such-order"}, {"kind": "end_step", "side": "nobody"}, ["not", "a", "dict"]):
        why = toy_state.check(bad)
        assert isinstance(why, Refusal) and why.rule and why.why
        with pytest.raises(IllegalOrder) as exc:
            toy_state.apply(bad)
        assert exc.value.refusal == why
    assert toy_state.digest() == before
    legal = toy_state.legal_orders()
    assert legal and all(toy_state.check(o) is None for o in legal)
    assert toy_state.digest() == before


def test_apply_records_a_private_copy_of_the_order_and_returns_copies_of_events(toy_state):
    """Issue 20.1: changing an order dict after apply, or reusing one dict in a loop, must not
    rewrite history; the events apply returns are copies, not the log itself."""
    s = toy_state
    legal = s.legal_orders()
    order = dict(next(o for o in legal if o["kind"] != "end_step"))
    keep = dict(order)
    evs = s.apply(order)
    order["kind"] = "tampered"
    assert s.orders[-1] == keep
    n = len(s.log)
    evs[-1]["text"] = "tampered"
    evs.append({"kind": "x"})
    assert len(s.log) == n and s.log[n - 1]["text"] != "tampered"
    again = s.game.new_state(seed=s.seed)
    for o in s.orders:
        again.apply(o)
    assert again.digest() == s.digest()


def test_an_order_with_a_non_string_key_is_refused_and_the_state_stays_usable(toy_state):
    """Issue 20.2: {"kind": "end_step", 1: "x"} was accepted, then digest() and record() raised
    TypeError.  It is an IllegalOrder now, and so are non-JSON values, NaN and deep nesting."""
    s = toy_state
    before = s.digest()
    deep: dict = {"kind": "end_step"}
    node = deep
    for _ in range(20):
        node["x"] = {}
        node = node["x"]
    for bad in ({"kind": "end_step", 1: "x"}, {"kind": "end_step", "x": {2: 3}}, {"kind": "end_step", "x": {1, 2}},
                {"kind": "end_step", "x": float("nan")}, {"kind": "end_step", "x": object()}, deep):
        with pytest.raises(IllegalOrder) as exc:
            s.apply(bad)
        assert exc.value.rule == "kernel"
    assert s.digest() == before
    s.record()


def test_a_fresh_fork_can_be_undone_and_the_original_is_untouched(toy_state):
    """Issue 26.7: a fork had an empty undo stack.  It shares the (immutable) undo history, and
    undoing in the fork never changes the original."""
    s = toy_state
    start = s.digest()
    s.apply(next(o for o in s.legal_orders() if o["kind"] == "move"))
    after = s.digest()
    f = s.fork()
    assert f.can_undo and f.undo() and f.digest() == start
    assert s.digest() == after and s.can_undo
