"""The LLM judge's (hidden) verdict on a ``plugin_triggers`` scenario: the truth of the
scenario with realistic noise, and a short rationale that says what the judge saw."""

from __future__ import annotations

import random
from typing import Any


def judge(rng: random.Random, truth: dict[str, Any], scenario: dict[str, str]) -> dict[str, Any]:
    """The judge's ``judge_*`` fields for one scenario.

    ``truth`` holds whether the right component ran (``trigger``), whether the code parses
    (``code_valid``), ``correct``, ``completeness`` (1-5) and whether the invocation is
    ``visible`` in the captures. ``scenario`` holds the expected and triggered component,
    the trigger complexity, the variant, whether the answer has code, and the variant's note
    (what is wrong or missing).
    """
    expected, component = scenario["expected"], scenario["component"]
    variant, note = scenario["variant"], scenario["note"]
    flip_trigger = rng.random() < (0.14 if scenario["complexity"] == "edge_case" else 0.06)
    flip_code = scenario["has_code"] == "yes" and rng.random() < 0.07
    flip_correct = rng.random() < 0.12
    trigger = truth["trigger"] != flip_trigger
    code_valid = truth["code_valid"] != flip_code
    correct = truth["correct"] != flip_correct
    completeness = min(5, max(1, truth["completeness"] + rng.choice([-1, 0, 0, 0, 0, 1])))
    flips = flip_trigger + flip_code + flip_correct
    confidence = rng.uniform(0.74, 0.97) if flips == 0 else rng.uniform(0.5, 0.78)
    if not truth["visible"]:
        confidence = min(confidence, rng.uniform(0.45, 0.62))

    short = expected.split(":", 1)[1]
    if not truth["visible"]:
        first = f"No component invocation is visible; assuming {short} handled the request."
    elif trigger:
        first = f"The captures show {short} handling the request as expected."
    elif truth["trigger"]:
        first = f"The captures suggest a different component than {short} may have run."
    else:
        first = f"{component} ran instead of {expected}."
    if not code_valid:
        detail = f" ({note})" if variant == "broken" else ""
        second = f"A code block in the answer does not parse{detail}."
    elif not correct:
        wrong_note = variant == "wrong" or (variant == "misfire" and not truth["correct"])
        second = f"Technically inaccurate: {note}." if wrong_note else "Contains an inaccuracy."
    elif completeness <= 3:
        missing = variant in ("incomplete", "misfire")
        second = f"Incomplete: {note}." if missing else "Leaves part of the request unanswered."
    else:
        second = "The answer is accurate and covers the request."
    return {
        "judge_triggerCorrect": trigger,
        "judge_codeParses": code_valid,
        "judge_codeRuns": code_valid,
        "judge_technicallyCorrect": correct,
        "judge_completenessScore": completeness,
        "judge_confidence": round(confidence, 2),
        "judge_rationale": f"{first} {second}",
    }


ATTENTION_VERDICT: dict[str, Any] = {
    "judge_codeParses": True,
    "judge_codeRuns": True,
    "judge_technicallyCorrect": False,
    "judge_completenessScore": 1,
    "judge_confidence": 0.96,
    "judge_rationale": "The answer has nothing to do with the request.",
}
"""The judge's verdict on an attention scenario, besides ``judge_triggerCorrect`` (which
says whether the component that ran is the expected one)."""
