"""Game records: atomic saves, exact replay, and refusal of damaged records."""

from __future__ import annotations

import json
import os

import pytest

from workbench.bots import RandomPolicy, play
from workbench.engine import GameRecord, RecordError, replay


@pytest.fixture
def played(toy_game):
    s = toy_game.new_state(seed=21)
    pol = RandomPolicy(9)
    play(s, {"axis": pol, "allies": pol}, max_orders=150)
    s.annotate("turning point", ["?"], order=3)
    return s


def test_replay_reproduces_digest(played, tmp_path, toy_scenario_file):
    path = played.record().save(tmp_path / "game.json")
    again = replay(path, scenario=toy_scenario_file)  # a scenario outside scenarios/: passed explicitly
    assert again.digest() == played.digest()
    assert again.annotations[3] == {"comment": "turning point", "marks": ["?"]}


def test_replay_prefix_gives_earlier_position(played):
    rec = played.record()
    early = replay(rec, upto=10)
    assert len(early.orders) == 10
    assert early.digest() != played.digest()


def test_record_json_fields(played, tmp_path):
    data = json.loads(played.record().save(tmp_path / "g.json").read_text())
    assert data["format"] == "wargame-workbench/record" and data["version"] == 1
    assert {"scenario", "ruleset", "ruleset_version", "seed", "options", "orders", "annotations",
            "branches"} <= set(data)
    assert data["seed"] == 21 and data["annotations"]["3"]["marks"] == ["?"]


def test_save_is_atomic_and_leaves_no_temp_files(played, tmp_path):
    path = tmp_path / "g.json"
    path.write_text("previous good save")
    played.record().save(path)
    assert json.loads(path.read_text())["seed"] == 21
    assert os.listdir(tmp_path) == ["g.json"]


def test_failed_save_keeps_the_old_file(played, tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    path.write_text("previous good save")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        played.record().save(path)
    assert path.read_text() == "previous good save"
    assert os.listdir(tmp_path) == ["g.json"]


def test_truncated_record(played, tmp_path):
    path = played.record().save(tmp_path / "g.json")
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    before = path.read_text()
    with pytest.raises(RecordError, match="truncated or corrupted"):
        replay(path)
    assert path.read_text() == before  # touched nothing


def test_corrupted_order_in_record(played, tmp_path, toy_scenario_file):
    data = played.record().to_json()
    data["orders"][2] = {"kind": "move", "unit": "GE-inf-1", "path": ["0101"]}
    with pytest.raises(RecordError, match="order #2 .* does not replay"):
        replay(data, scenario=toy_scenario_file)


def test_tampered_digest(played, toy_scenario_file):
    data = played.record().to_json()
    data["digest"] = "0" * 64
    with pytest.raises(RecordError, match="does not reproduce the recorded digest"):
        replay(data, scenario=toy_scenario_file)


def test_unknown_version_and_garbage(played):
    data = played.record().to_json()
    with pytest.raises(RecordError, match="record version 99 is unknown"):
        GameRecord.from_json({**data, "version": 99})
    with pytest.raises(RecordError, match="not a Wargame Workbench game record"):
        GameRecord.from_json({"hello": "world"})
    with pytest.raises(RecordError, match="'seed' must be int"):
        GameRecord.from_json({**data, "seed": "x"})
    with pytest.raises(RecordError, match="ruleset version"):
        replay({**data, "ruleset_version": "0.0-old"})
