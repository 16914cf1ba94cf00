"""Weather (ETO Part 2, 1.0-1.5): the turn track, the month's roll, zone conditions, grounding.

The Weather phase reads the month on the turn track (``tables/weather.toml``
``[track.months]``, authored GAP-07).  One letter is the weather; a table of
die ranges means one die is rolled (logged, rule ``ETO-PART2``).  Then the
grounding rolls are made and logged (2d6 per affected zone, ETO-1.2-1.4) even
though a land-only game has no air units, so the dice stream matches a full
game's.

Conditions per hex: ``F`` fair everywhere; ``M`` mud in the severe zone;
``W`` winter in the severe zone and mud in the moderate zone (1.1-1.3).  The
mild France/Germany region is mild for land play (1.4).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.engine.state import State
from workbench.rulesets.eto.terrain import terrain_arrays

FAIR, MUD, WINTER = 0, 1, 2
CODE = {"fair": FAIR, "mud": MUD, "winter": WINTER}


def track_entry(tables: dict[str, Any], month: str) -> Any:
    return tables["weather"]["track"]["months"].get(month, "F")


def letter_for_die(entry: Any, die: int) -> str:
    """ETO-PART2: read the letter for a die face from ``{"1-3": "F", "4-6": "M"}``."""
    if isinstance(entry, str):
        return entry
    for rng, letter in entry.items():
        lo, _, hi = rng.partition("-")
        if int(lo) <= die <= int(hi or lo):
            return letter
    raise ValueError(f"ETO-PART2: no weather for die {die} in {entry}")


def weather_phase(state: State, step: Any) -> None:
    """ETO-PART2 / 1.0: set this month's weather; roll the grounding dice (1.2-1.4)."""
    month = state.turn_label
    tables = state.ruleset.tables
    entry = track_entry(tables, month)
    if isinstance(entry, str):
        letter = entry
    else:
        (die,) = state.roll(purpose=f"weather for {month} ({_show(entry)})", rule="ETO-PART2")
        letter = letter_for_die(entry, die)
    state.tracks["weather"] = letter
    state.emit("weather", rule="ETO-1.0", text=f"{month}: weather {letter}", weather=letter)
    grounding = tables["weather"]["grounding"]
    for key in [k for k in state.tracks if k.startswith("grounded.")]:
        state.tracks.pop(key)  # last month's grounding ends with the month (1.4)
    for zone in grounding["rolls"].get(letter, []):
        cond = tables["weather"]["conditions"][letter][zone]
        need = int(grounding[cond]["grounded_on"])
        dice = state.roll(2, purpose=f"air grounding in the {zone} zone ({cond}: grounded on {need}+)",
                          rule="ETO-1.4")
        grounded = sum(dice) >= need
        state.tracks[f"grounded.{zone}"] = grounded
        for follower, leader in grounding.get("follows", {}).items():
            if leader == zone:
                state.tracks[f"grounded.{follower}"] = grounded


def _show(entry: dict[str, str]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in entry.items())


def letter(state: State) -> str:
    return str(state.tracks.get("weather", "F"))


def conditions(state: State) -> np.ndarray:
    """``int8[N]``: FAIR, MUD or WINTER in every hex this month (1.1-1.4)."""
    w = letter(state)

    def compute() -> np.ndarray:  # per game and weather letter: terrain and the weather table
        ta = terrain_arrays(state)
        row = state.ruleset.tables["weather"]["conditions"][w]
        out = np.zeros(state.map.size, dtype=np.int8)
        out[ta.severe] = CODE[row["severe"]]
        out[ta.moderate] = CODE[row["moderate"]]
        return out

    return state.game.cached(("eto.conditions", w), compute)


def air_grounded(state: State) -> np.ndarray:
    """``bool[N]``: ETO-1.4 -- every air activity is prohibited in the hexes of a zone whose
    grounding roll succeeded this month (the mild France/Germany region goes with the moderate
    zone, ``[grounding] follows``)."""
    ta = terrain_arrays(state)
    hm = state.map
    out = np.zeros(hm.size, dtype=bool)
    mild_fg = hm.flag("mild_france_germany")
    for key, on in state.tracks.items():
        if not key.startswith("grounded.") or not on:
            continue
        zone = key.split(".", 1)[1]
        if zone == "severe":
            out |= ta.severe
        elif zone == "moderate":
            out |= ta.moderate & ~mild_fg
        elif zone == "mild_france_germany":
            out |= mild_fg
        elif zone == "mild":
            out |= ~ta.severe & ~ta.moderate & ~mild_fg
    return out


def lakes_frozen(state: State) -> np.ndarray:
    """``bool[N, 6]``: lake hexsides frozen now: W month, both hexes in the severe zone (1.5)."""
    winter = letter(state) == "W"

    def compute() -> np.ndarray:  # per game and W or not: the map and the terrain alone
        ta = terrain_arrays(state)
        if not winter:
            out = np.zeros_like(ta.lake_side)
        else:
            nb = state.map.neighbors
            both = ta.severe[:, None] & np.where(nb >= 0, ta.severe[np.maximum(nb, 0)], False)
            out = ta.lake_side & both
        out.flags.writeable = False  # shared: callers read it only
        return out

    return state.game.cached(("eto.lakes_frozen", winter), compute)


def crossable_sides(state: State) -> np.ndarray:
    """``bool[N, 6]``: hexsides a land unit may cross now (24.1; frozen lakes 1.5)."""
    winter = letter(state) == "W"

    def compute() -> np.ndarray:  # per game and W or not, like lakes_frozen
        ta = terrain_arrays(state)
        out = ~ta.closed_side & (~ta.lake_side | lakes_frozen(state)) & (state.map.neighbors >= 0)
        out.flags.writeable = False
        return out

    return state.game.cached(("eto.crossable_sides", winter), compute)


def icebound_ports(state: State) -> set[str]:
    """ETO-1.5: "during all W weather in the severe weather zone ... Leningrad and Archangel are
    ice-bound and cannot be used as ports for any purposes".  The hex labels of the ports listed
    in ``weather.toml [effects.winter] icebound_ports`` that lie in the severe zone, in a W month;
    empty otherwise.  Port users (naval movement, sea supply, transport) ask this."""
    if letter(state) != "W":
        return set()
    hm = state.map
    ta = terrain_arrays(state)
    out = set()
    for name in state.ruleset.tables["weather"]["effects"]["winter"].get("icebound_ports", []):
        try:
            label = hm.hex_of(name)
        except KeyError:
            continue  # a map without this port
        if ta.severe[hm.index(label)]:
            out.add(label)
    return out

