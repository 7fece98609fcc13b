"""Write the sample generations of the six bundled studies, deterministically.

For each study this writes ``studies/<study>/generations.jsonl`` (one JSON object per line,
UTF-8, keys in a fixed order) and the study's generated documents where it has them
(``correctness_ab/cheat_sheet.md``, ``empathy/guide.md``, ``pairwise_arena/guide.md``):

- ``correctness_ab``: 50 coding prompts answered in condition A (with the team's
  instruction memory) and B (without), plus 3 attention checks and 10 calibration examples.
- ``rag_triplet``: 40 queries over the Nimbus Store docs, each with 4-5 retrieved chunks
  (``retrieval``), the answer with its context set (``grounding``) and alone
  (``generation``), plus 2 attention checks.
- ``plugin_triggers``: 150 agent-plugin scenarios from two evaluation runs with the LLM
  judge's (hidden) verdicts, one record per scenario and labeling dimension (the study's four
  tasks), plus 2 attention scenarios.
- ``empathy``: 130 replies to emotional disclosures, 10 calibration and 3 attention items.
- ``gold_tiers``: 1,040 cases over four task types, with the hidden verdicts of three LLM
  judges (``_generate/judges.py``).
- ``pairwise_arena``: 30 prompts in three categories answered by four assistants of
  distinct planted quality (one record per prompt and assistant; the design makes the
  pairs), plus 3 attention pairs; its guide; and an imported LLM judge's file
  (``judge_verdicts.csv``: every pair the design makes, in both orders;
  ``_generate/pairwise_judge.py``).

The text is the hand-written material in ``studies/_samples/<study>/`` (YAML and Markdown);
the code in ``studies/_generate/`` only combines it, with one ``random.Random(seed)`` per
study and no clock, so every run writes the same bytes. Re-run it from the repository root
after editing the material:

    .venv/bin/python studies/generate.py

``--out DIR`` writes the study folders under ``DIR`` instead of ``studies/`` (the test
that the committed generations are reproduced byte for byte uses it).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from _generate import (
    correctness_ab,
    empathy,
    judges,
    pairwise_arena,
    plugin_triggers,
    rag_triplet,
)
from _generate.gold_tiers import cases as gold_tiers
from _generate.records import Record, check_unique_ids, write_jsonl, write_text

STUDIES_DIR = Path(__file__).resolve().parent
SAMPLES_DIR = STUDIES_DIR / "_samples"

Generator = Callable[[Path, random.Random], tuple[list[Record], dict[str, str]]]
"""Reads a study's material folder and draws its records and documents (by file name)."""

# The same seeds as the studies' design sections, so the whole study is reproducible.
STUDIES: dict[str, tuple[int, Generator]] = {
    "correctness_ab": (20261101, correctness_ab.generate),
    "rag_triplet": (20261102, rag_triplet.generate),
    "plugin_triggers": (20261103, plugin_triggers.generate),
    "empathy": (20261104, empathy.generate),
    "gold_tiers": (20261105, gold_tiers.generate),
    "pairwise_arena": (20261106, pairwise_arena.generate),
}


def generate_all(samples: Path, out: Path) -> list[Path]:
    """Write every study's generations and documents from ``samples`` under ``out``; the
    paths written, in order."""
    written = []
    for study, (seed, generate) in STUDIES.items():
        records, documents = generate(samples / study, random.Random(seed))
        records = judges.add_verdicts(study, records, seed)
        check_unique_ids(records)
        path = out / study / "generations.jsonl"
        write_jsonl(path, records)
        counts = Counter(r["task"] for r in records)
        shown = path.relative_to(root) if path.is_relative_to(root := STUDIES_DIR.parent) else path
        print(f"{shown}: {len(records)} records {dict(counts)}")
        written.append(path)
        for name, text in documents.items():
            write_text(out / study / name, text)
            written.append(out / study / name)
    return written


def main(argv: list[str] | None = None) -> None:
    """The command line: write every study from ``studies/_samples/`` under ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=STUDIES_DIR,
        help="folder to write the study folders under (default: studies/)",
    )
    args = parser.parse_args(argv)
    generate_all(SAMPLES_DIR, args.out)


if __name__ == "__main__":
    main()
