"""A study's judge robustness and judge verdicts (``gold.judge_robustness``,
``gold.judge_verdicts``, declared in :mod:`raterlab.tables.judge_verdicts`).

The judges' verdicts (every run) are compared with the human consensus (``gold.consensus``)
on the items the study calibrates its judges on (``judges.calibrate_on``), on all of them and
in each slice the calibration uses (:func:`raterlab.judges.study.task_slices`):
:func:`robustness_rows` gives the repeat-run consistency, the position checks of pairwise
fields and the bias per slice (:mod:`raterlab.judges.robustness`);
:func:`consensus_correlations` the judge-consensus correlation, agreement rate and the
systems' score the verdicts read; :func:`verdict_inputs`
joins them with the calibration (``gold.judge_calibration``) and, where the PPI estimates
exist, ``gold.judge_substitution``, and :func:`raterlab.judges.verdict.judge_verdicts` decides.
Nothing here names a study.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import duckdb
import numpy as np
import pandas as pd

from raterlab.hashing import stable_int
from raterlab.ingest.study_tables import load_tables
from raterlab.judges.pairwise import swap_frame
from raterlab.judges.robustness import (
    ROW_KEYS,
    position_swap_checks,
    repeat_run_consistency,
    slice_bias,
)
from raterlab.judges.store import read_calibration
from raterlab.judges.study import calibration_items, study_verdicts, task_slices
from raterlab.judges.verdict import INPUT_COLUMNS, fisher_interval, judge_verdicts
from raterlab.judges.verdicts import first_runs, judges_dir, record_keys
from raterlab.membership import is_in
from raterlab.protocol import BinaryField, CategoricalField, LikertField, Study
from raterlab.protocol.fields import PairwiseField
from raterlab.settings import Home
from raterlab.tables import names
from raterlab.tables.judge_verdicts import PAIRWISE_JUDGES, ROBUSTNESS, VERDICTS
from raterlab.warehouse import read_table

KEYS = ("task", "judge", "field", "slice")
ROBUSTNESS_COLUMNS = (*KEYS, *ROW_KEYS)
"""Columns of ``gold.judge_robustness`` without ``study`` and ``computed_at``."""

HEADLINE = ("kappa", "spearman")
"""The calibration statistic a verdict reads: kappa (binary, categorical), Spearman (Likert)."""


@dataclass
class PairedField:
    """One judge on one field and slice: its verdicts (every run) and, per unit (``units``),
    its first run's verdict beside the human consensus (numbers, or labels for categorical
    fields)."""

    task: str
    judge: str
    field: str
    slice: str
    spec: object
    runs: pd.DataFrame
    units: np.ndarray
    judged: np.ndarray
    human: np.ndarray


def _kind(spec: object) -> str:
    return "graded" if isinstance(spec, LikertField) else "categorical"


def _values(spec: object, values: pd.Series) -> np.ndarray:
    """Verdict or consensus text as the field compares it: numbers (binary, Likert), labels."""
    if isinstance(spec, CategoricalField):
        return values.astype(object).where(values.notna(), None).to_numpy(dtype=object)
    return pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)


def paired_fields(
    study: Study,
    verdicts: pd.DataFrame,
    consensus: pd.DataFrame,
    records: dict[str, dict],
    tiers: dict[str, str],
    kinds: tuple[type, ...] | None = None,
) -> Iterator[PairedField]:
    """Every judge, field and slice with consensus values to compare its verdicts with;
    with ``kinds``, only the fields of those types.

    The consensus and the first runs are split by task and field once, and item ids made
    Python text once (each field's boolean masks over every row, and the ids read one Arrow
    value at a time, were most of this at 100,000 items)."""
    if study.judges is None or verdicts.empty or consensus.empty:
        return
    if study.judges.calibrate_on:
        kept = calibration_items(
            study.judges.calibrate_on, set(verdicts["item_id"].astype(str)), records, tiers
        )
        verdicts = verdicts[is_in(verdicts["item_id"].astype(str), kept)]
    if kinds is not None:
        wanted = [
            (task_name, name)
            for task_name, task in study.tasks.items()
            for name, spec in task.fields.items()
            if isinstance(spec, kinds)
        ]
        verdicts = verdicts[
            pd.MultiIndex.from_arrays([verdicts["task"], verdicts["field"]]).isin(wanted)
        ]
        if verdicts.empty:
            return
    first = first_runs(verdicts)
    agreed_of = dict(tuple(consensus.groupby(["task", "field"], sort=False)))
    first_of = dict(tuple(first.groupby(["task", "field"], sort=False)))
    for (task, field), rows in verdicts.groupby(["task", "field"], sort=True):
        spec = study.tasks[str(task)].fields[str(field)]
        agreed = agreed_of.get((task, field), consensus.iloc[:0])
        human_of = dict(
            zip(
                agreed["item_id"].astype(str).to_numpy(dtype=object),
                agreed["value"].to_numpy(dtype=object),
                strict=True,
            )
        )
        items = rows["item_id"].astype(str).to_numpy(dtype=object)
        units = np.array(sorted(set(items) & set(human_of)), dtype=object)
        if not units.size:
            continue
        slices = {"all": np.ones(units.size, dtype=bool)}
        for key, levels in task_slices(study, str(task), set(units), records, tiers).items():
            values = np.array([str(levels.get(u)) for u in units], dtype=object)
            slices |= {f"{key}={v}": values == v for v in sorted(set(values)) if v != "None"}
        human = _values(spec, pd.Series([human_of[u] for u in units]))
        mine = first_of.get((task, field), first.iloc[:0])
        mine_of = dict(tuple(mine.groupby("judge", sort=False)))
        unit_index = pd.Index(units)
        at_all = unit_index.get_indexer(items)  # -1: no consensus
        by_judge = rows.groupby("judge", sort=True)
        for judge, own in by_judge:
            verdict_of = mine_of.get(judge, mine.iloc[:0]).set_index("item_id")["value"]
            judged = _values(spec, verdict_of.reindex(units))
            at = at_all[by_judge.indices[judge]]
            paired = at >= 0
            for name, mask in slices.items():
                kept_runs = own[paired & mask[np.where(paired, at, 0)]]
                yield PairedField(
                    str(task),
                    str(judge),
                    str(field),
                    name,
                    spec,
                    kept_runs,
                    units[mask],
                    judged[mask],
                    human[mask],
                )


def _robustness(pair: PairedField, resamples: int, confidence: float, seed: int) -> list[dict]:
    """The repeat-run (when the judge has several runs), position (pairwise fields: swap
    consistency and left share, where the judge saw a pair in both orders) and slice-bias
    rows of one pair."""
    rows = []
    if pair.runs["run"].nunique() > 1:
        runs = pair.runs.rename(columns={"item_id": "unit"})[["unit", "run", "value"]]
        if _kind(pair.spec) == "graded":
            runs = runs.assign(value=pd.to_numeric(runs["value"], errors="coerce"))
        row = repeat_run_consistency(runs, _kind(pair.spec), resamples, confidence, seed)
        rows += [row] if row is not None else []
    if isinstance(pair.spec, PairwiseField):
        checks = position_swap_checks(swap_frame(pair.runs), confidence)
        rows += checks.drop(columns="judge").to_dict("records")
    labels = list(pair.spec.labels) if isinstance(pair.spec, CategoricalField) else None
    rows += slice_bias(pair.judged, pair.human, labels, confidence)
    keys = {"task": pair.task, "judge": pair.judge, "field": pair.field, "slice": pair.slice}
    return [{**keys, **row} for row in rows]


def robustness_rows(
    study: Study,
    verdicts: pd.DataFrame,
    consensus: pd.DataFrame,
    records: dict[str, dict],
    tiers: dict[str, str],
    resamples: int | None = None,
) -> pd.DataFrame:
    """``gold.judge_robustness`` rows of ``study`` (:data:`ROBUSTNESS_COLUMNS`): per judge,
    field and slice, the repeat-run consistency (judges with several runs), the position-swap
    consistency and left share (pairwise fields judged in both orders) and the bias against
    the consensus. ``verdicts``: :data:`raterlab.judges.verdicts.VERDICT_COLUMNS` (every
    run); ``consensus``: the study's ``gold.consensus`` rows; ``resamples`` overrides the
    study's ``judges.resamples``."""
    rows: list[dict] = []
    if study.judges is not None:
        spec = study.judges
        n = spec.resamples if resamples is None else resamples
        seed = stable_int(study.name, study.design.seed, "judge_robustness")
        for pair in paired_fields(study, verdicts, consensus, records, tiers):
            rows += _robustness(pair, n, spec.confidence, seed)
    return pd.DataFrame(rows, columns=list(ROBUSTNESS_COLUMNS))


def _correlation(pair: PairedField, confidence: float) -> dict:
    """Pearson rho of judge and consensus (numeric fields) with its Fisher interval; for
    binary fields the judge's agreement rate and the share of consensus 1s."""
    out = dict.fromkeys(("n_labeled", "rho", "rho_low", "rho_high"))
    out |= {"judge_accuracy": None, "system_score": None}
    if isinstance(pair.spec, CategoricalField):
        both = ~(pd.isna(pair.judged) | pd.isna(pair.human))
        return out | {"n_labeled": int(both.sum())}
    both = np.isfinite(pair.judged) & np.isfinite(pair.human)
    x, y = pair.judged[both], pair.human[both]
    out["n_labeled"] = int(both.sum())
    if x.size >= 2 and x.std() > 0 and y.std() > 0:
        rho = float(np.corrcoef(x, y)[0, 1])
        low, high = fisher_interval(rho, x.size, confidence)
        out |= {"rho": rho, "rho_low": low, "rho_high": high}
    if isinstance(pair.spec, BinaryField) and x.size:
        out |= {"judge_accuracy": float(np.mean(x == y)), "system_score": float(np.mean(y))}
    return out


def consensus_correlations(
    study: Study,
    verdicts: pd.DataFrame,
    consensus: pd.DataFrame,
    records: dict[str, dict],
    tiers: dict[str, str],
) -> pd.DataFrame:
    """Per task, judge, field and slice: ``n_labeled`` (units with a verdict and a consensus
    value), the judge-consensus Pearson ``rho`` with its Fisher interval (numeric fields), and
    for binary fields ``judge_accuracy`` (share of units where the judge equals the consensus)
    and ``system_score`` (share of units whose consensus is 1)."""
    confidence = study.judges.confidence if study.judges else 0.95
    rows = [
        {"task": p.task, "judge": p.judge, "field": p.field, "slice": p.slice}
        | _correlation(p, confidence)
        for p in paired_fields(study, verdicts, consensus, records, tiers)
    ]
    columns = [*KEYS, "n_labeled", "rho", "rho_low", "rho_high", "judge_accuracy", "system_score"]
    return pd.DataFrame(rows, columns=columns)


def _flag_text(row: pd.Series) -> str:
    label = f"[{row['label']}]" if isinstance(row["label"], str) else ""
    return (
        f"{row['check']}{label} {row['estimate']:.2f} [{row['ci_low']:.2f}, {row['ci_high']:.2f}]"
    )


def _checks(robustness: pd.DataFrame) -> pd.DataFrame:
    """Per task, judge, field and slice: checks measured (a flag decided) and those flagged."""
    measured = robustness[robustness["flagged"].notna()]
    if measured.empty:
        return pd.DataFrame(columns=[*KEYS, "n_checks", "checks_flagged"])
    flagged = measured["flagged"].astype(bool)
    text = measured.apply(_flag_text, axis=1).where(flagged, "")
    return (
        measured.assign(_text=text)
        .groupby(list(KEYS), sort=False)
        .agg(
            n_checks=("check", "size"),
            checks_flagged=("_text", lambda t: "; ".join(x for x in t if x)),
        )
        .reset_index()
    )


def _headline(calibration: pd.DataFrame) -> pd.DataFrame:
    """The calibration's headline rows (item level, kappa or Spearman, no comparison) and the
    alternative annotator test's winning rate beside them, per task, judge, field and slice."""
    item = calibration[(calibration["level"] == "item") & calibration["versus"].isna()]
    head = item[item["statistic"].isin(HEADLINE) & item["label"].isna()]
    head = head[[*KEYS, "statistic", "estimate", "ceiling_low", "ceiling_high"]].assign(
        within_human_range=item.loc[head.index, "within_human_range"]
    )
    alt = item[item["statistic"] == "alt_winning_rate"][[*KEYS, "estimate"]]
    return head.merge(
        alt.rename(columns={"estimate": "alt_winning_rate"}), on=list(KEYS), how="left"
    )


def _substitution(substitution: pd.DataFrame | None) -> pd.DataFrame:
    """``n_labeled`` and ``effective_n`` per task, judge, field and slice of the PPI table:
    a graded field's one row (``label`` NULL), a binary field's rate of 1, and for a
    categorical field its label whose estimate gains least (the verdict holds for every
    label)."""
    columns = [*KEYS, "n_labeled", "effective_n"]
    if substitution is None or substitution.empty:
        return pd.DataFrame(columns=columns)
    rows = substitution.assign(_gain=substitution["effective_n"] / substitution["n_labeled"])
    return rows.sort_values("_gain", na_position="first")[columns].drop_duplicates(list(KEYS))


def _winners(pairwise: pd.DataFrame | None) -> pd.DataFrame:
    """``winner_kappa`` and ``winner_kappa_low`` per task, judge, field and slice of
    ``gold.pairwise_judges`` (none without the table)."""
    columns = [*KEYS, "winner_kappa", "winner_kappa_low"]
    if pairwise is None or pairwise.empty:
        return pd.DataFrame(columns=columns)
    renamed = {"kappa": "winner_kappa", "kappa_low": "winner_kappa_low"}
    return pairwise.rename(columns=renamed)[columns]


def verdict_inputs(
    calibration: pd.DataFrame,
    robustness: pd.DataFrame,
    correlations: pd.DataFrame,
    substitution: pd.DataFrame | None = None,
    pairwise: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The rows :func:`raterlab.judges.verdict.judge_verdicts` reads
    (:data:`raterlab.judges.verdict.INPUT_COLUMNS`), one per headline calibration row: the
    calibration, its robustness checks, the PPI gain's inputs (from ``substitution``, the
    study's ``gold.judge_substitution``, where it has the row; else the correlation), and a
    pairwise field's agreement with the human winners (from ``pairwise``, the study's
    ``gold.pairwise_judges``)."""
    if calibration.empty:
        return pd.DataFrame(columns=list(INPUT_COLUMNS))
    frame = _headline(calibration).merge(_checks(robustness), on=list(KEYS), how="left")
    frame = frame.merge(_winners(pairwise), on=list(KEYS), how="left")
    ppi = _substitution(substitution)
    frame = frame.merge(correlations, on=list(KEYS), how="left").merge(
        ppi, on=list(KEYS), how="left", suffixes=("", "_ppi")
    )
    frame["n_labeled"] = frame["n_labeled_ppi"].where(
        frame["n_labeled_ppi"].notna(), frame["n_labeled"]
    )
    frame["n_checks"] = frame["n_checks"].fillna(0).astype(int)
    frame["checks_flagged"] = frame["checks_flagged"].fillna("")
    return frame[list(INPUT_COLUMNS)]


SUBSTITUTION = "gold.judge_substitution"
"""The PPI estimates' table, read where it exists."""


@dataclass
class StudyData:
    verdicts: pd.DataFrame
    consensus: pd.DataFrame
    records: dict[str, dict]
    tiers: dict[str, str]


def study_data(con: duckdb.DuckDBPyConnection, study: Study, home: Home) -> StudyData:
    """The study's verdicts (every run), consensus, item records and tiers (the items' tables
    alone are read: no label)."""
    tables, keys = load_tables(con, study, ratings=False), record_keys(study)
    verdicts = study_verdicts(
        study, tables.decoded_generations(keys), judges_dir(home.root, study.name)
    )
    consensus = read_table(con, "gold.consensus", study.name)
    if consensus is None:
        consensus = pd.DataFrame(columns=["task", "item_id", "field", "value", "value_num"])
    return StudyData(verdicts, consensus, tables.records(keys), tables.tiers())


def stamped(rows: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """``rows`` in a table's columns (without ``study``), ``computed_at`` now."""
    frame = rows.assign(computed_at=pd.Timestamp.now(tz="UTC")).reindex(columns=columns[1:])
    frame = frame.astype({c: object for c in frame.columns if frame[c].dtype == object})
    return frame.where(frame.notna(), None)


def study_judge_verdicts(con: duckdb.DuckDBPyConnection, study: Study, home: Home) -> pd.DataFrame:
    """``study``'s ``gold.judge_verdicts`` rows (without ``study``): its calibration,
    robustness and, where they exist, ``gold.judge_substitution`` and
    ``gold.pairwise_judges``, decided by
    :func:`raterlab.judges.verdict.judge_verdicts`."""
    data = study_data(con, study, home)
    calibration = read_calibration(con, study.name).calibration
    robustness = read_table(con, ROBUSTNESS.name, study.name)
    correlations = consensus_correlations(
        study, data.verdicts, data.consensus, data.records, data.tiers
    )
    inputs = verdict_inputs(
        calibration,
        robustness if robustness is not None else pd.DataFrame(columns=list(ROBUSTNESS_COLUMNS)),
        correlations,
        read_table(con, SUBSTITUTION, study.name),
        read_table(con, PAIRWISE_JUDGES.name, study.name),
    )
    return stamped(judge_verdicts(inputs), names(VERDICTS))
