"""Validation and coercion of a ratings matrix (rows = units, columns = raters).

Every coefficient starts here: :func:`as_ratings` turns an array-like into integer category
codes on a known scale, so the coefficients never see raw labels.

Definitional choices made once for all coefficients:

* Missing: ``None``, ``NaN``, ``pd.NA`` and the empty string. Units with no rating and raters
  with no rating are dropped before anything is computed.
* Scale: the declared ``categories`` in their declared order, or else the observed values in
  natural order: numbers and numeric-looking strings compare as numbers (``"2" < "10"``) and
  come before text labels, which compare as text. ``1``, ``1.0`` and ``"1"`` are one category.
* Scores (used by weights, interval/ratio alpha, ICC and rank correlations): the numeric value
  of each category when every category is numeric-looking; else, for declared text labels,
  their position 1..q on the declared scale. Undeclared text labels have no order, so asking
  for an order or a score raises ``ValueError``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

__all__ = ["AgreementUndefined", "Ratings", "as_ratings"]

# Largest value range mapped through a lookup table instead of a sort (integer ratings).
_LOOKUP_RANGE = 1 << 20
# Largest scale tallied by comparing each rater's codes with each category in turn (q passes
# over one byte per rating, vectorized); larger scales are tallied by one bincount, whose
# cost does not grow with q but is about 40 such passes.
COMPARE_CATEGORIES = 32
# Largest number of (category, rating) comparisons tallied at once, in one broadcast.
_BROADCAST_CELLS = 1 << 20


class AgreementUndefined(ValueError):
    """The coefficient is undefined (0/0) for these ratings; the message says why."""


Key = tuple[int, float | str]


def natural_key(value: object) -> Key:
    """Sort key: ``(0, number)`` for numbers and numeric-looking strings, else ``(1, text)``."""
    if isinstance(value, numbers.Real):
        return (0, float(value))
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return (1, value)
        return (0, number) if math.isfinite(number) else (1, value)
    return (1, str(value))


def _label(value: object) -> object:
    """A readable label: integral floats become ints (``3.0`` -> ``3``)."""
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return int(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def signed_dtype(low: int, high: int) -> np.dtype:
    """The smallest signed integer type holding ``low .. high``."""
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


def code_dtype(n_categories: int) -> np.dtype:
    """The smallest signed integer type holding the codes -1 .. n_categories - 1."""
    return signed_dtype(-1, n_categories - 1)


def tally(columns: np.ndarray, n_categories: int) -> np.ndarray:
    """``t[c, i]``: how many raters put unit i in category c, from rater-major ``columns``
    (codes, -1 missing), as the smallest unsigned type holding the number of raters."""
    n_raters, n_units = columns.shape
    dtype = np.min_scalar_type(n_raters)
    if n_categories * columns.size <= _BROADCAST_CELLS:  # small: one call, no Python loop
        categories = np.arange(n_categories, dtype=columns.dtype)[:, None, None]
        return (columns == categories).sum(axis=1, dtype=dtype)
    if n_categories <= COMPARE_CATEGORIES:
        out = np.zeros((n_categories, n_units), dtype)
        for column in columns:
            for c in range(n_categories):
                out[c] += column == c
        return out
    keys = columns.astype(np.intp) * n_units + np.arange(n_units)
    keys[columns < 0] = n_categories * n_units
    flat = np.bincount(keys.ravel(), minlength=n_categories * n_units + 1)[:-1]
    return flat.reshape(n_categories, n_units).astype(dtype)


@dataclass(frozen=True)
class Ratings:
    """A validated ratings matrix, coded once.

    ``columns[j, i]`` is the index in ``categories`` of rater ``j``'s rating of unit ``i``,
    or -1 when missing: rater-major, in the smallest signed integer type that holds the
    codes (one byte for up to 127 categories), so a pass over the ratings reads few bytes.
    ``scores`` holds a number per category (see module docstring), or is ``None`` for
    undeclared text labels. ``known_tallies`` is :attr:`tallies` when the coding already
    computed it (it is then not computed again).
    """

    columns: np.ndarray
    categories: tuple[object, ...]
    scores: np.ndarray | None
    raters: pd.Index
    known_tallies: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_units(self) -> int:
        return self.columns.shape[1]

    @property
    def n_raters(self) -> int:
        return self.columns.shape[0]

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @cached_property
    def codes(self) -> np.ndarray:
        """``(n_units, n_raters)`` int64 codes, -1 missing (units x raters, as given)."""
        return np.ascontiguousarray(self.columns.T, dtype=np.int64)

    @cached_property
    def rated(self) -> np.ndarray:
        """Number of ratings of each unit."""
        return _rated(self.columns)

    @cached_property
    def tallies(self) -> np.ndarray:
        """``(n_categories, n_units)``: how many raters put each unit in each category."""
        if self.known_tallies is not None:
            return self.known_tallies
        return tally(self.columns, self.n_categories)

    @cached_property
    def pair_table(self) -> np.ndarray:
        """``q x q`` counts of the units the first rater put in k and the second in l, over
        the units both rated (the contingency table of two raters)."""
        first, second = self.columns[0], self.columns[1]
        if self.rated.min() < 2:
            both = (first >= 0) & (second >= 0)
            first, second = first[both], second[both]
        q = self.n_categories
        keys = first.astype(np.intp) * q + second
        return np.bincount(keys, minlength=q * q).reshape(q, q)

    def scale_scores(self, purpose: str) -> np.ndarray:
        """Scores of the categories, or a ``ValueError`` naming ``purpose`` if there are none."""
        if self.scores is None:
            raise ValueError(
                f"{purpose} needs ordered categories, but the ratings are text labels "
                f"({', '.join(map(repr, self.categories[:5]))}) with no declared order; "
                "declare them in scale order (categories=[...]; raterlab agree --categories)."
            )
        return self.scores

    def count_matrix(self) -> np.ndarray:
        """``(n_units, n_categories)`` matrix of how many raters put each unit in each category."""
        return np.ascontiguousarray(self.tallies.T, dtype=float)

    def unit_counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sparse form of :meth:`count_matrix`: ``(unit, category, count)`` for nonzero counts.

        Sorted by unit then category; its size is independent of the number of categories.
        """
        keys, counts = np.unique(self._cell_keys(), return_counts=True)
        keep = keys < self.n_units * self.n_categories
        unit, category = np.divmod(keys[keep], self.n_categories)
        return unit, category, counts[keep].astype(float)

    def _cell_keys(self) -> np.ndarray:
        """``unit * q + category`` per rating; missing ratings get the key ``n_units * q``."""
        q = self.n_categories
        keys = np.arange(self.n_units)[:, None] * q + self.codes
        return np.where(self.codes >= 0, keys, self.n_units * q)

    def require_raters(self, coefficient: str) -> None:
        if self.n_raters < 2:
            raise AgreementUndefined(
                f"{coefficient} needs ratings from at least two raters; "
                f"these ratings have {self.n_raters} rater(s) with any rating."
            )

    def require_categories(self, coefficient: str, used: np.ndarray) -> None:
        """Raise unless ``used`` (a count per category) has two nonzero entries (else
        chance agreement = 1)."""
        observed = np.flatnonzero(used)
        if observed.size < 2:
            only = repr(self.categories[observed[0]]) if observed.size else "none"
            raise AgreementUndefined(
                f"{coefficient} is undefined: only one category ({only}) was used, so the "
                "agreement expected by chance is 1 and the coefficient is 0/0. "
                "Report percent agreement instead."
            )


def _rated(columns: np.ndarray) -> np.ndarray:
    """Ratings per unit of rater-major ``columns``."""
    small = np.min_scalar_type(columns.shape[0])  # a narrow sum is several times faster
    return (columns >= 0).sum(axis=0, dtype=small).astype(np.int64)


def _frame_values(frame: pd.DataFrame) -> np.ndarray:
    if all(
        pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
        for dtype in frame.dtypes
    ):
        return frame.to_numpy(dtype=float, na_value=np.nan)
    return frame.to_numpy(dtype=object)


def _numeric_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and sorted distinct values of a 1-D float array (no NaN)."""
    if values.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    low, high = values.min(), values.max()
    if high - low < _LOOKUP_RANGE and np.array_equal(values, np.round(values)):
        offsets = (values - low).astype(np.int64)
        present = np.bincount(offsets) > 0
        lookup = np.cumsum(present) - 1
        return lookup[offsets], low + np.flatnonzero(present)
    distinct, codes = np.unique(values, return_inverse=True)
    return codes.astype(np.int64), distinct


def _declared_scale(categories: Sequence[object]) -> tuple[list[Key], np.ndarray]:
    keys = [natural_key(c) for c in categories]
    if len(set(keys)) != len(keys):
        raise ValueError(f"categories contain duplicates: {list(categories)!r}")
    if all(kind == 0 for kind, _ in keys):
        scores = np.array([value for _, value in keys], dtype=float)
    else:
        scores = np.arange(1, len(keys) + 1, dtype=float)
    return keys, scores


def _map_to_scale(value_keys: list[Key], scale_keys: list[Key]) -> np.ndarray:
    position = {key: i for i, key in enumerate(scale_keys)}
    unknown = [key[1] for key in value_keys if key not in position]
    if unknown:
        raise ValueError(
            f"ratings contain values not among the declared categories: {unknown[:5]!r}"
        )
    return np.array([position[key] for key in value_keys], dtype=np.int64)


def _integer_offsets(values: np.ndarray, missing: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Rater-major offsets ``value - min`` (-1 missing) and the minimum, when every value is
    an integer and their range is below :data:`_LOOKUP_RANGE`; else ``None``."""
    low, high = np.fmin.reduce(values, axis=None), np.fmax.reduce(values, axis=None)
    if not high - low < _LOOKUP_RANGE:  # also False for NaN (no value) and infinities
        return None
    low_int, high_int = int(low), int(high)
    wide = signed_dtype(low_int, max(high_int, high_int - low_int))  # values and offsets
    with np.errstate(invalid="ignore"):  # missing cells cast to arbitrary integers
        integers = values.astype(wide)
    if not np.array_equal(integers != values, missing):  # a fraction did not round-trip
        return None
    offsets = (integers - wide.type(low_int)).astype(code_dtype(high_int - low_int + 1))
    np.copyto(offsets, -1, where=missing)
    return np.ascontiguousarray(offsets.T), float(low)


def _drop_empty(columns: np.ndarray, raters: pd.Index) -> tuple[np.ndarray, pd.Index]:
    """Rater-major codes without the units and raters that have no rating."""
    keep_raters = np.array([column.max(initial=-1) >= 0 for column in columns], dtype=bool)
    if not keep_raters.all():
        columns, raters = columns[keep_raters], raters[keep_raters]
    keep_units = _rated(columns) > 0
    if not keep_units.all():
        columns = np.compress(keep_units, columns, axis=1)  # stays rater-major (C order)
    return columns, raters


def _from_offsets(columns: np.ndarray, low: float, raters: pd.Index) -> Ratings:
    """Ratings of integer offsets from ``low``: the scale is the offsets that occur."""
    columns, raters = _drop_empty(columns, raters)
    span = int(columns.max()) + 1
    tallies = tally(columns, span) if span <= COMPARE_CATEGORIES else None
    if tallies is not None:
        present = tallies.any(axis=1)
    else:
        present = np.bincount(columns[columns >= 0], minlength=span) > 0
    if not present.all():
        lookup = np.append(np.cumsum(present) - 1, -1).astype(code_dtype(int(present.sum())))
        columns = lookup[columns]  # -1 (missing) indexes the appended -1
        tallies = tallies[present] if tallies is not None else None
    distinct = low + np.flatnonzero(present)
    scale = tuple(_label(v) for v in distinct)
    return Ratings(columns, scale, distinct, raters, known_tallies=tallies)


def as_ratings(ratings: object, categories: Sequence[object] | None = None) -> Ratings:
    """Validate a units x raters matrix and code it on its scale (see module docstring).

    Integer ratings with a small range (the common case: a Likert scale as numbers) are
    coded by one subtraction and a cast; other values by a sort or a hash of the values.
    """
    if isinstance(ratings, Ratings):
        return ratings
    values = _frame_values(ratings) if isinstance(ratings, pd.DataFrame) else np.asarray(ratings)
    if values.ndim != 2:
        raise ValueError(
            f"ratings must be a 2-D units x raters matrix; got an array of shape {values.shape}"
        )
    raters = (
        ratings.columns if isinstance(ratings, pd.DataFrame) else pd.RangeIndex(values.shape[1])
    )

    numeric = values.dtype.kind in "biuf"
    if numeric:
        values = np.asarray(values, dtype=float)
        missing = np.isnan(values)
        if categories is None:
            offsets = _integer_offsets(values, missing)
            if offsets is not None:
                return _from_offsets(*offsets, raters)
    else:
        values = values.astype(object)
        missing = pd.isna(values) | (values == "")
    present = values[~missing]

    if numeric and categories is None:
        codes, distinct = _numeric_codes(present)
        scale = tuple(_label(v) for v in distinct)
        scores: np.ndarray | None = distinct
    else:
        try:
            value_codes, uniques = pd.factorize(pd.Series(present, dtype=object), sort=False)
        except TypeError as error:
            raise ValueError(
                "ratings cells must be single labels; cells holding lists or sets are "
                "multilabel, use category_agreement()"
            ) from error
        value_keys = [natural_key(u) for u in uniques]
        if categories is not None:
            scale_keys, scores = _declared_scale(categories)
            scale = tuple(categories)
        else:
            scale_keys = sorted(set(value_keys))
            first = {}
            for key, unique in zip(value_keys, uniques, strict=True):
                first.setdefault(key, unique)
            scale = tuple(_label(first[key]) for key in scale_keys)
            numeric_scale = all(kind == 0 for kind, _ in scale_keys)
            scores = np.array([v for _, v in scale_keys], dtype=float) if numeric_scale else None
        codes = _map_to_scale(value_keys, scale_keys)[value_codes]

    matrix = np.full(values.shape, -1, dtype=code_dtype(len(scale)))
    matrix[~missing] = codes
    columns, raters = _drop_empty(np.ascontiguousarray(matrix.T), raters)
    return Ratings(columns=columns, categories=scale, scores=scores, raters=raters)
