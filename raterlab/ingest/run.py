"""The names the Dagster assets and a few tests import from ``raterlab.ingest.run``, where
they live now: the one path for one file is :mod:`raterlab.ingest.one_file`, the batching of
many :mod:`raterlab.ingest.batches`, the inbox's ledger :mod:`raterlab.ingest.inbox`. Import
from those; this module goes once ``assets/ingest.py`` does."""

from raterlab.ingest.batches import commit_all, validate_pending
from raterlab.ingest.inbox import pending, record_inbox
from raterlab.ingest.one_file import ingest_file

__all__ = ["commit_all", "ingest_file", "pending", "record_inbox", "validate_pending"]
