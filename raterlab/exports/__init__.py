"""Exports each study promises, in ``$RATERLAB_HOME/exports/<study>/``.

Every study gets Parquet copies of its gold tables (:data:`COMMON`). A study that promises a
deliverable of its own is listed in :data:`EXPORTERS`, the one registry keyed by study name
(the study file has no say in it: the formats are fixed by who consumes them, not by the
study's design). The exporters themselves are generic: they read only the study model and
the gold tables. To give another study one of these formats, add its name here.

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
from raterlab.exports.formats import gold_tier_jsonl, labeler_files, parquet_tables, study_json

Exporter = Callable[[ExportBundle, Path], list[Path]]

COMMON: tuple[Exporter, ...] = (parquet_tables,)
EXPORTERS: dict[str, tuple[Exporter, ...]] = {
    "correctness_ab": (study_json,),
    "plugin_triggers": (labeler_files,),
    "gold_tiers": (gold_tier_jsonl,),
}


def exporters_for(study: str) -> tuple[Exporter, ...]:
    return (*COMMON, *EXPORTERS.get(study, ()))


def write_exports(bundle: ExportBundle, root: Path) -> list[Path]:
    """Run the study's exporters into ``root/<study>/`` (replaced whole); returns the files
    written, relative to ``root/<study>``."""
    target = root / bundle.study.name
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{bundle.study.name}-", dir=root))
    try:
        files = [
            p.relative_to(work) for f in exporters_for(bundle.study.name) for p in f(bundle, work)
        ]
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
    "EXPORTERS",
    "ExportBundle",
    "exporters_for",
    "load_bundle",
    "write_exports",
]
