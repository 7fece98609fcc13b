"""Exports each study promises, in ``$RATERLAB_HOME/exports/<study>/``.

Every study gets Parquet copies of its gold tables (:data:`COMMON`). A study names the other
formats it wants in its file (``exports: [study_json, ...]``); :data:`FORMATS` maps each format
name to its exporter. Exporters are generic and reusable: they read only the study model and
the gold tables, never a study's name.

The export folder is written beside the old one and swapped in, so a re-run replaces it
whole and a reader never sees half an export.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from raterlab.exports.bundle import ExportBundle, load_bundle
from raterlab.exports.comparison import comparison_files
from raterlab.exports.formats import (
    gold_tier_jsonl,
    labeler_files,
    parquet_tables,
    study_json,
    system_metrics,
)
from raterlab.exports.judges import judge_calibration
from raterlab.protocol import Study

Exporter = Callable[[ExportBundle, Path], list[Path]]

COMMON: tuple[Exporter, ...] = (parquet_tables,)
FORMATS: dict[str, Exporter] = {
    "study_json": study_json,
    "labeler_files": labeler_files,
    "gold_tier_jsonl": gold_tier_jsonl,
    "system_metrics": system_metrics,
    "judge_calibration": judge_calibration,
    "condition_comparison": comparison_files,
}


def exporters_for(study: Study) -> tuple[Exporter, ...]:
    """The common exporters, then the formats the study declares, in its order."""
    return (*COMMON, *(FORMATS[name] for name in study.exports))


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


__all__ = [
    "COMMON",
    "FORMATS",
    "ExportBundle",
    "exporters_for",
    "load_bundle",
    "write_exports",
]
