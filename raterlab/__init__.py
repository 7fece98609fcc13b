"""raterlab: human-annotation studies for LLM evaluation, as plain Python over DataFrames.

Nothing in this package imports Dagster (a contract in ``pyproject.toml``, checked by ``make
lint``); the orchestration lives in ``assets/`` (assets and their checks, a module per stage),
``resources/`` and ``pipelines/``. The packages sit in layers: ``docs/architecture.md``.

A process that imports raterlab before Polars and PyArrow (the CLI, the Dagster code
location and the processes it starts) sets how the two allocate, so that its resident memory
follows what it holds (``benchmarks/README.md``, Ingest: each lowered a million-row return's
peak by 100 to 130 MB, and PyArrow's made its validation faster):

- Polars' jemalloc returns freed pages to the system after its usual delay, instead of
  keeping them as "muzzy" pages (released lazily with ``MADV_FREE``), which count as
  resident until the system runs short (``_RJEM_MALLOC_CONF=muzzy_decay_ms:0``);
- PyArrow allocates with the system allocator, as pandas and NumPy do, instead of its own
  mimalloc heap (``ARROW_DEFAULT_MEMORY_POOL=system``): freed buffers are not held apart.

A setting of the user's own is left as it is. Polars writes its defaults into
``_RJEM_MALLOC_CONF`` when imported (``dirty_decay_ms:500,muzzy_decay_ms:1000``) and appends
what was there before, the last setting winning: raterlab's comes after its defaults.
"""

import os

_POLARS_DEFAULTS = "dirty_decay_ms:500,muzzy_decay_ms:1000"
_jemalloc = os.environ.get("_RJEM_MALLOC_CONF", "")
if "muzzy_decay_ms" not in _jemalloc.replace(_POLARS_DEFAULTS, ""):
    os.environ["_RJEM_MALLOC_CONF"] = ",".join(filter(None, [_jemalloc, "muzzy_decay_ms:0"]))
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")

__version__ = "0.1.0"
