"""The coefficient a threshold declares, as :func:`raterlab.agreement.by_field.agreement_table`
computes it.

A threshold (the pilot gate or a minimum) names a coefficient with its weights or level
(``{coefficient: cohen_kappa, weights: unweighted}``); the pipeline computes exactly that,
even where the field's usual coefficient set holds another variant (quadratic-weighted kappa
on a Likert field) or none (Light's kappa), so that a declared threshold is never judged on a
coefficient it did not name.
"""

from __future__ import annotations

from raterlab.protocol import LikertField
from raterlab.protocol.study import Threshold


def declared_coefficient(threshold: Threshold, spec: object) -> tuple[str, str]:
    """The level and coefficient spec (for ``agreement_table``) a threshold names for a
    field: ``("nominal", "cohen_kappa")`` is unweighted kappa (as
    ``sklearn.metrics.cohen_kappa_score``), ``("ordinal", "cohen_kappa:quadratic")`` the
    weighted one."""
    level = "ordinal" if isinstance(spec, LikertField) else "nominal"
    if threshold.coefficient == "krippendorff_alpha":
        return level, f"krippendorff_alpha:{threshold.level or level}"
    if threshold.weights == "unweighted":
        return "nominal", threshold.coefficient
    if threshold.weights:
        return level, f"{threshold.coefficient}:{threshold.weights}"
    return level, threshold.coefficient


def declared_options(threshold: Threshold) -> str:
    """The threshold's options as the study file writes them (``weights=unweighted``,
    ``level=ordinal``), or ``""``."""
    if threshold.weights:
        return f"weights={threshold.weights}"
    return f"level={threshold.level}" if threshold.level else ""
