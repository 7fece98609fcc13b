"""The adjudicator's packet: one per issuing run, in ``outbox/<study>/adjudication/<batch>/``.

``adjudication.csv``     one row per disputed field: ``case`` (an opaque token per item),
                         ``task``, ``field``, ``allowed`` (the field's values), ``ratings``
                         (e.g. ``rater 1: 2 | rater 2: 4``), then the columns the adjudicator
                         fills in: ``decision``, ``rationale`` (required) and
                         ``adjudicator_id``. Lowest agreement first.
``reference.jsonl``      one line per case: the item (the task's shown keys only), the
                         disputed fields with their scale, and every rating of the item with
                         every field, confidence, time spent and the rater's notes, the raters
                         named ``rater 1``, ``rater 2``... in an order drawn per case
                         (:mod:`raterlab.adjudication.cases`).
``INSTRUCTIONS.md``, the study's guide, and ``packet.json`` (file hashes).

Nothing in it names the condition, model, judge verdicts, any hidden key, or an annotator.
The case -> item mapping is ``staging.adjudication_key`` (it never leaves the warehouse).
"""

from __future__ import annotations

import csv
import json
import tempfile
from datetime import datetime
from pathlib import Path

import duckdb
import pandas as pd

from raterlab.adjudication.cases import case_cards, field_card, item_cards, ratings_summary
from raterlab.adjudication.staging import (
    ADJUDICATION_KEY_COLUMNS,
    ADJUDICATION_KEY_TABLE,
    append_rows,
    next_batch,
    read_adjudication_key,
)
from raterlab.csvsafe import neutralise
from raterlab.design.blinding import token
from raterlab.design.instructions import allowed_values
from raterlab.design.packets import finish_packet
from raterlab.design.pairs import shown_pair
from raterlab.ingest.study_tables import StudyTables
from raterlab.membership import is_in
from raterlab.protocol import Study
from raterlab.settings import Home

ADJUDICATION = "adjudication"
TEMPLATE = "adjudication.csv"
REFERENCE = "reference.jsonl"
TEMPLATE_COLUMNS = (
    "case",
    "task",
    "field",
    "allowed",
    "ratings",
    "decision",
    "rationale",
    "adjudicator_id",
)
FILLED_COLUMNS = ("decision", "rationale", "adjudicator_id")


def adjudication_dir(outbox: Path, study: str, batch: str) -> Path:
    return outbox / study / ADJUDICATION / batch


def assigned_adjudicator(study: Study, batch: str) -> str | None:
    """Whose turn batch ``adj-NNN`` is: the study's ``consensus.adjudicators`` in rotation
    (batch 1 to the first, batch 2 to the second, ...); None when the study names none."""
    rotation = study.consensus.adjudicators
    if not rotation:
        return None
    number = int(batch.rsplit("-", 1)[-1])
    return rotation[(number - 1) % len(rotation)]


def _who(study: Study, batch: str) -> list[str]:
    """The instructions' lines on who adjudicates the batch."""
    assigned = assigned_adjudicator(study, batch)
    if assigned is None:
        return []
    others = [a for a in study.consensus.adjudicators if a != assigned]
    stand_in = f" If {assigned} is out, {' or '.join(others)} takes it" if others else ""
    return [
        f"This batch is `{assigned}`'s turn in the study's adjudication rotation "
        f"({', '.join(study.consensus.adjudicators)}).{stand_in}: write your own id in "
        "`adjudicator_id`.",
        "",
    ]


def _instructions(study: Study, batch: str, n_cases: int, n_rows: int) -> str:
    return "\n".join(
        [
            f"# {study.title}: adjudication",
            "",
            f"Batch `{batch}`: {n_cases} item(s), {n_rows} disputed field(s), lowest agreement "
            "first.",
            "",
            *_who(study, batch),
            f"For each row of `{TEMPLATE}`, read the case with the same `case` id in "
            f"`{REFERENCE}`: the item as the annotators saw it, and every rating given to it "
            "with the raters' notes (raters are numbered per case; you do not see who they are, "
            "nor the condition or the model behind the item).",
            "",
            "Fill in, for every row:",
            "",
            "| column | what to write |",
            "|---|---|",
            "| `decision` | the value you decide for `field`, as `allowed` says |",
            "| `rationale` | why, in a sentence or two (required; name what the raters missed) |",
            "| `adjudicator_id` | your id |",
            "",
            "Do not change `case` or `field`, and do not add or remove rows. Save as CSV (UTF-8) "
            "and send the file back.",
            "",
        ]
        + (["Read the guide in this folder before you start.", ""] if study.guide else [])
    )


def _shown(study: Study, task: str, record: dict) -> dict:
    """The item as the adjudicator reads it: its shown keys; a pair with ``system_a``'s
    response on the left (so ``left`` decides for ``a``, as the ratings are stored)."""
    spec = study.tasks[task]
    if spec.pairwise is not None:
        return shown_pair(spec, record, swapped=False)
    return {k: record[k] for k in spec.shown}


def write_adjudication_packet(
    study: Study, rows: pd.DataFrame, tables: StudyTables, target: Path
) -> list[dict]:
    """Write one adjudication packet (``rows``: the batch's key rows, in position order) to
    ``target``, built beside it and moved into place. Returns the files written."""
    records = tables.records_of(rows["item_id"])
    rows = rows.sort_values(["position", "field"], kind="stable")
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".adjudication-", dir=target.parent))
    lines, table_rows = [], []
    assigned = assigned_adjudicator(study, rows["batch"].iloc[0]) or ""
    # Every case's ratings from one pass over the labels, not a filter per case.
    by_item = item_cards(study, tables.labels[is_in(tables.labels["item_id"], rows["item_id"])])
    for case, case_rows in rows.groupby("case_token", sort=False):
        first = case_rows.iloc[0]
        task, item_id = first["task"], first["item_id"]
        cards = case_cards(by_item.get(item_id, []), case)
        record = records[item_id]
        entry = {
            "case": case,
            "position": int(first["position"]),
            "task": task,
            "unit": study.tasks[task].unit,
            "item": _shown(study, task, record),
            "disputed": [
                field_card(study, task, f, r)
                for f, r in zip(case_rows["field"], case_rows["reasons"], strict=True)
            ],
            "ratings": cards,
        }
        lines.append(json.dumps(entry, ensure_ascii=False))
        for field in case_rows["field"]:
            spec = study.tasks[task].fields[field]
            table_rows.append(
                [
                    case,
                    task,
                    field,
                    allowed_values(spec),
                    ratings_summary(cards, field),
                    "",
                    "",
                    assigned,
                ]
            )
    with (work / TEMPLATE).open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(TEMPLATE_COLUMNS)
        for cells in table_rows:
            writer.writerow([neutralise(c) for c in cells])
    (work / REFERENCE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    n_cases = rows["case_token"].nunique()
    (work / "INSTRUCTIONS.md").write_text(
        _instructions(study, rows["batch"].iloc[0], n_cases, len(rows)), encoding="utf-8"
    )
    written = [
        {"file": TEMPLATE, "kind": "template", "n_rows": len(table_rows)},
        {"file": REFERENCE, "kind": "reference", "n_rows": n_cases},
        {"file": "INSTRUCTIONS.md", "kind": "instructions", "n_rows": 0},
    ]
    manifest = {
        "study": study.name,
        "study_version": study.version,
        "kind": ADJUDICATION,
        "batch": rows["batch"].iloc[0],
    }
    return finish_packet(study, work, target, written, manifest, {})


def key_rows(
    study: Study, wanted: pd.DataFrame, batch: str, secret: bytes, now: datetime
) -> pd.DataFrame:
    """The adjudication key's rows (:data:`ADJUDICATION_KEY_COLUMNS`) of a new batch:
    ``wanted`` (the queue's open ``adjudicator`` rows, in queue order) with one case token per
    item and the items' positions in that order."""
    order = wanted[["task", "item_id"]].drop_duplicates()
    position = {(t, i): p for p, (t, i) in enumerate(order.itertuples(index=False), 1)}
    secret_token = {(t, i): token(secret, study.name, ADJUDICATION, batch, i) for t, i in position}
    pairs = list(zip(wanted["task"], wanted["item_id"], strict=True))
    return pd.DataFrame(
        {
            "batch": batch,
            "case_token": [secret_token[pair] for pair in pairs],
            "task": wanted["task"].to_numpy(),
            "item_id": wanted["item_id"].to_numpy(),
            "field": wanted["field"].to_numpy(),
            "reasons": wanted["reasons"].to_numpy(),
            "agreement": wanted["agreement"].astype(float).to_numpy(),
            "n_ratings": wanted["n_ratings"].astype("int64").to_numpy(),
            "position": [position[pair] for pair in pairs],
            "issued_at": now,
        },
        columns=list(ADJUDICATION_KEY_COLUMNS),
    )


def issue_adjudication_packet(
    study: Study,
    home: Home,
    con: duckdb.DuckDBPyConnection,
    secret: bytes,
    queue: pd.DataFrame,
    tables: StudyTables,
    now: datetime,
) -> dict | None:
    """Put the queue's open ``adjudicator`` rows into a new batch (``adj-NNN``): its packet
    written to the outbox and its rows added to ``staging.adjudication_key``. Returns
    ``batch``, ``cases``, ``fields`` and ``packet`` (relative to the outbox); None when no
    such row is open."""
    wanted = queue[(queue["route"] == "adjudicator") & (queue["state"] == "open")]
    if wanted.empty:
        return None
    batch = next_batch(read_adjudication_key(con, study.name)["batch"], "adj", 3)
    rows = key_rows(study, wanted, batch, secret, now)
    target = adjudication_dir(home.outbox, study.name, batch)
    write_adjudication_packet(study, rows, tables, target)
    append_rows(con, ADJUDICATION_KEY_TABLE, study.name, rows)
    return {
        "batch": batch,
        "cases": len(rows[["task", "item_id"]].drop_duplicates()),
        "fields": len(rows),
        "packet": str(target.relative_to(home.outbox)),
    }
