"""The lesson notebooks (notebooks/lessons/): generated, complete and committed without outputs.

Running them is nbval's job (CI: ``pytest --nbval-lax --nbval-current-env notebooks/``); these tests
check, fast, that the committed notebooks are exactly what ``make_lessons.py`` writes, and that every
lesson names its rules, sets up a position, shows a map, lets the class try an order, and ends with a
question and a computed answer.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

LESSONS_DIR = Path(__file__).resolve().parents[1] / "notebooks" / "lessons"
sys.path.insert(0, str(LESSONS_DIR))
import make_lessons  # noqa: E402 - lives next to the notebooks it writes

LESSONS = make_lessons.lessons()
RULE_ID = re.compile(r"^(ETO|SSA)-[0-9A-Z]+([.-][0-9A-Za-z]+)*$")


def _nb(name: str) -> dict:
    return json.loads((LESSONS_DIR / name).read_text(encoding="utf-8"))


def _src(cell: dict) -> str:
    return "".join(cell["source"])


def test_committed_notebooks_are_what_the_generator_writes():
    assert make_lessons.stale() == [], "run: python notebooks/lessons/make_lessons.py"
    on_disk = {p.name for p in LESSONS_DIR.glob("*.ipynb")}
    assert on_disk == set(make_lessons.rendered()), "a notebook in notebooks/lessons/ that no lesson writes"


def test_at_least_five_lessons_per_game():
    games: dict[str, int] = {}
    for lesson in LESSONS:
        games[lesson.game] = games.get(lesson.game, 0) + 1
    assert games.get("ETO", 0) >= 5 and games.get("SS Amerika", 0) >= 5, games
    assert len({lesson.file for lesson in LESSONS}) == len(LESSONS)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_every_lesson_names_its_rules_and_closes_with_a_question_and_an_answer(lesson):
    nb = _nb(lesson.file)
    cells = nb["cells"]
    prefix = "ETO" if lesson.game == "ETO" else "SSA"
    assert lesson.rules and all(RULE_ID.match(r) and r.startswith(prefix) for r in lesson.rules), lesson.rules
    head = _src(cells[0])
    assert cells[0]["cell_type"] == "markdown" and all(r in head for r in lesson.rules)
    # the rulebook is quoted or paraphrased with rule IDs in the text, not only in the heading
    prose = "\n".join(_src(c) for c in cells[1:] if c["cell_type"] == "markdown")
    assert re.search(r"\(\d+\.\d|\[\d+\.\d|(ETO|SSA)-\d", prose), "no rule cited in the lesson's text"
    question, answer = cells[-2], cells[-1]
    assert question["cell_type"] == "markdown" and question["metadata"]["tags"] == ["question"]
    assert "Question" in _src(question)
    assert answer["cell_type"] == "code" and answer["metadata"]["tags"] == ["answer"]
    assert "assert " in _src(answer), "the answer is computed and checked when the notebook runs"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_every_lesson_sets_up_a_position_shows_it_and_lets_the_class_try(lesson):
    code = "\n".join(_src(c) for c in _nb(lesson.file)["cells"] if c["cell_type"] == "code")
    assert "output_notebook(INLINE" in code, "BokehJS must come with the notebook (no CDN here)"
    assert "SEED = " in code and "seed=SEED" in code, "the dice are seeded"
    assert "load_position(" in code or "load_scenario(" in code
    assert "show(board(" in code and "Workbench(" in code, "the rule on the map and the live workbench"
    assert "try_order(" in code or ".check(" in code, "the class tries an order and sees the refusal"


@pytest.mark.parametrize("name", [*[lesson.file for lesson in LESSONS], "index.ipynb"])
def test_notebooks_are_committed_without_outputs_and_keep_their_kernel(name):
    nb = _nb(name)
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    assert "widgets" not in nb["metadata"]
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None


def test_the_index_links_every_lesson_with_its_rule_ids():
    text = "\n".join(_src(c) for c in _nb("index.ipynb")["cells"])
    for lesson in LESSONS:
        assert f"]({lesson.file})" in text, lesson.file
        assert all(r in text for r in lesson.rules)
    assert "How to open a lesson" in text
