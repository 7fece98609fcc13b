"""The latent truth behind every item: one true value per rating field, drawn reproducibly.

Everything comes from the study model, never from a study's name:

- An item has a latent quality ``z = effect(slice levels) + N(0, 1)``. Every item key named in
  ``study.slices`` with 2-8 categorical levels (e.g. ``condition``) shifts it: the levels in
  sorted order get effects spread evenly from ``+0.25`` to ``-0.25`` (so condition ``A`` is a
  bit better than ``B``). The effects are part of what is planted.
- Likert: a continuous latent ``c = center + spread * (0.75 z + 0.66 e)`` with ``center`` at
  60% of the scale and ``spread`` a quarter of its range; the truth is ``c`` rounded into the
  scale. Raters see ``c``, not the rounded value, so their errors look like real ones.
- Binary: ``1`` when ``logit(base) + 1.2 * polarity * z + logistic noise > 0``; the base rate
  is drawn per field in [0.35, 0.65]; the polarity is ``+1`` unless a constraint says the
  field excludes (``a => not b``) a field of the other polarity.
- Categorical: the first label with probability ``sigmoid(0.85 + 1.2 z)``, else another.
- Pairwise: a pair's latent preference is ``L = 4 * (quality_a - quality_b) + N(0, 0.5)``,
  where ``quality`` is a numeric hidden key of each response (the planted quality of the
  generations; 0 where there is none): the truth is ``a`` when ``L > 0``, else ``b``; ``tie``
  when ties are allowed and ``|L| < 0.3``; ``much_a`` / ``much_b`` with ``strength`` and
  ``|L| > 1.5``. Raters perceive ``L`` with their own noise (:mod:`raterlab.simulate.fill`).
- A hidden key named ``<anything>_<field>`` holding a value of the field's domain (an LLM
  judge's verdict, say) is a hint: the truth takes its value with probability 0.75.
- ``study.edge_cases`` that match the item set their ``expect`` values; attention and
  calibration items take their ``expected`` answers. Both are locked.
- Binary values are then repaired until every constraint of the task holds (locked values
  are never changed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from raterlab.protocol import (
    BinaryField,
    CategoricalField,
    LikertField,
    PairwiseField,
    Study,
    Task,
)
from raterlab.protocol.rules import Constraint
from raterlab.protocol.study import BUILTIN_SLICES
from raterlab.simulate.seeding import rng_for

EFFECT = 0.25
MAX_LEVELS = 8
HINT_AGREEMENT = 0.75
LIKERT_CENTER = 0.6
PAIR_QUALITY_KEY = "quality"
"""The hidden key of a pairwise task's generations that plants each response's quality."""
PAIR_SCALE, PAIR_NOISE, TIE_BAND, MUCH_BAND = 4.0, 0.5, 0.3, 1.5
TRUTH_COLUMNS = ("item_id", "task", "role", "field", "value", "value_num", "source")


@dataclass
class ItemTruth:
    """The true values of one item's rating fields."""

    task: str
    role: str
    values: dict[str, Any] = field(default_factory=dict)
    latent: dict[str, float] = field(default_factory=dict)
    """Continuous latent of each Likert field (what raters perceive)."""
    source: dict[str, str] = field(default_factory=dict)
    """Where each value came from: latent, hint, edge_case or expected."""


@dataclass
class Truth:
    """The truth of every item of a study, and the item-level effects it was drawn with."""

    items: dict[str, ItemTruth]
    effects: dict[str, dict[str, dict[str, float]]]
    polarity: dict[str, dict[str, int]]
    hints: dict[str, dict[str, str]]

    def frame(self) -> pd.DataFrame:
        """One row per item and rating field: :data:`TRUTH_COLUMNS` (``value`` as text)."""
        rows = []
        for item_id, item in self.items.items():
            for name, value in item.values.items():
                numeric = float(value) if isinstance(value, int | float) else None
                rows.append(
                    (item_id, item.task, item.role, name, str(value), numeric, item.source[name])
                )
        frame = pd.DataFrame(rows, columns=list(TRUTH_COLUMNS))
        frame["value_num"] = frame["value_num"].astype("float64")
        return frame


def _scalar(value: Any) -> Any:
    """A value as a field would hold it (``True`` -> 1)."""
    return int(value) if isinstance(value, bool) else value


def level_effects(study: Study, generations: pd.DataFrame) -> dict[str, dict[str, dict]]:
    """Per task, per slice key, the latent-quality effect of each level (see module doc)."""
    items = generations[generations["role"] == "item"]
    out: dict[str, dict[str, dict]] = {}
    for task_name, task in study.tasks.items():
        records = items.loc[items["task"] == task_name, "record"]
        keys = [k for k in study.slices if k in task.item_keys and k not in BUILTIN_SLICES]
        for key in keys:
            values = [r.get(key) for r in records]
            if not values or not all(isinstance(v, str | bool) for v in values):
                continue
            levels = sorted({str(v) for v in values})
            if not 2 <= len(levels) <= MAX_LEVELS:
                continue
            spread = np.linspace(EFFECT, -EFFECT, len(levels))
            effects = {lvl: round(float(e), 4) for lvl, e in zip(levels, spread, strict=True)}
            out.setdefault(task_name, {})[key] = effects
    return out


def binary_polarity(task: Task) -> dict[str, int]:
    """+1/-1 per binary field: which way item quality pushes it (see module doc)."""
    binary = [n for n, s in task.fields.items() if isinstance(s, BinaryField)]
    edges: dict[str, list[tuple[str, int]]] = {n: [] for n in binary}
    for c in task.constraints:
        sign = 1 if c.kind == "implies" else -1
        edges[c.antecedent].append((c.consequent, sign))
        edges[c.consequent].append((c.antecedent, sign))
    polarity: dict[str, int] = {}
    for start in binary:
        if start in polarity:
            continue
        polarity[start] = 1
        todo = [start]
        while todo:
            node = todo.pop()
            for other, sign in edges[node]:
                if other not in polarity:
                    polarity[other] = polarity[node] * sign
                    todo.append(other)
    return polarity


def hint_keys(task: Task) -> dict[str, str]:
    """Rating field -> hidden key that hints at its value (``judge_<field>``)."""
    out = {}
    for name in task.rating_fields:
        for key in task.hidden:
            if key != name and key.endswith(f"_{name}"):
                out[name] = key
                break
    return out


def repair(
    values: dict[str, Any],
    constraints: list[Constraint],
    rng: np.random.Generator,
    locked: frozenset[str] | set[str] = frozenset(),
) -> dict[str, Any]:
    """``values`` with every constraint satisfied, changing unlocked binary values only.

    A violated ``a => b`` / ``a => not b`` is fixed by setting ``a`` to 0 or ``b`` to the
    required value (at random, whichever is not locked). After a few passes, remaining
    violations are fixed by zeroing antecedents, which only removes ones and so ends.
    Values that are not 0/1 (``skip``, empty) do not take part.
    """
    out = dict(values)

    def violated(c: Constraint) -> bool:
        return (
            out.get(c.antecedent) == 1
            and out.get(c.consequent) in (0, 1)
            and (out[c.consequent] != c.required_consequent)
        )

    for _ in range(4):
        broken = [c for c in constraints if violated(c)]
        if not broken:
            return out
        for c in broken:
            if not violated(c):
                continue
            can_a = c.antecedent not in locked
            can_b = c.consequent not in locked
            if can_a and (not can_b or rng.random() < 0.5):
                out[c.antecedent] = 0
            elif can_b:
                out[c.consequent] = c.required_consequent
    for _ in range(len(constraints) + 1):
        broken = [c for c in constraints if violated(c) and c.antecedent not in locked]
        if not broken:
            break
        for c in broken:
            out[c.antecedent] = 0
    return out


def violations(values: Mapping[str, Any], constraints: list[Constraint]) -> list[str]:
    """The constraints ``values`` break, written as in the study file."""
    return [
        str(c)
        for c in constraints
        if values.get(c.antecedent) == 1
        and values.get(c.consequent) in (0, 1)
        and values[c.consequent] != c.required_consequent
    ]


def _logit(p: float) -> float:
    return float(np.log(p / (1 - p)))


def _draw_item(
    study: Study,
    task_name: str,
    record: dict,
    role: str,
    expected: dict | None,
    rng: np.random.Generator,
    effects: dict[str, dict[str, float]],
    polarity: dict[str, int],
    base_rates: dict[str, float],
    hints: dict[str, str],
) -> ItemTruth:
    task = study.tasks[task_name]
    z = float(rng.normal()) + sum(
        levels.get(str(record.get(key)), 0.0) for key, levels in effects.items()
    )
    truth = ItemTruth(task=task_name, role=role)
    for name in task.rating_fields:
        spec = task.fields[name]
        if isinstance(spec, LikertField):
            center = spec.min + LIKERT_CENTER * (spec.max - spec.min)
            spread = (spec.max - spec.min) / 4 * 1.1
            c = center + spread * (0.75 * z + 0.66 * float(rng.normal()))
            truth.latent[name] = c
            value: Any = int(np.clip(round(c), spec.min, spec.max))
        elif isinstance(spec, BinaryField):
            x = _logit(base_rates[name]) + 1.2 * polarity[name] * z + float(rng.logistic())
            value = int(x > 0)
        elif isinstance(spec, PairwiseField):
            latent = _pair_latent(record, rng)
            truth.latent[name] = latent
            value = pair_choice(spec, latent)
        elif isinstance(spec, CategoricalField):
            p_first = 1 / (1 + np.exp(-(0.85 + 1.2 * z)))
            others = spec.labels[1:]
            value = spec.labels[0] if rng.random() < p_first else others[rng.integers(len(others))]
        else:  # pragma: no cover - every rating field type is handled above
            continue
        truth.values[name] = value
        truth.source[name] = "latent"
        hint_key = hints.get(name)
        if hint_key is not None:
            hint = _scalar(record.get(hint_key))
            domain = spec.domain()
            if domain is not None and hint in domain and rng.random() < HINT_AGREEMENT:
                _lock(truth, spec, name, hint, "hint", rng)
    locked: set[str] = set()
    for case in study.edge_cases:
        if case.task == task_name and case.when.matches(record):
            for name, value in case.expect.items():
                if name in truth.values:
                    _lock(truth, task.fields[name], name, _scalar(value), "edge_case", rng)
                    locked.add(name)
    for name, value in (expected or {}).items():
        if name in truth.values:
            _lock(truth, task.fields[name], name, _scalar(value), "expected", rng)
            locked.add(name)
    repaired = repair(truth.values, task.constraints, rng, locked)
    for name, value in repaired.items():
        if value != truth.values[name]:
            truth.values[name] = value
            truth.source[name] = "constraint"
    return truth


def _pair_latent(record: dict, rng: np.random.Generator) -> float:
    """A pair's latent preference for its ``a`` response (see the module doc)."""
    a, b = (record.get(f"{PAIR_QUALITY_KEY}{s}") for s in ("_a", "_b"))
    gap = float(a) - float(b) if isinstance(a, int | float) and isinstance(b, int | float) else 0
    return PAIR_SCALE * gap + PAIR_NOISE * float(rng.normal())


def pair_choice(spec: PairwiseField, latent: float) -> str:
    """The canonical answer a latent preference for ``a`` stands for (see the module doc)."""
    if spec.tie and abs(latent) < TIE_BAND:
        return "tie"
    side = "a" if latent > 0 else "b"
    return f"much_{side}" if spec.strength and abs(latent) > MUCH_BAND else side


def _lock(truth: ItemTruth, spec: Any, name: str, value: Any, source: str, rng) -> None:
    truth.values[name] = value
    truth.source[name] = source
    if isinstance(spec, LikertField):
        truth.latent[name] = float(value) + float(rng.uniform(-0.25, 0.25))


def draw_truth(study: Study, generations: pd.DataFrame, seed: tuple[int, ...]) -> Truth:
    """The truth of every item in ``generations`` (columns of ``raw.generations``).

    Each item has its own generator (seeded by ``seed`` and the item id), so an item's truth
    does not depend on which other items the study holds.
    """
    effects = level_effects(study, generations)
    polarity = {name: binary_polarity(task) for name, task in study.tasks.items()}
    hints = {name: hint_keys(task) for name, task in study.tasks.items()}
    base_rates = {
        name: {
            f: float(rng_for(seed, "base_rate", name, f).uniform(0.35, 0.65))
            for f in polarity[name]
        }
        for name in study.tasks
    }
    items: dict[str, ItemTruth] = {}
    for item_id, task_name, role, record, expected in zip(
        generations["item_id"],
        generations["task"],
        generations["role"],
        generations["record"],
        generations["expected"],
        strict=True,
    ):
        rng = rng_for(seed, "truth", item_id)
        items[str(item_id)] = _draw_item(
            study,
            task_name,
            record,
            role,
            expected if isinstance(expected, dict) else None,
            rng,
            effects.get(task_name, {}),
            polarity[task_name],
            base_rates[task_name],
            hints[task_name],
        )
    return Truth(items=items, effects=effects, polarity=polarity, hints=hints)
