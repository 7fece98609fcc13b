"""The annotator's instructions for a packet, written from the study file (never by hand)."""

from __future__ import annotations

from raterlab.protocol import (
    CONFIDENCE_LEVELS,
    LIST_SEPARATOR,
    SKIP_VALUE,
    BinaryField,
    CategoricalField,
    ConfidenceField,
    LikertField,
    ListField,
    PairwiseField,
    Study,
    Task,
)
from raterlab.protocol.fields import FieldSpec

MAX_CELL_CHARS = 20_000
"""The most characters a returned cell may hold: the packet says so, and the ingest rejects a
longer cell (rule ``too_long``)."""


def allowed_values(spec: FieldSpec) -> str:
    """What a cell of the field may hold, in words (a Likert field from 1 to 5: ``a whole
    number from 1 to 5``), and the skip it allows: the annotator's instructions and the
    adjudicator's packet say it the same way."""
    if isinstance(spec, BinaryField):
        text = "1 (yes) or 0 (no)"
    elif isinstance(spec, LikertField):
        text = f"a whole number from {spec.min} to {spec.max}"
    elif isinstance(spec, PairwiseField):
        text = (
            "which response is better: "
            + ", ".join(f"`{value}`" for value in spec.answers_seen())
            + " (`response_left` is on the left, `response_right` on the right)"
        )
    elif isinstance(spec, CategoricalField):
        text = "one of " + ", ".join(f"`{label}`" for label in spec.labels)
    elif isinstance(spec, ConfidenceField):
        text = "one of " + ", ".join(f"`{c}`" for c in CONFIDENCE_LEVELS)
    elif isinstance(spec, ListField):
        text = f"short items separated by `{LIST_SEPARATOR}`"
    else:
        text = "free text"
    if spec.skip is not None:
        text += f", or `{SKIP_VALUE}` with a reason in `{spec.skip.reason}`"
    return text


def _field_lines(study: Study, task: Task) -> list[str]:
    lines = ["| column | what to write | required | meaning |", "|---|---|---|---|"]
    for name, spec in task.fields.items():
        required = "yes" if task.is_required(name) else "no"
        lines.append(f"| `{name}` | {allowed_values(spec)} | {required} | {spec.description} |")
    layout = study.packet
    if layout.time_spent == "required":
        lines.append(f"| `{layout.time_column}` | seconds you spent on the item | yes | |")
    elif layout.time_spent == "optional_in_template":
        lines.append(f"| `{layout.time_column}` | seconds you spent on the item | no | |")
    else:
        lines.append(
            f"| `{layout.time_column}` (add it if you like) | seconds you spent on the item "
            "| no | |"
        )
    for name, spec in task.fields.items():
        if isinstance(spec, LikertField) and spec.anchors:
            lines += ["", f"Scale for `{name}`:", ""]
            lines += [f"- **{point}**: {text}" for point, text in sorted(spec.anchors.items())]
    return lines


def _rule_lines(task: Task) -> list[str]:
    lines = []
    for rule in task.conditional:
        values = " or ".join(str(v) for v in rule.when.in_)
        fields = ", ".join(f"`{f}`" for f in rule.when.any_of)
        needed = ", ".join(f"`{f}`" for f in rule.require)
        lines.append(f"- Fill {needed} when {fields} is {values}.")
    for c in task.constraints:
        then = "must be 1" if c.kind == "implies" else "must be 0"
        lines.append(f"- When `{c.antecedent}` is 1, `{c.consequent}` {then}.")
    if task.no_missing:
        lines.append("- Every rating column must be filled on every row.")
    return lines


def _break_line(every: int, n_rows: int) -> list[str]:
    """Where to pause in a file of ``n_rows`` rows (``packet.break_every``)."""
    after = list(range(every, n_rows, every))
    if not after:
        return []
    samples = ", ".join(str(n) for n in after)
    rows = ", ".join(str(n + 1) for n in after)
    return [
        "",
        f"Take a 5-minute break every {every} samples: after samples {samples} "
        f"(spreadsheet rows {rows}, the header being row 1).",
    ]


def packet_instructions(
    study: Study,
    annotator: str,
    batch: str,
    files: dict[str, str],
    n_rows: dict[str, int] | None = None,
) -> str:
    """Markdown instructions for one packet: what to read, what to fill in, the rules, and
    where to pause (``packet.break_every``, given each file's ``n_rows``)."""
    lines = [
        f"# {study.title}",
        "",
        f"Packet `{batch}` for `{annotator}`.",
        "",
        "For each row of the annotations file, read the item with the same "
        f"`{study.packet.item_column}` in the reference file, then fill in the empty columns. "
        f"Do not change `annotator_id` or `{study.packet.item_column}`, and do not add or "
        "remove rows. Save as CSV (UTF-8) and send the file back.",
        "",
        f"Type values, not formulas: a cell that shows a spreadsheet error (`#VALUE!`, "
        f"`#N/A`, `Err:509`...) is not an answer, and the file is sent back. A cell holds at "
        f"most {MAX_CELL_CHARS:,} characters.",
    ]
    if study.guide:
        lines += ["", "Read the guide in this folder before you start."]
    for task_name, file_name in files.items():
        task = study.tasks[task_name]
        lines += ["", f"## `{file_name}`: {task_name} ({task.unit})"]
        if task.description:
            lines += ["", task.description]
        lines += ["", *_field_lines(study, task)]
        if study.packet.break_every and n_rows:
            lines += _break_line(study.packet.break_every, n_rows.get(task_name, 0))
        rules = _rule_lines(task)
        if rules:
            lines += ["", "Rules:", "", *rules]
    return "\n".join(lines) + "\n"
