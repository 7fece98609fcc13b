"""Agreement of several fields at once: the coefficient set of a level, as one table.

Used by ``raterlab agree`` and by pipeline code that reports agreement per field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from raterlab.agreement.alpha import LEVELS, krippendorff_alpha
from raterlab.agreement.bootstrap import bootstrap_cis
from raterlab.agreement.gwet import brennan_prediger, gwet_ac1, gwet_ac2, percent_agreement
from raterlab.agreement.intraclass import icc
from raterlab.agreement.kappa import cohen_kappa, conger_kappa, fleiss_kappa, light_kappa, scott_pi

__all__ = ["COEFFICIENTS", "agreement_table", "default_coefficients"]


@dataclass(frozen=True)
class _Coefficient:
    function: Callable[..., object]
    option: str | None = None  # keyword set by "name:value" on the command line
    default: Callable[[str], object] | None = None  # level -> default value of the option
    takes_categories: bool = False


def _weights_for(level: str) -> str | None:
    return {"nominal": None, "ordinal": "linear"}.get(level, "quadratic")


COEFFICIENTS: dict[str, _Coefficient] = {
    "percent_agreement": _Coefficient(percent_agreement),
    "cohen_kappa": _Coefficient(cohen_kappa, "weights", _weights_for, True),
    "scott_pi": _Coefficient(scott_pi),
    "fleiss_kappa": _Coefficient(fleiss_kappa),
    "conger_kappa": _Coefficient(conger_kappa),
    "light_kappa": _Coefficient(light_kappa),
    "krippendorff_alpha": _Coefficient(krippendorff_alpha, "level", lambda level: level, True),
    "gwet_ac1": _Coefficient(gwet_ac1, takes_categories=True),
    "gwet_ac2": _Coefficient(
        gwet_ac2, "weights", lambda level: "ordinal" if level == "ordinal" else "quadratic", True
    ),
    "brennan_prediger": _Coefficient(brennan_prediger, takes_categories=True),
    "icc": _Coefficient(icc, "kind", lambda level: "ICC(2,1)"),
}


def default_coefficients(level: str, n_raters: int) -> list[str]:
    """The coefficients reported for a level of measurement when none are named."""
    kappa = "cohen_kappa" if n_raters == 2 else "fleiss_kappa"
    return {
        "nominal": ["percent_agreement", kappa, "krippendorff_alpha", "gwet_ac1"],
        "ordinal": ["percent_agreement", "krippendorff_alpha"]
        + (["cohen_kappa"] if n_raters == 2 else [])
        + ["gwet_ac2"],
        "interval": ["krippendorff_alpha", "icc"],
        "ratio": ["krippendorff_alpha", "icc"],
    }[level]


def _parse(spec: str, level: str) -> tuple[str, dict[str, object]]:
    """``"cohen_kappa:quadratic"`` -> ``("cohen_kappa", {"weights": "quadratic"})``."""
    name, _, value = spec.partition(":")
    if name not in COEFFICIENTS:
        raise ValueError(f"unknown coefficient {name!r}; choose from {', '.join(COEFFICIENTS)}")
    coefficient = COEFFICIENTS[name]
    if value and coefficient.option is None:
        raise ValueError(f"{name} takes no option; got {spec!r}")
    options: dict[str, object] = {}
    if coefficient.option is not None:
        options[coefficient.option] = value or coefficient.default(level)
    return name, {k: v for k, v in options.items() if v is not None}


def _row(
    field: str,
    name: str,
    options: dict[str, object],
    level: str,
    matrix: pd.DataFrame,
    categories: Sequence[object] | None,
) -> tuple[dict[str, object], dict[str, object] | None]:
    """The coefficient's row without its interval, and the options its interval takes
    (``None`` when the coefficient is undefined or does not apply: the row's ``note`` says
    why)."""
    row: dict[str, object] = {
        "field": field,
        "coefficient": name,
        "options": ", ".join(f"{k}={v}" for k, v in options.items()),
        "level": options.get("level", level),
        "estimate": np.nan,
        "se": np.nan,
        "ci_low": np.nan,
        "ci_high": np.nan,
        "n_units": 0,
        "n_raters": 0,
        "note": "",
    }
    if categories is not None and COEFFICIENTS[name].takes_categories:
        options = {**options, "categories": categories}
    try:
        result = COEFFICIENTS[name].function(matrix, **options)
    except ValueError as error:  # AgreementUndefined and inapplicable coefficients
        row["note"] = str(error)
        return row, None
    row.update(
        estimate=result.estimate,
        se=np.nan if result.se is None else result.se,
        n_units=result.n_units,
        n_raters=result.n_raters,
    )
    return row, options


def _with_intervals(
    rows: list[tuple[dict[str, object], dict[str, object] | None]],
    matrix: pd.DataFrame,
    ci: Mapping[str, object],
) -> None:
    """Fill in the bootstrap interval of each defined row, all coefficients of ``matrix``
    on the same resamples (:func:`bootstrap_cis`: the numbers of one :func:`bootstrap_ci`
    per coefficient); an interval that fails puts its reason in ``note``."""
    wanted = [(row, options) for row, options in rows if options is not None]
    results = bootstrap_cis(matrix, [(row["coefficient"], o) for row, o in wanted], **ci)
    for (row, _), interval in zip(wanted, results, strict=True):
        if isinstance(interval, ValueError):
            row["note"] = str(interval)
        else:
            row.update(ci_low=interval.low, ci_high=interval.high)


def estimates(
    matrix: pd.DataFrame,
    level: str,
    coefficients: Sequence[str],
    categories: Sequence[object] | None = None,
) -> list[float]:
    """The point estimate of each of ``coefficients`` on ``matrix`` (NaN where undefined or
    inapplicable): the ``estimate`` column :func:`agreement_table` gives for them, without
    building the table (for many small matrices, such as every pair of raters)."""
    return [
        _row("", name, options, level, matrix, categories)[0]["estimate"]
        for name, options in (_parse(spec, level) for spec in coefficients)
    ]


def agreement_table(
    matrices: Mapping[str, pd.DataFrame],
    level: str = "nominal",
    coefficients: Sequence[str] | None = None,
    categories: Sequence[object] | None = None,
    ci: bool = False,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    ci_method: str = "percentile",
    seed: int | None = 0,
) -> pd.DataFrame:
    """One row per field and coefficient: estimate, standard error, bootstrap interval.

    ``matrices`` maps field names to units x raters matrices (see
    :func:`raterlab.agreement.ratings_file.ratings_matrices`). ``coefficients`` are names
    from :data:`COEFFICIENTS`, optionally with their option after a colon
    (``cohen_kappa:quadratic``, ``icc:ICC(3,1)``, ``krippendorff_alpha:ordinal``); by default
    :func:`default_coefficients` of ``level``. A coefficient that is undefined or does not
    apply to a field gets an empty estimate and the reason in ``note``.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}; got {level!r}")
    specs = [_parse(spec, level) for spec in coefficients or []]
    interval = (
        {"n_resamples": n_resamples, "confidence": confidence, "method": ci_method, "seed": seed}
        if ci
        else None
    )
    rows = []
    for field, matrix in matrices.items():
        raters = int(matrix.notna().any().sum())
        names = specs or [_parse(name, level) for name in default_coefficients(level, raters)]
        built = [_row(field, name, options, level, matrix, categories) for name, options in names]
        if interval is not None:
            _with_intervals(built, matrix, interval)
        rows += [row for row, _ in built]
    return pd.DataFrame(rows)
