"""Property: whatever people send back (random cells, partial and split returns, several
encodings, resubmissions arriving in any order), no accepted rating is ever lost, the newest
accepted version of each rating is the current one, no rule-breaking value is accepted, and
nothing crashes. Bounded (``max_examples``, no deadline) so that it runs in seconds in CI."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pandas as pd
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from raterlab import warehouse
from raterlab.ingest import ingest_file, store
from raterlab.ingest.audit import accepted_violations
from raterlab.ingest.batches import commit_all
from raterlab.ingest.context import study_context
from raterlab.ingest.one_file import commit
from raterlab.ingest.receive import receive
from raterlab.ingest.returns import validate_received
from raterlab.protocol import load_study
from raterlab.settings import Home
from tests.conftest import MINI_STUDY, mini_records, write_study
from tests.ingest.conftest import filled, issue

VALID = {
    "score": ["1", "3", "5", " 4 ", "2"],
    "notes": ["fine", "=cmd()", "ok caf\u00e9", "short"],
    "time_spent_s": ["12", "7.5", "300"],
}
ANY = {
    "score": [*VALID["score"], "skip", "9", "x", "", "true", "2.5"],
    "notes": [*VALID["notes"], "", "N/A", "\u200b", "-"],
    "time_spent_s": [*VALID["time_spent_s"], "inf", "-1", "1e400", ""],
}
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "cp1252"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The mini study with a1's packets issued, once; each example copies its home."""
    root = tmp_path_factory.mktemp("property")
    study = load_study(write_study(root / "studies", MINI_STUDY, mini_records()))
    home = Home(root / "home")
    issue(study, home)
    return study, home, filled(home, "a1", "main-01", "answer")


def _row(n: int, pools: dict):
    cells = {c: st.sampled_from(v) for c, v in pools.items()}
    return st.fixed_dictionaries({"row": st.integers(0, n - 1), **cells})


@st.composite
def _submission(draw, n: int) -> dict:
    """A return: some rows of the packet (all valid cells, or any cells), a version, an
    encoding."""
    pools = VALID if draw(st.booleans()) else ANY
    rows = st.lists(_row(n, pools), min_size=1, max_size=n, unique_by=lambda r: r["row"])
    return {
        "rows": draw(rows),
        "version": draw(st.integers(0, 4)),
        "encoding": draw(st.sampled_from(ENCODINGS)),
    }


def _examples(n: int) -> settings:
    """Hypothesis settings of these tests: ``n`` examples, no deadline (each builds a
    warehouse), the same examples on CI."""
    return settings(
        max_examples=n,
        deadline=None,
        derandomize=os.environ.get("CI") == "true",
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def _norm(value) -> str:
    return "" if value is None or pd.isna(value) else str(value).strip().lower()


@_examples(15)
@given(data=st.data())
def test_returns_never_lose_an_accepted_rating(built, tmp_path_factory, data) -> None:
    study, template, packet = built
    n = len(packet)
    submissions = data.draw(st.lists(_submission(n), min_size=1, max_size=4))
    home = Home(tmp_path_factory.mktemp("example") / "home")
    shutil.copytree(template.root, home.root)
    accepted: list[tuple[int, int, pd.DataFrame]] = []
    for arrival, sub in enumerate(submissions):
        frame = packet.iloc[[r["row"] for r in sub["rows"]]].copy()
        for column in ("score", "notes", "time_spent_s"):
            frame[column] = [r[column] for r in sub["rows"]]
        path = home.root / f"return_{arrival}.csv"
        try:
            path.write_bytes(frame.to_csv(index=False).encode(sub["encoding"]))
        except UnicodeEncodeError:
            continue
        os.utime(path, (1_790_000_000 + sub["version"],) * 2)
        with warehouse.connect(home.warehouse) as con:
            result = ingest_file(study, path, home, con)  # never raises
        assert result.status in ("accepted", "rejected", "unchanged")
        if result.status == "accepted":
            accepted.append((sub["version"], arrival, frame))
    with warehouse.connect(home.warehouse, read_only=True) as con:
        labels = warehouse.read_study_rows(con, "gold.labels", study.name)
        ratings = con.execute("SELECT token, time_spent_s FROM gold.ratings").df()
    assert accepted_violations(study, labels).empty
    assert ratings["time_spent_s"].map(lambda t: 0 <= t < float("inf")).all()
    current = labels[labels["field"] == "score"].set_index("token")
    winner: dict[str, tuple] = {}
    for version, arrival, frame in accepted:
        for token, score, notes in zip(frame["item"], frame["score"], frame["notes"], strict=True):
            if token not in winner or (version, arrival) >= winner[token][0]:
                winner[token] = ((version, arrival), score, notes)
    event(f"accepted files: {len(accepted)}")
    assert set(current.index) == set(winner)
    for token, (_, score, notes) in winner.items():
        assert _norm(current.at[token, "value"]) == _norm(score)
        assert _norm(current.at[token, "notes"]) == _norm(notes)


TABLES = {
    "gold.ratings": "rating_id",
    "gold.rating_values": "rating_id, field",
    "gold.rating_history": "rating_id, field, change",
    "staging.ingests": "file",
    "staging.ingest_issues": "file, row, rule, message",
    "raw.returned_files": "file",
}


def _commit_in(home: Home, study, paths: list, grouped: bool) -> tuple[list, dict]:
    """Receive ``paths`` (fixed receipt times), validate them, and commit them one by one or
    grouped (:func:`raterlab.ingest.batches.commit_all`); returns the results and the tables."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with warehouse.connect(home.warehouse) as con:
        store.ensure_tables(con)
        context = study_context(con, study)
        validated = []
        for n, path in enumerate(paths):
            received = replace(receive(study, path, home), received_at=start + timedelta(n))
            validated.append((received, validate_received(study, received, con, context)))
        if grouped:
            results = commit_all(study, validated, home, con)
        else:
            results = [commit(study, r, v, home, con) for r, v in validated]
        tables = {
            t: con.execute(f"SELECT * EXCLUDE (study) FROM {t} ORDER BY {order}").df()
            for t, order in TABLES.items()
        }
    outcomes = [(r.file, r.status, r.n_labels, r.superseded, r.changes) for r in results]
    return outcomes, tables


@_examples(10)
@given(data=st.data())
def test_group_commit_gives_what_one_by_one_gives(built, tmp_path_factory, data) -> None:
    """Files committed in groups (one transaction, one plan) leave exactly the tables and
    outcomes of committing them one per transaction in the same order: overlapping,
    resubmitted, older, identical and rejected files, of two annotators."""
    study, template, packet = built
    packets = {"a1": packet, "a2": filled(template, "a2", "main-01", "answer")}
    n = min(len(p) for p in packets.values())
    submissions = data.draw(
        st.lists(
            st.tuples(st.sampled_from(sorted(packets)), _submission(n)), min_size=2, max_size=6
        )
    )
    root = tmp_path_factory.mktemp("group")
    (root / "files").mkdir()
    paths = []
    for arrival, (annotator, sub) in enumerate(submissions):
        frame = packets[annotator].iloc[[r["row"] for r in sub["rows"]]].copy()
        for column in ("score", "notes", "time_spent_s"):
            frame[column] = [r[column] for r in sub["rows"]]
        path = root / "files" / f"{annotator}_{arrival}.csv"
        path.write_bytes(frame.to_csv(index=False).encode("utf-8"))
        os.utime(path, (1_790_000_000 + sub["version"],) * 2)
        paths.append(path)
    paths += paths[:1]  # the same content again: unchanged
    done = {}
    for grouped in (False, True):
        home = Home(root / f"home-{grouped}")
        shutil.copytree(template.root, home.root)
        done[grouped] = _commit_in(home, study, paths, grouped)
    (one_by_one, tables), (in_groups, grouped_tables) = done[False], done[True]
    assert in_groups == one_by_one
    for table, frame in tables.items():
        other = grouped_tables[table]
        for column in ("archived_path", "report"):
            if column in frame:
                frame[column] = frame[column].str.replace("home-False", "home-True")
        pd.testing.assert_frame_equal(other, frame, obj=table)
