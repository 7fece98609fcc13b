"""Rater quality: what a study's protocol asks to watch about the raters themselves.

Self-consistency on hidden duplicates (:mod:`~raterlab.quality.consistency`), attention
checks (:mod:`~raterlab.quality.attention`), the calibration set
(:mod:`~raterlab.quality.calibration`), speed (:mod:`~raterlab.quality.speed`), bias
(:mod:`~raterlab.quality.bias`: leniency and severity, slices, scale use, agreement per
category, outlier items), tier spot checks and drift (:mod:`~raterlab.quality.drift`), and
the PI's review sample (:mod:`~raterlab.quality.sample`). :func:`assess` runs them all into
``gold.rater_quality`` (one row per annotator, metric and slice; see
:mod:`~raterlab.quality.rater_quality` for the columns and :mod:`~raterlab.quality.ratings` for the
slice syntax), ``gold.rater_item_flags`` and ``gold.promotions``.

Pure pandas/SciPy over the warehouse tables; no Dagster.
"""

from raterlab.quality.drift import drift_failure, drift_runs
from raterlab.quality.rater_quality import QualityReport, assess, flag_summary
from raterlab.quality.ratings import ALL, EVERYONE, ITEM_FLAG_COLUMNS, QUALITY_COLUMNS
from raterlab.quality.sample import pi_sample, write_pi_sample

__all__ = [
    "ALL",
    "EVERYONE",
    "ITEM_FLAG_COLUMNS",
    "QUALITY_COLUMNS",
    "QualityReport",
    "assess",
    "drift_failure",
    "drift_runs",
    "flag_summary",
    "pi_sample",
    "write_pi_sample",
]
