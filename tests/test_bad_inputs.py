"""Issue 20, items 4-8: scenarios and game records refuse bad input with a typed error.

The corpora under ``tests/data/bad/`` (``scenarios/`` and ``records/``, one file per case,
made by ``build_corpus.py``) each list in ``cases.toml`` the error class and key every case
must raise; :func:`test_scenario_corpus` and :func:`test_record_corpus` run them all, each
within a time bound, so a case that crashes (any other exception) or hangs fails.  The
named tests after them are the regression tests of the items, one per defect.
"""

from __future__ import annotations

import json
import pickle
import signal
import tomllib
from contextlib import contextmanager
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.engine import GameRecord, RecordError, ScenarioError, limits, load_scenario, replay
from workbench.engine import scenario as scenario_module

CORPUS = Path(__file__).parent / "data" / "bad"
SCENARIOS = CORPUS / "scenarios"
RECORDS = CORPUS / "records"
#: Seconds one case may take before it counts as a hang (the slowest takes well under 2 s).
TIME_BOUND = 30


def _cases(folder: Path) -> list[dict]:
    return tomllib.loads((folder / "cases.toml").read_text())["case"]


def _name(case: dict) -> str:
    return case.get("file") or case["name"]


@contextmanager
def time_bound(seconds: float = TIME_BOUND):
    """Fail a case that runs longer than ``seconds`` (a hang) instead of waiting for it."""
    def expired(signum, frame):  # noqa: ANN001
        raise TimeoutError(f"no answer within {seconds} s: the input hangs the loader")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def load_case(case: dict) -> ScenarioError:
    """Load one scenario case; return the ScenarioError it raised (anything else propagates)."""
    with time_bound(), pytest.raises(ScenarioError) as exc:
        if "id" in case:
            load_scenario(case["id"] * case.get("repeat", 1))
        else:
            load_scenario(SCENARIOS / case["file"])
    return exc.value


def replay_case(case: dict) -> RecordError:
    with time_bound(), pytest.raises(RecordError) as exc:
        replay(RECORDS / case["file"])
    return exc.value


def scenario_case(name: str) -> dict:
    return next(c for c in _cases(SCENARIOS) if _name(c) == name)


def record_case(name: str) -> dict:
    return next(c for c in _cases(RECORDS) if _name(c) == name)


@pytest.fixture
def in_corpus(monkeypatch):
    """Scenario cases name their broken map folders relative to the corpus folder."""
    monkeypatch.chdir(SCENARIOS)


# -- the corpora --------------------------------------------------------------------------------
@pytest.mark.parametrize("case", _cases(SCENARIOS), ids=_name)
def test_scenario_corpus(case, in_corpus):
    err = load_case(case)
    assert type(err).__name__ == case["error"]
    assert err.key == case["key"], (err.key, err.message)
    if "file" in case and not (SCENARIOS / case["file"]).is_dir():
        assert err.file == str(SCENARIOS / case["file"])
    assert err.message and "Traceback" not in err.message


@pytest.mark.parametrize("case", _cases(RECORDS), ids=_name)
def test_record_corpus(case):
    err = replay_case(case)
    assert type(err).__name__ == case["error"]
    assert err.key == case["key"], (err.key, str(err))


def test_the_corpora_bases_are_valid(in_corpus):
    """Every case breaks a base that loads (and replays) cleanly, in one place."""
    for base in ("base-ssa.toml", "base-eto.toml"):
        game = load_scenario(SCENARIOS / base)
        assert game.ruleset.setup_breaches(game.new_state(1)) == []
    rec = GameRecord.load(RECORDS / "base.json")
    assert replay(RECORDS / "base.json").digest() == rec.digest


def test_every_corpus_file_is_a_listed_case():
    for folder, bases in ((SCENARIOS, {"base-ssa.toml", "base-eto.toml", "cases.toml", "maps"}),
                          (RECORDS, {"base.json", "cases.toml"})):
        listed = {c["file"] for c in _cases(folder) if "file" in c}
        assert {p.name for p in folder.iterdir()} - bases == listed


# -- item 4: SS Amerika scenario sections are validated ----------------------------------------
@pytest.mark.parametrize("name", [
    "ssa-reinforcement-unit-type-typo.toml", "ssa-victory-is-a-list.toml", "ssa-special-rule-turns-is-text.toml"])
def test_ssa_scenario_mistakes_that_crashed_mid_game_are_scenario_errors_at_load(name, in_corpus):
    """Each of these loaded cleanly and then crashed mid-game (KeyError, AttributeError, TypeError)."""
    err = load_case(scenario_case(name))
    assert err.key == scenario_case(name)["key"]


def test_ssa_scenario_unknown_special_rule_effect_is_a_scenario_error(in_corpus):
    err = load_case(scenario_case("ssa-unknown-special-rule-effect.toml"))
    assert err.key == "special_rules[0] (SR1).effect"
    assert "unknown special-rule effect 'side_frozzen'" in err.message and "side_frozen" in err.message


def test_ssa_scenario_control_purple_is_a_scenario_error(in_corpus):
    err = load_case(scenario_case("ssa-control-purple.toml"))
    assert err.key == "control.US" and "'purple'" in err.message


def test_ssa_scenario_reinforcement_turn_1939_13_is_a_scenario_error(in_corpus):
    err = load_case(scenario_case("ssa-reinforcement-turn-1939-13.toml"))
    assert err.key == "reinforcements[0] (US-guard).turn" and "1942-06 to 1942-09" in err.message


def test_ssa_scenario_colliding_reinforcement_ids_are_a_scenario_error(in_corpus):
    assert load_case(scenario_case("ssa-reinforcement-ids-collide.toml")).key == "reinforcements[1].id"
    assert load_case(scenario_case("ssa-reinforcement-unit-id-collides.toml")).key.endswith("(US-inf).id")


def test_ssa_scenario_duplicate_deployment_names_are_a_scenario_error(in_corpus):
    err = load_case(scenario_case("ssa-duplicate-deployment-name.toml"))
    assert err.key == "deployment[1] (us-east).name" and "already named by deployment[0]" in err.message


def test_scenario_one_nation_on_both_sides_is_a_scenario_error(in_corpus):
    for name in ("ssa-nation-on-both-sides.toml", "eto-nation-on-both-sides.toml"):
        err = load_case(scenario_case(name))
        assert err.key == "sides.allies.nations" and "on both sides (axis and allies)" in err.message


def test_scenario_format_99_is_a_scenario_error(in_corpus):
    for name in ("ssa-format-99.toml", "eto-format-99.toml"):
        err = load_case(scenario_case(name))
        assert err.key == "format" and "format 99 is unknown" in err.message


def test_scenario_optional_rules_as_a_string_is_a_scenario_error(in_corpus):
    for name in ("ssa-optional-rules-is-text.toml", "eto-optional-rules-is-text.toml",
                 "ssa-optional-rule-unknown.toml", "eto-optional-rule-unknown.toml"):
        assert load_case(scenario_case(name)).key == "options.optional_rules"


def test_ssa_scenario_ten_divisions_in_one_hex_is_a_scenario_error_unless_designer_mode(in_corpus):
    err = load_case(scenario_case("ssa-ten-divisions-in-one-hex.toml"))
    assert err.key == "units[0] (US-inf-1).at"
    assert "breaks SSA-9.1" in err.message and "10 land division-equivalents (limit 3)" in err.message
    text = (SCENARIOS / "ssa-ten-divisions-in-one-hex.toml").read_text()
    game = _load_text(text.replace("format = 1", "format = 1\ndesigner_mode = true"))
    assert any(rule == "SSA-9.1" for rule, _ in game.ruleset.setup_breaches(game.new_state(1)))


def test_eto_scenario_setup_breaches_are_scenario_errors(in_corpus):
    assert "breaks ETO-24.2" in load_case(scenario_case("eto-four-corps-in-one-hex.toml")).message
    assert "breaks ETO-24.4" in load_case(scenario_case("eto-unit-sets-up-in-enemy-territory.toml")).message


def test_eto_scenario_unknown_special_rule_effect_is_a_scenario_error(in_corpus):
    err = load_case(scenario_case("eto-unknown-special-rule-effect.toml"))
    assert err.key == "special_rules[0] (land_only).effect" and "land_only" in err.message


def test_eto_scenario_seasonal_reinforcement_turn_is_a_scenario_error(in_corpus):
    err = load_case(scenario_case("eto-reinforcement-seasonal-turn.toml"))
    assert err.key == "reinforcements[0].turn" and "monthly turn" in err.message


def test_every_shipped_scenario_still_loads_with_no_setup_breach():
    for sid in scenario_module.scenario_ids():
        game = load_scenario(sid)
        assert game.scenario.id == sid


# -- item 5: raw errors from the loaders ----------------------------------------------------------
def test_scenario_deeply_nested_toml_is_a_scenario_error_not_a_recursion_error(in_corpus):
    assert "nest deeper than 32" in load_case(scenario_case("ssa-deep-nesting-5000.toml")).message


def test_scenario_malformed_props_is_a_scenario_error(in_corpus):
    for name in ("ssa-unit-props-not-a-table.toml", "ssa-unit-props-list-of-pairs.toml"):
        assert load_case(scenario_case(name)).key == "units[1] (US-arm).props"


def test_scenario_broken_map_folder_is_a_scenario_error(in_corpus):
    assert "JSONDecodeError" in load_case(scenario_case("ssa-map-broken-meta-json.toml")).message
    assert "FileNotFoundError" in load_case(scenario_case("ssa-map-without-hexes.toml")).message


def test_scenario_10000_character_id_is_a_scenario_error_not_an_os_error():
    err = load_case(scenario_case("id-10000-characters"))
    assert err.key == "(id)" and len(err.file) <= 80


def test_scenario_path_to_a_folder_is_a_scenario_error_not_is_a_directory_error():
    assert "is a folder" in load_case(scenario_case("folder.toml")).message


def test_record_negative_or_huge_seed_is_a_record_error():
    assert replay_case(record_case("seed-negative.json")).key == "seed"
    assert replay_case(record_case("seed-past-the-limit.json")).key == "seed"
    assert "truncated or corrupted" in str(replay_case(record_case("seed-5000-digits.json")))


def test_record_overrides_of_the_wrong_type_is_a_record_error():
    assert replay_case(record_case("overrides-a-list.json")).key == "overrides"


def test_record_100000_deep_json_is_a_record_error():
    assert "nest deeper than 32" in str(replay_case(record_case("nested-100000-deep.json")))


def test_record_10000_character_scenario_name_is_a_record_error():
    assert replay_case(record_case("scenario-10000-characters.json")).key == "scenario"


def test_record_version_true_is_a_record_error():
    assert "record version True is unknown" in str(replay_case(record_case("version-true.json")))


def test_record_ruleset_label_that_does_not_match_the_scenario_is_a_record_error():
    err = replay_case(record_case("ruleset-does-not-match.json"))
    assert err.key == "ruleset" and "'ssa/valor-of-ignorance' is played with 'ssa'" in str(err)


def test_record_annotation_of_the_wrong_type_is_a_record_error():
    for name in ("annotation-is-text.json", "annotation-comment-is-a-number.json", "annotation-marks-is-text.json"):
        assert replay_case(record_case(name)).key.startswith("annotations.2")


def test_record_order_with_a_field_of_the_wrong_type_is_a_record_error():
    assert replay_case(record_case("order-sail-to-a-list.json")).key == "orders.11"


def test_record_folder_is_a_record_error_not_is_a_directory_error():
    assert replay_case(record_case("folder.json")).key == "(file)"


def test_record_error_keeps_its_key_through_pickle():
    err = pickle.loads(pickle.dumps(RecordError("x: [seed] bad", "seed")))
    assert (str(err), err.key) == ("x: [seed] bad", "seed")


# -- item 6: sizes are bounded ----------------------------------------------------------------------
def test_scenario_count_of_a_billion_is_refused_at_once(in_corpus):
    err = load_case(scenario_case("ssa-count-one-billion.toml"))
    assert err.key == "units[0] (US-inf).count" and "5,000" in err.message


def test_scenario_reinforcement_of_a_million_units_is_refused_at_load(in_corpus):
    for name in ("ssa-reinforcement-of-a-million.toml", "ssa-reinforcement-of-501.toml"):
        assert load_case(scenario_case(name)).key.endswith("(US-ng).count")


def test_scenario_file_past_the_size_limit_is_a_scenario_error(monkeypatch, tmp_path):
    monkeypatch.setattr(limits, "MAX_SCENARIO_BYTES", 1000)
    err = load_case({"file": str(SCENARIOS / "base-ssa.toml")})
    assert err.key == "(file)" and "at most 1,000" in err.message


def test_scenario_units_past_the_limit_are_a_scenario_error(monkeypatch, in_corpus):
    monkeypatch.setattr(limits, "MAX_UNITS", 8)
    err = load_case({"file": "base-ssa.toml"})
    assert err.key == "reinforcements[0] (US-guard).units[0] (US-ng).count"  # 8 units + 2 arriving


def test_record_past_the_size_or_order_limits_is_a_record_error(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ORDERS", 5)
    assert replay_case({"file": "base.json"}).key == "orders"
    monkeypatch.setattr(limits, "MAX_RECORD_BYTES", 1000)
    assert replay_case({"file": "base.json"}).key == "(file)"


def test_record_order_past_the_size_limit_is_a_record_error():
    assert "at most 65,536" in str(replay_case(record_case("order-70000-characters.json")))


# -- item 7: paths --------------------------------------------------------------------------------
def test_scenario_id_resolves_only_inside_scenarios():
    err = load_case(scenario_case("id-climbs-out-of-scenarios"))
    assert "not a scenario id" in err.message and "pass its path" in err.message
    assert load_case(scenario_case("id-absolute-path")).key == "(id)"
    # the same file loads when the caller names it as a file
    assert load_scenario(SCENARIOS / "base-ssa.toml").scenario.id == "test/ssa-base"
    assert load_scenario(str(SCENARIOS / "base-eto.toml")).scenario.id == "test/eto-base"


def test_scenario_found_by_id_must_carry_that_id(tmp_path, monkeypatch):
    (tmp_path / "ssa").mkdir()
    (tmp_path / "ssa" / "other.toml").write_text((SCENARIOS / "base-ssa.toml").read_text())
    monkeypatch.setattr(scenario_module, "SCENARIOS_DIR", tmp_path)
    with pytest.raises(ScenarioError) as exc:
        load_scenario("ssa/other")
    assert exc.value.key == "id" and "found by the id 'ssa/other'" in exc.value.message


def test_record_names_its_scenario_by_id_never_by_a_path(toy_game, toy_scenario_file, tmp_path):
    state = toy_game.new_state(seed=3)
    state.advance()
    path = state.record().save(tmp_path / "g.json")
    assert json.loads(path.read_text())["scenario"] == "toy/skirmish"
    with pytest.raises(RecordError) as exc:  # toy/skirmish is no shipped scenario
        replay(path)
    assert exc.value.key == "scenario" and "replay(record, scenario=path)" in str(exc.value)
    assert replay(path, scenario=toy_scenario_file).digest() == state.digest()  # the caller names the file
    assert replay(state.record()).digest() == state.digest()  # in memory: the game it came from
    for name in ("scenario-absolute-path.json", "scenario-climbs-out.json", "scenario-toml-file.json"):
        err = replay_case(record_case(name))
        assert err.key == "scenario" and "never by a path" in str(err)


def test_record_replayed_on_another_scenario_file_is_a_record_error(in_corpus):
    with pytest.raises(RecordError) as exc:
        replay(RECORDS / "base.json", scenario=SCENARIOS / "base-ssa.toml")
    assert exc.value.key == "scenario" and "'test/ssa-base'" in str(exc.value)


# -- item 8: replay says what it verified ----------------------------------------------------------
def test_cli_replay_without_a_digest_says_not_verified(tmp_path, capsys):
    data = json.loads((RECORDS / "base.json").read_text())
    data["digest"] = None
    path = tmp_path / "nodigest.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(no digest in the record: not verified)" in out and "matches the record" not in out
    assert main(["replay", str(RECORDS / "base.json")]) == 0
    out = capsys.readouterr().out
    assert "(matches the record)" in out and "notes: the annotations and branches match their digest" in out


def test_record_annotations_and_branches_have_a_digest_of_their_own(tmp_path):
    rec = GameRecord.load(RECORDS / "base.json")
    assert rec.notes_digest == rec.current_notes_digest()
    err = replay_case(record_case("notes-edited-after-saving.json"))
    assert err.key == "notes_digest" and "edited after the record was saved" in str(err)
    rec.branches = [{"name": "what-if", "orders": []}]
    saved = GameRecord.load(rec.save(tmp_path / "b.json"))
    assert saved.notes_digest != rec.notes_digest and replay(saved).digest() == rec.digest
    data = json.loads((RECORDS / "base.json").read_text())
    del data["notes_digest"]  # a record from before notes digests: replays, the notes unverified
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 0


def test_cli_replay_of_a_bad_record_is_one_clean_line(capsys):
    assert main(["replay", str(RECORDS / "seed-negative.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "[seed]" in err and "Traceback" not in err


# -- helpers ----------------------------------------------------------------------------------------
def _load_text(text: str):
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "case.toml"
        path.write_text(text)
        return load_scenario(path)


def test_options_given_to_load_scenario_are_checked():
    with pytest.raises(ScenarioError) as exc:
        load_scenario("ssa/valor-of-ignorance", options={"optional_rules": "SSA-21"})
    assert exc.value.key == "options (given to load_scenario).optional_rules"


def test_set_up_panel_saves_designer_mode_with_a_designer_position(toy_game):
    from workbench.ui.setup import Draft

    draft = Draft(toy_game, seed=1)
    assert "designer_mode" not in draft.toml("toy/a", "A")
    draft.designer = True
    assert "designer_mode = true" in draft.toml("toy/b", "B")
