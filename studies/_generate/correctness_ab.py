"""``correctness_ab``: 50 coding prompts answered in condition A (with the team's instruction
memory) and B (without), 3 attention checks and 10 calibration examples; and the cheat sheet
of the team's rules (``cheat_sheet.md``).

A response is assembled from the prompt's pieces (``_samples/correctness_ab/prompts.yaml``):
an opener, the core answer (sometimes the ``wrong`` one), for each applicable rule its
``follow`` or ``lapse`` paragraph (condition A follows the rules more often and sometimes
names them), and a closer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .material import read_material, typed
from .records import Record, make_record
from .text import fill, join_paragraphs


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str


@dataclass(frozen=True)
class CodingPrompt:
    category: str
    prompt: str
    rules: tuple[str, ...]
    core: str
    follow: dict[str, str]
    lapse: dict[str, str]
    wrong: str | None = None


@dataclass(frozen=True)
class CalibrationExample:
    """A pre-scored training example: given first, scored against ``score``."""

    category: str
    prompt: str
    response: str
    rules: tuple[str, ...]
    score: int


@dataclass(frozen=True)
class Material:
    model: str
    category_titles: dict[str, str]
    rules: dict[str, tuple[Rule, ...]]
    openers: tuple[str, ...]
    closers: tuple[str, ...]
    memory_notes: tuple[str, ...]
    prompts: tuple[CodingPrompt, ...]
    attention: tuple[CodingPrompt, ...]
    calibration: tuple[CalibrationExample, ...]


def _response(m: Material, p: CodingPrompt, condition: str, rng: random.Random) -> str:
    p_follow = 0.82 if condition == "A" else 0.3
    core = p.wrong if p.wrong is not None and rng.random() < 0.3 else p.core
    parts = [rng.choice(m.openers), core]
    for rule in p.rules:
        if rng.random() < p_follow:
            text = p.follow[rule]
            if condition == "A" and rng.random() < 0.35:
                note = rng.choice(m.memory_notes).format(rule=rule)
                text += ("\n\n" if text.endswith("```") else " ") + note
        else:
            text = p.lapse[rule]
        parts.append(text)
    parts.append(rng.choice(m.closers))
    return join_paragraphs(parts)


def build(m: Material, rng: random.Random) -> list[Record]:
    """The study's records: both conditions of every prompt, then attention, calibration."""
    records: list[Record] = []

    def add(pid: str, p: CodingPrompt, condition: str, response: str, **kw: Any) -> None:
        fields = {
            "prompt_id": pid,
            "category": p.category,
            "prompt": p.prompt,
            "response": response,
            "condition": condition,
            "model": m.model,
            "rules": list(p.rules),
        }
        records.append(make_record(f"{pid}-{condition}", "correctness", fields, **kw))

    for i, p in enumerate(m.prompts, start=1):
        responses = {c: _response(m, p, c, rng) for c in ("A", "B")}
        while responses["B"] == responses["A"]:
            responses["B"] = _response(m, p, "B", rng)
        for condition, response in responses.items():
            add(f"p{i:03d}", p, condition, response)
    for i, p in enumerate(m.attention, start=1):
        add(
            f"att{i}",
            p,
            rng.choice("AB"),
            p.core,
            role="attention",
            expected={"correctness": 1},
        )
    for i, ex in enumerate(m.calibration, start=1):
        fields = {
            "prompt_id": f"cal{i:02d}",
            "category": ex.category,
            "prompt": ex.prompt,
            "response": ex.response,
            "condition": "AB"[i % 2],
            "model": m.model,
            "rules": list(ex.rules),
        }
        records.append(
            make_record(
                f"cal{i:02d}",
                "correctness",
                fields,
                role="calibration",
                expected={"correctness": ex.score},
            )
        )
    return records


def cheat_sheet(folder: Path, m: Material) -> str:
    """``cheat_sheet.md``: the template in ``folder`` with the rules, by category, at
    ``{rules}`` (the template carries the protocol's rubric and edge cases word for word)."""
    lines: list[str] = []
    for category, rules in m.rules.items():
        lines += [f"## {m.category_titles[category]}", ""]
        for rule in rules:
            lines.append(f"- **`{rule.id}`**: {rule.title}. {rule.text}")
        lines.append("")
    template = (folder / "cheat_sheet.md").read_text(encoding="utf-8")
    return fill(template, {"rules": "\n".join(lines)})


def generate(folder: Path, rng: random.Random) -> tuple[list[Record], dict[str, str]]:
    """The study's records, and its documents by file name (the cheat sheet)."""
    m = typed(Material, read_material(folder))
    return build(m, rng), {"cheat_sheet.md": cheat_sheet(folder, m)}
