"""Size limits on what the kernel reads: scenario files, game records and orders.

Every limit is refused at load with a typed error (:class:`ScenarioError` for scenarios,
:class:`RecordError` for records) that names the limit, so a damaged or hostile file can
neither exhaust memory nor hang play.  ``docs/limits.md`` lists them with what happens past
each; the shipped scenarios stay far below all of them (the largest has 413 units and a
nesting depth of 9).
"""

from __future__ import annotations

from typing import Any

#: Bytes of one scenario file (the shipped ones are under 40 kB).
MAX_SCENARIO_BYTES = 1_048_576
#: Nesting depth of tables and lists in a scenario file or a game record.
MAX_DEPTH = 32
#: Units one scenario may bring into play: ``[[units]]`` after ``count``, plus every
#: ``[[reinforcements]]`` unit (after its ``count``) and every ``[[force_pool]]`` unit.
MAX_UNITS = 5_000
#: Units one ``[[reinforcements]]`` entry may bring (after ``count``).
MAX_REINFORCEMENT_UNITS = 500
#: Turns of a scenario's calendar (first_turn to last_turn): 100 years of monthly turns.
MAX_TURNS = 1_200
#: Characters of an id (scenario id, unit id, reinforcement id, ruleset name).
MAX_ID_LENGTH = 128

#: Bytes of one game record file.
MAX_RECORD_BYTES = 64 * 1_048_576
#: Orders in one game record.
MAX_ORDERS = 1_000_000
#: Characters of one order written as compact JSON.
MAX_ORDER_CHARS = 65_536
#: Characters of one annotation comment, marks per annotation, characters per mark.
MAX_COMMENT_CHARS = 10_000
MAX_MARKS = 32
MAX_MARK_CHARS = 100
#: Branches kept in one record.
MAX_BRANCHES = 1_000
#: The deepest nesting one order may have (a path is a list in a dict: depth 2).
MAX_ORDER_DEPTH = 8
#: A record's dice seed is a whole number from 0 to this (PCG64 takes any non-negative seed).
MAX_SEED = 2**64 - 1


def depth_over(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests dicts and lists deeper than ``limit`` (iterative: never recurses)."""
    stack = [(data, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list | tuple):
            children = node
        else:
            continue
        if d > limit:
            return True
        stack.extend((c, d + 1) for c in children if isinstance(c, dict | list | tuple))
    return False
