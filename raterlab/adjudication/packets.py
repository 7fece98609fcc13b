"""Issuing the open disputes: adjudication packets, and third-annotator packets.

**Adjudication packet** (``outbox/<study>/adjudication/<batch>/``), one per issuing run:

``adjudication.csv``     one row per disputed field: ``case`` (an opaque token per item),
                         ``task``, ``field``, ``allowed`` (the field's values), ``ratings``
                         (e.g. ``rater 1: 2 | rater 2: 4``), then the columns the adjudicator
                         fills in: ``decision``, ``rationale`` (required) and
                         ``adjudicator_id``. Lowest agreement first.
``reference.jsonl``      one line per case: the item (the task's shown keys only), the
                         disputed fields with their scale, and every rating of the item with
                         every field, confidence, time spent and the rater's notes, the raters
                         named ``rater 1``, ``rater 2``... in an order drawn per case.
``INSTRUCTIONS.md``, the study's guide, and ``packet.json`` (file hashes).

Nothing in it names the condition, model, judge verdicts, any hidden key, or an annotator.
The case -> item mapping is ``staging.adjudication_key`` (it never leaves the warehouse).

**Third-annotator packet**: the item goes to an annotator who was never assigned it, as a
normal packet (``outbox/<study>/<annotator>/extra-NN/``, the normal template, reference file and
instructions: nothing in its name or text says the item was disputed) whose rows are added to
the sealed key with ``round = 'tiebreak'`` (which never leaves the warehouse), so the normal
ingest reads the return and the rating joins the item's ratings. The assignments are kept in
``staging.tiebreak_assignments`` and merged into ``staging.blinding_key`` again whenever the
design re-seals it.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pandas as pd

from raterlab import memo, warehouse
from raterlab.adjudication.queue import (
    QUEUE_COLUMNS,
    QUEUE_TYPES,
    TIEBREAK_ROUND,
    build_queue,
    empty_queue,
    ordered,
    returned_tiebreaks,
)
from raterlab.consensus.draft import Draft, policy_consensus
from raterlab.consensus.inputs import StudyTables, load_tables
from raterlab.design.assignment import COLUMNS as ASSIGNMENT_COLUMNS
from raterlab.design.blinding import seal, token
from raterlab.design.instructions import _allowed
from raterlab.design.packets import MANIFEST, neutralise, packet_dir, write_packet
from raterlab.hashing import stable_int
from raterlab.protocol import ConfidenceField, LikertField, Study
from raterlab.settings import Home
from raterlab.tables import adjudication as tables
from raterlab.tables import ddl
from raterlab.warehouse import read_table

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
KEY_COLUMNS = (
    "batch",
    "case_token",
    "task",
    "item_id",
    "field",
    "reasons",
    "agreement",
    "n_ratings",
    "position",
    "issued_at",
)
KEY_TABLE = tables.ADJUDICATION_KEY.name
TIEBREAK_TABLE = tables.TIEBREAK_ASSIGNMENTS.name
QUEUE_TABLE = tables.ADJUDICATION_QUEUE.name
EXTRA_BATCH = "extra"
"""Prefix of third-annotator packets' batch names (``extra-01``...): a neutral name, so the
third annotator does not learn that the items were disputed."""
PACKET_FILES_TABLE = tables.TIEBREAK_PACKET_FILES.name


def ensure_staging(con: duckdb.DuckDBPyConnection) -> None:
    """Create the staging tables of adjudication typed from their declarations, so an
    all-null column keeps its type."""
    ddl.ensure(
        con,
        tables.ADJUDICATION_QUEUE,
        tables.ADJUDICATION_KEY,
        tables.TIEBREAK_ASSIGNMENTS,
        tables.TIEBREAK_PACKET_FILES,
    )


def adjudication_dir(outbox: Path, study: str, batch: str) -> Path:
    return outbox / study / ADJUDICATION / batch


def read_adjudication_key(con: duckdb.DuckDBPyConnection, study: str) -> pd.DataFrame:
    key = read_table(con, KEY_TABLE, study)
    return pd.DataFrame(columns=list(KEY_COLUMNS)) if key is None else key


def _next_batch(existing: pd.Series, prefix: str, width: int) -> str:
    numbers = [
        int(b.rsplit("-", 1)[1])
        for b in existing.dropna().unique()
        if str(b).startswith(prefix + "-") and str(b).rsplit("-", 1)[1].isdigit()
    ]
    return f"{prefix}-{(max(numbers) if numbers else 0) + 1:0{width}d}"


# --- reading the ratings an adjudicator sees -------------------------------------------------


def item_cards(study: Study, labels: pd.DataFrame) -> dict[str, list[dict]]:
    """Per item, its counting ratings (kind item, copy 0) as the adjudicator sees them, in
    rating id order, from one pass over ``labels``: the annotator (for the order of
    :func:`case_cards`), every field's value, confidence, time spent, notes."""
    rows = labels[(labels["kind"] == "item") & (labels["copy"] == 0)].sort_values(
        "rating_id", kind="stable"
    )
    shown = {
        name: {f for f, spec in task.fields.items() if not isinstance(spec, ConfidenceField)}
        for name, task in study.tasks.items()
    }
    ratings: dict[object, dict] = {}
    for rating, item, task, annotator, field, value, confidence, time_spent, notes in zip(
        *(
            rows[c].tolist()
            for c in (
                "rating_id",
                "item_id",
                "task",
                "annotator_id",
                "field",
                "value",
                "confidence",
                "time_spent_s",
                "notes",
            )
        ),
        strict=True,
    ):
        card = ratings.get(rating)
        if card is None:
            card = ratings[rating] = {
                "item": item,
                "task": task,
                "annotator": annotator,
                "values": {},
                "confidence": None if pd.isna(confidence) else confidence,
                "time_spent_s": None if pd.isna(time_spent) else float(time_spent),
                "notes": None if pd.isna(notes) else notes,
            }
        if field in shown[card["task"]]:
            card["values"][field] = value
    out: dict[str, list[dict]] = {}
    for card in ratings.values():
        fields = study.tasks[card["task"]].fields
        values = card["values"]
        card["values"] = {f: values[f] for f in fields if f in values}
        out.setdefault(card.pop("item"), []).append(card)
    return out


def case_cards(cards: list[dict], case: str) -> list[dict]:
    """An item's cards (:func:`item_cards`) for one case: raters named ``rater 1``,
    ``rater 2``... in an order drawn from the case token, without the annotator."""
    order = sorted(cards, key=lambda c: stable_int(case, c["annotator"]))
    keys = ("values", "confidence", "time_spent_s", "notes")
    return [
        {"rater": f"rater {k}", **{key: c[key] for key in keys}}
        for k, c in enumerate(order, start=1)
    ]


def _field_card(study: Study, task: str, field: str, reasons: str) -> dict:
    spec = study.tasks[task].fields[field]
    card = {
        "field": field,
        "type": spec.type,
        "description": spec.description,
        "allowed": _allowed(spec),
        "reasons": reasons.split(","),
    }
    if isinstance(spec, LikertField) and spec.anchors:
        card["anchors"] = {str(k): v for k, v in sorted(spec.anchors.items())}
    return card


def _ratings_summary(cards: list[dict], field: str) -> str:
    return " | ".join(f"{c['rater']}: {c['values'].get(field, '')}" for c in cards)


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


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_adjudication_packet(
    study: Study, rows: pd.DataFrame, tables: StudyTables, target: Path
) -> list[dict]:
    """Write one adjudication packet (``rows``: the batch's key rows, in position order) to
    ``target``, built beside it and moved into place. Returns the files written."""
    records = tables.records()
    rows = rows.sort_values(["position", "field"], kind="stable")
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".adjudication-", dir=target.parent))
    lines, table_rows = [], []
    assigned = assigned_adjudicator(study, rows["batch"].iloc[0]) or ""
    # Every case's ratings from one pass over the labels, not a filter per case.
    by_item = item_cards(study, tables.labels[tables.labels["item_id"].isin(rows["item_id"])])
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
            "item": {k: record[k] for k in study.tasks[task].shown},
            "disputed": [
                _field_card(study, task, f, r)
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
                    _allowed(spec),
                    _ratings_summary(cards, field),
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
    if study.guide:
        guide = study.path_of(study.guide)
        shutil.copyfile(guide, work / guide.name)
        written.append({"file": guide.name, "kind": "guide", "n_rows": 0})
    for entry in written:
        entry["sha256"] = _sha256(work / entry["file"])
    manifest = {
        "study": study.name,
        "study_version": study.version,
        "kind": ADJUDICATION,
        "batch": rows["batch"].iloc[0],
        "files": written,
    }
    (work / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if target.exists():
        shutil.rmtree(target)
    os.replace(work, target)
    return written


# --- issuing ---------------------------------------------------------------------------------


def _pick_annotator(item: str, candidates: set[str], load: dict[str, int]) -> str:
    return min(sorted(candidates), key=lambda a: (load.get(a, 0), stable_int("tiebreak", item, a)))


def tiebreak_rows(
    study: Study, queue: pd.DataFrame, key: pd.DataFrame, previous: pd.DataFrame, batch: str
) -> pd.DataFrame:
    """New third-annotator assignments (:data:`ASSIGNMENT_COLUMNS`) for the open
    ``third_annotator`` rows of ``queue``: the least-loaded annotator never assigned the item."""
    wanted = queue[(queue["route"] == "third_annotator") & (queue["state"] == "open")]
    items = wanted[["task", "item_id", "tier"]].drop_duplicates(["task", "item_id"])
    assigned = key.groupby("item_id")["annotator_id"].agg(set).to_dict() if len(key) else {}
    load = previous.groupby("annotator_id").size().to_dict() if len(previous) else {}
    rows = []
    for task, item, tier in items.itertuples(index=False):
        free = set(study.design.annotators) - assigned.get(item, set())
        if not free:
            continue
        annotator = _pick_annotator(item, free, load)
        load[annotator] = load.get(annotator, 0) + 1
        rows.append((annotator, TIEBREAK_ROUND, batch, task, item, tier, "item", 0, False))
    return pd.DataFrame(rows, columns=list(ASSIGNMENT_COLUMNS))


def merge_tiebreak_key(
    con: duckdb.DuckDBPyConnection, study: Study, assignments: pd.DataFrame, secret: bytes
) -> pd.DataFrame:
    """Seal the third-annotator assignments and make them the key's ``tiebreak`` rows (the
    rest of the sealed key is left alone), in one transaction."""
    if assignments.empty:
        return pd.DataFrame()
    sealed = seal(study, assignments[list(ASSIGNMENT_COLUMNS)].copy(), secret)
    sealed["copy"] = sealed["copy"].astype("int64")
    sealed["position"] = sealed["position"].astype("int64")
    data = sealed.assign(study=study.name)
    con.register("_tiebreak", data)
    try:
        con.execute("BEGIN TRANSACTION")
        con.execute(
            "DELETE FROM staging.blinding_key WHERE study = ? AND round = ?",
            [study.name, TIEBREAK_ROUND],
        )
        con.execute("INSERT INTO staging.blinding_key BY NAME SELECT * FROM _tiebreak")
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("_tiebreak")
    return sealed


def _append(con: duckdb.DuckDBPyConnection, table: str, study: str, frame: pd.DataFrame) -> None:
    ensure_staging(con)
    previous = read_table(con, table, study)
    both = (
        frame
        if previous is None or previous.empty
        else pd.concat([previous, frame], ignore_index=True)
    )
    warehouse.replace_study_rows(con, table, study, both)


QUEUE_STEP = "adjudication_queue"
"""The queue's record in ``staging.step_inputs`` (:mod:`raterlab.memo`)."""


def _queue_inputs(tables: StudyTables, draft: Draft, adjudication_key: pd.DataFrame) -> str:
    """:func:`raterlab.memo.fingerprint` of what :func:`build_queue` reads: the draft's own
    inputs (study, counting ratings, items and tiers, decisions), the sealed key, the
    adjudication key, the items whose third rating came back and the promoted items."""
    returned = pd.DataFrame({"item_id": sorted(returned_tiebreaks(tables))}, dtype=object)
    promoted = pd.DataFrame({"item_id": sorted(tables.promoted)}, dtype=object)
    return memo.fingerprint(draft.inputs, tables.key, adjudication_key, returned, promoted)


def _stored_queue(con: duckdb.DuckDBPyConnection, study: str) -> pd.DataFrame:
    """``staging.adjudication_queue`` read back as :func:`build_queue` returns it (types and
    order)."""
    stored = warehouse.read_study_rows(con, QUEUE_TABLE, study)
    if stored.empty:
        return empty_queue()
    return ordered(stored[list(QUEUE_COLUMNS)].astype(QUEUE_TYPES)).reset_index(drop=True)


def current_queue(
    con: duckdb.DuckDBPyConnection,
    study: Study,
    tables: StudyTables,
    draft: Draft,
    adjudication_key: pd.DataFrame,
) -> pd.DataFrame:
    """The adjudication queue of ``tables``: read back from ``staging.adjudication_queue``
    when it was built from the same inputs (:func:`_queue_inputs`), else built
    (:func:`build_queue`) and stored with its record in one transaction. A run asks for the
    queue four or five times (the queue asset, the packets before and after issuing, the
    backlog check, consensus), mostly of the same inputs; at 100,000 items a build costs
    several seconds."""
    inputs = _queue_inputs(tables, draft, adjudication_key)
    if memo.unchanged(con, study.name, QUEUE_STEP, inputs):
        return _stored_queue(con, study.name)
    queue = build_queue(study, tables, adjudication_key, draft.consensus)
    ensure_staging(con)
    memo.write_tables(con, study.name, {QUEUE_TABLE: queue}, QUEUE_STEP, inputs)
    return queue


def refresh_queue(
    con: duckdb.DuckDBPyConnection, study: Study, draft: Draft | None = None
) -> pd.DataFrame:
    """The queue of the warehouse as it is (:func:`current_queue`), kept in
    ``staging.adjudication_queue``. ``draft`` (of the same ratings and decisions) spares
    reading it again (:func:`raterlab.consensus.draft.policy_consensus`)."""
    tables = load_tables(con, study)
    draft = draft or policy_consensus(con, study, tables)
    return current_queue(con, study, tables, draft, read_adjudication_key(con, study.name))


def issue_packets(
    study: Study,
    home: Home,
    con: duckdb.DuckDBPyConnection,
    secret: bytes,
    now: datetime | None = None,
) -> dict:
    """Issue every open dispute: third-annotator packets and one new adjudication packet.

    Returns what was issued: ``adjudication_batch``, ``cases``, ``fields``,
    ``tiebreak_batch``, ``tiebreak_items``, ``packets`` (paths relative to the outbox).
    """
    now = now or datetime.now(UTC)
    ensure_staging(con)
    tables = load_tables(con, study)
    adj_key = read_adjudication_key(con, study.name)
    # Issuing packets changes the keys, not the ratings or decisions: one consensus serves
    # the queue before and after.
    draft = policy_consensus(con, study, tables)
    queue = current_queue(con, study, tables, draft, adj_key)
    issued = {
        "adjudication_batch": None,
        "cases": 0,
        "fields": 0,
        "tiebreak_batch": None,
        "tiebreak_items": 0,
        "packets": [],
    }
    previous = read_table(con, TIEBREAK_TABLE, study.name)
    if previous is None:
        previous = pd.DataFrame(columns=[*ASSIGNMENT_COLUMNS, "issued_at"])
    batch = _next_batch(previous["batch"], EXTRA_BATCH, 2)
    new_tiebreak = tiebreak_rows(study, queue, tables.key, previous, batch)
    if len(new_tiebreak):
        fresh_rows = new_tiebreak.assign(issued_at=now)
        everything = (
            fresh_rows if previous.empty else pd.concat([previous, fresh_rows], ignore_index=True)
        )
        warehouse.replace_study_rows(con, TIEBREAK_TABLE, study.name, everything)
        sealed = merge_tiebreak_key(con, study, everything[list(ASSIGNMENT_COLUMNS)], secret)
        fresh = sealed[sealed["batch"] == batch]
        files = []
        records = tables.records()
        for (annotator, b), rows in fresh.groupby(["annotator_id", "batch"], sort=True):
            target = packet_dir(home.outbox, study, annotator, b)
            for entry in write_packet(study, rows, records, target):
                files.append(
                    {
                        "annotator_id": annotator,
                        "batch": b,
                        "round": TIEBREAK_ROUND,
                        **entry,
                        "file": str((target / entry["file"]).relative_to(home.outbox)),
                    }
                )
            issued["packets"].append(str(target.relative_to(home.outbox)))
        _append(con, PACKET_FILES_TABLE, study.name, pd.DataFrame(files))
        issued["tiebreak_batch"] = batch
        issued["tiebreak_items"] = len(new_tiebreak)
    wanted = queue[(queue["route"] == "adjudicator") & (queue["state"] == "open")]
    if len(wanted):
        batch = _next_batch(adj_key["batch"], "adj", 3)
        order = wanted[["task", "item_id"]].drop_duplicates()
        position = {(t, i): p for p, (t, i) in enumerate(order.itertuples(index=False), 1)}
        secret_token = {
            (t, i): token(secret, study.name, ADJUDICATION, batch, i) for t, i in position
        }
        rows = pd.DataFrame(
            {
                "batch": batch,
                "case_token": [
                    secret_token[(t, i)]
                    for t, i in zip(wanted["task"], wanted["item_id"], strict=True)
                ],
                "task": wanted["task"].to_numpy(),
                "item_id": wanted["item_id"].to_numpy(),
                "field": wanted["field"].to_numpy(),
                "reasons": wanted["reasons"].to_numpy(),
                "agreement": wanted["agreement"].astype(float).to_numpy(),
                "n_ratings": wanted["n_ratings"].astype("int64").to_numpy(),
                "position": [
                    position[(t, i)] for t, i in zip(wanted["task"], wanted["item_id"], strict=True)
                ],
                "issued_at": now,
            }
        )
        target = adjudication_dir(home.outbox, study.name, batch)
        write_adjudication_packet(study, rows, tables, target)
        _append(con, KEY_TABLE, study.name, rows)
        issued.update(
            adjudication_batch=batch,
            cases=len(position),
            fields=len(rows),
        )
        issued["packets"].append(str(target.relative_to(home.outbox)))
    if issued["tiebreak_batch"]:
        tables = load_tables(con, study)  # the sealed key has the third annotators' rows
    if issued["packets"]:
        current_queue(con, study, tables, draft, read_adjudication_key(con, study.name))
    return issued


def sealed_tiebreak_rows(
    con: duckdb.DuckDBPyConnection, study: Study, secret: bytes
) -> pd.DataFrame:
    """The third-annotator rows of the sealed key (same tokens and positions every time), for
    the design's ``blinding_key`` asset to keep when it re-seals the key: append them to
    what :func:`raterlab.design.seal` returns. Empty when no third annotator was assigned."""
    previous = read_table(con, TIEBREAK_TABLE, study.name)
    if previous is None or previous.empty:
        return pd.DataFrame()
    sealed = seal(study, previous[list(ASSIGNMENT_COLUMNS)].copy(), secret)
    return sealed.astype({"copy": "int64", "position": "int64"})


def restore_tiebreak_key(con: duckdb.DuckDBPyConnection, study: Study, secret: bytes) -> int:
    """Put the third-annotator rows back into the sealed key if a re-run of the design
    dropped them; returns the rows restored."""
    previous = read_table(con, TIEBREAK_TABLE, study.name)
    if previous is None or previous.empty:
        return 0
    key = read_table(con, "staging.blinding_key", study.name)
    present = 0 if key is None else int((key["round"] == TIEBREAK_ROUND).sum())
    if present == len(previous):
        return 0
    merge_tiebreak_key(con, study, previous[list(ASSIGNMENT_COLUMNS)], secret)
    return len(previous)
