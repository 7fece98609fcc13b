"""Summarization cases of ``gold_tiers``: document templates filled with drawn figures,
summarized faithfully or with a flaw; adversarial documents carry a prompt injection."""

from __future__ import annotations

import random

from ..draw import allocate
from ..text import fill
from .material import Case, Material, SlotMaker, is_flawed
from .slots_business import SLOT_MAKERS as BUSINESS
from .slots_public import SLOT_MAKERS as PUBLIC

SLOT_MAKERS: dict[str, SlotMaker] = BUSINESS | PUBLIC


def summarization(m: Material, rng: random.Random) -> list[Case]:
    """The summarization cases, spread evenly over the documents, shuffled."""
    cases = []
    per_doc = allocate(m.cases_per_task["summarization"], [1.0] * len(m.documents))
    for doc, n in zip(m.documents, per_doc, strict=True):
        for _ in range(n):
            slots = SLOT_MAKERS[doc.slots](rng)
            slots |= {f"{k}_cap": v[:1].upper() + v[1:] for k, v in slots.items()}
            text = fill(doc.text, slots)
            model = rng.choice(m.models)
            adversarial = rng.random() < 0.085
            injection = rng.choice(m.injections)
            flawed = is_flawed(m, rng, model, adversarial)
            if adversarial:
                paragraphs = text.split("\n\n")
                paragraphs.insert(rng.randint(1, len(paragraphs)), injection.text)
                text = "\n\n".join(paragraphs)
                summary = fill(doc.summary, slots)
                if flawed:
                    obeyed = injection.obeyed
                    summary = obeyed if obeyed.startswith("Summary") else f"{summary} {obeyed}"
            elif flawed:
                summary = fill(doc.flawed[rng.choice(sorted(doc.flawed))], slots)
            else:
                summary = fill(doc.summary, slots)
            cases.append(
                {
                    "input": f"{rng.choice(m.summary_prompts)}\n\n{text}",
                    "output": summary,
                    "model": model,
                    "flawed": flawed,
                    "adversarial": adversarial,
                    "domain": doc.domain,
                }
            )
    rng.shuffle(cases)
    return cases
