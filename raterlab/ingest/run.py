"""Ingesting one returned file end to end: archive, read, validate, then either quarantine
with a report or unblind and apply its ratings, in one transaction. Many files
(:func:`commit_all`) share a transaction where that gives the outcome of one by one. Also
the dry run (:func:`preview`, ``raterlab validate``), which says exactly what the ingest
would do.

The inbox's files are recorded in ``staging.inbox`` (by content hash) when they are archived,
so each step of the asset chain reads what the step before left in the warehouse and can be
run again alone: a file is pending until ``staging.ingests`` holds its outcome.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pandas as pd

from raterlab import warehouse
from raterlab.ingest import changes, ratings, store
from raterlab.ingest.key import SealedKey
from raterlab.ingest.labels import Labels, labels_of
from raterlab.ingest.read import LINK_SUFFIX, ROW, refused_link
from raterlab.ingest.report import capped, report_dict, report_folder, write_report
from raterlab.ingest.validate import (
    Context,
    Validation,
    file_issue,
    validate_file,
    validate_files,
)
from raterlab.protocol import Study
from raterlab.settings import Home

INBOX_TABLE = "staging.inbox"
INBOX_DDL = {
    "study": "VARCHAR",
    "sha256": "VARCHAR",
    "file": "VARCHAR",
    "archived_path": "VARCHAR",
    "received_at": "TIMESTAMPTZ",
    "version_at": "TIMESTAMPTZ",
    "modified_at": "TIMESTAMPTZ",
}
"""Files archived from an inbox, waiting for (or past) their ingest."""


class NoPackets(RuntimeError):
    """Returned files cannot be read before the study's packets (and sealed key) exist."""


@dataclass
class IngestResult:
    file: str
    sha256: str
    status: str
    """``accepted``, ``rejected``, or ``unchanged`` (this exact content was ingested before)."""
    validation: Validation | None = None
    n_labels: int = 0
    report: Path | None = None
    superseded: list[str] = field(default_factory=list)
    changes: dict[str, int] = field(default_factory=dict)
    """Ratings per change (``new``, ``replaced``, ``unchanged``, ``older``); see
    :mod:`raterlab.ingest.ratings`."""

    @property
    def n_errors(self) -> int:
        return 0 if self.validation is None else len(self.validation.errors)

    @property
    def n_warnings(self) -> int:
        return 0 if self.validation is None else len(self.validation.warnings)


KEY_COLUMNS = "token, annotator_id, round, batch, task, item_id, kind, copy"
"""What validation and unblinding read of the sealed key."""


def study_context(con: duckdb.DuckDBPyConnection, study: Study) -> Context:
    """What validating the study's files needs, read once: the sealed key, indexed, and the
    items each of the study's edge cases matches."""
    key = (
        con.sql(
            f"SELECT {KEY_COLUMNS} FROM staging.blinding_key WHERE study = $study",
            params={"study": study.name},
        )
        .to_arrow_table()
        .combine_chunks()
        if warehouse.table_exists(con, "staging.blinding_key")
        else None
    )
    if key is None or key.num_rows == 0:
        raise NoPackets(
            f"no packets have been issued for study {study.name!r}: run the annotation job first"
        )
    records = {}
    if study.edge_cases:
        generations = warehouse.decode_json(
            warehouse.read_study_rows(con, "raw.generations", study.name, "item_id, record"),
            ("record",),
        )
        records = dict(zip(generations["item_id"], generations["record"], strict=True))
    return Context.of(study, SealedKey(key), records)


def accepted_rows(study: Study, validation: Validation) -> pd.DataFrame | None:
    """The rows to write: all of them, the valid ones (if the study allows), or none."""
    if validation.ok:
        return validation.rows
    errors = validation.errors
    if not study.ingest.accept_valid_rows or validation.task is None or errors["row"].isna().any():
        return None
    rows = validation.rows[~validation.rows[ROW].isin(errors["row"].dropna().astype(int))]
    return rows if len(rows) else None


@dataclass
class Received:
    """A returned file, archived under its content hash before anything parses it."""

    file: str
    sha256: str
    archived: Path
    received_at: datetime
    version_at: datetime
    """The version of every rating it holds (:func:`raterlab.ingest.ratings.file_version`)."""
    modified_at: datetime | None = None
    """The file's modification time as found (``None``: not recorded)."""

    @property
    def stem(self) -> str:
        return Path(self.file).stem


def received_now(path: Path, sha256: str, archived: Path) -> Received:
    """``path`` (content ``sha256``, copied to ``archived``) received now, its version its
    modification time capped at now."""
    now = datetime.now(UTC)
    modified = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    return Received(path.name, sha256, archived, now, ratings.file_version(modified, now), modified)


def receive(study: Study, path: Path, home: Home) -> Received:
    """Archive ``path`` by content hash, noting its version (:func:`received_now`). A
    symbolic link out of the home is not followed: a note saying so is archived instead
    (:func:`raterlab.ingest.read.refused_link`), and the reader refuses it."""
    path = Path(path)
    note = refused_link(path, home.root)
    if note is not None:
        sha = hashlib.sha256(note).hexdigest()
        folder = home.archive / study.name
        return received_now(path, sha, store.archive_bytes(note, folder, sha + LINK_SUFFIX))
    sha = store.sha256_of(path)
    return received_now(path, sha, store.archive(path, home.archive / study.name, sha))


def version_issues(received: Received) -> pd.DataFrame:
    """A warning when the file's modification time was later than its arrival, so its
    version is its arrival time (none otherwise)."""
    if received.modified_at is None or received.modified_at <= received.version_at:
        return pd.DataFrame()
    issue = file_issue(
        received.file,
        "future_version",
        f"the file's modification time ({received.modified_at:%Y-%m-%d %H:%M:%S} UTC) is "
        f"later than its arrival: its version is its arrival time "
        f"({received.version_at:%Y-%m-%d %H:%M:%S} UTC), so a later correction still wins "
        "(a wrong clock, or timestamps kept from a zip)",
        value=received.modified_at.isoformat(),
    )
    return issue.assign(severity="warning")


def add_version_issues(received: Received, validation: Validation) -> None:
    """Add :func:`version_issues` to the file's validation issues (what its report says)."""
    extra = version_issues(received)
    if not extra.empty:
        validation.issues = pd.concat([validation.issues, extra], ignore_index=True)


def source_of(received: Received) -> dict:
    """The provenance columns of the ratings a file gives."""
    return {
        "source_file": received.file,
        "source_sha256": received.sha256,
        "ingested_at": received.received_at,
    }


Validated = tuple[Received, Validation]
"""A received file and its validation."""


def returned_labels(study: Study, files: list[Validated]) -> list[Labels | None]:
    """The labels of validated returned files (``None``: reject the file), those of one task
    made together (:func:`raterlab.ingest.labels.labels_of`)."""
    by_task: dict[str, list[tuple[int, tuple]]] = {}
    for n, (received, validation) in enumerate(files):
        rows = accepted_rows(study, validation)
        if rows is not None:
            part = (validation.frame, rows, source_of(received), validation.typed)
            validation.typed = None  # handed over: not kept through the write
            by_task.setdefault(validation.task, []).append((n, part))
    done: dict[int, Labels] = {}
    for task, members in by_task.items():
        made = labels_of(study, task, [part for _, part in members])
        done.update((n, labels) for (n, _), labels in zip(members, made, strict=True))
    return [done.get(n) for n in range(len(files))]


LabelsFrom = Callable[[Study, list[Validated]], "list[Labels | None]"]
"""How a front end turns validated files into the labels to apply (``None``: reject the
file)."""


def file_row(study: Study, received: Received) -> dict:
    """The file's row of ``raw.returned_files``."""
    return {
        "study": study.name,
        "sha256": received.sha256,
        "file": received.file,
        "archived_path": str(received.archived),
        "size_bytes": received.archived.stat().st_size,
        "received_at": received.received_at,
        "version_at": received.version_at,
        "modified_at": received.modified_at,
    }


def file_report(
    home: Home, study: str, received: Received, status: str, issues: pd.DataFrame, kind: str = ""
) -> Path | None:
    """A rejected file is copied to ``quarantine/<study>/[<kind>/]<name>__<hash>/`` (the name
    shortened: :func:`~raterlab.ingest.report.report_folder`) with its report; an accepted
    file with warnings gets its report under ``reports/ingest/``.
    Returns the report's path (``None``: nothing to report)."""
    if status != "rejected" and issues.empty:
        return None
    base = home.quarantine if status == "rejected" else home.reports / "ingest"
    folder = base / study / kind / report_folder(received.file, received.sha256)
    if status == "rejected":
        store.quarantine(received.archived, folder, received.file)
    report = report_dict(received.file, study, received.sha256, status, issues)
    return write_report(folder, report, issues)["markdown"]


def validate_received(
    study: Study,
    received: Received,
    con: duckdb.DuckDBPyConnection,
    context: Context | None = None,
) -> Validation:
    """Validate the archived copy, reporting under the file's own name. ``context`` is
    :func:`study_context`, read here if not given: a caller validating many files reads it
    once (it holds every token of the study, so reading it per file would cost files x
    items)."""
    return validate_file(
        study, received.archived, context or study_context(con, study), received.file
    )


@dataclass
class Preview:
    """What ingesting a file would do: ``status`` (``accepted``, ``rejected``, ``unchanged``)
    and, if accepted, the count of its ratings per change."""

    status: str
    validation: Validation | None
    changes: dict[str, int]


def preview(study: Study, path: Path, con: duckdb.DuckDBPyConnection) -> Preview:
    """The dry run of :func:`ingest_file`: validates and compares with the warehouse, writes
    nothing (``raterlab validate``)."""
    path = Path(path)
    sha = store.sha256_of(path)
    if store.known_outcome(con, study.name, sha) is not None:
        return Preview("unchanged", None, {})
    received = received_now(path, sha, path)
    validation = validate_received(study, received, con)
    add_version_issues(received, validation)
    labels = returned_labels(study, [(received, validation)])[0]
    if labels is None:
        return Preview("rejected", validation, {})
    planned = ratings.plan(
        con, study.name, [ratings.Return(labels, received.version_at, received.received_at)]
    )
    changes = ratings.count_changes(planned)
    return Preview("accepted", validation, changes)


@dataclass
class _Prepared:
    """A validated file made ready to commit: its labels (``None``: rejected), report and
    ledger entry."""

    received: Received
    validation: Validation
    labels: Labels | None
    report: Path | None
    entry: store.Entry


def _prepare(
    study: Study, received: Received, validation: Validation, labels: Labels | None, home: Home
) -> _Prepared:
    """A validated file with its labels (``None``: rejected), its report written (outside
    any transaction); its issues recorded at most so many per rule
    (:func:`~raterlab.ingest.report.capped`), its counts of every issue."""
    status = "rejected" if labels is None else "accepted"
    add_version_issues(received, validation)
    report_path = file_report(home, study.name, received, status, validation.issues)
    packets = [] if labels is None else sorted("/".join(p) for p in labels.packets())
    n_errors = int((validation.issues["severity"] == "error").sum())
    outcome = {
        "file": received.file,
        "task": validation.task,
        "status": status,
        "n_rows": 0 if validation.frame is None else len(validation.frame),
        "n_labels": 0,
        "n_errors": n_errors,
        "n_warnings": len(validation.issues) - n_errors,
        "packets": packets,
        "report": None if report_path is None else str(report_path),
        "ingested_at": received.received_at,
        "superseded_by": None,
    }
    entry = store.Entry(file_row(study, received), outcome, capped(validation.issues))
    return _Prepared(received, validation, labels, report_path, entry)


def _commit_group(
    study: Study, group: list[_Prepared], con: duckdb.DuckDBPyConnection
) -> list[IngestResult]:
    """Commit ``group`` (files of one shape, no rating in two of them) in one transaction,
    with the outcome of committing them one by one in their order."""
    superseded: dict[str, list[str]] = {}

    def apply(con: duckdb.DuckDBPyConnection, fresh: list[int]) -> dict[int, dict]:
        accepted = [n for n in fresh if group[n].labels is not None]
        if not accepted:
            return {}
        returns = [
            ratings.Return(
                group[n].labels, group[n].received.version_at, group[n].received.received_at
            )
            for n in accepted
        ]
        changes = ratings.apply_returns(con, study.name, returns)
        replacing = [
            group[n].received.sha256
            for n, c in zip(accepted, changes, strict=True)
            if c["replaced"]
        ]
        if replacing:
            superseded.update(ratings.mark_superseded(con, study.name, replacing))
        return {
            n: {f"n_{c}": k for c, k in counts.items() if c != "labels"}
            | {"n_labels": counts["labels"]}
            for n, counts in zip(accepted, changes, strict=True)
        }

    done = store.commit_files(con, store.RETURNS, [p.entry for p in group], apply)
    results = []
    for prepared, outcome in zip(group, done, strict=True):
        received = prepared.received
        if outcome is None:
            results.append(IngestResult(received.file, received.sha256, "unchanged"))
            continue
        status = outcome["status"]
        changes = {c: int(outcome.get(f"n_{c}") or 0) for c in ratings.CHANGES}
        results.append(
            IngestResult(
                received.file,
                received.sha256,
                status,
                prepared.validation,
                int(outcome["n_labels"]),
                prepared.report,
                superseded.get(received.sha256, []),
                changes if status == "accepted" else {},
            )
        )
    return results


GROUP_FILES = 256
GROUP_RATINGS = 100_000
"""A group committed in one transaction holds at most this many files and ratings (a file
with more ratings shares its transaction with no other accepted file)."""


@dataclass
class _Group:
    """Files to commit in one transaction: of one shape (task and fields; rejected files fit
    any), and no rating in two of them, so that each meets, in the one plan, what it would
    meet after the files before it."""

    files: list[_Prepared] = field(default_factory=list)
    shape: tuple | None = None
    keys: set[tuple] = field(default_factory=set)
    n_ratings: int = 0

    @staticmethod
    def _keys(labels: Labels) -> set[tuple]:
        return set(zip(*(labels.table[c].to_pylist() for c in ratings.RATING_KEY), strict=True))

    def fits(self, file: _Prepared) -> bool:
        if len(self.files) >= GROUP_FILES:
            return False
        if file.labels is None:
            return True
        shape = (file.validation.task, *file.labels.fields)
        if self.shape is not None and shape != self.shape:
            return False
        if self.n_ratings + len(file.labels.table) > GROUP_RATINGS:
            return False
        return self.keys.isdisjoint(self._keys(file.labels))

    def add(self, file: _Prepared) -> None:
        """Add ``file`` (the keys of its ratings are kept only while the group may grow)."""
        self.files.append(file)
        if file.labels is not None:
            self.shape = (file.validation.task, *file.labels.fields)
            self.n_ratings += len(file.labels.table)
            if self.n_ratings <= GROUP_RATINGS:
                self.keys |= self._keys(file.labels)


def commit_all(
    study: Study,
    validated: Iterable[Validated],
    home: Home,
    con: duckdb.DuckDBPyConnection,
    labels_from: LabelsFrom = returned_labels,
) -> list[IngestResult]:
    """:func:`commit` of each validated file, with the same outcome as one by one in their
    order: files of one task and fields, none of whose ratings is in another, are committed
    in one transaction (one plan and one insert for all; see
    :func:`raterlab.ingest.ratings.apply_returns`). Files of different tasks never meet each
    other's ratings, so each task's files are grouped apart, in their order (a study's
    returns alternate between its tasks' templates); only the order in which rating ids are
    handed out differs from one by one. If a group's transaction fails, its files are
    committed again one per transaction, so a bad file never rolls back good ones. Results
    come in the order of the files. Labels are made for :data:`GROUP_FILES` files at a time
    (``labels_from``). First the stored ratings are brought in line with the study file
    (:func:`raterlab.ingest.changes.follow_study`: a dropped field refuses the whole ingest),
    and held ratings the files replaced are released after."""
    store.ensure_tables(con)
    changes.follow_study(con, study)
    done: dict[str, list[IngestResult]] = {}
    order: list[str] = []
    groups: dict[str | None, _Group] = {}

    def flush(files: list[_Prepared]) -> None:
        try:
            results = _commit_group(study, files, con)
        except Exception:
            if len(files) == 1:
                raise
            results = [r for prepared in files for r in _commit_group(study, [prepared], con)]
        for result in results:
            done.setdefault(result.sha256, []).append(result)

    files = iter(validated)
    while chunk := list(itertools.islice(files, GROUP_FILES)):
        for (received, validation), labels in zip(chunk, labels_from(study, chunk), strict=True):
            prepared = _prepare(study, received, validation, labels, home)
            order.append(received.sha256)
            task = validation.task if prepared.labels is not None else None
            group = groups.setdefault(task, _Group())
            if group.files and not group.fits(prepared):
                flush(group.files)
                group = groups[task] = _Group()
            group.add(prepared)
    for group in groups.values():
        if group.files:
            flush(group.files)
    changes.release_replaced(con, study.name)
    return [done[sha].pop(0) for sha in order]


def commit(
    study: Study,
    received: Received,
    validation: Validation,
    home: Home,
    con: duckdb.DuckDBPyConnection,
    labels_from: LabelsFrom = returned_labels,
) -> IngestResult:
    """Quarantine a rejected file with its report, or apply an accepted one's ratings;
    either way the outcome is recorded in the same transaction as the ratings. Returns and
    imports both commit here (``labels_from`` is what differs)."""
    return commit_all(study, [(received, validation)], home, con, labels_from)[0]


def ingest_file(
    study: Study, path: Path, home: Home, con: duckdb.DuckDBPyConnection
) -> IngestResult:
    """Ingest one returned file; safe to repeat (the same content twice is a no-op, but for
    the study file's check against the stored ratings, which :func:`commit_all` makes for
    a new file)."""
    store.ensure_tables(con)
    received = receive(study, path, home)
    if store.known_outcome(con, study.name, received.sha256) is not None:
        changes.follow_study(con, study)
        return IngestResult(received.file, received.sha256, "unchanged")
    return commit(study, received, validate_received(study, received, con), home, con)


def record_inbox(
    study: Study, paths: list[Path], home: Home, con: duckdb.DuckDBPyConnection
) -> int:
    """Archive the inbox's files, then record in ``staging.inbox`` those not seen before, in
    one transaction; returns how many were new. A file archived and not yet recorded (the
    process stopped in between) is archived again, to the same name, on the next run."""
    store.create_table(con, INBOX_TABLE, INBOX_DDL)
    rows: dict[str, dict] = {}
    for path in paths:
        received = receive(study, path, home)
        rows.setdefault(
            received.sha256,
            {
                "study": study.name,
                "sha256": received.sha256,
                "file": received.file,
                "archived_path": str(received.archived),
                "received_at": received.received_at,
                "version_at": received.version_at,
                "modified_at": received.modified_at,
            },
        )
    if not rows:
        return 0
    frame = pd.DataFrame(list(rows.values()))
    with store.transaction(con):
        con.register("_received", frame)
        try:
            new = con.execute(
                f"""INSERT INTO {INBOX_TABLE} BY NAME
                    SELECT * FROM _received r WHERE NOT EXISTS (SELECT 1 FROM {INBOX_TABLE} i
                      WHERE i.study = r.study AND i.sha256 = r.sha256)"""
            ).fetchall()[0][0]
        finally:
            con.unregister("_received")
    return int(new)


def pending(study: Study, con: duckdb.DuckDBPyConnection) -> list[Received]:
    """Files of ``staging.inbox`` with no outcome in ``staging.ingests`` yet, oldest first."""
    store.ensure_tables(con)
    store.create_table(con, INBOX_TABLE, INBOX_DDL)
    rows = con.execute(
        f"""SELECT file, sha256, archived_path, received_at, version_at, modified_at
            FROM {INBOX_TABLE} i
            WHERE study = ? AND NOT EXISTS (SELECT 1 FROM staging.ingests g
              WHERE g.study = i.study AND g.sha256 = i.sha256)
            ORDER BY version_at, file""",
        [study.name],
    ).fetchall()
    return [Received(f, s, Path(a), r, v, m) for f, s, a, r, v, m in rows]


BATCH_BYTES = 64 << 20
"""Pending files are validated together up to this much text (their row rules in one Pandera
validation; :func:`raterlab.ingest.validate.validate_files`)."""


def _batches(files: list[Received]) -> Iterator[list[Received]]:
    batch: list[Received] = []
    size = 0
    for received in files:
        batch.append(received)
        size += received.archived.stat().st_size
        if size >= BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def validate_pending(
    study: Study, con: duckdb.DuckDBPyConnection
) -> Iterator[tuple[Received, Validation]]:
    """Each pending file (:func:`pending`, listed before the first is validated) with its
    validation; the study context is read once for all of them, and files are validated in
    batches (:data:`BATCH_BYTES`)."""
    files = pending(study, con)
    context = study_context(con, study) if files else None
    for batch in _batches(files):
        validations = validate_files(study, [(r.archived, r.file) for r in batch], context)
        yield from zip(batch, validations, strict=True)
