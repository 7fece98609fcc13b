r"""Designs that cannot work, found before any packet goes out (``raterlab study check``).

Three findings, each with its reason and what to change:

- **Ties nothing breaks** (error). Two annotators on a binary or categorical field disagree
  as a 1-1 tie. Only an adjudicator settles such a tie (a third annotator is asked only for
  disputed fields), so a tier rated by two whose disagreements are not adjudicated keeps
  every tie unresolved forever, unless the study says to exclude what cannot be resolved.
- **A pilot gate too small to decide** (warning). The gate reads a coefficient on the pilot's
  items; with few of them its interval is wide, and a pilot that passes or fails says little.
  The width is Cohen's (1960) large-sample standard error of kappa at the gate's value,
  with every category equally likely:

  .. math::
     \mathrm{SE}(\kappa) \approx \sqrt{\frac{p_o (1 - p_o)}{n (1 - p_e)^2}},\qquad
     p_e = 1/k,\quad p_o = \kappa (1 - p_e) + p_e,

  for ``n`` pilot units and ``k`` categories; the 95% interval is about
  :math:`\pm 1.96\,\mathrm{SE}`. It is an approximation for any coefficient the gate names
  (weighted kappas and alpha are usually a little tighter), stated as such.
- **No rushing floor** (warning). ``design.time_floor_s`` left at 0 s flags no rating as
  rushed, so ``quality.max_rushed_share`` can never fire.

Reference: Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
Psychological Measurement, 20(1), 37-46.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from raterlab.design.assignment import assign
from raterlab.design.routing import routed_items
from raterlab.protocol import BinaryField, CategoricalField, LikertField, Study

WIDE_GATE = 0.1
"""Half-width of the gate's 95% interval above which the pilot is called too small."""
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Finding:
    """One thing ``raterlab study check`` says about a design."""

    severity: str
    """``error`` (the design cannot work: refused) or ``warning``."""
    path: str
    """Where in the study file."""
    message: str


def kappa_half_width(kappa: float, n_units: int, n_categories: int) -> float:
    """Half-width of kappa's approximate 95% interval (module docstring) on ``n_units``."""
    p_e = 1 / n_categories
    p_o = kappa * (1 - p_e) + p_e
    return Z_95 * math.sqrt(p_o * (1 - p_o) / n_units) / (1 - p_e)


def findings(study: Study, generations: pd.DataFrame) -> list[Finding]:
    """Everything wrong with ``study``'s design for these generations."""
    return [*_ties(study), *_gate_precision(study, generations), *_rushing(study)]


def _ties(study: Study) -> list[Finding]:
    consensus = study.consensus
    if consensus.unresolved == "exclude":
        return []
    labelled = sorted(
        name
        for task in study.tasks.values()
        for name in task.rating_fields
        if isinstance(task.fields[name], BinaryField | CategoricalField)
    )
    found = []
    for tier, overlap in study.design.overlap.items():
        paired = overlap == 2 or (overlap == 1 and study.design.spot_check > 0)
        if labelled and paired and tier not in consensus.adjudicate.binary_disagreement_tiers:
            who = "two annotators" if overlap == 2 else "a spot check's second annotator"
            found.append(
                Finding(
                    "error",
                    "consensus.adjudicate.binary_disagreement_tiers",
                    f"tier {tier!r} has {who} on {', '.join(labelled)} and nothing breaks "
                    "their ties: a 1-1 disagreement would stay unresolved forever. Add the "
                    "tier here (an adjudicator decides), give it an odd overlap, or declare "
                    "consensus.unresolved: exclude",
                )
            )
    return found


def _gate_precision(study: Study, generations: pd.DataFrame) -> list[Finding]:
    gate = study.thresholds.pilot_gate
    if gate is None or study.design.pilot is None:
        return []
    items = generations[generations["role"] == "item"]
    pilot = assign(study, routed_items(study, generations), generations)
    pilot = pilot[(pilot["batch"] == "pilot") & (pilot["kind"] == "item")]
    units = pilot.drop_duplicates(["task", "item_id"]).groupby("task").size()
    found = []
    for task_name, task in study.tasks.items():
        fields = [f for f in task.rating_fields if not gate.fields or f in gate.fields]
        n = int(units.get(task_name, 0))
        if not fields or not len(items):
            continue
        k = max(_categories(task.fields[f]) for f in fields)
        if n < 2:
            found.append(
                Finding(
                    "error",
                    "design.pilot.fraction",
                    f"task {task_name}: the pilot has {n} item(s); the gate "
                    f"({gate.coefficient} >= {gate.min}) cannot be computed",
                )
            )
            continue
        half = kappa_half_width(gate.min, n, k)
        if half > WIDE_GATE:
            found.append(
                Finding(
                    "warning",
                    "design.pilot.fraction",
                    f"task {task_name}: the pilot gate ({gate.coefficient} "
                    f"{'>' if gate.strict else '>='} {gate.min}) rests on {n} items; its 95% "
                    f"interval will be about {gate.min:.2f} ± {half:.2f} "
                    f"([{gate.min - half:.2f}, {min(1.0, gate.min + half):.2f}], Cohen's "
                    f"approximate standard error, {k} categories): a pass or a fail says "
                    f"little. About {_units_for(gate.min, k)} pilot items give ± {WIDE_GATE}",
                )
            )
    return found


def _units_for(kappa: float, n_categories: int) -> int:
    """Pilot units that bring the half-width down to :data:`WIDE_GATE`."""
    return math.ceil((kappa_half_width(kappa, 1, n_categories) / WIDE_GATE) ** 2)


def _categories(spec: object) -> int:
    if isinstance(spec, LikertField):
        return spec.max - spec.min + 1
    return len(list(spec.domain()))


def _rushing(study: Study) -> list[Finding]:
    if study.design.time_floor_s > 0:
        return []
    return [
        Finding(
            "warning",
            "design.time_floor_s",
            "is 0 s (the default): no rating is ever rushed, so quality.max_rushed_share "
            "never flags anyone; set the protocol's floor (e.g. 30)",
        )
    ]
