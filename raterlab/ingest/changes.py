"""A study file edited after ratings came in, checked against the stored ratings.

Packets go out, ratings come back, and then someone edits the study: narrows a scale, renames
a field, drops one. The stored ratings were valid under the old rules; the new file must say
what becomes of them, never leave them silently wrong or silently gone:

- A field (or task) the stored ratings have and the study no longer has is refused
  (:class:`~raterlab.errors.StudyChanged`, naming each with its count of ratings), unless the
  task maps it: ``renamed: {old: new}``. A mapped field's stored values are renamed in
  ``gold.rating_values`` (the history keeps the name they were given under).
- A stored value the new rules reject (a 5 after ``max: 4``, a label no longer offered) is
  listed in ``staging.held_ratings``, with the rule and its message, and is held out of the
  ratings that count (:func:`raterlab.ingest.study_tables.counting_ratings`) until a newer
  return replaces it, or the rules take it back. The rules are the ingest's own
  (:func:`raterlab.ingest.rules.task_rules`, those of one cell: type, range, allowed values),
  checked once per distinct stored value.

:func:`follow_study` applies this (at ingest and when the design reads the study);
:func:`study_change` says what it would do, writing nothing (``raterlab study check``).
Ratings that come in are validated by the rules of the study as it is, so only a change of
the study's tasks can make stored ratings wrong: :func:`follow_study` reads the stored
ratings again only when the tasks differ from those it last checked them against (recorded
with :mod:`raterlab.memo`; reading a million ratings' fields costs about 0.3 s, which an
ingest would otherwise pay every time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import duckdb
import numpy as np
import pandas as pd

from raterlab import memo, warehouse
from raterlab.errors import StudyChanged
from raterlab.ingest.read import ROW
from raterlab.ingest.row_checks import failures
from raterlab.ingest.rules import task_rules
from raterlab.protocol import PairwiseField, Study
from raterlab.protocol.pairwise import stored_as_answer
from raterlab.tables import ddl
from raterlab.tables.ingest import HELD_RATINGS

STEP = "study_change"
"""The step under which :func:`follow_study` records the tasks it checked against."""

DOMAIN_RULES = ("type", "range", "allowed_values")
"""The rules of one cell's value alone: what a stored value is checked against."""

VALUE_KEY = ["task", "field", "value"]


def stored_fields(con: duckdb.DuckDBPyConnection, study: str) -> pd.DataFrame:
    """The (task, field) pairs of ``study``'s current ratings, with how many ratings each
    has (``n``); empty before the first ratings."""
    if not warehouse.table_exists(con, "gold.rating_values"):
        return pd.DataFrame(columns=["task", "field", "n"])
    return con.execute(
        """SELECT r.task, v.field, count(*) AS n FROM gold.ratings r
           JOIN gold.rating_values v USING (study, rating_id)
           WHERE r.study = ? GROUP BY ALL ORDER BY ALL""",
        [study],
    ).df()


def unmapped(study: Study, stored: pd.DataFrame) -> list[str]:
    """``task.field (n ratings)`` for each stored field the study neither has nor renames."""
    gone = []
    for task, name, n in stored[["task", "field", "n"]].itertuples(index=False):
        spec = study.tasks.get(task)
        if spec is None or (name not in spec.fields and name not in spec.renamed):
            gone.append(f"{task}.{name} ({n} rating(s))")
    return gone


def renames(study: Study, stored: pd.DataFrame) -> list[tuple[str, str, str, int]]:
    """(task, old, new, n) for each stored field a task's ``renamed`` maps."""
    return [
        (task, name, study.tasks[task].renamed[name], int(n))
        for task, name, n in stored[["task", "field", "n"]].itertuples(index=False)
        if task in study.tasks and name in study.tasks[task].renamed
    ]


def refuse_unmapped(study: Study, stored: pd.DataFrame) -> None:
    """Raise :class:`~raterlab.errors.StudyChanged` naming the stored fields the study
    dropped without a ``renamed`` entry."""
    gone = unmapped(study, stored)
    if gone:
        raise StudyChanged(
            f"study {study.name}: stored ratings have field(s) the study file no longer has: "
            f"{', '.join(gone)}. Put them back, or say what each became under its task "
            "(renamed: {old: new}); nothing was written"
        )


_REJECTED: dict[tuple[str, str], pd.DataFrame] = {}
""":func:`rejected_values`' answers by the study's and the distinct values' SHA-256: every
reader of the counting ratings asks, with the same few distinct values per field."""
_REJECTED_KEPT = 64


def rejected_values(study: Study, values: pd.DataFrame) -> pd.DataFrame:
    """The distinct (task, field, value) of ``values`` that the study's rules of one cell
    reject, with ``rule`` and ``message`` (one row per value and rule). Values of fields the
    study does not have are not looked at (see :func:`unmapped`). The answer for the same
    study and distinct values is computed once per process (a copy is returned)."""
    distinct = values[VALUE_KEY].drop_duplicates()
    key = (
        memo.fingerprint(study),
        memo.fingerprint(distinct.astype(str).reset_index(drop=True)),
    )
    if key not in _REJECTED:
        if len(_REJECTED) >= _REJECTED_KEPT:
            _REJECTED.pop(next(iter(_REJECTED)))
        _REJECTED[key] = _rejected(study, distinct)
    return _REJECTED[key].copy()


def _rejected(study: Study, distinct: pd.DataFrame) -> pd.DataFrame:
    found = []
    for (task, name), group in distinct.groupby(["task", "field"], sort=True):
        if task not in study.tasks or name not in study.tasks[task].fields:
            continue
        rules = [r for r in task_rules(study, task) if r.column == name and r.name in DOMAIN_RULES]
        if not rules:
            continue
        stored = group["value"].astype(str).to_numpy()
        checked = stored
        if isinstance(study.tasks[task].fields[name], PairwiseField):  # stored canonically
            checked = np.array([stored_as_answer(v) for v in stored], dtype=object)
        cells = pd.DataFrame({name: checked, ROW: range(len(group))})
        broken = failures(cells, rules, f"{study.name}.{task}")
        if len(broken):
            at = broken["position"].to_numpy(dtype=int)
            found.append(
                pd.DataFrame(
                    {
                        "task": task,
                        "field": name,
                        "value": stored[at],
                        "rule": broken["rule"].to_numpy(),
                        "message": broken["message"].to_numpy(),
                    }
                )
            )
    if not found:
        return pd.DataFrame(columns=[*VALUE_KEY, "rule", "message"])
    return pd.concat(found, ignore_index=True)


def held_out(study: Study, ratings: pd.DataFrame) -> pd.Series:
    """Whether each rating row (``task``, ``field``, ``value``) holds a value the study's
    rules reject: held out of the ratings that count until it is replaced."""
    rejected = rejected_values(study, ratings)
    if rejected.empty:
        return pd.Series(False, index=ratings.index)
    keys = pd.MultiIndex.from_frame(ratings[VALUE_KEY].astype(str))
    return pd.Series(keys.isin(pd.MultiIndex.from_frame(rejected[VALUE_KEY])), ratings.index)


def held_ratings(
    con: duckdb.DuckDBPyConnection,
    study: Study,
    pending: Sequence[tuple[str, str, str, int]] = (),
) -> pd.DataFrame:
    """The stored ratings whose values the study's rules reject, one row per rating, field
    and rule broken (the columns of ``staging.held_ratings`` but ``study`` and
    ``checked_at``). ``pending``: renames not applied yet (:func:`renames`), whose fields
    are judged and listed under their new names."""
    columns = [c.name for c in HELD_RATINGS.columns if c.name not in ("study", "checked_at")]
    if not warehouse.table_exists(con, "gold.rating_values"):
        return pd.DataFrame(columns=columns)
    values = con.execute(
        """SELECT DISTINCT r.task, v.field AS stored, v.value FROM gold.ratings r
           JOIN gold.rating_values v USING (study, rating_id) WHERE r.study = ?""",
        [study.name],
    ).df()
    new_name = {(task, old): new for task, old, new, _ in pending}
    values["field"] = [
        new_name.get(key, key[1]) for key in zip(values["task"], values["stored"], strict=True)
    ]
    rejected = rejected_values(study, values)
    if rejected.empty:
        return pd.DataFrame(columns=columns)
    rejected = rejected.merge(values[["task", "field", "stored", "value"]], on=VALUE_KEY)
    con.register("_rejected", rejected)
    try:
        return con.execute(
            """SELECT r.rating_id, r.task, r.item_id, r.annotator_id, r.batch, r."copy",
                      x.field, v.value, x.rule, x.message
               FROM gold.ratings r JOIN gold.rating_values v USING (study, rating_id)
               JOIN _rejected x ON x.task = r.task AND x.stored = v.field AND x.value = v.value
               WHERE r.study = ? ORDER BY r.task, x.field, r.item_id, r.annotator_id""",
            [study.name],
        ).df()
    finally:
        con.unregister("_rejected")


@dataclass
class StudyChange:
    """What the study file, as it is now, does to the stored ratings."""

    renamed: list[tuple[str, str, str, int]] = field(default_factory=list)
    """(task, old field, new field, ratings) for each rename applied (or to apply)."""
    held: pd.DataFrame = field(default_factory=pd.DataFrame)
    """The stored ratings the rules now reject (:func:`held_ratings`)."""

    def lines(self) -> list[str]:
        """What a person reads: each rename, and the held values counted per field, value
        and rule."""
        out = [f"{t}.{old} renamed to {new}: {n} rating(s)" for t, old, new, n in self.renamed]
        if len(self.held):
            counts = self.held.groupby(["task", "field", "value", "rule"], sort=True).size()
            out += [
                f"{t}.{f} = {v!r} breaks {r} under the new rules: {n} rating(s) held out of "
                "consensus until replaced"
                for (t, f, v, r), n in counts.items()
            ]
        return out


def study_change(con: duckdb.DuckDBPyConnection, study: Study) -> StudyChange:
    """What :func:`follow_study` would do, writing nothing: raises
    :class:`~raterlab.errors.StudyChanged` for a dropped field; the renames to apply and
    the values the rules reject (those of a renamed field judged under its new name)."""
    stored = stored_fields(con, study.name)
    refuse_unmapped(study, stored)
    pending = renames(study, stored)
    return StudyChange(pending, held_ratings(con, study, pending))


def _tasks(study: Study) -> str:
    """Fingerprint of the study's tasks (what decides which stored ratings are valid)."""
    parts = [part for name in sorted(study.tasks) for part in (name, study.tasks[name])]
    return memo.fingerprint(*parts)


def release_replaced(con: duckdb.DuckDBPyConnection, study: str) -> pd.DataFrame:
    """The study's rows of ``staging.held_ratings`` still current: a held rating that a
    newer return replaced (its id is no longer in ``gold.ratings``) is deleted first (the
    newer rating met the rules as they are)."""
    if not warehouse.table_exists(con, HELD_RATINGS.name):
        return pd.DataFrame()
    held = con.execute(
        f"SELECT * EXCLUDE (study, checked_at) FROM {HELD_RATINGS.name} WHERE study = ?",
        [study],
    ).df()
    if held.empty:
        return held
    current = con.execute(
        "SELECT rating_id FROM gold.ratings WHERE study = ? AND list_contains(?, rating_id)",
        [study, sorted(set(held["rating_id"].astype(int).tolist()))],
    ).fetchall()
    replaced = set(held["rating_id"]) - {r for (r,) in current}
    if replaced:
        con.execute(
            f"DELETE FROM {HELD_RATINGS.name} WHERE study = ? AND list_contains(?, rating_id)",
            [study, sorted(int(r) for r in replaced)],
        )
    return held[~held["rating_id"].isin(replaced)].reset_index(drop=True)


def follow_study(con: duckdb.DuckDBPyConnection, study: Study) -> StudyChange:
    """Bring the stored ratings in line with the study file before anything else is
    written: refuse a dropped field (:class:`~raterlab.errors.StudyChanged`, nothing
    written), rename the fields ``renamed`` maps, and replace the study's rows of
    ``staging.held_ratings`` with the values the rules now reject, in one transaction.
    When the study's tasks are those last checked, only held ratings replaced since are
    dropped from the table. Call it outside any transaction."""
    ddl.ensure(con, HELD_RATINGS)
    checked = _tasks(study)
    if not warehouse.table_exists(con, "gold.ratings"):
        return StudyChange()
    if memo.unchanged(con, study.name, STEP, checked):
        return StudyChange([], release_replaced(con, study.name))
    stored = stored_fields(con, study.name)
    refuse_unmapped(study, stored)
    applied = renames(study, stored)
    with warehouse.transaction(con):
        for task, old, new, _ in applied:
            con.execute(
                """UPDATE gold.rating_values v SET field = $new WHERE v.study = $study
                   AND v.field = $old AND v.rating_id IN (SELECT rating_id FROM gold.ratings
                   WHERE study = $study AND task = $task)""",
                {"study": study.name, "task": task, "old": old, "new": new},
            )
        held = held_ratings(con, study)
        con.execute(f"DELETE FROM {HELD_RATINGS.name} WHERE study = ?", [study.name])
        if len(held):
            rows = held.assign(study=study.name, checked_at=datetime.now(UTC))
            con.register("_held", rows)
            try:
                con.execute(f"INSERT INTO {HELD_RATINGS.name} BY NAME SELECT * FROM _held")
            finally:
                con.unregister("_held")
        memo.remember(con, study.name, STEP, checked)
    return StudyChange(applied, held)
