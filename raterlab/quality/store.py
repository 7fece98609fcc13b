"""One study's rater-quality tables, as written.

``gold.rater_quality``, ``gold.rater_item_flags`` and ``gold.promotions`` are declared in
:mod:`raterlab.tables.quality`; the write creates them typed from there, so a study with no
ratings yet still gets typed, empty tables.
"""

from __future__ import annotations

import pandas as pd

from raterlab.quality.rater_quality import QualityReport
from raterlab.tables.quality import PROMOTIONS, RATER_ITEM_FLAGS, RATER_QUALITY


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with text columns as Python strings (an empty frame keeps its columns)."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object or str(out[column].dtype).startswith("string"):
            out[column] = out[column].astype(object).where(out[column].notna(), None)
    return out


def quality_frames(report: QualityReport) -> dict[str, pd.DataFrame]:
    """The three tables' rows of ``report`` (``schema.name`` -> frame), to be replaced for the
    study in one transaction."""
    frames = {
        RATER_QUALITY.name: report.table,
        RATER_ITEM_FLAGS.name: report.item_flags,
        PROMOTIONS.name: report.promotions,
    }
    return {table: _typed(frame) for table, frame in frames.items()}
