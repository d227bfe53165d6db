"""Translation passes: each reads the scan (and clang facts when present) of one file and
adds edits and findings to its context. A pass never writes files and never prints.

Passes register themselves with :func:`register`; ``order`` fixes when they run.
"""

from __future__ import annotations

import threading

from .registry import _FINAL, _PASSES, Pass, register, register_final  # noqa: F401


def passes() -> list[tuple[str, Pass]]:
    """Registered passes in order."""
    _load()
    return [(name, fn) for _order, name, fn in _PASSES]


def final_steps() -> list[tuple[str, Pass]]:
    _load()
    return _FINAL


_LOADED = False
_LOAD_LOCK = threading.Lock()


def _load() -> None:
    """Import every pass module once. Threads translating files at the same time (the
    server, ``translate -j`` in threads) wait for the first to finish: marking the list
    loaded before the imports ran let a second thread run a partial list of passes."""
    global _LOADED
    if _LOADED:
        return
    with _LOAD_LOCK:
        if _LOADED:
            return
        _import_pass_modules()
        _LOADED = True


def _import_pass_modules() -> None:
    # inline PTX in a translation is the asm pass's CP210 (verify keeps CP503)
    from . import hazards
    from . import identifiers
    from . import includes
    from . import launches
    from . import spaced_launch  # noqa: F401
    from . import rule_checks  # noqa: F401
    from . import framework_includes
    from . import libcudacxx
    from . import redefinitions
    from . import thrust_backend  # noqa: F401
    from . import literal_suffix
    from . import register_keyword
    from . import narrowing_init  # noqa: F401
    from . import unterminated  # noqa: F401
    from . import device_printf  # noqa: F401
    from . import wavefront_blocks  # noqa: F401
    from . import wmma  # noqa: F401
    from . import warp_sync  # noqa: F401
    from . import gemm_compute_type  # noqa: F401
    from . import vector_init  # noqa: F401
    from . import half_pairs  # noqa: F401
    from . import mixed_min_max  # noqa: F401
    from . import portable_header  # noqa: F401
    from . import asm  # noqa: F401
    from . import launch_ex  # noqa: F401
    from . import half_atomics  # noqa: F401
    from . import dim3_uint3  # noqa: F401
    from . import host_only_runtime  # noqa: F401
    from . import integer_handles  # noqa: F401
