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


def test_readme_protocol_settings_merge_into_a_valid_study() -> None:
    text = (REPO / "README.md").read_text()
    base = re.search(r"A complete example.*?```yaml\n(.*?)```", text, re.S).group(1)
    extra = re.search(r"More settings, for bringing.*?```yaml\n(.*?)```", text, re.S).group(1)
    study = parse_study(_merged(yaml.safe_load(base), yaml.safe_load(extra)), "README.md")
    assert study.packet.columns[0] == "sample_id"
    assert study.consensus.adjudicate.likert_gap == 2
    assert study.consensus.adjudicate.notes_contain == ["UNCERTAIN"]
    assert study.thresholds.pilot_gate.weights == "unweighted"
    assert study.edge_cases[-1].when.matches({"answer": "No idea."})
