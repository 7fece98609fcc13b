"""Vectorized parsing of text cells, shared by every rule.

Stripping, lower-casing and emptiness run as Arrow string kernels on whole columns. Parsing
(numbers, yes/no, labels) runs on a column's distinct values only and is broadcast back
through its factor codes: rating columns hold a handful of distinct values, so a
million-row file parses about as fast as a small one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from raterlab.protocol import SKIP_VALUE

PLACEHOLDERS = ("n/a", "na", "nan", "none", "null", "nil", "0", "false", "true")
"""Texts that stand for "nothing to say": they do not fill a required text."""
_INVISIBLE = "[\\s\u200b\u200c\u200d\u2060\ufeff]"
TRUE_WORDS = ("1", "1.0", "yes", "y", "true")
FALSE_WORDS = ("0", "0.0", "no", "n", "false")
_BINARY = {**dict.fromkeys(TRUE_WORDS, 1.0), **dict.fromkeys(FALSE_WORDS, 0.0)}


class Cells:
    """Typed views of a frame of text cells (one returned file), computed once per column."""

    def __init__(self, frame: pd.DataFrame):
        self.frame = frame
        self._factors: dict[str, tuple[np.ndarray, pd.Series]] = {}
        self._cache: dict[tuple[str, str], np.ndarray] = {}
        self._series: dict[tuple[str, str], pd.Series] = {}

    def __len__(self) -> int:
        return len(self.frame)

    def _stripped(self, column: str) -> pd.Series:
        if ("stripped", column) not in self._series:
            self._series[("stripped", column)] = self.frame[column].astype(str).str.strip()
        return self._series[("stripped", column)]

    def _factor(self, column: str) -> tuple[np.ndarray, pd.Series]:
        if column not in self._factors:
            codes, uniques = pd.factorize(self._stripped(column))
            self._factors[column] = (codes, pd.Series(uniques, dtype=object))
        return self._factors[column]

    def per_value(
        self, kind: str, column: str, parse: Callable[[pd.Series], pd.Series], dtype
    ) -> np.ndarray:
        """``parse`` applied to the column's distinct values, broadcast to every cell."""
        key = (kind, column)
        if key not in self._cache:
            codes, uniques = self._factor(column)
            parsed = parse(uniques).to_numpy(dtype=dtype)
            self._cache[key] = parsed.take(codes) if len(parsed) else np.empty(0, dtype=dtype)
        return self._cache[key]

    def _whole_column(
        self, kind: str, column: str, make: Callable[[], pd.Series], dtype
    ) -> np.ndarray:
        key = (kind, column)
        if key not in self._cache:
            self._cache[key] = make().to_numpy(dtype=dtype)
        return self._cache[key]

    def text(self, column: str) -> np.ndarray:
        """Stripped text (object array)."""
        return self._whole_column("text", column, lambda: self._stripped(column), object)

    def lower(self, column: str) -> np.ndarray:
        return self._whole_column(
            "lower", column, lambda: self._stripped(column).str.lower(), object
        )

    def empty(self, column: str) -> np.ndarray:
        return self._whole_column("empty", column, lambda: self._stripped(column) == "", bool)

    def blank(self, column: str) -> np.ndarray:
        """Whether a text cell says nothing: empty, invisible characters only, no letter or
        digit (``-``, ``…``, ``{}``), or a placeholder word (:data:`PLACEHOLDERS`)."""

        def parse(u: pd.Series) -> pd.Series:
            visible = u.str.replace(_INVISIBLE, "", regex=True).str.lower()
            return ~visible.str.contains(r"[^\W_]", regex=True) | visible.isin(PLACEHOLDERS)

        return self.per_value("blank", column, parse, bool)

    def skipped(self, column: str) -> np.ndarray:
        return self._whole_column(
            "skipped", column, lambda: self._stripped(column).str.lower() == SKIP_VALUE, bool
        )

    def number(self, column: str) -> np.ndarray:
        """Float value, NaN where empty or not a number."""
        return self.per_value("number", column, lambda u: pd.to_numeric(u, errors="coerce"), float)

    def whole(self, column: str) -> np.ndarray:
        """Whether the cell holds a whole number (``5`` and ``5.0`` do, ``5.5`` does not)."""

        def parse(u: pd.Series) -> pd.Series:
            num = pd.to_numeric(u, errors="coerce")
            return num.notna() & np.isfinite(num) & (num == np.floor(num))

        return self.per_value("whole", column, parse, bool)

    def binary(self, column: str) -> np.ndarray:
        """1.0 / 0.0 for the accepted yes/no spellings, NaN otherwise."""
        return self.per_value("binary", column, lambda u: u.str.lower().map(_BINARY), float)

    def label(self, column: str, labels: tuple[str, ...]) -> np.ndarray:
        """The declared label a cell names (matched case-insensitively), NaN otherwise."""
        lookup = {label.lower(): label for label in labels}
        return self.per_value(
            f"label:{'|'.join(labels)}",
            column,
            lambda u: u.str.lower().map(lookup),
            object,
        )
