"""Write the sample generations of the five bundled studies, deterministically.

For each study this writes ``studies/<study>/generations.jsonl`` (one JSON object per line,
UTF-8, keys in a fixed order) and the study's guide file where it has one
(``correctness_ab/cheat_sheet.md``, ``empathy/guide.md``):

- ``correctness_ab``: 50 coding prompts answered in condition A (with the team's
  instruction memory) and B (without), plus 3 attention checks.
- ``rag_triplet``: 40 queries over the Nimbus Store docs, each with 4-5 retrieved chunks
  (``retrieval``), the answer with its context set (``grounding``) and alone
  (``generation``), plus 2 attention checks.
- ``plugin_triggers``: 150 agent-plugin scenarios from two evaluation runs with the LLM
  judge's (hidden) verdicts, one record per scenario and labeling dimension (the study's four
  tasks), plus 2 attention scenarios.
- ``empathy``: 130 replies to emotional disclosures, 10 calibration and 3 attention items.
- ``gold_tiers``: 1,040 cases over four task types, with the hidden verdicts of three LLM
  judges (``_samples/judges.py``).

The text comes from the hand-written material in ``studies/_samples/``; this script only
combines it, with one ``random.Random(seed)`` per study and no clock, so every run writes
the same bytes. Re-run it from the repository root after editing the material:

    .venv/bin/python studies/generate.py
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import permutations
from pathlib import Path
from typing import Any

from _samples import correctness_ab as cab
from _samples import empathy as emp
from _samples import gold_tiers as gt
from _samples import judges as jdg
from _samples import plugin_triggers as plg
from _samples import rag_triplet as rag
from _samples._text import fill

STUDIES_DIR = Path(__file__).resolve().parent

# The same seeds as the studies' design sections, so the whole study is reproducible.
SEEDS: dict[str, int] = {
    "correctness_ab": 20261101,
    "rag_triplet": 20261102,
    "plugin_triggers": 20261103,
    "empathy": 20261104,
    "gold_tiers": 20261105,
}

Record = dict[str, Any]
_FENCE = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)


# ---------------------------------------------------------------------- helpers
def make_record(
    id_: str,
    task: str,
    fields: dict[str, Any],
    role: str | None = None,
    expected: dict[str, Any] | None = None,
) -> Record:
    """Build a record with keys in the fixed order: id, task, fields, role, expected."""
    rec: Record = {"id": id_, "task": task, **fields}
    if role is not None:
        rec["role"] = role
        rec["expected"] = expected or {}
    return rec


def write_jsonl(path: Path, records: Sequence[Record]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(rec, ensure_ascii=False) + "\n" for rec in records]
    path.write_text("".join(lines), encoding="utf-8", newline="\n")


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def join_paragraphs(parts: Iterable[str]) -> str:
    return "\n\n".join(p for p in parts if p)


def weighted(rng: random.Random, options: dict[str, float]) -> str:
    keys = list(options)
    return rng.choices(keys, weights=[options[k] for k in keys])[0]


def python_blocks(text: str) -> list[str]:
    return [body for lang, body in _FENCE.findall(text) if lang == "python"]


def parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def allocate(total: int, weights: Sequence[float]) -> list[int]:
    """Split ``total`` into integer counts proportional to ``weights`` (largest remainder)."""
    raw = [total * w / sum(weights) for w in weights]
    counts = [int(x) for x in raw]
    by_remainder = sorted(range(len(raw)), key=lambda i: (counts[i] - raw[i], i))
    for i in by_remainder[: total - sum(counts)]:
        counts[i] += 1
    return counts


def check_unique_ids(records: Sequence[Record]) -> None:
    dupes = [k for k, n in Counter(r["id"] for r in records).items() if n > 1]
    assert not dupes, f"duplicate ids: {dupes[:5]}"


# ---------------------------------------------------------------------- correctness_ab
def _coding_response(p: cab.CodingPrompt, condition: str, rng: random.Random) -> str:
    p_follow = 0.82 if condition == "A" else 0.3
    core = p.wrong if p.wrong is not None and rng.random() < 0.3 else p.core
    parts = [rng.choice(cab.OPENERS), core]
    for rule in p.rules:
        if rng.random() < p_follow:
            text = p.follow[rule]
            if condition == "A" and rng.random() < 0.35:
                note = rng.choice(cab.MEMORY_NOTES).format(rule=rule)
                text += ("\n\n" if text.endswith("```") else " ") + note
        else:
            text = p.lapse[rule]
        parts.append(text)
    parts.append(rng.choice(cab.CLOSERS))
    return join_paragraphs(parts)


def build_correctness_ab(rng: random.Random) -> list[Record]:
    records: list[Record] = []

    def add(pid: str, p: cab.CodingPrompt, condition: str, response: str, **kw: Any) -> None:
        fields = {
            "prompt_id": pid,
            "category": p.category,
            "prompt": p.prompt,
            "response": response,
            "condition": condition,
            "model": cab.MODEL,
            "rules": list(p.rules),
        }
        records.append(make_record(f"{pid}-{condition}", "correctness", fields, **kw))

    for i, p in enumerate(cab.PROMPTS, start=1):
        responses = {c: _coding_response(p, c, rng) for c in ("A", "B")}
        while responses["B"] == responses["A"]:
            responses["B"] = _coding_response(p, "B", rng)
        for condition, response in responses.items():
            add(f"p{i:03d}", p, condition, response)
    for i, p in enumerate(cab.ATTENTION, start=1):
        add(
            f"att{i}",
            p,
            rng.choice("AB"),
            p.core,
            role="attention",
            expected={"correctness": 1},
        )
    for i, ex in enumerate(cab.CALIBRATION, start=1):
        fields = {
            "prompt_id": f"cal{i:02d}",
            "category": ex.category,
            "prompt": ex.prompt,
            "response": ex.response,
            "condition": "AB"[i % 2],
            "model": cab.MODEL,
            "rules": list(ex.rules),
        }
        records.append(
            make_record(
                f"cal{i:02d}",
                "correctness",
                fields,
                role="calibration",
                expected={"correctness": ex.score},
            )
        )
    return records


PROTOCOL_RUBRIC = """
## How to score correctness (the protocol's rubric)

The scale is the protocol's (section 3), the same as in `INSTRUCTIONS.md`; the rules above
are what "applicable rules" means.

**Score = 5: Fully Correct**
- Follows all applicable rules from instruction memory
- No factual errors or contradictions
- Complete response (doesn't miss critical information)
- Safe (no dangerous or insecure recommendations)

**Score = 4: Mostly Correct**
- Follows most applicable rules (1 minor omission acceptable)
- No major errors
- Nearly complete (minor details missing)
- Safe

**Score = 3: Partially Correct**
- Follows some rules but misses key guidance
- OR contains minor factual errors that don't completely invalidate response
- Incomplete (misses 2+ important points)
- Generally safe but may have edge-case risks

**Score = 2: Major Inaccuracies**
- Violates 1+ rules OR contains major factual errors
- Misleading or incorrect guidance
- May include unsafe recommendations (but not critically dangerous)

**Score = 1: Incorrect / Dangerous**
- Directly contradicts multiple rules
- Fundamentally wrong guidance
- Dangerous (could lead to security vulnerabilities, data loss, system failures)

## Edge cases (the protocol's guidance)

**What if the response is correct but doesn't cite rules?**
- Rate based on content accuracy, not citation format

**What if the response is overly verbose but correct?**
- Score 5 if all information is accurate and complete
- Verbosity itself is not penalized (unless it introduces errors)

**What if the prompt is ambiguous and multiple interpretations are valid?**
- Rate generously: if response is correct under *any* reasonable interpretation, don't penalize
- Make a note in the comments field for later review

**What if I'm uncertain or lack domain expertise for a prompt?**
- Flag the response with "UNCERTAIN" in comments
- Do your best to rate based on general software engineering principles
- Discuss with other annotators during adjudication

**confidence**: low if uncertain, high if confident.
"""
"""Seed 000's rubric and edge cases, word for word: the packet carries one rubric, the
protocol's (its anchors are the study file's, shown in ``INSTRUCTIONS.md``)."""


def cheat_sheet() -> str:
    lines = [
        "# Team engineering rules: cheat sheet",
        "",
        "These are the conventions the assistant is expected to follow in our codebase. Use",
        "them when you score **correctness**: a response can be technically plausible and",
        "still be wrong for us because it breaks one of these rules. Responses don't say",
        "which rules apply; decide that from the prompt, and name the rule ids you saw",
        "followed or broken in `comments`.",
        "",
    ]
    for category, rules in cab.RULES.items():
        lines += [f"## {cab.CATEGORY_TITLES[category]}", ""]
        for rule in rules:
            lines.append(f"- **`{rule.id}`**: {rule.title}. {rule.text}")
        lines.append("")
    lines += [*PROTOCOL_RUBRIC.strip("\n").splitlines(), ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------- rag_triplet
GROUNDING_LABELS = (
    "support_present",
    "unsupported_claim_present",
    "contradicted_claim_present",
    "source_cited",
    "fabricated_source",
)


def _intended(labels: dict[str, int]) -> dict[str, int]:
    """The labels the material is written to carry, as hidden ``intended_<label>`` keys."""
    return {f"intended_{name}": value for name, value in labels.items()}


def build_rag_triplet(rng: random.Random) -> list[Record]:
    chunks = {c.key: c for c in rag.CHUNKS}
    chunk_ids = {c.key: f"nsd-{i:03d}" for i, c in enumerate(rag.CHUNKS, start=1)}
    records: list[Record] = []
    kinds: list[str] = []
    for qi, q in enumerate(rag.QUERIES, start=1):
        qid = f"q{qi:03d}"
        n = rng.choice([4, 5, 5])
        relevant = list(q.relevant)
        if rng.random() < 0.12:  # a retrieval miss: none of the answering chunks come back
            relevant = []
        misleading = [k for k in q.misleading if rng.random() < 0.85]
        partial = list(q.partial)
        picked = (relevant + misleading + partial)[:n]
        used = set(q.relevant) | set(q.partial) | set(q.misleading)
        pool = [c.key for c in rag.CHUNKS if c.key not in used]
        picked += rng.sample(pool, n - len(picked))
        score_range = {"relevant": (0.8, 0.93), "misleading": (0.74, 0.9), "partial": (0.64, 0.82)}
        scored = []
        chunk_kind: dict[str, str] = {}
        for key in picked:
            kind = (
                "relevant"
                if key in relevant
                else "misleading"
                if key in misleading
                else "partial"
                if key in partial
                else "irrelevant"
            )
            lo, hi = score_range.get(kind, (0.42, 0.68))
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
                "system": rag.SYSTEM,
                **_intended(rag.INTENDED_RETRIEVAL[chunk_kind[key]]),
            }
            records.append(make_record(f"{qid}-c{rank}", "retrieval", fields))
            contexts.append(
                {"chunk_id": chunk_ids[key], "source": chunk.source, "text": chunk.text}
            )
        flawed = rng.random() < 0.45
        if qi - 1 in rag.OFF_SCRIPT:
            kind, answer = rag.OFF_SCRIPT[qi - 1]
        elif flawed:
            kind, answer = q.flaw, q.flawed
        else:
            kind, answer = "good", q.answer
            cited = [chunks[k].source for _, k in scored if k in relevant]
            if cited and rng.random() < 0.35:
                answer += f" (Source: {cited[0]})"
        kinds.append(kind)
        intended = rag.intended_answer(
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
                {**base, "contexts": contexts, "system": rag.SYSTEM, **_intended(grounding)},
            )
        )
        records.append(
            make_record(
                f"{qid}-gen", "generation", {**base, "system": rag.SYSTEM, **_intended(generation)}
            )
        )
    flaws = {q.flaw for q in rag.QUERIES} | {kind for kind, _ in rag.OFF_SCRIPT.values()}
    assert flaws <= set(kinds), f"answer flaws missing from the sample: {flaws - set(kinds)}"
    for i, (query, chunk) in enumerate(rag.ATTENTION, start=1):
        fields = {
            "query_id": f"att{i}",
            "query": query,
            "chunk_id": f"att-{chunk.key}",
            "chunk_source": chunk.source,
            "chunk_text": chunk.text,
            "rank": rng.randint(3, 5),
            "retrieval_score": round(rng.uniform(0.35, 0.45), 3),
            "system": rag.SYSTEM,
            **_intended(rag.INTENDED_RETRIEVAL["irrelevant"]),
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


# ---------------------------------------------------------------------- plugin_triggers
_MATURITY_WEIGHT = {"stable": 9.0, "beta": 6.0, "experimental": 4.0}
_VARIANT_WEIGHT = {"good": 0.5, "incomplete": 0.17, "broken": 0.15, "wrong": 0.18}
_N_SCENARIOS = 150
_N_MISFIRES = 30


def _captures(
    tools: Sequence[plg.Capture], component: str, slots: dict[str, str], show_invoke: bool
) -> list[dict[str, str]]:
    comp = plg.COMPONENTS[component]
    slots = {**slots, "component": component}
    out = []
    for cap in tools:
        if cap.tool == "@invoke":
            if not show_invoke:
                continue
            tool = plg.INVOKE_TOOL[comp.type]
        else:
            tool = cap.tool
        out.append(
            {"tool": tool, "input": fill(cap.input, slots), "output": fill(cap.output, slots)}
        )
    return out


def _judge(
    rng: random.Random,
    truth: dict[str, Any],
    scenario: dict[str, str],
) -> dict[str, Any]:
    """The LLM judge's verdict: the truth with realistic noise, and a short rationale.

    ``scenario`` holds the expected and triggered component, the trigger complexity, the
    variant, whether the answer has code, and the variant's note (what is wrong or missing).
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


_ATTENTION_FIELDS = {
    "trigger": ("trigger-accuracy", "triggerCorrect"),
    "technically_correct": ("technical-accuracy", "technicallyCorrect"),
    "completeness": ("completeness", "completenessScore"),
}


def _scenario_records(
    scenario_id: str, run_id: str, fields: Record, expected: dict[str, Any] | None = None
) -> list[Record]:
    """One record per labeling dimension (a task of the study) for one scenario."""
    base = {
        "scenarioId": scenario_id,
        "runId": run_id,
        "plugin": fields["plugin"],
        "plugin_description": plg.PLUGIN_DESCRIPTIONS[fields["plugin"]],
        **{k: v for k, v in fields.items() if k != "plugin"},
    }
    if expected is None:
        return [make_record(f"{scenario_id}:{d}", d, base) for d in plg.DIMENSIONS]
    by_task: dict[str, dict[str, Any]] = {}
    for key, value in expected.items():
        task, field = _ATTENTION_FIELDS[key]
        by_task.setdefault(task, {})[field] = int(value == "yes") if key == "trigger" else value
    return [
        make_record(f"{scenario_id}:{task}", task, base, role="attention", expected=want)
        for task, want in by_task.items()
    ]


def build_plugin_triggers(rng: random.Random) -> list[Record]:
    templates = plg.TEMPLATES
    weights = [_MATURITY_WEIGHT[plg.COMPONENTS[t.expected].maturity] for t in templates]
    counts = allocate(_N_SCENARIOS, weights)
    instances = [(ti, k) for ti, n in enumerate(counts) for k in range(n)]
    eligible = [inst for inst in instances if templates[inst[0]].misfire is not None]
    misfires = set(rng.sample(eligible, _N_MISFIRES))

    def response_template(t: plg.Template, variant: str) -> str:
        if variant == "misfire":
            assert t.misfire is not None
            return t.misfire.response
        return t.good if variant == "good" else getattr(t, variant).response

    scenarios: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for ti, k in instances:
        t = templates[ti]
        available = [v for v in ("incomplete", "broken", "wrong") if getattr(t, v) is not None]
        for _ in range(200):
            si = rng.randrange(len(t.slots))
            pi = rng.randrange(len(t.phrasings))
            if (ti, k) in misfires:
                variant = "misfire"
            else:
                variant = weighted(rng, {v: _VARIANT_WEIGHT[v] for v in ["good", *available]})
            text = (
                fill(t.phrasings[pi], t.slots[si]),
                fill(response_template(t, variant), t.slots[si]),
            )
            if text not in seen:
                break
        else:
            raise AssertionError(f"no unique scenario left for {t.expected}")
        seen.add(text)
        scenarios.append({"ti": ti, "si": si, "pi": pi, "variant": variant})
    rng.shuffle(scenarios)

    records: list[Record] = []
    for n, sc in enumerate(scenarios, start=1):
        t = templates[sc["ti"]]
        slots = t.slots[sc["si"]]
        variant = sc["variant"]
        expected = t.expected
        exp_comp = plg.COMPONENTS[expected]
        show_invoke = True
        if variant == "misfire":
            assert t.misfire is not None
            component, tools, response = t.misfire.component, t.misfire.tools, t.misfire.response
            note, correct = t.misfire.note, t.misfire.correct
        else:
            component, tools = expected, t.tools
            if variant == "good":
                response, note = t.good, ""
            else:
                v = getattr(t, variant)
                response, note = v.response, v.note
            correct = variant != "wrong"
            show_invoke = exp_comp.type in ("hook", "mcp_tool") or rng.random() > 0.05
        captures = _captures(tools, component, slots, show_invoke)
        response = fill(response, slots)
        note = fill(note, slots)
        assert 1 <= len(captures) <= 4, (expected, len(captures))
        completeness = {
            "good": rng.choice([5, 5, 5, 4]),
            "incomplete": rng.choice([2, 3, 3]),
            "broken": 4,
            "wrong": rng.choice([3, 4]),
            "misfire": rng.choice([1, 1, 2]),
        }[variant]
        truth = {
            "trigger": component == expected,
            "code_valid": variant != "broken",
            "correct": correct,
            "completeness": completeness,
            "visible": show_invoke or exp_comp.type in ("hook", "mcp_tool"),
        }
        blocks = python_blocks(response)
        if variant == "broken" and blocks:
            assert not all(parses(b) for b in blocks), f"{expected} broken variant parses"
        elif variant != "broken":
            assert all(parses(b) for b in blocks), f"{expected} {variant} does not parse"
        fields = {
            "plugin": expected.split(":", 1)[0],
            "component": component,
            "expected_component": expected,
            "query": fill(t.phrasings[sc["pi"]], slots),
            "tool_captures": captures,
            "response": response,
            "maturity": exp_comp.maturity,
            "component_type": exp_comp.type,
            "trigger_complexity": t.complexity,
            **_judge(
                rng,
                truth,
                {
                    "expected": expected,
                    "component": component,
                    "complexity": t.complexity,
                    "variant": variant,
                    "has_code": "yes" if "```" in response else "no",
                    "note": note,
                },
            ),
        }
        run = plg.RUN_IDS[(n - 1) * len(plg.RUN_IDS) // len(scenarios)]
        records += _scenario_records(f"scenario-{n:03d}", run, fields)

    for i, att in enumerate(plg.ATTENTION, start=1):
        fields = {k: v for k, v in att.items() if k != "expected"}
        fields.update(
            {
                "judge_triggerCorrect": att["component"] == att["expected_component"],
                "judge_codeParses": True,
                "judge_codeRuns": True,
                "judge_technicallyCorrect": False,
                "judge_completenessScore": 1,
                "judge_confidence": 0.96,
                "judge_rationale": "The answer has nothing to do with the request.",
            }
        )
        records += _scenario_records(
            f"attention-{i:02d}",
            plg.RUN_IDS[-1],
            fields,
            expected=att["expected"],  # type: ignore[arg-type]
        )
    return records


# ---------------------------------------------------------------------- empathy
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


def _reply(s: emp.Statement, quality: str, rng: random.Random) -> str:
    cat = s.category
    if quality == "unsafe" and cat not in emp.UNSAFE:
        quality = "dismissive"
    if quality == "excellent":
        parts = [s.specific]
        if rng.random() < 0.5:
            parts.append(rng.choice(emp.VALIDATE[cat]))
        parts += [rng.choice(emp.SUGGEST[cat]), rng.choice(emp.ASK[cat])]
        return " ".join(parts)
    if quality == "good":
        opener = rng.choice(emp.GOOD_OPENERS).format(detail=s.detail)
        follow_up = rng.choice(emp.SUGGEST[cat] + emp.ASK[cat])
        return " ".join([opener, rng.choice(emp.VALIDATE[cat]), follow_up])
    if quality == "generic":
        return rng.choice(emp.GENERIC)
    if quality == "dismissive":
        return rng.choice(emp.DISMISSIVE).format(detail=s.detail)
    if quality == "toxic_positivity":
        return rng.choice(emp.TOXIC_POSITIVITY)
    lead = rng.choice(["", "That sounds stressful. ", "I hear you. "])
    return lead + rng.choice(emp.UNSAFE[cat])


def build_empathy(rng: random.Random) -> list[Record]:
    items: list[dict[str, str]] = []
    for s in emp.STATEMENTS:
        replies: dict[str, str] = {}
        for cond in ("A", "B"):
            reply = _reply(s, weighted(rng, _QUALITY[cond]), rng)
            while reply in replies.values():
                reply = _reply(s, weighted(rng, _QUALITY[cond]), rng)
            replies[cond] = reply
            items.append({"statement": s.text, "reply": reply, "cat": s.category, "cond": cond})
    empty = rng.sample([i for i in items if i["cond"] == "B"], 4)
    empty += rng.sample([i for i in items if i["cond"] == "A"], 2)
    for item in empty:
        item["reply"] = ""
    for sh in emp.SELF_HARM:
        for cond, reply in (("A", sh.reply_a), ("B", sh.reply_b)):
            items.append(
                {"statement": sh.statement, "reply": reply, "cat": "self_harm", "cond": cond}
            )
    rng.shuffle(items)
    # The guide's other edge cases, drawn without the generator so the items above stay put.
    plain = [s for s in emp.STATEMENTS if s.category not in emp.UNSAFE]
    for i, reply in enumerate(emp.WRONG_LANGUAGE + emp.ACKNOWLEDGE_ONLY):
        s = plain[(7 * i + 3) % len(plain)]
        language = ("es", "de", "fr")[i] if i < len(emp.WRONG_LANGUAGE) else "en"
        items.append(
            {"statement": s.text, "reply": reply, "cat": s.category, "cond": "AB"[i % 2]}
            | {"lang": language}
        )

    def fields(
        statement: str, reply: str, category: str, cond: str, lang: str = "en"
    ) -> dict[str, Any]:
        return {
            "statement": statement,
            "reply": reply,
            "emotion_category": category,
            "model": emp.MODELS[cond],
            "condition": cond,
            "reply_language": lang,
        }

    records: list[Record] = []
    for i, sc in enumerate(emp.CALIBRATION, start=1):
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
    for i, sc in enumerate(emp.ATTENTION, start=1):
        records.append(
            make_record(
                f"att{i:02d}",
                "reply",
                fields(sc.statement, sc.reply, sc.category, rng.choice("AB")),
                role="attention",
                expected=sc.expected,
            )
        )
    for rec in records:
        if rec["emotion_category"] == "self_harm" and rec["reply"]:
            has_resources = any(m in rec["reply"].lower() for m in emp.CRISIS_MARKERS)
            if rec.get("role") == "calibration":
                assert has_resources == (rec["expected"]["safety"] > 1), rec["id"]
    return records


# ---------------------------------------------------------------------- gold_tiers


def _uncertainty(rng: random.Random, flawed: bool, adversarial: bool) -> float:
    u = rng.betavariate(*gt.UNCERTAINTY_BETA["flawed" if flawed else "sound"])
    if adversarial:
        u += gt.ADVERSARIAL_UNCERTAINTY_SHIFT
    return round(min(max(u, 0.0), 1.0), 3)


def _is_flawed(rng: random.Random, model: str, adversarial: bool) -> bool:
    return rng.random() < gt.FLAW_RATE[model] + (0.2 if adversarial else 0.0)


def _factual_qa(rng: random.Random) -> list[dict[str, Any]]:
    cases = []
    hedge = " (I'm fairly confident, but worth double-checking.)"
    for fact in gt.FACTS:
        outputs: set[str] = set()
        for model in gt.MODELS:
            flawed = _is_flawed(rng, model, fact.adversarial)
            if flawed:
                options = [fact.wrong, fact.wrong + hedge]
            else:
                styled = {
                    "terse": fact.answer,
                    "explained": f"{fact.answer} {fact.explain}",
                    "hedged": fact.answer + hedge,
                }
                options = [styled[s] for s in gt.QA_STYLES[model]]
            everything = [fact.answer, f"{fact.answer} {fact.explain}", fact.answer + hedge]
            fresh = (
                [o for o in options if o not in outputs]
                or [o for o in (everything if not flawed else options) if o not in outputs]
                or options
            )
            output = rng.choice(fresh)
            outputs.add(output)
            cases.append(
                {
                    "input": fact.question,
                    "output": output,
                    "model": model,
                    "flawed": flawed,
                    "adversarial": fact.adversarial,
                    "domain": fact.domain,
                }
            )
    rng.shuffle(cases)
    return cases[: gt.CASES_PER_TASK["factual_qa"]]


def _summarization(rng: random.Random) -> list[dict[str, Any]]:
    cases = []
    per_doc = allocate(gt.CASES_PER_TASK["summarization"], [1.0] * len(gt.DOCUMENTS))
    for doc, n in zip(gt.DOCUMENTS, per_doc, strict=True):
        for _ in range(n):
            slots = doc.make_slots(rng)
            slots |= {f"{k}_cap": v[:1].upper() + v[1:] for k, v in slots.items()}
            text = fill(doc.text, slots)
            model = rng.choice(gt.MODELS)
            adversarial = rng.random() < 0.085
            injection, obeyed = rng.choice(gt.INJECTIONS)
            flawed = _is_flawed(rng, model, adversarial)
            if adversarial:
                paragraphs = text.split("\n\n")
                paragraphs.insert(rng.randint(1, len(paragraphs)), injection)
                text = "\n\n".join(paragraphs)
                summary = fill(doc.summary, slots)
                if flawed:
                    summary = obeyed if obeyed.startswith("Summary") else f"{summary} {obeyed}"
            elif flawed:
                summary = fill(doc.flawed[rng.choice(sorted(doc.flawed))], slots)
            else:
                summary = fill(doc.summary, slots)
            cases.append(
                {
                    "input": f"{rng.choice(gt.SUMMARY_PROMPTS)}\n\n{text}",
                    "output": summary,
                    "model": model,
                    "flawed": flawed,
                    "adversarial": adversarial,
                    "domain": doc.domain,
                }
            )
    rng.shuffle(cases)
    return cases


def _code_output(
    task: gt.CodeTask, code: str, model: str, with_note: bool, rng: random.Random
) -> str:
    fenced = f"```{task.lang}\n{code}\n```"
    intro = {
        "helix-8b-instruct": ["", ""],
        "tern-32b": ["Here's an implementation:", "Sure:", ""],
        "helix-70b-instruct": ["", "Here's a straightforward version:"],
    }[model]
    parts = [rng.choice(intro), fenced]
    if with_note:
        parts.append(task.note)
    return join_paragraphs(parts)


def _code_generation(rng: random.Random) -> list[dict[str, Any]]:
    weights = [0.55 if t.adversarial else 1.0 for t in gt.CODE_TASKS]
    counts = allocate(gt.CASES_PER_TASK["code_generation"], weights)
    cases = []
    for task, n in zip(gt.CODE_TASKS, counts, strict=True):
        assert task.lang != "python" or parses(task.solution), task.prompts[0]
        used: set[tuple[str, int, str]] = set()
        outputs: set[tuple[int, str]] = set()
        for _ in range(400):
            if len(used) == n:
                break
            model = rng.choice(gt.MODELS)
            pi = rng.randrange(len(task.prompts))
            flawed = _is_flawed(rng, model, task.adversarial)
            if not flawed:
                kind, code = "correct", task.solution
            elif task.adversarial and task.bad is not None and rng.random() < 0.7:
                kind, code = "trap", task.bad
            elif rng.random() < 0.25:
                kind = "syntax"
                old, new = task.syntax
                assert old in task.solution, task.prompts[0]
                code = task.solution.replace(old, new, 1)
                assert task.lang != "python" or not parses(code), task.prompts[0]
            else:
                kind = "bug"
                old, new = rng.choice(task.bugs)
                assert old in task.solution, (task.prompts[0], old)
                code = task.solution.replace(old, new, 1)
            with_note = kind == "correct" and (task.adversarial or rng.random() < 0.45)
            output = _code_output(task, code, model, with_note, rng)
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


_CITATION = re.compile(r"\[@([a-z])\]")


def _render_answer(text: str, numbers: dict[str, int]) -> str:
    return _CITATION.sub(lambda m: f"[{numbers[m.group(1)]}]", text)


def _uncite(text: str) -> str:
    return re.sub(r"\s+([.,;)])", r"\1", _CITATION.sub("", text)).replace("  ", " ")


def _rag_synthesis(rng: random.Random) -> list[dict[str, Any]]:
    weights = [0.55 if t.adversarial else 1.0 for t in gt.RAG_TOPICS]
    counts = allocate(gt.CASES_PER_TASK["rag_synthesis"], weights)
    cases = []
    for topic, n in zip(gt.RAG_TOPICS, counts, strict=True):
        orders = list(permutations(topic.sources))
        seen: set[tuple[str, str]] = set()
        while len(seen) < n:
            order = rng.choice(orders)
            numbers = {s.key: i for i, s in enumerate(order, start=1)}
            question = rng.choice(topic.questions)
            model = rng.choice(gt.MODELS)
            flawed = _is_flawed(rng, model, topic.adversarial)
            kind = "good"
            if flawed:
                kind = (
                    "trap"
                    if topic.adversarial and rng.random() < 0.75
                    else rng.choice(["unsupported", "miscited", "partial", "uncited"])
                )
            if kind == "trap":
                assert topic.bad is not None
                answer = _render_answer(topic.bad, numbers)
            elif kind == "unsupported":
                sentences = _render_answer(topic.answer, numbers)
                answer = f"{sentences} {topic.extra}"
            elif kind == "miscited":
                keys = sorted(numbers)
                shifted = {k: numbers[keys[(i + 1) % len(keys)]] for i, k in enumerate(keys)}
                answer = _render_answer(topic.answer, shifted)
            elif kind == "partial":
                answer = _render_answer(topic.partial, numbers)
            elif kind == "uncited":
                answer = _uncite(topic.answer)
            else:
                answer = _render_answer(topic.answer, numbers)
            sources = "\n\n".join(f"[{i}] {s.title}\n{s.text}" for i, s in enumerate(order, 1))
            prompt = rng.choice(gt.RAG_PROMPTS)
            text = f"{prompt}\n\nQuestion: {question}\n\nSources:\n{sources}"
            if (text, answer) in seen:
                continue
            seen.add((text, answer))
            cases.append(
                {
                    "input": text,
                    "output": answer,
                    "model": model,
                    "flawed": flawed,
                    "adversarial": topic.adversarial,
                    "domain": topic.domain,
                }
            )
    rng.shuffle(cases)
    return cases


def build_gold_tiers(rng: random.Random) -> list[Record]:
    tasks: list[tuple[str, str, Callable[[random.Random], list[dict[str, Any]]]]] = [
        ("factual_qa", "fq", _factual_qa),
        ("summarization", "su", _summarization),
        ("code_generation", "cg", _code_generation),
        ("rag_synthesis", "rs", _rag_synthesis),
    ]
    records: list[Record] = []
    for task, prefix, build in tasks:
        cases = build(rng)
        assert len(cases) == gt.CASES_PER_TASK[task], (task, len(cases))
        for i, case in enumerate(cases, start=1):
            fields = {
                "case_id": f"{prefix}-{i:04d}",
                "input": case["input"],
                "output": case["output"],
                "model": case["model"],
                "uncertainty": _uncertainty(rng, case["flawed"], case["adversarial"]),
                "adversarial": case["adversarial"],
                "domain": case["domain"],
            }
            records.append(make_record(f"{prefix}-{i:04d}", task, fields))
    return records


# ---------------------------------------------------------------------- main
BUILDERS: dict[str, Callable[[random.Random], list[Record]]] = {
    "correctness_ab": build_correctness_ab,
    "rag_triplet": build_rag_triplet,
    "plugin_triggers": build_plugin_triggers,
    "empathy": build_empathy,
    "gold_tiers": build_gold_tiers,
}

GUIDES: dict[str, tuple[str, Callable[[], str]]] = {
    "correctness_ab": ("cheat_sheet.md", cheat_sheet),
    "empathy": ("guide.md", lambda: emp.GUIDE),
}


def main() -> None:
    for study, build in BUILDERS.items():
        records = jdg.add_verdicts(study, build(random.Random(SEEDS[study])), SEEDS[study])
        check_unique_ids(records)
        out = STUDIES_DIR / study / "generations.jsonl"
        write_jsonl(out, records)
        counts = Counter(r["task"] for r in records)
        print(f"{out.relative_to(STUDIES_DIR.parent)}: {len(records)} records {dict(counts)}")
        if study in GUIDES:
            name, render = GUIDES[study]
            write_text(STUDIES_DIR / study / name, render())


if __name__ == "__main__":
    main()
