"""``empathy``: 130 replies to emotional disclosures, 10 calibration and 3 attention items;
and the annotation guide (``guide.md``, copied from the material).

Every statement is answered once by each assistant (A and B) at a quality level drawn per
assistant (A writes better replies more often): an excellent reply opens with the
statement's ``specific`` sentence, a good one with a stock opener, and the others come from
the generic, dismissive, toxically positive or unsafe lists. A few replies are left empty;
the self-harm disclosures and the guide's edge cases (another language, acknowledgement
only) are added as written.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .draw import weighted
from .material import read_material, typed
from .records import Record, make_record

_QUALITY = {
    "A": {
        "excellent": 0.4,
        "good": 0.3,
        "generic": 0.12,
        "dismissive": 0.06,
        "toxic_positivity": 0.06,
        "unsafe": 0.06,
    },
    "B": {
        "excellent": 0.12,
        "good": 0.28,
        "generic": 0.22,
        "dismissive": 0.14,
        "toxic_positivity": 0.14,
        "unsafe": 0.1,
    },
}


@dataclass(frozen=True)
class Statement:
    category: str
    text: str
    detail: str
    specific: str


@dataclass(frozen=True)
class SelfHarmItem:
    statement: str
    reply_a: str
    reply_b: str


@dataclass(frozen=True)
class Scored:
    category: str
    statement: str
    reply: str
    expected: dict[str, int]


@dataclass(frozen=True)
class Material:
    models: dict[str, str]
    crisis_markers: tuple[str, ...]
    validate: dict[str, tuple[str, ...]]
    suggest: dict[str, tuple[str, ...]]
    ask: dict[str, tuple[str, ...]]
    good_openers: tuple[str, ...]
    wrong_language: tuple[str, ...]
    acknowledge_only: tuple[str, ...]
    generic: tuple[str, ...]
    dismissive: tuple[str, ...]
    toxic_positivity: tuple[str, ...]
    unsafe: dict[str, tuple[str, ...]]
    self_harm: tuple[SelfHarmItem, ...]
    calibration: tuple[Scored, ...]
    attention: tuple[Scored, ...]
    statements: tuple[Statement, ...]


def _reply(m: Material, s: Statement, quality: str, rng: random.Random) -> str:
    cat = s.category
    if quality == "unsafe" and cat not in m.unsafe:
        quality = "dismissive"
    if quality == "excellent":
        parts = [s.specific]
        if rng.random() < 0.5:
            parts.append(rng.choice(m.validate[cat]))
        parts += [rng.choice(m.suggest[cat]), rng.choice(m.ask[cat])]
        return " ".join(parts)
    if quality == "good":
        opener = rng.choice(m.good_openers).format(detail=s.detail)
        follow_up = rng.choice(m.suggest[cat] + m.ask[cat])
        return " ".join([opener, rng.choice(m.validate[cat]), follow_up])
    if quality == "generic":
        return rng.choice(m.generic)
    if quality == "dismissive":
        return rng.choice(m.dismissive).format(detail=s.detail)
    if quality == "toxic_positivity":
        return rng.choice(m.toxic_positivity)
    lead = rng.choice(["", "That sounds stressful. ", "I hear you. "])
    return lead + rng.choice(m.unsafe[cat])


def _items(m: Material, rng: random.Random) -> list[dict[str, str]]:
    """The replies to rate, in their final order (without calibration and attention)."""
    items: list[dict[str, str]] = []
    for s in m.statements:
        replies: dict[str, str] = {}
        for cond in ("A", "B"):
            reply = _reply(m, s, weighted(rng, _QUALITY[cond]), rng)
            while reply in replies.values():
                reply = _reply(m, s, weighted(rng, _QUALITY[cond]), rng)
            replies[cond] = reply
            items.append({"statement": s.text, "reply": reply, "cat": s.category, "cond": cond})
    empty = rng.sample([i for i in items if i["cond"] == "B"], 4)
    empty += rng.sample([i for i in items if i["cond"] == "A"], 2)
    for item in empty:
        item["reply"] = ""
    for sh in m.self_harm:
        for cond, reply in (("A", sh.reply_a), ("B", sh.reply_b)):
            items.append(
                {"statement": sh.statement, "reply": reply, "cat": "self_harm", "cond": cond}
            )
    rng.shuffle(items)
    # The guide's other edge cases, drawn without the generator so the items above stay put.
    plain = [s for s in m.statements if s.category not in m.unsafe]
    for i, reply in enumerate(m.wrong_language + m.acknowledge_only):
        s = plain[(7 * i + 3) % len(plain)]
        language = ("es", "de", "fr")[i] if i < len(m.wrong_language) else "en"
        items.append(
            {"statement": s.text, "reply": reply, "cat": s.category, "cond": "AB"[i % 2]}
            | {"lang": language}
        )
    return items


def build(m: Material, rng: random.Random) -> list[Record]:
    """The study's records: calibration first, then the replies, then attention."""
    items = _items(m, rng)

    def fields(
        statement: str, reply: str, category: str, cond: str, lang: str = "en"
    ) -> dict[str, Any]:
        return {
            "statement": statement,
            "reply": reply,
            "emotion_category": category,
            "model": m.models[cond],
            "condition": cond,
            "reply_language": lang,
        }

    records: list[Record] = []
    for i, sc in enumerate(m.calibration, start=1):
        cond = "AB"[i % 2]
        records.append(
            make_record(
                f"cal{i:02d}",
                "reply",
                fields(sc.statement, sc.reply, sc.category, cond),
                role="calibration",
                expected=sc.expected,
            )
        )
    for i, item in enumerate(items, start=1):
        rec_fields = fields(
            item["statement"], item["reply"], item["cat"], item["cond"], item.get("lang", "en")
        )
        records.append(make_record(f"e{i:03d}", "reply", rec_fields))
    for i, sc in enumerate(m.attention, start=1):
        records.append(
            make_record(
                f"att{i:02d}",
                "reply",
                fields(sc.statement, sc.reply, sc.category, rng.choice("AB")),
                role="attention",
                expected=sc.expected,
            )
        )
    _check_crisis_resources(m, records)
    return records


def _check_crisis_resources(m: Material, records: list[Record]) -> None:
    """A self-harm calibration reply gives crisis resources exactly when its expected safety
    score is above 1 (the guide's rule, read off the same markers)."""
    for rec in records:
        if rec["emotion_category"] == "self_harm" and rec["reply"]:
            has_resources = any(marker in rec["reply"].lower() for marker in m.crisis_markers)
            if rec.get("role") == "calibration":
                assert has_resources == (rec["expected"]["safety"] > 1), rec["id"]


def generate(folder: Path, rng: random.Random) -> tuple[list[Record], dict[str, str]]:
    """The study's records, and its documents by file name (the guide, as written)."""
    m = typed(Material, read_material(folder))
    return build(m, rng), {"guide.md": (folder / "guide.md").read_text(encoding="utf-8")}
