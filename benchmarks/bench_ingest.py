"""Ingest at scale: a 1,000,000-row returned file of the empathy shape.

1. A valid file: read, validated (the study's Pandera schema), unblinded and written to
   DuckDB (target: under 2.5 s, within 25x of DuckDB's own ``read_csv`` of the same file,
   peak memory under 1 GB).
2. A file where every row breaks a rule: rejected, its issues summarised and its report
   written (target: under 5 s).
3. DuckDB's ``read_csv`` of the valid file into a table of text columns, the yardstick.

The files' rows are in the sealed key's order, as a packet returned in the order it was
issued is; ``--shuffled`` shuffles them (their tokens are then found by a hash join, not as
a run of the key: see :mod:`raterlab.ingest.key`).

Run by hand: ``.venv/bin/python benchmarks/bench_ingest.py [--rows N] [--repeat K] [--json]
[--shuffled]``.
Each scenario runs ``K`` times, each time in a fresh child process; the figures are the best
run (``*_runs`` lists them all). Peak memory is the child's peak resident memory
(:func:`_peak_mb`); the files are written by a child too. The process's first Pandera
validation, which imports more modules, is done and timed before the clock starts
(``warmup_s``, see :func:`_warm_up`). ``--json`` prints one JSON object and nothing else.
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
import pandera.polars as pandera
import polars as pl

from raterlab import warehouse
from raterlab.ingest import store
from raterlab.ingest.one_file import commit
from raterlab.ingest.receive import receive
from raterlab.ingest.returns import validate_received
from raterlab.protocol import load_study
from raterlab.settings import PACKAGE_ROOT, Home

STUDY = PACKAGE_ROOT / "studies" / "empathy.yaml"
SCORES = ("emotion", "validation", "helpfulness", "safety", "overall")


def write_key(path: Path, tokens, annotators) -> Path:
    """A sealed key of the empathy study's reply task (Parquet): one row per token, items
    e000 to e119 in turn, no pair's sides swapped (not a pairwise task)."""
    rows = len(tokens)
    pd.DataFrame(
        {
            "annotator_id": annotators,
            "round": "main",
            "batch": "main-01",
            "task": "reply",
            "item_id": [f"e{i % 120:03d}" for i in range(rows)],
            "tier": "GOLD",
            "kind": "item",
            "copy": 0,
            "spot_check": False,
            "position": np.arange(1, rows + 1),
            "token": tokens,
            "swapped": False,
        }
    ).to_parquet(path)
    return path


def make_files(folder: Path, rows: int, shuffled: bool = False) -> tuple[Path, Path, Path]:
    """The sealed key (Parquet) and two returned files: all valid, all broken. The files'
    rows are in the key's order, as a packet returned in the order it was issued is, or
    ``shuffled`` (as after sorting the sheet by another column)."""
    rng = np.random.default_rng(0)
    tokens = pd.Series(np.arange(rows)).map(lambda i: f"t{i:011d}")
    key_path = write_key(folder / "key.parquet", tokens, "ann_gray")
    scores = {s: rng.integers(2, 5, size=rows).astype(str) for s in SCORES}
    item_column = load_study(STUDY).packet.item_column
    valid = pd.DataFrame({"annotator_id": "ann_gray", item_column: tokens, **scores})
    valid["notes"] = ""
    valid["time_spent_s"] = rng.integers(30, 300, size=rows).astype(str)
    if shuffled:
        valid = valid.sample(frac=1.0, random_state=0)
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


def _peak_mb() -> float:
    """The process's peak resident memory: its address space's high-water mark (``VmHWM``),
    or, where there is no ``/proc``, ``ru_maxrss``. Not ``ru_maxrss`` on Linux: it keeps,
    across the ``exec`` of a spawned child, the resident memory of the parent at the spawn
    (before 2026-11-26 22:00 UTC this benchmark's parent held the million-row files it had
    written, and every child's peak was at least that: about 840 MB)."""
    status = Path("/proc/self/status")
    if status.exists():
        line = next(x for x in status.read_text().splitlines() if x.startswith("VmHWM:"))
        return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _make_files(folder: str, rows: int, shuffled: bool, out) -> None:
    """:func:`make_files` in a child process, so that the parent stays small."""
    key, valid, broken = make_files(Path(folder), rows, shuffled)
    out.put((str(key), str(valid), str(broken)))


def _warm_up() -> float:
    """Seconds of the process's first Pandera validation, done before the clock starts: it
    imports Pandera's Polars backends and, through them, ``pandera.strategies``, which imports
    hypothesis when it is installed (a dev dependency: about 0.3-0.5 s). A one-off cost of
    the process, like the imports of this module, so it is reported apart (``warmup_s``)."""
    start = time.perf_counter()
    pandera.DataFrameSchema({"x": pandera.Column(pl.String)}).validate(pl.DataFrame({"x": ["1"]}))
    return time.perf_counter() - start


def _ingest(home_dir: str, key_path: str, file: str, out) -> None:
    home = Home(Path(home_dir))
    _seed_warehouse(home, Path(key_path))
    study = load_study(STUDY)
    steps = {}
    warmup = _warm_up()
    start = time.perf_counter()
    with warehouse.connect(home.warehouse) as con:
        con.execute("SET enable_progress_bar = false")  # stdout is the parent's JSON
        received = receive(study, Path(file), home)
        steps["archive"] = time.perf_counter() - start
        validation = validate_received(study, received, con)
        steps["validate"] = time.perf_counter() - start - steps["archive"]
        result = commit(study, received, validation, home, con)
    seconds = time.perf_counter() - start
    steps["write"] = seconds - steps["archive"] - steps["validate"]
    peak_mb = _peak_mb()
    out.put(
        {
            "status": result.status,
            "labels": result.n_labels,
            "errors": result.n_errors,
            "seconds": round(seconds, 3),
            "steps": {k: round(v, 3) for k, v in steps.items()},
            "warmup_s": round(warmup, 3),
            "peak_mb": round(peak_mb),
        }
    )


def _duckdb_read_csv(file: str, out) -> None:
    import duckdb

    con = duckdb.connect()
    start = time.perf_counter()
    con.execute("CREATE TABLE t AS SELECT * FROM read_csv(?, all_varchar = true)", [file])
    rows = con.execute("SELECT count(*) FROM t").fetchall()[0][0]
    out.put({"seconds": round(time.perf_counter() - start, 3), "rows": rows})


def run_child(target, *args) -> dict:
    queue = mp.get_context("spawn").Queue()
    process = mp.get_context("spawn").Process(target=target, args=(*args, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def _best(runs: list[dict]) -> dict:
    return min(runs, key=lambda r: r["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    parser.add_argument(
        "--shuffled", action="store_true", help="the files' rows not in the packet's order"
    )
    args = parser.parse_args()
    say = (lambda *_: None) if args.json else print
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        key, valid, broken = map(
            Path, run_child(_make_files, str(folder), args.rows, args.shuffled)
        )
        say(f"files: {args.rows:,} rows, valid {valid.stat().st_size / 1e6:.0f} MB")
        duck, good, bad = [], [], []
        for run in range(args.repeat):
            duck.append(run_child(_duckdb_read_csv, str(valid)))
            good.append(run_child(_ingest, str(folder / f"valid-{run}"), str(key), str(valid)))
            bad.append(run_child(_ingest, str(folder / f"broken-{run}"), str(key), str(broken)))
            say(f"run {run + 1}: duckdb {duck[-1]}, valid {good[-1]}, broken {bad[-1]}")
        report = json.loads(
            next((folder / "broken-0" / "quarantine").rglob("report.json")).read_text()
        )
        say("summary of the broken file:", report["summary"])
    best_good, best_bad, best_duck = _best(good), _best(bad), _best(duck)
    figures = {
        "rows": args.rows,
        "total_s": best_good["seconds"],
        "peak_mb": best_good["peak_mb"],
        "steps_s": best_good["steps"],
        "warmup_s": best_good["warmup_s"],
        "status": best_good["status"],
        "labels": best_good["labels"],
        "duckdb_read_csv_s": best_duck["seconds"],
        "ratio_to_duckdb": round(best_good["seconds"] / best_duck["seconds"], 1),
        "broken_total_s": best_bad["seconds"],
        "broken_peak_mb": best_bad["peak_mb"],
        "broken_steps_s": best_bad["steps"],
        "broken_status": best_bad["status"],
        "broken_errors": best_bad["errors"],
        "shuffled": args.shuffled,
        "total_s_runs": [r["seconds"] for r in good],
        "peak_mb_runs": [r["peak_mb"] for r in good],
        "broken_peak_mb_runs": [r["peak_mb"] for r in bad],
        "broken_total_s_runs": [r["seconds"] for r in bad],
        "duckdb_read_csv_s_runs": [r["seconds"] for r in duck],
    }
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
