"""A study's pairwise tables from its ``gold.pairwise_comparisons`` rows: the ranking, the
win-rate matrix, position bias and agreement, per task, field and slice."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence

import pandas as pd

from raterlab.pairwise.agreement import pair_agreement
from raterlab.pairwise.comparisons import counted_comparisons
from raterlab.pairwise.position_bias import position_bias
from raterlab.pairwise.ranking import N_RESAMPLES, ranking
from raterlab.pairwise.win_rates import win_rates
from raterlab.tables.pairwise_ranking import AGREEMENT, POSITION_BIAS, RANKING, WIN_RATES

ALL = "all"


def _slice_values(value: object) -> dict:
    if isinstance(value, dict):
        return value
    if value is None or value is pd.NA or value == "" or value != value:  # NULL, NaN
        return {}
    return json.loads(str(value))


def with_slice_columns(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with one column per key of their ``slices`` column (a JSON object, as text or
    a dict, of the prompt's slice keys; NULL: none), which wins over a column of that name."""
    if "slices" not in rows.columns:
        return rows
    parsed = [_slice_values(value) for value in rows["slices"].astype(object)]
    keys = pd.DataFrame(parsed, index=rows.index, dtype=object)
    return rows.drop(columns=[c for c in keys.columns if c in rows.columns]).join(keys)


def slices(rows: pd.DataFrame, keys: Sequence[str]) -> Iterator[tuple[str, pd.DataFrame]]:
    """``('all', rows)``, then ``('key=value', its rows)`` for each value of each of
    ``keys`` that is a column of ``rows`` (values sorted as text)."""
    yield ALL, rows
    for key in dict.fromkeys(keys):
        if key not in rows.columns or key in ("task", "field"):
            continue
        values = rows[key].astype("string")
        for value in sorted(set(values.dropna()) - {""}):
            yield f"{key}={value}", rows[values == value]


def _per_group(
    rows: pd.DataFrame, keys: Sequence[str], compute: Callable[[str, pd.DataFrame], pd.DataFrame]
) -> pd.DataFrame:
    parts = []
    for (task, field), own in rows.groupby(["task", "field"], sort=True):
        for name, part in slices(own, keys):
            table = compute(str(field), part)
            parts.append(table.assign(task=task, field=field, slice=name))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def pairwise_tables(
    comparisons: pd.DataFrame,
    slice_keys: Sequence[str] = (),
    n_resamples: int = N_RESAMPLES,
    seed: int = 0,
) -> dict[str, pd.DataFrame]:
    """``gold.pairwise_ranking``, ``gold.pairwise_win_rates``, ``gold.pairwise_position_bias``
    and ``gold.pairwise_agreement`` (table name -> rows, columns in declared order, without
    ``study``) from ``comparisons`` (rows of ``gold.pairwise_comparisons``), per task, field
    and slice (``all`` and ``key=value`` for each of ``slice_keys`` present as a column, or
    as a key of the JSON column ``slices``: :func:`with_slice_columns`).
    ``seed`` seeds every bootstrap; the same data and seed give the same tables."""
    rows = with_slice_columns(counted_comparisons(comparisons))
    built = {
        RANKING: _per_group(rows, slice_keys, lambda _, p: ranking(p, n_resamples, seed=seed)),
        WIN_RATES: _per_group(rows, slice_keys, lambda _, p: win_rates(p)),
        POSITION_BIAS: _per_group(rows, slice_keys, lambda _, p: position_bias(p)),
        AGREEMENT: _per_group(
            rows, slice_keys, lambda f, p: pair_agreement(p, f, n_resamples, seed)
        ),
    }
    return {
        table.name: frame.reindex(columns=[c for c in table.names if c != "study"])
        for table, frame in built.items()
    }
