"""A long random-play fuzz with invariant checks after every order (issue 20; not run in CI).

``python -m benchmarks.bench_fuzz [--games N] [--orders K] [--scenarios a,b]``

Random games on every shipped scenario.  After every order it checks that

* **every listed order is accepted**: the order played came from ``legal_orders()`` and
  ``apply`` took it, and a sample of the other listed orders passes ``state.check``;
* **no unit is lost**: unit ids are never removed (eliminated units go to a box);
* **units stand on legal places**: a hex of the map or a box of the map or ruleset, and no land
  unit on an all-water hex unless it is aboard (``carried``/``carried_by``);
* **a refusal changes nothing**: a deliberately malformed order leaves the digest as it was.

It prints orders per second and every violation (with scenario, seed and order number, enough to
replay it).  ``make bench`` runs it small; pass ``--games 20 --orders 5000`` for a long run.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import time
from typing import Any

from workbench.bots import RandomPolicy
from workbench.engine import IllegalOrder, load_scenario
from workbench.engine.scenario import scenario_ids

SAMPLE = 5  # other listed orders checked after each order


def invariants(state: Any, ids_before: set[str]) -> list[str]:
    """The invariant breaches of a position (empty when it is sound)."""
    out = []
    hm = state.map
    boxes = set(hm.boxes) | set(state.ruleset.boxes)
    ids = set(state.units_by_id)
    if not ids_before <= ids:
        out.append(f"units lost: {sorted(ids_before - ids)[:5]}")
    for u in state.units_by_id.values():
        loc = u.location
        if loc.isdigit():
            if not hm.has_hex(loc):
                out.append(f"{u.id} on {loc}, not a hex of this map")
            elif (state.ruleset.unit_types.get(u.type, {}).get("domain", "land") == "land"
                  and hm.is_water[hm.index(loc)] and not (u.props.get("carried") or u.props.get("carried_by"))):
                out.append(f"{u.id}: a land unit on the sea hex {loc}, not aboard")
        elif loc not in boxes and loc is not None:
            out.append(f"{u.id} in {loc!r}, no box of this map or ruleset")
    return out


def fuzz_game(sid: str, seed: int, max_orders: int) -> tuple[int, float, list[str]]:
    """One random game: (orders played, seconds, violations)."""
    s = load_scenario(sid).new_state(seed)
    rng = random.Random(seed)
    pols = {side: RandomPolicy(seed * 7 + i) for i, side in enumerate(s.ruleset.sides)}
    bad: list[str] = []
    t0 = time.perf_counter()
    n = 0
    while n < max_orders and not s.is_over:
        d = s.decision
        legal = s.legal_orders()
        if not legal:
            bad.append(f"{sid} seed {seed} order {n}: no legal order at {s.clock}")
            break
        ids = set(s.units_by_id)
        for o in rng.sample(legal, min(SAMPLE, len(legal))):
            why = s.check(o)
            if why is not None:
                bad.append(f"{sid} seed {seed} order {n}: listed {o} refused: {why}")
        digest = s.digest() if n % 50 == 0 else None
        if digest is not None:
            with contextlib.suppress(IllegalOrder):
                s.apply({"kind": d.kinds[0], "no_such_field": [1, {"x": None}]})
            if s.digest() != digest:
                bad.append(f"{sid} seed {seed} order {n}: a refused order changed the position")
        order = pols[d.side].choose(s, legal)
        try:
            s.apply(order)
        except IllegalOrder as exc:
            bad.append(f"{sid} seed {seed} order {n}: listed {order} refused by apply: {exc}")
            break
        n += 1
        bad += [f"{sid} seed {seed} order {n}: {b}" for b in invariants(s, ids)]
    return n, time.perf_counter() - t0, bad


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--orders", type=int, default=300)
    ap.add_argument("--scenarios", default="")
    args = ap.parse_args(argv)
    sids = [x for x in args.scenarios.split(",") if x] or scenario_ids()
    print(f"\nrandom-play fuzz with invariant checks ({args.games} game(s) x up to {args.orders} orders)")
    print(f"{'scenario':28} {'orders':>7} {'orders/s':>9} {'violations':>10}")
    total_bad: list[str] = []
    for sid in sids:
        orders = 0
        secs = 0.0
        bad: list[str] = []
        for seed in range(1, args.games + 1):
            n, t, b = fuzz_game(sid, seed, args.orders)
            orders, secs, bad = orders + n, secs + t, bad + b
        total_bad += bad
        print(f"{sid:28} {orders:7d} {orders / max(secs, 1e-9):9.1f} {len(bad):10d}")
    for b in total_bad[:20]:
        print("  ", b)
    if len(total_bad) > 20:
        print(f"   ... and {len(total_bad) - 20} more")


if __name__ == "__main__":
    main()
