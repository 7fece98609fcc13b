"""raterlab: human-annotation studies for LLM evaluation, as plain Python over DataFrames.

Nothing in this package imports Dagster; the orchestration lives in ``assets/``, ``checks/``,
``resources/`` and ``pipelines/``.

A process that imports raterlab before Polars and PyArrow (the CLI, the Dagster code
location and the processes it starts) sets how the two allocate, so that its resident memory
follows what it holds (``benchmarks/README.md``, Ingest: a million-row return's peak falls
from about 1,160 MB to 950 MB, and it is validated faster):

- Polars' jemalloc returns freed pages to the system after its usual delay, instead of
  keeping them as "muzzy" pages (released lazily with ``MADV_FREE``), which count as
  resident until the system runs short (``_RJEM_MALLOC_CONF=muzzy_decay_ms:0``);
- PyArrow allocates with the system allocator, as pandas and NumPy do, instead of its own
  mimalloc heap (``ARROW_DEFAULT_MEMORY_POOL=system``): freed buffers are not held apart.

A setting already in the environment is left as it is.
"""

import os

os.environ.setdefault("_RJEM_MALLOC_CONF", "muzzy_decay_ms:0")
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")

__version__ = "0.1.0"
