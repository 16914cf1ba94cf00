"""A tiny timer: best-of-N wall time, so benchmark figures are stable on a busy 2-core box."""

from __future__ import annotations

import time
from collections.abc import Callable


def best(fn: Callable[[], object], repeat: int = 7, number: int = 1) -> float:
    """Best per-call time in seconds over ``repeat`` rounds of ``number`` calls."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t) / number)
    return min(times)


def row(name: str, ours: float, peer_name: str, peer: float) -> str:
    return (f"{name:44s} ours {ours * 1e3:9.3f} ms   {peer_name:22s} {peer * 1e3:9.3f} ms"
            f"   ratio {peer / ours:7.1f}x")
