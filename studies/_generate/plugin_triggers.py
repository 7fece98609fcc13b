"""``plugin_triggers``: 150 agent-plugin scenarios from two evaluation runs with the LLM
judge's (hidden) verdicts, one record per scenario and labeling dimension (the study's four
tasks), plus 2 attention scenarios.

Scenarios are drawn from the templates of ``_samples/plugin_triggers/templates.yaml``, more
of them for stable components: a phrasing and a slot set, and a variant (good, incomplete,
broken, wrong, or a misfire of another component), each scenario text unique.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .draw import allocate, weighted
from .material import read_material, typed
from .plugin_triggers_judge import ATTENTION_VERDICT, judge
from .records import Record, make_record
from .text import fill, parses, python_blocks

_MATURITY_WEIGHT = {"stable": 9.0, "beta": 6.0, "experimental": 4.0}
_VARIANT_WEIGHT = {"good": 0.5, "incomplete": 0.17, "broken": 0.15, "wrong": 0.18}
_N_SCENARIOS = 150
_N_MISFIRES = 30
_ATTENTION_FIELDS = {
    "trigger": ("trigger-accuracy", "triggerCorrect"),
    "technically_correct": ("technical-accuracy", "technicallyCorrect"),
    "completeness": ("completeness", "completenessScore"),
}


@dataclass(frozen=True)
class Component:
    name: str
    type: str
    maturity: str


@dataclass(frozen=True)
class Capture:
    tool: str
    input: str
    output: str


@dataclass(frozen=True)
class Variant:
    response: str
    note: str


@dataclass(frozen=True)
class Misfire:
    component: str
    tools: tuple[Capture, ...]
    response: str
    correct: bool
    note: str


@dataclass(frozen=True)
class Template:
    expected: str
    complexity: str
    phrasings: tuple[str, ...]
    slots: tuple[dict[str, str], ...]
    tools: tuple[Capture, ...]
    good: str
    incomplete: Variant | None = None
    broken: Variant | None = None
    wrong: Variant | None = None
    misfire: Misfire | None = None


@dataclass(frozen=True)
class Material:
    components: tuple[Component, ...]
    invoke_tool: dict[str, str]
    plugin_descriptions: dict[str, str]
    run_ids: tuple[str, ...]
    dimensions: tuple[str, ...]
    attention: tuple[dict[str, Any], ...]
    templates: tuple[Template, ...]


def _captures(
    m: Material,
    tools: tuple[Capture, ...],
    component: str,
    slots: dict[str, str],
    show_invoke: bool,
) -> list[dict[str, str]]:
    """The tool captures of a scenario; ``@invoke`` becomes the component type's tool."""
    comp = next(c for c in m.components if c.name == component)
    slots = {**slots, "component": component}
    out = []
    for cap in tools:
        if cap.tool == "@invoke":
            if not show_invoke:
                continue
            tool = m.invoke_tool[comp.type]
        else:
            tool = cap.tool
        out.append(
            {"tool": tool, "input": fill(cap.input, slots), "output": fill(cap.output, slots)}
        )
    return out


def _scenario_records(
    m: Material,
    scenario_id: str,
    run_id: str,
    fields: Record,
    expected: dict[str, Any] | None = None,
) -> list[Record]:
    """One record per labeling dimension (a task of the study) for one scenario."""
    base = {
        "scenarioId": scenario_id,
        "runId": run_id,
        "plugin": fields["plugin"],
        "plugin_description": m.plugin_descriptions[fields["plugin"]],
        **{k: v for k, v in fields.items() if k != "plugin"},
    }
    if expected is None:
        return [make_record(f"{scenario_id}:{d}", d, base) for d in m.dimensions]
    by_task: dict[str, dict[str, Any]] = {}
    for key, value in expected.items():
        task, field = _ATTENTION_FIELDS[key]
        by_task.setdefault(task, {})[field] = int(value == "yes") if key == "trigger" else value
    return [
        make_record(f"{scenario_id}:{task}", task, base, role="attention", expected=want)
        for task, want in by_task.items()
    ]


def _response_template(t: Template, variant: str) -> str:
    if variant == "misfire":
        assert t.misfire is not None
        return t.misfire.response
    return t.good if variant == "good" else getattr(t, variant).response


def _draw_scenarios(m: Material, rng: random.Random) -> list[dict[str, Any]]:
    """Template, slot set, phrasing and variant of every scenario, each text unique."""
    templates = m.templates
    maturity = {c.name: c.maturity for c in m.components}
    weights = [_MATURITY_WEIGHT[maturity[t.expected]] for t in templates]
    counts = allocate(_N_SCENARIOS, weights)
    instances = [(ti, k) for ti, n in enumerate(counts) for k in range(n)]
    eligible = [inst for inst in instances if templates[inst[0]].misfire is not None]
    misfires = set(rng.sample(eligible, _N_MISFIRES))
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
                fill(_response_template(t, variant), t.slots[si]),
            )
            if text not in seen:
                break
        else:
            raise AssertionError(f"no unique scenario left for {t.expected}")
        seen.add(text)
        scenarios.append({"ti": ti, "si": si, "pi": pi, "variant": variant})
    rng.shuffle(scenarios)
    return scenarios


def _scenario_fields(m: Material, sc: dict[str, Any], rng: random.Random) -> Record:
    """The fields of one drawn scenario, with the judge's verdict."""
    t = m.templates[sc["ti"]]
    slots = t.slots[sc["si"]]
    variant = sc["variant"]
    expected = t.expected
    exp_comp = next(c for c in m.components if c.name == expected)
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
    captures = _captures(m, tools, component, slots, show_invoke)
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
    scenario = {
        "expected": expected,
        "component": component,
        "complexity": t.complexity,
        "variant": variant,
        "has_code": "yes" if "```" in response else "no",
        "note": note,
    }
    return {
        "plugin": expected.split(":", 1)[0],
        "component": component,
        "expected_component": expected,
        "query": fill(t.phrasings[sc["pi"]], slots),
        "tool_captures": captures,
        "response": response,
        "maturity": exp_comp.maturity,
        "component_type": exp_comp.type,
        "trigger_complexity": t.complexity,
        **judge(rng, truth, scenario),
    }


def build(m: Material, rng: random.Random) -> list[Record]:
    """The study's records: every scenario's dimensions, then the attention scenarios."""
    scenarios = _draw_scenarios(m, rng)
    records: list[Record] = []
    for n, sc in enumerate(scenarios, start=1):
        fields = _scenario_fields(m, sc, rng)
        run = m.run_ids[(n - 1) * len(m.run_ids) // len(scenarios)]
        records += _scenario_records(m, f"scenario-{n:03d}", run, fields)
    for i, att in enumerate(m.attention, start=1):
        fields = {k: v for k, v in att.items() if k != "expected"}
        fields |= {
            "judge_triggerCorrect": att["component"] == att["expected_component"],
            **ATTENTION_VERDICT,
        }
        records += _scenario_records(
            m, f"attention-{i:02d}", m.run_ids[-1], fields, expected=att["expected"]
        )
    return records


def generate(folder: Path, rng: random.Random) -> tuple[list[Record], dict[str, str]]:
    """The study's records (it has no generated documents)."""
    return build(typed(Material, read_material(folder)), rng), {}
