"""raterlab: human-annotation studies for LLM evaluation, as plain Python over DataFrames.

Nothing in this package imports Dagster; the orchestration lives in ``assets/``, ``checks/``,
``resources/`` and ``pipelines/``.

Polars allocates with its own jemalloc, which by default keeps freed pages as "muzzy" pages
(released lazily with ``MADV_FREE``): they stay in the process's resident memory until the
system runs short. A process that imports raterlab before Polars (the CLI, the Dagster code
location and its runs) asks jemalloc to return them with the rest of its freed memory
instead, after jemalloc's usual delay for reuse, so that its resident memory follows what it
holds: a million-row return's peak falls by about 130 MB (``benchmarks/README.md``, Ingest).
A ``_RJEM_MALLOC_CONF`` already set is left as it is.
"""

import os

os.environ.setdefault("_RJEM_MALLOC_CONF", "muzzy_decay_ms:0")

__version__ = "0.1.0"
