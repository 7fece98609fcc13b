"""What a study's pairwise tables must satisfy, as lists of problems (empty: none)."""

from __future__ import annotations

import pandas as pd

from raterlab.pairwise.comparisons import counted_comparisons
from raterlab.pairwise.study import ALL


def interval_problems(ranking: pd.DataFrame) -> list[str]:
    """Rows of ``gold.pairwise_ranking`` whose strength lies outside its interval or whose
    rank lies outside its rank interval (a percentile interval may, on very few prompts)."""
    fitted = ranking[ranking["strength"].notna()]
    outside = fitted[
        (fitted["strength"] < fitted["ci_low"])
        | (fitted["strength"] > fitted["ci_high"])
        | (fitted["rank"] < fitted["rank_low"])
        | (fitted["rank"] > fitted["rank_high"])
    ]
    return [
        f"{r.task}/{r.field} [{r.slice}] {r.system}: strength {r.strength:.3f} in "
        f"[{r.ci_low:.3f}, {r.ci_high:.3f}], rank {r.rank} in [{r.rank_low}, {r.rank_high}]"
        for r in outside.itertuples()
    ]


def missing_systems(comparisons: pd.DataFrame, ranking: pd.DataFrame) -> list[str]:
    """Systems of the counted comparisons of a field that its ``slice = 'all'`` ranking
    lacks, or ranks without a strength."""
    rows = counted_comparisons(comparisons)
    ranked = ranking[(ranking["slice"] == ALL) & ranking["strength"].notna()]
    have = set(zip(ranked["task"], ranked["field"], ranked["system"], strict=True))
    problems = []
    for (task, field), own in rows.groupby(["task", "field"], sort=True):
        systems = sorted(set(own["system_a"]) | set(own["system_b"]))
        lacking = [s for s in systems if (task, field, s) not in have]
        if lacking:
            problems.append(f"{task}/{field}: no strength for {lacking}")
    return problems
