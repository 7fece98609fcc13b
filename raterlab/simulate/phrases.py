"""Short, plausible free text for simulated returns, composed from small phrase banks.

Which bank a text or list field draws from is decided by words in its name and description
(``code``, ``inaccura``, ``missing``, ``component``...), so any study gets fitting text
without naming it. Nothing here is filler: every phrase is something a rater might write.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from raterlab.protocol import LIST_SEPARATOR, BinaryField, LikertField

LOW_REASONS = (
    "misses the main point of the request",
    "states something that is plainly wrong",
    "ignores an explicit instruction in the prompt",
    "would leave the user worse off than before",
    "is mostly generic filler with nothing specific",
    "contradicts itself halfway through",
    "answers a different question than the one asked",
    "skips the part the user actually cared about",
)
HIGH_REASONS = (
    "addresses exactly what was asked",
    "accurate and specific, nothing to fix",
    "clear, complete and well structured",
    "follows the guide on every point I checked",
    "hard to improve on",
    "precise, and the tone fits the situation",
    "covers the edge case I was looking for",
)
MIDDLE_REMARKS = (
    "Mostly fine, one step is vague.",
    "Correct overall but the example is thin.",
    "Reasonable, though the wording is a bit stiff.",
    "Would accept with small edits.",
    "Good start, stops before the tricky part.",
    "Fine, but longer than it needs to be.",
    "Hard to judge without running it; looks plausible.",
    "Borderline between two scores, went with the lower one.",
    "Right idea, details slightly off.",
)
NEGATIVE_REMARKS = (
    "Checked twice; the main claim does not hold.",
    "The key detail is wrong, see the reference.",
    "Not what the user asked for.",
)
POSITIVE_REMARKS = (
    "Clean answer, checked against the reference.",
    "Nothing to add.",
    "Solid; matches the guide.",
)
SKIP_REASONS = (
    "The reference text is cut off, cannot tell.",
    "Not enough context to decide.",
    "The captures are truncated before the relevant step.",
    "Outside what I can judge reliably.",
    "Two readings are possible; leaving this one to someone else.",
)
LIST_BANKS: dict[str, tuple[str, ...]] = {
    "code": (
        "missing import",
        "undefined variable",
        "unclosed bracket in the second block",
        "calls a method that does not exist",
        "wrong indentation",
        "hard-coded path",
        "off-by-one in the loop",
        "uses a deprecated API",
        "shell command lacks quoting",
    ),
    "inaccura": (
        "wrong default value",
        "misnames the config option",
        "claims the call is synchronous",
        "outdated version number",
        "confuses the two flags",
        "wrong limit quoted",
        "describes the old behaviour",
    ),
    "missing": (
        "no example",
        "skips the install step",
        "no error handling",
        "does not mention permissions",
        "no way to verify the result",
        "leaves out the config file",
        "no rollback step",
    ),
    "": ("unclear wording", "incomplete step", "wrong detail", "needs an example"),
}
TEXT_BANKS: dict[str, tuple[str, ...]] = {
    "component": (
        "a different command of the same plugin",
        "none, the model answered directly",
        "the generic fallback handler",
        "a sibling skill, not the expected one",
        "an agent from another plugin",
    ),
}
LIST_KEYWORDS = (("code", "code"), ("inaccura", "inaccura"), ("incorrect", "inaccura"))


def _pick(bank: tuple[str, ...], rng: np.random.Generator) -> str:
    return bank[int(rng.integers(len(bank)))]


def list_value(name: str, description: str, rng: np.random.Generator) -> str:
    """One to three short items for a list field, joined with ``; ``."""
    words = f"{name} {description}".lower()
    key = next((k for word, k in LIST_KEYWORDS if word in words), None)
    if key is None:
        key = "missing" if "missing" in words else ""
    bank = LIST_BANKS[key]
    n = int(rng.choice([1, 1, 2, 2, 3]))
    picked = rng.choice(len(bank), size=min(n, len(bank)), replace=False)
    return f"{LIST_SEPARATOR} ".join(bank[i] for i in sorted(picked))


def text_value(name: str, description: str, rng: np.random.Generator) -> str:
    """A short text for a text field that is not a note on scores (e.g. a component name)."""
    words = f"{name} {description}".lower()
    for keyword, bank in TEXT_BANKS.items():
        if keyword in words:
            return _pick(bank, rng)
    return _pick(MIDDLE_REMARKS, rng)


def skip_reason(rng: np.random.Generator) -> str:
    return _pick(SKIP_REASONS, rng)


def score_note(extremes: list[tuple[str, Any, Any]], rng: np.random.Generator) -> str:
    """A note explaining extreme answers: ``[(field, value, spec), ...]``."""
    low = [(n, v) for n, v, s in extremes if _is_low(v, s)]
    high = [(n, v) for n, v, s in extremes if not _is_low(v, s)]
    sentences = []
    for group, bank in ((low, LOW_REASONS), (high, HIGH_REASONS)):
        if not group:
            continue
        named = " and ".join(f"{n.replace('_', ' ')} {v}" for n, v in group[:2])
        sentences.append(f"{named[0].upper()}{named[1:]}: {_pick(bank, rng)}.")
    return " ".join(sentences)


def _is_low(value: Any, spec: Any) -> bool:
    if isinstance(spec, LikertField):
        return value <= (spec.min + spec.max) / 2
    if isinstance(spec, BinaryField):
        return value == 0
    return value in ("no", "false")


def comment(values: dict[str, Any], specs: dict[str, Any], rng: np.random.Generator) -> str:
    """An optional remark, in the direction of the rater's own answers."""
    scores = []
    for name, value in values.items():
        spec = specs.get(name)
        if isinstance(spec, LikertField) and isinstance(value, int):
            scores.append((value - spec.min) / (spec.max - spec.min))
        elif isinstance(spec, BinaryField) and isinstance(value, int):
            scores.append(float(value))
    mean = float(np.mean(scores)) if scores else 0.5
    if mean < 0.3:
        return _pick(NEGATIVE_REMARKS, rng)
    if mean > 0.85:
        return _pick(POSITIVE_REMARKS, rng)
    return _pick(MIDDLE_REMARKS, rng)
