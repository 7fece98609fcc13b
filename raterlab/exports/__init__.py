"""Exports each study promises, in ``$RATERLAB_HOME/exports/<study>/``.

Every study gets Parquet copies of its gold tables (:data:`COMMON`). A study names the other
formats it wants in its file (``exports: [study_json, ...]``); :data:`FORMATS` maps each format
name to its exporter, one module per format (:mod:`raterlab.exports.study_json`...). Each
exporter takes an :class:`~raterlab.exports.bundle.ExportBundle` and a folder, writes its files
there and returns their paths; shapes are documented in ``docs/gold_tables.md`` (section
Exports). Exporters are generic and reusable: they read only the study model and
the gold tables, never a study's name. :func:`raterlab.exports.write.write_exports` runs them.

The exporters are named here and imported when first used (:func:`exporter`): checking a
study file's format names, which every command does when it loads a study, does not import
them and what they import (SciPy, Matplotlib: about 90 MB of a process's memory).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from raterlab.exports.bundle import ExportBundle
    from raterlab.protocol import Study

Exporter = Callable[["ExportBundle", Path], list[Path]]

COMMON: tuple[str, ...] = ("raterlab.exports.parquet:parquet_tables",)
"""The exporters every study gets (``module:function``)."""

FORMATS: dict[str, str] = {
    "study_json": "raterlab.exports.study_json:study_json",
    "labeler_files": "raterlab.exports.labeler_files:labeler_files",
    "gold_tier_jsonl": "raterlab.exports.gold_tier:gold_tier_jsonl",
    "system_metrics": "raterlab.exports.system_metrics:system_metrics",
    "judge_calibration": "raterlab.exports.judges:judge_calibration",
    "condition_comparison": "raterlab.exports.comparison:comparison_files",
}
"""The exporter (``module:function``) of each export format a study may name
(:data:`raterlab.protocol.study.EXPORT_FORMATS`, the same names in the same order)."""


def _load(reference: str) -> Exporter:
    module, function = reference.split(":")
    return getattr(importlib.import_module(module), function)


def exporter(name: str) -> Exporter:
    """The exporter of the format ``name`` (a key of :data:`FORMATS`)."""
    return _load(FORMATS[name])


def exporters_for(study: Study) -> tuple[Exporter, ...]:
    """The common exporters, then the formats the study declares, in its order."""
    return (*(_load(c) for c in COMMON), *(exporter(name) for name in study.exports))


__all__ = ["COMMON", "FORMATS", "Exporter", "exporter", "exporters_for"]
