"""Which agreement coefficients the pipeline computes for a field, under the study's design.

``gold.agreement`` holds, per rating field (:func:`raterlab.agreement.study.coefficient_set`):

- binary and categorical (nominal): percent agreement, Fleiss' kappa, nominal alpha, Gwet's
  AC1, and Cohen's kappa when two raters rated every unit;
- Likert (ordinal): percent agreement, ordinal and interval alpha, Gwet's AC2, ICC and
  quadratic-weighted Cohen's kappa with two fully crossed raters;

and, beside them, the coefficient of every per-field minimum exactly as it is declared
(:mod:`raterlab.agreement.declared`: Cohen's kappa ``weights: unweighted`` on a Likert field,
Light's kappa, Fleiss' kappa of Likert scores taken as categories...).

A threshold that could never be computed (an ordered-scale coefficient on a categorical
field, weights on a coefficient that takes none) is refused when the study is loaded rather
than reported as a row that fails forever. Cohen's kappa is a two-rater coefficient: with
more than two annotators (items spread over a pool) it is reported per pair in
``gold.agreement_pairwise``; the study-level coefficients are Fleiss' kappa (Fleiss 1971), as
protocols that name "Cohen's kappa for two labelers, Fleiss' kappa for three or more" ask,
or Light's kappa (Light 1971), the mean of Cohen's kappa over annotator pairs.
"""

from __future__ import annotations

from raterlab.protocol.fields import CategoricalField, LikertField
from raterlab.protocol.study import Design, Threshold

WEIGHTED_COEFFICIENTS = ("cohen_kappa", "gwet_ac2")
"""Coefficients that take weights."""
ORDERED_ONLY = ("gwet_ac2", "icc")
"""Coefficients that need an ordered (Likert or binary) scale."""
ALPHA_LEVELS = {"nominal": ("nominal",), "ordinal": ("nominal", "ordinal", "interval")}
"""Levels alpha can be computed at, by the field's level."""
USUAL = {
    "nominal": ("percent_agreement", "fleiss_kappa", "krippendorff_alpha:nominal", "gwet_ac1"),
    "ordinal": (
        "percent_agreement",
        "krippendorff_alpha:ordinal",
        "krippendorff_alpha:interval",
        "gwet_ac2",
        "icc",
    ),
}
"""Per level, the coefficients a minimum without ``fields`` is judged on: the field type's
set, plus Cohen's kappa (two fully crossed raters) and Light's kappa for either."""


def design_problem(threshold: Threshold, design: Design) -> str | None:
    """Why ``threshold`` cannot be computed under ``design`` whatever the field, or ``None``."""
    if threshold.coefficient == "cohen_kappa" and len(design.annotators) != 2:
        return (
            f"cohen_kappa needs the same two annotators on every item; this design has "
            f"{len(design.annotators)} annotators, so Cohen's kappa is reported per pair "
            f"(gold.agreement_pairwise) and the coefficient to require is fleiss_kappa"
        )
    return None


def _level(spec: object) -> str:
    return "ordinal" if isinstance(spec, LikertField) else "nominal"


def field_problem(threshold: Threshold, spec: object) -> str | None:
    """Why ``threshold`` can never be computed for a field like ``spec``, or ``None``."""
    likert = isinstance(spec, LikertField)
    if threshold.coefficient in ORDERED_ONLY and isinstance(spec, CategoricalField):
        return f"{threshold.coefficient} needs an ordered scale; the field is categorical"
    if threshold.weights and threshold.coefficient not in WEIGHTED_COEFFICIENTS:
        return f"{threshold.coefficient} takes no weights"
    if threshold.weights not in (None, "unweighted") and not likert:
        return f"{threshold.weights} weights need a Likert scale"
    level = _level(spec)
    alpha = threshold.coefficient == "krippendorff_alpha"
    if alpha and threshold.level and threshold.level not in ALPHA_LEVELS[level]:
        return f"alpha at level {threshold.level} is not computed for {level} fields"
    return None


def applies(threshold: Threshold, spec: object) -> bool:
    """Whether the per-field ``threshold`` is judged on a field like ``spec``: a field it
    names, whenever the coefficient can be computed there; without ``fields``, every field
    whose usual coefficients (:data:`USUAL`) include it, so that ``fleiss_kappa`` alone reads
    the binary and categorical fields and leaves the Likert ones to their own coefficients."""
    if field_problem(threshold, spec) is not None:
        return False
    if threshold.fields or threshold.coefficient in ("cohen_kappa", "light_kappa"):
        return True
    if threshold.coefficient == "krippendorff_alpha":
        usual = {name.partition(":")[2] for name in USUAL[_level(spec)]} - {""}
        return threshold.level is None or threshold.level in usual
    return threshold.coefficient in USUAL[_level(spec)]
