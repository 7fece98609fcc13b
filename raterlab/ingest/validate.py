"""Validating one returned file: columns, every row rule, and checks across the file.

Problems are rows of one table (see :data:`ISSUE_COLUMNS`): file, row, column, rule, value,
message and severity (``error`` rejects, ``warning`` informs). Row numbers are the ones a
person finds in the spreadsheet (header = row 1) or the JSONL line. A value longer than
:data:`VALUE_CHARS` is shortened in its issue (the message says how long it was).

Every cell of every column, the free-text ones too, is checked for what no answer can be:
a spreadsheet's error value (``#VALUE!``, ``Err:509``: a formula that failed) and text
longer than :data:`~raterlab.design.instructions.MAX_CELL_CHARS` (:func:`cell_issues`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from raterlab.design.instructions import MAX_CELL_CHARS
from raterlab.design.packets import internal_names, packet_columns
from raterlab.ingest.cells import spreadsheet_error, text_frame
from raterlab.ingest.key import PACKET, SealedKey
from raterlab.ingest.labels import typed_names
from raterlab.ingest.read import (
    BLANK,
    FILLED_DOWN,
    NO_ERROR_TEXT,
    ROW,
    UnreadableFile,
    read_returned,
)
from raterlab.ingest.rules import Rule, task_rules
from raterlab.ingest.schema import failures, optional_columns, typed_failures
from raterlab.protocol import Study

ISSUE_COLUMNS = ("file", "row", "column", "rule", "value", "message", "severity")
VALUE_CHARS = 200
"""An issue shows at most this much of the value it is about."""


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


def cell_issues(frame: pd.DataFrame, file: str) -> pd.DataFrame:
    """Cells of any column that no answer can be: a spreadsheet's error value (rule
    ``spreadsheet_error``) or a text longer than :data:`MAX_CELL_CHARS` (``too_long``).
    Only columns that may hold one are searched: a column's longest cell is measured on its
    Arrow array, and a file whose text has no ``#`` nor ``Err:`` has no error value
    (:data:`raterlab.ingest.read.NO_ERROR_TEXT`), so a million-row file costs milliseconds."""
    columns = [c for c in frame.columns if c != ROW]
    long = [c for c in columns if _may_be_longer(frame[c], MAX_CELL_CHARS)]
    erring = [] if frame.attrs.get(NO_ERROR_TEXT) else columns
    if not long and not erring:
        return _empty()
    data = text_frame(frame, [c for c in columns if c in long or c in erring])
    checks = {
        "spreadsheet_error": {c: spreadsheet_error(c) for c in erring},
        "too_long": {c: pl.col(c).str.len_chars() > MAX_CELL_CHARS for c in long},
    }
    every = [test for tests in checks.values() for test in tests.values()]
    flagged = data.select(pl.any_horizontal(every).alias("_any"))["_any"]
    if not flagged.any():
        return _empty()
    rows = frame[ROW].to_numpy()[flagged.to_numpy()]
    data = data.filter(flagged)
    parts = []
    for rule, tests in checks.items():
        for column, test in tests.items():
            at = data.select(test.alias("_hit"))["_hit"].to_numpy()
            if not at.any():
                continue
            values = data[column].to_numpy()[at]
            if rule == "spreadsheet_error":
                message = (
                    "a spreadsheet error, not an answer (a formula that failed): type the "
                    "value itself"
                )
            else:
                message = [
                    f"a cell holds at most {MAX_CELL_CHARS:,} characters; this one has {len(v):,}"
                    for v in values
                ]
            parts.append(issue_rows(file, rows[at], column, rule, values, message))
    return pd.concat(parts, ignore_index=True)


def _may_be_longer(values: pd.Series, limit: int) -> bool:
    """Whether a text column may hold a cell longer than ``limit`` characters: its longest
    cell in UTF-8 bytes (at least its characters), read off an Arrow array's offsets (1 ms
    per million cells) where the column has one."""
    if hasattr(values.array, "__arrow_array__"):
        longest = pc.max(pc.binary_length(pa.array(values.array))).as_py()
        return longest is not None and longest > limit
    return bool((values.astype(str).str.len() > limit).any())


def _shortened(issues: pd.DataFrame) -> pd.DataFrame:
    """``issues`` with values longer than :data:`VALUE_CHARS` shortened (a 60-million
    character cell is not copied into every report and the warehouse)."""
    values = issues["value"].astype(str)
    long = values.str.len() > VALUE_CHARS
    if not long.any():
        return issues
    short = values[long].map(lambda v: f"{v[:VALUE_CHARS]}… ({len(v):,} characters)")
    return issues.assign(value=values.mask(long, short))


def filled_down_issue(frame: pd.DataFrame, file: str) -> pd.DataFrame:
    """A warning for the filled-down tail the reader dropped
    (:func:`raterlab.ingest.read.drop_filled_down`), if it dropped one."""
    dropped = frame.attrs.get(FILLED_DOWN)
    if not dropped:
        return _empty()
    first, last = dropped["rows"]
    values = ", ".join(f"{c} = {v}" for c, v in dropped["values"].items())
    issue = file_issue(
        file,
        "filled_down",
        f"rows {first} to {last} ({dropped['count']:,} rows) have no item and repeat the same "
        f"values ({values}): not answers, so they were dropped (a column filled down past "
        "the last item?)",
        next(iter(dropped["values"])),
        str(dropped["count"]),
    )
    return issue.assign(severity="warning")


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


def _issues(
    names: pd.api.extensions.ExtensionArray,
    found: pl.DataFrame,
    column: str,
    rule: str,
    message: str | pl.Expr,
    value: str,
) -> pd.DataFrame:
    """Issues for the rows of ``found`` (a frame with :data:`ROW` and ``_file``, the index of
    each row's file in ``names``): ``value`` names the column holding each row's value;
    ``message`` is text or an expression per row. ``_file`` is kept, to split by file."""
    if found.is_empty():
        return _empty()
    if not isinstance(message, str):
        message = found.select(message).to_series().to_numpy()
    at = found["_file"].to_numpy()
    issues = issue_rows(
        names[at], found[ROW].to_numpy(), column, rule, found[value].to_numpy(), message
    )
    return issues.assign(_file=at)


def _incomplete(
    key: SealedKey,
    known: pl.DataFrame,
    names: pd.api.extensions.ExtensionArray,
    bounds: np.ndarray,
) -> pd.DataFrame:
    """A warning per file that leaves out assigned rows of the packets it answers (those of
    its own annotator), with the first five missing tokens."""
    positions = known["_pos"].to_numpy()
    answered = known.filter(~pl.col("_foreign")).select("_file", *PACKET).unique()
    packets: dict[int, list[tuple]] = {}
    for n, *packet in answered.sort("_file", *PACKET).iter_rows():
        packets.setdefault(n, []).append(tuple(packet))
    parts = []
    returned = np.zeros(len(key), dtype=bool)  # the key rows the file at hand returned
    for n, listed in packets.items():
        expected = key.packet_rows(pl.DataFrame(listed, schema=list(PACKET), orient="row"))
        own = positions[bounds[n] : bounds[n + 1]]
        returned[own] = True
        missing = expected[~returned[expected]]
        returned[own] = False
        if len(missing):
            issue = issue_rows(
                names[n],
                [pd.NA],
                "item",
                "incomplete",
                [f"{len(missing)} of {len(expected)}"],
                f"incomplete return: {len(missing)} assigned row(s) are missing, e.g. "
                + ", ".join(key.rows["token"].take(missing[:5]).to_pylist()),
                severity="warning",
            )
            parts.append(issue.assign(_file=n))
    return pd.concat(parts, ignore_index=True) if parts else _empty()


def cross_checks(
    frames: list[pd.DataFrame], key: SealedKey, task: str, files: list[str]
) -> list[tuple[pd.DataFrame, pd.DataFrame]]:
    """Checks across each file (``frames``, named ``files``, all of ``task``) against the
    sealed key.

    Each token must be an item of this study's packets (else it was altered or belongs
    elsewhere), of this task, appear once in its file, carry the annotator id it was assigned
    to, and come from the packets of the file's annotator (the one most of its rows belong
    to; of several, the first by name). Assigned rows of the packets a file answers that are
    missing make the return incomplete (a warning). Returns, per file, the issues and the
    rows joined to the key.

    All the files' tokens are found in the key by one hash join (:class:`SealedKey`) and
    checked together, by file: checked one by one, the fixed cost of each Polars step made
    this about 8 ms per file.
    """
    names = pd.array(files, dtype="str")
    sizes = np.array([len(f) for f in frames], dtype=np.int64)

    def column(name: str) -> pl.Series:
        # Arrow-backed text goes over without Python strings (a million-row file's tokens)
        return pl.concat([pl.Series(name, f[name]) for f in frames]).cast(pl.String)

    rows = pl.DataFrame(
        {
            ROW: np.concatenate([f[ROW].to_numpy(dtype=np.int64) for f in frames]),
            "token": column("item"),
            "given": column("annotator_id"),
            "_file": np.repeat(np.arange(len(frames)), sizes),
        },
        schema={ROW: pl.Int64, "token": pl.String, "given": pl.String, "_file": pl.Int64},
    ).with_columns(pl.col("token", "given").str.strip_chars())
    matched = rows.with_columns(key.find(rows["token"]))
    unknown = matched.filter(pl.col("_pos").is_null())
    known = matched.filter(pl.col("_pos").is_not_null())
    known = pl.concat([known, key.columns(list(PACKET), known["_pos"])], how="horizontal")
    known = known.with_columns(
        _owner=pl.col("annotator_id").mode().sort().first().over("_file")
    ).with_columns(_foreign=pl.col("annotator_id") != pl.col("_owner"))
    picked = ("_file", ROW, "token")
    # a file and a key row as one integer: hashed far faster than a struct of the two
    seen = pl.col("_file").cast(pl.UInt64) * len(key) + pl.col("_pos").cast(pl.UInt64)
    duplicates = pl.concat(
        [
            known.filter(~seen.is_first_distinct()).select(*picked)
            if known.select(seen.n_unique()).item() < len(known)  # 3x faster when none
            else known.clear().select(*picked),
            unknown.filter(~pl.struct("_file", "token").is_first_distinct()).select(*picked),
        ]
    ).sort("_file", ROW)
    bounds = np.searchsorted(known["_file"].to_numpy(), np.arange(len(frames) + 1))
    parts = [
        _issues(
            names,
            unknown,
            "item",
            "unknown_item",
            "this item id is not in any packet of the study; was it changed?",
            "token",
        ),
        _issues(
            names,
            known.filter(pl.col("task") != task),
            "item",
            "wrong_task",
            f"this item belongs to another task's file, not {task}",
            "token",
        ),
        _issues(
            names,
            known.filter(pl.col("annotator_id") != pl.col("given")),
            "annotator_id",
            "not_assigned",
            pl.format("this item was assigned to {}, not to this annotator", "annotator_id"),
            "given",
        ),
        _issues(
            names,
            known.filter("_foreign"),
            "annotator_id",
            "other_packet",
            pl.format(
                "this row is from {}'s packet; a file returns one annotator's packets "
                "(this one is {}'s) and never changes another annotator's ratings",
                "annotator_id",
                "_owner",
            ),
            "annotator_id",
        ),
        _issues(
            names,
            duplicates,
            "item",
            "duplicate_item",
            "this item appears more than once in the file",
            "token",
        ),
        _incomplete(key, known, names, bounds),
    ]
    by_file = _by_file([p for p in parts if not p.empty])
    joined = key.take(known["_pos"]).append_column(ROW, known[ROW].to_arrow())
    joined = joined.to_pandas(types_mapper=pd.ArrowDtype)
    return [
        (
            by_file.get(n, _EMPTY),
            joined.iloc[bounds[n] : bounds[n + 1]].reset_index(drop=True),
        )
        for n in range(len(frames))
    ]


def _by_file(parts: list[pd.DataFrame]) -> dict[int, pd.DataFrame]:
    """Issues with ``_file`` split by file, each file's in the order of ``parts`` (rule
    order), then row order."""
    if not parts:
        return {}
    issues = pd.concat(parts, ignore_index=True)
    order = np.argsort(issues["_file"].to_numpy(), kind="stable")
    issues = issues.iloc[order]
    return {
        n: group.drop(columns="_file").reset_index(drop=True)
        for n, group in issues.groupby("_file", sort=False)
    }


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
    columns = _column_issues(study, task, frame, file)
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
        return Validation(file, study.name, task, frame, _empty(), joined)
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
    cells = {n: _cell_and_tail_issues(*frames[n]) for n in readable}
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
        validation.issues = _shortened(validation.issues)
    return [done[n] for n in range(len(frames))]


def _cell_and_tail_issues(frame: pd.DataFrame, file: str) -> pd.DataFrame:
    """:func:`cell_issues` and :func:`filled_down_issue` of a file read."""
    parts = [p for p in (filled_down_issue(frame, file), cell_issues(frame, file)) if not p.empty]
    return pd.concat(parts, ignore_index=True) if parts else _empty()


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
