"""The ingest assets hand each other warehouse state: each can be materialized again alone,
any number of times, with the same result; one unreadable file does not block the others."""

from __future__ import annotations

import dagster as dg

from assets.ingest import labels, returned_annotations, validated_annotations
from raterlab import warehouse
from resources import Raterlab
from tests.ingest.conftest import filled, write


def _run(asset, study, home) -> None:
    context = dg.build_asset_context(partition_key=study.name)
    asset(context, raterlab=Raterlab(home=str(home.root), studies=str(study.source.parent)))


def _state(home) -> dict:
    with warehouse.connect(home.warehouse, read_only=True) as con:
        return {
            table: con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
            for table in (
                "raw.returned_files",
                "staging.ingests",
                "gold.ratings",
                "gold.rating_history",
                "staging.inbox",
            )
        } | {
            "statuses": con.execute(
                "SELECT file, status, superseded_by FROM staging.ingests ORDER BY file"
            ).fetchall()
        }


def test_each_ingest_asset_can_run_again_alone(issued) -> None:
    study, home, _, _ = issued
    inbox = home.inbox / study.name
    write(filled(home, "a1", "pilot", "answer"), inbox / "a1.csv")
    write(filled(home, "a1", "pilot", "answer"), inbox / "copy_of_a1.csv")
    (inbox / "tiny.csv").write_bytes(b"a,b\n")
    (inbox / "huge_header.csv").write_text('"' + "x" * 200_000 + ",b\n1,2\n")
    (inbox / "late_bytes.jsonl").write_bytes(
        b'{"item": "x", "annotator_id": "a1"}\n' * 3000 + b'{"notes": "\xff\xfe"}\n'
    )
    for asset in (returned_annotations, validated_annotations, labels):
        _run(asset, study, home)
    after = _state(home)
    assert after["statuses"] == [
        ("a1.csv", "accepted", None),
        ("huge_header.csv", "rejected", None),
        ("late_bytes.jsonl", "rejected", None),
        ("tiny.csv", "rejected", None),
    ]
    assert after["raw.returned_files"] == 4 and after["gold.rating_history"] == 0
    for asset in (labels, validated_annotations, returned_annotations, labels):
        _run(asset, study, home)
        assert _state(home) == after
    for name in ("huge_header.csv", "late_bytes.jsonl", "tiny.csv"):
        (folder,) = (home.quarantine / study.name).glob(f"{name.rsplit('.', 1)[0]}__*")
        assert (folder / "report.md").is_file() and (folder / name).is_file()


def test_the_study_context_is_read_once_per_run_not_per_file(issued, monkeypatch) -> None:
    """The sealed key and item records hold the whole study: reading them per file would cost
    files x items."""
    from raterlab.ingest import batches, returns

    study, home, _, _ = issued
    inbox = home.inbox / study.name
    write(filled(home, "a1", "pilot", "answer"), inbox / "a1.csv")
    (inbox / "tiny.csv").write_bytes(b"a,b\n")
    (inbox / "other.csv").write_bytes(b"c,d\n")
    reads = []
    real = batches.study_context
    for module in (batches, returns):
        monkeypatch.setattr(module, "study_context", lambda *a: reads.append(1) or real(*a))
    _run(returned_annotations, study, home)
    _run(validated_annotations, study, home)
    assert len(reads) == 1
    assert _state(home)["raw.returned_files"] == 3
    _run(labels, study, home)  # nothing left to validate: every file was committed
    assert len(reads) == 1
