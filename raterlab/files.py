"""Files: written so that no reader ever sees one half written, and known by their content."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path


def write_atomic(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` (bytes, or chunks of bytes written as they come, so that a large file
    is never held whole) beside ``path`` under a hidden name (the inbox sensor and the ingest
    skip dot-files), flush it to disk, then rename it over ``path`` (atomic on one file
    system). A failure while the chunks are made leaves ``path`` as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with tmp.open("wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                handle.writelines(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)


def sha256_of(path: Path) -> str:
    """The SHA-256 of the file's content (hex), read a mebibyte at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
