"""The humans' side of a calibration: their aggregate per unit (mean, median or majority
label), an annotator left out, and their agreement among themselves."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from raterlab.agreement import AgreementUndefined, krippendorff_alpha


def missing(values: np.ndarray) -> np.ndarray:
    """None or NaN, per value."""
    return pd.isna(np.asarray(values))


def majority(humans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per unit, the most frequent label (``None`` without ratings or on a tie for the top)
    and whether the top was tied."""
    present = ~missing(humans.ravel()).reshape(humans.shape)
    labels = sorted({str(v) for v in humans[present]})
    index = {label: k for k, label in enumerate(labels)}
    codes = np.full(humans.shape, -1)
    codes[present] = [index[str(v)] for v in humans[present]]
    votes = (codes[:, :, None] == np.arange(len(labels))).sum(axis=1)
    top = votes.max(axis=1, initial=0)
    tied = (top > 0) & ((votes == top[:, None]).sum(axis=1) > 1)
    winners = np.array(labels, dtype=object)[votes.argmax(axis=1)] if labels else None
    out = np.full(humans.shape[0], None, dtype=object)
    if labels:
        keep = (top > 0) & ~tied
        out[keep] = winners[keep]
    return out, tied


def aggregate(humans: np.ndarray, how: str) -> np.ndarray:
    """Mean or median human score per unit (NaN without ratings)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # units without ratings: NaN
        return np.nanmedian(humans, axis=1) if how == "median" else np.nanmean(humans, axis=1)


def without(humans: np.ndarray, rater: int) -> np.ndarray:
    """The humans' matrix with one annotator's column left out."""
    return np.delete(humans, rater, axis=1)


def human_alpha(humans: np.ndarray, level: str) -> float:
    """Krippendorff's alpha among the humans at ``level`` (NaN when undefined)."""
    try:
        return float(krippendorff_alpha(humans, level=level))
    except (AgreementUndefined, ValueError):
        return float("nan")
