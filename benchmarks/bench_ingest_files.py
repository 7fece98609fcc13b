"""Ingest of many small returns: N files of 200 rows (one packet each, the empathy shape)
against a sealed key of N x 200 tokens, the way a study's returns arrive. What this measures is
the cost per file (reading, validating, committing), which the
million-row benchmark (``bench_ingest.py``) does not see.

Run by hand: ``.venv/bin/python benchmarks/bench_ingest_files.py [--files N] [--json]``.
Prints the seconds and milliseconds per file of each step: archiving into ``staging.inbox``,
validating the pending files (:func:`raterlab.ingest.batches.validate_pending`, as the
``validated_annotations`` and ``labels`` assets do) and committing them
(:func:`raterlab.ingest.batches.commit_all`, as ``labels`` does); and, as the yardstick
timed in the same run, DuckDB's ``read_csv`` of the same files into one in-memory table of text
columns (no checks, nothing unblinded), with raterlab's validate + commit as a ratio to it.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
from bench_ingest import SCORES, STUDY, _seed_warehouse, write_key

from raterlab import warehouse
from raterlab.ingest import batches, inbox
from raterlab.protocol import load_study
from raterlab.settings import Home

ROWS_PER_FILE = 200


def make_returns(folder: Path, files: int) -> tuple[Path, list[Path]]:
    """The sealed key (Parquet) and one valid returned file per packet."""
    rng = np.random.default_rng(0)
    rows = files * ROWS_PER_FILE
    tokens = np.array([f"t{i:011d}" for i in range(rows)])
    annotators = np.array([f"ann_{i // ROWS_PER_FILE:05d}" for i in range(rows)])
    key_path = write_key(folder / "key.parquet", tokens, annotators)
    inbox = folder / "inbox"
    inbox.mkdir()
    item_column = load_study(STUDY).packet.item_column
    paths = []
    for n in range(files):
        part = slice(n * ROWS_PER_FILE, (n + 1) * ROWS_PER_FILE)
        scores = {s: rng.integers(2, 5, size=ROWS_PER_FILE).astype(str) for s in SCORES}
        frame = pd.DataFrame(
            {"annotator_id": annotators[part], item_column: tokens[part], **scores}
        )
        frame["notes"] = ""
        frame["time_spent_s"] = "60"
        paths.append(inbox / f"return_{n:05d}.csv")
        frame.to_csv(paths[-1], index=False)
    return key_path, paths


def duckdb_read(paths: list[Path]) -> float:
    """Seconds for DuckDB to read every file into one table of text columns."""
    con = duckdb.connect()
    start = time.perf_counter()
    con.execute("CREATE TABLE t AS SELECT * FROM read_csv(?, all_varchar = true)", [str(paths[0])])
    for path in paths[1:]:
        con.execute("INSERT INTO t SELECT * FROM read_csv(?, all_varchar = true)", [str(path)])
    return time.perf_counter() - start


def measure(folder: Path, files: int) -> dict:
    key_path, paths = make_returns(folder, files)
    home = Home(folder / "home")
    _seed_warehouse(home, key_path)
    study = load_study(STUDY)
    seconds = {}
    with warehouse.connect(home.warehouse) as con:
        start = time.perf_counter()
        inbox.record_inbox(study, paths, home, con)
        seconds["archive"] = time.perf_counter() - start
        start = time.perf_counter()
        validated = list(batches.validate_pending(study, con))
        seconds["validate"] = time.perf_counter() - start
        start = time.perf_counter()
        results = batches.commit_all(study, validated, home, con)
        seconds["commit"] = time.perf_counter() - start
    seconds["duckdb_read_csv"] = duckdb_read(paths)
    return {
        "ratio_to_duckdb": round(
            (seconds["validate"] + seconds["commit"]) / seconds["duckdb_read_csv"], 1
        ),
        "files": files,
        "rows": files * ROWS_PER_FILE,
        "accepted": sum(r.status == "accepted" for r in results),
        "seconds": {k: round(v, 2) for k, v in seconds.items()},
        "ms_per_file": {k: round(v / files * 1000, 1) for k, v in seconds.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures = measure(Path(tmp), args.files)
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
