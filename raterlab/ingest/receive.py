"""Receiving a file of any kind: archived under its content hash before anything parses it,
with its version (:func:`raterlab.ingest.ratings.file_version`), the warning when its clock
ran ahead (:func:`version_issues`), and its row of ``raw.returned_files``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from raterlab.files import sha256_of
from raterlab.ingest import ratings, store
from raterlab.ingest.issues import Checked, file_issue
from raterlab.ingest.read import LINK_SUFFIX, refused_link
from raterlab.protocol import Study
from raterlab.settings import Home


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
    sha = sha256_of(path)
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


def source_of(received: Received) -> dict:
    """The provenance columns of the ratings a file gives."""
    return {
        "source_file": received.file,
        "source_sha256": received.sha256,
        "ingested_at": received.received_at,
    }


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


def add_version_issues(received: Received, check: Checked) -> None:
    """Add :func:`version_issues` to a file's validation issues (what its report says)."""
    extra = version_issues(received)
    if not extra.empty:
        check.issues = pd.concat([check.issues, extra], ignore_index=True)
