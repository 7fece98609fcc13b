"""Many returned files at once, through the one path of :mod:`raterlab.ingest.one_file`:
validated in batches of up to :data:`BATCH_BYTES` (:func:`validate_pending`), and committed
in groups that share a transaction, of at most :data:`GROUP_FILES` files and
:data:`GROUP_RATINGS` ratings (:func:`commit_all`), with the outcome of one by one."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import duckdb

from raterlab.ingest import ratings
from raterlab.ingest.context import study_context
from raterlab.ingest.inbox import pending
from raterlab.ingest.kind import Prepared
from raterlab.ingest.labels import Labels
from raterlab.ingest.one_file import commit_together, prepare
from raterlab.ingest.receive import Received
from raterlab.ingest.returns import RETURNED, IngestResult, Ratings, Validated
from raterlab.ingest.validate import Validation, validate_files
from raterlab.protocol import Study
from raterlab.settings import Home

GROUP_FILES = 256
GROUP_RATINGS = 100_000
"""A group committed in one transaction holds at most this many files and ratings (a file
with more ratings shares its transaction with no other accepted file)."""

RatingsFile = Prepared[Validation, Labels]


@dataclass
class _Group:
    """Files to commit in one transaction: of one shape (task and fields; rejected files fit
    any), and no rating in two of them, so that each meets, in the one plan, what it would
    meet after the files before it."""

    files: list[RatingsFile] = field(default_factory=list)
    shape: tuple | None = None
    keys: set[tuple] = field(default_factory=set)
    n_ratings: int = 0

    @staticmethod
    def _keys(labels: Labels) -> set[tuple]:
        return set(zip(*(labels.table[c].to_pylist() for c in ratings.RATING_KEY), strict=True))

    def fits(self, file: RatingsFile) -> bool:
        if len(self.files) >= GROUP_FILES:
            return False
        if file.accepted is None:
            return True
        shape = (file.check.task, *file.accepted.fields)
        if self.shape is not None and shape != self.shape:
            return False
        if self.n_ratings + len(file.accepted.table) > GROUP_RATINGS:
            return False
        return self.keys.isdisjoint(self._keys(file.accepted))

    def add(self, file: RatingsFile) -> None:
        """Add ``file`` (the keys of its ratings are kept only while the group may grow)."""
        self.files.append(file)
        if file.accepted is not None:
            self.shape = (file.check.task, *file.accepted.fields)
            self.n_ratings += len(file.accepted.table)
            if self.n_ratings <= GROUP_RATINGS:
                self.keys |= self._keys(file.accepted)


def commit_all(
    study: Study,
    validated: Iterable[Validated],
    home: Home,
    con: duckdb.DuckDBPyConnection,
    kind: Ratings = RETURNED,
) -> list[IngestResult]:
    """:func:`~raterlab.ingest.one_file.commit` of each validated file, with the same outcome
    as one by one in their order: files of one task and fields, none of whose ratings is in
    another, are committed in one transaction (one plan and one insert for all; see
    :func:`raterlab.ingest.ratings.apply_returns`). Files of different tasks never meet each
    other's ratings, so each task's files are grouped apart, in their order (a study's
    returns alternate between its tasks' templates); only the order in which rating ids are
    handed out differs from one by one. If a group's transaction fails, its files are
    committed again one per transaction, so a bad file never rolls back good ones. Results
    come in the order of the files. Labels are made for :data:`GROUP_FILES` files at a time
    (``kind.accepted``). First ``kind.start`` (the stored ratings brought in line with the
    study file: a dropped field refuses the whole ingest), and ``kind.finish`` after (held
    ratings the files replaced are released)."""
    kind.ensure_tables(con)
    kind.start(con, study)
    done: dict[str, list[IngestResult]] = {}
    order: list[str] = []
    groups: dict[str | None, _Group] = {}

    def flush(files: list[RatingsFile]) -> None:
        try:
            results = commit_together(study, kind, files, con)
        except Exception:
            if len(files) == 1:
                raise
            results = [r for file in files for r in commit_together(study, kind, [file], con)]
        for result in results:
            done.setdefault(result.sha256, []).append(result)

    files = iter(validated)
    while chunk := list(itertools.islice(files, GROUP_FILES)):
        for (received, validation), labels in zip(chunk, kind.accepted(study, chunk), strict=True):
            prepared = prepare(study, kind, received, validation, labels, home)
            order.append(received.sha256)
            task = validation.task if prepared.accepted is not None else None
            group = groups.setdefault(task, _Group())
            if group.files and not group.fits(prepared):
                flush(group.files)
                group = groups[task] = _Group()
            group.add(prepared)
    for group in groups.values():
        if group.files:
            flush(group.files)
    kind.finish(con, study)
    return [done[sha].pop(0) for sha in order]


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


def validate_pending(study: Study, con: duckdb.DuckDBPyConnection) -> Iterator[Validated]:
    """Each pending file (:func:`raterlab.ingest.inbox.pending`, listed before the first is
    validated) with its validation; the study context is read once for all of them, and
    files are validated in batches (:data:`BATCH_BYTES`)."""
    files = pending(study, con)
    context = study_context(con, study) if files else None
    for batch in _batches(files):
        validations = validate_files(study, [(r.archived, r.file) for r in batch], context)
        yield from zip(batch, validations, strict=True)
