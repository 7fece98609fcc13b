"""The layer contracts of ``pyproject.toml`` (docs/architecture.md) hold for the code as it is:
no lower layer imports a higher one, no import cycle between raterlab's packages, and nothing
in raterlab imports Dagster."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_layer_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
