"""The three ways the kernel says no.  None of them ever leaves a state half-changed."""

from __future__ import annotations


class IllegalOrder(Exception):
    """An order that breaks a rule.  ``rule`` is the rule ID, ``why`` says why in plain words."""

    def __init__(self, rule: str, why: str) -> None:
        self.rule = rule
        self.why = why
        super().__init__(f"{rule}: {why}")

    def __reduce__(self):  # noqa: ANN204 - so the error survives a trip to a worker process
        return (IllegalOrder, (self.rule, self.why))


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
