"""Returned annotations: reading, validation against the study's rules, quarantine, and the
write of accepted rows to ``gold.labels``."""

from raterlab.ingest.context import NoPackets
from raterlab.ingest.one_file import ingest_file
from raterlab.ingest.read import UnreadableFile, read_returned
from raterlab.ingest.returns import IngestResult, Preview, preview
from raterlab.ingest.row_checks import task_schema
from raterlab.ingest.rules import task_rules
from raterlab.ingest.validate import Validation, validate_file

__all__ = [
    "IngestResult",
    "NoPackets",
    "Preview",
    "UnreadableFile",
    "Validation",
    "ingest_file",
    "preview",
    "read_returned",
    "task_rules",
    "task_schema",
    "validate_file",
]
