"""The Dagster UI's agreement check leads with the protocol's coefficient (the headline rows of
``gold.agreement``), not with whichever coefficient happens to come first."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from assets.agreement import agreement_thresholds
from raterlab import warehouse
from resources import Raterlab


def test_the_check_shows_the_protocols_kappa_against_its_target(tmp_path: Path) -> None:
    raterlab = Raterlab(home=str(tmp_path))
    agreement = pd.DataFrame(
        {
            "task": ["correctness"] * 2,
            "field": ["correctness"] * 2,
            "slice": ["all"] * 2,
            "coefficient": ["cohen_kappa"] * 2,
            "level": ["weights=quadratic", "weights=unweighted"],
            "estimate": [0.887, 0.663],
            "ci_low": [0.84, 0.551],
            "ci_high": [0.92, 0.772],
            "n_units": [100, 100],
            "band": ["excellent", "substantial"],
            "headline": [False, True],
            "declared_by": ["thresholds.minimums[1]", "thresholds.pilot_gate"],
        }
    )
    thresholds = pd.DataFrame({"threshold": ["thresholds.minimums[0]"], "passed": [False]})
    with raterlab.warehouse() as con:
        con.execute("CREATE SCHEMA IF NOT EXISTS gold")
        con.execute("CREATE SCHEMA IF NOT EXISTS staging")
        warehouse.replace_study_rows(con, "gold.agreement", "correctness_ab", agreement)
        warehouse.replace_study_rows(
            con, "staging.agreement_thresholds", "correctness_ab", thresholds
        )
    check = agreement_thresholds.node_def.compute_fn.decorated_fn
    result = check(SimpleNamespace(partition_key="correctness_ab"), raterlab=raterlab)
    headline = result.metadata["headline"].value
    assert "cohen_kappa (weights=unweighted)" in headline and "0.663 [0.551, 0.772]" in headline
    assert "> 0.7 (pilot_gate)" in headline and "0.887" not in headline
