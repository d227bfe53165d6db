"""Edits on original bytes and the emitter that splices them."""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple, Union

# What an edit puts in place of its span: bytes, or -- for a call rebuilt by an argument
# template that reorders or drops arguments -- a tuple of parts, each bytes or a
# ``(start, end)`` span of the original source. A span part is emitted with the edits
# nested in it applied (names inside a moved argument keep their own renames); edits
# nested in the rebuilt span outside every span part are dropped with the text.
Replacement = Union[bytes, tuple]


class Edit(NamedTuple):
    start: int
    end: int
    replacement: Replacement
    rule_id: str


class OverlapError(AssertionError):
    """Two edits overlap partially: a bug in a pass, never a user error."""


def resolve(edits: list[tuple], src: bytes = b"") -> list[Edit]:
    """Sort edits, reject partial overlaps, and emit rebuilt spans (see ``Replacement``).

    Accepts plain ``(start, end, replacement, rule_id)`` tuples (the hot path builds
    those) and returns :class:`Edit` values whose replacements are all bytes. Tuple order
    puts an insertion (empty span) before a longer edit at the same offset. ``src`` is
    needed only when some edit has parts.
    """
    try:
        ordered = sorted(edits)
    except TypeError:  # bytes and parts compared: the same span twice, order by span
        ordered = sorted(edits, key=itemgetter(0, 1))
    kept: list[tuple] = []
    nested: dict[int, list[tuple]] = {}  # index in kept of a rebuilt span -> its edits
    for edit in ordered:
        if kept:
            prev = kept[-1]
            if edit == prev:
                continue
            if edit[0] < prev[1]:
                if type(prev[2]) is tuple and edit[1] <= prev[1]:
                    nested[len(kept) - 1].append(edit)
                    continue
                raise OverlapError(f"overlapping edits: {prev} and {edit}")
        if type(edit[2]) is tuple:
            nested[len(kept)] = []
        kept.append(edit)
    for i, inner in nested.items():
        start, end, parts, rule_id = kept[i]
        kept[i] = (start, end, _rebuild(src, parts, resolve(inner, src)), rule_id)
    make = tuple.__new__
    return [e if type(e) is Edit else make(Edit, e) for e in kept]


def _rebuild(src: bytes, parts: tuple, inner: list[Edit]) -> bytes:
    """The bytes of a rebuilt span: literal parts as they are, span parts with the
    (resolved) edits inside them applied."""
    out = []
    for part in parts:
        if type(part) is not tuple:
            out.append(part)
            continue
        a, b = part
        inside = []
        for edit in inner:
            if a <= edit.start and edit.end <= b:
                inside.append(edit)
            elif edit.start < b and edit.end > a:
                raise OverlapError(f"edit {edit} crosses the moved span {a}-{b}")
        out.append(apply(src[a:b], [e._replace(start=e.start - a, end=e.end - a)
                                    for e in inside]))
    return b"".join(out)


def new_edit(start: int, end: int, replacement: bytes, rule_id: str,
             _make=tuple.__new__) -> Edit:
    """Build an Edit without NamedTuple's argument handling (several times faster; the
    identifier pass makes one per renamed name)."""
    return _make(Edit, (start, end, replacement, rule_id))


def apply(src: bytes, edits: list[Edit]) -> bytes:
    """Splice resolved edits into ``src``; bytes outside them are copied unchanged."""
    if not edits:
        return src
    out = bytearray()
    view = memoryview(src)
    pos = 0
    for start, end, replacement, _rule in edits:
        out += view[pos:start]
        out += replacement
        pos = end
    out += view[pos:]
    return bytes(out)
