"""End to end at scale: a gold_tiers-shaped study of N items and 8 annotators through the
asset graph, with the time of each asset. Run by hand, not by CI:

    .venv/bin/python benchmarks/bench_pipeline.py --items 1000 10000 [--plot FILE]

For each N, the bundled ``gold_tiers`` study is copied into a temporary studies folder with
its generations repeated (fresh ids) up to N items and eight annotators (beside
``correctness_ab``, whose packets go out first, untimed: gold_tiers has no pilot round, and
the pilot tables must exist as they do in the demo), and the demo's loop
(:func:`pipelines.demo.run_study`: packets, simulated returns, ingest, agreement with CIs,
rater quality, adjudication, consensus, exports, as many rounds as the study needs) runs on a
fresh ``RATERLAB_HOME``, in a child process (the code location reads its study partitions
from ``RATERLAB_STUDIES`` when imported). Each asset's and check's time is the sum of its
step durations over all runs, read back from the Dagster instance; ``simulation`` is the
rest of the wall time (simulated annotators and adjudicators, outside the graph). Prints a
markdown table for benchmarks/README.md ("## End to end") and a JSON line per N.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from raterlab.settings import PACKAGE_ROOT

ANNOTATORS = [f"ann_{i}" for i in range(1, 9)]
PRIMER = "correctness_ab"


def scaled_study(folder: Path, n_items: int) -> None:
    """``gold_tiers`` with ``n_items`` ordinary items (the bundled ones repeated, ids
    suffixed) and eight annotators; attention and calibration items kept once."""
    source = PACKAGE_ROOT / "studies"
    data = yaml.safe_load((source / "gold_tiers.yaml").read_text())
    data["design"]["annotators"] = ANNOTATORS
    records = [json.loads(line) for line in (source / data["generations"]).read_text().splitlines()]
    items = [r for r in records if r.get("role", "item") == "item"]
    others = [r for r in records if r.get("role", "item") != "item"]
    scaled = []
    for i in range(n_items):
        record = dict(items[i % len(items)])
        copy = i // len(items)
        if copy:
            record["id"] = f"{record['id']}~{copy}"
        scaled.append(record)
    (folder / "gold_tiers").mkdir(parents=True)
    shutil.copy(source / f"{PRIMER}.yaml", folder)
    shutil.copytree(source / PRIMER, folder / PRIMER)
    (folder / "gold_tiers.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (folder / data["generations"]).write_text(
        "".join(json.dumps(r) + "\n" for r in [*scaled, *others])
    )
    if data.get("guide"):
        (folder / data["guide"]).write_text((source / data["guide"]).read_text())


def run_loop() -> dict:
    """In the child: the demo's loop on the one study, then the step times from the instance."""
    import dagster as dg
    from rich.progress import Progress

    from pipelines.definitions import defs
    from pipelines.demo import QUIET, run_study
    from pipelines.instance import instance
    from raterlab.settings import Home

    home = Home.from_env()
    job = defs.resolve_job_def("annotation_job")
    # gold_tiers has no pilot round; the pilot tables it reads must exist (as in the demo,
    # where other studies ran first), so correctness_ab's packets go out first, untimed.
    job.execute_in_process(
        partition_key=PRIMER, instance=instance(home), run_config=QUIET, raise_on_error=False
    )
    primer = {r.run_id for r in instance(home).get_runs()}
    start = time.perf_counter()
    with Progress(disable=True) as progress:
        run_study("gold_tiers", home, job, progress, progress.add_task("bench"))
    wall = time.perf_counter() - start
    steps: dict[str, float] = {}
    runs = [r for r in instance(home).get_runs() if r.run_id not in primer]
    for run in runs:
        records = (
            instance(home)
            .get_records_for_run(run.run_id, of_type=dg.DagsterEventType.STEP_SUCCESS)
            .records
        )
        for record in records:
            event = record.event_log_entry.dagster_event
            steps[event.step_key] = steps.get(event.step_key, 0.0) + (
                event.event_specific_data.duration_ms / 1000
            )
    graph = sum(steps.values())
    return {"wall_s": wall, "runs": len(runs), "steps": steps, "simulation_s": wall - graph}


def measure(n_items: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        studies = Path(tmp) / "studies"
        scaled_study(studies, n_items)
        env = {
            **os.environ,
            "RATERLAB_STUDIES": str(studies),
            "RATERLAB_HOME": str(Path(tmp) / "home"),
        }
        out = subprocess.run(
            [sys.executable, __file__, "--child"],
            env=env,
            cwd=PACKAGE_ROOT,
            capture_output=True,
            text=True,
        )
    if out.returncode:
        raise SystemExit(f"{n_items:,} items: the loop failed\n{out.stderr[-3000:]}")
    return {"items": n_items, **json.loads(out.stdout.strip().splitlines()[-1])}


def table(results: list[dict]) -> str:
    keys = sorted(
        {k for r in results for k in r["steps"]}, key=lambda k: -results[-1]["steps"].get(k, 0)
    )
    head = "| step | " + " | ".join(f"{r['items']:,} items (s)" for r in results) + " |"
    lines = [head, "|---|" + "---|" * len(results)]
    for key in keys:
        lines.append(
            f"| {key} | " + " | ".join(f"{r['steps'].get(key, 0):.2f}" for r in results) + " |"
        )
    lines.append(
        "| simulation (outside the graph) | "
        + " | ".join(f"{r['simulation_s']:.1f}" for r in results)
        + " |"
    )
    lines.append(
        "| **total wall** | " + " | ".join(f"**{r['wall_s']:.1f}**" for r in results) + " |"
    )
    return "\n".join(lines)


def plot(results: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    items = [r["items"] for r in results]
    top = sorted(results[-1]["steps"], key=lambda k: -results[-1]["steps"][k])[:8]
    fig, ax = plt.subplots(figsize=(7, 5))
    for key in top:
        ax.plot(items, [max(r["steps"].get(key, 0), 1e-3) for r in results], marker="o", label=key)
    ax.plot(items, [r["wall_s"] for r in results], marker="s", color="black", label="total wall")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("items")
    ax.set_ylabel("seconds (summed over runs)")
    ax.set_title("gold_tiers-shaped study, 8 annotators: time per asset")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_loop()))
        return
    results = []
    for n in args.items:
        results.append(measure(n))
        print(json.dumps(results[-1]), flush=True)
    print(table(results))
    if args.plot:
        plot(results, args.plot)


if __name__ == "__main__":
    main()
