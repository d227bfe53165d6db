"""The user cache folder and the pickled objects in it (compiled rule tables, stub
headers' classifications); a missing or corrupt entry reads as None."""

from __future__ import annotations

import gc
import os
import pickle
from pathlib import Path

from ..source.gc_pause import gc_paused


def read_cache(name: str) -> object | None:
    """A cached object, or None when missing or unreadable (a corrupt cache is rebuilt).

    What a cache holds (a compiled rule table: ~60,000 objects the cyclic GC tracks)
    lives as long as the process, so it is frozen out of the GC: the first collection
    after the load scanned all of it (with the freeze, a one-file check spends 10 ms in
    the GC instead of 28), and each full collection would again."""
    try:
        with gc_paused(), open(_cache_dir() / f"{name}.pickle", "rb") as fh:
            loaded = pickle.load(fh)
            gc.freeze()
            return loaded
    except Exception:
        return None


def write_cache(name: str, obj: object) -> None:
    _write_cache(_cache_dir() / f"{name}.pickle", obj)


def _cache_dir() -> Path:
    base = os.environ.get("CUDAPORT_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return (root if os.environ.get("CUDAPORT_CACHE_DIR") else root / "cudaport")


def _write_cache(cache_file: Path, table: object) -> None:
    from ..run.runner.io import OutputError, write_output

    try:
        write_output(cache_file, pickle.dumps(table, protocol=pickle.HIGHEST_PROTOCOL),
                     durable=False)
    except OutputError:  # a read-only home must not stop translation
        pass
