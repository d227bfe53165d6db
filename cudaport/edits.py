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


def resolve(edits: list[Edit]) -> list[Edit]:
    """Sort edits, drop those nested in a compound edit, reject partial overlaps.

    Insertions (empty spans) sort before a longer edit at the same offset.
    """
    ordered = sorted(edits, key=lambda e: (e.start, e.end > e.start, -e.end))
    kept: list[Edit] = []
    for edit in ordered:
        if kept:
            prev = kept[-1]
            if edit == prev:
                continue
            nested = prev.start <= edit.start < prev.end and edit.end <= prev.end
            if nested and prev.compound:
                continue
            if edit.start < prev.end:
                raise OverlapError(f"overlapping edits: {prev} and {edit}")
        kept.append(edit)
    return kept


def apply(src: bytes, edits: list[Edit]) -> bytes:
    """Splice resolved edits into ``src``; bytes outside them are copied unchanged."""
    out = []
    pos = 0
    for edit in edits:
        out.append(src[pos:edit.start])
        out.append(edit.replacement)
        pos = edit.end
    out.append(src[pos:])
    return b"".join(out)
