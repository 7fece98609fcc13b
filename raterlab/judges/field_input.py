"""What a judge calibration reads of one rating field (:class:`FieldInput`), and how it
computes (:class:`Options`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np


@dataclass
class Options:
    """How to compute: aggregate of the humans, resamples, coverage, seed, alt-test margin."""

    aggregate: Literal["mean", "median"] = "mean"
    resamples: int = 1000
    confidence: float = 0.95
    seed: int = 0
    epsilon: float = 0.2
    min_alt_humans: int = 2
    """Humans an item needs for the alternative annotator test: the authors' default, 2 (the
    left-out annotator and one other; their FAQ recommends three or more annotators)."""
    levels: tuple[str, ...] = ("item", "group", "system")


@dataclass
class FieldInput:
    """One rating field: the humans' ratings and each judge's verdicts, on the same units.

    ``humans`` is ``(n_units, n_raters)``: floats with NaN (graded) or objects with None
    (categorical). ``judges[j]`` holds judge j's valid verdict per unit (NaN/None when missing
    or unparseable); ``given[j]`` whether it gave any verdict, ``confidence[j]`` its
    confidence (0-1, NaN when none). ``slices`` maps a slice name to a unit mask.
    """

    field: str
    kind: Literal["graded", "categorical"]
    units: np.ndarray
    raters: list[str]
    humans: np.ndarray
    judges: dict[str, np.ndarray]
    given: dict[str, np.ndarray]
    confidence: dict[str, np.ndarray] = field(default_factory=dict)
    labels: list | None = None
    alpha_level: str = "ordinal"
    groups: np.ndarray | None = None
    systems: np.ndarray | None = None
    slices: dict[str, np.ndarray] = field(default_factory=dict)
