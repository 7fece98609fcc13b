"""A run freezes what its process holds (raterlab.heap.freeze_heap): the garbage is collected
first, and later garbage is still collected."""

from __future__ import annotations

import gc
import weakref

import dagster as dg
import pytest

from raterlab.heap import YOUNG_OBJECTS
from resources import Raterlab


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


@pytest.fixture
def restored_collector():
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_a_run_freezes_the_heap_after_collecting_it(restored_collector, tmp_path) -> None:
    before = _Node()
    gone_before = weakref.ref(before)
    del before
    resource, context = Raterlab(home=str(tmp_path)), dg.build_init_resource_context()
    resource.setup_for_execution(context)
    resource.teardown_after_execution(context)  # the run's end: the warehouse let go
    assert gone_before() is None  # collected, not frozen
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == YOUNG_OBJECTS
    after = _Node()
    gone_after = weakref.ref(after)
    del after
    gc.collect()
    assert gone_after() is None  # what a run makes is collected as before
