"""The shapes of the names a study file gives: study, task and field names, and the ids of
people and judges (one definition each; the study model, its checks and the front ends use
these)."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

LOWER_WORD = re.compile(r"^[a-z][a-z0-9_]*$")
"""One lowercase snake_case word (``response``, ``gold_tiers``)."""

WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
"""One word of letters, digits and ``_`` (``scenario``, ``Response``, ``prompt_id``)."""

STUDY_NAME = LOWER_WORD.pattern
"""A study's name (:data:`LOWER_WORD`): it names folders, tables' rows and DuckDB views."""

VIEW_NAME_PART = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
"""A study or task name as part of a quoted DuckDB view name (a task name may hold ``-``)."""

PERSON_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
"""An annotator's, adjudicator's or judge's id: letters, digits, ``_``, ``.``, ``-``, not
starting with a punctuation mark (it is used in paths and file names)."""

PersonId = Annotated[str, Field(pattern=PERSON_ID)]
"""A study-file id of a person or judge (:data:`PERSON_ID`)."""

TASK_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
TASK_NAME_RULE = "must be lowercase letters, digits, '_' and '-', starting with a letter"
FIELD_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
FIELD_NAME_RULE = "must be letters, digits and '_', starting with a letter"
