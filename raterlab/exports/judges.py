"""``judge_calibration`` export: the study's judge figures, for any study with ``judges:``.

``judges/judge_calibration.csv`` and ``judges/judge_weights.csv`` (the study's rows of
``gold.judge_calibration`` and ``gold.judge_weights``), ``judges/judge_calibration.png`` (the
plot of :mod:`raterlab.judges.plot`) and ``judges/summary.json``: per task, field and judge,
the headline statistic (Spearman or kappa) with its interval, the human ceiling, the weight
and whether the judge was flagged.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from raterlab.csvsafe import write_csv
from raterlab.exports.bundle import ExportBundle
from raterlab.judges.plot import HEADLINE_COLUMNS, calibration_plot, headline


def _plain(value):
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def summary(calibration: pd.DataFrame, weights: pd.DataFrame) -> list[dict]:
    """One entry per task, field and judge: headline statistic, ceiling, weight, flag."""
    out = []
    keyed = weights.set_index(["task", "field", "judge"]) if len(weights) else None
    for row in headline(calibration).to_dict("records"):
        entry = {k: _plain(row[k]) for k in HEADLINE_COLUMNS}
        key = (row["task"], row["field"], row["judge"])
        if keyed is not None and key in keyed.index:
            entry["weight"] = _plain(keyed.loc[key, "weight"])
            entry["share"] = _plain(keyed.loc[key, "share"])
            entry["flagged"] = bool(keyed.loc[key, "flagged"])
            entry["flag_reason"] = _plain(keyed.loc[key, "reason"]) or None
        out.append(entry)
    return out


def judge_calibration(bundle: ExportBundle, folder: Path) -> list[Path]:
    """Write the judge figures under ``folder/judges/`` (nothing without calibration rows)."""
    calibration, weights = bundle.judge_calibration, bundle.judge_weights
    if calibration.empty:
        return []
    target = folder / "judges"
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, frame in (("judge_calibration", calibration), ("judge_weights", weights)):
        path = target / f"{name}.csv"
        write_csv(frame.drop(columns=["computed_at"], errors="ignore"), path)
        paths.append(path)
    document = {
        "study": bundle.study.name,
        "exportedAt": bundle.exported_at_iso,
        "judges": summary(calibration, weights),
    }
    path = target / "summary.json"
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    paths.append(path)
    plot = calibration_plot(calibration, target / "judge_calibration.png")
    if plot is not None:
        paths.append(plot)
    return paths
