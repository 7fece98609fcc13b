"""The report's first screen: the study's question (``report.question``) answered by the view
its study file names (``report.answer``), never a list of uncorrected p-values.

- ``comparison``: the contrasts on all items, Holm-corrected together, and the protocol's
  agreement coefficient beside them (the ratings' reliability is what the answer rests on);
- ``gold_readiness``: is the gold set ready: agreement per task type on the gold tier with
  its interval against the minimum, tier shares against the routing targets, cost per case
  and labeler-days against ``report.budget``, spot-check disagreement against the noise
  floor and the drift rule, promotions, and which items judges are calibrated on;
- ``judge_agreement``: each judge against the humans per field (Spearman's rho, Cohen's
  kappa for binary and categorical fields, with intervals and the human ceiling) against the
  protocol's target;
- ``metric_families``: every metric per system with its interval;
- ``agreement``: each field's headline coefficient against its target, the spread over
  annotator pairs, and each annotator's self-consistency on hidden duplicates;
- ``ranking``: a pairwise study's systems ranked with intervals, the win-rate matrix,
  position bias and agreement on the same pair (:mod:`raterlab.report.pairwise`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from raterlab.agreement.study import headline_threshold
from raterlab.comparison.conditions import ALL as COMPARISON_ALL
from raterlab.comparison.conditions import REST
from raterlab.comparison.stats import holm
from raterlab.protocol import BinaryField, CategoricalField, Study
from raterlab.report.headline import headline_table
from raterlab.report.html import Section, fmt, heading, interval, paragraph, table
from raterlab.report.pairwise import ranking_answer

MAX_CONTRASTS = 6
"""Contrasts the comparison view shows (smallest Holm-adjusted p first)."""


@dataclass
class Check:
    """One line of the readiness view: what is measured, its figure, the target, the verdict
    (``True`` meets, ``False`` fails, ``None`` shown for information)."""

    check: str
    figure: str
    target: str
    ok: bool | None = None


@dataclass
class Answer:
    """The first screen: the section and a one-line verdict (for the asset's metadata)."""

    section: Section
    verdict: str = ""
    lines: list[str] = field(default_factory=list)


def answer_kind(study: Study) -> str:
    """The declared view, else ``comparison`` when the study compares, else ``agreement``."""
    if study.report.answer:
        return study.report.answer
    return "comparison" if study.comparison is not None else "agreement"


def _p(value: float) -> str:
    """``= 0.041``, ``< 0.001`` or ``= n/a``, to follow a ``p``."""
    if pd.isna(value):
        return "= n/a"
    return "< 0.001" if value < 0.001 else f"= {value:.3f}"


def contrast_sentence(study: Study, row: pd.Series) -> str:
    """One contrast of ``gold.condition_comparison`` in words."""
    unit = f"{study.comparison.pair} pairs" if row["paired"] else "items"
    name = f"{row['task']}.{row['field']}" if len(study.tasks) > 1 else row["field"]
    reference = row["reference"]
    if reference == REST:
        reference = f"the other {study.comparison.by} values"
    text = (
        f"{name}: {row['level']} - {reference} = "
        f"{fmt(row['mean_diff'], True)} on average (95% CI {fmt(row['mean_diff_low'], True)} "
        f"to {fmt(row['mean_diff_high'], True)}; median {fmt(row['median_diff'], True)}) over "
        f"{int(row['n_units'])} {unit}. "
    )
    if row["paired"]:
        text += (
            f"Wilcoxon signed-rank p {_p(row['p_value'])}, sign test p "
            f"{_p(row['sign_test_p'])}, rank-biserial r = {fmt(row['rank_biserial'])}. "
            f"{row['level']} wins {row['win_share']:.0%}, ties {row['tie_share']:.0%} and "
            f"loses {row['loss_share']:.0%} of the pairs. "
        )
    else:
        text += (
            f"Mann-Whitney p {_p(row['p_value'])}, rank-biserial r = {fmt(row['rank_biserial'])}. "
        )
    return text + (
        f"Adjusted for raters (fixed effects, SE clustered by "
        f"{study.comparison.pair or 'item'}): {fmt(row['adjusted_diff'], True)} "
        f"(SE {fmt(row['adjusted_se'])}, p {_p(row['adjusted_p'])})."
    )


def _held_back(inputs) -> list[str]:
    gate = inputs.get("staging.pilot_gate")
    if len(gate) and not bool(gate["passed"].iloc[0]):
        return [
            paragraph(
                f"The main round has not gone out ({gate['message'].iloc[0]}); the numbers "
                "below come from the pilot only.",
                "held",
            )
        ]
    return []


def first_screen(inputs) -> Answer:
    """The study's question and its answer (``inputs``: a ``ReportInputs``)."""
    study = inputs.study
    title = study.report.question or "The answer"
    answer = VIEWS[answer_kind(study)](inputs, Section(title, "answer"))
    answer.section.parts[:0] = _held_back(inputs)
    return answer


def _headline_agreement(inputs, slices: list[str] | None = None) -> str:
    study = inputs.study
    frame = headline_table(study, inputs.get("gold.agreement"), slices or ["all"])
    if frame.empty:
        return paragraph("No agreement computed yet.", "note")
    flag = frame["meets"] == "no"
    return table(frame.drop(columns="slice") if slices is None else frame, flag=flag)


def comparison_view(inputs, section: Section) -> Answer:
    """The contrasts on all items, Holm-corrected as one family, in words."""
    study = inputs.study
    if study.comparison is None:
        section.add(paragraph("The study declares no comparison (`comparison:`).", "note"))
        return Answer(section, "no comparison declared")
    comparison = inputs.get("gold.condition_comparison")
    overall = comparison[comparison["slice"] == COMPARISON_ALL] if len(comparison) else comparison
    overall = overall[overall["mean_diff"].notna()] if len(overall) else overall
    if overall.empty:
        text = "No consensus values to compare yet."
        if len(inputs.get("gold.condition_means")):
            text = (
                f"Only one value of {study.comparison.by} has consensus values, so there is "
                "nothing to compare; the means per value are in the results section."
            )
        section.add(
            paragraph(text, "lead"),
            heading("The protocol's agreement (all items)"),
            _headline_agreement(inputs),
        )
        return Answer(section, text)
    overall = overall.assign(p_family=holm(overall["p_value"].to_numpy()))
    shown = overall.sort_values("p_family", na_position="last").head(MAX_CONTRASTS)
    lines = [
        contrast_sentence(study, row) + f" Holm-adjusted p {_p(row['p_family'])}."
        for _, row in shown.iterrows()
    ]
    section.add(*(paragraph(line, "lead") for line in lines))
    note = (
        f"Holm correction over the {len(overall)} contrast(s) on all items"
        + (
            f"; the {len(shown)} with the smallest adjusted p are shown"
            if len(overall) > len(shown)
            else ""
        )
        + ". Per-slice contrasts are in the results section."
    )
    section.add(
        paragraph(note, "note"),
        heading("The protocol's agreement (all items)"),
        _headline_agreement(inputs),
    )
    return Answer(section, lines[0], lines)


def _wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n <= 0:
        return np.nan, np.nan
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _share(value: float) -> str:
    return "n/a" if pd.isna(value) else f"{value:.1%}"


def _task_alpha(inputs) -> list[Check]:
    """Each ``per: task`` minimum on its slice, with the interval."""
    study = inputs.study
    results = inputs.get("staging.agreement_thresholds")
    checks = []
    per_task = {
        f"thresholds.minimums[{i}]": t
        for i, t in enumerate(study.thresholds.minimums)
        if t.per == "task"
    }
    for _, r in results[results["threshold"].isin(per_task)].iterrows() if len(results) else []:
        t = per_task[r["threshold"]]
        level = str(r["field"]).removeprefix("(pooled ").split(":")[0]
        where = "" if r["slice"] == "all" else f" on {r['slice']}"
        figure = interval(r["estimate"], r.get("ci_low"), r.get("ci_high"), digits=3) or "n/a"
        units = r.get("n_units")
        if units is not None and not pd.isna(units):
            figure += f", {int(units)} units"
        checks.append(
            Check(
                f"{r['task']}: {t.coefficient} ({level})",
                figure,
                f">= {t.min:g}{where}",
                bool(r["passed"]),
            )
        )
    return checks


def _size_and_cost(inputs) -> list[Check]:
    """The set's size, tier shares, cost per case and labeler-days against the plan."""
    study = inputs.study
    budget = study.report.budget
    costs = inputs.get("gold.tier_costs")
    checks = []
    total = costs[costs["tier"] == "all"] if len(costs) else costs
    routed = inputs.get("staging.routed_items")
    sampled = routed[routed["sampled"].astype(bool)] if len(routed) else routed
    n = int(total["n"].iloc[0]) if len(total) else len(sampled)
    if budget is not None:
        types = sampled["task"].nunique() if len(sampled) else 0
        wanted = budget.task_types or 0
        checks.append(
            Check(
                "cases and task types",
                f"{n:,} cases, {types} task types",
                f">= {budget.cases:,}" + (f", >= {wanted}" if wanted else ""),
                n >= budget.cases and types >= wanted,
            )
        )
    targets = study.routing.targets
    tolerance = study.routing.target_tolerance
    tiers = costs[costs["tier"].isin(targets)] if len(costs) else costs
    if len(tiers):
        shares = " / ".join(f"{share:.1%}" for share in tiers["share"])
        counts = " / ".join(f"{int(k):,}" for k in tiers["n"])
        goals = " / ".join(f"{targets[t]:.0%}" for t in tiers["tier"])
        near = all(
            abs(share - targets[t]) <= tolerance + 1e-12
            for t, share in zip(tiers["tier"], tiers["share"], strict=True)
        )
        checks.append(
            Check(
                f"tier shares ({' / '.join(tiers['tier'])})",
                f"{shares} ({counts} cases)",
                f"{goals}, ± {tolerance:.0%} each",
                bool(near),
            )
        )
    if len(total) and budget is not None:
        row = total.iloc[0]
        if budget.cost_per_case is not None and not pd.isna(row["cost_per_case"]):
            checks.append(
                Check(
                    "cost per case (to the cent)",
                    f"${row['cost_per_case']:.3f} (${row['cost']:,.0f} in all)",
                    f"<= ${budget.cost_per_case:.2f}",
                    bool(round(row["cost_per_case"], 2) <= budget.cost_per_case + 1e-9),
                )
            )
        if budget.labeler_days is not None and not pd.isna(row["labeler_days"]) and n:
            per_plan = row["labeler_days"] / n * budget.cases
            checks.append(
                Check(
                    f"labeler-days per {budget.cases:,} cases",
                    f"{per_plan:.1f} ({row['labeler_days']:.1f} for {n:,})",
                    f"<= {budget.labeler_days:g}",
                    bool(per_plan <= budget.labeler_days + 1e-9),
                )
            )
    return checks


def _spot_checks(inputs) -> tuple[list[Check], str]:
    """The spot-check disagreement against the noise floor and the drift rule, and a note on
    what a 'week' is."""
    study = inputs.study
    quality = inputs.get("gold.rater_quality")
    spot = (
        quality[(quality["metric"] == "spot_check_disagreement") & (quality["annotator_id"] == "*")]
        if len(quality)
        else quality
    )
    checks = []
    floor = next((p.noise_floor for p in study.tiers.values() if p.noise_floor is not None), None)
    noisy = [t for t, p in study.tiers.items() if p.noise_floor is not None]
    overall = spot[spot["slice"] == "all"] if len(spot) else spot
    if len(overall):
        r = overall.iloc[0]
        low, high = _wilson(r["value"] * r["n"], int(r["n"]))
        figure = (
            f"{_share(r['value'])} [{_share(low)}, {_share(high)}] of {int(r['n'])} comparisons"
        )
        if floor is not None:
            checks.append(
                Check(
                    f"spot-check disagreement vs {', '.join(noisy)} noise floor",
                    figure,
                    f"<= {floor:.0%}",
                    bool(r["value"] <= floor),
                )
            )
    weekly = spot[spot["slice"].astype(str).str.startswith("week=")] if len(spot) else spot
    drift = study.quality.drift
    if drift is not None and len(weekly):
        worst = weekly.sort_values("value").iloc[-1]
        above = weekly[weekly["value"] > drift.max_disagreement]
        checks.append(
            Check(
                "drift rule (calendar weeks)",
                f"max {_share(worst['value'])} ({worst['slice'].removeprefix('week=')}), "
                f"{len(above)}/{len(weekly)} weeks above",
                f"not > {drift.max_disagreement:.0%} for {drift.consecutive_weeks} weeks running",
                not bool(weekly["flagged"].astype(bool).any()),
            )
        )
    promotions = inputs.get("gold.promotions")
    if drift is not None and checks and checks[-1].check.startswith("drift rule"):
        checks[-1].figure += f", {len(promotions)} promoted"
    assignments = inputs.get("staging.assignments")
    note = ""
    if len(weekly) and len(assignments) and "spot_check" in assignments:
        batches = assignments[assignments["spot_check"].astype(bool)]["batch"].nunique()
        note = (
            f"Spot checks go out with each batch ({batches} batches with spot checks"
            + (
                f", {study.design.batch_size} items each, 'a week of work'"
                if study.design.batch_size
                else ""
            )
            + f"); the drift rule counts calendar (ISO) weeks of ingestion: {len(weekly)} "
            "week(s) with spot checks. A batch is not a calendar week."
        )
    return checks, note


def _calibration_set(inputs) -> str:
    judges = inputs.study.judges
    if judges is None:
        return ""
    on = judges.calibrate_on or "every rated item"
    return f"Judges are calibrated on {on} (judges.calibrate_on)."


def readiness_view(inputs, section: Section) -> Answer:
    """Is the gold set ready: every figure the plan names against its target."""
    checks = [*_size_and_cost(inputs), *_task_alpha(inputs)]
    spot, note = _spot_checks(inputs)
    checks += spot
    failing = [c.check for c in checks if c.ok is False]
    judged = [c for c in checks if c.ok is not None]
    if not judged:
        verdict = "Not ready: nothing measured yet."
    elif failing:
        verdict = f"Not ready: {len(failing)} of {len(judged)} checks fail (shaded below)."
    else:
        verdict = f"Ready: all {len(judged)} checks pass."
    frame = pd.DataFrame(
        [
            {
                "check": c.check,
                "figure": c.figure,
                "target": c.target,
                "verdict": {True: "meets", False: "fails", None: ""}[c.ok],
            }
            for c in checks
        ]
    )
    section.add(
        paragraph(verdict, "held" if failing or not judged else "ok"),
        table(frame, flag=frame["verdict"] == "fails" if len(frame) else None),
    )
    notes = [n for n in (note, _calibration_set(inputs)) if n]
    if notes:
        section.add(paragraph(" ".join(notes), "note"))
    return Answer(section, verdict)


def _judge_rows(calibration: pd.DataFrame) -> pd.DataFrame:
    keep = (
        (calibration["slice"] == "all")
        & (calibration["level"] == "item")
        & calibration["versus"].isna()
        & calibration["statistic"].isin(["spearman", "kappa"])
    )
    if "label" in calibration:
        keep &= calibration["label"].isna() | (calibration["label"] == "")
    return calibration[keep]


def judge_view(inputs, section: Section) -> Answer:
    """Each judge against the humans per field, against the field's target."""
    study = inputs.study
    calibration = inputs.get("gold.judge_calibration")
    rows = _judge_rows(calibration) if len(calibration) else calibration
    if rows.empty:
        section.add(paragraph("No judge calibration yet.", "lead"))
        return Answer(section, "no judge calibration yet")
    agreement = inputs.get("gold.agreement")
    humans = (
        agreement[agreement["headline"].astype(bool) & (agreement["slice"] == "all")]
        if len(agreement) and "headline" in agreement
        else pd.DataFrame(columns=["task", "field"])
    )
    out, below = [], []
    for (task, fname, judge), part in rows.groupby(["task", "field", "judge"], sort=False):
        spec = study.tasks[task].fields[fname] if task in study.tasks else None
        nominal = isinstance(spec, BinaryField | CategoricalField)
        by = part.set_index("statistic")
        name = "kappa" if nominal and "kappa" in by.index else "spearman"
        if name not in by.index:
            continue
        main = by.loc[name]
        found = headline_threshold(study, fname, spec) if spec is not None else None
        if nominal and found:
            target, ok = f">= {found[1].min:g}", bool(main["estimate"] >= found[1].min)
        else:
            target, ok = "in human range", bool(main["within_human_range"])
        if not ok:
            below.append(f"{judge} on {fname}")
        human = humans[(humans["task"] == task) & (humans["field"] == fname)]
        out.append(
            {
                "dimension": task,
                "field": fname,
                "judge": judge,
                "n": main["n"],
                "statistic": "Spearman rho" if name == "spearman" else "Cohen's kappa",
                "judge vs humans [95% CI]": interval(
                    main["estimate"], main["ci_low"], main["ci_high"]
                ),
                "human ceiling": interval(
                    main["human_ceiling"], main["ceiling_low"], main["ceiling_high"]
                ),
                "humans": ""
                if human.empty
                else f"{human['coefficient'].iloc[0]} {fmt(human['estimate'].iloc[0])}",
                "target": target,
                "meets": "yes" if ok else "no",
            }
        )
    frame = pd.DataFrame(out)
    judges = sorted(set(frame["judge"])) if len(frame) else []
    if len(judges) == 1:
        frame = frame.drop(columns="judge")
    verdict = (
        f"Every judge meets its target on every field ({len(out)} judge-field pairs)."
        if not below
        else f"Below target: {', '.join(below)} (of {len(out)} judge-field pairs)."
    )
    section.add(
        paragraph(verdict, "lead"),
        table(frame, flag=frame["meets"] == "no" if len(frame) else None),
        paragraph(
            f"{', '.join(judges)} against the human consensus on all items: Cohen's kappa on "
            "binary and categorical fields, judged against the field's minimum in the study "
            "file (the protocol's target table); Spearman's rho on ordinal fields, judged "
            "against the human ceiling (the same statistic between one annotator and the "
            "others, leave one out). humans: the annotators' own headline agreement. "
            "Intervals: 95% bootstrap, per row (no test is made, so nothing is corrected).",
            "note",
        ),
    )
    return Answer(section, verdict)


def metrics_view(inputs, section: Section) -> Answer:
    """Every metric per system, with its interval (one column per system)."""
    metrics = inputs.get("gold.metrics")
    if metrics.empty:
        section.add(paragraph("No metrics yet (no consensus labels).", "lead"))
        return Answer(section, "no metrics yet")
    cells = metrics.assign(
        cell=[
            interval(e, lo, hi)
            for e, lo, hi in zip(
                metrics["estimate"], metrics["ci_low"], metrics["ci_high"], strict=True
            )
        ]
    )
    wide = cells.pivot_table(
        index=["family", "metric"], columns="system", values="cell", aggfunc="first", sort=False
    ).reset_index()
    wide.columns = [str(c) for c in wide.columns]
    systems = [c for c in wide.columns if c not in ("family", "metric")]
    kinds = ", ".join(sorted(set(metrics["interval"].dropna())))
    verdict = f"{len(wide)} metrics over {len(systems)} system value(s)."
    section.add(
        table(wide),
        paragraph(
            f"Rate [95% interval] per system ({kinds}); each interval is for its own cell. "
            "Differences between systems, with their tests, are in the results section.",
            "note",
        ),
    )
    return Answer(section, verdict)


def _pairs(inputs) -> pd.DataFrame:
    """Per field: how many annotator pairs, the range of their unweighted kappa, and how many
    fall below the headline target."""
    pairs = inputs.get("gold.agreement_pairwise")
    if pairs.empty or "cohen_kappa_unweighted" not in pairs:
        return pd.DataFrame()
    grouped = pairs.groupby(["task", "field"], sort=False)["cohen_kappa_unweighted"]
    return pd.DataFrame(
        {"pairs": grouped.size(), "lowest": grouped.min(), "highest": grouped.max()}
    ).reset_index()


def _self_consistency(inputs) -> pd.DataFrame:
    quality = inputs.get("gold.rater_quality")
    wanted = ["duplicate_within_one", "duplicate_exact", "intra_rater_kappa"]
    if quality.empty:
        return pd.DataFrame()
    rows = quality[
        quality["metric"].isin(wanted)
        & (quality["slice"] == "all")
        & (quality["annotator_id"] != "*")
    ]
    if rows.empty:
        return pd.DataFrame()
    wide = rows.pivot_table(
        index="annotator_id", columns="metric", values="value", aggfunc="first"
    ).reindex(columns=[w for w in wanted if w in set(rows["metric"])])
    n = rows[rows["metric"] == "duplicate_within_one"].set_index("annotator_id")["n"]
    flagged = rows.groupby("annotator_id")["flagged"].apply(lambda f: bool(f.astype(bool).any()))
    out = wide.assign(comparisons=n, flagged=flagged).reset_index()
    target = inputs.study.quality.duplicate_within_one
    return out.rename(columns={"duplicate_within_one": f"within one point (target >= {target:g})"})


def agreement_view(inputs, section: Section) -> Answer:
    """Each field's headline coefficient against its target, the pairs, self-consistency."""
    frame = headline_table(inputs.study, inputs.get("gold.agreement"), ["all"])
    if frame.empty:
        section.add(paragraph("No agreement computed yet.", "lead"))
        return Answer(section, "no agreement yet")
    below = frame[frame["meets"] == "no"]["field"].tolist()
    verdict = (
        f"Every field meets its target ({len(frame)} fields)."
        if not below
        else f"Below target: {', '.join(below)} (of {len(frame)} fields)."
    )
    pairs = _pairs(inputs)
    if len(pairs):
        keys = [c for c in ("task", "field") if c in frame]
        pairs = pairs.rename(columns={"lowest": "lowest pair", "highest": "highest pair"})
        frame = frame.merge(
            pairs.drop(columns=[c for c in ("task",) if c not in keys]), on=keys, how="left"
        )
    section.add(
        paragraph(verdict, "lead"),
        table(frame.drop(columns="slice"), flag=frame["meets"] == "no"),
        paragraph(
            "The coefficient is the one the study's thresholds name for each field (headline); "
            "the pairs columns are unweighted Cohen's kappa of each annotator pair "
            "(gold.agreement_pairwise).",
            "note",
        ),
    )
    consistency = _self_consistency(inputs)
    if len(consistency):
        section.add(
            heading("Self-consistency on hidden duplicates"),
            table(consistency, flag=consistency["flagged"].astype(bool)),
        )
    return Answer(section, verdict)


def ranking_view(inputs, section: Section) -> Answer:
    """A pairwise study's ranking, win rates, position bias and agreement."""
    found = ranking_answer(inputs)
    section.add(*found.parts)
    return Answer(section, found.verdict, found.lines)


VIEWS: dict[str, Callable[..., Answer]] = {
    "comparison": comparison_view,
    "gold_readiness": readiness_view,
    "judge_agreement": judge_view,
    "metric_families": metrics_view,
    "agreement": agreement_view,
    "ranking": ranking_view,
}

__all__ = ["VIEWS", "Answer", "answer_kind", "contrast_sentence", "first_screen"]
