"""Long frames of human ratings and judge verdicts into one :class:`FieldInput` per field.

Humans: one row per unit, rater and field (columns ``unit``, ``rater``, ``field``, ``value``).
Judges: one row per unit, judge and field (``unit``, ``judge``, ``field``, ``value``, optional
``confidence``; ``raw``, what the judge said, when ``value`` is already parsed). A unit is
one string (several id columns are joined before). Only units
some human rated count; a judge verdict that cannot be read as the field's kind (a number
for graded fields, one of the labels for categorical ones) is kept as *given but invalid*,
so it lowers the judge's valid rate instead of vanishing.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from raterlab.judges.field_input import FieldInput
from raterlab.membership import is_in


class JudgeInputError(ValueError):
    """Ratings or verdicts that cannot be compared; the message names the problem."""


def _numeric(values: pd.Series) -> np.ndarray:
    return pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)


def reject_duplicates(frame: pd.DataFrame, keys: list[str], what: str) -> None:
    dup = frame.duplicated(keys, keep=False)
    if dup.any():
        first = frame[dup].iloc[0]
        where = ", ".join(f"{k}={first[k]!r}" for k in keys)
        raise JudgeInputError(f"{what}: more than one row for {where} (row {first.name})")


def label_text(value: object) -> str:
    """A categorical label as text, the same however the file typed it: a whole number read
    as a float (a column with a gap becomes float in pandas) is written without ``.0``, so a
    human's ``1.0`` and a judge's ``1`` are one label."""
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _wide(ratings: pd.DataFrame) -> tuple[np.ndarray, list[str], pd.DataFrame]:
    """One field's ratings as units (sorted, as text) by raters (sorted, as text)."""
    units = np.array(sorted(ratings["unit"].astype(str).unique()), dtype=object)
    raters = sorted(ratings["rater"].astype(str).unique())
    wide = ratings.assign(
        unit=ratings["unit"].astype(str), rater=ratings["rater"].astype(str)
    ).pivot(index="unit", columns="rater", values="value")
    return units, raters, wide.reindex(index=units, columns=raters)


def _graded_matrix(field: str, wide: pd.DataFrame) -> np.ndarray:
    """The humans' graded ratings as floats (NaN where none); a rating that is not a number
    raises :class:`JudgeInputError`, naming it (the field is likely categorical)."""
    matrix = wide.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    bad = wide.notna().to_numpy() & np.isnan(matrix)
    if bad.any():
        r, c = np.argwhere(bad)[0]
        raise JudgeInputError(
            f"field {field!r}: human rating {wide.iat[r, c]!r} of unit {wide.index[r]!r} "
            f"by {wide.columns[c]!r} is not a number (list the field as categorical)"
        )
    return matrix


def _label_matrix(wide: pd.DataFrame) -> np.ndarray:
    """The humans' labels as text objects (None where none)."""
    matrix = wide.astype(object).where(wide.notna(), None).to_numpy(dtype=object)
    return np.vectorize(lambda v: None if v is None else str(v), otypes=[object])(matrix)


def _judge_arrays(
    verdicts: pd.DataFrame, units: np.ndarray, kind: str, labels: list[str] | None
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Per judge, aligned on ``units``: its valid verdicts (a number, or one of ``labels``),
    whether it gave any verdict (so an unreadable one still counts as given), and its
    confidence (only for a judge that gave some)."""
    valid, given, confidence = {}, {}, {}
    for judge, rows in verdicts.groupby("judge", sort=True):
        rows = rows.set_index("unit").reindex(units)
        given[str(judge)] = rows["raw" if "raw" in rows else "value"].notna().to_numpy()
        if kind == "graded":
            valid[str(judge)] = _numeric(rows["value"])
        else:
            text = rows["value"].map(lambda v: None if pd.isna(v) else label_text(v))
            valid[str(judge)] = np.array([v if v in labels else None for v in text], dtype=object)
        if "confidence" in rows and rows["confidence"].notna().any():
            confidence[str(judge)] = _numeric(rows["confidence"])
    return valid, given, confidence


def slice_masks(
    slices: Mapping[str, Mapping[str, object]] | None, units: np.ndarray
) -> dict[str, np.ndarray]:
    """A unit mask per slice ``key=level``, for every level some unit has (a unit belongs to
    the level its value reads as, as text)."""
    masks = {}
    for key, mapping in (slices or {}).items():
        values = [mapping.get(u) for u in units]
        text = np.array([str(v) for v in values], dtype=object)
        levels = {t for v, t in zip(values, text, strict=True) if v is not None and not pd.isna(v)}
        for level in sorted(levels):
            masks[f"{key}={level}"] = np.asarray(text == level, dtype=bool)
    return masks


def field_inputs(
    humans: pd.DataFrame,
    judges: pd.DataFrame,
    kinds: Mapping[str, str],
    labels: Mapping[str, list] | None = None,
    alpha_levels: Mapping[str, str] | None = None,
    groups: Mapping[str, object] | None = None,
    systems: Mapping[str, object] | None = None,
    slices: Mapping[str, Mapping[str, object]] | None = None,
) -> list[FieldInput]:
    """One input per field of ``kinds`` (field -> ``graded`` | ``categorical``).

    ``labels`` fixes a categorical field's label list (default: the labels humans used);
    ``groups``/``systems`` map unit -> group / system; ``slices`` maps a slice key to unit ->
    level, giving one slice ``key=level`` per level.
    """
    reject_duplicates(humans, ["unit", "rater", "field"], "human ratings")
    reject_duplicates(judges, ["unit", "judge", "field"], "judge verdicts")
    out = []
    for field, kind in kinds.items():
        h = humans[(humans["field"] == field) & humans["value"].notna()]
        if h.empty:
            continue
        if kind != "graded":
            h = h.assign(value=h["value"].map(label_text))
        units, raters, wide = _wide(h)
        j = judges[judges["field"] == field].assign(unit=lambda f: f["unit"].astype(str))
        j = j[is_in(j["unit"], units)]
        if kind == "graded":
            matrix, field_labels = _graded_matrix(field, wide), None
        else:
            matrix = _label_matrix(wide)
            used = sorted({v for v in matrix.ravel() if v is not None})
            field_labels = [str(v) for v in (labels or {}).get(field, used)]
        verdicts, given, confidence = _judge_arrays(j, units, kind, field_labels)
        out.append(
            FieldInput(
                field=field,
                kind=kind,  # type: ignore[arg-type]
                units=units,
                raters=raters,
                humans=matrix,
                judges=verdicts,
                given=given,
                confidence=confidence,
                labels=field_labels,
                alpha_level=(alpha_levels or {}).get(
                    field, "ordinal" if kind == "graded" else "nominal"
                ),
                groups=None if groups is None else np.array([groups.get(u) for u in units]),
                systems=None if systems is None else np.array([systems.get(u) for u in units]),
                slices=slice_masks(slices, units),
            )
        )
    return out
