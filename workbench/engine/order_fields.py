"""Order fields: what each order kind takes, declared as data and checked before any rule.

A ruleset declares its order kinds' fields in ``tables/orders.toml``::

    [kinds.move]
    unit = "text"
    path = "text list?"        # "?": the field may be left out
    to = "text?"

Types: ``text``, ``integer``, ``number``, ``boolean``, each optionally followed by ``list``
(``text list``; ``text list list``: a list of lists) or ``table`` (``integer table``: text
names to whole numbers).  The kernel checks an
order against its kind's declaration in one place (:meth:`State.check`), before the kind's own
rule check, so a field of the wrong type is an :class:`IllegalOrder` naming the kind's rule --
never a ``TypeError`` from deep in the rules -- and a field the kind does not take is refused,
so nothing undeclared reaches the game record.  Every order may also name the deciding
``side``.  A ruleset without the table gets the kernel's plain-JSON checks only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from workbench.engine.errors import IllegalOrder

#: The flow's own orders (the kernel's, not a ruleset's).
FLOW_FIELDS: dict[str, dict[str, str]] = {"end_step": {}, "pass": {}, "begin": {}, "choose_first": {"side": "text"}}
#: Fields every order may carry.
COMMON = {"kind": "text", "side": "text?"}
_BASE = {"text": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,)}


@lru_cache(maxsize=512)
def parse(spec: str) -> tuple[str, tuple[str, ...], bool]:
    """``"text list?"`` -> (``"text"``, (``"list"``,), optional): the base type, then the
    containers from the inside out (``list``; ``table``: text keys to values).  Memoised: the
    same few specs are read for every order checked."""
    words = spec.strip()
    optional = words.endswith("?")
    words = words.rstrip("?").split()
    if not words or words[0] not in _BASE or any(w not in ("list", "table") for w in words[1:]):
        raise ValueError(f"unknown field type {spec!r}: use text, integer, number or boolean, "
                         "optionally followed by 'list' or 'table' (nested: 'text list list'), and '?' when optional")
    return words[0], tuple(words[1:]), optional


def _fits(value: Any, base: str, containers: tuple[str, ...]) -> bool:
    if containers:
        inner = containers[:-1]
        if containers[-1] == "list":
            return isinstance(value, list) and all(_fits(v, base, inner) for v in value)
        return isinstance(value, dict) and all(isinstance(k, str) and _fits(v, base, inner)
                                               for k, v in value.items())
    if isinstance(value, bool) and base != "boolean":
        return False
    return isinstance(value, _BASE[base])


_ONE = {"text": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false"}
_MANY = {"text": "texts", "integer": "whole numbers", "number": "numbers", "boolean": "true/false values"}


def _describe(base: str, containers: tuple[str, ...]) -> str:
    if not containers:
        return _ONE[base]
    out = _MANY[base]
    for c in containers[:-1]:
        out = f"lists of {out}" if c == "list" else f"tables of {out}"
    return f"a list of {out}" if containers[-1] == "list" else f"a table (names to {out})"


def check(fields: dict[str, str], order: dict[str, Any], rule: str) -> None:
    """Raise :class:`IllegalOrder` citing ``rule`` if ``order`` has a field its kind does not
    take, lacks a required one, or has one of the wrong type."""
    kind = order["kind"]
    declared = {**COMMON, **fields}
    extra = sorted(set(order) - set(declared))
    if extra:
        names = ", ".join(f for f in fields) or "none besides 'kind'"
        raise IllegalOrder(rule, f"a {kind} order has no field {extra[0]!r} (its fields: {names})")
    for name, spec in declared.items():
        base, containers, optional = parse(spec)
        if name not in order:
            if not optional:
                raise IllegalOrder(rule, f"a {kind} order needs {name!r} ({_describe(base, containers)})")
            continue
        value = order[name]
        if not _fits(value, base, containers):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            raise IllegalOrder(rule, f"a {kind} order's {name!r} must be {_describe(base, containers)}, not {shown}")
