"""The leak search: an Aho-Corasick pass that finds what a leftmost-longest regex
alternation of the needles finds, at the edges of words and texts too."""

from __future__ import annotations

import random
import re

import pytest

from raterlab.design.verify import first_needle, needle_automaton


def regex_first(needles: set[str], text: str) -> str | None:
    """The reference: Python's ``re`` with the needles longest first."""
    pattern = re.compile("|".join(re.escape(n) for n in sorted(needles, key=len, reverse=True)))
    return m.group(0) if (m := pattern.search(text)) else None


def search(needles: set[str], text: str) -> str | None:
    return first_needle(needle_automaton(needles), max(map(len, needles)), text)


@pytest.mark.parametrize(
    ("needles", "text", "found"),
    [
        ({"model-7b"}, "model-7b", "model-7b"),  # the whole text
        ({"model-7b"}, "x model-7b", "model-7b"),  # at the end
        ({"model-7b"}, "model-7b, x", "model-7b"),  # at the start, before punctuation
        ({"model-7b"}, "supermodel-7bx", "model-7b"),  # inside a longer word
        ({"model-7b"}, "model-7", None),  # one character short
        ({"model-7b"}, "Model-7b", None),  # case matters
        ({"abcdef", "abcdefgh"}, "..abcdefgh..", "abcdefgh"),  # longest at the same start
        ({"cdefgh", "abcdefghij"}, "abcdefghij", "abcdefghij"),  # leftmost, though ending later
        ({"cdefgh", "abcdefghij"}, "abcdefghi", "cdefgh"),  # the longer one incomplete
        ({"gold-1", "gold-10"}, "gold-10", "gold-10"),  # an id that prefixes another
        ({"résumé-1"}, "le résumé-1 »", "résumé-1"),  # beyond ASCII
    ],
)
def test_edge_cases(needles: set[str], text: str, found: str | None) -> None:
    assert search(needles, text) == found == regex_first(needles, text)


def test_agrees_with_the_regex_on_random_texts() -> None:
    rng = random.Random(7)
    alphabet = "ab-1 "
    for _ in range(500):
        needles = {
            "".join(rng.choices(alphabet, k=rng.randint(2, 7))) for _ in range(rng.randint(1, 6))
        }
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 60)))
        assert search(needles, text) == regex_first(needles, text), (needles, text)
