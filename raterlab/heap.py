"""What a run's process holds between its steps: Python's collector kept off the code, and
the memory a step freed given back to the system.

A Dagster run executes its steps one after the other in one process. Two things made each
step pay for the ones before it:

- every full collection of Python's garbage walked the whole process, mostly code that lives
  as long as it does (14 in a 1,000-item study loop, 0.2-0.5 s each: 3.6 s of a 41 s loop):
  :func:`freeze_heap`;
- glibc's ``malloc`` keeps what is freed in its heaps and returns it only from the top of a
  heap, so what one step freed below a live block stayed resident under the next: at
  100,000 items ``malloc_trim(0)`` after a heavy step gave back 200-410 MB of 860-1,160 MB
  (glibc's heaps held 250-460 MB free), in 10-20 ms: :func:`memory_returned`
  (``benchmarks/README.md``, "End to end").
"""

import atexit
import ctypes
import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

YOUNG_OBJECTS = 10_000
"""Allocations (less deallocations) between two collections of the youngest generation
(Python's default: 700)."""


def freeze_heap() -> None:
    """Collect the garbage, then freeze what is left (:func:`gc.freeze`), so that Python's full
    collections pass it over from now on; and collect the youngest generation every
    :data:`YOUNG_OBJECTS` allocations, not every 700.

    What a run's process holds by then is mostly the code (modules, Dagster's definitions, the
    libraries the steps import when first used: about 500,000 objects after a run). Objects
    frozen are still freed when nothing refers to them; only a reference cycle among them
    would wait for the process to end. Unfrozen at exit, so that the interpreter's last
    collection frees them as before (nanobind, which DuckDB is built with, reports objects
    left over)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])


atexit.register(gc.unfreeze)


@cache
def _malloc_trim() -> ctypes._CFuncPtr | None:
    """glibc's ``malloc_trim``, ``None`` where the process does not run on glibc."""
    if sys.platform != "linux":
        return None
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def return_freed_memory() -> bool:
    """Give the pages glibc's heaps hold free back to the system (``malloc_trim(0)``, which
    since glibc 2.8 releases free pages anywhere in a heap, not only at its top). Returns
    whether any memory was released; ``False`` without glibc."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False


@contextmanager
def memory_returned() -> Iterator[None]:
    """:func:`return_freed_memory` before the block (what ran since freed) and after it,
    however it ends (what the block freed)."""
    return_freed_memory()
    try:
        yield
    finally:
        return_freed_memory()
