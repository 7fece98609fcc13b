"""Returned adjudication decisions: archive, validate, quarantine or write, in one transaction.

A decisions file (CSV or JSONL, read like any returned file by
:func:`raterlab.ingest.read.read_returned`) has one row per disputed field: ``case``,
``field``, ``decision``, ``rationale``, ``adjudicator_id`` (the packet's read-only columns
``task``, ``allowed`` and ``ratings`` may stay). Rules, each reported with file, row, column,
rule and value (the ingest's issue format, so the same reports are written):

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

The file is archived under its content hash first (``archive/<study>/``); a rejected file is
copied to ``quarantine/<study>/adjudication/<name>__<hash>/`` with ``report.md``,
``report.json`` and ``issues.csv``. An accepted file's decisions follow the ratings' version
rule (:func:`raterlab.ingest.ratings.newer_or_same`; the file's version is its modification
time capped at its arrival): a decision at least as new as the one in force for the same
case and field replaces it (the replaced one goes to ``gold.adjudication_history``,
``change = 'replaced'``; an earlier file left with no decision is marked superseded); an
older one goes to history instead (``older_than_current``) and the decision in force stays.
Outcomes go to ``staging.adjudication_files``, issues to ``staging.adjudication_issues``,
decisions to ``gold.adjudications``, the file to ``raw.returned_files``: all in one
transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from raterlab.adjudication.packets import (
    ADJUDICATION,
    FILLED_COLUMNS,
    TEMPLATE_COLUMNS,
    read_adjudication_key,
)
from raterlab.ingest import store
from raterlab.ingest.audit import pending_files
from raterlab.ingest.changes import DOMAIN_RULES
from raterlab.ingest.labels import normalised_values
from raterlab.ingest.ratings import newer_or_same
from raterlab.ingest.read import ROW, UnreadableFile, read_returned
from raterlab.ingest.rules import task_rules
from raterlab.ingest.run import file_report, file_row, receive, version_issues
from raterlab.ingest.schema import failures
from raterlab.ingest.validate import ISSUE_COLUMNS, file_issue, issue_rows
from raterlab.protocol import SKIP_VALUE, Study
from raterlab.settings import Home
from raterlab.tables import adjudication as adjudication_tables
from raterlab.tables import ddl, names
from raterlab.tables.adjudication import ADJUDICATION_HISTORY, ADJUDICATIONS

MIN_RATIONALE = 10
REQUIRED = ("case", "field", *FILLED_COLUMNS)
LEDGER = store.Ledger(
    adjudication_tables.ADJUDICATION_FILES.name,
    adjudication_tables.ADJUDICATION_ISSUES.name,
    (ADJUDICATIONS.name, adjudication_tables.ADJUDICATION_HISTORY.name),
)


def inbox_dir(home: Home, study: str) -> Path:
    return home.inbox / study / ADJUDICATION


def ensure_tables(con: duckdb.DuckDBPyConnection) -> None:
    store.ensure_tables(con)
    ddl.ensure(con, *adjudication_tables.TABLES)


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


def _empty_issues() -> pd.DataFrame:
    return pd.DataFrame(columns=list(ISSUE_COLUMNS))


def _concat(parts: list[pd.DataFrame]) -> pd.DataFrame:
    parts = [p for p in parts if not p.empty]
    return pd.concat(parts, ignore_index=True) if parts else _empty_issues()


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
    return _concat(parts)


def validate_decisions(
    study: Study,
    frame: pd.DataFrame,
    key: pd.DataFrame,
    raters: dict[str, set[str]],
    file: str,
) -> DecisionCheck:
    """Check a decisions file's text cells against the adjudication key and the study."""
    columns = _column_issues(frame, file)
    if not columns.empty:
        return DecisionCheck(file, frame, columns)
    text = {c: frame[c].astype(str).str.strip() for c in REQUIRED}
    rows = frame[ROW].to_numpy()
    parts = []
    for column in REQUIRED:
        empty = (text[column] == "").to_numpy()
        if empty.any():
            parts.append(
                issue_rows(
                    file,
                    rows[empty],
                    column,
                    "required",
                    [""] * int(empty.sum()),
                    f"{column} is required",
                )
            )
    skipped = (text["decision"].str.lower() == SKIP_VALUE).to_numpy()
    if skipped.any():
        parts.append(
            issue_rows(
                file,
                rows[skipped],
                "decision",
                "required",
                text["decision"][skipped],
                "decide a value; skip is not a decision",
            )
        )
    rotation = study.consensus.adjudicators
    if rotation:
        stranger = (
            (text["adjudicator_id"] != "") & ~text["adjudicator_id"].isin(rotation)
        ).to_numpy()
        if stranger.any():
            parts.append(
                issue_rows(
                    file,
                    rows[stranger],
                    "adjudicator_id",
                    "unknown_adjudicator",
                    text["adjudicator_id"][stranger],
                    f"not one of the study's adjudicators ({', '.join(rotation)})",
                )
            )
    short = ((text["rationale"] != "") & (text["rationale"].str.len() < MIN_RATIONALE)).to_numpy()
    if short.any():
        parts.append(
            issue_rows(
                file,
                rows[short],
                "rationale",
                "rationale",
                text["rationale"][short],
                f"the rationale must say why, in at least {MIN_RATIONALE} characters",
            )
        )
    by_case = key.drop_duplicates(["case_token", "field"]).set_index(["case_token", "field"])
    cases = set(key["case_token"])
    case = text["case"].to_numpy(dtype=object)
    fld = text["field"].to_numpy(dtype=object)
    known = np.array([c in cases for c in case], dtype=bool)
    unknown = ~known & (text["case"] != "").to_numpy()
    if unknown.any():
        parts.append(
            issue_rows(
                file,
                rows[unknown],
                "case",
                "unknown_case",
                case[unknown],
                "this case id is not in any adjudication packet of the study; was it changed?",
            )
        )
    disputed = np.array([(c, f) in by_case.index for c, f in zip(case, fld, strict=True)])
    wrong_field = known & ~disputed & (text["field"] != "").to_numpy()
    if wrong_field.any():
        parts.append(
            issue_rows(
                file,
                rows[wrong_field],
                "field",
                "not_disputed",
                fld[wrong_field],
                "the packet did not ask for a decision on this field for this case",
            )
        )
    twice = pd.Series(list(zip(case, fld, strict=True))).duplicated().to_numpy() & disputed
    if twice.any():
        parts.append(
            issue_rows(
                file,
                rows[twice],
                "decision",
                "duplicate_decision",
                fld[twice],
                "this case and field are decided more than once",
            )
        )
    good = disputed & ~twice
    matched = by_case.loc[list(zip(case[good], fld[good], strict=True))].reset_index()
    decided = frame[good].reset_index(drop=True)
    values = np.full(len(decided), None, dtype=object)
    numbers = np.full(len(decided), np.nan)
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
    parts.append(_constraint_issues(study, decisions, file))
    parts.append(_warnings(key, decisions, raters, file))
    return DecisionCheck(file, frame, _concat(parts), decisions)


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
    return _concat(parts)


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
    return _concat(parts)


def check_file(study: Study, path: Path, key: pd.DataFrame, raters: dict) -> DecisionCheck:
    """Read and validate one decisions file; an unreadable file is one error."""
    try:
        frame = read_returned(path)
    except UnreadableFile as exc:
        return DecisionCheck(path.name, None, file_issue(path.name, exc.rule, exc.reason))
    return validate_decisions(study, frame, key, raters, path.name)


@dataclass
class AdjudicationResult:
    file: str
    sha256: str
    status: str
    """``accepted``, ``rejected`` or ``unchanged`` (this content was ingested before)."""
    n_decisions: int = 0
    n_errors: int = 0
    n_warnings: int = 0
    report: Path | None = None
    superseded: list[str] = field(default_factory=list)
    n_older: int = 0
    """Decisions older than the one in force: kept in history, not applied."""


def _raters(con: duckdb.DuckDBPyConnection, study: str) -> dict[str, set[str]]:
    try:
        rows = con.execute(
            "SELECT item_id, annotator_id FROM gold.ratings WHERE study = ? AND kind = 'item'",
            [study],
        ).fetchall()
    except duckdb.CatalogException:
        return {}
    out: dict[str, set[str]] = {}
    for item, annotator in rows:
        out.setdefault(item, set()).add(annotator)
    return out


def _accepted(study: Study, check: DecisionCheck) -> pd.DataFrame | None:
    if check.ok:
        return check.decisions
    errors = check.errors
    if not study.ingest.accept_valid_rows or errors["row"].isna().any():
        return None
    bad = set(errors["row"].dropna().astype(int))
    return check.decisions[~check.decisions["source_row"].isin(bad)]


def ingest_decisions(
    study: Study, path: Path, home: Home, con: duckdb.DuckDBPyConnection
) -> AdjudicationResult:
    """Ingest one returned decisions file (safe to repeat: the same content is a no-op),
    through the ingest's commit (:func:`raterlab.ingest.store.commit_file`)."""
    ensure_tables(con)
    received = receive(study, path, home)
    if store.known_outcome(con, study.name, received.sha256, LEDGER) is not None:
        return AdjudicationResult(received.file, received.sha256, "unchanged")
    key = read_adjudication_key(con, study.name)
    check = check_file(study, received.archived, key, _raters(con, study.name))
    check.file = received.file
    check.issues["file"] = received.file
    check.issues = _concat([check.issues, version_issues(received)])
    decisions = _accepted(study, check)
    status = "rejected" if decisions is None or decisions.empty else "accepted"
    report_path = file_report(home, study.name, received, status, check.issues, ADJUDICATION)
    n_errors = int((check.issues["severity"] == "error").sum())
    n_warnings = int((check.issues["severity"] == "warning").sum())
    superseded: list[str] = []

    def apply(con: duckdb.DuckDBPyConnection) -> dict:
        rows = decisions.assign(
            source_file=received.file,
            source_sha256=received.sha256,
            decided_at=received.received_at,
            version_at=received.version_at,
        )
        replaced, older = _apply_decisions(con, study.name, received.sha256, rows)
        superseded.extend(replaced)
        return {"n_older": older}

    done = store.commit_file(
        con,
        LEDGER,
        file_row(study, received),
        {
            "file": received.file,
            "archived_path": str(received.archived),
            "batches": ",".join(sorted(set(check.decisions.get("batch", [])))) or None,
            "status": status,
            "n_rows": 0 if check.frame is None else len(check.frame),
            "n_decisions": 0 if decisions is None else len(decisions),
            "n_errors": n_errors,
            "n_warnings": n_warnings,
            "report": None if report_path is None else str(report_path),
            "ingested_at": received.received_at,
            "superseded_by": None,
        },
        check.issues,
        None if status == "rejected" else apply,
    )
    if done is None:
        return AdjudicationResult(received.file, received.sha256, "unchanged")
    return AdjudicationResult(
        received.file,
        received.sha256,
        status,
        0 if decisions is None else len(decisions),
        n_errors,
        n_warnings,
        report_path,
        superseded,
        int(done.get("n_older") or 0),
    )


_MEETS = "a.study = d.study AND a.task = d.task AND a.item_id = d.item_id AND a.field = d.field"
"""SQL: the decision in force ``a`` for the same case and field as the decision ``d``."""


def _apply_decisions(
    con: duckdb.DuckDBPyConnection, study: str, sha256: str, decisions: pd.DataFrame
) -> tuple[list[str], int]:
    """Apply a file's decisions (inside the commit's transaction) by the ratings' version
    rule: each at least as new as the decision in force for its case and field replaces it
    (:func:`_replace_decisions`); each older one goes to history as ``older_than_current``.
    Returns the files left with no decision (marked superseded) and how many were older."""
    rows = decisions.assign(study=study)[names(ADJUDICATIONS)]
    con.register("_incoming", rows)
    try:
        wins = con.execute(
            f"""SELECT {newer_or_same("d.version_at", "a.version_at")} AS wins, a.source_file,
                       a.source_sha256
                FROM _incoming d LEFT JOIN gold.adjudications a ON {_MEETS}
                ORDER BY d.source_row""",
        ).df()
    finally:
        con.unregister("_incoming")
    rows = rows.sort_values("source_row", kind="stable").reset_index(drop=True)
    win = wins.pop("wins").to_numpy(dtype=bool)
    older = rows[~win].assign(
        change="older_than_current",
        replaced_at=rows["decided_at"][~win],
        replaced_by_file=wins["source_file"][~win],
        replaced_by_sha256=wins["source_sha256"][~win],
    )
    store.insert(con, ADJUDICATION_HISTORY.name, older)
    newer = rows[win]
    return (_replace_decisions(con, study, sha256, newer) if len(newer) else []), len(older)


def _replace_decisions(
    con: duckdb.DuckDBPyConnection, study: str, sha256: str, rows: pd.DataFrame
) -> list[str]:
    """Replace the decisions in force for the same case and field as ``rows`` (inside the
    commit's transaction), keeping each replaced one in ``gold.adjudication_history``;
    returns the files left with no decision, marked superseded."""
    superseded: list[str] = []
    con.register("_decided", rows)
    try:
        before = {
            r[0]
            for r in con.execute(
                f"""SELECT DISTINCT source_sha256 FROM gold.adjudications a
                   WHERE study = ? AND EXISTS (SELECT 1 FROM _decided d WHERE {_MEETS})""",
                [study],
            ).fetchall()
        }
        con.execute(
            f"""INSERT INTO gold.adjudication_history BY NAME
               SELECT a.*, 'replaced' AS change, now() AS replaced_at,
                      (SELECT any_value(source_file) FROM _decided) AS replaced_by_file,
                      ? AS replaced_by_sha256
               FROM gold.adjudications a WHERE study = ? AND EXISTS (
               SELECT 1 FROM _decided d WHERE {_MEETS})""",
            [sha256, study],
        )
        con.execute(
            f"""DELETE FROM gold.adjudications a WHERE study = ? AND EXISTS (
               SELECT 1 FROM _decided d WHERE {_MEETS})""",
            [study],
        )
        con.execute("INSERT INTO gold.adjudications BY NAME SELECT * FROM _decided")
    finally:
        con.unregister("_decided")
    for sha in sorted(before):
        left = con.execute(
            "SELECT count(*) FROM gold.adjudications WHERE study = ? AND source_sha256 = ?",
            [study, sha],
        ).fetchall()[0][0]
        if left == 0:
            file = con.execute(
                f"""UPDATE {LEDGER.outcomes} SET status = 'superseded', superseded_by = ?
                    WHERE study = ? AND sha256 = ? RETURNING file""",
                [sha256, study, sha],
            ).fetchall()
            superseded += [f[0] for f in file]
    return superseded


def ingest_inbox(
    study: Study, home: Home, con: duckdb.DuckDBPyConnection
) -> list[AdjudicationResult]:
    """Ingest every file in ``inbox/<study>/adjudication/`` not ingested before, oldest first."""
    return [
        ingest_decisions(study, p, home, con) for p in pending_files(inbox_dir(home, study.name))
    ]
