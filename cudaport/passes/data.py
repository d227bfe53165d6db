"""Plain-text data files that sit beside a target's rules (``rules/hip/NAME``): lists of
names some passes read (libcu++ names, HIP's device functions, Thrust back ends)."""

from __future__ import annotations

import functools
from pathlib import Path

from ..context import FileContext


def target_data(ctx: FileContext, name: str) -> tuple[str, ...]:
    """The lines of a data file in the target's rule folder (``rules/hip/NAME``), without
    comments and blank lines; empty when the target has no such file."""
    return _data_lines(str(Path(ctx.compiled.table.files[0]).parent / name))


def target_words(ctx: FileContext, name: str) -> frozenset[bytes]:
    """The lines of :func:`target_data` as a set of byte strings, made once per data file
    (a pass that built it per translated file spent more on it than on its search)."""
    return _data_words(str(Path(ctx.compiled.table.files[0]).parent / name))


@functools.cache
def _data_words(path: str) -> frozenset[bytes]:
    return frozenset(line.strip().encode() for line in _data_lines(path))


@functools.cache
def _data_lines(path: str) -> tuple[str, ...]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError:
        return ()
    return tuple(line for line in text.splitlines() if line.strip() and not line.startswith("#"))
