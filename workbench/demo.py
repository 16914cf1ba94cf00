"""``make demo``: the headless twin of ``make lab``.

Plays a short seeded bot game of the default scenario, saves its game record,
replays it to prove the digest, and writes what the workbench shows (the map,
the charts and the event log) as one standalone HTML page
(``Workbench.export_html``: BokehJS inlined, opens offline without a kernel).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from workbench.bots import RandomPolicy, play
from workbench.engine import load_scenario, replay
from workbench.ui import Workbench

DEFAULT_SCENARIO = "ssa/valor-of-ignorance"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m workbench.demo", description=__doc__)
    p.add_argument("--scenario", default=DEFAULT_SCENARIO)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--out", default="out")
    args = p.parse_args(argv)
    out = Path(args.out)
    t0 = time.perf_counter()
    game = load_scenario(args.scenario)
    state = game.new_state(seed=args.seed)
    policies = {side: RandomPolicy(args.seed + i) for i, side in enumerate(game.ruleset.sides)}
    play(state, policies, until_turn=args.turns)
    rec = state.record().save(out / "demo-game.json")
    assert replay(rec).digest() == state.digest()
    page = Workbench(state, seed=args.seed).export_html(out / "demo-workbench.html")
    print(f"{game.scenario.title}: {len(state.orders)} orders, {len(state.log)} events, "
          f"now at {' / '.join(state.clock)}")
    print(f"record: {rec}\nworkbench page: {page}\n({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
