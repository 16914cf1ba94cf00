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
   enemy steps lost minus own, plus objective value and victory points held; under fog of war
   also over :data:`DEALS` deals of the hidden enemy units (:func:`determinize`).  The best
   candidate is played when it beats the brain's proposal by :data:`MIN_GAIN`; otherwise the
   proposal.

Where forks are too slow to play on (the face says ``lookahead = "allocation"``: ETO, where an
attack resolves only after every designation, air step and interception of the offensive), the
search prices whole sets of attacks instead, each attack exactly over its CRT column
(:func:`prior`), and replaces the brain's attack only when a set without it is worth more
(:meth:`LookaheadPolicy.reallocate`, :func:`allocate`).

Fog of war: the search never reads what the side's view hides.  Where the view hides enemy
stacks (``view.hidden_stacks``, SSA-19) it plays on *determinized* copies (:func:`determinize`):
the enemy units the view hides are dealt out at random (private generator) over the hexes it
hides them in, each hex keeping its count of units of each domain.  So the side knows which
enemy units are on the map out of its sight (the order of battle is public, as on the board)
but not which stand where; priors and forks read the deals, never the true contents.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from workbench.bots.heuristic import Brain, HeuristicPolicy
from workbench.bots.policy import is_legal_now
from workbench.engine.dice import Dice
from workbench.engine.errors import IllegalOrder
from workbench.engine.state import State

#: attacks evaluated at one decision besides the brain's proposal and not attacking
WIDTH = 6
#: orders a fork plays on at most before it is valued
ROLLOUT_ORDERS = 120
#: how much better (in steps) a candidate must be than the brain's proposal to replace it
MIN_GAIN = 0.05
#: value weights: a step lost, a point of objective value (the margin's 2), a victory point
W_STEP, W_OBJECTIVE, W_VP = 1.0, 2.0, 2.0
#: a finished game: the winner's bonus in the value (a level counts once)
W_WIN = 50.0
STOP_KINDS = ("end_step", "pass")
#: the extra gain an attack on a hidden stack must show over the brain's proposal (its worth is
#: a mean over deals, not the stack that is there)
HIDDEN_GAIN = 1.0
#: deals of the hidden enemy units (fog of war) each candidate is played over
DEALS = 3
#: how much more (in expected steps) a set of attacks without the brain's attack must be worth to
#: replace it: the brain also weighs ground and objectives, which the step balance does not
ALLOCATION_GAIN = 1.0
#: nodes the allocation search visits at most at one decision
ALLOCATION_NODES = 20_000


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


def hides(state: State, side: str) -> bool:
    """Whether ``side``'s view hides enemy stacks (fog of war such as SSA-19)."""
    return bool(getattr(state.ruleset.view(state, side), "hidden_stacks", None))


def determinize(state: State, side: str, seed: int) -> State:
    """A fork of ``state`` that holds only what ``side`` may know of the enemy (fog of war,
    e.g. SSA-19): the enemy units its view hides are dealt out at random over the hidden hexes,
    each hex keeping its number of units of each domain (land, air, naval).  Without hidden stacks, a
    plain fork."""
    fork = state.fork()
    view = state.ruleset.view(state, side)
    hidden = dict(getattr(view, "hidden_stacks", {}) or {})
    if not hidden:
        return fork
    shown = set(view.units_by_id)
    types = getattr(state.ruleset, "unit_types", {}) or {}
    groups: dict[str, list[Any]] = {}
    for u in sorted(fork.units_by_id.values(), key=lambda u: u.id):
        if u.side != side and u.id not in shown and u.location in hidden:
            groups.setdefault(str(types.get(u.type, {}).get("domain", "")), []).append(u)
    rng = np.random.default_rng(seed)
    for _, units in sorted(groups.items()):  # land units trade places with land units, and so on
        slots = [u.location for u in units]
        for u, k in zip(units, rng.permutation(len(slots)), strict=True):
            u.location = slots[int(k)]
    return fork


def allocate(options: list[tuple[float, frozenset[str], frozenset[str]]],
             budget: int = ALLOCATION_NODES, limit: int | None = None) -> tuple[float, list[int]]:
    """The attacks worth most together: the set of ``options`` (weight, attackers, target hexes)
    with no unit and no target hex in two attacks (ETO-26.0, SSA-11: a unit attacks once, a
    hex is attacked once) and the largest total weight, by branch and bound over the options
    in the given order (at most ``budget`` nodes, so the answer is exact for a front's few
    dozen options and the best found otherwise), at most ``limit`` attacks (ETO-22.1: an HQ's
    attack rating).  Returns the total and the chosen indices."""
    cap = len(options) if limit is None else max(int(limit), 0)
    order = sorted(range(len(options)), key=lambda i: -options[i][0])
    order = [i for i in order if options[i][0] > 0]
    rest = [0.0] * (len(order) + 1)
    for k in range(len(order) - 1, -1, -1):
        rest[k] = rest[k + 1] + options[order[k]][0]
    best: list[Any] = [0.0, []]
    nodes = [0]

    def dfs(k: int, total: float, used: frozenset[str], hexes: frozenset[str], chosen: list[int]) -> None:
        nodes[0] += 1
        if total > best[0] + 1e-12:
            best[0], best[1] = total, list(chosen)
        if k >= len(order) or len(chosen) >= cap or nodes[0] > budget or total + rest[k] <= best[0] + 1e-12:
            return
        i = order[k]
        w, units, tgt = options[i]
        if not (units & used) and not (tgt & hexes):
            chosen.append(i)
            dfs(k + 1, total + w, used | units, hexes | tgt, chosen)
            chosen.pop()
        dfs(k + 1, total, used, hexes, chosen)

    dfs(0, 0.0, frozenset(), frozenset(), [])
    return float(best[0]), sorted(best[1])


def attacks_left(state: State, kinds: tuple[str, ...], orders: list[dict[str, Any]]) -> int:
    """How many attacks the side may still make now (ETO-22.1: the HQ's attack rating), found in
    a fork by making ``orders`` one after another, each when it is still legal: the number made
    (a bound: a plan is never longer than this greedy one)."""
    fork = state.fork()
    n = 0
    for o in orders:
        d = fork.decision
        if d is None or not any(k in d.kinds for k in kinds):
            break
        if is_legal_now(fork, o):
            fork.apply(o)
            n += 1
    return n


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
    def candidates(self, state: State, deals: list[State], side: str, legal: list | None, base: dict[str, Any],
                   kinds: tuple[str, ...]) -> list[dict[str, Any]]:
        """The brain's proposal, not attacking, and the :data:`WIDTH` best legal attacks by
        :func:`prior`, averaged over ``deals`` (the position as the side may know it)."""
        out = [base]
        for k in STOP_KINDS:
            if k in state.decision.kinds:
                out.append({"kind": k})
                break
        attacks = []
        for k in kinds:
            opts = [o for o in legal if o["kind"] == k] if legal is not None else state.legal_orders_of(k)
            attacks += opts
        ranked = sorted(((sum(prior(k, o, side) for k in deals) / len(deals), json.dumps(o, sort_keys=True), o) for o in attacks),
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
        # the private dice: one seed per decision, the same for every candidate
        seed = int(np.random.SeedSequence([self.seed & 0xFFFFFFFF, len(state.orders), len(state.log)])
                   .generate_state(1)[0])
        deals = [determinize(state, side, seed + j) for j in range(DEALS if hides(state, side) else 1)]
        if getattr(state.ruleset, "lookahead", "rollout") == "allocation":
            return self.reallocate(state, deals[0], side, legal, base, kinds)
        cands = self.candidates(state, deals, side, legal, base, kinds)
        if len(cands) < 2:
            return base
        self.searches += 1
        scored = []
        for k, o in enumerate(cands):
            vs = [v for v in (self.expected(d, side, o, kinds, seed) for d in deals) if v is not None]
            scored.append((sum(vs) / len(vs) if vs else None, k))
        if scored[0][0] is None:  # the proposal does not play in the side's picture of the position
            return base
        hidden = set(getattr(state.ruleset.view(state, side), "hidden_stacks", {}) or {})

        def bar(o: dict[str, Any]) -> float:  # a guess about a hidden stack must win by more
            return MIN_GAIN + (HIDDEN_GAIN if hidden & set(targets_of(o)) else 0.0)

        better = [(v, k) for v, k in scored[1:] if v is not None and v > scored[0][0] + bar(cands[k])]
        if not better:
            return base
        self.changed += 1
        return cands[max(better, key=lambda t: (t[0], -t[1]))[1]]

    def reallocate(self, state: State, known: State, side: str, legal: list | None, base: dict[str, Any],
                   kinds: tuple[str, ...]) -> dict[str, Any]:
        """Where playing forks on is too slow (a ruleset whose face says ``lookahead =
        "allocation"``: ETO, whose attacks resolve together after every designation and air
        step): the brain's attack is kept unless another set of attacks, each priced exactly
        over its CRT column (:func:`prior`), is worth :data:`ALLOCATION_GAIN` more than the best set
        that includes the brain's; then that set's most valuable attack is made first.  Not
        attacking is left to the brain."""
        if base["kind"] not in kinds:
            return base
        opts = []
        for k in kinds:
            opts += [o for o in legal if o["kind"] == k] if legal is not None else state.legal_orders_of(k)
        keyed = {json.dumps(o, sort_keys=True): o for o in opts}
        keyed.setdefault(json.dumps(base, sort_keys=True), base)
        orders = [keyed[k] for k in sorted(keyed)]
        weights = [(prior(known, o, side), frozenset(map(str, o.get("attackers", []))), frozenset(targets_of(o)))
                   for o in orders]
        self.searches += 1
        limit = attacks_left(state, kinds, [orders[i] for i in sorted(range(len(orders)), key=lambda i: -weights[i][0])])
        best_total, best_plan = allocate(weights, limit=limit)
        b = orders.index(base)
        w_b, units_b, hexes_b = weights[b]
        rest = [(w if not (u & units_b) and not (t & hexes_b) else 0.0, u, t) for w, u, t in weights]
        rest[b] = (0.0, units_b, hexes_b)
        with_base = w_b + allocate(rest, limit=limit - 1)[0]
        if best_total <= with_base + ALLOCATION_GAIN or not best_plan:
            return base
        first = max(best_plan, key=lambda i: (weights[i][0], -i))
        if not is_legal_now(state, orders[first]):
            return base
        self.changed += 1
        return orders[first]

    def expected(self, state: State, side: str, order: dict[str, Any], kinds: tuple[str, ...],
                 seed: int) -> float | None:
        """The mean :func:`value` of ``order`` over the six faces of the next combat die; None
        when the order is refused in ``state`` (a determinized position may refuse an attack
        the real one allows: SSA-11.2, a hidden unit that has already fought this phase)."""
        total = 0.0
        for face in range(1, 7):
            try:
                total += self.what_if(state, side, order, kinds, face, seed)
            except IllegalOrder:
                return None
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
            try:
                fork.apply(pols[d.side].choose_in(fork, d.side))
            except IllegalOrder:  # the model's plan does not fit the determinized position
                break
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
