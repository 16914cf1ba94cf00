"""Issue 20.3: every order kind's fields are declared as data (tables/orders.toml) and checked by
the kernel in one place before any rule, so a field of the wrong type is an IllegalOrder naming
the kind's rule, never a TypeError, and undeclared fields never reach the record."""

from __future__ import annotations

import pytest

import workbench as wb
from workbench.bots import RandomPolicy
from workbench.engine import IllegalOrder
from workbench.engine.order_fields import check, parse
from workbench.engine.ruleset import get_ruleset


@pytest.mark.parametrize("name", ["ssa", "eto"])
def test_every_order_kind_declares_its_fields(name):
    rs = get_ruleset(name)
    missing = [k for k in rs.order_kinds if rs.order_fields(k) is None]
    assert missing == []
    for kind in rs.order_kinds:
        for spec in rs.order_fields(kind).values():
            parse(spec)  # every type is one the kernel knows
    assert set(rs.tables["orders"]["kinds"]) <= set(rs.order_kinds)


def test_field_types_in_plain_words():
    spec = {"unit": "text", "path": "text list?", "pay": "integer table?"}
    check(spec, {"kind": "move", "unit": "GE-1", "path": ["0101"], "pay": {"GE": 2}}, "R")
    for bad, words in (({"kind": "move"}, "needs 'unit' (text)"),
                       ({"kind": "move", "unit": ["GE-1"]}, "'unit' must be text, not ['GE-1']"),
                       ({"kind": "move", "unit": "x", "path": None}, "'path' must be a list of texts, not None"),
                       ({"kind": "move", "unit": "x", "pay": {"GE": True}}, "'pay' must be a table (names to whole numbers)"),
                       ({"kind": "move", "unit": "x", "speed": 3}, "has no field 'speed'")):
        with pytest.raises(IllegalOrder) as exc:
            check(spec, bad, "R")
        assert exc.value.rule == "R" and words in exc.value.why


def _reach(sid: str, kind: str, seed: int = 1, limit: int = 3000):
    """A position of ``sid`` where ``kind`` is open, by random play."""
    s = wb.load_scenario(sid).new_state(seed)
    pols = {side: RandomPolicy(seed + i) for i, side in enumerate(s.ruleset.sides)}
    for _ in range(limit):
        if kind in s.decision.kinds:
            return s
        s.apply(pols[s.decision.side].choose(s, s.legal_orders()))
    raise AssertionError(f"{kind} never opened in {sid}")


@pytest.mark.parametrize("sid,kind,bad", [
    ("ssa/1941", "move", {"unit": ["GE-1"], "to": "0101"}),
    ("ssa/1941", "move", {"unit": "GE-1", "path": None}),
    ("ssa/1941", "sail", {"unit": "x", "to": ["0101"]}),
    ("ssa/1941", "mobilize", {"nation": "US", "type": {}, "at": "0101"}),
    ("ssa/valor-of-ignorance", "overrun", {"units": [[False]], "target": "0101"}),
    ("eto/barbarossa-1941", "activate_hq", {"hqs": "GE-HQ-AGC"}),
])
def test_wrong_field_types_are_illegal_orders_not_type_errors(sid, kind, bad):
    """The five sites the issue found (move.unit a list, move.path null, sail.to a list,
    mobilize.type a table, overrun.units [[false]]) and one ETO order: each an IllegalOrder
    citing the kind's rule; nothing changes."""
    s = _reach(sid, kind)
    before = s.digest()
    order = {"kind": kind, **bad}
    why = s.check(order)
    assert why is not None and why.rule == s.ruleset.order_kinds[kind].rule
    with pytest.raises(IllegalOrder):
        s.apply(order)
    assert s.digest() == before


def test_an_undeclared_field_is_refused_so_it_never_reaches_the_record():
    s = _reach("ssa/1941", "move")
    legal = next(o for o in s.legal_orders() if o["kind"] == "move")
    why = s.check({**legal, "comment": "hello"})
    assert why is not None and "no field 'comment'" in why.why
    assert s.check(legal) is None


def _corpus() -> list[dict]:
    import tomllib
    from pathlib import Path

    return tomllib.loads((Path(__file__).parent / "data" / "bad" / "orders.toml").read_text())["case"]


@pytest.mark.parametrize("case", _corpus(), ids=[c["name"] for c in _corpus()])
def test_malformed_orders_corpus(case):
    """tests/data/bad/orders.toml: every malformed order is an IllegalOrder citing the expected
    rule (the kind's own, the decision's, or the kernel's), and the position does not change."""
    import json

    s = _reach(case["scenario"], case["open"])
    before = s.digest()
    order = json.loads(case["order"])
    with pytest.raises(IllegalOrder) as exc:
        s.apply(order)
    want = {"kind": lambda: s.ruleset.order_kinds[order["kind"]].rule, "decision": lambda: s.decision.rule,
            "kernel": lambda: "kernel"}[case["rule"]]()
    assert exc.value.rule == want and exc.value.why
    assert s.check(order) == exc.value.refusal
    assert s.digest() == before
