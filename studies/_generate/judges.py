"""Verdicts of three LLM judges of different quality on the gold_tiers sample cases.

Each verdict is computed from the record alone (its id, task, ``uncertainty`` and
``adversarial`` keys) and a generator seeded by the study seed, the record id and the judge,
so the verdicts of a case do not depend on which other cases exist or in which order they
were built. ``studies/generate.py`` calls :func:`add_verdicts` on every record it writes.

- ``judge_a`` (good): reads the case's difficulty signal with little noise; it gives a
  confidence (``judge_a_confidence``). Its keys are listed first among the hidden keys, so
  the simulated annotators' truth follows it (see ``raterlab.simulate.truth``, hints).
- ``judge_b`` (lenient): judge_a's verdict, but half of its negative verdicts turn positive
  and Likert scores go up a point more often than not.
- ``judge_c`` (noisy): judge_a's verdict with a third of the binary verdicts flipped, Likert
  scores off by up to two points, and now and then no usable verdict ("unsure").
"""

from __future__ import annotations

import math
import random
from typing import Any

JUDGED_STUDY = "gold_tiers"
JUDGES = ("judge_a", "judge_b", "judge_c")
FIELDS: dict[str, tuple[str, ...]] = {
    "factual_qa": ("correct", "hallucination"),
    "summarization": ("faithfulness", "coverage"),
    "code_generation": ("runs", "correct", "quality"),
    "rag_synthesis": ("grounded", "complete", "cites_sources"),
}
LIKERT = {"faithfulness", "coverage", "quality"}
NEGATIVE = {"hallucination"}
"""Binary fields where 1 is the bad outcome."""


def _rng(seed: int, record_id: str, judge: str) -> random.Random:
    return random.Random(f"{seed}:{record_id}:{judge}")


def _good(record: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], float]:
    """judge_a: a quality read off the case (``1 - uncertainty``, lower if adversarial) with
    a little noise per field, and its confidence (higher when the case is clear-cut)."""
    quality = 1 - float(record["uncertainty"]) - (0.1 if record["adversarial"] else 0.0)
    verdicts: dict[str, Any] = {}
    for field in FIELDS[record["task"]]:
        q = quality + rng.gauss(0, 0.12)
        if field in LIKERT:
            verdicts[field] = min(5, max(1, round(1 + 4.4 * q)))
        else:
            ok = int(q > 0.42)
            verdicts[field] = 1 - ok if field in NEGATIVE else ok
    margin = abs(quality - 0.42)
    confidence = 0.55 + 0.4 * (1 - math.exp(-6 * margin)) + rng.uniform(-0.04, 0.04)
    return verdicts, round(min(0.99, max(0.5, confidence)), 2)


def _lenient(good: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field, value in good.items():
        if field in LIKERT:
            out[field] = min(5, value + (1 if rng.random() < 0.6 else 0))
        else:
            bad = 1 if field in NEGATIVE else 0
            out[field] = (1 - bad) if value == bad and rng.random() < 0.5 else value
    return out


def _noisy(good: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field, value in good.items():
        if rng.random() < 0.04:
            out[field] = "unsure"
        elif field in LIKERT:
            out[field] = min(5, max(1, value + rng.choice([-2, -1, -1, 0, 0, 1, 1, 2])))
        else:
            out[field] = 1 - value if rng.random() < 0.33 else value
    return out


def add_verdicts(study: str, records: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """``records`` with the judges' verdict keys (``<judge>_<field>``) appended to every case
    of :data:`JUDGED_STUDY`; other studies' records are returned unchanged."""
    if study != JUDGED_STUDY:
        return records
    out = []
    for record in records:
        good, confidence = _good(record, _rng(seed, record["id"], "judge_a"))
        verdicts = {
            "judge_a": good,
            "judge_b": _lenient(good, _rng(seed, record["id"], "judge_b")),
            "judge_c": _noisy(good, _rng(seed, record["id"], "judge_c")),
        }
        extra: dict[str, Any] = {}
        for judge in JUDGES:
            extra |= {f"{judge}_{field}": value for field, value in verdicts[judge].items()}
        extra["judge_a_confidence"] = confidence
        out.append({**record, **extra})
    return out
