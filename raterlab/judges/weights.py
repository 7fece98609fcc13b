"""Multi-judge weights (the gold-set protocol, ADR-001: "judges that fall outside alpha-based
agreement bounds get their weights deweighted").

Per judge and field:

- ``agreement``: the judge against the human consensus, Cohen's kappa for binary and
  categorical fields, Spearman's rho for graded ones;
- ``alpha_humans``: Krippendorff's alpha among the humans, at the field's level;
  ``alpha_with_judge``: the same with the judge added as one more rater of every unit it
  judged; ``alpha_drop = alpha_humans - alpha_with_judge``;
- ``flagged`` when ``alpha_drop > max_alpha_drop`` or ``agreement < min_agreement``;
- ``weight``: ``max(agreement, 0)``, times ``deweight`` when flagged; ``share``: the weights
  normalised to sum to 1 over the field's judges (all zero when every weight is zero), for
  combining the judges' verdicts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from raterlab.agreement import AgreementUndefined, cohen_kappa, krippendorff_alpha, spearman_rho
from raterlab.judges.field_input import FieldInput

COLUMNS = (
    "judge",
    "field",
    "n",
    "agreement_statistic",
    "agreement",
    "alpha_humans",
    "alpha_with_judge",
    "alpha_drop",
    "flagged",
    "reason",
    "weight",
    "share",
)


def _safe(compute) -> float:
    try:
        return float(compute())
    except (AgreementUndefined, ValueError):
        return float("nan")


def judge_weights(
    fi: FieldInput,
    consensus: np.ndarray,
    max_alpha_drop: float,
    min_agreement: float,
    deweight: float,
) -> pd.DataFrame:
    """Weights of the judges of one field against ``consensus`` (one value per unit of
    ``fi``, NaN/None where the field has no consensus value)."""
    rows = []
    humans = fi.humans
    alpha_humans = _safe(lambda: krippendorff_alpha(humans, level=fi.alpha_level))
    graded = fi.kind == "graded"
    for judge, verdicts in fi.judges.items():
        if graded:
            x, y = verdicts.astype(float), np.asarray(consensus, dtype=float)
            both = ~(np.isnan(x) | np.isnan(y))
            agreement = _safe(lambda x=x, y=y, both=both: spearman_rho(x[both], y[both]))
            statistic = "spearman"
        else:
            x = np.asarray(verdicts, dtype=object)
            y = np.asarray(consensus, dtype=object)
            both = np.array([a is not None and b is not None for a, b in zip(x, y, strict=True)])
            both &= ~pd.isna(pd.Series(y)).to_numpy()
            pair = np.column_stack([x[both], y[both]])
            agreement = _safe(lambda pair=pair: cohen_kappa(pair))
            statistic = "kappa"
        column = verdicts.astype(float) if graded else np.asarray(verdicts, dtype=object)
        with_judge = np.column_stack([humans, column])
        alpha_with = _safe(lambda m=with_judge: krippendorff_alpha(m, level=fi.alpha_level))
        drop = alpha_humans - alpha_with
        reasons = []
        if np.isfinite(drop) and drop > max_alpha_drop:
            reasons.append(f"alpha drops by {drop:.3f} > {max_alpha_drop:g}")
        if not np.isfinite(agreement) or agreement < min_agreement:
            reasons.append(f"{statistic} {agreement:.3f} < {min_agreement:g}")
        raw = max(agreement, 0.0) if np.isfinite(agreement) else 0.0
        rows.append(
            {
                "judge": judge,
                "field": fi.field,
                "n": int(both.sum()),
                "agreement_statistic": statistic,
                "agreement": agreement,
                "alpha_humans": alpha_humans,
                "alpha_with_judge": alpha_with,
                "alpha_drop": drop,
                "flagged": bool(reasons),
                "reason": "; ".join(reasons),
                "weight": raw * (deweight if reasons else 1.0),
            }
        )
    frame = pd.DataFrame(rows, columns=[c for c in COLUMNS if c != "share"])
    total = frame["weight"].sum()
    return frame.assign(share=frame["weight"] / total if total > 0 else 0.0)
