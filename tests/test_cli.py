"""The workbench command: play, record, replay."""

from __future__ import annotations

import pytest

from workbench.cli import main
from workbench.engine import scenario as scenario_module


@pytest.fixture
def toy_root(tmp_path, toy_scenario_file, monkeypatch):
    """A scenarios folder holding the toy scenario as toy/skirmish (records name scenarios by id)."""
    root = tmp_path / "scenarios"
    (root / "toy").mkdir(parents=True)
    (root / "toy" / "skirmish.toml").write_text(toy_scenario_file.read_text())
    monkeypatch.setattr(scenario_module, "SCENARIOS_DIR", root)
    return root


def test_play_writes_record_and_replay_matches(toy_root, tmp_path, capsys):
    out = tmp_path / "game.json"
    assert main(["play", "toy/skirmish", "--seed", "3", "--bots", "random,random",
                 "--record", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].startswith("1941-06: ")
    assert "result: {'winner'" in text
    digest = text.split("digest: ")[1].split()[0]
    assert main(["replay", str(out)]) == 0
    assert f"digest: {digest}" in capsys.readouterr().out


def test_play_stops_after_turns(toy_scenario_file, capsys):
    assert main(["play", str(toy_scenario_file), "--turns", "1"]) == 0
    text = capsys.readouterr().out
    assert "stopped at 1941-07" in text


def test_bad_scenario_is_a_clean_error(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("id = [")
    assert main(["play", str(bad)]) == 2
    assert "not valid TOML" in capsys.readouterr().err


def test_bad_record_is_a_clean_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["replay", str(bad)]) == 2
    assert "truncated or corrupted" in capsys.readouterr().err


def test_make_lab_as_root_passes_allow_root(monkeypatch):
    """Issue 26.9: as root JupyterLab exits with "Running as root is not recommended"; the lab
    command passes --allow-root then, and only then."""
    import os

    from workbench.cli import lab_command

    monkeypatch.setattr(os, "geteuid", lambda: 0)
    cmd = lab_command()
    assert cmd[1:4] == ["-m", "jupyter", "lab"] and cmd[4].endswith("00-start-here.ipynb") and "--allow-root" in cmd
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert "--allow-root" not in lab_command()


# == bad command lines (tests/data/bad/cli.toml) ==================================================
import tomllib  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

BAD = tomllib.loads((Path(__file__).parent / "data" / "bad" / "cli.toml").read_text(encoding="utf-8"))["case"]


def _run_bad(case: dict, tmp: Path, capsys) -> tuple[int, str]:
    """Run one corpus line in-process; its exit code and stderr.  Any exception is a failure."""
    deep = "[" * 100_000 + "]" * 100_000

    def fill(text: str) -> str:
        return text.replace("{tmp}", str(tmp)).replace("{deep}", deep)

    for d in case.get("dirs", []):
        (tmp / d).mkdir(parents=True)
    for name, text in case.get("files", {}).items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    capsys.readouterr()
    try:
        code = main([fill(a) for a in case["argv"]])
    except SystemExit as exc:  # argparse ends this way
        code = exc.code
    return code, capsys.readouterr().err


@pytest.mark.parametrize("case", BAD, ids=[c["name"] for c in BAD])
def test_bad_command_lines(case, tmp_path, capsys):
    """Each bad command line prints one clear line naming the problem and exits 2: no traceback."""
    code, err = _run_bad(case, tmp_path, capsys)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == case.get("exit", 2), err
    assert len(lines) == 1, err
    assert case["message"].replace("{tmp}", str(tmp_path)) in lines[0]


def test_a_closed_stdout_is_no_traceback():
    """`workbench scenarios | head -1` ended in a BrokenPipeError traceback."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the first line
    try:
        p = subprocess.run([sys.executable, "-m", "workbench.cli", "scenarios"], cwd=root, stdout=w,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(w)
    assert p.returncode == 1
    assert p.stderr == ""


def test_batch_each_optional_rule_needs_a_scenario_with_optional_rules(tmp_path, capsys):
    assert main(["batch", "ssa/valor-of-ignorance", "--each-optional-rule", "--games", "1",
                 "--out", str(tmp_path / "r")]) == 2
    assert "switches on no optional rule" in capsys.readouterr().err
    assert main(["batch", "ssa/1941", "--each-optional-rule", "--sweep", "crt.x=1,2", "--games", "1",
                 "--out", str(tmp_path / "r")]) == 2
    assert "not both" in capsys.readouterr().err
