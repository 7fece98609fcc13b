"""Which agreement coefficients the pipeline computes for a field, under the study's design.

``gold.agreement`` holds, per rating field (:func:`raterlab.agreement.study.coefficient_set`):

- binary and categorical (nominal): percent agreement, Fleiss' kappa, nominal alpha, Gwet's
  AC1, and Cohen's kappa when two raters rated every unit;
- Likert (ordinal): percent agreement, ordinal and interval alpha, Gwet's AC2, ICC and
  quadratic-weighted Cohen's kappa with two fully crossed raters.

A threshold on anything else could never be met, so it is refused when the study is loaded
rather than reported as a row that fails forever. Cohen's kappa is a two-rater coefficient:
with more than two annotators (items spread over a pool) it is reported per pair in
``gold.agreement_pairwise`` and the study-level coefficient is Fleiss' kappa (Fleiss 1971),
as protocols that name "Cohen's kappa for two labelers, Fleiss' kappa for three or more" ask.
"""

from __future__ import annotations

from raterlab.protocol.fields import LikertField
from raterlab.protocol.study import Design, Threshold

NOMINAL = ("percent_agreement", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1", "cohen_kappa")
ORDINAL = ("percent_agreement", "krippendorff_alpha", "gwet_ac2", "cohen_kappa", "icc")
ALPHA_LEVELS = {"nominal": ("nominal",), "ordinal": ("ordinal", "interval")}


def design_problem(threshold: Threshold, design: Design) -> str | None:
    """Why ``threshold`` cannot be computed under ``design`` whatever the field, or ``None``."""
    if threshold.coefficient == "cohen_kappa" and len(design.annotators) != 2:
        return (
            f"cohen_kappa needs the same two annotators on every item; this design has "
            f"{len(design.annotators)} annotators, so Cohen's kappa is reported per pair "
            f"(gold.agreement_pairwise) and the coefficient to require is fleiss_kappa"
        )
    return None


def field_problem(threshold: Threshold, spec: object) -> str | None:
    """Why ``threshold`` is never computed for a field like ``spec``, or ``None``."""
    level = "ordinal" if isinstance(spec, LikertField) else "nominal"
    offered = ORDINAL if level == "ordinal" else NOMINAL
    if threshold.coefficient not in offered:
        choices = ", ".join(offered)
        return f"{threshold.coefficient} is not computed for {level} fields (use one of {choices})"
    alpha = threshold.coefficient == "krippendorff_alpha"
    if alpha and threshold.level and threshold.level not in ALPHA_LEVELS[level]:
        return f"alpha at level {threshold.level} is not computed for {level} fields"
    return None


def applies(threshold: Threshold, spec: object) -> bool:
    """Whether the per-field ``threshold`` is judged on a field like ``spec``."""
    return field_problem(threshold, spec) is None
