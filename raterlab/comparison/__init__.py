"""Results per condition or system: the study's ``comparison`` declaration applied to the
consensus (:mod:`raterlab.comparison.conditions`), the tests behind it
(:mod:`raterlab.comparison.stats`) and its plot (:mod:`raterlab.comparison.plot`)."""

from raterlab.comparison.conditions import (
    COMPARISON,
    MEANS,
    condition_comparison,
    condition_means,
    unit_values,
)

__all__ = ["COMPARISON", "MEANS", "condition_comparison", "condition_means", "unit_values"]
