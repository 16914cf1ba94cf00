"""A PettingZoo AEC environment over any Wargame Workbench scenario (issue 25, item 5).

``WorkbenchEnv("ssa/valor-of-ignorance", seed=1)`` plays one game; its agents are the
scenario's sides, and the agent to act is whoever owes the kernel's current decision
(interrupts included: a retreat or a choice of losses belongs to the side the rules ask).

**Actions are factored, with exact masks from ``legal_orders``.**  An order is chosen in two
moves of the same agent, both in one ``Discrete(A)`` space:

1. *what*: the order kind and the unit that gives it, with a fixed meaning for every index
   ``kind_id * U + unit_slot`` (``env.kinds`` lists the kinds, ``env.unit_ids`` the units;
   slot ``U-2`` is "no unit" (end a step, buy a development ...), slot ``U-1`` a unit
   created in play);
2. *which*: one of the legal orders of that kind and unit, by rank in a canonical order
   (``observation["choices"]`` gives each rank's destination hex index and unit count).

When the first move leaves one order only, it is carried out at once.  ``end_step`` /
``pass`` is always among the legal moves while a step is open.

**Observations** come from the acting side's fog-of-war view (``ruleset.view``):

* ``hexes``: ``float32[C, N]`` over the map's dense hex index, channels
  :data:`HEX_CHANNELS` (own land strength, own aircraft, own ships, seen enemy land
  strength, seen enemy aircraft and ships, hidden enemy stacks, line control +1/-1, terrain
  class / number of classes, own units out of supply, the enemy's zones of control: the last
  three are the workbench's map overlays for that player, ``ruleset.overlays(state, side)``);
* ``tracks``: ``float32[T]``, :data:`TRACKS` (turn progress, own phase, move stage, and the
  ruleset's metrics for both sides: objective value, steps lost, VP, morale);
* ``choices``: ``int32[A, 2]`` (second move only); ``action_mask``: ``int8[A]``.

**Rewards** are zero-sum: each order pays the change in the acting side's contest margin
(its objective value minus the enemy's, plus enemy steps lost minus its own, from the
ruleset's ``metrics``), and the game's winner gets +:data:`WIN` at the end.  The episode is
truncated after ``max_orders`` orders.  Same scenario, seed and actions give the same game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from workbench.engine import load_scenario
from workbench.engine.state import State

HEX_CHANNELS = ("own_land_strength", "own_air", "own_naval", "enemy_land_strength", "enemy_air_naval",
                "hidden_enemy_stacks", "control", "terrain", "own_out_of_supply", "enemy_zoc")
TRACKS = ("turn_progress", "own_phase", "stage", "own_objective_value", "enemy_objective_value",
          "own_steps_lost", "enemy_steps_lost", "own_vp", "enemy_vp", "own_morale", "enemy_morale")
WIN = 100.0
FLOW = ("end_step", "pass")
PRINCIPAL = ("unit", "units", "attackers", "missiles", "aircraft", "bomber", "bomb", "convoy", "leader")
PLACE = ("to", "target", "at", "path")


def _number(text: Any) -> float:
    """The first number in a counter value like ``"7"``, ``"(4)"`` or ``"[1]"`` (0 if none)."""
    digits = "".join(c if (c.isdigit() or c == ".") else " " for c in str(text)).split()
    return float(digits[0]) if digits else 0.0


class WorkbenchEnv(AECEnv):
    """Two-player AEC environment over one scenario (see the module docstring)."""

    metadata = {"name": "workbench_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, scenario: str = "ssa/valor-of-ignorance", *, seed: int | None = 0,
                 options: dict[str, Any] | None = None, max_orders: int = 5000, max_choices: int = 64,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.game = load_scenario(scenario, options=options)
        self.scenario = scenario
        self.render_mode = render_mode
        self.max_orders = int(max_orders)
        self._seed = seed
        rs = self.game.ruleset
        self.possible_agents = list(rs.sides)
        self.kinds = sorted(set(rs.order_kinds) | set(FLOW)) + ["other"]
        self._kind_id = {k: i for i, k in enumerate(self.kinds)}
        probe = self.game.new_state(0 if seed is None else seed)
        self.unit_ids = sorted(probe.units_by_id)
        self._slot = {u: k for k, u in enumerate(self.unit_ids)}
        self.U = len(self.unit_ids) + 2
        hm = probe.map
        self.N = hm.size
        # one index per (kind, unit); for the second move one per order of that kind and unit,
        # which is at most one per place (hex or box) for a move, plus a margin for variants
        self.A = max(len(self.kinds) * self.U, self.N + len(rs.boxes) + int(max_choices))
        self._terrain = sorted(set(hm.hexes["terrain"].to_list()))
        t_index = {t: k for k, t in enumerate(self._terrain)}
        self._terrain_channel = np.array([(t_index[t] + 1) / len(self._terrain)
                                          for t in hm.hexes["terrain"].to_list()], dtype=np.float32)
        obs = spaces.Dict({
            "hexes": spaces.Box(-np.inf, np.inf, (len(HEX_CHANNELS), self.N), np.float32),
            "tracks": spaces.Box(-np.inf, np.inf, (len(TRACKS),), np.float32),
            "choices": spaces.Box(-1, np.iinfo(np.int32).max, (self.A, 2), np.int32),
            "action_mask": spaces.Box(0, 1, (self.A,), np.int8),
        })
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.A) for a in self.possible_agents}
        self.state: State | None = None

    # -- PettingZoo API ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed = seed
        self.state = self.game.new_state(0 if self._seed is None else self._seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._pending: list[dict[str, Any]] | None = None
        self._legal: list[dict[str, Any]] | None = None
        self._by_key: dict[int, list[dict[str, Any]]] | None = None
        self._layers: dict[str, tuple[tuple[int, int, int], dict[str, Any]]] = {}
        self._margin = self._score()
        self.agent_selection = self._whose()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observation(agent)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        a = int(action)
        if self._pending is None:
            groups = self._groups()
            if a not in groups:
                raise ValueError(f"action {a} is masked out: no legal order of that kind and unit")
            options = groups[a]
            if len(options) > 1:
                self._pending = options[: self.A]
                self._accumulate_rewards()
                return
            order = options[0]
        else:
            if not 0 <= a < len(self._pending):
                raise ValueError(f"action {a} is masked out: choose one of the {len(self._pending)} orders")
            order = self._pending[a]
        self._pending = None
        self._apply(order)

    def render(self) -> str | None:
        if self.state is None:
            return None
        d = self.state.decision
        text = f"{' / '.join(self.state.clock)}: " + (f"{d.side} to act ({d.kind})" if d else "game over")
        if self.render_mode == "ansi":
            return text
        return None

    def close(self) -> None:
        self.state = None

    # -- orders and their factors ----------------------------------------------------------------
    def legal(self) -> list[dict[str, Any]]:
        """The legal orders of the current decision, in a canonical order (cached per decision)."""
        if self._legal is None:
            # canonical: by the order's fields in key order, whatever order the rules list them in
            self._legal = sorted(self.state.legal_orders(), key=lambda o: str(sorted(o.items())))
        return self._legal

    def key(self, order: dict[str, Any]) -> int:
        """The first move's index of an order: ``kind_id * U + unit_slot``."""
        kind = order.get("kind")
        k = self._kind_id.get(kind, len(self.kinds) - 1)
        unit = None
        for f in PRINCIPAL:
            v = order.get(f)
            if isinstance(v, str):
                unit = v
                break
            if isinstance(v, list) and v and isinstance(v[0], str):
                unit = v[0]
                break
        slot = self.U - 2 if unit is None else self._slot.get(unit, self.U - 1)
        return k * self.U + slot

    def _groups(self) -> dict[int, list[dict[str, Any]]]:
        if self._by_key is None:  # once per decision: a big decision has thousands of orders
            self._by_key = {}
            for o in self.legal():
                self._by_key.setdefault(self.key(o), []).append(o)
        return self._by_key

    def _place(self, order: dict[str, Any]) -> int:
        hm = self.state.map
        for f in PLACE:
            v = order.get(f)
            if isinstance(v, list) and v:
                v = v[-1]
            if isinstance(v, str) and hm.has_hex(v):
                return hm.index(v)
        return -1

    def order_of(self, action: int) -> dict[str, Any] | None:
        """The order an action picks now (None if it only opens the second move, or is masked)."""
        if self._pending is not None:
            return self._pending[action] if 0 <= action < len(self._pending) else None
        options = self._groups().get(int(action), [])
        return options[0] if len(options) == 1 else None

    def actions_for(self, order: dict[str, Any]) -> list[int]:
        """The one or two actions that give ``order`` now (to play a bot's choice through the env)."""
        legal = self.legal()
        if order not in legal:
            raise ValueError(f"{order} is not a legal order now")
        key = self.key(order)
        options = self._groups()[key]
        return [key] if len(options) == 1 else [key, options[: self.A].index(order)]

    def margin(self, state: State | None = None) -> float:
        """The first side's contest margin in ``state`` (default: the game's): what rewards pay."""
        return self._score(state or self.state)

    def action_mask(self) -> np.ndarray:
        mask = np.zeros(self.A, dtype=np.int8)
        if self.state is None or self.state.decision is None:
            return mask
        if self._pending is not None:
            mask[: len(self._pending)] = 1
        else:
            mask[list(self._groups())] = 1
        return mask

    # -- the game ---------------------------------------------------------------------------------
    def _apply(self, order: dict[str, Any]) -> None:
        s = self.state
        acting = self.agent_selection
        s.apply(order)
        self._legal = self._by_key = None
        margin = self._score()
        delta = margin - self._margin
        self._margin = margin
        a, b = self.possible_agents
        self.rewards = {a: delta, b: -delta}
        if s.is_over:
            winner = (s.result or {}).get("winner")
            if winner in self.rewards:
                loser = b if winner == a else a
                self.rewards[winner] += WIN
                self.rewards[loser] -= WIN
            self.terminations = dict.fromkeys(self.agents, True)
        elif len(s.orders) >= self.max_orders:
            self.truncations = dict.fromkeys(self.agents, True)
        self.infos = {ag: {"order": order if ag == acting else None, "margin_change": delta if ag == a else -delta}
                      for ag in self.agents}
        self._accumulate_rewards()
        self.agent_selection = self._whose()

    def _whose(self) -> str:
        d = self.state.decision
        if d is None or d.side not in self.possible_agents:
            return self.agent_selection if getattr(self, "agent_selection", None) else self.possible_agents[0]
        return d.side

    def _overlays(self, agent: str) -> dict[str, Any]:
        """The map overlays ``agent`` sees in the workbench (control, own units out of supply,
        the enemy's ZOC), computed once per position: tracing supply is the dearest part."""
        n = self.state.event_stamp
        cached = self._layers.get(agent)
        if cached is None or cached[0] != n:
            cached = (n, self.state.ruleset.overlays(self.state, agent))
            self._layers[agent] = cached
        return cached[1]

    def _score(self, state: State | None = None) -> float:
        """The first side's contest margin (objective value and steps lost, both ways)."""
        st = state or self.state
        m = st.ruleset.metrics(st)
        a, b = self.possible_agents
        obj, lost = m.objective_value, m.losses
        return float(obj.get(a, 0.0) - obj.get(b, 0.0) + lost.get(b, 0) - lost.get(a, 0))

    def _observation(self, agent: str) -> dict[str, np.ndarray]:
        s = self.state
        hm = s.map
        view = s.ruleset.view(s, agent)
        units = getattr(view, "units_by_id", s.units_by_id)
        hexes = np.zeros((len(HEX_CHANNELS), self.N), dtype=np.float32)
        card = s.ruleset.unit_card
        for u in units.values():
            if not (u.location.isdigit() and hm.has_hex(u.location)) or u.props.get("carried"):
                continue
            i = hm.index(u.location)
            dom = s.ruleset.unit_types.get(u.type, {}).get("domain", "land")
            own = u.side == agent
            if dom == "land":
                c = card(s, u)
                strength = _number(c.get("strength", c.get("cf", c.get("attack", 0))))
                hexes[0 if own else 3, i] += strength
            else:
                hexes[(1 if dom == "air" else 2) if own else 4, i] += 1.0
        for h in getattr(view, "hidden_hexes", []):
            if hm.has_hex(h):
                hexes[5, hm.index(h)] += 1.0
        layers = self._overlays(agent)  # codes: 0 nobody, 1 first side, 2 second side
        own = self.possible_agents.index(agent) + 1
        ctrl = layers.get("control")
        if ctrl is not None and np.shape(ctrl) == (self.N,):
            hexes[6] = np.where(ctrl == own, 1.0, np.where(ctrl == 0, 0.0, -1.0))
        hexes[7] = self._terrain_channel
        for row, name in ((8, "supply"), (9, "zoc")):
            codes = layers.get(name)
            if codes is not None and np.shape(codes) == (self.N,):
                hexes[row] = np.asarray(codes) != 0  # the face already keeps only this player's layer
        m = s.ruleset.metrics(s)
        other = [x for x in self.possible_agents if x != agent][0]
        turns = max(1, len(self.game.calendar))
        tracks = np.array([
            s.turn / turns, 1.0 if s.phasing == agent else 0.0, 1.0 if self._pending is not None else 0.0,
            m.objective_value.get(agent, 0.0), m.objective_value.get(other, 0.0),
            m.losses.get(agent, 0), m.losses.get(other, 0), m.vp.get(agent, 0.0), m.vp.get(other, 0.0),
            m.morale.get(agent, 0.0), m.morale.get(other, 0.0)], dtype=np.float32)
        choices = np.full((self.A, 2), -1, dtype=np.int32)
        if self._pending is not None:
            for k, o in enumerate(self._pending):
                n = next((len(o[f]) for f in ("units", "attackers", "missiles") if isinstance(o.get(f), list)), 1)
                choices[k] = (self._place(o), n)
        mask = self.action_mask() if agent == self.agent_selection else np.zeros(self.A, dtype=np.int8)
        return {"hexes": hexes, "tracks": tracks, "choices": choices, "action_mask": mask}


def env(scenario: str = "ssa/valor-of-ignorance", **kw: Any) -> WorkbenchEnv:
    """PettingZoo's factory convention: ``workbench.env.env("ssa/1941", seed=3)``."""
    return WorkbenchEnv(scenario, **kw)
