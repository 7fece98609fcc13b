"""Every command the README and docs/ show is one the tools accept: each ``raterlab`` line in a
code block parses with the real command line (options, choices, required arguments), each
``make`` target exists, and each ``python -m`` module is importable. Synopses are checked in
both forms: without their ``[optional]`` parts and with all of them (first of ``a|b``)."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from raterlab.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^\s*```")


def _commands(path: Path) -> list[tuple[int, str]]:
    """(line number, command) of every shell line in the file's code blocks, continuations
    joined and prompts (``$``) and trailing comments removed."""
    found, inside, pending, start = [], False, "", 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            continue
        text = line.strip()
        if pending:
            text = pending + " " + text
        elif text.startswith("$ "):
            text, start = text[2:], number
        elif re.match(r"^(\.venv/bin/)?raterlab ", text):
            start = number
        else:
            continue
        if text.endswith("\\"):
            pending = text[:-1].strip()
            continue
        pending = ""
        found.append((start, re.sub(r"\s+#.*$", "", text)))
    return found


INLINE = re.compile(r"`(raterlab [^`]*--[^`]*)`")
UNKNOWN = ("unrecognized arguments", "invalid choice")


def _inline(path: Path) -> list[tuple[int, str]]:
    """(line number, command) of every inline ``raterlab ... --option`` in the prose."""
    return [
        (number, match)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        for match in INLINE.findall(line)
    ]


def _forms(words: list[str]) -> list[list[str]]:
    """A synopsis without its optional parts, and with all of them (first alternative)."""
    text = " ".join(words)
    bare = re.sub(r"\s*\[[^\]]*\]", "", text)
    full = re.sub(r"\[([^\]]*)\]", r"\1", text)
    pick = lambda s: [w.split("|")[0] for w in s.split()]  # noqa: E731
    return [pick(bare), pick(full)]


CASES = [
    pytest.param(path, number, command, id=f"{path.name}:{number}")
    for path in DOCS
    for number, command in _commands(path)
    if re.match(r"^((\.venv/bin/)?raterlab|make|(\.venv/bin/)?python3? -m) ", command)
]


@pytest.mark.parametrize(("path", "number", "command"), CASES)
def test_documented_command_is_accepted(path: Path, number: int, command: str) -> None:
    words = shlex.split(command.replace("|", "\\|") if "raterlab" not in command else command)
    program, args = words[0].removeprefix(".venv/bin/"), words[1:]
    where = f"{path.name}:{number}: {command}"
    if program == "make":
        targets = re.findall(r"^([a-z-]+):", (REPO / "Makefile").read_text(), re.MULTILINE)
        assert args[0] in targets, f"{where}: no make target {args[0]!r}"
        return
    if program.startswith("python"):
        module = args[args.index("-m") + 1]
        assert importlib.util.find_spec(module) is not None, f"{where}: no module {module}"
        return
    for form in _forms(args):
        try:
            build_parser(form[0] if form else None).parse_args(form)
        except SystemExit as exit_:
            if exit_.code != 0:  # 0: the help the command asked for (``--help``)
                pytest.fail(f"{where}: raterlab {' '.join(form)} is refused (exit {exit_.code})")


INLINE_CASES = [
    pytest.param(path, number, command, id=f"{path.name}:{number}:inline")
    for path in DOCS
    for number, command in _inline(path)
]


@pytest.mark.parametrize(("path", "number", "command"), INLINE_CASES)
def test_inline_command_uses_real_options(path, number, command, capsys) -> None:
    """A command named in a sentence may leave out required arguments, but every option and
    choice it shows must exist."""
    for form in _forms(shlex.split(command)[1:]):
        if "--help" in form:
            continue
        try:
            build_parser(form[0] if form else None).parse_args(form)
        except SystemExit:
            error = capsys.readouterr().err
            assert not any(word in error for word in UNKNOWN), f"{path.name}:{number}: {error}"


def test_the_docs_show_commands() -> None:
    assert len(CASES) >= 5 and len(INLINE_CASES) >= 5  # the extraction itself works
