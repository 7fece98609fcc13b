"""The first screen of a pairwise study (``report.answer: ranking``): per pairwise field, on
all prompts, the systems ranked with rank intervals and strengths with 95% intervals (a table
and a dot plot), the win-rate matrix (a heatmap), each annotator's position bias with the
flagged ones shaded and marked, the agreement between raters of the same pair, and, when
the study has judges, each judge against the human winners with its swap consistency and
left share (flagged ones marked); the ranking per slice one click away. Built from
``gold.pairwise_ranking``, ``gold.pairwise_win_rates``, ``gold.pairwise_position_bias``,
``gold.pairwise_agreement`` (``raterlab.pairwise``) and ``gold.pairwise_judges``
(``raterlab.judges``); ``inputs`` is a :class:`raterlab.report.sections.ReportInputs`."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from itertools import pairwise

import pandas as pd

from raterlab.pairwise.plot import strength_plot, win_rate_heatmap
from raterlab.report.html import esc, fmt, heading, interval, paragraph, table

RANKING = "gold.pairwise_ranking"
WIN_RATES = "gold.pairwise_win_rates"
POSITION_BIAS = "gold.pairwise_position_bias"
AGREEMENT = "gold.pairwise_agreement"
JUDGES = "gold.pairwise_judges"
TABLES = (RANKING, WIN_RATES, POSITION_BIAS, AGREEMENT, JUDGES)
"""The tables the ranking view reads."""
ALL = "all"
HEADLINE = ("cohen_kappa", "fleiss_kappa")
"""The coefficient named in the answer: Cohen's kappa for two raters, Fleiss' for more."""


@dataclass
class RankingAnswer:
    """The view's HTML parts, its one-line verdict and its sentences (for the asset)."""

    parts: list[str] = field(default_factory=list)
    verdict: str = ""
    lines: list[str] = field(default_factory=list)


def _rows(inputs, name: str, task: str, fname: str, slice_name: str = ALL) -> pd.DataFrame:
    frame = inputs.get(name)
    if frame.empty:
        return frame
    keep = (frame["task"] == task) & (frame["field"] == fname) & (frame["slice"] == slice_name)
    return frame[keep]


def rank_interval(low: object, high: object) -> str:
    """``2-3``; ``n/a`` without an interval."""
    if pd.isna(low) or pd.isna(high):
        return "n/a"
    return f"{int(low)}-{int(high)}"


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def ranking_sentence(name: str, ranking: pd.DataFrame) -> str:
    """The field's ranking in one sentence: the first system with its rank interval, the
    others in order, and which neighbours are not clearly ordered (overlapping rank
    intervals)."""
    rows = ranking[ranking["rank"].notna()].sort_values(["rank", "system"])
    if rows.empty:
        return f"{name}: no system could be ranked ({_note(ranking)})."
    systems = [
        f"{s} ({rank_interval(lo, hi)})"
        for s, lo, hi in zip(rows["system"], rows["rank_low"], rows["rank_high"], strict=True)
    ]
    first = rows.iloc[0]
    text = (
        f"{name}: {first['system']} ranks first "
        f"(rank interval {rank_interval(first['rank_low'], first['rank_high'])})"
    )
    if len(systems) > 1:
        text += f", then {_join(systems[1:])}"
    text += f", from {int(rows['n_comparisons'].sum() // 2)} comparisons."
    ordered = rows[["system", "rank_low", "rank_high"]].to_dict("records")
    unclear = [
        f"{upper['system']} and {lower['system']}"
        for upper, lower in pairwise(ordered)
        if lower["rank_low"] <= upper["rank_high"]
    ]
    if unclear:
        text += f" Not clearly ordered (rank intervals overlap): {'; '.join(unclear)}."
    if (rows["ridge"].fillna(0) > 0).any():
        text += f" The strengths needed a ridge ({_note(rows)}): read them as bounds."
    return text


def _note(rows: pd.DataFrame) -> str:
    notes = rows["note"].dropna().astype(str) if "note" in rows else pd.Series(dtype=str)
    notes = notes[notes != ""]
    return notes.iloc[0] if len(notes) else "no comparisons"


def _share(value: float) -> str:
    return "n/a" if pd.isna(value) else f"{value:.0%}"


def _p(value: float) -> str:
    if pd.isna(value):
        return "n/a"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def bias_sentence(bias: pd.DataFrame) -> str:
    """Who is flagged for position bias, with their share of ``left``; else the pooled share."""
    if bias.empty:
        return "No position bias computed yet."
    people = bias[bias["annotator_id"] != ALL]
    flagged = people[people["flagged"].astype(bool)]
    if flagged.empty:
        pooled = bias[bias["annotator_id"] == ALL]
        share = (
            f" (everyone: left in {_share(pooled['left_share'].iloc[0])} of decided choices)"
            if len(pooled)
            else ""
        )
        return f"No annotator is flagged for position bias{share}."
    who = [
        f"{r['annotator_id']} (left in {_share(r['left_share'])} "
        f"[{_share(r['ci_low'])}, {_share(r['ci_high'])}] of {int(r['n_non_tie'])} decided "
        f"choices, Holm p {_p(r['p_holm'])})"
        for _, r in flagged.iterrows()
    ]
    return (
        f"Position bias: {len(who)} of {len(people)} annotators flagged: {_join(who)}. Their "
        "choices still count in the ranking (sides are balanced, so the bias adds noise, "
        "not a lean)."
    )


def agreement_sentence(agreement: pd.DataFrame) -> str:
    """The raters' agreement on the same pair: kappa with its interval, and percent
    agreement."""
    kappa = agreement[agreement["coefficient"].isin(HEADLINE) & agreement["estimate"].notna()]
    if kappa.empty:
        return "No pair was rated by two annotators, so there is no agreement on pairs yet."
    k = kappa.iloc[0]
    name = "Cohen's kappa" if k["coefficient"] == "cohen_kappa" else "Fleiss' kappa"
    percent = agreement[agreement["coefficient"] == "percent_agreement"]
    also = f"; they chose alike on {_share(percent['estimate'].iloc[0])}" if len(percent) else ""
    return (
        f"Raters of the same pair agree with {name} "
        f"{interval(k['estimate'], k['ci_low'], k['ci_high'])} on left/right/tie "
        f"over {int(k['n_units'])} pairs{also}."
    )


def _flagged(value: object) -> bool:
    """A nullable flag as a bool (NULL: not flagged)."""
    return not pd.isna(value) and bool(value)


def _judge_clause(row: pd.Series) -> str:
    text = (
        f"{row['judge']} names the human winner in {_share(row['percent_agreement'])} of "
        f"{int(row['n_verdicts'])} verdicts on {int(row['n_pairs'])} pairs (Cohen's kappa "
        f"{interval(row['kappa'], row['kappa_low'], row['kappa_high']) or 'n/a'})"
    )
    if pd.isna(row["n_swapped_pairs"]):
        return text + "; it saw no pair in both orders"
    text += (
        f"; shown {int(row['n_swapped_pairs'])} pairs in both orders, it kept its winner on "
        f"{_share(row['consistent_share'])} [{_share(row['consistent_share_low'])}, "
        f"{_share(row['consistent_share_high'])}] and chose left in "
        f"{_share(row['left_share'])} [{_share(row['left_share_low'])}, "
        f"{_share(row['left_share_high'])}] of its decided verdicts (p {_p(row['p_value'])})"
    )
    return text + (": FLAGGED for position bias" if _flagged(row["flagged"]) else "")


def judge_sentence(judges: pd.DataFrame) -> str:
    """Each judge against the human winners, and its position checks where it saw pairs in
    both orders."""
    rows = judges.sort_values("judge")
    return "Judges: " + "; ".join(_judge_clause(r) for _, r in rows.iterrows()) + "."


def readable_judges(judges: pd.DataFrame) -> pd.DataFrame:
    """``gold.pairwise_judges`` rows as the first screen shows them."""
    j = judges.sort_values("judge")
    return pd.DataFrame(
        {
            "judge": j["judge"],
            "agrees with winner": [_share(v) for v in j["percent_agreement"]],
            "kappa [95% CI]": [
                interval(k, lo, hi) or "n/a"
                for k, lo, hi in zip(j["kappa"], j["kappa_low"], j["kappa_high"], strict=True)
            ],
            "pairs": j["n_pairs"].astype("Int64"),
            "same winner when swapped [95% CI]": [
                interval(e, lo, hi) or "n/a"
                for e, lo, hi in zip(
                    j["consistent_share"],
                    j["consistent_share_low"],
                    j["consistent_share_high"],
                    strict=True,
                )
            ],
            "left share [95% CI]": [
                interval(e, lo, hi) or "n/a"
                for e, lo, hi in zip(
                    j["left_share"], j["left_share_low"], j["left_share_high"], strict=True
                )
            ],
            "p": [_p(p) for p in j["p_value"]],
            "position bias": ["FLAGGED" if _flagged(f) else "" for f in j["flagged"]],
        }
    )


def readable_ranking(ranking: pd.DataFrame) -> pd.DataFrame:
    """``gold.pairwise_ranking`` rows as the report shows them, strongest first."""
    r = ranking.sort_values(["rank", "system"], na_position="last")
    return pd.DataFrame(
        {
            "rank (95%)": [
                "n/a" if pd.isna(k) else f"{int(k)} ({rank_interval(lo, hi)})"
                for k, lo, hi in zip(r["rank"], r["rank_low"], r["rank_high"], strict=True)
            ],
            "system": r["system"],
            "strength [95% CI]": [
                interval(s, lo, hi, signed=True) or "n/a"
                for s, lo, hi in zip(r["strength"], r["ci_low"], r["ci_high"], strict=True)
            ],
            "win rate": [fmt(w, digits=3) for w in r["win_rate"]],
            "W / T / L": [
                f"{int(w)} / {int(t)} / {int(lo)}"
                for w, t, lo in zip(r["wins"], r["ties"], r["losses"], strict=True)
            ],
            "n": r["n_comparisons"].astype("Int64"),
        }
    )


def readable_bias(bias: pd.DataFrame) -> pd.DataFrame:
    """``gold.pairwise_position_bias`` rows as the report shows them: annotators, then
    everyone pooled."""
    rows = pd.concat([bias[bias["annotator_id"] != ALL], bias[bias["annotator_id"] == ALL]])
    return pd.DataFrame(
        {
            "annotator": ["everyone" if a == ALL else a for a in rows["annotator_id"]],
            "left share [95% CI]": [
                interval(s, lo, hi) or "n/a"
                for s, lo, hi in zip(
                    rows["left_share"], rows["ci_low"], rows["ci_high"], strict=True
                )
            ],
            "decided": rows["n_non_tie"].astype("Int64"),
            "ties": rows["n_ties"].astype("Int64"),
            "p (Holm)": [_p(p) for p in rows["p_holm"]],
            "position bias": ["FLAGGED" if f else "" for f in rows["flagged"].astype(bool)],
        }
    )


def readable_agreement(agreement: pd.DataFrame) -> pd.DataFrame:
    a = agreement
    return pd.DataFrame(
        {
            "coefficient": a["coefficient"],
            "estimate [95% CI]": [
                interval(e, lo, hi, digits=3) or "n/a"
                for e, lo, hi in zip(a["estimate"], a["ci_low"], a["ci_high"], strict=True)
            ],
            "pairs": a["n_units"].astype("Int64"),
            "raters": a["n_raters"].astype("Int64"),
            "note": a["note"].fillna(""),
        }
    ).loc[:, lambda f: (f != "").any()]


def _lead(lines: list[str]) -> str:
    """The sentences in the answer's box, one paragraph each."""
    body = "".join(f'<p style="margin: .25em 0">{esc(line)}</p>' for line in lines)
    return f'<div class="lead">{body}</div>'


def _image(png: bytes | None, alt: str) -> str:
    if png is None:
        return ""
    uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return f'<img src="{uri}" alt="{esc(alt)}">'


def _side_by_side(*blocks: str) -> str:
    cells = "".join(f'<div style="flex: 1 1 440px; min-width: 0">{b}</div>' for b in blocks)
    return f'<div style="display: flex; flex-wrap: wrap; gap: 0 1.5em">{cells}</div>'


def _field_parts(inputs, task: str, fname: str, name: str) -> list[str]:
    ranking = _rows(inputs, RANKING, task, fname)
    order = ranking.sort_values(["rank", "system"], na_position="last")["system"].tolist()
    bias = _rows(inputs, POSITION_BIAS, task, fname)
    agreement = _rows(inputs, AGREEMENT, task, fname)
    model = ranking["model"].dropna()
    fitted = (
        "Davidson (ties allowed)" if len(model) and model.iloc[0] == "davidson" else "Bradley-Terry"
    )
    left = [
        heading(f"{name}: ranking"),
        table(readable_ranking(ranking)),
        paragraph(
            f"{fitted} strengths by maximum likelihood (log scale, mean 0); rank (95%): the "
            "rank and its 95% interval; both intervals from a bootstrap over prompts. Win "
            "rate counts a tie as half a win; W / T / L: wins, ties, losses; n: comparisons "
            "(ratings).",
            "note",
        ),
    ]
    right = [_image(strength_plot(ranking, f"{name}: strength with 95% interval"), "strengths")]
    heat = _image(
        win_rate_heatmap(_rows(inputs, WIN_RATES, task, fname), order, f"{name}: win rates"),
        "win-rate matrix",
    )
    bias_table = readable_bias(bias) if len(bias) else pd.DataFrame()
    checks = [
        heading("Position bias (share of left among decided choices)"),
        table(
            bias_table, flag=bias_table["position bias"] == "FLAGGED" if len(bias_table) else None
        ),
        paragraph(
            "Flagged: Holm-corrected exact binomial p < 0.05 against 0.5 and the share "
            "outside [0.4, 0.6]. Intervals: Wilson 95%.",
            "note",
        ),
        heading("Agreement between raters of the same pair"),
        table(readable_agreement(agreement) if len(agreement) else pd.DataFrame()),
    ]
    judges = _rows(inputs, JUDGES, task, fname)
    if len(judges):
        shown = readable_judges(judges)
        checks += [
            heading("Judges against the human winners"),
            table(shown, flag=shown["position bias"] == "FLAGGED"),
            paragraph(
                "Kappa on a / b / tie against the pair's consensus winner, every verdict (both "
                "orders), interval from a bootstrap over pairs. On pairs the judge saw in both "
                "orders: the share with the same winner, and the share of left among decided "
                "verdicts (Wilson 95%), flagged when the exact binomial p is below "
                "1 - judges.confidence. The verdict is in the judge section.",
                "note",
            ),
        ]
    return [
        _side_by_side("".join(left), "".join(right)),
        _side_by_side(heading(f"{name}: win-rate matrix") + heat, "".join(checks)),
    ]


def _per_slice(inputs) -> str:
    ranking = inputs.get(RANKING)
    sliced = ranking[ranking["slice"] != ALL] if len(ranking) else ranking
    if sliced.empty:
        return ""
    columns = ["task", "field", "slice", "system", "rank", "rank_low", "rank_high"]
    columns += ["strength", "ci_low", "ci_high", "win_rate", "n_comparisons", "note"]
    shown = sliced.sort_values(["task", "field", "slice", "rank"])[columns]
    return inputs.folded("The ranking per slice", "pairwise_ranking_by_slice", shown)


def ranking_answer(inputs) -> RankingAnswer:
    """Per pairwise field (``slice = 'all'``): its ranking, position bias, agreement and
    judges (when it has some) in words, then the tables and plots; the per-slice ranking
    folded."""
    ranking = inputs.get(RANKING)
    out = RankingAnswer()
    if ranking.empty:
        out.verdict = "No pairwise comparisons ranked yet."
        out.parts.append(paragraph(out.verdict, "lead"))
        return out
    fields = ranking[["task", "field"]].drop_duplicates().itertuples(index=False)
    several = ranking["task"].nunique() > 1
    for task, fname in fields:
        name = f"{task}.{fname}" if several else fname
        lines = [
            ranking_sentence(name, _rows(inputs, RANKING, task, fname)),
            bias_sentence(_rows(inputs, POSITION_BIAS, task, fname)),
            agreement_sentence(_rows(inputs, AGREEMENT, task, fname)),
        ]
        judges = _rows(inputs, JUDGES, task, fname)
        if len(judges):
            lines.append(judge_sentence(judges))
        out.lines += lines
        out.parts += [_lead(lines), *_field_parts(inputs, task, fname, name)]
    out.verdict = out.lines[0]
    out.parts.append(_per_slice(inputs))
    return out
