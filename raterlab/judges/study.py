"""Judge calibration of a study: its ratings that count, its judges' verdicts, its consensus.

Only the items of ``judges.calibrate_on`` count when the study names a slice (``tier=GOLD``:
the gold set's protocol calibrates judges on tier-B alone). Per task and rating field some
judge predicts: :func:`raterlab.judges.calibrate.calibrate_field`
(slices from the study's ``slices`` that are item keys, plus ``tier``) and
:func:`raterlab.judges.weights.judge_weights` against ``gold.consensus``. Nothing here names a
study: the ``judges:`` section says everything.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from raterlab.hashing import stable_int
from raterlab.ingest.study_tables import StudyTables, load_tables
from raterlab.judges.calibrate import calibrate_field
from raterlab.judges.field_input import FieldInput, Options
from raterlab.judges.frames import field_inputs
from raterlab.judges.plot import calibration_plot
from raterlab.judges.rows import COLUMNS
from raterlab.judges.store import (
    CALIBRATION_STEP,
    StudyCalibration,
    read_calibration,
    write_calibration,
)
from raterlab.judges.verdicts import (
    VERDICT_COLUMNS,
    first_runs,
    generation_verdicts,
    imported_verdicts,
    judges_dir,
    record_keys,
)
from raterlab.judges.weights import COLUMNS as WEIGHT_COLUMNS
from raterlab.judges.weights import judge_weights
from raterlab.membership import is_in
from raterlab.memo import fingerprint, recorded, unchanged
from raterlab.protocol import BinaryField, LikertField, Study
from raterlab.protocol.study import BUILTIN_SLICES
from raterlab.settings import Home
from raterlab.warehouse import read_table

PLOT_NAME = "judge_calibration.png"
CALIBRATION_COLUMNS = ("task", *COLUMNS)
WEIGHTS_COLUMNS = ("task", *WEIGHT_COLUMNS)


def _kind(spec) -> str:
    return "graded" if isinstance(spec, LikertField) else "categorical"


def _labels(spec) -> list[str] | None:
    if isinstance(spec, BinaryField):
        return ["0", "1"]
    return None if isinstance(spec, LikertField) else list(spec.labels)


def _empty_calibration() -> StudyCalibration:
    """A calibration with no rows (no judges, no ratings or no verdicts to calibrate on)."""
    return StudyCalibration(
        pd.DataFrame(columns=list(CALIBRATION_COLUMNS)),
        pd.DataFrame(columns=list(WEIGHTS_COLUMNS)),
    )


def _calibration_options(study: Study, resamples: int | None) -> Options:
    """The study's ``judges`` settings as :class:`Options`, seeded by the study's name and
    design seed so the same study resamples the same way; ``resamples`` overrides its own."""
    spec = study.judges
    return Options(
        aggregate=spec.aggregate,
        resamples=spec.resamples if resamples is None else resamples,
        confidence=spec.confidence,
        seed=stable_int(study.name, study.design.seed, "judges"),
        epsilon=spec.epsilon,
        min_alt_humans=spec.alt_min_humans,
    )


def _task_inputs(
    study: Study,
    task_name: str,
    fields: list[str],
    ratings: pd.DataFrame,
    judged: pd.DataFrame,
    records: dict[str, dict],
    tiers: dict[str, str],
) -> list[FieldInput]:
    """One task's :class:`FieldInput` per judged field: its ratings against its verdicts,
    with the groups, systems and slices the study's item keys give (a slice with one level
    is no slice)."""
    spec = study.judges
    task = study.tasks[task_name]
    humans = ratings[ratings["task"] == task_name].rename(
        columns={"item_id": "unit", "annotator_id": "rater"}
    )
    judges = judged.rename(columns={"item_id": "unit"})
    units = set(humans["unit"].astype(str).unique())

    def key_of(key: str) -> dict[str, object]:
        return {u: records.get(u, {}).get(key) for u in units}

    return field_inputs(
        humans[["unit", "rater", "field", "value"]],
        judges[["unit", "judge", "field", "value", "raw", "confidence"]],
        {f: _kind(task.fields[f]) for f in fields},
        labels={f: lab for f in fields if (lab := _labels(task.fields[f])) is not None},
        alpha_levels={f: task.fields[f].level for f in fields},
        groups=key_of(spec.group) if spec.group in task.item_keys else None,
        systems=key_of(spec.system) if spec.system in task.item_keys else None,
        slices=task_slices(study, task_name, units, records, tiers),
    )


def task_slices(
    study: Study,
    task_name: str,
    units: set[str],
    records: dict[str, dict],
    tiers: dict[str, str],
) -> dict[str, dict[str, object]]:
    """The slice keys of the study a task's items have (the study's ``slices`` that are item
    keys of the task, and ``tier``), each as unit -> level; a key with one level is no slice."""
    task = study.tasks[task_name]
    keys = [k for k in study.slices if k not in BUILTIN_SLICES or k == "tier"]
    slices = {
        key: {u: tiers.get(u) if key == "tier" else records.get(u, {}).get(key) for u in units}
        for key in keys
        if key == "tier" or key in task.item_keys
    }
    return {k: v for k, v in slices.items() if len({*map(str, v.values())}) > 1}


def _field_tables(
    study: Study,
    task_name: str,
    fi: FieldInput,
    opts: Options,
    consensus: pd.DataFrame,
    calibrated: pd.DataFrame | None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One field's calibration rows (resampled, or taken from ``calibrated``: the task's
    rows computed from the same inputs) and its judges' weights against the consensus."""
    if calibrated is None:
        calibration = calibrate_field(fi, opts).assign(task=task_name)
    else:
        own = (calibrated["task"] == task_name) & (calibrated["field"] == fi.field)
        calibration = calibrated[own]
    spec = study.judges
    values = _consensus_values(consensus, task_name, fi.field, fi.units, fi.kind)
    bounds = spec.bounds
    weights = judge_weights(fi, values, bounds.max_alpha_drop, bounds.min_agreement, spec.deweight)
    return calibration, weights.assign(task=task_name)


def calibrate_study(
    study: Study,
    ratings: pd.DataFrame,
    verdicts: pd.DataFrame,
    records: dict[str, dict],
    tiers: dict[str, str],
    consensus: pd.DataFrame,
    resamples: int | None = None,
    calibrated: pd.DataFrame | None = None,
    reused: Collection[str] | None = None,
) -> StudyCalibration:
    """Calibration and weights of every judge of ``study``.

    ``ratings`` are the ratings that count (``task, item_id, annotator_id, field, value``),
    ``verdicts`` the judges' rows (:data:`raterlab.judges.verdicts.VERDICT_COLUMNS`; of
    several runs, each verdict's first: :func:`raterlab.judges.verdicts.first_runs`),
    ``records`` item id -> unblinded record, ``tiers`` item id -> tier, ``consensus`` the
    study's ``gold.consensus`` rows. ``resamples`` overrides the study's ``judges.resamples``.
    ``calibrated``: the calibration rows already computed from exactly these inputs (all but
    the consensus), taken as they are instead of being resampled again: of every task, or of
    the tasks in ``reused`` (the others are resampled; each field draws from the same seed
    whatever else is computed, so a task's rows computed alone equal its rows computed with
    the whole study). The weights, which read the consensus, are always computed.
    """
    if study.judges is None or ratings.empty or verdicts.empty:
        return _empty_calibration()
    verdicts = first_runs(verdicts)
    if study.judges.calibrate_on:
        kept = calibration_items(
            study.judges.calibrate_on, set(ratings["item_id"].astype(str)), records, tiers
        )
        ratings = ratings[is_in(ratings["item_id"].astype(str), kept)]
        verdicts = verdicts[is_in(verdicts["item_id"].astype(str), kept)]
        if ratings.empty or verdicts.empty:
            return _empty_calibration()
    opts = _calibration_options(study, resamples)
    calibration, weights = [], []
    for task_name, task in study.tasks.items():
        judged = verdicts[verdicts["task"] == task_name]
        judged_fields = set(judged["field"].unique())
        fields = [f for f in task.rating_fields if f in judged_fields]
        if not fields:
            continue
        taken = calibrated if reused is None or task_name in reused else None
        for fi in _task_inputs(study, task_name, fields, ratings, judged, records, tiers):
            table, weight = _field_tables(study, task_name, fi, opts, consensus, taken)
            calibration.append(table)
            weights.append(weight)
    if not calibration:
        return _empty_calibration()
    return StudyCalibration(
        pd.concat(calibration, ignore_index=True)[list(CALIBRATION_COLUMNS)],
        pd.concat(weights, ignore_index=True)[list(WEIGHTS_COLUMNS)],
    )


def calibration_items(
    slice_name: str, items: set[str], records: dict[str, dict], tiers: dict[str, str]
) -> set[str]:
    """The items of ``items`` in the slice ``key=value`` the study calibrates on
    (``judges.calibrate_on``): ``tier`` reads the routed tier, any other key the item's
    record."""
    key, _, value = slice_name.partition("=")
    if key == "tier":
        return {u for u in items if str(tiers.get(u)) == value}
    return {u for u in items if str(records.get(u, {}).get(key)) == value}


def _consensus_values(
    consensus: pd.DataFrame, task: str, field: str, units: np.ndarray, kind: str
) -> np.ndarray:
    """The consensus value of each unit (NaN/None without one)."""
    rows = consensus[(consensus["task"] == task) & (consensus["field"] == field)]
    if kind == "graded":
        lookup = dict(zip(rows["item_id"].astype(str), rows["value_num"], strict=True))
        return np.array([lookup.get(u, np.nan) for u in units], dtype=float)
    lookup = dict(zip(rows["item_id"].astype(str), rows["value"], strict=True))
    return np.array([None if pd.isna(v := lookup.get(u)) else str(v) for u in units], dtype=object)


def study_verdicts(study: Study, generations: pd.DataFrame, imports: Path) -> pd.DataFrame:
    """Every verdict of the study's judges: hidden keys of ``generations`` and the judge
    files imported into ``imports``."""
    frames = [generation_verdicts(study, generations), imported_verdicts(imports)]
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=list(VERDICT_COLUMNS))
    return pd.concat(frames, ignore_index=True)


def task_inputs(
    study: Study, resamples: int | None, tables: StudyTables, verdicts: pd.DataFrame
) -> dict[str, str]:
    """Each task's calibration fingerprint, by the name it is recorded under
    (``judge_calibration/<task>``): the study, ``resamples`` and the task's ratings that
    count, verdicts, records and tiers: all its calibration rows read (not the consensus)."""
    generations = tables.generations[["task", "item_id", "record"]]
    tiers = tables.routed[["item_id", "tier"]]
    parts = {}
    for task in study.tasks:
        records = generations[generations["task"] == task][["item_id", "record"]]
        parts[f"{CALIBRATION_STEP}/{task}"] = fingerprint(
            study,
            str(resamples),
            task,
            tables.ratings[tables.ratings["task"] == task],
            verdicts[verdicts["task"] == task],
            records,
            tiers[is_in(tiers["item_id"], records["item_id"])],
        )
    return parts


def run_study(
    con: duckdb.DuckDBPyConnection, study: Study, home: Home, resamples: int | None = None
) -> tuple[StudyCalibration, Path | None]:
    """Calibrate ``study`` from the warehouse, write both gold tables and the plot
    ``reports/<study>/judge_calibration.png``; returns the result and the plot's path.

    The calibration (the bootstrap, most of the time) reads the study, the ratings that count,
    the verdicts, the items' records and tiers, not the consensus: when those are what the
    stored calibration was computed from (``raterlab.memo``), its rows are taken again and
    only the weights, which read the consensus, are computed (an adjudication round changes
    the consensus and not the ratings); otherwise only the tasks whose inputs changed
    (:func:`task_inputs`: a resubmission brings ratings of some tasks) are resampled. Before
    any rating counts, the verdicts are not read: the calibration is empty."""
    tables, keys = load_tables(con, study), record_keys(study)
    # no rating to calibrate on (packets just out): the calibration is empty whatever the
    # verdicts, so they are not gathered (every record decoded, every judge file read)
    verdicts = (
        study_verdicts(study, tables.decoded_generations(keys), judges_dir(home.root, study.name))
        if len(tables.ratings)
        else pd.DataFrame(columns=list(VERDICT_COLUMNS))
    )
    consensus = read_table(con, "gold.consensus", study.name)
    parts = task_inputs(study, resamples, tables, verdicts)
    inputs = fingerprint(study, *parts.values())
    previous, calibrated_at, reused = None, None, None
    if unchanged(con, study.name, CALIBRATION_STEP, inputs):
        previous = read_calibration(con, study.name).calibration
        calibrated_at = previous["computed_at"].iloc[0] if len(previous) else None
    else:
        reused = {
            name.split("/", 1)[1]
            for name, part in parts.items()
            if recorded(con, study.name, name) == part
        }
        previous = read_calibration(con, study.name).calibration if reused else None
    result = calibrate_study(
        study,
        tables.ratings,
        verdicts,
        tables.records(keys),
        tables.tiers(),
        consensus
        if consensus is not None
        else pd.DataFrame(columns=["task", "item_id", "field", "value", "value_num"]),
        resamples=resamples,
        calibrated=previous,
        reused=reused,
    )
    write_calibration(con, study.name, result, inputs, calibrated_at, parts)
    plot = calibration_plot(result.calibration, home.reports / study.name / PLOT_NAME)
    return result, plot
