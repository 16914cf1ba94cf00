"""Write the lesson notebooks in ``notebooks/lessons/`` and their index (committed without outputs).

    python notebooks/lessons/make_lessons.py           # rewrite every lesson notebook and the index
    python notebooks/lessons/make_lessons.py --check   # exit 1 if a committed notebook differs

The lessons are plain Python: ``eto_lessons.py`` and ``ssa_lessons.py`` hold one :class:`Lesson`
each (its rule IDs and its cells), so a change to a lesson is reviewed as a change to code.  The
notebooks keep their kernelspec (JupyterLab would otherwise ask for a kernel) and carry no outputs
and no widget state.  ``tests/test_lessons.py`` checks that the committed notebooks are exactly what
this module writes, and that every lesson names its rules and ends with a question and an answer.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}

#: Cell kinds of a lesson: markdown, code, and the two closing cells (tagged in the notebook).
KINDS = {"md": "markdown", "code": "code", "setup": "code", "question": "markdown", "answer": "code"}
#: Cell metadata per kind: the closing cells are tagged; the set-up cell starts collapsed in JupyterLab.
METADATA = {"question": {"tags": ["question"]}, "answer": {"tags": ["answer"]},
            "setup": {"jupyter": {"source_hidden": True}, "tags": ["setup"]}}


#: The helpers every lesson's set-up cell ends with (one copy for both games' lessons).
HELPERS = '''
def step_to(state, kind, side=None, limit=100):
    """End steps (or pass) until the decision owed is ``kind`` (for ``side``); a side asked who
    goes first picks itself."""
    for _ in range(limit):
        d = state.decision
        if d is None or (d.kind == kind and side in (None, d.side)):
            return state
        if "choose_first" in d.kinds:  # who goes first in the Naval and Air phase: the chooser
            state.apply({"kind": "choose_first", "side": d.side})
        else:
            state.advance()
    raise RuntimeError(f"never reached {kind}: {state.decision}")


def try_order(state, order):
    """Send one order: the kernel carries it out, or refuses it naming the rule -- and then
    nothing has changed (the state's digest is the same)."""
    before = state.digest()
    try:
        state.apply(order)
    except wb.IllegalOrder as refused:
        print(f"REFUSED by {refused.rule}: {refused.why}  (nothing changed: {state.digest() == before})")
    else:
        print("done:", order)


def destinations(state, unit, kind="move"):
    """The hexes (or boxes) ``unit`` may end in with one legal order of ``kind`` now."""
    return sorted({o["path"][-1] if o.get("path") else o.get("to") for o in state.legal_orders_of(kind)
                   if o.get("unit") == unit and (o.get("path") or o.get("to"))})
'''


@dataclass
class Lesson:
    """One lesson notebook: what it teaches (for the index) and its cells, in order."""

    file: str                      # the notebook's file name, e.g. "eto-02-movement-and-zoc.ipynb"
    game: str                      # "ETO" or "SS Amerika"
    subsystem: str                 # what the index calls it
    rules: list[str]               # the rule IDs it teaches, e.g. ["ETO-25.2", "ETO-25.3"]
    summary: str                   # one line for the index
    cells: list[tuple[str, str]] = field(default_factory=list)  # (kind, source), kind in KINDS

    @property
    def stem(self) -> str:
        return self.file.removesuffix(".ipynb")


def notebook(cells: list[tuple[str, str]], stem: str) -> dict:
    """Notebook JSON (nbformat 4.5) for ``cells``; question, answer and set-up cells are tagged."""
    out = []
    for i, (kind, src) in enumerate(cells):
        cell: dict = {"cell_type": KINDS[kind], "id": f"{stem}-{i:02d}",
                      "metadata": json.loads(json.dumps(METADATA.get(kind, {}))),
                      "source": src.strip("\n").splitlines(True)}
        if cell["cell_type"] == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(cell)
    return {"cells": out, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}}


def lessons() -> list[Lesson]:
    """Every lesson, ETO first, in index order."""
    sys.path.insert(0, str(HERE))
    try:
        import eto_lessons
        import ssa_lessons
    finally:
        sys.path.remove(str(HERE))
    return [*eto_lessons.LESSONS, *ssa_lessons.LESSONS]


def index_cells(all_lessons: list[Lesson]) -> list[tuple[str, str]]:
    rows = {}
    for lesson in all_lessons:
        rows.setdefault(lesson.game, []).append(
            f"| [{lesson.subsystem}]({lesson.file}) | {', '.join(lesson.rules)} | {lesson.summary} |")
    tables = "\n\n".join(
        f"## {game}\n\n| lesson | rules | what the class does |\n|---|---|---|\n" + "\n".join(r)
        for game, r in rows.items())
    files = ", ".join(repr(lesson.file) for lesson in all_lessons)
    return [
        ("md", f"""
# Lessons: the rules of ETO and SS Amerika, one subsystem at a time

Each lesson is a notebook a teacher can run with a class. It

* explains one subsystem, quoting or paraphrasing the rulebook with its rule IDs
  (`ETO-25.2` is section [25.2] of the ETO rulebook, `SSA-8.2` rule 8.2 of SS Amerika);
* sets up a **small position on the real map** (the scenario file is written out in the notebook,
  so the class can change it and run again);
* shows the rule **on the map**, with the live workbench to click in;
* lets the class **try a move and see the refusal**: the kernel names the rule it breaks and why,
  and nothing changes;
* prints the **numbers from the rules tables** (odds columns, modifiers, exact result odds as fractions);
* ends with a **question** and an **answer cell** that computes the answer, so the answer is checked
  whenever the notebook runs.

## How to open a lesson

1. `make lab` in the repository opens JupyterLab (first run: a minute to set up `.venv`).
2. In the file browser on the left, open `notebooks/lessons/` and double-click a lesson.
3. *Run → Run All Cells* (every lesson takes a few seconds), then read from the top. Change an order
   or the scenario text in a cell and run it again (*Shift-Enter*); *Kernel → Restart Kernel and Run
   All Cells* goes back to the start. Every lesson seeds its dice, so the class sees the same game.

Or from a shell: `.venv/bin/jupyter lab notebooks/lessons/index.ipynb`.

{tables}

The notebooks are generated from `make_lessons.py`, `eto_lessons.py` and `ssa_lessons.py` in this
folder (`python notebooks/lessons/make_lessons.py`); edit those, not the notebooks."""),
        ("code", f"""
import pathlib

LESSONS = [{files}]
missing = [name for name in LESSONS if not pathlib.Path(name).exists()]
print(len(LESSONS), 'lessons in this folder' + (f'; missing: {{missing}}' if missing else ''))"""),
    ]


def rendered() -> dict[str, str]:
    """File name -> the notebook text this module writes (every lesson and the index)."""
    all_lessons = lessons()
    out = {lesson.file: notebook(lesson.cells, lesson.stem) for lesson in all_lessons}
    out["index.ipynb"] = notebook(index_cells(all_lessons), "index")
    return {name: json.dumps(nb, indent=1, ensure_ascii=False) + "\n" for name, nb in out.items()}


def write(folder: Path = HERE) -> list[Path]:
    paths = []
    for name, text in rendered().items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def stale(folder: Path = HERE) -> list[str]:
    """Notebooks in ``folder`` that differ from what :func:`rendered` writes (or are missing)."""
    return [name for name, text in rendered().items()
            if not (folder / name).exists() or (folder / name).read_text(encoding="utf-8") != text]


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        bad = stale()
        print("stale:", ", ".join(bad) if bad else "none")
        sys.exit(1 if bad else 0)
    for p in write():
        print(p)
