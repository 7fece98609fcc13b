"""Vectorized parsing of text cells, cached per column, shared by every rule."""

from __future__ import annotations

import numpy as np
import pandas as pd

from raterlab.protocol import SKIP_VALUE

TRUE_WORDS = ("1", "1.0", "yes", "y", "true")
FALSE_WORDS = ("0", "0.0", "no", "n", "false")
_BINARY = {**dict.fromkeys(TRUE_WORDS, 1.0), **dict.fromkeys(FALSE_WORDS, 0.0)}


class Cells:
    """Typed views of a frame of text cells (one returned file), computed once per column."""

    def __init__(self, frame: pd.DataFrame):
        self.frame = frame
        self._cache: dict[tuple[str, str], np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.frame)

    def _cached(self, kind: str, column: str, make) -> np.ndarray:
        key = (kind, column)
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def text(self, column: str) -> np.ndarray:
        """Stripped text (object array)."""
        return self._cached(
            "text", column, lambda: self.frame[column].str.strip().to_numpy(dtype=object)
        )

    def lower(self, column: str) -> np.ndarray:
        return self._cached(
            "lower",
            column,
            lambda: self.frame[column].str.strip().str.lower().to_numpy(dtype=object),
        )

    def empty(self, column: str) -> np.ndarray:
        return self._cached("empty", column, lambda: self.text(column) == "")

    def skipped(self, column: str) -> np.ndarray:
        return self._cached("skipped", column, lambda: self.lower(column) == SKIP_VALUE)

    def number(self, column: str) -> np.ndarray:
        """Float value, NaN where empty or not a number."""
        return self._cached(
            "number",
            column,
            lambda: pd.to_numeric(pd.Series(self.text(column)), errors="coerce").to_numpy(
                dtype=float, na_value=np.nan
            ),
        )

    def whole(self, column: str) -> np.ndarray:
        """Whether the cell holds a whole number (``5`` and ``5.0`` do, ``5.5`` does not)."""

        def make() -> np.ndarray:
            num = self.number(column)
            with np.errstate(invalid="ignore"):
                return np.isfinite(num) & (num == np.floor(num))

        return self._cached("whole", column, make)

    def binary(self, column: str) -> np.ndarray:
        """1.0 / 0.0 for the accepted yes/no spellings, NaN otherwise."""
        return self._cached(
            "binary",
            column,
            lambda: (
                pd.Series(self.lower(column)).map(_BINARY).to_numpy(dtype=float, na_value=np.nan)
            ),
        )

    def label(self, column: str, labels: tuple[str, ...]) -> np.ndarray:
        """The declared label a cell names (matched case-insensitively), NaN otherwise."""

        def make() -> np.ndarray:
            lookup = {label.lower(): label for label in labels}
            return pd.Series(self.lower(column)).map(lookup).to_numpy(dtype=object)

        return self._cached(f"label:{'|'.join(labels)}", column, make)
