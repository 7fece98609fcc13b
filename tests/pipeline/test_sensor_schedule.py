"""The inbox sensor starts one ingest run per study whose inbox changed; the nightly
schedule refreshes agreement for every study."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import dagster as dg

from pipelines.schedules import nightly_agreement
from pipelines.sensors import inbox_sensor


def _requests(context) -> list[dg.RunRequest]:
    return list(inbox_sensor(context).run_requests)


def test_inbox_sensor(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RATERLAB_HOME", str(tmp_path))
    context = dg.build_sensor_context()
    assert _requests(context) == []
    inbox = tmp_path / "inbox" / "empathy"
    inbox.mkdir(parents=True)
    (inbox / "ann_gray__pilot__ann_gray_annotations.csv").write_text("annotator_id,item\n")
    (inbox / ".~lock.file#").write_text("")  # an editor's lock file is not a return
    first = _requests(context)
    assert [(r.partition_key, r.job_name) for r in first] == [("empathy", None)]
    assert _requests(context)[0].run_key == first[0].run_key  # unchanged inbox, same key
    (inbox / "ann_hale__pilot__ann_hale_annotations.csv").write_text("annotator_id,item\n")
    assert _requests(context)[0].run_key != first[0].run_key


def test_nightly_schedule_requests_every_study() -> None:
    context = dg.build_schedule_context(
        scheduled_execution_time=dt.datetime(2026, 11, 22, 2, 0, tzinfo=dt.UTC)
    )
    requests = nightly_agreement(context)
    keys = sorted(r.partition_key for r in requests)
    assert keys == ["correctness_ab", "empathy", "gold_tiers", "plugin_triggers", "rag_triplet"]
    assert {r.run_key for r in requests} == {f"{k}:2026-11-22" for k in keys}
