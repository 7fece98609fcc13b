"""``pairwise_arena``: 30 prompts in three categories, each answered by four assistants of
distinct planted quality, plus 3 attention pairs; the annotators' guide (``guide.md``); and
an imported judge's verdicts on every pair in both orders (``judge_verdicts.csv``).

An answer is put together from the prompt's material (``_samples/pairwise_arena/``): the
assistant's opener, each of the prompt's key points with probability ``quality``, the
prompt's mistake with probability ``0.6 * (1 - quality)``, a filler sentence for a chatty
assistant, and a closer. Its hidden ``quality`` is the share of key points it covers, less
0.5 for the mistake: what the simulated raters' preferences follow. An attention pair sets a
complete answer against an answer to another question (``expected``: the complete one).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from .material import read_material, typed
from .pairwise_judge import judge_file
from .records import Record, make_record
from .text import join_paragraphs

TASK = "preference"
MISTAKE_RATE = 0.6
MISTAKE_COST = 0.5


@dataclass(frozen=True)
class System:
    name: str
    quality: float
    style: str


@dataclass(frozen=True)
class Prompt:
    category: str
    prompt: str
    points: tuple[str, ...]
    mistake: str


@dataclass(frozen=True)
class Material:
    systems: tuple[System, ...]
    openers: dict[str, tuple[str, ...]]
    closers: dict[str, tuple[str, ...]]
    fillers: tuple[str, ...]
    off_topic: tuple[str, ...]
    prompts: tuple[Prompt, ...]


def _answer(m: Material, p: Prompt, s: System, rng: random.Random) -> tuple[str, float]:
    """One assistant's response to one prompt and its planted quality."""
    covered = [point for point in p.points if rng.random() < s.quality]
    wrong = rng.random() < MISTAKE_RATE * (1 - s.quality)
    body = [*covered, *([p.mistake] if wrong else [])]
    rng.shuffle(body)
    filler = [rng.choice(m.fillers)] if s.style == "chatty" else []
    parts = [
        rng.choice(m.openers[s.style]),
        *filler,
        " ".join(body),
        rng.choice(m.closers[s.style]),
    ]
    quality = len(covered) / len(p.points) - (MISTAKE_COST if wrong else 0.0)
    return join_paragraphs([part for part in parts if part]), round(quality, 3)


def _prompt_records(m: Material, i: int, p: Prompt, rng: random.Random) -> list[Record]:
    """The four assistants' records of prompt ``i``, every response text different."""
    answers: dict[str, tuple[str, float]] = {}
    for s in m.systems:
        text, quality = _answer(m, p, s, rng)
        while text in {t for t, _ in answers.values()}:
            text, quality = _answer(m, p, s, rng)
        answers[s.name] = (text, quality)
    pid = f"p{i:02d}"
    return [
        make_record(
            f"{pid}-{name}",
            TASK,
            {
                "prompt_id": pid,
                "category": p.category,
                "prompt": p.prompt,
                "system": name,
                "response": text,
                "quality": quality,
            },
        )
        for name, (text, quality) in answers.items()
    ]


def _attention(m: Material, i: int, p: Prompt, off_topic: str) -> Record:
    """An attention pair: the off-topic answer is ``a`` (its name sorts first), the complete
    answer ``b``, which is the known answer."""
    fields = {
        "category": p.category,
        "prompt": p.prompt,
        "prompt_id": f"att{i}",
        "system_a": "attention-offtopic",
        "system_b": "attention-reference",
        "response_a": off_topic,
        "response_b": join_paragraphs([" ".join(p.points)]),
        "quality_a": 0.0,
        "quality_b": 1.0,
    }
    return make_record(f"att{i}", TASK, fields, role="attention", expected={"preference": "b"})


def build(m: Material, rng: random.Random) -> list[Record]:
    """Every prompt's four answers, then the attention pairs."""
    records: list[Record] = []
    for i, p in enumerate(m.prompts, start=1):
        records += _prompt_records(m, i, p, rng)
    picked = rng.sample(range(len(m.prompts)), len(m.off_topic))
    for i, (at, text) in enumerate(zip(picked, m.off_topic, strict=True), start=1):
        records.append(_attention(m, i, m.prompts[at], text))
    return records


STUDY_FILE = Path(__file__).resolve().parents[1] / "pairwise_arena.yaml"
JUDGE_SEED = 20261107


def generate(folder: Path, rng: random.Random) -> tuple[list[Record], dict[str, str]]:
    """The study's records, its guide (copied from the material folder) and its imported
    judge's file (:mod:`.pairwise_judge`)."""
    m = typed(Material, read_material(folder))
    records = build(m, rng)
    return records, {
        "guide.md": (folder / "guide.md").read_text(encoding="utf-8"),
        "judge_verdicts.csv": judge_file(STUDY_FILE, records, JUDGE_SEED),
    }
