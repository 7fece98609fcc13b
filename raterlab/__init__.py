"""raterlab: human-annotation studies for LLM evaluation, as plain Python over DataFrames.

Nothing in this package imports Dagster (a contract in ``pyproject.toml``, checked by ``make
lint``); the orchestration lives in ``assets/`` (assets and their checks, a module per stage),
``resources/`` and ``pipelines/``. The packages sit in layers: ``docs/architecture.md``.

A process that imports raterlab before Polars, PyArrow and DuckDB (the CLI, the Dagster code
location and the processes it starts) sets how the three, and glibc, allocate, so that its
resident memory follows what it holds (``benchmarks/README.md``, Ingest: the first two each
lowered a million-row return's peak by 100 to 130 MB, and PyArrow's made its validation
faster):

- Polars' jemalloc returns freed pages to the system after its usual delay, instead of
  keeping them as "muzzy" pages (released lazily with ``MADV_FREE``), which count as
  resident until the system runs short (``_RJEM_MALLOC_CONF=muzzy_decay_ms:0``);
- DuckDB's jemalloc returns freed pages to the system from a background thread 0.1 s after
  they are freed (``DUCKDB_JE_MALLOC_CONF=background_thread:true,dirty_decay_ms:100,
  muzzy_decay_ms:0``), instead of keeping them for its next query: a 100,000-item study's
  warehouse digest left 125-185 MB resident after its connection was closed, through every
  later step, and the digest and the study's read took as long either way;
- PyArrow allocates with the system allocator, as pandas and NumPy do, instead of its own
  mimalloc heap (``ARROW_DEFAULT_MEMORY_POOL=system``): freed buffers are not held apart;
- glibc's ``malloc`` keeps at most two arenas (``mallopt(M_ARENA_MAX, 2)``, as
  ``MALLOC_ARENA_MAX=2`` does): it otherwise makes one more per thread that finds the others
  busy (DuckDB's, BLAS's), each keeping what was freed in it, and what the process keeps
  from step to step was most of each step's peak (``benchmarks/README.md``, "Memory per
  step": a 30,000-item study's run peaked at 1,141 MB with ``MALLOC_ARENA_MAX=2``, 1,636 MB
  without, the same code under loads of 4.0 and 6.3).

A setting of the user's own is left as it is (for glibc: ``MALLOC_ARENA_MAX`` or
``GLIBC_TUNABLES`` in the environment). Polars writes its defaults into
``_RJEM_MALLOC_CONF`` when imported (``dirty_decay_ms:500,muzzy_decay_ms:1000``) and appends
what was there before, the last setting winning: raterlab's comes after its defaults.
"""

import ctypes
import os
import sys

_POLARS_DEFAULTS = "dirty_decay_ms:500,muzzy_decay_ms:1000"
_jemalloc = os.environ.get("_RJEM_MALLOC_CONF", "")
if "muzzy_decay_ms" not in _jemalloc.replace(_POLARS_DEFAULTS, ""):
    os.environ["_RJEM_MALLOC_CONF"] = ",".join(filter(None, [_jemalloc, "muzzy_decay_ms:0"]))
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
os.environ.setdefault(
    "DUCKDB_JE_MALLOC_CONF", "background_thread:true,dirty_decay_ms:100,muzzy_decay_ms:0"
)

ARENA_MAX = 2
_M_ARENA_MAX = -8  # glibc's malloc.h


def _limit_glibc_arenas() -> bool:
    """At most :data:`ARENA_MAX` glibc arenas (see above); ``False`` where the process does
    not run on glibc or the user set them."""
    if sys.platform != "linux" or {"MALLOC_ARENA_MAX", "GLIBC_TUNABLES"} & set(os.environ):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_ARENA_MAX, ARENA_MAX))


GLIBC_ARENAS_LIMITED = _limit_glibc_arenas()

__version__ = "0.1.0"
