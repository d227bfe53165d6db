"""Where passes register themselves (see :mod:`cudaport.translate.passes`)."""

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


_FINAL: list[tuple[str, Pass]] = []


def register_final(name: str) -> Callable[[Pass], Pass]:
    """A step run once after every pass: applies what passes requested on the context
    (the main header), so no pass depends on another having run before it."""
    def deco(fn: Pass) -> Pass:
        _FINAL.append((name, fn))
        return fn

    return deco
