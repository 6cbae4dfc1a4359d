"""When the cyclic garbage collector runs: not while a process imports and loads its indexes.

Loading builds about a million long-lived objects (the graph, the curation counts, the token ranks). With the
collector on, every few thousand allocations start a collection that walks them again: about 0.3 s of a cold
``medpath ask``, and the same objects walked again at exit. :func:`loading` pauses the collector for a bounded
phase (imports, loading, one answer) and then freezes what exists (``gc.freeze``: moved to a generation that no
collection visits, including the one at interpreter exit), so later collections only see new objects.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["loading"]


@contextlib.contextmanager
def loading() -> Iterator[None]:
    """Pause the cyclic collector for the block; then freeze every object that exists and resume it.

    The block must be bounded (loading, or one question): garbage cycles made inside it are frozen too. Nested
    use is fine; the collector resumes only if it was on when the outermost block began.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_on:
            gc.enable()
