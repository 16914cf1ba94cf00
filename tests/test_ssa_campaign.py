"""SS Amerika campaign-level checks: a golden playthrough of the Valor of Ignorance scenario
and a perft-style corpus of legal-order counts.

Both keep their expectations in tests/data.  After a deliberate rules change, regenerate them
with ``WORKBENCH_REGOLD=1 pytest tests/test_ssa_campaign.py`` and review the diff: every changed
line is a changed game.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from workbench.bots.heuristic import make_policy
from workbench.bots.policy import play
from workbench.engine import load_scenario

DATA = Path(__file__).parent / "data"
GOLDEN = DATA / "ssa_golden_valor.json"
PERFT = DATA / "ssa_perft.json"
REGOLD = os.environ.get("WORKBENCH_REGOLD") == "1"
SEED = 2024


def event_lines(state) -> list[list[str]]:  # noqa: ANN001
    return [[e["kind"], e.get("rule") or "", e.get("text") or ""] for e in state.log]


def _write(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")


@pytest.fixture(scope="module")
def valor():
    return load_scenario("ssa/valor-of-ignorance")


# -- golden playthrough -------------------------------------------------------------------------------
def test_ssa_golden_playthrough_valor_of_ignorance(valor):
    """Scripted orders (recorded once from the seeded heuristic bots) replayed from the same seed
    reproduce the recorded final digest, result and event log, order by order."""
    if REGOLD or not GOLDEN.exists():
        s = valor.new_state(SEED)
        pols = {side: make_policy("heuristic", "ssa", side, SEED + k) for k, side in enumerate(s.ruleset.sides)}
        play(s, pols)
        _write(GOLDEN, {"scenario": "ssa/valor-of-ignorance", "seed": SEED, "orders": s.orders,
                        "digest": s.digest(), "result": s.result, "events": event_lines(s)})
    want = json.loads(GOLDEN.read_text())
    s = valor.new_state(want["seed"])
    for order in want["orders"]:
        s.apply(order)
    assert s.is_over and s.result == want["result"]
    assert event_lines(s) == want["events"]
    assert s.digest() == want["digest"]
    kinds = {k for k, _, _ in want["events"]}
    # the playthrough is a real game: landings, combat with die rolls, losses, the end
    assert {"debark", "combat", "roll"} <= kinds, sorted(kinds)


# -- perft -------------------------------------------------------------------------------------------------
def _counts(state) -> dict[str, int]:  # noqa: ANN001
    out: dict[str, int] = {}
    for o in state.legal_orders():
        out[o["kind"]] = out.get(o["kind"], 0) + 1
    return dict(sorted(out.items()))


def perft_positions(sid: str, steps: int = 24, every: int = 8) -> dict[str, dict[str, int]]:
    """Counts by kind at fixed positions of a scenario: for Valor of Ignorance every ``every``-th
    position of the golden playthrough (landings, combat); otherwise the first ``steps``
    decisions, ending or passing each step."""
    s = load_scenario(sid).new_state(0)
    script = None
    if sid == "ssa/valor-of-ignorance":
        golden = json.loads(GOLDEN.read_text())
        s = load_scenario(sid).new_state(golden["seed"])
        script = golden["orders"]
    out = {}
    for k in range(len(script) if script else steps):
        if s.is_over:
            break
        d = s.decision
        if script is None or k % every == 0:
            out[f"{k:03d} {s.turn_label} {d.kind} {d.side}"] = _counts(s)
        if script is not None:
            s.apply(script[k])
        else:
            s.apply({"kind": "end_step"} if "end_step" in d.kinds else {"kind": "pass"} if "pass" in d.kinds
                    else s.legal_orders()[0])
    return out


@pytest.mark.parametrize("sid", ["ssa/valor-of-ignorance", "ssa/1941"])
def test_ssa_perft_corpus(sid):
    """Legal-order counts by kind from fixed positions (tests/data/ssa_perft.json)."""
    got = perft_positions(sid)
    corpus = json.loads(PERFT.read_text()) if PERFT.exists() else {}
    if REGOLD or sid not in corpus:
        corpus[sid] = got
        _write(PERFT, corpus)
    assert got == corpus[sid]
    assert any("move" in c for c in got.values())  # the positions reach land movement
