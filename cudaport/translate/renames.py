"""``--rename``: local ``#include "..."`` paths that point at renamed files follow them.

Only quoted includes are considered, resolved against the including file's folder and
then the tree's root (the two places a project's own headers are usually found);
includes inside comments and string literals are left alone.
"""

from __future__ import annotations

import posixpath

from ..source import lexer
from ..source.lazy_re import lazy

_INCLUDES = lazy(
    rb"(" + lexer.LINE_COMMENT + rb"|" + lexer.BLOCK_COMMENT + rb")|(?:"
    + lexer.RAW_STRING + rb"|" + lexer.STRING + rb")|" + lexer.INCLUDE)


def rewrite_includes(src: bytes, rel: str, renamed: frozenset[str],
                     rename: dict[str, str]) -> bytes:
    """``src`` (the file at ``rel``) with quoted includes of files in ``renamed`` given
    their new suffix."""
    if not any(suffix.encode() + b'"' in src for suffix in rename):
        return src
    folder = posixpath.dirname(rel)
    pieces: list[bytes] = []
    last = 0
    for m in _INCLUDES.finditer(src):
        header = m.group("header")
        if not header or not header.startswith(b'"'):
            continue
        name = header[1:-1].decode("utf-8", "surrogateescape")
        for candidate in (posixpath.join(folder, name), name):
            candidate = posixpath.normpath(candidate)
            if candidate in renamed:
                stem, suffix = posixpath.splitext(name)
                new = (stem + rename[suffix]).encode("utf-8", "surrogateescape")
                start = m.start("header") + 1
                pieces += [src[last:start], new]
                last = m.end("header") - 1
                break
    if not pieces:
        return src
    pieces.append(src[last:])
    return b"".join(pieces)
