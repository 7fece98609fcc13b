"""End to end at scale: a gold_tiers-shaped study of N items and 8 annotators through the
asset graph, with the time of each asset and check. Run by hand, not by CI:

    .venv/bin/python benchmarks/bench_pipeline.py --items 1000 10000 100000 \
        --plot benchmarks/pipeline_scaling.png [--json] [--profile DIR] [--keep DIR]

For each N, the bundled ``gold_tiers`` study is copied into a temporary studies folder with
its generations repeated (fresh ids) up to N items and eight annotators (beside
``correctness_ab``, whose packets go out first, untimed: gold_tiers has no pilot round, and
the pilot tables must exist as they do in the demo), and the demo's loop
(:func:`pipelines.demo.run_study`: packets, simulated returns, ingest, agreement with CIs,
rater quality, adjudication, consensus, exports, as many rounds as the study needs) runs on a
fresh ``RATERLAB_HOME``, in a child process (the code location reads its study partitions
from ``RATERLAB_STUDIES`` when imported). Each asset's and check's time is the sum of its
step durations over all runs, read back from the Dagster instance (each run's own are kept
in ``per_run``); ``simulation`` is the time in the simulated annotators and adjudicators
(outside the graph), ``run overhead`` the rest of the wall time (Dagster starting and ending
runs). After the loop, two more runs with nothing new (what the nightly schedule or a
sensor's run does most days) are timed apart (``idle_run_s``, the first, and
``settled_run_s``, the second, not in the total): the first still computes again a step
whose neighbour in the graph wrote after it in the loop's last run
(``StudyStep.warehouse_unchanged``), the second is a night after a night. Progress goes to
stderr, one line per run; stdout gets the machine and a markdown table for
benchmarks/README.md ("## End to end"), or with ``--json`` one JSON object. Peak memory is
the child's maximum resident set; each step's own peak (``step_peak_mb``, the most over the
runs) is the child's resident set at its highest during that step: the kernel's high-water
mark (``VmHWM``) is reset as the step starts (``/proc/self/clear_refs``, Linux only) and
read as it ends, so it includes what the process held when the step began
(``step_start_mb``, at the run where the peak was). The load average is sampled every 10 s
(the machine may be shared).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
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


def step_times(run_id: str) -> dict[str, float]:
    """Seconds per step (asset or check) of one run, from the Dagster instance."""
    import dagster as dg

    from pipelines.instance import instance
    from raterlab.settings import Home

    records = (
        instance(Home.from_env())
        .get_records_for_run(run_id, of_type=dg.DagsterEventType.STEP_SUCCESS, limit=10_000)
        .records
    )
    events = [r.event_log_entry.dagster_event for r in records]
    return {e.step_key: e.event_specific_data.duration_ms / 1000 for e in events}


class TimedJob:
    """The job ``run_study`` is given: each run's steps are added to ``steps`` and printed to
    stderr as the run ends (progress), and a failed step fails the benchmark."""

    def __init__(self, job, steps: dict[str, float]) -> None:
        self.job, self.steps, self.runs = job, steps, 0
        self.per_run: list[dict] = []

    def execute_in_process(self, **kwargs):
        start = time.perf_counter()
        result = self.job.execute_in_process(**kwargs)
        self.runs += 1
        times = step_times(result.run_id)
        for key, seconds in times.items():
            self.steps[key] = self.steps.get(key, 0.0) + seconds
        wall = time.perf_counter() - start
        self.per_run.append({"wall_s": wall, "steps": times})
        slowest = sorted(times.items(), key=lambda kv: -kv[1])[:6]
        print(
            f"  run {self.runs}: {wall:.1f} s, " + ", ".join(f"{k} {v:.1f}" for k, v in slowest),
            file=sys.stderr,
            flush=True,
        )
        return result


class StepMemory:
    """Each step's peak resident set: the kernel's high-water mark reset at the step's
    ``STEP_START`` event and read at its ``STEP_SUCCESS`` or ``STEP_FAILURE`` (the in-process
    executor runs one step at a time, in this thread, and handles its events as they come)."""

    STATUS = Path("/proc/self/status")

    def __init__(self) -> None:
        self.peak: dict[str, float] = {}
        self.start: dict[str, float] = {}
        self._began: dict[str, float] = {}
        self.overall = 0.0
        """The highest mark seen over the whole process: resetting the mark also resets
        the one ``getrusage`` reports."""

    @classmethod
    def available(cls) -> bool:
        return cls.STATUS.exists() and os.access("/proc/self/clear_refs", os.W_OK)

    def _status_mb(self, field: str) -> float:
        for line in self.STATUS.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
        raise KeyError(field)

    def highest(self) -> float:
        """The most the process has held, this call included."""
        self.overall = max(self.overall, self._status_mb("VmHWM"))
        return self.overall

    def began(self, step: str) -> None:
        self.highest()
        Path("/proc/self/clear_refs").write_text("5")
        self._began[step] = self._status_mb("VmRSS")

    def ended(self, step: str) -> None:
        peak = self._status_mb("VmHWM")
        if peak > self.peak.get(step, 0.0):
            self.peak[step] = round(peak, 1)
            self.start[step] = round(self._began.get(step, 0.0), 1)

    def install(self) -> None:
        """Wrap ``DagsterInstance.handle_new_event`` in this process."""
        import dagster as dg

        handle = dg.DagsterInstance.handle_new_event
        ends = {dg.DagsterEventType.STEP_SUCCESS, dg.DagsterEventType.STEP_FAILURE}
        memory = self

        def handle_new_event(instance, event, **kwargs):
            found = event.dagster_event
            if found is not None and found.step_key:
                if found.event_type == dg.DagsterEventType.STEP_START:
                    memory.began(found.step_key)
                elif found.event_type in ends:
                    memory.ended(found.step_key)
            return handle(instance, event, **kwargs)

        dg.DagsterInstance.handle_new_event = handle_new_event


def timed_call(function, total: list[float]):
    """``function``, adding the seconds each call takes to ``total[0]``."""

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            total[0] += time.perf_counter() - start

    return timed


def run_loop() -> dict:
    """In the child: the demo's loop on the one study, then the step times and peak memory."""
    from rich.progress import Progress

    from pipelines import demo
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
    memory = StepMemory()
    if memory.available():
        memory.install()
    steps: dict[str, float] = {}
    timed = TimedJob(job, steps)
    simulation = [0.0]
    for name in ("simulate", "simulate_adjudication", "as_spreadsheets"):
        setattr(demo, name, timed_call(getattr(demo, name), simulation))
    failed: list[str] = []
    start = time.perf_counter()
    with Progress(disable=True) as progress:
        run_study("gold_tiers", home, timed, progress, progress.add_task("bench"), failed)
    wall = time.perf_counter() - start
    if failed:
        raise SystemExit("\n".join(failed))
    idle_s = []
    for _ in range(2):
        idle_start = time.perf_counter()
        idle = job.execute_in_process(
            partition_key="gold_tiers", instance=instance(home), run_config=QUIET
        )
        idle_s.append(time.perf_counter() - idle_start if idle.success else None)
    print(
        "  runs with nothing new: " + ", ".join(f"{s:.1f} s" for s in idle_s if s is not None),
        file=sys.stderr,
        flush=True,
    )
    return {
        "wall_s": wall,
        "idle_run_s": idle_s[0],
        "settled_run_s": idle_s[1],
        "runs": timed.runs,
        "steps": steps,
        "per_run": timed.per_run,
        "simulation_s": simulation[0],
        "overhead_s": wall - sum(steps.values()) - simulation[0],
        "peak_mb": max(
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            memory.highest() if memory.available() else 0.0,
        ),
        "step_peak_mb": memory.peak,
        "step_start_mb": memory.start,
    }


class LoadSampler(threading.Thread):
    """The 1-minute load average, sampled every 10 s while a run goes on (the machine may be
    shared: the figures are only comparable with the load beside them)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples: list[float] = [os.getloadavg()[0]]
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(10):
            self.samples.append(os.getloadavg()[0])

    def summary(self) -> dict[str, float]:
        self.done.set()
        return {
            "load_mean": round(sum(self.samples) / len(self.samples), 2),
            "load_max": max(self.samples),
        }


def measure(n_items: int, profile: Path | None = None, keep: Path | None = None) -> dict:
    load = LoadSampler()
    load.start()
    with tempfile.TemporaryDirectory() as scratch:
        tmp = scratch if keep is None else keep / f"items-{n_items}"
        studies = Path(tmp) / "studies"
        scaled_study(studies, n_items)
        env = {
            **os.environ,
            "RATERLAB_STUDIES": str(studies),
            "RATERLAB_HOME": str(Path(tmp) / "home"),
        }
        print(f"{n_items:,} items:", file=sys.stderr, flush=True)
        out = subprocess.run(
            [sys.executable, __file__, "--child"]
            + (["--profile", str(profile / f"items-{n_items}.prof")] if profile else []),
            env=env,
            cwd=PACKAGE_ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
    if out.returncode:
        raise SystemExit(f"{n_items:,} items: the loop failed (its output is above)")
    return {"items": n_items, **json.loads(out.stdout.strip().splitlines()[-1]), **load.summary()}


def machine() -> dict:
    """CPU model and count, so a figure is read with the machine it came from."""
    model = (
        next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            platform.processor(),
        )
        if Path("/proc/cpuinfo").exists()
        else platform.processor()
    )
    return {"cpu": model, "cpus": os.cpu_count(), "python": platform.python_version()}


def slopes(results: list[dict]) -> dict[str, float]:
    """Per step, the least-squares slope of log(seconds) on log(items): 1 is linear, 2
    quadratic. Steps under 0.05 s at some size are left out (noise)."""
    if len(results) < 2:
        return {}
    x = np.log([r["items"] for r in results])
    out = {}
    for key in {k for r in results for k in r["steps"]}:
        y = [r["steps"].get(key, 0.0) for r in results]
        if min(y) >= 0.05:
            out[key] = round(float(np.polyfit(x, np.log(y), 1)[0]), 2)
    out["total wall"] = round(float(np.polyfit(x, np.log([r["wall_s"] for r in results]), 1)[0]), 2)
    return out


def table(results: list[dict]) -> str:
    keys = sorted(
        {k for r in results for k in r["steps"]}, key=lambda k: -results[-1]["steps"].get(k, 0)
    )
    slope = slopes(results)
    head = "| step | " + " | ".join(f"{r['items']:,} items (s)" for r in results) + " | slope |"
    lines = [head, "|---|" + "---|" * (len(results) + 1)]
    for key in keys:
        lines.append(
            f"| {key} | "
            + " | ".join(f"{r['steps'].get(key, 0):.2f}" for r in results)
            + f" | {slope.get(key, '')} |"
        )

    def row(label: str, key: str, slope_key: str = "", bold: bool = False) -> str:
        cells = (f"**{r[key]:.1f}**" if bold else f"{r[key]:.1f}" for r in results)
        return f"| {label} | " + " | ".join(cells) + f" | {slope.get(slope_key, '')} |"

    lines += [
        row("simulation (outside the graph)", "simulation_s"),
        row("run overhead (Dagster start and end of runs)", "overhead_s"),
        row("**total wall**", "wall_s", "total wall", bold=True),
        row("a run with nothing new, after the loop (not in the total)", "idle_run_s"),
        row("and a second one (not in the total)", "settled_run_s"),
    ]
    lines.append(
        "| peak memory (MB) | " + " | ".join(f"{r['peak_mb']:.0f}" for r in results) + " | |"
    )
    lines.append(
        "| load average (mean / max) | "
        + " | ".join(f"{r['load_mean']:.1f} / {r['load_max']:.1f}" for r in results)
        + " | |"
    )
    return "\n".join([*lines, "", memory_table(results)])


def memory_table(results: list[dict], top: int = 12) -> str:
    """The steps with the highest peaks at the largest size: each step's peak resident set
    (MB) and, in brackets, how much of it the step added to what the process held as it
    began."""
    peaks = results[-1].get("step_peak_mb", {})
    keys = sorted(peaks, key=lambda k: -peaks[k])[:top]
    head = "| step | " + " | ".join(f"{r['items']:,} items: peak (own) MB" for r in results) + " |"
    lines = [head, "|---|" + "---|" * len(results)]
    for key in keys:
        cells = []
        for r in results:
            peak = r.get("step_peak_mb", {}).get(key)
            start = r.get("step_start_mb", {}).get(key, 0.0)
            cells.append("" if peak is None else f"{peak:,.0f} ({peak - start:,.0f})")
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
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
    parser.add_argument("--plot", type=Path, help="write the log-log plot (PNG) here")
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of the table"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="folder for a cProfile file per size (items-N.prof; slows the run down)",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="keep each size's studies and RATERLAB_HOME in DIR/items-N (to re-run one asset "
        "on them, e.g. under cProfile); DIR/items-N must not exist",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.profile:
            with cProfile.Profile() as profiler:
                result = run_loop()
            profiler.dump_stats(args.profile)
        else:
            result = run_loop()
        print(json.dumps(result))
        return
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    results = []
    for n in args.items:
        results.append(measure(n, args.profile, args.keep))
        print(
            f"{n:,} items: {results[-1]['wall_s']:.1f} s wall, {results[-1]['peak_mb']:.0f} MB",
            file=sys.stderr,
            flush=True,
        )
    if args.plot:
        plot(results, args.plot)
    if args.json:
        print(json.dumps({"machine": machine(), "results": results, "slopes": slopes(results)}))
    else:
        print(machine())
        print(table(results))


if __name__ == "__main__":
    main()
