"""Simulated rows of ``gold.pairwise_comparisons`` for the statistics' tests: Davidson
outcomes from known strengths, sides drawn at random, optionally a rater who answers
``left`` regardless with some probability."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd


def _outcome(rng: np.random.Generator, a: float, b: float, nu: float) -> str:
    """``a``, ``b`` or ``tie`` for log-strengths ``a`` and ``b`` under Davidson's model."""
    pa, pb = np.exp(a), np.exp(b)
    tie = nu * np.sqrt(pa * pb)
    u = rng.random() * (pa + pb + tie)
    return "a" if u < pa else "b" if u < pa + pb else "tie"


def simulate(
    strength: Mapping[str, float],
    n_prompts: int = 30,
    raters: Sequence[str] = ("r1", "r2", "r3"),
    nu: float = 0.0,
    always_left: Mapping[str, float] | None = None,
    seed: int = 0,
) -> pd.DataFrame:
    """Every pair of systems on every prompt rated by every rater; ``always_left[r]`` is the
    probability that rater ``r`` picks the left response whatever it is."""
    rng = np.random.default_rng(seed)
    systems = sorted(strength)
    rows = []
    for p in range(n_prompts):
        for k, a in enumerate(systems):
            for b in systems[k + 1 :]:
                for rater in raters:
                    outcome = _outcome(rng, strength[a], strength[b], nu)
                    left, right = (a, b) if rng.random() < 0.5 else (b, a)
                    winner = {"a": a, "b": b, "tie": "tie"}[outcome]
                    if always_left and rng.random() < always_left.get(rater, 0.0):
                        winner = left
                    choice = "tie" if winner == "tie" else "left" if winner == left else "right"
                    rows.append(
                        {
                            "task": "preference",
                            "field": "preference",
                            "item_id": f"p{p}:{a}~{b}",
                            "prompt_id": f"p{p}",
                            "annotator_id": rater,
                            "system_a": a,
                            "system_b": b,
                            "left_system": left,
                            "right_system": right,
                            "choice": choice,
                            "strength": None,
                            "winner": winner,
                            "round": "main",
                            "category": "x" if p % 2 else "y",
                        }
                    )
    return pd.DataFrame(rows)
