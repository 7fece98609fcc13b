"""The ratings every quality metric starts from, the rows of ``gold.rater_quality``, and the
slice syntax.

Slice syntax
------------
``slice`` says which part of an annotator's ratings a value is computed on, as ``key=value``
parts joined by ``|``, in the order task, field, slice key:

=========================================  ==============================================
``all``                                    every rating (every rating field pooled)
``field=overall``                          the field ``overall``
``task=factual_qa|field=correct``          a field, named with its task when the study
                                           has more than one task
``field=overall|condition=A``              a field on the items whose ``condition`` is A
``condition=A``                            every field pooled, items with condition A
``week=2026-W47``                          an ISO week (spot-check disagreement)
=========================================  ==============================================

Slice keys are the study's ``slices``: item keys (shown or hidden, from ``raw.generations``)
or ``task``, ``tier``, ``round``, ``stratum``. Values are written as text.

Comparable values
-----------------
A rating field's value is compared as a number for Likert and binary fields (``value_num``)
and as its label for categorical fields. ``skip`` and empty cells are missing. "Within one"
means ``|a - b| <= 1`` on a Likert field and ``a == b`` on a binary or categorical one.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd

from raterlab.protocol import BinaryField, CategoricalField, LikertField, Study
from raterlab.tables import names
from raterlab.tables.ingest import LABELS
from raterlab.warehouse import shared_text

ALL = "all"
EVERYONE = "*"
"""``annotator_id`` of rows about the panel, not one annotator (agreement per category,
spot-check drift)."""

MIN_FIELD_N = 20
"""A per-field row is judged (may be flagged) only on at least this many observations; the
pooled ``all`` row is always judged."""

RATING_KEY = ("annotator_id", "task", "item_id", "batch", "copy")
"""Identifies one rating (one filled row of a packet)."""

QUALITY_COLUMNS = (
    "annotator_id",
    "metric",
    "slice",
    "value",
    "target",
    "comparison",
    "flagged",
    "n",
    "ci_low",
    "ci_high",
    "p_value",
)
"""Columns of ``gold.rater_quality`` (after ``study``)."""

ITEM_FLAG_COLUMNS = ("annotator_id", "task", "item_id", "flag", "detail")
"""Columns of ``gold.rater_item_flags`` (after ``study``)."""


@dataclass(frozen=True)
class FieldInfo:
    task: str
    field: str
    spec: object

    @property
    def likert(self) -> bool:
        return isinstance(self.spec, LikertField)

    @property
    def numeric(self) -> bool:
        return isinstance(self.spec, LikertField | BinaryField)

    @property
    def categories(self) -> list:
        return list(self.spec.domain())

    @property
    def weights(self) -> str | None:
        """Agreement weights for kappa: quadratic on a Likert scale, none otherwise."""
        return "quadratic" if self.likert else None


def rating_fields(study: Study) -> dict[tuple[str, str], FieldInfo]:
    """``(task, field) -> FieldInfo`` for every Likert, binary and categorical field."""
    out = {}
    for task_name, task in study.tasks.items():
        for name in task.rating_fields:
            spec = task.fields[name]
            if isinstance(spec, LikertField | BinaryField | CategoricalField):
                out[(task_name, name)] = FieldInfo(task_name, name, spec)
    return out


def field_slice(study: Study, task: str, field: str, **keys: object) -> str:
    """The slice label of a field (and slice key values), see the module docstring."""
    parts = [f"task={task}"] if len(study.tasks) > 1 else []
    parts.append(f"field={field}")
    parts += [f"{k}={v}" for k, v in keys.items()]
    return "|".join(parts)


def key_slice(**keys: object) -> str:
    """``key=value|...`` for pooled rows, ``all`` without keys."""
    return "|".join(f"{k}={v}" for k, v in keys.items()) or ALL


def item_attributes(
    generations: pd.DataFrame,
    routed: pd.DataFrame | None = None,
    keys: Collection[str] | None = None,
) -> pd.DataFrame:
    """One row per item: ``item_id``, ``role``, every record key (only those in ``keys``
    when given), and ``tier`` and ``stratum`` from ``staging.routed_items`` when given."""
    records = pd.DataFrame(list(generations["record"]), index=generations.index)
    unused = {"task", "item_id", "id"}
    records = records.drop(
        columns=[c for c in records if c in unused or (keys is not None and c not in keys)]
    )
    items = pd.concat([generations[["item_id", "role"]], records], axis=1)
    if routed is not None and len(routed):
        items = items.merge(
            routed[["item_id", "tier", "stratum"]].astype(object), on="item_id", how="left"
        )
    return items


UNCOMPARED = (
    "rating_id",
    "confidence",
    "notes",
    "token",
    "source_file",
    "source_sha256",
    "source_row",
)
"""Columns of ``gold.labels`` that no quality metric reads (the PI sample reads the labels
themselves)."""

QUALITY_LABEL_COLUMNS = tuple(
    n for n in names(LABELS)[1:] if n not in ("token", "source_sha256", "source_row")
)
"""The columns of ``gold.labels`` rater quality reads: neither the metrics nor the PI sample
read a rating's token, its file's hash or its row (about 60 MB of text at 100,000 items)."""
QUALITY_GENERATION_COLUMNS = ("item_id", "task", "role", "record", "expected")
"""The columns of ``raw.generations`` rater quality reads."""


def prepare(
    study: Study,
    labels: pd.DataFrame,
    generations: pd.DataFrame,
    routed: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Rating-field rows of ``gold.labels`` with a comparable value ``x`` and item attributes.

    ``x`` is the number (Likert, binary) or label (categorical); rows whose value is missing
    or ``skip`` are dropped. Columns: the label columns but :data:`UNCOMPARED` (the metrics
    never read them, and each copy of the rows would carry them), ``x``, ``likert``,
    ``numeric``, and
    one column per slice key found in the items (the items' other keys are left out: a
    rating row carries its item's slice keys, not its whole record).
    """
    fields = rating_fields(study)
    keys = pd.MultiIndex.from_arrays([labels["task"], labels["field"]])
    known = keys.isin(list(fields))
    rows = labels.loc[known, [c for c in labels.columns if c not in UNCOMPARED]].copy()
    codes, pairs = pd.MultiIndex.from_arrays([rows["task"], rows["field"]]).factorize()
    info = [fields[pair] for pair in pairs]
    rows["likert"] = np.array([i.likert for i in info], dtype=bool)[codes]
    rows["numeric"] = np.array([i.numeric for i in info], dtype=bool)[codes]
    number = pd.to_numeric(rows["value_num"], errors="coerce").astype(float)
    text = shared_text(rows["value"])
    rows["x"] = np.where(rows["numeric"], number, text).astype(object)
    missing = np.where(rows["numeric"], number.isna(), text.isna() | (text == "skip"))
    rows = rows.loc[~missing]
    rows["copy"] = rows["copy"].astype(int)
    for column in ("annotator_id", "task", "item_id", "field", "kind", "round", "batch"):
        rows[column] = shared_text(rows[column])
    attributes = item_attributes(generations, routed, keys=study.slices)
    extra = [c for c in attributes.columns if c not in rows.columns or c == "item_id"]
    rows = rows.merge(attributes[extra], on="item_id", how="left")
    return rows.reset_index(drop=True)


def slice_keys(study: Study, rows: pd.DataFrame, with_task: bool = True) -> list[str]:
    """The study's slice keys present in ``rows`` (``task`` only when asked and meaningful)."""
    keys = []
    for key in study.slices:
        if key == "task" and (not with_task or len(study.tasks) < 2):
            continue
        if key in rows.columns and rows[key].notna().any():
            keys.append(key)
    return keys


def slice_values(rows: pd.DataFrame, key: str) -> list[tuple[str, np.ndarray]]:
    """``(value, mask)`` for each value of ``key`` in ``rows`` as text (missing values in
    none), in sorted order; the masks are boolean arrays over the rows. The column is
    factorized once and only its distinct values are turned into text (a Python call per
    row and a comparison per value and row before)."""
    codes, uniques = pd.factorize(rows[key], use_na_sentinel=True)
    by_text: dict[str, list[int]] = {}
    for code, value in enumerate(uniques):
        by_text.setdefault(str(value), []).append(code)
    return [
        (
            text,
            np.isin(codes, by_text[text]) if len(by_text[text]) > 1 else codes == by_text[text][0],
        )
        for text in sorted(by_text)
    ]


def within_one(a: pd.Series, b: pd.Series, likert: pd.Series) -> np.ndarray:
    """Per pair: ``|a - b| <= 1`` where ``likert``, else ``a == b``."""
    a, b = a.to_numpy(dtype=object), b.to_numpy(dtype=object)
    out = a == b
    mask = likert.to_numpy(dtype=bool)
    if mask.any():
        diff = np.abs(a[mask].astype(float) - b[mask].astype(float))
        out[mask] = diff <= 1
    return out.astype(bool)


def metric(
    annotator_id: str,
    name: str,
    slice_: str,
    value: float,
    n: int,
    *,
    target: float = math.nan,
    comparison: str = "",
    flagged: bool | None = None,
    ci: tuple[float, float] = (math.nan, math.nan),
    p_value: float = math.nan,
) -> dict:
    """One row of ``gold.rater_quality``. ``comparison`` says how ``value`` must relate to
    ``target`` to pass (``>=``, ``<=``, ``|x|<=``); unless ``flagged`` is given, the row is
    flagged when it does not."""
    if flagged is None:
        flagged = breaches(value, target, comparison)
    return {
        "annotator_id": annotator_id,
        "metric": name,
        "slice": slice_,
        "value": float(value),
        "target": float(target),
        "comparison": comparison,
        "flagged": bool(flagged),
        "n": int(n),
        "ci_low": float(ci[0]),
        "ci_high": float(ci[1]),
        "p_value": float(p_value),
    }


def breaches(value: float, target: float, comparison: str) -> bool:
    """Whether ``value`` fails ``comparison`` against ``target`` (never with a NaN)."""
    if not comparison or value != value or target != target:
        return False
    if comparison == ">=":
        return value < target
    if comparison == "<=":
        return value > target
    if comparison == "|x|<=":
        return abs(value) > target
    raise ValueError(f"unknown comparison {comparison!r}")


def frame(rows: list[dict]) -> pd.DataFrame:
    """``gold.rater_quality`` rows as a frame with :data:`QUALITY_COLUMNS`."""
    out = pd.DataFrame(rows, columns=list(QUALITY_COLUMNS))
    return out.astype(
        {
            "annotator_id": object,
            "metric": object,
            "slice": object,
            "value": float,
            "target": float,
            "comparison": object,
            "flagged": bool,
            "n": "int64",
            "ci_low": float,
            "ci_high": float,
            "p_value": float,
        }
    )


def item_flags(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(ITEM_FLAG_COLUMNS)).astype(object)


def show(value: object) -> str:
    """A rating value as an annotator wrote it (``4``, not ``4.0``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
