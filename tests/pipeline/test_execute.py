"""``make run JOB=... STUDY=...`` (``python -m pipelines.execute``): README's "Your own study"
step 3 on a fresh home, where neither ``$RATERLAB_HOME`` nor ``$DAGSTER_HOME`` exists yet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import MINI_STUDY, REPO, mini_records, write_study


def _execute(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "RATERLAB_STUDIES": str(tmp_path / "my_studies"),
        "RATERLAB_HOME": str(tmp_path / "fresh" / "home"),
    }
    env.pop("DAGSTER_HOME", None)
    return subprocess.run(
        [sys.executable, "-m", "pipelines.execute", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )


def test_packets_job_on_a_fresh_home_writes_the_packets(tmp_path: Path) -> None:
    write_study(tmp_path / "my_studies", MINI_STUDY, mini_records())
    out = _execute(tmp_path, "packets_job", "mini")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "packets_job for mini: run" in out.stderr and "succeeded" in out.stderr
    home = tmp_path / "fresh" / "home"
    assert (home / "dagster" / "dagster.yaml").is_file()
    assert any((home / "outbox" / "mini").rglob("*_annotations.csv"))


def test_unknown_job_or_study_is_one_line_and_status_2(tmp_path: Path) -> None:
    write_study(tmp_path / "my_studies", MINI_STUDY, mini_records())
    job = _execute(tmp_path, "packet_job", "mini")
    assert job.returncode == 2 and "no job 'packet_job'; choose from" in job.stderr
    study = _execute(tmp_path, "packets_job", "other")
    assert (
        study.returncode == 2
        and "no study 'other' in RATERLAB_STUDIES; found: mini" in study.stderr
    )
