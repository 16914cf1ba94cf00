"""The lookahead bot: the heuristic bot plus a one-step search over its attacks (issue 25 item 3).

:class:`LookaheadPolicy` is a :class:`~workbench.bots.heuristic.HeuristicPolicy` (same brain,
same safety rules).  At a decision that offers one of the ruleset's attack kinds
(``ruleset.attack_kinds``: SS Amerika ``attack``, ETO ``designate``) it does not simply take the
brain's proposal:

1. **Candidates.**  The brain's proposal, the option of not attacking (ending the step) and
   the legal attacks ranked by their exact expected step balance over the CRT column
   (``ruleset.assess_attack``: every result of the column with its probability and the steps
   each side loses), the best :data:`WIDTH` of them.
2. **One step ahead, exactly over the die.**  Each candidate is played in six forks of the
   position (``State.fork``), the combat die forced to each face 1-6 in turn, so the six forks
   are the column's whole distribution with every DRM and column shift the engine applies.
   Each fork plays on with the heuristic brains of both sides (losses, retreats, advances, the
   attacks they would make next) until the combat is over (:func:`settled`); later dice come
   from a private generator seeded by the policy seed and the position, the same for every
   candidate (common random numbers), so the game's own dice are never touched.
3. **Value.**  The mean over the six faces of :func:`value`, read from the ruleset's metrics:
   enemy steps lost minus own, plus objective value and victory points held.  The best
   candidate is played when it beats the brain's proposal by :data:`MIN_GAIN`; otherwise the
   proposal.

Fog of war: a fork holds the whole position, so the search skips attacks on hexes the side's
view hides (``view.hidden_stacks``); on those the brain's choice stands.  Everything else a
fork reveals is the attacked stack itself and its reaction to the attack, which the attacker
sees in play too.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from workbench.bots.heuristic import Brain, HeuristicPolicy
from workbench.bots.policy import is_legal_now
from workbench.engine.dice import Dice
from workbench.engine.state import State

#: attacks evaluated at one decision besides the brain's proposal and not attacking
WIDTH = 6
#: orders a fork plays on at most before it is valued
ROLLOUT_ORDERS = 120
#: how much better (in steps) a candidate must be than the brain's proposal to replace it
MIN_GAIN = 0.25
#: value weights: a step lost, a point of objective value (the margin's 2), a victory point
W_STEP, W_OBJECTIVE, W_VP = 1.0, 2.0, 2.0
#: a finished game: the winner's bonus in the value (a level counts once)
W_WIN = 50.0
STOP_KINDS = ("end_step", "pass")


class WhatIfDice(Dice):
    """Dice for a fork: the die of the next combat (once :meth:`arm`-ed) shows ``face``; every
    other die comes from a private generator.  Its state is the private generator's, so a fork
    that rolls back an order goes on with ordinary dice from the same stream."""

    def __init__(self, face: int | None, seed: int) -> None:
        super().__init__(seed)
        self.face = face
        self.armed = False

    def roll(self, n: int = 1, sides: int = 6) -> list[int]:
        out = super().roll(n, sides)
        if self.armed and self.face is not None and sides == 6 and out:
            out[0], self.face, self.armed = self.face, None, False
        return out


def force_combat_die(fork: State, face: int, seed: int) -> WhatIfDice:
    """Give ``fork`` dice whose first combat die (a roll whose purpose begins with the ruleset's
    ``combat_roll``) shows ``face``; every other roll comes from a private generator."""
    dice = WhatIfDice(face, seed)
    fork.dice = dice
    prefix = str(getattr(fork.ruleset, "combat_roll", "land combat"))
    plain = fork.roll

    def roll(n: int = 1, *, purpose: str, rule: str, sides: int = 6, side: str | None = None) -> list[int]:
        if dice.face is not None and str(purpose).startswith(prefix):
            dice.armed = True
        return plain(n, purpose=purpose, rule=rule, sides=sides, side=side)

    fork.roll = roll  # type: ignore[method-assign]  # this fork only
    return dice


def value(state: State, side: str) -> float:
    """What a position is worth to ``side``, from the ruleset's metrics: enemy steps lost minus
    own, plus :data:`W_OBJECTIVE` per point of objective value and :data:`W_VP` per victory
    point held beyond the enemy's, plus :data:`W_WIN` for a won game (minus for a lost one)."""
    rs = state.ruleset
    sides = rs.sides
    other = sides[1] if side == sides[0] else sides[0]
    m = rs.metrics(state)
    v = W_STEP * (m.losses.get(other, 0) - m.losses.get(side, 0))
    v += W_OBJECTIVE * (m.objective_value.get(side, 0.0) - m.objective_value.get(other, 0.0))
    v += W_VP * (m.vp.get(side, 0.0) - m.vp.get(other, 0.0))
    if state.is_over:
        winner = rs.result(state).get("winner")
        v += W_WIN if winner == side else -W_WIN if winner == other else 0.0
    return float(v)


def targets_of(order: dict[str, Any]) -> list[str]:
    """The hexes an attack order attacks (``targets`` or ``target``)."""
    t = order.get("targets", order.get("target"))
    return [str(x) for x in t] if isinstance(t, list) else [str(t)] if t is not None else []


def prior(state: State, order: dict[str, Any], side: str) -> float:
    """The exact expected step balance of an attack over its CRT column (enemy steps minus own),
    from ``ruleset.assess_attack``; ``-inf`` when it cannot be assessed."""
    try:
        a = state.ruleset.assess_attack(state, order)
    except Exception:  # noqa: BLE001 - an order the planner cannot price is not a candidate
        return float("-inf")
    if a is None:
        return float("-inf")
    own = a.expected_losses.get(side, 0.0)
    return float(sum(v for s, v in a.expected_losses.items() if s != side) - own)


def parent_node(state: State) -> str | None:
    """The sequence node that holds the current step (the combat phase or the attack sequence)."""
    nodes = [f["node"] for f in state.frames if "node" in f]
    return nodes[-2] if len(nodes) >= 2 else None


def settled(fork: State, side: str, kinds: tuple[str, ...], parent: str | None, dice: WhatIfDice) -> bool:
    """Whether a fork's combat is over: the game ended, the sequence that held the attack
    decision closed (ETO: the attack sequence with its resolution; SS Amerika: the combat
    phase), or the forced combat die was rolled and the side owes an attack decision again."""
    if fork.is_over or fork.decision is None:
        return True
    if parent is not None and not any(f.get("node") == parent for f in fork.frames):
        return True
    return dice.face is None and fork.decision.side == side and any(k in fork.decision.kinds for k in kinds)


class LookaheadPolicy(HeuristicPolicy):
    """The heuristic bot with a one-step search over its attacks (see the module doc)."""

    def __init__(self, brain: Brain, seed: int | None = 0, model: Any = None, name: str = "lookahead") -> None:
        super().__init__(brain, seed, name=name)
        self.seed = int(seed or 0)
        #: side -> brain, the model both sides play by inside a fork
        self.model = model or (lambda side: brain)
        self.searches = 0  # decisions searched
        self.changed = 0  # decisions where the search replaced the brain's proposal

    def _decide(self, state: State, side: str, legal: list | None) -> dict[str, Any]:
        base = super()._decide(state, side, legal)
        d = state.decision
        kinds = tuple(k for k in getattr(state.ruleset, "attack_kinds", ()) if k in d.kinds)
        if not kinds or (base["kind"] not in kinds and base["kind"] not in STOP_KINDS):
            return base
        try:
            return self.search(state, side, legal, base, kinds)
        except Exception as exc:  # a search bug must never stop a batch  # noqa: BLE001
            self.errors += 1
            if self.raise_errors:
                raise
            self.last_error = f"lookahead: {type(exc).__name__}: {exc} at {state.clock}"
            return base

    # -- the search ----------------------------------------------------------------------------------
    def candidates(self, state: State, side: str, legal: list | None, base: dict[str, Any],
                   kinds: tuple[str, ...]) -> list[dict[str, Any]]:
        """The brain's proposal, not attacking, and the :data:`WIDTH` best legal attacks by
        :func:`prior` on hexes the side can see."""
        view = state.ruleset.view(state, side)
        hidden = set(getattr(view, "hidden_stacks", {}) or {})
        out = [base]
        for k in STOP_KINDS:
            if k in state.decision.kinds:
                out.append({"kind": k})
                break
        attacks = []
        for k in kinds:
            opts = [o for o in legal if o["kind"] == k] if legal is not None else state.legal_orders_of(k)
            attacks += [o for o in opts if not hidden & set(targets_of(o))]
        ranked = sorted(((prior(state, o, side), json.dumps(o, sort_keys=True), o) for o in attacks),
                        key=lambda t: (-t[0], t[1]))
        out += [o for p, _, o in ranked[:WIDTH] if p > float("-inf")]
        seen, uniq = set(), []
        for o in out:
            key = json.dumps(o, sort_keys=True)
            if key not in seen and (o is base or is_legal_now(state, o)):
                seen.add(key)
                uniq.append(o)
        return uniq

    def search(self, state: State, side: str, legal: list | None, base: dict[str, Any],
               kinds: tuple[str, ...]) -> dict[str, Any]:
        """The candidate with the best expected value one step ahead (the brain's proposal
        unless another beats it by :data:`MIN_GAIN`)."""
        cands = self.candidates(state, side, legal, base, kinds)
        if len(cands) < 2:
            return base
        self.searches += 1
        # the private dice: one seed per decision, the same for every candidate
        seed = int(np.random.SeedSequence([self.seed & 0xFFFFFFFF, len(state.orders), len(state.log)])
                   .generate_state(1)[0])
        scored = [(self.expected(state, side, o, kinds, seed), k) for k, o in enumerate(cands)]
        best_v, best_k = max(scored, key=lambda t: (t[0], -t[1]))
        if best_k != 0 and best_v > scored[0][0] + MIN_GAIN:
            self.changed += 1
            return cands[best_k]
        return base

    def expected(self, state: State, side: str, order: dict[str, Any], kinds: tuple[str, ...], seed: int) -> float:
        """The mean :func:`value` of ``order`` over the six faces of the next die."""
        total = 0.0
        for face in range(1, 7):
            total += self.what_if(state, side, order, kinds, face, seed)
        return total / 6

    def what_if(self, state: State, side: str, order: dict[str, Any], kinds: tuple[str, ...],
                face: int, seed: int) -> float:
        """:func:`value` of the position after ``order`` with the next die showing ``face`` and
        both sides playing on by the model brains until the combat is settled."""
        fork = state.fork()
        dice = force_combat_die(fork, face, seed)
        parent = parent_node(state)
        fork.apply(order)
        pols = {s: HeuristicPolicy(self.model(s) or Brain(), seed) for s in fork.ruleset.sides}
        for _ in range(ROLLOUT_ORDERS):
            if settled(fork, side, kinds, parent, dice):
                break
            d = fork.decision
            fork.apply(pols[d.side].choose_in(fork, d.side), prechecked=True)
        return value(fork, side)


def lookahead_policy(ruleset: Any, side: str, seed: int | None = 0) -> LookaheadPolicy:
    """The lookahead bot for ``side`` of a ruleset (a :class:`Ruleset` or its name): the
    ruleset's brain for the side, and the ruleset's brains as the model of both sides."""
    if isinstance(ruleset, str):
        from workbench.engine.ruleset import get_ruleset

        ruleset = get_ruleset(ruleset) if ruleset else None
    if ruleset is None:
        return LookaheadPolicy(Brain(), seed)
    return LookaheadPolicy(ruleset.brain(side) or Brain(), seed, model=ruleset.brain)


__all__ = ["LookaheadPolicy", "WhatIfDice", "lookahead_policy", "value"]
