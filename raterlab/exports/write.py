"""Writing a study's exports: the export folder is written beside the old one and swapped in,
so a re-run replaces it whole and a reader never sees half an export."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from raterlab.exports import exporters_for
from raterlab.exports.bundle import ExportBundle


def write_exports(bundle: ExportBundle, root: Path) -> list[Path]:
    """Run the study's exporters into ``root/<study>/`` (replaced whole); returns the files
    written, relative to ``root/<study>``."""
    target = root / bundle.study.name
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{bundle.study.name}-", dir=root))
    try:
        files = [p.relative_to(work) for f in exporters_for(bundle.study) for p in f(bundle, work)]
        if target.exists():
            old = target.with_name(f".{target.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(target, old)
            os.replace(work, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(work, target)
    except Exception:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return files
