"""``gold.judge_substitution`` of a study: per task, judge, rating field (and label) and slice,
the human mean or rate over every item the judge scored, by prediction-powered inference
(:func:`raterlab.judges.substitution.substitution_table`).

The labelled items are those with ratings that count, within ``judges.calibrate_on`` when
the study names a slice (``tier=GOLD`` in ``gold_tiers``: humans on tier-B); every other item
the judge gave a readable verdict is unlabelled, whether or not some human rated it. PPI's
interval assumes the labelled items are a random sample of the items: a labelled set chosen
by routing rules (as tier-B is) is not, and the estimate then carries that selection's bias.
Slices are the study's ``slices`` that are item keys, plus ``tier`` (a slice with one level
is no slice); the aggregate and the interval's coverage are ``judges.aggregate`` and
``judges.confidence``.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab.ingest.study_tables import load_tables
from raterlab.judges.study import calibration_items, study_verdicts
from raterlab.judges.substitution import COLUMNS, substitution_table
from raterlab.judges.verdicts import first_runs, judges_dir, record_keys
from raterlab.membership import is_in
from raterlab.protocol import BinaryField, LikertField, Study, Task
from raterlab.protocol.study import BUILTIN_SLICES
from raterlab.settings import Home

TABLE = "gold.judge_substitution"
SUBSTITUTION_COLUMNS = ("task", *COLUMNS)


def _kind(spec: object) -> str:
    if isinstance(spec, LikertField):
        return "graded"
    return "binary" if isinstance(spec, BinaryField) else "categorical"


def _labels(spec: object) -> list[str] | None:
    if isinstance(spec, BinaryField):
        return ["0", "1"]
    return None if isinstance(spec, LikertField) else [str(label) for label in spec.labels]


def _slices(
    study: Study, task: Task, units: set[str], records: dict[str, dict], tiers: dict[str, str]
) -> dict[str, dict[str, object]]:
    """Slice key -> unit -> level, for the study's slices that are item keys of the task and
    ``tier``, each with more than one level among ``units``."""
    out = {}
    for key in study.slices:
        if key == "tier":
            mapping = {u: tiers.get(u) for u in units}
        elif key not in BUILTIN_SLICES and key in task.item_keys:
            mapping = {u: records.get(u, {}).get(key) for u in units}
        else:
            continue
        if len({str(v) for v in mapping.values()}) > 1:
            out[key] = mapping
    return out


def study_substitution(
    study: Study,
    ratings: pd.DataFrame,
    verdicts: pd.DataFrame,
    records: dict[str, dict],
    tiers: dict[str, str],
) -> pd.DataFrame:
    """:data:`SUBSTITUTION_COLUMNS` of every judge of ``study`` (see the module docstring):
    ``ratings`` the ratings that count (``task, item_id, annotator_id, field, value``),
    ``verdicts`` the judges' rows (:data:`raterlab.judges.verdicts.VERDICT_COLUMNS`),
    ``records`` item id -> record, ``tiers`` item id -> tier."""
    empty = pd.DataFrame(columns=list(SUBSTITUTION_COLUMNS))
    if study.judges is None or ratings.empty or verdicts.empty:
        return empty
    if study.judges.calibrate_on:
        kept = calibration_items(
            study.judges.calibrate_on, set(ratings["item_id"].astype(str)), records, tiers
        )
        ratings = ratings[is_in(ratings["item_id"].astype(str), kept)]
    tables = []
    for task_name, task in study.tasks.items():
        judged = verdicts[verdicts["task"] == task_name]
        fields = [f for f in task.rating_fields if f in set(judged["field"])]
        if not fields:
            continue
        humans = ratings[ratings["task"] == task_name].rename(
            columns={"item_id": "unit", "annotator_id": "rater"}
        )
        units = set(judged["item_id"].astype(str))
        table = substitution_table(
            humans[["unit", "rater", "field", "value"]],
            judged.rename(columns={"item_id": "unit"})[["unit", "judge", "field", "value"]],
            {f: _kind(task.fields[f]) for f in fields},
            labels={f: lab for f in fields if (lab := _labels(task.fields[f])) is not None},
            aggregate=study.judges.aggregate,
            confidence=study.judges.confidence,
            slices=_slices(study, task, units, records, tiers),
        )
        tables.append(table.assign(task=task_name))
    if not tables:
        return empty
    return pd.concat(tables, ignore_index=True)[list(SUBSTITUTION_COLUMNS)]


def run_substitution(con: duckdb.DuckDBPyConnection, study: Study, home: Home) -> pd.DataFrame:
    """``study``'s :func:`study_substitution` from the warehouse (ratings that count, the
    generations' and imported verdicts (each verdict's first run), records, tiers), stamped
    ``computed_at``; the caller writes it. Before any rating counts, the verdicts are not
    read: the table is empty."""
    tables, keys = load_tables(con, study), record_keys(study)
    if tables.ratings.empty:  # empty whatever the verdicts: they are not gathered
        table = pd.DataFrame(columns=list(SUBSTITUTION_COLUMNS))
    else:
        verdicts = first_runs(
            study_verdicts(
                study, tables.decoded_generations(keys), judges_dir(home.root, study.name)
            )
        )
        table = study_substitution(
            study, tables.ratings, verdicts, tables.records(keys), tables.tiers()
        )
    table = table.astype({"label": object})
    return table.assign(
        label=table["label"].where(table["label"].notna(), None),
        computed_at=pd.Timestamp.now(tz="UTC"),
    )
