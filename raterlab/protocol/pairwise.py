"""Pairwise tasks: a task whose item is a pair of systems' responses to one prompt.

A task with a ``pairwise:`` block rates pairs. Its generations hold one record per prompt and
system; the design makes the pair items (:mod:`raterlab.design.pairs`): item
``<prompt>:<system_a>~<system_b>`` with ``system_a < system_b``, whose record holds the
prompt's keys once (the task's shown keys and the prompt key, the same for every system of
the prompt) and each system's own keys twice, suffixed ``_a`` and ``_b`` (the ``by`` key, the
response key and every other hidden key). Which response an annotator sees on the left is
drawn per packet row and sealed in the key (``swapped``: ``system_b`` on the left); the
packet shows the two responses as ``response_left`` and ``response_right``.

An answer is written as the annotator saw it (``left``, ``right``, ``tie``, ``much_left``,
``much_right``) and stored in the item's canonical orientation (``a``, ``b``, ``tie``,
``much_a``, ``much_b``): :func:`canonical`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from raterlab.protocol.fields import PairwiseField

if TYPE_CHECKING:
    from raterlab.protocol.study import Task

LEFT = "response_left"
RIGHT = "response_right"
SHOWN_SIDES = (LEFT, RIGHT)
"""The shown keys the design makes for a pair: the two responses as the annotator sees them."""
SUFFIXES = ("_a", "_b")

_SEEN_TO_CANONICAL = {
    "left": "a",
    "right": "b",
    "tie": "tie",
    "much_left": "much_a",
    "much_right": "much_b",
}
_MIRROR = {"a": "b", "b": "a", "tie": "tie", "much_a": "much_b", "much_b": "much_a"}


class PairBudget(BaseModel):
    """A connected subset of each prompt's pairs: a random spanning tree of its systems plus
    random extra pairs, ``budget`` pairs per prompt in all."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    budget: int = Field(gt=0, description="Pairs per prompt (at least systems - 1).")


class Pairwise(BaseModel):
    """How a task's items are pairs of systems' responses to one prompt."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    by: str = Field(description="Hidden key naming the system that wrote a response.")
    prompt: str = Field(description="Key naming the prompt that a pair's responses answer.")
    response: str = Field(
        default="response",
        description="Generations key with a system's response (shown as response_left / "
        "response_right).",
    )
    pairs: Literal["all"] | PairBudget = Field(
        default="all",
        description="all: every pair of systems per prompt; {budget: N}: N pairs per prompt, a "
        "random spanning tree plus random extra pairs (seeded by design.seed), so the "
        "comparison graph is connected.",
    )


def shared_keys(task: Task) -> list[str]:
    """The keys a pair holds once: the task's shown keys but the two sides, and the prompt key."""
    assert task.pairwise is not None
    shown = [k for k in task.shown if k not in SHOWN_SIDES]
    return list(dict.fromkeys([*shown, task.pairwise.prompt]))


def system_keys(task: Task) -> list[str]:
    """The keys each system of a pair has its own value of: the ``by`` key, the response key
    and every other hidden key but the prompt key."""
    assert task.pairwise is not None
    block = task.pairwise
    rest = [k for k in task.hidden if k not in (block.by, block.prompt)]
    return [block.by, block.response, *rest]


def record_keys(task: Task) -> list[str]:
    """The keys of one generations record of a pairwise task (one system's response)."""
    return list(dict.fromkeys([*shared_keys(task), *system_keys(task)]))


def pair_keys(task: Task) -> list[str]:
    """The keys of a pair item's record: the shared keys, then each system key suffixed."""
    return [*shared_keys(task), *(k + s for k in system_keys(task) for s in SUFFIXES)]


def pair_hidden_keys(task: Task) -> list[str]:
    """A pair record's keys that must never reach an annotator: every suffixed system key
    but the responses, and the hidden shared keys."""
    assert task.pairwise is not None
    hidden = [k for k in shared_keys(task) if k in task.hidden]
    own = [k for k in system_keys(task) if k != task.pairwise.response]
    return [*hidden, *(k + s for k in own for s in SUFFIXES)]


def pairwise_fields(task: Task) -> list[str]:
    """The task's pairwise fields, in order."""
    return [name for name, spec in task.fields.items() if isinstance(spec, PairwiseField)]


def canonical(seen: str, swapped: bool) -> str:
    """An answer as the annotator saw it (``left``...) in the pair's canonical orientation
    (``a`` = ``system_a`` preferred): with ``swapped`` (``system_b`` on the left) the sides
    are mirrored.

    >>> canonical("left", False), canonical("left", True), canonical("much_right", True)
    ('a', 'b', 'much_a')
    """
    value = _SEEN_TO_CANONICAL[seen]
    return _MIRROR[value] if swapped else value


def seen(value: str, swapped: bool) -> str:
    """The inverse of :func:`canonical`: how a canonical value is written by an annotator
    who saw the pair with ``swapped`` sides.

    >>> seen("a", True), seen("much_b", False)
    ('right', 'much_right')
    """
    value = _MIRROR[value] if swapped else value
    return {v: k for k, v in _SEEN_TO_CANONICAL.items()}[value]


def stored_as_answer(value: object) -> object:
    """A stored (canonical) pairwise value as the answer to the pair shown unswapped
    (``a`` -> ``left``), for checks that apply the answer rules to stored values; anything
    else (``skip``, empty, not a canonical value) as it is."""
    return seen(value, swapped=False) if value in _MIRROR else value
