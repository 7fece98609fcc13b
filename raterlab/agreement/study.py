"""Agreement of a study's labels: per field and per slice, with intervals, bands, pairwise
tables, agreement matrices and the study's thresholds (the pilot gate is
:mod:`raterlab.agreement.pilot`).

Only ordinary ratings count (:func:`raterlab.design.kinds.ordinary`): hidden duplicates, attention
checks and calibration items measure raters, not items (see :mod:`raterlab.quality`); a third
annotator's tie-break rating exists only for disputed items, so it is left out too.
Skipped answers are missing. A slice is written ``key=value`` (``condition=A``,
``round=pilot``); ``all`` is every item. Slice keys are the study's ``slices``: item keys
(hidden or shown) or ``task``, ``tier``, ``round``, ``stratum``.

The coefficient set follows the field type:

- binary and categorical: percent agreement, Fleiss' kappa (Gwet's generalisation to any
  number of ratings per unit), nominal alpha and Gwet's AC1; Cohen's kappa too when exactly
  two raters rated every unit;
- Likert: percent agreement, ordinal and interval alpha, Gwet's AC2 (quadratic weights),
  ICC(1,1) and, with two fully crossed raters, quadratic-weighted Cohen's kappa. ICC(1,1) is
  the one-way random model (Shrout & Fleiss 1979): with two annotators per item drawn from
  a pool, each unit's first two ratings are its two columns.

Beside that set, every threshold's own coefficient (the pilot gate's too) is computed on every
slice exactly as declared, and each ``per: task`` minimum's pooled coefficient on every slice.
Each field's row of the protocol's coefficient is marked ``headline``
(:func:`headline_threshold`: a threshold marked ``headline``, else the pilot gate where it
reads the field, else the first minimum that applies); ``declared_by`` names the thresholds
each row answers.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np
import pandas as pd
from pandas.api.extensions import take

from raterlab.agreement.bands import apply_bands, landis_koch_band
from raterlab.agreement.by_field import agreement_table, estimates
from raterlab.agreement.crosstabs import agreement_matrix
from raterlab.agreement.declared import declared_coefficient, declared_options
from raterlab.design.kinds import ordinary
from raterlab.design.rounds import TIEBREAK_ROUND
from raterlab.protocol import BinaryField, CategoricalField, LikertField, Study
from raterlab.protocol.coefficients import applies
from raterlab.protocol.study import Threshold
from raterlab.tables.ingest import LABELS

AGREEMENT_COLUMNS = (
    "task",
    "field",
    "slice",
    "coefficient",
    "level",
    "estimate",
    "se",
    "ci_low",
    "ci_high",
    "n_units",
    "n_raters",
    "band",
    "headline",
    "declared_by",
    "note",
    "computed_at",
)
BUILTIN_KEYS = ("task", "tier", "round", "stratum")


READ_COLUMNS = (
    "rating_id",
    "task",
    "item_id",
    "annotator_id",
    "field",
    "value",
    "value_num",
    "kind",
    "copy",
    "round",
)
"""The columns of ``gold.labels`` agreement reads (its provenance, notes, times and tokens
would be carried on every rating of a study's frames)."""


def label_columns(study: Study) -> list[str]:
    """:data:`READ_COLUMNS` and any other ``gold.labels`` column the study slices by."""
    extra = [c for c in study.slices if c in LABELS.names and c not in READ_COLUMNS]
    return [*READ_COLUMNS, *extra]


def ratings(
    labels: pd.DataFrame, items: pd.DataFrame, keys: Collection[str] | None = None
) -> pd.DataFrame:
    """Ordinary ratings with the item attributes slices need (one column per item key; only
    the keys in ``keys``, e.g. the study's ``slices``, when given: the other keys of the
    records, prompts and responses among them, would be copied onto every rating)."""
    counted = ordinary(labels) & (labels["round"] != TIEBREAK_ROUND)
    rows = labels[counted & (labels["value"] != "skip")]
    attributes = pd.DataFrame(list(items["record"]), index=items.index)
    attributes = attributes.drop(
        columns=[
            c for c in attributes if c in items.columns or (keys is not None and c not in keys)
        ]
    )
    items = pd.concat([items.drop(columns="record"), attributes], axis=1)
    return rows.merge(items.drop(columns="task"), on="item_id", how="left")


def rating_fields(study: Study) -> Iterator[tuple[str, str, object]]:
    """(task, field, spec) of every rating field (binary, Likert, categorical)."""
    for task_name, task in study.tasks.items():
        for name in task.rating_fields:
            yield task_name, name, task.fields[name]


def unit_matrix(rows: pd.DataFrame, unit: str, column: str) -> pd.DataFrame:
    """Units (``unit``) x annotators: each annotator's first non-missing ``column`` value of
    the unit; units and annotators without any left out, both sorted. What
    ``pivot_table(index=unit, columns="annotator_id", values=column, aggfunc="first")``
    gives (tested), placed by the codes of a sorted factorization: no grouping and unstacking
    (a few milliseconds a call, and agreement and rater quality build hundreds per run)."""
    values = rows[column]
    rated = values.notna().to_numpy()
    units, unit_names = pd.factorize(rows[unit][rated], sort=True)
    raters, rater_names = pd.factorize(rows["annotator_id"][rated], sort=True)
    cells = units.astype(np.int64) * len(rater_names) + raters
    first = np.flatnonzero(~pd.Series(cells).duplicated().to_numpy())  # a cell's first rating
    index = pd.Index(unit_names, dtype=rows[unit].dtype, name=unit)
    shape = (len(unit_names), len(rater_names))
    if values.dtype == np.float64:
        grid = np.full(shape[0] * shape[1], np.nan)
        grid[cells[first]] = values.to_numpy()[rated][first]
        matrix = pd.DataFrame(grid.reshape(shape), index=index)
    else:  # text or objects: each column taken from the distinct values by their codes
        codes, levels = pd.factorize(values[rated])
        at = np.full(shape[0] * shape[1], -1, dtype=np.int64)
        at[cells[first]] = codes[first]
        at = at.reshape(shape)
        columns = {j: take(levels, at[:, j], allow_fill=True) for j in range(shape[1])}
        matrix = pd.DataFrame(columns, index=index)
    matrix.columns = pd.Index(rater_names, dtype=rows["annotator_id"].dtype, name="annotator_id")
    return matrix


def field_matrix(rows: pd.DataFrame, task: str, field: str, spec: object) -> pd.DataFrame:
    """Units x annotators for one field (numbers for binary and Likert, labels otherwise)."""
    own = rows[(rows["task"] == task) & (rows["field"] == field)]
    column = "value" if isinstance(spec, CategoricalField) else "value_num"
    return unit_matrix(own, "item_id", column)


def _first_two(matrix: pd.DataFrame) -> pd.DataFrame:
    """Each unit's first two ratings as two columns (for the one-way ICC)."""
    values = matrix.to_numpy(dtype=float)
    ordered = np.sort(np.where(np.isnan(values), np.inf, 0) + np.arange(values.shape[1]), axis=1)
    picks = ordered[:, :2]
    keep = np.isfinite(picks).all(axis=1)
    rows = np.flatnonzero(keep)
    cols = picks[keep].astype(int)
    pair = values[rows[:, None], cols]
    return pd.DataFrame(pair, index=matrix.index[keep], columns=["first", "second"])


def _fully_crossed_pair(matrix: pd.DataFrame) -> bool:
    return matrix.shape[1] == 2 and bool(matrix.notna().all(axis=1).mean() >= 0.9)


def coefficient_set(spec: object, matrix: pd.DataFrame) -> tuple[str, list[str], list]:
    """Level, coefficient specs for :func:`agreement_table`, and the declared categories."""
    pair = _fully_crossed_pair(matrix)
    if isinstance(spec, LikertField):
        names = [
            "percent_agreement",
            "krippendorff_alpha:ordinal",
            "krippendorff_alpha:interval",
            "gwet_ac2:quadratic",
        ]
        names += ["cohen_kappa:quadratic"] if pair else []
        return "ordinal", names, list(spec.domain())
    names = ["percent_agreement", "fleiss_kappa", "krippendorff_alpha:nominal", "gwet_ac1"]
    names += ["cohen_kappa"] if pair else []
    categories = list(spec.domain()) if isinstance(spec, BinaryField | CategoricalField) else None
    return "nominal", names, categories


def _band(study: Study, value: float, coefficient: str | None = None) -> str:
    """The study's band for ``value``: the coefficient's own bands
    (``thresholds.coefficient_bands``) if declared, else ``thresholds.bands``."""
    if pd.isna(value):
        return ""
    own = study.thresholds.coefficient_bands.get(coefficient) if coefficient else None
    if own:
        return apply_bands(value, own)
    if study.thresholds.bands == "landis_koch":
        return landis_koch_band(value)
    return apply_bands(value, study.thresholds.bands)


def slice_mask(rows: pd.DataFrame, name: str) -> pd.Series:
    """Which ``rows`` are in the slice ``name`` (``all`` or ``key=value``)."""
    if name == "all":
        return pd.Series(True, index=rows.index)
    key, _, value = name.partition("=")
    if key not in rows:
        return pd.Series(False, index=rows.index)
    return rows[key].astype(str) == value


def _slices(study: Study, rows: pd.DataFrame) -> Iterator[tuple[str, pd.Series]]:
    yield "all", pd.Series(True, index=rows.index)
    keys = list(dict.fromkeys([*study.slices, "round"]))
    for key in keys:
        if key not in rows or key == "task":
            continue
        text = rows[key].astype(str)
        for value in sorted(set(rows[key].dropna().astype(str).unique()) - {""}):
            yield f"{key}={value}", text == value


@dataclass(frozen=True)
class Interval:
    n_resamples: int = 1000
    seed: int = 0


def declared_thresholds(study: Study) -> list[tuple[str, Threshold]]:
    """The pilot gate and every minimum with their YAML paths, in the order a field's headline
    is chosen from them: those marked ``headline`` first, then the gate, then the minimums."""
    named = []
    if study.thresholds.pilot_gate is not None:
        named.append(("thresholds.pilot_gate", study.thresholds.pilot_gate))
    named += [(f"thresholds.minimums[{i}]", t) for i, t in enumerate(study.thresholds.minimums)]
    return sorted(named, key=lambda pair: not pair[1].headline)


def reads_field(threshold: Threshold, field: str, spec: object) -> bool:
    """Whether a per-field threshold is judged on ``field`` (a field of type ``spec``)."""
    if threshold.per != "field" or (threshold.fields and field not in threshold.fields):
        return False
    return applies(threshold, spec)


def headline_threshold(study: Study, field: str, spec: object) -> tuple[str, Threshold] | None:
    """The threshold whose coefficient is the protocol's for ``field``: the first of
    :func:`declared_thresholds` that reads it, or ``None``."""
    return next(
        ((n, t) for n, t in declared_thresholds(study) if reads_field(t, field, spec)), None
    )


def _mark(study: Study, field: str, spec: object, table: pd.DataFrame) -> pd.DataFrame:
    """``declared_by`` (the thresholds each row is judged under) and ``headline`` (the one row
    of the field's headline threshold) of one field's rows on one slice."""
    reading = [(n, t) for n, t in declared_thresholds(study) if reads_field(t, field, spec)]
    matched = [[n for n, t in reading if _matches(r, t)] for _, r in table.iterrows()]
    table = table.assign(declared_by=[", ".join(sorted(m)) for m in matched], headline=False)
    if reading:
        first = next((i for i, m in enumerate(matched) if reading[0][0] in m), None)
        if first is not None:
            table.loc[table.index[first], "headline"] = True
    return table


def field_agreement(
    study: Study, rows: pd.DataFrame, interval: Interval | None = Interval()
) -> pd.DataFrame:
    """``gold.agreement`` rows: every rating field x slice x coefficient of its type, the
    coefficient of every threshold that reads the field (the pilot gate's too) on every slice,
    and the pooled per-task coefficient of every ``per: task`` minimum on every slice. Each
    field's (or pooled task's) row of its headline threshold is marked ``headline``."""
    parts = []
    ci = interval is not None
    options = {"n_resamples": interval.n_resamples, "seed": interval.seed} if ci else {}
    for slice_name, mask in _slices(study, rows):
        subset = rows[mask]
        parts += _pooled_rows(study, subset, slice_name, ci, options)
        for task, field, spec in rating_fields(study):
            matrix = field_matrix(subset, task, field, spec)
            if matrix.shape[0] < 2 or matrix.shape[1] < 2:
                continue
            level, names, categories = coefficient_set(spec, matrix)
            table = agreement_table({field: matrix}, level, names, categories, ci=ci, **options)
            if isinstance(spec, LikertField):
                one_way = _first_two(matrix)
                if len(one_way) >= 2:
                    icc_row = agreement_table(
                        {field: one_way}, "interval", ["icc:ICC(1,1)"], ci=ci, **options
                    )
                    table = pd.concat([table, icc_row], ignore_index=True)
            table["level"] = [
                _level_label(c, o, level)
                for c, o in zip(table["coefficient"], table["options"], strict=True)
            ]
            table = pd.concat(
                [table, _declared_rows(study, field, spec, matrix, table, ci, options)],
                ignore_index=True,
            )
            table = pd.concat(
                [table, _export_kappa_rows(study, spec, field, matrix, table, ci, options)],
                ignore_index=True,
            )
            parts.append(_mark(study, field, spec, table).assign(task=task, slice=slice_name))
    if not parts:
        return pd.DataFrame(columns=list(AGREEMENT_COLUMNS))
    out = pd.concat(parts, ignore_index=True)
    out["band"] = [
        _band(study, v, c) for v, c in zip(out["estimate"], out["coefficient"], strict=True)
    ]
    out["computed_at"] = datetime.now(UTC)
    return out[list(AGREEMENT_COLUMNS)]


def _declared_rows(
    study: Study,
    field: str,
    spec: object,
    matrix: pd.DataFrame,
    table: pd.DataFrame,
    ci: bool,
    options: dict,
) -> pd.DataFrame:
    """The thresholds on ``field`` (the pilot gate and the per-field minimums) whose
    coefficient ``table`` lacks (Cohen's kappa ``weights: unweighted`` on a Likert field,
    Light's kappa...), computed exactly as declared (:mod:`raterlab.agreement.declared`) and
    labelled with the declared options, so that every threshold is judged, and every headline
    read, on the coefficient it names."""
    rows: list[pd.DataFrame] = []
    for _, threshold in declared_thresholds(study):
        if not reads_field(threshold, field, spec):
            continue
        done = [
            *(r for _, r in table.iterrows()),
            *(r for part in rows for _, r in part.iterrows()),
        ]
        if any(_matches(r, threshold) for r in done):
            continue
        level, name = declared_coefficient(threshold, spec)
        row = agreement_table({field: matrix}, level, [name], list(spec.domain()), ci=ci, **options)
        rows.append(row.assign(level=declared_options(threshold) or _computed_at(row, level)))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()


EXPORT_KAPPA_LEVELS = ("nominal", "weights=unweighted")
"""The ``level`` of an unweighted kappa in ``gold.agreement``."""


def _export_kappa_rows(
    study: Study,
    spec: object,
    field: str,
    matrix: pd.DataFrame,
    table: pd.DataFrame,
    ci: bool,
    options: dict,
) -> pd.DataFrame:
    """The inter-rater kappa the ``study_json`` export reports
    (:func:`raterlab.exports.study_json.kappa`), where a study asks for that export and the
    field's coefficient set lacks it: on a Likert field, unweighted Cohen's kappa for a fully
    crossed pair of raters, else Fleiss' kappa (a binary or categorical field's set has
    both). A kappa a threshold declares with weights is among the declared rows already."""
    if "study_json" not in study.exports or not isinstance(spec, LikertField):
        return pd.DataFrame()
    name = "cohen_kappa" if _fully_crossed_pair(matrix) else "fleiss_kappa"
    if ((table["coefficient"] == name) & table["level"].isin(EXPORT_KAPPA_LEVELS)).any():
        return pd.DataFrame()
    row = agreement_table({field: matrix}, "nominal", [name], list(spec.domain()), ci=ci, **options)
    return row.assign(level="nominal")


def _computed_at(row: pd.DataFrame, level: str) -> str:
    """The level label of a declared coefficient without options: a coefficient that takes
    none (Fleiss', Light's kappa...) treats a Likert field's scores as categories, so it is
    ``nominal`` whatever the field's level."""
    return level if row["options"].iloc[0] else "nominal"


def _pooled_rows(
    study: Study, rows: pd.DataFrame, slice_name: str, ci: bool, options: dict
) -> list[pd.DataFrame]:
    """The pooled per-task coefficient of every ``per: task`` minimum on one slice, as
    ``gold.agreement`` rows (headline: a protocol that names a coefficient per task type)."""
    out = []
    for name, threshold in declared_thresholds(study):
        if threshold.per != "task":
            continue
        table = pooled_task_agreement(study, rows, threshold, ci=ci, **options)
        if table.empty:
            continue
        out.append(table.assign(slice=slice_name, declared_by=name, headline=True))
    return out


def _level_label(coefficient: str, options: str, level: str) -> str:
    """What the coefficient was computed at: ``ordinal``, ``weights=quadratic``, ``ICC(1,1)``."""
    if not options:
        return level
    return options.removeprefix("level=").removeprefix("kind=")


def pooled_task_agreement(
    study: Study, rows: pd.DataFrame, threshold: Threshold, ci: bool = False, **options
) -> pd.DataFrame:
    """One coefficient per task and level of measurement, its fields pooled (unit = item x
    field): the 'per task type' reading of a threshold (``per: task``).

    Only fields of one level are pooled together: binary and categorical fields as nominal,
    Likert fields at the threshold's level (default ordinal). Pooling Likert fields as nominal
    would count a 4-vs-5 like a 1-vs-5 and understate agreement. A threshold with ``level:
    nominal`` reads only nominal fields; ``ordinal``/``interval`` only Likert fields. With
    ``ci``, the bootstrap resamples units (item x field); ``options`` go to
    :func:`agreement_table` (``n_resamples``, ``seed``).
    """
    out = []
    for task_name, task in study.tasks.items():
        fields = [f for f in (threshold.fields or task.rating_fields) if f in task.rating_fields]
        by_level: dict[str, list[str]] = {}
        for f in fields:
            likert = isinstance(task.fields[f], LikertField)
            level = (threshold.level or "ordinal") if likert else "nominal"
            if threshold.level and (threshold.level == "nominal") == likert:
                continue
            by_level.setdefault(level, []).append(f)
        for level, members in by_level.items():
            own = rows[(rows["task"] == task_name) & rows["field"].isin(members)]
            if own.empty:
                continue
            own = own.assign(unit=own["item_id"] + "|" + own["field"])
            column = "value" if level == "nominal" else "value_num"
            matrix = unit_matrix(own, "unit", column)
            spec = (
                f"{threshold.coefficient}:{level}"
                if threshold.coefficient == "krippendorff_alpha"
                else threshold.coefficient
            )
            if matrix.shape[0] < 2 or matrix.shape[1] < 2:
                continue
            table = agreement_table({f"(pooled {level})": matrix}, level, [spec], ci=ci, **options)
            out.append(
                table.assign(
                    task=task_name,
                    field=f"(pooled {level}: {', '.join(members)})",
                    level=_level_label(threshold.coefficient, table["options"].iloc[0], level),
                )
            )
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


def _matches(row: pd.Series, threshold: Threshold) -> bool:
    """Whether ``row`` holds exactly the coefficient ``threshold`` names (unweighted kappa is
    the nominal kappa of a binary or categorical field)."""
    if row["coefficient"] != threshold.coefficient:
        return False
    wanted = threshold.level or threshold.weights
    if wanted is None:
        return True
    if wanted == "unweighted" and row["level"] == "nominal":
        return True
    return row["level"] in (wanted, f"weights={wanted}")


THRESHOLD_COLUMNS = (
    "threshold",
    "task",
    "field",
    "slice",
    "coefficient",
    "estimate",
    "ci_low",
    "ci_high",
    "n_units",
    "minimum",
    "passed",
    "severity",
    "note",
)


def threshold_results(study: Study, agreement: pd.DataFrame) -> pd.DataFrame:
    """Each declared minimum against the estimate it concerns in ``agreement``
    (:func:`field_agreement`): its slice's (default ``all``) row of exactly its coefficient,
    per field, or per task for ``per: task`` (the pooled rows), with its interval."""
    found = []
    for i, threshold in enumerate(study.thresholds.minimums):
        name = f"thresholds.minimums[{i}]"
        own = agreement[agreement["slice"] == (threshold.slice or "all")]
        if threshold.per == "task":
            pooled = own[own["declared_by"].str.contains(name, regex=False)]
            found += [
                _judge(name, threshold, r["task"], r["field"], r) for _, r in pooled.iterrows()
            ]
            continue
        for task, field, spec in rating_fields(study):
            if not reads_field(threshold, field, spec):
                continue
            match = own[(own["task"] == task) & (own["field"] == field)]
            match = match[[_matches(r, threshold) for _, r in match.iterrows()]]
            if match.empty:
                missing = pd.Series(
                    {"note": f"{threshold.coefficient} was not computed for this field"}
                )
                found.append(_judge(name, threshold, task, field, missing))
            else:
                found.append(_judge(name, threshold, task, field, match.iloc[0]))
    return pd.DataFrame(found, columns=list(THRESHOLD_COLUMNS))


def _judge(name: str, threshold: Threshold, task: str, field: str, row: pd.Series) -> dict:
    estimate = row.get("estimate", np.nan)
    if pd.isna(estimate):
        passed = False
    else:
        passed = bool(estimate > threshold.min if threshold.strict else estimate >= threshold.min)
    return {
        "threshold": name,
        "task": task,
        "field": field,
        "slice": threshold.slice or "all",
        "coefficient": threshold.coefficient,
        "estimate": estimate,
        "ci_low": row.get("ci_low", np.nan),
        "ci_high": row.get("ci_high", np.nan),
        "n_units": row.get("n_units", 0),
        "minimum": threshold.min,
        "passed": passed,
        "severity": threshold.severity,
        "note": row.get("note", ""),
    }


def pairwise(study: Study, rows: pd.DataFrame, min_shared: int = 5) -> pd.DataFrame:
    """Every pair of annotators on every rating field: shared units, percent agreement,
    Cohen's kappa (quadratic weights for Likert) and unweighted Cohen's kappa (as
    ``sklearn.metrics.cohen_kappa_score`` by default: a target such as "Cohen's kappa >= 0.4
    per dimension across annotator pairs" reads this one)."""
    found = []
    for task, field, spec in rating_fields(study):
        matrix = field_matrix(rows, task, field, spec)
        names = list(matrix.columns)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                pair = matrix[[a, b]].dropna()
                if len(pair) < min_shared:
                    continue
                level, _, categories = coefficient_set(spec, matrix)
                kappa = "cohen_kappa:quadratic" if level == "ordinal" else "cohen_kappa"
                percent, weighted = estimates(pair, level, ["percent_agreement", kappa], categories)
                (unweighted,) = estimates(pair, "nominal", ["cohen_kappa"], categories)
                found.append(
                    {
                        "task": task,
                        "field": field,
                        "rater_a": a,
                        "rater_b": b,
                        "n_units": len(pair),
                        "percent_agreement": percent,
                        "cohen_kappa": weighted,
                        "cohen_kappa_unweighted": unweighted,
                    }
                )
    return pd.DataFrame(
        found,
        columns=[
            "task",
            "field",
            "rater_a",
            "rater_b",
            "n_units",
            "percent_agreement",
            "cohen_kappa",
            "cohen_kappa_unweighted",
        ],
    )


def matrices(study: Study, rows: pd.DataFrame) -> pd.DataFrame:
    """Agreement matrix of every rating field, all rater pairs pooled, in long form."""
    found = []
    for task, field, spec in rating_fields(study):
        matrix = field_matrix(rows, task, field, spec)
        if matrix.shape[1] < 2 or matrix.notna().sum(axis=1).max() < 2:
            continue
        table = agreement_matrix(matrix, list(spec.domain()))
        long = table.stack().rename("count").reset_index()
        long.columns = ["category_a", "category_b", "count"]
        found.append(
            long.assign(
                task=task,
                field=field,
                category_a=long["category_a"].astype(str),
                category_b=long["category_b"].astype(str),
            )
        )
    if not found:
        return pd.DataFrame(columns=["task", "field", "category_a", "category_b", "count"])
    return pd.concat(found, ignore_index=True)[
        ["task", "field", "category_a", "category_b", "count"]
    ]


def agreement_tables(study: Study, rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Every table the ``agreement`` asset writes, from the study's counted ratings ``rows``:
    ``gold.agreement`` (:func:`field_agreement`), ``gold.agreement_pairwise``,
    ``gold.agreement_matrices`` and ``staging.agreement_thresholds`` (the study's minimums
    judged on ``gold.agreement``)."""
    table = field_agreement(study, rows)
    return {
        "gold.agreement": table,
        "gold.agreement_pairwise": pairwise(study, rows),
        "gold.agreement_matrices": matrices(study, rows),
        "staging.agreement_thresholds": threshold_results(study, table),
    }
