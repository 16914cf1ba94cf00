"""The sequence of play as data, and the frame stack that walks it.

A ruleset declares its sequence of play in ``tables/sequence.toml`` as a flat
list of ``[[step]]`` tables whose ``path`` (``"turn/axis/combat/land"``) gives
the tree.  The first path segment names a *root*: a turn kind (``turn`` for SS
Amerika; ``monthly`` and ``seasonal`` for ETO) or a sub-procedure that steps
may ``call`` or rules code may push (ETO's attack sequence 4A).

Node kinds
----------
``seq``        children in order (the default for a node with children)
``leaf``       a step (the default for a node without children).  With an
               ``actor`` it waits for that side's orders until it ends the step;
               ``actor = "both"`` asks each side in turn (simultaneous steps).
               Without an actor it runs its procedure and moves on.
``sides``      runs its children once per side, that side phasing.  The order is
               ``sides`` or, with ``chooser``, picked by that side (ETO Naval & Air).
``alternate``  the sides alternate, each either beginning one more round of the
               children (an offensive) or passing; two passes in a row end it.
``call``       runs the root named by ``call``, then returns.

The *frame stack* on the state is the cursor: one frame per open node, plus
*interrupt* frames pushed by rules code (interception, counter-interception,
armor reaction, ...).  Frames are plain dicts, so the cursor serializes, hashes
and forks with the rest of the state.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NODE_KINDS = ("seq", "leaf", "sides", "alternate", "call")
ACTORS = ("phasing", "non-phasing", "both", "initiative", "non-initiative")


@dataclass
class Step:
    """One node of the sequence-of-play tree."""

    path: str
    title: str
    rule: str = ""
    kind: str = "leaf"
    actor: str | None = None
    orders: tuple[str, ...] = ()
    when: str | None = None
    sides: tuple[str, ...] = ()
    chooser: str | None = None
    first: str | None = None
    call: str | None = None
    prompt: str = ""
    children: list[Step] = field(default_factory=list)

    @property
    def key(self) -> str:
        """The path without its root: the stable id rules code dispatches on."""
        return self.path.split("/", 1)[1] if "/" in self.path else self.path

    def title_for(self, side: str | None) -> str:
        return self.title.replace("{side}", (side or "").capitalize())


class Sequence:
    """A parsed sequence-of-play declaration: ``roots`` by name, ``nodes`` by path."""

    def __init__(self, steps: list[dict[str, Any]], source: str = "<sequence>") -> None:
        self.nodes: dict[str, Step] = {}
        self.roots: dict[str, Step] = {}
        for i, raw in enumerate(steps):
            where = f"{source}: step #{i + 1}"
            path = raw.get("path")
            if not isinstance(path, str) or not path:
                raise ValueError(f"{where}: every step needs a 'path'")
            if path in self.nodes:
                raise ValueError(f"{where}: duplicate step path {path!r}")
            unknown = set(raw) - {"path", "title", "rule", "kind", "actor", "orders", "when",
                                  "sides", "chooser", "first", "call", "prompt"}
            if unknown:
                raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
            step = Step(
                path=path, title=raw.get("title", path.rsplit("/", 1)[-1]), rule=raw.get("rule", ""),
                kind=raw.get("kind", ""), actor=raw.get("actor"), orders=tuple(raw.get("orders", ())),
                when=raw.get("when"), sides=tuple(raw.get("sides", ())), chooser=raw.get("chooser"),
                first=raw.get("first"), call=raw.get("call"), prompt=raw.get("prompt", ""),
            )
            if step.actor is not None and step.actor not in ACTORS and not step.actor.isidentifier():
                raise ValueError(f"{where}: bad actor {step.actor!r}")
            parent = path.rsplit("/", 1)[0] if "/" in path else None
            if parent is None:
                self.roots[path] = step
            elif parent not in self.nodes:
                raise ValueError(f"{where}: parent {parent!r} must be declared before {path!r}")
            else:
                self.nodes[parent].children.append(step)
            self.nodes[path] = step
        for step in self.nodes.values():
            if not step.kind:
                step.kind = "call" if step.call else ("seq" if step.children else "leaf")
            if step.kind not in NODE_KINDS:
                raise ValueError(f"{source}: {step.path}: unknown kind {step.kind!r}")
            if step.kind == "call" and step.call not in self.roots:
                raise ValueError(f"{source}: {step.path}: calls unknown root {step.call!r}")
            if step.kind == "sides" and not (step.sides or step.chooser or step.first):
                raise ValueError(f"{source}: {step.path}: a 'sides' node needs sides, first or a chooser")

    @classmethod
    def load(cls, path: str | Path) -> Sequence:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        return cls(data.get("step", []), str(path))

    def outline(self, root: str) -> list[tuple[int, Step]]:
        """Depth-first (depth, step) pairs of a root, for outlines and docs."""
        out: list[tuple[int, Step]] = []

        def walk(s: Step, depth: int) -> None:
            out.append((depth, s))
            for c in s.children:
                walk(c, depth + 1)
            if s.kind == "call":
                walk(self.roots[s.call], depth + 1)  # type: ignore[index]

        walk(self.roots[root], 0)
        return out


def node_frame(step: Step, phasing: str | None, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """A fresh cursor frame for a tree node."""
    return {"node": step.path, "i": 0, "phasing": phasing, "k": 0, "order": None,
            "side": None, "passes": 0, "running": False, "pending": None, "entered": False,
            "data": data or {}}


def interrupt_frame(kind: str, side: str, rule: str, prompt: str, orders: list[str],
                    data: dict[str, Any] | None = None) -> dict[str, Any]:
    """A frame for an interrupt: ``side`` owes a ``kind`` decision before play goes on."""
    return {"interrupt": kind, "side": side, "rule": rule, "prompt": prompt,
            "orders": list(orders), "data": data or {}}
