"""An imported LLM judge of ``pairwise_arena``: ``judge_verdicts.csv``, a judge file for
``raterlab judges import pairwise_arena studies/pairwise_arena/judge_verdicts.csv``.

The judge (``arena_judge``) sees every pair the design makes in both orders (one run). Per
verdict, seeded by the study seed, the pair and the order: with probability :data:`LEFT_PULL`
it picks the left answer whatever it says (a position bias the report flags); otherwise with
probability :data:`SKILL` it picks the answer of higher planted ``quality`` (a tie when the
two are within :data:`TIE_MARGIN`), else left, right or tie at random. About four verdicts in
five name the better answer. The pairs are those of the study's design
(:func:`raterlab.design.pairs.pair_rows`, from the study file), so the file judges exactly
the study's items.
"""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

from raterlab.design.pairs import pair_rows
from raterlab.protocol import load_study

from .records import Record

JUDGE = "arena_judge"
FIELD = "preference"
LEFT_PULL = 0.2
SKILL = 0.85
TIE_MARGIN = 0.05
COLUMNS = ("item_id", "judge", "field", "left_system", "right_system", "value")


def _verdict(quality_left: float, quality_right: float, rng: random.Random) -> str:
    """What the judge answers, as it saw the pair."""
    if rng.random() < LEFT_PULL:
        return "left"
    if rng.random() < SKILL:
        if abs(quality_left - quality_right) < TIE_MARGIN:
            return "tie"
        return "left" if quality_left > quality_right else "right"
    return rng.choice(("left", "right", "tie"))


def judge_file(study_file: Path, records: list[Record], seed: int) -> str:
    """The judge file's text (CSV, ``\\n`` line ends): every pair item in both orders."""
    study = load_study(study_file)
    task = next(iter(study.tasks))
    rows = [{"record": r, "line": n} for n, r in enumerate(records, 1) if r.get("role") is None]
    pairs, problems = pair_rows(study, task, rows)
    assert not problems, problems
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for pair in pairs:
        record, item = pair["record"], pair["item_id"]
        sides = {record["system_a"]: record["quality_a"], record["system_b"]: record["quality_b"]}
        a, b = record["system_a"], record["system_b"]
        for left, right in ((a, b), (b, a)):
            rng = random.Random(f"{seed}:{item}:{left}")
            value = _verdict(sides[left], sides[right], rng)
            writer.writerow((item, JUDGE, FIELD, left, right, value))
    return out.getvalue()
