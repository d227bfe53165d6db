"""One pass of the fast scanner over a file: what the translation passes need to know.

The scan keeps only table hits and CUDA-looking unknowns; every other identifier is
dropped inside the loop, so later passes walk short lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import lexer
from ..rules.compiled import Compiled


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
    # (start, name, context): the name object is the rule table's own key, shared by every
    # occurrence, so a file with 100,000 references keeps one copy of each name.
    idents: list[tuple[int, bytes, str]] = field(default_factory=list)
    unknown: list[tuple[int, bytes, str]] = field(default_factory=list)
    marks: list[tuple[int, bytes]] = field(default_factory=list)  # Compiled.marked_words
    includes: list[Include] = field(default_factory=list)
    launches: list[int] = field(default_factory=list)  # offsets of '<<<'
    directives: list[tuple[int, bytes]] = field(default_factory=list)  # conditional directives
    # (offset, what) of comments and literals that never close: they run to the end of
    # the file (block comment, raw string) or of the line (string), hiding that code.
    unterminated: list[tuple[int, str]] = field(default_factory=list)
    # (start, end) of every comment, string and character literal (and quoted #include
    # name), in order: what FileContext blanks to give the passes code only, with no
    # second regex pass over the file.
    literals: list[tuple[int, int]] = field(default_factory=list)


# Scans made before translation (a project's headers are read for the names they declare)
# and kept for the translation of the same bytes: (table key, length, hash) -> (src, scan).
_KEPT: dict[tuple[str, int, int], tuple[bytes, Scan]] = {}


# Scans worker processes made ahead of the pre-pass, by (table key, length, hash): a forked
# worker hashes bytes as its parent does. keep_scan takes each once.
_OFFERED: dict[tuple[str, int, int], Scan] = {}


def offer_scan(compiled: Compiled, length: int, digest: int, result: Scan) -> None:
    """A scan another process made of bytes with this length and hash (see
    :func:`scan_for_offer`)."""
    if compiled.key:
        _OFFERED[(compiled.key, length, digest)] = result


def scan_for_offer(src: bytes, compiled: Compiled) -> tuple[int, int, Scan]:
    """What a worker sends back for :func:`offer_scan`."""
    return len(src), hash(src), scan(src, compiled)


def keep_scan(src: bytes, compiled: Compiled) -> Scan:
    """``scan(src, compiled)``, kept for one later :func:`kept_scan` of the same bytes (a
    tree run forks its workers after the project pre-pass, so they inherit these)."""
    key = (compiled.key, len(src), hash(src))
    result = _OFFERED.pop(key, None) if _OFFERED else None
    if result is None:
        result = scan(src, compiled)
    if compiled.key:
        _KEPT[key] = (src, result)
    return result


def kept_scan(src: bytes, compiled: Compiled) -> Scan | None:
    """The scan :func:`keep_scan` made of these bytes, once (passes edit a scan's lists)."""
    if not _KEPT or not compiled.key:
        return None
    found = _KEPT.pop((compiled.key, len(src), hash(src)), None)
    return found[1] if found is not None and found[0] == src else None


def scan(src: bytes, compiled: Compiled, comments: bool = False, strings: bool = False) -> Scan:
    """Scan ``src`` once; identifiers in comments or strings are kept only when asked."""
    result = Scan()
    idents = result.idents
    unknown = result.unknown
    literal = result.literals.append
    canonical = compiled.names.get
    is_unknown = compiled.unknown.match
    marked = compiled.marked_words
    mark = result.marks.append
    kind_of = lexer.SCAN_KIND
    K_IDENT, K_SKIP, K_COMMENT = lexer.K_IDENT, lexer.K_SKIP, lexer.K_COMMENT
    K_STRING, K_DIRECTIVE, K_RAW_OR_IDENT = lexer.K_STRING, lexer.K_DIRECTIVE, lexer.K_RAW_OR_IDENT
    # Conditional-branch path: a counter per nesting level, bumped at #elif/#else.
    branch: list[int] = []
    serial = 0
    # A '#' that does not begin its logical line is no directive; if the scanner took an
    # include header with it, that text (maybe holding a '/*' or a quote) is scanned again
    # from just after the '#'.
    pos = 0
    HIT = lexer.G_HIT
    while pos is not None:
        resume = None
        for m in compiled.scanner.finditer(src, pos):
            text = m.group(HIT)
            if text is None:  # the end of the input
                break
            kind = kind_of[text[0]]
            if kind == K_RAW_OR_IDENT:  # (an identifier never holds a quote)
                kind = K_STRING if text[1:2] == b'"' else K_IDENT
            if kind == K_IDENT:
                if text in marked:  # (before the table: `texture` is in it too)
                    mark((m.start(HIT), text))
                    continue
                name = canonical(text)
                if name is not None:
                    idents.append((m.start(HIT), name, "code"))
                elif is_unknown(text):
                    unknown.append((m.start(HIT), text, "code"))
                continue
            if kind == K_STRING:
                span = m.span(HIT)
                literal(span)
                # (a plain string closed by a quote no backslash precedes ends there;
                # 0x22 '"', 0x5C backslash, 0x52 'R' of a raw string)
                if len(text) < 2 or text[-1] != 0x22 or text[-2] == 0x5C or text[0] == 0x52:
                    what = lexer.unterminated_string(text, m)
                    if what is not None:
                        result.unterminated.append((span[0], what))
                if strings:
                    _inner(src, *span, compiled, idents, unknown, "string")
            elif kind == K_COMMENT:
                span = m.span(HIT)
                literal(span)
                if text[1] == 0x2A and (len(text) < 4 or text[-2:] != b"*/"):  # "/*"
                    result.unterminated.append((span[0], "block comment"))
                if comments:
                    _inner(src, *span, compiled, idents, unknown, "comment")
            elif kind == K_DIRECTIVE:
                start = m.start(HIT)
                if not lexer.starts_logical_line(src, start):
                    if m.group(lexer.G_HEADER) is not None:
                        resume = start + 1
                        break
                    continue
                header = m.group(lexer.G_HEADER)
                if header is not None:
                    hs, he = m.span(lexer.G_HEADER)
                    if header[:1] == b'"':
                        literal((hs, he))
                    result.includes.append(
                        Include(start, he, hs + 1, he - 1, header[1:-1], tuple(branch)))
                    continue
                word = m.group(lexer.G_COND)
                result.directives.append((start, word))
                serial += 1
                if word.startswith(b"if"):
                    branch.append(serial)
                elif word == b"endif":
                    if branch:
                        branch.pop()
                elif branch:
                    branch[-1] = serial
            elif kind == K_SKIP:
                literal(m.span(HIT))
            else:
                result.launches.append(m.start(HIT))
        pos = resume
    return result


def _inner(src: bytes, start: int, end: int, compiled: Compiled,
           idents: list, unknown: list, context: str) -> None:
    """Identifiers inside a comment or string literal (for --rewrite-comments/strings)."""
    canonical = compiled.names.get
    for m in lexer.IDENT_RE.finditer(src, start, end):
        name = canonical(m.group())
        if name is not None:
            idents.append((m.start(), name, context))
        elif compiled.unknown.match(m.group()):
            unknown.append((m.start(), m.group(), context))
