"""Plain-text data files that sit beside a target's rules (``rules/hip/NAME``): lists of
names some passes read (libcu++ names, HIP's device functions, Thrust back ends).

Each is read and parsed once per process; passes ask for it per translated file, so the
lookup is a dict get (building the path with pathlib per file cost more than a pass)."""

from __future__ import annotations

import functools
import os

from ..context import FileContext


def target_data(ctx: FileContext, name: str) -> tuple[str, ...]:
    """The lines of a data file in the target's rule folder (``rules/hip/NAME``), without
    comments and blank lines; empty when the target has no such file."""
    return _data_lines(ctx.compiled.table.files[0], name)


def target_words(ctx: FileContext, name: str) -> frozenset[bytes]:
    """The lines of :func:`target_data` as a set of byte strings."""
    return _data_words(ctx.compiled.table.files[0], name)


@functools.cache
def _data_words(rule_file: str, name: str) -> frozenset[bytes]:
    return frozenset(line.strip().encode() for line in _data_lines(rule_file, name))


@functools.cache
def _data_lines(rule_file: str, name: str) -> tuple[str, ...]:
    try:
        with open(os.path.join(os.path.dirname(rule_file), name), encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return ()
    return tuple(line for line in text.splitlines() if line.strip() and not line.startswith("#"))
