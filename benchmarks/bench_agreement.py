"""Agreement engine timings against the reference packages, run in one process. By hand:

    .venv/bin/python benchmarks/bench_agreement.py           # 1k-100k units, a minute or two
    .venv/bin/python benchmarks/bench_agreement.py --full    # adds 1M units (a few minutes)
    .venv/bin/python benchmarks/bench_agreement.py --only bootstrap --repeats 9

Prints a markdown section for benchmarks/README.md ("## Agreement").

1. Krippendorff's alpha, all four levels, on 2, 5 and 10 raters, against the `krippendorff`
   package (Likert 1-5, 20% missing).
2. Cohen's kappa (unweighted, linear, quadratic) against scikit-learn's `cohen_kappa_score`.
3. Fleiss' kappa and Gwet's AC1 against statsmodels' `fleiss_kappa` on the table its
   `aggregate_raters` builds from the same units x raters matrix (complete units), and
   against irrCAC when it is installed.
4. A 1,000-resample bootstrap CI of ordinal alpha on 10,000 units x 5 raters: cold (the
   resamples drawn in the call, as any first call with a seed) and warm (the same seed again,
   the draws kept by :func:`raterlab.agreement.bootstrap.drawn_counts`), against the naive
   loop calling `krippendorff.alpha` once per resample (timed on NAIVE_RESAMPLES resamples,
   extrapolated linearly to 1,000).

The machine is shared, so every comparison is interleaved (ours, then the reference, in
turn, ``--repeats`` rounds) and each side's figure is its best round; the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import time
import timeit
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from importlib.util import find_spec

import krippendorff
import numpy as np
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

from raterlab.agreement import (
    bootstrap,
    bootstrap_ci,
    bootstrap_replicates,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
)

LEVELS = ("nominal", "ordinal", "interval", "ratio")
SIZES = (1_000, 10_000, 100_000)
FULL_SIZES = (*SIZES, 1_000_000)
RATERS = (2, 5, 10)
SCALE = np.arange(1, 6)
N_RESAMPLES = 1000
NAIVE_RESAMPLES = 100
# Each timed round repeats a call until it has run this long (small inputs take 0.1 ms).
ROUND_SECONDS = 0.02


def ratings(n_units: int, n_raters: int, seed: int, missing: float = 0.2) -> np.ndarray:
    """Likert 1-5 ratings that agree in part, with a share of missing cells."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, size=(n_units, 1))
    noise = rng.integers(-1, 2, size=(n_units, n_raters)) * (rng.random((n_units, n_raters)) < 0.4)
    data = np.clip(truth + noise, 1, 5).astype(float)
    data[rng.random(data.shape) < missing] = np.nan
    return data


def seconds_per_call(function: Callable[[], object]) -> float:
    """Seconds per call of one round: as many calls as fit in :data:`ROUND_SECONDS`."""
    start = time.perf_counter()
    function()
    once = time.perf_counter() - start
    number = max(1, int(ROUND_SECONDS / max(once, 1e-7)))
    return min(once, timeit.timeit(function, number=number) / number)


def interleaved(repeats: int, *functions: Callable[[], object]) -> list[float]:
    """Best seconds per call of each function, the functions timed in turn each round."""
    best = [float("inf")] * len(functions)
    for _ in range(repeats):
        for at, function in enumerate(functions):
            best[at] = min(best[at], seconds_per_call(function))
    return best


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def package(name: str) -> str:
    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:
        return f"{name} (not installed)"


def machine() -> str:
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    fields = dict(line.split(":", 1) for line in cpu.splitlines() if ":" in line)
    model = fields.get("Model name", platform.processor()).strip()
    cores = fields.get("CPU(s)", "?").strip()
    names = ("numpy", "scipy", "pandas", "krippendorff", "scikit-learn", "statsmodels", "irrCAC")
    return f"{model}, {cores} CPUs; Python {platform.python_version()}, " + ", ".join(
        package(name) for name in names
    )


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1e3:.3g}"


def alpha_section(sizes: tuple[int, ...], repeats: int) -> list[str]:
    lines = [
        "| units x raters | level | raterlab (ms) | krippendorff (ms) | ratio | max difference |",
        "|---|---|---|---|---|---|",
    ]
    for n_units in sizes:
        for n_raters in RATERS:
            data = ratings(n_units, n_raters, seed=n_raters)
            for level in LEVELS:
                ours, theirs = interleaved(
                    repeats,
                    lambda data=data, level=level: krippendorff_alpha(data, level),
                    lambda data=data, level=level: krippendorff.alpha(
                        reliability_data=data.T, level_of_measurement=level
                    ),
                )
                difference = abs(
                    float(krippendorff_alpha(data, level))
                    - krippendorff.alpha(reliability_data=data.T, level_of_measurement=level)
                )
                lines.append(
                    f"| {n_units:,} x {n_raters} | {level} | {milliseconds(ours)} | "
                    f"{milliseconds(theirs)} | {theirs / ours:.1f}x | {difference:.0e} |"
                )
    return lines


def cohen_section(sizes: tuple[int, ...], repeats: int) -> list[str]:
    lines = [
        "| units | weights | raterlab (ms) | scikit-learn (ms) | ratio | max difference |",
        "|---|---|---|---|---|---|",
    ]
    for n_units in sizes:
        data = ratings(n_units, 2, seed=3, missing=0.0)
        first, second = data[:, 0], data[:, 1]
        for weights in (None, "linear", "quadratic"):
            ours, theirs = interleaved(
                repeats,
                lambda data=data, weights=weights: cohen_kappa(data, weights),
                lambda first=first, second=second, weights=weights: cohen_kappa_score(
                    first, second, weights=weights
                ),
            )
            difference = abs(
                float(cohen_kappa(data, weights))
                - cohen_kappa_score(first, second, weights=weights)
            )
            lines.append(
                f"| {n_units:,} | {weights or 'none'} | {milliseconds(ours)} | "
                f"{milliseconds(theirs)} | {theirs / ours:.1f}x | {difference:.0e} |"
            )
    return lines


def _irrcac(data: np.ndarray, coefficient: str) -> Callable[[], object] | None:
    """irrCAC's Fleiss or AC1 on the same matrix, when the package is installed."""
    if find_spec("irrCAC") is None:
        return None
    import pandas as pd
    from irrCAC.raw import CAC

    frame = pd.DataFrame(data)
    return lambda: getattr(CAC(frame), coefficient)()


def multirater_section(sizes: tuple[int, ...], repeats: int) -> list[str]:
    with_irrcac = find_spec("irrCAC") is not None
    header = "| units x raters | coefficient | raterlab (ms) | statsmodels (ms) | ratio |"
    rule = "|---|---|---|---|---|"
    if with_irrcac:
        header += " irrCAC (ms) | ratio |"
        rule += "---|---|"
    lines = [header + " max difference (Fleiss) |", rule + "---|"]
    for n_units in sizes:
        for n_raters in RATERS:
            data = ratings(n_units, n_raters, seed=4, missing=0.0)

            def reference(data: np.ndarray = data) -> float:
                return statsmodels_fleiss(aggregate_raters(data)[0])

            difference = abs(float(fleiss_kappa(data)) - reference())
            for name, ours_function, cac in (
                ("Fleiss' kappa", fleiss_kappa, "fleiss"),
                ("Gwet's AC1", gwet_ac1, "gwet"),
            ):
                others = [reference]
                irrcac = _irrcac(data, cac)
                if irrcac is not None:
                    others.append(irrcac)
                ours, *theirs = interleaved(
                    repeats, lambda data=data, f=ours_function: f(data), *others
                )
                row = (
                    f"| {n_units:,} x {n_raters} | {name} | {milliseconds(ours)} | "
                    f"{milliseconds(theirs[0])} | {theirs[0] / ours:.1f}x |"
                )
                if with_irrcac:
                    row += f" {milliseconds(theirs[1])} | {theirs[1] / ours:.1f}x |"
                lines.append(row + f" {difference:.0e} |")
    return lines


def bootstrap_section(repeats: int) -> list[str]:
    data = ratings(10_000, 5, seed=1)
    data = data[~np.isnan(data).all(axis=1)]  # units without a rating are not resampled
    n = len(data)
    indices = np.random.default_rng(2).integers(0, n, size=(NAIVE_RESAMPLES, n))

    def call(method: str, cold: bool) -> Callable[[], object]:
        def run() -> object:
            if cold:
                bootstrap.forget_draws()
            return bootstrap_ci(
                data, n_resamples=N_RESAMPLES, seed=0, method=method, level="ordinal"
            )

        return run

    def naive() -> list[float]:
        return [
            krippendorff.alpha(
                reliability_data=data[rows].T, level_of_measurement="ordinal", value_domain=SCALE
            )
            for rows in indices
        ]

    cold, warm, cold_bca, warm_bca, naive_time = interleaved(
        repeats,
        call("percentile", cold=True),
        call("percentile", cold=False),
        call("bca", cold=True),
        call("bca", cold=False),
        naive,
    )
    result = call("percentile", cold=False)()
    vectorized = bootstrap_replicates(data, "krippendorff_alpha", indices, level="ordinal")
    difference = np.max(np.abs(vectorized - np.asarray(naive())))
    extrapolated = naive_time * N_RESAMPLES / NAIVE_RESAMPLES
    rows = [
        ("percentile, cold (resamples drawn in the call)", cold),
        ("percentile, warm (the same seed again: kept draws)", warm),
        ("BCa, cold", cold_bca),
        ("BCa, warm", warm_bca),
    ]
    return [
        "| method | time for 1,000 resamples (s) | naive loop / this |",
        "|---|---|---|",
        *(
            f"| raterlab `bootstrap_ci`, {label} | {seconds:.3f} | {extrapolated / seconds:.0f}x |"
            for label, seconds in rows
        ),
        f"| naive loop over `krippendorff.alpha` | {extrapolated:.2f} (best of {repeats}: "
        f"{naive_time:.2f} s for {NAIVE_RESAMPLES}, x{N_RESAMPLES // NAIVE_RESAMPLES}) | 1x |",
        "",
        f"Ordinal alpha {result.estimate:.4f}, 95% CI [{result.low:.4f}, {result.high:.4f}]. "
        f"On the {NAIVE_RESAMPLES} naive resamples the vectorized replicates differ from the "
        f"package's by at most {difference:.1e}.",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--full", action="store_true", help="add 1,000,000 units")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds (best of)")
    parser.add_argument(
        "--only", choices=("alpha", "cohen", "multirater", "bootstrap"), help="one section"
    )
    args = parser.parse_args()
    sizes = FULL_SIZES if args.full else SIZES
    before = load()
    started = time.perf_counter()
    planned = {
        "alpha": (
            "Krippendorff's alpha (Likert 1-5, 20% missing); ratio = krippendorff / raterlab:",
            lambda: alpha_section(sizes, args.repeats),
        ),
        "cohen": (
            "Cohen's kappa, two raters, complete units; ratio = scikit-learn / raterlab:",
            lambda: cohen_section(sizes, args.repeats),
        ),
        "multirater": (
            "Fleiss' kappa and Gwet's AC1 on complete units; statsmodels = `aggregate_raters` "
            "(the table from the units x raters matrix) + `fleiss_kappa`; ratio = "
            "statsmodels / raterlab:",
            lambda: multirater_section(sizes, args.repeats),
        ),
        "bootstrap": (
            "Bootstrap CI of ordinal alpha, 10,000 units x 5 raters, 1,000 resamples of units:",
            lambda: bootstrap_section(args.repeats),
        ),
    }
    sections = [
        (title, run()) for name, (title, run) in planned.items() if args.only in (None, name)
    ]
    print("## Agreement\n")
    print(f"Machine: {machine()}.")
    print(
        f"Load average (1, 5, 15 min) {before} before the run, {load()} after "
        f"({time.perf_counter() - started:.0f} s; best of {args.repeats} interleaved rounds)."
    )
    for title, lines in sections:
        print(f"\n{title}\n")
        print("\n".join(lines))


if __name__ == "__main__":
    main()
