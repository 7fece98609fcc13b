"""Tables of inter-rater agreement and of the pilot gate (coefficients and options in
docs/agreement.md)."""

from __future__ import annotations

from raterlab.tables import fields as f
from raterlab.tables.model import Column, Table

_COEFFICIENT = Column(
    "coefficient",
    f.VARCHAR,
    "`krippendorff_alpha`, `cohen_kappa`, `fleiss_kappa`, `gwet_ac1`, `gwet_ac2`, `icc`, "
    "`percent_agreement`...",
)
_RATING_FIELD = (f.STUDY, f.TASK, f.FIELD)

AGREEMENT = Table(
    "gold.agreement",
    "Inter-rater agreement per rating field, slice and coefficient.",
    grain="task, field, slice and coefficient",
    written_by="agreement",
    columns=(
        *_RATING_FIELD,
        f.SLICE.described("`all`, or `key=value` for a value of a `slices` key, `round=pilot`..."),
        _COEFFICIENT,
        Column(
            "level",
            f.VARCHAR,
            "Measurement level or weights (`ordinal`, `interval`, `weights=quadratic`, "
            "`ICC(1,1)`).",
        ),
        f.ESTIMATE.described("The coefficient."),
        Column("se", f.DOUBLE, "Its standard error."),
        f.CI_LOW.described("95% bootstrap interval over units."),
        f.CI_HIGH,
        f.N_UNITS,
        f.N_RATERS,
        f.BAND,
        Column(
            "headline",
            f.BOOLEAN,
            "This row is the protocol's coefficient for the field (or pooled task) on this "
            "slice: the threshold marked `headline`, else the pilot gate where it reads the "
            "field, else the first minimum that applies. One per field and slice; the other "
            "rows are computed beside it.",
        ),
        Column(
            "declared_by",
            f.VARCHAR,
            "The thresholds judged on exactly this coefficient (`thresholds.pilot_gate`, "
            "`thresholds.minimums[0]`...), empty for a coefficient computed beside them.",
        ),
        f.NOTE.described("Why an estimate is missing (too few units, no variation...)."),
        f.COMPUTED_AT,
    ),
    unique=(("study", "task", "field", "slice", "coefficient", "level"),),
    details="A field's protocol coefficient on every slice: `WHERE headline`. Rows whose "
    "`field` starts with `(pooled` pool a task's fields of one level (`per: task` minimums, "
    "unit = item x field).",
)

PAIRWISE = Table(
    "gold.agreement_pairwise",
    "Agreement of each pair of raters: which pairs disagree.",
    grain="task, field and pair of raters",
    written_by="agreement",
    columns=(
        *_RATING_FIELD,
        f.RATER_A,
        f.RATER_B,
        f.N_UNITS.described("Units both rated."),
        Column("percent_agreement", f.DOUBLE, "Share of those units rated the same."),
        Column(
            "cohen_kappa",
            f.DOUBLE,
            "Cohen's kappa of the pair: quadratic-weighted for a Likert field, unweighted "
            "otherwise.",
        ),
        Column(
            "cohen_kappa_unweighted",
            f.DOUBLE,
            "Unweighted Cohen's kappa of the pair (`sklearn.metrics.cohen_kappa_score`), the "
            "coefficient of a per-pair kappa target such as empathy's 'kappa >= 0.4 per "
            "dimension'.",
        ),
    ),
    key=("study", "task", "field", "rater_a", "rater_b"),
)

MATRICES = Table(
    "gold.agreement_matrices",
    "Pairs of categories raters gave the same unit: which categories they confuse.",
    grain="task, field and pair of categories",
    written_by="agreement",
    columns=(
        *_RATING_FIELD,
        Column("category_a", f.VARCHAR, "One rater's category."),
        Column("category_b", f.VARCHAR, "The other rater's category."),
        f.COUNT.described("Pairs of ratings in this cell."),
    ),
    key=("study", "task", "field", "category_a", "category_b"),
)

PILOT_GATES = Table(
    "gold.pilot_gates",
    "Every attempt of the pilot gate, kept when a later pilot round is evaluated.",
    grain="pilot attempt and gated field",
    written_by="pilot_agreement",
    columns=(
        f.STUDY,
        Column("attempt", f.BIGINT, "1 for `pilot`, n for `pilot-n`."),
        f.ROUND.described("The pilot round judged."),
        f.TASK.described("Task of the gated rating field."),
        f.FIELD.described("The gated rating field."),
        _COEFFICIENT.described("Exactly what `thresholds.pilot_gate` names (`cohen_kappa`)."),
        Column("options", f.VARCHAR, "Its options as the gate names them (`weights=unweighted`)."),
        f.ESTIMATE.described(
            "The coefficient on the round's ratings (NaN when undefined, e.g. one category only)."
        ),
        f.CI_LOW.described("95% percentile bootstrap interval over units (1000 resamples)."),
        f.CI_HIGH,
        f.N_UNITS,
        f.N_RATERS,
        Column("minimum", f.DOUBLE, "The gate's minimum."),
        Column("strict", f.BOOLEAN, "The gate is estimate > minimum (else >=)."),
        Column("passed", f.BOOLEAN, "This field cleared the gate."),
        Column(
            "gate_passed",
            f.BOOLEAN,
            "Every gated field of the attempt cleared it (the main round may go out).",
        ),
        f.BAND.described("The study's band for the estimate (`thresholds.bands`)."),
        Column(
            "kappa_linear",
            f.DOUBLE,
            "Linearly weighted Cohen's kappa beside the gate (Likert field, two raters), as "
            "sklearn computes it.",
        ),
        Column("kappa_quadratic", f.DOUBLE, "Quadratically weighted kappa, idem."),
        Column("study_version", f.VARCHAR, "The study file's `version` at evaluation."),
        Column(
            "guide_sha256", f.VARCHAR, "Hash of the guide file then (a revised guide changes it)."
        ),
        Column("evaluated_at", f.TIMESTAMPTZ, "When the attempt was evaluated."),
        f.NOTE,
    ),
    key=("study", "round", "task", "field"),
    details="Re-evaluating a round replaces only that round's rows.",
)

PILOT_MATRICES = Table(
    "gold.pilot_matrices",
    "The correctness protocol's Appendix B matrix: how many units one annotator of a pair "
    "rated `score_a` and the other `score_b`.",
    grain="pilot round, field, pair of annotators and pair of scores",
    written_by="pilot_agreement",
    columns=(
        f.STUDY,
        f.ROUND.described("The pilot round."),
        f.TASK,
        f.FIELD,
        f.RATER_A,
        f.RATER_B,
        Column("score_a", f.VARCHAR, "The first annotator's score."),
        Column("score_b", f.VARCHAR, "The second annotator's score."),
        f.COUNT,
    ),
    key=("study", "round", "task", "field", "rater_a", "rater_b", "score_a", "score_b"),
    details="Every cell of the declared scale, zeros included. "
    "`reports/<study>/pilot_matrices.md` draws them as the protocol does, with the total "
    "agreement.",
)

PILOT_GATE = Table(
    "staging.pilot_gate",
    "The latest pilot round against the study's gate; its blocking check holds back the main "
    "round's packets.",
    grain="study",
    written_by="pilot_agreement",
    columns=(
        f.STUDY,
        Column("passed", f.BOOLEAN, "The main round may go out."),
        Column("message", f.VARCHAR, "Why (each gated field's estimate against its minimum)."),
        f.ROUND.described("The pilot round judged; NULL when the study has no pilot gate."),
    ),
    key=("study",),
)

AGREEMENT_THRESHOLDS = Table(
    "staging.agreement_thresholds",
    "Each minimum of the study's `thresholds.minimums` against its estimate.",
    grain="declared minimum and rating field",
    written_by="agreement",
    columns=(
        f.STUDY,
        Column("threshold", f.VARCHAR, "Which minimum (`thresholds.minimums[i]`)."),
        f.TASK,
        f.FIELD,
        f.SLICE,
        _COEFFICIENT,
        f.ESTIMATE.described("The coefficient in `gold.agreement` (NaN if not computed)."),
        f.CI_LOW.described("Its 95% bootstrap interval in `gold.agreement`."),
        f.CI_HIGH,
        f.N_UNITS,
        Column("minimum", f.DOUBLE, "The declared minimum."),
        Column("passed", f.BOOLEAN, "The estimate reaches the minimum."),
        Column("severity", f.VARCHAR, "`warn` or `error`, as declared."),
        f.NOTE,
    ),
)

TABLES = (
    AGREEMENT,
    PAIRWISE,
    MATRICES,
    PILOT_GATES,
    PILOT_MATRICES,
    PILOT_GATE,
    AGREEMENT_THRESHOLDS,
)
