"""Which rows of an assignment (or of the ratings made from one) are ordinary ratings.

The design gives each row a ``kind`` and a ``copy`` (:mod:`raterlab.design.assignment`):
``item`` rows are the ordinary ratings, each item's first copy; ``duplicate`` (a hidden second
copy, ``copy = 1``), ``attention`` and ``calibration`` rows are there to measure the raters,
not the items. Agreement, consensus, the gold tables, the exports, the adjudication packets and
the quality measures that compare raters on the same items read only the ordinary rows.
"""

from __future__ import annotations

import pandas as pd

ORDINARY_KIND = "item"
"""The ``kind`` of an ordinary rating (:data:`raterlab.design.assignment.COLUMNS`)."""


def ordinary(rows: pd.DataFrame) -> pd.Series:
    """Boolean mask of ``rows`` (any frame with the design's ``kind`` and ``copy``
    columns: assignments, the sealed key, ``gold.labels``) that are ordinary, first-copy
    ratings: ``kind = 'item'`` and ``copy = 0``. ``copy`` may be stored as text.

    >>> rows = pd.DataFrame({"kind": ["item", "duplicate", "attention"], "copy": [0, 1, 0]})
    >>> ordinary(rows).tolist()
    [True, False, False]
    """
    return (rows["kind"] == ORDINARY_KIND) & (pd.to_numeric(rows["copy"]) == 0)
