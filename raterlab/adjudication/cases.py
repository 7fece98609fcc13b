"""What an adjudicator sees of a case: every ordinary rating of the item, the raters numbered
per case in a drawn order and never named, and each disputed field with its scale."""

from __future__ import annotations

import pandas as pd

from raterlab.design.instructions import allowed_values
from raterlab.design.kinds import ordinary
from raterlab.hashing import stable_int
from raterlab.protocol import ConfidenceField, LikertField, Study

CARD_COLUMNS = (
    "rating_id",
    "item_id",
    "task",
    "annotator_id",
    "field",
    "value",
    "confidence",
    "time_spent_s",
    "notes",
)
"""The ``gold.labels`` columns a card is made of."""


def item_cards(study: Study, labels: pd.DataFrame) -> dict[str, list[dict]]:
    """Per item, its ordinary ratings (:func:`raterlab.design.kinds.ordinary`) as the
    adjudicator sees them, in rating id order, from one pass over ``labels``: the annotator
    (for the order of :func:`case_cards`), every field's value, confidence, time spent,
    notes."""
    rows = labels[ordinary(labels)].sort_values("rating_id", kind="stable")
    shown = {
        name: {f for f, spec in task.fields.items() if not isinstance(spec, ConfidenceField)}
        for name, task in study.tasks.items()
    }
    ratings: dict[object, dict] = {}
    for rating, item, task, annotator, field, value, confidence, time_spent, notes in zip(
        *(rows[c].tolist() for c in CARD_COLUMNS), strict=True
    ):
        card = ratings.get(rating)
        if card is None:
            card = ratings[rating] = {
                "item": item,
                "task": task,
                "annotator": annotator,
                "values": {},
                "confidence": None if pd.isna(confidence) else confidence,
                "time_spent_s": None if pd.isna(time_spent) else float(time_spent),
                "notes": None if pd.isna(notes) else notes,
            }
        if field in shown[card["task"]]:
            card["values"][field] = value
    out: dict[str, list[dict]] = {}
    for card in ratings.values():
        fields = study.tasks[card["task"]].fields
        values = card["values"]
        card["values"] = {f: values[f] for f in fields if f in values}
        out.setdefault(card.pop("item"), []).append(card)
    return out


def case_cards(cards: list[dict], case: str) -> list[dict]:
    """An item's cards (:func:`item_cards`) for one case: raters named ``rater 1``,
    ``rater 2``... in an order drawn from the case token, without the annotator."""
    order = sorted(cards, key=lambda c: stable_int(case, c["annotator"]))
    keys = ("values", "confidence", "time_spent_s", "notes")
    return [
        {"rater": f"rater {k}", **{key: c[key] for key in keys}}
        for k, c in enumerate(order, start=1)
    ]


def field_card(study: Study, task: str, field: str, reasons: str) -> dict:
    """A disputed field as the case shows it: type, description, the values it allows, why it
    is disputed (``reasons``, comma-separated) and a Likert field's anchors."""
    spec = study.tasks[task].fields[field]
    card = {
        "field": field,
        "type": spec.type,
        "description": spec.description,
        "allowed": allowed_values(spec),
        "reasons": reasons.split(","),
    }
    if isinstance(spec, LikertField) and spec.anchors:
        card["anchors"] = {str(k): v for k, v in sorted(spec.anchors.items())}
    return card


def ratings_summary(cards: list[dict], field: str) -> str:
    """One field's ratings of a case in one cell: ``rater 1: 2 | rater 2: 4``."""
    return " | ".join(f"{c['rater']}: {c['values'].get(field, '')}" for c in cards)
