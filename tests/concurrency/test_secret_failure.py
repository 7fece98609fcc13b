"""A lost or changed blinding secret stops every command with one clear line and its own exit
code, and a Dagster run with a clear failure message, never a traceback."""

from __future__ import annotations

import dagster as dg

from raterlab.cli import EXIT_CODES, main
from raterlab.errors import SecretMismatch
from tests.concurrency.conftest import STUDY


def test_a_lost_secret_is_one_line_and_its_own_exit_code(home, capsys) -> None:
    home.blinding_secret.unlink()
    code = main(["adjudicate", "issue", STUDY])
    assert code == EXIT_CODES[SecretMismatch] not in (0, 1, 2)
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("raterlab adjudicate: the blinding secret ") and "is missing" in err
    assert not home.blinding_secret.exists()


def test_a_changed_secret_fails_a_dagster_run_with_a_clear_message(home) -> None:
    from assets.consensus import adjudication_queue
    from pipelines.demo import QUIET
    from resources import Raterlab

    home.blinding_secret.write_bytes(b"x" * 32)
    result = dg.materialize(
        [adjudication_queue],
        partition_key=STUDY,
        resources={"raterlab": Raterlab()},
        instance=dg.DagsterInstance.ephemeral(),
        run_config=QUIET,
        raise_on_error=False,
    )
    assert not result.success
    (failure,) = [e for e in result.all_events if e.is_step_failure]
    data = failure.step_failure_data
    assert data.user_failure_data is not None
    assert data.user_failure_data.description.startswith("the blinding secret ")
    assert "is not the one the packets of correctness_ab were sealed with" in (
        data.user_failure_data.description
    )
