"""Validating returned files: columns, every row rule, the checks across each file against
the sealed key, and the study's edge cases, as rows of the issue table
(:mod:`raterlab.ingest.issues`).

Every cell of every column, the free-text ones too, is checked for what no answer can be
(:mod:`raterlab.ingest.cell_checks`); the tokens against the sealed key by
:mod:`raterlab.ingest.key_checks`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from raterlab.design.packets import internal_names, packet_columns
from raterlab.ingest.cell_checks import cell_and_tail_issues
from raterlab.ingest.context import Context
from raterlab.ingest.issues import concat_issues, file_issue, issue_rows, no_issues, shortened
from raterlab.ingest.key import SealedKey
from raterlab.ingest.key_checks import cross_checks
from raterlab.ingest.labels import WideLabels, typed_names
from raterlab.ingest.read import BLANK, ROW, UnreadableFile, read_returned
from raterlab.ingest.row_checks import failures, optional_columns, typed_failures
from raterlab.ingest.rules import Rule, task_rules
from raterlab.protocol import Study


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
    typed: pl.DataFrame | None = None
    """The typed cells of :attr:`frame`'s rows that its validation made, if it did, for
    unblinding (:func:`raterlab.ingest.labels.labels_of`), which takes them: ``returned_labels``
    sets this to ``None`` when it hands them over, so that a million rows' typed cells are
    not kept through the write."""
    lean: WideLabels | None = None
    """The file's labels, still in DuckDB, when it was read and found clean there
    (:mod:`raterlab.ingest.lean`): :attr:`frame` is then ``None``."""

    @property
    def n_rows(self) -> int:
        """The file's rows (those read)."""
        if self.lean is not None:
            return self.lean.rows
        return 0 if self.frame is None else len(self.frame)

    @property
    def errors(self) -> pd.DataFrame:
        return self.issues[self.issues["severity"] == "error"]

    @property
    def warnings(self) -> pd.DataFrame:
        return self.issues[self.issues["severity"] == "warning"]

    @property
    def ok(self) -> bool:
        return self.errors.empty


def column_issues(study: Study, task: str, frame: pd.DataFrame, file: str) -> pd.DataFrame:
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
    return concat_issues(parts)


def rule_issues(
    study: Study, task: str, frame: pd.DataFrame, file: str, rules: list[Rule] | None = None
) -> pd.DataFrame:
    """Every row rule of ``task`` (or ``rules``) on ``frame`` (text cells with :data:`ROW`),
    run by the task's Pandera schema (:func:`raterlab.ingest.row_checks.failures`): one issue per
    failing row and rule, in rule order."""
    rules = task_rules(study, task) if rules is None else rules
    found = failures(frame, rules, f"{study.name}.{task}", optional_columns(study))
    return _rule_issues(found, frame[ROW].to_numpy(), file)


def _rule_issues(found: pd.DataFrame, rows: np.ndarray, file: str) -> pd.DataFrame:
    """:func:`raterlab.ingest.row_checks.failures` as issues of ``file``, whose row numbers by
    position are ``rows``."""
    if found.empty:
        return no_issues()
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
) -> list[tuple[pd.DataFrame, pl.DataFrame]]:
    """:func:`rule_issues` of several files of one task with the same columns, by one Pandera
    validation of all their rows (its cost per validation, about 1 ms per rule, is paid
    once, not per file); with each file's typed cells, those unblinding reads among them
    (:func:`raterlab.ingest.labels.typed_names`), which are then not parsed again."""
    kept = typed_names(study, task)
    found, typed = typed_failures(
        frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True),
        task_rules(study, task),
        f"{study.name}.{task}",
        optional_columns(study),
        also=kept,
    )
    typed = typed.select(c for c in typed.columns if c in kept)
    starts = np.cumsum([0, *(len(f) for f in frames)])
    at = found["position"]
    out = []
    for frame, file, start, end in zip(frames, files, starts[:-1], starts[1:], strict=True):
        mine = found[at.isna() | ((at >= start) & (at < end))]
        mine = mine.assign(position=mine["position"] - start)
        cells = typed.slice(start, end - start)
        out.append((_rule_issues(mine, frame[ROW].to_numpy(), file), cells))
    return out


def edge_case_warnings(
    study: Study, task: str, frame: pd.DataFrame, joined: pd.DataFrame, context: Context, file: str
) -> pd.DataFrame:
    """The study's mechanically checkable guide rules, as warnings (never rejections)."""
    if joined.empty:
        return no_issues()
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
    return concat_issues(parts)


def _pick_tasks(study: Study, frames: list[pd.DataFrame], key: SealedKey) -> list[str | None]:
    """Each file's task: the task whose packets its tokens come from (the most frequent among
    its first 1,000 known tokens; of several, the first by name), all files' tokens found by
    one search; by columns where no token is known."""
    item = study.packet.item_column
    heads = {n: f[item].head(1000) for n, f in enumerate(frames) if item in f}
    tasks: dict[int, str] = {}
    if heads:
        sample = pl.DataFrame(
            {
                "_file": np.repeat(list(heads), [len(h) for h in heads.values()]),
                "token": np.concatenate(
                    [h.str.strip().to_numpy(dtype=object) for h in heads.values()]
                ),
            },
            schema={"_file": pl.Int64, "token": pl.String},
        )
        found = sample.with_columns(key.find(sample["token"])).drop_nulls("_pos")
        votes = (
            found.with_columns(task=key.columns(["task"], found["_pos"])["task"])
            .group_by("_file", "task")
            .len()
            .sort(["_file", "len", "task"], descending=[False, True, False])
            .unique("_file", keep="first")
        )
        tasks = dict(zip(votes["_file"].to_list(), votes["task"].to_list(), strict=True))
    return [tasks.get(n) or _task_by_columns(study, f) for n, f in enumerate(frames)]


def _task_by_columns(study: Study, frame: pd.DataFrame) -> str | None:
    """The task of a file none of whose tokens is known: the only task, or the one task whose
    template columns the file has."""
    if len(study.tasks) == 1:  # the only task: its column check says what is wrong
        return next(iter(study.tasks))
    columns = set(frame.columns)
    fitting = [t for t in study.tasks if set(packet_columns(study, t)) <= columns]
    return fitting[0] if len(fitting) == 1 else None


def _prepare(
    study: Study, frame: pd.DataFrame, task: str | None, file: str
) -> Validation | pd.DataFrame:
    """The file's cells under internal names; or, when its task cannot be told or the
    columns are not the template's, the file's (final) validation."""
    if task is None:
        issue = file_issue(
            file,
            "unknown_task",
            "cannot tell which task this file answers: no known "
            "item ids and the columns match no single task's template",
        )
        return Validation(file, study.name, None, frame, issue)
    columns = column_issues(study, task, frame, file)
    if not columns.empty:
        return Validation(file, study.name, task, frame, columns)
    return frame.rename(columns=internal_names(study))


def _finish(
    study: Study,
    task: str,
    frame: pd.DataFrame,
    checked: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame],
    context: Context,
    file: str,
) -> Validation:
    """The validation of a file from its row rules' issues, the checks across the file and
    the rows joined to the key (``checked``), with the edge cases."""
    rows, across, joined = checked
    edges = edge_case_warnings(study, task, frame, joined, context, file)
    parts = [p for p in (rows, across, edges) if not p.empty]
    if not parts:
        return Validation(file, study.name, task, frame, no_issues(), joined)
    issues = pd.concat(parts, ignore_index=True)
    public = {internal: name for name, internal in internal_names(study).items()}
    issues["column"] = issues["column"].replace(public)
    return Validation(file, study.name, task, frame, issues, joined)


def validate_frames(
    study: Study, frames: list[tuple[pd.DataFrame | Validation, str]], context: Context
) -> list[Validation]:
    """Validate text cells already read (``(frame, file)``; a frame may already be its
    file's final validation, such as an unreadable file's) against the study and its sealed
    key. The files of one task and the same columns are checked together: their row rules in
    one Pandera validation (about 1 ms per rule, paid once, not per file) and their tokens
    in one search of the key (:func:`cross_checks`); each file gets exactly the validation
    it gets alone."""
    done: dict[int, Validation] = {
        n: f for n, (f, _) in enumerate(frames) if isinstance(f, Validation)
    }
    readable = [n for n in range(len(frames)) if n not in done]
    cells = {n: cell_and_tail_issues(*frames[n]) for n in readable}
    tasks = _pick_tasks(study, [frames[n][0] for n in readable], context.key)
    groups: dict[tuple, list[tuple[int, str, pd.DataFrame]]] = {}
    for n, task in zip(readable, tasks, strict=True):
        frame, file = frames[n]
        prepared = _prepare(study, frame, task, file)
        if isinstance(prepared, Validation):
            done[n] = prepared
            continue
        groups.setdefault((task, tuple(prepared.columns)), []).append((n, file, prepared))
    for (task, _), members in groups.items():
        group = [frame for _, _, frame in members]
        names = [file for _, file, _ in members]
        rows = _batch_rule_issues(study, task, group, names)
        across = cross_checks(group, context.key, task, names)
        for (n, file, frame), (found, typed), (issues, joined) in zip(
            members, rows, across, strict=True
        ):
            checked = (found, issues, joined)
            done[n] = replace(_finish(study, task, frame, checked, context, file), typed=typed)
    for n, issues in cells.items():
        if not issues.empty:
            done[n].issues = pd.concat([issues, done[n].issues], ignore_index=True)
    for validation in done.values():
        validation.issues = shortened(validation.issues)
    return [done[n] for n in range(len(frames))]


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
    return validate_files(study, [(path, file or path.name)], context)[0]


def validate_files(
    study: Study, files: list[tuple[Path, str]], context: Context
) -> list[Validation]:
    """:func:`validate_frames` of the files ``(path, name)`` read."""
    return validate_frames(
        study, [(_read(study, path, file), file) for path, file in files], context
    )
