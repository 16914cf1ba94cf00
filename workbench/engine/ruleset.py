"""What a ruleset provides to the kernel, and the registry that finds rulesets by name.

A ruleset is data (its ``tables/*.toml``, including ``sequence.toml``) plus
order kinds and step procedures.  The kernel never imports a ruleset's rules
modules directly; it asks the ruleset.
"""

from __future__ import annotations

import copy
import importlib
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.engine.errors import IllegalOrder
from workbench.engine.face import Face
from workbench.engine.flow import Sequence, Step

if TYPE_CHECKING:
    from workbench.engine.state import State

Procedure = Callable[["State", Step], None]


class OrderKind:
    """One kind of order: its legal-order generator, its check and its effect, side by side.

    Subclasses override :meth:`legal`, :meth:`check` and :meth:`execute`.  The
    default :meth:`check` accepts exactly the orders :meth:`legal` lists, which
    is right for small choice sets; big ones (moves) check directly.
    """

    kind: str = ""
    rule: str = ""

    def in_game(self, game: Any) -> bool:
        """Whether this kind exists at all in ``game`` (e.g. sea transport only where the war at
        sea is played): a kind not in the game is not among a decision's kinds."""
        return True

    def legal(self, state: State) -> list[dict[str, Any]]:
        return []

    def any_legal(self, state: State) -> bool:
        """Whether any order of this kind is legal now (kinds with costly lists may answer at the
        first one found)."""
        return bool(self.legal(state))

    def check(self, state: State, order: dict[str, Any]) -> None:
        if order not in self.legal(state):
            raise IllegalOrder(self.rule, f"{_show(order)} is not one of the legal {self.kind} orders now")

    def execute(self, state: State, order: dict[str, Any]) -> None:
        raise NotImplementedError


def _show(order: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in order.items())


class Ruleset(Face):
    """Base class: loads tables and the sequence of play from a ``tables`` folder, and
    answers the workbench through the :class:`~workbench.engine.face.Face` defaults."""

    name: str = ""
    version: str = "0"
    sides: tuple[str, ...] = ("axis", "allies")
    #: Box names every scenario of this ruleset may use besides the map's boxes.
    boxes: tuple[str, ...] = ()
    #: Extra top-level scenario keys and [[units]] keys this ruleset reads.
    scenario_keys: frozenset[str] = frozenset()
    unit_keys: frozenset[str] = frozenset()
    #: Names a scenario's ``options.optional_rules`` may list (``None``: any name).
    optional_rules: frozenset[str] | None = None

    def __init__(self, tables_dir: str | Path | None = None) -> None:
        self.tables_dir = Path(tables_dir) if tables_dir else None
        self.tables: dict[str, Any] = {}
        if self.tables_dir is not None:
            for p in sorted(self.tables_dir.glob("*.toml")):
                with open(p, "rb") as fh:
                    self.tables[p.stem] = tomllib.load(fh)
        self.sequence = Sequence(self.tables.get("sequence", {}).get("step", []),
                                 f"{self.name}/sequence.toml")
        self.order_kinds: dict[str, OrderKind] = {}
        self.procedures: dict[str, Procedure] = {}

    # -- data --------------------------------------------------------------------
    def with_overrides(self, overrides: dict[str, Any]) -> Ruleset:
        """A copy whose tables carry per-game overrides (``"crt.rows.2" = [...]``)."""
        clone = copy.copy(self)
        clone.tables = copy.deepcopy(self.tables)
        for dotted, value in overrides.items():
            set_dotted(clone.tables, dotted, value)
        return clone

    def order_fields(self, kind: str) -> dict[str, str] | None:
        """The declared fields of an order kind (``tables/orders.toml [kinds.<kind>]``,
        :mod:`workbench.engine.order_fields`); ``None`` when the ruleset declares none."""
        kinds = self.tables.get("orders", {}).get("kinds")
        return None if kinds is None else kinds.get(kind)

    @property
    def unit_types(self) -> dict[str, dict[str, Any]]:
        return self.tables.get("units", {}).get("types", {})

    # -- the calendar -----------------------------------------------------------
    def last_turn(self, game: Any) -> str:
        """The game's last turn: the scenario's, unless an optional rule plays on (ETO-47.5, 47.6)."""
        return str(game.scenario.last_turn)

    def calendar(self, first: str, last: str) -> list[str]:
        """Turn labels from first to last.  Default: one turn a month, ``YYYY-MM``."""
        return month_range(first, last)

    def turn_root(self, state: State) -> str:
        """Which root of the sequence a turn plays (``turn``, ``monthly``, ``seasonal``)."""
        return next(iter(self.sequence.roots))

    # -- hooks the flow calls ---------------------------------------------------
    def condition(self, state: State, when: str) -> bool:
        """Whether a step with ``when`` applies now.  ``optional:X`` tests a rule option."""
        if when.startswith("optional:"):
            return when.split(":", 1)[1] in state.game.options.get("optional_rules", ())
        if when.startswith("option:"):  # "option:a|b": any of the options is on
            return any(state.game.options.get(k) for k in when.split(":", 1)[1].split("|"))
        if when == "first-turn":
            return state.turn == 0
        raise ValueError(f"{self.name}: unknown step condition {when!r}")

    def enter(self, state: State, step: Step) -> None:
        """Run the automatic procedure of a step, if the ruleset has one."""
        proc = self.procedures.get(step.key)
        if proc is not None:
            proc(state, step)

    def exit(self, state: State, step: Step) -> None:
        proc = self.procedures.get(step.key + ":exit")
        if proc is not None:
            proc(state, step)

    def resolve_actor(self, state: State, actor: str, phasing: str | None) -> list[str]:
        """The side(s) that act for an ``actor`` keyword."""
        other = {self.sides[0]: self.sides[1], self.sides[1]: self.sides[0]}
        initiative = state.tracks.get("initiative", self.sides[0])
        match actor:
            case "phasing":
                return [phasing or self.sides[0]]
            case "non-phasing":
                return [other[phasing or self.sides[0]]]
            case "both":
                return list(self.sides)
            case "initiative":
                return [initiative]
            case "non-initiative":
                return [other[initiative]]
        return [actor]

    def check_end_step(self, state: State, step: Step, side: str) -> None:
        """Raise IllegalOrder if ``side`` may not end ``step`` yet (e.g. overstacked)."""

    def setup(self, state: State) -> None:
        """Prepare a fresh state from its scenario (deployment, markers, tracks)."""

    def begin_turn(self, state: State) -> None:
        """Called when a new turn starts, before its first step."""

    def end_turn(self, state: State) -> None:
        """Called when a turn's sequence is done; may end the game (``state.finish``)."""

    def final_result(self, state: State) -> dict[str, Any]:
        """The result when the last turn is over."""
        return {"winner": None, "level": "draw"}

    def validate_scenario(self, scenario: Any) -> None:
        """Extra ruleset checks on a loaded scenario; raise ScenarioError."""

    def setup_breaches(self, state: State) -> list[tuple[str, str]]:
        """Every set-up rule a starting position breaks, as (rule, plain words).

        The set-up panel refuses an edit that adds a breach unless designer mode is on.  The
        base check is the map's own: units stand on a hex or box of this map, and land units
        not on water.  Rulesets extend it with their stacking and deployment rules.
        """
        hm = state.map
        out: list[tuple[str, str]] = []
        for u in sorted(state.units_by_id.values(), key=lambda u: u.id):
            loc = u.location
            if loc.isdigit():
                if not hm.has_hex(loc):
                    out.append(("scenario", f"{u.id} stands on {loc}, which is not a hex of this map"))
                elif self.unit_types.get(u.type, {}).get("domain", "land") == "land" \
                        and hm.is_water[hm.index(loc)]:
                    out.append(("scenario", f"{u.id}: a land unit on the sea hex {loc}"))
        return out


def month_range(first: str, last: str) -> list[str]:
    y, m = (int(x) for x in first.split("-"))
    ly, lm = (int(x) for x in last.split("-"))
    out = []
    while (y, m) <= (ly, lm):
        out.append(f"{y:04d}-{m:02d}")
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return out


def set_dotted(tables: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``tables[a][b][2] = value`` for ``"a.b.2"``; ``KeyError`` if the path is unknown."""
    parts = dotted.split(".")
    node: Any = tables
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    elif last in node:
        node[last] = value
    else:
        raise KeyError(f"no table entry {dotted!r} to override")


#: Rulesets by name: an instance once loaded, else the module that defines ``RULESET``.
_REGISTRY: dict[str, str | Ruleset] = {}
_DISCOVERED = False
ENTRY_POINT_GROUP = "workbench.rulesets"


def register_ruleset(ruleset: Ruleset | str, name: str | None = None) -> None:
    """Make a ruleset loadable by name: an instance, or the dotted name of a module whose
    ``RULESET`` is one (imported on first use).  A ruleset package outside this one registers
    itself with this call, or with an entry point in the ``workbench.rulesets`` group."""
    if isinstance(ruleset, str):
        if not name:
            raise ValueError("a ruleset registered by module name needs its name")
        _REGISTRY[name] = ruleset
    else:
        _REGISTRY[name or ruleset.name] = ruleset


def _discover() -> None:
    """Find the rulesets once: every package in ``workbench/rulesets/`` (its folder name is the
    ruleset's name), then the ``workbench.rulesets`` entry points of installed packages.  So a
    new game touches only its own folder."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    import pkgutil
    from importlib.metadata import entry_points

    import workbench.rulesets as pkg

    for m in pkgutil.iter_modules(pkg.__path__):
        if m.ispkg:
            _REGISTRY.setdefault(m.name, f"{pkg.__name__}.{m.name}")
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        _REGISTRY.setdefault(ep.name, ep.value.split(":")[0])


def get_ruleset(name: str) -> Ruleset:
    _discover()
    entry = _REGISTRY.get(name)
    if entry is None:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(_REGISTRY))}")
    if isinstance(entry, str):
        entry = importlib.import_module(entry).RULESET
        _REGISTRY[name] = entry
    return entry


def known_rulesets() -> list[str]:
    _discover()
    return sorted(_REGISTRY)
