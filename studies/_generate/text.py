"""Text helpers of the generator: reflowing ``!prose`` material, filling ``{slots}``, and
looking at the fenced code in a generated answer.

Material is written wrapped at the source line length; :func:`prose` reflows it into natural
paragraphs (one line per paragraph or list item) while leaving fenced code untouched.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable, Mapping

_BLOCK_START = re.compile(r"^(?:[-*] |\d+\. |#|>|\|)")
_SLOT = re.compile(r"\{([a-z][a-z0-9_]*)\}")
_FENCE = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)


def block(text: str) -> str:
    """Dedent ``text`` and strip surrounding blank lines, keeping every line break."""
    return textwrap.dedent(text).strip("\n").rstrip()


def prose(text: str) -> str:
    """Dedent ``text`` and join wrapped lines into paragraphs; code fences stay verbatim.

    A line continues the previous one unless it is blank, starts a list item, heading,
    quote or table row, or the previous line is blank, a heading or a code fence.
    """
    out: list[str] = []
    in_code = False
    for raw in block(text).splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            in_code = not in_code
            out.append(stripped)
            continue
        if in_code:
            out.append(raw.rstrip())
            continue
        if not stripped:
            out.append("")
            continue
        prev = out[-1] if out else ""
        joinable = (
            prev.strip()
            and not prev.strip().startswith(("```", "#"))
            and not _BLOCK_START.match(stripped)
        )
        if joinable:
            out[-1] = prev.rstrip() + " " + stripped
        else:
            out.append(raw.rstrip() if _BLOCK_START.match(stripped) is None else stripped)
    return "\n".join(out).strip()


def fill(text: str, slots: Mapping[str, str]) -> str:
    """Replace ``{name}`` placeholders whose name is in ``slots``; leave other braces alone."""

    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        return slots[name] if name in slots else match.group(0)

    return _SLOT.sub(sub, text)


def join_paragraphs(parts: Iterable[str]) -> str:
    """The non-empty ``parts`` as paragraphs (separated by a blank line)."""
    return "\n\n".join(p for p in parts if p)


def python_blocks(text: str) -> list[str]:
    """The bodies of the fenced ```python blocks of ``text``."""
    return [body for lang, body in _FENCE.findall(text) if lang == "python"]


def parses(code: str) -> bool:
    """Whether ``code`` is syntactically valid Python."""
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True
