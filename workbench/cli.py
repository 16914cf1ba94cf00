"""The ``workbench`` command: list scenarios, play bot games, replay records, open the lab."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from workbench.engine import IllegalOrder, RecordError, ScenarioError


def _bots(spec: str, seed: int, ruleset: Any = None, sides: tuple[str, ...] = ("axis", "allies")) -> list:
    from workbench.bots.heuristic import BOTS, make_policy

    names = [s.strip() for s in spec.split(",")]
    if len(names) != 2:
        raise SystemExit("--bots takes two policies, axis first: e.g. --bots heuristic,random")
    out = []
    for i, name in enumerate(names):
        if name not in BOTS:
            raise SystemExit(f"unknown bot {name!r}; available: {', '.join(BOTS)}")
        out.append(make_policy(name, ruleset, sides[i], seed * 2 + i))
    return out


def cmd_scenarios(args: argparse.Namespace) -> int:
    from workbench.engine.scenario import read_scenario, scenario_ids

    for sid in scenario_ids():
        try:
            sc = read_scenario(sid)
            print(f"{sid:32s} {sc.title}  ({sc.first_turn} to {sc.last_turn}, {len(sc.units)} units)")
        except ScenarioError as exc:
            print(f"{sid:32s} (does not load: {exc})")
    return 0


def _summary_line(state, turn_label: str) -> str:
    ev = state.events().filter(turn=turn_label)
    kinds = ev["kind"].value_counts().sort("kind")
    counts = ", ".join(f"{k} {n}" for k, n in kinds.iter_rows())
    return f"{turn_label}: {ev.height} events ({counts})"


def cmd_play(args: argparse.Namespace) -> int:
    from workbench.bots import play
    from workbench.engine import load_scenario

    game = load_scenario(args.scenario)
    state = game.new_state(seed=args.seed)
    sides = game.ruleset.sides
    axis, allies = _bots(args.bots, args.seed, game.ruleset, sides)
    policies = {sides[0]: axis, sides[1]: allies}
    last_turn = None if args.turns is None else args.turns
    t0 = time.perf_counter()
    printed = 0

    def report(st, order):  # noqa: ANN001
        nonlocal printed
        while printed < st.turn:
            print(_summary_line(st, st.calendar[printed]))
            printed += 1

    play(state, policies, until_turn=last_turn, on_order=report)
    report(state, None)
    if state.is_over and printed < len(state.calendar):
        print(_summary_line(state, state.turn_label))
    took = time.perf_counter() - t0
    print(f"{len(state.orders)} orders, {len(state.log)} events in {took:.2f} s")
    print(f"result: {state.result}" if state.is_over else f"stopped at {' / '.join(state.clock)}")
    print(f"digest: {state.digest()}")
    if args.record:
        path = state.record().save(args.record)
        print(f"record written to {path}")
    return 0


def _parse_value(text: str):  # noqa: ANN202
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text


def cmd_batch(args: argparse.Namespace) -> int:
    from workbench.batch import Config, parse_bots, run_batch, sweep_configs
    from workbench.engine import load_scenario

    load_scenario(args.scenario)  # fail early on a bad id
    overrides = {}
    for item in args.set or []:
        key, _, val = item.partition("=")
        overrides[key] = _parse_value(val)
    base = Config(args.scenario, parse_bots(args.bots), overrides=overrides, name=args.name or "",
                  max_turns=args.turns)
    configs = [base]
    if args.sweep:
        key, _, vals = args.sweep.partition("=")
        variants = {f"{key.rsplit('.', 1)[-1]}={v}": {"overrides": {key: _parse_value(v)}}
                    for v in vals.split(",")}
        configs = sweep_configs(base, variants)[1:]
    scheduler = args.scheduler
    df = run_batch(configs, args.games, args.out, seed=args.seed, workers=args.workers, scheduler=scheduler,
                   progress=not args.quiet)
    from workbench.analysis import win_rates

    print(win_rates(df).to_pandas().to_string(index=False) if df.height else "no games")
    print(f"results in {args.out}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from workbench.engine import GameRecord, replay

    record = GameRecord.load(args.record)
    state = replay(record)
    print(f"replayed {len(state.orders)} orders of {state.game.scenario.id}: "
          f"{' / '.join(state.clock)}")
    print(f"result: {state.result}" if state.is_over else "game not over")
    checked = "matches the record" if record.digest else "no digest in the record: not verified"
    print(f"digest: {state.digest()} ({checked})")
    if record.notes_digest:
        print("notes: the annotations and branches match their digest")
    elif record.annotations or record.branches:
        print("notes: no notes digest in the record: not verified")
    return 0


def lab_command() -> list[str]:
    """JupyterLab on the start notebook.  As root (containers, class servers) JupyterLab refuses
    to start without ``--allow-root``, so it is passed then (issue 26.9)."""
    nb = Path(__file__).resolve().parents[1] / "notebooks" / "00-start-here.ipynb"
    cmd = [sys.executable, "-m", "jupyter", "lab", str(nb) if nb.exists() else "."]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    return cmd


def cmd_lab(args: argparse.Namespace) -> int:
    return subprocess.call(lab_command())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="workbench", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("scenarios", help="list the shipped scenarios").set_defaults(fn=cmd_scenarios)
    p = sub.add_parser("play", help="play a game with bots and print a turn-by-turn summary")
    p.add_argument("scenario")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="random,random", help="axis,allies policies (random, heuristic)")
    p.add_argument("--turns", type=int, default=None, help="stop after this many turns")
    p.add_argument("--record", default=None, help="write the game record (JSON) here")
    p.set_defaults(fn=cmd_play)
    p = sub.add_parser("batch", help="play many seeded bot games (or a sweep) and write Parquet results")
    p.add_argument("scenario")
    p.add_argument("--games", type=int, default=10, help="games per configuration")
    p.add_argument("--bots", default="heuristic,random", help="axis,allies policies (random, heuristic)")
    p.add_argument("--out", default="results", help="output folder (resumable)")
    p.add_argument("--seed", type=int, default=0, help="root seed (SeedSequence)")
    p.add_argument("--set", action="append", metavar="TABLE.KEY=VALUE",
                   help="a rule-table override (JSON value), e.g. crt.rows.2='[...]'")
    p.add_argument("--sweep", default=None, metavar="TABLE.KEY=V1,V2,...",
                   help="one configuration per value of one table entry")
    p.add_argument("--name", default=None, help="configuration name (default: a content hash)")
    p.add_argument("--turns", type=int, default=None, help="stop each game after this many turns")
    p.add_argument("--workers", type=int, default=None, help="local processes (default: every core)")
    p.add_argument("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(fn=cmd_batch)
    p = sub.add_parser("replay", help="replay a game record and check its digest")
    p.add_argument("record")
    p.set_defaults(fn=cmd_replay)
    sub.add_parser("lab", help="open JupyterLab on the start notebook").set_defaults(fn=cmd_lab)
    args = parser.parse_args(argv)
    try:
        return args.fn(args)
    except (ScenarioError, RecordError, IllegalOrder) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
