"""What the inbox sensor looks at: returned files not yet in the warehouse, by content.

A file stays in ``inbox/<study>/`` after it is ingested, so "new" cannot mean "present": a
file is new when its SHA-256 is not among the study's ``raw.returned_files`` (every returned
packet and adjudication decisions file is recorded there, accepted or rejected, in the same
transaction as its outcome). An inbox whose files are all ingested therefore starts nothing.
A symbolic link out of the home is never read, not even to hash it: it is known by the note
the ingest archives in its place (:func:`raterlab.ingest.read.refused_link`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb

from raterlab.files import sha256_of
from raterlab.ingest.audit import pending_files
from raterlab.ingest.read import refused_link
from raterlab.settings import Home
from raterlab.warehouse import table_exists


def ingested_hashes(con: duckdb.DuckDBPyConnection, study: str) -> set[str]:
    """Content hashes of every file of ``study`` already recorded in ``raw.returned_files``."""
    if not table_exists(con, "raw.returned_files"):
        return set()
    rows = con.execute(
        "SELECT DISTINCT sha256 FROM raw.returned_files WHERE study = ?", [study]
    ).fetchall()
    return {sha for (sha,) in rows}


def new_files(
    home: Home, study: str, ingested: set[str], settled_before: float | None = None
) -> dict[Path, str]:
    """Files in the study's inbox (returns and ``adjudication/`` decisions) whose content is
    not in ``ingested``, with their SHA-256, oldest first. With ``settled_before`` (a POSIX
    time), files modified after it are left out: a file still being copied in would be hashed
    half-written."""
    inbox = home.inbox / study
    files = pending_files(inbox) + pending_files(inbox / "adjudication")
    if settled_before is not None:
        files = [path for path in files if path.stat().st_mtime <= settled_before]
    hashes = {path: _content_sha256(path, home) for path in files}
    return {path: sha for path, sha in hashes.items() if sha not in ingested}


def _content_sha256(path: Path, home: Home) -> str:
    """The hash the ingest records for ``path``: its content's, or for a symbolic link out of
    the home (never followed) the note archived in its place."""
    note = refused_link(path, home.root)
    return sha256_of(path) if note is None else hashlib.sha256(note).hexdigest()


def arrival_key(study: str, hashes: list[str]) -> str:
    """``<study>:<digest>``: the same set of new contents always gives the same key."""
    digest = hashlib.sha256("\n".join(sorted(set(hashes))).encode()).hexdigest()[:16]
    return f"{study}:{digest}"
