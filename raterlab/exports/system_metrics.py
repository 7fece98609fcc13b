"""``system_metrics``: ``metrics.csv`` and ``metrics.json``, the study's metric families per
system with confidence intervals (``metrics:`` in the study file)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from raterlab.csvsafe import write_csv
from raterlab.exports.bundle import ExportBundle
from raterlab.exports.values import dump_json, plain
from raterlab.metrics import compute_metrics


def system_metrics(bundle: ExportBundle, folder: Path) -> list[Path]:
    """``metrics.csv`` (the rows of ``gold.metrics``) and ``metrics.json``:
    ``{study, exportedAt, runId, confidence, systems: {<system>: {<family>: {<metric>:
    {estimate, ci: [low, high], interval, n, successes, n_clusters, task, field, k}}}}}``."""
    frame = compute_metrics(bundle.study, bundle.items, bundle.consensus, bundle.exported_at)
    csv_path = folder / "metrics.csv"
    write_csv(frame, csv_path)
    systems: dict = {}
    for r in frame.itertuples(index=False):
        family = systems.setdefault(r.system, {}).setdefault(r.family, {})
        family[r.metric] = {
            "estimate": plain(r.estimate),
            "ci": [plain(r.ci_low), plain(r.ci_high)],
            "interval": r.interval,
            "n": plain(r.n),
            "successes": None if pd.isna(r.successes) else int(r.successes),
            "n_clusters": plain(r.n_clusters),
            "n_excluded": plain(r.n_excluded),
            "task": r.task,
            "field": r.field,
            "k": None if pd.isna(r.k) else int(r.k),
        }
    declared = bundle.study.metrics
    document = {
        "study": bundle.study.name,
        "exportedAt": bundle.exported_at_iso,
        "runId": bundle.run_id,
        "confidence": declared.confidence if declared else None,
        "systems": systems,
    }
    return [csv_path, dump_json(folder / "metrics.json", document)]
