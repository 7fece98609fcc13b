"""The Dagster instance config raterlab ships (``pipelines/dagster.yaml``), written into
``$DAGSTER_HOME`` by ``make ui`` and ``make demo``.

The config queues runs that write the warehouse, one at a time (see the file). An existing
``dagster.yaml`` is replaced only while it still starts with the template's first line, so a
team's own instance config (Postgres storage, another run launcher) is never overwritten.
"""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg

from raterlab.settings import Home

TEMPLATE = Path(__file__).with_name("dagster.yaml")


def write_config(dagster_home: Path) -> Path:
    """Write the template to ``dagster_home/dagster.yaml`` unless a user's own config is there."""
    dagster_home.mkdir(parents=True, exist_ok=True)
    target = dagster_home / "dagster.yaml"
    template = TEMPLATE.read_text(encoding="utf-8")
    marker = template.splitlines()[0]
    if not target.exists() or target.read_text(encoding="utf-8").startswith(marker):
        target.write_text(template, encoding="utf-8")
    return target


def instance(home: Home) -> dg.DagsterInstance:
    """The persistent Dagster instance in ``$RATERLAB_HOME/dagster``, with the shipped config."""
    write_config(home.dagster)
    os.environ["DAGSTER_HOME"] = str(home.dagster)
    return dg.DagsterInstance.get()


if __name__ == "__main__":
    print(write_config(Path(os.environ.get("DAGSTER_HOME") or Home.from_env().dagster)))
