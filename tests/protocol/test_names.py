"""The name shapes of ``raterlab.protocol.names`` as the places that use them apply them: the
unit's id key of the two export formats, and the parts of a consensus view's name."""

from __future__ import annotations

import pytest

from raterlab.consensus.store import wide_view_name
from raterlab.exports.study_json import unit_key
from raterlab.protocol import parse_study
from raterlab.terminal.names import id_key
from tests.conftest import MINI_STUDY


@pytest.mark.parametrize(
    ("unit", "json_key", "label_key"),
    [
        ("response", "response_id", "responseId"),
        ("plugin_scenario", "plugin_scenario_id", "pluginScenarioId"),
        ("Response", "item_id", "ResponseId"),
        ("(query, chunk)", "item_id", "itemId"),
        ("response\n", "item_id", "itemId"),
    ],
)
def test_a_one_word_unit_names_its_id_key(unit, json_key, label_key) -> None:
    tasks = {**MINI_STUDY["tasks"]}
    tasks["answer"] = {**tasks["answer"], "unit": unit}
    study = parse_study({**MINI_STUDY, "tasks": tasks})
    assert unit_key(study, "answer") == json_key
    assert id_key(unit) == label_key


def test_a_view_name_is_made_only_of_plain_parts() -> None:
    assert wide_view_name("mini", "answer-2") == 'gold."mini__answer-2__consensus"'
    with pytest.raises(ValueError, match="plain identifier"):
        wide_view_name("mini", 'answer"; DROP TABLE x; --')
