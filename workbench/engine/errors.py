"""The three ways the kernel says no.  None of them ever leaves a state half-changed."""

from __future__ import annotations

import re

#: "SSA-5.7f-g: why", "ETO-31.3: why", "SSA-SC0 SR3: why" -> (rule, why).  Only the two
#: rulebooks' prefixes count, so a sentence starting with a unit id ("GE-4Pz cannot ...") does not.
_CITED = re.compile(r"^((?:SSA|ETO)-[^:\s][^:]*?): (.*)$", re.S)


class IllegalOrder(Exception):
    """An order that breaks a rule.  ``rule`` is the rule ID, ``why`` says why in plain words."""

    def __init__(self, rule: str, why: str) -> None:
        self.rule = rule
        self.why = why
        super().__init__(f"{rule}: {why}")

    def __reduce__(self):  # noqa: ANN204 - so the error survives a trip to a worker process
        return (IllegalOrder, (self.rule, self.why))

    @classmethod
    def cited(cls, text: str, default_rule: str) -> IllegalOrder:
        """From a rules helper's "RULE: why" sentence (e.g. ``"SSA-5.1: enemy units there"``);
        text without a rule prefix is cited under ``default_rule``."""
        m = _CITED.match(text)
        return cls(m.group(1), m.group(2)) if m else cls(default_rule, text)


class ScenarioError(Exception):
    """Bad scenario data: names the file, the key and the problem."""

    def __init__(self, file: str, key: str, message: str) -> None:
        self.file = str(file)
        self.key = key
        self.message = message
        super().__init__(f"{self.file}: [{key}] {message}")

    def __reduce__(self):  # noqa: ANN204
        return (ScenarioError, (self.file, self.key, self.message))


class RecordError(Exception):
    """A game record that cannot be read or replayed (truncated, corrupted, unknown version)."""
