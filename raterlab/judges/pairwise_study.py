"""A study's ``gold.pairwise_judges``: each judge of a pairwise field against the humans'
winners (:func:`raterlab.judges.pairwise.winner_agreement`) beside its position checks on the
pairs it judged in both orders (:func:`raterlab.judges.robustness.position_swap_checks`), per
task, judge, field and slice (the slices of :func:`raterlab.judges.verdict_study.paired_fields`).
"""

from __future__ import annotations

import duckdb
import pandas as pd

from raterlab.hashing import stable_int
from raterlab.judges.pairwise import outcomes, swap_frame, winner_agreement
from raterlab.judges.robustness import position_swap_checks
from raterlab.judges.verdict_study import (
    PairedField,
    paired_fields,
    robustness_rows,
    stamped,
    study_data,
)
from raterlab.judges.verdicts import first_runs
from raterlab.protocol import Study
from raterlab.protocol.fields import PairwiseField
from raterlab.settings import Home
from raterlab.tables import names
from raterlab.tables.judge_verdicts import PAIRWISE_JUDGES, ROBUSTNESS

_SWAP = {
    "n": "n_swapped_pairs",
    "estimate": "consistent_share",
    "ci_low": "consistent_share_low",
    "ci_high": "consistent_share_high",
}
_BIAS = {
    "n": "n_non_tie",
    "estimate": "left_share",
    "ci_low": "left_share_low",
    "ci_high": "left_share_high",
    "p_value": "p_value",
    "flagged": "flagged",
}


def _judged(pair: PairedField) -> pd.DataFrame:
    """The judge's readable verdicts on the slice's pairs (the first run of each order) with
    their outcome and the pair's human outcome."""
    human = dict(zip(pair.units, outcomes(pd.Series(pair.human, dtype=object)), strict=True))
    verdicts = first_runs(pair.runs, per_order=True)
    judged = verdicts.assign(
        outcome=outcomes(verdicts["value"]), human=verdicts["item_id"].astype(str).map(human)
    )
    return judged[judged["outcome"].notna() & judged["human"].notna()]


def _row(pair: PairedField, resamples: int, confidence: float, seed: int) -> dict:
    row = {"task": pair.task, "judge": pair.judge, "field": pair.field, "slice": pair.slice}
    row |= winner_agreement(_judged(pair), resamples, confidence, seed)
    checks = position_swap_checks(swap_frame(pair.runs), confidence).set_index("check")
    for check, renamed in (("position_swap", _SWAP), ("position_bias", _BIAS)):
        if check in checks.index:
            row |= {new: checks.at[check, old] for old, new in renamed.items()}
    return row


def pairwise_judge_rows(
    study: Study,
    verdicts: pd.DataFrame,
    consensus: pd.DataFrame,
    records: dict[str, dict],
    tiers: dict[str, str],
    resamples: int | None = None,
) -> pd.DataFrame:
    """``gold.pairwise_judges`` rows of ``study`` (without ``study`` and ``computed_at``): one
    per task, judge, pairwise field and slice with a verdict on a pair that has a human
    consensus winner. Arguments as :func:`raterlab.judges.verdict_study.robustness_rows`."""
    columns = [c for c in names(PAIRWISE_JUDGES) if c not in ("study", "computed_at")]
    rows = []
    if study.judges is not None:
        n = study.judges.resamples if resamples is None else resamples
        seed = stable_int(study.name, study.design.seed, "pairwise_judges")
        for pair in paired_fields(study, verdicts, consensus, records, tiers, (PairwiseField,)):
            rows.append(_row(pair, n, study.judges.confidence, seed))
    return pd.DataFrame(rows, columns=columns)


def robustness_tables(
    con: duckdb.DuckDBPyConnection, study: Study, home: Home, resamples: int | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``study``'s ``gold.judge_robustness`` (:func:`robustness_rows`) and
    ``gold.pairwise_judges`` (:func:`pairwise_judge_rows`) rows, without ``study``, from the
    warehouse and the imported judge files, read (and the verdicts gathered) once for both."""
    data = study_data(con, study, home)
    robustness = robustness_rows(
        study, data.verdicts, data.consensus, data.records, data.tiers, resamples
    )
    pairwise = pairwise_judge_rows(
        study, data.verdicts, data.consensus, data.records, data.tiers, resamples
    )
    return stamped(robustness, names(ROBUSTNESS)), stamped(pairwise, names(PAIRWISE_JUDGES))
