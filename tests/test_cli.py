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
