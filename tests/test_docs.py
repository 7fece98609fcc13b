"""The README and docs/ against the code: the README stays short, every link leads somewhere,
the command-line reference is the one the parsers print, the study files shown are valid, and
the rules docs/naming_conventions.md marks *(tested)* hold for the tables and the commands."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest
import yaml

from raterlab.cli import build_parser, main
from raterlab.cli.commands import COMMANDS
from raterlab.cli.reference import COMMAND, render, subparsers
from raterlab.protocol import parse_study
from raterlab.tables import TABLES
from tests.conftest import REPO

README = REPO / "README.md"
PAGES = [README, *sorted((REPO / "docs").glob("*.md"))]
CLI_DOC = REPO / "docs" / "cli.md"
FENCED = re.compile(r"^\s*```.*?^\s*```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """``text`` without its code blocks and inline code, where brackets are not links."""
    return re.sub(r"`[^`\n]*`", "", FENCED.sub("", text))


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lowercase, punctuation dropped, spaces to ``-``."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    """The anchors of every heading of ``path`` (repeated headings get ``-1``, ``-2``...)."""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCED.sub("", path.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"^#{1,6} (.+)$", line)
        if not match:
            continue
        anchor = _anchor(match.group(1))
        found.add(f"{anchor}-{seen[anchor]}" if anchor in seen else anchor)
        seen[anchor] = seen.get(anchor, 0) + 1
    return found


def _section(path: Path, heading: str, language: str) -> str:
    """The first ``language`` code block after ``heading`` in ``path``."""
    text = path.read_text(encoding="utf-8")
    pattern = rf"{re.escape(heading)}.*?```{language}\n(.*?)```"
    return re.search(pattern, text, re.DOTALL).group(1)


def test_readme_is_read_in_five_minutes() -> None:
    size = len(README.read_bytes())
    assert size <= 20_000, f"README.md is {size:,} bytes; move detail to docs/ (at most 20,000)"


LINKS = [
    pytest.param(page, target, id=f"{page.name}:{target}")
    for page in PAGES
    for target in LINK.findall(_prose(page.read_text(encoding="utf-8")))
    if not re.match(r"^[a-z]+:", target)
]


@pytest.mark.parametrize(("page", "target"), LINKS)
def test_relative_link_resolves(page: Path, target: str) -> None:
    """A relative link names an existing file, and its ``#anchor`` a heading of that file."""
    file, _, anchor = target.partition("#")
    path = (page.parent / file).resolve() if file else page
    assert path.exists(), f"{page.name}: link to {target}: no file {path}"
    if anchor and path.suffix == ".md":
        assert anchor in _anchors(path), f"{page.name}: link to {target}: no such heading"


def test_links_are_found() -> None:
    """The extraction itself works: the README links to every page of docs/."""
    linked = {target.partition("#")[0] for page, target in (p.values for p in LINKS)}
    assert {f"docs/{path.name}" for path in PAGES[1:]} <= linked


def test_anchor_is_githubs() -> None:
    assert _anchor("Running `raterlab`") == "running-raterlab"
    assert _anchor("`gold.agreement`") == "goldagreement"
    assert _anchor("What the demo produced, and where to look") == (
        "what-the-demo-produced-and-where-to-look"
    )


def test_cli_reference_is_current() -> None:
    assert CLI_DOC.read_text(encoding="utf-8") == render(), (
        f"{CLI_DOC.relative_to(REPO)} differs from the commands' --help; regenerate it with "
        f"`{COMMAND}`"
    )


def test_cli_reference_has_every_command_and_action() -> None:
    text = render()
    assert "## `raterlab`\n" in text
    for name in COMMANDS:
        assert f"## `raterlab {name}`\n" in text
        assert f"usage: raterlab {name} " in text
    for action in ("study check", "report serve", "labelstudio import", "tables docs"):
        assert f"### `raterlab {action}`\n" in text


def test_cli_reference_does_not_depend_on_the_terminal(monkeypatch) -> None:
    """argparse wraps at the terminal's width (``COLUMNS``); the page must not."""
    monkeypatch.setenv("COLUMNS", "40")
    narrow = render()
    monkeypatch.setenv("COLUMNS", "200")
    assert narrow == render()


def test_cli_reference_module_writes_the_page(tmp_path) -> None:
    from raterlab.cli.reference import main as reference

    out = tmp_path / "cli.md"
    assert reference(["--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render()


def test_readme_example_study_passes_study_check(tmp_path, capsys) -> None:
    """The README's study, with 20 items shaped like its generations lines, is accepted by
    ``raterlab study check`` (design feasibility included)."""
    study = yaml.safe_load(_section(README, "## An example study file", "yaml"))
    lines = [
        json.loads(line)
        for line in _section(README, "generations.jsonl`, one line", "json").splitlines()
    ]
    folder = tmp_path / study["name"]
    folder.mkdir()
    (tmp_path / f"{study['name']}.yaml").write_text(yaml.safe_dump(study), encoding="utf-8")
    (folder / "guide.md").write_text("# Guide\n", encoding="utf-8")
    items = [{**lines[i % len(lines)], "id": f"q{i:02d}"} for i in range(20)]
    (folder / "generations.jsonl").write_text(
        "".join(json.dumps(item) + "\n" for item in items), encoding="utf-8"
    )
    assert main(["study", "check", str(tmp_path / f"{study['name']}.yaml")]) == 0
    assert capsys.readouterr().out.startswith("ok ")


def _merged(base: dict, extra: dict) -> dict:
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key != "pilot_gate":
            out[key] = _merged(out[key], value)
        elif isinstance(value, list) and key == "edge_cases":
            out[key] = [*out.get(key, []), *value]
        else:
            out[key] = value
    return out


STUDY_FILE = REPO / "docs" / "study_file.md"


def test_study_file_complete_example_parses() -> None:
    block = _section(STUDY_FILE, "A complete example (this exact text", "yaml")
    study = parse_study(yaml.safe_load(block), "docs/study_file.md")
    assert study.name == "helpfulness"
    assert study.tasks["answer"].fields["tone"].skip.reason == "notes"
    assert study.routing.tiers == ["GOLD", "TRIAGE"]


def test_study_file_protocol_settings_merge_into_a_valid_study() -> None:
    base = _section(STUDY_FILE, "A complete example (this exact text", "yaml")
    extra = _section(STUDY_FILE, "More settings, for bringing", "yaml")
    merged = _merged(yaml.safe_load(base), yaml.safe_load(extra))
    study = parse_study(merged, "docs/study_file.md")
    assert study.packet.columns[0] == "sample_id"
    assert study.consensus.adjudicate.likert_gap == 2
    assert study.consensus.adjudicate.notes_contain == ["UNCERTAIN"]
    assert study.thresholds.pilot_gate.weights == "unweighted"
    assert study.edge_cases[-1].when.matches({"answer": "No idea."})


# docs/naming_conventions.md, the rules it marks *(tested)*.


def test_tables_live_in_raw_staging_or_gold() -> None:
    assert {table.schema for table in TABLES.values()} == {"raw", "staging", "gold"}


def test_every_table_starts_with_study() -> None:
    exceptions = {"staging.unpublished"}  # the list of gold tables, not rows of a study
    wrong = [
        name
        for name, table in TABLES.items()
        if not table.view and name not in exceptions and table.columns[0].name != "study"
    ]
    assert wrong == []


def test_column_suffixes_mean_one_type() -> None:
    columns = [(name, c) for name, table in TABLES.items() for c in table.columns]
    assert [
        (n, c.name) for n, c in columns if c.name.endswith("_at") and "TIME ZONE" not in c.type
    ] == []
    assert [
        (n, c.name)
        for n, c in columns
        if c.name.startswith("n_") and c.type not in ("BIGINT", "INTEGER")
    ] == []
    assert [
        (n, c.name) for n, c in columns if c.type == "BOOLEAN" and c.name.startswith("is_")
    ] == []


def _options(parser: argparse.ArgumentParser) -> list[str]:
    """Every long option of ``parser`` and of its subcommands' parsers."""
    found = [s for action in parser._actions for s in action.option_strings if s.startswith("--")]
    for sub in subparsers(parser).values():
        found += _options(sub)
    return found


def test_command_options_are_lowercase_words_joined_by_hyphens() -> None:
    options = {option for name in COMMANDS for option in _options(build_parser(name))}
    assert len(options) > 30  # every command's options were found
    assert sorted(o for o in options if not re.fullmatch(r"--[a-z0-9]+(-[a-z0-9]+)*", o)) == []
