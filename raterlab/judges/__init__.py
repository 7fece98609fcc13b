"""Judge calibration: how far an automatic judge (an LLM judge, a metric) can stand in for the
humans. Plain functions over arrays and DataFrames, no Dagster (see docs/judges.md).

- :mod:`raterlab.judges.calibrate`: every statistic of one field (:func:`calibrate_field` on
  a :class:`FieldInput`), beside the human ceiling: :mod:`raterlab.judges.graded`,
  :mod:`raterlab.judges.categorical`, :mod:`raterlab.judges.rows`,
  :mod:`raterlab.judges.humans`, :mod:`raterlab.judges.field_input`;
- :mod:`raterlab.judges.contingency`, :mod:`raterlab.judges.resample`: the correlations and kappa
  from contingency tables, and the shared bootstrap resamples with their consumers;
- :mod:`raterlab.judges.significance`: Williams' test, the paired bootstrap p-value, the
  alternative annotator test, Benjamini-Yekutieli, the Wilson interval;
- :mod:`raterlab.judges.weights`: multi-judge weights and bounds;
- :mod:`raterlab.judges.files` (two plain files), :mod:`raterlab.judges.study` (a study's
  warehouse tables), :mod:`raterlab.judges.verdicts` (hidden keys, imported judge files),
  :mod:`raterlab.judges.imports` (a judge file into a study),
  :mod:`raterlab.judges.store` (the gold tables), :mod:`raterlab.judges.plot`,
  :mod:`raterlab.judges.summary`;
- :mod:`raterlab.judges.robustness` and :mod:`raterlab.judges.verdict_study` (repeat runs,
  position swap and bias, bias per slice), :mod:`raterlab.judges.pairwise` and
  :mod:`raterlab.judges.pairwise_study` (a pairwise field's judges against the human
  winners), :mod:`raterlab.judges.verdict` (may the judge replace the humans).
"""

from raterlab.lazy import exports

__all__, __getattr__, __dir__ = exports(
    __name__,
    {
        "COLUMNS": "rows",
        "FieldInput": "field_input",
        "Options": "field_input",
        "calibrate_field": "calibrate",
        "calibrate_files": "files",
        "AltTest": "significance",
        "alt_test": "significance",
        "williams_test": "significance",
    },
)
