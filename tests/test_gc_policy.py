"""core.gc_policy: the collector pauses for a loading phase, then what was loaded is frozen."""

from __future__ import annotations

import gc

from core.gc_policy import loading


def test_loading_pauses_the_collector_then_freezes_and_resumes() -> None:
    gc.enable()
    before = gc.get_freeze_count()
    try:
        with loading():
            assert not gc.isenabled()
            kept = [[i] for i in range(5000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= before + len(kept)
    finally:
        gc.unfreeze()
        gc.enable()


def test_loading_leaves_a_disabled_collector_disabled_even_on_error() -> None:
    gc.disable()
    try:
        try:
            with loading():
                raise ValueError("boom")
        except ValueError:
            pass
        assert not gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()
