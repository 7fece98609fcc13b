"""raterlab: human-annotation studies for LLM evaluation, as plain Python over DataFrames.

Nothing in this package imports Dagster (a contract in ``pyproject.toml``, checked by ``make
lint``); the orchestration lives in ``assets/`` (assets and their checks, a module per stage),
``resources/`` and ``pipelines/``. The packages sit in layers: ``docs/architecture.md``.

A process that imports raterlab before Polars and PyArrow (the CLI, the Dagster code
location and the processes it starts) sets how the two, and glibc, allocate, so that its
resident memory follows what it holds (``benchmarks/README.md``, Ingest: the first two
each lowered a million-row return's peak by 100 to 130 MB, and PyArrow's made its
validation faster):

- Polars' jemalloc returns freed pages to the system after its usual delay, instead of
  keeping them as "muzzy" pages (released lazily with ``MADV_FREE``), which count as
  resident until the system runs short (``_RJEM_MALLOC_CONF=muzzy_decay_ms:0``);
- PyArrow allocates with the system allocator, as pandas and NumPy do, instead of its own
  mimalloc heap (``ARROW_DEFAULT_MEMORY_POOL=system``): freed buffers are not held apart;
- glibc's ``malloc`` (pandas, NumPy, PyArrow, Python's larger objects) maps every block of
  256 KB or more on its own and unmaps it when freed, and gives back its heap's free top past
  512 KB (``mallopt``: ``M_MMAP_THRESHOLD``, ``M_TRIM_THRESHOLD``). By default the mapping
  threshold rises to the size of the largest block freed (up to 32 MB), so after the first
  large frame is freed, later ones are carved from the heap, and what a step freed stays
  resident under the next step (benchmarks/README.md, "End to end": in one run of every
  asset on a 30,000-item study, the last steps started about 150 MB lower and the run
  peaked about 190 MB lower).

A setting of the user's own is left as it is (for glibc: ``MALLOC_MMAP_THRESHOLD_`` or
``MALLOC_TRIM_THRESHOLD_`` in the environment, or ``GLIBC_TUNABLES``). Polars writes its
defaults into ``_RJEM_MALLOC_CONF`` when imported (``dirty_decay_ms:500,muzzy_decay_ms:1000``)
and appends what was there before, the last setting winning: raterlab's comes after its
defaults.
"""

import ctypes
import os
import sys

_POLARS_DEFAULTS = "dirty_decay_ms:500,muzzy_decay_ms:1000"
_jemalloc = os.environ.get("_RJEM_MALLOC_CONF", "")
if "muzzy_decay_ms" not in _jemalloc.replace(_POLARS_DEFAULTS, ""):
    os.environ["_RJEM_MALLOC_CONF"] = ",".join(filter(None, [_jemalloc, "muzzy_decay_ms:0"]))
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")

MMAP_THRESHOLD = 256 * 1024
TRIM_THRESHOLD = 512 * 1024
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h


def _set_glibc_thresholds() -> bool:
    """Fix glibc's mapping and trimming thresholds (see above); ``False`` where the process
    does not run on glibc or the user set them."""
    own = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES")
    if sys.platform != "linux" or any(name in os.environ for name in own):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )


GLIBC_THRESHOLDS_SET = _set_glibc_thresholds()

__version__ = "0.1.0"
