"""Code generation cases of ``gold_tiers``: each task's correct solution, a bug or syntax
mutation of it, or (for adversarial tasks) the output that falls for the trap; each
(model, prompt, kind) at most once."""

from __future__ import annotations

import random

from ..draw import allocate
from ..text import join_paragraphs, parses
from .material import Case, CodeTask, Material, is_flawed

_INTROS = {
    "helix-8b-instruct": ["", ""],
    "tern-32b": ["Here's an implementation:", "Sure:", ""],
    "helix-70b-instruct": ["", "Here's a straightforward version:"],
}
"""What each model says before its code block."""


def _output(task: CodeTask, code: str, model: str, with_note: bool, rng: random.Random) -> str:
    fenced = f"```{task.lang}\n{code}\n```"
    parts = [rng.choice(_INTROS[model]), fenced]
    if with_note:
        parts.append(task.note)
    return join_paragraphs(parts)


def _mutated(task: CodeTask, rng: random.Random) -> tuple[str, str]:
    """The kind (``syntax`` or ``bug``) and code of a flawed, non-trap output."""
    if rng.random() < 0.25:
        old, new = task.syntax
        assert old in task.solution, task.prompts[0]
        code = task.solution.replace(old, new, 1)
        assert task.lang != "python" or not parses(code), task.prompts[0]
        return "syntax", code
    old, new = rng.choice(task.bugs)
    assert old in task.solution, (task.prompts[0], old)
    return "bug", task.solution.replace(old, new, 1)


def code_generation(m: Material, rng: random.Random) -> list[Case]:
    """The code generation cases, fewer per adversarial task, shuffled."""
    weights = [0.55 if t.adversarial else 1.0 for t in m.code_tasks]
    counts = allocate(m.cases_per_task["code_generation"], weights)
    cases = []
    for task, n in zip(m.code_tasks, counts, strict=True):
        assert task.lang != "python" or parses(task.solution), task.prompts[0]
        used: set[tuple[str, int, str]] = set()
        outputs: set[tuple[int, str]] = set()
        for _ in range(400):
            if len(used) == n:
                break
            model = rng.choice(m.models)
            pi = rng.randrange(len(task.prompts))
            flawed = is_flawed(m, rng, model, task.adversarial)
            if not flawed:
                kind, code = "correct", task.solution
            elif task.adversarial and task.bad is not None and rng.random() < 0.7:
                kind, code = "trap", task.bad
            else:
                kind, code = _mutated(task, rng)
            with_note = kind == "correct" and (task.adversarial or rng.random() < 0.45)
            output = _output(task, code, model, with_note, rng)
            if (model, pi, kind) in used or (pi, output) in outputs:
                continue
            used.add((model, pi, kind))
            outputs.add((pi, output))
            cases.append(
                {
                    "input": task.prompts[pi],
                    "output": output,
                    "model": model,
                    "flawed": flawed,
                    "adversarial": task.adversarial,
                    "domain": task.domain,
                }
            )
        assert len(used) == n, (task.prompts[0], len(used), n)
    rng.shuffle(cases)
    return cases
