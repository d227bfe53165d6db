"""One pass of the fast scanner over a file: what the translation passes need to know.

The scan keeps only table hits and CUDA-looking unknowns; every other identifier is
dropped inside the loop, so later passes walk short lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import lexer
from .rules.compiled import Compiled


@dataclass(slots=True)
class Include:
    start: int  # the '#'
    end: int  # end of the header name's closing delimiter
    name_start: int  # first byte inside the delimiters
    name_end: int
    name: bytes
    branch: tuple[int, ...]  # conditional-branch path, for de-duplication


@dataclass(slots=True)
class Scan:
    idents: list[tuple[int, int, bytes, str]] = field(default_factory=list)  # start, end, name, context
    unknown: list[tuple[int, int, bytes, str]] = field(default_factory=list)
    includes: list[Include] = field(default_factory=list)
    launches: list[int] = field(default_factory=list)  # offsets of '<<<'
    directives: list[tuple[int, bytes]] = field(default_factory=list)  # conditional directives


def scan(src: bytes, compiled: Compiled, comments: bool = False, strings: bool = False) -> Scan:
    """Scan ``src`` once; identifiers in comments or strings are kept only when asked."""
    result = Scan()
    idents = result.idents
    unknown = result.unknown
    lookup = compiled.identifiers.get
    is_unknown = compiled.unknown.match
    G_IDENT, G_COMMENT, G_STRING = lexer.G_IDENT, lexer.G_COMMENT, lexer.G_STRING
    G_INCLUDE, G_COND, G_LAUNCH = lexer.G_INCLUDE, lexer.G_COND, lexer.G_LAUNCH
    # Conditional-branch path: a counter per nesting level, bumped at #elif/#else.
    branch: list[int] = []
    serial = 0
    for m in compiled.scanner.finditer(src):
        group = m.lastindex
        if group == G_IDENT:
            name = m.group(G_IDENT)
            if lookup(name) is not None:
                idents.append((m.start(), m.end(), name, "code"))
            elif is_unknown(name):
                unknown.append((m.start(), m.end(), name, "code"))
        elif group is None:
            continue
        elif group == G_COMMENT:
            if comments:
                _inner(src, m.start(), m.end(), compiled, idents, unknown, "comment")
        elif group == G_STRING:
            if strings:
                _inner(src, m.start(), m.end(), compiled, idents, unknown, "string")
        elif group == G_INCLUDE:
            hs, he = m.span(G_INCLUDE)
            result.includes.append(
                Include(m.start(), he, hs + 1, he - 1, src[hs + 1:he - 1], tuple(branch)))
        elif group == G_COND:
            word = m.group(G_COND)
            result.directives.append((m.start(), word))
            serial += 1
            if word.startswith(b"if"):
                branch.append(serial)
            elif word == b"endif":
                if branch:
                    branch.pop()
            elif branch:
                branch[-1] = serial
        elif group == G_LAUNCH:
            result.launches.append(m.start())
    return result


def _inner(src: bytes, start: int, end: int, compiled: Compiled,
           idents: list, unknown: list, context: str) -> None:
    """Identifiers inside a comment or string literal (for --rewrite-comments/strings)."""
    lookup = compiled.identifiers.get
    for m in lexer.IDENT_RE.finditer(src, start, end):
        name = m.group()
        if lookup(name) is not None:
            idents.append((m.start(), m.end(), name, context))
        elif compiled.unknown.match(name):
            unknown.append((m.start(), m.end(), name, context))
