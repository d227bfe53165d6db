"""Pausing Python's cyclic garbage collector around work that allocates many objects and
leaves no cycles behind."""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def gc_paused():
    """Loading a rule table creates ~100,000 long-lived objects, and translating a file
    one or more per finding (a run over CCCL makes 150,000); the cyclic GC would scan
    them again and again for nothing. Pausing it makes a warm table load 2-3 times
    faster and keeps a file's time linear in its findings (with it on, 8 times the
    findings took 13-20 times as long). Whatever cycles the work leaves are collected
    once the GC is back on."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
