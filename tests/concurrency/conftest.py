"""A study home with packets out and simulated returns waiting in the inbox (nothing ingested
yet), and another process holding a DuckDB file's lock.

Dagster runs here use ``correctness_ab``: the code location's study partitions are read from
the bundled studies when it is imported, so a temporary study could not be run in-process.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from raterlab import warehouse
from raterlab.design import assign, read_generations, routed_items, seal, write_packets
from raterlab.protocol import Study, load_study
from raterlab.settings import Home
from raterlab.simulate import simulate
from tests.conftest import STUDIES

SECRET = b"concurrency-tests-secret-32byte!"
STUDY = "correctness_ab"


def prepare(home: Home, study: Study) -> None:
    """Design, sealed key and pilot packets of ``study``, and simulated returns in the inbox."""
    generations = read_generations(study)
    routed = routed_items(study, generations)
    key = seal(study, assign(study, routed, generations), SECRET)
    write_packets(study, key[key["round"] == "pilot"], generations, home.outbox)
    home.blinding_secret.parent.mkdir(parents=True, exist_ok=True)
    home.blinding_secret.write_bytes(SECRET)
    with warehouse.connect(home.warehouse) as con:
        warehouse.replace_study_tables(
            con,
            study.name,
            {
                "staging.blinding_key": key,
                "staging.routed_items": routed,
                "raw.generations": generations.assign(source_file=study.generations),
            },
        )
    simulate(study, home, round="pilot")


@pytest.fixture(scope="session")
def _prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("concurrency") / "home"
    prepare(Home(root), load_study(STUDIES / f"{STUDY}.yaml"))
    return root


@pytest.fixture
def home(_prepared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    """A fresh copy of the prepared ``correctness_ab`` home, set as ``RATERLAB_HOME``."""
    root = tmp_path / "home"
    shutil.copytree(_prepared, root)
    monkeypatch.setenv("RATERLAB_HOME", str(root))
    monkeypatch.delenv("RATERLAB_STUDIES", raising=False)
    return Home(root)


HOLDER = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == "ro")
print("locked", flush=True)
time.sleep(float(sys.argv[3]))
"""


@contextmanager
def held_lock(path: Path, seconds: float = 60.0, read_only: bool = True) -> Iterator[int]:
    """Another process holds ``path`` open (read-only by default, like a researcher's session)
    for ``seconds`` or until the block ends; yields its PID."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), "ro" if read_only else "rw", str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        yield holder.pid
    finally:
        holder.kill()
        holder.wait()


SESSION = """
import json, sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print("open", flush=True)
for line in sys.stdin:
    print(json.dumps(con.execute(line).fetchall(), default=str), flush=True)
"""


class Session:
    """A researcher's DuckDB session in another process: one read-only connection kept open,
    answering one query per call."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", SESSION, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout.readline().strip() == "open"

    def query(self, sql: str) -> list[list]:
        self.process.stdin.write(" ".join(sql.split()) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, "the session died"
        return json.loads(answer)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)
