"""Ingest at scale: a 1,000,000-row returned file of the empathy shape.

1. A valid file: read, validated, unblinded and written to DuckDB (target: under 5 s, peak
   memory under 1.5 GB).
2. A file where every row breaks a rule: rejected with its summary (target: under 10 s),
   next to Pandera's own lazy validation of the same schema on the same rows.

Run by hand: ``.venv/bin/python benchmarks/bench_ingest.py [--rows N] [--skip-pandera]``.
Peak memory is the process's maximum resident set size (``ru_maxrss``), measured in a fresh
child process per scenario.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from raterlab import warehouse
from raterlab.ingest import store, task_schema
from raterlab.ingest.read import read_returned
from raterlab.ingest.run import commit, receive, validate_received
from raterlab.protocol import load_study
from raterlab.settings import PACKAGE_ROOT, Home

STUDY = PACKAGE_ROOT / "studies" / "empathy.yaml"
SCORES = ("emotion", "validation", "helpfulness", "safety", "overall")


def make_files(folder: Path, rows: int) -> tuple[Path, Path, Path]:
    """The sealed key (Parquet) and two returned files: all valid, all broken."""
    rng = np.random.default_rng(0)
    tokens = pd.Series(np.arange(rows)).map(lambda i: f"t{i:011d}")
    key = pd.DataFrame(
        {
            "annotator_id": "ann_gray",
            "round": "main",
            "batch": "main-01",
            "task": "reply",
            "item_id": (np.arange(rows) % 120).astype(str),
            "tier": "GOLD",
            "kind": "item",
            "copy": 0,
            "spot_check": False,
            "position": np.arange(1, rows + 1),
            "token": tokens,
        }
    )
    key["item_id"] = "e" + key["item_id"].str.zfill(3)
    key_path = folder / "key.parquet"
    key.to_parquet(key_path)
    scores = {s: rng.integers(2, 5, size=rows).astype(str) for s in SCORES}
    item_column = load_study(STUDY).packet.item_column
    valid = pd.DataFrame({"annotator_id": "ann_gray", item_column: tokens, **scores})
    valid["notes"] = ""
    valid["time_spent_s"] = rng.integers(30, 300, size=rows).astype(str)
    valid_path = folder / "valid.csv"
    valid.to_csv(valid_path, index=False)
    broken = valid.copy()
    broken["emotion"] = "7"
    broken_path = folder / "broken.csv"
    broken.to_csv(broken_path, index=False)
    return key_path, valid_path, broken_path


def _seed_warehouse(home: Home, key_path: Path) -> None:
    study = load_study(STUDY)
    with warehouse.connect(home.warehouse) as con:
        store.ensure_tables(con)
        con.execute(
            "CREATE TABLE staging.blinding_key AS "
            "SELECT 'empathy' AS study, * FROM read_parquet(?)",
            [str(key_path)],
        )
        items = pd.DataFrame(
            {"item_id": [f"e{i:03d}" for i in range(120)], "task": "reply", "role": "item"}
        )
        items["record"] = json.dumps(
            {
                "statement": "s",
                "reply": "That sounds hard; tell me more.",
                "reply_language": "en",
                "emotion_category": "grief",
                "model": "m",
                "condition": "A",
            }
        )
        items["expected"] = None
        warehouse.replace_study_rows(con, "raw.generations", study.name, items)


def _ingest(home_dir: str, key_path: str, file: str, out) -> None:
    home = Home(Path(home_dir))
    _seed_warehouse(home, Path(key_path))
    study = load_study(STUDY)
    steps = {}
    start = time.perf_counter()
    with warehouse.connect(home.warehouse) as con:
        received = receive(study, Path(file), home)
        steps["archive"] = time.perf_counter() - start
        validation = validate_received(study, received, con)
        steps["validate"] = time.perf_counter() - start - steps["archive"]
        result = commit(study, received, validation, home, con)
    seconds = time.perf_counter() - start
    steps["write"] = seconds - steps["archive"] - steps["validate"]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.put(
        {
            "status": result.status,
            "labels": result.n_labels,
            "errors": result.n_errors,
            "seconds": round(seconds, 2),
            "steps": {k: round(v, 2) for k, v in steps.items()},
            "peak_mb": round(peak_mb),
        }
    )


def _pandera(file: str, rows: int, out) -> None:
    study = load_study(STUDY)
    frame = read_returned(Path(file)).drop(columns="_row").head(rows)
    start = time.perf_counter()
    try:
        task_schema(study, "reply").validate(frame, lazy=True)
        n = 0
    except Exception as exc:  # pandera.errors.SchemaErrors
        n = len(exc.failure_cases)
    out.put({"seconds": round(time.perf_counter() - start, 2), "failure_cases": n, "rows": rows})


def run_child(target, *args) -> dict:
    queue = mp.get_context("spawn").Queue()
    process = mp.get_context("spawn").Process(target=target, args=(*args, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--pandera-rows", type=int, default=100_000)
    parser.add_argument("--skip-pandera", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        key, valid, broken = make_files(folder, args.rows)
        print(f"files: {args.rows:,} rows, valid {valid.stat().st_size / 1e6:.0f} MB")
        good = run_child(_ingest, str(folder / "home-valid"), str(key), str(valid))
        print("valid file ->", good)
        bad = run_child(_ingest, str(folder / "home-broken"), str(key), str(broken))
        print("broken file ->", bad)
        report = json.loads(
            next((folder / "home-broken" / "quarantine").rglob("report.json")).read_text()
        )
        print("summary:", report["summary"])
        if not args.skip_pandera:
            lazy = run_child(_pandera, str(broken), args.pandera_rows)
            per_million = lazy["seconds"] * 1_000_000 / lazy["rows"]
            print(
                f"pandera lazy on {lazy['rows']:,} broken rows -> {lazy}, "
                f"~{per_million:.0f} s per million"
            )


if __name__ == "__main__":
    main()
