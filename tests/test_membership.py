"""``is_in``: pandas' ``isin`` for text columns, by pyarrow."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from raterlab.membership import is_in

TEXT = st.one_of(st.none(), st.sampled_from(["a", "b", "c", "", " a", "é"]))


@given(cells=st.lists(TEXT, max_size=30), values=st.lists(TEXT, max_size=10))
def test_equals_pandas_isin_for_every_kind_of_values(cells: list, values: list) -> None:
    column = pd.Series(cells, dtype="str")
    for given_as in (
        values,
        set(values),
        pd.Series(values, dtype="str"),
        pd.Index(values, dtype="str"),
        np.array(values, dtype=object),
    ):
        expected = column.isin(given_as).to_numpy()
        got = is_in(column, given_as)
        assert got.dtype == bool
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(
    ("column", "values"),
    [
        (pd.Series(["a", "b", None], dtype="str"), [1, "a"]),  # values that are not all text
        (pd.Series(["a", 1, None], dtype=object), ["a"]),  # an object column
        (pd.Series([1, 2, 3]), {2, 3}),  # numbers
        (pd.Series(["a", "b"], dtype="str").iloc[[1, 0]], ["a"]),  # a reordered index
    ],
)
def test_other_columns_and_values_are_pandas_own(column: pd.Series, values: object) -> None:
    np.testing.assert_array_equal(is_in(column, values), column.isin(values).to_numpy())


def test_a_large_id_set_is_looked_up_whole() -> None:
    ids = pd.Series([f"item-{i:06d}" for i in range(50_000)], dtype="str")
    wanted = ids.iloc[::3]
    np.testing.assert_array_equal(is_in(ids, wanted), np.arange(50_000) % 3 == 0)
