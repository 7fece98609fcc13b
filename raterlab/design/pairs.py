"""Pair items of a pairwise task, made from its generations (one record per prompt and system).

Per prompt, the pairs are every pair of its systems (``pairs: all``), or ``pairs: {budget:
N}``: a random spanning tree of its systems (each system, in a shuffled order, paired with a
random one before it) plus random extra pairs, N in all, so every prompt's comparison graph,
and so the study's, is connected. The draw is seeded by ``design.seed``, the task and the
prompt, so a prompt's pairs do not depend on the other prompts.

A pair item's id is ``<prompt>:<system_a>~<system_b>`` with ``system_a < system_b``; its
record holds the shared keys once and each system's keys suffixed ``_a`` / ``_b``
(:func:`raterlab.protocol.pairwise.pair_keys`).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import numpy as np

from raterlab.hashing import stable_int
from raterlab.protocol import Study, Task
from raterlab.protocol.pairwise import LEFT, RIGHT, PairBudget, shared_keys, system_keys

PAIR_STREAM = 7
"""The design's random stream for pair selection (assignment uses 2, blinding 3)."""


def pair_item_id(prompt: object, system_a: str, system_b: str) -> str:
    """``<prompt>:<system_a>~<system_b>`` (``system_a`` the alphabetically first)."""
    first, second = sorted((str(system_a), str(system_b)))
    return f"{prompt}:{first}~{second}"


def pair_systems(item_id: str) -> tuple[str, str] | None:
    """The two systems a pair item's id names (:func:`pair_item_id`), or ``None`` for an id
    not of that form (an attention or calibration pair).

    >>> pair_systems("p01:alpha~beta"), pair_systems("att1")
    (('alpha', 'beta'), None)
    """
    _, colon, systems = item_id.rpartition(":")
    first, tilde, second = systems.partition("~")
    return (first, second) if colon and tilde and first and second else None


def _imbalance(excess: Counter, changes: dict[str, int]) -> int:
    """The change of ``sum(excess[s] ** 2)`` when ``changes`` are added to ``excess``."""
    return sum((excess[s] + d) ** 2 - excess[s] ** 2 for s, d in changes.items())


def _flip(pair: tuple[str, str], swapped: bool, changes: dict[str, int]) -> None:
    """Add to ``changes`` what flipping a pair's sides does to each system's left excess."""
    left, right = (pair[1], pair[0]) if swapped else pair
    changes[left] = changes.get(left, 0) - 2
    changes[right] = changes.get(right, 0) + 2


def balanced_sides(pairs: list[tuple[str, str]], rng: np.random.Generator) -> np.ndarray:
    """Sides of one packet's pairs (``(system_a, system_b)`` each): ``swapped`` (``system_b``
    on the left) for each.

    The pairs are shuffled and given alternating sides from a random start, so the counts of
    swapped and unswapped pairs differ by at most one. Then, while it lowers the sum over
    systems of ``(times left - times right) ** 2``, one unswapped and one swapped pair
    exchange sides (the counts stay), so each system is also shown on either side about
    equally often, not only in expectation.

    >>> pairs = [("x", "y")] * 4 + [("x", "z")] * 4
    >>> sides = balanced_sides(pairs, np.random.default_rng(0))
    >>> int(sides.sum()), Counter(p[1] if s else p[0] for p, s in zip(pairs, sides))["x"]
    (4, 4)
    """
    n = len(pairs)
    swapped = np.zeros(n, dtype=bool)
    swapped[rng.permutation(n)] = (np.arange(n) + int(rng.integers(2))) % 2 == 1
    excess: Counter = Counter()
    for pair, side in zip(pairs, swapped, strict=True):
        left, right = (pair[1], pair[0]) if side else pair
        excess[left] += 1
        excess[right] -= 1
    order = rng.permutation(n)
    improved = True
    while improved:
        improved = False
        for i in order:
            for j in order:
                if swapped[i] or not swapped[j]:
                    continue
                changes: dict[str, int] = {}
                _flip(pairs[i], False, changes)
                _flip(pairs[j], True, changes)
                if _imbalance(excess, changes) < 0:
                    excess.update(changes)
                    swapped[i], swapped[j] = True, False
                    improved = True
    return swapped


def chosen_pairs(
    systems: list[str], pairs: str | PairBudget, rng: np.random.Generator
) -> list[tuple[str, str]]:
    """The sorted pairs of ``systems`` (sorted names) to rate: all, or a connected subset of
    ``pairs.budget`` pairs (at least a spanning tree, at most all).

    >>> chosen_pairs(["x", "y", "z"], "all", np.random.default_rng(0))
    [('x', 'y'), ('x', 'z'), ('y', 'z')]
    """
    every = list(combinations(sorted(systems), 2))
    if isinstance(pairs, str) or pairs.budget >= len(every):
        return every
    order = [systems[i] for i in rng.permutation(len(systems))]
    tree = {tuple(sorted((order[i], order[int(rng.integers(i))]))) for i in range(1, len(order))}
    rest = [p for p in every if p not in tree]
    n_extra = max(0, pairs.budget - len(tree))
    extra = [rest[i] for i in rng.choice(len(rest), size=n_extra, replace=False)]
    return sorted([*tree, *extra])


def _pair_record(task: Task, first: dict, second: dict) -> dict[str, Any]:
    record = {key: first[key] for key in shared_keys(task)}
    for key in system_keys(task):
        record[f"{key}_a"] = first[key]
        record[f"{key}_b"] = second[key]
    return record


def pair_rows(study: Study, task_name: str, rows: list[dict]) -> tuple[list[dict], list[str]]:
    """The pair items of ``rows`` (one per prompt and system, as :func:`raterlab.design.
    generations.read_generations` reads them) and the problems found: a system twice for a
    prompt, a prompt with one system, or shared keys that differ between a prompt's records."""
    task = study.tasks[task_name]
    block = task.pairwise
    assert block is not None
    by_prompt: dict[str, dict[str, dict]] = {}
    problems: list[str] = []
    for row in rows:
        record = row["record"]
        systems = by_prompt.setdefault(str(record[block.prompt]), {})
        system = str(record[block.by])
        if system in systems:
            problems.append(
                f"line {row['line']}: {block.prompt} {record[block.prompt]!r} has system "
                f"{system!r} twice (first on line {systems[system]['line']})"
            )
        systems[system] = row
    out = []
    for prompt in sorted(by_prompt):
        systems = by_prompt[prompt]
        if len(systems) < 2:
            problems.append(f"{block.prompt} {prompt!r} has one system; a pair needs two")
            continue
        first = next(iter(systems.values()))["record"]
        for key in shared_keys(task):
            differ = [s for s, r in systems.items() if r["record"][key] != first[key]]
            if differ:
                problems.append(
                    f"{block.prompt} {prompt!r}: {key!r} differs between its systems "
                    f"({', '.join(sorted(differ))}); a pair shows it once"
                )
        rng = np.random.default_rng([study.design.seed, PAIR_STREAM, stable_int(task_name, prompt)])
        for a, b in chosen_pairs(sorted(systems), block.pairs, rng):
            out.append(
                {
                    "item_id": pair_item_id(prompt, a, b),
                    "task": task_name,
                    "role": "item",
                    "record": _pair_record(task, systems[a]["record"], systems[b]["record"]),
                    "expected": None,
                    "line": systems[a]["line"],
                }
            )
    return out, problems


def shown_pair(task: Task, record: dict, swapped: bool) -> dict[str, Any]:
    """What a packet shows of a pair item, in the task's ``shown`` order: the shared keys and
    the two responses as ``response_left`` / ``response_right`` (``system_b``'s on the left
    when ``swapped``). Nothing else of the record, so neither system's name."""
    assert task.pairwise is not None
    response = task.pairwise.response
    first, second = record[f"{response}_a"], record[f"{response}_b"]
    sides = {LEFT: second, RIGHT: first} if swapped else {LEFT: first, RIGHT: second}
    return {key: sides[key] if key in sides else record[key] for key in task.shown}
