"""Whether a text column's cells are among many values, without a Python call per value."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc


def is_in(column: pd.Series, values: Iterable[object]) -> np.ndarray:
    """``column.isin(values).to_numpy()``, for a text column by pyarrow's ``is_in``.

    pandas' ``isin`` on a pyarrow-backed text column (pandas 3's ``str``) makes a pyarrow
    scalar of each of ``values`` in Python, about 8 microseconds each: 3.2 s for the 419,000
    item ids of a 100,000-item study's labels (benchmarks/README.md, "End to end"). Here
    ``values`` become one pyarrow array and the lookup is a hash join in C. Missing values
    match each other, as in pandas. A column of another type, or values that are not all
    text, go to pandas' own ``isin``."""
    dtype = column.dtype
    if not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"):
        return column.isin(values).to_numpy(dtype=bool)
    listed = values if isinstance(values, pd.Series | pd.Index | np.ndarray) else list(values)
    cells = pa.array(column.array)
    try:
        value_set = pa.array(listed, from_pandas=True).cast(cells.type)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return column.isin(values).to_numpy(dtype=bool)
    return pc.is_in(cells, value_set=value_set).to_numpy(zero_copy_only=False)
