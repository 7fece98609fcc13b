"""Agreement updated task by task: a round that brings ratings of some tasks recomputes
those tasks' rows and keeps the others'.

Every row of ``gold.agreement``, ``gold.agreement_pairwise`` and ``gold.agreement_matrices``
is computed from one task's ratings (a field's, or a task's fields pooled), on slices of them,
and each bootstrap draws with the same fixed seed whatever else is computed, so a task's rows
computed alone equal its rows computed with the whole study (tested). A task's inputs are
fingerprinted (:func:`task_inputs`: the study and the task's counted ratings); the tasks whose
fingerprint differs from the one recorded with the stored rows are computed again
(:func:`update_tables`), and the study's thresholds are judged again on the whole table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pandas as pd

from raterlab import memo
from raterlab.agreement.study import agreement_tables, threshold_results
from raterlab.protocol import Study

TASK_TABLES = ("gold.agreement", "gold.agreement_pairwise", "gold.agreement_matrices")
"""The tables whose rows each belong to one task (column ``task``)."""


def task_inputs(study: Study, rows: pd.DataFrame, step: str) -> dict[str, str]:
    """Each task's fingerprint (the study and the task's counted ratings, ``rows``), by the
    name it is recorded under in ``staging.step_inputs`` (``<step>/<task>``)."""
    return {
        f"{step}/{task}": memo.fingerprint(
            study, task, rows[rows["task"] == task].reset_index(drop=True)
        )
        for task in study.tasks
    }


def changed_tasks(inputs: Mapping[str, str], recorded: Mapping[str, str | None]) -> list[str]:
    """The tasks whose fingerprint (:func:`task_inputs`) differs from the one ``recorded``
    with the stored rows."""
    return [name.split("/", 1)[1] for name, value in inputs.items() if recorded[name] != value]


def agreement_update(
    study: Study,
    rows: pd.DataFrame,
    changed: list[str],
    stored: Callable[[], Mapping[str, pd.DataFrame]],
) -> dict[str, pd.DataFrame]:
    """The agreement tables for ``rows``: every task computed when all ``changed``, else
    only the ``changed`` ones, the others taken from ``stored()`` (:func:`update_tables`)."""
    if len(changed) == len(study.tasks):
        return agreement_tables(study, rows)
    return update_tables(study, rows, stored(), set(changed))


def update_tables(
    study: Study,
    rows: pd.DataFrame,
    stored: Mapping[str, pd.DataFrame],
    changed: set[str],
) -> dict[str, pd.DataFrame]:
    """:func:`raterlab.agreement.study.agreement_tables` for ``rows``, computing only the
    ``changed`` tasks and taking the other tasks' rows from ``stored`` (the study's current
    rows of :data:`TASK_TABLES`, as read from the warehouse); the thresholds are judged on the
    whole new ``gold.agreement``."""
    some = study.model_copy(update={"tasks": {t: study.tasks[t] for t in changed}})
    fresh = agreement_tables(some, rows[rows["task"].isin(list(changed))])
    out = {}
    for table in TASK_TABLES:
        kept = stored[table]
        kept = kept[~kept["task"].isin(list(changed))][list(fresh[table].columns)]
        parts = [part for part in (kept, fresh[table]) if len(part)]
        out[table] = (
            pd.concat(parts, ignore_index=True) if parts else fresh[table].reset_index(drop=True)
        )
    out["staging.agreement_thresholds"] = threshold_results(study, out["gold.agreement"])
    return out
