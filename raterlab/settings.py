"""Where raterlab keeps its state: ``RATERLAB_HOME`` (default ``.raterlab/`` in the working
directory) and the layout beneath it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_HOME = ".raterlab"
PACKAGE_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Home:
    """The folders and files under ``RATERLAB_HOME``."""

    root: Path

    @classmethod
    def from_env(cls) -> Home:
        return cls(Path(os.environ.get("RATERLAB_HOME", DEFAULT_HOME)).resolve())

    @property
    def warehouse(self) -> Path:
        return self.root / "warehouse.duckdb"

    @property
    def published(self) -> Path:
        """The gold tables, copied for researchers after each gold write (read-only)."""
        return self.root / "published.duckdb"

    @property
    def outbox(self) -> Path:
        return self.root / "outbox"

    @property
    def inbox(self) -> Path:
        return self.root / "inbox"

    @property
    def archive(self) -> Path:
        return self.root / "archive"

    @property
    def quarantine(self) -> Path:
        return self.root / "quarantine"

    @property
    def reports(self) -> Path:
        return self.root / "reports"

    @property
    def dagster(self) -> Path:
        return self.root / "dagster"

    @property
    def blinding_secret(self) -> Path:
        return self.root / "secrets" / "blinding.key"


def studies_dir() -> Path:
    """Folder of study files: ``RATERLAB_STUDIES``, else the bundled ``studies/``."""
    return Path(os.environ.get("RATERLAB_STUDIES", PACKAGE_ROOT / "studies")).resolve()
