"""The ``workbench`` command: list scenarios, play bot games, replay records, open the lab.

A bad command line never ends in a traceback: it prints one line, ``error: ...`` naming the
flag and the problem, and exits 2 (the corpus in tests/data/bad/cli.toml; limits in
docs/limits.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from workbench.batch import (
    MAX_GAMES,
    MAX_SEED,
    MAX_WORKERS,
    SCHEDULER_TIMEOUT,
    BatchError,
    path_problem,
)
from workbench.engine import IllegalOrder, RecordError, ScenarioError

MAX_TIMEOUT = 3600.0  # seconds: the longest --scheduler-timeout


class CliError(Exception):
    """A bad command line found after parsing: printed as ``error: <message>``, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``workbench batch: error: ... (see workbench batch --help)``."""

    def error(self, message: str):  # noqa: ANN201 - NoReturn
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _whole(low: int, high: int | None = None):  # noqa: ANN202
    """An argparse type: a whole number from ``low`` to ``high``."""
    span = f"from {low} to {high}" if high is not None else f"from {low} up"

    def parse(text: str) -> int:
        try:
            val = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, not {text!r}") from None
        if val < low or (high is not None and val > high):
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, not {text}")
        return val

    return parse


def _seconds(text: str) -> float:
    try:
        val = float(text)
    except ValueError:
        val = math.nan
    if not 0 < val <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 and up to {MAX_TIMEOUT:g}, "
                                         f"not {text!r}")
    return val


def _bot_names(spec: str) -> tuple[str, str]:
    from workbench.bots.heuristic import BOTS

    names = [s.strip() for s in spec.split(",")]
    if len(names) != 2:
        raise CliError(f"--bots takes two bots, axis first, e.g. --bots heuristic,random; not {spec!r}")
    for name in names:
        if name not in BOTS:
            raise CliError(f"--bots: unknown bot {name!r}; available: {', '.join(BOTS)}")
    return names[0], names[1]


def _bots(spec: str, seed: int, ruleset: Any = None, sides: tuple[str, ...] = ("axis", "allies")) -> list:
    from workbench.bots.heuristic import make_policy

    return [make_policy(name, ruleset, sides[i], seed * 2 + i) for i, name in enumerate(_bot_names(spec))]


def _check_path(flag: str, text: str | None, *, folder: bool) -> None:
    """Refuse an output path that cannot be written, before any game is played."""
    if text is None:
        return
    if not text:
        raise CliError(f"{flag} needs a {'folder' if folder else 'file'} name")
    problem = path_problem(text, folder=folder)
    if problem:
        raise CliError(f"{flag} {problem}")


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

    _check_path("--record", args.record, folder=False)
    _bot_names(args.bots)
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


def _parse_value(text: str, flag: str = "--set", key: str = ""):  # noqa: ANN202
    """A JSON value, else the text itself."""
    try:
        return json.loads(text)
    except RecursionError:
        raise CliError(f"{flag} {key}: the value is nested too deeply") from None
    except ValueError:
        return text


def _key_value(flag: str, item: str, shape: str) -> tuple[str, str]:
    key, eq, val = item.partition("=")
    if not eq or not key.strip():
        raise CliError(f"{flag} takes {shape}, not {item[:60]!r}")
    return key.strip(), val


def cmd_batch(args: argparse.Namespace) -> int:
    from workbench.batch import Config, run_batch, sweep_configs
    from workbench.engine import load_scenario

    if args.scheduler is not None and args.workers is not None:
        raise CliError("give --workers or --scheduler, not both (--workers is for local processes)")
    if args.scheduler is not None and not args.scheduler.strip():
        raise CliError("--scheduler needs an address, e.g. tcp://host:8786")
    _check_path("--out", args.out, folder=True)
    bots = _bot_names(args.bots)
    overrides = {}
    for item in args.set or []:
        key, val = _key_value("--set", item, "TABLE.KEY=VALUE")
        overrides[key] = _parse_value(val, "--set", key)
    game = load_scenario(args.scenario)  # fail early on a bad id
    base = Config(args.scenario, bots, overrides=overrides, name=args.name or "", max_turns=args.turns)
    configs = [base]
    if args.each_optional_rule:
        if args.sweep:
            raise CliError("give --sweep or --each-optional-rule, not both")
        from workbench.batch import optional_rule_configs

        configs = optional_rule_configs(base, list(game.options.get("optional_rules", [])))
        if len(configs) == 1:
            raise CliError(f"{args.scenario} switches on no optional rule: there is nothing to leave out")
    if args.sweep:
        key, vals = _key_value("--sweep", args.sweep, "TABLE.KEY=V1,V2,...")
        variants: dict[str, Any] = {}
        for v in vals.split(","):
            name = f"{key.rsplit('.', 1)[-1]}={v}"
            if name in variants:
                raise CliError(f"--sweep lists the value {v} twice")
            variants[name] = {"overrides": {key: _parse_value(v, "--sweep", key)}}
        configs = sweep_configs(base, variants)[1:]
    df = run_batch(configs, args.games, args.out, seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                   progress=not args.quiet, scheduler_timeout=args.scheduler_timeout)
    from workbench.analysis import optional_rule_effects, win_rates

    print(win_rates(df).to_pandas().to_string(index=False) if df.height else "no games")
    if args.each_optional_rule and df.height:
        print(optional_rule_effects(df).to_pandas().to_string(index=False))
    print(f"results in {args.out}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from workbench.engine import GameRecord, replay

    if Path(args.record).is_dir():
        raise CliError(f"{args.record} is a folder, not a game record")
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
    parser = _Parser(prog="workbench", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("scenarios", help="list the shipped scenarios").set_defaults(fn=cmd_scenarios)
    seed = _whole(0, MAX_SEED)
    turns = _whole(0)
    p = sub.add_parser("play", help="play a game with bots and print a turn-by-turn summary")
    p.add_argument("scenario")
    p.add_argument("--seed", type=seed, default=0, help=f"the game's seed (0 to {MAX_SEED})")
    p.add_argument("--bots", default="random,random", help="axis,allies policies (random, heuristic, lookahead)")
    p.add_argument("--turns", type=turns, default=None, help="stop after this many turns")
    p.add_argument("--record", default=None, help="write the game record (JSON) here")
    p.set_defaults(fn=cmd_play)
    p = sub.add_parser("batch", help="play many seeded bot games (or a sweep) and write Parquet results")
    p.add_argument("scenario")
    p.add_argument("--games", type=_whole(0, MAX_GAMES), default=10, help="games per configuration")
    p.add_argument("--bots", default="heuristic,random", help="axis,allies policies (random, heuristic, lookahead)")
    p.add_argument("--out", default="results", help="output folder (resumable)")
    p.add_argument("--seed", type=seed, default=0, help="root seed (SeedSequence)")
    p.add_argument("--set", action="append", metavar="TABLE.KEY=VALUE",
                   help="a rule-table override (JSON value), e.g. crt.rows.2='[...]'")
    p.add_argument("--sweep", default=None, metavar="TABLE.KEY=V1,V2,...",
                   help="one configuration per value of one table entry")
    p.add_argument("--each-optional-rule", action="store_true",
                   help="paired games: the scenario's optional rules, then each left out in turn (same seeds)")
    p.add_argument("--name", default=None, help="configuration name (default: a content hash)")
    p.add_argument("--turns", type=turns, default=None, help="stop each game after this many turns")
    p.add_argument("--workers", type=_whole(0, MAX_WORKERS), default=None,
                   help="local processes (default: every core; 0: in this process)")
    p.add_argument("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786")
    p.add_argument("--scheduler-timeout", type=_seconds, default=SCHEDULER_TIMEOUT, metavar="SECONDS",
                   help=f"give up on an unreachable scheduler after this long (default: {SCHEDULER_TIMEOUT:g})")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(fn=cmd_batch)
    p = sub.add_parser("replay", help="replay a game record and check its digest")
    p.add_argument("record")
    p.set_defaults(fn=cmd_replay)
    sub.add_parser("lab", help="open JupyterLab on the start notebook").set_defaults(fn=cmd_lab)
    args = parser.parse_args(argv)
    try:
        return args.fn(args)
    except (CliError, BatchError, ScenarioError, RecordError, IllegalOrder) as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `workbench scenarios | head -1`: the reader has gone, so go quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:  # a file that cannot be read or written: not a bug, no traceback
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted" + ("; run the same command again to resume" if args.cmd == "batch" else ""),
              file=sys.stderr)
        return 130


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


if __name__ == "__main__":
    raise SystemExit(main())
