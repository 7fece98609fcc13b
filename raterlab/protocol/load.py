"""Reading study files: YAML -> :class:`Study`, with errors that name the YAML path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from raterlab.protocol.checks import check_study
from raterlab.protocol.study import Study

_PLAIN = {
    "missing": "is required",
    "extra_forbidden": "is not a known setting here",
}
_FIELD_TYPES = ("binary", "likert", "categorical", "confidence", "text", "list")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it: about 9x faster than the pure-Python
one, and every pipeline step reads its study file."""


class StudyError(ValueError):
    """A study file that cannot be used, with every problem found as ``(path, sentence)``."""

    def __init__(self, source: str, problems: list[tuple[str, str]]):
        self.source = source
        self.problems = problems
        lines = "\n".join(f"  {path or '(top level)'}: {msg}" for path, msg in problems)
        super().__init__(f"{source} is not a valid study file:\n{lines}")


def _yaml_path(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for i, part in enumerate(loc):
        if isinstance(part, int):
            parts[-1:] = [f"{parts[-1]}[{part}]"] if parts else [f"[{part}]"]
        elif i >= 2 and loc[i - 2] == "fields" and part in _FIELD_TYPES:
            continue  # pydantic's union tag, not part of the file
        elif "[" in part or part.startswith(("function-", "tagged-union")):
            continue
        else:
            parts.append(part)
    return ".".join(parts)


def _sentence(error: Any) -> str:
    if error["type"] in _PLAIN:
        return _PLAIN[error["type"]]
    msg: str = error["msg"]
    msg = msg.removeprefix("Value error, ")
    if error["type"] == "union_tag_invalid":
        msg = f"type must be one of {', '.join(_FIELD_TYPES)} (got {error['input'].get('type')!r})"
    return msg[0].lower() + msg[1:] if msg else msg


def parse_study(data: Any, source: str = "<study>", path: Path | None = None) -> Study:
    """Validate a study mapping (already parsed YAML) into a :class:`Study`."""
    if not isinstance(data, dict):
        raise StudyError(source, [("", "the file must hold a mapping of settings")])
    try:
        study = Study.model_validate({**data, "source": path})
    except ValidationError as exc:
        problems = [(_yaml_path(e["loc"]), _sentence(e)) for e in exc.errors()]
        raise StudyError(source, problems) from None
    problems = check_study(study)
    if problems:
        raise StudyError(source, problems)
    return study


_PARSED: dict[tuple[Path, str], Study] = {}
"""Studies already parsed in this process, by resolved path and the file's exact text: a
pipeline run reads its study file once per step (about 60 times), and parsing it (YAML, then
pydantic) costs 1-2 ms where reading it costs 0.02. A :class:`Study` is frozen, so the same
one is handed out; the checks that look at other files run on every call."""
_PARSED_KEPT = 32


def load_study(path: str | Path) -> Study:
    """Read and validate one study file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StudyError(str(path), [("", "file not found")]) from None
    key = (path.resolve(), text)
    study = _PARSED.get(key)
    if study is None:
        study = _parse_text(text, path)
    else:
        problems = check_study(study)
        if problems:
            raise StudyError(str(path), problems)
    if study.name != path.stem:
        raise StudyError(str(path), [("name", f"must match the file name {path.stem!r}")])
    if key not in _PARSED:
        if len(_PARSED) >= _PARSED_KEPT:
            _PARSED.pop(next(iter(_PARSED)))
        _PARSED[key] = study
    return study


def _parse_text(text: str, path: Path) -> Study:
    try:
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else ""
        raise StudyError(str(path), [(where, f"is not valid YAML: {exc}")]) from None
    return parse_study(data, str(path), path.resolve())


def discover_studies(folder: str | Path) -> dict[str, Path]:
    """Study files in ``folder`` (every ``*.yaml`` at its top level), by study name."""
    return {p.stem: p for p in sorted(Path(folder).glob("*.yaml"))}
