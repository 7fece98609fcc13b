"""RAG synthesis cases of ``gold_tiers``: a question over sources in a drawn order (so the
citation numbers vary), answered soundly or with a flaw (unsupported, miscited, partial,
uncited, or the trap of an adversarial topic)."""

from __future__ import annotations

import random
import re
from itertools import permutations

from ..draw import allocate
from .material import Case, Material, RagTopic, is_flawed

_CITATION = re.compile(r"\[@([a-z])\]")


def _render(text: str, numbers: dict[str, int]) -> str:
    """``text`` with every ``[@key]`` citation as ``[n]``, the source's number."""
    return _CITATION.sub(lambda match: f"[{numbers[match.group(1)]}]", text)


def _uncite(text: str) -> str:
    """``text`` without its citations."""
    return re.sub(r"\s+([.,;)])", r"\1", _CITATION.sub("", text)).replace("  ", " ")


def _answer(topic: RagTopic, kind: str, numbers: dict[str, int]) -> str:
    if kind == "trap":
        assert topic.bad is not None
        return _render(topic.bad, numbers)
    if kind == "unsupported":
        return f"{_render(topic.answer, numbers)} {topic.extra}"
    if kind == "miscited":
        keys = sorted(numbers)
        shifted = {k: numbers[keys[(i + 1) % len(keys)]] for i, k in enumerate(keys)}
        return _render(topic.answer, shifted)
    if kind == "partial":
        return _render(topic.partial, numbers)
    if kind == "uncited":
        return _uncite(topic.answer)
    return _render(topic.answer, numbers)


def rag_synthesis(m: Material, rng: random.Random) -> list[Case]:
    """The RAG synthesis cases, fewer per adversarial topic, each (input, output) unique,
    shuffled."""
    weights = [0.55 if t.adversarial else 1.0 for t in m.rag_topics]
    counts = allocate(m.cases_per_task["rag_synthesis"], weights)
    cases = []
    for topic, n in zip(m.rag_topics, counts, strict=True):
        orders = list(permutations(topic.sources))
        seen: set[tuple[str, str]] = set()
        while len(seen) < n:
            order = rng.choice(orders)
            numbers = {s.key: i for i, s in enumerate(order, start=1)}
            question = rng.choice(topic.questions)
            model = rng.choice(m.models)
            flawed = is_flawed(m, rng, model, topic.adversarial)
            kind = "good"
            if flawed:
                kind = (
                    "trap"
                    if topic.adversarial and rng.random() < 0.75
                    else rng.choice(["unsupported", "miscited", "partial", "uncited"])
                )
            answer = _answer(topic, kind, numbers)
            sources = "\n\n".join(f"[{i}] {s.title}\n{s.text}" for i, s in enumerate(order, 1))
            prompt = rng.choice(m.rag_prompts)
            text = f"{prompt}\n\nQuestion: {question}\n\nSources:\n{sources}"
            if (text, answer) in seen:
                continue
            seen.add((text, answer))
            cases.append(
                {
                    "input": text,
                    "output": answer,
                    "model": model,
                    "flawed": flawed,
                    "adversarial": topic.adversarial,
                    "domain": topic.domain,
                }
            )
    rng.shuffle(cases)
    return cases
