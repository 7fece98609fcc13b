"""The README's complete study example is a valid study file."""

from __future__ import annotations

import re

import yaml

from raterlab.protocol import parse_study
from tests.conftest import REPO


def test_readme_example_study_parses() -> None:
    text = (REPO / "README.md").read_text()
    block = re.search(r"A complete example.*?```yaml\n(.*?)```", text, re.S).group(1)
    study = parse_study(yaml.safe_load(block), "README.md")
    assert study.name == "helpfulness"
    assert study.tasks["answer"].fields["tone"].skip.reason == "notes"
    assert study.routing.tiers == ["GOLD", "TRIAGE"]
