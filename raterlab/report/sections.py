"""The sections of a study report, each built from the study model and the study's rows of the
warehouse tables (:class:`ReportInputs`). A section whose table does not exist yet says so,
or is left out when it belongs to an optional stage (judge calibration, other gold tables)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from raterlab.comparison.table import ALL as COMPARISON_ALL
from raterlab.comparison.table import REST
from raterlab.protocol import Study
from raterlab.quality import flag_summary
from raterlab.report.html import Section, heading, image, paragraph, table

PLOTS = {
    "agreement": "agreement.png",
    "quality": "rater_quality.png",
    "comparison": "condition_comparison.png",
    "judge": "judge_calibration.png",
}
"""Plots the pipeline writes to ``reports/<study>/``, by section."""


@dataclass
class ReportInputs:
    """One study's rows of every table the report reads (``None``: the table does not exist)."""

    study: Study
    tables: dict[str, pd.DataFrame | None]
    plots: dict[str, Path]
    """Existing plot files, by key of :data:`PLOTS`."""
    extra: dict[str, pd.DataFrame] = field(default_factory=dict)
    """Other gold tables with rows for the study (e.g. written by later stages)."""

    def get(self, name: str) -> pd.DataFrame:
        frame = self.tables.get(name)
        return pd.DataFrame() if frame is None else frame

    def has(self, name: str) -> bool:
        frame = self.tables.get(name)
        return frame is not None and not frame.empty


def _plot(inputs: ReportInputs, key: str, alt: str) -> list[str]:
    path = inputs.plots.get(key)
    return [image(path, alt)] if path else []


def _count(frame: pd.DataFrame, by: list[str], name: str = "n") -> pd.DataFrame:
    return frame.groupby(by, dropna=False).size().rename(name).reset_index()


def _pivot_count(frame: pd.DataFrame, index: list[str], columns: str, values: str) -> pd.DataFrame:
    """Rows of ``frame`` counted per ``index`` (rows) and ``columns`` (one column per value)."""
    wide = frame.pivot_table(
        index=index, columns=columns, values=values, aggfunc="count", fill_value=0
    ).reset_index()
    wide.columns = [str(c) for c in wide.columns]
    return wide


def _fmt(value: float, signed: bool = False) -> str:
    if pd.isna(value):
        return "n/a"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


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
        f"{_fmt(row['mean_diff'], True)} on average (95% CI {_fmt(row['mean_diff_low'], True)} "
        f"to {_fmt(row['mean_diff_high'], True)}; median {_fmt(row['median_diff'], True)}) over "
        f"{int(row['n_units'])} {unit}. "
    )
    if row["paired"]:
        text += (
            f"Wilcoxon signed-rank p {_p(row['p_value'])}, sign test p "
            f"{_p(row['sign_test_p'])}, rank-biserial r = {_fmt(row['rank_biserial'])}. "
            f"{row['level']} wins {row['win_share']:.0%}, ties {row['tie_share']:.0%} and "
            f"loses {row['loss_share']:.0%} of the pairs. "
        )
    else:
        text += (
            f"Mann-Whitney p {_p(row['p_value'])}, rank-biserial r = {_fmt(row['rank_biserial'])}. "
        )
    return text + (
        f"Adjusted for raters (fixed effects, SE clustered by "
        f"{study.comparison.pair or 'item'}): {_fmt(row['adjusted_diff'], True)} "
        f"(SE {_fmt(row['adjusted_se'])}, p {_p(row['adjusted_p'])})."
    )


def answer(inputs: ReportInputs) -> Section:
    """The study's question answered first: the comparison on all items, in words."""
    section = Section("The answer", "answer")
    study = inputs.study
    gate = inputs.get("staging.pilot_gate")
    if len(gate) and not bool(gate["passed"].iloc[0]):
        section.add(
            paragraph(
                f"The main round has not gone out ({gate['message'].iloc[0]}); the numbers "
                "below come from the pilot only.",
                "held",
            )
        )
    if study.comparison is None:
        return section.add(paragraph("The study declares no comparison (`comparison:`).", "note"))
    comparison = inputs.get("gold.condition_comparison")
    overall = comparison[comparison["slice"] == COMPARISON_ALL] if len(comparison) else comparison
    overall = overall[overall["mean_diff"].notna()] if len(overall) else overall
    if overall.empty:
        means = inputs.get("gold.condition_means")
        if len(means):
            return section.add(
                paragraph(
                    f"Only one value of {study.comparison.by} has consensus values, so there "
                    "is nothing to compare; the means per value are in the results section.",
                    "lead",
                )
            )
        return section.add(paragraph("No consensus values to compare yet.", "lead"))
    shown = overall.sort_values("p_value", na_position="last").head(6)
    sentences = [paragraph(contrast_sentence(study, row), "lead") for _, row in shown.iterrows()]
    note = "p-values are per contrast, not corrected across fields or values."
    if len(overall) > len(shown):
        note = (
            f"The {len(shown)} contrasts with the smallest p-values of {len(overall)}; all "
            f"are in the results section. {note}"
        )
    sentences.append(paragraph(note, "note"))
    return section.add(*sentences)


def design(inputs: ReportInputs) -> Section:
    study = inputs.study
    d = study.design
    section = Section("Design", "design")
    facts = pd.DataFrame(
        [
            ("tasks", ", ".join(study.tasks)),
            ("annotators", f"{len(d.annotators)}: " + ", ".join(d.annotators)),
            ("overlap by tier", ", ".join(f"{t}: {k}" for t, k in d.overlap.items())),
            ("pilot", f"{d.pilot.fraction:.0%} of items, rated by everyone" if d.pilot else "none"),
            ("spot checks", f"{d.spot_check:.0%}"),
            ("hidden duplicates per batch", d.duplicates_per_batch),
            ("attention checks per batch", d.attention_checks),
            ("calibration items first", d.calibration),
            ("rushed below", f"{d.time_floor_s:g} s"),
            ("seed", d.seed),
        ],
        columns=["setting", "value"],
    ).astype(str)
    section.add(table(facts))
    generations = inputs.get("raw.generations")
    if len(generations):
        section.add(
            heading("Items by task and role"), table(_count(generations, ["task", "role"], "items"))
        )
    routed = inputs.get("staging.routed_items")
    if len(routed):
        sampled = routed[routed["sampled"].astype(bool)]
        section.add(
            heading("Sampled items by tier"), table(_count(sampled, ["task", "tier"], "items"))
        )
    assignments = inputs.get("staging.assignments")
    if len(assignments):
        batches = (
            assignments.groupby(["annotator_id", "round"])
            .agg(batches=("batch", "nunique"), rows=("item_id", "size"))
            .reset_index()
        )
        section.add(heading("Batches per annotator"), table(batches))
    return section


def pilot(inputs: ReportInputs) -> Section:
    section = Section("Pilot gate", "pilot")
    gate = inputs.study.thresholds.pilot_gate
    if gate is None:
        return section.add(paragraph("The study has no pilot gate.", "note"))
    rule = f"{gate.coefficient} {'>' if gate.strict else '>='} {gate.min}"
    rule += f" on {', '.join(gate.fields)}" if gate.fields else " on every rating field"
    section.add(paragraph(f"Gate: {rule}."))
    state = inputs.get("staging.pilot_gate")
    if state.empty:
        section.add(paragraph("Not evaluated yet.", "held"))
    else:
        passed = bool(state["passed"].iloc[0])
        verdict = (
            "open: the main round went out" if passed else "closed: the main round is held back"
        )
        section.add(
            paragraph(f"{verdict} ({state['message'].iloc[0]})", "ok" if passed else "held")
        )
    if inputs.has("gold.pilot_gates"):
        section.add(heading("Attempts"), table(inputs.get("gold.pilot_gates")))
    return section


def agreement(inputs: ReportInputs) -> Section:
    section = Section("Agreement", "agreement")
    rows = inputs.get("gold.agreement")
    if rows.empty:
        return section.add(paragraph("No ratings yet.", "note"))
    section.add(*_plot(inputs, "agreement", "agreement per field"))
    columns = [
        "task",
        "field",
        "coefficient",
        "level",
        "estimate",
        "ci_low",
        "ci_high",
        "n_units",
        "n_raters",
        "band",
    ]
    overall = rows[rows["slice"] == "all"]
    section.add(
        heading("Every coefficient, all items (95% bootstrap intervals)"),
        table(overall[columns].sort_values(["task", "field", "coefficient"])),
    )
    pilot_rows = rows[rows["slice"].isin(["all", "round=pilot"])]
    if (pilot_rows["slice"] == "round=pilot").any():
        wide = pilot_rows.pivot_table(
            index=["task", "field", "coefficient", "level"],
            columns="slice",
            values="estimate",
        ).reset_index()
        wide.columns = [str(c) for c in wide.columns]
        section.add(
            heading("Pilot vs all items"), table(wide.rename(columns={"round=pilot": "pilot"}))
        )
    thresholds = inputs.get("staging.agreement_thresholds")
    if len(thresholds):
        failing = ~thresholds["passed"].astype(bool)
        section.add(heading("The study's minimums"), table(thresholds, flag=failing))
    return section


def quality(inputs: ReportInputs) -> Section:
    section = Section("Rater quality", "quality")
    rows = inputs.get("gold.rater_quality")
    if rows.empty:
        return section.add(paragraph("No ratings yet.", "note"))
    section.add(*_plot(inputs, "quality", "rater quality scorecard"))
    section.add(heading("Who is flagged and why"))
    section.add(*(paragraph(line) for line in flag_summary(rows).splitlines()))
    flagged = rows[rows["flagged"].astype(bool)]
    columns = [
        "annotator_id",
        "metric",
        "slice",
        "value",
        "target",
        "n",
        "ci_low",
        "ci_high",
        "p_value",
    ]
    section.add(heading("Flagged rows"), table(flagged[columns], empty="no rater flagged"))
    return section


def adjudication(inputs: ReportInputs) -> Section:
    section = Section("Adjudication", "adjudication")
    route = inputs.study.consensus.tie_break
    section.add(
        paragraph(
            f"Disputes go to {'an adjudicator' if route == 'adjudicator' else 'a third annotator'}."
        )
    )
    queue = inputs.get("staging.adjudication_queue")
    if queue.empty:
        return section.add(paragraph("No disputed fields.", "note"))
    section.add(
        paragraph(f"{len(queue)} disputed fields on {queue['item_id'].nunique()} items."),
        heading("Why, and where they stand"),
        table(_count(queue, ["task", "field", "reasons", "state"], "fields")),
    )
    decisions = inputs.get("gold.adjudications")
    if len(decisions):
        section.add(
            heading("Decisions: how many took each value"),
            table(_pivot_count(decisions, ["task", "field"], "value", "item_id")),
        )
    return section


def consensus(inputs: ReportInputs) -> Section:
    section = Section("Consensus", "consensus")
    rows = inputs.get("gold.consensus")
    if rows.empty:
        return section.add(paragraph("No consensus yet.", "note"))
    statuses = _pivot_count(rows, ["task", "field"], "status", "item_id")
    policy = inputs.study.consensus
    kept = "kept" if policy.unresolved == "keep" else "excluded"
    return section.add(
        paragraph(
            f"Method: {policy.method}; Likert by {policy.likert}; unresolved fields are {kept}."
        ),
        table(statuses),
    )


def _interval(value: float, low: float, high: float, signed: bool = False) -> str:
    if pd.isna(value):
        return ""
    if pd.isna(low) or pd.isna(high):
        return _fmt(value, signed)
    return f"{_fmt(value, signed)} [{_fmt(low, signed)}, {_fmt(high, signed)}]"


def readable_comparison(study: Study, comparison: pd.DataFrame) -> pd.DataFrame:
    """``gold.condition_comparison`` with intervals and shares in one cell each."""
    c = comparison
    out = pd.DataFrame(
        {
            "field": c["field"] if len(study.tasks) == 1 else c["task"] + "." + c["field"],
            "contrast": c["level"] + " - " + c["reference"],
            "slice": c["slice"],
            "n": c["n_units"],
            "mean diff [95% CI]": [
                _interval(*v, signed=True)
                for v in zip(c["mean_diff"], c["mean_diff_low"], c["mean_diff_high"], strict=True)
            ],
            "median diff [95% CI]": [
                _interval(*v, signed=True)
                for v in zip(
                    c["median_diff"], c["median_diff_low"], c["median_diff_high"], strict=True
                )
            ],
            "p": c["p_value"],
            "p (Holm)": c["p_holm"],
            "sign test p": c["sign_test_p"],
            "rank-biserial r": c["rank_biserial"],
            "wins / ties / losses": [
                "" if pd.isna(w) else f"{w:.0%} / {t:.0%} / {lo:.0%}"
                for w, t, lo in zip(c["win_share"], c["tie_share"], c["loss_share"], strict=True)
            ],
            "rater-adjusted (SE)": [
                "" if pd.isna(d) else f"{d:+.2f} ({se:.2f})"
                for d, se in zip(c["adjusted_diff"], c["adjusted_se"], strict=True)
            ],
            "p (adjusted)": c["adjusted_p"],
        }
    )
    return out.dropna(axis=1, how="all").loc[:, lambda f: (f != "").any()]


def results(inputs: ReportInputs) -> Section:
    study = inputs.study
    section = Section("Results per condition or system", "results")
    if study.comparison is None:
        return section.add(paragraph("The study declares no comparison.", "note"))
    c = study.comparison
    how = (
        f"by {c.by}"
        + (f", paired by {c.pair}" if c.pair else "")
        + (f", against {c.baseline}" if c.baseline else "")
    )
    section.add(
        paragraph(
            f"Consensus values compared {how}"
            + (f", per {', '.join(c.slices)} (Holm-corrected per key)." if c.slices else ".")
        )
    )
    section.add(*_plot(inputs, "comparison", "differences per condition with 95% intervals"))
    comparison = inputs.get("gold.condition_comparison")
    if len(comparison):
        section.add(
            heading("Differences"),
            table(readable_comparison(study, comparison), flag=comparison["p_holm"] < 0.05),
            paragraph(
                (
                    "p: Wilcoxon signed-rank test on the pair differences; sign test beside it. "
                    if c.pair
                    else "p: Mann-Whitney U test. "
                )
                + "Shaded: p < 0.05 (Holm-corrected within each slice key; the 'all' row is "
                "not corrected). Intervals are 95% percentile bootstrap intervals over "
                + (f"{c.pair} pairs." if c.pair else "items."),
                "note",
            ),
        )
    means = inputs.get("gold.condition_means")
    if len(means):
        means = means.assign(
            mean=[
                _interval(m, lo, hi)
                for m, lo, hi in zip(means["mean"], means["ci_low"], means["ci_high"], strict=True)
            ]
        ).drop(columns=["by", "ci_low", "ci_high"])
    section.add(
        heading(f"Mean consensus per {c.by} [95% interval]"),
        table(means, empty="no consensus values yet"),
    )
    return section


def judge(inputs: ReportInputs) -> Section | None:
    """Only when a judge calibration exists (table or plot)."""
    if not inputs.has("gold.judge_calibration") and "judge" not in inputs.plots:
        return None
    section = Section("Judge calibration", "judge")
    section.add(*_plot(inputs, "judge", "judge calibration"))
    if inputs.has("gold.judge_calibration"):
        section.add(table(inputs.get("gold.judge_calibration")))
    return section


def contract(inputs: ReportInputs) -> Section:
    section = Section("Gold-table contract", "contract")
    results = inputs.get("staging.gold_contract")
    if results.empty:
        return section.add(paragraph("Not validated yet.", "note"))
    failed = ~results["success"].astype(bool)
    verdict = (
        "every expectation holds"
        if not failed.any()
        else f"{int(failed.sum())} expectation(s) fail"
    )
    return section.add(
        paragraph(
            f"Great Expectations suite on gold.consensus and gold.items: {verdict}. "
            "These are the results the Data Docs show, without their online styling.",
            "ok" if not failed.any() else "held",
        ),
        table(results.sort_values("success", kind="stable"), flag=failed),
    )


def quarantine(inputs: ReportInputs) -> Section:
    section = Section("Quarantined files", "quarantine")
    ingests = inputs.get("staging.ingests")
    rejected = ingests[ingests["status"] == "rejected"] if len(ingests) else ingests
    if rejected.empty:
        return section.add(paragraph("No returned file was rejected.", "note"))
    shown = rejected[["file", "n_errors", "n_warnings", "report"]].assign(
        report=[
            Path(r).parent.name + "/" + Path(r).name if isinstance(r, str) else ""
            for r in rejected["report"]
        ]
    )
    section.add(
        paragraph(
            "Reports are in quarantine/<study>/; a corrected file sent again is ingested as new."
        ),
        table(shown),
    )
    issues = inputs.get("staging.ingest_issues")
    if len(issues):
        errors = issues[(issues["severity"] == "error") & issues["sha256"].isin(rejected["sha256"])]
        section.add(
            heading("Their errors (first 30)"),
            table(errors[["file", "row", "column", "rule", "value", "message"]].head(30)),
        )
    return section


def other_tables(inputs: ReportInputs) -> list[Section]:
    """Every other gold table with rows for the study, as it is."""
    return [
        Section(name, name.replace(".", "-")).add(table(frame))
        for name, frame in sorted(inputs.extra.items())
    ]


def disclosures(inputs: ReportInputs) -> Section:
    section = Section("Disclosures", "disclosures")
    notes = [paragraph(text.strip(), "disclosure") for text in inputs.study.disclosures]
    state = inputs.get("staging.pilot_gate")
    if len(state) and not bool(state["passed"].iloc[0]):
        notes.append(
            paragraph(
                f"The main round has not gone out ({state['message'].iloc[0]}): every number "
                "above is from the pilot.",
                "disclosure",
            )
        )
    return section.add(*(notes or [paragraph("The study declares no disclosures.", "note")]))


def build_sections(inputs: ReportInputs) -> list[Section]:
    """The report's sections in reading order."""
    sections = [
        answer(inputs),
        design(inputs),
        pilot(inputs),
        agreement(inputs),
        quality(inputs),
        adjudication(inputs),
        consensus(inputs),
        results(inputs),
        judge(inputs),
        contract(inputs),
        quarantine(inputs),
        *other_tables(inputs),
        disclosures(inputs),
    ]
    return [s for s in sections if s is not None]
