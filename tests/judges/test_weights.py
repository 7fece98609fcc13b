"""Multi-judge weights: agreement with the consensus, alpha with and without the judge,
flags from the bounds, deweighting."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from raterlab.agreement import krippendorff_alpha
from raterlab.judges.field_input import FieldInput
from raterlab.judges.weights import judge_weights


def test_weights_flag_and_deweight() -> None:
    rng = np.random.default_rng(3)
    n = 200
    truth = rng.integers(0, 2, n)
    humans = np.array(
        [[str(t if rng.random() < 0.92 else 1 - t) for _ in range(2)] for t in truth], dtype=object
    )
    good = np.array([str(t if rng.random() < 0.9 else 1 - t) for t in truth], dtype=object)
    noisy = np.array([str(t if rng.random() < 0.6 else 1 - t) for t in truth], dtype=object)
    consensus = np.array([str(t) for t in truth], dtype=object)
    fi = FieldInput(
        field="ok",
        kind="categorical",
        units=np.arange(n).astype(str).astype(object),
        raters=["a", "b"],
        humans=humans,
        judges={"good": good, "noisy": noisy},
        given={"good": np.ones(n, bool), "noisy": np.ones(n, bool)},
        labels=["0", "1"],
        alpha_level="nominal",
    )
    table = judge_weights(fi, consensus, max_alpha_drop=0.1, min_agreement=0.4, deweight=0.5)
    table = table.set_index("judge")
    alpha = float(krippendorff_alpha(humans, level="nominal"))
    for judge, verdicts in (("good", good), ("noisy", noisy)):
        row = table.loc[judge]
        assert row["agreement"] == pytest.approx(cohen_kappa_score(verdicts, consensus))
        assert row["alpha_humans"] == pytest.approx(alpha)
        with_judge = float(krippendorff_alpha(np.column_stack([humans, verdicts]), "nominal"))
        assert row["alpha_with_judge"] == pytest.approx(with_judge)
        assert row["alpha_drop"] == pytest.approx(alpha - with_judge)
    assert not table.loc["good", "flagged"]
    assert table.loc["noisy", "flagged"]
    assert "alpha drops by" in table.loc["noisy", "reason"]
    assert table.loc["good", "weight"] == pytest.approx(table.loc["good", "agreement"])
    assert table.loc["noisy", "weight"] == pytest.approx(
        0.5 * max(table.loc["noisy", "agreement"], 0)
    )
    assert table["share"].sum() == pytest.approx(1)
