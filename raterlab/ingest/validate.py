"""Validating one returned file: columns, every row rule, and checks across the file.

Problems are rows of one table (see :data:`ISSUE_COLUMNS`): file, row, column, rule, value,
message and severity (``error`` rejects, ``warning`` informs). Row numbers are the ones a
person finds in the spreadsheet (header = row 1) or the JSONL line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from raterlab.design.packets import internal_names, packet_columns
from raterlab.ingest.key import PACKET, SealedKey
from raterlab.ingest.read import BLANK, ROW, UnreadableFile, read_returned
from raterlab.ingest.rules import Rule, task_rules
from raterlab.ingest.schema import failures, optional_columns
from raterlab.protocol import Study

ISSUE_COLUMNS = ("file", "row", "column", "rule", "value", "message", "severity")


@dataclass
class Validation:
    """The outcome of validating one file (nothing written anywhere)."""

    file: str
    study: str
    task: str | None
    frame: pd.DataFrame | None
    issues: pd.DataFrame
    rows: pd.DataFrame = field(default_factory=pd.DataFrame)
    """The file's rows joined to the sealed key (item_id, kind, batch...), for unblinding."""

    @property
    def errors(self) -> pd.DataFrame:
        return self.issues[self.issues["severity"] == "error"]

    @property
    def warnings(self) -> pd.DataFrame:
        return self.issues[self.issues["severity"] == "warning"]

    @property
    def ok(self) -> bool:
        return self.errors.empty


def issue_rows(file: str, rows, column, rule, values, message, severity="error") -> pd.DataFrame:
    rows = np.atleast_1d(rows)
    return pd.DataFrame(
        {
            "file": file,
            "row": pd.array(rows, dtype="Int64"),
            "column": column,
            "rule": rule,
            "value": np.atleast_1d(values).astype(str) if len(rows) else [],
            "message": message,
            "severity": severity,
        }
    )


def file_issue(
    file: str, rule: str, message: str, column: str = "", value: str = ""
) -> pd.DataFrame:
    return issue_rows(file, [pd.NA], column, rule, [value], message)


_EMPTY = pd.DataFrame(columns=list(ISSUE_COLUMNS))


def _empty() -> pd.DataFrame:
    return _EMPTY.copy()


def _pick_task(study: Study, frame: pd.DataFrame, key: SealedKey) -> str | None:
    """The task whose packets the file's tokens come from (the most frequent among its first
    1,000 known tokens); by columns if no token is known."""
    item = study.packet.item_column
    if item in frame:
        sample = pl.Series("token", frame[item].head(1000).str.strip().to_numpy(), pl.String)
        found = key.find(sample).drop_nulls()
        if len(found):
            return key.rows["task"].gather(found).mode().sort().first()
    if len(study.tasks) == 1:  # the only task: its column check says what is wrong
        return next(iter(study.tasks))
    columns = set(frame.columns)
    fitting = [t for t in study.tasks if set(packet_columns(study, t)) <= columns]
    return fitting[0] if len(fitting) == 1 else None


def _column_issues(study: Study, task: str, frame: pd.DataFrame, file: str) -> pd.DataFrame:
    """Columns against the task's template, by the names the packet gave them; an optional
    time column may be added."""
    expected = packet_columns(study, task)
    allowed = [*expected, study.packet.time_column]
    present = [c for c in frame.columns if c != ROW]
    parts = [
        file_issue(file, "missing_column", f"column {c} is missing (the template has it)", c)
        for c in expected
        if c not in present
    ]
    for c in present:
        if c in allowed:
            continue
        if c.startswith(BLANK):
            message = f"{c} has values but no header"
        else:
            message = f"column {c} is not in the template for task {task}"
        parts.append(file_issue(file, "unknown_column", message, c))
    return pd.concat(parts, ignore_index=True) if parts else _empty()


def rule_issues(
    study: Study, task: str, frame: pd.DataFrame, file: str, rules: list[Rule] | None = None
) -> pd.DataFrame:
    """Every row rule of ``task`` (or ``rules``) on ``frame`` (text cells with :data:`ROW`),
    run by the task's Pandera schema (:func:`raterlab.ingest.schema.failures`): one issue per
    failing row and rule, in rule order."""
    rules = task_rules(study, task) if rules is None else rules
    found = failures(frame, rules, f"{study.name}.{task}", optional_columns(study))
    return _rule_issues(found, frame[ROW].to_numpy(), file)


def _rule_issues(found: pd.DataFrame, rows: np.ndarray, file: str) -> pd.DataFrame:
    """:func:`raterlab.ingest.schema.failures` as issues of ``file``, whose row numbers by
    position are ``rows``."""
    if found.empty:
        return _empty()
    at = found["position"]
    numbers = pd.array(rows[at.fillna(0).to_numpy(dtype=np.int64)], dtype="Int64")
    numbers[at.isna().to_numpy()] = pd.NA
    return pd.DataFrame(
        {
            "file": file,
            "row": numbers,
            "column": found["column"].to_numpy(),
            "rule": found["rule"].to_numpy(),
            "value": found["value"].to_numpy(),
            "message": found["message"].to_numpy(),
            "severity": "error",
        }
    )


def _batch_rule_issues(
    study: Study, task: str, frames: list[pd.DataFrame], files: list[str]
) -> list[pd.DataFrame]:
    """:func:`rule_issues` of several files of one task with the same columns, by one Pandera
    validation of all their rows (its cost per validation, about 1 ms per rule, is paid
    once, not per file)."""
    found = failures(
        pd.concat(frames, ignore_index=True),
        task_rules(study, task),
        f"{study.name}.{task}",
        optional_columns(study),
    )
    starts = np.cumsum([0, *(len(f) for f in frames)])
    at = found["position"]
    out = []
    for frame, file, start, end in zip(frames, files, starts[:-1], starts[1:], strict=True):
        mine = found[at.isna() | ((at >= start) & (at < end))]
        mine = mine.assign(position=mine["position"] - start)
        out.append(_rule_issues(mine, frame[ROW].to_numpy(), file))
    return out


def _issues(
    file: str, found: pl.DataFrame, column: str, rule: str, message: str | pl.Expr, value: str
) -> pd.DataFrame:
    """Issues for the rows of ``found`` (a frame with :data:`ROW`): ``value`` names the
    column holding each row's value; ``message`` is text or an expression per row."""
    if found.is_empty():
        return _empty()
    if not isinstance(message, str):
        message = found.select(message).to_series().to_numpy()
    return issue_rows(file, found[ROW].to_numpy(), column, rule, found[value].to_numpy(), message)


def cross_check(
    frame: pd.DataFrame, key: SealedKey, task: str, file: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Checks across the file against the sealed key.

    Each token must be an item of this study's packets (else it was altered or belongs
    elsewhere), of this task, appear once, carry the annotator id it was assigned to, and
    come from the packets of the file's annotator (the one most of its rows belong to).
    Assigned rows of the packets the file answers that are missing make the return
    incomplete (a warning). Returns the issues and the rows joined to the key.

    The file's tokens are found in the key by binary search (:class:`SealedKey`); the other
    checks work on the key's row positions.
    """
    rows = pl.DataFrame(
        {ROW: frame[ROW].to_numpy(), "token": frame["item"], "given": frame["annotator_id"]}
    ).with_columns(pl.col("token", "given").str.strip_chars())
    matched = rows.with_columns(key.find(rows["token"]))
    unknown = matched.filter(pl.col("_pos").is_null())
    known = matched.filter(pl.col("_pos").is_not_null())
    known = pl.concat([known, key.rows.gather(known["_pos"]).drop("token")], how="horizontal")
    duplicates = pl.concat(
        [
            known.filter(~pl.col("_pos").is_first_distinct()).select(ROW, "token"),
            unknown.filter(~pl.col("token").is_first_distinct()).select(ROW, "token"),
        ]
    ).sort(ROW)
    owners = known["annotator_id"]
    owner = owners.mode().sort().first() if len(owners) else None
    known = known.with_columns(_foreign=pl.col("annotator_id") != pl.lit(owner))
    parts = [
        _issues(
            file,
            unknown,
            "item",
            "unknown_item",
            "this item id is not in any packet of the study; was it changed?",
            "token",
        ),
        _issues(
            file,
            known.filter(pl.col("task") != task),
            "item",
            "wrong_task",
            f"this item belongs to another task's file, not {task}",
            "token",
        ),
        _issues(
            file,
            known.filter(pl.col("annotator_id") != pl.col("given")),
            "annotator_id",
            "not_assigned",
            pl.format("this item was assigned to {}, not to this annotator", "annotator_id"),
            "given",
        ),
        _issues(
            file,
            known.filter("_foreign"),
            "annotator_id",
            "other_packet",
            pl.format(
                "this row is from {}'s packet; a file returns one annotator's packets "
                f"(this one is {owner}'s) and never changes another annotator's ratings",
                "annotator_id",
            ),
            "annotator_id",
        ),
        _issues(
            file,
            duplicates,
            "item",
            "duplicate_item",
            "this item appears more than once in the file",
            "token",
        ),
    ]
    expected = key.packet_rows(known.filter(~pl.col("_foreign")).select(PACKET).unique())
    returned = np.zeros(len(key), dtype=bool)
    returned[known["_pos"].to_numpy()] = True
    missing = expected[~returned[expected]]
    if len(missing):
        parts.append(
            issue_rows(
                file,
                [pd.NA],
                "item",
                "incomplete",
                [f"{len(missing)} of {len(expected)}"],
                f"incomplete return: {len(missing)} assigned row(s) are missing, e.g. "
                + ", ".join(key.rows["token"].gather(missing[:5])),
                severity="warning",
            )
        )
    parts = [p for p in parts if not p.empty]
    issues = pd.concat(parts, ignore_index=True) if parts else _empty()
    joined = known.select(*key.rows.columns, ROW).to_pandas()
    return issues, joined


def edge_case_warnings(
    study: Study, task: str, frame: pd.DataFrame, joined: pd.DataFrame, context: Context, file: str
) -> pd.DataFrame:
    """The study's mechanically checkable guide rules, as warnings (never rejections)."""
    if joined.empty:
        return _empty()
    parts, by_row = [], None
    for case, matching in zip(study.edge_cases, context.edge_items, strict=True):
        if case.task != task or not matching:
            continue
        hits = joined[joined["item_id"].isin(list(matching)).to_numpy()]
        if hits.empty:
            continue
        by_row = frame.set_index(ROW) if by_row is None else by_row
        for name, want in case.expect.items():
            values = by_row.loc[hits[ROW], name].str.strip()
            wrong = values[pd.to_numeric(values, errors="coerce") != want]
            if len(wrong):
                parts.append(
                    issue_rows(
                        file,
                        wrong.index.to_numpy(),
                        name,
                        "edge_case",
                        wrong.to_numpy(),
                        f"{case.message} (expected {name} = {want})",
                        severity="warning",
                    )
                )
    return pd.concat(parts, ignore_index=True) if parts else _empty()


@dataclass(frozen=True)
class Context:
    """What checking a study's files needs from the warehouse, read once per run: the sealed
    key, indexed, and for each of the study's edge cases (in order) the items its condition
    matches."""

    key: SealedKey
    edge_items: tuple[frozenset[str], ...]

    @classmethod
    def of(cls, study: Study, key: SealedKey, records: dict) -> Context:
        """``records``: each item's record, by item id (only read for the edge cases)."""
        return cls(
            key,
            tuple(
                frozenset(i for i, r in records.items() if case.when.matches(r))
                for case in study.edge_cases
            ),
        )


def _prepare(
    study: Study, frame: pd.DataFrame, context: Context, file: str
) -> Validation | tuple[str, pd.DataFrame]:
    """The file's task and its cells under internal names; or, when the task cannot be told
    or the columns are not the template's, the file's (final) validation."""
    task = _pick_task(study, frame, context.key)
    if task is None:
        issue = file_issue(
            file,
            "unknown_task",
            "cannot tell which task this file answers: no known "
            "item ids and the columns match no single task's template",
        )
        return Validation(file, study.name, None, frame, issue)
    columns = _column_issues(study, task, frame, file)
    if not columns.empty:
        return Validation(file, study.name, task, frame, columns)
    return task, frame.rename(columns=internal_names(study))


def _finish(
    study: Study, task: str, frame: pd.DataFrame, rows: pd.DataFrame, context: Context, file: str
) -> Validation:
    """The validation of a file whose row rules gave ``rows``: with the checks across the
    file and the edge cases."""
    across, joined = cross_check(frame, context.key, task, file)
    edges = edge_case_warnings(study, task, frame, joined, context, file)
    parts = [p for p in (rows, across, edges) if not p.empty]
    issues = pd.concat(parts, ignore_index=True) if parts else _empty()
    public = {internal: name for name, internal in internal_names(study).items()}
    issues["column"] = issues["column"].replace(public)
    return Validation(file, study.name, task, frame, issues, joined)


def validate_frame(study: Study, frame: pd.DataFrame, context: Context, file: str) -> Validation:
    """Validate text cells already read from ``file`` against the study and its sealed key."""
    prepared = _prepare(study, frame, context, file)
    if isinstance(prepared, Validation):
        return prepared
    task, frame = prepared
    return _finish(study, task, frame, rule_issues(study, task, frame, file), context, file)


def _read(study: Study, path: Path, file: str) -> pd.DataFrame | Validation:
    """The file's text cells; an unreadable file is its (final) validation, one error."""
    try:
        return read_returned(path)
    except UnreadableFile as exc:
        return Validation(file, study.name, None, None, file_issue(file, exc.rule, exc.reason))


def validate_file(
    study: Study, path: Path, context: Context, file: str | None = None
) -> Validation:
    """Read and validate one returned file (reported as ``file``, default its name); an
    unreadable file is one error, not an exception."""
    file = file or path.name
    frame = _read(study, path, file)
    return frame if isinstance(frame, Validation) else validate_frame(study, frame, context, file)


def validate_files(
    study: Study, files: list[tuple[Path, str]], context: Context
) -> list[Validation]:
    """:func:`validate_file` of each ``(path, name)``, with the row rules of all the files of
    one task and the same columns run in one Pandera validation."""
    done: dict[int, Validation] = {}
    groups: dict[tuple, list[tuple[int, str, pd.DataFrame]]] = {}
    for n, (path, file) in enumerate(files):
        frame = _read(study, path, file)
        prepared = frame if isinstance(frame, Validation) else _prepare(study, frame, context, file)
        if isinstance(prepared, Validation):
            done[n] = prepared
            continue
        task, frame = prepared
        groups.setdefault((task, tuple(frame.columns)), []).append((n, file, frame))
    for (task, _), members in groups.items():
        frames = [frame for _, _, frame in members]
        names = [file for _, file, _ in members]
        rows = _batch_rule_issues(study, task, frames, names)
        for (n, file, frame), found in zip(members, rows, strict=True):
            done[n] = _finish(study, task, frame, found, context, file)
    return [done[n] for n in range(len(files))]
