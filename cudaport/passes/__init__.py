"""Translation passes: each reads the scan (and clang facts when present) of one file and
adds edits and findings to its context. A pass never writes files and never prints.

Passes register themselves with :func:`register`; ``order`` fixes when they run.
"""

from __future__ import annotations

from .registry import _FINAL, _PASSES, Pass, register, register_final  # noqa: F401


def passes() -> list[tuple[str, Pass]]:
    """Registered passes in order."""
    _load()
    return [(name, fn) for _order, name, fn in _PASSES]


def final_steps() -> list[tuple[str, Pass]]:
    _load()
    return _FINAL


_LOADED = False


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    # inline PTX in a translation is the hazard pass's CP210 (verify keeps CP503)
    from . import hazards, identifiers, includes, launches, spaced_launch  # noqa: F401
    from . import rule_checks  # noqa: F401
    from . import framework_includes, libcudacxx, redefinitions, thrust_backend  # noqa: F401
    from . import literal_suffix, register_keyword, unterminated  # noqa: F401
    from . import wavefront_blocks  # noqa: F401
    from . import warp_sync  # noqa: F401
    from . import gemm_compute_type  # noqa: F401
