"""Small text helpers shared by the material modules.

Material is written wrapped at the source line length; ``prose`` reflows it into natural
paragraphs (one line per paragraph or list item) while leaving fenced code untouched, and
``block`` keeps text verbatim (tool outputs, documents with their own line structure).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping

_BLOCK_START = re.compile(r"^(?:[-*] |\d+\. |#|>|\|)")
_SLOT = re.compile(r"\{([a-z][a-z0-9_]*)\}")


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
