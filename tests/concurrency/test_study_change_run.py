"""A pipeline run on a study file that dropped a field the stored ratings have fails with a
clear message, before anything is written; with ``renamed`` it goes on and renames them."""

from __future__ import annotations

import shutil

import dagster as dg

from raterlab import warehouse
from raterlab.ingest import ingest_file
from raterlab.protocol import load_study
from tests.concurrency.conftest import STUDY
from tests.conftest import STUDIES


def _run(folder) -> dg.ExecuteInProcessResult:
    from assets.design import study_protocol
    from pipelines.demo import QUIET
    from resources import Raterlab

    return dg.materialize(
        [study_protocol],
        partition_key=STUDY,
        resources={"raterlab": Raterlab(studies=str(folder))},
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
        raise_on_error=False,
    )


def _edited(folder, renamed: bool) -> None:
    """``correctness_ab`` with its field ``correctness`` named ``verdict``."""
    shutil.copytree(STUDIES / STUDY, folder / STUDY)
    text = (STUDIES / f"{STUDY}.yaml").read_text(encoding="utf-8")
    text = text.replace("    fields:\n      correctness:\n", "    fields:\n      verdict:\n", 1)
    if renamed:
        text = text.replace(
            "    fields:\n", "    renamed: {correctness: verdict}\n    fields:\n", 1
        )
    (folder / f"{STUDY}.yaml").write_text(text, encoding="utf-8")
    generations = folder / STUDY / "generations.jsonl"
    lines = generations.read_text(encoding="utf-8").replace('{"correctness":', '{"verdict":')
    generations.write_text(lines, encoding="utf-8")


def test_a_dropped_field_fails_the_run_and_a_renamed_one_follows(home, tmp_path) -> None:
    study = load_study(STUDIES / f"{STUDY}.yaml")
    with warehouse.connect(home.warehouse) as con:
        for path in sorted((home.inbox / STUDY).iterdir()):
            ingest_file(study, path, home, con)
    _edited(tmp_path / "dropped", renamed=False)
    result = _run(tmp_path / "dropped")
    assert not result.success
    (failure,) = [e for e in result.all_events if e.is_step_failure]
    description = failure.step_failure_data.user_failure_data.description
    assert "correctness.correctness (" in description and "renamed" in description

    _edited(tmp_path / "renamed", renamed=True)
    assert _run(tmp_path / "renamed").success
    with warehouse.connect(home.warehouse, read_only=True) as con:
        fields = {f for (f,) in con.execute("SELECT DISTINCT field FROM gold.labels").fetchall()}
    assert "verdict" in fields and "correctness" not in fields
