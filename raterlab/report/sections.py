"""The sections of a study report, each built from the study model and the study's rows of the
warehouse tables (:class:`ReportInputs`). A section whose table does not exist yet says so,
or is left out when it belongs to an optional stage (judge calibration, other gold tables)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from raterlab.comparison.conditions import ALL as COMPARISON_ALL
from raterlab.comparison.stats import holm
from raterlab.judges.verdict import VERDICTS
from raterlab.protocol import Study
from raterlab.quality import flag_summary
from raterlab.report.answers import first_screen
from raterlab.report.headline import headline_table
from raterlab.report.html import (
    Section,
    collapsed,
    esc,
    heading,
    image,
    interval,
    paragraph,
    png_size,
    table,
)
from raterlab.report.planned import planned_and_achieved

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
    attachments: dict[str, pd.DataFrame] = field(default_factory=dict)
    """Tables the page folds away, by their CSV path relative to the report (written beside
    it by :func:`raterlab.report.build.write_report`)."""

    def csv(self, name: str, frame: pd.DataFrame) -> str:
        """Attach ``frame`` as ``tables/<name>.csv`` and return that relative path."""
        path = f"tables/{name}.csv"
        self.attachments[path] = frame
        return path

    def folded(self, summary: str, name: str, frame: pd.DataFrame) -> str:
        """``frame`` collapsed under ``summary``, with every row in an attached CSV."""
        return collapsed(summary, frame, self.csv(name, frame))

    def get(self, name: str) -> pd.DataFrame:
        frame = self.tables.get(name)
        return pd.DataFrame() if frame is None else frame

    def has(self, name: str) -> bool:
        frame = self.tables.get(name)
        return frame is not None and not frame.empty


TALL_PLOT = 1200
"""A plot taller than this many pixels (one panel per slice...) is folded away."""


def _plot(inputs: ReportInputs, key: str, alt: str) -> list[str]:
    path = inputs.plots.get(key)
    if not path:
        return []
    if png_size(path)[1] > TALL_PLOT:
        return [f"<details><summary>Plot: {esc(alt)}</summary>{image(path, alt)}</details>"]
    return [image(path, alt)]


def _short(inputs: ReportInputs, summary: str, name: str, frame: pd.DataFrame) -> str:
    """``frame`` as a table when it is short (:data:`SHORT_TABLE` rows), else folded."""
    if len(frame) <= SHORT_TABLE:
        return table(frame)
    return inputs.folded(summary, name, frame)


SHORT_TABLE = 15
"""Longer tables below the first screen are folded, with a CSV."""


def _count(frame: pd.DataFrame, by: list[str], name: str = "n") -> pd.DataFrame:
    return frame.groupby(by, dropna=False).size().rename(name).reset_index()


def _pivot_count(frame: pd.DataFrame, index: list[str], columns: str, values: str) -> pd.DataFrame:
    """Rows of ``frame`` counted per ``index`` (rows) and ``columns`` (one column per value)."""
    wide = frame.pivot_table(
        index=index, columns=columns, values=values, aggfunc="count", fill_value=0
    ).reset_index()
    wide.columns = [str(c) for c in wide.columns]
    return wide


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
    costs = inputs.get("gold.tier_costs")
    if len(costs):
        section.add(heading("What each tier costs (gold.tier_costs)"), table(costs))
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
        section.add(
            heading("Batches per annotator"),
            _short(inputs, "Batches and rows per annotator and round", "batches", batches),
        )
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
        attempts = inputs.get("gold.pilot_gates")
        shown = attempts.assign(
            estimate=[
                interval(e, lo, hi, digits=3)
                for e, lo, hi in zip(
                    attempts["estimate"], attempts["ci_low"], attempts["ci_high"], strict=True
                )
            ]
        )
        columns = ["attempt", "round", "field", "coefficient", "options", "estimate"]
        columns += ["n_units", "minimum", "passed", "band"]
        section.add(
            heading("Attempts (the gate's coefficient [95% CI])"),
            table(shown[columns], flag=~attempts["passed"].astype(bool)),
            inputs.folded("Every column of every attempt", "pilot_gates", attempts),
        )
    return section


MAX_FIRST_ROWS = 30
"""Above this many headline rows over all slices, the first agreement table keeps the slices
the minimums are judged on (``all`` unless they name one), and the per-slice table is
folded."""


def _slice_order(study: Study, slices: pd.Series) -> list[str]:
    """``all``, then the threshold slices, then the rest in the table's order."""
    declared = [t.slice for t in study.thresholds.minimums if t.slice]
    return list(dict.fromkeys(["all", *declared, *slices]))


def agreement(inputs: ReportInputs) -> Section:
    """The protocol's coefficient first, per slice (only on the slices the minimums are judged
    on when that is more than :data:`MAX_FIRST_ROWS` rows, the rest folded); every other
    coefficient one click away."""
    section = Section("Agreement", "agreement")
    study = inputs.study
    rows = inputs.get("gold.agreement")
    if rows.empty:
        return section.add(paragraph("No ratings yet.", "note"))
    slices = _slice_order(study, rows["slice"])
    per_slice = headline_table(study, rows, slices)
    if len(per_slice) > MAX_FIRST_ROWS:
        judged = [t.slice or "all" for t in study.thresholds.minimums] or ["all"]
        first = headline_table(study, rows, list(dict.fromkeys(judged)))
    else:
        first = per_slice
    if len(first):
        section.add(
            heading("The protocol's coefficient per field (headline), 95% bootstrap intervals"),
            table(first, flag=first["meets"] == "no"),
        )
    if len(per_slice) > len(first):
        section.add(
            inputs.folded(
                "The protocol's coefficient on every slice (categories, conditions, rounds...)",
                "agreement_headline_by_slice",
                per_slice,
            )
        )
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
    others = overall[~overall["headline"].astype(bool)] if "headline" in overall else overall
    section.add(
        inputs.folded(
            "Other coefficients, all items (computed beside the headline)",
            "agreement_other_coefficients",
            others[columns].sort_values(["task", "field", "coefficient"]),
        ),
        inputs.folded("Every row of gold.agreement", "agreement", rows),
    )
    thresholds = inputs.get("staging.agreement_thresholds")
    if len(thresholds):
        failing = ~thresholds["passed"].astype(bool)
        section.add(
            heading(f"The study's minimums: {int((~failing).sum())} of {len(thresholds)} met"),
            inputs.folded("Each minimum against its estimate", "agreement_thresholds", thresholds)
            if len(thresholds) > 12
            else table(thresholds, flag=failing),
        )
    planned = planned_and_achieved(
        study,
        thresholds,
        inputs.get("gold.pilot_gates"),
        inputs.tables.get("staging.planned_precision"),
    )
    if len(planned):
        wider = planned["achieved_ci_width"] > planned["planned_ci_width"]
        section.add(
            heading("Precision planned by the design against achieved (95% interval widths)"),
            inputs.folded("Each threshold's planned and achieved width", "planned", planned)
            if len(planned) > 12
            else table(planned, flag=wider.fillna(False)),
        )
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
    section.add(
        inputs.folded("Flagged rows", "rater_quality_flagged", flagged[columns])
        if len(flagged)
        else paragraph("No rater flagged.", "note"),
        inputs.folded("Every rater-quality row", "rater_quality", rows),
    )
    promotions = inputs.get("gold.promotions")
    if len(promotions):
        section.add(inputs.folded("Items promoted by the drift rule", "promotions", promotions))
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
        _short(
            inputs,
            "Disputed fields per task, field, reason and state",
            "adjudication_queue_counts",
            _count(queue, ["task", "field", "reasons", "state"], "fields"),
        ),
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
                interval(*v, signed=True)
                for v in zip(c["mean_diff"], c["mean_diff_low"], c["mean_diff_high"], strict=True)
            ],
            "median diff [95% CI]": [
                interval(*v, signed=True)
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
        overall = comparison[comparison["slice"] == COMPARISON_ALL]
        overall = overall.assign(p_holm=holm(overall["p_value"].to_numpy()))
        sliced = comparison[comparison["slice"] != COMPARISON_ALL]
        section.add(
            heading("Differences on all items"),
            table(readable_comparison(study, overall), flag=overall["p_holm"] < 0.05),
            inputs.folded(
                "Differences per slice", "condition_comparison", readable_comparison(study, sliced)
            ),
            paragraph(
                (
                    "p: Wilcoxon signed-rank test on the pair differences; sign test beside it. "
                    if c.pair
                    else "p: Mann-Whitney U test. "
                )
                + "p (Holm): Holm-corrected over the contrasts on all items together, and "
                "within each slice key per slice; shaded where it is below 0.05. Intervals "
                "are 95% percentile bootstrap intervals over "
                + (f"{c.pair} pairs." if c.pair else "items."),
                "note",
            ),
        )
    means = inputs.get("gold.condition_means")
    if len(means):
        means = means.assign(
            mean=[
                interval(m, lo, hi)
                for m, lo, hi in zip(means["mean"], means["ci_low"], means["ci_high"], strict=True)
            ]
        ).drop(columns=["by", "ci_low", "ci_high"])
    section.add(
        heading(f"Mean consensus per {c.by} [95% interval]"),
        table(means, empty="no consensus values yet")
        if len(means) <= 20
        else inputs.folded(f"Mean consensus per {c.by}", "condition_means", means),
    )
    return section


def judge_verdict_table(verdicts: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """The verdicts on all items, one row per judge and field (judge, field, slice, verdict,
    PPI gain beside Dorner et al.'s bound, reasons), and which rows are ``no``."""
    rows = verdicts[verdicts["slice"] == "all"].sort_values(["judge", "task", "field"])
    gain = [
        "" if pd.isna(g) else f"{g:.2f} (bound 2)" if applies is True else f"{g:.2f}"
        for g, applies in zip(
            rows["ppi_gain"], rows["dorner_applies"].astype(object).fillna(False), strict=True
        )
    ]
    shown = pd.DataFrame(
        {
            "judge": rows["judge"].to_numpy(),
            "field": (rows["task"] + ": " + rows["field"]).to_numpy(),
            "slice": rows["slice"].to_numpy(),
            "verdict": rows["verdict"].map(VERDICTS).to_numpy(),
            "PPI gain": gain,
            "reasons": rows["reasons"].to_numpy(),
        }
    )
    return shown, pd.Series((rows["verdict"] == "no").to_numpy())


def _judge_verdicts(inputs: ReportInputs, section: Section) -> None:
    """The verdict table first, the verdicts per slice and the robustness checks folded."""
    verdicts = inputs.get("gold.judge_verdicts")
    if verdicts.empty:
        section.add(paragraph("No judge verdicts yet.", "note"))
        return
    shown, flag = judge_verdict_table(verdicts)
    counts = shown["verdict"].value_counts()
    summary = ", ".join(f"{word} {counts[word]}" for word in VERDICTS.values() if word in counts)
    section.add(
        heading("May this judge replace the humans?"),
        paragraph(
            f"One verdict per judge and field on all items: {summary}. A judge may replace "
            "the humans when the alternative annotator test passes (on a pairwise field where "
            "it was not run: when its kappa with the human winners, at the low end of its "
            "interval, reaches the human ceiling), its agreement reaches the "
            "human ceiling and no robustness check is flagged; it is used only with human "
            "correction (PPI) when that gives an effective sample size gain above 1; else no "
            "(shaded). When the judge is no more accurate than the systems it judges, no "
            "debiasing method gains more than a factor of 2 (Dorner, Nastl & Hardt, ICLR "
            "2025): 'bound 2' marks the binary fields where that holds.",
            "lead",
        ),
        table(shown, flag),
        inputs.folded("Verdicts per slice (gold.judge_verdicts)", "judge_verdicts", verdicts),
    )
    robustness = inputs.get("gold.judge_robustness")
    if len(robustness):
        section.add(
            inputs.folded(
                "Robustness checks (gold.judge_robustness)", "judge_robustness", robustness
            )
        )


def judge(inputs: ReportInputs) -> Section | None:
    """Only when a judge calibration or verdicts exist (table or plot); the verdicts lead."""
    if not (
        inputs.has("gold.judge_calibration")
        or inputs.has("gold.judge_verdicts")
        or "judge" in inputs.plots
    ):
        return None
    section = Section("Judge calibration", "judge")
    _judge_verdicts(inputs, section)
    section.add(heading("Calibration against the humans"))
    judges = inputs.study.judges
    if judges is not None:
        on = judges.calibrate_on or "every rated item"
        section.add(paragraph(f"Calibrated on {on} (judges.calibrate_on)."))
    section.add(*_plot(inputs, "judge", "judge calibration"))
    if inputs.has("gold.judge_calibration"):
        rows = inputs.get("gold.judge_calibration")
        section.add(
            inputs.folded(
                "Every statistic of every judge (gold.judge_calibration)", "judge_calibration", rows
            )
        )
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
        table(results[failed], empty="no expectation fails"),
        inputs.folded("Every expectation", "gold_contract", results),
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


def other_tables(inputs: ReportInputs) -> Section | None:
    """Every other gold table with rows for the study, each folded away with its CSV."""
    if not inputs.extra:
        return None
    section = Section("Other gold tables", "other-tables")
    for name, frame in sorted(inputs.extra.items()):
        section.add(inputs.folded(name, name.removeprefix("gold."), frame))
    return section


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
        first_screen(inputs).section,
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
        other_tables(inputs),
        disclosures(inputs),
    ]
    return [s for s in sections if s is not None]
