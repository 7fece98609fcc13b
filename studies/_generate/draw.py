"""Seeded draws shared by the studies' builders."""

from __future__ import annotations

import random
from collections.abc import Sequence


def weighted(rng: random.Random, options: dict[str, float]) -> str:
    """One key of ``options``, drawn with the values as weights."""
    keys = list(options)
    return rng.choices(keys, weights=[options[k] for k in keys])[0]


def allocate(total: int, weights: Sequence[float]) -> list[int]:
    """Split ``total`` into integer counts proportional to ``weights`` (largest remainder)."""
    raw = [total * w / sum(weights) for w in weights]
    counts = [int(x) for x in raw]
    by_remainder = sorted(range(len(raw)), key=lambda i: (counts[i] - raw[i], i))
    for i in by_remainder[: total - sum(counts)]:
        counts[i] += 1
    return counts
