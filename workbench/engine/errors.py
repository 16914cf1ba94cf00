"""The three ways the kernel says no.  None of them ever leaves a state half-changed.

A refusal is a typed value, :class:`Refusal` ``(rule, why)``: rules helpers return one (or
``None``) and order checks raise it as :class:`IllegalOrder`, so nothing ever parses a rule ID
back out of a sentence.
"""

from __future__ import annotations

from typing import NamedTuple


class Refusal(NamedTuple):
    """Why an order is refused: the rule ID (``"ETO-25.2"``) and the reason in plain words."""

    rule: str
    why: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.why}"


class IllegalOrder(Exception):
    """An order that breaks a rule.  ``rule`` is the rule ID, ``why`` says why in plain words."""

    def __init__(self, rule: str, why: str) -> None:
        self.rule = rule
        self.why = why
        super().__init__(f"{rule}: {why}")

    def __reduce__(self):  # noqa: ANN204 - so the error survives a trip to a worker process
        return (IllegalOrder, (self.rule, self.why))

    @property
    def refusal(self) -> Refusal:
        return Refusal(self.rule, self.why)

    @classmethod
    def of(cls, refusal: Refusal | str, default_rule: str) -> IllegalOrder:
        """From a rules helper's answer: a :class:`Refusal`, or plain words cited under
        ``default_rule`` (a helper that knows only the reason, not a more precise rule)."""
        if isinstance(refusal, Refusal):
            return cls(refusal.rule, refusal.why)
        return cls(default_rule, str(refusal))


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
    """A game record that cannot be read or replayed (truncated, corrupted, unknown version).

    ``key`` names the record's field at fault (``"seed"``, ``"annotations.3"``) when there is one."""

    def __init__(self, message: str, key: str | None = None) -> None:
        self.key = key
        super().__init__(message)

    def __reduce__(self):  # noqa: ANN204
        return (RecordError, (self.args[0] if self.args else "", self.key))


def refuse(refusal: Refusal | None) -> None:
    """Raise the refusal a rules helper returned, if any (``check`` code reads as a list of
    ``refuse(why_not(...))`` lines)."""
    if refusal is not None:
        raise IllegalOrder(refusal.rule, refusal.why)
