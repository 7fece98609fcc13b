"""All ``gold_tiers`` records: the cases of the four task types, numbered per type, with
the model's uncertainty drawn from a Beta distribution (higher for flawed outputs)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from ..material import read_material, typed
from ..records import Record, make_record
from .code_generation import code_generation
from .factual_qa import factual_qa
from .material import Case, Material
from .rag_synthesis import rag_synthesis
from .summarization import summarization

_TASKS: list[tuple[str, str, Callable[[Material, random.Random], list[Case]]]] = [
    ("factual_qa", "fq", factual_qa),
    ("summarization", "su", summarization),
    ("code_generation", "cg", code_generation),
    ("rag_synthesis", "rs", rag_synthesis),
]
"""Task type, case id prefix and the function drawing its cases, in generation order."""


def _uncertainty(m: Material, rng: random.Random, flawed: bool, adversarial: bool) -> float:
    u = rng.betavariate(*m.uncertainty_beta["flawed" if flawed else "sound"])
    if adversarial:
        u += m.adversarial_uncertainty_shift
    return round(min(max(u, 0.0), 1.0), 3)


def build(m: Material, rng: random.Random) -> list[Record]:
    """The study's records, task type by task type."""
    records: list[Record] = []
    for task, prefix, draw in _TASKS:
        cases = draw(m, rng)
        assert len(cases) == m.cases_per_task[task], (task, len(cases))
        for i, case in enumerate(cases, start=1):
            fields = {
                "case_id": f"{prefix}-{i:04d}",
                "input": case["input"],
                "output": case["output"],
                "model": case["model"],
                "uncertainty": _uncertainty(m, rng, case["flawed"], case["adversarial"]),
                "adversarial": case["adversarial"],
                "domain": case["domain"],
            }
            records.append(make_record(f"{prefix}-{i:04d}", task, fields))
    return records


def generate(folder: Path, rng: random.Random) -> tuple[list[Record], dict[str, str]]:
    """The study's records (it has no generated documents)."""
    return build(typed(Material, read_material(folder)), rng), {}
