"""Checks that a translation kept cudaport's promises; used by tests, fuzzing and the
corpus benchmark (bench/check_tree.py), never by the translator itself.

Promises: no exception; translating the output again changes nothing; bytes outside the
edits are identical; no edit starts inside a comment or string literal unless the
options asked for it.
"""

from __future__ import annotations

from ..source import encodings
from ..source import lexer
from ..options import Options
from .pipeline import Result, translate_bytes

_LITERAL_KINDS = {"comment": "comment", "string": "string", "char": "string"}


def problems(src: bytes, options: Options | None = None, path: str = "<input>") -> list[str]:
    """Everything wrong with translating ``src``; an empty list means all promises hold."""
    options = options or Options()
    found: list[str] = []
    try:
        result = translate_bytes(src, options, path)
    except Exception as exc:  # the point is to report crashes, whatever they are
        return [f"{path}: crash: {type(exc).__name__}: {exc}"]
    found += _outside_edits(src, result, path)
    found += _edits_in_literals(src, result, options, path)
    try:
        again = translate_bytes(result.output, options, path)
    except Exception as exc:
        return found + [f"{path}: crash on second pass: {type(exc).__name__}: {exc}"]
    if again.output != result.output:
        first = next(i for i, (a, b) in enumerate(zip(again.output, result.output)) if a != b) \
            if len(again.output) == len(result.output) else min(len(again.output), len(result.output))
        line = result.output.count(b"\n", 0, first) + 1
        found.append(f"{path}:{line}: not idempotent: a second pass changed the output")
    return found


def _outside_edits(src: bytes, result: Result, path: str) -> list[str]:
    out = result.output
    pos_in = pos_out = 0
    for edit in result.edits:
        gap = src[pos_in:edit.start]
        if out[pos_out:pos_out + len(gap)] != gap:
            return [f"{path}: bytes before offset {edit.start} changed outside any edit"]
        pos_out += len(gap) + len(edit.replacement)
        pos_in = edit.end
    if out[pos_out:] != src[pos_in:]:
        return [f"{path}: bytes after the last edit changed"]
    return []


def _edits_in_literals(src: bytes, result: Result, options: Options, path: str) -> list[str]:
    if not result.edits:
        return []
    allowed = {k for k, on in (("comment", options.rewrite_comments),
                               ("string", options.rewrite_strings)) if on}
    lexable = encodings.mask(src, options.encoding)[0]  # as the translator read it
    spans = [(t.start, t.end, _LITERAL_KINDS[t.kind]) for t in lexer.tokenize(lexable)
             if t.kind in _LITERAL_KINDS]
    found = []
    i = 0
    for edit in result.edits:
        while i < len(spans) and spans[i][1] <= edit.start:
            i += 1
        if i < len(spans) and spans[i][0] < edit.start < spans[i][1] \
                and spans[i][2] not in allowed:
            line = src.count(b"\n", 0, edit.start) + 1
            found.append(f"{path}:{line}: edit {edit.rule_id} inside a {spans[i][2]}")
    return found
