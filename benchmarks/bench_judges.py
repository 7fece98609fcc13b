"""Judge calibration bootstrap timings against the naive scipy loop. Run by hand, not by CI:

    .venv/bin/python -m benchmarks.bench_judges

Prints a markdown section for benchmarks/README.md ("## Judges").
1,000 bootstrap resamples of Pearson, Spearman and Kendall's tau-b for 10 judges x 4 fields on
10,000 items: raterlab's contingency-table engine (``raterlab.judges``; one set of resamples of
the items shared by all 40 pairs) against
the naive loop that calls scipy's ``pearsonr``, ``spearmanr`` and ``kendalltau`` on
``x[idx], y[idx]`` per resample, judge and field. The naive loop is timed on NAIVE_RESAMPLES
resamples of every pair and extrapolated linearly to 1,000; on those resamples the two agree.
raterlab is timed cold (the kept draws of :func:`raterlab.agreement.bootstrap.drawn_counts`
cleared before each of 3 runs; the figure is the best) and warm (once more, the draws kept).
"""

from __future__ import annotations

import time
from importlib.metadata import version

import numpy as np
from scipy import stats

from benchmarks.bench_agreement import load, machine
from raterlab.agreement import bootstrap
from raterlab.judges import resample

N_ITEMS = 10_000
N_JUDGES = 10
N_FIELDS = 4
N_RESAMPLES = 1000
NAIVE_RESAMPLES = 10
SEED = 20261123


def data(seed: int) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    """Per field: the mean of three 1-5 human ratings and ten judges scoring 1-10 with
    growing noise (LLM judges answer on a fixed scale)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(N_FIELDS):
        truth = rng.normal(size=N_ITEMS)
        humans = np.clip(np.round(3 + truth[:, None] + rng.normal(size=(N_ITEMS, 3))), 1, 5)
        judges = [
            np.clip(np.round(5.5 + 2 * truth + rng.normal(size=N_ITEMS) * 0.4 * (j + 1)), 1, 10)
            for j in range(N_JUDGES)
        ]
        out.append((humans.mean(axis=1), judges))
    return out


def ours(fields: list) -> list:
    """One set of resamples of the items, shared by all 40 (judge, field) pairs."""
    consumers, cells = [], 1
    for human, judges in fields:
        for judge in judges:
            consumer, size = resample.correlation_consumer(judge, human)
            consumers.append(consumer)
            cells = max(cells, size)
    results = resample.run(N_ITEMS, consumers, N_RESAMPLES, SEED, cells)
    return [results[f * N_JUDGES : (f + 1) * N_JUDGES] for f in range(N_FIELDS)]


def naive(fields: list, indices: np.ndarray) -> list:
    out = []
    for human, judges in fields:
        for judge in judges:
            rows = []
            for idx in indices:
                x, y = judge[idx], human[idx]
                rows.append(
                    (
                        stats.pearsonr(x, y).statistic,
                        stats.spearmanr(x, y).statistic,
                        stats.kendalltau(x, y).statistic,
                    )
                )
            out.append(np.array(rows))
    return out


def main() -> None:
    fields = data(SEED)
    before = load()
    times = []
    for _ in range(3):
        bootstrap.forget_draws()
        start = time.perf_counter()
        results = ours(fields)
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    ours(fields)
    warm = time.perf_counter() - start
    indices = np.random.default_rng(SEED).integers(0, N_ITEMS, size=(NAIVE_RESAMPLES, N_ITEMS))
    start = time.perf_counter()
    reference = naive(fields, indices)
    naive_time = time.perf_counter() - start
    ours_first = np.array(
        [
            [r[name].replicates[:NAIVE_RESAMPLES] for name in ("pearson", "spearman", "kendall")]
            for field in results
            for r in field
        ]
    ).transpose(0, 2, 1)
    gap = float(np.max(np.abs(ours_first - np.array(reference))))
    per_1000 = naive_time * N_RESAMPLES / NAIVE_RESAMPLES
    best = min(times)
    kendall = results[0][0]["kendall"]
    low, high = kendall.interval(0.95)
    print("## Judges\n")
    print(f"Machine: {machine()}, matplotlib {version('matplotlib')}.")
    print(f"Load average (1, 5, 15 min) {before} before the run, {load()} after.\n")
    print(
        f"1,000 bootstrap resamples of Pearson, Spearman and Kendall's tau-b, {N_JUDGES} judges "
        f"x {N_FIELDS} fields on {N_ITEMS:,} items (judges on 1-10, humans the mean of three "
        "1-5 ratings), best of 3:\n"
    )
    print("| method | time for 1,000 resamples (s) | speed-up vs naive |")
    print("|---|---|---|")
    print(
        f"| raterlab (`raterlab.judges.resample.run`), cold (draws made in the call) | "
        f"{best:.2f} | {per_1000 / best:.0f}x |"
    )
    print(
        f"| raterlab, warm (the same seed again: kept draws) | {warm:.2f} "
        f"| {per_1000 / warm:.0f}x |"
    )
    print(
        f"| naive loop over scipy (`pearsonr`, `spearmanr`, `kendalltau`) | {per_1000:.0f} "
        f"(measured {naive_time:.1f} s for {NAIVE_RESAMPLES}, x{N_RESAMPLES // NAIVE_RESAMPLES}) "
        "| 1x |"
    )
    print(
        f"\nFirst judge, first field: tau-b {kendall.estimate:.4f}, 95% CI [{low:.4f}, "
        f"{high:.4f}]. On the {NAIVE_RESAMPLES} naive resamples the replicates differ from "
        f"scipy's by at most {gap:.1e}. Cold runs: {', '.join(f'{t:.2f}' for t in times)} s."
    )


if __name__ == "__main__":
    main()
