"""Writing a file so that no reader ever sees it half written."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` beside ``path`` under a hidden name (the inbox sensor and the ingest skip
    dot-files), flush it to disk, then rename it over ``path`` (atomic on one file system)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
