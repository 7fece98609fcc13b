"""The names the Dagster assets, the benchmarks and a few tests outside ``tests/ingest``
import from ``raterlab.ingest.run``, from where they live now: the one path for one file is
:mod:`raterlab.ingest.one_file` (receiving in :mod:`raterlab.ingest.receive`, the returns'
validation in :mod:`raterlab.ingest.returns`), the batching of many files
:mod:`raterlab.ingest.batches`, the inbox's ledger :mod:`raterlab.ingest.inbox`. Import from
those; this module goes once ``assets/ingest.py`` and ``benchmarks/`` do."""

from raterlab.ingest.batches import commit_all, validate_pending
from raterlab.ingest.inbox import pending, record_inbox
from raterlab.ingest.one_file import commit, ingest_file
from raterlab.ingest.receive import receive
from raterlab.ingest.returns import validate_received

__all__ = [
    "commit",
    "commit_all",
    "ingest_file",
    "pending",
    "receive",
    "record_inbox",
    "validate_pending",
    "validate_received",
]
