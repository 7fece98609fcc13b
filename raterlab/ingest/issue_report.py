"""Error reports: a machine-readable JSON, the issues as CSV, and a readable summary.

A large broken file is summarised by counting issues per rule and column and keeping the
first examples of each, so the summary stays short and is built in one vectorized pass. The
issues kept (``issues.csv``, and ``staging.ingest_issues`` in the warehouse) are at most
:data:`ISSUES_PER_RULE` per rule and column, then one row with the count of the rest
(:func:`capped`); the counts in the report are of every issue.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import polars as pl

from raterlab.csvsafe import for_people

EXAMPLES_PER_RULE = 5
ISSUES_PER_RULE = 1_000
"""Issues kept per severity, rule and column of a file (:func:`capped`)."""
FOLDER_NAME_BYTES = 100
"""A report folder is named by at most this much of its file's name (then ``__`` and the
hash), so that a file named as long as the file system allows still gets one; the report
itself gives the whole name."""


def report_folder(file: str, sha256: str) -> str:
    """The folder name of a file's report: ``<name without suffix, shortened>__<hash>``."""
    stem = Path(file).stem.encode()[:FOLDER_NAME_BYTES].decode(errors="ignore")
    return f"{stem}__{sha256[:8]}"


def capped(issues: pd.DataFrame, per_rule: int = ISSUES_PER_RULE) -> pd.DataFrame:
    """The first ``per_rule`` issues of each severity, rule and column, in file order, each
    group cut short followed by one issue (no row) saying how many more there are: a file
    with a million broken rows is not a million rows of report."""
    keys = ["severity", "rule", "column"]
    if len(issues) <= per_rule:
        return issues
    rank = issues.groupby(keys, dropna=False, sort=False).cumcount().to_numpy()
    if (rank < per_rule).all():
        return issues
    kept = issues[rank < per_rule]
    rest = issues[rank >= per_rule].groupby(keys, dropna=False, sort=False)
    more = rest.agg(file=("file", "first"), count=("rule", "size")).reset_index()
    notes = pd.DataFrame(
        {
            "file": more["file"],
            "row": pd.array([pd.NA] * len(more), dtype="Int64"),
            "column": more["column"],
            "rule": more["rule"],
            "value": [f"{n:,} more" for n in more["count"]],
            "message": [
                f"and {n:,} more row(s) break this rule (the first {per_rule:,} are listed)"
                for n in more["count"]
            ],
            "severity": more["severity"],
        }
    )
    return pd.concat([kept, notes[list(issues.columns)]], ignore_index=True)


def summarise(issues: pd.DataFrame) -> pd.DataFrame:
    """Issue counts per severity, rule and column, most frequent first."""
    if issues.empty:
        return pd.DataFrame(columns=["severity", "rule", "column", "count"])
    counts = issues.groupby(["severity", "rule", "column"], dropna=False).size()
    return (
        counts.rename("count")
        .reset_index()
        .sort_values(["severity", "count"], ascending=[True, False], kind="stable")
    )


def examples(issues: pd.DataFrame, per_rule: int = EXAMPLES_PER_RULE) -> pd.DataFrame:
    """The first ``per_rule`` issues of each rule and column, in file order."""
    return issues.groupby(["rule", "column"], dropna=False, sort=False).head(per_rule)


def _jsonable(frame: pd.DataFrame) -> list[dict]:
    return json.loads(frame.to_json(orient="records"))


def report_dict(file: str, study: str, sha256: str, status: str, issues: pd.DataFrame) -> dict:
    return {
        "file": file,
        "study": study,
        "sha256": sha256,
        "status": status,
        "errors": int((issues["severity"] == "error").sum()),
        "warnings": int((issues["severity"] == "warning").sum()),
        "summary": _jsonable(summarise(issues)),
        "examples": _jsonable(examples(issues)),
    }


def markdown(report: dict) -> str:
    """The readable summary a person opens first."""
    lines = [
        f"# {report['file']}: {report['status']}",
        "",
        f"Study `{report['study']}`, sha256 `{report['sha256'][:16]}`: "
        f"{report['errors']} error(s), {report['warnings']} warning(s).",
    ]
    if report["summary"]:
        lines += ["", "| severity | rule | column | count |", "|---|---|---|---|"]
        lines += [
            f"| {s['severity']} | {s['rule']} | {s['column'] or ''} | {s['count']} |"
            for s in report["summary"]
        ]
    if report["examples"]:
        lines += [
            "",
            "## First examples",
            "",
            "| row | column | rule | value | problem |",
            "|---|---|---|---|---|",
        ]
        for e in report["examples"]:
            value = str(e["value"]).replace("|", "\\|").replace("\n", " ")[:60]
            row = "" if e["row"] is None else e["row"]
            lines.append(
                f"| {row} | {e['column'] or ''} | {e['rule']} | {value} | {e['message']} |"
            )
    return "\n".join(lines) + "\n"


def write_report(folder: Path, report: dict, issues: pd.DataFrame) -> dict[str, Path]:
    """``report.json``, ``report.md`` and ``issues.csv`` (:func:`capped`, and neutralised:
    :func:`raterlab.csvsafe.for_people`)
    in ``folder``; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": folder / "report.json",
        "markdown": folder / "report.md",
        "issues": folder / "issues.csv",
    }
    paths["json"].write_text(
        json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    paths["markdown"].write_text(markdown(report), encoding="utf-8")
    pl.from_pandas(for_people(capped(issues))).write_csv(paths["issues"])
    return paths
