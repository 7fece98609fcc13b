"""``studies/generate.py`` reproduces the bundled generations byte for byte from the sample
material (``studies/_samples/``), and every material file shapes what it writes."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import BUNDLED, REPO, STUDIES

SAMPLES = STUDIES / "_samples"
GENERATED = sorted(
    [f"{study}/generations.jsonl" for study in (*BUNDLED, "pairwise_arena")]
    + ["correctness_ab/cheat_sheet.md", "empathy/guide.md", "pairwise_arena/guide.md"]
    + ["pairwise_arena/judge_verdicts.csv"]
)
"""Every file the generator writes, relative to ``studies/``."""


def _written(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())


def _differing(out: Path) -> list[str]:
    """The generated files under ``out`` whose bytes differ from the committed ones."""
    return [
        name for name in GENERATED if (out / name).read_bytes() != (STUDIES / name).read_bytes()
    ]


def test_generate_reproduces_the_committed_files_byte_for_byte(tmp_path: Path) -> None:
    """Run as people run it (``python studies/generate.py``), into another folder."""
    done = subprocess.run(
        [sys.executable, "studies/generate.py", "--out", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _written(tmp_path) == GENERATED
    assert _differing(tmp_path) == []


@pytest.fixture(scope="module")
def generate_module() -> ModuleType:
    sys.path.insert(0, str(STUDIES))
    try:
        spec = importlib.util.spec_from_file_location("studies_generate", STUDIES / "generate.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(STUDIES))
    return module


USED_TEXT = {
    "correctness_ab/cheat_sheet.md": "Rate generously",
    "correctness_ab/material.yaml": "Bounded retries with backoff",
    "correctness_ab/prompts.yaml": "on flaky networks the request",
    "empathy/guide.md": "Content warning",
    "empathy/material.yaml": "My cat Pepper died this morning",
    "empathy/statements.yaml": "everyone has gone back to normal",
    "gold_tiers/code_tasks.yaml": "`is_palindrome(s: str) -> bool` that ignores case",
    "gold_tiers/documents.yaml": "today reported results for the",
    "gold_tiers/facts.yaml": "What is the chemical symbol for tungsten?",
    "gold_tiers/material.yaml": "Write a short summary of this text for a busy reader.",
    "gold_tiers/rag_topics.yaml": "12-month randomised trial of time-restricted eating",
    "pairwise_arena/guide.md": "Do not reward length, friendliness or confident tone",
    "pairwise_arena/material.yaml": "in a glass of water on the counter",
    "pairwise_arena/prompts.yaml": "dictionaries keep insertion order since Python 3.7",
    "plugin_triggers/material.yaml": "PostgreSQL helpers: schema migrations",
    "plugin_triggers/templates.yaml": "write the Alembic migration for",
    "rag_triplet/chunks.yaml": "can create up to 100 buckets by default",
    "rag_triplet/material.yaml": "Please load the dishwasher",
    "rag_triplet/queries.yaml": "How many buckets can I create in one project",
}
"""Per material file, a piece of its text that the generations contain."""


def test_every_material_file_has_a_used_text() -> None:
    files = sorted(str(p.relative_to(SAMPLES)) for p in SAMPLES.rglob("*") if p.is_file())
    assert files == sorted(USED_TEXT)


@pytest.mark.parametrize(("name", "text"), sorted(USED_TEXT.items()))
def test_one_changed_letter_in_any_material_file_changes_the_generations(
    name: str, text: str, generate_module: ModuleType, tmp_path: Path
) -> None:
    """Change one letter of a material file: the generator no longer reproduces the
    committed files (so the byte-for-byte test fails on any edit that reaches the output)."""
    samples = tmp_path / "samples"
    shutil.copytree(SAMPLES, samples)
    generate_module.generate_all(samples, tmp_path / "same")
    assert _differing(tmp_path / "same") == []
    path = samples / name
    content = path.read_text(encoding="utf-8")
    assert content.count(text) == 1, name
    i = max(j for j, ch in enumerate(text) if ch.isalpha())
    changed = text[:i] + text[i].swapcase() + text[i + 1 :]
    path.write_text(content.replace(text, changed), encoding="utf-8")
    generate_module.generate_all(samples, tmp_path / "changed")
    assert _differing(tmp_path / "changed") != []
