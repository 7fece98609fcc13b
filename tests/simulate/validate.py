"""A small validator of returned rows, written from the study model (tests only)."""

from __future__ import annotations

from typing import Any

from raterlab.protocol import SKIP_VALUE, BinaryField, LikertField, Task
from raterlab.simulate import violations


def parse(spec: Any, cell: str) -> Any:
    """A cell as the field's value (Likert ``5.0`` -> 5), or the text when it is not one."""
    if isinstance(spec, LikertField | BinaryField):
        try:
            number = float(cell)
        except ValueError:
            return cell
        return int(number) if number.is_integer() else number
    return cell


def row_problems(task: Task, row: dict[str, str]) -> list[str]:
    """Rule breaches of one returned row (domain, required, skip, conditional, constraints)."""
    problems = []
    values = {}
    for name, spec in task.fields.items():
        cell = row.get(name, "")
        if cell == "":
            if task.is_required(name):
                problems.append(f"{name}: required but empty")
            continue
        if cell == SKIP_VALUE:
            if spec.skip is None:
                problems.append(f"{name}: skip not allowed")
            elif row.get(spec.skip.reason, "") == "":
                problems.append(f"{name}: skip without {spec.skip.reason}")
            continue
        value = parse(spec, cell)
        domain = spec.domain()
        if domain is not None and value not in domain:
            problems.append(f"{name}: {cell!r} outside {list(domain)}")
        values[name] = value
    for rule in task.conditional:
        if any(values.get(n) in rule.when.in_ for n in rule.when.any_of if n in values):
            problems += [f"{n}: required by {rule.when}" for n in rule.require if not row.get(n)]
    problems += violations(values, task.constraints)
    try:
        if float(row.get("time_spent_s", "")) <= 0:
            problems.append("time_spent_s: not positive")
    except ValueError:
        problems.append("time_spent_s: not a number")
    return problems
