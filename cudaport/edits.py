"""Edits on original bytes and the emitter that splices them."""

from __future__ import annotations

from typing import NamedTuple


class Edit(NamedTuple):
    start: int
    end: int
    replacement: bytes
    rule_id: str
    # A compound edit (a rewritten call or launch) already contains the translation of
    # everything inside it, so plain edits nested in it are dropped, not applied twice.
    compound: bool = False


class OverlapError(AssertionError):
    """Two edits overlap partially: a bug in a pass, never a user error."""


def resolve(edits: list[tuple]) -> list[Edit]:
    """Sort edits, drop those nested in a compound edit, reject partial overlaps.

    Accepts plain ``(start, end, replacement, rule_id, compound)`` tuples (the hot path
    builds those) and returns :class:`Edit` values. Tuple order puts an insertion (empty
    span) before a longer edit at the same offset, and a compound edit after the
    shorter edits that start where it starts (those are then dropped).
    """
    kept: list[tuple] = []
    for edit in sorted(edits):
        if kept:
            prev = kept[-1]
            if edit == prev:
                continue
            if edit[0] < prev[1]:
                if prev[4] and edit[1] <= prev[1]:
                    continue  # nested in a compound edit that already translated it
                if edit[4] and edit[0] == prev[0]:
                    while (kept and kept[-1][0] == edit[0] < kept[-1][1] <= edit[1]):
                        kept.pop()  # shorter edits at the compound edit's start
                    if kept and kept[-1][1] > edit[0]:
                        raise OverlapError(f"overlapping edits: {kept[-1]} and {edit}")
                else:
                    raise OverlapError(f"overlapping edits: {prev} and {edit}")
        kept.append(edit)
    make = tuple.__new__
    return [e if type(e) is Edit else make(Edit, e) for e in kept]


def new_edit(start: int, end: int, replacement: bytes, rule_id: str,
             compound: bool = False, _make=tuple.__new__) -> Edit:
    """Build an Edit without NamedTuple's argument handling (several times faster; the
    identifier pass makes one per renamed name)."""
    return _make(Edit, (start, end, replacement, rule_id, compound))


def apply(src: bytes, edits: list[Edit]) -> bytes:
    """Splice resolved edits into ``src``; bytes outside them are copied unchanged."""
    if not edits:
        return src
    out = bytearray()
    view = memoryview(src)
    pos = 0
    for start, end, replacement, _rule, _compound in edits:
        out += view[pos:start]
        out += replacement
        pos = end
    out += view[pos:]
    return bytes(out)
