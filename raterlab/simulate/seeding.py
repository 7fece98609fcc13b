"""Reproducible random streams: one generator per named thing (item, annotator, file).

Seeding per thing, not one stream for the whole run, keeps a packet's answers the same
whether it is simulated alone or with every other packet of the study.
"""

from __future__ import annotations

import numpy as np

from raterlab.hashing import stable_int


def rng_for(seed: tuple[int, ...], *parts: object) -> np.random.Generator:
    """The generator for ``parts`` under ``seed`` (study seed, simulation seed)."""
    return np.random.default_rng([*seed, stable_int(*parts)])
