"""``docs/cli.md``: the ``--help`` of ``raterlab`` and of every subcommand, generated.

Each command of :data:`raterlab.cli.commands.COMMANDS` gets a section with its help text as
argparse prints it, followed by the help of each of its actions (``raterlab pilot status``...).
The text is formatted at a fixed width (:data:`WIDTH`), not the terminal's, so the page is the
same on every machine running the same Python; a test regenerates it and compares. Run
``python -m raterlab.cli.reference --out docs/cli.md`` after changing a command.

Importing this module loads only :mod:`raterlab.cli`; rendering imports every command module.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from raterlab.cli import build_parser
from raterlab.cli.commands import COMMANDS

WIDTH = 100
"""The column width argparse wraps the help text to (it otherwise reads the terminal's)."""
COMMAND = "python -m raterlab.cli.reference --out docs/cli.md"
"""How to regenerate the page (quoted in its header and in the test's failure message)."""
HEADER = f"""# Command-line reference

The `--help` of `raterlab` and of each of its commands, as the command line prints it. This
page is generated: after changing a command, run `{COMMAND}` (a test fails until you do).
How to run `raterlab` is in the [README](../README.md#running-raterlab).
"""


def _fixed_width(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with its help formatted at :data:`WIDTH` columns, keeping its formatter."""
    parser.formatter_class = functools.partial(parser.formatter_class, width=WIDTH)
    return parser


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parsers of ``parser``'s subcommands by name (empty when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _sections(parser: argparse.ArgumentParser, level: int) -> Iterator[str]:
    """A Markdown section with ``parser``'s help, then one per subcommand, depth first."""
    help_text = _fixed_width(parser).format_help().rstrip()
    yield f"{'#' * level} `{parser.prog}`\n\n```text\n{help_text}\n```\n"
    for sub in subparsers(parser).values():
        yield from _sections(sub, level + 1)


def render() -> str:
    """The whole page: the header, ``raterlab --help``, then every command in the order of
    :data:`COMMANDS`, each with its actions."""
    top = _fixed_width(build_parser())
    parts = [HEADER, f"## `raterlab`\n\n```text\n{top.format_help().rstrip()}\n```\n"]
    for name in COMMANDS:
        parts.extend(_sections(subparsers(build_parser(name))[name], 2))
    return "\n".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m raterlab.cli.reference", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--out", type=Path, default=None, help="file to write (default: stdout)")
    args = parser.parse_args(argv)
    text = render()
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
