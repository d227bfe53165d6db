"""Translation passes: each reads the scan (and clang facts when present) of one file and
adds edits and findings to its context. A pass never writes files and never prints.

Passes register themselves with :func:`register`; ``order`` fixes when they run.
"""

from __future__ import annotations

from typing import Callable

from ..context import FileContext

Pass = Callable[[FileContext], None]
_PASSES: list[tuple[int, str, Pass]] = []


def register(order: int, name: str) -> Callable[[Pass], Pass]:
    def deco(fn: Pass) -> Pass:
        _PASSES.append((order, name, fn))
        _PASSES.sort(key=lambda item: item[0])
        _ORDERED.clear()
        return fn

    return deco


_ORDERED: dict[bool, list[tuple[str, Pass]]] = {}


def passes(fragment: bool = False) -> list[tuple[str, Pass]]:
    """Registered passes in order; fragments only get the identifier-level ones.
    (Computed once: fragments of calls and launches ask for it many times per file.)"""
    if fragment not in _ORDERED:
        _load()
        _ORDERED[fragment] = [(name, fn) for order, name, fn in _PASSES
                              if not fragment or order < 100]
    return _ORDERED[fragment]


def _load() -> None:
    # inline PTX in a translation is the hazard pass's CP210 (verify keeps CP503)
    from . import hazards, identifiers, includes, launches, spaced_launch  # noqa: F401
    from . import rule_checks  # noqa: F401
    from . import framework_includes, warp_sync  # noqa: F401
