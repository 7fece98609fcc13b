"""Every example in a docstring of raterlab runs, and gives what the docstring shows."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WITH_EXAMPLES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for path in (ROOT / "raterlab").rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8")
)


def test_examples_are_found() -> None:
    assert "raterlab.agreement" in WITH_EXAMPLES


@pytest.mark.parametrize("module", WITH_EXAMPLES)
def test_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
