"""The study protocol: one YAML file per study, validated into a typed model.

Everything else (schemas, packets, forms, configs) is generated from a :class:`Study`.
"""

from raterlab.protocol.fields import (
    CONFIDENCE_LEVELS,
    LIST_SEPARATOR,
    SKIP_VALUE,
    BinaryField,
    CategoricalField,
    ConfidenceField,
    LikertField,
    ListField,
    PairwiseField,
    TextField,
)
from raterlab.protocol.load import StudyError, discover_studies, load_study, parse_study
from raterlab.protocol.rules import Constraint, ItemPredicate
from raterlab.protocol.study import Study, Task, study_json_schema

__all__ = [
    "CONFIDENCE_LEVELS",
    "LIST_SEPARATOR",
    "SKIP_VALUE",
    "BinaryField",
    "CategoricalField",
    "ConfidenceField",
    "Constraint",
    "ItemPredicate",
    "LikertField",
    "ListField",
    "PairwiseField",
    "Study",
    "StudyError",
    "Task",
    "TextField",
    "discover_studies",
    "load_study",
    "parse_study",
    "study_json_schema",
]
