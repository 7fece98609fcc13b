"""Judge calibration of two plain files, no study needed (``raterlab calibrate``).

HUMAN is a long ratings file: one row per unit and rater, one column per field. JUDGES is a
long file: one row per unit and judge (and field, with a field column), with a score column.
Without a field column, each judge's score is compared with every human field. A unit is
identified by one or more id columns, present in both files.

:func:`calibrate_files` compares the judges with the humans (``raterlab calibrate``);
:func:`ppi_files` estimates the human mean over every unit of JUDGES by prediction-powered
inference, with the units HUMAN does not rate as the unlabelled set (``--ppi``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from raterlab.agreement.ratings_file import unit_ids
from raterlab.judges.calibrate import calibrate_field
from raterlab.judges.contingency import CORRELATIONS
from raterlab.judges.field_input import Options
from raterlab.judges.frames import JudgeInputError, field_inputs
from raterlab.judges.rows import COLUMNS
from raterlab.judges.substitution import COLUMNS as SUBSTITUTION_COLUMNS
from raterlab.judges.substitution import substitution_table


def _require(frame: pd.DataFrame, columns: Sequence[str], what: str, option: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise JudgeInputError(
            f"{what}: no column(s) {', '.join(map(repr, missing))} ({option}); "
            f"the file has: {', '.join(map(str, frame.columns))}"
        )


def _unit(frame: pd.DataFrame, columns: Sequence[str]) -> pd.Series:
    return unit_ids(frame, columns).astype(str)


def _key_map(
    humans: pd.DataFrame, judges: pd.DataFrame, units: Sequence[str], column: str, option: str
) -> dict[str, object]:
    """unit -> value of ``column``, from the human file if it has the column, else the judges'."""
    for frame in (humans, judges):
        if column in frame.columns:
            keyed = frame.assign(_unit=_unit(frame, units)).drop_duplicates("_unit")
            return dict(zip(keyed["_unit"], keyed[column], strict=True))
    raise JudgeInputError(f"{option} {column!r}: neither file has that column")


def _long_frames(
    humans: pd.DataFrame,
    judges: pd.DataFrame,
    units: Sequence[str],
    rater: str,
    fields: Sequence[str],
    judge: str,
    score: str,
    field: str | None,
    categorical: Sequence[str],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Both files as long frames: humans ``unit, rater, field, value``, judges ``unit, judge,
    field, value`` (each judge's score repeated for every field without ``field``)."""
    _require(humans, [*units, rater, *fields], "HUMAN", "--unit/--rater/--fields")
    _require(judges, [*units, judge, score], "JUDGES", "--unit/--judge/--score")
    if field is not None:
        _require(judges, [field], "JUDGES", "--field")
    unknown = [f for f in categorical if f not in fields]
    if unknown:
        raise JudgeInputError(f"--categorical {unknown} are not among --fields {list(fields)}")
    long_humans = humans.assign(unit=_unit(humans, units), rater=humans[rater].astype(str)).melt(
        id_vars=["unit", "rater"], value_vars=list(fields), var_name="field", value_name="value"
    )
    base = judges.assign(unit=_unit(judges, units), judge=judges[judge].astype(str))
    if field is None:
        long_judges = pd.concat([base.assign(field=f) for f in fields], ignore_index=True).rename(
            columns={score: "value"}
        )
    else:
        long_judges = base.assign(field=base[field].astype(str)).rename(columns={score: "value"})
    return long_humans, long_judges[["unit", "judge", "field", "value"]]


def calibrate_files(
    humans: pd.DataFrame,
    judges: pd.DataFrame,
    units: Sequence[str],
    rater: str,
    fields: Sequence[str],
    judge: str = "judge",
    score: str = "score",
    field: str | None = None,
    group: str | None = None,
    system: str | None = None,
    categorical: Sequence[str] = (),
    options: Options | None = None,
) -> pd.DataFrame:
    """The long calibration table (:data:`raterlab.judges.rows.COLUMNS`) of two files."""
    long_humans, long_judges = _long_frames(
        humans, judges, units, rater, fields, judge, score, field, categorical
    )
    kinds = {f: "categorical" if f in categorical else "graded" for f in fields}
    inputs = field_inputs(
        long_humans,
        long_judges,
        kinds,
        groups=_key_map(humans, judges, units, group, "--group") if group else None,
        systems=_key_map(humans, judges, units, system, "--system") if system else None,
    )
    tables = [calibrate_field(fi, options) for fi in inputs]
    if not tables:
        return pd.DataFrame(columns=list(COLUMNS))
    return pd.concat(tables, ignore_index=True)


PPI_COLUMNS = tuple(c for c in SUBSTITUTION_COLUMNS if c != "slice")
"""``raterlab calibrate --ppi``: :data:`raterlab.judges.substitution.COLUMNS` but ``slice``."""


def ppi_files(
    humans: pd.DataFrame,
    judges: pd.DataFrame,
    units: Sequence[str],
    rater: str,
    fields: Sequence[str],
    judge: str = "judge",
    score: str = "score",
    field: str | None = None,
    categorical: Sequence[str] = (),
    aggregate: str = "mean",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Prediction-powered estimates of two files (:data:`PPI_COLUMNS`): per judge and field
    (and label of a ``categorical`` field), the mean over every unit of JUDGES the judge
    scored of the per-unit human aggregate (the rate of the label), with the units HUMAN
    rates as the labelled set and the others as the unlabelled set
    (:func:`raterlab.judges.substitution.substitution_table`). A judge and field without 2
    labelled units and 1 unlabelled unit raises :class:`JudgeInputError` naming them."""
    long_humans, long_judges = _long_frames(
        humans, judges, units, rater, fields, judge, score, field, categorical
    )
    kinds = {f: "categorical" if f in categorical else "graded" for f in fields}
    table = substitution_table(
        long_humans, long_judges, kinds, aggregate=aggregate, confidence=confidence, strict=True
    )
    return table[list(PPI_COLUMNS)]


def summary(long: pd.DataFrame, ci: bool) -> pd.DataFrame:
    """One row per judge, field and level (all units): ``n`` (and ``n_groups`` at level
    ``group``), ``pearson``, ``spearman``, ``kendall`` (graded) or ``kappa``, ``accuracy``
    (categorical), each with ``<statistic>_ci_low``/``_ci_high`` when ``ci``, then
    ``human_<statistic>``, the leave-one-annotator-out ceiling."""
    rows = long[(long["slice"] == "all") & long["versus"].isna()]
    wanted = [*CORRELATIONS, "kappa", "accuracy"]
    rows = rows[rows["statistic"].isin(wanted)]
    present = [s for s in wanted if s in set(rows["statistic"])]
    out = []
    for (judge, field, level), sub in rows.groupby(["judge", "field", "level"], sort=False):
        by_stat = sub.drop_duplicates("statistic").set_index("statistic")
        record: dict[str, object] = {
            "judge": judge,
            "field": field,
            "level": level,
            "n": int(sub["n"].max()),
            "n_groups": sub["n_groups"].max(),
        }
        for stat in present:
            record[stat] = by_stat["estimate"].get(stat, np.nan)
            if ci:
                record[f"{stat}_ci_low"] = by_stat["ci_low"].get(stat, np.nan)
                record[f"{stat}_ci_high"] = by_stat["ci_high"].get(stat, np.nan)
        for stat in present:
            record[f"human_{stat}"] = by_stat["human_ceiling"].get(stat, np.nan)
        out.append(record)
    frame = pd.DataFrame(out)
    if frame.empty:
        return frame
    frame["n_groups"] = frame["n_groups"].astype("Int64")
    if frame["n_groups"].isna().all():
        frame = frame.drop(columns="n_groups")
    order = frame["level"].map({"item": 0, "group": 1, "system": 2})
    frame = frame.assign(_o=order).sort_values(["field", "_o", "judge"], kind="stable")
    return frame.drop(columns="_o").reset_index(drop=True)
