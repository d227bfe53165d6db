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
        return fn

    return deco


def passes(fragment: bool = False) -> list[tuple[str, Pass]]:
    """Registered passes in order; fragments only get the identifier-level ones."""
    _load()
    return [(name, fn) for order, name, fn in _PASSES if not fragment or order < 100]


def _load() -> None:
    from . import hazards, identifiers, includes, launches  # noqa: F401  (registration side effect)
    from . import rule_checks  # noqa: F401
