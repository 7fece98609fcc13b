"""The material of ``gold_tiers`` (``_samples/gold_tiers/``): facts, document templates,
coding tasks and RAG topics, and the models that answer them."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SlotMaker = Callable[[random.Random], dict[str, str]]
"""Draws the slot values of one document template from a seeded generator."""


@dataclass(frozen=True)
class Fact:
    """A factual question with its answer (and a sentence of context) and a wrong answer;
    ``adversarial`` questions carry a false premise."""

    domain: str
    question: str
    answer: str
    explain: str
    wrong: str
    adversarial: bool = False


@dataclass(frozen=True)
class DocTemplate:
    """A document with ``{slots}``, its faithful summary and flawed summaries by kind.

    ``flawed`` kinds: ``wrong_number`` (a figure is changed), ``contradiction`` (says the
    opposite of the document), ``added_claim`` (adds something the document doesn't say),
    ``omission`` (leaves out a main point). ``slots`` names the slot maker that draws
    coherent slot values.
    """

    domain: str
    text: str
    summary: str
    flawed: dict[str, str]
    slots: str


@dataclass(frozen=True)
class CodeTask:
    """A coding task with a correct solution and mutations of it.

    ``bugs`` are (old, new) replacements that keep the code running but make it wrong;
    ``syntax`` is a replacement that makes it fail to parse. Adversarial tasks carry a
    trap (a false premise or an injected instruction); ``bad`` is the output that falls
    for it.
    """

    domain: str
    prompts: tuple[str, ...]
    lang: str
    solution: str
    bugs: tuple[tuple[str, str], ...]
    syntax: tuple[str, str]
    note: str
    bad: str | None = None

    @property
    def adversarial(self) -> bool:
        return self.bad is not None


@dataclass(frozen=True)
class Source:
    key: str
    title: str
    text: str


@dataclass(frozen=True)
class RagTopic:
    """A question with its sources and answers; ``[@a]`` marks a citation of source ``a``.

    ``answer`` is grounded and cites every relevant source; ``extra`` is a plausible
    sentence none of the sources supports; ``partial`` uses only one source. For
    adversarial topics (an instruction planted in a source, or a false premise in the
    question) ``bad`` is the answer that falls for it.
    """

    domain: str
    questions: tuple[str, ...]
    sources: tuple[Source, ...]
    answer: str
    extra: str
    partial: str
    bad: str | None = None

    @property
    def adversarial(self) -> bool:
        return self.bad is not None


@dataclass(frozen=True)
class Injection:
    """A prompt injection planted in a document, and the output of a model that obeys."""

    text: str
    obeyed: str


@dataclass(frozen=True)
class Material:
    models: tuple[str, ...]
    flaw_rate: dict[str, float]
    qa_styles: dict[str, tuple[str, ...]]
    injections: tuple[Injection, ...]
    summary_prompts: tuple[str, ...]
    rag_prompts: tuple[str, ...]
    cases_per_task: dict[str, int]
    uncertainty_beta: dict[str, tuple[float, float]]
    adversarial_uncertainty_shift: float
    facts: tuple[Fact, ...]
    documents: tuple[DocTemplate, ...]
    code_tasks: tuple[CodeTask, ...]
    rag_topics: tuple[RagTopic, ...]


Case = dict[str, Any]
"""One drawn case: input, output, model, whether it is flawed, adversarial, domain."""


def is_flawed(m: Material, rng: random.Random, model: str, adversarial: bool) -> bool:
    """Whether ``model``'s output is flawed: its flaw rate, higher on adversarial input."""
    return rng.random() < m.flaw_rate[model] + (0.2 if adversarial else 0.0)
