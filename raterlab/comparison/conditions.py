"""Results per condition or system: ``gold.condition_means`` and ``gold.condition_comparison``.

The study's ``comparison`` names the item key compared (``by``), optionally the key pairing
units across its values (``pair``, e.g. ``prompt_id``), a ``baseline`` value and ``slices``.
Each unit's value is its consensus (``gold.consensus.value_num``) of a binary or Likert field;
the rater-adjusted estimate uses the raw counting ratings instead.

Contrasts: every value against the baseline; without a baseline, two values are compared
first against second (in sorted order) and more than two each against the others pooled
(``reference = 'rest'``). Each contrast is computed on all units (slice ``all``) and per value
of each slice key (``key=value``; values without a pair or unit on both sides are left out);
the per-slice p-values of one key form a Holm family. With ``pair``, the rater-adjusted
estimate uses the ratings of complete pairs only, like the paired tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from raterlab.comparison import stats
from raterlab.protocol import BinaryField, LikertField, Study
from raterlab.tables import names
from raterlab.tables.comparison import COMPARISON, MEANS

ALL = "all"
REST = "rest"


def compared_fields(study: Study, task: str) -> list[str]:
    """Binary and Likert rating fields of ``task`` the comparison covers."""
    spec = study.tasks[task]
    numeric = [
        f for f in spec.rating_fields if isinstance(spec.fields[f], BinaryField | LikertField)
    ]
    wanted = study.comparison.fields if study.comparison else None
    return [f for f in numeric if wanted is None or f in wanted]


def _keys(study: Study) -> list[str]:
    """The comparison's keys: ``by``, the slices and ``pair`` (``task`` is a column)."""
    comparison = study.comparison
    keys = [comparison.by, *comparison.slices, *([comparison.pair] if comparison.pair else [])]
    return [k for k in dict.fromkeys(keys) if k != "task"]


def record_keys(study: Study) -> list[str]:
    """The item keys :func:`unit_values` reads from the records (``tier`` is a column of
    ``gold.items``)."""
    return [k for k in _keys(study) if k != "tier"] if study.comparison else []


def unit_values(study: Study, consensus: pd.DataFrame, items: pd.DataFrame) -> pd.DataFrame:
    """One row per item and compared field with a consensus value: ``task, item_id, field,
    value`` and the comparison's keys (``by``, ``pair`` and slice keys) as text columns."""
    comparison = study.comparison
    attributes = pd.DataFrame({"item_id": items["item_id"]})
    for key in _keys(study):
        if key == "tier":
            attributes[key] = items[key].astype(str)
        else:
            attributes[key] = [_text(r.get(key)) if r else None for r in items["record"]]
    wanted = consensus[consensus["value_num"].notna()]
    codes, pairs = pd.MultiIndex.from_arrays([wanted["task"], wanted["field"]]).factorize()
    compared = np.array([f in compared_fields(study, t) for t, f in pairs], dtype=bool)
    wanted = wanted[compared[codes]]
    units = wanted[["task", "item_id", "field", "value_num"]].rename(columns={"value_num": "value"})
    units = units.merge(attributes, on="item_id", how="left")
    return units[units[comparison.by].notna()].reset_index(drop=True)


def _text(value) -> str | None:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    return str(value).lower() if isinstance(value, bool) else str(value)


def contrasts(study: Study, levels: list[str]) -> list[tuple[str, str]]:
    """(level, reference) pairs to compare (see the module doc)."""
    baseline = study.comparison.baseline
    if baseline is not None:
        return [(lvl, baseline) for lvl in levels if lvl != baseline] if baseline in levels else []
    if len(levels) == 2:
        return [(levels[0], levels[1])]
    return [(lvl, REST) for lvl in levels] if len(levels) > 2 else []


def _slices(study: Study, units: pd.DataFrame) -> Iterator[tuple[str, str, pd.Series]]:
    """(slice label, slice key, mask) for ``all`` and each value of each slice key."""
    yield ALL, ALL, pd.Series(True, index=units.index)
    for key in study.comparison.slices:
        column = units[key]
        for value in sorted(column.dropna().unique()):
            yield f"{key}={value}", key, column == value


def condition_means(study: Study, units: pd.DataFrame) -> pd.DataFrame:
    """``gold.condition_means`` rows (without ``study``)."""
    rng = np.random.default_rng(study.design.seed)
    by = study.comparison.by
    rows = []
    for (task, field), group in units.groupby(["task", "field"], sort=True):
        group = group.reset_index(drop=True)
        for label, _, mask in _slices(study, group):
            for level, part in group[mask].groupby(by, sort=True):
                low, high = stats.bootstrap_mean(part["value"].to_numpy(), rng)
                rows.append(
                    (task, field, by, level, label, len(part), part["value"].mean(), low, high)
                )
    return pd.DataFrame(rows, columns=names(MEANS)[1:])


def condition_comparison(study: Study, units: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """``gold.condition_comparison`` rows (without ``study``); ``ratings``: counting ratings
    (``task, item_id, annotator_id, field, value_num``) for the rater-adjusted estimate."""
    rng = np.random.default_rng(study.design.seed)
    by = study.comparison.by
    rows = []
    for (task, field), group in units.groupby(["task", "field"], sort=True):
        group = group.reset_index(drop=True)
        raw = ratings[(ratings["task"] == task) & (ratings["field"] == field)]
        raw = _RawRatings.of(raw[raw["value_num"].notna()])
        for level, reference in contrasts(study, sorted(group[by].unique())):
            for label, key, mask in _slices(study, group):
                part = group[mask]
                row = _contrast(study, part, raw, level, reference, rng)
                if row["n_units"] == 0:
                    continue
                rows.append(
                    {
                        "task": task,
                        "field": field,
                        "by": by,
                        "level": level,
                        "reference": reference,
                        "slice": label,
                        "_key": key,
                        **row,
                    }
                )
    table = pd.DataFrame(rows, columns=[*names(COMPARISON)[1:], "_key"])
    table["p_holm"] = table["p_value"]
    sliced = table["_key"] != ALL
    families = table[sliced].groupby(["task", "field", "level", "reference", "_key"]).groups
    for index in families.values():
        table.loc[index, "p_holm"] = stats.holm(table.loc[index, "p_value"].to_numpy())
    return table.drop(columns="_key")


@dataclass(frozen=True)
class _RawRatings:
    """One field's counting ratings with a value, as arrays (read once for its contrasts)."""

    item_ids: np.ndarray
    values: np.ndarray
    raters: np.ndarray

    @classmethod
    def of(cls, ratings: pd.DataFrame) -> _RawRatings:
        return cls(
            ratings["item_id"].to_numpy(dtype=object),
            ratings["value_num"].to_numpy(dtype=float),
            ratings["annotator_id"].astype(str).to_numpy(),
        )


def _contrast(
    study: Study,
    units: pd.DataFrame,
    ratings: _RawRatings,
    level: str,
    reference: str,
    rng: np.random.Generator,
) -> dict:
    by, pair = study.comparison.by, study.comparison.pair
    is_level = units[by] == level
    is_reference = ~is_level if reference == REST else units[by] == reference
    first, second = units[is_level], units[is_reference]
    row: dict = {"mean_level": first["value"].mean(), "mean_reference": second["value"].mean()}
    if pair:
        a = first.groupby(pair)["value"].mean()
        b = second.groupby(pair)["value"].mean()
        differences = (a - b).dropna()
        d = differences.to_numpy()
        is_level &= units[pair].isin(differences.index)
        is_reference &= units[pair].isin(differences.index)
        row["mean_level"] = a[differences.index].mean()
        row["mean_reference"] = b[differences.index].mean()
        signed = stats.wilcoxon_signed_rank(d)
        boot = stats.bootstrap_paired(d, rng)
        n = len(d)
        row |= {
            "paired": True,
            "n_units": n,
            "mean_diff": d.mean() if n else np.nan,
            "median_diff": float(np.median(d)) if n else np.nan,
            "test": "wilcoxon_signed_rank",
            "statistic": signed.t_plus,
            "p_value": signed.p_value,
            "sign_test_p": stats.sign_test(d),
            "rank_biserial": signed.rank_biserial,
            "win_share": (d > 0).mean() if n else np.nan,
            "tie_share": (d == 0).mean() if n else np.nan,
            "loss_share": (d < 0).mean() if n else np.nan,
        }
    else:
        x, y = first["value"].to_numpy(), second["value"].to_numpy()
        ranked = stats.mann_whitney(x, y)
        boot = stats.bootstrap_groups(x, y, rng)
        row |= {
            "paired": False,
            "n_units": len(x) + len(y),
            "mean_diff": row["mean_level"] - row["mean_reference"],
            "median_diff": float(np.median(x) - np.median(y)) if len(x) and len(y) else np.nan,
            "test": "mann_whitney",
            "statistic": ranked.u,
            "p_value": ranked.p_value,
            "rank_biserial": ranked.rank_biserial,
        }
    row |= {
        "mean_diff_low": boot["mean_low"],
        "mean_diff_high": boot["mean_high"],
        "median_diff_low": boot["median_low"],
        "median_diff_high": boot["median_high"],
    }
    return row | _adjusted(units[is_level | is_reference], ratings, is_level, pair)


def _adjusted(
    units: pd.DataFrame, ratings: _RawRatings, is_level: pd.Series, pair: str | None
) -> dict:
    """The rater-adjusted estimate over the ratings of ``units``' items (each item's first
    unit says whether it is treated and, with ``pair``, its cluster)."""
    first = ~units["item_id"].duplicated().to_numpy()
    position = pd.Index(units["item_id"].to_numpy(dtype=object)[first]).get_indexer(
        ratings.item_ids
    )
    kept = position >= 0  # an inner join, in the ratings' order
    at = position[kept]
    treated = is_level[units.index].to_numpy(dtype=float)[first][at]
    cluster = (
        units[pair].astype(str).to_numpy()[first][at]
        if pair
        else ratings.item_ids[kept].astype(str)
    )
    fit = stats.rater_adjusted(ratings.values[kept], treated, ratings.raters[kept], cluster)
    return {
        "adjusted_diff": fit.estimate,
        "adjusted_se": fit.se,
        "adjusted_p": fit.p_value,
        "n_ratings": fit.n_ratings,
        "n_raters": fit.n_raters,
    }
