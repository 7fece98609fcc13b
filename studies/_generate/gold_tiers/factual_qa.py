"""Factual QA cases of ``gold_tiers``: every question answered by each model, in the model's
style (terse, explained or hedged) when sound, the wrong answer when flawed."""

from __future__ import annotations

import random

from .material import Case, Material, is_flawed

_HEDGE = " (I'm fairly confident, but worth double-checking.)"


def factual_qa(m: Material, rng: random.Random) -> list[Case]:
    """The factual QA cases, shuffled; no two outputs of one question are the same."""
    cases = []
    for fact in m.facts:
        outputs: set[str] = set()
        for model in m.models:
            flawed = is_flawed(m, rng, model, fact.adversarial)
            if flawed:
                options = [fact.wrong, fact.wrong + _HEDGE]
            else:
                styled = {
                    "terse": fact.answer,
                    "explained": f"{fact.answer} {fact.explain}",
                    "hedged": fact.answer + _HEDGE,
                }
                options = [styled[s] for s in m.qa_styles[model]]
            everything = [fact.answer, f"{fact.answer} {fact.explain}", fact.answer + _HEDGE]
            fresh = (
                [o for o in options if o not in outputs]
                or [o for o in (everything if not flawed else options) if o not in outputs]
                or options
            )
            output = rng.choice(fresh)
            outputs.add(output)
            cases.append(
                {
                    "input": fact.question,
                    "output": output,
                    "model": model,
                    "flawed": flawed,
                    "adversarial": fact.adversarial,
                    "domain": fact.domain,
                }
            )
    rng.shuffle(cases)
    return cases[: m.cases_per_task["factual_qa"]]
