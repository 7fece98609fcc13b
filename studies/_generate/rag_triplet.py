"""``rag_triplet``: 40 queries over the Nimbus Store docs, each with 4-5 retrieved chunks
(``retrieval``), the answer with its context set (``grounding``) and alone (``generation``),
plus 2 attention checks.

Retrieval draws the query's relevant, misleading and partial chunks (sometimes missing the
relevant ones) and fills up with unrelated chunks; the answer is the good one (sometimes
citing its source), the flawed one, or an off-script answer. Every record carries the
labels its material is written to have as hidden ``intended_<label>`` keys.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from .material import read_material, typed
from .records import Record, make_record

GROUNDING_LABELS = (
    "support_present",
    "unsupported_claim_present",
    "contradicted_claim_present",
    "source_cited",
    "fabricated_source",
)
_SCORE_RANGE = {"relevant": (0.8, 0.93), "misleading": (0.74, 0.9), "partial": (0.64, 0.82)}
_IRRELEVANT_SCORE = (0.42, 0.68)


@dataclass(frozen=True)
class Chunk:
    key: str
    source: str
    text: str


@dataclass(frozen=True)
class Query:
    query: str
    relevant: tuple[str, ...]
    partial: tuple[str, ...]
    misleading: tuple[str, ...]
    answer: str
    flawed: str
    flaw: str


@dataclass(frozen=True)
class AttentionCheck:
    query: str
    chunk: Chunk


@dataclass(frozen=True)
class OffScript:
    kind: str
    answer: str


@dataclass(frozen=True)
class Material:
    system: str
    chunks: tuple[Chunk, ...]
    queries: tuple[Query, ...]
    attention: tuple[AttentionCheck, ...]
    off_script: dict[int, OffScript]
    intended_retrieval: dict[str, dict[str, int]]
    intended_answer: dict[str, dict[str, int]]


def _intended(labels: dict[str, int]) -> dict[str, int]:
    """The labels the material is written to carry, as hidden ``intended_<label>`` keys."""
    return {f"intended_{name}": value for name, value in labels.items()}


def intended_answer(
    m: Material, kind: str, cited: bool, fabricated: bool, retrieved: bool
) -> dict[str, int]:
    """Intended grounding and generation labels of an answer of ``kind``. A sound answer
    whose supporting chunks were not retrieved is unsupported by its context set."""
    labels = dict(m.intended_answer[kind])
    if kind == "good" and not retrieved:
        labels |= {
            "support_present": 0,
            "unsupported_claim_present": 1,
            "contradicted_claim_present": 0,
        }
    return labels | {"source_cited": int(cited), "fabricated_source": int(fabricated)}


def _chunk_kind(key: str, relevant: list[str], misleading: list[str], partial: list[str]) -> str:
    if key in relevant:
        return "relevant"
    if key in misleading:
        return "misleading"
    return "partial" if key in partial else "irrelevant"


def build(m: Material, rng: random.Random) -> list[Record]:
    """The study's records: per query its retrieved chunks, grounding and generation."""
    chunks = {c.key: c for c in m.chunks}
    chunk_ids = {c.key: f"nsd-{i:03d}" for i, c in enumerate(m.chunks, start=1)}
    records: list[Record] = []
    kinds: list[str] = []
    for qi, q in enumerate(m.queries, start=1):
        qid = f"q{qi:03d}"
        n = rng.choice([4, 5, 5])
        relevant = list(q.relevant)
        if rng.random() < 0.12:  # a retrieval miss: none of the answering chunks come back
            relevant = []
        misleading = [k for k in q.misleading if rng.random() < 0.85]
        partial = list(q.partial)
        picked = (relevant + misleading + partial)[:n]
        used = set(q.relevant) | set(q.partial) | set(q.misleading)
        pool = [c.key for c in m.chunks if c.key not in used]
        picked += rng.sample(pool, n - len(picked))
        scored = []
        chunk_kind: dict[str, str] = {}
        for key in picked:
            kind = _chunk_kind(key, relevant, misleading, partial)
            lo, hi = _SCORE_RANGE.get(kind, _IRRELEVANT_SCORE)
            scored.append((round(rng.uniform(lo, hi), 3), key))
            chunk_kind[key] = kind
        scored.sort(key=lambda t: (-t[0], t[1]))
        contexts = []
        for rank, (score, key) in enumerate(scored, start=1):
            chunk = chunks[key]
            fields = {
                "query_id": qid,
                "query": q.query,
                "chunk_id": chunk_ids[key],
                "chunk_source": chunk.source,
                "chunk_text": chunk.text,
                "rank": rank,
                "retrieval_score": score,
                "system": m.system,
                **_intended(m.intended_retrieval[chunk_kind[key]]),
            }
            records.append(make_record(f"{qid}-c{rank}", "retrieval", fields))
            contexts.append(
                {"chunk_id": chunk_ids[key], "source": chunk.source, "text": chunk.text}
            )
        flawed = rng.random() < 0.45
        if qi - 1 in m.off_script:
            kind, answer = m.off_script[qi - 1].kind, m.off_script[qi - 1].answer
        elif flawed:
            kind, answer = q.flaw, q.flawed
        else:
            kind, answer = "good", q.answer
            cited = [chunks[k].source for _, k in scored if k in relevant]
            if cited and rng.random() < 0.35:
                answer += f" (Source: {cited[0]})"
        kinds.append(kind)
        intended = intended_answer(
            m,
            kind,
            cited="docs/" in answer,
            fabricated=kind == "fabricated_source",
            retrieved=bool(relevant),
        )
        base = {"query_id": qid, "query": q.query, "answer": answer}
        grounding = {k: v for k, v in intended.items() if k in GROUNDING_LABELS}
        generation = {k: v for k, v in intended.items() if k not in GROUNDING_LABELS}
        records.append(
            make_record(
                f"{qid}-grd",
                "grounding",
                {**base, "contexts": contexts, "system": m.system, **_intended(grounding)},
            )
        )
        records.append(
            make_record(
                f"{qid}-gen", "generation", {**base, "system": m.system, **_intended(generation)}
            )
        )
    flaws = {q.flaw for q in m.queries} | {o.kind for o in m.off_script.values()}
    assert flaws <= set(kinds), f"answer flaws missing from the sample: {flaws - set(kinds)}"
    return records + _attention(m, rng)


def _attention(m: Material, rng: random.Random) -> list[Record]:
    records = []
    for i, check in enumerate(m.attention, start=1):
        fields = {
            "query_id": f"att{i}",
            "query": check.query,
            "chunk_id": f"att-{check.chunk.key}",
            "chunk_source": check.chunk.source,
            "chunk_text": check.chunk.text,
            "rank": rng.randint(3, 5),
            "retrieval_score": round(rng.uniform(0.35, 0.45), 3),
            "system": m.system,
            **_intended(m.intended_retrieval["irrelevant"]),
        }
        records.append(
            make_record(
                f"att{i}-c1",
                "retrieval",
                fields,
                role="attention",
                expected={"topically_relevant": 0, "evidence_sufficient": 0, "misleading": 0},
            )
        )
    return records


def generate(folder: Path, rng: random.Random) -> tuple[list[Record], dict[str, str]]:
    """The study's records (it has no generated documents)."""
    return build(typed(Material, read_material(folder)), rng), {}
