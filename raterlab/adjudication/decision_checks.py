"""Validating one returned decisions file (nothing written).

A decisions file (CSV or JSONL, read like any returned file by
:func:`raterlab.ingest.read.read_returned`) has one row per disputed field: ``case``,
``field``, ``decision``, ``rationale``, ``adjudicator_id`` (the packet's read-only columns
``task``, ``allowed`` and ``ratings`` may stay). Rules, each reported with file, row, column,
rule and value (the ingest's issue table, :mod:`raterlab.ingest.issues`):

- ``required``: case, field, decision, rationale and adjudicator_id are filled; a decision
  is a value, not ``skip``;
- ``unknown_adjudicator``: where the study names its adjudicators
  (``consensus.adjudicators``), the id is one of them;
- ``unknown_case``: the case is in an issued adjudication packet of the study;
- ``not_disputed``: the field is one the packet asked about for that case;
- ``type``/``range``/``allowed_values``: the decision is in the field's domain (the rules the
  ingest generates from the study, :func:`raterlab.ingest.rules.task_rules`);
- ``rationale``: at least :data:`MIN_RATIONALE` characters;
- ``duplicate_decision``: one decision per case and field;
- ``constraint``: the decisions of one case satisfy the task's logical constraints;
- warnings: ``incomplete`` (fields of the answered packets left undecided) and
  ``adjudicator_is_rater`` (the adjudicator rated the item).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from raterlab.adjudication.adjudicator_packet import FILLED_COLUMNS, TEMPLATE_COLUMNS
from raterlab.ingest.changes import DOMAIN_RULES
from raterlab.ingest.issues import concat_issues, file_issue, issue_rows
from raterlab.ingest.labels import normalised_values
from raterlab.ingest.read import ROW, UnreadableFile, read_returned
from raterlab.ingest.row_checks import failures
from raterlab.ingest.rules import task_rules
from raterlab.protocol import SKIP_VALUE, Study

MIN_RATIONALE = 10
REQUIRED = ("case", "field", *FILLED_COLUMNS)


@dataclass
class DecisionCheck:
    """The outcome of validating one decisions file (nothing written)."""

    file: str
    frame: pd.DataFrame | None
    issues: pd.DataFrame
    decisions: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Valid rows, unblinded: task, item_id, field, value, value_num, rationale,
    adjudicator_id, batch, case_token, source_row."""

    @property
    def errors(self) -> pd.DataFrame:
        return self.issues[self.issues["severity"] == "error"]

    @property
    def ok(self) -> bool:
        return self.errors.empty


def _column_issues(frame: pd.DataFrame, file: str) -> pd.DataFrame:
    present = [c for c in frame.columns if c != ROW]
    parts = [
        file_issue(file, "missing_column", f"column {c} is missing (the template has it)", c)
        for c in REQUIRED
        if c not in present
    ]
    parts += [
        file_issue(file, "unknown_column", f"column {c} is not in the adjudication template", c)
        for c in present
        if c not in TEMPLATE_COLUMNS
    ]
    return concat_issues(parts)


def _where(
    file: str, rows: np.ndarray, hit: np.ndarray, column: str, rule: str, values, message: str
) -> pd.DataFrame | None:
    """Issues at the rows where ``hit`` (``None``: nowhere); ``values`` one per row."""
    if not hit.any():
        return None
    return issue_rows(file, rows[hit], column, rule, np.asarray(values)[hit], message)


def _cell_issues(
    study: Study, text: dict[str, pd.Series], rows: np.ndarray, file: str
) -> list[pd.DataFrame | None]:
    """Rules of each row's own cells: required, no skip, a known adjudicator, a rationale."""
    parts = [
        _where(
            file,
            rows,
            (text[c] == "").to_numpy(),
            c,
            "required",
            [""] * len(rows),
            f"{c} is required",
        )
        for c in REQUIRED
    ]
    decision = text["decision"]
    parts.append(
        _where(
            file,
            rows,
            (decision.str.lower() == SKIP_VALUE).to_numpy(),
            "decision",
            "required",
            decision,
            "decide a value; skip is not a decision",
        )
    )
    rotation = study.consensus.adjudicators
    if rotation:
        adjudicator = text["adjudicator_id"]
        parts.append(
            _where(
                file,
                rows,
                ((adjudicator != "") & ~adjudicator.isin(rotation)).to_numpy(),
                "adjudicator_id",
                "unknown_adjudicator",
                adjudicator,
                f"not one of the study's adjudicators ({', '.join(rotation)})",
            )
        )
    rationale = text["rationale"]
    parts.append(
        _where(
            file,
            rows,
            ((rationale != "") & (rationale.str.len() < MIN_RATIONALE)).to_numpy(),
            "rationale",
            "rationale",
            rationale,
            f"the rationale must say why, in at least {MIN_RATIONALE} characters",
        )
    )
    return parts


def _case_issues(
    disputes: pd.DataFrame, text: dict[str, pd.Series], rows: np.ndarray, file: str
) -> tuple[list[pd.DataFrame | None], np.ndarray]:
    """Each row's case and field against the disputes (the adjudication key by case and
    field): a known case, a disputed field, decided once. Returns the issues and which rows
    decide a disputed field first."""
    cases = set(disputes.index.get_level_values("case_token"))
    case = text["case"].to_numpy(dtype=object)
    fld = text["field"].to_numpy(dtype=object)
    known = np.array([c in cases for c in case], dtype=bool)
    disputed = np.array([(c, f) in disputes.index for c, f in zip(case, fld, strict=True)])
    twice = pd.Series(list(zip(case, fld, strict=True))).duplicated().to_numpy() & disputed
    parts = [
        _where(
            file,
            rows,
            ~known & (text["case"] != "").to_numpy(),
            "case",
            "unknown_case",
            case,
            "this case id is not in any adjudication packet of the study; was it changed?",
        ),
        _where(
            file,
            rows,
            known & ~disputed & (text["field"] != "").to_numpy(),
            "field",
            "not_disputed",
            fld,
            "the packet did not ask for a decision on this field for this case",
        ),
        _where(
            file,
            rows,
            twice,
            "decision",
            "duplicate_decision",
            fld,
            "this case and field are decided more than once",
        ),
    ]
    return parts, disputed & ~twice


def _decided(
    study: Study,
    disputes: pd.DataFrame,
    frame: pd.DataFrame,
    good: np.ndarray,
    text: dict[str, pd.Series],
    file: str,
) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """The rows deciding a disputed field (``good``), unblinded by the disputes (the key by
    case and field), their values normalised; and the issues of decisions outside their
    field's domain."""
    case = text["case"].to_numpy(dtype=object)[good]
    fld = text["field"].to_numpy(dtype=object)[good]
    matched = disputes.loc[list(zip(case, fld, strict=True))].reset_index()
    decided = frame[good].reset_index(drop=True)
    values = np.full(len(decided), None, dtype=object)
    numbers = np.full(len(decided), np.nan)
    parts = []
    for (task, name), idx in matched.groupby(["task", "field"]).groups.items():
        at = np.asarray(list(idx))
        sub = pd.DataFrame(
            {name: decided["decision"].to_numpy()[at], ROW: decided[ROW].to_numpy()[at]}
        )
        domain = [r for r in task_rules(study, task) if r.column == name and r.name in DOMAIN_RULES]
        broken = failures(sub, domain, f"{study.name}.{task}")
        broken = broken[broken["value"].str.strip() != ""]
        if len(broken):
            parts.append(
                issue_rows(
                    file,
                    sub[ROW].to_numpy()[broken["position"].to_numpy(dtype=int)],
                    "decision",
                    broken["rule"].to_numpy(),
                    broken["value"].to_numpy(),
                    [m.replace(name, f"{name} decision", 1) for m in broken["message"]],
                )
            )
        canonical, number = normalised_values(study, task, name, sub)
        values[at], numbers[at] = canonical, number
    decisions = pd.DataFrame(
        {
            "task": matched["task"].to_numpy(),
            "item_id": matched["item_id"].to_numpy(),
            "field": matched["field"].to_numpy(),
            "value": values,
            "value_num": numbers,
            "rationale": decided["rationale"].astype(str).str.strip().to_numpy(),
            "adjudicator_id": decided["adjudicator_id"].astype(str).str.strip().to_numpy(),
            "batch": matched["batch"].to_numpy(),
            "case_token": matched["case_token"].to_numpy(),
            "source_row": decided[ROW].to_numpy(),
        }
    )
    return decisions, parts


def validate_decisions(
    study: Study,
    frame: pd.DataFrame,
    key: pd.DataFrame,
    raters: dict[str, set[str]],
    file: str,
) -> DecisionCheck:
    """Check a decisions file's text cells against the adjudication key and the study (the
    rules of the module's docstring, in that order), and unblind its valid rows."""
    columns = _column_issues(frame, file)
    if not columns.empty:
        return DecisionCheck(file, frame, columns)
    text = {c: frame[c].astype(str).str.strip() for c in REQUIRED}
    rows = frame[ROW].to_numpy()
    disputes = key.drop_duplicates(["case_token", "field"]).set_index(["case_token", "field"])
    cells = _cell_issues(study, text, rows, file)
    cases, good = _case_issues(disputes, text, rows, file)
    decisions, domain = _decided(study, disputes, frame, good, text, file)
    parts = [
        *(p for p in (*cells, *cases) if p is not None),
        *domain,
        _constraint_issues(study, decisions, file),
        _warnings(key, decisions, raters, file),
    ]
    return DecisionCheck(file, frame, concat_issues(parts), decisions)


def _constraint_issues(study: Study, decisions: pd.DataFrame, file: str) -> pd.DataFrame:
    parts = []
    for (task, _case), rows in decisions.groupby(["task", "case_token"]):
        value = dict(zip(rows["field"], rows["value_num"], strict=True))
        where = dict(zip(rows["field"], rows["source_row"], strict=True))
        for c in study.tasks[task].constraints:
            a, b = value.get(c.antecedent), value.get(c.consequent)
            if a == 1 and b is not None and not np.isnan(b) and b != c.required_consequent:
                parts.append(
                    issue_rows(
                        file,
                        [where[c.consequent]],
                        "decision",
                        "constraint",
                        [str(int(b))],
                        f"{c}: when {c.antecedent} is 1, {c.consequent} must be "
                        f"{int(c.required_consequent)}",
                    )
                )
    return concat_issues(parts)


def _warnings(
    key: pd.DataFrame, decisions: pd.DataFrame, raters: dict[str, set[str]], file: str
) -> pd.DataFrame:
    parts = []
    batches = set(decisions["batch"])
    asked = key[key["batch"].isin(batches)]
    got = set(zip(decisions["case_token"], decisions["field"], strict=True))
    missing = [
        (c, f)
        for c, f in zip(asked["case_token"], asked["field"], strict=True)
        if (c, f) not in got
    ]
    if missing:
        parts.append(
            issue_rows(
                file,
                [pd.NA],
                "decision",
                "incomplete",
                [f"{len(missing)} of {len(asked)}"],
                f"incomplete return: {len(missing)} disputed field(s) left undecided, e.g. "
                + ", ".join(f"{c}/{f}" for c, f in missing[:5]),
                severity="warning",
            )
        )
    own = [
        r
        for r, i, a in zip(
            decisions["source_row"], decisions["item_id"], decisions["adjudicator_id"], strict=True
        )
        if a in raters.get(i, set())
    ]
    if own:
        parts.append(
            issue_rows(
                file,
                own,
                "adjudicator_id",
                "adjudicator_is_rater",
                [""] * len(own),
                "the adjudicator also rated this item",
                severity="warning",
            )
        )
    return concat_issues(parts)


def check_file(
    study: Study, path: Path, key: pd.DataFrame, raters: dict, file: str | None = None
) -> DecisionCheck:
    """Read and validate one decisions file, reported as ``file`` (default its name); an
    unreadable file is one error."""
    file = file or path.name
    try:
        frame = read_returned(path)
    except UnreadableFile as exc:
        return DecisionCheck(file, None, file_issue(file, exc.rule, exc.reason))
    return validate_decisions(study, frame, key, raters, file)
